//! A time control as a value (issue 17): what a game's clock is, as players type it and as
//! records write it, and the clock's time as text. Pure: no I/O, no system clock. The
//! running clock (`GameClock`) and the bot's thinking budget are in `timecontrol`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The shortest base time a player may ask for: 6 seconds (`0.1`).
pub const MIN_BASE_MS: u64 = 6_000;
/// The longest base time: 3 hours (`180`).
pub const MAX_BASE_MS: u64 = 180 * 60_000;
/// The largest increment: one minute.
pub const MAX_INCREMENT_MS: u64 = 60_000;
/// Blitz is a game whose expected length per side is under 8 minutes.
const BLITZ_UNDER_MS: u64 = 8 * 60_000;
/// Moves per side a game is expected to last, to weigh the increment (as lichess does).
const EXPECTED_MOVES: u64 = 40;
/// The days per move a correspondence game may name (those lichess offers).
pub const DAYS_PER_MOVE: [u8; 6] = [1, 2, 3, 5, 7, 14];
const SECS_PER_DAY: u64 = 86_400;

/// A game's time control. Stored with the game; `correspondence` when absent (older games).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TimeControl {
    /// No clock: each move within the configured hours (`[limits] move_timeout_hours`).
    #[default]
    Correspondence,
    /// A clock per side: `base_ms` at the start, `increment_ms` added after each move.
    Fischer { base_ms: u64, increment_ms: u64 },
    /// Correspondence with its time named: each move within this many days (one of
    /// `DAYS_PER_MOVE`), instead of the configured hours. Stored as `{"days": 2}`.
    Days(u8),
}

/// The rating category of a time control (kept in the record): each has its own rating.
/// Ordered fastest first, as `/stats` lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// Expected time per side (base + 40 increments) under 8 minutes.
    Blitz,
    Rapid,
    Correspondence,
}

impl Category {
    pub const ALL: [Category; 3] = [Category::Blitz, Category::Rapid, Category::Correspondence];

    pub fn name(self) -> &'static str {
        match self {
            Category::Blitz => "blitz",
            Category::Rapid => "rapid",
            Category::Correspondence => "correspondence",
        }
    }

    /// A category's name as a player types it, in any of the catalogs' languages
    /// (`blitz`, `блиц`, `рапид`, `заочная`, `сырттай`, ...), or as a record writes it.
    pub fn parse(text: &str) -> Option<Category> {
        let lower = text.trim().to_lowercase();
        match lower.as_str() {
            "blitz" | "блиц" => Some(Category::Blitz),
            "rapid" | "рапид" => Some(Category::Rapid),
            "заочные" => Some(Category::Correspondence),
            word if CORRESPONDENCE_WORDS.contains(&word) => Some(Category::Correspondence),
            _ => None,
        }
    }
}

/// Why a typed time control was refused. The catalog text (`time-error-*`) lists valid
/// examples; this `Display` is for logs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    #[error("{0:?} is not a time control (examples: 3+2, 5+0, 0.5+2, correspondence)")]
    Format(String),
    #[error("{0:?}: the base time must be at least 0.1 minutes with some time on the clock")]
    TooShort(String),
    #[error("{0:?}: the base time may be at most 180 minutes")]
    TooLong(String),
    #[error("{0:?}: the increment may be at most 60 seconds")]
    IncrementTooLong(String),
    #[error("{0:?}: days per move may be 1, 2, 3, 5, 7 or 14")]
    Days(String),
}

/// Words for "day" after a number of days (`2 days`, `2d`, `1 день`, `5 дней`, `2 суток`,
/// `3 күн`), as players type them; a trailing dot (`2 дн.`) is dropped first.
const DAY_WORDS: [&str; 14] = [
    "d",
    "day",
    "days",
    "д",
    "дн",
    "день",
    "дня",
    "дней",
    "сут",
    "сутки",
    "суток",
    "күн",
    "тәулік",
    "күндік",
];

/// Words for "correspondence" that players may type, besides the English one.
const CORRESPONDENCE_WORDS: [&str; 6] = [
    "correspondence",
    "corr",
    "заочная",
    "заочно",
    "по переписке",
    "сырттай",
];

impl TimeControl {
    /// Fischer from whole minutes and seconds (for code and tests).
    pub fn fischer(minutes: u64, increment_secs: u64) -> TimeControl {
        TimeControl::Fischer {
            base_ms: minutes.saturating_mul(60_000),
            increment_ms: increment_secs.saturating_mul(1000),
        }
    }

