//! `toguz swiss pair FILE.trf`: the next round of a Swiss tournament by the FIDE Dutch
//! system, printed as JaVaFo prints it (the number of pairs, then `white black` by
//! pairing number per board, `N 0` for the pairing-allocated bye).
//! `toguz swiss standings FILE.trf`: the standings after the rounds played, with the
//! FIDE tie-breaks (BH, BH-C1, SB, WON, DE, ARO), as a text table.

use crate::cli::read_input;
use crate::pairing::tiebreak::format_table;
use crate::pairing::{pair, parse, standings};
use anyhow::Context;
use std::io::Write;
use std::process::ExitCode;

#[derive(clap::Subcommand, Debug)]
pub enum SwissCommand {
    /// Pair the next round of a tournament file (FIDE TRF; `-` reads standard input).
    Pair(PairArgs),
    /// Print the standings with FIDE tie-breaks (FIDE TRF; `-` reads standard input).
    Standings(StandingsArgs),
}

#[derive(clap::Args, Debug)]
pub struct StandingsArgs {
    /// The tournament in FIDE's Tournament Report File format.
    pub file: String,
}

#[derive(clap::Args, Debug)]
pub struct PairArgs {
    /// The tournament in FIDE's Tournament Report File format, with XXR (total rounds).
    pub file: String,
}

pub fn run(command: SwissCommand) -> anyhow::Result<ExitCode> {
    match command {
        SwissCommand::Pair(args) => pair_file(&args.file),
        SwissCommand::Standings(args) => standings_file(&args.file),
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

fn standings_file(path: &str) -> anyhow::Result<ExitCode> {
    let text = read_input(path)?;
    let tournament = parse(&text).with_context(|| format!("{path} is not a valid TRF file"))?;
    let table = format_table(&tournament, &standings(&tournament));
    std::io::stdout()
        .write_all(table.as_bytes())
        .context("cannot write the standings")?;
    Ok(ExitCode::SUCCESS)
}
