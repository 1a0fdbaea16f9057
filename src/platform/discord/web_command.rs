//! `/web [public: on|off] [profile: on|off] [signin: login|logout]`: whether the server's games are listed on the
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
    let signin = localize_option(
        option(
            CommandOptionType::String,
            "signin",
            "discord-opt-web-signin-desc",
        ),
        "discord-opt-web-signin",
        "discord-opt-web-signin-desc",
    );
    let signin = choice(signin, "discord-choice-web-login", "login");
    let signin = choice(signin, "discord-choice-web-logout", "logout");
    localized!(
        command("web", "discord-cmd-web-desc"),
        "discord-cmd-web",
        "discord-cmd-web-desc"
    )
    .contexts(EVERYWHERE.to_vec())
    .add_option(public)
    .add_option(profile)
    .add_option(signin)
}

/// `signin:` (issue 50): a one-time sign-in link to the site, or the end of every session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignInChoice {
    Login,
    Logout,
}

/// `signin:`: `None` when not given.
pub(super) fn parse_signin(
    options: &[CommandDataOption],
) -> Option<Result<SignInChoice, BadOption>> {
    string(options, "signin").map(|v| match v {
        "login" => Ok(SignInChoice::Login),
        "logout" => Ok(SignInChoice::Logout),
        _ => Err(BadOption),
    })
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
