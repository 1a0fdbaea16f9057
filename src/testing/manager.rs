//! Helpers shared by the manager-level test binaries (`manager_flows`, `store_flows`,
//! `clock_flows`, ...), the two backends they run on ([`Backend`],
//! [`on_both_backends!`](crate::on_both_backends)), and a restart aid for the bots' tests
//! ([`write_heartbeat_offline`]).

use super::pg;
use crate::manager::{Action, ActionError, GameView, Manager, Reply, Request, HEARTBEAT_KEY};
use crate::model::{ChatRef, Platform, TimeControl, UserRef};
use crate::rules::Variant;
use crate::store::{Location, PostgresOptions, Store, StoreError, StoreOptions, Tree};
use std::path::Path;
use std::time::Duration;

/// The tests' manual clock starts here (unix seconds).
pub const T0: u64 = 1_800_000_000;

/// The default settings, but with provisional players on the leaderboards (tests play a
/// game or two per player; `limits.provisional_on_leaderboards`).
pub fn test_config() -> crate::manager::ManagerConfig {
    let mut config = crate::manager::ManagerConfig::default();
    config.limits.provisional_on_leaderboards = true;
    config
}

pub fn user(id: &str) -> UserRef {
    UserRef::new(Platform::Telegram, id, format!("User {id}"))
}

pub fn chat() -> ChatRef {
    ChatRef::new(Platform::Telegram, "-100")
}

pub async fn act(m: &Manager, who: &UserRef, action: Action) -> Result<Reply, ActionError> {
    m.act(Request {
        actor: who.clone(),
        chat: chat(),
        action,
    })
    .await
}

pub fn game(reply: Result<Reply, ActionError>) -> GameView {
    match reply {
        Ok(Reply::Game(v)) => v,
        other => panic!("expected a game, got {other:?}"),
    }
}

/// A rated challenge of `opponent` in the standard variant, at `time` (`None`: the chat's
/// default control).
pub fn rated_challenge(opponent: &UserRef, time: Option<TimeControl>) -> Action {
    Action::Challenge {
        opponent: Some(opponent.clone()),
        variant: Variant::STANDARD,
        rated: true,
        time,
    }
}

pub fn challenge_id(reply: Result<Reply, ActionError>) -> String {
    match reply {
        Ok(Reply::Challenge(c)) => c.id,
        other => panic!("expected a challenge, got {other:?}"),
    }
}

/// Opens a store, waiting for the previous handle's flusher to let go of sled's lock.
pub async fn reopen(dir: &Path) -> Store {
    for _ in 0..100 {
        if let Ok(store) = Store::open(dir) {
            return store;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the store did not reopen");
}

/// Writes the "last known alive" time into the sled store in `dir` of a stopped bot, and
/// closes the store before returning (tests of restarts set up a flag that fell before a
/// crash with it). It runs on a thread and runtime of its own, ended before it returns: the
/// store's flusher task holds the database, and its file lock, until its runtime ends.
pub fn write_heartbeat_offline(dir: &Path, alive_ms: u64) -> Result<(), StoreError> {
    let dir = dir.to_path_buf();
    let write = move || -> Result<(), StoreError> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(StoreError::Io)?;
        rt.block_on(async {
            let store = Store::open(&dir)?;
            store.put(Tree::Meta, HEARTBEAT_KEY, &alive_ms).await?;
            store.flush()
        })
    };
    std::thread::spawn(write)
        .join()
        .unwrap_or(Err(StoreError::Closed))
}

/// Where a test's store lives: sled (a directory, or a temporary store) or a fresh schema of
/// the test PostgreSQL server. `open` opens it again (a restart).
pub enum Backend {
    Sled(tempfile::TempDir),
    Postgres(PostgresOptions),
}

impl Backend {
    pub fn sled() -> Backend {
        Backend::Sled(tempfile::tempdir().expect("a temporary directory"))
    }

    /// A fresh schema; `None` when the PostgreSQL tests are skipped (see `pg::server`).
    pub async fn postgres() -> Option<Backend> {
        pg::fresh().await.map(Backend::Postgres)
    }

    /// Opens the store (again), with default options.
    pub async fn open(&self) -> Store {
        self.open_with(&StoreOptions::default()).await
    }

    pub async fn open_with(&self, options: &StoreOptions) -> Store {
        match self {
            Backend::Sled(dir) => {
                for _ in 0..100 {
                    if let Ok(store) = Store::open_with(dir.path(), options) {
                        return store;
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                panic!("the store did not reopen");
            }
            Backend::Postgres(pg) => Store::open_at(&Location::Postgres(pg.clone()), options)
                .await
                .expect("open the PostgreSQL store"),
        }
    }
}

/// Runs each listed `async fn name(backend: Backend)` as two tests, `on_sled::name` and
/// `on_postgres::name` (skipped, saying so, without PostgreSQL). `multi` ones run on a
/// two-thread runtime.
#[macro_export]
macro_rules! on_both_backends {
    (single: [$($s:ident),* $(,)?], multi: [$($m:ident),* $(,)?] $(,)?) => {
        mod on_sled {
            use $crate::testing::manager::Backend;
            $(#[tokio::test]
            async fn $s() {
                super::$s(Backend::sled()).await
            })*
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $m() {
                super::$m(Backend::sled()).await
            })*
        }
        mod on_postgres {
            use $crate::testing::manager::Backend;
            $(#[tokio::test]
            async fn $s() {
                if let Some(backend) = Backend::postgres().await {
                    super::$s(backend).await
                }
            })*
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $m() {
                if let Some(backend) = Backend::postgres().await {
                    super::$m(backend).await
                }
            })*
        }
    };
}
