//! Where a page of a player's history starts, by key (issue 31, item 12): shared by the
//! history reads and the page buttons' data.

use crate::model::GameId;
use crate::ratings::keys::{history_key, history_prefix};

/// Where a page of a history starts, by key (issue 31, item 12): a page is one ordered read
/// of the `History` index from a key, so the 10,000th page costs what the first does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PageAt {
    /// The newest games.
    Newest,
    /// The games just older than this one (the next page).
    OlderThan(Cursor),
    /// The games just newer than this one (the page before).
    NewerThan(Cursor),
}

/// A game's place in a player's history: its end time as in its key and its id. Short
/// enough for button data (`<end time in base 36>.<game>`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cursor {
    pub ended: u64,
    pub game: GameId,
}

impl Cursor {
    /// `<end time in base 36>.<game>`.
    pub fn encode(&self) -> String {
        format!("{}.{}", base36(self.ended), self.game)
    }

    /// A cursor from [`Cursor::encode`]; `None` for anything else (a game id is 1 to 16
    /// characters `[a-z0-9]`).
    pub fn decode(text: &str) -> Option<Cursor> {
        let (ended, game) = text.split_once('.')?;
        let ended = u64::from_str_radix(ended, 36).ok()?;
        let id_ok = (1..=16).contains(&game.len())
            && game
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        id_ok.then(|| Cursor {
            ended,
            game: game.to_string(),
        })
    }

    /// The cursor of an entry of `user_key`'s history, from its key.
    pub(super) fn of_key(user_key: &str, key: &str) -> Option<Cursor> {
        let rest = key.strip_prefix(&history_prefix(user_key))?;
        let (inverted, game) = rest.split_once('|')?;
        let inverted = u64::from_str_radix(inverted, 16).ok()?;
        Some(Cursor {
            ended: u64::MAX - inverted,
            game: game.to_string(),
        })
    }

    pub(super) fn key(&self, user_key: &str) -> String {
        history_key(user_key, self.ended, &self.game)
    }
}

fn base36(mut n: u64) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}
