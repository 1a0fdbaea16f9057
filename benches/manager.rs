//! Durable moves per second through the game manager: many games at once, each move
//! answered only after it is durable: sled's flush (group commit shares flushes between
//! games), and PostgreSQL's commit (a local throwaway cluster with fsync on, started from
//! /usr/lib/postgresql/*/bin, or TOGUZ_BENCH_DATABASE_URL; skipped without either).
//! `cargo bench --bench manager`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::sync::Arc;
use std::time::{Duration, Instant};
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::{Action, Manager, ManagerConfig, Player, Reply, Request};
use toguz::model::{ChatRef, Platform, UserRef};
use toguz::rules::Variant;
use toguz::store::{Location, PostgresOptions, Store, StoreOptions};
use toguz::testing::pg;

/// Games played at once (one task each, moving as both players in turn): one game shows
/// the cost of a flush per move, many games show what group commit shares.
const GAMES: [usize; 2] = [1, 64];

/// The allocator the `toguz` binary runs with (src/main.rs), so the figures are the bot's.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn request(actor: &UserRef, action: Action) -> Request {
    Request {
        actor: actor.clone(),
        chat: ChatRef::new(Platform::Telegram, actor.id.clone()),
        action,
    }
}

/// Starts a game between two users; returns its id.
async fn new_game(m: &Manager, a: &UserRef, b: &UserRef) -> String {
    let challenge = Action::Challenge {
        opponent: Some(b.clone()),
        variant: Variant::STANDARD,
        rated: true,
        time: None,
    };
    let Ok(Reply::Challenge(c)) = m.act(request(a, challenge)).await else {
        panic!("challenge refused");
    };
    let accept = Action::AcceptChallenge { challenge: c.id };
    let Ok(Reply::Game(v)) = m.act(request(b, accept)).await else {
        panic!("accept refused");
    };
    v.id
}

/// Plays `moves` durable moves in one game after another; returns how many it played.
async fn play(m: Manager, n: usize, moves: u64) -> u64 {
    let a = UserRef::new(Platform::Telegram, format!("a{n}"), "a");
    let b = UserRef::new(Platform::Telegram, format!("b{n}"), "b");
    let mut game = new_game(&m, &a, &b).await;
    let Ok(Reply::Game(mut view)) = m
        .act(request(
            &a,
            Action::Show {
                game: Some(game.clone()),
            },
        ))
        .await
    else {
        panic!("show failed")
    };
    let mut played = 0;
    while played < moves {
        if view.is_over() {
            game = new_game(&m, &a, &b).await;
            let show = Action::Show {
                game: Some(game.clone()),
            };
            let Ok(Reply::Game(v)) = m.act(request(&a, show)).await else {
                panic!("show failed")
            };
            view = v;
        }
        let mover = match view.to_move_player() {
            Some(Player::Human(u)) => u.clone(),
            _ => unreachable!("both players are people"),
        };
        let legal: Vec<u8> = view.position.legal_moves().iter().collect();
        let pit = legal[(played as usize + n) % legal.len()];
        let action = Action::Move {
            game: game.clone(),
            ply: Some(view.ply),
            pit,
        };
        match m.act(request(&mover, action)).await {
            Ok(Reply::Game(v)) => view = v,
            other => panic!("move refused: {other:?}"),
        }
        played += 1;
    }
    played
}

fn bench_moves(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // On the real disk (not a tmpfs), so flushes cost what they cost.
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let store = runtime.block_on(async { Store::open(dir.path()).unwrap() });
    bench_store(c, &runtime, "manager", store);

    // PostgreSQL: a durable local cluster (fsync on), or the given database.
    let Some((url, _cluster)) = pg::bench_database("manager_postgres") else {
        return;
    };
    let mut options = PostgresOptions::new(&url);
    options.pool_size = 32;
    let store = runtime.block_on(async {
        Store::open_at(&Location::Postgres(options), &StoreOptions::default())
            .await
            .unwrap()
    });
    bench_store(c, &runtime, "manager_postgres", store);
}

fn bench_store(c: &mut Criterion, runtime: &tokio::runtime::Runtime, name: &str, store: Store) {
    let manager = runtime.block_on(async {
        let mut config = ManagerConfig::default();
        config.limits.games_per_user = usize::MAX;
        config.limits.games_per_chat = usize::MAX;
        let engine = EnginePool::new(EngineConfig::default());
        Manager::start(store, engine, config).await.unwrap()
    });
    let manager = Arc::new(manager);
    let mut group = c.benchmark_group(name);
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .throughput(Throughput::Elements(1));
    for games in GAMES {
        group.bench_function(format!("durable move, {games} games at once"), |bench| {
            bench.iter_custom(|iters| {
                let per_game = iters.div_ceil(games as u64);
                let start = Instant::now();
                let played: u64 = runtime.block_on(async {
                    let tasks: Vec<_> = (0..games)
                        .map(|n| tokio::spawn(play(Manager::clone(&manager), n, per_game)))
                        .collect();
                    let mut total = 0;
                    for t in tasks {
                        total += t.await.unwrap();
                    }
                    total
                });
                // Scale to the iterations asked for (we played a whole number per game).
                start.elapsed().mul_f64(iters as f64 / played as f64)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_moves);
criterion_main!(benches);
