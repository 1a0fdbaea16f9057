//! Button presses: the board's and the challenge's buttons (checked against the message
//! they were pressed on), and showing what an action answered.

use super::boards;
use super::boards::{show_reply, Origin};
use super::commands::test_panic;
use super::failure::{Failure, HandlerResult};
use super::history::{self, PAGE_PREFIX};
use super::inline::inline_placeholder_press;
use super::markup::{self, INLINE_PREFIX, TIME_PREFIX};
use super::poster::Content;
use super::refs::{chat_ref, MsgRef};
use super::reviews::{self, ReviewPlace};
use super::toast::answer;
use super::{user_ref, Ctx};
use crate::i18n::Lang;
use crate::manager::buttons::{decode, Button};
use crate::manager::{Action, ActionError, GameView, Reply, Request};
use crate::model::TimeControl;
use crate::platform::present;
use crate::t;
use std::sync::Arc;
use teloxide::types::CallbackQuery;

/// The game or challenge named by the keyboard Telegram reports under the pressed message.
/// A modified client can send any data, but not change the message it reports: `None` when
/// there is no such message (inline messages) or it is too old to be shown.
fn pressed_keyboard_target(q: &CallbackQuery) -> Option<Option<String>> {
    let message = q.message.as_ref()?.regular_message()?;
    Some(message.reply_markup().and_then(markup::target_of))
}

/// Whether `button` may have come from the pressed message: a message whose keyboard names
/// another game or challenge did not carry it (forged data). A message without buttons
/// (closed, or edited meanwhile) passes: the manager answers as for any old button, and
/// such a message is never adopted.
fn belongs_here(q: &CallbackQuery, button: &Button) -> bool {
    match (pressed_keyboard_target(q), markup::target(button)) {
        (Some(Some(shown)), Some(pressed)) => shown == pressed,
        _ => true,
    }
}

pub async fn on_callback(ctx: Arc<Ctx>, q: CallbackQuery) -> HandlerResult {
    ctx.see(&q.from).await;
    let actor = user_ref(&q.from);
    let lang = ctx.lang_of(&actor).await;
    let place = match (&q.message, &q.inline_message_id) {
        (Some(m), _) => MsgRef::Chat {
            chat: m.chat().id.0,
            message: m.id().0,
        },
        (None, Some(id)) => MsgRef::Inline(id.clone()),
        (None, None) => return Err(Failure::bad_button("pressed on no message")),
    };
    if let MsgRef::Chat { chat, .. } = &place {
        if *chat > 0 {
            // A press in their private chat with the bot: private messages reach them
            // again (issue 51). A press in a group says nothing of that chat.
            ctx.manager.reachable_again(&actor).await;
        }
        // A message just posted may not be attached to its game or challenge yet.
        ctx.outbox.settled(*chat).await;
    }
    let data = q.data.as_deref().unwrap_or("");
    test_panic(data);
    if let Some(signed) = data.strip_prefix(INLINE_PREFIX) {
        return inline_placeholder_press(&ctx, &q, signed, place, lang).await;
    }
    if let Some(time) = data.strip_prefix(TIME_PREFIX) {
        return time_row_press(&ctx, &q, time, place, lang).await;
    }
    if data.starts_with(PAGE_PREFIX) {
        return history::page_press(&ctx, &q, data, lang).await;
    }
    let button = decode(data).map_err(|error| Failure::bad_button(format!("data: {error}")))?;
    if let Button::Record { game } = &button {
        // A record is public, and a history page carries one button per game: no check of
        // the message it was pressed on. A board (a photo) has its own board already.
        let on_board = q
            .message
            .as_ref()
            .and_then(|m| m.regular_message())
            .is_some_and(|m| m.photo().is_some());
        return history::record_press(&ctx, &q, game, &place, !on_board, lang).await;
    }
    if let Button::Explorer { .. } | Button::Opening { .. } = &button {
        return super::openings::press(&ctx, &q, &button, &place, lang).await;
    }
    if let Button::PuzzleMove { .. } | Button::PuzzleNext | Button::PuzzleDaily = &button {
        return super::puzzles::press(&ctx, &q, &button, &place, lang).await;
    }
    if !belongs_here(&q, &button) {
        return Err(Failure::bad_button("data of another message"));
    }
    if let Button::JoinTournament { .. } | Button::LeaveTournament { .. } = &button {
        return super::tournaments::press(&ctx, &q, &button, lang).await;
    }
    if let Button::Premoves { game } = &button {
        return super::premoves::open(&ctx, &q, game, &actor, lang).await;
    }
    if let Button::PremoveKey { game, edits, key } = &button {
        let pressed = (game.as_str(), *edits, *key);
        return super::premoves::key(&ctx, &q, pressed, &place, &actor, lang).await;
    }
    if let Button::Hint { game, ply } = &button {
        return super::hints::press(&ctx, &q, (game, *ply), &place, &actor, lang).await;
    }
    if let Button::Review { game } | Button::ReviewBoard { game, .. } = &button {
        let mark = match button {
            Button::ReviewBoard { mark, .. } => Some(mark),
            _ => None,
        };
        return review_press(&ctx, &q, (game, mark), &place, lang).await;
    }
    let shown_game = button.game().map(str::to_string);
    // Only a board whose own keyboard is this game's may be adopted by it.
    let own_board = shown_game.is_some()
        && pressed_keyboard_target(&q).flatten().as_deref() == shown_game.as_deref();
    let chat = chat_ref(&place);
    let origin = Origin {
        chat: match &place {
            MsgRef::Chat { chat, .. } => Some(*chat),
            MsgRef::Inline(_) => None,
        },
        place: Some(place),
        reply_to: None,
        repost: false,
        // A board's own buttons (not rematch: that starts a new game).
        adopt: own_board && !matches!(button, Button::Rematch { .. }),
        asker: None,
    };
    let done = match &button {
        Button::ChallengeTime { time, .. } => challenge_time_set(*time, lang),
        _ => String::new(),
    };
    let Some(action) = button.into_action() else {
        return Err(Failure::bad_button("no action"));
    };
    let req = Request {
        actor: actor.clone(),
        chat: chat.clone(),
        action,
    };
    match ctx.manager.act(req).await {
        Ok(reply) => {
            // The spinner stops while the board is drawn and edited.
            tokio::join!(
                answer(&ctx, &q, done, false),
                show_reply(&ctx, reply, &origin, lang)
            );
        }
        Err(err) => {
            if let (ActionError::StaleBoard, Some(game)) = (&err, shown_game) {
                let shown = q
                    .message
                    .as_ref()
                    .and_then(|m| m.regular_message())
                    .and_then(|m| m.reply_markup())
                    .and_then(markup::ply_of);
                show_if_behind(
                    &ctx,
                    Request {
                        actor,
                        chat,
                        action: Action::Show { game: Some(game) },
                    },
                    shown,
                )
                .await;
            }
            return Err(err.into());
        }
    }
    Ok(())
}

