//! Playing on a game's page (issue 50): `GET /g/<key>/seat` tells a signed-in caller what
//! they may do in the game (`present::web_play::seat`), and `POST /g/<key>/act` does it the
//! way a press in chat does: the same `Request` (the session's user as actor, the game's
//! own chat), through `Manager::act`, after the same per-user command limit
//! (`Manager::command_allowed`, one budget with the chat's). Nothing is answered before the
//! change is durable; a refusal is a localized `{"error"}` and changes nothing. The chat's
//! boards and every open page follow through the manager's event, as after a press.
//!
//! Premoves (issue 51, docs/premoves.md): the seat carries the caller's own lines, draft and
//! the position the draft leads to (`present::premoves::preview`); `premoves` replaces the
//! lines as typed, and the board's mode enters them pit by pit (`premove_pit`,
//! `premove_add`, `premove_undo`, `premove_clear`, each with the `edits` count the page was
//! shown at) through `Manager::edit_premoves`, which checks every pit.

use super::live::LiveState;
use super::session::{self, json, json_error, NoSession};
use super::{lang_of, App};
use crate::i18n::Lang;
use crate::manager::limits::Verdict;
use crate::manager::links::GamePage;
use crate::manager::web_sessions::WebSession;
use crate::manager::{Action, ActionError, PremoveEdit, Reply, Request};
use crate::platform::present::{self, web_play, web_play::PageAction, web_play::Seat};
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use std::collections::HashMap;

/// The largest action body read (`{"action":"move","ply":123,"pit":4}` is 40 bytes; 30
/// premove lines of 30 pits are under 2,100).
pub const MAX_BODY: usize = 4096;

/// What a page asks for.
#[derive(serde::Deserialize)]
struct Ask {
    action: String,
    ply: Option<u16>,
    pit: Option<u8>,
    /// Premove lines as typed, one per row (`"3 7 5 2"`).
    lines: Option<Vec<String>>,
    /// The premove mode's count of changes the page was shown at (`SeatPremoves::edits`).
    edits: Option<u32>,
}

/// The request's session, or the answer refusing it.
pub(super) async fn signed_in(
    app: &App,
    headers: &HeaderMap,
    lang: Lang,
) -> Result<WebSession, Response> {
    match session::session_of(&app.manager, headers).await {
        Ok(session) => Ok(session),
        Err(NoSession::Refused) => Err(json_error(
            StatusCode::UNAUTHORIZED,
            &web_play::no_session_text(lang),
        )),
        Err(NoSession::Store(error)) => {
            tracing::warn!(%error, "web: a session could not be read");
            Err(refused(&error, lang))
        }
    }
}

/// `GET /g/<key>/seat`.
pub(super) async fn seat(
    State(app): State<App>,
    Path(key): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&query, &headers);
    let session = match signed_in(&app, &headers, lang).await {
        Ok(session) => session,
        Err(refusal) => return refusal,
    };
    match app.manager.game_page(&key).await {
        Ok(page) => answer(
            &seat_for(&app, &page.view, &session, None, lang).await,
            None,
            None,
        ),
        Err(error) => refused(&error, lang),
    }
}

/// `POST /g/<key>/act`.
pub(super) async fn act(
    State(app): State<App>,
    Path(key): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let lang = lang_of(&query, &headers);
    let session = match signed_in(&app, &headers, lang).await {
        Ok(session) => session,
        Err(refusal) => return refusal,
    };
    if !session::may_change(&session, &headers, &app.origins) {
        tracing::info!(
            user = session.user.key(),
            "web: an action without the session's token or from another site"
        );
        return json_error(StatusCode::FORBIDDEN, &web_play::forged_text(lang));
    }
    let Some((action, ask)) = read_ask(&body) else {
        return json_error(StatusCode::BAD_REQUEST, &web_play::bad_request_text(lang));
    };
    let page = match app.manager.game_page(&key).await {
        Ok(page) => page,
        Err(error) => return refused(&error, lang),
    };
    let seat = web_play::seat(&page.view, &session.user, None);
    if seat.side.is_none() {
        return refused(&ActionError::NotYourGame, lang);
    }
    if !web_play::page_offers(&seat, action) {
        let text = web_play::not_offered_text(action, lang);
        return json_error(StatusCode::CONFLICT, &text);
    }
    if !within_limit(&app, &session).await {
        return json_error(StatusCode::TOO_MANY_REQUESTS, &web_play::limited_text(lang));
    }
    match perform(&app, &session, &page, action, &ask, lang).await {
        Ok(done) => done,
        Err(error) => refused(&error, lang),
    }
}

