use super::*;
use serde::Deserialize;
use std::time::Instant;

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Thing {
    name: String,
    n: u32,
}

fn thing(name: &str, n: u32) -> Thing {
    Thing {
        name: name.into(),
        n,
    }
}

fn store_with_test_flusher(timeout_ms: u64) -> (Store, Arc<FaultyFlusher>) {
    let options = StoreOptions {
        commit_timeout: Duration::from_millis(timeout_ms),
        ..StoreOptions::default()
    };
    Store::faulty(None, &options).unwrap()
}

#[tokio::test]
async fn records_survive_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = Store::open(dir.path()).unwrap();
        store.put(Tree::Games, "abc", &thing("a", 7)).await.unwrap();
        store.commit().await.unwrap();
    }
    // sled holds a file lock until every handle is gone; the flusher lets go within 1 s.
    let store = loop {
        match Store::open(dir.path()) {
            Ok(s) => break s,
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    };
    let got: Option<Thing> = store.get(Tree::Games, "abc").await.unwrap();
    assert_eq!(got, Some(thing("a", 7)));
    assert!(store
        .get::<Thing>(Tree::Games, "zzz")
        .await
        .unwrap()
        .is_none());
}

#[tokio::test]
async fn bad_records_are_skipped_with_their_key() {
    let store = Store::temporary().unwrap();
    store
        .put(Tree::Games, "good", &thing("g", 1))
        .await
        .unwrap();
    store
        .put_raw(Tree::Games, "garbage", b"\xff{not json")
        .await
        .unwrap();
    store
        .put_raw(Tree::Games, "future", br#"{"schema":99,"data":{}}"#)
        .await
        .unwrap();
    let all: Vec<(String, Thing)> = store.load_all(Tree::Games).await.unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].0, "good");
    let err = store.get::<Thing>(Tree::Games, "future").await.unwrap_err();
    assert!(err.to_string().contains("future"), "{err}");
    assert!(err.to_string().contains("schema"), "{err}");
}

#[tokio::test]
async fn concurrent_commits_all_complete() {
    let store = Store::temporary().unwrap();
    let mut tasks = Vec::new();
    for i in 0..50u32 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let key = format!("k{i}");
            store
                .put(Tree::Settings, &key, &thing(&key, i))
                .await
                .unwrap();
            store.commit().await.unwrap();
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    assert_eq!(
        store.load_all::<Thing>(Tree::Settings).await.unwrap().len(),
        50
    );
}

#[tokio::test]
async fn a_batch_moves_a_record_between_trees_in_one_write() {
    let store = Store::temporary().unwrap();
    store
        .put(Tree::Games, "g1", &thing("live", 1))
        .await
        .unwrap();
    let mut batch = Batch::new();
    batch.delete(Tree::Games, "g1");
    batch.put(Tree::Archive, "g1", &thing("done", 2)).unwrap();
    store.apply(batch).await.unwrap();
    store.commit().await.unwrap();
    assert!(!store.contains(Tree::Games, "g1").await.unwrap());
    assert_eq!(
        store.get::<Thing>(Tree::Archive, "g1").await.unwrap(),
        Some(thing("done", 2))
    );
}

#[tokio::test]
async fn expiry_deletes_what_is_due_and_nothing_else() {
    let store = Store::temporary().unwrap();
    let mut batch = Batch::new();
    for (key, at) in [("a", 100), ("b", 200), ("c", 300)] {
        batch.put(Tree::Claims, key, &true).unwrap();
        batch.expire_at(Tree::Claims, key, at);
    }
    // A record that never expires, and one whose expiry is moved later.
    batch.put(Tree::Claims, "forever", &true).unwrap();
    batch.expire_at(Tree::Claims, "b", 1000);
    store.apply(batch).await.unwrap();
    assert_eq!(store.expire_due(99, 100).await.unwrap(), 0);
    assert_eq!(store.expire_due(250, 100).await.unwrap(), 1);
    assert!(!store.contains(Tree::Claims, "a").await.unwrap());
    assert!(
        store.contains(Tree::Claims, "b").await.unwrap(),
        "b's expiry moved"
    );
    assert_eq!(store.expire_due(999, 100).await.unwrap(), 1);
    assert!(!store.contains(Tree::Claims, "c").await.unwrap());
    // Deleting a record drops its expiry: nothing is left to sweep for it.
    let mut batch = Batch::new();
    batch.delete(Tree::Claims, "b");
    store.apply(batch).await.unwrap();
    assert_eq!(store.expire_due(u64::MAX - 1, 100).await.unwrap(), 0);
    assert!(store.contains(Tree::Claims, "forever").await.unwrap());
}

