//! The command line: one file per subcommand, each with its own clap `Args`.
//!
//! Exit status: 0 success, 1 a failure the command reports (a bad record, a disagreement),
//! 2 a usage error (clap's own).

pub mod analyze;
pub mod engine;
pub mod explorer;
pub mod export;
pub mod leaderboard;
pub mod matchup;
pub mod memory;
pub mod perft;
pub mod play;
pub mod puzzle;
pub mod render;
pub mod replay;
pub mod review;
pub mod run;
pub mod store;
pub mod swiss;
pub mod tournament;
pub mod tournament_export;
pub mod web;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "toguz",
    version,
    about = "Toguzqumalak: rules engine, bot and chat adapters"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Replay a game record and check it against the rules.
    Replay(replay::ReplayArgs),
    /// Count the leaves of the game tree (move generation check and speed test).
    Perft(perft::PerftArgs),
    /// Analyze a position: best move, score, depth, nodes and principal variation.
    Analyze(analyze::AnalyzeArgs),
    /// Play engine levels against each other to measure strength.
    #[command(name = "match")]
    Match(matchup::MatchArgs),
    /// Speak the engine line protocol on stdin/stdout (see docs/engine-protocol.md).
    Engine(engine::EngineArgs),
    /// Review a finished game: evaluation per half-move, mistakes, accuracy, a graph.
    Review(review::ReviewArgs),
    /// Draw a position as text or PNG.
    Render(render::RenderArgs),
    /// Play a game against the bot in the terminal.
    Play(play::PlayArgs),
    /// Run the bot on every platform enabled in the config.
    Run(run::RunArgs),
    /// The opening explorer: the moves played from a position (`import` counts record
    /// files into it).
    Explorer(explorer::ExplorerArgs),
    /// Write every archived game as one record file (`toguz replay --check` reads it).
    Export(export::ExportArgs),
    /// Print a leaderboard from the store.
    Leaderboard(leaderboard::LeaderboardArgs),
    /// Work on the store itself (copy it between sled and PostgreSQL).
    #[command(subcommand)]
    Store(store::StoreCommand),
    /// Swiss tournaments: pair the next round of a FIDE TRF file (Dutch system), or print
    /// its standings with FIDE tie-breaks.
    #[command(subcommand)]
    Swiss(swiss::SwissCommand),
    /// Run a tournament of the bot's levels here (Swiss or arena), with the standings after
    /// each round; `export ID` writes a tournament of the store as a TRF file.
    Tournament(tournament::TournamentCommand),
    /// Puzzles: alone, solve them in the terminal; `generate` mines record files for
    /// puzzles, `export` lists a collection.
    Puzzle(puzzle::PuzzleArgs),
    /// Serve a store's game pages on the web, without the bots (`toguz run` serves them
    /// beside the bots when `[web]` is enabled).
    Web(web::WebArgs),
}

/// Runs the command line; errors are printed as one line, never as a panic or a backtrace.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Replay(args) => replay::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Match(args) => matchup::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Review(args) => review::run(args),
        Command::Render(args) => render::run(args),
        Command::Play(args) => play::run(args),
        Command::Run(args) => run::run(args),
        Command::Explorer(args) => explorer::run(args),
        Command::Export(args) => export::run(args),
        Command::Leaderboard(args) => leaderboard::run(args),
        Command::Store(command) => store::run(command),
        Command::Swiss(command) => swiss::run(command),
        Command::Tournament(command) => tournament::main(command),
        Command::Puzzle(args) => puzzle::run(args),
        Command::Web(args) => web::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("toguz: {err:#}");
            ExitCode::from(1)
        }
    }
}

/// Reads a file, or standard input for `-`.
pub fn read_input(path: &str) -> anyhow::Result<String> {
    use anyhow::Context;
    use std::io::Read;
    if path == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read standard input")?;
        Ok(text)
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))
    }
}
