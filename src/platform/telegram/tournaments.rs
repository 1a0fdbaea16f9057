//! `/tournament` in a group and the Join/Leave buttons of an announcement (issue 33). The
//! manager keeps the events; what players see comes from `present::tournament`; changes are
//! shown by the event's worker (`tournament_news.rs`) from the manager's events, so a
//! handler only acts and answers.

use super::boards::html;
use super::command::{NewEvent, TournamentCommand, TournamentFormat};
use super::failure::{Failure, HandlerResult};
use super::toast::{answer, answer_with_link};
use super::tournament_news::{self, event_lang, table_content};
use super::{user_ref, Ctx};
use crate::i18n::{words, Lang};
use crate::manager::buttons::Button;
use crate::manager::tournament::{
    Format, NewTournament, Status, TournamentError, TournamentRecord,
};
use crate::manager::{ActionError, Player};
use crate::model::{ChatRef, Platform, UserRef};
use crate::platform::present::tournament as show;
use crate::t;
use std::sync::Arc;
use teloxide::prelude::*;
use teloxide::types::{CallbackQuery, ChatMemberKind, ReactionType};

/// One `/tournament` being answered.
pub struct Asked<'a> {
    pub ctx: &'a Arc<Ctx>,
    pub msg: &'a Message,
    pub actor: &'a UserRef,
    pub lang: Lang,
}

impl Asked<'_> {
    fn chat(&self) -> i64 {
        self.msg.chat.id.0
    }

    fn chat_ref(&self) -> ChatRef {
        ChatRef::new(Platform::Telegram, self.chat().to_string())
    }

    /// Replies with plain text (escaped), through the chat's outbox.
    fn say(&self, text: String) {
        self.ctx
            .reply(self.chat(), Some(self.msg.id.0), html(&text));
    }
}

/// `/tournament ...`.
pub async fn command(a: &Asked<'_>, cmd: TournamentCommand) -> HandlerResult {
    let lang = a.lang;
    if a.msg.chat.is_private() {
        return Err(Failure::Unable(t!(lang, "tg-tournament-in-group")));
    }
    tracing::debug!(
        chat = a.chat(),
        user = a.actor.id,
        ?cmd,
        "telegram: /tournament"
    );
    match cmd {
        TournamentCommand::Usage => a.say(t!(lang, "tg-help-tournament")),
        TournamentCommand::New(new) => create(a, new).await?,
        // An entry is answered by the announcement's edit and a reaction on the command:
        // forty "you have joined" replies would spend the group's budget before the boards.
        TournamentCommand::Join => {
            let rec = newest(a).await?;
            a.ctx.manager.join_tournament(&rec.id, a.actor).await?;
            acknowledge(a).await;
        }
        TournamentCommand::Leave => {
            let rec = newest_of(a, a.actor).await?;
            a.ctx.manager.leave_tournament(&rec.id, a.actor).await?;
            acknowledge(a).await;
        }
        TournamentCommand::Cancel => {
            let rec = newest(a).await?;
            let admin = may_manage(a, &rec).await?;
            let rec = a
                .ctx
                .manager
                .cancel_tournament(&rec.id, a.actor, admin)
                .await?;
            // The event's worker posts the news of it in the group.
            tracing::info!(
                tournament = rec.id,
                chat = a.chat(),
                admin,
                "telegram: tournament cancelled"
            );
        }
        TournamentCommand::Bot { level } => {
            let rec = newest(a).await?;
            let admin = may_manage(a, &rec).await?;
            let rec = a
                .ctx
                .manager
                .add_bot_to_tournament(&rec.id, a.actor, admin, level)
                .await?;
            a.say(t!(
                lang,
                "tg-tournament-bot-joined",
                level = words::level_name(lang, level),
                title = show::title(&rec, lang)
            ));
        }
        TournamentCommand::Standings { id } => standings(a, id).await?,
        TournamentCommand::Bye { round } => {
            let rec = newest_of(a, a.actor).await?;
            let (rec, round) = a.ctx.manager.ask_half_bye(&rec.id, a.actor, round).await?;
            a.say(show::bye_answer(&rec, round, lang));
        }
    }
    Ok(())
}

/// The `/start` payload of a Join's link to the private chat: `tj` and the event's id.
pub const JOINED_PREFIX: &str = "tj";

