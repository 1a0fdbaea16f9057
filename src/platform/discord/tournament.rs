//! Tournaments in a Discord server (issue 33): `/tournament` and its subcommands and the
//! Join and Leave buttons of an announcement (here); what the messages show
//! (`tournament_view.rs`) and the outlet of the shared tournament flow
//! (`tournament_outlet.rs`, `platform/flow/tournament.rs`) that follows an event.
//!
//! ```text
//! /tournament new -> Manager::create_tournament -> the announcement (Join / Leave), attached
//! Event::Tournament -> the event's worker (the flow, one per tournament):
//!   new games: up to 11 players, one message each in the announcement's channel, the
//!              pairing line over the game's own board; more, each player's board in their
//!              DM and one pairings message per round or wave in the channel (a player
//!              whose DMs are closed has the board in the channel)
//!   always:    every announcement edited, the standings picture posted once the event runs
//!              and redrawn when the standings change
//!   the end:   the podium (or the cancellation) posted once
//! ```
//!
//! Join and Leave (buttons and commands) are answered privately (ephemeral): the
//! announcement shows who plays, and the channel gets no message per player. The event
//! loop only hands over: no REST call is made there.

use super::commands::TournamentCommand;
use super::failure::{said, Failure, Handled};
use super::messages::{Attachment, Outgoing};
use super::{answer::Origin, message_ref, Bot};
use crate::i18n::Lang;
use crate::manager::tournament::{NewTournament, TournamentRecord};
use crate::manager::{ActionError, Player};
use crate::model::{ChatRef, UserRef};
use crate::platform::present::{self, tournament as show, ClockStyle};
use crate::t;
use serenity::all::{ChannelId, CreateEmbed, Http, Member, MessageId, Permissions};
use std::sync::Arc;

use super::tournament_outlet::post_ending;
use super::tournament_view::*;
use crate::manager::tournament::TournamentNews;

/// Whether `member` may run any event of the server: Manage Server (or Administrator) as
/// the interaction's member permissions say.
pub(super) fn is_admin(member: Option<&Member>) -> bool {
    member
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.intersects(Permissions::MANAGE_GUILD | Permissions::ADMINISTRATOR))
}

// ----- commands and buttons -----

impl Bot {
    /// `/tournament <subcommand>`, answered (a failure by the caller, in one place).
    pub(super) async fn tournament_command(
        self: &Arc<Self>,
        http: &Arc<Http>,
        origin: &Origin<'_>,
        (user, chat, member): (&UserRef, Option<ChatRef>, Option<&Member>),
        command: TournamentCommand,
        lang: Lang,
    ) -> Handled {
        // A tournament belongs to a server; the command is registered for servers only.
        let Some(chat) = chat else {
            return Err(Failure::Unable(t!(lang, "discord-tournament-in-dm")));
        };
        let admin = is_admin(member);
        match command {
            TournamentCommand::New {
                format,
                time,
                starts_in,
                rated,
                variant,
            } => {
                let (Ok(format), Ok(starts_in), Ok(variant)) = (format, starts_in, variant) else {
                    return Err(Failure::BadOption);
                };
                let time = match time {
                    Some(Ok(time)) => time,
                    Some(Err(error)) => {
                        return Err(Failure::Unable(present::time_control_error(&error, lang)))
                    }
                    None => return Err(Failure::BadOption),
                };
                let starts_at = self.manager.clock().now().saturating_add(starts_in * 60);
                let new = NewTournament {
                    format,
                    time,
                    variant,
                    rated,
                    starts_at,
                };
                let rec = self.manager.create_tournament(chat, user, new).await?;
                tracing::info!(
                    tournament = rec.id,
                    creator = user.id,
                    ?format,
                    "Discord: tournament created"
                );
                self.post_announcement(http, origin, &rec, lang).await;
                Ok(())
            }
            TournamentCommand::Standings { id } => {
                let rec = self.chat_tournament(&chat, id).await?;
                self.answer_standings(origin, &rec, lang).await
            }
            TournamentCommand::Join { id } => {
                let rec = self.chat_tournament(&chat, id).await?;
                let rec = self.manager.join_tournament(&rec.id, user).await?;
                said(origin, show::entry_answer(&rec, true, lang)).await
            }
            TournamentCommand::Leave { id } => {
                let rec = self.chat_tournament(&chat, id).await?;
                let rec = self.manager.leave_tournament(&rec.id, user).await?;
                said(origin, show::entry_answer(&rec, false, lang)).await
            }
            TournamentCommand::Cancel { id } => {
                let rec = self.chat_tournament(&chat, id).await?;
                let rec = self.manager.cancel_tournament(&rec.id, user, admin).await?;
                tracing::info!(
                    tournament = rec.id,
                    by = user.id,
                    admin,
                    "Discord: tournament cancelled"
                );
                let title = show::title(&rec, lang);
                said(
                    origin,
                    t!(lang, "discord-tournament-cancel-done", title = title),
                )
                .await
            }
            TournamentCommand::Bot { level, id } => {
                let Ok(level) = level else {
                    return Err(Failure::BadOption);
                };
                let rec = self.chat_tournament(&chat, id).await?;
                let rec = self
                    .manager
                    .add_bot_to_tournament(&rec.id, user, admin, level)
                    .await?;
                let text = t!(
                    lang,
                    "discord-tournament-bot-joined",
                    name = present::player_name(&Player::Bot(level), lang),
                    title = show::title(&rec, lang)
                );
                said(origin, text).await
            }
            TournamentCommand::Bye { round, id } => {
                let Ok(round) = round else {
                    return Err(Failure::BadOption);
                };
                let rec = self.chat_tournament(&chat, id).await?;
                let (rec, round) = self.manager.ask_half_bye(&rec.id, user, round).await?;
                said(origin, show::bye_answer(&rec, round, lang)).await
            }
            TournamentCommand::Unknown => Err(super::failure::no_subcommand(
                "tournament",
                &[
                    "discord-sub-new",
                    "discord-sub-join",
                    "discord-sub-leave",
                    "discord-sub-standings",
                    "discord-sub-bye",
                    "discord-sub-bot",
                    "discord-sub-cancel",
                ],
                lang,
            )),
        }
    }

