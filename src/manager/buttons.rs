//! Button data: one compact, versioned codec for every platform.
//!
//! `<version><kind>:<field>:<field>`, at most 64 bytes (Telegram's `callback_data` limit;
//! Discord allows 100). Version 1:
//!
//! | button | data |
//! |---|---|
//! | move | `1m:<game>:<ply>:<pit>` |
//! | resign | `1r:<game>:<ply>` |
//! | offer a draw | `1d:<game>:<ply>` |
//! | accept / decline a draw | `1da:<game>`, `1dd:<game>` |
//! | abort | `1x:<game>` |
//! | go berserk (an arena game) | `1bz:<game>` |
//! | rematch | `1rm:<game>` |
//! | review a finished game | `1rv:<game>` |
//! | a hint for the player to move | `1h:<game>:<ply>` |
//! | the board before a review's marked mistake | `1rb:<game>:<mark>` |
//! | accept a challenge as shown | `1ca:<id>:<terms>` (`terms`: the challenge's `time_changes` when shown; `1ca:<id>`, written before, reads as 0) |
//! | decline / cancel a challenge | `1cd:<id>`, `1cc:<id>` |
//! | change an open challenge's time control | `1ct:<id>:<time control>` (`1ct:ab12cd:5+3`) |
//! | play the bot at a level | `1b:<level>`, `1b:<level>:<time control>` (`1b:easy:3+2`) |
//! | join / leave a tournament (join again: back from a pause) | `1tj:<id>`, `1tl:<id>` |
//! | a puzzle's move (`owner`: the solver's user id; `attempt`: their attempt's number; `step`: their moves made) | `1zm:<owner>:<attempt>:<step>:<pit>` |
//! | the next puzzle, today's puzzle (for the presser) | `1zn`, `1zd` |
//! | open the presser's premoves in a game | `1pm:<game>` |
//! | a key of the premove builder (`edits`: the count of changes it was shown at; `key`: a pit `1`-`9`, `a`dd the line, `u`ndo, `c`lear all, `d`one) | `1pe:<game>:<edits>:<key>` |
//! | a page of a player's history (Discord) | `1hp:<user id>:<page>`, then `:o<cursor>` or `:n<cursor>` (older or newer than a game shown: `<end time in base 36>.<game>`) |
//! | the opening explorer at a position (`owner`: the asker's user id in base 36; `from`: `a`ll, `m`asters, `c`lub, this c`h`at or `p<player key>`, then the time category code or `-`, then the rating band code or `-`; `moves`: the pits played from the start, as digits) | `1o:<owner>:<from><category><band>:<moves>` (`1o:3ld9z:m-3:772`) |
//! | the explorer where a finished game left the others' games | `1op:<game>` |
//!
//! Ids are 1..=16 characters `[a-z0-9]`; a user id is 1..=20 digits (a Discord snowflake), a
//! page at most [`MAX_HISTORY_PAGE`]. Anything else (a forged or truncated value) is a
//! `ButtonError`, never a panic. The ply inside lets the manager refuse a press on a stale
//! board.

use super::pages::{Cursor, PageAt};
use super::types::Action;
use explorer::{owner_code, owner_id};
pub use explorer::{ExplorerAt, ExplorerFrom};

mod explorer;
#[cfg(test)]
mod explorer_tests;
use crate::model::{ChallengeId, GameId, Level, TimeControl};