    /// Parses what a player types: `3+2`, `0.5+2` (or `0,5+2`), `5` (= `5+0`),
    /// `correspondence` (and its Russian and Kazakh names), days per move (`2 days`, `2d`,
    /// `2 дня`, `2 суток`, `2 күн`).
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        let trimmed = text.trim();
        let lower = trimmed.to_lowercase();
        if CORRESPONDENCE_WORDS.contains(&lower.as_str()) {
            return Ok(TimeControl::Correspondence);
        }
        if let Some(days) = parse_days(&lower) {
            return days.ok_or_else(|| TimeControlError::Days(trimmed.to_string()));
        }
        let bad = || TimeControlError::Format(trimmed.to_string());
        let (minutes, seconds) = match lower.split_once('+') {
            Some((m, s)) => (m.trim(), s.trim()),
            None => (lower.as_str(), "0"),
        };
        let base_ms = decimal_ms(minutes, 60_000).ok_or_else(bad)?;
        let increment_ms = decimal_ms(seconds, 1000).ok_or_else(bad)?;
        TimeControl::Fischer {
            base_ms,
            increment_ms,
        }
        .validated(trimmed)
    }

    /// Checks the bounds of a Fischer control (`text` names it in the error).
    fn validated(self, text: &str) -> Result<TimeControl, TimeControlError> {
        let TimeControl::Fischer {
            base_ms,
            increment_ms,
        } = self
        else {
            return Ok(self);
        };
        if base_ms < MIN_BASE_MS {
            return Err(TimeControlError::TooShort(text.to_string()));
        }
        if base_ms > MAX_BASE_MS {
            return Err(TimeControlError::TooLong(text.to_string()));
        }
        if increment_ms > MAX_INCREMENT_MS {
            return Err(TimeControlError::IncrementTooLong(text.to_string()));
        }
        Ok(self)
    }

    /// A game with clocks (Fischer); correspondence, with days named or not, has none.
    pub fn is_timed(self) -> bool {
        matches!(self, TimeControl::Fischer { .. })
    }

    pub fn increment_ms(self) -> u64 {
        match self {
            TimeControl::Fischer { increment_ms, .. } => increment_ms,
            TimeControl::Correspondence | TimeControl::Days(_) => 0,
        }
    }

    /// The time for each move of a game with days named, in seconds; `None` for a game
    /// on clocks or for plain correspondence (whose time is the configured hours).
    pub fn move_secs(self) -> Option<u64> {
        match self {
            TimeControl::Days(days) => Some(u64::from(days) * SECS_PER_DAY),
            TimeControl::Correspondence | TimeControl::Fischer { .. } => None,
        }
    }

    pub fn category(self) -> Category {
        match self {
            TimeControl::Correspondence | TimeControl::Days(_) => Category::Correspondence,
            TimeControl::Fischer {
                base_ms,
                increment_ms,
            } => {
                let expected = base_ms.saturating_add(increment_ms.saturating_mul(EXPECTED_MOVES));
                if expected < BLITZ_UNDER_MS {
                    Category::Blitz
                } else {
                    Category::Rapid
                }
            }
        }
    }

    /// The PGN `TimeControl` header as PlayOK writes it: `180+2` (seconds + seconds);
    /// correspondence as one move per `move_timeout_secs` (`1/259200`), days per move
    /// likewise (`1/172800` for 2 days: the standard's "moves/seconds" period of one move,
    /// as chess.com writes its daily games; `*N` would be a sandclock).
    pub fn pgn(self, move_timeout_secs: u64) -> String {
        match self {
            TimeControl::Correspondence => format!("1/{move_timeout_secs}"),
            TimeControl::Days(days) => format!("1/{}", u64::from(days) * SECS_PER_DAY),
            TimeControl::Fischer {
                base_ms,
                increment_ms,
            } => format!("{}+{}", seconds_text(base_ms), seconds_text(increment_ms)),
        }
    }

    /// Reads a PGN `TimeControl` header (`180+2`, `300`, `1/172800`, `-`). One move in a
    /// whole number of days that a game may name reads as those days per move; any other
    /// period of one move as correspondence.
    pub fn from_pgn(text: &str) -> Option<TimeControl> {
        let text = text.trim();
        if let Some(secs) = text.strip_prefix("1/") {
            let days = secs
                .parse::<u64>()
                .ok()
                .filter(|s| s % SECS_PER_DAY == 0)
                .and_then(|s| u8::try_from(s / SECS_PER_DAY).ok())
                .filter(|d| DAYS_PER_MOVE.contains(d));
            return Some(days.map_or(TimeControl::Correspondence, TimeControl::Days));
        }
        if text == "-" {
            return Some(TimeControl::Correspondence);
        }
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        Some(TimeControl::Fischer {
            base_ms: decimal_ms(base, 1000)?,
            increment_ms: decimal_ms(inc, 1000)?,
        })
    }
}

