//! `/web [public: on|off] [profile: on|off]`: whether the server's games are listed on the
//! website's front page (issue 35), and whether the caller's page lists all their games
//! (issue 49, finding 9): its definition and parsing (a child of `commands`, whose helpers
//! it shares).

use super::{choice, command, localize_option, option, string, BadOption, EVERYWHERE, LOCALES};
use crate::t;
use serenity::all::{CommandDataOption, CommandOptionType, CreateCommand};

/// `/web` and its one option.
pub(super) fn web_definition() -> CreateCommand {
    let public = localize_option(
        option(
            CommandOptionType::String,
            "public",
            "discord-opt-web-public-desc",
        ),
        "discord-opt-web-public",
        "discord-opt-web-public-desc",
    );
    let public = choice(public, "discord-choice-web-on", "on");
    let public = choice(public, "discord-choice-web-off", "off");
    let profile = localize_option(
        option(
            CommandOptionType::String,
            "profile",
            "discord-opt-web-profile-desc",
        ),
        "discord-opt-web-profile",
        "discord-opt-web-profile-desc",
    );
    let profile = choice(profile, "discord-choice-web-on", "on");
    let profile = choice(profile, "discord-choice-web-off", "off");
    localized!(
        command("web", "discord-cmd-web-desc"),
        "discord-cmd-web",
        "discord-cmd-web-desc"
    )
    .contexts(EVERYWHERE.to_vec())
    .add_option(public)
    .add_option(profile)
}

/// `public:` or `profile:` (`name`): `None` when not given; `Some(Ok(on))` turns it on or
/// off.
pub(super) fn parse_web(
    options: &[CommandDataOption],
    name: &str,
) -> Option<Result<bool, BadOption>> {
    string(options, name).map(|v| match v {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(BadOption),
    })
}
