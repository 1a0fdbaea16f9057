//! The daily puzzle posted in a channel (`/puzzle post hour:`, by a server's admins), as
//! `platform/flow/daily.rs` decides for every adapter: this file is the Discord outlet of
//! that flow, which only sends and edits. The post is the board, the day's count and a
//! Solve button that gives the presser their own attempt, seen by them alone
//! (`puzzle.rs`); its count is redrawn in the post's own channel, though the post was
//! moved since (from tomorrow on).

use super::failure::transient;
use super::messages::{Attachment, Outgoing, BOARD_FILE};
use super::{message_ref, parse_message_ref, Bot};
use crate::i18n::Lang;
use crate::manager::buttons::{encode, Button};
use crate::manager::puzzles::DailyNews;
use crate::manager::MessageRef;
use crate::model::Platform;
use crate::platform::flow::daily::{DailyOutlet, Flow, Made};
use crate::platform::flow::Posted;
use crate::platform::present::puzzle as show;
use crate::t;
use serenity::all::{
    ButtonStyle, ChannelId, CreateActionRow, CreateButton, CreateEmbed, Http, MessageId,
};
use std::sync::{Arc, OnceLock};

/// The Discord daily posts: the shared flow over this outlet, made with the REST client
/// of the first news (the bot is made before its client).
#[derive(Default)]
pub(super) struct DailyPosts(OnceLock<Flow<DiscordDaily>>);

impl DailyPosts {
    /// Hands a server's news to its worker; no REST call is made here.
    pub(super) fn push(bot: &Arc<Bot>, http: &Arc<Http>, news: DailyNews) {
        let flow = bot.daily.0.get_or_init(|| {
            let outlet = Arc::new(DiscordDaily { http: http.clone() });
            Flow::new(outlet, bot.manager.clone(), "Discord daily post")
        });
        flow.push(news);
    }
}

/// Sends and edits a channel's daily post for the flow.
pub(super) struct DiscordDaily {
    http: Arc<Http>,
}

impl DailyOutlet for DiscordDaily {
    fn platform(&self) -> Platform {
        Platform::Discord
    }

    async fn post(&self, news: &DailyNews) -> Made {
        let Ok(channel) = news.post.place.parse::<u64>() else {
            tracing::warn!(
                place = news.post.place,
                "Discord: a daily post with no channel"
            );
            return Made::Never;
        };
        let Some(out) = post(news, news.lang).await else {
            return Made::Never;
        };
        let channel_id = ChannelId::new(channel);
        match channel_id
            .send_message(&*self.http, out.into_message())
            .await
        {
            Ok(message) => {
                tracing::info!(
                    channel,
                    puzzle = news.daily.puzzle.id,
                    "Discord: daily puzzle posted"
                );
                Made::Posted(message_ref(channel, message.id.get()))
            }
            Err(error) => {
                tracing::warn!(channel, %error, "Discord: daily puzzle not posted");
                match transient(&error) {
                    true => Made::Later,
                    false => Made::Never,
                }
            }
        }
    }

    async fn redraw(&self, news: &DailyNews, message: &MessageRef) -> Posted {
        // The post's own channel: the post may have been moved since (from tomorrow on).
        let Some((posted_in, message)) = parse_message_ref(message) else {
            return Posted::Done;
        };
        let Some(out) = post(news, news.lang).await else {
            return Posted::Done;
        };
        let edit = ChannelId::new(posted_in).edit_message(
            &*self.http,
            MessageId::new(message),
            out.into_edit(),
        );
        match edit.await {
            Ok(_) => Posted::Done,
            Err(error) => {
                tracing::warn!(channel = posted_in, %error, "Discord: daily post not redrawn");
                match transient(&error) {
                    true => Posted::Later,
                    false => Posted::Done,
                }
            }
        }
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
