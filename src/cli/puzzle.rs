//! `toguz puzzle [--data-dir D] [--lang L]`: puzzles at the terminal (the console of `toguz
//! play`, starting with a puzzle near your puzzle rating).
//! `toguz puzzle generate [FILES...] -o FILE`: mines the games of record files for puzzles
//! (docs/puzzles.md) on `--jobs` threads, appending each finished game's puzzles to FILE and
//! its key to `FILE.done`, so that a stopped run resumes where it stopped. A progress bar
//! with a time estimate shows on a terminal; elsewhere, a line every `--every` games.
//! `toguz puzzle export [--json] [FILE]`: every puzzle of a collection (the shipped one
//! without FILE), one a line.

use crate::engine::{Searcher, BALL};
use crate::puzzle::{
    game_key, mine_game, parse_puzzles, pending_games, puzzle_line, read_done, read_games, summary,
    used_positions, Game, GameMined, Settings, SHIPPED, TABLE_MB,
};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::{BTreeMap, HashSet};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// `toguz puzzle`: puzzles at the terminal, or one of the subcommands that make and list
/// the collection.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct PuzzleArgs {
    #[command(subcommand)]
    pub command: Option<PuzzleCommand>,
    #[command(flatten)]
    pub play: SolveArgs,
}

/// The options of puzzles at the terminal: where the progress is kept, which collection,
/// the language (no bot, colour, clock or variant: a puzzle has its own).
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Where your puzzle progress is kept: a sled directory (default toguz-data, or the
    /// config's `[storage]` when --config is given).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// A config file whose `[storage]` table names the store (sled or PostgreSQL; unless
    /// `--data-dir` is given).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// A puzzle collection made by `toguz puzzle generate` (default: the config's
    /// `[puzzles]`, else the shipped collection).
    #[arg(long)]
    pub puzzles: Option<PathBuf>,
    /// Language: en, ru or kk (default: the one chosen last time, else English).
    #[arg(long, value_parser = super::play::parse_lang)]
    pub lang: Option<crate::i18n::Lang>,
    #[arg(long, value_enum, default_value = "text")]
    pub log_format: crate::config::LogFormat,
}

impl SolveArgs {
    /// The console's options with puzzles' choices: the console starts with a puzzle, and
    /// a game asked for there (`new`) is one against the bot at the usual defaults.
    fn into_play(self) -> super::play::PlayArgs {
        super::play::PlayArgs {
            level: crate::model::Level::Medium,
            colour: None,
            variant: None,
            white: None,
            black: None,
            clock: None,
            data_dir: self.data_dir,
            config: self.config,
            puzzles: self.puzzles,
            lang: self.lang,
            log_format: self.log_format,
        }
    }
}

#[derive(clap::Subcommand, Debug)]
pub enum PuzzleCommand {
    /// Mine record files for puzzles into a collection file (resumes a stopped run).
    Generate(GenerateArgs),
    /// Print every puzzle of a collection file, one a line.
    Export(ExportArgs),
}

#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// Record files (PGN-style records, or JSON lines with a `moves` field).
    #[arg(required = true)]
    pub files: Vec<String>,
    /// The collection file: puzzles are appended; `FILE.done` lists the games mined.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Verification depth: every move of a puzzle's position is scored this deep.
    #[arg(long, default_value_t = Settings::default().depth, value_parser = clap::value_parser!(u32).range(2..=30))]
    pub depth: u32,
    /// The only move is at least this many balls better than any other.
    #[arg(long, default_value_t = Settings::default().margin / BALL, value_parser = clap::value_parser!(i32).range(1..=80))]
    pub margin: i32,
    /// Games mined at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub jobs: Option<u64>,
    /// Stop after mining this many more games (the rest waits for the next run).
    #[arg(long)]
    pub games: Option<usize>,
    /// Without a terminal, print a progress line every this many games.
    #[arg(long, default_value_t = 25)]
    pub every: usize,
}

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// One JSON object a line (`id`, `position`, `solution`, `themes`, `rating`, ...)
    /// instead of text.
    #[arg(long)]
    pub json: bool,
    /// The collection file (default: the collection shipped in the binary, the one
    /// `toguz puzzle` plays).
    pub file: Option<PathBuf>,
}