/// The action a body names, with its fields; `None` for a body that is no action.
fn read_ask(body: &[u8]) -> Option<(PageAction, Ask)> {
    if body.len() > MAX_BODY {
        return None;
    }
    let ask: Ask = serde_json::from_slice(body).ok()?;
    let action = PageAction::named(&ask.action)?;
    let complete = match action {
        PageAction::Move => ask.ply.is_some() && ask.pit.is_some_and(|p| (1..=9).contains(&p)),
        PageAction::Premoves => ask
            .lines
            .as_deref()
            .and_then(web_play::read_premoves)
            .is_some(),
        PageAction::PremovePit => {
            ask.edits.is_some() && ask.pit.is_some_and(|p| (1..=9).contains(&p))
        }
        PageAction::PremoveAdd | PageAction::PremoveUndo | PageAction::PremoveClear => {
            ask.edits.is_some()
        }
        _ => true,
    };
    complete.then_some((action, ask))
}

/// Counts the action against the user's command budget: this process's limiter first (a
/// flood costs the store nothing), then every process's count together, shared with the
/// user's commands and presses in chat.
async fn within_limit(app: &App, session: &WebSession) -> bool {
    let user = &session.user;
    if app.limits.users() >= 4096 {
        app.limits.prune();
    }
    if app.limits.check(&user.key()) != Verdict::Go {
        return false;
    }
    let per_minute = app.manager.config().limits.commands_per_minute;
    app.manager.command_allowed(user, per_minute).await
}

/// Does `action` in `page`'s game for the session's user; the answer to send.
async fn perform(
    app: &App,
    session: &WebSession,
    page: &GamePage,
    action: PageAction,
    ask: &Ask,
    lang: Lang,
) -> Result<Response, ActionError> {
    let game = page.view.id.clone();
    let actor = session.user.clone();
    let chat = page.view.chat.clone();
    let action = match action {
        PageAction::Hint => {
            let hint = app.manager.hint(&actor, &chat, Some(game), ask.ply).await?;
            let message = web_play::hint_message(&hint, lang);
            let answered = after(app, &page.key, session, Some(message.clone()), lang).await;
            let seat = || web_play::seat(&hint.game, &session.user, Some(message));
            return Ok(answered.unwrap_or_else(|| answer(&seat(), None, None)));
        }
        PageAction::Move => Action::Move {
            game,
            ply: ask.ply,
            pit: ask.pit.unwrap_or_default(),
        },
        PageAction::Resign => Action::Resign {
            game: Some(game),
            ply: ask.ply,
        },
        PageAction::OfferDraw => Action::OfferDraw {
            game: Some(game),
            ply: ask.ply,
        },
        PageAction::AcceptDraw => Action::AcceptDraw { game },
        PageAction::DeclineDraw => Action::DeclineDraw { game },
        PageAction::Rematch => Action::Rematch { game },
        PageAction::Premoves => {
            let rows = ask.lines.as_deref().unwrap_or_default();
            let lines = web_play::read_premoves(rows).unwrap_or_default();
            let set = PremoveEdit::Set(lines);
            app.manager.edit_premoves(&actor, &game, None, set).await?;
            let answered = after(app, &page.key, session, None, lang).await;
            return Ok(answered.unwrap_or_else(|| json(StatusCode::OK, "{}".into())));
        }
        PageAction::PremovePit => {
            let pit = PremoveEdit::Pit(ask.pit.unwrap_or_default());
            return edit_premoves(app, session, page, ask.edits, pit, lang).await;
        }
        PageAction::PremoveAdd => {
            let add = PremoveEdit::AddLine;
            return edit_premoves(app, session, page, ask.edits, add, lang).await;
        }
        PageAction::PremoveUndo => {
            let undo = PremoveEdit::Undo;
            return edit_premoves(app, session, page, ask.edits, undo, lang).await;
        }
        PageAction::PremoveClear => {
            let clear = PremoveEdit::ClearAll;
            return edit_premoves(app, session, page, ask.edits, clear, lang).await;
        }
    };
    let request = Request {
        actor,
        chat,
        action,
    };
    let reply = app.manager.act(request).await?;
    match reply {
        // A rematch against the bot: its new game, on its own page.
        Reply::Game(view) if view.id != page.view.id => {
            let key = app.manager.page_key(&view.id).await?;
            let seat = seat_for(app, &view, session, None, lang).await;
            Ok(answer(&seat, None, Some(&format!("/g/{key}"))))
        }
        Reply::Game(view) => {
            if let Some(answered) = after(app, &page.key, session, None, lang).await {
                return Ok(answered);
            }
            // The game could not be read again: the view the manager answered with.
            Ok(answer(
                &seat_for(app, &view, session, None, lang).await,
                None,
                None,
            ))
        }
        Reply::Challenge(_) | Reply::Games(_) => Ok(after(app, &page.key, session, None, lang)
            .await
            .unwrap_or_else(|| json(StatusCode::OK, "{}".into()))),
    }
}

