//! Durable storage of games, challenges and players (issue 4; layout 2 from "Hold up under
//! real load"). The one backend today is sled; the API is in backend-neutral terms (get, put,
//! delete, an atomic batch across trees, time-ordered expiry) so a second backend can follow.
//!
//! The store knows nothing about games: it keeps serde records in named trees, each wrapped
//! in an envelope with a schema version (`{"schema":1,"data":{...}}`), and makes writes
//! durable with a group commit:
//!
//! ```text
//! apply(batch) -> every put/delete/expiry of the batch, atomically across trees, in memory
//! commit()     -> wakes the flusher and waits (at most commit_timeout) until a flush that
//!                 started after the write has finished; one flush covers every write made
//!                 before it, across all games
//! ```
//!
//! A caller answers a user only after `commit` returns `Ok`, so nothing acknowledged can be
//! lost, while many games share each fsync. A flush that fails makes the store *failed*:
//! sled keeps such an error forever, so every later commit fails at once and
//! [`Store::failed`] resolves, for the process to exit and be restarted.
//!
//! A record that fails to decode (corrupt bytes, an unknown schema) is logged with its key and
//! skipped by `load_all`; it never takes the other records down. docs/store.md describes the
//! layout, the migration from layout 1, durability and expiry.

mod batch;
mod commit;
mod migrate;

pub use batch::Batch;
pub use commit::{FaultyFlusher, Flusher};

use commit::Committer;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The schema version written into every record envelope.
pub const SCHEMA_VERSION: u32 = 1;

/// How long a closed challenge is kept (its old message's buttons answer "closed" meanwhile).
pub const CLOSED_CHALLENGE_TTL_SECS: u64 = 7 * 24 * 3600;

/// How long a one-time claim is kept: Telegram redelivers an update for at most 24 hours.
pub const CLAIM_TTL_SECS: u64 = 2 * 24 * 3600;

/// The trees of the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tree {
    /// Ongoing games, keyed by game id: read whole at start-up.
    Games,
    /// Finished games, keyed by game id: read one at a time, when asked for.
    Archive,
    /// Open challenges, keyed by challenge id: read whole at start-up.
    Challenges,
    /// Closed challenges (accepted, declined, expired, cancelled); they expire.
    ClosedChallenges,
    /// Per-user settings (the language), keyed by `platform:user id`.
    Settings,
    /// `platform:handle` (lower case, no `@`) -> the user last seen with it.
    Handles,
    /// One-time claims, keyed by `platform:key`; they expire.
    Claims,
    /// The layout version, and secrets kept across restarts (`Manager::durable_secret`).
    Meta,
    /// Each player's rating and results, keyed by `platform:user id`.
    Ratings,
    /// Every player's finished games, newest first: `user|inverted end time|game id`, read
    /// a page at a time with `scan` (docs/history.md).
    History,
    /// Rated players by scope, best first: `scope|inverted rating|user`, read with `scan`;
    /// entries expire when the player has been inactive for 90 days.
    Leaderboard,
}

impl Tree {
    /// New trees go at the end: a tree's position is its tag in the expiry index on disk.
    const ALL: [Tree; 11] = [
        Tree::Games,
        Tree::Archive,
        Tree::Challenges,
        Tree::ClosedChallenges,
        Tree::Settings,
        Tree::Handles,
        Tree::Claims,
        Tree::Meta,
        Tree::Ratings,
        Tree::History,
        Tree::Leaderboard,
    ];

    fn name(self) -> &'static str {
        match self {
            Tree::Games => "games.live",
            Tree::Archive => "games.archive",
            Tree::Challenges => "challenges.open",
            Tree::ClosedChallenges => "challenges.closed",
            Tree::Settings => "users.settings",
            Tree::Handles => "users.handles",
            Tree::Claims => "claims",
            Tree::Meta => "meta",
            Tree::Ratings => "users.ratings",
            Tree::History => "games.by-user",
            Tree::Leaderboard => "ratings.board",
        }
    }

    fn from_tag(tag: u8) -> Option<Tree> {
        Tree::ALL.get(usize::from(tag)).copied()
    }
}

/// Which keys of a tree [`Store::scan`] reads: those that start with `prefix`, and are
/// strictly after `after` and strictly before `before` when those are given, in ascending
/// byte order of the key (a backend must compare keys as bytes, not by a locale's collation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyRange<'a> {
    pub prefix: &'a str,
    pub after: Option<&'a str>,
    pub before: Option<&'a str>,
}