/// `3+2`, `0.5+2`, `correspondence`, `2d`: what players type, parsed back by `parse` (and
/// short enough for a button's data). Texts for people name days in their language.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Correspondence => f.write_str("correspondence"),
            TimeControl::Days(days) => write!(f, "{days}d"),
            TimeControl::Fischer {
                base_ms,
                increment_ms,
            } => write!(
                f,
                "{}+{}",
                unit_text(base_ms, 60_000),
                seconds_text(increment_ms)
            ),
        }
    }
}

impl std::str::FromStr for TimeControl {
    type Err = TimeControlError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TimeControl::parse(s)
    }
}

/// Days per move (`2 days`, `2d`, `5 дней`, `2 күн`): `None` when `lower` (trimmed, in
/// lower case) is no number of days; `Some(None)` for a number of days a game may not name
/// (`4 days`, `1.5d`, `0 days`).
fn parse_days(lower: &str) -> Option<Option<TimeControl>> {
    let lower = lower.strip_suffix('.').unwrap_or(lower);
    let unit_at = lower.find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | ',')))?;
    let (number, unit) = lower.split_at(unit_at);
    if number.is_empty() || !DAY_WORDS.contains(&unit.trim_start()) {
        return None;
    }
    let days = number
        .parse::<u8>()
        .ok()
        .filter(|d| DAYS_PER_MOVE.contains(d));
    Some(days.map(TimeControl::Days))
}

/// A non-negative decimal (`0.5`, `0,25`, `10`) times `unit` milliseconds, rounded to whole
/// milliseconds; `None` for anything else (signs, exponents, empty, overflow).
fn decimal_ms(text: &str, unit: u64) -> Option<u64> {
    let text = text.replace(',', ".");
    let (whole, frac) = text.split_once('.').unwrap_or((&text, ""));
    let digits = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    if whole.is_empty() && frac.is_empty() || !digits(whole) || !digits(frac) || frac.len() > 6 {
        return None;
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let mut ms = whole.checked_mul(unit)?;
    if !frac.is_empty() {
        let frac_value: u64 = frac.parse().ok()?;
        let denom = 10u64.checked_pow(u32::try_from(frac.len()).ok()?)?;
        ms = ms.checked_add((frac_value.checked_mul(unit)? + denom / 2) / denom)?;
    }
    Some(ms)
}

/// `ms` in `unit`s, with as many decimals as needed (at most 3): `0.5`, `3`, `0.25`.
fn unit_text(ms: u64, unit: u64) -> String {
    let whole = ms / unit;
    let rest = ms % unit;
    if rest == 0 {
        return whole.to_string();
    }
    let thousandths = (rest * 1000 + unit / 2) / unit;
    let text = format!("{whole}.{thousandths:03}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn seconds_text(ms: u64) -> String {
    unit_text(ms, 1000)
}

/// `m:ss` (or `h:mm:ss` from an hour), rounded down to the second: the clock as boards show
/// it. Below ten seconds tenths are shown too (`0:07.3`), as clocks do in a scramble.
pub fn clock_text(ms: u64) -> String {
    let secs = ms / 1000;
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else if secs < 10 {
        format!("{m}:{s:02}.{}", ms % 1000 / 100)
    } else {
        format!("{m}:{s:02}")
    }
}

/// The `%clk` comment's time: `h:mm:ss` always (as PGN writes it).
pub fn pgn_clock(ms: u64) -> String {
    let secs = ms / 1000;
    format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

/// Reads `h:mm:ss` or `m:ss` (optionally with a decimal fraction of a second).
pub fn parse_pgn_clock(text: &str) -> Option<u64> {
    let parts: Vec<&str> = text.trim().split(':').collect();
    if parts.len() < 2 || parts.len() > 3 {
        return None;
    }
    let mut ms = 0u64;
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let value = if last {
            decimal_ms(part, 1000)?
        } else {
            part.parse::<u64>().ok()?.checked_mul(1000)?
        };
        ms = ms.checked_mul(if i == 0 { 1 } else { 60 })?;
        ms = ms.checked_add(value)?;
    }
    Some(ms)
}

#[cfg(test)]
mod tests;
