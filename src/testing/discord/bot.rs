//! Running the bot against the fake: the real `toguz run` binary as a child process (tests), or
//! the adapter in this process (the latency benchmark).

use super::{FakeDiscord, TOKEN};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// Test settings written into the config file.
#[derive(Clone, Debug)]
pub struct Options {
    pub challenge_expiry_secs: u64,
    pub mention: &'static str,
    /// `"auto"` or a TOML inline table.
    pub shards: String,
    pub token: String,
    pub cooldown_secs: u64,
    /// `[limits] commands_per_minute`: lifted (100,000) unless a test is about it.
    pub commands_per_minute: u32,
    /// `[limits] provisional_on_leaderboards`: on (tests play a game or two per player)
    /// unless a test is about it.
    pub provisional_on_leaderboards: bool,
    /// `[storage] cache_capacity_mb`: the soak sets it small so the page cache is full
    /// (and the memory flat) after the first round.
    pub cache_capacity_mb: u64,
    /// More config at the end (e.g. a `[review]` section).
    pub extra: String,
    /// More lines in `[storage]` (e.g. `backend = "postgres"` and its `url`).
    pub storage: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            challenge_expiry_secs: 600,
            mention: "mention",
            shards: "\"auto\"".into(),
            token: TOKEN.into(),
            cooldown_secs: 0,
            commands_per_minute: 100_000,
            provisional_on_leaderboards: true,
            cache_capacity_mb: 64,
            extra: String::new(),
            storage: String::new(),
        }
    }
}

/// Writes the config for a bot that talks to `fake` and keeps its data under `dir`.
pub fn write_config(fake: &FakeDiscord, dir: &Path, opts: &Options) -> PathBuf {
    let data = dir.join("data");
    let text = format!(
        r#"
[storage]
path = "{data}"
cache_capacity_mb = {cache}
{storage}

[limits]
challenge_expiry_secs = {expiry}
sweep_interval_secs = 1
commands_per_minute = {commands}
provisional_on_leaderboards = {provisional}

[discord]
enabled = true
token = "{token}"
proxy_url = "{url}"
mention = "{mention}"
shards = {shards}
request_timeout_secs = 5
max_retries = 3
challenge_cooldown_secs = {cooldown}

{extra}
"#,
        data = data.display(),
        expiry = opts.challenge_expiry_secs,
        token = opts.token,
        url = fake.url(),
        mention = opts.mention,
        shards = opts.shards,
        cooldown = opts.cooldown_secs,
        commands = opts.commands_per_minute,
        provisional = opts.provisional_on_leaderboards,
        cache = opts.cache_capacity_mb,
        extra = opts.extra,
        storage = opts.storage,
    );
    let path = dir.join("toguz.toml");
    std::fs::write(&path, text).expect("write the config");
    path
}

/// The `toguz run` process; killed on drop.
pub struct BotProcess {
    child: Child,
    pub log: PathBuf,
}

impl BotProcess {
    pub fn start(fake: &FakeDiscord, dir: &Path, opts: &Options) -> BotProcess {
        let config = write_config(fake, dir, opts);
        BotProcess::start_with_config(dir, &config)
    }

    /// Starts `toguz run --config <config>`, logging into a file under `dir`.
    pub fn start_with_config(dir: &Path, config: &Path) -> BotProcess {
        let n = std::fs::read_dir(dir).map(|d| d.count()).unwrap_or(0);
        let log = dir.join(format!("bot-{n}.log"));
        let out = std::fs::File::create(&log).expect("log file");
        let err = out.try_clone().expect("log file");
        let child = Command::new(crate::testing::toguz_exe())
            .args(["run", "--config"])
            .arg(config)
            .env_remove("DISCORD_TOKEN")
            .env_remove("TELEGRAM_TOKEN")
            .env("RUST_LOG", "toguz=debug,serenity=warn")
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .expect("start toguz run");
        BotProcess { child, log }
    }

    /// Kills the process at once (no clean shutdown), as a crash would.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Waits for the process to exit by itself; its status and log.
    pub fn wait_exit(
        &mut self,
        timeout: std::time::Duration,
    ) -> Option<(std::process::ExitStatus, String)> {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                let log = std::fs::read_to_string(&self.log).unwrap_or_default();
                return Some((status, log));
            }
            if std::time::Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// The process id (for /proc/<pid>/status).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Runs the adapter inside this process (for the benchmark, where a child process would
/// measure the OS scheduler as much as the bot). The manager uses `dir` for its store.
pub async fn start_in_process(
    fake: &FakeDiscord,
    dir: &Path,
    opts: &Options,
) -> tokio::task::JoinHandle<anyhow::Result<()>> {
    let store = crate::store::Store::open(&dir.join("data")).expect("open the store");
    let engine = crate::engine::EnginePool::new(crate::engine::EngineConfig::default());
    let mut config = crate::manager::ManagerConfig::default();
    config.limits.challenge_expiry_secs = opts.challenge_expiry_secs;
    config.limits.sweep_interval_secs = 1;
    let manager = crate::manager::Manager::start(store, engine, config)
        .await
        .expect("start the manager");
    start_with_manager(fake, manager, opts)
}

/// Runs the adapter inside this process on `manager`: a test that moves the manager's
/// (manual) clock, or runs its tournament tick itself, holds the same manager.
pub fn start_with_manager(
    fake: &FakeDiscord,
    manager: crate::manager::Manager,
    opts: &Options,
) -> tokio::task::JoinHandle<anyhow::Result<()>> {
    use crate::platform::discord::config::DiscordConfig;
    let _ = tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_test_writer()
        .try_init();
    let discord: DiscordConfig = toml::from_str(&format!(
        "enabled = true\ntoken = \"{}\"\nproxy_url = \"{}\"\nmention = \"{}\"\nshards = {}\nchallenge_cooldown_secs = {}\n",
        opts.token,
        fake.url(),
        opts.mention,
        opts.shards,
        opts.cooldown_secs
    ))
    .expect("discord config");
    let settings = discord.resolve(None).expect("discord settings");
    tokio::spawn(crate::platform::discord::serve_with(settings, manager))
}
