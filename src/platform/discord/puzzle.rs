//! Puzzles in Discord (issue 34): `/puzzle play|daily|stats|top` and the buttons under a
//! puzzle. A puzzle is posted in the channel (others may watch); a pit press redraws the
//! pressed message; Next posts the presser's next puzzle; Daily (under a daily post or a
//! puzzle) answers with the day's puzzle for the presser alone. What players see comes
//! from `present::puzzle`; the daily post itself is `daily.rs`.

use super::commands::PuzzleCommand;
use super::failure::{said, Failure, Handled};
use super::messages::{Attachment, Outgoing, BOARD_FILE};
use super::{answer::Origin, Bot};
use crate::i18n::Lang;
use crate::manager::buttons::{encode, Button};
use crate::manager::puzzles::{PuzzleKind, PuzzleState, PuzzleView};
use crate::model::{ChatRef, Platform, UserRef};
use crate::platform::present::{puzzle as show, LabeledButton};
use crate::ratings::keys::Scope;
use crate::t;
use serenity::all::{
    ActionRowComponent, ButtonKind, ButtonStyle, ComponentInteraction, CreateActionRow,
    CreateButton, CreateEmbed, Member,
};
use std::sync::Arc;

/// Pit buttons in a row (Discord allows five).
const PITS_PER_ROW: usize = 5;

impl Bot {
    /// `/puzzle <subcommand>`, answered.
    pub(super) async fn puzzle_command(
        self: &Arc<Self>,
        origin: &Origin<'_>,
        (user, chat, member): (&UserRef, &ChatRef, Option<&Member>),
        command: PuzzleCommand,
        lang: Lang,
    ) -> Handled {
        let in_server = member.is_some();
        match command {
            PuzzleCommand::Play | PuzzleCommand::Daily => {
                let kind = match command {
                    PuzzleCommand::Daily => PuzzleKind::Daily,
                    _ => PuzzleKind::Next,
                };
                let view = self.manager.puzzle(user, chat, kind).await?;
                tracing::info!(user = user.id, attempt = view.attempt, "Discord: puzzle");
                origin.post(puzzle_message(&view, lang).await).await;
                Ok(())
            }
            PuzzleCommand::Stats => {
                let stats = self.manager.puzzle_stats(user).await?;
                said(origin, show::puzzle_stats_text(&stats, lang)).await
            }
            PuzzleCommand::Top { global } => {
                let scope = match global || !in_server {
                    true => Scope::Platform(Platform::Discord),
                    false => Scope::Chat(chat.clone()),
                };
                let board = self.manager.puzzle_leaderboard(scope, Some(user)).await?;
                said(origin, show::puzzle_leaderboard_text(&board, lang)).await
            }
            PuzzleCommand::Post { hour } => {
                let Ok(hour) = hour else {
                    return Err(Failure::BadOption);
                };
                // In a server only its admins choose; a direct message is the caller's own.
                if in_server && !super::tournament::is_admin(member) {
                    return Err(Failure::Unable(t!(lang, "puzzle-post-admins")));
                }
                let place = origin.channel().get().to_string();
                self.manager
                    .set_daily_post((chat, &place), user, hour)
                    .await?;
                said(origin, show::daily_post_set_text(hour, lang)).await
            }
            PuzzleCommand::Unknown => Err(super::failure::no_subcommand(
                "puzzle",
                &[
                    "discord-sub-puzzle-play",
                    "discord-sub-puzzle-daily",
                    "discord-sub-puzzle-stats",
                    "discord-sub-puzzle-top",
                    "discord-sub-puzzle-post",
                ],
                lang,
            )),
        }
    }

    /// A press under a puzzle: a pit of the presser's own attempt, or Next / Daily.
    pub(super) async fn puzzle_press(
        self: &Arc<Self>,
        origin: &Origin<'_>,
        (user, chat): (&UserRef, &ChatRef),
        button: Button,
        lang: Lang,
    ) -> Handled {
        match button {
            Button::PuzzleMove {
                owner,
                attempt,
                step,
                pit,
            } => {
                let view = self
                    .manager
                    .puzzle_move(user, &owner, (attempt, step, pit))
                    .await?;
                origin.update(puzzle_message(&view, lang).await).await;
            }
            // A new puzzle under the last one, for the channel to see.
            Button::PuzzleNext => {
                let view = self.manager.puzzle(user, chat, PuzzleKind::Next).await?;
                origin.post(puzzle_message(&view, lang).await).await;
            }
            // From a daily post (or a finished puzzle): the day's puzzle for the presser
            // alone, so a channel's solvers do not fill it with boards.
            Button::PuzzleDaily => {
                let view = self.manager.puzzle(user, chat, PuzzleKind::Daily).await?;
                origin.private(puzzle_message(&view, lang).await).await;
            }
            _ => return Err(Failure::BadButton),
        }
        Ok(())
    }
}

/// The puzzle's message: the caption in an embed with the board image, the solver's pits
/// while it is on, Next and Daily once it is over.
pub(super) async fn puzzle_message(view: &PuzzleView, lang: Lang) -> Outgoing {
    let board = show::puzzle_board_view(view, lang);
    let png = match crate::render::board_png(board).await {
        Ok(png) => Some(png),
        Err(error) => {
            tracing::error!(%error, puzzle = view.puzzle.id, "puzzle image failed; text only");
            None
        }
    };
    let mut embed = CreateEmbed::new()
        .description(show::puzzle_caption(view, lang))
        .colour(colour(view));
    if png.is_some() {
        embed = embed.image(format!("attachment://{BOARD_FILE}"));
    }
    let buttons = show::puzzle_buttons(view, lang);
    let components = buttons
        .chunks(PITS_PER_ROW)
        .map(|row| CreateActionRow::Buttons(row.iter().map(discord_button).collect()))
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

/// Whether the pressed message carries a button with the pressed data.
pub(super) fn on_message(press: &ComponentInteraction) -> bool {
    let pressed = &press.data.custom_id;
    press.message.components.iter().any(|row| {
        row.components.iter().any(|c| {
            matches!(c, ActionRowComponent::Button(b)
                if matches!(&b.data, ButtonKind::NonLink { custom_id, .. } if custom_id == pressed))
        })
    })
}

fn colour(view: &PuzzleView) -> u32 {
    match view.state {
        PuzzleState::Solving { .. } => 0x5865F2,
        PuzzleState::Solved => 0x2E7D32,
        PuzzleState::Failed { .. } => 0xC62828,
    }
}

fn discord_button(b: &LabeledButton) -> CreateButton {
    let style = match (&b.button, b.enabled) {
        (Button::PuzzleMove { .. }, true) => ButtonStyle::Primary,
        (Button::PuzzleNext, _) => ButtonStyle::Success,
        _ => ButtonStyle::Secondary,
    };
    CreateButton::new(encode(&b.button))
        .label(b.label.clone())
        .style(style)
        .disabled(!b.enabled)
}
