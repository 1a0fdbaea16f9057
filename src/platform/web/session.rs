//! Who is signed in on a request (issue 50, docs/security.md): the session token comes as
//! `Authorization: Bearer <token>` (the Telegram Mini App and the Discord Activity, framed
//! where third-party cookies are refused) or in the `toguz_session` cookie (the sign-in
//! link), and only `Manager::web_session` says whose it is. A state-changing request also
//! needs the session's CSRF token in `X-Toguz-Csrf` and an `Origin` that is the site's own
//! or an allowed embedding site's (`[web] embed_origins`): a page of another site can make
//! a browser send the cookie, but can neither read the token nor name our origin.

use crate::manager::web_sessions::WebSession;
use crate::manager::{ActionError, Manager};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// The session cookie's name.
pub const COOKIE: &str = "toguz_session";
/// The header carrying the session's CSRF token.
pub const CSRF_HEADER: &str = "x-toguz-csrf";

/// Why a request has no session.
#[derive(Debug)]
pub enum NoSession {
    /// It carries none, or one that is unknown, expired or ended.
    Refused,
    /// The store did not answer (logged by the caller).
    Store(ActionError),
}

/// The token a request carries: the bearer token, else the cookie.
pub fn token_of(headers: &HeaderMap) -> Option<&str> {
    bearer(headers).or_else(|| cookie(headers))
}

/// `Authorization: Bearer <token>`.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// The `toguz_session` cookie, from any `Cookie` header.
pub fn cookie(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| {
            let (name, value) = pair.trim().split_once('=')?;
            (name == COOKIE && !value.is_empty()).then_some(value)
        })
}

/// The session of a request.
pub async fn session_of(manager: &Manager, headers: &HeaderMap) -> Result<WebSession, NoSession> {
    let Some(token) = token_of(headers) else {
        return Err(NoSession::Refused);
    };
    // A token is short; anything long is not one (and is not worth a store read).
    if token.len() > 256 {
        return Err(NoSession::Refused);
    }
    match manager.web_session(token).await {
        Ok(session) => Ok(session),
        Err(error) if error.is_storage() => Err(NoSession::Store(error)),
        Err(_) => Err(NoSession::Refused),
    }
}

/// Whether a state-changing request may act for `session`: its `X-Toguz-Csrf` is the
/// session's, and its `Origin` one of `origins` (a request without one is refused:
/// browsers send it with every POST).
pub fn may_change(session: &WebSession, headers: &HeaderMap, origins: &[String]) -> bool {
    let csrf = headers.get(CSRF_HEADER).map(HeaderValue::as_bytes);
    let csrf_ok = csrf.is_some_and(|c| constant_time_eq(c, session.csrf.as_bytes()));
    csrf_ok && from_origins(headers, origins)
}

/// Whether a form posted by a page reaches us from this site: the browser says so in
/// `Sec-Fetch-Site` (which no page can set), else its `Origin` is one of `origins`. A form's
/// navigation from a page whose referrer policy is `no-referrer` (ours) sends `Origin:
/// null`, so `Origin` alone would refuse our own sign-in page.
pub fn form_from_site(headers: &HeaderMap, origins: &[String]) -> bool {
    let fetch_site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
    fetch_site == Some("same-origin") || from_origins(headers, origins)
}

/// Whether a request's `Origin` is one of `origins` (none: refused; browsers send it with
/// every POST).
pub fn from_origins(headers: &HeaderMap, origins: &[String]) -> bool {
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok());
    origin.is_some_and(|o| origins.iter().any(|allowed| allowed == o))
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The `Set-Cookie` value that keeps `token` for `max_age` seconds: out of scripts' reach,
/// sent on this site's own requests and top-level visits only, over https alone when the
/// site is https.
pub fn set_cookie(token: &str, max_age: u64, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{COOKIE}={token}; Max-Age={max_age}; Path=/; HttpOnly; SameSite=Lax{secure}")
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn cleared_cookie(secure: bool) -> String {
    set_cookie("", 0, secure)
}

/// A JSON answer.
pub fn json(status: StatusCode, body: String) -> Response {
    let headers = [
        (header::CONTENT_TYPE, "application/json"),
        (header::CACHE_CONTROL, "no-store"),
    ];
    (status, headers, body).into_response()
}

/// `{"error": text}` with `status`.
pub fn json_error(status: StatusCode, text: &str) -> Response {
    json(status, serde_json::json!({ "error": text }).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn a_form_comes_from_the_site_by_its_fetch_site_or_origin() {
        let origins = ["https://toguz.example.org".to_string()];
        let ok = |pairs: &[(&'static str, &str)]| form_from_site(&headers(pairs), &origins);
        assert!(ok(&[("sec-fetch-site", "same-origin"), ("origin", "null")]));
        assert!(ok(&[("origin", "https://toguz.example.org")]));
        assert!(!ok(&[("sec-fetch-site", "cross-site"), ("origin", "null")]));
        assert!(!ok(&[
            ("sec-fetch-site", "same-site"),
            ("origin", "https://a.example.org")
        ]));
        assert!(!ok(&[("origin", "https://evil.example")]));
        assert!(!ok(&[("origin", "null")]));
        assert!(!ok(&[]));
    }

    #[test]
    fn the_token_comes_from_the_bearer_header_else_the_cookie() {
        let both = headers(&[
            ("authorization", "Bearer abc"),
            ("cookie", "toguz_session=xyz"),
        ]);
        assert_eq!(token_of(&both), Some("abc"));
        let cookies = headers(&[("cookie", "a=1; toguz_session=xyz; b=2")]);
        assert_eq!(token_of(&cookies), Some("xyz"));
        let split = headers(&[("cookie", "a=1"), ("cookie", "toguz_session=q")]);
        assert_eq!(token_of(&split), Some("q"));
        for nothing in [
            headers(&[]),
            headers(&[("authorization", "Basic abc")]),
            headers(&[("authorization", "Bearer ")]),
            headers(&[("cookie", "toguz_session=")]),
            headers(&[("cookie", "xtoguz_session=abc")]),
        ] {
            assert_eq!(token_of(&nothing), None, "{nothing:?}");
        }
    }

    #[test]
    fn the_cookie_is_http_only_lax_and_secure_over_https() {
        let c = set_cookie("t0k", 600, true);
        assert_eq!(
            c,
            "toguz_session=t0k; Max-Age=600; Path=/; HttpOnly; SameSite=Lax; Secure"
        );
        assert!(!set_cookie("t0k", 600, false).contains("Secure"));
        assert!(cleared_cookie(false).contains("Max-Age=0"));
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
    }
}
