//! The Premoves button under a correspondence board (docs/premoves.md). Boards live in
//! groups, so a press opens the presser's builder in their private chat with the bot: a
//! message with the lines as text and a keyboard of pits, Add line, Undo, Clear all and
//! Done. If Telegram refuses that message (the presser never started the bot, or blocked
//! it), the press is answered with a notice and a link that opens the private chat, where
//! the link's Start opens the builder of that game (`/start pm<game>`).
//!
//! The builder's lines and draft are in the game's record (`Manager::edit_premoves`), so it
//! works after a restart and from any process; each key press edits the builder in place.
//! The message is sent by a task of its own: the handler never waits on a flood limit.

use super::failure::{Failure, HandlerResult};
use super::poster::Content;
use super::refs::MsgRef;
use super::toast::{answer, answer_with_link};
use super::Ctx;
use crate::i18n::Lang;
use crate::manager::buttons::{encode, PremoveKey};
use crate::manager::{ActionError, PremovesView};
use crate::model::UserRef;
use crate::platform::present::premoves;
use crate::t;
use std::sync::Arc;
use teloxide::types::{CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup};

/// A press on Premoves: the presser's builder, in their private chat.
pub async fn open(
    ctx: &Arc<Ctx>,
    q: &CallbackQuery,
    game: &str,
    actor: &UserRef,
    lang: Lang,
) -> HandlerResult {
    let view = open_view(ctx, actor, game, true).await?;
    let private = q.from.id.0 as i64;
    let content = builder(&view, lang);
    let (ctx, q, game) = (ctx.clone(), q.clone(), game.to_string());
    tokio::spawn(async move {
        match ctx.poster.send(private, &content, None).await {
            Ok(_) => {
                ctx.people.note_private(q.from.id.0);
                answer(&ctx, &q, t!(lang, "premoves-opened-private"), false).await;
            }
            Err(err) if super::poster::cannot_reach(&err) => {
                tracing::info!(
                    error = ctx.poster.describe(&err),
                    "telegram: premoves not sent privately"
                );
                let url = format!("https://t.me/{}?start={START_PREFIX}{game}", ctx.username);
                let text = t!(lang, "premoves-start-bot", link = url.clone());
                answer_with_link(&ctx, &q, text, url).await;
            }
            Err(err) => {
                let error = ctx.poster.describe(&err);
                tracing::warn!(error, "telegram: premoves builder not sent");
                let text = t!(lang, "manager-error-storage");
                answer(&ctx, &q, text, true).await;
            }
        }
    });
    Ok(())
}

/// The actor's premoves in `game` while they may enter some; else why not (their move
/// now, the game over, not their game), as an alert or a plain answer.
async fn open_view(
    ctx: &Ctx,
    actor: &UserRef,
    game: &str,
    alert: bool,
) -> Result<PremovesView, Failure> {
    let view = ctx.manager.premoves(actor, game).await?;
    if view.open {
        return Ok(view);
    }
    let err = match view.game.is_over() {
        true => ActionError::GameOver,
        false => ActionError::PremovesOnTheirTurn,
    };
    Err(Failure::Refused { err, alert })
}

/// What a start link's payload begins with when it opens a game's builder.
const START_PREFIX: &str = "pm";

/// The game whose builder a `/start` payload asks for (`pm<game>`, from a press on
/// Premoves by someone who had not started the bot).
pub fn game_of_start(payload: &str) -> Option<&str> {
    payload
        .strip_prefix(START_PREFIX)
        .filter(|id| !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// `/start pm<game>` in the private chat: the presser's builder of that game, as the press
/// would have sent it (or why not: their move now, the game over, not their game).
pub async fn open_from_start(
    ctx: &Arc<Ctx>,
    chat: i64,
    game: &str,
    actor: &UserRef,
    lang: Lang,
) -> HandlerResult {
    let view = open_view(ctx, actor, game, false).await?;
    ctx.people.note_private(chat.unsigned_abs());
    ctx.send_later(chat, None, builder(&view, lang), None);
    Ok(())
}

/// A key of the builder, pressed on `place`: the change made durable, then the builder
/// redrawn there (Done: the lines alone, no keys).
pub async fn key(
    ctx: &Arc<Ctx>,
    q: &CallbackQuery,
    (game, edits, key): (&str, u32, PremoveKey),
    place: &MsgRef,
    actor: &UserRef,
    lang: Lang,
) -> HandlerResult {
    let content = match premoves::key_edit(key) {
        Some(edit) => {
            let view = ctx
                .manager
                .edit_premoves(actor, game, Some(edits), edit)
                .await?;
            builder(&view, lang)
        }
        None => {
            let view = ctx.manager.premoves(actor, game).await?;
            Content::Text {
                text: super::boards::html(&premoves::closed_text(&view, lang)),
                keyboard: None,
            }
        }
    };
    // Edits of one builder go out newest last: the count of changes orders them.
    let version = u64::from(edits) + 1;
    ctx.poster.edit(place.clone(), content, version);
    answer(ctx, q, String::new(), false).await;
    Ok(())
}

/// The builder: its text (HTML: names are escaped) and its keys.
fn builder(view: &PremovesView, lang: Lang) -> Content {
    let rows: Vec<Vec<InlineKeyboardButton>> = premoves::builder_keys(view, lang)
        .iter()
        .map(|row| {
            row.iter()
                // Telegram has no disabled buttons: a pit that cannot be played is left out.
                .filter(|b| b.enabled || !matches!(key_of(&b.button), Some(PremoveKey::Pit(_))))
                .map(|b| InlineKeyboardButton::callback(b.label.clone(), encode(&b.button)))
                .collect::<Vec<_>>()
        })
        .filter(|row| !row.is_empty())
        .collect();
    Content::Text {
        text: super::boards::html(&premoves::builder_text(view, lang)),
        keyboard: Some(InlineKeyboardMarkup::new(rows)),
    }
}

fn key_of(button: &crate::manager::buttons::Button) -> Option<PremoveKey> {
    match button {
        crate::manager::buttons::Button::PremoveKey { key, .. } => Some(*key),
        _ => None,
    }
}
