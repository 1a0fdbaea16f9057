//! Durable storage of games, challenges and players (issue 4; layout 2 from "Hold up under
//! real load"; PostgreSQL from issue 15). Two backends behind one API:
//!
//! - **sled** (the default): embedded, one process (its file lock), no setup. Writes land in
//!   memory and are made durable by a group commit (`commit.rs`):
//!   ```text
//!   apply(batch) -> every put/delete/expiry of the batch, atomically across trees, in memory
//!   commit()     -> wakes the flusher and waits (at most commit_timeout) until a flush that
//!                   started after the write has finished; one flush covers every write made
//!                   before it, across all games
//!   ```
//!   A flush that fails makes the store *failed* for good ([`Store::failed`]).
//! - **PostgreSQL** (`postgres.rs`), shared by several processes: one table keyed by (tree,
//!   key) with the record's bytes, revision and expiry time, so a new [`Tree`] needs no
//!   schema change. `apply` is one SQL transaction, committed (durable) before it returns;
//!   `commit` has nothing left to do.
//!
//! Both keep a revision with every record and check conditional writes ([`Expect`]) against
//! it themselves: a write that finds another revision fails its whole batch with
//! [`StoreError::Conflict`], and an applied batch tells the revisions it stored
//! ([`Written`]). [`Store::write`] is the one durable write: applied, durable, or undone.
//! Its caller never needs to know which backend it has.
//!
//! Both keep serde records in named trees, each wrapped in an envelope with a schema version
//! (`{"schema":1,"data":{...}}`). A caller answers a user only after `commit` returns `Ok`.
//! A record that fails to decode is logged with its key and skipped by `load_all`; it never
//! takes the other records down. docs/store.md describes both backends, the layout, the
//! migration from layout 1, durability and expiry.

mod bands;
mod batch;
mod codec;
mod commit;
mod copy;
mod error;
mod many;
mod migrate;
mod pg_schema;
mod postgres;
mod range;
mod redact;
mod size;
mod sled_store;

pub use batch::{Batch, Expect, Written};
#[cfg(feature = "test-support")]
pub use commit::{FaultyFlusher, Flusher};
pub use copy::{copy_all, Copied};
pub use error::{StoreError, StoreErrorKind};
pub use postgres::PostgresOptions;

use codec::{decode, encode};
pub use range::KeyRange;
pub(crate) use range::Order;
use serde::{de::DeserializeOwned, Serialize};
pub use size::TreeSize;
use sled_store::SledStore;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The schema version written into every record envelope.
pub const SCHEMA_VERSION: u32 = 1;

/// How long a closed challenge is kept (its old message's buttons answer "closed" meanwhile).
pub const CLOSED_CHALLENGE_TTL_SECS: u64 = 7 * 24 * 3600;

/// How long a one-time claim is kept: Telegram redelivers an update for at most 24 hours.
pub const CLAIM_TTL_SECS: u64 = 2 * 24 * 3600;

