//! The daily puzzle posted in a channel (`/puzzle post hour:`, by a server's admins): the
//! manager's tick claims it and sends `Event::DailyPuzzle`; here one worker per channel
//! posts it (the board, the day's count, a Solve button that gives the presser their own
//! attempt, seen by them alone) and redraws its count as people solve it. The event loop
//! only hands over (`push`): no REST call is made there.

use super::messages::{Attachment, Outgoing, BOARD_FILE};
use super::{message_ref, parse_message_ref, Bot};
use crate::i18n::Lang;
use crate::manager::buttons::{encode, Button};
use crate::manager::puzzles::DailyNews;
use crate::platform::present::puzzle as show;
use crate::t;
use serenity::all::{
    ButtonStyle, ChannelId, CreateActionRow, CreateButton, CreateEmbed, Http, MessageId,
};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The news waiting per channel, and whether its worker runs.
#[derive(Default)]
pub(super) struct DailyPosts(Mutex<HashMap<u64, Slot>>);

#[derive(Default)]
struct Slot {
    pending: Option<DailyNews>,
    running: bool,
}

impl DailyPosts {
    /// Hands a channel's news to its worker: a newer redraw replaces one not shown yet, and
    /// a post still to make stays to make.
    pub(super) fn push(bot: &Arc<Bot>, http: &Arc<Http>, news: DailyNews) {
        let Ok(channel) = news.post.place.parse::<u64>() else {
            tracing::warn!(
                place = news.post.place,
                "Discord: a daily post with no channel"
            );
            return;
        };
        let start = {
            let mut slots = super::lock(&bot.daily.0);
            let slot = slots.entry(channel).or_default();
            let fresh = news.fresh || slot.pending.as_ref().is_some_and(|p| p.fresh);
            slot.pending = Some(DailyNews { fresh, ..news });
            !std::mem::replace(&mut slot.running, true)
        };
        if start {
            let (bot, http) = (bot.clone(), http.clone());
            tokio::spawn(async move { worker(bot, http, channel).await });
        }
    }

    fn take(&self, channel: u64) -> Option<DailyNews> {
        let mut slots = super::lock(&self.0);
        let slot = slots.get_mut(&channel)?;
        let next = slot.pending.take();
        if next.is_none() {
            slots.remove(&channel);
        }
        next
    }
}

async fn worker(bot: Arc<Bot>, http: Arc<Http>, channel: u64) {
    while let Some(news) = bot.daily.take(channel) {
        show(&bot, &http, channel, news).await;
    }
}

/// Posts the day's puzzle (and attaches the message), or redraws the post's count.
async fn show(bot: &Bot, http: &Http, channel: u64, news: DailyNews) {
    let lang = news.lang;
    let Some(out) = post(&news, lang).await else {
        return;
    };
    if !news.fresh {
        // The post's own channel: the post may have been moved since (from tomorrow on).
        let Some((posted_in, message)) = news.post.message.as_ref().and_then(parse_message_ref)
        else {
            return;
        };
        let edit =
            ChannelId::new(posted_in).edit_message(http, MessageId::new(message), out.into_edit());
        if let Err(error) = edit.await {
            tracing::warn!(channel, %error, "Discord: daily post not redrawn");
        }
        return;
    }
    let channel_id = ChannelId::new(channel);
    match channel_id.send_message(http, out.into_message()).await {
        Ok(message) => {
            let r = message_ref(channel, message.id.get());
            let attached = bot
                .manager
                .attach_daily_post(&news.post.chat, news.daily.day, r)
                .await;
            if let Err(error) = attached {
                tracing::warn!(channel, %error, "Discord: daily post not attached");
            }
            tracing::info!(
                channel,
                puzzle = news.daily.puzzle.id,
                "Discord: daily puzzle posted"
            );
        }
        Err(error) => tracing::warn!(channel, %error, "Discord: daily puzzle not posted"),
    }
}

/// The post: the board from the solver's side, the day's count, the Solve button.
async fn post(news: &DailyNews, lang: Lang) -> Option<Outgoing> {
    let board = show::daily_board_view(&news.daily, lang)?;
    let png = match crate::render::board_png(board).await {
        Ok(png) => Some(png),
        Err(error) => {
            tracing::warn!(%error, "Discord: daily board not drawn");
            None
        }
    };
    let mut embed = CreateEmbed::new()
        .description(show::daily_post_text(&news.daily, lang))
        .colour(0x5865F2);
    if png.is_some() {
        embed = embed.image(format!("attachment://{BOARD_FILE}"));
    }
    let solve = CreateButton::new(encode(&Button::PuzzleDaily))
        .label(t!(lang, "puzzle-button-solve"))
        .style(ButtonStyle::Success);
    Some(Outgoing {
        embed: Some(embed),
        files: png
            .map(|png| Attachment::new(BOARD_FILE, png))
            .into_iter()
            .collect(),
        components: vec![CreateActionRow::Buttons(vec![solve])],
        ..Outgoing::default()
    })
}
