//! Rules speed: perft from the start position (single thread), and one move from the start.
//! `cargo bench --bench rules`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::time::Duration;
use toguz::rules::{perft, Position};

fn bench_perft(c: &mut Criterion) {
    let start = Position::default();
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for depth in [7, 9] {
        group.bench_function(format!("depth {depth}, one thread"), |b| {
            b.iter(|| perft(black_box(&start), depth))
        });
    }
    group.finish();
}

fn bench_play(c: &mut Criterion) {
    let start = Position::default();
    c.bench_function("play one move (copy-make)", |b| {
        b.iter(|| {
            let mut p = black_box(start);
            p.play(black_box(7)).map(|r| r.landing_pit)
        })
    });
}

criterion_group!(benches, bench_perft, bench_play);
criterion_main!(benches);
