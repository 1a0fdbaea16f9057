//! `toguz engine`: the engine line protocol on stdin/stdout (see docs/engine-protocol.md).

use crate::config::Config;
use crate::engine::protocol::{Flow, Session};
use crate::engine::EngineConfig;
use anyhow::Context;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// Read `[engine]` settings (the level budgets) from this config file.
    #[arg(long)]
    pub config: Option<PathBuf>,
}

pub fn run(args: EngineArgs) -> anyhow::Result<ExitCode> {
    let config = engine_config(args.config.as_deref())?;
    let mut session = Session::new(config);
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    for line in stdin.lock().lines() {
        let line = line.context("cannot read standard input")?;
        let mut out = stdout.lock();
        let mut failed = None;
        let flow = session.handle(&line, &mut |answer| {
            if let Err(e) = writeln!(out, "{answer}").and_then(|_| out.flush()) {
                failed = Some(e);
            }
        });
        if let Some(e) = failed {
            return Err(e).context("cannot write standard output");
        }
        if flow == Flow::Quit {
            break;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The `[engine]` table of a config file, or the defaults.
pub fn engine_config(path: Option<&std::path::Path>) -> anyhow::Result<EngineConfig> {
    let Some(path) = path else {
        return Ok(EngineConfig::default());
    };
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let config: Config =
        toml::from_str(&text).with_context(|| format!("bad config {}", path.display()))?;
    Ok(config.engine)
}
