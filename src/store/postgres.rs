//! The shared backend: PostgreSQL, or a database that speaks its protocol and SQL
//! (CockroachDB, YugabyteDB), used by several bot processes at once.
//!
//! Every tree lives in one table, `toguz_records (tree, key, value, revision, expires_at)`,
//! created and migrated at start by refinery's versioned migrations embedded in the binary
//! (`migrations/postgres/`, run by `pg_schema`). A batch is one SQL transaction (one statement commits by
//! itself), so it is durable when `apply` returns. Conditional writes are compare-and-sets
//! on `revision` (`UPDATE ... WHERE tree = $1 AND key = $2 AND revision = $5`); one that
//! finds another revision rolls the batch back and answers `StoreError::Conflict`.
//!
//! No call waits unboundedly: the pool hands out at most `pool_size` connections and waits
//! for one at most the commit timeout; the server cancels a statement after
//! `statement_timeout`; each write and range read, retries included, is cut off after the
//! commit timeout, and each read of one record (every press makes a few) after the shorter
//! read timeout. Once a call found the database away, later calls are cut off after
//! `AWAY_BOUND` until one gets an answer again, so a press made while it is away does not
//! wait the full bound on every lookup. Serialization failures (SQLSTATE 40001), deadlocks
//! and lost connections are retried a bounded number of times. A retry after a lost
//! connection may find its own earlier attempt committed (the connection dropped after
//! COMMIT): a conditional write then sees its own revision and value, and counts as done
//! rather than as a conflict.
//!
//! A write that fails tells whether it certainly changed nothing (`Unavailable`: it never
//! got as far as committing, or the server answered) or may have been stored
//! (`OutcomeUnknown`: COMMIT, or a statement that commits by itself, was sent and no answer
//! came).
//!
//! No advisory locks, no LISTEN/NOTIFY: nothing here relies on what CockroachDB lacks.

mod counts;
mod revisions;

use super::bands::Deltas;
use super::batch::{Batch, Expect, Op};
use super::redact::redact;
use super::{KeyRange, Order, RawRecord, StoreError, StoreOptions, Tree};
use deadpool_postgres::{GenericClient, Pool, PoolError, Runtime};
use std::fmt;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;
use tokio_postgres::{NoTls, Row};

/// Attempts of one read or write before it gives up (within the commit timeout).
const ATTEMPTS: u32 = 6;

/// The bound on every call while the database is away (the last call found it so): long
/// enough for a database that is back to answer on localhost or a private network, short
/// enough that a press's few lookups still leave it answered within 3 s.
const AWAY_BOUND: Duration = Duration::from_millis(250);

/// `[storage]` for PostgreSQL. Its `Debug` never shows the password.
#[derive(Clone, PartialEq, Eq)]
pub struct PostgresOptions {
    /// `postgres://user:password@host:port/database` (or a key=value connection string).
    pub url: String,
    /// Connections at most, shared by every game of the process.
    pub pool_size: usize,
    /// The server cancels a statement running longer than this.
    pub statement_timeout: Duration,
    /// The longest a new connection may take.
    pub connect_timeout: Duration,
}

impl PostgresOptions {
    /// Defaults for everything but the URL.
    pub fn new(url: &str) -> PostgresOptions {
        PostgresOptions {
            url: url.to_string(),
            pool_size: 16,
            statement_timeout: Duration::from_millis(5000),
            connect_timeout: Duration::from_millis(5000),
        }
    }

    /// The URL with its password replaced by `***`, for logs and errors.
    pub fn redacted_url(&self) -> String {
        redact(&self.url)
    }
}

impl fmt::Debug for PostgresOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PostgresOptions")
            .field("url", &self.redacted_url())
            .field("pool_size", &self.pool_size)
            .field("statement_timeout", &self.statement_timeout)
            .field("connect_timeout", &self.connect_timeout)
            .finish()
    }
}

/// Why one attempt failed: worth another try (a lost connection, a serialization failure)
/// or final.
enum Fail {
    Retry(String),
    Final(StoreError),
}

