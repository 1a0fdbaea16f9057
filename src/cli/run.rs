//! `toguz run`: starts every platform enabled in the config on one shared manager and store,
//! and shuts down cleanly (store flushed) on Ctrl-C or SIGTERM.

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
             [telegram] or [discord], and give the token (or TELEGRAM_TOKEN / DISCORD_TOKEN)."
        );
        return Ok(ExitCode::from(1));
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(serve(config, platforms))
}

fn load_config(path: Option<&std::path::Path>) -> anyhow::Result<Config> {
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
}

impl Service {
    pub fn name(self) -> &'static str {
        match self {
            Service::Telegram => "telegram",
            Service::Discord => "discord",
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
    out
}

type Tasks = JoinSet<(Service, anyhow::Result<()>)>;

async fn serve(config: Config, platforms: Vec<Service>) -> anyhow::Result<ExitCode> {
    let store = Store::open(&config.storage.path)?;
    let engine = EnginePool::new(config.engine.clone());
    let manager = Manager::start(store, engine, config.manager_config()).await?;
    let config = Arc::new(config);
    let mut tasks = Tasks::new();
    for platform in platforms {
        start_platform(&mut tasks, platform, config.clone(), manager.clone());
    }
    let code = tokio::select! {
        () = shutdown_signal() => {
            tracing::info!("shutting down");
            ExitCode::SUCCESS
        }
        Some(done) = tasks.join_next() => {
            match done {
                Ok((platform, Ok(()))) => {
                    tracing::info!(platform = platform.name(), "platform stopped");
                    ExitCode::SUCCESS
                }
                Ok((platform, Err(error))) => {
                    tracing::error!(platform = platform.name(), error = format!("{error:#}"), "platform failed");
                    eprintln!("toguz: {}: {error:#}", platform.name());
                    ExitCode::from(1)
                }
                Err(error) => {
                    tracing::error!(%error, "platform task panicked");
                    ExitCode::from(1)
                }
            }
        }
    };
    tasks.shutdown().await;
    // Every acknowledged change is already durable; this flushes anything else.
    manager.flush()?;
    Ok(code)
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
        .with_writer(std::io::stderr);
    // A second call (tests running several commands) keeps the first subscriber.
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}
