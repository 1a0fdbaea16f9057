//! The Telegram adapter run in the test's own process (the real teloxide client against the
//! fake), on a manager with a manual clock: for flows that wait on the manager's time (a
//! tournament's start and end), which a test moves on with `clock.advance` instead of
//! waiting for it. Everything else is as `toguz run` does it: `platform::telegram::serve`
//! with the same settings `BotProcess` writes.

use super::bot::TOKEN;
use super::FakeTelegram;
use crate::engine::{EngineConfig, EnginePool};
use crate::manager::ManagerConfig;
use crate::manager::{Clock, Manager};
use crate::platform::telegram::TelegramConfig;
use crate::secret::Secret;
use crate::testing::manager::{test_config, T0};
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

    /// Starts the manager on `config` (e.g. `test_config()` with a small puzzle collection)
    /// with its store under `data`, which the test owns: dropping this bot and starting
    /// another on the same `data` is a restart.
    pub fn start_with(fake: &FakeTelegram, config: ManagerConfig, data: &Path) -> InProcessBot {
        InProcessBot::start_with_telegram(fake, config, data, |telegram| {
            telegram.private_posts_per_minute = 100_000;
            telegram.group_posts_per_minute = 100_000;
            telegram.burst = 1000;
        })
    }

    /// Starts the bot with Telegram's real default flood limits (20 posts a minute in a
    /// group): for flows whose point is how they fit in those limits.
    pub fn start_at_real_limits(fake: &FakeTelegram) -> InProcessBot {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut bot = InProcessBot::start_with_telegram(fake, test_config(), dir.path(), |_| {});
        bot._dir = Some(dir);
        bot
    }

    /// `start_with`, the adapter's settings changed by `tweak` from `toguz run`'s defaults.
    pub fn start_with_telegram(
        fake: &FakeTelegram,
        config: ManagerConfig,
        data: &Path,
        tweak: impl FnOnce(&mut TelegramConfig),
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
        tweak(&mut config);
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
