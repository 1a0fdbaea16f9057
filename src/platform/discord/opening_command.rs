//! `/opening [moves] [source]`: the opening explorer's definition (a child of `commands`,
//! whose helpers it shares). Its words are read by `present::explorer_chat`, as Telegram's.

use super::{command, localize_option, option, EVERYWHERE, LOCALES};
use crate::t;
use serenity::all::{CommandOptionType, CreateCommand};

/// The longest `moves` or `source` Discord takes from a client (longer is cut there).
const MAX_OPTION: u16 = 200;

/// `/opening`, in servers and direct messages.
pub(super) fn opening_definition() -> CreateCommand {
    let text = |name: &'static str, key: &'static str, desc: &'static str| {
        localize_option(option(CommandOptionType::String, name, desc), key, desc)
            .max_length(MAX_OPTION)
    };
    localized!(
        command("opening", "discord-cmd-opening-desc"),
        "discord-cmd-opening",
        "discord-cmd-opening-desc"
    )
    .contexts(EVERYWHERE.to_vec())
    .add_option(text(
        "moves",
        "discord-opt-opening-moves",
        "discord-opt-opening-moves-desc",
    ))
    .add_option(text(
        "source",
        "discord-opt-opening-source",
        "discord-opt-opening-source-desc",
    ))
}
