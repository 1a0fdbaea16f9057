//! Engine speed: nodes per second of fixed-depth searches (criterion reports them as
//! "elem/s"), and the time `max` needs to finish depth 14 from the start position.
//! One thread. `cargo bench --bench engine`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::{seq::IteratorRandom, SeedableRng};
use std::time::Duration;
use toguz::engine::{Limits, Searcher};
use toguz::rules::Position;

/// Table size of a `max` search, in MiB (see src/engine/levels.rs).
const MAX_TABLE_MB: usize = 64;

fn position_after(plies: u32, seed: u64) -> Position {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::default();
    for _ in 0..plies {
        match pos.legal_moves().iter().choose(&mut rng) {
            Some(pit) => {
                let _ = pos.play(pit);
            }
            None => break,
        }
    }
    pos
}

fn search_to(pos: &Position, depth: u32, table_mb: usize) -> u64 {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    Searcher::new(table_mb)
        .search(pos, limits, |_| {})
        .info
        .nodes
}

fn bench_nodes_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("search nodes/s");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(6))
        .warm_up_time(Duration::from_secs(1));
    let cases = [
        ("start", Position::default(), 13),
        ("middlegame (ply 30)", position_after(30, 4), 13),
        ("endgame (ply 80)", position_after(80, 4), 15),
    ];
    for (name, pos, depth) in cases {
        // Fixed depth and a fresh searcher: the node count is the same on every run.
        let nodes = search_to(&pos, depth, 16);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(
            BenchmarkId::new(name, format!("depth {depth}")),
            &pos,
            |b, pos| b.iter(|| search_to(pos, depth, 16)),
        );
    }
    group.finish();
}

fn bench_max_depth_14(c: &mut Criterion) {
    let mut group = c.benchmark_group("max level");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8))
        .warm_up_time(Duration::from_secs(1));
    let start = Position::default();
    group.bench_function("start position to depth 14 (64 MiB table)", |b| {
        b.iter(|| search_to(&start, 14, MAX_TABLE_MB))
    });
    group.finish();
}

criterion_group!(benches, bench_nodes_per_second, bench_max_depth_14);
criterion_main!(benches);
