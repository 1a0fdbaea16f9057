//! OAuth2 as Discord answers an Activity's sign-in: `POST /api/v10/oauth2/token` trades a
//! code (issued by the test for a user, as the client's `authorize` would) for an access
//! token, and `GET /api/v10/users/@me` with `Authorization: Bearer <token>` names its user.
//!
//! As strict as Discord: the body must be form-encoded (JSON is read as no grant type at
//! all), `grant_type=authorization_code`, the application's id and secret in the form, and a code Discord issued to that application, not yet used and not
//! expired. Refusals carry Discord's OAuth2 error bodies (`{"error",
//! "error_description"}`); an unknown or expired bearer token gets 401 `401: Unauthorized`.

use super::reply::Reply;
use super::{User, APP_ID};
use axum::http::{HeaderMap, StatusCode};
use serde_json::json;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The application's client secret the fake knows (the Developer Portal's OAuth2 page).
pub const CLIENT_SECRET: &str = "fake-discord-client-secret-0123456789";

/// How long a code stays good (Discord's are short-lived: about ten minutes).
const CODE_LIFE: Duration = Duration::from_secs(600);
/// How long an access token stays good (Discord says `expires_in: 604800`).
const TOKEN_LIFE: Duration = Duration::from_secs(604_800);

struct Code {
    user: User,
    issued: Instant,
    used: bool,
}

/// The codes issued and the tokens they were traded for.
#[derive(Default)]
pub(super) struct OAuth {
    codes: HashMap<String, Code>,
    tokens: HashMap<String, (User, Instant)>,
    next: u64,
}

impl OAuth {
    /// A new code for `user`, as the client's `authorize` gives an Activity.
    pub(super) fn issue_code(&mut self, user: &User) -> String {
        self.next += 1;
        let code = format!("code{:08}x{:016x}", self.next, rand::random::<u64>());
        let entry = Code {
            user: user.clone(),
            issued: Instant::now(),
            used: false,
        };
        self.codes.insert(code.clone(), entry);
        code
    }

    /// Makes `code` older than Discord keeps codes.
    pub(super) fn expire_code(&mut self, code: &str) {
        if let Some(c) = self.codes.get_mut(code) {
            c.issued = Instant::now() - CODE_LIFE - Duration::from_secs(1);
        }
    }

    /// `POST /oauth2/token`.
    pub(super) fn token(&mut self, headers: &HeaderMap, body: &[u8]) -> Reply {
        let form_encoded = headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
        // Discord reads only a form: a JSON body has no grant type for it.
        let form: HashMap<String, String> = if form_encoded {
            url::form_urlencoded::parse(body).into_owned().collect()
        } else {
            HashMap::new()
        };
        let grant = form.get("grant_type").map(String::as_str);
        match grant {
            Some("authorization_code") => {}
            Some(other) => {
                return oauth_error(
                    400,
                    "unsupported_grant_type",
                    &format!("Grant type {other} is not supported"),
                )
            }
            None => {
                return oauth_error(
                    400,
                    "unsupported_grant_type",
                    "Grant type None is not supported",
                )
            }
        }
        // The fake takes the client's credentials in the form only (Discord also takes
        // HTTP Basic; our client sends the form).
        let id = form.get("client_id").cloned().unwrap_or_default();
        let secret = form.get("client_secret").cloned().unwrap_or_default();
        if id != APP_ID.to_string() || secret != CLIENT_SECRET {
            return (
                StatusCode::UNAUTHORIZED,
                json!({ "error": "invalid_client" }),
            );
        }
        let Some(code) = form.get("code") else {
            return oauth_error(400, "invalid_request", "Missing \"code\" in request.");
        };
        let invalid = || oauth_error(400, "invalid_grant", "Invalid \"code\" in request.");
        let Some(entry) = self.codes.get_mut(code) else {
            return invalid();
        };
        if entry.used || entry.issued.elapsed() > CODE_LIFE {
            return invalid();
        }
        entry.used = true;
        let user = entry.user.clone();
        self.next += 1;
        let access = format!("tok{:08}x{:016x}", self.next, rand::random::<u64>());
        self.tokens.insert(access.clone(), (user, Instant::now()));
        (
            StatusCode::OK,
            json!({
                "access_token": access,
                "token_type": "Bearer",
                "expires_in": TOKEN_LIFE.as_secs(),
                "refresh_token": format!("refresh{:016x}", rand::random::<u64>()),
                "scope": "identify",
            }),
        )
    }

    /// `GET /users/@me` with a bearer token.
    pub(super) fn me(&self, bearer: &str) -> Reply {
        match self.tokens.get(bearer) {
            Some((user, issued)) if issued.elapsed() < TOKEN_LIFE => (
                StatusCode::OK,
                json!({
                    "id": user.id.to_string(), "username": user.name.to_lowercase(),
                    "global_name": user.name, "discriminator": "0", "avatar": null,
                    "public_flags": 0, "flags": 0, "accent_color": null,
                    "banner": null, "banner_color": null, "avatar_decoration_data": null,
                    "locale": "en-US", "mfa_enabled": false, "premium_type": 0,
                }),
            ),
            _ => (
                StatusCode::UNAUTHORIZED,
                json!({ "message": "401: Unauthorized", "code": 0 }),
            ),
        }
    }
}

fn oauth_error(status: u16, error: &str, description: &str) -> Reply {
    (
        StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST),
        json!({ "error": error, "error_description": description }),
    )
}

/// The bearer token of a request, if it carries one.
pub(super) fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get("authorization")?.to_str().ok()?;
    value.strip_prefix("Bearer ").map(|t| t.trim().to_string())
}
