//! `/opening [source] [moves]` and the explorer's buttons (issue 52): one photo, the board
//! over the moves table (`present::explorer_chat`), with a button per move, Back, and the
//! source and filters. A press edits the pressed message in place (editMessageMedia through
//! the poster's queue); the Opening button under a finished board posts a new explorer
//! where the game left the others' games. Only the asker presses their explorer.

use super::failure::{Failure, HandlerResult};
use super::poster::Content;
use super::refs::MsgRef;
use super::toast::answer;
use super::{user_ref, Ctx};
use crate::i18n::Lang;
use crate::manager::buttons::{encode, Button};
use crate::manager::explorer::ExplorerView;
use crate::model::{ChatRef, Platform, UserRef};
use crate::platform::present::explorer_chat as show;
use crate::t;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use teloxide::types::{CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message};

/// `/opening`: the explorer at the asked line, for the asker.
pub async fn command(
    ctx: &Arc<Ctx>,
    msg: &Message,
    actor: &UserRef,
    args: &str,
    lang: Lang,
) -> HandlerResult {
    let chat_id = msg.chat.id.0;
    let chat = ChatRef::new(Platform::Telegram, chat_id.to_string());
    let ask = show::opening_ask(args, &chat)?;
    let view = ctx.manager.explore(ask, Some(&chat)).await?;
    tracing::info!(
        chat = chat_id,
        user = actor.id,
        moves = view.ask.moves.len(),
        "telegram: opening explorer"
    );
    let content = explorer_content(&view, actor, lang).await;
    ctx.send_later(chat_id, Some(msg.id.0), content, None);
    Ok(())
}

/// A press on an explorer's button (its owner's alone), or on a finished board's Opening.
pub async fn press(
    ctx: &Arc<Ctx>,
    q: &CallbackQuery,
    button: &Button,
    place: &MsgRef,
    lang: Lang,
) -> HandlerResult {
    let actor = user_ref(&q.from);
    let MsgRef::Chat { chat, .. } = place else {
        // An inline board (no chat to post a picture in).
        return Err(Failure::Unable(t!(lang, "tg-opening-inline")));
    };
    let chat_ref = ChatRef::new(Platform::Telegram, chat.to_string());
    match button {
        Button::Explorer { owner, at } => {
            // A button names its owner and position: data the message never carried is
            // forged (a modified client can send any data, not change the message).
            if !super::puzzles::on_pressed_keyboard(q, button) {
                return Err(Failure::bad_button("explorer data of another message"));
            }
            if *owner != actor.id {
                return Err(Failure::Unable(t!(lang, "explorer-chat-not-yours")));
            }
            if !super::puzzles::press_allowed(ctx, &actor, q.from.id.0 as i64).await {
                return Err(Failure::Unable(t!(lang, "tg-slow-down-press")));
            }
            let ask = show::ask_of(at, &chat_ref);
            let view = ctx.manager.explore(ask, Some(&chat_ref)).await?;
            answer(ctx, q, String::new(), false).await;
            let content = explorer_content(&view, &actor, lang).await;
            ctx.poster.edit(place.clone(), content, next_version());
        }
        Button::Opening { game } => {
            if !super::puzzles::press_allowed(ctx, &actor, q.from.id.0 as i64).await {
                return Err(Failure::Unable(t!(lang, "tg-slow-down-press")));
            }
            let line = ctx.manager.book_line(game).await?;
            let view = ctx.manager.explore(line.ask(), Some(&chat_ref)).await?;
            answer(ctx, q, String::new(), false).await;
            let content = explorer_content(&view, &actor, lang).await;
            ctx.send_later(*chat, None, content, None);
        }
        _ => return Err(Failure::bad_button("not an explorer button")),
    }
    Ok(())
}

/// Edits of explorer messages in the order they were asked: a later press's picture is
/// never replaced by an earlier one still on its way.
fn next_version() -> u64 {
    static EDITS: AtomicU64 = AtomicU64::new(1);
    EDITS.fetch_add(1, Ordering::Relaxed)
}

/// The explorer's message: the picture (the caption alone if it cannot be drawn), the
/// caption with the last games, and `owner`'s buttons.
pub async fn explorer_content(view: &ExplorerView, owner: &UserRef, lang: Lang) -> Content {
    let keyboard = Some(keyboard(view, owner, lang));
    let caption = clip_caption(show::explorer_caption(view, lang));
    match crate::render::explorer_png(show::explorer_picture(view, lang)).await {
        Ok(png) => Content::Photo {
            png: Arc::new(png),
            caption,
            keyboard,
            html: false,
        },
        Err(error) => {
            tracing::warn!(%error, "explorer PNG failed; text only");
            let text = super::boards::html(&caption);
            Content::Text { text, keyboard }
        }
    }
}

/// Telegram's longest photo caption, in characters.
const CAPTION_MAX: usize = 1024;

/// The caption within Telegram's limit: whole lines (the last games last) while they fit,
/// then an ellipsis.
fn clip_caption(caption: String) -> String {
    if caption.chars().count() <= CAPTION_MAX {
        return caption;
    }
    let mut kept = String::new();
    for line in caption.lines() {
        let room = CAPTION_MAX - 1 - kept.chars().count();
        let line: String = line.chars().take(room.saturating_sub(1)).collect();
        if !kept.is_empty() {
            kept.push('\n');
        }
        kept.push_str(&line);
        if kept.chars().count() >= CAPTION_MAX - 2 {
            break;
        }
    }
    kept.push('…');
    kept
}

fn keyboard(view: &ExplorerView, owner: &UserRef, lang: Lang) -> InlineKeyboardMarkup {
    let rows = show::explorer_buttons(view, owner, lang);
    InlineKeyboardMarkup::new(rows.iter().map(|row| {
        row.iter()
            .map(|b| InlineKeyboardButton::callback(b.label.clone(), encode(&b.button)))
            .collect::<Vec<_>>()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_caption_is_cut_within_telegrams_limit() {
        let short = "After 7 · Masters\n• A – B, 1-0 (pit 2)".to_string();
        assert_eq!(clip_caption(short.clone()), short);
        let long = format!(
            "After 7 · Masters\n{}\n{}",
            "ә".repeat(700),
            "б".repeat(700)
        );
        let cut = clip_caption(long);
        assert!(
            cut.chars().count() <= CAPTION_MAX,
            "{}",
            cut.chars().count()
        );
        assert!(cut.starts_with("After 7 · Masters\nәә") && cut.ends_with('…'));
    }
}
