//! How players are named on every board, caption and list: below the other texts of
//! `present`, which all use it.

use crate::i18n::{words, Lang};
use crate::manager::Player;
use crate::model::{names, Level, Platform, UserRef};
use crate::t;

/// A person's name as a text shows it (issue 31, item 14): cleaned of hidden characters
/// and capped (`names::clean_name`; names stored before that was done on entry are cleaned
/// here), and on Discord, whose texts are markdown, with its markdown escaped, so that a
/// name never formats, links or mentions. Telegram's adapter escapes its HTML as a whole.
pub fn user_name(user: &UserRef) -> String {
    name_on(user.platform, &user.name)
}

/// A name kept without its user (a daily post's solvers), as a text of `platform` shows it:
/// as [`user_name`] does.
pub fn name_on(platform: Platform, raw: &str) -> String {
    let name = names::clean_name(raw);
    match platform {
        Platform::Discord => names::escape_markdown(&name),
        Platform::Telegram | Platform::Console => name,
    }
}

/// A player's display name in a text; the bot is named with its level.
pub fn player_name(player: &Player, lang: Lang) -> String {
    match player {
        Player::Human(user) => user_name(user),
        Player::Bot(level) => bot_name(*level, lang),
    }
}

/// A player's name on an image, where no markup is read: cleaned, never escaped.
pub fn plain_player_name(player: &Player, lang: Lang) -> String {
    match player {
        Player::Human(user) => names::clean_name(&user.name),
        Player::Bot(level) => bot_name(*level, lang),
    }
}

fn bot_name(level: Level, lang: Lang) -> String {
    t!(
        lang,
        "manager-bot-name",
        level = words::level_name(lang, level)
    )
}
