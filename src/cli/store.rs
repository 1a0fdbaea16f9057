//! `toguz store copy --from <sled dir | url> --to <url | sled dir>`: moves a deployment
//! between backends with every record (games, challenges, settings, handles, claims, the
//! secrets in `meta`), as stored. Stop the bot first: records written meanwhile are missed.

use crate::cli::run::init_logging;
use crate::config::LogFormat;
use crate::store::{copy_all, Location, Store, StoreOptions};
use anyhow::Context;
use std::process::ExitCode;

#[derive(clap::Subcommand, Debug)]
pub enum StoreCommand {
    /// Copy every record from one store into another (replacing records with the same key).
    Copy(CopyArgs),
}

#[derive(clap::Args, Debug)]
pub struct CopyArgs {
    /// The source: a sled directory, or postgres://user:password@host/database.
    #[arg(long)]
    pub from: String,
    /// The target: a PostgreSQL URL or a sled directory (created if missing).
    #[arg(long)]
    pub to: String,
}

pub fn run(command: StoreCommand) -> anyhow::Result<ExitCode> {
    init_logging(LogFormat::Text, "warn");
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    match command {
        StoreCommand::Copy(args) => runtime.block_on(copy(args)),
    }
}

async fn copy(args: CopyArgs) -> anyhow::Result<ExitCode> {
    let (from, to) = (Location::parse(&args.from), Location::parse(&args.to));
    if from == to {
        anyhow::bail!("--from and --to name the same store");
    }
    let options = StoreOptions::default();
    let source = Store::open_at(&from, &options).await?;
    let target = Store::open_at(&to, &options).await?;
    let copied = copy_all(&source, &target).await?;
    target.flush()?;
    for (tree, n) in &copied.0 {
        println!("{:>8} {}", n, tree.name());
    }
    println!(
        "copied {} records from {} to {}",
        copied.total(),
        from.describe(),
        to.describe()
    );
    Ok(ExitCode::SUCCESS)
}