/// The longest button data the codec writes or reads.
pub const MAX_LEN: usize = 64;
/// The last history page a button may ask for (a history is read newest first; older games
/// are in `toguz export`).
pub const MAX_HISTORY_PAGE: u16 = 9_999;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Button {
    Move {
        game: GameId,
        ply: u16,
        pit: u8,
    },
    Resign {
        game: GameId,
        ply: u16,
    },
    OfferDraw {
        game: GameId,
        ply: u16,
    },
    AcceptDraw {
        game: GameId,
    },
    DeclineDraw {
        game: GameId,
    },
    Abort {
        game: GameId,
    },
    Berserk {
        game: GameId,
    },
    Rematch {
        game: GameId,
    },
    /// Not an [`Action`]: adapters answer it with `Manager::start_hint`.
    Hint {
        game: GameId,
        ply: u16,
    },
    /// Not an [`Action`]: adapters answer it with `Manager::start_review`.
    Review {
        game: GameId,
    },
    /// The board before mistake `mark` (1, 2, ... as the review's graph numbers them);
    /// not an [`Action`] either.
    ReviewBoard {
        game: GameId,
        mark: u8,
    },
    /// Not an [`Action`]: a finished game's record (and final board), from
    /// `Manager::record`.
    Record {
        game: GameId,
    },
    /// Accepts the challenge only if its terms are still the ones shown: `terms` is the
    /// challenge's version (`ChallengeView::time_changes`) on the message pressed.
    AcceptChallenge {
        challenge: ChallengeId,
        terms: u32,
    },
    DeclineChallenge {
        challenge: ChallengeId,
    },
    CancelChallenge {
        challenge: ChallengeId,
    },
    /// The challenger picks another time control for their open challenge.
    ChallengeTime {
        challenge: ChallengeId,
        time: TimeControl,
    },
    /// `time` `None`: the chat's default time control.
    PlayLevel {
        level: Level,
        time: Option<TimeControl>,
    },
    /// Not an [`Action`]: adapters answer it with `Manager::join_tournament`.
    JoinTournament {
        tournament: String,
    },
    /// Not an [`Action`]: adapters answer it with `Manager::leave_tournament`.
    LeaveTournament {
        tournament: String,
    },
    /// Page `page` (0-based) of the history of the platform user `user`; not an [`Action`]:
    /// adapters answer it with `Manager::history`. (Telegram signs its page buttons instead:
    /// `platform::telegram::history`.)
    HistoryPage {
        user: String,
        page: u16,
        /// Where the page starts, by key (the older or newer side of a game shown).
        at: PageAt,
    },
    /// Not an [`Action`]: adapters answer it with `Manager::puzzle_move`.
    PuzzleMove {
        owner: String,
        attempt: u32,
        step: u8,
        pit: u8,
    },
    /// Not an [`Action`]: the presser's next puzzle (`Manager::puzzle`).
    PuzzleNext,
    /// Not an [`Action`]: today's puzzle for the presser.
    PuzzleDaily,
    /// Not an [`Action`]: the presser's premoves in `game`, opened in private
    /// (`Manager::premoves`).
    Premoves {
        game: GameId,
    },
    /// Not an [`Action`]: a key of the premove builder shown at `edits`
    /// (`Manager::edit_premoves`).
    PremoveKey {
        game: GameId,
        edits: u32,
        key: PremoveKey,
    },
    /// Not an [`Action`]: opens the Discord Activity in the pressed board's channel, where
    /// its game is played on the page (issue 50). Discord only.
    LaunchActivity,
    /// Not an [`Action`]: the opening explorer at `at`, for its `owner` (a platform user
    /// id, digits) alone (`Manager::explore`).
    Explorer {
        owner: String,
        at: ExplorerAt,
    },
    /// Not an [`Action`]: the explorer where a finished game left the others' games
    /// (`Manager::book_line`), posted for the presser.
    Opening {
        game: GameId,
    },
}

/// A key of the premove builder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PremoveKey {
    /// A pit, 1..=9: the opponent's move or the reply, as the draft alternates.
    Pit(u8),
    Add,
    Undo,
    Clear,
    /// Closes the builder (nothing changes).
    Done,
}

impl PremoveKey {
    fn code(self) -> String {
        match self {
            PremoveKey::Pit(pit) => pit.to_string(),
            PremoveKey::Add => "a".into(),
            PremoveKey::Undo => "u".into(),
            PremoveKey::Clear => "c".into(),
            PremoveKey::Done => "d".into(),
        }
    }

