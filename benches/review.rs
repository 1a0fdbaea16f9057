//! How long a game review takes (docs/review.md, *Measured*): the longest games of the test
//! data, each reviewed once on one thread at the default node budget, and timed.
//!
//! `cargo bench --bench review [-- DIR [GAMES [NODES]]]`: the `.pgn` files of DIR (default
//! `tests/data`, the same files as /work/shared/data), the GAMES longest (default 10), NODES
//! per position (default `review::DEFAULT_NODES`). Not criterion: a run takes seconds, is
//! deterministic (a fixed node budget, no clock), and the figure wanted is that run's time.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use toguz::review::{review_game, ReviewOptions, DEFAULT_NODES};
use toguz::rules::{parse_records, replay, Position};

/// One game of the data: where it is, its start and its moves.
struct Game {
    name: String,
    start: Position,
    pits: Vec<u8>,
}

fn main() {
    // `cargo bench` passes `--bench`; the rest are ours.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let dir = PathBuf::from(args.first().map_or("tests/data", String::as_str));
    let count: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(10);
    let nodes: u64 = args
        .get(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_NODES);
    let mut games = load(&dir);
    // The longest first; equal lengths in file order, so every run reviews the same games.
    games.sort_by_key(|g| std::cmp::Reverse(g.pits.len()));
    games.truncate(count);
    println!(
        "reviewing the {} longest games of {} at {nodes} nodes a position, one thread",
        games.len(),
        dir.display()
    );
    let mut total = Duration::ZERO;
    let mut positions = 0;
    let mut slowest = Duration::ZERO;
    for game in &games {
        let started = Instant::now();
        let review = match review_game(game.start, &game.pits, ReviewOptions { nodes }) {
            Ok(review) => review,
            Err(error) => {
                eprintln!("{}: {error}", game.name);
                continue;
            }
        };
        let took = started.elapsed();
        let judged = review.plies.len() + 1;
        println!(
            "{:<40} {:>4} half-moves  {:>7.2} s  {:>6.1} ms a position",
            game.name,
            review.plies.len(),
            took.as_secs_f64(),
            took.as_secs_f64() * 1000.0 / judged as f64
        );
        total += took;
        positions += judged;
        slowest = slowest.max(took);
    }
    let per_position = total.as_secs_f64() / positions.max(1) as f64;
    println!(
        "total {:.1} s for {positions} positions: {:.1} ms a position, slowest game {:.2} s, \
         a 100-move (200 half-move) game about {:.1} s",
        total.as_secs_f64(),
        per_position * 1000.0,
        slowest.as_secs_f64(),
        per_position * 201.0
    );
}

/// Every game of the `.pgn` files in `dir` that replays; the others are skipped with a note.
fn load(dir: &Path) -> Vec<Game> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
            .collect(),
        Err(error) => {
            eprintln!("cannot read {}: {error}", dir.display());
            return Vec::new();
        }
    };
    files.sort();
    let mut games = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            eprintln!("cannot read {}", file.display());
            continue;
        };
        let stem = file.file_stem().unwrap_or_default().to_string_lossy();
        for (i, record) in parse_records(&text).into_iter().enumerate() {
            let Ok(record) = record else { continue };
            let Ok(start) = record.start_position() else {
                continue;
            };
            let Ok(plies) = replay(&record, start) else {
                continue;
            };
            games.push(Game {
                name: format!("{stem} #{}", i + 1),
                start,
                pits: plies.iter().map(|p| p.report.pit).collect(),
            });
        }
    }
    games
}
