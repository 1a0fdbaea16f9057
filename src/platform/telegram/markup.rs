//! Inline keyboards: the board's pit buttons, the game and challenge buttons, the levels.
//!
//! Labels and button data come from the shared `platform::present` and `manager::buttons`,
//! so every platform shows the same words, and the data carries the game id and the ply
//! shown, fits Telegram's 64 bytes, and still works after a restart.

use crate::engine::Level;
use crate::i18n::{words, Lang};
use crate::manager::buttons::{decode, encode, Button};
use crate::manager::{ChallengeView, GameView, Player};
use crate::platform::present::{self, LabeledButton};
use teloxide::types::{InlineKeyboardButton, InlineKeyboardButtonKind, InlineKeyboardMarkup};

/// Pit buttons per row: nine in one row would be too narrow on a phone.
const PITS_PER_ROW: usize = 5;

fn button(b: &LabeledButton) -> InlineKeyboardButton {
    InlineKeyboardButton::callback(b.label.clone(), encode(&b.button))
}

/// The keyboard under a board everyone in the chat sees: the legal pits of the player to
/// move (none while the bot thinks), then what either player may do (resign, draw, abort,
/// rematch).
pub fn game_keyboard(view: &GameView, lang: Lang) -> InlineKeyboardMarkup {
    let mut rows: Vec<Vec<InlineKeyboardButton>> = vec![];
    if let Some(Player::Human(user)) = view.to_move_player() {
        let pits: Vec<InlineKeyboardButton> = present::pit_buttons(view, Some(user))
            .iter()
            .filter(|b| b.enabled)
            .map(button)
            .collect();
        rows.extend(pits.chunks(PITS_PER_ROW).map(<[_]>::to_vec));
    }
    let actions: Vec<InlineKeyboardButton> = present::action_buttons(view, None, lang)
        .iter()
        .map(button)
        .collect();
    rows.extend(actions.chunks(3).map(<[_]>::to_vec));
    InlineKeyboardMarkup::new(rows)
}

/// Accept / Decline / Cancel while the challenge is open; no buttons after.
pub fn challenge_keyboard(view: &ChallengeView, lang: Lang) -> InlineKeyboardMarkup {
    let row: Vec<InlineKeyboardButton> = present::challenge_buttons(view, lang)
        .iter()
        .map(button)
        .collect();
    InlineKeyboardMarkup::new([row].into_iter().filter(|r| !r.is_empty()))
}

/// One button per bot level, three to a row.
pub fn level_keyboard(lang: Lang) -> InlineKeyboardMarkup {
    let buttons: Vec<InlineKeyboardButton> = Level::ALL
        .into_iter()
        .map(|level| {
            InlineKeyboardButton::callback(
                words::level_name(lang, level),
                encode(&Button::PlayLevel { level }),
            )
        })
        .collect();
    InlineKeyboardMarkup::new(buttons.chunks(3).map(<[_]>::to_vec))
}

/// The placeholder button of an inline-mode challenge before Telegram reported it chosen:
/// `data` is `tgi:<challenger's user id>:<signature>` (Telegram-only data, never reaches the
/// shared codec; see `inline::ButtonKey`).
pub fn inline_placeholder(data: String, label: String) -> InlineKeyboardMarkup {
    InlineKeyboardMarkup::new([[InlineKeyboardButton::callback(label, data)]])
}

pub const INLINE_PREFIX: &str = "tgi:";

/// The game a keyboard's buttons belong to (for `/rematch` as a reply to a board).
pub fn game_of(k: &InlineKeyboardMarkup) -> Option<String> {
    k.inline_keyboard
        .iter()
        .flatten()
        .find_map(|b| match &b.kind {
            InlineKeyboardButtonKind::CallbackData(d) => decode(d).ok()?.game().map(str::to_string),
            _ => None,
        })
}

/// The game or challenge a button acts on (`None` for the level buttons).
pub fn target(button: &Button) -> Option<&str> {
    match button {
        Button::AcceptChallenge { challenge }
        | Button::DeclineChallenge { challenge }
        | Button::CancelChallenge { challenge } => Some(challenge),
        other => other.game(),
    }
}

/// The game or challenge a keyboard's buttons act on.
pub fn target_of(k: &InlineKeyboardMarkup) -> Option<String> {
    k.inline_keyboard
        .iter()
        .flatten()
        .find_map(|b| match &b.kind {
            InlineKeyboardButtonKind::CallbackData(d) => {
                decode(d).ok().as_ref().and_then(target).map(str::to_string)
            }
            _ => None,
        })
}

/// The ply a board's keyboard was drawn for (its pit, resign and draw buttons carry it).
pub fn ply_of(k: &InlineKeyboardMarkup) -> Option<u16> {
    k.inline_keyboard
        .iter()
        .flatten()
        .find_map(|b| match &b.kind {
            InlineKeyboardButtonKind::CallbackData(d) => match decode(d).ok()? {
                Button::Move { ply, .. }
                | Button::Resign { ply, .. }
                | Button::OfferDraw { ply, .. } => Some(ply),
                _ => None,
            },
            _ => None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_keyboard_gives_back_its_game_and_ply() {
        let board = InlineKeyboardMarkup::new([[
            InlineKeyboardButton::callback("3 · 9", "1m:abc:12:3"),
            InlineKeyboardButton::callback("Resign", "1r:abc:12"),
        ]]);
        assert_eq!(ply_of(&board), Some(12));
        assert_eq!(game_of(&board).as_deref(), Some("abc"));
        let finished =
            InlineKeyboardMarkup::new([[InlineKeyboardButton::callback("Rematch", "1rm:abc")]]);
        assert_eq!(ply_of(&finished), None);
        let forged = InlineKeyboardMarkup::new([[InlineKeyboardButton::callback("x", "1m:A:1:1")]]);
        assert_eq!(ply_of(&forged), None);
    }
}
