//! Game review: the engine goes through a finished (or any) game and says, for every
//! half-move, what the position was worth before and after it, which move it would have
//! played and what the move played cost its player.
//!
//! Every position of the game is searched once, with a fixed node budget and a cleared
//! table, so the same game gives the same review on every machine, whatever its speed or
//! load (no clock is read). Evaluations are from White's side in hundredths of a ball, the
//! search's own scale: `toguz analyze --nodes N --hash 4` prints the same number for the side
//! to move (a test in tests/cli holds them to each other). How the loss and the accuracy
//! figure are worked out: docs/review.md.

mod summary;
mod text;

pub use summary::{move_accuracy, win_chance, Mistake, MISTAKES_PER_SIDE, MISTAKE_MIN};
pub use text::{mistake_caption, mistake_line, move_number, result_words, summary_text};

use crate::engine::{plies_to_end, Limits, Searcher, BALL, WIN};
use crate::rules::{MoveError, MoveReport, Position, Side};

/// Nodes searched per position unless asked otherwise: a 200-half-move game takes about
/// 4.3 s of one core (docs/review.md, *Measured*).
pub const DEFAULT_NODES: u64 = 150_000;
/// The fewest and most nodes a review may be asked to search per position.
pub const MIN_NODES: u64 = 1_000;
pub const MAX_NODES: u64 = 50_000_000;
/// The transposition table of a review, in MiB: small enough to clear before every position.
pub const TABLE_MB: usize = 4;
/// Evaluations are clipped to this many balls when losses are worked out and when they are
/// shown in balls: a known win counts as this much, however far away.
pub const CLIP_BALLS: i32 = 100;

/// A position's value from White's side, in hundredths of a ball; a decided game keeps the
/// search's scale (`WIN - plies`, see `engine::plies_to_end`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Eval(pub i32);

impl Eval {
    /// Converts a score for the side to move into White's side.
    pub fn from_side(score: i32, to_move: Side) -> Eval {
        match to_move {
            Side::White => Eval(score),
            Side::Black => Eval(-score),
        }
    }

    /// For `side`, clipped to ±`CLIP_BALLS`, in hundredths of a ball.
    pub fn clipped_for(self, side: Side) -> i32 {
        let clip = CLIP_BALLS * BALL;
        let white = self.0.clamp(-clip, clip);
        match side {
            Side::White => white,
            Side::Black => -white,
        }
    }

    /// In balls from White's side, clipped (a known win shows as ±`CLIP_BALLS`).
    pub fn balls(self) -> f64 {
        self.clipped_for(Side::White) as f64 / BALL as f64
    }

    /// For a decided game, the plies to its end: positive when White wins.
    pub fn plies_to_end(self) -> Option<i32> {
        plies_to_end(self.0)
    }
}

/// One half-move of the game, reviewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyReview {
    /// Counted from 1.
    pub ply: usize,
    /// The move number as records write it (`12.` for both halves of the twelfth move).
    pub move_number: u16,
    pub report: MoveReport,
    /// The move played, in move text (`76X`).
    pub played: String,
    /// The position before the move.
    pub position_before: Position,
    pub before: Eval,
    pub after: Eval,
    /// The engine's move in the position before, as a pit and in move text.
    pub best_pit: u8,
    pub best: String,
    /// What the move cost its player, in hundredths of a ball, never negative: zero when it
    /// was the engine's move.
    pub loss: i32,
}

impl PlyReview {
    pub fn side(&self) -> Side {
        self.report.side
    }

    pub fn loss_balls(&self) -> f64 {
        self.loss as f64 / BALL as f64
    }
}

/// A whole game reviewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    pub start: Position,
    pub start_eval: Eval,
    pub plies: Vec<PlyReview>,
    /// Nodes searched per position.
    pub nodes: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    #[error("half-move {ply} (pit {pit}) cannot be played: {error}")]
    Illegal {
        ply: usize,
        pit: u8,
        error: MoveError,
    },
    #[error("there is no move to review")]
    NoMoves,
    #[error("the node budget must be between {MIN_NODES} and {MAX_NODES}")]
    Budget,
    #[error("the stored review does not belong to this game")]
    Mismatch,
}

/// How a review searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewOptions {
    /// Nodes per position.
    pub nodes: u64,
}

impl Default for ReviewOptions {
    fn default() -> Self {
        ReviewOptions {
            nodes: DEFAULT_NODES,
        }
    }
}

/// What a review keeps to be rebuilt later from the game's moves: each position's value
/// (White's side, hundredths of a ball) and the engine's move there, from the start to the
/// last position. Small (a few bytes a half-move), and exact: `Review::from_stored` gives the
/// review `finish` gave.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StoredReview {
    pub nodes: u64,
    pub judged: Vec<(i32, u8)>,
}

impl Review {
    /// The review's stored form.
    pub fn stored(&self) -> StoredReview {
        let best = |i: usize| self.plies.get(i).map_or(0, |p| p.best_pit);
        let mut judged = Vec::with_capacity(self.plies.len() + 1);
        judged.push((self.start_eval.0, best(0)));
        for (i, p) in self.plies.iter().enumerate() {
            judged.push((p.after.0, best(i + 1)));
        }
        StoredReview {
            nodes: self.nodes,
            judged,
        }
    }

    /// The review of the game that plays `pits` from `start`, rebuilt from its stored form;
    /// an error when they do not belong together (another game's, or a damaged record).
    pub fn from_stored(
        start: Position,
        pits: &[u8],
        stored: &StoredReview,
    ) -> Result<Review, ReviewError> {
        let options = ReviewOptions {
            nodes: stored.nodes,
        };
        let mut reviewer = Reviewer::new(start, pits, options)?;
        if stored.judged.len() != reviewer.positions.len() {
            return Err(ReviewError::Mismatch);
        }
        reviewer.judged = stored.judged.iter().map(|&(e, p)| (Eval(e), p)).collect();
        Ok(reviewer.finish())
    }
}

