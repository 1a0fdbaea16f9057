//! The opening explorer (issue 52): for any position, every pit played from it with its
//! games, results and the average rating of the players who chose it, counted by position
//! (not by move order: transpositions count together), by source, time category and rating
//! band. Pure keys and counts here; `import` merges games into the store, `query` reads one
//! position with one range read. docs/explorer.md describes the layout.

mod codec;
pub mod import;
pub mod keys;
mod pipeline;
pub mod query;

pub use import::{import_games, prepare, Imported, Prepared, Refusal};
pub use keys::{game_id, player_id, position_key, MAX_PLY};
pub use pipeline::{import_pipelined, record_chunks, ReadRecord};
pub use query::{query, Answer, Filter, LastGame, MoveStats, Scope};

use crate::model::Category;
use serde::{Deserialize, Serialize};

/// Where a game comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// Imported records: championships, PlayOK, any file an operator imports.
    Masters,
    /// Games played through the bot on this deployment.
    Club,
}

impl Source {
    /// The letter after a position key in its row's key.
    pub fn letter(self) -> char {
        match self {
            Source::Masters => 'm',
            Source::Club => 'c',
        }
    }
}

/// Rating bands, as lichess's explorer has them (by the mean rating of both players).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Band {
    /// Neither player's rating is known.
    Unrated,
    Below1200,
    From1200,
    From1600,
    From2000,
}

impl Band {
    pub const ALL: [Band; 5] = [
        Band::Unrated,
        Band::Below1200,
        Band::From1200,
        Band::From1600,
        Band::From2000,
    ];

    /// The band of a game whose players have these ratings (one known is enough).
    pub fn of(ratings: [Option<u32>; 2]) -> Band {
        let known: Vec<u32> = ratings.into_iter().flatten().collect();
        let Some(sum) = known.iter().copied().reduce(|a, b| a + b) else {
            return Band::Unrated;
        };
        match sum / known.len() as u32 {
            0..=1199 => Band::Below1200,
            1200..=1599 => Band::From1200,
            1600..=1999 => Band::From1600,
            _ => Band::From2000,
        }
    }

    pub fn code(self) -> u8 {
        self as u8
    }

    /// The band a user names: `unrated`, `1200` (below 1200), `1200-1600`, `1600-2000`,
    /// `2000` (2000 and above).
    pub fn parse(text: &str) -> Option<Band> {
        match text.trim() {
            "unrated" => Some(Band::Unrated),
            "1200" | "0-1200" | "<1200" => Some(Band::Below1200),
            "1200-1600" => Some(Band::From1200),
            "1600-2000" => Some(Band::From1600),
            "2000" | "2000+" => Some(Band::From2000),
            _ => None,
        }
    }
}

/// A time category's code in a row (0: the record names no time control).
pub fn category_code(category: Option<Category>) -> u8 {
    match category {
        None => 0,
        Some(Category::Blitz) => 1,
        Some(Category::Rapid) => 2,
        Some(Category::Correspondence) => 3,
    }
}

/// One counter of a row: a pit played from the position, in games of one time category
/// and rating band. Stored in bytes with its row (`codec`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry(
    /// Time category code (`category_code`).
    pub u8,
    /// Rating band code (`Band::code`).
    pub u8,
    /// The pit played, 1..=9 in the mover's row.
    pub u8,
    /// Games.
    pub u64,
    /// White wins.
    pub u64,
    /// Draws.
    pub u64,
    /// Black wins.
    pub u64,
    /// Sum of the movers' ratings, where known.
    pub u64,
    /// How many movers' ratings the sum holds.
    pub u64,
);

impl Entry {
    fn same_cell(&self, other: &Entry) -> bool {
        (self.0, self.1, self.2) == (other.0, other.1, other.2)
    }

    fn add(&mut self, other: &Entry) {
        self.3 += other.3;
        self.4 += other.4;
        self.5 += other.5;
        self.6 += other.6;
        self.7 += other.7;
        self.8 += other.8;
    }
}

/// How many of the last games through a position a row keeps.
pub const LAST_GAMES: usize = 3;

/// The stored row of a position in one source (or of one player): its counters, and the
/// last games that went through it (newest first: the pit played and the game's key).
/// Stored in bytes (`codec`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    pub e: Vec<Entry>,
    pub l: Vec<(u8, String)>,
}

impl Row {
    /// Adds `delta`'s counters and puts its last games in front (`delta` is newer).
    pub fn merge(&mut self, delta: &Row) {
        for entry in &delta.e {
            match self.e.iter_mut().find(|e| e.same_cell(entry)) {
                Some(mine) => mine.add(entry),
                None => self.e.push(*entry),
            }
        }
        if !delta.l.is_empty() {
            let mut last = delta.l.clone();
            last.extend(self.l.iter().filter(|l| !delta.l.contains(l)).cloned());
            last.truncate(LAST_GAMES);
            self.l = last;
        }
    }
}

/// The result of a counted game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Result3 {
    #[serde(rename = "1-0")]
    White,
    #[serde(rename = "1/2-1/2")]
    Draw,
    #[serde(rename = "0-1")]
    Black,
}

/// What the explorer keeps of a counted game (tree `ExplorerGames`): enough to list it
/// among a position's last games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameInfo {
    pub white: String,
    pub black: String,
    pub result: Result3,
    #[serde(default)]
    pub date: Option<String>,
    #[serde(default)]
    pub event: Option<String>,
    #[serde(default)]
    pub white_elo: Option<u32>,
    #[serde(default)]
    pub black_elo: Option<u32>,
    /// The time category's code (`category_code`).
    #[serde(rename = "c", default)]
    pub category: u8,
    /// The first `MAX_PLY` pits played, one digit each: a player's games are counted from
    /// these when asked for (no row per player and position is kept).
    #[serde(rename = "m", default, with = "codec::pits")]
    pub moves: String,
    /// The start's FEN, when it is not the standard start.
    #[serde(rename = "s", default)]
    pub start: Option<String>,
    /// A club game's id on this deployment (its page is `/g/...`); `None` for an imported
    /// record.
    #[serde(rename = "g", default)]
    pub game: Option<String>,
    /// The chat a club game was played in (`ChatRef::key`): its last games are listed only
    /// in that chat or when the chat is public.
    #[serde(rename = "h", default)]
    pub chat: Option<String>,
}

#[cfg(test)]
mod tests;
