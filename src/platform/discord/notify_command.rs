//! `/notify [mode:] [hour:] [quiet:] [utc:]` (issue 51): what a player is told in DMs about
//! their correspondence games. Its definition, and its options read as the words Telegram's
//! `/notify` takes, so both are parsed by the one `model::notify::parse_notify` (a child of
//! `commands`, whose helpers it shares).

use super::{
    choice, command, integer, integer_option, localize_option, option, string, EVERYWHERE, LOCALES,
};
use crate::model::notify::{parse_notify, NotifyChange, NotifyParseError};
use crate::t;
use serenity::all::{CommandDataOption, CommandOptionType, CreateCommand};

/// The longest `quiet:` and `utc:` a client may send (`23-08`, `off`, `-03:30`, `utc+0530`).
const TYPED_MAX_CHARS: u16 = 12;

/// `/notify`'s options as given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NotifyOptions {
    /// `on` (a message each time), `digest` or `off`.
    pub mode: Option<String>,
    /// The digest's hour, the player's own time.
    pub hour: Option<i64>,
    /// Quiet hours (`23-08`) or `off`.
    pub quiet: Option<String>,
    /// The offset from UTC (`+05`) the hours are in.
    pub utc: Option<String>,
}

impl NotifyOptions {
    pub(super) fn parse(options: &[CommandDataOption]) -> NotifyOptions {
        NotifyOptions {
            mode: string(options, "mode").map(str::to_string),
            hour: integer(options, "hour"),
            quiet: string(options, "quiet").map(str::to_string),
            utc: string(options, "utc").map(str::to_string),
        }
    }

    /// The changes asked for, in order; none: show the settings. An hour alone asks for a
    /// digest at that hour; `utc:` goes with the hours it is given with.
    pub fn changes(&self) -> Result<Vec<NotifyChange>, NotifyParseError> {
        let utc = self.utc.as_deref().unwrap_or_default();
        let hour = self.hour.map(|h| h.to_string()).unwrap_or_default();
        let mut typed = Vec::with_capacity(2);
        match (self.mode.as_deref(), self.hour) {
            (Some("digest"), _) | (None, Some(_)) => typed.push(format!("digest {hour} {utc}")),
            (Some(mode), _) => typed.push(mode.to_string()),
            (None, None) => {}
        }
        match self.quiet.as_deref().map(str::trim) {
            Some(off) if off.eq_ignore_ascii_case("off") => typed.push("quiet off".into()),
            Some(hours) => typed.push(format!("quiet {hours} {utc}")),
            None => {}
        }
        typed.iter().map(|words| parse_notify(words)).collect()
    }
}

/// `/notify` and its options, everywhere (a DM is where its messages go).
pub(super) fn notify_definition() -> CreateCommand {
    let mode = localize_option(
        option(
            CommandOptionType::String,
            "mode",
            "discord-opt-notify-mode-desc",
        ),
        "discord-opt-notify-mode",
        "discord-opt-notify-mode-desc",
    );
    let mode = choice(mode, "discord-choice-notify-on", "on");
    let mode = choice(mode, "discord-choice-notify-digest", "digest");
    let mode = choice(mode, "discord-choice-notify-off", "off");
    let hour = integer_option(
        "hour",
        "discord-opt-notify-hour",
        "discord-opt-notify-hour-desc",
        (9, 0, 23),
    );
    let typed = |name, key, desc| {
        localize_option(option(CommandOptionType::String, name, desc), key, desc)
            .max_length(TYPED_MAX_CHARS)
    };
    let quiet = typed(
        "quiet",
        "discord-opt-notify-quiet",
        "discord-opt-notify-quiet-desc",
    );
    let utc = typed(
        "utc",
        "discord-opt-notify-utc",
        "discord-opt-notify-utc-desc",
    );
    localized!(
        command("notify", "discord-cmd-notify-desc"),
        "discord-cmd-notify",
        "discord-cmd-notify-desc"
    )
    .contexts(EVERYWHERE.to_vec())
    .add_option(mode)
    .add_option(hour)
    .add_option(quiet)
    .add_option(utc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::notify::{NotifyMode, QuietHours};

    fn given(
        mode: Option<&str>,
        hour: Option<i64>,
        quiet: Option<&str>,
        utc: Option<&str>,
    ) -> NotifyOptions {
        NotifyOptions {
            mode: mode.map(str::to_string),
            hour,
            quiet: quiet.map(str::to_string),
            utc: utc.map(str::to_string),
        }
    }

    #[test]
    fn options_read_as_the_typed_command() {
        use NotifyChange::*;
        assert_eq!(given(None, None, None, None).changes(), Ok(vec![]));
        assert_eq!(
            given(Some("off"), None, None, None).changes(),
            Ok(vec![Mode(NotifyMode::Off, None)])
        );
        assert_eq!(
            given(Some("digest"), Some(9), None, Some("+05")).changes(),
            Ok(vec![Mode(NotifyMode::Digest { hour: 9 }, Some(300))])
        );
        assert_eq!(
            given(None, Some(21), None, None).changes(),
            Ok(vec![Mode(NotifyMode::Digest { hour: 21 }, None)])
        );
        let quiet = QuietHours {
            from: 23,
            to: 8,
            utc_offset_min: 300,
        };
        assert_eq!(
            given(Some("on"), None, Some("23-08"), Some("+05")).changes(),
            Ok(vec![Mode(NotifyMode::Each, None), Quiet(Some(quiet))])
        );
        assert_eq!(
            given(None, None, Some("OFF"), Some("+05")).changes(),
            Ok(vec![Quiet(None)])
        );
    }

    #[test]
    fn wrong_options_name_the_word() {
        assert_eq!(
            given(Some("digest"), None, None, None).changes(),
            Err(NotifyParseError::Hours(String::new()))
        );
        assert_eq!(
            given(None, None, Some("23"), None).changes(),
            Err(NotifyParseError::Hours("23".into()))
        );
        assert_eq!(
            given(None, None, Some("23-08"), Some("05")).changes(),
            Err(NotifyParseError::Offset("05".into()))
        );
        // A forged mode is refused by the same parser.
        assert_eq!(
            given(Some("loud"), None, None, None).changes(),
            Err(NotifyParseError::Word("loud".into()))
        );
    }
}
