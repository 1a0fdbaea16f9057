//! A signed-in player's own pages (issue 50): the sign-in link (`GET /login/<token>`), their
//! games (`GET /me`, `GET /api/me/games`) and signing out (`POST /logout`). The session is
//! made, checked and ended by the manager (`Manager::redeem_web_login`, `web_session`,
//! `end_web_sessions`); this file only carries it in a cookie or reads it from a request.

use super::page::{document, escape};
use super::play::{refused, signed_in};
use super::session::{self, json, json_error, NoSession};
use super::{html, lang_of, App};
use crate::i18n::Lang;
use crate::manager::{ActionError, GameView};
use crate::model::UserRef;
use crate::platform::present::web_play::{self, MeWords, MyGame};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::fmt::Write;

/// `GET /login/<token>`: the one-time link from `/web login` asks before it signs in. Link
/// previewers and mail scanners open links they see, so opening one uses nothing up: the
/// page's one button posts it back (`login`).
pub(super) async fn login_page(
    Path(token): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&query, &headers);
    let w = web_play::signin_confirm_words(lang);
    let action = format!("/login/{}", percent_path(&token));
    let body = format!(
        "<p>{text}</p><form method=\"post\" action=\"{action}\">\
<button type=\"submit\" id=\"sign-in\">{button}</button></form>",
        text = escape(&w.text),
        action = escape(&action),
        button = escape(&w.button),
    );
    let head = super::page::robots(false);
    no_store(html(
        StatusCode::OK,
        document(lang, &w.title, head, &action, &body),
    ))
}

/// `POST /login/<token>` (the sign-in page's button): redeemed, it sets the session cookie
/// and sends the browser to `/me` (so the token leaves the address bar); an unknown, used
/// or expired link gets a 403 page in the reader's language. Only the site's own page may
/// post it (`session::form_from_site`): another site's form would sign the visitor in as
/// someone else.
pub(super) async fn login(
    State(app): State<App>,
    Path(token): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&query, &headers);
    if !session::form_from_site(&headers, &app.origins) {
        tracing::info!("web: a sign-in from another site was refused");
        return signin_refused(lang, StatusCode::FORBIDDEN);
    }
    let session = match app.manager.redeem_web_login(&token).await {
        Ok(session) => session,
        Err(error) if error.is_storage() => {
            tracing::warn!(%error, "web: a sign-in link could not be checked");
            return super::unavailable(lang, "/login");
        }
        Err(_) => {
            tracing::info!("web: a sign-in link was refused");
            return signin_refused(lang, StatusCode::FORBIDDEN);
        }
    };
    let max_age = session.expires_at.saturating_sub(app.manager.clock().now());
    let cookie = session::set_cookie(session.token.expose(), max_age, app.secure_cookie);
    let mut response = (StatusCode::SEE_OTHER, [(header::LOCATION, "/me")]).into_response();
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(header::SET_COOKIE, value);
    }
    no_store(response)
}

