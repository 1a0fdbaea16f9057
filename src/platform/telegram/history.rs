//! `/history`, `/stats`, `/leaderboard` and `/record` in Telegram, and the buttons of a
//! history page (issue 16). The texts are shared (`platform::present::history_text`); here are the
//! keyboards, the signed page buttons and the record as a document.
//!
//! A page button carries `tgh:<user id>:<page>:<tag>`, the tag an HMAC of the rest under
//! the bot's button key (as inline placeholders are signed), so a modified client cannot
//! make the bot page through data it never showed. A history is public anyway; the tag is
//! what lets a forged or garbled button get a plain refusal instead of a lookup.

use super::boards;
use super::boards::html;
use super::failure::{self, Failure, HandlerResult};
use super::markup::Where;
use super::poster::Content;
use super::refs::{MsgRef, Place};
use super::toast::answer;
use super::Ctx;
use crate::i18n::Lang;
use crate::manager::buttons::{encode, MAX_HISTORY_PAGE};
use crate::manager::history::{Cursor, HistoryPage, PageAt};
use crate::model::{Category, ChatRef, Platform, UserRef};
pub use crate::platform::present::history_text::Whose;
use crate::platform::present::history_text::{
    category_name, entry_button, history_text, leaderboard_text, name_in, record_caption,
    record_title, stats_text, BoardsShown,
};
use crate::ratings::keys::Scope;
use crate::t;
use std::sync::Arc;
use teloxide::types::{CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup};

/// Prefix of a history page button's data.
pub const PAGE_PREFIX: &str = "tgh:";
/// Telegram's longest caption, in characters.
const CAPTION_MAX: usize = 1024;
/// Pages past this are not offered (as on Discord: `buttons::MAX_HISTORY_PAGE`).
const MAX_PAGE: usize = MAX_HISTORY_PAGE as usize;

/// `/history`: the first page, with its buttons.
pub async fn history(ctx: &Arc<Ctx>, place: Place, whose: Whose, lang: Lang) -> HandlerResult {
    let page = ctx.manager.history(&whose.user, &PageAt::Newest, 0).await?;
    let (text, keyboard) = history_message(ctx, &whose, &page, lang);
    let content = Content::Text { text, keyboard };
    ctx.send_later(place.chat, place.reply_to, content, None);
    Ok(())
}

/// A page's text (HTML) and keyboard: one button per game (its board and record), then
/// ◀ ▶ when there are pages before or after.
fn history_message(
    ctx: &Ctx,
    whose: &Whose,
    page: &HistoryPage,
    lang: Lang,
) -> (String, Option<InlineKeyboardMarkup>) {
    let text = html(&history_text(whose.name().as_deref(), page, lang));
    let games: Vec<InlineKeyboardButton> = page
        .entries
        .iter()
        .map(|e| {
            let b = entry_button(e);
            InlineKeyboardButton::callback(b.label, encode(&b.button))
        })
        .collect();
    let mut rows: Vec<Vec<InlineKeyboardButton>> = games.chunks(4).map(<[_]>::to_vec).collect();
    let mut nav = Vec::new();
    // Each button carries the key its page starts from, so any page is one keyed read.
    if let Some(newer) = &page.newer {
        let at = format!("n{}", newer.encode());
        nav.push(page_button(
            ctx,
            "◀",
            &whose.user,
            page.page.saturating_sub(1),
            &at,
        ));
    }
    if let Some(older) = page.older.as_ref().filter(|_| page.page < MAX_PAGE) {
        let at = format!("o{}", older.encode());
        nav.push(page_button(ctx, "▶", &whose.user, page.page + 1, &at));
    }
    if !nav.is_empty() {
        rows.push(nav);
    }
    let keyboard = (!rows.is_empty()).then(|| InlineKeyboardMarkup::new(rows));
    (text, keyboard)
}

