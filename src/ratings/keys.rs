//! Keys of the `History` and `Leaderboard` index trees. Both are read in key order with
//! `Store::scan`, so the order is in the key: newest first (an inverted end time), best first
//! (an inverted rating). Free text in a key (a console player's name) is escaped so that the
//! separator `|` only ever separates.

use crate::model::{Category, ChatRef, Platform};

/// `%` and `|` escaped as `%25` and `%7C`.
pub fn escape(text: &str) -> String {
    text.replace('%', "%25").replace('|', "%7C")
}

/// The keys of one player's history start with this.
pub fn history_prefix(user_key: &str) -> String {
    format!("{}|", escape(user_key))
}

/// `user|inverted end time|game`: a player's games newest first. The end time is in
/// milliseconds, so games a second apart keep their order. (Keys written before this were
/// in seconds: inverted, those are larger than any key in milliseconds, so they still read
/// as the older games.)
pub fn history_key(user_key: &str, ended_at_ms: u64, game: &str) -> String {
    format!(
        "{}{:016x}|{}",
        history_prefix(user_key),
        u64::MAX - ended_at_ms,
        escape(game)
    )
}

/// Where a leaderboard is kept: every rated player of a platform, or those who played rated
/// games in one chat (a Discord server, a Telegram group).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    Platform(Platform),
    Chat(ChatRef),
}

impl Scope {
    /// `telegram`, `telegram:-100123`.
    pub fn key(&self) -> String {
        match self {
            Scope::Platform(p) => p.name().to_string(),
            Scope::Chat(chat) => escape(&chat.key()),
        }
    }

    pub fn platform(&self) -> Platform {
        match self {
            Scope::Platform(p) => *p,
            Scope::Chat(chat) => chat.platform,
        }
    }
}

/// The key of one category's leaderboard in a scope: `telegram:-100%blitz`. A raw `%` never
/// occurs in an escaped scope key, so no scope's board reads into another's. Correspondence
/// boards keep the bare scope key they had before ratings were split per category, so the
/// rows written then are still read.
pub fn board_scope(scope_key: &str, category: Category) -> String {
    match category {
        Category::Correspondence => scope_key.to_string(),
        other => format!("{scope_key}%{}", other.name()),
    }
}

/// Where the rows of a board's players whose rating is still provisional are kept, apart
/// from the board itself: `telegram:-100%blitz%provisional`. A board shows them or not as
/// the operator chooses (`limits.provisional_on_leaderboards`), counts them either way,
/// and a change of that choice applies to everyone at once. No category is named
/// `provisional`, so this is no other board.
pub fn provisional_board(board: &str) -> String {
    format!("{board}%provisional")
}

/// The keys of one board (a [`board_scope`]) start with this.
pub fn board_prefix(board: &str) -> String {
    format!("{board}|")
}

/// `board|inverted rating|user`: a board's players best first (ties by user key).
pub fn board_key(board: &str, rating: f64, user_key: &str) -> String {
    const TOP: u64 = 9_999_999_999;
    // Thousandths of a point, clamped into ten digits (a NaN sorts as 0).
    let scaled = (rating.clamp(0.0, 9_999_999.0) * 1000.0).round() as u64;
    format!(
        "{}{:010}|{}",
        board_prefix(board),
        TOP - scaled.min(TOP),
        escape(user_key)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_keys_sort_newest_first_and_stay_in_their_user() {
        let a = history_key("console:a", 100, "g1");
        let b = history_key("console:a", 200, "g2");
        assert!(b < a);
        assert!(a.starts_with(&history_prefix("console:a")));
        // A name holding the separator cannot reach into another player's keys.
        let tricky = history_key("console:a|0", 100, "g3");
        assert!(!tricky.starts_with(&history_prefix("console:a")));
    }

    #[test]
    fn games_within_one_second_keep_their_order() {
        let first = history_key("console:a", 1_796_083_200_100, "zz");
        let second = history_key("console:a", 1_796_083_200_900, "aa");
        assert!(second < first, "the later game first, whatever its id");
        // A key written in seconds by an older version reads as older than any new one.
        let old = history_key("console:a", 1_796_083_300, "g0");
        assert!(first < old);
    }

    #[test]
    fn board_keys_sort_best_first() {
        let scope = Scope::Chat(ChatRef::new(Platform::Telegram, "-100")).key();
        let high = board_key(&scope, 1812.345, "telegram:1");
        let low = board_key(&scope, 1500.0, "telegram:2");
        let lower = board_key(&scope, 999.9, "telegram:3");
        assert!(high < low && low < lower, "{high} {low} {lower}");
        assert!(high.starts_with(&board_prefix(&scope)));
        assert!(!high.starts_with(&board_prefix("telegram:-10")));
        assert_eq!(Scope::Platform(Platform::Discord).key(), "discord");
        assert!(board_key("x", f64::NAN, "u") > board_key("x", 1.0, "u"));
    }

    #[test]
    fn each_category_has_its_own_board_in_a_scope() {
        let scope = Scope::Chat(ChatRef::new(Platform::Telegram, "-100")).key();
        let boards: Vec<String> = Category::ALL
            .iter()
            .map(|c| board_scope(&scope, *c))
            .collect();
        assert_eq!(boards[2], scope, "correspondence keeps the old keys");
        for (i, a) in boards.iter().enumerate() {
            for (j, b) in boards.iter().enumerate() {
                let key = board_key(b, 1500.0, "telegram:1");
                assert_eq!(key.starts_with(&board_prefix(a)), i == j, "{a} {key}");
            }
        }
        // A chat whose id looked like a category cannot reach into another board: `%` is
        // escaped in scope keys.
        let odd = Scope::Chat(ChatRef::new(Platform::Telegram, "-100%blitz")).key();
        assert_ne!(odd, board_scope(&scope, Category::Blitz));
    }
}
