//! `toguz tournament export ID [-o FILE.trf]`: a tournament of the store (running, finished
//! or cancelled) as a FIDE Tournament Report File: its players by pairing number with their
//! ratings and points, and every round played (`toguz swiss standings` and FIDE's tools read
//! it).

use crate::cli::export::StoreArgs;
use crate::manager::tournament::TournamentRecord;
use crate::pairing::trf;
use crate::store::Tree;
use anyhow::{bail, Context};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The tournament's id (as its announcement shows it).
    pub id: String,
    #[command(flatten)]
    pub store: StoreArgs,
    /// The output file (default: standard output).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

pub fn run(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(run_async(args))
}

async fn run_async(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let store = args.store.open().await?;
    let mut found = None;
    for tree in [Tree::Tournaments, Tree::TournamentArchive] {
        let read = store.get::<TournamentRecord>(tree, &args.id).await;
        if let Some(rec) = read.with_context(|| format!("cannot read tournament {}", args.id))? {
            found = Some(rec);
            break;
        }
    }
    let Some(rec) = found else {
        bail!("no tournament {} in this store", args.id);
    };
    let mut event = rec.to_trf();
    // Only rounds with every result: a file FIDE's tools read as played.
    let done = rec
        .rounds
        .iter()
        .take_while(|r| r.boards.iter().all(|b| b.result.is_some()))
        .count();
    for p in &mut event.players {
        p.rounds.truncate(done);
        p.points = p.rounds.iter().map(|r| r.points()).sum();
    }
    let text = trf::write(&event);
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
