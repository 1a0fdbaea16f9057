//! `/puzzle` and the buttons under a puzzle (issue 34). The manager keeps the attempts;
//! what players see comes from `present::puzzle`; a press on a pit edits the pressed
//! puzzle message in place, Next and Daily post a new one.

use super::boards::html;
use super::command::PuzzleCommand;
use super::failure::{Failure, HandlerResult};
use super::guard::Verdict;
use super::poster::Content;
use super::refs::MsgRef;
use super::toast::answer;
use super::{user_ref, Ctx};
use crate::i18n::Lang;
use crate::manager::buttons::{encode, Button};
use crate::manager::puzzles::{PuzzleKind, PuzzleView};
use crate::model::{ChatRef, Platform, UserRef};
use crate::platform::present::{self, puzzle as show};
use crate::ratings::keys::Scope;
use crate::render::{self, Charset};
use crate::t;
use std::sync::Arc;
use teloxide::requests::Requester;
use teloxide::types::{CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message};

/// Pit buttons in a row (as under a game's board).
const PITS_PER_ROW: usize = 5;

/// `/puzzle [daily|stats|top]`.
pub async fn command(
    ctx: &Arc<Ctx>,
    msg: &Message,
    actor: &UserRef,
    cmd: PuzzleCommand,
    lang: Lang,
) -> HandlerResult {
    let chat_id = msg.chat.id.0;
    let chat = ChatRef::new(Platform::Telegram, chat_id.to_string());
    match cmd {
        PuzzleCommand::Next | PuzzleCommand::Daily => {
            let kind = match cmd {
                PuzzleCommand::Daily => PuzzleKind::Daily,
                _ => PuzzleKind::Next,
            };
            let view = ctx.manager.puzzle(actor, &chat, kind).await?;
            tracing::info!(
                chat = chat_id,
                user = actor.id,
                attempt = view.attempt,
                "telegram: puzzle"
            );
            let content = puzzle_content(&view, lang).await;
            ctx.send_later(chat_id, Some(msg.id.0), content, None);
        }
        PuzzleCommand::Stats => {
            let stats = ctx.manager.puzzle_stats(actor).await?;
            ctx.reply(
                chat_id,
                Some(msg.id.0),
                html(&show::puzzle_stats_text(&stats, lang)),
            );
        }
        PuzzleCommand::Top { global } => {
            let scope = match global || msg.chat.is_private() {
                true => Scope::Platform(Platform::Telegram),
                false => Scope::Chat(chat),
            };
            let board = ctx.manager.puzzle_leaderboard(scope, Some(actor)).await?;
            let text = show::puzzle_leaderboard_text(&board, lang);
            ctx.reply(chat_id, Some(msg.id.0), html(&text));
        }
        PuzzleCommand::Post { hour } => {
            if !msg.chat.is_private() && !super::tournaments::is_chat_admin(ctx, msg).await? {
                return Err(Failure::Unable(t!(lang, "puzzle-post-admins")));
            }
            let place = chat_id.to_string();
            ctx.manager
                .set_daily_post((&chat, &place), actor, hour)
                .await?;
            let text = show::daily_post_set_text(hour, lang);
            ctx.reply(chat_id, Some(msg.id.0), html(&text));
        }
    }
    Ok(())
}

/// `/start zd<group>` from a group's daily post: today's puzzle in this private chat,
/// counted for the group if the player is in it. Anyone can type the link, so a stranger's
/// attempt counts in this private chat instead, and they are told why (issue 49, finding
/// 8): a group's count is its members'.
pub async fn start_daily(
    ctx: &Arc<Ctx>,
    msg: &Message,
    actor: &UserRef,
    group: ChatRef,
    lang: Lang,
) -> HandlerResult {
    let chat = msg.chat.id.0;
    let member = is_member(ctx, &group, actor).await;
    let counted = match member {
        true => group,
        false => ChatRef::new(Platform::Telegram, chat.to_string()),
    };
    let view = ctx
        .manager
        .puzzle(actor, &counted, PuzzleKind::Daily)
        .await?;
    if !member {
        ctx.reply(
            chat,
            Some(msg.id.0),
            html(&t!(lang, "puzzle-daily-not-member")),
        );
    }
    let content = puzzle_content(&view, lang).await;
    ctx.send_later(chat, None, content, None);
    Ok(())
}

/// Whether `user` is in `group` as Telegram says now (getChatMember): its owner, an admin,
/// a member, or restricted but still in it. A group Telegram will not tell about (the bot
/// was removed, or Telegram fails) counts nobody in.
async fn is_member(ctx: &Ctx, group: &ChatRef, user: &UserRef) -> bool {
    let (Ok(chat), Ok(id)) = (group.id.parse::<i64>(), user.id.parse::<u64>()) else {
        return false;
    };
    let asked = ctx
        .bot
        .get_chat_member(teloxide::types::ChatId(chat), teloxide::types::UserId(id))
        .await;
    match asked {
        Ok(member) => member.kind.is_present(),
        Err(err) => {
            let error = ctx.poster.describe(&err);
            tracing::info!(
                chat,
                user = id,
                error,
                "telegram: daily link of a group not asked"
            );
            false
        }
    }
}

