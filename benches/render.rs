//! Board rendering speed: the PNG (draw + quantize + encode) and the text board.
//!
//! `cargo bench --bench render` — the issue asks for a median of at most 5 ms per PNG board
//! and at most 60 KB per image; the sizes are printed once before the timings.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::time::Duration;
use toguz::i18n::Lang;
use toguz::render::{png, stages, text, BoardView, Charset};
use toguz::rules::{Position, Side};

/// A busy middle game: both tuzdeks, a pile of 20, full stores, a capture just made.
fn midgame() -> BoardView {
    let mut position = Position::default();
    let mut last_move = None;
    for pit in [
        7, 6, 3, 9, 1, 5, 2, 8, 4, 4, 6, 2, 9, 1, 3, 7, 5, 8, 2, 6, 1, 3,
    ] {
        if let Ok(report) = position.play(pit) {
            last_move = Some(report);
        }
    }
    BoardView {
        position,
        last_move,
        names: ["Кажгалиев Темірлан".into(), "Aibek 🐎".into()],
        perspective: Side::White,
        lang: Lang::Kk,
        result_line: None,
        hint: None,
    }
}

fn start() -> BoardView {
    BoardView {
        last_move: None,
        position: Position::default(),
        ..midgame()
    }
}

/// Nanoseconds this thread has spent on a CPU (Linux), unlike wall time not stretched by
/// other processes competing for the cores.
fn thread_cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

/// Prints the mean CPU time of `f` over `n` runs.
fn cpu_time(label: &str, n: u32, mut f: impl FnMut()) {
    f();
    let (Some(before), wall) = (thread_cpu_ns(), std::time::Instant::now()) else {
        return;
    };
    for _ in 0..n {
        f();
    }
    if let Some(after) = thread_cpu_ns() {
        let cpu = (after - before) as f64 / f64::from(n) / 1e6;
        let wall = wall.elapsed().as_secs_f64() * 1e3 / f64::from(n);
        println!("{label}: {cpu:.3} ms CPU per run ({wall:.3} ms wall), mean of {n}");
    }
}

fn bench(c: &mut Criterion) {
    for (name, view) in [("start", start()), ("midgame", midgame())] {
        match png(&view) {
            Ok(bytes) => println!("png {name}: {} bytes", bytes.len()),
            Err(e) => println!("png {name}: {e}"),
        }
        cpu_time(&format!("png {name}"), 200, || {
            let _ = png(black_box(&view));
        });
    }
    let mut group = c.benchmark_group("render");
    group
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for (name, view) in [("start", start()), ("midgame", midgame())] {
        group.bench_function(format!("png_{name}"), |b| b.iter(|| png(black_box(&view))));
    }
    let view = midgame();
    if let Ok(canvas) = stages::draw(&view) {
        cpu_time("stage draw midgame", 200, || {
            let _ = stages::draw(black_box(&view));
        });
        cpu_time("stage encode midgame", 200, || {
            let _ = stages::encode(black_box(&canvas));
        });
        group.bench_function("stage_draw_midgame", |b| {
            b.iter(|| stages::draw(black_box(&view)))
        });
        group.bench_function("stage_encode_midgame", |b| {
            b.iter(|| stages::encode(black_box(&canvas)))
        });
    }
    group.bench_function("text_midgame", |b| {
        b.iter(|| text(black_box(&view), Charset::Unicode))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
