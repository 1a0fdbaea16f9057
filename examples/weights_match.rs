//! Plays the tuned evaluation weights against the hand-set ones (`Weights::TUNED` against
//! `Weights::HAND_SET`), the same search and balanced openings as `toguz match`, colours
//! alternating: how docs/engine.md measures what the tuning bought.
//!
//! `cargo run --release --example weights_match -- [--games 100] [--movetime 50] [--seed 1]
//! [--jobs 2]`

use anyhow::Context;
use clap::Parser;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Duration;
use toguz::cli::matchup::opening;
use toguz::engine::eval::Weights;
use toguz::engine::{Limits, Searcher};
use toguz::rules::{Position, Side};

#[derive(Parser)]
struct Args {
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Thinking time per move, for both sides.
    #[arg(long, default_value_t = 50)]
    movetime: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = 2)]
    jobs: usize,
}

/// The tuned side's score (1, 0.5 or 0) and the game's length in plies.
fn play(start: Position, tuned_is_white: bool, movetime: Duration) -> anyhow::Result<(f64, u32)> {
    let mut tuned = Searcher::new(16);
    tuned.set_weights(Weights::TUNED);
    let mut hand = Searcher::new(16);
    hand.set_weights(Weights::HAND_SET);
    let limits = Limits {
        movetime: Some(movetime),
        ..Limits::default()
    };
    let tuned_side = if tuned_is_white {
        Side::White
    } else {
        Side::Black
    };
    let mut pos = start;
    let mut plies = 0;
    while let Some(mv) = {
        let searcher = if pos.to_move() == tuned_side {
            &mut tuned
        } else {
            &mut hand
        };
        searcher.search(&pos, limits, |_| {}).best_move
    } {
        pos.play(mv).context("the engine chose an illegal move")?;
        plies += 1;
    }
    let outcome = pos.outcome().context("no move but the game is not over")?;
    let score = match outcome.winner {
        None => 0.5,
        Some(w) if w == tuned_side => 1.0,
        Some(_) => 0.0,
    };
    Ok((score, plies))
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let movetime = Duration::from_millis(args.movetime);
    let next = AtomicU32::new(0);
    let total = Mutex::new((0.0f64, 0u32));
    std::thread::scope(|s| -> anyhow::Result<()> {
        let workers: Vec<_> = (0..args.jobs.max(1))
            .map(|_| {
                s.spawn(|| -> anyhow::Result<()> {
                    loop {
                        let game = next.fetch_add(1, Ordering::SeqCst);
                        if game >= args.games {
                            return Ok(());
                        }
                        // Both games of a pair start from the same opening, colours swapped.
                        let start = opening(args.seed, game / 2, 4, Some(3));
                        let (score, plies) = play(start, game % 2 == 0, movetime)?;
                        let mut t = total.lock().map_err(|_| anyhow::anyhow!("poisoned"))?;
                        t.0 += score;
                        t.1 += 1;
                        println!(
                            "game {game:3}: tuned scored {score} in {plies} plies; {}/{}",
                            t.0, t.1
                        );
                    }
                })
            })
            .collect();
        for worker in workers {
            worker
                .join()
                .map_err(|_| anyhow::anyhow!("a game thread panicked"))??;
        }
        Ok(())
    })?;
    let (points, games) = *total.lock().map_err(|_| anyhow::anyhow!("poisoned"))?;
    println!(
        "tuned vs hand-set: {games} games, {points} points ({:.1}%)",
        100.0 * points / games.max(1) as f64
    );
    Ok(())
}
