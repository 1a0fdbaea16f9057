//! Durable storage of games, challenges and players in sled (issue 4).
//!
//! The store knows nothing about games: it keeps serde records in named trees, each wrapped
//! in an envelope with a schema version (`{"schema":1,"data":{...}}`), and makes writes
//! durable with a group commit:
//!
//! ```text
//! put(..)  -> inserted in sled's memory, returns a write sequence number
//! commit() -> wakes the flusher and waits until a flush that started after the write has
//!             finished; one flush covers every write made before it, across all games
//! ```
//!
//! A caller answers a user only after `commit` returns `Ok`, so nothing acknowledged can be
//! lost, while many games share each fsync.
//!
//! A record that fails to decode (corrupt bytes, an unknown schema) is logged with its key and
//! skipped by `load_all`; it never takes the other records down.

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::{watch, Notify};

/// The schema version written into every record envelope.
pub const SCHEMA_VERSION: u32 = 1;

/// The trees of the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tree {
    /// Games, ongoing and finished, keyed by game id.
    Games,
    /// Challenges, keyed by challenge id.
    Challenges,
    /// Per-user settings (the language), keyed by `platform:user id`.
    Users,
}

impl Tree {
    fn name(self) -> &'static str {
        match self {
            Tree::Games => "games",
            Tree::Challenges => "challenges",
            Tree::Users => "users",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot open the store at {path}: {source}")]
    Open { path: String, source: sled::Error },
    #[error("storage error: {0}")]
    Sled(#[from] sled::Error),
    #[error("cannot encode a {tree} record: {source}")]
    Encode {
        tree: &'static str,
        source: serde_json::Error,
    },
    #[error("record {key:?} in {tree}: {reason}")]
    Decode {
        tree: &'static str,
        key: String,
        reason: String,
    },
    #[error("flushing the store to disk failed")]
    Flush,
    #[error("the store is shut down")]
    Closed,
}

#[derive(Serialize)]
struct Envelope<'a, T> {
    schema: u32,
    data: &'a T,
}

#[derive(Deserialize)]
struct Head {
    schema: u32,
}

#[derive(Deserialize)]
struct Owned<T> {
    data: T,
}

/// The state of the flusher, published to waiting writers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Durable {
    /// Every write with a sequence number up to this is on disk.
    seq: u64,
    /// Flushes that failed so far; a waiter whose flush failed gets an error.
    failures: u64,
}

/// Shared state between writers and the flusher task.
struct Committer {
    written: AtomicU64,
    wake: Arc<Notify>,
    durable: watch::Sender<Durable>,
}

/// The database. Cheap to clone; all clones share one sled instance and one flusher.
#[derive(Clone)]
pub struct Store {
    db: sled::Db,
    trees: Arc<[sled::Tree; 3]>,
    committer: Arc<Committer>,
}