/// The trees of the database. A new tree needs a variant here, its name and its place in
/// `ALL`; PostgreSQL keeps every tree in one table, so it needs nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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
    /// Tournaments taking entries or running, keyed by tournament id: read whole by the
    /// tournament tick.
    Tournaments,
    /// Finished and cancelled tournaments, keyed by tournament id: read one at a time.
    TournamentArchive,
    /// Each player's puzzle rating, counts, streak and attempts on, keyed by `platform:user
    /// id`.
    PuzzlePlayers,
    /// Each puzzle's rating and results, keyed by puzzle id: read whole at start-up.
    PuzzleRatings,
    /// Every player's finished attempts, newest first: `user|inverted time|number`.
    PuzzleAttempts,
    /// The daily puzzle's solvers per chat, `day|chat`; they expire after a week.
    PuzzleDaily,
    /// Chats that have the daily puzzle posted, keyed by chat key: read whole by the tick.
    PuzzlePosts,
    /// Finished games' reviews, keyed by game id: each position's value and engine move,
    /// from which the review is rebuilt with the game's moves (`review::StoredReview`).
    Reviews,
    /// Chats whose games the web's front page lists (their admins chose so), keyed by chat
    /// key: read whole at start-up and now and then after.
    PublicChats,
    /// Games of listed chats that ended, newest first: `inverted end time|game id` -> the
    /// chat key; what the web's front page lists as recent, on every process and after a
    /// restart. They expire after a month.
    Listed,
    /// Players' page keys on the web (`/p/<key>`, an HMAC of the user key) -> the player:
    /// written when a page's link is first made, read when the page is asked for.
    PlayerPages,
    /// One-time sign-in links of the pages (`/web login`), keyed by the SHA-256 of their
    /// token; they expire after ten minutes (`manager::web_sessions`).
    WebLogins,
    /// Signed-in visitors of the pages: `user|SHA-256 of the session's random part`, so a
    /// user's sessions are one range (`/web logout` ends them all); they expire.
    WebSessions,
    /// Pending private alerts of correspondence games (`manager::alerts`), keyed
    /// `platform|due ms (16 digits)|user|game|kind`: a tick reads a platform's due ones with
    /// one range read. A claimed row is keyed by its lease's end.
    Alerts,
    /// Each player's alert settings and state (`/notify`, last told, unreachable), keyed by
    /// `platform:user id`.
    Notify,
    /// The opening explorer's counts (`explorer`): `position key` + a source letter -> each
    /// pit's games and results by time category and rating band (a position is one range
    /// read), and each player's games, `~player|game key` -> nothing (docs/explorer.md).
    ExplorerPositions,
    /// The games the explorer has counted, keyed by the hash of their moves and players: a
    /// re-import skips them, and the last games of a position are read from here.
    ExplorerGames,
    /// The club's finished games waiting to be counted in the explorer, keyed by game id:
    /// written in the same durable write that ends a game, removed once counted (a queue
    /// that survives restarts and is drained by any process; `explorer::import_games`
    /// counts a game once however often it is given).
    ExplorerQueue,
}

impl Tree {
    /// Every tree, in tag order (sled's expiry index names a tree by its place here, so
    /// new trees go at the end).
    pub const ALL: [Tree; 29] = [
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
        Tree::Tournaments,
        Tree::TournamentArchive,
        Tree::PuzzlePlayers,
        Tree::PuzzleRatings,
        Tree::PuzzleAttempts,
        Tree::PuzzleDaily,
        Tree::PuzzlePosts,
        Tree::Reviews,
        Tree::PublicChats,
        Tree::Listed,
        Tree::PlayerPages,
        Tree::WebLogins,
        Tree::WebSessions,
        Tree::Alerts,
        Tree::Notify,
        Tree::ExplorerPositions,
        Tree::ExplorerGames,
        Tree::ExplorerQueue,
    ];

    /// The tree's name: sled's tree name, PostgreSQL's `tree` column.
    pub fn name(self) -> &'static str {
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
            Tree::Tournaments => "tournaments.live",
            Tree::TournamentArchive => "tournaments.archive",
            Tree::PuzzlePlayers => "puzzles.players",
            Tree::PuzzleRatings => "puzzles.ratings",
            Tree::PuzzleAttempts => "puzzles.attempts",
            Tree::PuzzleDaily => "puzzles.daily",
            Tree::PuzzlePosts => "puzzles.posts",
            Tree::Reviews => "games.reviews",
            Tree::PublicChats => "web.public-chats",
            Tree::Listed => "web.listed",
            Tree::PlayerPages => "web.player-pages",
            Tree::WebLogins => "web.logins",
            Tree::WebSessions => "web.sessions",
            Tree::Alerts => "alerts.due",
            Tree::Notify => "users.notify",
            Tree::ExplorerPositions => "explorer.positions",
            Tree::ExplorerGames => "explorer.games",
            Tree::ExplorerQueue => "explorer.queue",
        }
    }

    /// A tree whose records are stored in the compact binary form (postcard after a zero
    /// byte) rather than the JSON envelope: the explorer's, tens of rows per game, where
    /// the envelope was most of the bytes (docs/explorer.md). Their values change shape
    /// only with a new tree or a version byte inside the value.
    pub fn is_compact(self) -> bool {
        matches!(self, Tree::ExplorerPositions | Tree::ExplorerGames)
    }

    fn from_tag(tag: u8) -> Option<Tree> {
        Tree::ALL.get(usize::from(tag)).copied()
    }

    /// The tree of a [`Tree::name`].
    fn from_name(name: &str) -> Option<Tree> {
        Tree::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// How the store is opened (`[storage]` in the config).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreOptions {
    /// The longest a write waits to be durable (sled: its flush; PostgreSQL: its
    /// transaction, retries included) before it gives up.
    pub commit_timeout: Duration,
    /// PostgreSQL: the longest a read of one record (a game's revision, a player's language
    /// or handle) waits, retries included. Every press makes a few of them, so this is
    /// short: a press is answered within Discord's 3 s even while the database is away.
    pub read_timeout: Duration,
    /// sled's page cache, in bytes.
    pub cache_capacity: u64,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            commit_timeout: Duration::from_millis(2000),
            read_timeout: Duration::from_millis(1000),
            cache_capacity: 64 * 1024 * 1024,
        }
    }
}

