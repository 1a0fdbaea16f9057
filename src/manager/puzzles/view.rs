//! What a front end shows of a puzzle: the board at this point of the attempt, where the
//! attempt stands, and, once it is over, the themes and the ratings' change.

use super::record::{DailyCount, PuzzlePlayer};
use crate::model::{Platform, UserRef};
use crate::puzzle::{Puzzle, Theme};
use crate::ratings::keys::Scope;
use crate::ratings::{LeaderRow, Rating};
use crate::rules::{MoveReport, Position, Side};

/// Where an attempt stands.
#[derive(Clone, Debug, PartialEq)]
pub enum PuzzleState {
    /// The solver is to move; `reply` is the opponent's answer to the last right move.
    Solving { reply: Option<MoveReport> },
    /// The whole line was found.
    Solved,
    /// `played` was not the line's move; `solution` was. `captures` is what the solution
    /// takes at once (balls), `gap` how much worse every other move is (hundredths of a
    /// ball), `makes_tuzdek` whether it makes one.
    Failed {
        played: u8,
        solution: u8,
        captures: u8,
        makes_tuzdek: bool,
        gap: i32,
    },
}

/// One attempt at one puzzle, as its owner sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleView {
    pub owner: UserRef,
    /// The attempt's number: button data names it.
    pub attempt: u32,
    pub puzzle: Puzzle,
    /// The day, when it is that day's puzzle.
    pub daily: Option<i64>,
    /// The board shown: the solver to move while solving; after the last move when solved;
    /// before the wrong move when failed (with it and the solution marked).
    pub position: Position,
    pub solver: Side,
    /// The solver's moves made so far (button data names it: an older board is refused).
    pub step: u8,
    /// The last move on the board shown, for its rings.
    pub last_move: Option<MoveReport>,
    pub state: PuzzleState,
    /// The owner's puzzle rating now, and before the attempt ended (`None` while solving).
    pub rating: Rating,
    pub rating_before: Option<Rating>,
    /// The puzzle's rating (shown once it is over).
    pub puzzle_rating: Rating,
    /// The owner's daily streak as it stands.
    pub streak: u32,
}

impl PuzzleView {
    pub fn is_over(&self) -> bool {
        !matches!(self.state, PuzzleState::Solving { .. })
    }

    /// The themes, which stay hidden until the attempt is over.
    pub fn themes(&self) -> &[Theme] {
        if self.is_over() {
            &self.puzzle.themes
        } else {
            &[]
        }
    }

    /// The pits the owner may press (none once it is over).
    pub fn pits(&self) -> Vec<u8> {
        if self.is_over() {
            return Vec::new();
        }
        (1..=9).filter(|&p| self.position.is_legal(p)).collect()
    }
}

/// A player's puzzle numbers, for `/puzzle stats`.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleStats {
    pub player: PuzzlePlayer,
    /// The streak as it stands today.
    pub streak: u32,
    /// How many puzzles of the collection they have been given in this round of it, and
    /// how many it has.
    pub seen: usize,
    pub collection: usize,
    /// The last finished attempts, newest first: solved or not.
    pub recent: Vec<bool>,
    /// Whether today's daily puzzle is done, and solved.
    pub daily_today: Option<bool>,
}

/// A puzzle leaderboard: the top players of a scope, and the caller's place.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleBoard {
    pub scope: Scope,
    pub top: Vec<(usize, LeaderRow)>,
    pub caller: Option<(usize, LeaderRow)>,
    /// The caller is off it while their puzzle rating is provisional.
    pub caller_provisional: bool,
}

/// Today's daily puzzle in a chat: the puzzle, and who solved it there.
#[derive(Clone, Debug, PartialEq)]
pub struct DailyView {
    pub day: i64,
    pub puzzle: Puzzle,
    pub count: DailyCount,
    /// The platform of the chat it is posted in: the solvers' names are shown as its texts
    /// show names (escaped markdown on Discord).
    pub platform: Platform,
}
