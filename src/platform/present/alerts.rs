//! What a private alert about correspondence games says (issue 51), for every adapter: "your
//! move" naming every game where it is the player's move, the warning once 80% of a move's
//! time has gone, the daily digest; the buttons to the games' pages; and `/notify`'s
//! answers (the settings, and why typed settings were refused). Pure: the adapters send.

use super::clock::{span_text, time_control_text};
use super::link::{board_message_url, LinkButton};
use crate::i18n::Lang;
use crate::manager::alerts::{Alert, AlertKind, TurnLine};
use crate::model::notify::{NotifyMode, NotifyParseError, NotifySettings, QuietHours};
use crate::model::TimeControl;
use crate::t;

/// Games an alert names at most, with a button each: the rest are counted ("...and 3
/// more"). Within Telegram's 4096 characters and 100 buttons, and Discord's 2000
/// characters and 25 buttons.
pub const MAX_LISTED: usize = 20;

/// A private alert as its reader sees it: plain text (the adapter escapes it), and one
/// button per game, in the order of the games: to its page when the pages are served,
/// else to its board message where the platform links messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlertMessage {
    pub text: String,
    pub buttons: Vec<LinkButton>,
    /// The buttons open the games' pages (Telegram opens those inside Telegram); else they
    /// are links to the board messages, for the platform's own client to open.
    pub pages: bool,
}

/// The message for `alert`, in its reader's language.
pub fn alert_message(alert: &Alert) -> AlertMessage {
    message(alert.kind, &alert.games, alert.lang)
}

/// The message of an alert of `kind` about `games`, in `lang`.
pub fn message(kind: AlertKind, games: &[TurnLine], lang: Lang) -> AlertMessage {
    let text = match (kind, games) {
        (AlertKind::Warning, [game, ..]) => t!(
            lang,
            "manager-alert-warning",
            opponent = game.opponent.as_str(),
            remaining = left_text(game, lang)
        ),
        (AlertKind::YourMove, [game]) => t!(
            lang,
            "manager-alert-your-move",
            opponent = game.opponent.as_str(),
            status = status_text(game, lang)
        ),
        (AlertKind::Digest, games) => {
            let header = t!(lang, "manager-alert-digest", count = games.len());
            listed(header, games, lang)
        }
        (AlertKind::YourMove | AlertKind::Warning, games) => {
            let header = t!(lang, "manager-alert-your-moves", count = games.len());
            listed(header, games, lang)
        }
    };
    let buttons = games
        .iter()
        .take(MAX_LISTED)
        .filter_map(|game| game_button(game, lang))
        .collect();
    let pages = games.iter().any(|game| game.page.is_some());
    AlertMessage {
        text,
        buttons,
        pages,
    }
}

/// `header` over one line per game.
fn listed(header: String, games: &[TurnLine], lang: Lang) -> String {
    let mut lines = vec![header];
    lines.extend(games.iter().take(MAX_LISTED).map(|game| {
        t!(
            lang,
            "manager-alert-line",
            opponent = game.opponent.as_str(),
            status = status_text(game, lang)
        )
    }));
    if let Some(more) = games.len().checked_sub(MAX_LISTED).filter(|n| *n > 0) {
        lines.push(t!(lang, "manager-alert-more", count = more));
    }
    lines.join("\n")
}

/// "2 days per move: 1 day 4 h left"; "20 h left" for plain correspondence (its control has
/// no name of its own).
fn status_text(game: &TurnLine, lang: Lang) -> String {
    let left = left_text(game, lang);
    match game.time_control {
        TimeControl::Correspondence => left,
        control => t!(
            lang,
            "manager-alert-control-left",
            control = time_control_text(control, lang),
            remaining = left
        ),
    }
}

/// "1 day 4 h left".
fn left_text(game: &TurnLine, lang: Lang) -> String {
    t!(
        lang,
        "manager-alert-left",
        span = span_text(game.left_ms / 1000, lang)
    )
}

/// The button to a game: "Board: Bob". To its page when the pages are served, else to its
/// newest board message the platform can link.
fn game_button(game: &TurnLine, lang: Lang) -> Option<LinkButton> {
    let url = game.page.clone().or_else(|| {
        game.boards
            .iter()
            .rev()
            .find_map(|board| board_message_url(&game.chat, board))
    })?;
    Some(LinkButton {
        label: t!(
            lang,
            "manager-alert-button",
            opponent = game.opponent.as_str()
        ),
        url,
    })
}

/// `/notify` alone: what the player gets now, and their quiet hours. The adapter adds how
/// to change them (typed commands differ).
pub fn notify_text(settings: &NotifySettings, lang: Lang) -> String {
    let offset = offset_text(settings.utc_offset_min);
    let mode = match settings.mode {
        NotifyMode::Each => t!(lang, "manager-notify-each"),
        NotifyMode::Digest { hour } => t!(
            lang,
            "manager-notify-digest",
            hour = hour_text(hour),
            offset = offset.as_str()
        ),
        NotifyMode::Off => t!(lang, "manager-notify-off"),
    };
    let quiet = match settings.quiet {
        Some(QuietHours {
            from,
            to,
            utc_offset_min,
        }) => t!(
            lang,
            "manager-notify-quiet",
            from = hour_text(from),
            to = hour_text(to),
            offset = offset_text(utc_offset_min)
        ),
        None => t!(lang, "manager-notify-no-quiet"),
    };
    format!("{mode}\n{quiet}")
}

/// The answer to a change of the settings: saved, and what they are now.
pub fn notify_saved(settings: &NotifySettings, lang: Lang) -> String {
    format!(
        "{}\n{}",
        t!(lang, "manager-notify-saved"),
        notify_text(settings, lang)
    )
}

/// Why `/notify`'s words were refused, naming the word. `Empty` (nothing typed) is not
/// refused by the adapters: they show the settings instead.
pub fn notify_error(error: &NotifyParseError, lang: Lang) -> String {
    let given = |w: &str| w.chars().take(40).collect::<String>();
    match error {
        NotifyParseError::Empty => t!(lang, "manager-notify-no-hours"),
        NotifyParseError::Hours(w) if w.is_empty() => t!(lang, "manager-notify-no-hours"),
        NotifyParseError::Hours(w) => t!(lang, "manager-notify-bad-hours", given = given(w)),
        NotifyParseError::Offset(w) => t!(lang, "manager-notify-bad-offset", given = given(w)),
        NotifyParseError::Word(w) => t!(lang, "manager-notify-bad-word", given = given(w)),
        NotifyParseError::Extra(w) => t!(lang, "manager-notify-extra", given = given(w)),
    }
}

/// "09:00".
fn hour_text(hour: u8) -> String {
    format!("{:02}:00", hour % 24)
}

/// "+05:00", "-03:30", "+00:00".
fn offset_text(minutes: i16) -> String {
    let sign = if minutes < 0 { '-' } else { '+' };
    let m = minutes.unsigned_abs();
    format!("{sign}{:02}:{:02}", m / 60, m % 60)
}

#[cfg(test)]
#[path = "alerts_tests.rs"]
mod tests;