/// `tgh:<user>:<page>:<at>`, `at` being `o<cursor>` or `n<cursor>` (older or newer than
/// a game shown), signed.
fn page_button(
    ctx: &Ctx,
    label: &str,
    user: &UserRef,
    page: usize,
    at: &str,
) -> InlineKeyboardButton {
    let data = ctx
        .button_key
        .sign_short(&format!("{PAGE_PREFIX}{}:{page}:{at}", user.id));
    InlineKeyboardButton::callback(label, data)
}

/// The user id, page and start of page button data, if the bot signed it. Data signed
/// before pages were read by key (no start) shows the newest page.
fn read_page(ctx: &Ctx, data: &str) -> Option<(String, usize, PageAt)> {
    let key = &ctx.button_key;
    let payload = key
        .verify_short(data)
        .or_else(|| key.verify_payload(data))?;
    let mut parts = payload.strip_prefix(PAGE_PREFIX)?.split(':');
    let (user, page) = (parts.next()?, parts.next()?);
    let at = match parts.next() {
        None => PageAt::Newest,
        Some(at) => match at.split_at_checked(1)? {
            ("o", c) => PageAt::OlderThan(Cursor::decode(c)?),
            ("n", c) => PageAt::NewerThan(Cursor::decode(c)?),
            _ => return None,
        },
    };
    let ok = !user.is_empty() && user.bytes().all(|b| b.is_ascii_digit());
    let page: usize = page.parse().ok().filter(|p| *p <= MAX_PAGE)?;
    (ok && parts.next().is_none()).then(|| (user.to_string(), page, at))
}

/// A ◀ or ▶ press: the message is redrawn with that page. Data the bot did not sign is
/// refused; a page that no longer has games (games are only ever added, so only a forged
/// page number could ask for one) is answered as such.
pub async fn page_press(
    ctx: &Arc<Ctx>,
    q: &CallbackQuery,
    data: &str,
    lang: Lang,
) -> HandlerResult {
    let Some((id, number, at)) = read_page(ctx, data) else {
        return Err(Failure::bad_button("history page button not ours"));
    };
    let Some(place) = q.message.as_ref().map(|m| MsgRef::Chat {
        chat: m.chat().id.0,
        message: m.id().0,
    }) else {
        return Err(Failure::bad_button("history page button on no message"));
    };
    let name = ctx.people.name(id.parse().unwrap_or_default());
    let mut user = UserRef::new(Platform::Telegram, id, name.clone().unwrap_or_default());
    let page = ctx
        .manager
        .history(&user, &at, number)
        .await
        .map_err(Failure::alert)?;
    if page.entries.is_empty() {
        return Err(Failure::Unable(t!(lang, "tg-history-page-gone")));
    }
    if name.is_none() {
        user.name = name_in(&page, &user);
    }
    let whose = Whose {
        own: user.id == q.from.id.0.to_string(),
        user,
    };
    let (text, keyboard) = history_message(ctx, &whose, &page, lang);
    // Version 0: every page is as new as the one before.
    ctx.poster.edit(place, Content::Text { text, keyboard }, 0);
    answer(ctx, q, String::new(), false).await;
    Ok(())
}

/// `/stats`.
pub async fn stats(ctx: &Arc<Ctx>, place: Place, whose: Whose, lang: Lang) -> HandlerResult {
    let stats = ctx.manager.stats(&whose.user).await?;
    let text = stats_text(whose.name().as_deref(), stats.as_ref(), lang);
    ctx.reply(place.chat, place.reply_to, html(&text));
    Ok(())
}

/// What `/leaderboard` asked for: Telegram's players (with `global`, and in a private chat)
/// or the group's; one time category in full, or every category's top.
pub struct Asked {
    pub global: bool,
    pub category: Option<Category>,
}

