//! The band counts of the leaderboard (`bands.rs`, issue 31 item 12): a place read from the
//! counts is the place a count of every row above gives, whatever wrote or removed the rows
//! (puts, deletes, rating changes, the sweeper, a copy, an undone write, writers at once).

use crate::ratings::keys::{board_key, board_prefix};
use crate::store::{copy_all, Batch, KeyRange, Store, StoreOptions, Tree};
use crate::testing::manager::Backend;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

const BOARDS: [&str; 2] = ["telegram:-100", "telegram:-100%blitz"];

/// What a place was before the counts: every row of the board before `key`, counted.
async fn counted_one_by_one(store: &Store, board: &str, key: &str) -> usize {
    let prefix = board_prefix(board);
    let range = KeyRange {
        prefix: &prefix,
        after: None,
        before: Some(key),
    };
    store.count_range(Tree::Leaderboard, range).await.unwrap()
}

/// Every row's place (and a few keys between rows) agrees with a count of the rows above.
async fn assert_places_agree(store: &Store, boards: &[&str]) {
    for board in boards {
        let prefix = board_prefix(board);
        let rows: Vec<(String, u32)> = store
            .scan(Tree::Leaderboard, KeyRange::prefix(&prefix), usize::MAX)
            .await
            .unwrap();
        let mut probes: Vec<String> = rows.iter().map(|(k, _)| k.clone()).collect();
        probes.extend((0..20).map(|i| board_key(board, 990.0 + 60.0 * f64::from(i), "probe")));
        for key in probes {
            let fast = store
                .count_before(Tree::Leaderboard, &prefix, &key)
                .await
                .unwrap();
            assert_eq!(fast, counted_one_by_one(store, board, &key).await, "{key}");
        }
    }
}

fn row_key(board: usize, rating: f64, user: usize) -> String {
    board_key(BOARDS[board % 2], rating, &format!("telegram:{user}"))
}

async fn places_are_the_count_of_the_rows_above(backend: Backend) {
    let store = backend.open().await;
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    // Ratings crowd a few bands, as real boards do around the start rating.
    let rating = |rng: &mut ChaCha8Rng| 1480.0 + f64::from(rng.gen_range(0..6000)) / 100.0;
    let mut now: Vec<(usize, f64)> = Vec::new();
    for user in 0..150 {
        let r = rating(&mut rng);
        let mut batch = Batch::new();
        batch
            .put(Tree::Leaderboard, &row_key(user, r, user), &1u32)
            .unwrap();
        if user % 3 == 0 {
            // With another record in the batch, as a game's end writes them.
            batch
                .put(Tree::Settings, &format!("u{user}"), &1u32)
                .unwrap();
        }
        store.write(batch).await.unwrap();
        now.push((user, r));
    }
    // Rating changes: the old row goes and the new one comes, sometimes at the same key.
    for _ in 0..200 {
        let user = rng.gen_range(0..now.len());
        let (_, old) = now[user];
        let new = if rng.gen_bool(0.2) {
            old
        } else {
            rating(&mut rng)
        };
        let mut batch = Batch::new();
        batch.delete(Tree::Leaderboard, &row_key(user, old, user));
        batch
            .put(Tree::Leaderboard, &row_key(user, new, user), &2u32)
            .unwrap();
        store.write(batch).await.unwrap();
        now[user].1 = new;
    }
    // A row written again as it is, and a delete of a row that is not there: no count moves.
    let (user, r) = now[7];
    let mut batch = Batch::new();
    batch
        .put(Tree::Leaderboard, &row_key(user, r, user), &3u32)
        .unwrap();
    store.write(batch).await.unwrap();
    let mut batch = Batch::new();
    batch.delete(Tree::Leaderboard, &row_key(user, r + 200.0, user));
    store.write(batch).await.unwrap();
    // Inactive players' rows swept away.
    let mut batch = Batch::new();
    for (user, r) in now.iter().filter(|(u, _)| u % 5 == 0) {
        batch.expire_at(Tree::Leaderboard, &row_key(*user, *r, *user), 100);
    }
    store.write(batch).await.unwrap();
    assert_eq!(store.expire_due(100, 1000).await.unwrap(), 30);
    store.commit().await.unwrap();
    assert_places_agree(&store, &BOARDS).await;

    // A copy counts what it brings.
    let copy = Store::temporary().unwrap();
    copy_all(&store, &copy).await.unwrap();
    assert_places_agree(&copy, &BOARDS).await;
    drop(store);
    // And the counts are kept across a restart.
    let reopened = backend.open().await;
    assert_places_agree(&reopened, &BOARDS).await;
}

