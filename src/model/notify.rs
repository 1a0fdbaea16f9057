//! What a player asked to be told about their correspondence games (`/notify`, issue 51):
//! each move, a daily digest, or nothing, and quiet hours in their own time. Pure values
//! and time arithmetic on unix milliseconds; no clock of its own.

use serde::{Deserialize, Serialize};

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 24 * HOUR_MS;
/// The widest offset from UTC anywhere (+14:00, -12:00 are the real extremes).
const MAX_OFFSET_MIN: i16 = 14 * 60;

/// What a player asked to be told about their correspondence games (`/notify`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct NotifySettings {
    pub mode: NotifyMode,
    pub quiet: Option<QuietHours>,
    /// The player's offset from UTC in minutes, as last given (`digest 9 +05`, `quiet 23-08
    /// +05`): the digest's hour is read in it. 0 until given.
    #[serde(default)]
    pub utc_offset_min: i16,
}

/// How often a player is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum NotifyMode {
    /// A message when it becomes their move (at most one per 10 minutes), and warnings.
    #[default]
    Each,
    /// One message a day at `hour` (their own time) listing the games where it is their
    /// move; warnings still come.
    Digest { hour: u8 },
    /// Nothing in private.
    Off,
}

/// Hours in the player's own time: from `from` (inclusive) to `to` (exclusive), wrapping
/// past midnight (23-08), at a fixed offset from UTC in minutes (+05 = 300, -03:30 = -210).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuietHours {
    pub from: u8,
    pub to: u8,
    pub utc_offset_min: i16,
}

/// The first moment strictly after `now_ms` when the local clock (at `offset_min`) shows
/// `hour`:00, in unix ms.
fn next_local_hour(now_ms: u64, offset_min: i16, hour: u8) -> u64 {
    let offset = i64::from(offset_min) * 60_000;
    let local = now_ms as i64 + offset;
    let day_start = local - local.rem_euclid(DAY_MS);
    let mut at = day_start + i64::from(hour % 24) * HOUR_MS;
    if at <= local {
        at += DAY_MS;
    }
    (at - offset).max(0) as u64
}

impl QuietHours {
    /// Whether `now_ms` falls in the quiet hours; if so, when they end (unix ms).
    pub fn ends_after(&self, now_ms: u64) -> Option<u64> {
        let local = now_ms as i64 + i64::from(self.utc_offset_min) * 60_000;
        let hour = (local.rem_euclid(DAY_MS) / HOUR_MS) as u8;
        let (from, to) = (self.from % 24, self.to % 24);
        let quiet = match from.cmp(&to) {
            std::cmp::Ordering::Less => (from..to).contains(&hour),
            std::cmp::Ordering::Greater => hour >= from || hour < to,
            std::cmp::Ordering::Equal => false,
        };
        quiet.then(|| next_local_hour(now_ms, self.utc_offset_min, to))
    }
}

impl NotifyMode {
    /// For a digest: its next time strictly after `now_ms` (unix ms); `None` otherwise.
    pub fn next_digest_after(&self, now_ms: u64, utc_offset_min: i16) -> Option<u64> {
        match self {
            NotifyMode::Digest { hour } => Some(next_local_hour(now_ms, utc_offset_min, *hour)),
            NotifyMode::Each | NotifyMode::Off => None,
        }
    }
}

/// One change a `/notify` command asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotifyChange {
    /// The mode, and the offset from UTC given with it (a digest's hour is local).
    Mode(NotifyMode, Option<i16>),
    /// Quiet hours, or none (`quiet off`).
    Quiet(Option<QuietHours>),
}

impl NotifySettings {
    /// The settings after `change`.
    pub fn changed(&self, change: NotifyChange) -> NotifySettings {
        let mut out = self.clone();
        match change {
            NotifyChange::Mode(mode, offset) => {
                out.mode = mode;
                if let Some(offset) = offset {
                    out.utc_offset_min = offset;
                }
            }
            NotifyChange::Quiet(quiet) => {
                if let Some(q) = quiet {
                    out.utc_offset_min = q.utc_offset_min;
                }
                out.quiet = quiet;
            }
        }
        out
    }
}

/// Why `/notify`'s arguments were not taken; each names the word it could not take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotifyParseError {
    /// Nothing after `/notify`.
    #[error("nothing to change: on, off, digest 9 +05, quiet 23-08 +05 or quiet off")]
    Empty,
    /// A word that is none of the commands.
    #[error("{0:?} is not a /notify setting")]
    Word(String),
    /// An hour (0-23) or a range of hours (`23-08`) expected.
    #[error("{0:?} is not an hour or hours (0-23, 23-08)")]
    Hours(String),
    /// An offset from UTC expected (`+05`, `-03:30`, `utc`).
    #[error("{0:?} is not an offset from UTC (+05, -03:30)")]
    Offset(String),
    /// A word where the command ends.
    #[error("{0:?} is one word too many")]
    Extra(String),
}

