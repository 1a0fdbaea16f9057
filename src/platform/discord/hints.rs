//! The Hint button under a board of a casual game against the bot (docs/review.md, *Hints*).
//! A refusal (not your turn, no hints left, a game between people) is answered at once and
//! privately; a hint is posted as a new public message with the board, the engine's move
//! marked, and the game's board is then redrawn by its worker so its button counts down.
//! The search is short (a fixed node budget), and an answer later than 2 s is deferred by
//! the guard like any other.

use super::answer::Origin;
use super::failure::Handled;
use super::messages::{Attachment, Outgoing, BOARD_FILE};
use super::Bot;
use crate::i18n::Lang;
use crate::model::{ChatRef, GameId, UserRef};
use crate::platform::present;
use serenity::all::{CreateEmbed, Http};
use std::sync::Arc;

impl Bot {
    /// A press on Hint for the board shown at `ply` of `game`.
    pub(super) async fn hint(
        self: &Arc<Self>,
        http: &Arc<Http>,
        origin: &Origin<'_>,
        (user, chat): (&UserRef, &ChatRef),
        (game, ply): (GameId, u16),
        lang: Lang,
    ) -> Handled {
        let ticket = self
            .manager
            .start_hint(user, chat, Some(game), Some(ply))
            .await?;
        let hint = ticket.finish().await?;
        let (caption, png) = present::review::hint_drawn(&hint, lang).await;
        origin.post(hint_message(caption, png)).await;
        super::events::nudge_game(self, http, &hint.game.id);
        Ok(())
    }
}

/// The hint: its caption in an embed showing the board with the engine's move marked.
fn hint_message(caption: String, png: Option<Vec<u8>>) -> Outgoing {
    let mut embed = CreateEmbed::new().description(caption).colour(0x2E8B57);
    if png.is_some() {
        embed = embed.image(format!("attachment://{BOARD_FILE}"));
    }
    Outgoing {
        embed: Some(embed),
        files: png
            .map(|png| Attachment::new(BOARD_FILE, png))
            .into_iter()
            .collect(),
        ..Outgoing::default()
    }
}
