//! `[bot]` and `[limits]` in the config file: what the manager enforces.

use crate::model::{Level, TimeControl, TimeControlError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `[bot]` settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BotConfig {
    /// The level used when a player names none.
    pub default_level: Level,
}

impl Default for BotConfig {
    fn default() -> Self {
        BotConfig {
            default_level: Level::Medium,
        }
    }
}

/// `[limits]` settings: against spam, and how long things wait.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LimitsConfig {
    /// Open challenges one user may have at once.
    pub challenges_per_user: usize,
    /// Open challenges in one chat at once.
    pub challenges_per_chat: usize,
    /// Ongoing games one user may play at once (bot games included).
    pub games_per_user: usize,
    /// Ongoing games in one chat at once.
    pub games_per_chat: usize,
    /// Tournaments one user may have created that have not ended (taking entries or
    /// running). A tournament's own games count against neither games limit.
    pub tournaments_per_user: usize,
    /// Tournaments in one chat that have not ended, at once.
    pub tournaments_per_chat: usize,
    /// A challenge nobody answers expires after this many seconds.
    pub challenge_expiry_secs: u64,
    /// A game with no move for this many hours ends as a loss for the side to move.
    pub move_timeout_hours: u64,
    /// How often the background task looks for expired challenges and time-outs.
    pub sweep_interval_secs: u64,
    /// Rated games the same two people may start in one day (UTC); later games between them
    /// that day are unrated, and their challenges say so (against farming a rating with a
    /// second account). 0: no limit.
    pub rated_games_per_pair_per_day: u32,
    /// Commands one user may give per minute, on every platform (over it: one "slow down"
    /// answer, then silence or the same answer where every command must be answered).
    pub commands_per_minute: u32,
    /// Whether players whose rating is still provisional (deviation over 110, shown as
    /// `1512?`) are on the leaderboards. Off: a second account that won a few games cannot
    /// top a board; they show in /stats with the mark.
    pub provisional_on_leaderboards: bool,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        LimitsConfig {
            challenges_per_user: 3,
            challenges_per_chat: 20,
            games_per_user: 10,
            games_per_chat: 100,
            tournaments_per_user: 2,
            tournaments_per_chat: 3,
            challenge_expiry_secs: 600,
            move_timeout_hours: 72,
            sweep_interval_secs: 30,
            rated_games_per_pair_per_day: 3,
            commands_per_minute: 20,
            provisional_on_leaderboards: false,
        }
    }
}

/// `[clock]` settings: the time control of a game when the players name none.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClockConfig {
    /// `correspondence` or Fischer `M+S` (`3+2`, `0.5+2`).
    pub default: String,
    /// Per chat: `"telegram:<chat id>"` or `"discord:<server id>"` = a time control, used
    /// there instead of `default`.
    pub chats: BTreeMap<String, String>,
    /// In a timed game each side's first move must come within this many seconds, or the
    /// game is aborted without result.
    pub first_move_secs: u64,
}

impl Default for ClockConfig {
    fn default() -> Self {
        ClockConfig {
            default: "correspondence".into(),
            chats: BTreeMap::new(),
            first_move_secs: 30,
        }
    }
}

impl ClockConfig {
    /// Checks every time control in the section.
    pub fn validate(&self) -> Result<(), TimeControlError> {
        TimeControl::parse(&self.default)?;
        for text in self.chats.values() {
            TimeControl::parse(text)?;
        }
        Ok(())
    }

    /// The default time control in the chat `chat_key` (`ChatRef::key`).
    pub fn default_for(&self, chat_key: &str) -> TimeControl {
        let text = self.chats.get(chat_key).unwrap_or(&self.default);
        // Checked when the config was loaded; a bad value falls back to correspondence.
        TimeControl::parse(text).unwrap_or_default()
    }

    pub fn first_move_ms(&self) -> u64 {
        self.first_move_secs.saturating_mul(1000)
    }
}

/// Everything the manager is configured with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ManagerConfig {
    pub bot: BotConfig,
    pub limits: LimitsConfig,
    pub clock: ClockConfig,
    pub review: super::ReviewConfig,
    /// The puzzle collection's text (`toguz puzzle generate`'s file); `None`: the
    /// collection shipped in the binary.
    pub puzzles: Option<std::sync::Arc<str>>,
    /// The game pages' public address (`[web] public_url`, without a trailing slash) when
    /// the pages are served: views then link to them (`Manager::page_url`).
    pub web_url: Option<String>,
}

impl LimitsConfig {
    pub fn move_timeout_secs(&self) -> u64 {
        self.move_timeout_hours.saturating_mul(3600)
    }
}