/// `/leaderboard`: the group's, or Telegram's with `global` or in a private chat.
pub async fn leaderboard(
    ctx: &Arc<Ctx>,
    place: Place,
    caller: &UserRef,
    asked: Asked,
    lang: Lang,
) -> HandlerResult {
    let scope = if asked.global {
        Scope::Platform(Platform::Telegram)
    } else {
        Scope::Chat(ChatRef::new(Platform::Telegram, place.chat.to_string()))
    };
    let boards = match asked.category {
        Some(category) => ctx
            .manager
            .leaderboard(scope, category, Some(caller))
            .await
            .map(|board| (vec![board], BoardsShown::One)),
        None => {
            // As the group would type it: `/leaderboard блиц`.
            let word = category_name(Category::Blitz, lang).to_lowercase();
            let more = format!("/leaderboard {word}");
            let boards = ctx.manager.leaderboards(scope, Some(caller)).await;
            boards.map(|boards| (boards, BoardsShown::Overview { more }))
        }
    };
    let (boards, shown) = boards?;
    let text = leaderboard_text(&boards, shown, lang);
    ctx.reply(place.chat, place.reply_to, html(&text));
    Ok(())
}

/// `/record` and a game's Record button: the record as a document, the move text in its
/// caption (or, when too long for one, in a message of its own after it).
pub async fn record(
    ctx: &Arc<Ctx>,
    place: Place,
    game: Option<String>,
    lang: Lang,
) -> HandlerResult {
    let here = ChatRef::new(Platform::Telegram, place.chat.to_string());
    let file = ctx.manager.record_in(&here, game).await?;
    let caption = record_caption(&file, lang);
    let (short, rest) = if caption.chars().count() <= CAPTION_MAX {
        (caption, None)
    } else {
        (record_title(&file, lang), Some(caption))
    };
    let document = Content::Document {
        name: file.file_name,
        bytes: Arc::new(file.text.into_bytes()),
        caption: short,
    };
    ctx.send_later(place.chat, place.reply_to, document, None);
    if let Some(rest) = rest {
        ctx.reply(place.chat, None, html(&rest));
    }
    Ok(())
}

/// A history entry's button or a finished board's Record button: the game's final board
/// (only from a history page: a board's own Record button is on that board) and its record.
pub async fn record_press(
    ctx: &Arc<Ctx>,
    q: &CallbackQuery,
    game: &str,
    place: &MsgRef,
    with_board: bool,
    lang: Lang,
) -> HandlerResult {
    let MsgRef::Chat { chat, message } = place else {
        return Err(Failure::Unable(t!(lang, "tg-record-inline", id = game)));
    };
    let at = Place {
        chat: *chat,
        reply_to: Some(*message),
    };
    if with_board {
        if let Ok(view) = ctx.manager.game(game).await {
            // Posted where it was asked for, not attached: the game's own boards stay its
            // boards.
            let place = Where::chat(*chat);
            let content = boards::board_content(&view, lang, place, ctx.mini_app.as_ref()).await;
            ctx.send_later(*chat, Some(*message), content, None);
        }
    }
    if let Err(failure) = record(ctx, at, Some(game.to_string()), lang).await {
        // A refusal goes where the record would have gone: into the chat.
        let private = q.message.as_ref().is_some_and(|m| m.chat().is_private());
        failure::reply(ctx, at, private, &failure, lang);
    }
    answer(ctx, q, String::new(), false).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::telegram::inline::ButtonKey;

    #[test]
    fn page_data_fits_telegram_and_only_ours_reads_back() {
        let key = ButtonKey::new(b"k1");
        let cursor = Cursor {
            ended: 4_102_444_800_000,
            game: "ab12cd".into(),
        };
        let at = format!("o{}", cursor.encode());
        let payload = format!("{PAGE_PREFIX}{}:{MAX_PAGE}:{at}", u64::MAX);
        let data = key.sign_short(&payload);
        assert!(data.len() <= 64, "{data}");
        assert_eq!(key.verify_short(&data), Some(payload.as_str()));
        assert_eq!(ButtonKey::new(b"k2").verify_short(&data), None);
        let forged = data.replacen(":9999:", ":9998:", 1);
        assert_eq!(key.verify_short(&forged), None);
        // Data signed before pages were read by key still verifies (and shows page 1).
        let old = key.sign_payload(&format!("{PAGE_PREFIX}1:3"));
        assert_eq!(key.verify_payload(&old), Some("tgh:1:3"));
    }
}
