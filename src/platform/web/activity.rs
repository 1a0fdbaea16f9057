//! The Discord Activity (issue 50, docs/web.md "Discord Activity"): `GET /activity` is the
//! page Discord opens in its iframe (the URL mapping `/` -> this site), whose script
//! (`assets/activity.js`, the Embedded App SDK) signs in with `POST /api/signin/discord`.
//!
//! The sign-in trades the SDK's code with Discord (`signin::discord`) and opens a session
//! for the user Discord names (`Manager::open_web_session`); the page keeps it in
//! `sessionStorage`, as cookies are refused in iframes. Nothing else is believed: a code
//! Discord refuses gets a localized 401 and no session.

use super::assets::{ACTIVITY_SCRIPT, ICON, STYLE};
use super::page::escape;
use super::signin::discord::DiscordSignInError;
use super::{lang_of, App};
use crate::i18n::Lang;
use crate::manager::SignIn;
use crate::platform::present;
use crate::t;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;

/// The longest sign-in body taken (`{"code": "..."}`).
const MAX_BODY: usize = 4096;

/// `GET /activity`: the page that signs in through the SDK, in the reader's language.
pub(super) async fn page(
    State(app): State<App>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&query, &headers);
    let (status, body) = match &app.discord {
        Some(exchange) => (StatusCode::OK, activity_page(lang, exchange.client_id())),
        None => (
            StatusCode::SERVICE_UNAVAILABLE,
            plain_page(lang, &t!(lang, "web-activity-not-configured")),
        ),
    };
    // Framed by Discord: `security_headers` gives /activity the framed pages' policy.
    super::html(status, body)
}

fn head(lang: Lang, title: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"{code}\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<meta name=\"referrer\" content=\"no-referrer\"><meta name=\"robots\" content=\"noindex, nofollow\">\
<title>{title}</title><link rel=\"icon\" href=\"{icon}\" type=\"image/svg+xml\">\
<link rel=\"stylesheet\" href=\"{css}\"></head>",
        code = lang.code(),
        title = escape(title),
        icon = ICON.href(),
        css = STYLE.href(),
    )
}

/// The page the SDK runs in: the words its script shows, in `data-` attributes (no inline
/// script: the policy allows none).
fn activity_page(lang: Lang, client_id: u64) -> String {
    let title = t!(lang, "web-activity-title");
    let words = [
        ("signing-in", t!(lang, "web-activity-signing-in")),
        ("refused", t!(lang, "web-activity-refused")),
        ("unavailable", t!(lang, "web-activity-unavailable")),
        ("outside", t!(lang, "web-activity-outside")),
        ("choose", t!(lang, "web-activity-choose")),
        ("none", t!(lang, "web-activity-no-games")),
        ("your-turn", t!(lang, "web-activity-your-turn")),
    ];
    let mut data = format!("data-client-id=\"{client_id}\"");
    for (name, text) in &words {
        data.push_str(&format!(" data-{name}=\"{}\"", escape(text)));
    }
    format!(
        "{head}<body><main class=\"activity\"><header><h1>{title}</h1></header>\
<div id=\"activity\" {data}><p id=\"activity-status\" role=\"status\">{waiting}</p>\
<ul id=\"activity-games\"></ul></div></main>\
<script src=\"{script}\" defer></script></body></html>\n",
        head = head(lang, &title),
        title = escape(&title),
        waiting = escape(&t!(lang, "web-activity-signing-in")),
        script = ACTIVITY_SCRIPT.href(),
    )
}

fn plain_page(lang: Lang, text: &str) -> String {
    let title = t!(lang, "web-activity-title");
    format!(
        "{head}<body><main class=\"activity\"><header><h1>{title}</h1></header>\
<p class=\"error\" role=\"alert\">{text}</p></main></body></html>\n",
        head = head(lang, &title),
        title = escape(&title),
        text = escape(text),
    )
}