impl Store {
    /// Opens (or creates) the database in `dir` and starts its flusher task. Must be called
    /// inside a tokio runtime.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        let db = sled::Config::new()
            .path(dir)
            .open()
            .map_err(|source| StoreError::Open {
                path: dir.display().to_string(),
                source,
            })?;
        Store::from_db(db)
    }

    /// A store in a temporary directory that sled deletes on drop (for tests and benches).
    pub fn temporary() -> Result<Store, StoreError> {
        let db = sled::Config::new().temporary(true).open()?;
        Store::from_db(db)
    }

    fn from_db(db: sled::Db) -> Result<Store, StoreError> {
        let trees = Arc::new([
            db.open_tree(Tree::Games.name())?,
            db.open_tree(Tree::Challenges.name())?,
            db.open_tree(Tree::Users.name())?,
        ]);
        let (durable, _) = watch::channel(Durable {
            seq: 0,
            failures: 0,
        });
        let committer = Arc::new(Committer {
            written: AtomicU64::new(0),
            wake: Arc::new(Notify::new()),
            durable,
        });
        let wake = committer.wake.clone();
        tokio::spawn(flusher(db.clone(), wake, Arc::downgrade(&committer)));
        Ok(Store {
            db,
            trees,
            committer,
        })
    }

    fn tree(&self, tree: Tree) -> &sled::Tree {
        &self.trees[tree as usize]
    }

    /// Writes a record (not yet durable: call `commit`). Returns the write's sequence number.
    pub fn put<T: Serialize>(&self, tree: Tree, key: &str, value: &T) -> Result<u64, StoreError> {
        let bytes = encode(tree, value)?;
        self.tree(tree).insert(key.as_bytes(), bytes)?;
        Ok(self.committer.written.fetch_add(1, Ordering::SeqCst) + 1)
    }

    /// Writes a record only if its key is absent (atomically); true if this call wrote it.
    /// Not yet durable: call `commit`.
    pub fn put_new<T: Serialize>(
        &self,
        tree: Tree,
        key: &str,
        value: &T,
    ) -> Result<bool, StoreError> {
        let bytes = encode(tree, value)?;
        let swapped =
            self.tree(tree)
                .compare_and_swap(key.as_bytes(), None as Option<&[u8]>, Some(bytes))?;
        if swapped.is_ok() {
            self.committer.written.fetch_add(1, Ordering::SeqCst);
        }
        Ok(swapped.is_ok())
    }

    /// Reads one record; `Ok(None)` if absent, an error if it does not decode.
    pub fn get<T: DeserializeOwned>(&self, tree: Tree, key: &str) -> Result<Option<T>, StoreError> {
        match self.tree(tree).get(key.as_bytes())? {
            None => Ok(None),
            Some(bytes) => decode(tree, key, &bytes).map(Some),
        }
    }

    pub fn contains(&self, tree: Tree, key: &str) -> Result<bool, StoreError> {
        Ok(self.tree(tree).contains_key(key.as_bytes())?)
    }

    /// Every record of a tree that decodes; the others are logged with their key and skipped.
    pub fn load_all<T: DeserializeOwned>(&self, tree: Tree) -> Vec<(String, T)> {
        let mut out = Vec::new();
        for item in self.tree(tree).iter() {
            let (key, bytes) = match item {
                Ok(kv) => kv,
                Err(error) => {
                    tracing::error!(tree = tree.name(), %error, "cannot read a record; skipped");
                    continue;
                }
            };
            let key = String::from_utf8_lossy(&key).into_owned();
            match decode(tree, &key, &bytes) {
                Ok(value) => out.push((key, value)),
                Err(error) => {
                    tracing::error!(tree = tree.name(), key, %error, "undecodable record skipped")
                }
            }
        }
        out
    }

    /// Writes raw bytes (tests use it to plant corrupt records).
    pub fn put_raw(&self, tree: Tree, key: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.tree(tree).insert(key.as_bytes(), bytes)?;
        Ok(())
    }

    /// Waits until every write made so far is on disk. Writes of other callers made in the
    /// meantime ride along in the same flush (group commit).
    pub async fn commit(&self) -> Result<(), StoreError> {
        let target = self.committer.written.load(Ordering::SeqCst);
        let mut rx = self.committer.durable.subscribe();
        let start = *rx.borrow();
        if start.seq >= target {
            return Ok(());
        }
        self.committer.wake.notify_one();
        loop {
            rx.changed().await.map_err(|_| StoreError::Closed)?;
            let now = *rx.borrow();
            if now.seq >= target {
                return Ok(());
            }
            if now.failures > start.failures {
                return Err(StoreError::Flush);
            }
        }
    }

    /// Flushes synchronously (at shutdown).
    pub fn flush(&self) -> Result<(), StoreError> {
        self.db.flush()?;
        Ok(())
    }
}