fn fail(error: tokio_postgres::Error) -> Fail {
    let retry = [
        SqlState::T_R_SERIALIZATION_FAILURE,
        SqlState::T_R_DEADLOCK_DETECTED,
        SqlState::ADMIN_SHUTDOWN,
        SqlState::CRASH_SHUTDOWN,
        SqlState::CANNOT_CONNECT_NOW,
        SqlState::CONNECTION_FAILURE,
    ];
    match error.code() {
        Some(code) if retry.contains(code) => Fail::Retry(error.to_string()),
        // No SQLSTATE: the connection broke (I/O, closed).
        None => Fail::Retry(error.to_string()),
        Some(_) => Fail::Final(StoreError::Database(error.to_string())),
    }
}

fn pool_fail(error: PoolError) -> Fail {
    match error {
        PoolError::Backend(e) => fail(e),
        PoolError::Timeout(_) => Fail::Retry("no free database connection".into()),
        other => Fail::Final(StoreError::Database(other.to_string())),
    }
}

fn conflict(tree: Tree, key: &str) -> Fail {
    Fail::Final(StoreError::Conflict {
        tree: tree.name(),
        key: key.to_string(),
    })
}

/// The range read's statement: `$1` tree, `$2` lower bound, `$3` limit, `$4` upper bound.
/// Static texts, so that each is prepared once per connection.
fn range_sql(excluded: bool, bounded: bool, order: Order) -> &'static str {
    // Built once: `query` keeps prepared statements by their text.
    static ALL: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
        let mut all = Vec::with_capacity(8);
        for order in [Order::Up, Order::Down] {
            for excluded in [false, true] {
                for bounded in [false, true] {
                    all.push(build_range_sql(excluded, bounded, order));
                }
            }
        }
        all
    });
    let at = usize::from(order == Order::Down) * 4 + usize::from(excluded) * 2;
    &ALL[at + usize::from(bounded)]
}

fn build_range_sql(excluded: bool, bounded: bool, order: Order) -> String {
    let lower = if excluded { ">" } else { ">=" };
    let upper = if bounded {
        " AND key COLLATE \"C\" < $4"
    } else {
        ""
    };
    // Both directions walk the same index (`toguz_records_key_bytes`), one backwards.
    let direction = match order {
        Order::Up => "",
        Order::Down => " DESC",
    };
    format!(
        "SELECT key, value FROM toguz_records WHERE tree = $1 AND key COLLATE \"C\" {lower} $2\
         {upper} ORDER BY key COLLATE \"C\"{direction} LIMIT $3"
    )
}

/// The range count's statement: `$1` tree, `$2` lower bound, `$3` upper bound. A key only
/// its prefix admits is never between these bounds (see `KeyRange::upper`).
fn count_sql(excluded: bool, bounded: bool) -> &'static str {
    match (excluded, bounded) {
        (false, false) => {
            "SELECT count(*) FROM toguz_records WHERE tree = $1 AND key COLLATE \"C\" >= $2"
        }
        (true, false) => {
            "SELECT count(*) FROM toguz_records WHERE tree = $1 AND key COLLATE \"C\" > $2"
        }
        (false, true) => {
            "SELECT count(*) FROM toguz_records WHERE tree = $1 AND key COLLATE \"C\" >= $2 \
             AND key COLLATE \"C\" < $3"
        }
        (true, true) => {
            "SELECT count(*) FROM toguz_records WHERE tree = $1 AND key COLLATE \"C\" > $2 \
             AND key COLLATE \"C\" < $3"
        }
    }
}

fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn uint(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// A connection pool on one database. Cheap to clone.
#[derive(Clone)]
pub(super) struct PgStore {
    pool: Pool,
    /// The bound on every write and range read, retries included (`commit_timeout_ms`).
    timeout: Duration,
    /// The bound on a read of one record, retries included (`read_timeout_ms`).
    read_timeout: Duration,
    /// Whether the last call that ended found the database away (no answer, or no
    /// connection); shared by the clones.
    away: Arc<AtomicBool>,
}

impl PgStore {
    /// Connects and brings the schema to the current version.
    pub(super) async fn connect(
        options: &PostgresOptions,
        store: &StoreOptions,
    ) -> Result<PgStore, StoreError> {
        let open_error = |reason: String| StoreError::Open {
            path: options.redacted_url(),
            reason,
        };
        let mut config: tokio_postgres::Config = options
            .url
            .parse()
            .map_err(|e: tokio_postgres::Error| open_error(redact(&e.to_string())))?;
        let ms = options.statement_timeout.as_millis();
        let extra = format!("-c statement_timeout={ms}");
        let joined = match config.get_options() {
            Some(given) if !given.is_empty() => format!("{given} {extra}"),
            _ => extra,
        };
        config
            .options(&joined)
            .connect_timeout(options.connect_timeout)
            .application_name("toguz");
        super::pg_schema::migrate(&config)
            .await
            .map_err(|e| open_error(e.to_string()))?;
        let manager = deadpool_postgres::Manager::from_config(
            config,
            NoTls,
            deadpool_postgres::ManagerConfig {
                recycling_method: deadpool_postgres::RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(options.pool_size.max(1))
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(store.commit_timeout))
            .create_timeout(Some(options.connect_timeout))
            .recycle_timeout(Some(options.connect_timeout))
            .build()
            .map_err(|e| open_error(e.to_string()))?;
        let store = PgStore {
            pool,
            timeout: store.commit_timeout,
            read_timeout: store.read_timeout,
            away: Arc::new(AtomicBool::new(false)),
        };
        tracing::info!(database = %options.redacted_url(), "PostgreSQL store open");
        Ok(store)
    }

    /// Runs `attempt` until it succeeds, fails for good, or has failed `ATTEMPTS` times;
    /// all of it within `bound` (`AWAY_BOUND` while the database is away). A call that
    /// gets no answer is `StoreError::Unavailable`, and marks the database away.
    async fn retrying<T, F, Fut>(&self, bound: Duration, attempt: F) -> Result<T, StoreError>
    where
        F: FnMut(bool) -> Fut,
        Fut: Future<Output = Result<T, Fail>>,
    {
        let away = self.away.load(Ordering::Relaxed);
        let bound = if away { bound.min(AWAY_BOUND) } else { bound };
        let result = self.attempts(bound, attempt).await;
        let now_away = matches!(result, Err(StoreError::Unavailable(_)));
        if now_away != self.away.swap(now_away, Ordering::Relaxed) {
            if now_away {
                tracing::warn!("the database is away: calls are cut short until it answers");
            } else {
                tracing::info!("the database answers again");
            }
        }
        result
    }

    async fn attempts<T, F, Fut>(&self, bound: Duration, mut attempt: F) -> Result<T, StoreError>
    where
        F: FnMut(bool) -> Fut,
        Fut: Future<Output = Result<T, Fail>>,
    {
        let work = async {
            let mut tries = 0;
            loop {
                tries += 1;
                match attempt(tries > 1).await {
                    Ok(value) => return Ok(value),
                    Err(Fail::Final(error)) => return Err(error),
                    Err(Fail::Retry(reason)) if tries < ATTEMPTS => {
                        tracing::warn!(tries, reason, "database call failed; retrying");
                        backoff(tries).await;
                    }
                    Err(Fail::Retry(reason)) => {
                        return Err(StoreError::Unavailable(format!(
                            "gave up after {tries} attempts: {reason}"
                        )))
                    }
                }
            }
        };
        match tokio::time::timeout(bound, work).await {
            Ok(result) => result,
            Err(_) => {
                let ms = millis(bound);
                tracing::warn!(timeout_ms = ms, "database call timed out");
                Err(StoreError::Unavailable(format!("no answer within {ms} ms")))
            }
        }
    }

    /// A statement bounded by the commit timeout (range reads, the sweeper's delete).
    async fn query(
        &self,
        sql: &'static str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<Row>, StoreError> {
        self.query_within(self.timeout, sql, params).await
    }

    async fn query_within(
        &self,
        bound: Duration,
        sql: &'static str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<Row>, StoreError> {
        self.retrying(bound, |_| async {
            let client = self.pool.get().await.map_err(pool_fail)?;
            let statement = client.prepare_cached(sql).await.map_err(fail)?;
            client.query(&statement, params).await.map_err(fail)
        })
        .await
    }

    pub(super) async fn get(
        &self,
        tree: Tree,
        key: &str,
    ) -> Result<Option<(Vec<u8>, u64)>, StoreError> {
        let rows = self
            .query_within(
                self.read_timeout,
                "SELECT value, revision FROM toguz_records WHERE tree = $1 AND key = $2",
                &[&tree.name(), &key],
            )
            .await?;
        Ok(rows
            .first()
            .map(|row| (row.get::<_, Vec<u8>>(0), uint(row.get(1)))))
    }

    pub(super) async fn count(&self, tree: Tree) -> Result<usize, StoreError> {
        let rows = self
            .query(
                "SELECT count(*) FROM toguz_records WHERE tree = $1",
                &[&tree.name()],
            )
            .await?;
        let n: i64 = rows.first().map_or(0, |row| row.get(0));
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// The database's clock (unix ms), the one time every process sharing it agrees on.
    /// `clock_timestamp()`: the time of the read itself, not of the transaction's start.
    pub(super) async fn now_ms(&self) -> Result<u64, StoreError> {
        let rows = self
            .query(
                "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint",
                &[],
            )
            .await?;
        Ok(rows.first().map_or(0, |row| uint(row.get(0))))
    }

    pub(super) async fn scan(&self, tree: Tree) -> Result<Vec<(String, Vec<u8>, u64)>, StoreError> {
        let rows = self
            .query(
                "SELECT key, value, revision FROM toguz_records WHERE tree = $1 ORDER BY key",
                &[&tree.name()],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|row| (row.get(0), row.get(1), uint(row.get(2))))
            .collect())
    }

    /// At most `limit` records of `range`, ordered by the key's bytes: `COLLATE "C"` matches
    /// the `toguz_records_key_bytes` index (V2), whatever the database's own collation.
    pub(super) async fn range(
        &self,
        tree: Tree,
        range: &KeyRange<'_>,
        limit: usize,
        order: Order,
    ) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
        let (lower, excluded) = range.lower();
        let upper = range.upper();
        let limit = int(limit as u64);
        let name = tree.name();
        let mut params: Vec<&(dyn ToSql + Sync)> = vec![&name, &lower, &limit];
        if let Some(upper) = &upper {
            params.push(upper);
        }
        let rows = self
            .query(range_sql(excluded, upper.is_some(), order), &params)
            .await?;
        Ok(rows
            .iter()
            .map(|row| (row.get::<_, String>(0), row.get::<_, Vec<u8>>(1)))
            .filter(|(key, _)| range.admits(key.as_bytes()))
            .collect())
    }

    /// How many records `range` holds: `count(*)` over the key-bytes index.
    pub(super) async fn count_range(
        &self,
        tree: Tree,
        range: &KeyRange<'_>,
    ) -> Result<usize, StoreError> {
        let (lower, excluded) = range.lower();
        let upper = range.upper();
        let name = tree.name();
        let mut params: Vec<&(dyn ToSql + Sync)> = vec![&name, &lower];
        if let Some(upper) = &upper {
            params.push(upper);
        }
        let rows = self
            .query(count_sql(excluded, upper.is_some()), &params)
            .await?;
        let n: i64 = rows.first().map_or(0, |row| row.get(0));
        Ok(usize::try_from(n).unwrap_or(0))
    }

    pub(super) async fn logical_size(
        &self,
        tree: Tree,
    ) -> Result<crate::store::size::TreeSize, StoreError> {
        let rows = self
            .query(
                "SELECT count(*), coalesce(sum(octet_length(key) + octet_length(value)), 0)::BIGINT \
                 FROM toguz_records WHERE tree = $1",
                &[&tree.name()],
            )
            .await?;
        let (records, bytes): (i64, i64) = rows.first().map_or((0, 0), |r| (r.get(0), r.get(1)));
        Ok(crate::store::size::TreeSize {
            records: uint(records),
            bytes: uint(bytes),
        })
    }

    pub(super) async fn export(&self, tree: Tree) -> Result<Vec<RawRecord>, StoreError> {
        let rows = self
            .query(
                "SELECT key, value, revision, expires_at FROM toguz_records WHERE tree = $1 \
                 ORDER BY key",
                &[&tree.name()],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|row| RawRecord {
                key: row.get(0),
                value: row.get(1),
                revision: uint(row.get(2)),
                expires_at: row.get::<_, Option<i64>>(3).map(uint),
            })
            .collect())
    }

    /// Deletes what is due, and takes what it deleted off the band counts in the same
    /// transaction; several processes may run it at once, each deleting what the others
    /// have not (a row deleted twice is simply not there the second time).
    pub(super) async fn expire_due(&self, now: u64, max: usize) -> Result<usize, StoreError> {
        let (now, max) = (&int(now), &int(max as u64));
        let sql = "DELETE FROM toguz_records WHERE (tree, key) IN (SELECT tree, key FROM \
                   toguz_records WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2) \
                   RETURNING tree, key";
        self.retrying(self.timeout, |_| async move {
            let mut client = self.pool.get().await.map_err(pool_fail)?;
            let tx = client.transaction().await.map_err(fail)?;
            let statement = tx.prepare_cached(sql).await.map_err(fail)?;
            let rows = tx.query(&statement, &[now, max]).await.map_err(fail)?;
            let mut deltas = Deltas::default();
            for row in &rows {
                if let Some(tree) = Tree::from_name(row.get(0)) {
                    deltas.add(tree, row.get(1), -1);
                }
            }
            counts::add(&tx, &deltas).await?;
            tx.commit().await.map_err(fail)?;
            Ok(rows.len())
        })
        .await
    }

    /// The records of `tree`'s bands from `prefix` up to (not including) band `before`.
    pub(super) async fn count_bands(
        &self,
        tree: Tree,
        prefix: &str,
        before: &str,
    ) -> Result<usize, StoreError> {
        let rows = self
            .query(counts::SUM_SQL, &[&tree.name(), &prefix, &before])
            .await?;
        let n: i64 = rows.first().map_or(0, |row| row.get(0));
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// Applies `batch` in one transaction (see the module's documentation). A batch whose
    /// commit was sent and never answered (not even by a later attempt) is
    /// `StoreError::OutcomeUnknown`; any other failure changed nothing.
    pub(super) async fn apply(&self, batch: Batch) -> Result<(), StoreError> {
        if batch.is_empty() {
            return Ok(());
        }
        let batch = &batch;
        // Set while an attempt's commit may have happened without our knowing.
        let unsure = &AtomicBool::new(false);
        let result = self
            .retrying(self.timeout, |again| async move {
                let result = self.try_batch(batch, unsure, again).await;
                if !matches!(result, Err(Fail::Retry(_))) {
                    // The server answered: what it said is the outcome.
                    unsure.store(false, Ordering::SeqCst);
                }
                result
            })
            .await;
        match result {
            Err(StoreError::Unavailable(reason)) if unsure.load(Ordering::SeqCst) => {
                let ms = millis(self.timeout);
                tracing::warn!(
                    reason,
                    "a write was sent and not confirmed: outcome unknown"
                );
                Err(StoreError::OutcomeUnknown { ms })
            }
            other => other,
        }
    }

    /// One attempt; `again` for a retry, which may find an earlier attempt committed.
    async fn try_batch(&self, batch: &Batch, unsure: &AtomicBool, again: bool) -> Result<(), Fail> {
        match self.send_batch(batch, unsure).await {
            Err(Fail::Final(StoreError::Conflict { tree, key })) if again => {
                if self.landed(batch).await? {
                    tracing::info!(tree, key, "an earlier attempt had committed the write");
                    Ok(())
                } else {
                    Err(Fail::Final(StoreError::Conflict { tree, key }))
                }
            }
            other => other,
        }
    }

    /// Sends the batch; `unsure` is set just before what commits it goes out.
    async fn send_batch(&self, batch: &Batch, unsure: &AtomicBool) -> Result<(), Fail> {
        let mut client = self.pool.get().await.map_err(pool_fail)?;
        if let [op] = batch.ops.as_slice() {
            if !counts::counted(op) {
                // One statement commits by itself: no BEGIN/COMMIT round trips for a move.
                unsure.store(true, Ordering::SeqCst);
                return run_op(&client, op).await.map(drop);
            }
        }
        let tx = client.transaction().await.map_err(fail)?;
        let mut deltas = Deltas::default();
        for op in &batch.ops {
            // An error drops `tx`, which rolls the transaction back.
            counts::run(&tx, op, &mut deltas).await?;
        }
        counts::add(&tx, &deltas).await?;
        unsure.store(true, Ordering::SeqCst);
        tx.commit().await.map_err(fail)
    }

    /// Whether every conditional write of `batch` is stored as the batch would leave it
    /// (its revision and bytes; a checked delete: gone), i.e. an earlier attempt committed.
    async fn landed(&self, batch: &Batch) -> Result<bool, Fail> {
        let client = self.pool.get().await.map_err(pool_fail)?;
        let sql = "SELECT value, revision FROM toguz_records WHERE tree = $1 AND key = $2";
        let statement = client.prepare_cached(sql).await.map_err(fail)?;
        for op in &batch.ops {
            let (tree, key, wanted) = match op {
                Op::Put {
                    tree,
                    key,
                    value,
                    expect,
                    revision: Some(revision),
                } if *expect != Expect::Any => (tree, key, Some((value, *revision))),
                Op::Delete { tree, key, expect } if *expect != Expect::Any => (tree, key, None),
                _ => continue,
            };
            let row = client
                .query_opt(&statement, &[&tree.name(), key])
                .await
                .map_err(fail)?;
            let stored = row.map(|r| (r.get::<_, Vec<u8>>(0), uint(r.get(1))));
            let same = match (&stored, wanted) {
                (None, None) => true,
                (Some((bytes, rev)), Some((value, revision))) => bytes == value && *rev == revision,
                _ => false,
            };
            if !same {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// One change of a batch, on a connection or inside a transaction; how many rows it changed.
async fn run_op<C: GenericClient>(client: &C, op: &Op) -> Result<u64, Fail> {
    let (sql, must_change): (&str, bool) = match op {
        Op::Put {
            expect, revision, ..
        } => match (expect, revision) {
            (Expect::Any, None) => (
                "INSERT INTO toguz_records (tree, key, value, revision) VALUES ($1, $2, $3, 1) \
                 ON CONFLICT (tree, key) DO UPDATE SET value = excluded.value, \
                 revision = toguz_records.revision + 1",
                false,
            ),
            (Expect::Any, Some(_)) => (
                "INSERT INTO toguz_records (tree, key, value, revision) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (tree, key) DO UPDATE SET value = excluded.value, \
                 revision = excluded.revision",
                false,
            ),
            (Expect::Absent, _) => (
                "INSERT INTO toguz_records (tree, key, value, revision) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (tree, key) DO NOTHING",
                true,
            ),
            (Expect::Revision(_), _) => (
                "UPDATE toguz_records SET value = $3, revision = $4 \
                 WHERE tree = $1 AND key = $2 AND revision = $5",
                true,
            ),
        },
        Op::Delete { expect, .. } => match expect {
            Expect::Revision(_) => (
                "DELETE FROM toguz_records WHERE tree = $1 AND key = $2 AND revision = $3",
                true,
            ),
            Expect::Any | Expect::Absent => (
                "DELETE FROM toguz_records WHERE tree = $1 AND key = $2",
                false,
            ),
        },
        Op::Expire { .. } => (
            "UPDATE toguz_records SET expires_at = $3 WHERE tree = $1 AND key = $2",
            false,
        ),
        // sled's own index bookkeeping: PostgreSQL's expiry is a column.
        Op::DropExpiryEntry(_) => return Ok(0),
    };
    let statement = client.prepare_cached(sql).await.map_err(fail)?;
    let changed = match op {
        Op::Put {
            tree,
            key,
            value,
            expect,
            revision,
        } => {
            let rev = int(revision.unwrap_or(1));
            let name = tree.name();
            match expect {
                Expect::Revision(was) => {
                    let was = int(*was);
                    let params: [&(dyn ToSql + Sync); 5] = [&name, key, value, &rev, &was];
                    client.execute(&statement, &params).await
                }
                _ if revision.is_none() => {
                    let params: [&(dyn ToSql + Sync); 3] = [&name, key, value];
                    client.execute(&statement, &params).await
                }
                _ => {
                    let params: [&(dyn ToSql + Sync); 4] = [&name, key, value, &rev];
                    client.execute(&statement, &params).await
                }
            }
        }
        Op::Delete { tree, key, expect } => {
            let name = tree.name();
            match expect {
                Expect::Revision(was) => {
                    let was = int(*was);
                    client.execute(&statement, &[&name, key, &was]).await
                }
                Expect::Absent => {
                    let n = client.execute(&statement, &[&name, key]).await;
                    return match n {
                        Ok(0) => Ok(0),
                        Ok(_) => Err(conflict(*tree, key)),
                        Err(e) => Err(fail(e)),
                    };
                }
                Expect::Any => client.execute(&statement, &[&name, key]).await,
            }
        }
        Op::Expire { tree, key, at } => {
            let at = int(*at);
            client.execute(&statement, &[&tree.name(), key, &at]).await
        }
        Op::DropExpiryEntry(_) => Ok(1),
    }
    .map_err(fail)?;
    if must_change && changed == 0 {
        let (tree, key) = match op {
            Op::Put { tree, key, .. } | Op::Delete { tree, key, .. } => (*tree, key.as_str()),
            _ => (Tree::Meta, ""),
        };
        return Err(conflict(tree, key));
    }
    Ok(changed)
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A short, growing, jittered pause between attempts (20 ms, 40 ms, ... at most 640 ms).
async fn backoff(attempt: u32) {
    let base = 20u64 << attempt.min(5);
    let jitter = rand::random::<u64>() % (base / 2 + 1);
    tokio::time::sleep(Duration::from_millis(base / 2 + jitter)).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_redacted() {
        let url = "postgres://toguz:s3cr3t-pw@db.example:5432/toguz?sslmode=disable";
        let shown = redact(url);
        assert!(!shown.contains("s3cr3t-pw"), "{shown}");
        assert!(shown.contains("toguz:***@db.example"), "{shown}");
        let query = redact("postgres://db/toguz?user=a&password=s3cr3t-pw");
        assert!(!query.contains("s3cr3t-pw"), "{query}");
        let conninfo = redact("host=db user=toguz password=s3cr3t-pw dbname=toguz");
        assert_eq!(conninfo, "host=db user=toguz password=*** dbname=toguz");
        let options = PostgresOptions::new(url);
        assert!(!format!("{options:?}").contains("s3cr3t-pw"));
    }

    #[tokio::test]
    async fn a_failed_connection_does_not_show_the_password() {
        // A port nobody listens on: the connection is refused at once.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
        let port = listener.local_addr().expect("an address").port();
        drop(listener);
        let mut options = PostgresOptions::new(&format!(
            "postgres://toguz:s3cr3t-pw@127.0.0.1:{port}/toguz"
        ));
        options.connect_timeout = Duration::from_millis(500);
        let store = StoreOptions {
            commit_timeout: Duration::from_millis(1000),
            ..StoreOptions::default()
        };
        let error = match PgStore::connect(&options, &store).await {
            Ok(_) => panic!("nothing listens on port {port}"),
            Err(error) => format!("{error} {error:?}"),
        };
        assert!(!error.contains("s3cr3t-pw"), "{error}");
        assert!(error.contains("127.0.0.1"), "{error}");
    }
}