/// A step of the board's premove mode, for a page shown at `edits` (a page shown before
/// another change is refused as stale); the answer carries the draft's new preview.
async fn edit_premoves(
    app: &App,
    session: &WebSession,
    page: &GamePage,
    edits: Option<u32>,
    edit: PremoveEdit,
    lang: Lang,
) -> Result<Response, ActionError> {
    let user = &session.user;
    let mine = app
        .manager
        .edit_premoves(user, &page.view.id, edits, edit)
        .await?;
    if let Some(answered) = after(app, &page.key, session, None, lang).await {
        return Ok(answered);
    }
    // The game could not be read again: the premoves the manager answered with.
    let seat = web_play::seat(&mine.game, user, None);
    Ok(answer(
        &web_play::with_premoves(seat, &mine, lang),
        None,
        None,
    ))
}

/// The answer after a change: the caller's seat and the game's state as a live page
/// receives it (the board updates from it at once), read as the game stands now.
async fn after(
    app: &App,
    key: &str,
    session: &WebSession,
    message: Option<String>,
    lang: Lang,
) -> Option<Response> {
    let page = match app.manager.game_page(key).await {
        Ok(page) => page,
        Err(error) => {
            tracing::warn!(%error, "web: a game just changed could not be read again");
            return None;
        }
    };
    let seat = seat_for(app, &page.view, session, message, lang).await;
    let state = LiveState::new(page).json(lang);
    Some(answer(&seat, Some(&state), None))
}

/// The session's seat in `view`, with their own premoves when the game has them (read for
/// them alone; a failed read leaves the panel out rather than the seat).
async fn seat_for(
    app: &App,
    view: &crate::manager::GameView,
    session: &WebSession,
    message: Option<String>,
    lang: Lang,
) -> Seat {
    let seat = web_play::seat(view, &session.user, message);
    if !seat.actions.premoves {
        return seat;
    }
    match app.manager.premoves(&session.user, &view.id).await {
        Ok(mine) => web_play::with_premoves(seat, &mine, lang),
        Err(error) => {
            tracing::warn!(%error, "web: premoves could not be read");
            seat
        }
    }
}

/// The seat as JSON, with the game's `state` (JSON already) and the address to go to
/// (`goto`: a rematch's new game).
fn answer(seat: &Seat, state: Option<&str>, goto: Option<&str>) -> Response {
    let mut body = serde_json::to_string(seat).unwrap_or_else(|_| "{}".into());
    if let Some(state) = state {
        body.pop();
        body.push_str(",\"state\":");
        body.push_str(state);
        body.push('}');
    }
    if let Some(goto) = goto {
        body.pop();
        body.push_str(",\"goto\":");
        body.push_str(&serde_json::Value::from(goto).to_string());
        body.push('}');
    }
    json(StatusCode::OK, body)
}

/// A refusal as `{"error"}` in `lang`, with the status that says what kind it is.
pub(super) fn refused(error: &ActionError, lang: Lang) -> Response {
    let status = match error {
        ActionError::NoSuchGame => StatusCode::NOT_FOUND,
        ActionError::NotYourGame => StatusCode::FORBIDDEN,
        e if e.is_storage() => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::CONFLICT,
    };
    if status == StatusCode::SERVICE_UNAVAILABLE {
        tracing::warn!(%error, "web: an action could not be done");
    }
    json_error(status, &present::error_text(error, lang))
}