    fn parse(text: &str) -> Result<PremoveKey, ButtonError> {
        Ok(match text {
            "a" => PremoveKey::Add,
            "u" => PremoveKey::Undo,
            "c" => PremoveKey::Clear,
            "d" => PremoveKey::Done,
            pit => PremoveKey::Pit(pit_number(pit)?),
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ButtonError {
    #[error("button data is too long")]
    TooLong,
    #[error("unknown button data version")]
    Version,
    #[error("unknown button kind")]
    Kind,
    #[error("malformed button data")]
    Malformed,
}

/// The longest line an explorer button carries: what is left of [`MAX_LEN`] after the
/// longest owner (13 base-36 characters: any u64), a player's key and the filters. The
/// explorer counts only `explorer::MAX_PLY` half-moves, so every position with games fits.
pub const EXPLORER_BUTTON_MOVES: usize = MAX_LEN - "1o:".len() - 13 - ":p12345678--:".len();

// Every position with games fits.
const _: () = assert!(EXPLORER_BUTTON_MOVES > crate::explorer::MAX_PLY);

/// The data string of a button.
pub fn encode(button: &Button) -> String {
    match button {
        Button::Move { game, ply, pit } => format!("1m:{game}:{ply}:{pit}"),
        Button::Resign { game, ply } => format!("1r:{game}:{ply}"),
        Button::OfferDraw { game, ply } => format!("1d:{game}:{ply}"),
        Button::AcceptDraw { game } => format!("1da:{game}"),
        Button::DeclineDraw { game } => format!("1dd:{game}"),
        Button::Abort { game } => format!("1x:{game}"),
        Button::Berserk { game } => format!("1bz:{game}"),
        Button::Rematch { game } => format!("1rm:{game}"),
        Button::Hint { game, ply } => format!("1h:{game}:{ply}"),
        Button::Review { game } => format!("1rv:{game}"),
        Button::ReviewBoard { game, mark } => format!("1rb:{game}:{mark}"),
        Button::Record { game } => format!("1rc:{game}"),
        Button::AcceptChallenge { challenge, terms } => format!("1ca:{challenge}:{terms}"),
        Button::DeclineChallenge { challenge } => format!("1cd:{challenge}"),
        Button::CancelChallenge { challenge } => format!("1cc:{challenge}"),
        Button::ChallengeTime { challenge, time } => format!("1ct:{challenge}:{time}"),
        Button::PlayLevel { level, time: None } => format!("1b:{}", level.name()),
        Button::PlayLevel {
            level,
            time: Some(time),
        } => format!("1b:{}:{time}", level.name()),
        Button::JoinTournament { tournament } => format!("1tj:{tournament}"),
        Button::LeaveTournament { tournament } => format!("1tl:{tournament}"),
        Button::HistoryPage { user, page, at } => match at {
            PageAt::Newest => format!("1hp:{user}:{page}"),
            PageAt::OlderThan(c) => format!("1hp:{user}:{page}:o{}", c.encode()),
            PageAt::NewerThan(c) => format!("1hp:{user}:{page}:n{}", c.encode()),
        },
        Button::PuzzleMove {
            owner,
            attempt,
            step,
            pit,
        } => format!("1zm:{owner}:{attempt}:{step}:{pit}"),
        Button::PuzzleNext => "1zn".to_string(),
        Button::PuzzleDaily => "1zd".to_string(),
        Button::LaunchActivity => "1ac".to_string(),
        Button::Premoves { game } => format!("1pm:{game}"),
        Button::PremoveKey { game, edits, key } => format!("1pe:{game}:{edits}:{}", key.code()),
        Button::Explorer { owner, at } => format!("1o:{}:{}", owner_code(owner), at.code()),
        Button::Opening { game } => format!("1op:{game}"),
    }
}

/// Parses button data; anything malformed or forged is an error.
pub fn decode(data: &str) -> Result<Button, ButtonError> {
    if data.len() > MAX_LEN {
        return Err(ButtonError::TooLong);
    }
    let rest = data.strip_prefix('1').ok_or(ButtonError::Version)?;
    let mut parts = rest.split(':');
    let kind = parts.next().ok_or(ButtonError::Malformed)?;
    let fields: Vec<&str> = parts.collect();
    let button = match (kind, fields.as_slice()) {
        ("m", [g, ply, pit]) => Button::Move {
            game: id(g)?,
            ply: number(ply)?,
            pit: pit_number(pit)?,
        },
        ("r", [g, ply]) => Button::Resign {
            game: id(g)?,
            ply: number(ply)?,
        },
        ("d", [g, ply]) => Button::OfferDraw {
            game: id(g)?,
            ply: number(ply)?,
        },
        ("da", [g]) => Button::AcceptDraw { game: id(g)? },
        ("dd", [g]) => Button::DeclineDraw { game: id(g)? },
        ("x", [g]) => Button::Abort { game: id(g)? },
        ("bz", [g]) => Button::Berserk { game: id(g)? },
        ("rm", [g]) => Button::Rematch { game: id(g)? },
        ("h", [g, ply]) => Button::Hint {
            game: id(g)?,
            ply: number(ply)?,
        },
        ("rv", [g]) => Button::Review { game: id(g)? },
        ("rb", [g, mark]) => Button::ReviewBoard {
            game: id(g)?,
            mark: mark_number(mark)?,
        },
        ("rc", [g]) => Button::Record { game: id(g)? },
        // Accept buttons posted before they carried the terms accept the first terms only.
        ("ca", [c]) => Button::AcceptChallenge {
            challenge: id(c)?,
            terms: 0,
        },
        ("ca", [c, terms]) => Button::AcceptChallenge {
            challenge: id(c)?,
            terms: number(terms)?.into(),
        },
        ("cd", [c]) => Button::DeclineChallenge { challenge: id(c)? },
        ("cc", [c]) => Button::CancelChallenge { challenge: id(c)? },
        ("ct", [c, time]) => Button::ChallengeTime {
            challenge: id(c)?,
            time: time.parse().map_err(|_| ButtonError::Malformed)?,
        },
        ("b", [level]) => Button::PlayLevel {
            level: level.parse().map_err(|_| ButtonError::Malformed)?,
            time: None,
        },
        ("b", [level, time]) => Button::PlayLevel {
            level: level.parse().map_err(|_| ButtonError::Malformed)?,
            time: Some(time.parse().map_err(|_| ButtonError::Malformed)?),
        },
        ("tj", [t]) => Button::JoinTournament { tournament: id(t)? },
        ("tl", [t]) => Button::LeaveTournament { tournament: id(t)? },
        // Page buttons posted before pages were read by key show the newest page.
        ("hp", [user, page]) => Button::HistoryPage {
            user: user_id(user)?,
            page: number(page).and_then(history_page)?,
            at: PageAt::Newest,
        },
        ("hp", [user, page, at]) => Button::HistoryPage {
            user: user_id(user)?,
            page: number(page).and_then(history_page)?,
            at: page_at(at)?,
        },
        ("zm", [owner, attempt, step, pit]) => Button::PuzzleMove {
            owner: user_id(owner)?,
            attempt: attempt_number(attempt)?,
            step: u8::try_from(number(step)?).map_err(|_| ButtonError::Malformed)?,
            pit: pit_number(pit)?,
        },
        ("zn", []) => Button::PuzzleNext,
        ("zd", []) => Button::PuzzleDaily,
        ("ac", []) => Button::LaunchActivity,
        ("pm", [g]) => Button::Premoves { game: id(g)? },
        ("pe", [g, edits, key]) => Button::PremoveKey {
            game: id(g)?,
            edits: edits_number(edits)?,
            key: PremoveKey::parse(key)?,
        },
        ("o", [owner, view, moves]) if moves.len() <= EXPLORER_BUTTON_MOVES => Button::Explorer {
            owner: owner_id(owner).ok_or(ButtonError::Malformed)?,
            at: ExplorerAt::parse(view, moves).ok_or(ButtonError::Malformed)?,
        },
        ("op", [g]) => Button::Opening { game: id(g)? },
        (
            "m" | "r" | "d" | "da" | "dd" | "x" | "bz" | "rm" | "h" | "rv" | "rb" | "rc" | "ca"
            | "cd" | "cc" | "ct" | "b" | "hp" | "tj" | "tl" | "zm" | "zn" | "zd" | "ac" | "pm"
            | "pe" | "o" | "op",
            _,
        ) => return Err(ButtonError::Malformed),
        _ => return Err(ButtonError::Kind),
    };
    Ok(button)
}

fn id(text: &str) -> Result<String, ButtonError> {
    let ok = (1..=16).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    ok.then(|| text.to_string()).ok_or(ButtonError::Malformed)
}

/// A platform user id as Discord writes one: 1..=20 digits.
fn user_id(text: &str) -> Result<String, ButtonError> {
    let ok = (1..=20).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit());
    ok.then(|| text.to_string()).ok_or(ButtonError::Malformed)
}

/// `o<cursor>` (older than) or `n<cursor>` (newer than).
fn page_at(text: &str) -> Result<PageAt, ButtonError> {
    let cursor = |c: &str| Cursor::decode(c).ok_or(ButtonError::Malformed);
    match text.split_at_checked(1) {
        Some(("o", c)) => Ok(PageAt::OlderThan(cursor(c)?)),
        Some(("n", c)) => Ok(PageAt::NewerThan(cursor(c)?)),
        _ => Err(ButtonError::Malformed),
    }
}

fn history_page(page: u16) -> Result<u16, ButtonError> {
    (page <= MAX_HISTORY_PAGE)
        .then_some(page)
        .ok_or(ButtonError::Malformed)
}

fn number(text: &str) -> Result<u16, ButtonError> {
    // `parse` accepts a leading '+'; button data never has one.
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ButtonError::Malformed);
    }
    text.parse().map_err(|_| ButtonError::Malformed)
}

/// A puzzle attempt's number: 1..=4294967295, digits only.
fn attempt_number(text: &str) -> Result<u32, ButtonError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ButtonError::Malformed);
    }
    text.parse().map_err(|_| ButtonError::Malformed)
}