#[tokio::test]
async fn put_new_writes_once_with_its_expiry() {
    let store = Store::temporary().unwrap();
    assert!(store
        .put_new(Tree::Claims, "k", &true, Some(50))
        .await
        .unwrap());
    assert!(!store
        .put_new(Tree::Claims, "k", &true, Some(90))
        .await
        .unwrap());
    assert_eq!(store.expire_due(60, 10).await.unwrap(), 1);
    assert!(store.put_new(Tree::Claims, "k", &true, None).await.unwrap());
}

#[tokio::test]
async fn a_slow_flush_times_out_the_commit_within_its_bound() {
    let (store, flusher) = store_with_test_flusher(200);
    flusher.set_delay(Duration::from_millis(1500));
    store.put(Tree::Games, "g", &thing("x", 1)).await.unwrap();
    let started = Instant::now();
    let err = store.commit().await.unwrap_err();
    let took = started.elapsed();
    assert!(
        matches!(err, StoreError::CommitTimeout { ms: 200 }),
        "{err}"
    );
    assert!(took < Duration::from_millis(600), "took {took:?}");
    // A timed-out commit does not fail the store: once the disk is fast again, it commits.
    flusher.set_delay(Duration::ZERO);
    tokio::time::sleep(Duration::from_millis(1600)).await;
    store.put(Tree::Games, "h", &thing("y", 2)).await.unwrap();
    store.commit().await.unwrap();
}

#[tokio::test]
async fn a_failed_flush_fails_the_store_for_good() {
    let (store, flusher) = store_with_test_flusher(5000);
    let failed = tokio::spawn(store.failed());
    store.put(Tree::Games, "g", &thing("x", 1)).await.unwrap();
    store.commit().await.unwrap();
    assert!(!failed.is_finished());
    flusher.set_failing(true);
    store.put(Tree::Games, "h", &thing("y", 2)).await.unwrap();
    let err = store.commit().await.unwrap_err();
    assert!(err.to_string().contains("no space left"), "{err}");
    let cause = tokio::time::timeout(Duration::from_secs(5), failed)
        .await
        .expect("failed() resolves")
        .unwrap();
    assert!(cause.contains("no space left"), "{cause}");
    // Even with the disk healthy again, every later commit fails at once.
    flusher.set_failing(false);
    store.put(Tree::Games, "i", &thing("z", 3)).await.unwrap();
    let started = Instant::now();
    let err = store.commit().await.unwrap_err();
    assert!(matches!(err, StoreError::Failed { .. }), "{err}");
    assert!(started.elapsed() < Duration::from_millis(100));
}

#[tokio::test]
async fn a_write_that_times_out_is_undone_with_its_revisions_and_expiry() {
    let (store, flusher) = store_with_test_flusher(100);
    store
        .put(Tree::Games, "g", &thing("before", 1))
        .await
        .unwrap();
    store.commit().await.unwrap();
    flusher.set_delay(Duration::from_millis(1000));
    // A move between trees with an expiry (a batch: one transaction).
    let mut batch = Batch::new();
    batch.delete_checked(Tree::Games, "g", Expect::Revision(1));
    batch
        .put_checked(Tree::Archive, "g", &thing("after", 2), Expect::Absent)
        .unwrap();
    batch.expire_at(Tree::Archive, "g", 10);
    let err = store.write(batch).await.unwrap_err();
    assert!(matches!(err, StoreError::CommitTimeout { .. }), "{err}");
    let back = store
        .get_versioned::<Thing>(Tree::Games, "g")
        .await
        .unwrap();
    assert_eq!(
        back.map(|v| (v.value, v.revision)),
        Some((thing("before", 1), 1))
    );
    assert!(!store.contains(Tree::Archive, "g").await.unwrap());
    assert_eq!(
        store.expire_due(u64::MAX - 1, 10).await.unwrap(),
        0,
        "no expiry left"
    );
    // A lone put (a move: one compare-and-swap).
    let mut batch = Batch::new();
    batch
        .put_checked(Tree::Games, "g", &thing("moved", 2), Expect::Revision(1))
        .unwrap();
    let err = store.write(batch).await.unwrap_err();
    assert!(matches!(err, StoreError::CommitTimeout { .. }), "{err}");
    let back = store
        .get_versioned::<Thing>(Tree::Games, "g")
        .await
        .unwrap();
    assert_eq!(
        back.map(|v| (v.value, v.revision)),
        Some((thing("before", 1), 1))
    );
    // A new record is taken away again.
    let mut batch = Batch::new();
    batch
        .put_checked(Tree::Games, "new", &thing("new", 1), Expect::Absent)
        .unwrap();
    store.write(batch).await.unwrap_err();
    assert!(!store.contains(Tree::Games, "new").await.unwrap());
}

