//! `toguz web`: a store's game pages on their own (an archive, a console player's games),
//! without the bots, read-only (`Manager::start_read_only`): nothing it does writes.

use super::export::StoreArgs;
use super::run::{init_logging, report_store_failure};
use crate::config::LogFormat;
use crate::engine::EnginePool;
use crate::manager::Manager;
use crate::platform::web::{self, WebConfig};
use anyhow::Context;
use std::net::SocketAddr;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct WebArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// Where to listen (default: the config's `[web] listen`, else 127.0.0.1:8080).
    #[arg(long)]
    pub listen: Option<SocketAddr>,
    /// The pages' public address, for link previews (default: the config's `[web]
    /// public_url`, else http://<listen>).
    #[arg(long)]
    pub public_url: Option<String>,
    #[arg(long, value_enum, default_value = "text")]
    pub log_format: LogFormat,
}

pub fn run(args: WebArgs) -> anyhow::Result<ExitCode> {
    let config = match &args.store.data_dir {
        Some(_) => crate::config::Config::default(),
        None => super::run::load_config(args.store.config.as_deref())?,
    };
    init_logging(args.log_format, &config.log.filter);
    let mut settings = WebConfig {
        enabled: true,
        ..config.web.clone()
    };
    if let Some(listen) = args.listen {
        settings.listen = listen;
        if args.public_url.is_none() && !config.web.enabled {
            settings.public_url = format!("http://{listen}");
        }
    }
    if let Some(url) = args.public_url {
        settings.public_url = url;
    }
    settings.validate()?;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let store = args.store.open().await?;
        let engine = EnginePool::new(config.engine.clone());
        // Read-only (docs/web.md): no sweep, timer, bot or write, so pages served from a
        // store another process plays on (or one kept as an archive) disturb nothing.
        let manager = Manager::start_read_only(store, engine, config.manager_config()).await?;
        let listener = tokio::net::TcpListener::bind(settings.listen)
            .await
            .with_context(|| format!("cannot listen on {}", settings.listen))?;
        // The address actually bound (port 0 picks one), for scripts and tests.
        println!("serving game pages on http://{}", listener.local_addr()?);
        tokio::select! {
            served = web::serve_on(listener, settings, manager.clone()) => served?,
            cause = manager.store_failed() => {
                report_store_failure(&cause);
                return Ok(ExitCode::from(1));
            }
            _ = tokio::signal::ctrl_c() => {}
        }
        manager.flush()?;
        Ok(ExitCode::SUCCESS)
    })
}
