//! The Telegram adapter run in the test's own process (the real teloxide client against the
//! fake), on a manager with a manual clock: for flows that wait on the manager's time (a
//! tournament's start and end), which a test moves on with `clock.advance` instead of
//! waiting for it. Everything else is as `toguz run` does it: `platform::telegram::serve`
//! with the same settings `BotProcess` writes, the shipped flood limits included (and the
//! fake's: a test lifts both only with a reason, `start_lifted`).

use super::bot::TOKEN;
use super::FakeTelegram;
use crate::engine::{EngineConfig, EnginePool};
use crate::manager::ManagerConfig;
use crate::manager::{Clock, Manager};
use crate::platform::telegram::TelegramConfig;
use crate::secret::Secret;
use crate::testing::manager::{test_config, T0};
use crate::testing::Lifted;
use std::future::Future;
use std::path::Path;

/// The adapter serving the fake, on its own runtime and threads (so that a plain `#[test]`
/// may block on the fake's waits). Stopped when dropped.
pub struct InProcessBot {
    pub manager: Manager,
    /// The manager's manual clock, at `T0` to begin with.
    pub clock: Clock,
    runtime: Option<tokio::runtime::Runtime>,
    /// The store's directory when the bot made it (`start`); `None` when the test owns it.
    _dir: Option<tempfile::TempDir>,
}

impl InProcessBot {
    /// Starts the manager on a fresh store and the adapter against `fake`.
    pub fn start(fake: &FakeTelegram) -> InProcessBot {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut bot = InProcessBot::start_with(fake, test_config(), dir.path());
        bot._dir = Some(dir);
        bot
    }

    /// `start` with the flood limits lifted, the adapter's and the fake's, for the reason
    /// `lifted` gives.
    pub fn start_lifted(fake: &FakeTelegram, lifted: Lifted) -> InProcessBot {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut bot = InProcessBot::launch(fake, test_config(), dir.path(), Some(lifted));
        bot._dir = Some(dir);
        bot
    }

    /// Starts the manager on `config` (e.g. `test_config()` with a small puzzle collection)
    /// with its store under `data`, which the test owns: dropping this bot and starting
    /// another on the same `data` is a restart.
    pub fn start_with(fake: &FakeTelegram, config: ManagerConfig, data: &Path) -> InProcessBot {
        InProcessBot::launch(fake, config, data, None)
    }

    /// `start_with` with the flood limits lifted, the adapter's and the fake's, for the
    /// reason `lifted` gives.
    pub fn start_with_lifted(
        fake: &FakeTelegram,
        config: ManagerConfig,
        data: &Path,
        lifted: Lifted,
    ) -> InProcessBot {
        InProcessBot::launch(fake, config, data, Some(lifted))
    }

    fn launch(
        fake: &FakeTelegram,
        config: ManagerConfig,
        data: &Path,
        lifted: Option<Lifted>,
    ) -> InProcessBot {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let clock = Clock::manual(T0);
        let manager = runtime.block_on(async {
            // A stopped bot's store may take a moment to let go of its file lock.
            let store = crate::testing::manager::reopen(&data.join("db")).await;
            let engine = EnginePool::new(EngineConfig::default());
            Manager::start_with_clock(store, engine, config, clock.clone())
                .await
                .expect("manager")
        });
        let mut config = TelegramConfig {
            enabled: true,
            token: Secret::new(TOKEN),
            api_url: fake.url.clone(),
            poll_timeout_secs: 1,
            ..TelegramConfig::default()
        };
        if let Some(lifted) = lifted {
            fake.lift_limits(lifted);
            config.private_posts_per_minute = 100_000;
            config.group_posts_per_minute = 100_000;
            config.burst = 1000;
        }
        let serving = manager.clone();
        runtime.spawn(async move {
            if let Err(error) = crate::platform::telegram::serve(config, serving).await {
                eprintln!("telegram adapter stopped: {error:#}");
            }
        });
        InProcessBot {
            manager,
            clock,
            runtime: Some(runtime),
            _dir: None,
        }
    }

    /// Runs `fut` on the adapter's runtime and waits for it (a manager call from a test).
    pub fn block_on<F: Future>(&self, fut: F) -> F::Output {
        self.runtime.as_ref().expect("running").block_on(fut)
    }

    /// Moves the manager's clock on by `secs` and runs a tournament tick at once (the
    /// manager's own ticks, every 2 s, would come too).
    pub fn advance(&self, secs: u64) -> usize {
        self.clock.advance(secs);
        let manager = self.manager.clone();
        self.block_on(async move { manager.tick_tournaments().await })
    }
}

impl Drop for InProcessBot {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}
