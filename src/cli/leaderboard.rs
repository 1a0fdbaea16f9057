//! `toguz leaderboard`: a leaderboard read from the store, as text or JSON.

use super::export::StoreArgs;
use crate::manager::history::{leaderboard, INACTIVE_SECS};
use crate::model::{Category, ChatRef, Platform};
use crate::ratings::keys::Scope;
use anyhow::Context;
use serde::Serialize;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct LeaderboardArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// The platform whose players are ranked.
    #[arg(long, value_enum, default_value = "telegram")]
    pub platform: PlatformArg,
    /// Only the players of this chat (a Telegram chat id such as -100123, a Discord server
    /// id).
    #[arg(long, allow_hyphen_values = true)]
    pub chat: Option<String>,
    /// The time category ranked: each has its own ratings.
    #[arg(long, value_enum, default_value = "correspondence")]
    pub category: CategoryArg,
    /// How many rows.
    #[arg(long, default_value_t = 10)]
    pub top: usize,
    /// An array of rows, best first, as JSON.
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

/// One row of `--json`.
#[derive(Serialize, Debug, PartialEq)]
pub struct Row {
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

pub fn run(args: LeaderboardArgs) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(run_async(args))
}

async fn run_async(args: LeaderboardArgs) -> anyhow::Result<ExitCode> {
    let store = args.store.open().await?;
    let platform = Platform::from(args.platform);
    let scope = match args.chat {
        Some(chat) => Scope::Chat(ChatRef::new(platform, chat)),
        None => Scope::Platform(platform),
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let category = Category::from(args.category);
    let board = leaderboard(&store, scope, category, None, now, args.top.max(1)).await?;
    let rows: Vec<Row> = board
        .top
        .iter()
        .map(|(place, r)| Row {
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
    if args.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        println!(
            "No rated {} players here (players leave after {} days without a rated game of the category).",
            category.name(),
            INACTIVE_SECS / 86_400
        );
    }
    for (row, (_, r)) in rows.iter().zip(&board.top) {
        println!(
            "{:>3}. {:<24} {:>6} ±{:<3} {:>4} games  +{} ={} -{}",
            row.place,
            row.name,
            r.rating.shown(),
            row.deviation,
            row.games,
            row.wins,
            row.draws,
            row.losses
        );
    }
    Ok(ExitCode::SUCCESS)
}
