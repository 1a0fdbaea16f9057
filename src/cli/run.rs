//! `toguz run`: starts every platform enabled in the config on one shared manager and store,
//! and shuts down cleanly (store flushed) on Ctrl-C or SIGTERM.

use super::memory;
use crate::config::{Config, LogFormat};
use crate::engine::EnginePool;
use crate::manager::Manager;
use crate::platform;
use crate::store::Store;
use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use tokio::task::JoinSet;

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The config file (see config.example.toml). Without it, ./toguz.toml if present,
    /// else every default.
    #[arg(long, short)]
    pub config: Option<PathBuf>,
    /// Log format; overrides `[log] format`.
    #[arg(long, value_enum)]
    pub log_format: Option<LogFormat>,
}

pub fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    let config = load_config(args.config.as_deref())?;
    init_logging(
        args.log_format.unwrap_or(config.log.format),
        &config.log.filter,
    );
    let platforms = enabled_platforms(&config);
    if platforms.is_empty() {
        eprintln!(
            "toguz: no platform is enabled in the config, so there is nothing to run.\n\
             To play against the bot in this terminal: toguz play\n\
             To run the bot: copy config.example.toml to toguz.toml, set enabled = true under \
             [telegram] or [discord] and give the token (or TELEGRAM_TOKEN / DISCORD_TOKEN), \
             or under [web] for the game pages."
        );
        return Ok(ExitCode::from(1));
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(serve(config, platforms))
}

pub(crate) fn load_config(path: Option<&std::path::Path>) -> anyhow::Result<Config> {
    let default = std::path::Path::new("toguz.toml");
    match path {
        Some(p) => Ok(Config::load(p)?),
        None if default.exists() => Ok(Config::load(default)?),
        None => Ok(Config::default()),
    }
}

/// A chat service `toguz run` serves (the console is `toguz play`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Service {
    Telegram,
    Discord,
    /// The game pages (`[web]`).
    Web,
}

impl Service {
    pub fn name(self) -> &'static str {
        match self {
            Service::Telegram => "telegram",
            Service::Discord => "discord",
            Service::Web => "web",
        }
    }
}

/// The services the config turns on.
pub fn enabled_platforms(config: &Config) -> Vec<Service> {
    let mut out = Vec::new();
    if config.telegram.enabled {
        out.push(Service::Telegram);
    }
    if config.discord.enabled {
        out.push(Service::Discord);
    }
    if config.web.enabled {
        out.push(Service::Web);
    }
    out
}

pub type Tasks = JoinSet<(Service, anyhow::Result<()>)>;

async fn serve(config: Config, platforms: Vec<Service>) -> anyhow::Result<ExitCode> {
    let location = config.storage.location_from_env()?;
    let store = Store::open_at(&location, &config.storage.store_options()).await?;
    let engine = EnginePool::new(config.engine.clone());
    let manager = Manager::start(store, engine, config.manager_config()).await?;
    memory::spawn_reporter();
    if config.web.enabled && config.web.is_local_only() {
        // Boards then carry links only this machine or network can open.
        tracing::warn!(
            public_url = config.web.base(),
            "[web] public_url is a local address: set it to the address players reach \
             (Telegram boards carry no link to a host name without a dot)"
        );
    }
    if config.telegram.enabled && config.telegram.mini_app.is_some() && !config.web.enabled {
        // The Mini App opens the pages, which are not served.
        tracing::warn!("[telegram] mini_app is set but [web] is off: no board links a game page");
    }
    let config = Arc::new(config);
    let mut tasks = Tasks::new();
    for platform in platforms {
        start_platform(&mut tasks, platform, config.clone(), manager.clone());
    }
    let end = until_end(&mut tasks, manager.store_failed(), shutdown_signal()).await;
    tasks.shutdown().await;
    if end != End::StoreFailed {
        // Every acknowledged change is already durable; this flushes anything else.
        manager.flush()?;
    }
    Ok(end.exit_code())
}

/// Why `toguz run` stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Ctrl-C or SIGTERM.
    Shutdown,
    /// A platform adapter returned.
    PlatformStopped,
    /// A platform adapter failed or panicked.
    PlatformFailed,
    /// The store cannot write any more (a flush I/O error): exit so a supervisor restarts us.
    StoreFailed,
}

impl End {
    pub fn exit_code(self) -> ExitCode {
        match self {
            End::Shutdown | End::PlatformStopped => ExitCode::SUCCESS,
            End::PlatformFailed | End::StoreFailed => ExitCode::from(1),
        }
    }
}

