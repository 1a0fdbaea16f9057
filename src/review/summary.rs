//! What a review sums up: each player's largest mistakes and an accuracy figure (the formula
//! is in docs/review.md).

use super::{PlyReview, Review};
use crate::engine::BALL;
use crate::rules::Side;

/// How many mistakes a summary names per player.
pub const MISTAKES_PER_SIDE: usize = 3;
/// A move costing less than this (hundredths of a ball) is not called a mistake.
pub const MISTAKE_MIN: i32 = BALL;
/// `k` of the evaluation's fitted win curve (docs/engine.md, *Tuning*).
const CURVE_K: f64 = 0.161;

/// A marked mistake: the half-move and its number on the graph (1, 2, ... in game order
/// over both players).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mistake {
    pub mark: usize,
    /// Index into `Review::plies`.
    pub index: usize,
}

/// The chance (0..=1) the fitted curve gives a side whose position is worth `score`
/// hundredths of a ball to it.
pub fn win_chance(score: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(-CURVE_K * score as f64 / 400.0))
}

/// The accuracy (0..=100) of one move that took the mover from `before` to `after` (their
/// side, hundredths of a ball, clipped): lichess's curve over the drop in win chance.
pub fn move_accuracy(before: i32, after: i32) -> f64 {
    let drop = ((win_chance(before) - win_chance(after)) * 100.0).max(0.0);
    (103.1668 * (-0.04354 * drop).exp() - 3.1669).clamp(0.0, 100.0)
}

impl Review {
    /// `side`'s largest mistakes (at most `MISTAKES_PER_SIDE`, each costing at least
    /// `MISTAKE_MIN`), largest first, the earlier first among equals.
    pub fn largest_mistakes(&self, side: Side) -> Vec<&PlyReview> {
        let mut moves: Vec<&PlyReview> = self
            .plies
            .iter()
            .filter(|p| p.side() == side && p.loss >= MISTAKE_MIN)
            .collect();
        moves.sort_by_key(|p| (std::cmp::Reverse(p.loss), p.ply));
        moves.truncate(MISTAKES_PER_SIDE);
        moves
    }

    /// Both players' largest mistakes, numbered in game order: the marks of the graph.
    pub fn marked_mistakes(&self) -> Vec<Mistake> {
        let mut indices: Vec<usize> = [Side::White, Side::Black]
            .into_iter()
            .flat_map(|side| self.largest_mistakes(side))
            .map(|p| p.ply - 1)
            .collect();
        indices.sort_unstable();
        indices
            .into_iter()
            .enumerate()
            .map(|(i, index)| Mistake { mark: i + 1, index })
            .collect()
    }

    /// `side`'s accuracy, 0..=100, rounded to a tenth: the mean of its moves' accuracies;
    /// `None` if it made no move.
    pub fn accuracy(&self, side: Side) -> Option<f64> {
        let scores: Vec<f64> = self
            .plies
            .iter()
            .filter(|p| p.side() == side)
            .map(|p| {
                let before = p.before.clipped_for(side);
                // The engine's own move costs nothing, whatever the next search says.
                let after = before - p.loss;
                move_accuracy(before, after)
            })
            .collect();
        if scores.is_empty() {
            return None;
        }
        let mean = scores.iter().sum::<f64>() / scores.len() as f64;
        Some((mean * 10.0).round() / 10.0)
    }

    /// The total loss of `side`'s moves, in hundredths of a ball.
    pub fn total_loss(&self, side: Side) -> i64 {
        self.plies
            .iter()
            .filter(|p| p.side() == side)
            .map(|p| p.loss as i64)
            .sum()
    }
}
