//! The PostgreSQL schema at start-up (issue 31, item 9): refinery's versioned migrations
//! (`migrations/postgres/`), run so that several processes and several versions of toguz
//! can share one database.
//!
//! - Without the statement timeout: the pool's connections cancel any statement after
//!   `statement_timeout` (a guard for the game's reads and writes); a migration on a large
//!   table may take longer, so it runs on connections of its own with no timeout.
//! - Once: processes starting together take turns on a row lock (`toguz_migration_lock`,
//!   `SELECT ... FOR UPDATE NOWAIT`; not an advisory lock, which CockroachDB lacks). The first
//!   migrates; the others then find nothing left to apply. A process that finds the lock
//!   taken gives up its transaction and asks again a moment later, rather than wait inside
//!   the statement: a waiting statement holds a snapshot, and a concurrent index build
//!   waits for every older snapshot, so the two would wait for each other for ever.
//! - Indexes without blocking writers: a migration that builds an index on the records
//!   table (`CONCURRENT_INDEXES`) is not run as written (`CREATE INDEX` in a transaction
//!   holds off every write to the table until the index is built, minutes on a large
//!   database). The index is built `CONCURRENTLY`, outside any transaction, and the
//!   migration is then recorded as applied without running its SQL (refinery's fake
//!   target). A build cut off halfway leaves an invalid index, dropped and built anew.
//! - Newer schemas: an older binary meeting a schema it does not know runs if every newer
//!   migration was additive, and refuses otherwise, saying why. `toguz_schema.oldest_reader`
//!   (migration V3) is the oldest schema version a binary may know and still use the
//!   database: an additive migration leaves it, one older binaries cannot live with raises it
//!   to its own version.

use super::redact::redact;
use super::StoreError;
use std::time::Duration;
use tokio_postgres::{Client, Config, NoTls};

mod embedded {
    refinery::embed_migrations!("migrations/postgres");
}

/// Attempts of the whole migration: a connection lost or two processes creating the lock
/// table at the same moment fail one attempt, the next finds the table.
const ATTEMPTS: u32 = 8;

/// A migration that builds one index on the records table, and how to build it concurrently.
struct ConcurrentIndex {
    /// The migration's version.
    version: i32,
    name: &'static str,
    /// What follows `CREATE INDEX CONCURRENTLY IF NOT EXISTS <name>`, as in the migration.
    on: &'static str,
}

/// The migrations whose index is built concurrently, oldest first (their files keep the
/// plain `CREATE INDEX IF NOT EXISTS`, which names the index and documents it).
const CONCURRENT_INDEXES: &[ConcurrentIndex] = &[ConcurrentIndex {
    version: 2,
    name: "toguz_records_key_bytes",
    on: r#"ON toguz_records (tree, key COLLATE "C")"#,
}];

/// How long a process waits between asking for the migration lock.
const LOCK_POLL: Duration = Duration::from_millis(200);

/// The newest schema version this binary knows (its newest embedded migration).
pub(super) fn latest() -> i64 {
    embedded::migrations::runner()
        .get_migrations()
        .iter()
        .map(|m| i64::from(m.version()))
        .max()
        .unwrap_or(0)
}

/// Brings the database's schema to this binary's version, or checks that a newer schema
/// still serves it. The number of migrations applied by this call.
pub(super) async fn migrate(config: &Config) -> Result<usize, StoreError> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        match migrate_once(config).await {
            Ok(applied) => {
                if applied > 0 {
                    tracing::info!(applied, "database schema migrated");
                }
                return Ok(applied);
            }
            Err(Failed::Refused(error)) => return Err(error),
            Err(Failed::Again(reason)) if attempt < ATTEMPTS => {
                tracing::warn!(
                    attempt,
                    reason = redact(&reason),
                    "migration failed; retrying"
                );
                let ms = 50u64 << attempt.min(5);
                tokio::time::sleep(Duration::from_millis(ms)).await;
            }
            Err(Failed::Again(reason)) => return Err(StoreError::Migrate(redact(&reason))),
        }
    }
}

/// Why one attempt did not finish.
enum Failed {
    /// For good: the schema is too new for this binary.
    Refused(StoreError),
    /// Worth another attempt (a lost connection, a race on creating the lock table).
    Again(String),
}

impl From<tokio_postgres::Error> for Failed {
    fn from(error: tokio_postgres::Error) -> Failed {
        Failed::Again(error.to_string())
    }
}

async fn migrate_once(config: &Config) -> Result<usize, Failed> {
    let mut runner = connect(config).await?;
    let locker = connect(config).await?;
    locker
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS toguz_migration_lock (id INT PRIMARY KEY);
             INSERT INTO toguz_migration_lock (id) VALUES (1) ON CONFLICT (id) DO NOTHING;",
        )
        .await?;
    // Held until the migration is done: another process starting now waits for it.
    take_lock(&locker).await?;
    let found = Found::read(&runner).await?;
    let applied = if found.newest > latest() {
        found.check_serves(latest()).map_err(Failed::Refused)?;
        tracing::warn!(
            schema = found.newest,
            known = latest(),
            "the database schema is newer than this toguz; its newer changes are additive, so it runs"
        );
        0
    } else {
        apply(&mut runner, found.newest).await?
    };
    locker.batch_execute("COMMIT").await?;
    Ok(applied)
}