/// `/notify` arguments as typed: `on`, `off`, `digest 9 [+05]`, `quiet 23-08 +05`,
/// `quiet off`; an error names the word it could not take.
pub fn parse_notify(args: &str) -> Result<NotifyChange, NotifyParseError> {
    let lower = args.trim().to_lowercase();
    let mut words = lower.split_whitespace();
    let first = words.next().ok_or(NotifyParseError::Empty)?;
    let change = match first {
        "on" | "each" => NotifyChange::Mode(NotifyMode::Each, None),
        "off" => NotifyChange::Mode(NotifyMode::Off, None),
        "digest" => {
            let hour = words.next().ok_or(NotifyParseError::Hours(String::new()))?;
            let hour = parse_hour(hour).ok_or_else(|| NotifyParseError::Hours(hour.into()))?;
            let offset = words.next().map(parse_offset).transpose()?;
            NotifyChange::Mode(NotifyMode::Digest { hour }, offset)
        }
        "quiet" => {
            let hours = words.next().ok_or(NotifyParseError::Hours(String::new()))?;
            if hours == "off" {
                NotifyChange::Quiet(None)
            } else {
                let (from, to) = hours
                    .split_once('-')
                    .and_then(|(a, b)| Some((parse_hour(a)?, parse_hour(b)?)))
                    .filter(|(a, b)| a != b)
                    .ok_or_else(|| NotifyParseError::Hours(hours.into()))?;
                let utc_offset_min = words.next().map(parse_offset).transpose()?.unwrap_or(0);
                NotifyChange::Quiet(Some(QuietHours {
                    from,
                    to,
                    utc_offset_min,
                }))
            }
        }
        other => return Err(NotifyParseError::Word(other.into())),
    };
    match words.next() {
        Some(extra) => Err(NotifyParseError::Extra(extra.into())),
        None => Ok(change),
    }
}

/// An hour of the day, `0`-`23` (`08`, `8`, `24` as midnight is refused).
fn parse_hour(word: &str) -> Option<u8> {
    let word = word.strip_suffix(":00").unwrap_or(word);
    if word.is_empty() || word.len() > 2 || !word.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    word.parse::<u8>().ok().filter(|h| *h < 24)
}

