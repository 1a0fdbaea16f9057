//! The Premoves button under a correspondence board (docs/premoves.md): the presser's own
//! premove builder as an ephemeral reply (only they see it), its keys updating that reply
//! in place. The lines and the draft are in the game's record (`Manager::edit_premoves`),
//! so a builder works after a restart and from any process; what it shows is decided in
//! `present::premoves`.

use super::answer::Origin;
use super::failure::{Failure, Handled};
use super::messages::{self, Outgoing};
use super::Bot;
use crate::i18n::Lang;
use crate::manager::buttons::{encode, PremoveKey};
use crate::manager::{ActionError, PremovesView};
use crate::model::{GameId, UserRef};
use crate::platform::present::{premoves, LabeledButton};
use serenity::all::{ButtonStyle, CreateActionRow, CreateButton};
use std::sync::Arc;

impl Bot {
    /// A press on Premoves: the presser's builder, privately. A stranger, a timed game or
    /// the presser's own turn is refused, privately too.
    pub(super) async fn open_premoves(
        self: &Arc<Self>,
        origin: &Origin<'_>,
        user: &UserRef,
        game: GameId,
        lang: Lang,
    ) -> Handled {
        let view = self.manager.premoves(user, &game).await?;
        if !view.open {
            let refusal = match view.game.is_over() {
                true => ActionError::GameOver,
                false => ActionError::PremovesOnTheirTurn,
            };
            return Err(Failure::Refused(refusal));
        }
        origin.private(builder(&view, lang)).await;
        Ok(())
    }

    /// A key of the builder: the change made durable, the builder redrawn in place; Done
    /// leaves the lines as they are and the builder without keys.
    pub(super) async fn premove_key(
        self: &Arc<Self>,
        origin: &Origin<'_>,
        user: &UserRef,
        (game, edits, key): (GameId, u32, PremoveKey),
        lang: Lang,
    ) -> Handled {
        let view = match premoves::key_edit(key) {
            Some(edit) => {
                self.manager
                    .edit_premoves(user, &game, Some(edits), edit)
                    .await?
            }
            None => {
                let view = self.manager.premoves(user, &game).await?;
                origin
                    .update(messages::text(premoves::closed_text(&view, lang)))
                    .await;
                return Ok(());
            }
        };
        origin.update(builder(&view, lang)).await;
        Ok(())
    }
}

/// The builder: its text and its keys (at most three rows of five).
fn builder(view: &PremovesView, lang: Lang) -> Outgoing {
    let mut out = messages::text(premoves::builder_text(view, lang));
    out.components = premoves::builder_keys(view, lang)
        .iter()
        .map(|row| CreateActionRow::Buttons(row.iter().map(key_button).collect()))
        .collect();
    out
}

fn key_button(b: &LabeledButton) -> CreateButton {
    let style = match &b.button {
        crate::manager::buttons::Button::PremoveKey {
            key: PremoveKey::Pit(_),
            ..
        } => ButtonStyle::Primary,
        _ => ButtonStyle::Secondary,
    };
    CreateButton::new(encode(&b.button))
        .label(b.label.clone())
        .style(style)
        .disabled(!b.enabled)
}
