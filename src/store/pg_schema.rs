//! The PostgreSQL schema at start-up (issue 31, item 9): refinery's versioned migrations
//! (`migrations/postgres/`), run so that several processes and several versions of toguz
//! can share one database.
//!
//! - Without the statement timeout: the pool's connections cancel any statement after
//!   `statement_timeout` (a guard for the game's reads and writes); a migration on a large
//!   table may take longer, so it runs on connections of its own with no timeout.
//! - Once: processes starting together queue on a row lock (`toguz_migration_lock`, `SELECT
//!   ... FOR UPDATE`; not an advisory lock, which CockroachDB lacks). The first migrates; the
//!   others then find nothing left to apply.
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
    let mut locker = connect(config).await?;
    locker
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS toguz_migration_lock (id INT PRIMARY KEY);
             INSERT INTO toguz_migration_lock (id) VALUES (1) ON CONFLICT (id) DO NOTHING;",
        )
        .await?;
    let lock = locker.transaction().await?;
    // Held until the migration is done: another process starting now waits here.
    lock.query(
        "SELECT id FROM toguz_migration_lock WHERE id = 1 FOR UPDATE",
        &[],
    )
    .await?;
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
        embedded::migrations::runner()
            .run_async(&mut runner)
            .await
            .map_err(|e| Failed::Again(e.to_string()))?
            .applied_migrations()
            .len()
    };
    lock.commit().await?;
    Ok(applied)
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
