//! Game pages (issue 35): a page served in under 5 ms (median) with 100,000 archived games,
//! and 1,000 open live pages costing under 50 MB.
//!
//! The store holds 100,000 finished games of 80 half-moves each (written straight into the
//! archive, as the manager leaves them); the real web server runs on a manager over it, and
//! a client on this machine asks for the pages of random games (each read from the store:
//! a fresh game every time), timing each request from send to the last byte. Then 100
//! ongoing games are opened by 1,000 live pages (server-sent events, ten a game), and the
//! process's resident memory is read before and after; one move in each game is then timed
//! until every page has it. On sled, and on PostgreSQL (a local throwaway cluster, or
//! TOGUZ_BENCH_DATABASE_URL; skipped without either).
//!
//! `cargo bench --bench web` (TOGUZ_BENCH_GAMES changes the size)

use futures_util::StreamExt;
use std::time::{Duration, Instant};
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::{
    Action, Ended, FinishReason, GameRecord, GameStatus, Manager, Player, Reply, Request,
};
use toguz::model::{ChatRef, Platform, UserRef};
use toguz::platform::web::{self, WebConfig};
use toguz::rules::{Position, Side, Variant};
use toguz::store::{Batch, Location, PostgresOptions, Store, StoreOptions, Tree};
use toguz::testing::pg;

const NOW: u64 = 1_800_000_000;
const PLIES: usize = 80;
const FILL_BATCH: usize = 2_000;
const REQUESTS: usize = 1_000;
const LIVE_GAMES: usize = 100;
const PAGES_EACH: usize = 10;

fn size(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn player(i: usize) -> UserRef {
    UserRef::new(
        Platform::Telegram,
        format!("{}", 100_000 + i),
        format!("Player {i}"),
    )
}

fn chat() -> ChatRef {
    ChatRef::new(Platform::Telegram, "-1001000")
}

/// A deterministic spread (a linear congruential generator).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// `PLIES` legal moves from the start (fewer if the game ends).
fn moves(rng: &mut Lcg) -> Vec<u8> {
    let mut pos = Position::start(Variant::STANDARD);
    let mut out = Vec::with_capacity(PLIES);
    while out.len() < PLIES && !pos.is_over() {
        let legal: Vec<u8> = pos.legal_moves().iter().collect();
        let pit = legal[rng.next(legal.len())];
        pos.play(pit).unwrap();
        out.push(pit);
    }
    out
}

fn record(g: usize, rng: &mut Lcg) -> GameRecord {
    let ended_at = NOW - 86_400 + g as u64 % 86_400;
    GameRecord {
        id: format!("g{g:07}"),
        chat: chat(),
        variant: Variant::STANDARD,
        players: [
            Player::Human(player(g % 1000)),
            Player::Human(player(g % 997 + 1000)),
        ],
        moves: moves(rng),
        status: GameStatus::Finished {
            winner: Some(Side::White),
            reason: FinishReason::Resigned(Side::Black),
        },
        draw_offer: None,
        created_at: ended_at - 1_800,
        last_move_at: ended_at,
        messages: vec![],
        seed: 0,
        rematch: None,
        rated: false,
        ended: Some(Ended {
            at: ended_at,
            ratings: [None, None],
        }),
        time_control: Default::default(),
        clock: None,
        hints: 0,
        version: 0,
        arena: None,
        seat: None,
        watched: false,
        alerts: Vec::new(),
        premoves: Default::default(),
    }
}

async fn fill(store: &Store, games: usize) {
    let mut rng = Lcg(7);
    let mut batch = Batch::new();
    for g in 0..games {
        batch
            .put(Tree::Archive, &format!("g{g:07}"), &record(g, &mut rng))
            .unwrap();
        if batch.len() >= FILL_BATCH {
            store.apply(std::mem::take(&mut batch)).await.unwrap();
        }
    }
    store.apply(batch).await.unwrap();
    store.commit().await.unwrap();
}

/// Resident memory of this process, in MiB (Linux).
fn rss_mib() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0.0);
    pages * 4096.0 / (1024.0 * 1024.0)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn report(name: &str, mut took: Vec<Duration>) {
    took.sort();
    let at = |q: f64| took[((took.len() - 1) as f64 * q) as usize];
    println!(
        "  {name:<40} p50 {:>7.2} ms  p99 {:>7.2} ms  max {:>7.2} ms",
        ms(at(0.5)),
        ms(at(0.99)),
        ms(*took.last().unwrap())
    );
}