pub fn run(args: PuzzleArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        None => super::play::run_console(args.play.into_play(), true),
        Some(PuzzleCommand::Generate(args)) => generate(args),
        Some(PuzzleCommand::Export(args)) => export(args),
    }
}

fn done_path(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_os_string();
    name.push(".done");
    PathBuf::from(name)
}

fn read_optional(path: &Path) -> anyhow::Result<String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// The games of `files` not yet in `done`, each once, and how many games the files hold.
fn games_to_mine(files: &[String], done: &HashSet<String>) -> anyhow::Result<(Vec<Game>, usize)> {
    let mut all = Vec::new();
    for file in files {
        let text = super::read_input(file)?;
        let name = Path::new(file)
            .file_name()
            .map_or(file.clone(), |n| n.to_string_lossy().into_owned());
        let (games, skipped) = read_games(&name, &text);
        if skipped > 0 {
            eprintln!("{file}: {skipped} records skipped (they do not replay by the rules)");
        }
        all.extend(games);
    }
    let total = all.len();
    Ok((pending_games(all, done), total))
}

fn bar(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let style =
        ProgressStyle::with_template("games [{bar:30}] {pos}/{len} {per_sec} {msg} (eta {eta})")
            .map(|s| s.progress_chars("=> "));
    if let Ok(style) = style {
        bar.set_style(style);
    }
    bar
}

/// Totals of a run, for its progress line and last lines.
#[derive(Default)]
struct Totals {
    games: usize,
    positions: usize,
    candidates: usize,
    found: usize,
    kept: usize,
}

