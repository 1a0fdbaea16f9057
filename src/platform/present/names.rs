//! How players are named on every board, caption and list: below the other texts of
//! `present`, which all use it.

use crate::i18n::{words, Lang};
use crate::manager::Player;
use crate::t;

/// A player's display name; the bot is named with its level.
pub fn player_name(player: &Player, lang: Lang) -> String {
    match player {
        Player::Human(user) => user.name.clone(),
        Player::Bot(level) => t!(
            lang,
            "manager-bot-name",
            level = words::level_name(lang, *level)
        ),
    }
}
