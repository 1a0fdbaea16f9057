//! The Hint button under a board of a casual game against the bot (docs/review.md, *Hints*).
//! A refusal (not your turn, no hints left, a game between people) answers the press at
//! once. An admitted hint is worked out by a task of its own, so neither the handler nor the
//! chat's other updates wait for the engine; it then answers the press with the hint, posts
//! the board with the engine's move marked as a reply to the pressed board (in a chat; an
//! inline message has no chat to post in, so there the press's answer is all), and redraws
//! the pressed board's keyboard so its Hint button counts down.

use super::boards::version;
use super::failure::HandlerResult;
use super::markup;
use super::poster::Content;
use super::refs::chat_ref;
use super::refs::MsgRef;
use super::toast::answer;
use super::Ctx;
use crate::i18n::Lang;
use crate::manager::GameHint;
use crate::model::UserRef;
use crate::platform::present;
use std::sync::Arc;
use teloxide::types::CallbackQuery;

/// A press on Hint for the board shown at `ply` of `game`, pressed on `place`.
pub async fn press(
    ctx: &Arc<Ctx>,
    q: &CallbackQuery,
    (game, ply): (&str, u16),
    place: &MsgRef,
    actor: &UserRef,
    lang: Lang,
) -> HandlerResult {
    let here = chat_ref(place);
    let ticket = ctx
        .manager
        .start_hint(actor, &here, Some(game.to_string()), Some(ply))
        .await?;
    let (ctx, q, place) = (ctx.clone(), q.clone(), place.clone());
    tokio::spawn(async move {
        match ticket.finish().await {
            Ok(hint) => {
                let caption = present::review::hint_caption(&hint, lang);
                tokio::join!(
                    answer(&ctx, &q, caption, false),
                    show(&ctx, &hint, &place, lang)
                );
            }
            Err(err) => {
                tracing::info!(%err, "telegram: hint not given");
                let alert = present::is_alert(&err);
                answer(&ctx, &q, present::error_text(&err, lang), alert).await;
            }
        }
    });
    Ok(())
}

/// Posts the hint's board under the pressed board and redraws that board's keyboard.
async fn show(ctx: &Arc<Ctx>, hint: &GameHint, place: &MsgRef, lang: Lang) {
    if let MsgRef::Chat { chat, message } = place {
        let (caption, png) = present::review::hint_drawn(hint, lang).await;
        let content = match png {
            Some(png) => Content::Photo {
                png: Arc::new(png),
                caption,
                keyboard: None,
                html: false,
            },
            None => Content::Text {
                text: super::boards::html(&caption),
                keyboard: None,
            },
        };
        ctx.send_later(*chat, Some(*message), content, None);
    }
    let view = &hint.game;
    let board_lang = present::board_lang(view);
    let keyboard = markup::game_keyboard(
        view,
        board_lang,
        markup::Where::of(place),
        ctx.mini_app.as_ref(),
    );
    ctx.poster.edit(
        place.clone(),
        Content::Keyboard(Some(keyboard)),
        version(view),
    );
}
