//! `toguz play`: a game against the bot in the terminal, through the manager and sled.

use crate::cli::run::{init_logging, report_store_failure};
use crate::config::{Config, LogFormat, PuzzlesConfig};
use crate::engine::{EngineConfig, EnginePool};
use crate::i18n::Lang;
use crate::manager::{Manager, ManagerConfig};
use crate::model::{Level, TimeControl};
use crate::platform::console::{console_user, local_player, Console, PlaySettings};
use crate::rules::{parse_variant, Side, Variant};
use crate::store::{Location, Store, StoreOptions};
use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The bot's level: random, beginner, easy, medium, hard or max, or its Russian or
    /// Kazakh name (лёгкий, жеңіл, ...).
    #[arg(long, default_value = "medium", value_parser = parse_level)]
    pub level: Level,
    /// Your colour (random if not given).
    #[arg(long, value_enum)]
    pub colour: Option<Colour>,
    /// The variant, as in a record's Variant header (e.g. "5", "3 no-tuzdek").
    #[arg(long, value_parser = parse_variant_arg)]
    pub variant: Option<Variant>,
    /// Hot seat: two people at this keyboard, this one playing White (with --black); the
    /// game is rated between the two names.
    #[arg(long, requires = "black", value_parser = parse_name)]
    pub white: Option<String>,
    /// Hot seat: the name of the player of Black (with --white).
    #[arg(long, requires = "white", value_parser = parse_name)]
    pub black: Option<String>,
    /// Play on a clock: Fischer `M+S` (minutes per side + seconds added per move, e.g.
    /// 3+2, 0.5+2) or `correspondence` (the default).
    #[arg(long, value_parser = parse_clock)]
    pub clock: Option<TimeControl>,
    /// Where games are kept: a sled directory (default toguz-data, or the config's
    /// `[storage]` when --config is given).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// A config file whose `[storage]` table names the store (sled or PostgreSQL; unless
    /// `--data-dir` is given) and whose `[limits]` and `[clock]` apply.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// A puzzle collection made by `toguz puzzle generate` (default: the config's
    /// `[puzzles]`, else the shipped collection).
    #[arg(long)]
    pub puzzles: Option<PathBuf>,
    /// Language: en, ru or kk (default: the one chosen last time, else English).
    #[arg(long, value_parser = parse_lang)]
    pub lang: Option<Lang>,
    #[arg(long, value_enum, default_value = "text")]
    pub log_format: LogFormat,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Colour {
    White,
    Black,
}

fn parse_level(s: &str) -> Result<Level, String> {
    s.parse()
        .map_err(|e: crate::model::UnknownLevel| e.to_string())
}

fn parse_clock(s: &str) -> Result<TimeControl, String> {
    TimeControl::parse(s).map_err(|e| e.to_string())
}

pub(super) fn parse_lang(s: &str) -> Result<Lang, String> {
    s.parse()
        .map_err(|e: crate::i18n::UnknownLang| e.to_string())
}

fn parse_name(s: &str) -> Result<String, String> {
    let name = s.trim();
    if name.is_empty() || name.chars().count() > 32 || name.chars().any(char::is_control) {
        return Err("a name is 1 to 32 printable characters".into());
    }
    Ok(name.to_string())
}

fn parse_variant_arg(s: &str) -> Result<Variant, String> {
    parse_variant(s)
        .ok_or_else(|| format!("unknown variant {s:?} (e.g. \"9\", \"5\", \"3 no-tuzdek\")"))
}

pub fn run(args: PlayArgs) -> anyhow::Result<ExitCode> {
    run_console(args, false)
}

/// `toguz play`, or with `puzzles` `toguz puzzle`: the console starts with a puzzle.
pub fn run_console(args: PlayArgs, puzzles: bool) -> anyhow::Result<ExitCode> {
    // Logs go to stderr and stay quiet unless asked (RUST_LOG), so the board reads cleanly.
    init_logging(args.log_format, "warn");
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(play(args, puzzles))
}

async fn play(args: PlayArgs, puzzles: bool) -> anyhow::Result<ExitCode> {
    // A config file gives the limits and the clock defaults; `--data-dir` wins over its
    // `[storage]`.
    let config = args.config.as_deref().map(Config::load).transpose()?;
    let (location, options) = match (&args.data_dir, &config) {
        (Some(dir), _) => (Location::Sled(dir.clone()), StoreOptions::default()),
        (None, Some(config)) => {
            let storage = &config.storage;
            (storage.location_from_env()?, storage.store_options())
        }
        (None, None) => (
            Location::Sled(PathBuf::from("toguz-data")),
            StoreOptions::default(),
        ),
    };
    let store = Store::open_at(&location, &options).await?;
    let engine = EnginePool::new(EngineConfig::default());
    let mut manager_config = config.map_or_else(ManagerConfig::default, |c| c.manager_config());
    if let Some(file) = &args.puzzles {
        manager_config.puzzles = Some(PuzzlesConfig::read_collection(file)?);
    }
    let manager = Manager::start(store, engine, manager_config).await?;
    let user = console_user();
    let lang = match args.lang {
        Some(lang) => {
            manager.set_user_lang(&user, lang).await?;
            lang
        }
        None => manager.user_lang(&user).await.unwrap_or_default(),
    };
    let settings = PlaySettings {
        level: args.level,
        colour: args.colour.map(|c| match c {
            Colour::White => Side::White,
            Colour::Black => Side::Black,
        }),
        variant: args.variant.unwrap_or_default(),
        lang,
        players: match (&args.white, &args.black) {
            (Some(w), Some(b)) if local_player(w) == local_player(b) => {
                anyhow::bail!("--white and --black must name two different players")
            }
            (Some(w), Some(b)) => Some([local_player(w), local_player(b)]),
            _ => None,
        },
        time: args.clock,
        puzzles,
    };
    let stdin = tokio::io::BufReader::new(tokio::io::stdin());
    let console = Console::new(manager.clone(), settings, std::io::stdout());
    tokio::select! {
        played = console.run(stdin) => played?,
        cause = manager.store_failed() => {
            report_store_failure(&cause);
            return Ok(ExitCode::from(1));
        }
    }
    manager.flush()?;
    Ok(ExitCode::SUCCESS)
}
