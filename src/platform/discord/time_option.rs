//! The `time:` option of `/play`, `/challenge` and `/tournament new` (a child of `commands`,
//! whose helpers it shares): typed freely, so any `M+S` a player wants is allowed, with
//! Discord's autocomplete offering the usual controls as the player types: a few clocks,
//! every number of days per move, plain correspondence, each named in the player's
//! language. (An option with fixed `choices` would refuse anything else.)

use super::{localize_option, option, string, TIME_MAX_CHARS};
use crate::i18n::Lang;
use crate::model::{TimeControl, TimeControlError, DAYS_PER_MOVE};
use crate::platform::present;
use serenity::all::{CommandDataOption, CommandOptionType, CreateCommandOption};

/// Clocks offered before days per move; then `correspondence`.
const CLOCKS: [&str; 4] = ["3+2", "5+3", "10+5", "15+10"];

/// The option as registered: a string, with suggestions while it is typed.
pub(super) fn time_option() -> CreateCommandOption {
    localize_option(
        option(CommandOptionType::String, "time", "discord-opt-time-desc"),
        "discord-opt-time",
        "discord-opt-time-desc",
    )
    .max_length(TIME_MAX_CHARS)
    .set_autocomplete(true)
}

/// The `time:` given: `None` when not given (the chat's default applies).
pub(super) fn time(options: &[CommandDataOption]) -> Option<Result<TimeControl, TimeControlError>> {
    string(options, "time").map(TimeControl::parse)
}

/// Every control offered, in the order shown.
fn offered() -> Vec<TimeControl> {
    let clocks = CLOCKS.iter().filter_map(|c| TimeControl::parse(c).ok());
    let days = DAYS_PER_MOVE.into_iter().map(TimeControl::Days);
    clocks
        .chain(days)
        .chain([TimeControl::Correspondence])
        .collect()
}

/// The suggestions for what the player has typed so far, as (name shown, value sent): a
/// control it already is first, then those whose value, name or a word of the name begins
/// with it (`2` offers 2 days; `дн` the days named `дня` and `дней` in Russian). When
/// nothing matches, every offered control, so the player sees what is written how.
pub fn suggestions(typed: &str, lang: Lang) -> Vec<(String, String)> {
    let typed = typed.trim().to_lowercase();
    let named = |c: TimeControl| (present::time_control_name(c, lang), c.to_string());
    let offered = offered();
    let mut out: Vec<(String, String)> = Vec::new();
    if let Ok(control) = TimeControl::parse(&typed) {
        out.push(named(control));
    }
    let matching = offered.iter().copied().map(named).filter(|(name, value)| {
        let name = name.to_lowercase();
        value.starts_with(&typed)
            || name.starts_with(&typed)
            || name.split_whitespace().any(|word| word.starts_with(&typed))
    });
    for suggestion in matching {
        if !out.iter().any(|(_, value)| *value == suggestion.1) {
            out.push(suggestion);
        }
    }
    if out.is_empty() {
        out = offered.into_iter().map(named).collect();
    }
    // Discord takes at most 25 choices.
    out.truncate(25);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(typed: &str, lang: Lang) -> Vec<String> {
        suggestions(typed, lang)
            .into_iter()
            .map(|(_, v)| v)
            .collect()
    }

    #[test]
    fn nothing_typed_offers_clocks_every_number_of_days_and_correspondence() {
        let all = suggestions("", Lang::En);
        let values: Vec<&str> = all.iter().map(|(_, v)| v.as_str()).collect();
        assert_eq!(
            values,
            [
                "3+2",
                "5+3",
                "10+5",
                "15+10",
                "1d",
                "2d",
                "3d",
                "5d",
                "7d",
                "14d",
                "correspondence"
            ]
        );
        assert_eq!(all[0].0, "blitz 3+2");
        assert_eq!(all[5].0, "2 days per move");
        assert_eq!(all[10].0, "Correspondence");
        // Each value is what the option parses, within its length.
        for (_, value) in &all {
            assert!(TimeControl::parse(value).is_ok(), "{value}");
            assert!(
                value.chars().count() <= usize::from(TIME_MAX_CHARS),
                "{value}"
            );
        }
    }

    #[test]
    fn what_is_typed_narrows_the_suggestions_in_the_players_language() {
        assert_eq!(values("2", Lang::En), ["2+0", "2d"]);
        assert_eq!(values("2 days", Lang::En), ["2d"]);
        assert_eq!(values("1", Lang::En), ["1+0", "10+5", "15+10", "1d", "14d"]);
        let ru = suggestions("дн", Lang::Ru);
        assert_eq!(ru.len(), 5, "{ru:?}");
        assert_eq!(ru[0].0, "2 дня на ход");
        assert_eq!(values("заоч", Lang::Ru), ["correspondence"]);
        assert_eq!(values("5 дней", Lang::Ru), ["5d"]);
        assert_eq!(values("күн", Lang::Kk).len(), 6);
        // A clock of the player's own is offered as typed.
        assert_eq!(
            suggestions("4+2", Lang::En)[0],
            ("blitz 4+2".into(), "4+2".into())
        );
        // Nothing matching: everything, so the player sees how controls are written.
        assert_eq!(values("4 days", Lang::En).len(), 11);
    }
}