    /// The Join and Leave buttons: answered privately; the announcement follows the event.
    pub(super) async fn tournament_entry(
        &self,
        origin: &Origin<'_>,
        (user, chat): (&UserRef, &ChatRef),
        (id, join): (&str, bool),
        lang: Lang,
    ) -> Handled {
        let rec = match self.manager.tournament(id).await {
            Ok(rec) if rec.chat == *chat => rec,
            Ok(rec) => {
                tracing::info!(
                    tournament = rec.id,
                    chat = chat.id,
                    "Discord: a tournament button of another server"
                );
                return Err(Failure::BadButton);
            }
            Err(error) => return Err(error.into()),
        };
        let rec = match join {
            true => self.manager.join_tournament(&rec.id, user).await?,
            false => self.manager.leave_tournament(&rec.id, user).await?,
        };
        said(origin, show::entry_answer(&rec, join, lang)).await
    }

    /// The event `id` of this server, or its newest live one.
    async fn chat_tournament(
        &self,
        chat: &ChatRef,
        id: Option<String>,
    ) -> Result<TournamentRecord, ActionError> {
        match id {
            Some(id) => match self.manager.tournament(&id).await? {
                rec if rec.chat == *chat => Ok(rec),
                _ => Err(ActionError::NoSuchTournament),
            },
            None => self
                .manager
                .chat_tournaments(chat)
                .await?
                .into_iter()
                .next()
                .ok_or(ActionError::NoSuchTournament),
        }
    }

    /// Posts a new event's announcement as the answer and attaches it.
    async fn post_announcement(
        self: &Arc<Self>,
        http: &Arc<Http>,
        origin: &Origin<'_>,
        rec: &TournamentRecord,
        lang: Lang,
    ) {
        let page = self.manager.tournament_page_url(&rec.id);
        let Some(message) = origin.post(announcement(rec, lang, page)).await else {
            return;
        };
        let channel = origin.channel().get();
        let r = message_ref(channel, message);
        match self
            .manager
            .attach_tournament_message(&rec.id, r, false)
            .await
        {
            // Someone may have joined by command while the announcement was on its way:
            // the flow draws it again then (only then: it would be an edit for nothing).
            Ok(()) => match self.manager.tournament(&rec.id).await {
                Ok(now)
                    if show::announcement(&now, lang, ClockStyle::Live)
                        != show::announcement(rec, lang, ClockStyle::Live) =>
                {
                    self.tournaments.push(TournamentNews {
                        record: now,
                        paired: Vec::new(),
                        ended: false,
                    });
                }
                _ => {}
            },
            Err(error) => {
                tracing::warn!(tournament = rec.id, message, %error, "Discord: announcement not attached");
                self.ended_unannounced(http, &rec.id, (channel, message), lang)
                    .await;
            }
        }
    }

    /// An event cancelled before its announcement could be attached (cancelled at once):
    /// its worker found no message to show the end on, so this one shows it.
    async fn ended_unannounced(
        &self,
        http: &Http,
        id: &str,
        (channel, message): (u64, u64),
        lang: Lang,
    ) {
        let rec = match self.manager.tournament(id).await {
            Ok(rec) if is_over(&rec) => rec,
            _ => return,
        };
        let page = self.manager.tournament_page_url(&rec.id);
        let edit = announcement(&rec, lang, page).into_edit();
        if let Err(error) = ChannelId::new(channel)
            .edit_message(http, MessageId::new(message), edit)
            .await
        {
            tracing::warn!(tournament = id, message, %error, "Discord: cannot update an announcement");
        }
        post_ending(http, &rec, lang, (channel, message)).await;
    }

    /// `/tournament standings`: the standings as text, with the table as a picture.
    async fn answer_standings(
        &self,
        origin: &Origin<'_>,
        rec: &TournamentRecord,
        lang: Lang,
    ) -> Handled {
        let text = format!(
            "{}\n{}",
            show::title(rec, lang),
            show::standings_text(rec, lang)
        );
        let png = standings_png(rec, lang).await;
        let out = Outgoing {
            content: within(text, MAX_CONTENT),
            embed: png.as_ref().map(|_| {
                CreateEmbed::new()
                    .image(format!("attachment://{STANDINGS_FILE}"))
                    .colour(0xC9A227)
            }),
            files: png
                .map(|png| Attachment::new(STANDINGS_FILE, png))
                .into_iter()
                .collect(),
            ..Outgoing::default()
        };
        origin.post(out).await;
        Ok(())
    }
}
