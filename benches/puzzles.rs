//! Choosing a puzzle for a player (issue 34: under 5 ms with 100,000 attempts stored).
//!
//! The store holds 1,000 players with 100 finished attempts each (their records with the
//! puzzles they were given, and 100,000 attempt lines), every puzzle of the shipped
//! collection rated, and one player who has been given all but 20 puzzles (the choice then
//! walks nearly the whole collection to find an unseen one). Criterion times
//! `Manager::puzzle` (read the player's record, choose, write the new attempt durably) for
//! players in turn, on sled and on PostgreSQL (a local throwaway cluster, or
//! TOGUZ_BENCH_DATABASE_URL; skipped without either); each attempt is ended untimed so the
//! next call chooses again. The choice alone (`ByRating::choose`, in memory) is timed too.
//!
//! `cargo bench --bench puzzles`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::time::{Duration, Instant};
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::puzzles::{AttemptLine, PuzzleKind, PuzzlePlayer, PuzzleRating};
use toguz::manager::{Clock, Manager, ManagerConfig};
use toguz::model::{ChatRef, Platform, UserRef};
use toguz::puzzle::{ByRating, Collection, Seen};
use toguz::ratings::keys::history_key;
use toguz::ratings::Rating;
use toguz::store::{Batch, Location, PostgresOptions, Store, StoreOptions, Tree};
use toguz::testing::pg;
use tokio::runtime::Runtime;

const PLAYERS: usize = 1_000;
const ATTEMPTS_EACH: usize = 100;
/// The puzzles the heavy player has not been given.
const LEFT: usize = 20;
const T0: u64 = 1_800_000_000;

fn user(i: usize) -> UserRef {
    UserRef::new(
        Platform::Telegram,
        format!("{}", 1_000_000 + i),
        format!("P{i}"),
    )
}

fn chat() -> ChatRef {
    ChatRef::new(Platform::Telegram, "-100")
}

/// A cheap deterministic spread of numbers (no dependency on a seeded generator's API).
fn spread(i: usize, n: usize) -> usize {
    (i.wrapping_mul(2_654_435_761) >> 7) % n
}

/// A player of `given` attempts, all finished, with those puzzles seen.
fn player(i: usize, collection: &Collection, given: &[usize]) -> PuzzlePlayer {
    let mut p = PuzzlePlayer::new(user(i));
    for &index in given {
        p.seen.insert(collection, index);
    }
    p.started = given.len() as u32;
    p.solved = p.started / 2;
    p.failed = p.started - p.solved;
    p.rating = Rating {
        rating: 800.0 + spread(i, 1_200) as f64,
        ..Rating::default()
    };
    p
}

/// The players, their attempt lines, every puzzle's rating, and the heavy player.
async fn fill(store: &Store, collection: &Collection) {
    let n = collection.len();
    let mut batch = Batch::new();
    let flush = |batch: &mut Batch| std::mem::take(batch);
    for i in 0..PLAYERS {
        let given: Vec<usize> = (0..ATTEMPTS_EACH).map(|a| spread(i * 131 + a, n)).collect();
        let p = player(i, collection, &given);
        batch
            .put(Tree::PuzzlePlayers, &p.user.key(), &p)
            .expect("encoded");
        for (a, &index) in given.iter().enumerate() {
            let line = AttemptLine {
                puzzle: collection.get(index).expect("a puzzle").id.clone(),
                solved: a % 2 == 0,
                daily: false,
                rating: p.rating.rating,
                at: T0 + a as u64 * 60,
            };
            let key = history_key(&p.user.key(), line.at * 1000, &a.to_string());
            batch
                .put(Tree::PuzzleAttempts, &key, &line)
                .expect("encoded");
        }
        if batch.len() >= 2_000 {
            store.write(flush(&mut batch)).await.expect("written");
        }
    }
    for p in collection.puzzles() {
        let rated = PuzzleRating {
            rating: Rating {
                rating: p.rating,
                deviation: 120.0,
                volatility: 0.06,
            },
            solved: 3,
            failed: 2,
        };
        batch
            .put(Tree::PuzzleRatings, &p.id, &rated)
            .expect("encoded");
        if batch.len() >= 2_000 {
            store.write(flush(&mut batch)).await.expect("written");
        }
    }
    let all_but: Vec<usize> = (LEFT..n).collect();
    let heavy = player(PLAYERS, collection, &all_but);
    batch
        .put(Tree::PuzzlePlayers, &heavy.user.key(), &heavy)
        .expect("encoded");
    store.write(batch).await.expect("written");
}

