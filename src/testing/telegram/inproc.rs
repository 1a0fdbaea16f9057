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
use crate::platform::telegram::config::WebhookConfig;
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
    /// Where Telegram delivers its updates, when it takes them through a webhook.
    webhook_url: Option<String>,
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

    /// Two bot processes on one store and one clock (as two processes share a PostgreSQL
    /// database), each taking Telegram's updates through its own webhook, as several
    /// processes must (Telegram refuses `getUpdates` to all but one, and to all once a
    /// webhook is set). The second registers its webhook last, so Telegram delivers every
    /// update to it; both send what the manager hands them (alerts, say). The fake must
    /// `allow_http_webhook`.
    pub fn start_pair(fake: &FakeTelegram, config: ManagerConfig) -> (InProcessBot, InProcessBot) {
        fake.allow_http_webhook();
        let dir = tempfile::tempdir().expect("temp dir");
        let first = InProcessBot::launch_on(fake, config.clone(), Shared::New(dir.path()), None);
        let store = first.manager.store().clone();
        let shared = Shared::Store(store, first.clock.clone());
        let mut first = first;
        first._dir = Some(dir);
        wait_webhook(fake, &first);
        let second = InProcessBot::launch_on(fake, config, shared, None);
        wait_webhook(fake, &second);
        (first, second)
    }

    fn launch(
        fake: &FakeTelegram,
        config: ManagerConfig,
        data: &Path,
        lifted: Option<Lifted>,
    ) -> InProcessBot {
        InProcessBot::launch_on(fake, config, Shared::Polling(data), lifted)
    }

    fn launch_on(
        fake: &FakeTelegram,
        config: ManagerConfig,
        shared: Shared<'_>,
        lifted: Option<Lifted>,
    ) -> InProcessBot {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let (clock, webhook) = match &shared {
            Shared::Store(_, clock) => (clock.clone(), Some(webhook_here())),
            Shared::New(_) => (Clock::manual(T0), Some(webhook_here())),
            Shared::Polling(_) => (Clock::manual(T0), None),
        };
        let manager = runtime.block_on(async {
            let store = match shared {
                Shared::Store(store, _) => store,
                // A stopped bot's store may take a moment to let go of its file lock.
                Shared::New(data) | Shared::Polling(data) => {
                    crate::testing::manager::reopen(&data.join("db")).await
                }
            };
            let engine = EnginePool::new(EngineConfig::default());
            Manager::start_with_clock(store, engine, config, clock.clone())
                .await
                .expect("manager")
        });
        let webhook_url = webhook.as_ref().map(|w| w.public_url.clone());
        let mut config = TelegramConfig {
            enabled: true,
            token: Secret::new(TOKEN),
            api_url: fake.url.clone(),
            poll_timeout_secs: 1,
            webhook,
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
            webhook_url,
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

/// Where a bot's store comes from, and how it takes updates.
enum Shared<'a> {
    /// A store under this directory; updates by long polling.
    Polling(&'a Path),
    /// A store under this directory; updates through a webhook of its own.
    New(&'a Path),
    /// Another bot's store and clock; updates through a webhook of its own.
    Store(crate::store::Store, Clock),
}

/// The webhook secret of in-process pairs.
const PAIR_SECRET: &str = "pair_Hook-51";

/// A webhook on a free loopback port.
fn webhook_here() -> WebhookConfig {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    drop(listener);
    WebhookConfig {
        listen: format!("127.0.0.1:{port}"),
        public_url: format!("http://127.0.0.1:{port}/hook"),
        secret_token: Secret::new(PAIR_SECRET),
        queue: 1024,
    }
}

/// Waits until `bot`'s webhook is the one the fake delivers to.
fn wait_webhook(fake: &FakeTelegram, bot: &InProcessBot) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while std::time::Instant::now() < deadline {
        if fake.webhook().map(|(url, _)| url) == bot.webhook_url {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    panic!("the bot set no webhook");
}

impl Drop for InProcessBot {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}