/// A press under a puzzle: a pit (the presser's own attempt only), or Next / Daily.
pub async fn press(
    ctx: &Arc<Ctx>,
    q: &CallbackQuery,
    button: &Button,
    place: &MsgRef,
    lang: Lang,
) -> HandlerResult {
    let actor = user_ref(&q.from);
    if !on_pressed_keyboard(q, button) {
        return Err(Failure::bad_button("puzzle data of another message"));
    }
    let chat = match place {
        MsgRef::Chat { chat, .. } => *chat,
        MsgRef::Inline(_) => return Err(Failure::bad_button("a puzzle button inline")),
    };
    let chat_ref = ChatRef::new(Platform::Telegram, chat.to_string());
    match button {
        Button::PuzzleMove {
            owner,
            attempt,
            step,
            pit,
        } => {
            let view = ctx
                .manager
                .puzzle_move(&actor, owner, (*attempt, *step, *pit))
                .await
                .map_err(refused)?;
            answer(ctx, q, String::new(), false).await;
            let content = puzzle_content(&view, lang).await;
            ctx.poster.edit(place.clone(), content, version(&view));
        }
        Button::PuzzleNext | Button::PuzzleDaily => {
            if !press_allowed(ctx, &actor, q.from.id.0 as i64).await {
                return Err(Failure::Unable(t!(lang, "tg-slow-down-press")));
            }
            let kind = match button {
                Button::PuzzleDaily => PuzzleKind::Daily,
                _ => PuzzleKind::Next,
            };
            let view = ctx
                .manager
                .puzzle(&actor, &chat_ref, kind)
                .await
                .map_err(refused)?;
            answer(ctx, q, String::new(), false).await;
            let content = puzzle_content(&view, lang).await;
            ctx.send_later(chat, None, content, None);
        }
        _ => return Err(Failure::bad_button("not a puzzle button")),
    }
    Ok(())
}

/// Whether `user` may have another puzzle posted now: Next and Daily each read and write
/// their puzzle record and draw a board, so they count as commands do, against this
/// process's limit and every process's together (issue 49, finding 17). Unlike a command
/// over the limit, a press is always answered: its button spins until it is.
pub(super) async fn press_allowed(ctx: &Ctx, user: &UserRef, id: i64) -> bool {
    if ctx.commands.check(&id) != Verdict::Go {
        return false;
    }
    let limits = &ctx.manager.config().limits;
    let per_minute = ctx
        .config
        .commands_per_minute
        .unwrap_or(limits.commands_per_minute);
    ctx.manager.command_allowed(user, per_minute).await
}

/// A refused press, shown as an alert when it is about the presser.
fn refused(err: crate::manager::ActionError) -> Failure {
    Failure::Refused {
        alert: present::is_alert(&err),
        err,
    }
}

/// Whether the pressed message's keyboard holds exactly this button: a puzzle button names
/// its owner and attempt, so data the message never carried is forged.
pub(super) fn on_pressed_keyboard(q: &CallbackQuery, button: &Button) -> bool {
    let Some(message) = q.message.as_ref().and_then(|m| m.regular_message()) else {
        return false;
    };
    let data = encode(button);
    message.reply_markup().is_some_and(|k| {
        k.inline_keyboard.iter().flatten().any(|b| {
            matches!(&b.kind, teloxide::types::InlineKeyboardButtonKind::CallbackData(d) if *d == data)
        })
    })
}

/// The edit's order among the edits of one message: later steps of an attempt, and its end,
/// are newer.
fn version(view: &PuzzleView) -> u64 {
    (u64::from(view.attempt) << 8) | (u64::from(view.step) << 1) | u64::from(view.is_over())
}

/// The puzzle's message: the board as a photo (or text if it cannot be drawn), the caption,
/// the pits or the Next buttons.
pub async fn puzzle_content(view: &PuzzleView, lang: Lang) -> Content {
    let keyboard = Some(keyboard(view, lang));
    let caption = show::puzzle_caption(view, lang);
    let board = show::puzzle_board_view(view, lang);
    match render::board_png(board.clone()).await {
        Ok(png) => Content::Photo {
            png: Arc::new(png),
            caption,
            keyboard,
            html: false,
        },
        Err(error) => {
            tracing::warn!(%error, puzzle = view.puzzle.id, "puzzle PNG failed");
            let text = format!(
                "<pre>{}</pre>\n{}",
                html(&render::text(&board, Charset::Unicode)),
                html(&caption)
            );
            Content::Text { text, keyboard }
        }
    }
}

/// The legal pits, five a row, while the attempt is on; Next and Daily after.
fn keyboard(view: &PuzzleView, lang: Lang) -> InlineKeyboardMarkup {
    let buttons: Vec<InlineKeyboardButton> = show::puzzle_buttons(view, lang)
        .iter()
        .filter(|b| b.enabled)
        .map(|b| InlineKeyboardButton::callback(b.label.clone(), encode(&b.button)))
        .collect();
    InlineKeyboardMarkup::new(buttons.chunks(PITS_PER_ROW).map(<[_]>::to_vec))
}