/// Takes the migration lock on `locker`'s connection, in a transaction left open (the
/// caller commits it when done; a lost connection gives it up), asking again while another
/// process holds it. Between asks this process holds no transaction, so it holds up
/// nobody's concurrent index build.
async fn take_lock(locker: &Client) -> Result<(), Failed> {
    let mut asked = 0u32;
    loop {
        locker.batch_execute("BEGIN").await?;
        let result = locker
            .batch_execute("SELECT id FROM toguz_migration_lock WHERE id = 1 FOR UPDATE NOWAIT")
            .await;
        match result {
            Ok(()) => return Ok(()),
            Err(error) if is_lock_not_available(&error) => {
                locker.batch_execute("ROLLBACK").await?;
            }
            Err(error) => return Err(error.into()),
        }
        asked += 1;
        if asked % 50 == 0 {
            tracing::info!(asked, "another process is migrating the database; waiting");
        }
        tokio::time::sleep(LOCK_POLL).await;
    }
}

fn is_lock_not_available(error: &tokio_postgres::Error) -> bool {
    error.code() == Some(&tokio_postgres::error::SqlState::LOCK_NOT_AVAILABLE)
}

/// Applies the migrations after `newest`: up to each concurrent index build as written,
/// the build concurrently, its migration recorded; then the rest. Returns how many.
async fn apply(runner: &mut Client, newest: i64) -> Result<usize, Failed> {
    use refinery::Target;
    let mut applied = 0;
    for index in CONCURRENT_INDEXES
        .iter()
        .filter(|i| i64::from(i.version) > newest)
    {
        applied += run(runner, Target::Version(index.version - 1)).await?;
        build_concurrently(runner, index).await?;
        run(runner, Target::FakeVersion(index.version)).await?;
        applied += 1;
    }
    Ok(applied + run(runner, Target::Latest).await?)
}

async fn run(runner: &mut Client, target: refinery::Target) -> Result<usize, Failed> {
    Ok(embedded::migrations::runner()
        .set_target(target)
        .run_async(runner)
        .await
        .map_err(|e| Failed::Again(e.to_string()))?
        .applied_migrations()
        .len())
}

/// Builds `index` without holding off writers. A build cut off halfway (a lost connection,
/// a killed process) leaves an invalid index of that name, which `IF NOT EXISTS` would
/// take for done: it is dropped first.
async fn build_concurrently(runner: &Client, index: &ConcurrentIndex) -> Result<(), Failed> {
    let invalid = runner
        .query_opt(
            "SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid \
             WHERE c.relname = $1 AND pg_table_is_visible(c.oid) AND NOT i.indisvalid",
            &[&index.name],
        )
        .await?
        .is_some();
    if invalid {
        tracing::warn!(index = index.name, "an index build was cut off; built anew");
        runner
            .batch_execute(&format!("DROP INDEX CONCURRENTLY IF EXISTS {}", index.name))
            .await?;
    }
    tracing::info!(
        index = index.name,
        "building an index; writes go on meanwhile"
    );
    runner
        .batch_execute(&format!(
            "CREATE INDEX CONCURRENTLY IF NOT EXISTS {} {}",
            index.name, index.on
        ))
        .await?;
    Ok(())
}

/// A connection of its own for the migration, without the pool's statement timeout.
async fn connect(config: &Config) -> Result<Client, Failed> {
    let (client, connection) = config.connect(NoTls).await?;
    tokio::spawn(async move {
        if let Err(error) = connection.await {
            tracing::debug!(%error, "migration connection closed");
        }
    });
    client.batch_execute("SET statement_timeout = 0").await?;
    Ok(client)
}

/// What the database says about its schema.
struct Found {
    /// The newest migration applied (0 on an empty database).
    newest: i64,
    /// `toguz_schema.oldest_reader`, when the table exists.
    oldest_reader: Option<i64>,
}

impl Found {
    async fn read(client: &Client) -> Result<Found, tokio_postgres::Error> {
        let exists = |table: &'static str| async move {
            let row = client
                .query_one("SELECT to_regclass($1) IS NOT NULL", &[&table])
                .await?;
            row.try_get::<_, bool>(0)
        };
        let newest = if exists("refinery_schema_history").await? {
            let row = client
                .query_one(
                    "SELECT COALESCE(MAX(version), 0)::BIGINT FROM refinery_schema_history",
                    &[],
                )
                .await?;
            row.try_get(0)?
        } else {
            0
        };
        let oldest_reader = if exists("toguz_schema").await? {
            let row = client
                .query_opt(
                    "SELECT value FROM toguz_schema WHERE name = 'oldest_reader'",
                    &[],
                )
                .await?;
            row.map(|r| r.try_get(0)).transpose()?
        } else {
            None
        };
        Ok(Found {
            newest,
            oldest_reader,
        })
    }

    /// Whether a binary that knows schema versions up to `known` may use this database.
    fn check_serves(&self, known: i64) -> Result<(), StoreError> {
        // A database without the table was made before V3: only versions known to all.
        let needs = self.oldest_reader.unwrap_or(self.newest);
        if needs <= known {
            Ok(())
        } else {
            Err(StoreError::SchemaTooNew {
                found: self.newest,
                known,
                needs,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_newer_schema_serves_only_binaries_it_allows() {
        let additive = Found {
            newest: 7,
            oldest_reader: Some(3),
        };
        assert!(additive.check_serves(3).is_ok());
        assert!(additive.check_serves(6).is_ok());
        let breaking = Found {
            newest: 7,
            oldest_reader: Some(7),
        };
        let refused = breaking.check_serves(6).expect_err("refused");
        let text = refused.to_string();
        assert!(
            text.contains("version 7") && text.contains("upgrade toguz"),
            "{text}"
        );
        let unmarked = Found {
            newest: 4,
            oldest_reader: None,
        };
        assert!(unmarked.check_serves(3).is_err());
    }

    #[test]
    fn this_binary_knows_its_migrations() {
        assert!(latest() >= 3);
    }
}
