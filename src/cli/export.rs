//! `toguz export`: every archived game as one multi-game record file, which
//! `toguz replay --check` reads.

use crate::manager::record::record_text;
use crate::manager::{GameRecord, GameStatus};
use crate::ratings::dates::parse_date;
use crate::store::{Location, Store, StoreOptions, Tree};
use anyhow::{bail, Context};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Where the store is: a data directory, or the `[storage] path` of a config file.
#[derive(clap::Args, Debug, Clone)]
pub struct StoreArgs {
    /// The store's directory (as `[storage] path`).
    #[arg(long, conflicts_with = "config")]
    pub data_dir: Option<PathBuf>,
    /// A config file whose `[storage]` names the store (default: ./toguz.toml if present,
    /// else ./toguz-data).
    #[arg(long, short)]
    pub config: Option<PathBuf>,
}

impl StoreArgs {
    /// Opens the store: a sled directory, or the config's `[storage]` (sled or PostgreSQL).
    /// A sled store in use by a running bot is locked, and says so.
    pub async fn open(&self) -> anyhow::Result<Store> {
        let (location, options) = match &self.data_dir {
            Some(dir) => (Location::Sled(dir.clone()), StoreOptions::default()),
            None => {
                let config = super::run::load_config(self.config.as_deref())?;
                let options = config.storage.store_options();
                (config.storage.location_from_env()?, options)
            }
        };
        if let Location::Sled(path) = &location {
            if !path.is_dir() {
                bail!(
                    "no store at {} (give --data-dir or --config)",
                    path.display()
                );
            }
        }
        Store::open_at(&location, &options).await.with_context(|| {
            format!(
                "cannot open the store at {} (is the bot running on it?)",
                location.describe()
            )
        })
    }
}

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// Only games that ended on or after this date (YYYY-MM-DD, UTC).
    #[arg(long, value_parser = parse_since)]
    pub since: Option<u64>,
    /// The output file (default: standard output).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

fn parse_since(text: &str) -> Result<u64, String> {
    parse_date(text).ok_or_else(|| format!("{text:?} is not a date (write YYYY-MM-DD)"))
}

pub fn run(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(run_async(args))
}

async fn run_async(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let store = args.store.open().await?;
    let mut out: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let (written, skipped) = export(&store, args.since, &mut out).await?;
    out.flush().context("cannot write the records")?;
    eprintln!("toguz: exported {written} games ({skipped} skipped)");
    Ok(ExitCode::SUCCESS)
}

/// When a finished game ended (games archived before the history issue: their last move).
fn ended_at(rec: &GameRecord) -> u64 {
    rec.ended.map_or(rec.last_move_at, |e| e.at)
}

/// Writes every archived game that ended at or after `since`, oldest first; returns how
/// many were written and how many were skipped (a record that does not replay is logged).
pub async fn export(
    store: &Store,
    since: Option<u64>,
    out: &mut dyn Write,
) -> anyhow::Result<(usize, usize)> {
    let mut games: Vec<GameRecord> = store
        .load_all::<GameRecord>(Tree::Archive)
        .await?
        .into_iter()
        .map(|(_, rec)| rec)
        .filter(|rec| matches!(rec.status, GameStatus::Finished { .. }))
        .filter(|rec| since.is_none_or(|s| ended_at(rec) >= s))
        .collect();
    games.sort_by(|a, b| ended_at(a).cmp(&ended_at(b)).then_with(|| a.id.cmp(&b.id)));
    let (mut written, mut skipped) = (0, 0);
    for rec in &games {
        match record_text(rec) {
            Ok(text) => {
                if written > 0 {
                    writeln!(out)?;
                }
                out.write_all(text.as_bytes())?;
                written += 1;
            }
            Err(error) => {
                tracing::error!(
                    game = rec.id,
                    error,
                    "archived game does not replay; skipped"
                );
                skipped += 1;
            }
        }
    }
    Ok((written, skipped))
}