/// Where the store lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A sled directory.
    Sled(PathBuf),
    /// A PostgreSQL (or compatible) database.
    Postgres(PostgresOptions),
}

impl Location {
    /// `postgres://` or `postgresql://` is a database, anything else a sled directory (for
    /// `toguz store copy`).
    pub fn parse(text: &str) -> Location {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Location::Postgres(PostgresOptions::new(text))
        } else {
            Location::Sled(PathBuf::from(text))
        }
    }

    /// For logs and errors: a database URL without its password.
    pub fn describe(&self) -> String {
        match self {
            Location::Sled(dir) => dir.display().to_string(),
            Location::Postgres(pg) => pg.redacted_url(),
        }
    }
}

/// One record as stored, for copying between backends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawRecord {
    pub key: String,
    /// The envelope's bytes.
    pub value: Vec<u8>,
    pub revision: u64,
    pub expires_at: Option<u64>,
}

/// A record and the revision it was read at.
#[derive(Clone, Debug, PartialEq)]
pub struct Versioned<T> {
    pub value: T,
    pub revision: u64,
}

#[derive(Clone)]
enum Backend {
    Sled(SledStore),
    Postgres(postgres::PgStore),
}

/// The database. Cheap to clone; all clones share one backend (one sled instance and
/// flusher, or one connection pool).
#[derive(Clone)]
pub struct Store {
    backend: Backend,
    /// Reads made so far (records, revisions, ranges), for `reads`.
    reads: Arc<std::sync::atomic::AtomicU64>,
}

