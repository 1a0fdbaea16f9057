//! The alert scheduler on a big store (issue 51): 100,000 ongoing games of 2 days per move
//! between people in a sled store, each with its pending warning (due within the next 1.6
//! days) and the 100 newest with a "your move" due now, written as a move's write writes
//! them (`alerts::schedule_alerts`). Measures a tick's search for what is due (one range
//! read of the due-time index, whatever the number of games), and the whole work of one
//! alert: the tick's read and compare-and-set that claims it, its hand-off, and
//! `alert_done`'s delete.
//!
//! `cargo bench --bench alerts` (TOGUZ_BENCH_GAMES changes the number of games)

use criterion::{criterion_group, Criterion};
use std::time::{Duration, Instant};
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::alerts::{schedule_alerts, AlertRow};
use toguz::manager::{
    AlertKind, AlertOutcome, Clock, GameRecord, GameStatus, Manager, ManagerConfig, Player,
};
use toguz::model::{ChatRef, Platform, TimeControl, UserRef};
use toguz::rules::Variant;
use toguz::store::{Batch, Store, Tree};
use tokio::runtime::Runtime;

/// Now (unix seconds).
const NOW: u64 = 1_800_000_000;
/// Games whose "your move" is due now.
const DUE: usize = 100;
const FILL_BATCH: usize = 2_000;

#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn games() -> usize {
    std::env::var("TOGUZ_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000)
}

fn person(id: String) -> Player {
    let name = id.clone();
    Player::Human(UserRef::new(Platform::Telegram, id, name))
}

/// Game `i` before its first move.
fn record(i: usize, started: u64) -> GameRecord {
    GameRecord {
        id: format!("g{i:06}"),
        chat: ChatRef::new(Platform::Telegram, format!("-100{}", i % 100)),
        variant: Variant::STANDARD,
        players: [
            person(format!("{}", 1_000_000 + i)),
            person(format!("{}", 2_000_000 + i)),
        ],
        moves: vec![],
        status: GameStatus::Ongoing,
        draw_offer: None,
        created_at: started,
        last_move_at: started,
        messages: vec![],
        seed: i as u64,
        rematch: None,
        rated: true,
        ended: None,
        time_control: TimeControl::Days(2),
        clock: None,
        hints: 0,
        version: 1,
        arena: None,
        seat: None,
        watched: false,
        alerts: Vec::new(),
        premoves: Default::default(),
    }
}

/// The games, each after White's first move (spread over the last 1.5 days, newest last),
/// with the rows that move left: its warning, and for the newest `DUE` its "your move".
async fn fill(store: &Store, n: usize) {
    let span = 3 * 86_400 / 2;
    let mut batch = Batch::new();
    for i in 0..n {
        let moved_at = NOW - span + (i as u64 * span) / n as u64;
        let before = record(i, moved_at - 60);
        let mut after = before.clone();
        after.moves.push(7);
        after.last_move_at = moved_at;
        schedule_alerts(&before, &mut after, moved_at * 1000, 72 * 3600, &mut batch)
            .expect("scheduled");
        if i < n - DUE {
            // Told long ago: the "your move" row is gone.
            let told = after.alerts.remove(0);
            batch.delete(Tree::Alerts, &told);
        }
        batch.put(Tree::Games, &after.id, &after).expect("encoded");
        if batch.len() >= FILL_BATCH {
            store
                .write(std::mem::take(&mut batch))
                .await
                .expect("written");
        }
    }
    store.write(batch).await.expect("written");
}

/// Ticks until nothing is due, acknowledging each alert as sent; how many.
async fn drain(m: &Manager, rx: &mut tokio::sync::mpsc::Receiver<toguz::manager::Alert>) -> usize {
    let mut sent = 0;
    loop {
        m.alert_tick().await;
        let mut any = false;
        while let Ok(alert) = rx.try_recv() {
            m.alert_done(&alert.id, AlertOutcome::Sent).await;
            sent += 1;
            any = true;
        }
        if !any {
            return sent;
        }
    }
}

fn alerts(c: &mut Criterion) {
    let rt: Runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let _runtime = rt.enter();
    let n = games();
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let store = Store::open(dir.path()).expect("sled");
    let filled = Instant::now();
    rt.block_on(fill(&store, n));
    let rows = rt.block_on(store.count(Tree::Alerts)).expect("count");
    eprintln!(
        "filled {n} games, {rows} alert rows in {:?}",
        filled.elapsed()
    );
    let clock = Clock::manual(NOW);
    let started = Instant::now();
    let m = rt
        .block_on(Manager::start_with_clock(
            store.clone(),
            EnginePool::new(EngineConfig::default()),
            ManagerConfig::default(),
            clock.clone(),
        ))
        .expect("manager");
    eprintln!("manager started in {:?}", started.elapsed());
    let mut rx = m.serve_alerts(Platform::Telegram);

    let mut group = c.benchmark_group(format!("alerts/sled/{n}_games"));
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5));
    let now_ms = NOW * 1000;
    let due = rt
        .block_on(m.due_alerts(Platform::Telegram, now_ms))
        .expect("read");
    assert_eq!(due.len(), DUE);
    group.bench_function("tick_find_due_100", |b| {
        b.iter(|| {
            rt.block_on(m.due_alerts(Platform::Telegram, now_ms))
                .expect("read")
        })
    });
    let quiet_ms = (NOW - 3 * 86_400) * 1000;
    group.bench_function("tick_find_due_none", |b| {
        b.iter(|| {
            rt.block_on(m.due_alerts(Platform::Telegram, quiet_ms))
                .expect("read")
        })
    });

    let reads = store.reads();
    let timed = Instant::now();
    let sent = rt.block_on(drain(&m, &mut rx));
    assert_eq!(sent, DUE, "every due one handed once");
    eprintln!(
        "the {DUE} due alerts: claimed, handed and done in {:?}, {} store reads ({} per alert)",
        timed.elapsed(),
        store.reads() - reads,
        (store.reads() - reads) / DUE as u64
    );

    // One alert at a time: a due "your move" of a player not told yet, then a tick (read,
    // claim by compare-and-set, hand-off) and `alert_done` (delete).
    let mut next = 0usize;
    group.bench_function("one_alert_claim_handoff_done", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let i = next % (n - DUE);
                next += 1;
                let user = UserRef::new(Platform::Telegram, format!("{}", 2_000_000 + i), "b");
                let row = AlertRow::new(
                    user,
                    Some(format!("g{i:06}")),
                    AlertKind::YourMove,
                    clock.now_ms(),
                    1,
                );
                rt.block_on(store.put(Tree::Alerts, &row.key_at(clock.now_ms()), &row))
                    .expect("row");
                let start = Instant::now();
                rt.block_on(async {
                    m.alert_tick().await;
                    let alert = rx.try_recv().expect("handed");
                    m.alert_done(&alert.id, AlertOutcome::Sent).await;
                });
                total += start.elapsed();
            }
            total
        })
    });
    group.finish();
}

criterion_group!(benches, alerts);

fn main() {
    // `cargo test --benches` runs this with `--bench` missing: the fill of 100,000 games
    // is not for a test run.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
