//! `/opening [moves] [source]` and the explorer's buttons in Discord (issue 52): one
//! message, an embed with the board over the moves table as its image, the last games in
//! its text, and a button per move, Back, and the source and filters
//! (`present::explorer_chat`). A press redraws the pressed message (an UPDATE_MESSAGE
//! answer with the new attachment); the Opening button under a finished board posts a new
//! explorer where the game left the others' games. Only the asker presses their explorer.

use super::failure::{Failure, Handled};
use super::messages::{Attachment, Outgoing, BOARD_FILE};
use super::{answer::Origin, Bot};
use crate::i18n::Lang;
use crate::manager::buttons::{encode, Button};
use crate::manager::explorer::ExplorerView;
use crate::model::{ChatRef, UserRef};
use crate::platform::present::{explorer_chat as show, LabeledButton};
use crate::t;
use serenity::all::{
    ButtonStyle, ComponentInteraction, CreateActionRow, CreateButton, CreateEmbed,
};
use std::sync::Arc;

impl Bot {
    /// `/opening`: the explorer at the asked line, posted for the channel.
    pub(super) async fn opening_command(
        self: &Arc<Self>,
        origin: &Origin<'_>,
        (user, chat): (&UserRef, &ChatRef),
        (moves, source): (Option<String>, Option<String>),
        lang: Lang,
    ) -> Handled {
        let source = match source.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            None => crate::manager::explorer::ExplorerSource::All,
            Some(word) => show::source_word(word, chat)
                .ok_or_else(|| Failure::Unable(t!(lang, "discord-opening-source-how")))?,
        };
        let moves =
            crate::manager::explorer::ExplorerAsk::parse_moves(moves.as_deref().unwrap_or(""))?;
        let ask = show::opening_ask_of(source, moves)?;
        let view = self.manager.explore(ask, Some(chat)).await?;
        tracing::info!(
            user = user.id,
            moves = view.ask.moves.len(),
            "Discord: opening explorer"
        );
        origin.post(explorer_message(&view, user, lang).await).await;
        Ok(())
    }

    /// A press on an explorer's button (its asker's alone; one the message never carried is
    /// forged), or on a finished board's Opening.
    pub(super) async fn opening_press(
        self: &Arc<Self>,
        origin: &Origin<'_>,
        press: &ComponentInteraction,
        (user, chat): (&UserRef, &ChatRef),
        button: Button,
        lang: Lang,
    ) -> Handled {
        // Each press reads the explorer and draws a picture: limited as commands are.
        if !self.within_limit(user, "explorer button").await {
            return Err(Failure::Limited);
        }
        match button {
            Button::Explorer { owner, at } => {
                if !super::puzzle::on_message(press) {
                    return Err(Failure::BadButton);
                }
                if owner != user.id {
                    return Err(Failure::Unable(t!(lang, "explorer-chat-not-yours")));
                }
                let view = self
                    .manager
                    .explore(show::ask_of(&at, chat), Some(chat))
                    .await?;
                origin
                    .update(explorer_message(&view, user, lang).await)
                    .await;
            }
            Button::Opening { game } => {
                let line = self.manager.book_line(&game).await?;
                let view = self.manager.explore(line.ask(), Some(chat)).await?;
                origin.post(explorer_message(&view, user, lang).await).await;
            }
            _ => return Err(Failure::BadButton),
        }
        Ok(())
    }
}

/// The explorer's message: the picture in an embed (its text alone if it cannot be
/// drawn), the caption, and `owner`'s buttons.
pub(super) async fn explorer_message(view: &ExplorerView, owner: &UserRef, lang: Lang) -> Outgoing {
    let png = match crate::render::explorer_png(show::explorer_picture(view, lang)).await {
        Ok(png) => Some(png),
        Err(error) => {
            tracing::error!(%error, "explorer image failed; text only");
            None
        }
    };
    let mut embed = CreateEmbed::new()
        .description(show::explorer_caption(view, lang))
        .colour(0x8D6E63);
    if png.is_some() {
        embed = embed.image(format!("attachment://{BOARD_FILE}"));
    }
    let rows = show::explorer_buttons(view, owner, lang);
    // The moves stand out; the last row (Back, source, filters) does not.
    let components = rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let style = match i + 1 < rows.len() {
                true => ButtonStyle::Primary,
                false => ButtonStyle::Secondary,
            };
            CreateActionRow::Buttons(row.iter().map(|b| discord_button(b, style)).collect())
        })
        .collect();
    Outgoing {
        embed: Some(embed),
        files: png
            .map(|png| Attachment::new(BOARD_FILE, png))
            .into_iter()
            .collect(),
        components,
        ..Outgoing::default()
    }
}

fn discord_button(b: &LabeledButton, style: ButtonStyle) -> CreateButton {
    CreateButton::new(encode(&b.button))
        .label(b.label.clone())
        .style(style)
}