/// Game ends in one band at the same moment, from two processes on PostgreSQL (two pools)
/// or from many tasks on sled: every one lands and is counted once.
async fn game_ends_at_once_in_one_band_are_each_counted(backend: Backend) {
    let first = backend.open().await;
    let second = match &backend {
        Backend::Postgres(_) => backend.open().await,
        Backend::Sled(_) => first.clone(),
    };
    let mut tasks = Vec::new();
    for writer in 0..8usize {
        let store = if writer % 2 == 0 {
            first.clone()
        } else {
            second.clone()
        };
        tasks.push(tokio::spawn(async move {
            let mut rating = 1500.0;
            for step in 0..20u32 {
                let user = 1000 + writer;
                let next = 1500.0 + f64::from((step * 7 + writer as u32) % 10);
                let mut batch = Batch::new();
                if step > 0 {
                    batch.delete(Tree::Leaderboard, &row_key(0, rating, user));
                }
                batch
                    .put(Tree::Leaderboard, &row_key(0, next, user), &step)
                    .unwrap();
                store.write(batch).await.unwrap();
                rating = next;
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    assert_places_agree(&first, &BOARDS[..1]).await;
    let prefix = board_prefix(BOARDS[0]);
    let past_all = board_key(BOARDS[0], 0.0, "z");
    let all = first.count_before(Tree::Leaderboard, &prefix, &past_all);
    assert_eq!(all.await.unwrap(), 8);
}

crate::on_both_backends! {
    single: [places_are_the_count_of_the_rows_above],
    multi: [game_ends_at_once_in_one_band_are_each_counted],
}

/// sled undoes a write whose commit timed out: its counts go back with its rows, and a
/// write that landed in between keeps its own.
#[tokio::test]
async fn an_undone_write_takes_its_count_back() {
    let options = StoreOptions {
        commit_timeout: Duration::from_millis(200),
        ..StoreOptions::default()
    };
    let (store, flusher) = Store::faulty(None, &options).unwrap();
    let mut batch = Batch::new();
    batch
        .put(Tree::Leaderboard, &row_key(0, 1500.0, 1), &1u32)
        .unwrap();
    store.write(batch).await.unwrap();
    flusher.set_delay(Duration::from_millis(600));
    let mut slow = Batch::new();
    slow.put(Tree::Leaderboard, &row_key(0, 1501.0, 2), &1u32)
        .unwrap();
    let undone = store.write(slow);
    let mut other = Batch::new();
    other
        .put(Tree::Leaderboard, &row_key(0, 1502.0, 3), &1u32)
        .unwrap();
    let other = store.apply(other);
    let (undone, other) = tokio::join!(undone, other);
    assert!(undone.is_err(), "the slow write was undone");
    other.unwrap();
    flusher.set_delay(Duration::ZERO);
    tokio::time::sleep(Duration::from_millis(700)).await;
    store.commit().await.unwrap();
    assert_places_agree(&store, &BOARDS[..1]).await;
    let past_all = board_key(BOARDS[0], 0.0, "z");
    let prefix = board_prefix(BOARDS[0]);
    let all = store.count_before(Tree::Leaderboard, &prefix, &past_all);
    assert_eq!(all.await.unwrap(), 2);
}

/// A sled directory of layout 3 has leaderboard rows and no counts: opened, it is counted.
#[tokio::test]
async fn a_layout_3_directory_gets_its_counts() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = Store::open(dir.path()).unwrap();
        let mut batch = Batch::new();
        for user in 0..40 {
            let key = row_key(0, 1400.0 + 5.0 * user as f64, user);
            batch.put(Tree::Leaderboard, &key, &1u32).unwrap();
        }
        store.write(batch).await.unwrap();
    }
    // As layout 3 left it: no counts, the layout 3.
    let db = loop {
        match sled::open(dir.path()) {
            Ok(db) => break db,
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    };
    db.drop_tree("counts.bands").unwrap();
    let layout = crate::store::encode(Tree::Meta, &3u32).unwrap();
    db.open_tree(Tree::Meta.name())
        .unwrap()
        .insert("layout", layout)
        .unwrap();
    db.flush().unwrap();
    drop(db);
    let store = Backend::Sled(dir).open().await;
    assert_places_agree(&store, &BOARDS[..1]).await;
    let past_all = board_key(BOARDS[0], 0.0, "z");
    let prefix = board_prefix(BOARDS[0]);
    let all = store.count_before(Tree::Leaderboard, &prefix, &past_all);
    assert_eq!(all.await.unwrap(), 40);
}
