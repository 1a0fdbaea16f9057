//! `toguz match A B [--games N] [--movetime MS] [--openings K] [--seed S] [--jobs N] [--json]`:
//! plays levels against each other. Games go in pairs: both start from the same K random
//! opening half-moves, with A as White in one and as Black in the other. Prints a line per
//! finished game, then wins, draws and losses from A's side (with `--json`, one JSON object).
//!
//! Random half-moves often hand one side a won game (a tuzdek on move 2, ten balls given
//! away): such a pair ends 1-1 whoever is stronger, and a match of them measures the
//! openings, not the levels. So an opening is kept only if a quick search scores it within
//! `--balance` balls of even (`--unbalanced` keeps every one).

use crate::cli::engine::engine_config;
use crate::engine::{level_move, EngineConfig, Limits, Searcher, BALL};
use crate::model::Level;
use crate::rules::{Position, Side};
use rand::{seq::IteratorRandom, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// A game still running after this many half-moves is scored a draw.
pub const MAX_PLIES: u16 = 1000;

#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// The first level (results are from its side).
    pub a: Level,
    /// The second level.
    pub b: Level,
    /// Games to play (colours alternate).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games: u32,
    /// Thinking time per move of the time-limited levels (hard, max), in milliseconds;
    /// default: their budgets from the config. Lower levels search their own fixed depth.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub movetime: Option<u64>,
    /// Random half-moves played before the levels take over.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub openings: u32,
    /// Keep only openings that a quick search (depth 10) scores within this many balls of
    /// even.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=162))]
    pub balance: u32,
    /// Keep every random opening, however lopsided.
    #[arg(long, conflicts_with = "balance")]
    pub unbalanced: bool,
    /// Seed for the openings and the levels' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub jobs: u64,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Read the level budgets (`[engine]`) from this config file.
    #[arg(long)]
    pub config: Option<PathBuf>,
}

/// How one game ended, from A's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

/// One finished game.
#[derive(Clone, Copy, Debug)]
pub struct GameResult {
    pub index: u32,
    pub a_side: Side,
    pub score: Score,
    pub plies: u16,
    pub stores: [u8; 2],
}

/// The players and their settings.
#[derive(Clone, Copy, Debug)]
pub struct Pairing {
    pub a: Level,
    pub b: Level,
    pub a_budget: Option<Duration>,
    pub b_budget: Option<Duration>,
    pub openings: u32,
    /// The most an opening may favour one side, in balls; `None`: any opening.
    pub balance: Option<u32>,
    pub seed: u64,
}

impl Pairing {
    pub fn new(a: Level, b: Level, config: &EngineConfig, movetime: Option<u64>) -> Pairing {
        let budget = |level: Level| {
            level
                .budget(config)
                .map(|own| movetime.map_or(own, Duration::from_millis))
        };
        Pairing {
            a,
            b,
            a_budget: budget(a),
            b_budget: budget(b),
            openings: 4,
            balance: Some(3),
            seed: 1,
        }
    }
}

pub fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let config = engine_config(args.config.as_deref())?;
    let mut pairing = Pairing::new(args.a, args.b, &config, args.movetime);
    pairing.openings = args.openings;
    pairing.balance = (!args.unbalanced).then_some(args.balance);
    pairing.seed = args.seed;
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    play_match(pairing, args.games, args.jobs as usize, |r| {
        match r.score {
            Score::Win => wins += 1,
            Score::Draw => draws += 1,
            Score::Loss => losses += 1,
        }
        if !args.json {
            println!(
                "game {:>3}: {} as {} {} in {} plies ({}:{}); {} so far {}-{}-{}",
                r.index + 1,
                args.a,
                r.a_side.name(),
                match r.score {
                    Score::Win => "won",
                    Score::Draw => "drew",
                    Score::Loss => "lost",
                },
                r.plies,
                r.stores[0],
                r.stores[1],
                args.a,
                wins,
                draws,
                losses
            );
        }
    });
    let score = (wins as f64 + draws as f64 / 2.0) / args.games as f64 * 100.0;
    if args.json {
        let json = serde_json::json!({
            "a": args.a.name(),
            "b": args.b.name(),
            "games": args.games,
            "wins": wins,
            "draws": draws,
            "losses": losses,
            "score_percent": score,
        });
        println!("{json}");
    } else {
        println!(
            "{} vs {}: {} games, {wins} wins, {draws} draws, {losses} losses ({score:.1}%)",
            args.a, args.b, args.games
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Plays `games` games on `jobs` threads, calling `on_result` as each one finishes.
pub fn play_match(
    pairing: Pairing,
    games: u32,
    jobs: usize,
    mut on_result: impl FnMut(GameResult),
) {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, games as usize) {
            let tx = tx.clone();
            let next = &next;
            s.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed) as u32;
                if index >= games || tx.send(play_game(&pairing, index)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for result in rx {
            on_result(result);
        }
    });
}

