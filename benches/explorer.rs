//! The opening explorer on a big sled store: synthetic random games (legal moves, random
//! results, ratings, clocks and players) written as records, then imported the way
//! `toguz explorer import` does (parse, replay, count, merge in chunks of 500), and
//! queries of random positions the games went through. Prints the import's games per
//! second, the store's size beside the records' gzip size, and the queries' p50/p99/max;
//! criterion then times the start position's query.
//!
//! `cargo bench --bench explorer`: TOGUZ_BENCH_GAMES games imported and measured (default
//! 100,000), then more up to TOGUZ_BENCH_QUERY_GAMES (default 1,000,000) for the queries;
//! on sled, then on PostgreSQL (a throwaway durable cluster, or TOGUZ_BENCH_DATABASE_URL;
//! TOGUZ_BENCH_BACKENDS=sled for sled alone).

use criterion::Criterion;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::time::{Duration, Instant};
use toguz::explorer::{import_pipelined, query, record_chunks, Filter, Scope};
use toguz::rules::{write_record, Position, RecordResult, Variant};
use toguz::store::{Location, PostgresOptions, Store, StoreOptions, Tree};
use toguz::testing::pg;

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

/// `count` random games as records, and positions they went through (for the queries).
fn records(
    rng: &mut ChaCha8Rng,
    from: usize,
    count: usize,
    positions: &mut Vec<Position>,
) -> String {
    let mut text = String::new();
    for n in from..from + count {
        text.push_str(&random_game(rng, n, positions));
        text.push('\n');
    }
    text
}

/// Imports `text` the way `toguz explorer import` does (both cores); games and seconds.
async fn import(store: &Store, text: String) -> (usize, f64) {
    let started = Instant::now();
    let chunks = record_chunks(&[("bench".to_string(), text)], CHUNK);
    let done = import_pipelined(store, chunks, |_, _, game| {
        assert!(game.is_ok(), "a legal game");
    })
    .await
    .expect("import");
    store.flush().expect("flush");
    (done.added, started.elapsed().as_secs_f64())
}

/// p50, p99 and max of 10,000 queries of positions the games went through.
async fn queries(store: &Store, positions: &[Position]) -> [Duration; 3] {
    let mut times = Vec::with_capacity(10_000);
    for p in positions.iter().cycle().take(10_000) {
        let at = Instant::now();
        let answer = query(store, p, &Scope::All, &Filter::default(), 0)
            .await
            .expect("a query");
        times.push(at.elapsed());
        assert!(answer.games > 0);
    }
    times.sort();
    [
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times[times.len() - 1],
    ]
}

async fn logical_bytes(store: &Store) -> u64 {
    let mut bytes = 0;
    for tree in [Tree::ExplorerPositions, Tree::ExplorerGames] {
        bytes += store.logical_size(tree).await.expect("a size").bytes;
    }
    bytes
}

/// The import of `games` games timed, the store's size against their gzip size, then more
/// games up to `query_games` and the queries timed.
async fn bench(
    name: &str,
    store: &Store,
    dir: Option<&std::path::Path>,
    games: usize,
    query_games: usize,
) {
    let mut rng = ChaCha8Rng::seed_from_u64(52);
    let mut positions = Vec::new();
    let text = records(&mut rng, 0, games, &mut positions);
    let gzip = gzip_size(&text);
    let (added, secs) = import(store, text).await;
    println!(
        "{name}: import {added} of {games} games in {secs:.1} s ({:.0} games/s)",
        added as f64 / secs
    );
    let logical = logical_bytes(store).await;
    let on_disk = dir.map(dir_size);
    match gzip {
        Some(gz) => println!(
            "{name}: size: explorer trees {:.1} MB ({:.2}x the records' gzip {:.1} MB){}",
            logical as f64 / 1e6,
            logical as f64 / gz as f64,
            gz as f64 / 1e6,
            on_disk.map_or(String::new(), |d| format!(
                ", store directory {:.1} MB ({:.2}x)",
                d as f64 / 1e6,
                d as f64 / gz as f64
            ))
        ),
        None => println!(
            "{name}: size: explorer trees {:.1} MB (no gzip)",
            logical as f64 / 1e6
        ),
    }
    let mut total = games;
    while total < query_games {
        let count = (query_games - total).min(100_000);
        let text = records(&mut rng, total, count, &mut Vec::new());
        import(store, text).await;
        total += count;
    }
    let [p50, p99, max] = queries(store, &positions).await;
    println!(
        "{name}: query with {total} games ({} positions): p50 {p50:?}, p99 {p99:?}, max {max:?}",
        positions.len().min(10_000)
    );
}

fn main() {
    let games = size("TOGUZ_BENCH_GAMES", 100_000);
    let query_games = size("TOGUZ_BENCH_QUERY_GAMES", 1_000_000);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a temporary directory");
    // The store's committer runs on the runtime: open it inside.
    let store = runtime
        .block_on(async { Store::open(dir.path()) })
        .expect("a store");
    runtime.block_on(bench("sled", &store, Some(dir.path()), games, query_games));
    let mut criterion = Criterion::default().configure_from_args();
    let start = Position::start(Variant::STANDARD);
    criterion.bench_function("explorer query of the start position (sled)", |b| {
        b.iter(|| {
            runtime
                .block_on(query(&store, &start, &Scope::All, &Filter::default(), 3))
                .expect("a query")
        })
    });
    drop(store);
    drop(dir);
    // TOGUZ_BENCH_BACKENDS=sled leaves PostgreSQL out (its import of a million games is long).
    let backends = std::env::var("TOGUZ_BENCH_BACKENDS").unwrap_or_default();
    if backends == "sled" {
        criterion.final_summary();
        return;
    }
    if let Some((url, _cluster)) = pg::bench_database("explorer on postgres") {
        runtime.block_on(async {
            let location = Location::Postgres(PostgresOptions::new(&url));
            let store = Store::open_at(&location, &StoreOptions::default())
                .await
                .expect("a PostgreSQL store");
            bench("postgres", &store, None, games, query_games).await;
        });
    }
    criterion.final_summary();
}