#[tokio::test]
async fn an_undo_leaves_a_key_another_write_changed_since() {
    let (store, flusher) = store_with_test_flusher(300);
    flusher.set_delay(Duration::from_millis(1000));
    let mut batch = Batch::new();
    batch.put(Tree::Games, "g", &thing("mine", 1)).unwrap();
    let mine = store.write(batch);
    let theirs = async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        store
            .put(Tree::Games, "g", &thing("theirs", 2))
            .await
            .unwrap();
    };
    let (mine, ()) = tokio::join!(mine, theirs);
    assert!(mine.is_err());
    let left = store
        .get_versioned::<Thing>(Tree::Games, "g")
        .await
        .unwrap();
    assert_eq!(
        left.map(|v| (v.value, v.revision)),
        Some((thing("theirs", 2), 2))
    );
}

#[tokio::test]
async fn a_record_written_before_revisions_reads_as_revision_1() {
    let store = Store::temporary().unwrap();
    // Layout 2 stored the bare envelope.
    let old = br#"{"schema":1,"data":{"name":"old","n":1}}"#;
    store.put_raw(Tree::Games, "g", old).await.unwrap();
    let read = store
        .get_versioned::<Thing>(Tree::Games, "g")
        .await
        .unwrap();
    assert_eq!(
        read.map(|v| (v.value, v.revision)),
        Some((thing("old", 1), 1))
    );
    let mut batch = Batch::new();
    batch
        .put_checked(Tree::Games, "g", &thing("new", 2), Expect::Revision(1))
        .unwrap();
    let written = store.apply(batch).await.unwrap();
    assert_eq!(written.revision(Tree::Games, "g"), Some(2));
    assert_eq!(store.revision(Tree::Games, "g").await.unwrap(), Some(2));
}

#[tokio::test]
async fn revisions_survive_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = Store::open(dir.path()).unwrap();
        for n in 0..3 {
            store.put(Tree::Games, "g", &thing("g", n)).await.unwrap();
        }
        store.commit().await.unwrap();
    }
    let backend = crate::testing::manager::Backend::Sled(dir);
    let store = backend.open().await;
    assert_eq!(store.revision(Tree::Games, "g").await.unwrap(), Some(3));
}

#[tokio::test]
async fn scan_reads_a_prefix_in_key_order_from_a_point() {
    let store = Store::temporary().unwrap();
    for key in ["a|3", "a|1", "a|2", "b|0", "a", "a|4x"] {
        store.put(Tree::History, key, &thing(key, 0)).await.unwrap();
    }
    store
        .put_raw(Tree::History, "a|25", b"garbage")
        .await
        .unwrap();
    let keys = async |range: KeyRange<'_>, limit: usize| -> Vec<String> {
        let rows: Vec<(String, Thing)> = store.scan(Tree::History, range, limit).await.unwrap();
        rows.into_iter().map(|(k, _)| k).collect()
    };
    // The undecodable record is skipped (it counts toward the limit).
    assert_eq!(
        keys(KeyRange::prefix("a|"), 10).await,
        ["a|1", "a|2", "a|3", "a|4x"]
    );
    assert_eq!(keys(KeyRange::prefix("a|"), 2).await, ["a|1", "a|2"]);
    let after = KeyRange {
        prefix: "a|",
        after: Some("a|2"),
        before: None,
    };
    assert_eq!(keys(after, 10).await, ["a|3", "a|4x"]);
    let below = KeyRange {
        prefix: "a|",
        after: None,
        before: Some("a|3"),
    };
    assert_eq!(keys(below, 10).await, ["a|1", "a|2"]);
    // An `after` before the prefix starts at the prefix; other trees are untouched.
    let early = KeyRange {
        prefix: "b|",
        after: Some("a"),
        before: None,
    };
    assert_eq!(keys(early, 10).await, ["b|0"]);
    assert!(keys(KeyRange::prefix("c"), 10).await.is_empty());
    // Counts read no values (the undecodable record counts: it is there).
    let count = async |range| store.count_range(Tree::History, range).await.unwrap();
    assert_eq!(count(KeyRange::prefix("a|")).await, 5);
    assert_eq!(count(below).await, 3);
    assert_eq!(count(KeyRange::prefix("c")).await, 0);
    let other: Vec<(String, Thing)> = store
        .scan(Tree::Leaderboard, KeyRange::prefix(""), 10)
        .await
        .unwrap();
    assert!(other.is_empty());
}

mod cas;
mod counts;
