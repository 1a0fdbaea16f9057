//! `/history` and `/leaderboard` on a big store: 100,000 archived games between 10,000
//! rated players in 100 groups, on sled and on PostgreSQL (a local throwaway cluster with
//! fsync on, or TOGUZ_BENCH_DATABASE_URL; skipped without either). Prints the time of each
//! kind of read (p50, p99, max over many random players): an ordered read of an index, so
//! it does not grow with the store.
//!
//! `cargo bench --bench history` (TOGUZ_BENCH_GAMES and TOGUZ_BENCH_PLAYERS change the size)

use std::collections::HashMap;
use std::time::{Duration, Instant};
use toguz::manager::history::{history_page, leaderboard, PageAt, INACTIVE_SECS, LEADERBOARD_TOP};
use toguz::manager::{Ended, FinishReason, GameRecord, GameStatus, HistoryEntry, Player};
use toguz::model::{Category, ChatRef, Platform, UserRef};
use toguz::ratings::keys::{board_key, board_scope, history_key, Scope};
use toguz::ratings::{after_game, GameResult, PlayerStats, RatingChange, Score};
use toguz::rules::{Side, Variant};
use toguz::store::{Batch, Location, PostgresOptions, Store, StoreOptions, Tree};
use toguz::testing::pg;

/// Now, for the data: every game ended within the last 70 days (all players active).
const NOW: u64 = 1_800_000_000;
const CHATS: usize = 100;
/// Reads of each kind timed.
const READS: usize = 500;
/// Records per write batch while filling.
const FILL_BATCH: usize = 2_000;

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

fn chat(i: usize) -> ChatRef {
    ChatRef::new(Platform::Telegram, format!("-100{}", 1_000 + i % CHATS))
}

/// A deterministic spread of pairings and results (a linear congruential generator).
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

/// The games are correspondence games (the default control): one category's board.
const CAT: Category = Category::Correspondence;

/// The archive, history lines, stats and leaderboard rows `games` rated games leave, built
/// with the same key functions and rating update the manager uses.
async fn fill(store: &Store, games: usize, players: usize) {
    let mut stats: HashMap<usize, PlayerStats> = HashMap::new();
    let mut rng = Lcg(7);
    let mut batch = Batch::new();
    for g in 0..games {
        let w = rng.next(players);
        let b = (w + 1 + rng.next(players - 1)) % players;
        let white_score = [Score::Win, Score::Draw, Score::Loss][rng.next(3)];
        let ended_at = NOW - 70 * 86_400 + (g as u64 * 70 * 86_400) / games as u64;
        let chat = chat(rng.next(CHATS));
        let id = format!("g{g:07}");
        let (sw, sb) = (stats_of(&mut stats, w), stats_of(&mut stats, b));
        let (rw, rb) = (sw.rating_in(CAT), sb.rating_in(CAT));
        let (nw, nb) = after_game(rw, rb, white_score);
        let ratings = [
            Some(RatingChange {
                before: rw,
                after: nw,
            }),
            Some(RatingChange {
                before: rb,
                after: nb,
            }),
        ];
        let record = game_record(
            &id,
            &chat,
            [player(w), player(b)],
            white_score,
            ended_at,
            ratings,
        );
        batch.put(Tree::Archive, &id, &record).unwrap();
        for (side, p, score) in [
            (Side::White, w, white_score),
            (Side::Black, b, white_score.flip()),
        ] {
            let s = stats.get_mut(&p).unwrap();
            s.count(GameResult::Rated(CAT, score), ended_at);
            let c = s.category_mut(CAT);
            c.rating = ratings[side.index()].unwrap().after;
            c.enter_scope(&Scope::Platform(Platform::Telegram).key());
            c.enter_scope(&Scope::Chat(chat.clone()).key());
            let entry = HistoryEntry {
                game: id.clone(),
                ended_at,
                variant: Variant::STANDARD,
                players: record.players.clone(),
                status: record.status,
                rated: true,
                side,
                change: ratings[side.index()],
                category: Some(CAT),
                chat: Some(record.chat.clone()),
            };
            let key = history_key(&player(p).key(), ended_at, &id);
            batch.put(Tree::History, &key, &entry).unwrap();
        }
        if batch.len() >= FILL_BATCH {
            write(store, std::mem::take(&mut batch)).await;
        }
    }
    for s in stats.values() {
        batch.put(Tree::Ratings, &s.user.key(), s).unwrap();
        let (Some(c), Some(row)) = (s.category(CAT), s.row(CAT)) else {
            continue;
        };
        for scope in &c.scopes {
            let key = board_key(&board_scope(scope, CAT), c.rating.rating, &s.user.key());
            batch.put(Tree::Leaderboard, &key, &row).unwrap();
            batch.expire_at(Tree::Leaderboard, &key, c.last_rated + INACTIVE_SECS);
        }
        if batch.len() >= FILL_BATCH {
            write(store, std::mem::take(&mut batch)).await;
        }
    }
    write(store, batch).await;
}