/// An offset from UTC: `+05`, `+5`, `-03:30`, `+0530`, `utc+3`, `gmt-2`, `utc`, `0`.
fn parse_offset(word: &str) -> Result<i16, NotifyParseError> {
    let bad = || NotifyParseError::Offset(word.into());
    let rest = word
        .strip_prefix("utc")
        .or_else(|| word.strip_prefix("gmt"))
        .unwrap_or(word);
    if rest.is_empty() || rest == "0" {
        return Ok(0);
    }
    let (sign, digits) = match rest.as_bytes()[0] {
        b'+' => (1, &rest[1..]),
        b'-' => (-1, &rest[1..]),
        _ => return Err(bad()),
    };
    let (hours, minutes) = match digits.split_once(':') {
        Some((h, m)) => (h, m),
        None if digits.len() == 4 => digits.split_at(2),
        None => (digits, "0"),
    };
    let number = |s: &str| -> Option<i16> {
        (!s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    let (h, m) = (
        number(hours).ok_or_else(bad)?,
        number(minutes).ok_or_else(bad)?,
    );
    let total = h * 60 + m;
    if m >= 60 || total > MAX_OFFSET_MIN {
        return Err(bad());
    }
    Ok(sign * total)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-12-07 00:00 UTC in unix ms.
    const MIDNIGHT: u64 = 1_796_601_600_000;
    const H: u64 = 3_600_000;

    #[test]
    fn midnight_is_midnight() {
        assert_eq!(MIDNIGHT % (24 * H), 0);
    }

    #[test]
    fn quiet_hours_wrap_past_midnight_in_local_time() {
        // 23-08 at +05: quiet from 18:00 to 03:00 UTC.
        let q = QuietHours {
            from: 23,
            to: 8,
            utc_offset_min: 300,
        };
        assert_eq!(q.ends_after(MIDNIGHT + 17 * H), None);
        assert_eq!(q.ends_after(MIDNIGHT + 18 * H), Some(MIDNIGHT + 27 * H));
        assert_eq!(q.ends_after(MIDNIGHT + 2 * H), Some(MIDNIGHT + 3 * H));
        assert_eq!(q.ends_after(MIDNIGHT + 3 * H), None);
        assert_eq!(
            q.ends_after(MIDNIGHT + 23 * H + 59 * 60_000),
            Some(MIDNIGHT + 27 * H)
        );
    }

    #[test]
    fn quiet_hours_within_a_day_and_negative_offsets() {
        // 13-15 at -03:30: quiet from 16:30 to 18:30 UTC.
        let q = QuietHours {
            from: 13,
            to: 15,
            utc_offset_min: -210,
        };
        let half = H / 2;
        assert_eq!(q.ends_after(MIDNIGHT + 16 * H), None);
        assert_eq!(
            q.ends_after(MIDNIGHT + 16 * H + half),
            Some(MIDNIGHT + 18 * H + half)
        );
        assert_eq!(q.ends_after(MIDNIGHT + 18 * H + half), None);
        let never = QuietHours {
            from: 5,
            to: 5,
            utc_offset_min: 0,
        };
        assert_eq!(never.ends_after(MIDNIGHT + 5 * H), None);
    }

    #[test]
    fn next_digest_is_strictly_later_at_the_local_hour() {
        let digest = NotifyMode::Digest { hour: 9 };
        // 09:00 at +05 is 04:00 UTC.
        assert_eq!(
            digest.next_digest_after(MIDNIGHT, 300),
            Some(MIDNIGHT + 4 * H)
        );
        assert_eq!(
            digest.next_digest_after(MIDNIGHT + 4 * H, 300),
            Some(MIDNIGHT + 28 * H)
        );
        assert_eq!(NotifyMode::Each.next_digest_after(MIDNIGHT, 0), None);
        assert_eq!(NotifyMode::Off.next_digest_after(MIDNIGHT, 0), None);
    }

    #[test]
    fn notify_arguments_parse() {
        use NotifyChange::*;
        assert_eq!(parse_notify("on"), Ok(Mode(NotifyMode::Each, None)));
        assert_eq!(parse_notify(" OFF "), Ok(Mode(NotifyMode::Off, None)));
        assert_eq!(
            parse_notify("digest 9 +05"),
            Ok(Mode(NotifyMode::Digest { hour: 9 }, Some(300)))
        );
        assert_eq!(
            parse_notify("digest 21"),
            Ok(Mode(NotifyMode::Digest { hour: 21 }, None))
        );
        let quiet = |from, to, utc_offset_min| {
            Ok(Quiet(Some(QuietHours {
                from,
                to,
                utc_offset_min,
            })))
        };
        assert_eq!(parse_notify("quiet 23-08 +05"), quiet(23, 8, 300));
        assert_eq!(parse_notify("quiet 23-8 -03:30"), quiet(23, 8, -210));
        assert_eq!(parse_notify("quiet 1-7 utc+0530"), quiet(1, 7, 330));
        assert_eq!(parse_notify("quiet 22-06"), quiet(22, 6, 0));
        assert_eq!(parse_notify("quiet off"), Ok(Quiet(None)));
    }

    #[test]
    fn notify_errors_name_the_word() {
        use NotifyParseError::*;
        assert_eq!(parse_notify(""), Err(Empty));
        assert_eq!(parse_notify("loud"), Err(Word("loud".into())));
        assert_eq!(parse_notify("digest 25"), Err(Hours("25".into())));
        assert_eq!(parse_notify("digest"), Err(Hours(String::new())));
        assert_eq!(parse_notify("quiet 23"), Err(Hours("23".into())));
        assert_eq!(parse_notify("quiet 8-8"), Err(Hours("8-8".into())));
        assert_eq!(parse_notify("quiet 23-08 +15"), Err(Offset("+15".into())));
        assert_eq!(parse_notify("quiet 23-08 05"), Err(Offset("05".into())));
        assert_eq!(
            parse_notify("quiet 23-08 +05:75"),
            Err(Offset("+05:75".into()))
        );
        assert_eq!(parse_notify("on please"), Err(Extra("please".into())));
    }

    #[test]
    fn changes_keep_the_rest() {
        let start = NotifySettings::default();
        assert_eq!(start.mode, NotifyMode::Each);
        let digest = start.changed(NotifyChange::Mode(
            NotifyMode::Digest { hour: 9 },
            Some(300),
        ));
        assert_eq!(digest.utc_offset_min, 300);
        let quiet = digest.changed(NotifyChange::Quiet(Some(QuietHours {
            from: 23,
            to: 8,
            utc_offset_min: 360,
        })));
        assert_eq!(quiet.mode, NotifyMode::Digest { hour: 9 });
        assert_eq!(quiet.utc_offset_min, 360);
        let off = quiet.changed(NotifyChange::Mode(NotifyMode::Off, None));
        assert_eq!(off.quiet, quiet.quiet);
        assert_eq!(off.utc_offset_min, 360);
    }
}