/// Reviews the game that plays `pits` (each 1..=9, the mover's pit) from `start`. Blocks for
/// the whole analysis (about `nodes` × (moves + 1) nodes); run it off any async runtime.
pub fn review_game(
    start: Position,
    pits: &[u8],
    options: ReviewOptions,
) -> Result<Review, ReviewError> {
    let mut reviewer = Reviewer::new(start, pits, options)?;
    while reviewer.step() {}
    Ok(reviewer.finish())
}

/// A review done one position at a time, so that a caller can let more urgent searches (the
/// bot's moves) go first between positions. `step` until it returns false, then `finish`.
pub struct Reviewer {
    searcher: Searcher,
    nodes: u64,
    start: Position,
    positions: Vec<Position>,
    reports: Vec<MoveReport>,
    judged: Vec<(Eval, u8)>,
}

impl Reviewer {
    /// Checks the game (every move legal, a sane budget) before any search.
    pub fn new(
        start: Position,
        pits: &[u8],
        options: ReviewOptions,
    ) -> Result<Reviewer, ReviewError> {
        if pits.is_empty() {
            return Err(ReviewError::NoMoves);
        }
        if !(MIN_NODES..=MAX_NODES).contains(&options.nodes) {
            return Err(ReviewError::Budget);
        }
        let mut positions = Vec::with_capacity(pits.len() + 1);
        let mut reports = Vec::with_capacity(pits.len());
        let mut pos = start;
        positions.push(pos);
        for (i, &pit) in pits.iter().enumerate() {
            let report = pos.play(pit).map_err(|error| ReviewError::Illegal {
                ply: i + 1,
                pit,
                error,
            })?;
            reports.push(report);
            positions.push(pos);
        }
        Ok(Reviewer {
            searcher: Searcher::new(TABLE_MB),
            nodes: options.nodes,
            start,
            judged: Vec::with_capacity(positions.len()),
            positions,
            reports,
        })
    }

    /// Judges the next position; false once every position is judged.
    pub fn step(&mut self) -> bool {
        let Some(pos) = self.positions.get(self.judged.len()) else {
            return false;
        };
        let judged = judge(&mut self.searcher, pos, self.nodes);
        self.judged.push(judged);
        self.judged.len() < self.positions.len()
    }

    /// Positions judged so far, and in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.judged.len(), self.positions.len())
    }

    /// The review, once every position is judged (positions not judged yet are judged now).
    pub fn finish(mut self) -> Review {
        while self.step() {}
        let plies = self
            .reports
            .iter()
            .enumerate()
            .map(|(i, report)| {
                let (before, best_pit) = self.judged[i];
                let after = self.judged[i + 1].0;
                ply_review(i, self.positions[i], *report, before, after, best_pit)
            })
            .collect();
        Review {
            start: self.start,
            start_eval: self.judged[0].0,
            plies,
            nodes: self.nodes,
        }
    }
}

/// The value of `pos` and the engine's move there (0 when the game is over), from a search
/// of `nodes` nodes with a cleared table.
pub fn judge(searcher: &mut Searcher, pos: &Position, nodes: u64) -> (Eval, u8) {
    if let Some(outcome) = pos.outcome() {
        let white = match outcome.winner {
            None => 0,
            Some(Side::White) => WIN,
            Some(Side::Black) => -WIN,
        };
        return (Eval(white), 0);
    }
    searcher.clear();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let result = searcher.search(pos, limits, |_| {});
    (
        Eval::from_side(result.info.score, pos.to_move()),
        result.best_move.unwrap_or(0),
    )
}

fn ply_review(
    index: usize,
    before_pos: Position,
    report: MoveReport,
    before: Eval,
    after: Eval,
    best_pit: u8,
) -> PlyReview {
    let side = report.side;
    let loss = if best_pit == report.pit {
        0
    } else {
        (before.clipped_for(side) - after.clipped_for(side)).max(0)
    };
    PlyReview {
        ply: index + 1,
        move_number: before_pos.fullmove(),
        report,
        played: report.notation().to_string(),
        position_before: before_pos,
        before,
        after,
        best_pit,
        best: move_text(&before_pos, best_pit),
        loss,
    }
}

/// `pit` played in `pos`, in move text; empty if it cannot be played.
pub fn move_text(pos: &Position, pit: u8) -> String {
    let mut p = *pos;
    p.play(pit)
        .map(|r| r.notation().to_string())
        .unwrap_or_default()
}

/// One half-move as `toguz review --json` prints it.
#[derive(serde::Serialize, Debug, PartialEq)]
pub struct PlyJson {
    pub ply: usize,
    #[serde(rename = "move")]
    pub mv: String,
    pub side: &'static str,
    /// Balls, White's side, clipped at ±`CLIP_BALLS`.
    pub eval_before: f64,
    pub eval_after: f64,
    /// For a decided position, plies to the end (positive: White wins).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_before: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_after: Option<i32>,
    pub best: String,
    pub loss: f64,
}

impl From<&PlyReview> for PlyJson {
    fn from(p: &PlyReview) -> PlyJson {
        PlyJson {
            ply: p.ply,
            mv: p.played.clone(),
            side: p.side().name(),
            eval_before: p.before.balls(),
            eval_after: p.after.balls(),
            end_before: p.before.plies_to_end(),
            end_after: p.after.plies_to_end(),
            best: p.best.clone(),
            loss: p.loss_balls(),
        }
    }
}

#[cfg(test)]
mod tests;
