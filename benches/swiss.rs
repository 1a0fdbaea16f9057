//! Swiss pairing speed: the FIDE Dutch pairing of round 11 after ten rounds played, on
//! synthetic tournaments generated deterministically (toguz::pairing::generate).
//! `cargo bench --bench swiss`; `SWISS_BENCH_1000=1` adds the 1,000-player field.
//!
//! Fields up to 300 players get a history paired by the Dutch system itself; larger ones a
//! history paired by the quick greedy Swiss pairing, since generating ten Dutch rounds of
//! 1,000 players would take longer than the benchmark.
//!
//! Arena: one wave of pairings among 500 waiting players (`toguz::pairing::arena::wave`),
//! their scores, ratings and last opponents spread as in an hour of a busy arena.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::time::Duration;
use toguz::pairing::arena::{wave, Waiting};
use toguz::pairing::{generate, pair};

fn bench_round_11(c: &mut Criterion) {
    let mut fields = vec![(100, false), (300, false)];
    if std::env::var_os("SWISS_BENCH_1000").is_some() {
        fields.push((1000, true));
    }
    let mut group = c.benchmark_group("swiss dutch round 11");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for (players, quick) in fields {
        let tournament = if quick {
            generate::synthetic_quick(players, 10, 11, 1)
        } else {
            generate::synthetic(players, 10, 11, 1)
        }
        .expect("a synthetic tournament");
        group.bench_function(format!("{players} players"), |b| {
            b.iter(|| pair(black_box(&tournament)).expect("a pairing"))
        });
    }
    group.finish();
}

/// 500 players waiting at once: scores 0-40 crowded low, ratings 1000-2200, each with a last
/// opponent among the others (half of them waiting too) and a colour history.
fn arena_field(n: u32) -> Vec<Waiting> {
    (0..n)
        .map(|p| {
            let spread = |k: u32| (p.wrapping_mul(2_654_435_761).rotate_left(k) >> 8) % 1000;
            Waiting {
                player: p,
                points: (spread(3) % 41) * (spread(5) % 41) / 40,
                rating: 1000.0 + f64::from(spread(7)) * 1.2,
                last_opponent: Some((p + 1 + spread(11) % (n - 1)) % n),
                colour_balance: (spread(13) % 3) as i32 - 1,
                last_white: Some(spread(17) % 2 == 0),
            }
        })
        .collect()
}

fn bench_arena_wave(c: &mut Criterion) {
    let field = arena_field(500);
    let pairs = wave(&field);
    assert!(
        pairs.len() >= 240,
        "a wave pairs nearly everyone: {}",
        pairs.len()
    );
    let mut group = c.benchmark_group("arena wave");
    group.bench_function("500 waiting", |b| b.iter(|| wave(black_box(&field))));
    group.finish();
}

criterion_group!(benches, bench_round_11, bench_arena_wave);
criterion_main!(benches);
