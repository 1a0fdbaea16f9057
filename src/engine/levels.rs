//! Playing levels. `hard` and `max` play the best move their time allows. The lower levels
//! search to a small fixed depth, score every move, and now and then play a move that is a
//! little worse than the best (within a margin), never one that throws the game away and
//! never missing a win they have seen: that is how a human of that strength plays.

use super::score::{is_loss, is_win, BALL};
use super::search::{Limits, Searcher};
use super::EngineConfig;
use crate::model::Level;
use crate::rules::Position;
use rand::{seq::SliceRandom, Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// How a human-like level plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// Plies searched.
    pub depth: u32,
    /// Chance of playing a slightly worse move.
    pub slip_chance: f64,
    /// How much worse (in balls) such a move may be.
    pub slip_margin_balls: i32,
}

impl Level {
    /// The style of a depth-limited level; `None` for random, hard and max.
    pub fn style(self) -> Option<Style> {
        let (depth, slip_chance, slip_margin_balls) = match self {
            Level::Beginner => (1, 0.30, 5),
            Level::Easy => (3, 0.15, 3),
            Level::Medium => (6, 0.06, 2),
            Level::Random | Level::Hard | Level::Max => return None,
        };
        Some(Style {
            depth,
            slip_chance,
            slip_margin_balls,
        })
    }

    /// The thinking time of a time-limited level (`hard`, `max`) under `config`.
    pub fn budget(self, config: &EngineConfig) -> Option<Duration> {
        match self {
            Level::Hard => Some(Duration::from_millis(config.hard_ms)),
            Level::Max => Some(Duration::from_millis(config.max_ms)),
            _ => None,
        }
    }

    /// Transposition table size for one search at this level, in MiB.
    fn table_megabytes(self) -> usize {
        match self {
            Level::Max => 64,
            Level::Hard => 16,
            _ => 1,
        }
    }
}

/// A level's move for `pos`. `budget` overrides the thinking time of `hard` and `max`;
/// `stop` cancels a running search (the best move so far is returned).
pub fn level_move(
    pos: &Position,
    level: Level,
    budget: Option<Duration>,
    seed: u64,
    stop: Option<Arc<AtomicBool>>,
) -> Option<u8> {
    let moves: Vec<u8> = pos.legal_moves().iter().collect();
    if moves.len() <= 1 {
        return moves.first().copied();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    if level == Level::Random {
        return moves.choose(&mut rng).copied();
    }
    let stop = stop.unwrap_or_default();
    match level.style() {
        Some(style) => {
            // A fresh table: the same seed gives the same move.
            let mut searcher = Searcher::new(level.table_megabytes());
            searcher.set_stop_flag(stop);
            let scored = searcher.score_moves(pos, style.depth);
            Some(human_choice(&scored, style, &mut rng))
        }
        None => {
            let limits = Limits {
                movetime: budget,
                ..Limits::default()
            };
            with_thread_searcher(level, |searcher| {
                searcher.set_stop_flag(stop);
                searcher.search(pos, limits, |_| {}).best_move
            })
        }
    }
}

/// A level's move for `pos` within `think` (a clock's allowance): `hard` and `max` think for
/// the lesser of `budget` and `think`; the depth-limited levels search their depth but stop
/// at `think` and then play from the last depth they finished (the strength their time
/// allows).
pub fn level_move_within(
    pos: &Position,
    level: Level,
    budget: Option<Duration>,
    think: Duration,
    seed: u64,
    stop: Option<Arc<AtomicBool>>,
) -> Option<u8> {
    let Some(style) = level.style() else {
        let budget = budget.map_or(think, |b| b.min(think));
        return level_move(pos, level, Some(budget), seed, stop);
    };
    let moves: Vec<u8> = pos.legal_moves().iter().collect();
    if moves.len() <= 1 {
        return moves.first().copied();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut searcher = Searcher::new(level.table_megabytes());
    searcher.set_stop_flag(stop.unwrap_or_default());
    let scored = searcher.score_moves_within(pos, style.depth, Some(think));
    Some(human_choice(&scored, style, &mut rng))
}

thread_local! {
    /// The time-limited levels keep their tables between moves on each thread: the last
    /// move's search is most of the next one's, and a big table is not reallocated per move.
    static SEARCHERS: RefCell<HashMap<Level, Searcher>> = RefCell::new(HashMap::new());
}

fn with_thread_searcher<T>(level: Level, f: impl FnOnce(&mut Searcher) -> T) -> T {
    SEARCHERS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut searchers) => f(searchers
            .entry(level)
            .or_insert_with(|| Searcher::new(level.table_megabytes()))),
        // Only reachable by re-entering from inside a search: use a fresh table.
        Err(_) => f(&mut Searcher::new(level.table_megabytes())),
    })
}

/// Picks from moves scored best first: usually a best move (ties broken at random),
/// sometimes a slip within the margin. Wins seen are always taken; moves that lose by force
/// are never slipped into.
fn human_choice(scored: &[(u8, i32)], style: Style, rng: &mut ChaCha8Rng) -> u8 {
    let best = scored[0].1;
    let best_moves: Vec<u8> = scored
        .iter()
        .filter(|&&(_, s)| s == best)
        .map(|&(m, _)| m)
        .collect();
    let slips: Vec<u8> = scored
        .iter()
        .filter(|&&(_, s)| s < best && s >= best - style.slip_margin_balls * BALL && !is_loss(s))
        .map(|&(m, _)| m)
        .collect();
    let slip = !is_win(best) && !slips.is_empty() && rng.gen_bool(style.slip_chance);
    let pool = if slip { &slips } else { &best_moves };
    *pool.choose(rng).unwrap_or(&scored[0].0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn style(chance: f64) -> Style {
        Style {
            depth: 1,
            slip_chance: chance,
            slip_margin_balls: 2,
        }
    }

    #[test]
    fn slips_stay_within_the_margin_and_avoid_losses() {
        let scored = [(5, 300), (2, 250), (7, 120), (1, -29_990)];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..200 {
            seen.insert(human_choice(&scored, style(1.0), &mut rng));
        }
        // 7 is 1.8 balls worse: allowed; 1 loses by force: never.
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), vec![2, 7]);
        for _ in 0..50 {
            assert_eq!(human_choice(&scored, style(0.0), &mut rng), 5);
        }
    }

    #[test]
    fn a_seen_win_is_always_taken() {
        let scored = [(4, 29_995), (3, 29_990), (8, 29_900)];
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for _ in 0..50 {
            assert_eq!(human_choice(&scored, style(1.0), &mut rng), 4);
        }
    }
}