/// Game `index` of a match: opening `index / 2`, A as White in even games.
pub fn play_game(pairing: &Pairing, index: u32) -> GameResult {
    let a_side = if index % 2 == 0 {
        Side::White
    } else {
        Side::Black
    };
    let mut pos = opening(pairing.seed, index / 2, pairing.openings, pairing.balance);
    while !pos.is_over() && pos.ply() < MAX_PLIES {
        let (level, budget) = if pos.to_move() == a_side {
            (pairing.a, pairing.a_budget)
        } else {
            (pairing.b, pairing.b_budget)
        };
        let seed = mix(pairing.seed, index as u64, pos.ply() as u64);
        let Some(pit) = level_move(&pos, level, budget, seed, None) else {
            break;
        };
        if pos.play(pit).is_err() {
            break; // cannot happen: the engine answers legal moves (tested)
        }
    }
    let score = match pos.outcome().and_then(|o| o.winner) {
        Some(w) if w == a_side => Score::Win,
        Some(_) => Score::Loss,
        None => Score::Draw,
    };
    GameResult {
        index,
        a_side,
        score,
        plies: pos.ply(),
        stores: [pos.store(Side::White), pos.store(Side::Black)],
    }
}

/// The start of opening `number`: `plies` random half-moves that do not end the game and,
/// with `balance`, leave neither side more than that many balls ahead by a depth-10 search
/// (after `OPENING_TRIES` draws, the most even one drawn).
pub fn opening(seed: u64, number: u32, plies: u32, balance: Option<u32>) -> Position {
    let mut rng = ChaCha8Rng::seed_from_u64(mix(seed, number as u64, u64::MAX));
    let mut best: Option<(i32, Position)> = None;
    for _ in 0..OPENING_TRIES {
        let mut pos = Position::default();
        for _ in 0..plies {
            let Some(pit) = pos.legal_moves().iter().choose(&mut rng) else {
                break;
            };
            let _ = pos.play(pit);
        }
        if pos.is_over() {
            continue;
        }
        let Some(balls) = balance else {
            return pos;
        };
        let imbalance = imbalance(&pos);
        if imbalance <= balls as i32 * BALL {
            return pos;
        }
        if best.is_none_or(|(b, _)| imbalance < b) {
            best = Some((imbalance, pos));
        }
        if plies == 0 {
            break; // every draw is the start position
        }
    }
    best.map_or_else(Position::default, |(_, pos)| pos)
}

/// Openings drawn before settling for the most even one.
const OPENING_TRIES: u32 = 200;

/// How far from even a quick search finds `pos` (in score units, either side ahead). A fresh
/// table each time, so both games of a pair get the same opening.
fn imbalance(pos: &Position) -> i32 {
    let limits = Limits {
        depth: Some(10),
        ..Limits::default()
    };
    Searcher::new(1)
        .search(pos, limits, |_| {})
        .info
        .score
        .abs()
}

/// A seed from three numbers (splitmix64 finaliser over their mix).
fn mix(a: u64, b: u64, c: u64) -> u64 {
    let mut z = a
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(b.rotate_left(21))
        ^ c.rotate_left(42);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_pairs_share_their_opening_and_swap_colours() {
        let pairing = Pairing {
            openings: 6,
            ..Pairing::new(Level::Random, Level::Random, &EngineConfig::default(), None)
        };
        assert_eq!(opening(1, 3, 6, None), opening(1, 3, 6, None));
        assert_ne!(opening(1, 3, 6, None), opening(1, 4, 6, None));
        assert_eq!(opening(1, 3, 6, None).ply(), 6);
        let (g0, g1) = (play_game(&pairing, 0), play_game(&pairing, 1));
        assert_eq!((g0.a_side, g1.a_side), (Side::White, Side::Black));
        // Random against random from a fixed seed replays exactly.
        let again = play_game(&pairing, 0);
        assert_eq!(
            (g0.score, g0.plies, g0.stores),
            (again.score, again.plies, again.stores)
        );
    }

    #[test]
    fn balanced_openings_are_even_by_a_quick_search() {
        for number in 0..6 {
            let pos = opening(1, number, 4, Some(3));
            assert_eq!(pos.ply(), 4);
            assert!(imbalance(&pos) <= 3 * BALL, "opening {number}: {pos:?}");
            assert_eq!(
                pos,
                opening(1, number, 4, Some(3)),
                "the same for both colours"
            );
        }
        // Without the filter, the same seed draws lopsided ones too.
        let lopsided = (0..20).any(|n| imbalance(&opening(1, n, 4, None)) > 10 * BALL);
        assert!(lopsided);
        // The start position cannot be redrawn: it is taken however it scores.
        assert_eq!(opening(1, 0, 0, Some(0)), Position::default());
    }

    #[test]
    fn movetime_overrides_only_time_limited_levels() {
        let p = Pairing::new(Level::Easy, Level::Hard, &EngineConfig::default(), Some(50));
        assert_eq!(p.a_budget, None);
        assert_eq!(p.b_budget, Some(Duration::from_millis(50)));
        let own = Pairing::new(Level::Max, Level::Hard, &EngineConfig::default(), None);
        assert_eq!(own.a_budget, Some(Duration::from_millis(2000)));
        assert_eq!(own.b_budget, Some(Duration::from_millis(300)));
    }
}
