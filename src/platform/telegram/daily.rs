//! The daily puzzle posted in a chat (`/puzzle post HOUR`, by an admin): the manager's
//! tick claims it and sends `Event::DailyPuzzle`; here one worker per chat posts it (the
//! board, the day's count, a Solve button) and redraws its count as people solve it. In a
//! group the Solve button opens the private chat with the bot (`/start zd<group>`), where
//! the day's puzzle is played and counted for the group; in a private chat it is the
//! Daily button itself. The event loop only hands over (`push`): no request waits there.

use super::poster::Content;
use super::refs::MsgRef;
use super::Ctx;
use crate::i18n::Lang;
use crate::manager::buttons::{encode, Button};
use crate::manager::puzzles::DailyNews;
use crate::model::{ChatRef, Platform};
use crate::platform::present::puzzle as show;
use crate::render;
use crate::t;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup};

/// The `/start` payload of a group's Solve button: `zd` and the group's chat id.
pub const START_PREFIX: &str = "zd";

/// The news waiting per chat, and whether its worker runs.
#[derive(Default)]
pub struct DailyPosts(Mutex<HashMap<i64, Slot>>);

#[derive(Default)]
struct Slot {
    pending: Option<DailyNews>,
    running: bool,
}

impl DailyPosts {
    /// Hands a chat's news to its worker: a newer redraw replaces one not shown yet, and a
    /// post still to make stays to make.
    pub fn push(&self, ctx: &Arc<Ctx>, news: DailyNews) {
        let Ok(chat) = news.post.place.parse::<i64>() else {
            tracing::warn!(
                place = news.post.place,
                "telegram: a daily post with no chat id"
            );
            return;
        };
        let start = {
            let mut slots = self.0.lock().unwrap_or_else(|e| e.into_inner());
            let slot = slots.entry(chat).or_default();
            let fresh = news.fresh || slot.pending.as_ref().is_some_and(|p| p.fresh);
            slot.pending = Some(DailyNews { fresh, ..news });
            !std::mem::replace(&mut slot.running, true)
        };
        if start {
            let ctx = ctx.clone();
            tokio::spawn(async move { worker(ctx, chat).await });
        }
    }

    /// The next news of `chat`, or `None` (and the worker stops) when there is none.
    fn take(&self, chat: i64) -> Option<DailyNews> {
        let mut slots = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let slot = slots.get_mut(&chat)?;
        let next = slot.pending.take();
        if next.is_none() {
            slots.remove(&chat);
        }
        next
    }
}

async fn worker(ctx: Arc<Ctx>, chat: i64) {
    while let Some(news) = ctx.daily.take(chat) {
        show(&ctx, chat, news).await;
    }
}

/// Posts the day's puzzle (and attaches the message), or redraws the post's count.
async fn show(ctx: &Arc<Ctx>, chat: i64, news: DailyNews) {
    let lang = news.lang;
    let content = match content(ctx, chat, &news, lang).await {
        Some(content) => content,
        None => return,
    };
    if !news.fresh {
        if let Some(target) = news.post.message.as_ref().and_then(MsgRef::parse) {
            let version = u64::from(news.daily.count.tried);
            ctx.poster.edit(target, content, version);
        }
        return;
    }
    match ctx.poster.send(chat, &content, None).await {
        Ok(sent) => {
            let r = MsgRef::Chat {
                chat,
                message: sent.id.0,
            };
            let attached = ctx
                .manager
                .attach_daily_post(&news.post.chat, news.daily.day, r.to_ref())
                .await;
            if let Err(error) = attached {
                tracing::warn!(chat, %error, "telegram: daily post not attached");
            }
            tracing::info!(
                chat,
                puzzle = news.daily.puzzle.id,
                "telegram: daily puzzle posted"
            );
        }
        Err(err) => {
            let error = ctx.poster.describe(&err);
            tracing::warn!(chat, error, "telegram: daily puzzle not posted");
        }
    }
}

/// The post: the puzzle's board from the solver's side, the day's count, the Solve button.
async fn content(ctx: &Ctx, chat: i64, news: &DailyNews, lang: Lang) -> Option<Content> {
    let board = show::daily_board_view(&news.daily, lang)?;
    let caption = show::daily_post_text(&news.daily, lang);
    let label = t!(lang, "puzzle-button-solve");
    let button = if chat > 0 {
        InlineKeyboardButton::callback(label, encode(&Button::PuzzleDaily))
    } else {
        let link = format!("https://t.me/{}?start={START_PREFIX}{chat}", ctx.username);
        let url = url::Url::parse(&link).ok()?;
        InlineKeyboardButton::url(label, url)
    };
    let keyboard = Some(InlineKeyboardMarkup::new([[button]]));
    match render::board_png(board).await {
        Ok(png) => Some(Content::Photo {
            png: Arc::new(png),
            caption,
            keyboard,
            html: false,
        }),
        Err(error) => {
            tracing::warn!(%error, "telegram: daily board not drawn");
            Some(Content::Text {
                text: super::boards::html(&caption),
                keyboard,
            })
        }
    }
}

/// The group a `/start` payload of a Solve button names.
pub fn group_of(payload: &str) -> Option<ChatRef> {
    let id: i64 = payload.strip_prefix(START_PREFIX)?.parse().ok()?;
    (id < 0).then(|| ChatRef::new(Platform::Telegram, id.to_string()))
}
