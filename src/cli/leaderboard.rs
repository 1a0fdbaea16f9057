//! `toguz leaderboard`: a leaderboard read from the store, as text or JSON.

use super::export::StoreArgs;
use crate::manager::history::{leaderboard, INACTIVE_SECS};
use crate::model::{Category, ChatRef, Platform};
use crate::ratings::keys::Scope;
use crate::ratings::LeaderRow;
use anyhow::Context;
use serde::Serialize;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct LeaderboardArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// The platform whose players are ranked; without it, every platform that has rated
    /// players, each in its own section.
    #[arg(long, value_enum)]
    pub platform: Option<PlatformArg>,
    /// Only the players of this chat (a Telegram chat id such as -100123, a Discord server
    /// id); looked up on every platform unless --platform is given.
    #[arg(long, allow_hyphen_values = true)]
    pub chat: Option<String>,
    /// The time category ranked: each has its own ratings.
    #[arg(long, value_enum, default_value = "correspondence")]
    pub category: CategoryArg,
    /// How many rows (on each platform).
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// An array of rows, best first on each platform, as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum PlatformArg {
    Telegram,
    Discord,
    Console,
}

impl From<PlatformArg> for Platform {
    fn from(p: PlatformArg) -> Platform {
        match p {
            PlatformArg::Telegram => Platform::Telegram,
            PlatformArg::Discord => Platform::Discord,
            PlatformArg::Console => Platform::Console,
        }
    }
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum CategoryArg {
    Blitz,
    Rapid,
    Correspondence,
}

impl From<CategoryArg> for Category {
    fn from(c: CategoryArg) -> Category {
        match c {
            CategoryArg::Blitz => Category::Blitz,
            CategoryArg::Rapid => Category::Rapid,
            CategoryArg::Correspondence => Category::Correspondence,
        }
    }
}

/// Every platform, in the order their sections are printed.
const PLATFORMS: [Platform; 3] = [Platform::Telegram, Platform::Discord, Platform::Console];

/// One row of `--json`.
#[derive(Serialize, Debug, PartialEq)]
pub struct Row {
    pub platform: &'static str,
    pub place: usize,
    pub name: String,
    pub user: String,
    pub rating: i64,
    pub deviation: i64,
    pub provisional: bool,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// One platform's leaderboard.
struct Section {
    platform: Platform,
    rows: Vec<Row>,
}

pub fn run(args: LeaderboardArgs) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(run_async(args))
}

async fn run_async(args: LeaderboardArgs) -> anyhow::Result<ExitCode> {
    let store = args.store.open().await?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let category = Category::from(args.category);
    let platforms = match args.platform {
        Some(p) => vec![Platform::from(p)],
        None => PLATFORMS.to_vec(),
    };
    let mut sections = Vec::new();
    for platform in platforms {
        let scope = match &args.chat {
            Some(chat) => Scope::Chat(ChatRef::new(platform, chat.clone())),
            None => Scope::Platform(platform),
        };
        // Every player, provisional ratings too (marked `?`): the operator's view.
        let at = (now, args.top.max(1));
        let board = leaderboard(&store, scope, category, None, at, true).await?;
        sections.push(section(platform, &board.top));
    }
    if args.json {
        let rows: Vec<&Row> = sections.iter().flat_map(|s| &s.rows).collect();
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(ExitCode::SUCCESS);
    }
    // A platform asked for by name gets its rows alone; otherwise each platform that has
    // rated players gets a heading.
    let headed = args.platform.is_none();
    sections.retain(|s| !s.rows.is_empty());
    if sections.is_empty() {
        println!(
            "No rated {} players here (players leave after {} days without a rated game of the category).",
            category.name(),
            INACTIVE_SECS / 86_400
        );
    }
    for (i, section) in sections.iter().enumerate() {
        if headed {
            let gap = if i == 0 { "" } else { "\n" };
            println!("{gap}{}:", section.platform.name());
        }
        print_rows(section);
    }
    Ok(ExitCode::SUCCESS)
}

fn section(platform: Platform, top: &[(usize, LeaderRow)]) -> Section {
    let rows = top
        .iter()
        .map(|(place, r)| Row {
            platform: platform.name(),
            place: *place,
            name: r.user.name.clone(),
            user: r.user.key(),
            rating: r.rating.rating.round() as i64,
            deviation: r.rating.deviation.round() as i64,
            provisional: r.rating.is_provisional(),
            games: r.games,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
        })
        .collect();
    Section { platform, rows }
}

fn print_rows(section: &Section) {
    for row in &section.rows {
        // As the chat leaderboards show it: a provisional rating is marked `?`.
        let mark = if row.provisional { "?" } else { "" };
        let shown = format!("{}{mark}", row.rating);
        println!(
            "{:>3}. {:<24} {:>6} ±{:<3} {:>4} games  +{} ={} -{}",
            row.place, row.name, shown, row.deviation, row.games, row.wins, row.draws, row.losses
        );
    }
}
