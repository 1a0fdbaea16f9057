//! `/web [public: on|off]`: whether the server's games are listed on the website's front
//! page (issue 35): its definition and parsing (a child of `commands`, whose helpers it
//! shares).

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
    localized!(
        command("web", "discord-cmd-web-desc"),
        "discord-cmd-web",
        "discord-cmd-web-desc"
    )
    .contexts(EVERYWHERE.to_vec())
    .add_option(public)
}

/// `public:`: `None` asks whether the server is listed; `Some(Ok(on))` lists it or stops.
pub(super) fn parse_web(options: &[CommandDataOption]) -> Option<Result<bool, BadOption>> {
    string(options, "public").map(|v| match v {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(BadOption),
    })
}
