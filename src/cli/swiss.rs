//! `toguz swiss pair FILE.trf`: the next round of a Swiss tournament by the FIDE Dutch
//! system, printed as JaVaFo prints it (the number of pairs, then `white black` by
//! pairing number per board, `N 0` for the pairing-allocated bye).

use crate::cli::read_input;
use crate::pairing::{pair, parse};
use anyhow::Context;
use std::io::Write;
use std::process::ExitCode;

#[derive(clap::Subcommand, Debug)]
pub enum SwissCommand {
    /// Pair the next round of a tournament file (FIDE TRF; `-` reads standard input).
    Pair(PairArgs),
}

#[derive(clap::Args, Debug)]
pub struct PairArgs {
    /// The tournament in FIDE's Tournament Report File format, with XXR (total rounds).
    pub file: String,
}

pub fn run(command: SwissCommand) -> anyhow::Result<ExitCode> {
    match command {
        SwissCommand::Pair(args) => pair_file(&args.file),
    }
}

fn pair_file(path: &str) -> anyhow::Result<ExitCode> {
    let text = read_input(path)?;
    let tournament = parse(&text).with_context(|| format!("{path} is not a valid TRF file"))?;
    let pairing = pair(&tournament).with_context(|| format!("cannot pair {path}"))?;
    std::io::stdout()
        .write_all(pairing.to_javafo().as_bytes())
        .context("cannot write the pairing")?;
    Ok(ExitCode::SUCCESS)
}
