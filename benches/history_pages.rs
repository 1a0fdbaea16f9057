//! A history page read by key costs the same on page 1 and page 10,000 (issue 31, item 12):
//! one player with 100,000 archived games (their history lines), on sled and on PostgreSQL
//! (a local throwaway cluster, or TOGUZ_BENCH_DATABASE_URL; skipped without either).
//! Criterion times page 1, page 10,000 read from its key (what the ▶ button of page 9,999
//! carries), and, for comparison, page 10,000 read by offset as it was before (an ordered
//! read of the 80,009 lines up to it).
//!
//! A leaderboard place is read without counting the rows above (item 12 too): a board of
//! 100,000 rated players (ratings spread as a bell around 1500), and the place of its best,
//! middle and last player read from the band counts (`Store::count_before`, what
//! `/leaderboard` does), against a count of every row above as before (`count_range`).
//!
//! `cargo bench --bench history_pages` (TOGUZ_BENCH_GAMES changes the number of games and
//! of players)

use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;
use toguz::manager::history::{history_page, Cursor, PageAt, HISTORY_PAGE};
use toguz::manager::{FinishReason, GameStatus, HistoryEntry, Player};
use toguz::model::{Platform, UserRef};
use toguz::ratings::keys::{board_key, board_prefix, history_key, history_prefix};
use toguz::rules::{Side, Variant};
use toguz::store::{Batch, KeyRange, Location, PostgresOptions, Store, StoreOptions, Tree};
use toguz::testing::pg;
use tokio::runtime::Runtime;

/// The page asked for (0-based: the 10,000th page).
const DEEP_PAGE: usize = 9_999;
const START_MS: u64 = 1_700_000_000_000;