fn stats_of(stats: &mut HashMap<usize, PlayerStats>, i: usize) -> PlayerStats {
    stats
        .entry(i)
        .or_insert_with(|| PlayerStats::new(player(i)))
        .clone()
}

async fn write(store: &Store, batch: Batch) {
    store.apply(batch).await.unwrap();
    store.commit().await.unwrap();
}

fn game_record(
    id: &str,
    chat: &ChatRef,
    [w, b]: [UserRef; 2],
    white_score: Score,
    ended_at: u64,
    ratings: [Option<RatingChange>; 2],
) -> GameRecord {
    let winner = match white_score {
        Score::Win => Some(Side::White),
        Score::Loss => Some(Side::Black),
        Score::Draw => None,
    };
    let reason = match winner {
        Some(side) => FinishReason::Resigned(side.other()),
        None => FinishReason::Agreed,
    };
    GameRecord {
        id: id.to_string(),
        chat: chat.clone(),
        variant: Variant::STANDARD,
        players: [Player::Human(w), Player::Human(b)],
        // A real opening (each legal from the start); its length does not matter to the
        // reads measured here, which never open the archive.
        moves: vec![7, 6, 3, 9, 1, 2],
        status: GameStatus::Finished { winner, reason },
        draw_offer: None,
        created_at: ended_at - 1_800,
        last_move_at: ended_at,
        messages: vec![],
        seed: 0,
        rematch: None,
        rated: true,
        ended: Some(Ended {
            at: ended_at,
            ratings,
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

/// Times `READS` calls of `read` (each with a fresh random player) and prints p50/p99/max.
async fn time<F: std::future::Future<Output = usize>>(
    name: &str,
    mut read: impl FnMut(usize) -> F,
) {
    let mut rng = Lcg(99);
    let mut took = Vec::with_capacity(READS);
    let mut rows = 0;
    for _ in 0..READS {
        let start = Instant::now();
        rows += read(rng.next(usize::MAX >> 1)).await;
        took.push(start.elapsed());
    }
    took.sort();
    let at = |q: f64| took[((took.len() - 1) as f64 * q) as usize];
    println!(
        "  {name:<44} p50 {:>7.2} ms  p99 {:>7.2} ms  max {:>7.2} ms  ({} rows per read)",
        ms(at(0.5)),
        ms(at(0.99)),
        ms(*took.last().unwrap()),
        rows / READS
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

async fn bench(name: &str, store: Store) {
    let (games, players) = (
        size("TOGUZ_BENCH_GAMES", 100_000),
        size("TOGUZ_BENCH_PLAYERS", 10_000),
    );
    let start = Instant::now();
    fill(&store, games, players).await;
    println!(
        "{name}: {games} archived games, {players} rated players, {CHATS} groups (filled in {:.1} s)",
        start.elapsed().as_secs_f64()
    );
    let store = &store;
    time("/history page 1 of a random player", |r| async move {
        let page = history_page(store, &player(r % players).key(), &PageAt::Newest, 0)
            .await
            .unwrap();
        page.entries.len()
    })
    .await;
    time("/history page 2 of a random player", |r| async move {
        let key = player(r % players).key();
        let first = history_page(store, &key, &PageAt::Newest, 0).await.unwrap();
        let Some(older) = first.older else { return 0 };
        let page = history_page(store, &key, &PageAt::OlderThan(older), 1)
            .await
            .unwrap();
        page.entries.len()
    })
    .await;
    time(
        "/leaderboard everyone, random caller's place",
        |r| async move {
            let scope = Scope::Platform(Platform::Telegram);
            let caller = player(r % players);
            let board = leaderboard(
                store,
                scope,
                CAT,
                Some(&caller),
                (NOW, LEADERBOARD_TOP),
                false,
            )
            .await
            .unwrap();
            board.top.len() + usize::from(board.caller.is_some())
        },
    )
    .await;
    time("/leaderboard of a group, random caller", |r| async move {
        let scope = Scope::Chat(chat(r % CHATS));
        let caller = player(r % players);
        let board = leaderboard(
            store,
            scope,
            CAT,
            Some(&caller),
            (NOW, LEADERBOARD_TOP),
            false,
        )
        .await
        .unwrap();
        board.top.len() + usize::from(board.caller.is_some())
    })
    .await;
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