/// Times `Manager::puzzle` for players in turn (`who` gives the player of iteration `k`);
/// each attempt is then ended with a wrong move, untimed.
fn time_choices(rt: &Runtime, m: &Manager, iters: u64, who: impl Fn(u64) -> usize) -> Duration {
    rt.block_on(async {
        let mut spent = Duration::ZERO;
        for k in 0..iters {
            let u = user(who(k));
            let started = Instant::now();
            let view = m
                .puzzle(&u, &chat(), PuzzleKind::Next)
                .await
                .expect("a puzzle");
            spent += started.elapsed();
            let right = view.puzzle.pits()[usize::from(view.step) * 2];
            let wrong = view
                .pits()
                .into_iter()
                .find(|&p| p != right)
                .unwrap_or(right);
            m.puzzle_move(&u, &u.id, (view.attempt, view.step, wrong))
                .await
                .expect("ended");
        }
        spent
    })
}

fn bench_store(c: &mut Criterion, rt: &Runtime, name: &str, store: Store) {
    let collection = Collection::shipped().expect("the shipped collection");
    rt.block_on(fill(&store, &collection));
    let engine = EnginePool::new(EngineConfig::default());
    let m = rt
        .block_on(Manager::start_with_clock(
            store,
            engine,
            ManagerConfig::default(),
            Clock::manual(T0),
        ))
        .expect("the manager");
    let attempts = PLAYERS * ATTEMPTS_EACH;
    let mut group = c.benchmark_group(format!("puzzle next/{name}/{attempts} attempts"));
    group.sample_size(30);
    group.bench_function("a player of 100 attempts", |b| {
        b.iter_custom(|iters| time_choices(rt, &m, iters, |k| k as usize % PLAYERS))
    });
    group.bench_function(format!("a player with {LEFT} puzzles left"), |b| {
        b.iter_custom(|iters| time_choices(rt, &m, iters, |_| PLAYERS))
    });
    group.finish();
}

/// The choice alone, in memory: nearest unseen among the collection's ratings.
fn bench_choice(c: &mut Criterion) {
    let collection = Collection::shipped().expect("the shipped collection");
    let by = ByRating::new(collection.puzzles().iter().map(|p| p.rating).collect());
    let fresh = Seen::default();
    let mut nearly_all = Seen::default();
    for i in LEFT..collection.len() {
        nearly_all.insert(&collection, i);
    }
    let mut group = c.benchmark_group("puzzle choice in memory");
    for (label, seen) in [("none seen", &fresh), ("all but 20 seen", &nearly_all)] {
        group.bench_with_input(BenchmarkId::from_parameter(label), seen, |b, seen| {
            let mut k = 0u64;
            b.iter(|| {
                k += 1;
                by.choose(&collection, seen, 1500.0, k)
            })
        });
    }
    group.finish();
}

fn puzzles(c: &mut Criterion) {
    bench_choice(c);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let _runtime = rt.enter();
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let sled = Store::open(dir.path()).expect("sled");
    bench_store(c, &rt, "sled", sled);
    let Some((url, _cluster)) = pg::bench_database("puzzles") else {
        return;
    };
    let options = StoreOptions {
        commit_timeout: Duration::from_secs(120),
        ..StoreOptions::default()
    };
    let location = Location::Postgres(PostgresOptions::new(&url));
    let postgres = rt
        .block_on(Store::open_at(&location, &options))
        .expect("postgres");
    bench_store(c, &rt, "postgres", postgres);
}

criterion_group!(benches, puzzles);
criterion_main!(benches);