#[derive(serde::Deserialize)]
struct CodeBody {
    code: String,
}

/// `POST /api/signin/discord` `{"code"}` -> `{"token", "csrf", "name", "access_token"}`;
/// a code Discord refuses: 401 `{"error"}` in the reader's language, and no session.
pub(super) async fn sign_in(
    State(app): State<App>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let lang = lang_of(&query, &headers);
    let Some(exchange) = app.discord.as_ref() else {
        return json_error(
            StatusCode::SERVICE_UNAVAILABLE,
            t!(lang, "web-activity-not-configured"),
        );
    };
    // The site's own pages, and the Activity's proxy origin (`https://<application
    // id>.discordsays.com`, in `App::origins` when the Activity is set up); nothing else.
    if !super::session::from_origins(&headers, &app.origins) {
        tracing::info!("web: a Discord sign-in from another site was refused");
        return json_error(StatusCode::FORBIDDEN, t!(lang, "web-activity-refused"));
    }
    let code = match serde_json::from_slice::<CodeBody>(&body) {
        Ok(parsed) if body.len() <= MAX_BODY => parsed.code,
        _ => return json_error(StatusCode::BAD_REQUEST, t!(lang, "web-activity-refused")),
    };
    let signed = match exchange.sign_in(&code).await {
        Ok(signed) => signed,
        Err(error) => return refused(error, lang),
    };
    // A sign-in is one of the person's commands, as in chat and on the Mini App.
    let per_minute = app.manager.config().limits.commands_per_minute;
    if !app.manager.command_allowed(&signed.user, per_minute).await {
        return json_error(StatusCode::TOO_MANY_REQUESTS, t!(lang, "web-play-limited"));
    }
    let session = match app
        .manager
        .open_web_session(&signed.user, SignIn::DiscordActivity)
        .await
    {
        Ok(session) => session,
        Err(error) => {
            tracing::warn!(%error, "web: a Discord Activity session could not be opened");
            return json_error(
                StatusCode::SERVICE_UNAVAILABLE,
                t!(lang, "web-activity-unavailable"),
            );
        }
    };
    tracing::info!(
        user = signed.user.id,
        "web: signed in from the Discord Activity"
    );
    let answer = serde_json::json!({
        "token": session.token.expose(),
        "csrf": session.csrf,
        "name": present::user_name(&signed.user),
        "access_token": signed.access_token.expose(),
    });
    json(StatusCode::OK, answer.to_string())
}

/// What the page is told when the sign-in fails; logged without the code or any token.
fn refused(error: DiscordSignInError, lang: Lang) -> Response {
    if error.is_refusal() {
        tracing::info!(%error, "web: a Discord Activity sign-in was refused");
        json_error(StatusCode::UNAUTHORIZED, t!(lang, "web-activity-refused"))
    } else {
        tracing::warn!(%error, "web: Discord could not sign an Activity player in");
        json_error(
            StatusCode::SERVICE_UNAVAILABLE,
            t!(lang, "web-activity-unavailable"),
        )
    }
}

fn json(status: StatusCode, body: String) -> Response {
    let headers = [
        (header::CONTENT_TYPE, "application/json"),
        // It holds a session and an access token: never kept by a cache.
        (header::CACHE_CONTROL, "no-store"),
    ];
    (status, headers, body).into_response()
}

fn json_error(status: StatusCode, text: String) -> Response {
    json(status, serde_json::json!({ "error": text }).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_carries_its_words_escaped_and_no_inline_script() {
        let page = activity_page(Lang::Ru, 1234);
        assert!(page.contains("data-client-id=\"1234\""));
        assert!(page.contains(&escape(&t!(Lang::Ru, "web-activity-refused"))));
        assert!(page.contains(&ACTIVITY_SCRIPT.href()));
        assert_eq!(page.matches("<script").count(), 1, "only the bundle");
        assert!(!page.contains("<script>"));
    }
}