fn generate(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    let settings = Settings {
        depth: args.depth,
        margin: args.margin * BALL,
        ..Settings::default()
    };
    let done_file = done_path(&args.output);
    let existing = parse_puzzles(&read_optional(&args.output)?)
        .with_context(|| format!("{} is not a puzzle collection", args.output.display()))?;
    let done = read_done(&read_optional(&done_file)?);
    let mut used = used_positions(&existing);
    let (mut todo, total) = games_to_mine(&args.files, &done)?;
    let new = todo.len();
    if let Some(limit) = args.games {
        todo.truncate(limit);
    }
    println!(
        "{} games in the files, {} not mined before (each once), {} puzzles already; {} to mine now; depth {}, margin {} balls",
        total,
        new,
        existing.len(),
        todo.len(),
        settings.depth,
        args.margin
    );
    let open = |path: &Path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open {}", path.display()))
    };
    let (mut out, mut done_out) = (open(&args.output)?, open(&done_file)?);
    let jobs = args
        .jobs
        .map_or_else(
            || std::thread::available_parallelism().map_or(1, usize::from),
            |j| j as usize,
        )
        .clamp(1, todo.len().max(1));
    let bar = bar(todo.len() as u64);
    let started = Instant::now();
    let mut totals = Totals::default();
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, GameMined)>();
    let result = std::thread::scope(|s| -> anyhow::Result<()> {
        for _ in 0..jobs {
            let (tx, next, todo, failed) = (tx.clone(), &next, &todo, &failed);
            s.spawn(move || {
                let mut searcher = Searcher::new(TABLE_MB);
                loop {
                    if failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = todo.get(i) else { break };
                    if tx
                        .send((i, mine_game(game, &settings, &mut searcher)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Games are written in their order, whichever thread finishes first: the first of
        // two puzzles on one position is kept, on every run.
        let mut waiting: BTreeMap<usize, GameMined> = BTreeMap::new();
        let mut written = 0;
        for (i, mined) in rx {
            waiting.insert(i, mined);
            while let Some(mined) = waiting.remove(&written) {
                let step = write_game(&todo[written], mined, &mut used, &mut out, &mut done_out);
                let kept = match step {
                    Ok(kept) => kept,
                    Err(e) => {
                        failed.store(true, Ordering::Relaxed);
                        return Err(e);
                    }
                };
                totals.games += 1;
                totals.positions += kept.positions;
                totals.candidates += kept.candidates;
                totals.found += kept.found;
                totals.kept += kept.kept;
                written += 1;
                bar.set_position(written as u64);
                bar.set_message(format!("{} puzzles", totals.kept));
                if bar.is_hidden() && (written % args.every.max(1) == 0 || written == todo.len()) {
                    println!("{}", progress_line(&totals, todo.len(), started));
                }
            }
        }
        Ok(())
    });
    bar.finish_and_clear();
    result?;
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    println!(
        "mined {} games in {:.0} s ({:.2} games/s, {:.1} positions/s): {} positions, {} candidates verified, {} puzzles, {} kept (new positions)",
        totals.games,
        secs,
        totals.games as f64 / secs,
        totals.positions as f64 / secs,
        totals.positions,
        totals.candidates,
        totals.found,
        totals.kept
    );
    let all = parse_puzzles(&read_optional(&args.output)?)?;
    print!("{}: {}", args.output.display(), summary(&all));
    Ok(ExitCode::SUCCESS)
}

fn progress_line(t: &Totals, of: usize, started: Instant) -> String {
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    let rate = t.games as f64 / secs;
    let left = of.saturating_sub(t.games) as f64 / rate.max(1e-9);
    format!(
        "games {}/{of}, {} puzzles, {rate:.2} games/s, eta {}m{:02}s",
        t.games,
        t.kept,
        (left / 60.0) as u64,
        (left % 60.0) as u64
    )
}

struct Written {
    positions: usize,
    candidates: usize,
    found: usize,
    kept: usize,
}

/// Appends a game's new puzzles, then its key to the done file (a stop between the two
/// mines the game again and finds its puzzles' positions used: nothing is written twice).
fn write_game(
    game: &Game,
    mined: GameMined,
    used: &mut HashSet<String>,
    out: &mut std::fs::File,
    done_out: &mut std::fs::File,
) -> anyhow::Result<Written> {
    let found = mined.puzzles.len();
    let mut text = String::new();
    let mut kept = 0;
    for puzzle in mined.puzzles {
        let keys = puzzle.solver_keys();
        if keys.iter().any(|k| used.contains(k)) {
            continue;
        }
        used.extend(keys);
        text.push_str(&puzzle_line(&puzzle));
        text.push('\n');
        kept += 1;
    }
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write the puzzles")?;
    writeln!(done_out, "{}", game_key(game))
        .and_then(|()| done_out.flush())
        .context("cannot write the done file")?;
    Ok(Written {
        positions: mined.positions,
        candidates: mined.candidates,
        found,
        kept,
    })
}

fn export(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let (text, name) = match &args.file {
        Some(file) => (
            std::fs::read_to_string(file)
                .with_context(|| format!("cannot read {}", file.display()))?,
            file.display().to_string(),
        ),
        None => (SHIPPED.to_string(), "the shipped collection".to_string()),
    };
    let puzzles =
        parse_puzzles(&text).with_context(|| format!("{name} is not a puzzle collection"))?;
    let mut stdout = std::io::stdout().lock();
    for p in &puzzles {
        let line = if args.json {
            puzzle_line(p)
        } else {
            let themes: Vec<&str> = p.themes.iter().map(|t| t.name()).collect();
            format!(
                "{} {} {:<11} {} [{}]",
                p.id,
                p.rating,
                p.solution,
                p.position,
                themes.join(",")
            )
        };
        if writeln!(stdout, "{line}").is_err() {
            break; // a closed pipe (`| head`) ends the listing
        }
    }
    Ok(ExitCode::SUCCESS)
}