/// A press on the time row of a level keyboard: the keyboard is redrawn with the levels
/// playing at that time control. Only a level keyboard is redrawn (forged data pressed on a
/// board changes nothing); nothing reaches the manager until a level is pressed.
async fn time_row_press(
    ctx: &Arc<Ctx>,
    q: &CallbackQuery,
    time: &str,
    place: MsgRef,
    lang: Lang,
) -> HandlerResult {
    let on_levels = q
        .message
        .as_ref()
        .and_then(|m| m.regular_message())
        .and_then(|m| m.reply_markup())
        .is_some_and(markup::is_level_keyboard);
    let time = match TimeControl::parse(time) {
        Ok(time) if on_levels => time,
        _ => return Err(Failure::bad_button("a time button out of place")),
    };
    let keyboard = markup::level_keyboard(lang, Some(time));
    // Version 0: every redraw of a level keyboard is as new as the one before.
    ctx.poster.edit(place, Content::Keyboard(Some(keyboard)), 0);
    let chosen = match time {
        TimeControl::Correspondence => t!(lang, "tg-time-chosen-correspondence"),
        timed => t!(
            lang,
            "tg-time-chosen",
            control = present::time_control_text(timed, lang)
        ),
    };
    answer(ctx, q, chosen, false).await;
    Ok(())
}

/// The toast after the challenger picked another time control for their challenge.
fn challenge_time_set(time: TimeControl, lang: Lang) -> String {
    match time {
        TimeControl::Correspondence => t!(lang, "tg-challenge-time-set-correspondence"),
        timed => t!(
            lang,
            "tg-challenge-time-set",
            control = present::time_control_text(timed, lang)
        ),
    }
}

/// The Review button: the review is posted in the pressed message's chat by its own task;
/// the press is answered at once (a refusal such as "busy", or that the review is coming).
/// An inline message has no chat to post a picture in: the presser is told where to ask.
/// A mistake's button (`mark`) shows the board before that mistake the same way.
async fn review_press(
    ctx: &Arc<Ctx>,
    q: &CallbackQuery,
    (game, mark): (&str, Option<u8>),
    place: &MsgRef,
    lang: Lang,
) -> HandlerResult {
    let MsgRef::Chat { chat, message } = place else {
        return Err(Failure::Unable(t!(lang, "tg-review-inline", id = game)));
    };
    let here = chat_ref(place);
    let asker = super::user_ref(&q.from);
    let asked = (&here, &asker);
    let review_place = ReviewPlace {
        chat: *chat,
        reply_to: Some(*message),
        lang,
    };
    let ready = match mark {
        None => reviews::request(ctx, asked, Some(game.to_string()), review_place).await?,
        Some(mark) => {
            reviews::request_board(ctx, asked, game.to_string(), mark, review_place).await?
        }
    };
    let coming = if ready {
        String::new()
    } else {
        t!(lang, "tg-reviewing")
    };
    answer(ctx, q, coming, false).await;
    Ok(())
}

/// A press on an old board: if the message itself shows an older ply than the game (an edit
/// was lost), show the game as it is; a message already showing it is left alone (an edit
/// would change nothing and cost a request).
async fn show_if_behind(ctx: &Arc<Ctx>, show: Request, shown_ply: Option<u16>) {
    if let Ok(Reply::Game(view)) = ctx.manager.act(show).await {
        if shown_ply != Some(view.ply) {
            boards::refresh(ctx, &view).await;
            tokio::spawn(look_again(ctx.clone(), view));
        }
    }
}

/// How long after a redraw for a stale press the game is read once more.
const LOOK_AGAIN: std::time::Duration = std::time::Duration::from_secs(1);

/// With a shared store, another process may move the game on after we read it and draw
/// the newer board before our redraw lands, which would then show the older one: a moment
/// later, redraw once more if the game has moved on since (edits of one message go out in
/// order, so this one lands last).
async fn look_again(ctx: Arc<Ctx>, drawn: GameView) {
    tokio::time::sleep(LOOK_AGAIN).await;
    if let Ok(now) = ctx.manager.game(&drawn.id).await {
        if now.version > drawn.version {
            boards::refresh(&ctx, &now).await;
        }
    }
}