/// The event a `/start` payload of a Join's link names.
pub fn joined_via(payload: &str) -> Option<&str> {
    payload
        .strip_prefix(JOINED_PREFIX)
        .filter(|id| !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// `/start tj<event>` in the private chat (a Join's link): tells an entrant that their
/// boards will come here; anyone else gets the usual greeting (the link joins nobody).
pub async fn boards_here(
    ctx: &Arc<Ctx>,
    msg: &Message,
    actor: &UserRef,
    id: &str,
    lang: Lang,
) -> HandlerResult {
    let entrant = match ctx.manager.tournament(id).await {
        Ok(rec) => rec
            .entrant(&Player::Human(actor.clone()))
            .is_some_and(|(_, e)| e.left_before.is_none())
            .then(|| show::title(&rec, lang)),
        Err(ActionError::NoSuchTournament) => None,
        Err(error) => return Err(error.into()),
    };
    let text = match entrant {
        Some(title) => t!(lang, "tg-tournament-boards-here", title = title),
        None => t!(lang, "tg-start"),
    };
    ctx.reply(msg.chat.id.0, Some(msg.id.0), html(&text));
    Ok(())
}

/// A 👍 on the command that was carried out: seen by everyone, and no message in the
/// group's budget.
async fn acknowledge(a: &Asked<'_>) {
    let reaction = vec![ReactionType::Emoji {
        emoji: "👍".to_string(),
    }];
    let req = a
        .ctx
        .bot
        .set_message_reaction(a.msg.chat.id, a.msg.id)
        .reaction(reaction);
    if let Err(err) = req.await {
        tracing::info!(error = a.ctx.poster.describe(&err), "telegram: no reaction");
    }
}

/// `/tournament new ...`: the event is created and its announcement posted and attached.
async fn create(a: &Asked<'_>, new: NewEvent) -> HandlerResult {
    let format = match new.format {
        TournamentFormat::Arena { minutes } => Format::Arena { minutes },
        TournamentFormat::Swiss { rounds } => Format::Swiss { rounds },
    };
    let now = a.ctx.manager.clock().now();
    let terms = NewTournament {
        format,
        time: new.time,
        variant: new.variant,
        rated: new.rated,
        starts_at: now.saturating_add(u64::from(new.starts_in) * 60),
    };
    let rec = a
        .ctx
        .manager
        .create_tournament(a.chat_ref(), a.actor, terms)
        .await?;
    tracing::info!(
        tournament = rec.id,
        chat = a.chat(),
        ?format,
        "telegram: tournament created"
    );
    let lang = event_lang(a.ctx, &rec).await;
    tournament_news::post_announcement(a.ctx, &rec, a.chat(), Some(a.msg.id.0), lang);
    Ok(())
}

/// The group's newest event taking entries or running.
async fn newest(a: &Asked<'_>) -> Result<TournamentRecord, Failure> {
    let live = a.ctx.manager.chat_tournaments(&a.chat_ref()).await?;
    live.into_iter()
        .next()
        .ok_or_else(|| Failure::Unable(t!(a.lang, "tg-tournament-none")))
}

/// The group's newest live event `user` is in, else its newest.
async fn newest_of(a: &Asked<'_>, user: &UserRef) -> Result<TournamentRecord, Failure> {
    let live = a.ctx.manager.chat_tournaments(&a.chat_ref()).await?;
    let player = Player::Human(user.clone());
    let theirs = live.iter().find(|rec| {
        rec.entrant(&player)
            .is_some_and(|(_, e)| e.left_before.is_none())
    });
    theirs
        .or(live.first())
        .cloned()
        .ok_or_else(|| Failure::Unable(t!(a.lang, "tg-tournament-none")))
}

/// Whether the asker counts as an admin for `rec`: its creator needs no asking; anyone
/// else is looked up with getChatMember (the group's creator or an administrator).
async fn may_manage(a: &Asked<'_>, rec: &TournamentRecord) -> Result<bool, Failure> {
    if rec.creator == *a.actor {
        return Ok(false);
    }
    is_chat_admin(a.ctx, a.msg).await
}

/// Whether the sender of `msg` is an owner or administrator of its chat (getChatMember).
pub(super) async fn is_chat_admin(ctx: &Ctx, msg: &Message) -> Result<bool, Failure> {
    let Some(from) = msg.from.as_ref() else {
        return Ok(false);
    };
    let member = ctx
        .bot
        .get_chat_member(msg.chat.id, from.id)
        .await
        .map_err(|err| {
            let error = ctx.poster.describe(&err);
            Failure::Internal(anyhow::anyhow!("getChatMember: {error}"))
        })?;
    let admin = matches!(
        member.kind,
        ChatMemberKind::Owner(_) | ChatMemberKind::Administrator(_)
    );
    tracing::debug!(
        chat = msg.chat.id.0,
        user = from.id.0,
        admin,
        "telegram: chat member"
    );
    Ok(admin)
}

/// `/tournament standings [id]`: the standings as text and as a picture.
async fn standings(a: &Asked<'_>, id: Option<String>) -> HandlerResult {
    let rec = match id {
        Some(id) => {
            let rec = a.ctx.manager.tournament(&id).await?;
            // Another chat's event is none of this group's business.
            if rec.chat != a.chat_ref() {
                return Err(ActionError::NoSuchTournament.into());
            }
            rec
        }
        None => newest(a).await?,
    };
    let lang = a.lang;
    let text = match rec.status {
        Status::Open => format!(
            "{}\n{}",
            show::title(&rec, lang),
            t!(lang, "tg-tournament-not-started")
        ),
        _ => format!(
            "{}\n{}",
            show::title(&rec, lang),
            show::standings_text(&rec, lang)
        ),
    };
    a.say(text);
    if rec.status != Status::Open {
        if let Some(photo) = table_content(&rec, show::standings_table(&rec, lang)).await {
            a.ctx.send_later(a.chat(), Some(a.msg.id.0), photo, None);
        }
    }
    Ok(())
}

/// A press on an announcement's Join or Leave: answered to the presser in their language;
/// the announcement is redrawn by the event's worker.
pub async fn press(
    ctx: &Arc<Ctx>,
    q: &CallbackQuery,
    button: &Button,
    lang: Lang,
) -> HandlerResult {
    let actor = user_ref(&q.from);
    let (id, joined) = match button {
        Button::JoinTournament { tournament } => (tournament, true),
        Button::LeaveTournament { tournament } => (tournament, false),
        _ => return Err(Failure::bad_button("not a tournament button")),
    };
    check_pressed_in_its_chat(ctx, q, id).await?;
    let done = match joined {
        true => ctx.manager.join_tournament(id, &actor).await,
        false => ctx.manager.leave_tournament(id, &actor).await,
    };
    match done {
        Ok(rec) => {
            tracing::info!(
                tournament = id,
                user = actor.id,
                joined,
                "telegram: tournament entry"
            );
            let text = show::entry_answer(&rec, joined, lang);
            if joined && !ctx.people.has_private(q.from.id.0) {
                // The boards will come to the private chat: open it (Start, the first time).
                let url = format!("https://t.me/{}?start={JOINED_PREFIX}{id}", ctx.username);
                answer_with_link(ctx, q, text, url).await;
            } else {
                answer(ctx, q, text, false).await;
            }
            Ok(())
        }
        Err(err) => Err(Failure::Refused {
            alert: about_the_presser(&err),
            err,
        }),
    }
}

/// Refuses a Join or Leave press anywhere but in the event's own chat (issue 49, finding
/// 5): a message without buttons (any of the bot's messages in a private chat) lets any
/// data through `belongs_here`, so forged data there would enter the presser in a group's
/// event they may not even be in. As Discord's `tournament_entry` does.
async fn check_pressed_in_its_chat(ctx: &Ctx, q: &CallbackQuery, id: &str) -> Result<(), Failure> {
    let Some(pressed_in) = q.message.as_ref().map(|m| m.chat().id.0) else {
        return Err(Failure::bad_button("a tournament button inline"));
    };
    let rec = ctx
        .manager
        .tournament(id)
        .await
        .map_err(|err| Failure::Refused {
            alert: about_the_presser(&err),
            err,
        })?;
    let here = ChatRef::new(Platform::Telegram, pressed_in.to_string());
    if rec.chat != here {
        tracing::info!(
            tournament = rec.id,
            chat = pressed_in,
            user = q.from.id.0,
            "telegram: a tournament button of another chat"
        );
        return Err(Failure::bad_button("a tournament button of another chat"));
    }
    Ok(())
}

/// Whether a refusal is about the presser (an alert they must close) rather than the event
/// (a passing notice): already in, not in, not allowed, or a button naming no event.
fn about_the_presser(err: &ActionError) -> bool {
    matches!(
        err,
        ActionError::NoSuchTournament
            | ActionError::Tournament(
                TournamentError::AlreadyIn | TournamentError::NotIn | TournamentError::NotAllowed
            )
    ) || crate::platform::present::is_alert(err)
}
