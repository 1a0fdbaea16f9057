//! Game reviews in Telegram: `/review` and the Review button. The request is admitted or
//! refused at once (`Manager::start_review_in`: unknown game, not over, too many reviews);
//! an admitted review runs in its own task and is posted into the chat's outbox when done,
//! so neither the handler nor the chat's other updates wait for the engine.

use super::boards::html;
use super::poster::Content;
use super::Ctx;
use crate::i18n::Lang;
use crate::manager::buttons::encode;
use crate::manager::{ActionError, GameReview};
use crate::model::{ChatRef, GameId, UserRef};
use crate::platform::present;
use crate::platform::present::review::{mistake_board, mistake_buttons, review_post};
use std::sync::Arc;
use teloxide::prelude::*;
use teloxide::types::{ChatAction, InlineKeyboardButton, InlineKeyboardMarkup};

/// Telegram's longest photo caption, in characters.
const CAPTION_MAX: usize = 1024;

/// Where a review goes and in which language.
pub struct ReviewPlace {
    pub chat: i64,
    pub reply_to: Option<i32>,
    pub lang: Lang,
}

/// The user asks for a review of `game`, or of the game that ended last in `here`. A refusal comes
/// back at once; an admitted review is run and posted by a task of its own. `Ok(true)` when
/// the review was kept from before (it is posted at once).
pub async fn request(
    ctx: &Arc<Ctx>,
    asked: (&ChatRef, &UserRef),
    game: Option<GameId>,
    place: ReviewPlace,
) -> Result<bool, ActionError> {
    run(ctx, asked, game, None, place).await
}

/// `request`, for the board before marked mistake `mark` instead of the whole review.
pub async fn request_board(
    ctx: &Arc<Ctx>,
    asked: (&ChatRef, &UserRef),
    game: GameId,
    mark: u8,
    place: ReviewPlace,
) -> Result<bool, ActionError> {
    run(ctx, asked, Some(game), Some(mark), place).await
}

async fn run(
    ctx: &Arc<Ctx>,
    (here, asker): (&ChatRef, &UserRef),
    game: Option<GameId>,
    mark: Option<u8>,
    place: ReviewPlace,
) -> Result<bool, ActionError> {
    let ticket = ctx.manager.start_review_in(here, game, asker).await?;
    let ready = ticket.is_ready();
    let ctx = ctx.clone();
    tokio::spawn(async move {
        if !ready {
            // "Sending a photo…" in the chat's header while the engine works; only a hint.
            let action = ctx
                .bot
                .send_chat_action(ChatId(place.chat), ChatAction::UploadPhoto);
            if let Err(error) = action.await {
                tracing::debug!(error = ctx.poster.describe(&error), "chat action not sent");
            }
        }
        match ticket.finish().await {
            Ok(reviewed) => match mark {
                None => post(&ctx, reviewed, &place).await,
                Some(mark) => post_board(&ctx, reviewed, mark, &place).await,
            },
            Err(error) => {
                tracing::warn!(%error, chat = place.chat, "telegram: review failed");
                let text = html(&present::error_text(&error, place.lang));
                ctx.reply(place.chat, place.reply_to, text);
            }
        }
    });
    Ok(ready)
}

/// Queues the review's graph with the summary as its caption (or, when the summary is too
/// long for a caption or the graph failed, the summary as a message of its own). The graph
/// is drawn once per language while the review is kept, off the async workers.
async fn post(ctx: &Arc<Ctx>, reviewed: GameReview, place: &ReviewPlace) {
    let lang = place.lang;
    let buttons = mistake_buttons(&reviewed, lang);
    let review = match crate::render::draw(move || review_post(&reviewed, lang)).await {
        Ok(review) => review,
        Err(error) => {
            tracing::error!(%error, chat = place.chat, "telegram: the review could not be drawn");
            let text = html(&crate::t!(lang, "tg-error-internal"));
            return ctx.reply(place.chat, place.reply_to, text);
        }
    };
    let (caption, rest) = split_caption(&review.text);
    let buttons: Vec<InlineKeyboardButton> = buttons
        .iter()
        .map(|b| InlineKeyboardButton::callback(b.label.clone(), encode(&b.button)))
        .collect();
    let keyboard = (!buttons.is_empty())
        .then(|| InlineKeyboardMarkup::new(buttons.chunks(3).map(<[_]>::to_vec)));
    match review.png {
        Some(png) => {
            let photo = Content::Photo {
                png,
                caption,
                keyboard,
                html: false,
            };
            ctx.send_later(place.chat, place.reply_to, photo, None);
            if let Some(rest) = rest {
                ctx.reply(place.chat, None, html(&rest));
            }
        }
        None => ctx.reply(place.chat, place.reply_to, html(&review.text)),
    }
}

/// Queues the board before marked mistake `mark`, captioned with what was played and what
/// was better; an unknown mark (an old or forged button) is answered with the review's
/// error text for a game without it.
async fn post_board(ctx: &Arc<Ctx>, reviewed: GameReview, mark: u8, place: &ReviewPlace) {
    let lang = place.lang;
    let drawn = crate::render::draw(move || mistake_board(&reviewed, mark, lang)).await;
    let board = drawn.unwrap_or_else(|error| {
        tracing::error!(%error, chat = place.chat, "telegram: the mistake board could not be drawn");
        None
    });
    match board {
        Some((caption, png)) => {
            let photo = Content::Photo {
                png: Arc::new(png),
                caption,
                keyboard: None,
                html: false,
            };
            ctx.send_later(place.chat, place.reply_to, photo, None);
        }
        None => {
            let text = html(&crate::t!(place.lang, "tg-bad-button"));
            ctx.reply(place.chat, place.reply_to, text);
        }
    }
}

/// The caption, and what does not fit into one: a summary longer than a caption keeps its
/// title line under the photo and goes out whole as a message.
fn split_caption(text: &str) -> (String, Option<String>) {
    if text.chars().count() <= CAPTION_MAX {
        return (text.to_string(), None);
    }
    let title: String = text
        .lines()
        .next()
        .unwrap_or_default()
        .chars()
        .take(CAPTION_MAX)
        .collect();
    (title, Some(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_summary_keeps_its_title_as_the_caption() {
        let short = "Game review\n\nWhite: 90%";
        assert_eq!(split_caption(short), (short.to_string(), None));
        let long = format!("Title line\n{}", "x".repeat(2000));
        let (caption, rest) = split_caption(&long);
        assert_eq!(caption, "Title line");
        assert_eq!(rest.as_deref(), Some(long.as_str()));
        let one_line = "y".repeat(3000);
        assert_eq!(split_caption(&one_line).0.chars().count(), CAPTION_MAX);
    }
}