impl<'a> KeyRange<'a> {
    /// Every key that starts with `prefix`.
    pub fn prefix(prefix: &'a str) -> KeyRange<'a> {
        KeyRange {
            prefix,
            after: None,
            before: None,
        }
    }

    fn admits(&self, key: &[u8]) -> bool {
        key.starts_with(self.prefix.as_bytes())
            && self.after.is_none_or(|a| key > a.as_bytes())
            && self.before.is_none_or(|b| key < b.as_bytes())
    }
}

/// The two trees behind expiry: `EXPIRY` is time-ordered (big-endian seconds, tree tag, key),
/// `EXPIRY_KEYS` maps (tree tag, key) to its current time so a new expiry replaces the old.
const EXPIRY: usize = Tree::ALL.len();
const EXPIRY_KEYS: usize = EXPIRY + 1;
const EXPIRY_NAMES: [&str; 2] = ["expiry", "expiry.keys"];

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot open the store at {path}: {source}")]
    Open { path: String, source: sled::Error },
    #[error("storage error: {0}")]
    Sled(#[from] sled::Error),
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
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
    #[error("the store has layout {found}, newer than this program knows ({known})")]
    Layout { found: u32, known: u32 },
    #[error("the write did not reach the disk within {ms} ms")]
    CommitTimeout { ms: u64 },
    #[error("the store failed earlier and refuses writes: {cause}")]
    Failed { cause: String },
    #[error("the store is shut down")]
    Closed,
}

/// How the store is opened (`[storage]` in the config).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreOptions {
    /// The longest `commit` waits for its flush before it gives up with `CommitTimeout`.
    pub commit_timeout: Duration,
    /// sled's page cache, in bytes.
    pub cache_capacity: u64,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            commit_timeout: Duration::from_millis(5000),
            cache_capacity: 64 * 1024 * 1024,
        }
    }
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

/// The database. Cheap to clone; all clones share one sled instance and one flusher.
#[derive(Clone)]
pub struct Store {
    db: sled::Db,
    /// The public trees in `Tree::ALL` order, then the two expiry trees.
    trees: Arc<[sled::Tree]>,
    committer: Arc<Committer>,
}

