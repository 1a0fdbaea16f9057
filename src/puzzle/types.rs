//! The values of the collection: a puzzle, its themes, and how a generation run chooses.

use crate::engine::BALL;
use crate::rules::{Position, Side};
use serde::{Deserialize, Serialize};

/// What a puzzle's solution does (docs/puzzles.md, *Themes*); a puzzle may have several.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Theme {
    /// A solver's move captures an even pit.
    Capture,
    /// A solver's move makes the solver's tuzdek, or sows balls into it.
    Tuzdek,
    /// The line ends the game by atsyrau: the opponent is left without a move.
    Atsyrau,
    /// The first move captures nothing and makes no tuzdek: its worth is what it saves.
    Defence,
    /// Few balls are left on the board.
    Endgame,
    /// The line reaches the winning store, or wins by force with a store near it.
    Race,
}

impl Theme {
    pub const ALL: [Theme; 6] = [
        Theme::Capture,
        Theme::Tuzdek,
        Theme::Atsyrau,
        Theme::Defence,
        Theme::Endgame,
        Theme::Race,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Theme::Capture => "capture",
            Theme::Tuzdek => "tuzdek",
            Theme::Atsyrau => "atsyrau",
            Theme::Defence => "defence",
            Theme::Endgame => "endgame",
            Theme::Race => "race",
        }
    }
}

/// One puzzle, as a line of the collection file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// Stable: made from the position, so a rerun gives the same ids.
    pub id: String,
    /// The position string (docs/rules.md), the solver to move.
    pub position: String,
    /// Pit digits 1-9 from `position`: the solver's moves at even places (0, 2, ...), the
    /// opponent's replies (the engine's best) between them; it ends with a solver's move.
    pub solution: String,
    pub themes: Vec<Theme>,
    /// The starting Glicko-2 rating, from the engine's effort to find the first move (the
    /// deviation and volatility start at `ratings`' defaults).
    pub rating: f64,
    /// The first move's score at `depth`, for the solver, in hundredths of a ball (a known
    /// win keeps the search's scale, see `engine::plies_to_end`).
    pub score: i32,
    /// How much worse the second-best first move is at `depth`, in hundredths of a ball.
    pub gap: i32,
    /// The verification depth.
    pub depth: u32,
    /// Nodes a fresh search took to settle on the first move.
    pub effort: u64,
    /// Where it was found: the file, the game's number in it, the game's title.
    pub game: String,
}

impl Puzzle {
    /// The solution as pits.
    pub fn pits(&self) -> Vec<u8> {
        self.solution
            .bytes()
            .map(|b| b.wrapping_sub(b'0'))
            .collect()
    }

    /// The side that solves it.
    pub fn solver(&self) -> Option<Side> {
        Position::from_fen(&self.position).ok().map(|p| p.to_move())
    }

    /// The keys (`position_key`) of every position of the puzzle where the solver is to
    /// move: no two puzzles of a collection share one.
    pub fn solver_keys(&self) -> Vec<String> {
        match Position::from_fen(&self.position) {
            Ok(pos) => solver_keys(&pos, &self.pits()),
            Err(_) => Vec::new(),
        }
    }

    /// How many moves the solver plays.
    pub fn solver_moves(&self) -> usize {
        self.solution.len().div_ceil(2)
    }
}

/// How a run chooses puzzles (docs/puzzles.md, *How a puzzle is chosen*).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Every move is scored at this depth, with a fresh table, to verify a puzzle.
    pub depth: u32,
    /// The cheap first look at every position of a game, with the game's table.
    pub screen_depth: u32,
    /// The only move is at least this much better than any other (hundredths of a ball);
    /// a known win against no known win is always enough.
    pub margin: i32,
    /// No puzzle from a position before this many half-moves were played.
    pub min_ply: u16,
    /// The most moves of the solver in one puzzle.
    pub max_moves: usize,
    /// A position where the second-best move still wins by this much, or the best still
    /// loses by this much, is not a puzzle: the move would not matter.
    pub decided: i32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            depth: 10,
            screen_depth: 4,
            margin: 4 * BALL,
            min_ply: 10,
            max_moves: 5,
            decided: 15 * BALL,
        }
    }
}

/// A position's identity in the collection: its position string without the move number,
/// so one board reached at different moves is one position.
pub fn position_key(pos: &Position) -> String {
    pos.to_fen()
        .split(' ')
        .enumerate()
        .filter(|&(i, _)| i != 3)
        .map(|(_, f)| f)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The position keys where the solver is to move along `solution` from `start`.
pub fn solver_keys(start: &Position, solution: &[u8]) -> Vec<String> {
    let mut pos = *start;
    let mut keys = vec![position_key(&pos)];
    for (i, &pit) in solution.iter().enumerate() {
        if pos.play(pit).is_err() {
            break;
        }
        if i % 2 == 1 {
            keys.push(position_key(&pos));
        }
    }
    keys
}

/// 64-bit FNV-1a: stable from one build to the next, unlike std's hasher.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