impl Store {
    /// Opens (or creates) a sled database in `dir` with default options and starts its
    /// flusher task. Must be called inside a tokio runtime.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        Store::open_with(dir, &StoreOptions::default())
    }

    /// Opens (or creates) a sled database in `dir`, migrating an older layout first.
    pub fn open_with(dir: &Path, options: &StoreOptions) -> Result<Store, StoreError> {
        Store::open_sled(Some(dir), options, |f| f)
    }

    /// A sled store in a temporary directory that sled deletes on drop (for tests and
    /// benches).
    pub fn temporary() -> Result<Store, StoreError> {
        Store::open_sled(None, &StoreOptions::default(), |f| f)
    }

    fn open_sled(
        dir: Option<&Path>,
        options: &StoreOptions,
        wrap: impl FnOnce(Arc<dyn commit::Flusher>) -> Arc<dyn commit::Flusher>,
    ) -> Result<Store, StoreError> {
        Ok(Store {
            backend: Backend::Sled(SledStore::open(dir, options, wrap)?),
            reads: Default::default(),
        })
    }

    /// Opens the store at `location`: a sled directory, or a PostgreSQL database (connected,
    /// and its schema migrated to the current version).
    pub async fn open_at(location: &Location, options: &StoreOptions) -> Result<Store, StoreError> {
        match location {
            Location::Sled(dir) => Store::open_with(dir, options),
            Location::Postgres(pg) => Ok(Store {
                backend: Backend::Postgres(postgres::PgStore::connect(pg, options).await?),
                reads: Default::default(),
            }),
        }
    }

    /// A sled store whose group-commit flushes go through `wrap(sled's flusher)`: tests use
    /// it to make flushes slow or fail. `dir` `None` is a temporary store.
    #[cfg(feature = "test-support")]
    pub fn with_flusher(
        dir: Option<&Path>,
        options: &StoreOptions,
        wrap: impl FnOnce(Arc<dyn Flusher>) -> Arc<dyn Flusher>,
    ) -> Result<Store, StoreError> {
        Store::open_sled(dir, options, wrap)
    }

    /// Writes one record (sled: not yet durable, call `commit`).
    pub async fn put<T: Serialize>(
        &self,
        tree: Tree,
        key: &str,
        value: &T,
    ) -> Result<(), StoreError> {
        let mut batch = Batch::new();
        batch.put(tree, key, value)?;
        self.apply(batch).await.map(drop)
    }

    /// Writes a record only if its key is absent, with an optional expiry time (unix
    /// seconds), atomically; true if this call wrote it. Sled: not yet durable, call
    /// `commit`.
    pub async fn put_new<T: Serialize>(
        &self,
        tree: Tree,
        key: &str,
        value: &T,
        expires_at: Option<u64>,
    ) -> Result<bool, StoreError> {
        let mut batch = Batch::new();
        batch.put_checked(tree, key, value, Expect::Absent)?;
        if let Some(at) = expires_at {
            batch.expire_at(tree, key, at);
        }
        match self.apply(batch).await {
            Ok(_) => Ok(true),
            Err(StoreError::Conflict { .. }) => Ok(false),
            Err(error) => Err(error),
        }
    }

    /// How many reads this store (all its clones) has made: one record, one revision or
    /// one range each. Tests count what an action costs with it.
    pub fn reads(&self) -> u64 {
        self.reads.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn count_read(&self) {
        self.reads
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// Reads one record; `Ok(None)` if absent, an error if it does not decode.
    pub async fn get<T: DeserializeOwned>(
        &self,
        tree: Tree,
        key: &str,
    ) -> Result<Option<T>, StoreError> {
        Ok(self.get_versioned(tree, key).await?.map(|v| v.value))
    }

    /// Reads one record with its revision.
    pub async fn get_versioned<T: DeserializeOwned>(
        &self,
        tree: Tree,
        key: &str,
    ) -> Result<Option<Versioned<T>>, StoreError> {
        self.count_read();
        let found = match &self.backend {
            Backend::Sled(s) => s.get_bytes(tree, key)?,
            Backend::Postgres(pg) => pg.get(tree, key).await?,
        };
        match found {
            None => Ok(None),
            Some((bytes, revision)) => Ok(Some(Versioned {
                value: decode(tree, key, &bytes)?,
                revision,
            })),
        }
    }

    /// The revision a record is stored at, `None` if absent.
    pub async fn revision(&self, tree: Tree, key: &str) -> Result<Option<u64>, StoreError> {
        self.count_read();
        match &self.backend {
            Backend::Sled(s) => s.revision(tree, key),
            Backend::Postgres(pg) => pg.revision(tree, key).await,
        }
    }

    pub async fn contains(&self, tree: Tree, key: &str) -> Result<bool, StoreError> {
        Ok(self.revision(tree, key).await?.is_some())
    }

    /// How many records a tree holds (walks the tree: for tests and tools, not hot paths).
    pub async fn count(&self, tree: Tree) -> Result<usize, StoreError> {
        match &self.backend {
            Backend::Sled(s) => Ok(s.count(tree)),
            Backend::Postgres(pg) => pg.count(tree).await,
        }
    }

    /// Every record of a tree that decodes; the others are logged with their key and
    /// skipped.
    pub async fn load_all<T: DeserializeOwned>(
        &self,
        tree: Tree,
    ) -> Result<Vec<(String, T)>, StoreError> {
        let all = self.load_all_versioned(tree).await?;
        Ok(all.into_iter().map(|(k, v)| (k, v.value)).collect())
    }

    /// Every record of a tree that decodes, with its revision.
    pub async fn load_all_versioned<T: DeserializeOwned>(
        &self,
        tree: Tree,
    ) -> Result<Vec<(String, Versioned<T>)>, StoreError> {
        self.count_read();
        let raw = match &self.backend {
            Backend::Sled(s) => s.scan(tree),
            Backend::Postgres(pg) => pg.scan(tree).await?,
        };
        let mut out = Vec::with_capacity(raw.len());
        for (key, bytes, revision) in raw {
            match decode(tree, &key, &bytes) {
                Ok(value) => out.push((key, Versioned { value, revision })),
                Err(error) => {
                    tracing::error!(tree = tree.name(), key, %error, "undecodable record skipped")
                }
            }
        }
        Ok(out)
    }

    /// The revisions `keys` are stored at (`None`: absent), in their order: one read
    /// however many keys (live web pages ask for every game they follow at once).
    pub async fn revisions_of(
        &self,
        tree: Tree,
        keys: &[String],
    ) -> Result<Vec<Option<u64>>, StoreError> {
        self.count_read();
        match &self.backend {
            Backend::Sled(s) => keys.iter().map(|k| s.revision(tree, k)).collect(),
            Backend::Postgres(pg) => pg.revisions_of(tree, keys).await,
        }
    }

    /// Every key of a tree with its revision, in key order, no value read (what another
    /// process added to a live tree).
    pub async fn revisions(&self, tree: Tree) -> Result<Vec<(String, u64)>, StoreError> {
        self.count_read();
        match &self.backend {
            Backend::Sled(s) => Ok(s.revisions(tree)),
            Backend::Postgres(pg) => pg.revisions(tree).await,
        }
    }

    /// The clock every process sharing this store agrees on (unix ms), read now: the
    /// database's on PostgreSQL. `None` for sled, which one process owns: its own clock is
    /// the only one.
    pub async fn shared_time_ms(&self) -> Result<Option<u64>, StoreError> {
        match &self.backend {
            Backend::Sled(_) => Ok(None),
            Backend::Postgres(pg) => pg.now_ms().await.map(Some),
        }
    }

    /// Every record of a tree as stored, with its revision and expiry (`toguz store copy`).
    pub async fn export(&self, tree: Tree) -> Result<Vec<RawRecord>, StoreError> {
        match &self.backend {
            Backend::Sled(s) => s.export(tree),
            Backend::Postgres(pg) => pg.export(tree).await,
        }
    }

    /// Writes records as they are (bytes, revision, expiry), replacing what is there.
    pub async fn import(&self, tree: Tree, records: &[RawRecord]) -> Result<(), StoreError> {
        let mut batch = Batch::new();
        for r in records {
            batch.put_bytes(tree, &r.key, r.value.clone(), Expect::Any, Some(r.revision));
            if let Some(at) = r.expires_at {
                batch.expire_at(tree, &r.key, at);
            }
        }
        self.apply(batch).await?;
        self.commit().await
    }

    /// At most `limit` records of `range`, in ascending key order: an ordered range read of an
    /// index tree (`History`, `Leaderboard`), never a walk of the whole tree. A record that
    /// does not decode is logged with its key and skipped; it still counts toward `limit`, so
    /// a page never reads more than `limit` records.
    pub async fn scan<T: DeserializeOwned>(
        &self,
        tree: Tree,
        range: KeyRange<'_>,
        limit: usize,
    ) -> Result<Vec<(String, T)>, StoreError> {
        self.count_read();
        self.scan_in(tree, range, limit, Order::Up).await
    }

    /// At most `limit` records of `range`, last key first: the records just before
    /// `range.before` (a page before a key, issue 31 item 12).
    pub async fn scan_back<T: DeserializeOwned>(
        &self,
        tree: Tree,
        range: KeyRange<'_>,
        limit: usize,
    ) -> Result<Vec<(String, T)>, StoreError> {
        self.count_read();
        self.scan_in(tree, range, limit, Order::Down).await
    }

    async fn scan_in<T: DeserializeOwned>(
        &self,
        tree: Tree,
        range: KeyRange<'_>,
        limit: usize,
        order: Order,
    ) -> Result<Vec<(String, T)>, StoreError> {
        let raw = match &self.backend {
            Backend::Sled(s) => s.range(tree, &range, limit, order)?,
            Backend::Postgres(pg) => pg.range(tree, &range, limit, order).await?,
        };
        let mut out = Vec::with_capacity(raw.len());
        for (key, bytes) in raw {
            match decode(tree, &key, &bytes) {
                Ok(value) => out.push((key, value)),
                Err(error) => {
                    tracing::error!(tree = tree.name(), key, %error, "undecodable record skipped")
                }
            }
        }
        Ok(out)
    }

    /// How many records `range` holds: a count over the index, nothing decoded (a
    /// leaderboard place). Records past their expiry count until the sweeper deletes them.
    pub async fn count_range(&self, tree: Tree, range: KeyRange<'_>) -> Result<usize, StoreError> {
        self.count_read();
        match &self.backend {
            Backend::Sled(s) => s.count_range(tree, &range),
            Backend::Postgres(pg) => pg.count_range(tree, &range).await,
        }
    }

    /// How many records of `tree` under `prefix` sort before `key` (a leaderboard place less
    /// one). A counted tree (`bands.rs`) adds up the counts of the bands before `key`'s and
    /// counts only the keys of its own band: the rows above are not read. Records past their
    /// expiry count until the sweeper deletes them.
    pub async fn count_before(
        &self,
        tree: Tree,
        prefix: &str,
        key: &str,
    ) -> Result<usize, StoreError> {
        let Some(band) = bands::band(tree, key).filter(|b| b.starts_with(prefix)) else {
            let range = KeyRange {
                prefix,
                after: None,
                before: Some(key),
            };
            return self.count_range(tree, range).await;
        };
        self.count_read();
        let own = KeyRange {
            prefix: band,
            after: None,
            before: Some(key),
        };
        let (before, within) = match &self.backend {
            Backend::Sled(s) => (
                s.count_bands(tree, prefix, band)?,
                s.count_range(tree, &own)?,
            ),
            Backend::Postgres(pg) => (
                pg.count_bands(tree, prefix, band).await?,
                pg.count_range(tree, &own).await?,
            ),
        };
        Ok(before + within)
    }

    /// Writes raw bytes (tests use it to plant corrupt records; on sled they are stored as a
    /// record written before revisions, which reads as revision 1).
    #[cfg(feature = "test-support")]
    pub async fn put_raw(&self, tree: Tree, key: &str, bytes: &[u8]) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Sled(s) => s.put_raw(tree, key, bytes),
            Backend::Postgres(_) => {
                let mut batch = Batch::new();
                batch.put_bytes(tree, key, bytes.to_vec(), Expect::Any, None);
                self.apply(batch).await.map(drop)
            }
        }
    }

    /// Applies every change of `batch` at once (all or nothing, across trees), or nothing
    /// at all with `StoreError::Conflict` when a conditional write found another revision.
    /// Sled: in memory, call `commit` (or use `write`); PostgreSQL: committed when it
    /// returns.
    pub async fn apply(&self, batch: Batch) -> Result<Written, StoreError> {
        let written = batch.written();
        match &self.backend {
            Backend::Sled(s) => drop(s.apply(batch)?),
            Backend::Postgres(pg) => pg.apply(batch).await?,
        }
        Ok(written)
    }

    /// Waits until every write made so far is durable, at most the configured commit
    /// timeout (sled's group commit; PostgreSQL's writes are committed already).
    pub async fn commit(&self) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Sled(s) => s.committer.commit().await,
            Backend::Postgres(_) => Ok(()),
        }
    }

    /// Applies `batch` and waits until it is durable: when this returns `Ok` the batch is
    /// durable, otherwise nothing of it is left. Sled undoes a write whose commit failed or
    /// timed out itself (each key it changed is put back as it was, unless another write
    /// changed it since); a PostgreSQL batch that did not commit changed nothing.
    pub async fn write(&self, batch: Batch) -> Result<Written, StoreError> {
        let s = match &self.backend {
            Backend::Sled(s) => s,
            Backend::Postgres(_) => return self.apply(batch).await,
        };
        let written = batch.written();
        let undo = s.apply(batch)?;
        if let Err(error) = s.committer.commit().await {
            tracing::warn!(%error, "write not durable; undoing it");
            if let Err(undo_error) = s.undo(undo) {
                tracing::error!(error = %undo_error, "cannot undo a write that failed");
            }
            return Err(error);
        }
        Ok(written)
    }

    /// Resolves with the cause once a sled flush has failed; the store then refuses every
    /// write and the process should exit so a supervisor restarts it. PostgreSQL never
    /// fails for good: a database that is away refuses writes until it is back.
    pub fn failed(&self) -> std::pin::Pin<Box<dyn std::future::Future<Output = String> + Send>> {
        match &self.backend {
            Backend::Sled(s) => Box::pin(s.committer.failed()),
            Backend::Postgres(_) => Box::pin(std::future::pending()),
        }
    }

    /// Flushes synchronously (at shutdown).
    pub fn flush(&self) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Sled(s) => s.flush(),
            Backend::Postgres(_) => Ok(()),
        }
    }

    /// Deletes records whose expiry time is at or before `now`, at most `max` of them (sled:
    /// a range scan of its time-ordered index; PostgreSQL: an indexed delete, which several
    /// processes may run at once). Returns how many it deleted; sled: not yet durable (a
    /// later flush carries it, and redoing it is harmless).
    pub async fn expire_due(&self, now: u64, max: usize) -> Result<usize, StoreError> {
        match &self.backend {
            Backend::Sled(s) => s.expire_due(now, max),
            Backend::Postgres(pg) => pg.expire_due(now, max).await,
        }
    }
}

/// Seconds since the Unix epoch by the system clock (for expiry times set by migration).
fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests;