/// A token as a path segment: the manager's tokens are hex and a dot; anything else a
/// visitor typed is escaped rather than trusted.
fn percent_path(token: &str) -> String {
    token
        .bytes()
        .map(|b| match b {
            b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'.' | b'-' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn no_store(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn signin_refused(lang: Lang, status: StatusCode) -> Response {
    let (title, text) = web_play::signin_refused_words(lang);
    let body = format!("<p>{}</p><p><a href=\"/\">/</a></p>", escape(&text));
    let head = super::page::robots(false);
    no_store(html(status, document(lang, &title, head, "/login", &body)))
}

/// The user's ongoing games with their page keys.
async fn games_of(app: &App, user: &UserRef) -> Result<Vec<(GameView, String)>, ActionError> {
    let views = app.manager.ongoing_games(user).await?;
    let mut out = Vec::with_capacity(views.len());
    for view in views {
        let key = app.manager.page_key(&view.id).await?;
        out.push((view, key));
    }
    Ok(out)
}

/// `GET /me`: the signed-in player's ongoing games, each linking to its playable page, and
/// a button to sign out. Without a cookie session (a framed page keeps its session in the
/// tab, and its script fills the list from `/api/me/games`), how to sign in.
pub(super) async fn me(
    State(app): State<App>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&query, &headers);
    let session = match session::session_of(&app.manager, &headers).await {
        Ok(session) => Some(session),
        Err(NoSession::Refused) => None,
        Err(NoSession::Store(error)) => {
            tracing::warn!(%error, "web: a session could not be read");
            return super::unavailable(lang, "/me");
        }
    };
    let games = match &session {
        Some(s) => match games_of(&app, &s.user).await {
            Ok(games) => Some(web_play::my_games(&games, &s.user, None, lang)),
            Err(error) => {
                tracing::warn!(%error, "web: a player's games could not be read");
                return super::unavailable(lang, "/me");
            }
        },
        None => None,
    };
    let name = session.as_ref().map(|s| s.user.name.as_str());
    let words = web_play::me_words(name, lang);
    let csrf = session.as_ref().map(|s| s.csrf.as_str());
    let mut response = html(
        StatusCode::OK,
        me_page(&words, games.as_deref(), csrf, lang),
    );
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::HeaderName::from_static("x-robots-tag"),
        HeaderValue::from_static("noindex, nofollow"),
    );
    response
}

/// The HTML of `/me`: `games` `None` when nobody is signed in by cookie.
fn me_page(w: &MeWords, games: Option<&[MyGame]>, csrf: Option<&str>, lang: Lang) -> String {
    let mut head = super::page::robots(false).to_string();
    if let Some(csrf) = csrf {
        let _ = write!(
            head,
            "<meta name=\"toguz-csrf\" content=\"{}\">",
            escape(csrf)
        );
    }
    let mut body = String::new();
    let _ = write!(
        body,
        "<p id=\"me-about\" data-signed=\"{}\">{}</p><ul class=\"games\" id=\"me-games\" data-none=\"{}\" data-turn=\"{}\">",
        escape(&w.signed_in),
        escape(&w.about),
        escape(&w.none),
        escape(&w.your_turn),
    );
    for game in games.unwrap_or_default() {
        body.push_str(&game_item(game, &w.your_turn));
    }
    body.push_str("</ul>");
    if games.is_some_and(<[MyGame]>::is_empty) {
        let _ = write!(body, "<p class=\"meta\">{}</p>", escape(&w.none));
    }
    let hidden = if csrf.is_some() { "" } else { " hidden" };
    let _ = write!(
        body,
        "<p><button type=\"button\" id=\"logout\"{hidden}>{}</button></p>\
<script src=\"{}\" defer></script>",
        escape(&w.logout),
        super::assets::PLAY_SCRIPT.href(),
    );
    document(lang, &w.title, &head, "/me", &body)
}

fn game_item(game: &MyGame, your_turn: &str) -> String {
    let turn = if game.your_turn {
        format!(" <span class=\"meta\">{}</span>", escape(your_turn))
    } else {
        String::new()
    };
    format!(
        "<li><a href=\"/g/{}\">{}</a>{turn}</li>",
        escape(&game.key),
        escape(&game.title)
    )
}

/// `GET /api/me/games[?channel=<id>]`: `{"games": [{"key","title","your_turn"}]}`, the
/// games of that channel (a Discord Activity's) first.
pub(super) async fn api_games(
    State(app): State<App>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&query, &headers);
    let session = match signed_in(&app, &headers, lang).await {
        Ok(session) => session,
        Err(refusal) => return refusal,
    };
    let games = match games_of(&app, &session.user).await {
        Ok(games) => games,
        Err(error) => return refused(&error, lang),
    };
    let channel = query.get("channel").map(String::as_str);
    let rows = web_play::my_games(&games, &session.user, channel, lang);
    json(
        StatusCode::OK,
        serde_json::json!({ "games": rows }).to_string(),
    )
}

/// `POST /logout`: ends every session of the signed-in user (on every device, as `/web
/// logout` does) and removes the cookie. Needs the session's CSRF token and origin, as
/// every change does.
pub(super) async fn logout(
    State(app): State<App>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&query, &headers);
    let session = match signed_in(&app, &headers, lang).await {
        Ok(session) => session,
        Err(refusal) => return refusal,
    };
    if !session::may_change(&session, &headers, &app.origins) {
        return json_error(StatusCode::FORBIDDEN, &web_play::forged_text(lang));
    }
    if let Err(error) = app.manager.end_web_sessions(&session.user).await {
        return refused(&error, lang);
    }
    let mut response = json(StatusCode::OK, "{\"ok\":true}".into());
    if let Ok(value) = HeaderValue::from_str(&session::cleared_cookie(app.secure_cookie)) {
        response.headers_mut().insert(header::SET_COOKIE, value);
    }
    response
}
