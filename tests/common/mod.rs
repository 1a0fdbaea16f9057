//! Helpers shared by the manager-level test binaries (`manager_flows`, `store_flows`), and
//! the two backends they run on ([`Backend`], [`on_both_backends!`]).

pub mod pg;

use std::path::Path;
use std::time::Duration;
use toguz::manager::{
    Action, ActionError, ChatRef, GameView, Manager, Platform, Reply, Request, UserRef,
};
use toguz::rules::Variant;
use toguz::store::{Location, PostgresOptions, Store, StoreOptions};
use toguz::timecontrol::TimeControl;

/// The tests' manual clock starts here (unix seconds).
pub const T0: u64 = 1_800_000_000;

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
#[allow(dead_code)]
pub fn rated_challenge(opponent: &UserRef, time: Option<TimeControl>) -> Action {
    Action::Challenge {
        opponent: Some(opponent.clone()),
        variant: Variant::STANDARD,
        rated: true,
        time,
    }
}

#[allow(dead_code)]
pub fn challenge_id(reply: Result<Reply, ActionError>) -> String {
    match reply {
        Ok(Reply::Challenge(c)) => c.id,
        other => panic!("expected a challenge, got {other:?}"),
    }
}

/// Opens a store, waiting for the previous handle's flusher to let go of sled's lock.
#[allow(dead_code)]
pub async fn reopen(dir: &Path) -> Store {
    for _ in 0..100 {
        if let Ok(store) = Store::open(dir) {
            return store;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the store did not reopen");
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
            use super::common::Backend;
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
            use super::common::Backend;
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
