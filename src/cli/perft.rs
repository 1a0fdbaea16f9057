//! `toguz perft DEPTH [--position STR]`: one line per depth,
//! `<depth> <leaves> <seconds> <leaves-per-second>`. The root moves are spread over the
//! machine's cores.

use crate::rules::{perft, Position};
use anyhow::Context;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Deepest depth to count (1..=20).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// Start from this position string instead of the start position.
    #[arg(long)]
    pub position: Option<String>,
    /// Threads to use (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

pub fn run(args: PerftArgs) -> anyhow::Result<ExitCode> {
    let pos = match &args.position {
        Some(s) => Position::from_fen(s).context("bad --position")?,
        None => Position::default(),
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    for depth in 1..=args.depth {
        let started = Instant::now();
        let leaves = parallel_perft(&pos, depth, threads);
        let secs = started.elapsed().as_secs_f64();
        let rate = if secs > 0.0 {
            leaves as f64 / secs
        } else {
            0.0
        };
        println!("{depth} {leaves} {secs:.3} {rate:.0}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Perft with the positions two plies down dealt out to `threads` scoped threads.
pub fn parallel_perft(pos: &Position, depth: u32, threads: usize) -> u64 {
    if depth <= 3 || threads == 1 {
        return perft(pos, depth);
    }
    // Up to 81 jobs, so that two threads finish close together.
    let mut jobs = Vec::new();
    for pit in pos.legal_moves().iter() {
        let mut child = *pos;
        if child.play(pit).is_err() {
            continue;
        }
        if child.is_over() {
            jobs.push((child, 0)); // a finished game is one leaf
            continue;
        }
        for reply in child.legal_moves().iter() {
            let mut grandchild = child;
            if grandchild.play(reply).is_ok() {
                jobs.push((grandchild, depth - 2));
            }
        }
    }
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut sum = 0;
                    while let Some((p, d)) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                        sum += perft(p, *d);
                    }
                    sum
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("perft worker panicked"))
            .sum()
    })
}
