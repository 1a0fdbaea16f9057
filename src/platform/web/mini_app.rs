//! The Telegram Mini App (issue 50, docs/web.md "Telegram Mini App"): `/tg`, the page
//! @BotFather's `/newapp` URL points to, and `POST /api/signin/telegram`, which checks the
//! launch data Telegram signed (`signin::telegram`) and opens a web session for its user.
//! The page's script (`assets/telegram.js`) signs in with the data in the URL's fragment,
//! then opens the game named by the direct link's `startapp` (or the player's page); the
//! game page loads the same script, for a game opened from a private chat's Web App button.

use super::page::{self, escape};
use super::signin::telegram::{self as launch, InitDataError};
use super::{html, lang_of, App};
use crate::i18n::Lang;
use crate::manager::{ActionError, SignIn};
use crate::platform::present::web::page_lang;
use crate::t;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{post, MethodRouter};
use std::collections::HashMap;

/// A sign-in request's body, at most (the launch data is itself at most `launch::MAX_LEN`).
const MAX_BODY: usize = 2 * launch::MAX_LEN;

/// `GET /tg`: the Mini App's entry page. Its words say what is happening (signing in) and,
/// for a reader who opened it outside Telegram, where to open it; the script does the rest.
pub(super) async fn entry(
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&query, &headers);
    let body = format!(
        "<section id=\"tg-app\">\
<p id=\"tg-status\">{signing_in}</p>\
<p id=\"tg-outside\" hidden>{outside}</p>\
<p id=\"tg-error\" class=\"tg-error\" role=\"alert\" hidden></p></section>{script}",
        signing_in = escape(&t!(lang, "web-tg-signing-in")),
        outside = escape(&t!(lang, "web-tg-outside")),
        script = page::telegram_script_tag(lang),
    );
    let robots = page::robots(false);
    let mut response = html(
        StatusCode::OK,
        page::document(lang, &t!(lang, "web-tg-title"), robots, "/tg", &body),
    );
    response.headers_mut().insert(
        header::HeaderName::from_static("x-robots-tag"),
        header::HeaderValue::from_static("noindex, nofollow"),
    );
    response
}

/// `POST /api/signin/telegram`, its body kept small.
pub(super) fn sign_in_route() -> MethodRouter<App> {
    post(sign_in).layer(DefaultBodyLimit::max(MAX_BODY))
}

#[derive(serde::Deserialize)]
struct SignInBody {
    init_data: String,
}

/// The session a sign-in opened, as the page keeps it (`sessionStorage["toguz-session"]`).
#[derive(serde::Serialize)]
struct Opened<'a> {
    token: &'a str,
    csrf: &'a str,
    name: &'a str,
    /// The game page's key from the direct link's `startapp`, if it can be one.
    start: Option<&'a str>,
}

/// `POST /api/signin/telegram` `{"init_data": "..."}`: 200 with the session when Telegram
/// signed the launch data with this bot's token lately; else a 4xx with a localized
/// `{"error"}`, nothing opened. Sign-ins count as commands of that person (the budget they
/// share with the chats, across processes).
async fn sign_in(State(app): State<App>, headers: HeaderMap, body: Bytes) -> Response {
    let accept = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok());
    let Ok(body) = serde_json::from_slice::<SignInBody>(&body) else {
        return refusal(
            StatusCode::BAD_REQUEST,
            page_lang(None, accept),
            "web-tg-bad-request",
        );
    };
    // The refusal's language: the one the data's user claims (unchecked: it only picks
    // words), else the browser's.
    let lang = launch::claimed_language(&body.init_data)
        .and_then(|code| Lang::from_code(&code))
        .unwrap_or_else(|| page_lang(None, accept));
    let Some(keys) = &app.sign_in.telegram else {
        return refusal(StatusCode::NOT_FOUND, lang, "web-tg-off");
    };
    let now = app.manager.clock().now();
    let data = match launch::check(&body.init_data, &keys.token, keys.max_age_secs, now) {
        Ok(data) => data,
        Err(error) => {
            tracing::info!(%error, "web: a Telegram sign-in was refused");
            let words = match error {
                InitDataError::Stale | InitDataError::Future => "web-tg-stale",
                _ => "web-tg-refused",
            };
            return refusal(StatusCode::UNAUTHORIZED, lang, words);
        }
    };
    let user = data.user.user_ref();
    let per_minute = keys
        .commands_per_minute
        .unwrap_or(app.manager.config().limits.commands_per_minute);
    if !app.manager.command_allowed(&user, per_minute).await {
        return refusal(StatusCode::TOO_MANY_REQUESTS, lang, "web-tg-too-many");
    }
    match app
        .manager
        .open_web_session(&user, SignIn::TelegramMiniApp)
        .await
    {
        Ok(session) => {
            let start = data
                .start_param
                .as_deref()
                .filter(|s| launch::is_start_param(s));
            let opened = Opened {
                token: session.token.expose(),
                csrf: &session.csrf,
                name: &session.user.name,
                start,
            };
            json(StatusCode::OK, &opened)
        }
        Err(ActionError::SignInRefused) => {
            refusal(StatusCode::UNAUTHORIZED, lang, "web-tg-refused")
        }
        Err(error) => {
            tracing::warn!(%error, "web: a Telegram sign-in's session could not be opened");
            refusal(StatusCode::SERVICE_UNAVAILABLE, lang, "web-tg-unavailable")
        }
    }
}

/// `{"error": "<words>"}` with `status`.
fn refusal(status: StatusCode, lang: Lang, words: &str) -> Response {
    let error = crate::i18n::tr(lang, words);
    json(status, &serde_json::json!({ "error": error }))
}

fn json<T: serde::Serialize>(status: StatusCode, value: &T) -> Response {
    let body = serde_json::to_string(value).unwrap_or_else(|_| "{}".into());
    let headers = [
        (header::CONTENT_TYPE, "application/json"),
        // A session is in it: no cache keeps it.
        (header::CACHE_CONTROL, "no-store"),
    ];
    (status, headers, body).into_response()
}
