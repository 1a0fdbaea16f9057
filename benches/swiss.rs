//! Swiss pairing speed: the FIDE Dutch pairing of round 11 after ten rounds played, on
//! synthetic tournaments generated deterministically (toguz::pairing::generate).
//! `cargo bench --bench swiss`; `SWISS_BENCH_1000=1` adds the 1,000-player field.
//!
//! Fields up to 300 players get a history paired by the Dutch system itself; larger ones a
//! history paired by the quick greedy Swiss pairing, since generating ten Dutch rounds of
//! 1,000 players would take longer than the benchmark.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::time::Duration;
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

criterion_group!(benches, bench_round_11);
criterion_main!(benches);