async fn act(m: &Manager, actor: &UserRef, action: Action) -> Reply {
    let request = Request {
        actor: actor.clone(),
        chat: chat(),
        action,
    };
    m.act(request).await.unwrap()
}

async fn bench(name: &str, store: Store) {
    let games = size("TOGUZ_BENCH_GAMES", 100_000);
    let start = Instant::now();
    fill(&store, games).await;
    println!(
        "{name}: {games} archived games of {PLIES} half-moves (filled in {:.1} s)",
        start.elapsed().as_secs_f64()
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut config = toguz::manager::ManagerConfig {
        web_url: Some(format!("http://{addr}")),
        ..Default::default()
    };
    config.limits.games_per_user = 10_000;
    config.limits.games_per_chat = 10_000;
    let engine = EnginePool::new(EngineConfig::default());
    let manager = Manager::start(store, engine, config).await.unwrap();
    let web_config = WebConfig {
        enabled: true,
        public_url: format!("http://{addr}"),
        max_per_address: 4_000,
        max_connections: 4_000,
        max_live: 2_000,
        ..WebConfig::default()
    };
    tokio::spawn(web::serve_on(listener, web_config, manager.clone()));
    let client = reqwest::Client::new();

    let mut rng = Lcg(99);
    let mut took = Vec::with_capacity(REQUESTS);
    for _ in 0..REQUESTS {
        let id = format!("g{:07}", rng.next(games));
        let url = manager.page_url(&id).unwrap();
        let begun = Instant::now();
        let response = client.get(&url).send().await.unwrap();
        assert_eq!(response.status(), 200);
        let body = response.bytes().await.unwrap();
        took.push(begun.elapsed());
        assert!(body.len() > 1_000);
    }
    report("a random archived game's page", took);

    live(&manager, &client).await;
}

/// 1,000 live pages on 100 ongoing games: memory, and one move in each reaching them all.
async fn live(manager: &Manager, client: &reqwest::Client) {
    let mut ongoing = Vec::new();
    for g in 0..LIVE_GAMES {
        let (a, b) = (player(5_000 + 2 * g), player(5_001 + 2 * g));
        let challenge = Action::Challenge {
            opponent: Some(b.clone()),
            variant: Variant::STANDARD,
            rated: false,
            time: None,
        };
        let Reply::Challenge(c) = act(manager, &a, challenge).await else {
            panic!("a challenge");
        };
        let Reply::Game(view) = act(manager, &b, Action::AcceptChallenge { challenge: c.id }).await
        else {
            panic!("a game");
        };
        // The challenge drew the colours: White first.
        let players = if view.players[0].user() == Some(&a) {
            [a, b]
        } else {
            [b, a]
        };
        ongoing.push((view, players));
    }
    let before = rss_mib();
    let mut streams = Vec::new();
    for (view, _) in &ongoing {
        let url = format!("{}/live", manager.page_url(&view.id).unwrap());
        for _ in 0..PAGES_EACH {
            let response = client.get(&url).send().await.unwrap();
            assert_eq!(response.status(), 200);
            let mut stream = response.bytes_stream();
            // The first state: the page is open.
            stream.next().await.unwrap().unwrap();
            streams.push(stream);
        }
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = rss_mib();
    println!(
        "  {} live pages open: resident memory {before:.1} -> {after:.1} MiB (+{:.1} MiB, client side included)",
        streams.len(),
        after - before
    );
    let begun = Instant::now();
    for (view, players) in &ongoing {
        let side = view.position.to_move().index();
        let pit = view.position.legal_moves().iter().next().unwrap();
        let action = Action::Move {
            game: view.id.clone(),
            ply: Some(view.ply),
            pit,
        };
        act(manager, &players[side], action).await;
    }
    let waits = streams.iter_mut().map(|s| async move {
        s.next().await.unwrap().unwrap();
        begun.elapsed()
    });
    let took = futures_util::future::join_all(waits).await;
    report("a move reaching every live page", took);
}

fn main() {
    // `cargo test --benches` runs this with `--bench` missing: nothing to measure then.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        bench("sled", Store::open(dir.path()).unwrap()).await;
        let Some((url, _cluster)) = pg::bench_database("postgres") else {
            return;
        };
        let store = Store::open_at(
            &Location::Postgres(PostgresOptions::new(&url)),
            &StoreOptions::default(),
        )
        .await
        .unwrap();
        bench("postgres", store).await;
    });
}
