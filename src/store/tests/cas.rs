//! The compare-and-set on revisions, enforced by the store itself: the same tests on sled
//! and on PostgreSQL (`on_both_backends!`; the PostgreSQL ones skip, saying so, without a
//! server).

use super::{thing, Thing};
use crate::store::{copy_all, Batch, Expect, Store, StoreError, Tree};
use crate::testing::manager::Backend;

fn conflict<T: std::fmt::Debug>(result: Result<T, StoreError>) -> bool {
    matches!(result, Err(StoreError::Conflict { .. }))
}

async fn stored(store: &Store, tree: Tree, key: &str) -> Option<(Thing, u64)> {
    let read = store.get_versioned::<Thing>(tree, key).await.unwrap();
    read.map(|v| (v.value, v.revision))
}

fn put(tree: Tree, key: &str, value: &Thing, expect: Expect) -> Batch {
    let mut batch = Batch::new();
    batch.put_checked(tree, key, value, expect).unwrap();
    batch
}

async fn conditional_writes_check_the_stored_revision(backend: Backend) {
    let store = backend.open().await;
    let created = store
        .write(put(Tree::Games, "g", &thing("a", 1), Expect::Absent))
        .await
        .unwrap();
    assert_eq!(created.revision(Tree::Games, "g"), Some(1));
    let again = store.write(put(Tree::Games, "g", &thing("b", 1), Expect::Absent));
    assert!(conflict(again.await), "a second creation is refused");
    let moved = store
        .write(put(Tree::Games, "g", &thing("a", 2), Expect::Revision(1)))
        .await
        .unwrap();
    assert_eq!(moved.revision(Tree::Games, "g"), Some(2));
    assert_eq!(
        stored(&store, Tree::Games, "g").await,
        Some((thing("a", 2), 2))
    );

    // A stale write fails its whole batch: nothing of it applies, in any tree.
    let mut stale = put(Tree::Games, "g", &thing("stale", 3), Expect::Revision(1));
    stale
        .put(Tree::Settings, "u", &thing("side effect", 0))
        .unwrap();
    assert!(conflict(store.write(stale).await));
    assert_eq!(
        stored(&store, Tree::Games, "g").await,
        Some((thing("a", 2), 2))
    );
    assert!(!store.contains(Tree::Settings, "u").await.unwrap());

    // A delete checks too; a move to another tree starts the record there at 1.
    let mut finish = Batch::new();
    finish.delete_checked(Tree::Games, "g", Expect::Revision(1));
    finish
        .put_checked(Tree::Archive, "g", &thing("done", 3), Expect::Absent)
        .unwrap();
    assert!(conflict(store.write(finish).await));
    let mut finish = Batch::new();
    finish.delete_checked(Tree::Games, "g", Expect::Revision(2));
    finish
        .put_checked(Tree::Archive, "g", &thing("done", 3), Expect::Absent)
        .unwrap();
    let written = store.write(finish).await.unwrap();
    assert_eq!(written.revision(Tree::Archive, "g"), Some(1));
    assert_eq!(store.revision(Tree::Games, "g").await.unwrap(), None);
    assert_eq!(
        stored(&store, Tree::Archive, "g").await,
        Some((thing("done", 3), 1))
    );

    // An unconditional put counts the revision up as well.
    store
        .put(Tree::Archive, "g", &thing("done", 4))
        .await
        .unwrap();
    store.commit().await.unwrap();
    assert_eq!(store.revision(Tree::Archive, "g").await.unwrap(), Some(2));
    // put_new is a creation: once.
    assert!(store
        .put_new(Tree::Claims, "c", &true, Some(9))
        .await
        .unwrap());
    assert!(!store
        .put_new(Tree::Claims, "c", &false, None)
        .await
        .unwrap());
    assert_eq!(
        store.get::<bool>(Tree::Claims, "c").await.unwrap(),
        Some(true)
    );
}

/// Many writers at one revision at once, as a lone put (a move) and as a batch across
/// trees (a game's end): exactly one of each applies.
async fn racing_writers_at_one_revision_apply_once(backend: Backend) {
    let store = backend.open().await;
    store
        .write(put(Tree::Games, "g", &thing("start", 0), Expect::Absent))
        .await
        .unwrap();
    let tasks: Vec<_> = (1..=8)
        .map(|n| {
            let store = store.clone();
            tokio::spawn(async move {
                let batch = put(Tree::Games, "g", &thing("move", n), Expect::Revision(1));
                store.write(batch).await.map(|_| n)
            })
        })
        .collect();
    let mut won = Vec::new();
    for task in tasks {
        match task.await.unwrap() {
            Ok(n) => won.push(n),
            Err(StoreError::Conflict { .. }) => {}
            Err(other) => panic!("{other}"),
        }
    }
    assert_eq!(won.len(), 1, "exactly one move applies: {won:?}");
    assert_eq!(
        stored(&store, Tree::Games, "g").await,
        Some((thing("move", won[0]), 2))
    );

    let tasks: Vec<_> = (1..=8)
        .map(|n| {
            let store = store.clone();
            tokio::spawn(async move {
                let mut batch = Batch::new();
                batch.delete_checked(Tree::Games, "g", Expect::Revision(2));
                let key = format!("u{n}");
                batch
                    .put(Tree::Ratings, &key, &thing("counted", n))
                    .unwrap();
                batch
                    .put_checked(Tree::Archive, "g", &thing("end", n), Expect::Absent)
                    .unwrap();
                store.write(batch).await.map(|_| n)
            })
        })
        .collect();
    let mut won = Vec::new();
    for task in tasks {
        match task.await.unwrap() {
            Ok(n) => won.push(n),
            Err(StoreError::Conflict { .. }) => {}
            Err(other) => panic!("{other}"),
        }
    }
    assert_eq!(won.len(), 1, "exactly one end applies: {won:?}");
    assert_eq!(
        stored(&store, Tree::Archive, "g").await,
        Some((thing("end", won[0]), 1))
    );
    assert_eq!(
        store.count(Tree::Ratings).await.unwrap(),
        1,
        "only the winner's stats"
    );
}

/// `toguz store copy` keeps each record's revision, so a held revision stays valid after a
/// move between backends.
async fn a_copy_keeps_the_revisions(backend: Backend) {
    let store = backend.open().await;
    for n in 0..3 {
        store.put(Tree::Games, "g", &thing("g", n)).await.unwrap();
    }
    store.commit().await.unwrap();
    let other = Store::temporary().unwrap();
    copy_all(&store, &other).await.unwrap();
    assert_eq!(
        stored(&other, Tree::Games, "g").await,
        Some((thing("g", 2), 3))
    );
    let next = put(Tree::Games, "g", &thing("g", 3), Expect::Revision(3));
    assert_eq!(
        other.write(next).await.unwrap().revision(Tree::Games, "g"),
        Some(4)
    );
    copy_all(&other, &store).await.unwrap();
    assert_eq!(
        stored(&store, Tree::Games, "g").await,
        Some((thing("g", 3), 4))
    );
}

crate::on_both_backends! {
    single: [conditional_writes_check_the_stored_revision, a_copy_keeps_the_revisions],
    multi: [racing_writers_at_one_revision_apply_once],
}