/// A premove builder's count of changes: digits only, no sign (`0`..=`4294967295`).
fn edits_number(text: &str) -> Result<u32, ButtonError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ButtonError::Malformed);
    }
    text.parse().map_err(|_| ButtonError::Malformed)
}

/// A review marks at most `review::MISTAKES_PER_SIDE` mistakes per side.
fn mark_number(text: &str) -> Result<u8, ButtonError> {
    let most = 2 * crate::review::MISTAKES_PER_SIDE as u16;
    match number(text)? {
        m @ 1.. if m <= most => Ok(m as u8),
        _ => Err(ButtonError::Malformed),
    }
}

fn pit_number(text: &str) -> Result<u8, ButtonError> {
    match number(text)? {
        p @ 1..=9 => Ok(p as u8),
        _ => Err(ButtonError::Malformed),
    }
}

impl Button {
    /// The game a button acts on; `None` for challenge and level buttons.
    pub fn game(&self) -> Option<&str> {
        match self {
            Button::Move { game, .. }
            | Button::Resign { game, .. }
            | Button::OfferDraw { game, .. }
            | Button::AcceptDraw { game }
            | Button::DeclineDraw { game }
            | Button::Abort { game }
            | Button::Berserk { game }
            | Button::Rematch { game }
            | Button::Hint { game, .. }
            | Button::Review { game }
            | Button::ReviewBoard { game, .. }
            | Button::Record { game }
            | Button::Premoves { game }
            | Button::PremoveKey { game, .. }
            | Button::Opening { game } => Some(game),
            Button::AcceptChallenge { .. }
            | Button::DeclineChallenge { .. }
            | Button::CancelChallenge { .. }
            | Button::ChallengeTime { .. }
            | Button::PlayLevel { .. }
            | Button::JoinTournament { .. }
            | Button::LeaveTournament { .. }
            | Button::HistoryPage { .. }
            | Button::PuzzleMove { .. }
            | Button::PuzzleNext
            | Button::PuzzleDaily
            | Button::LaunchActivity
            | Button::Explorer { .. } => None,
        }
    }