impl Store {
    /// Opens (or creates) the database in `dir` with default options and starts its flusher
    /// task. Must be called inside a tokio runtime.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        Store::open_with(dir, &StoreOptions::default())
    }

    /// Opens (or creates) the database in `dir`, migrating an older layout first.
    pub fn open_with(dir: &Path, options: &StoreOptions) -> Result<Store, StoreError> {
        Store::build(Some(dir), options, |f| f)
    }

    /// A store in a temporary directory that sled deletes on drop (for tests and benches).
    pub fn temporary() -> Result<Store, StoreError> {
        Store::build(None, &StoreOptions::default(), |f| f)
    }

    /// A store whose group-commit flushes go through `wrap(sled's flusher)`: tests use it to
    /// make flushes slow or fail. `dir` `None` is a temporary store.
    #[doc(hidden)]
    pub fn with_flusher(
        dir: Option<&Path>,
        options: &StoreOptions,
        wrap: impl FnOnce(Arc<dyn Flusher>) -> Arc<dyn Flusher>,
    ) -> Result<Store, StoreError> {
        Store::build(dir, options, wrap)
    }

    fn build(
        dir: Option<&Path>,
        options: &StoreOptions,
        wrap: impl FnOnce(Arc<dyn Flusher>) -> Arc<dyn Flusher>,
    ) -> Result<Store, StoreError> {
        let config = sled::Config::new().cache_capacity(options.cache_capacity);
        let db = match dir {
            Some(dir) => config.path(dir).open().map_err(|source| StoreError::Open {
                path: dir.display().to_string(),
                source,
            })?,
            None => config.temporary(true).open()?,
        };
        let mut trees = Vec::with_capacity(EXPIRY_KEYS + 1);
        for name in Tree::ALL.iter().map(|t| t.name()).chain(EXPIRY_NAMES) {
            trees.push(db.open_tree(name)?);
        }
        let flusher = wrap(commit::sled_flusher(db.clone()));
        let store = Store {
            db,
            trees: trees.into(),
            committer: Committer::start(flusher, options.commit_timeout),
        };
        migrate::upgrade(&store, unix_now())?;
        Ok(store)
    }

    fn tree(&self, tree: Tree) -> &sled::Tree {
        &self.trees[tree as usize]
    }

    /// Writes one record (not yet durable: call `commit`).
    pub fn put<T: Serialize>(&self, tree: Tree, key: &str, value: &T) -> Result<(), StoreError> {
        let mut batch = Batch::new();
        batch.put(tree, key, value)?;
        self.apply(batch)
    }

    /// Writes a record only if its key is absent, with an optional expiry time (unix
    /// seconds), atomically; true if this call wrote it. Not yet durable: call `commit`.
    pub fn put_new<T: Serialize>(
        &self,
        tree: Tree,
        key: &str,
        value: &T,
        expires_at: Option<u64>,
    ) -> Result<bool, StoreError> {
        let mut batch = Batch::new();
        batch.put(tree, key, value)?;
        if let Some(at) = expires_at {
            batch.expire_at(tree, key, at);
        }
        let wrote = self.apply_if_absent(tree, key, batch)?;
        Ok(wrote)
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

    /// How many records a tree holds (walks the tree: for tests and tools, not hot paths).
    pub fn count(&self, tree: Tree) -> usize {
        self.tree(tree).len()
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

    /// At most `limit` records of `range`, in ascending key order: an ordered range read of an
    /// index tree (`History`, `Leaderboard`), never a walk of the whole tree. A record that
    /// does not decode is logged with its key and skipped; it still counts toward `limit`, so
    /// a page never reads more than `limit` records.
    pub fn scan<T: DeserializeOwned>(
        &self,
        tree: Tree,
        range: KeyRange<'_>,
        limit: usize,
    ) -> Result<Vec<(String, T)>, StoreError> {
        use std::ops::Bound;
        let start = match range.after {
            Some(after) if after.as_bytes() >= range.prefix.as_bytes() => {
                Bound::Excluded(after.as_bytes().to_vec())
            }
            _ => Bound::Included(range.prefix.as_bytes().to_vec()),
        };
        let mut out = Vec::new();
        let items = self.tree(tree).range((start, Bound::Unbounded));
        for item in items.take(limit) {
            let (key, bytes) = item?;
            if !range.admits(&key) {
                break;
            }
            let key = String::from_utf8_lossy(&key).into_owned();
            match decode(tree, &key, &bytes) {
                Ok(value) => out.push((key, value)),
                Err(error) => {
                    tracing::error!(tree = tree.name(), key, %error, "undecodable record skipped")
                }
            }
        }
        Ok(out)
    }

    /// Writes raw bytes (tests use it to plant corrupt records).
    pub fn put_raw(&self, tree: Tree, key: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.tree(tree).insert(key.as_bytes(), bytes)?;
        Ok(())
    }

    /// Applies `batch` and waits until it is durable; if the commit fails or times out,
    /// applies `undo` (which should put back what `batch` replaced) so the store holds what
    /// it held before, and returns the commit's error.
    pub async fn write_or_undo(&self, batch: Batch, undo: Batch) -> Result<(), StoreError> {
        self.apply(batch)?;
        let committed = self.commit().await;
        if let Err(error) = &committed {
            tracing::warn!(%error, "write not durable; undoing it");
            if let Err(undo_error) = self.apply(undo) {
                tracing::error!(error = %undo_error, "cannot undo a write that failed");
            }
        }
        committed
    }

    /// Resolves with the cause once a flush has failed; the store then refuses every write
    /// and the process should exit so a supervisor restarts it.
    pub fn failed(&self) -> impl std::future::Future<Output = String> + Send + 'static {
        self.committer.failed()
    }

    /// Flushes synchronously (at shutdown).
    pub fn flush(&self) -> Result<(), StoreError> {
        self.db.flush()?;
        Ok(())
    }

    /// Deletes records whose expiry time is at or before `now`, at most `max` of them, with a
    /// range scan of the time-ordered index (never a walk of the record trees). Returns how
    /// many it deleted; not yet durable (a later flush carries it, and redoing it is harmless).
    pub fn expire_due(&self, now: u64, max: usize) -> Result<usize, StoreError> {
        let upto = now.saturating_add(1).to_be_bytes();
        let mut batch = Batch::new();
        let mut due = 0;
        for item in self.trees[EXPIRY].range(..upto.as_slice()).take(max) {
            let (key, _) = item?;
            match batch::parse_expiry_key(&key) {
                Some((tree, record)) => {
                    batch.delete_raw(tree, record.to_vec());
                }
                None => tracing::error!(key = ?key, "malformed expiry entry; dropped"),
            }
            batch.drop_expiry_entry(key.to_vec());
            due += 1;
        }
        self.apply(batch)?;
        Ok(due)
    }
}

/// Seconds since the Unix epoch by the system clock (for expiry times set by migration).
fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
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
mod tests;