/// Waits for the first of: a shutdown signal, a platform task ending, the store failing.
pub async fn until_end(
    tasks: &mut Tasks,
    store_failed: impl std::future::Future<Output = String>,
    shutdown: impl std::future::Future<Output = ()>,
) -> End {
    tokio::select! {
        () = shutdown => {
            tracing::info!("shutting down");
            End::Shutdown
        }
        cause = store_failed => {
            report_store_failure(&cause);
            End::StoreFailed
        }
        Some(done) = tasks.join_next() => {
            match done {
                Ok((platform, Ok(()))) => {
                    tracing::info!(platform = platform.name(), "platform stopped");
                    End::PlatformStopped
                }
                Ok((platform, Err(error))) => {
                    tracing::error!(platform = platform.name(), error = format!("{error:#}"), "platform failed");
                    eprintln!("toguz: {}: {error:#}", platform.name());
                    End::PlatformFailed
                }
                Err(error) => {
                    tracing::error!(%error, "platform task panicked");
                    End::PlatformFailed
                }
            }
        }
    }
}

/// Says loudly that the store failed: an error log naming the cause and one line on stderr.
pub fn report_store_failure(cause: &str) {
    tracing::error!(
        cause,
        "the store cannot write to disk any more; exiting so a supervisor restarts toguz"
    );
    eprintln!("toguz: the store failed ({cause}); exiting so it can be restarted");
}

/// Starts one platform adapter. Adding a platform is a `Service` variant and one arm here.
fn start_platform(tasks: &mut Tasks, platform: Service, config: Arc<Config>, manager: Manager) {
    match platform {
        Service::Telegram => {
            let telegram = config.telegram.clone();
            tasks.spawn(
                async move { (platform, platform::telegram::serve(telegram, manager).await) },
            );
        }
        Service::Discord => {
            let discord = config.discord.clone();
            tasks
                .spawn(async move { (platform, platform::discord::serve(discord, manager).await) });
        }
        Service::Web => {
            let mut web = config.web.clone();
            web.sign_in = sign_ins(&config);
            tasks.spawn(async move { (platform, platform::web::serve(web, manager).await) });
        }
    }
}

/// What the pages sign players in with, from the platforms running beside them: the
/// Telegram bot's token (the Mini App's launch data is signed with it) when Telegram is on.
/// A missing or malformed token leaves it out: the Telegram adapter's own start says why.
/// The Discord Activity's client id and secret when `[discord] activity` is set up.
fn sign_ins(config: &Config) -> platform::web::signin::SignIns {
    use platform::web::signin::telegram::TelegramSignIn;
    let telegram = &config.telegram;
    let checked = telegram
        .enabled
        .then(|| telegram.check(std::env::var("TELEGRAM_TOKEN").ok()).ok())
        .flatten();
    platform::web::signin::SignIns {
        telegram: checked.map(|checked| TelegramSignIn {
            token: checked.token,
            max_age_secs: telegram.init_data_max_age,
            commands_per_minute: telegram.commands_per_minute,
        }),
        // Checked with the config at start-up (`Config::validate`).
        discord: config
            .discord
            .activity_sign_in(std::env::var("DISCORD_CLIENT_SECRET").ok())
            .ok()
            .flatten()
            .map(|app| platform::web::signin::discord::DiscordSignIn {
                client_id: app.client_id,
                client_secret: app.client_secret,
                api_base: app.api_base,
                timeout: app.timeout,
            }),
    }
}

/// Resolves on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Sets up tracing on stderr: `RUST_LOG` if set, else `filter`; text or JSON lines.
pub fn init_logging(format: LogFormat, filter: &str) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env()
        .or_else(|_| EnvFilter::try_new(filter))
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        // Colours only on a terminal: a log file, docker logs or the journal gets plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    // A second call (tests running several commands) keeps the first subscriber.
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineConfig;
    use crate::manager::{Action, ManagerConfig, Request};
    use crate::model::{ChatRef, Platform, UserRef};
    use crate::store::StoreOptions;
    use std::time::Duration;

    /// The loop `serve` runs ends with a non-zero exit code once a flush fails, with no
    /// signal and no platform stopping.
    #[tokio::test]
    async fn the_run_loop_exits_non_zero_when_the_store_fails() {
        let (store, disk) = Store::faulty(None, &StoreOptions::default()).unwrap();
        let engine = EnginePool::new(EngineConfig::default());
        let manager = Manager::start(store, engine, ManagerConfig::default())
            .await
            .unwrap();
        let mut tasks = Tasks::new();
        let end = until_end(
            &mut tasks,
            manager.store_failed(),
            std::future::pending::<()>(),
        );
        let failing = async {
            disk.set_failing(true);
            let user = UserRef::new(Platform::Console, "u", "U");
            let request = Request {
                actor: user.clone(),
                chat: ChatRef::new(Platform::Console, "c"),
                action: Action::Challenge {
                    opponent: None,
                    variant: crate::rules::Variant::STANDARD,
                    rated: true,
                    time: None,
                },
            };
            let refused = manager.act(request).await;
            assert!(refused.is_err(), "{refused:?}");
            std::future::pending::<()>().await
        };
        let end = tokio::time::timeout(Duration::from_secs(10), async {
            tokio::select! {
                end = end => end,
                () = failing => unreachable!(),
            }
        })
        .await
        .expect("the loop ends");
        assert_eq!(end, End::StoreFailed);
        assert_eq!(end.exit_code(), ExitCode::from(1));
    }
}