    /// The action a press asks for. `PlayLevel` plays the standard game, colour random.
    /// `None` for `Hint`, `Review` and `Record`, which are no actions on a game
    /// (`Manager::start_hint`, `Manager::start_review`, `Manager::record`).
    pub fn into_action(self) -> Option<Action> {
        Some(match self {
            Button::Move { game, ply, pit } => Action::Move {
                game,
                ply: Some(ply),
                pit,
            },
            Button::Resign { game, ply } => Action::Resign {
                game: Some(game),
                ply: Some(ply),
            },
            Button::OfferDraw { game, ply } => Action::OfferDraw {
                game: Some(game),
                ply: Some(ply),
            },
            Button::AcceptDraw { game } => Action::AcceptDraw { game },
            Button::DeclineDraw { game } => Action::DeclineDraw { game },
            Button::Abort { game } => Action::Abort { game },
            Button::Berserk { game } => Action::Berserk { game },
            Button::Rematch { game } => Action::Rematch { game },
            Button::Hint { .. }
            | Button::Review { .. }
            | Button::ReviewBoard { .. }
            | Button::Record { .. }
            | Button::JoinTournament { .. }
            | Button::LeaveTournament { .. }
            | Button::HistoryPage { .. }
            | Button::PuzzleMove { .. }
            | Button::PuzzleNext
            | Button::PuzzleDaily
            | Button::LaunchActivity
            | Button::Premoves { .. }
            | Button::PremoveKey { .. }
            | Button::Explorer { .. }
            | Button::Opening { .. } => return None,
            Button::AcceptChallenge { challenge, terms } => {
                Action::AcceptTerms { challenge, terms }
            }
            Button::DeclineChallenge { challenge } => Action::DeclineChallenge { challenge },
            Button::CancelChallenge { challenge } => Action::CancelChallenge { challenge },
            Button::ChallengeTime { challenge, time } => {
                Action::SetChallengeTime { challenge, time }
            }
            Button::PlayLevel { level, time } => Action::PlayBot {
                level,
                variant: crate::rules::Variant::STANDARD,
                colour: None,
                time,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_buttons() -> Vec<Button> {
        let g = "ab12cd".to_string();
        vec![
            Button::Move {
                game: g.clone(),
                ply: 14,
                pit: 7,
            },
            Button::Resign {
                game: g.clone(),
                ply: 65535,
            },
            Button::OfferDraw {
                game: g.clone(),
                ply: 0,
            },
            Button::AcceptDraw { game: g.clone() },
            Button::DeclineDraw { game: g.clone() },
            Button::Abort { game: g.clone() },
            Button::Berserk { game: g.clone() },
            Button::Rematch { game: g.clone() },
            Button::Hint {
                game: g.clone(),
                ply: 12,
            },
            Button::Review { game: g.clone() },
            Button::ReviewBoard {
                game: g.clone(),
                mark: 6,
            },
            Button::Record { game: g.clone() },
            Button::JoinTournament {
                tournament: "t0a1b2".into(),
            },
            Button::LeaveTournament {
                tournament: "t0a1b2".into(),
            },
            Button::AcceptChallenge {
                challenge: "zz9".into(),
                terms: 0,
            },
            Button::AcceptChallenge {
                challenge: "zzzzzzzzzzzzzzz9".into(),
                terms: u16::MAX.into(),
            },
            Button::DeclineChallenge {
                challenge: "zz9".into(),
            },
            Button::CancelChallenge {
                challenge: "zz9".into(),
            },
            Button::ChallengeTime {
                challenge: "zzzzzzzzzzzzzzz9".into(),
                time: TimeControl::Correspondence,
            },
            Button::ChallengeTime {
                challenge: "zz9".into(),
                time: TimeControl::fischer(10, 5),
            },
            Button::PlayLevel {
                level: Level::Hard,
                time: None,
            },
            Button::PlayLevel {
                level: Level::Beginner,
                time: Some(TimeControl::Correspondence),
            },
            Button::PlayLevel {
                level: Level::Easy,
                time: TimeControl::parse("0.5+2").ok(),
            },
            Button::HistoryPage {
                user: u64::MAX.to_string(),
                page: MAX_HISTORY_PAGE,
                at: PageAt::Newest,
            },
            Button::HistoryPage {
                user: u64::MAX.to_string(),
                page: MAX_HISTORY_PAGE,
                at: PageAt::OlderThan(Cursor {
                    ended: u64::MAX,
                    game: "z".repeat(16),
                }),
            },
            Button::HistoryPage {
                user: "1".into(),
                page: 3,
                at: PageAt::NewerThan(Cursor {
                    ended: 1_796_083_200_100,
                    game: "abc123".into(),
                }),
            },
            Button::LaunchActivity,
            Button::Premoves { game: g.clone() },
            Button::PremoveKey {
                game: "z".repeat(16),
                edits: u32::MAX,
                key: PremoveKey::Pit(9),
            },
            Button::PremoveKey {
                game: g.clone(),
                edits: 0,
                key: PremoveKey::Done,
            },
        ]
    }

    #[test]
    fn every_button_round_trips_within_64_bytes() {
        for b in all_buttons() {
            let data = encode(&b);
            assert!(data.len() <= MAX_LEN, "{data}");
            assert_eq!(decode(&data), Ok(b), "{data}");
        }
        assert_eq!(
            encode(&Button::Move {
                game: "ab12cd".into(),
                ply: 14,
                pit: 7
            }),
            "1m:ab12cd:14:7"
        );
    }

    #[test]
    fn forged_data_is_rejected() {
        let bad = [
            "",
            "1",
            "2m:ab12cd:1:7",
            "1m:ab12cd:1:0",
            "1m:ab12cd:1:10",
            "1m:ab12cd:+1:7",
            "1m:ab12cd:-1:7",
            "1m:ab12cd:70000:7",
            "1m:AB12CD:1:7",
            "1m::1:7",
            "1m:ab12cd:1",
            "1m:ab12cd:1:7:8",
            "1pm:ab12cd:1",
            "1pe:ab12cd:1:0",
            "1pe:ab12cd:1:10",
            "1pe:ab12cd:+1:a",
            "1pe:ab12cd:4294967296:a",
            "1pe:ab12cd:1:x",
            "1pe:ab12cd:1",
            "1q:ab12cd",
            "1b:grandmaster",
            "1b:easy:0+0",
            "1b:easy:3+2:1",
            "1b:easy:",
            "1ca:../../etc",
            "1rv:ab12cd:3",
            "1rb:ab12cd:0",
            "1rb:ab12cd:7",
            "1rb:ab12cd",
            "1rv:",
            "1h:ab12cd",
            "1h:ab12cd:x",
            "1h:ab12cd:1:2",
            "1m:ab12cd:1:٣",
            "1hp:123:10000",
            "1hp:abc:1",
            "1hp::1",
            "1hp:123",
            "1hp:123:-1",
            "1hp:123:1:x",
            "1hp:123:1:o",
            "1hp:123:1:oabc",
            "1hp:123:1:o1.AB",
            "1hp:123:1:n1.",
            "1hp:123:1:o1.ab:2",
            "1hp:123456789012345678901:0",
            "1ct:zz9",
            "1ct:zz9:",
            "1ct:zz9:0+0",
            "1ct:zz9:abc",
            "1ct::3+2",
            "1ct:ZZ9:3+2",
            "1ct:zz9:3+2:1",
            "1ca:zz9:",
            "1ca:zz9:-1",
            "1ca:zz9:+1",
            "1ca:zz9:1:2",
            "1ca:zz9:65536",
            "1ca:zz9:x",
        ];
        for data in bad {
            assert!(decode(data).is_err(), "{data:?} was accepted");
        }
        assert_eq!(decode(&"1m:".repeat(30)), Err(ButtonError::TooLong));
    }

    #[test]
    fn presses_become_actions() {
        let action = decode("1m:ab12cd:14:7").unwrap().into_action();
        assert_eq!(
            action,
            Some(Action::Move {
                game: "ab12cd".into(),
                ply: Some(14),
                pit: 7
            })
        );
        let retime = decode("1ct:ab12cd:5+3").unwrap();
        assert_eq!(retime.game(), None);
        assert_eq!(
            retime.into_action(),
            Some(Action::SetChallengeTime {
                challenge: "ab12cd".into(),
                time: TimeControl::fischer(5, 3),
            })
        );
        // An Accept names the terms it was shown with; one posted before that, the first.
        for (data, terms) in [("1ca:ab12cd:2", 2), ("1ca:ab12cd", 0)] {
            assert_eq!(
                decode(data).unwrap().into_action(),
                Some(Action::AcceptTerms {
                    challenge: "ab12cd".into(),
                    terms
                })
            );
        }
        let review = decode("1rv:ab12cd").unwrap();
        assert_eq!(review.game(), Some("ab12cd"));
        assert_eq!(review.into_action(), None);
    }
}