/// The group-commit loop: each wake-up flushes everything written so far and tells the
/// waiters. Ends when the store is dropped.
async fn flusher(db: sled::Db, wake: Arc<Notify>, committer: std::sync::Weak<Committer>) {
    loop {
        // Wait for a writer, but look again now and then so a dropped store ends the task
        // (and lets go of sled's file lock).
        let woken = tokio::time::timeout(std::time::Duration::from_secs(1), wake.notified()).await;
        let Some(c) = committer.upgrade() else { return };
        if woken.is_err() {
            continue;
        }
        let target = c.written.load(Ordering::SeqCst);
        let db = db.clone();
        let flushed = tokio::task::spawn_blocking(move || db.flush()).await;
        let mut state = *c.durable.borrow();
        match flushed {
            Ok(Ok(_)) => state.seq = state.seq.max(target),
            Ok(Err(error)) => {
                tracing::error!(%error, "store flush failed");
                state.failures += 1;
            }
            Err(_) => {
                tracing::error!("store flush task failed");
                state.failures += 1;
            }
        }
        c.durable.send_replace(state);
    }
}

fn encode<T: Serialize>(tree: Tree, value: &T) -> Result<Vec<u8>, StoreError> {
    serde_json::to_vec(&Envelope {
        schema: SCHEMA_VERSION,
        data: value,
    })
    .map_err(|source| StoreError::Encode {
        tree: tree.name(),
        source,
    })
}

fn decode<T: DeserializeOwned>(tree: Tree, key: &str, bytes: &[u8]) -> Result<T, StoreError> {
    let err = |reason: String| StoreError::Decode {
        tree: tree.name(),
        key: key.to_string(),
        reason,
    };
    let head: Head = serde_json::from_slice(bytes).map_err(|e| err(e.to_string()))?;
    if head.schema != SCHEMA_VERSION {
        return Err(err(format!("unknown schema version {}", head.schema)));
    }
    let owned: Owned<T> = serde_json::from_slice(bytes).map_err(|e| err(e.to_string()))?;
    Ok(owned.data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Thing {
        name: String,
        n: u32,
    }

    #[tokio::test]
    async fn records_survive_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = Store::open(dir.path()).unwrap();
            let thing = Thing {
                name: "a".into(),
                n: 7,
            };
            store.put(Tree::Games, "abc", &thing).unwrap();
            store.commit().await.unwrap();
        }
        // sled holds a file lock until every handle is gone; the flusher lets go within 1 s.
        let store = loop {
            match Store::open(dir.path()) {
                Ok(s) => break s,
                Err(_) => tokio::time::sleep(std::time::Duration::from_millis(100)).await,
            }
        };
        let got: Option<Thing> = store.get(Tree::Games, "abc").unwrap();
        assert_eq!(
            got,
            Some(Thing {
                name: "a".into(),
                n: 7
            })
        );
        assert!(store.get::<Thing>(Tree::Games, "zzz").unwrap().is_none());
    }

    #[tokio::test]
    async fn bad_records_are_skipped_with_their_key() {
        let store = Store::temporary().unwrap();
        store
            .put(
                Tree::Games,
                "good",
                &Thing {
                    name: "g".into(),
                    n: 1,
                },
            )
            .unwrap();
        store
            .put_raw(Tree::Games, "garbage", b"\xff{not json")
            .unwrap();
        store
            .put_raw(Tree::Games, "future", br#"{"schema":99,"data":{}}"#)
            .unwrap();
        let all: Vec<(String, Thing)> = store.load_all(Tree::Games);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].0, "good");
        let err = store.get::<Thing>(Tree::Games, "future").unwrap_err();
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
                    .put(
                        Tree::Users,
                        &key,
                        &Thing {
                            name: key.clone(),
                            n: i,
                        },
                    )
                    .unwrap();
                store.commit().await.unwrap();
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(store.load_all::<Thing>(Tree::Users).len(), 50);
        let durable = *store.committer.durable.borrow();
        assert_eq!(durable.seq, 50);
    }
}
