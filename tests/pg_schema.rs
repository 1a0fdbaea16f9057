//! The PostgreSQL schema at start-up (issue 31, item 9): migrations run without the
//! statement timeout, one process at a time, build indexes while writers go on, and an
//! older toguz meeting a newer schema runs when the newer migrations were additive and
//! refuses, saying why, when they were not.
//! Each test is skipped, saying so, without PostgreSQL (see `toguz::testing::pg`).

use std::time::{Duration, Instant};
use toguz::store::{Location, PostgresOptions, Store, StoreOptions};
use toguz::testing::pg;

async fn open(options: &PostgresOptions) -> Result<Store, toguz::store::StoreError> {
    Store::open_at(
        &Location::Postgres(options.clone()),
        &StoreOptions::default(),
    )
    .await
}

mod embedded {
    refinery::embed_migrations!("migrations/postgres");
}

/// A plain connection to the test's schema, for looking and meddling.
async fn client(options: &PostgresOptions) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(&options.url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(connection);
    client
}

async fn versions(client: &tokio_postgres::Client) -> Vec<i32> {
    client
        .query(
            "SELECT version FROM refinery_schema_history ORDER BY version",
            &[],
        )
        .await
        .expect("history")
        .iter()
        .map(|r| r.get(0))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn processes_starting_together_migrate_one_at_a_time() {
    let Some(options) = pg::fresh().await else {
        return;
    };
    let look = client(&options).await;
    look.batch_execute(
        "CREATE TABLE toguz_migration_lock (id INT PRIMARY KEY);
         INSERT INTO toguz_migration_lock (id) VALUES (1);",
    )
    .await
    .expect("lock table");
    // Another process is migrating: it holds the lock.
    let mut other = client(&options).await;
    let held = other.transaction().await.expect("begin");
    held.query(
        "SELECT id FROM toguz_migration_lock WHERE id = 1 FOR UPDATE",
        &[],
    )
    .await
    .expect("lock");
    let starting: Vec<_> = (0..3)
        .map(|_| {
            let options = options.clone();
            tokio::spawn(async move { open(&options).await.map(|_| ()) })
        })
        .collect();
    // They wait for it rather than migrate beside it: nothing is applied meanwhile.
    tokio::time::sleep(Duration::from_millis(600)).await;
    let exists: bool = look
        .query_one(
            "SELECT to_regclass('refinery_schema_history') IS NOT NULL",
            &[],
        )
        .await
        .expect("query")
        .get(0);
    assert!(!exists, "a process migrated while another held the lock");
    held.commit().await.expect("release");
    for start in starting {
        start.await.expect("task").expect("opened");
    }
    assert_eq!(versions(&look).await, [1, 2, 3, 4]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn migrations_run_without_the_statement_timeout() {
    let Some(mut options) = pg::fresh().await else {
        return;
    };
    options.statement_timeout = Duration::from_millis(200);
    let mut look = client(&options).await;
    look.batch_execute(
        "CREATE TABLE refinery_schema_history (version INT4 PRIMARY KEY, name VARCHAR(255), \
         applied_on VARCHAR(255), checksum VARCHAR(255))",
    )
    .await
    .expect("history table");
    // Something holds the schema's history for 5 s (a long migration elsewhere, a backup):
    // the game's 200 ms statement limit must not cut the migration off while it waits.
    let lock = look.transaction().await.expect("begin");
    lock.batch_execute("LOCK TABLE refinery_schema_history IN ACCESS EXCLUSIVE MODE")
        .await
        .expect("lock");
    let started = Instant::now();
    let opening = tokio::spawn({
        let options = options.clone();
        async move { open(&options).await.map(|_| ()) }
    });
    tokio::time::sleep(Duration::from_secs(5)).await;
    lock.commit().await.expect("release");
    opening.await.expect("task").expect("opened after the wait");
    assert!(started.elapsed() >= Duration::from_secs(5));
    assert_eq!(versions(&look).await, [1, 2, 3, 4]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_toguz_runs_on_additive_changes_and_refuses_others_saying_why() {
    let Some(options) = pg::fresh().await else {
        return;
    };
    open(&options).await.expect("a fresh database");
    let look = client(&options).await;
    // A newer toguz added migration 99, an additive one.
    look.batch_execute(
        "INSERT INTO refinery_schema_history (version, name, applied_on, checksum) \
         VALUES (99, 'future', '2027-01-01T00:00:00Z', '1')",
    )
    .await
    .expect("a newer migration");
    open(&options)
        .await
        .expect("additive changes leave older binaries running");
    // Then one older binaries cannot live with.
    look.batch_execute("UPDATE toguz_schema SET value = 99 WHERE name = 'oldest_reader'")
        .await
        .expect("a breaking migration");
    let refused = open(&options).await.err().expect("refused").to_string();
    assert!(
        refused.contains("version 99") && refused.contains("upgrade toguz"),
        "{refused}"
    );
}

/// A connection to a database brought to schema 1 only, as an older toguz left it.
async fn at_schema_1(options: &PostgresOptions) -> tokio_postgres::Client {
    let mut look = client(options).await;
    embedded::migrations::runner()
        .set_target(refinery::Target::Version(1))
        .run_async(&mut look)
        .await
        .expect("schema 1");
    look
}

/// Whether the index `name` exists and is valid (usable by queries).
async fn index_valid(client: &tokio_postgres::Client, name: &str) -> Option<bool> {
    client
        .query_opt(
            "SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid \
             WHERE c.relname = $1 AND pg_table_is_visible(c.oid)",
            &[&name],
        )
        .await
        .expect("pg_index")
        .map(|row| row.get(0))
}

/// Issue 31, item 9: a newer toguz building an index on a database in use holds off no
/// other process's writes. Before, migration 2 ran as written (`CREATE INDEX` in a
/// transaction): it waited for a write in progress, and every later write queued behind it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_index_is_built_while_other_processes_go_on_writing() {
    let Some(options) = pg::fresh().await else {
        return;
    };
    // The database as a toguz of schema 1 left it, with games in it.
    let look = at_schema_1(&options).await;
    look.batch_execute(
        "INSERT INTO toguz_records (tree, key, value, revision) \
         SELECT 'games', 'g' || n, '\\x00', 1 FROM generate_series(1, 20000) n",
    )
    .await
    .expect("games");
    // A process of the older toguz is in the middle of a write.
    let mut writer = client(&options).await;
    let slow = writer.transaction().await.expect("begin");
    slow.batch_execute(
        "INSERT INTO toguz_records (tree, key, value, revision) VALUES ('games', 'slow', '\\x00', 1)",
    )
    .await
    .expect("slow write");
    let opening = tokio::spawn({
        let options = options.clone();
        async move { open(&options).await.map(|_| ()) }
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    // Another process writes meanwhile, and is not held off.
    let other = client(&options).await;
    let wrote = tokio::time::timeout(
        Duration::from_secs(3),
        other.batch_execute(
            "UPDATE toguz_records SET revision = 2 WHERE tree = 'games' AND key = 'g7'; \
             INSERT INTO toguz_records (tree, key, value, revision) VALUES ('games', 'new', '\\x00', 1)",
        ),
    )
    .await;
    assert!(
        matches!(wrote, Ok(Ok(()))),
        "a write was held off by the migration: {wrote:?}"
    );
    // The build waits for the write that was in progress when it began, and ends after it.
    assert!(
        !opening.is_finished(),
        "the index was built around a write in progress"
    );
    slow.commit().await.expect("slow write done");
    tokio::time::timeout(Duration::from_secs(30), opening)
        .await
        .expect("migrated once the slow write was done")
        .expect("task")
        .expect("opened");
    assert_eq!(versions(&look).await, [1, 2, 3, 4]);
    assert_eq!(
        index_valid(&look, "toguz_records_key_bytes").await,
        Some(true)
    );
}

/// Issue 31, item 9: a concurrent build cut off halfway leaves an invalid index; the next
/// start drops it and builds it anew instead of taking it for done.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_index_build_cut_off_halfway_is_built_anew() {
    let Some(options) = pg::fresh().await else {
        return;
    };
    let look = at_schema_1(&options).await;
    look.batch_execute(
        "INSERT INTO toguz_records (tree, key, value, revision) VALUES \
         ('games', 'a', '\\x00', 1), ('games', 'b', '\\x00', 1)",
    )
    .await
    .expect("games");
    // A failed concurrent build leaves its index behind, invalid.
    let failed = look
        .batch_execute(
            "CREATE UNIQUE INDEX CONCURRENTLY toguz_records_key_bytes ON toguz_records (tree)",
        )
        .await;
    assert!(failed.is_err());
    assert_eq!(
        index_valid(&look, "toguz_records_key_bytes").await,
        Some(false)
    );
    open(&options).await.expect("opened");
    assert_eq!(versions(&look).await, [1, 2, 3, 4]);
    assert_eq!(
        index_valid(&look, "toguz_records_key_bytes").await,
        Some(true)
    );
    let unique: bool = look
        .query_one(
            "SELECT i.indisunique FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid \
             WHERE c.relname = 'toguz_records_key_bytes' AND pg_table_is_visible(c.oid)",
            &[],
        )
        .await
        .expect("pg_index")
        .get(0);
    assert!(
        !unique,
        "the index is the migration's, not the one left behind"
    );
}

/// Issue 31, item 12: a database whose leaderboard rows were written before the band counts
/// gets them counted by its migration to schema 4 (and an older toguz may no longer write
/// to it, as it would not count): every place read from the counts is the place a count of
/// the rows above gives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_rows_of_an_older_schema_are_counted_by_band() {
    use toguz::ratings::keys::{board_key, board_prefix};
    use toguz::store::{KeyRange, Tree};
    let Some(options) = pg::fresh().await else {
        return;
    };
    let mut look = client(&options).await;
    embedded::migrations::runner()
        .set_target(refinery::Target::Version(3))
        .run_async(&mut look)
        .await
        .expect("schema 3");
    let boards = ["telegram:-100", "discord%blitz", "console"];
    let mut keys = Vec::new();
    for user in 0..300u32 {
        let board = boards[user as usize % 3];
        let rating = 1200.0 + f64::from(user * 37 % 900) + f64::from(user % 10) / 10.0;
        // A console player's name may be any text, after the last `|`.
        keys.push(board_key(board, rating, &format!("console:Әсем|{user}")));
    }
    for key in &keys {
        look.execute(
            "INSERT INTO toguz_records (tree, key, value, revision) \
             VALUES ('ratings.board', $1, '\\x00', 1)",
            &[key],
        )
        .await
        .expect("a row");
    }
    let store = open(&options).await.expect("migrated to schema 4");
    assert_eq!(versions(&look).await, [1, 2, 3, 4]);
    let oldest: i64 = look
        .query_one(
            "SELECT value FROM toguz_schema WHERE name = 'oldest_reader'",
            &[],
        )
        .await
        .expect("oldest_reader")
        .get(0);
    assert_eq!(oldest, 4);
    for board in boards {
        let prefix = board_prefix(board);
        let mine: Vec<&String> = keys.iter().filter(|k| k.starts_with(&prefix)).collect();
        assert_eq!(mine.len(), 100);
        for key in mine.into_iter().chain([&board_key(board, 0.0, "last")]) {
            let fast = store.count_before(Tree::Leaderboard, &prefix, key).await;
            let range = KeyRange {
                prefix: &prefix,
                after: None,
                before: Some(key),
            };
            let slow = store.count_range(Tree::Leaderboard, range).await;
            assert_eq!(fast.expect("counts"), slow.expect("rows"), "{key}");
        }
    }
}
