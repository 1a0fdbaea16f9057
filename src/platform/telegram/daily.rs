//! The daily puzzle posted in a chat (`/puzzle post HOUR`, by an admin), as
//! `platform/flow/daily.rs` decides for every adapter: this file is the Telegram outlet of
//! that flow, which only sends and edits. The post is the board, the day's count and a
//! Solve button; its count is redrawn through `poster.edit` (coalesced, flood limits and
//! 429s waited out in the background, ordered by the day's count). In a group the Solve
//! button opens the private chat with the bot (`/start zd<group>`), where the day's puzzle
//! is played and counted for the group; in a private chat it is the Daily button itself.

use super::poster::{self, Content};
use super::refs::MsgRef;
use super::Ctx;
use crate::i18n::Lang;
use crate::manager::buttons::{encode, Button};
use crate::manager::puzzles::DailyNews;
use crate::manager::MessageRef;
use crate::model::{ChatRef, Platform};
use crate::platform::flow::daily::{DailyOutlet, Flow, Made};
use crate::platform::flow::Posted;
use crate::platform::present::puzzle as show;
use crate::render;
use crate::t;
use std::sync::{Arc, Weak};
use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup};

/// The `/start` payload of a group's Solve button: `zd` and the group's chat id.
pub const START_PREFIX: &str = "zd";

/// The Telegram daily posts: the shared flow over this outlet.
pub type DailyPosts = Flow<TelegramDaily>;

/// Sends and edits a chat's daily post for the flow.
pub struct TelegramDaily {
    ctx: Weak<Ctx>,
}

impl TelegramDaily {
    pub fn new(ctx: Weak<Ctx>) -> Self {
        TelegramDaily { ctx }
    }
}

/// The chat of a post, unless its place is no Telegram chat.
fn chat_of(news: &DailyNews) -> Option<i64> {
    let chat = news.post.place.parse::<i64>().ok();
    if chat.is_none() {
        tracing::warn!(
            place = news.post.place,
            "telegram: a daily post with no chat id"
        );
    }
    chat
}

impl DailyOutlet for TelegramDaily {
    fn platform(&self) -> Platform {
        Platform::Telegram
    }

    async fn post(&self, news: &DailyNews) -> Made {
        let (Some(ctx), Some(chat)) = (self.ctx.upgrade(), chat_of(news)) else {
            return Made::Never;
        };
        let Some(content) = content(&ctx, chat, news, news.lang).await else {
            return Made::Never;
        };
        match ctx.poster.send(chat, &content, None).await {
            Ok(sent) => {
                tracing::info!(
                    chat,
                    puzzle = news.daily.puzzle.id,
                    "telegram: daily puzzle posted"
                );
                let r = MsgRef::Chat {
                    chat,
                    message: sent.id.0,
                };
                Made::Posted(r.to_ref())
            }
            Err(err) => {
                let error = ctx.poster.describe(&err);
                tracing::warn!(chat, error, "telegram: daily puzzle not posted");
                match poster::may_pass(&err) {
                    true => Made::Later,
                    false => Made::Never,
                }
            }
        }
    }

    async fn redraw(&self, news: &DailyNews, message: &MessageRef) -> Posted {
        let (Some(ctx), Some(chat)) = (self.ctx.upgrade(), chat_of(news)) else {
            return Posted::Done;
        };
        let Some(target) = MsgRef::parse(message) else {
            return Posted::Done;
        };
        if let Some(content) = content(&ctx, chat, news, news.lang).await {
            let version = u64::from(news.daily.count.tried);
            ctx.poster.edit(target, content, version);
        }
        Posted::Done
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