fn games() -> usize {
    std::env::var("TOGUZ_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000)
}

fn player() -> UserRef {
    UserRef::new(Platform::Telegram, "100000", "Player")
}

fn entry(g: usize) -> (String, HistoryEntry) {
    let ended_ms = START_MS + g as u64 * 60_000;
    let id = format!("g{g:07}");
    let opponent = UserRef::new(Platform::Telegram, format!("{}", 200_000 + g % 977), "Opp");
    let entry = HistoryEntry {
        game: id.clone(),
        ended_at: ended_ms / 1000,
        variant: Variant::STANDARD,
        players: [Player::Human(player()), Player::Human(opponent)],
        status: GameStatus::Finished {
            winner: Some(Side::White),
            reason: FinishReason::Resigned(Side::Black),
        },
        rated: false,
        side: Side::White,
        change: None,
        category: None,
        chat: None,
    };
    (history_key(&player().key(), ended_ms, &id), entry)
}

/// The history lines of `n` games of one player.
async fn fill(store: &Store, n: usize) {
    let mut batch = Batch::new();
    for g in 0..n {
        let (key, entry) = entry(g);
        batch.put(Tree::History, &key, &entry).expect("encoded");
        if batch.len() >= 2_000 {
            let full = std::mem::take(&mut batch);
            store.write(full).await.expect("written");
        }
    }
    store.write(batch).await.expect("written");
}

/// Where page `DEEP_PAGE` starts: the cursor of the last game of the page before it.
fn deep_cursor(n: usize) -> Cursor {
    // Newest first: game n-1 is the first line, so the page before ends at this game.
    let g = n - DEEP_PAGE * HISTORY_PAGE;
    Cursor {
        ended: START_MS + g as u64 * 60_000,
        game: format!("g{g:07}"),
    }
}

fn bench_store(c: &mut Criterion, rt: &Runtime, name: &str, store: &Store) {
    let n = games();
    rt.block_on(fill(store, n));
    let user = player().key();
    let mut group = c.benchmark_group(format!("history_page/{name}/{n}_games"));
    group
        .sample_size(50)
        .measurement_time(Duration::from_secs(5));
    group.bench_function("page_1", |b| {
        b.iter(|| {
            rt.block_on(history_page(store, &user, &PageAt::Newest, 0))
                .expect("read")
        })
    });
    let deep = PageAt::OlderThan(deep_cursor(n));
    let check = rt
        .block_on(history_page(store, &user, &deep, DEEP_PAGE))
        .expect("read");
    assert_eq!(check.entries.len(), HISTORY_PAGE, "page 10,000 is full");
    group.bench_function("page_10000_by_key", |b| {
        b.iter(|| {
            rt.block_on(history_page(store, &user, &deep, DEEP_PAGE))
                .expect("read")
        })
    });
    // What a page read by offset read before: every line up to the page, then skipped.
    let prefix = history_prefix(&user);
    let through = (DEEP_PAGE + 1) * HISTORY_PAGE + 1;
    group.bench_function("page_10000_by_offset_before", |b| {
        b.iter(|| {
            let range = KeyRange::prefix(&prefix);
            let rows: Vec<(String, HistoryEntry)> = rt
                .block_on(store.scan(Tree::History, range, through))
                .expect("read");
            rows.len()
        })
    });
    group.finish();
}

const BOARD: &str = "discord%blitz";

/// A rating for player `p`: the sum of four spread values, a bell around 1500.
fn rating(p: usize) -> f64 {
    let spread = |k: usize| ((p.wrapping_mul(2_654_435_761 + k * 97) >> 7) % 600) as f64;
    1500.0 - 600.0 + (spread(1) + spread(2) + spread(3) + spread(4)) / 2.0
}

/// One board's rows of `n` players, best first; the keys of its best, middle and last.
async fn fill_board(store: &Store, n: usize) -> [String; 3] {
    let mut keys = Vec::with_capacity(n);
    let mut batch = Batch::new();
    for p in 0..n {
        let key = board_key(BOARD, rating(p), &format!("discord:{p}"));
        batch.put(Tree::Leaderboard, &key, &1u32).expect("encoded");
        keys.push(key);
        if batch.len() >= 2_000 {
            let full = std::mem::take(&mut batch);
            store.write(full).await.expect("written");
        }
    }
    store.write(batch).await.expect("written");
    keys.sort();
    [keys[0].clone(), keys[n / 2].clone(), keys[n - 1].clone()]
}

fn bench_places(c: &mut Criterion, rt: &Runtime, name: &str, store: &Store) {
    let n = games();
    let keys = rt.block_on(fill_board(store, n));
    let prefix = board_prefix(BOARD);
    let mut group = c.benchmark_group(format!("leaderboard_place/{name}/{n}_players"));
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5));
    for (which, key) in ["best", "middle", "last"].iter().zip(&keys) {
        let place = |key: &str| rt.block_on(store.count_before(Tree::Leaderboard, &prefix, key));
        let expected = match *which {
            "best" => 0,
            "middle" => n / 2,
            _ => n - 1,
        };
        assert_eq!(place(key).expect("read"), expected, "{which}");
        group.bench_function(format!("{which}_from_band_counts"), |b| {
            b.iter(|| place(key).expect("read"))
        });
        group.bench_function(format!("{which}_counting_rows_above_before"), |b| {
            b.iter(|| {
                let range = KeyRange {
                    prefix: &prefix,
                    after: None,
                    before: Some(key),
                };
                rt.block_on(store.count_range(Tree::Leaderboard, range))
                    .expect("read")
            })
        });
    }
    group.finish();
}

fn history_pages(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    // The store starts its committer task on open.
    let _runtime = rt.enter();
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let sled = Store::open(dir.path()).expect("sled");
    bench_store(c, &rt, "sled", &sled);
    bench_places(c, &rt, "sled", &sled);
    let Some((url, _cluster)) = pg::bench_database("postgres") else {
        return;
    };
    // The fill writes batches of 2,000 rows: more than a move's commit may take.
    let options = StoreOptions {
        commit_timeout: Duration::from_secs(120),
        ..StoreOptions::default()
    };
    let location = Location::Postgres(PostgresOptions::new(&url));
    let postgres = rt
        .block_on(Store::open_at(&location, &options))
        .expect("postgres");
    bench_store(c, &rt, "postgres", &postgres);
    bench_places(c, &rt, "postgres", &postgres);
}

criterion_group!(benches, history_pages);
criterion_main!(benches);
