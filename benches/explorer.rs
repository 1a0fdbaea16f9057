//! The opening explorer on a big sled store: synthetic random games (legal moves, random
//! results, ratings, clocks and players) written as records, then imported the way
//! `toguz explorer import` does (parse, replay, count, merge in chunks of 500), and
//! queries of random positions the games went through. Prints the import's games per
//! second, the store's size beside the records' gzip size, and the queries' p50/p99/max;
//! criterion then times the start position's query.
//!
//! `cargo bench --bench explorer` (TOGUZ_BENCH_GAMES changes the size, default 100,000)

use criterion::Criterion;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::time::{Duration, Instant};
use toguz::explorer::{import_games, prepare, query, Filter, Scope, Source};
use toguz::rules::{parse_records, write_record, Position, RecordResult, Variant};
use toguz::store::Store;

const CHUNK: usize = 500;

fn size(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A random game of 40-120 half-moves (or to its end) as a record, and the positions of its
/// first 20 half-moves.
fn random_game(rng: &mut ChaCha8Rng, n: usize, positions: &mut Vec<Position>) -> String {
    let mut p = Position::start(Variant::STANDARD);
    let start = p;
    let mut moves = Vec::new();
    let length = rng.gen_range(40..120);
    // The first moves come from a few favourites, as real openings do.
    while moves.len() < length && !p.is_over() {
        let legal: Vec<u8> = p.legal_moves().iter().collect();
        let pit = if moves.len() < 12 && rng.gen_bool(0.7) {
            legal[rng.gen_range(0..legal.len().min(3))]
        } else {
            legal[rng.gen_range(0..legal.len())]
        };
        if moves.len() < 20 && rng.gen_bool(0.05) {
            positions.push(p);
        }
        moves.push(p.play(pit).expect("a legal move"));
    }
    let result = match p.outcome() {
        Some(o) => RecordResult::from_winner(o.winner),
        None => [
            RecordResult::WhiteWins,
            RecordResult::BlackWins,
            RecordResult::Draw,
        ][rng.gen_range(0..3)],
    };
    let header = |k: &str, v: String| (k.to_string(), v);
    let headers = [
        header("Event", format!("bench {n}")),
        header("White", format!("player{}", rng.gen_range(0..5000))),
        header("Black", format!("player{}", rng.gen_range(0..5000))),
        header(
            "TimeControl",
            ["180", "600", "900+5"][rng.gen_range(0..3)].into(),
        ),
        header("WhiteElo", rng.gen_range(800..2300).to_string()),
        header("BlackElo", rng.gen_range(800..2300).to_string()),
    ];
    write_record(&headers, start, &moves, Some(result), true)
}

fn gzip_size(text: &str) -> Option<u64> {
    let mut child = std::process::Command::new("gzip")
        .arg("-c")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let text = text.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().ok()?;
    writer.join().ok()?.ok()?;
    Some(out.stdout.len() as u64)
}

fn dir_size(path: &std::path::Path) -> u64 {
    std::fs::read_dir(path)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => dir_size(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)]
}

fn main() {
    let games = size("TOGUZ_BENCH_GAMES", 100_000);
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = runtime
        .block_on(async { Store::open(dir.path()) })
        .expect("a store");
    let mut rng = ChaCha8Rng::seed_from_u64(52);
    let mut positions = Vec::new();
    let mut text = String::new();
    for n in 0..games {
        text.push_str(&random_game(&mut rng, n, &mut positions));
        text.push('\n');
    }
    let started = Instant::now();
    let mut added = 0;
    runtime.block_on(async {
        let mut pending = Vec::with_capacity(CHUNK);
        for record in parse_records(&text) {
            let record = record.expect("a record written by write_record parses");
            pending.push(prepare(&record, Source::Masters).expect("a legal game"));
            if pending.len() == CHUNK {
                added += import_games(&store, &pending).await.expect("import").added;
                pending.clear();
            }
        }
        added += import_games(&store, &pending).await.expect("import").added;
        store.flush().expect("flush");
    });
    let took = started.elapsed();
    println!(
        "import: {added} of {games} games in {:.1} s ({:.0} games/s)",
        took.as_secs_f64(),
        added as f64 / took.as_secs_f64()
    );
    let stored = dir_size(dir.path());
    match gzip_size(&text) {
        Some(gz) => println!(
            "size: store {:.1} MB, records {:.1} MB, gzip {:.1} MB: {:.1}x the gzip",
            stored as f64 / 1e6,
            text.len() as f64 / 1e6,
            gz as f64 / 1e6,
            stored as f64 / gz as f64
        ),
        None => println!(
            "size: store {:.1} MB (no gzip to compare)",
            stored as f64 / 1e6
        ),
    }
    let mut times = Vec::new();
    runtime.block_on(async {
        for p in positions.iter().cycle().take(10_000) {
            let at = Instant::now();
            let answer = query(&store, p, &Scope::All, &Filter::default(), 0)
                .await
                .expect("a query");
            times.push(at.elapsed());
            assert!(answer.games > 0);
        }
    });
    times.sort();
    println!(
        "query ({} positions): p50 {:?}, p99 {:?}, max {:?}",
        positions.len().min(10_000),
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times[times.len() - 1]
    );
    let mut criterion = Criterion::default().configure_from_args();
    let start = Position::start(Variant::STANDARD);
    criterion.bench_function("explorer query of the start position", |b| {
        b.iter(|| {
            runtime
                .block_on(query(&store, &start, &Scope::All, &Filter::default(), 3))
                .expect("a query")
        })
    });
    criterion.final_summary();
}
