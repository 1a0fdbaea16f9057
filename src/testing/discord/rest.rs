//! REST under `/api/v10`: routing, the bot token (or an interaction's token in the path),
//! Discord's rate limits (limits.rs) with their headers, scripted and random failures, and
//! a record of every call.

use super::body::{read_body, Body};
use super::commands::register_commands;
use super::limits::{Refusal, Verdict};
use super::messages::{create_message, edit_message, interaction_callback, webhook};
use super::oauth;
use super::reply::{error, form_error, Reply};
use super::state::{bot_user, FakeState, Shared};
use super::{is_id, Call, Failure, APP_ID, TOKEN};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Instant;

pub(super) async fn rest(State(shared): State<Arc<Shared>>, req: Request) -> Response {
    let method = req.method().clone();
    let full_path = req.uri().path().to_string();
    let headers = req.headers().clone();
    let Some(path) = full_path.strip_prefix("/api/v10").map(str::to_string) else {
        return (
            StatusCode::NOT_FOUND,
            Json(json!({"message": "404: Not Found", "code": 0})),
        )
            .into_response();
    };
    if path == "/oauth2/token" || (path == "/users/@me" && oauth::bearer(&headers).is_some()) {
        return oauth_call(&shared, &method, &path, &headers, req).await;
    }
    let body = match read_body(&headers, req).await {
        Ok(b) => b,
        Err(reply) => return reply_response(reply, HeaderMap::new()),
    };
    let mut call = Call {
        method: method.to_string(),
        path: path.clone(),
        status: 0,
        json: body.json.clone(),
        files: body.files.clone(),
        at: Instant::now(),
    };
    // The call is recorded under the lock its effect was made under: a test that sees the
    // effect (a message edited) also sees the call, whatever mark it took since.
    let mut state = shared.lock();
    let scripted =
        scripted_failure(&mut state, &method, &path).or_else(|| random_failure(&mut state, &path));
    let (reply, reply_headers) = match scripted {
        Some(failure) => failure,
        None => match state
            .rate_limits
            .take(method.as_str(), &path, Instant::now())
        {
            Verdict::Refused(refusal) => too_many(&refusal),
            Verdict::Go(bucket) => {
                let reply = handle(&shared, &mut state, &method, &path, &headers, body);
                let mut h = HeaderMap::new();
                if let Some(bucket) = bucket {
                    bucket.write(&mut h);
                }
                (reply, h)
            }
        },
    };
    call.status = reply.0.as_u16();
    if state.light && !call.files.is_empty() {
        call.files.clear();
        call.json = call
            .json
            .as_ref()
            .and_then(|j| j.get("type"))
            .map(|t| json!({ "type": t }));
    }
    if call.status == 204 && path.ends_with("/callback") {
        if let Some(id) = path.split('/').nth(2).and_then(|s| s.parse().ok()) {
            state.callbacks.insert(id, call.clone());
        }
    }
    state.calls.push(call);
    drop(state);
    shared.bump();
    reply_response(reply, reply_headers)
}

/// An OAuth2 call (an Activity's sign-in, made by our web server, not the bot): Discord's
/// OAuth2 answers, recorded without its body (it holds a code or a client secret).
async fn oauth_call(
    shared: &Shared,
    method: &Method,
    path: &str,
    headers: &HeaderMap,
    req: Request,
) -> Response {
    let bytes = axum::body::to_bytes(req.into_body(), 1 << 16)
        .await
        .unwrap_or_default();
    let mut state = shared.lock();
    let scripted = scripted_failure(&mut state, method, path);
    let (reply, reply_headers) = match scripted {
        Some(failure) => failure,
        None => {
            let reply = match (method.as_str(), path) {
                ("POST", "/oauth2/token") => state.oauth.token(headers, &bytes),
                ("GET", _) => state.oauth.me(&oauth::bearer(headers).unwrap_or_default()),
                _ => error(405, 0, "405: Method Not Allowed"),
            };
            (reply, HeaderMap::new())
        }
    };
    state.calls.push(Call {
        method: method.to_string(),
        path: path.to_string(),
        status: reply.0.as_u16(),
        json: None,
        files: vec![],
        at: Instant::now(),
    });
    drop(state);
    shared.bump();
    reply_response(reply, reply_headers)
}

struct Json(Value);

impl IntoResponse for Json {
    fn into_response(self) -> Response {
        ([("content-type", "application/json")], self.0.to_string()).into_response()
    }
}

fn reply_response(reply: Reply, headers: HeaderMap) -> Response {
    let (status, body) = reply;
    let mut response = if status == StatusCode::NO_CONTENT {
        status.into_response()
    } else {
        (status, Json(body)).into_response()
    };
    response.headers_mut().extend(headers);
    response
}

/// A 429 as Discord answers it: its body and headers.
fn too_many(refusal: &Refusal) -> (Reply, HeaderMap) {
    let mut headers = HeaderMap::new();
    refusal.write_headers(&mut headers);
    ((StatusCode::TOO_MANY_REQUESTS, refusal.body()), headers)
}

fn scripted_failure(
    state: &mut FakeState,
    method: &Method,
    path: &str,
) -> Option<(Reply, HeaderMap)> {
    let i = state.failures.iter().position(|f| {
        f.remaining > 0
            && f.method.eq_ignore_ascii_case(method.as_str())
            && path.contains(&f.path_contains)
    })?;
    let f = &mut state.failures[i];
    f.remaining -= 1;
    Some(failure_reply(&f.failure))
}

fn failure_reply(failure: &Failure) -> (Reply, HeaderMap) {
    let reply = match *failure {
        Failure::RateLimit {
            retry_after,
            global,
        } => return too_many(&Refusal::scripted(retry_after, global)),
        Failure::Server(status) => (
            StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY),
            json!({ "message": format!("{status}: Server Error"), "code": 0 }),
        ),
        Failure::UnknownInteraction => error(404, 10062, "Unknown interaction"),
        Failure::MissingAccess => (
            StatusCode::FORBIDDEN,
            json!({ "message": "Missing Access", "code": 50001 }),
        ),
    };
    (reply, HeaderMap::new())
}

fn random_failure(state: &mut FakeState, path: &str) -> Option<(Reply, HeaderMap)> {
    use rand::Rng;
    let routed = ["/interactions/", "/webhooks/", "/channels/"]
        .iter()
        .any(|p| path.starts_with(p));
    let chaos = state.chaos.as_mut().filter(|_| routed)?;
    if chaos.rng.gen_range(0..1000) >= chaos.per_mille {
        return None;
    }
    let failure = if chaos.rng.gen_bool(0.5) {
        Failure::RateLimit {
            retry_after: f64::from(chaos.rng.gen_range(50..500u32)) / 1000.0,
            global: false,
        }
    } else {
        Failure::Server([500, 502, 503, 504][chaos.rng.gen_range(0..4)])
    };
    Some(failure_reply(&failure))
}

fn authorized(headers: &HeaderMap) -> bool {
    headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == format!("Bot {TOKEN}"))
}

fn handle(
    shared: &Shared,
    state: &mut FakeState,
    method: &Method,
    path: &str,
    headers: &HeaderMap,
    body: Body,
) -> Reply {
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    // Interaction callbacks and webhooks are authorised by their token in the path; an
    // Authorization header, if sent, must still be valid.
    let token_routes = matches!(parts.first(), Some(&"interactions") | Some(&"webhooks"));
    let has_auth = headers.contains_key("authorization");
    if (!token_routes || has_auth) && !authorized(headers) {
        return error(401, 0, "401: Unauthorized");
    }
    let m = method.as_str();
    match (m, parts.as_slice()) {
        ("GET", ["gateway"]) => (
            StatusCode::OK,
            json!({ "url": format!("ws://{}/gateway", shared.addr) }),
        ),
        ("GET", ["gateway", "bot"]) => (
            StatusCode::OK,
            json!({
                "url": format!("ws://{}/gateway", shared.addr), "shards": state.recommended_shards,
                "session_start_limit": { "total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1 }
            }),
        ),
        ("GET", ["users", "@me"]) => (StatusCode::OK, bot_user()),
        ("GET", ["oauth2", "applications", "@me"]) => (StatusCode::OK, application_json()),
        ("PUT", ["applications", app, "commands"]) => {
            if *app != APP_ID.to_string() {
                return error(403, 50001, "Missing Access");
            }
            match register_commands(state, body.json) {
                Ok(list) => {
                    state.global_commands = list.clone();
                    (StatusCode::OK, Value::Array(list))
                }
                Err(e) => e,
            }
        }
        ("PUT", ["applications", app, "guilds", guild, "commands"]) => {
            if *app != APP_ID.to_string() {
                return error(403, 50001, "Missing Access");
            }
            let Ok(guild) = guild.parse::<u64>() else {
                return error(404, 10004, "Unknown Guild");
            };
            match register_commands(state, body.json) {
                Ok(mut list) => {
                    for c in &mut list {
                        c["guild_id"] = json!(guild.to_string());
                    }
                    state.guild_commands.insert(guild, list.clone());
                    (StatusCode::OK, Value::Array(list))
                }
                Err(e) => e,
            }
        }
        ("GET", ["applications", _, "commands"]) => {
            (StatusCode::OK, Value::Array(state.global_commands.clone()))
        }
        ("POST", ["interactions", id, token, "callback"]) => {
            interaction_callback(state, id, token, body)
        }
        (_, ["webhooks", app, token, rest @ ..]) => webhook(state, m, app, token, rest, body),
        ("POST", ["users", "@me", "channels"]) => {
            let recipient = body
                .json
                .as_ref()
                .and_then(|j| j["recipient_id"].as_str().map(str::to_string));
            let Some(recipient) = recipient else {
                return form_error(
                    "recipient_id",
                    "BASE_TYPE_REQUIRED",
                    "This field is required",
                );
            };
            // Discord answers the same DM channel for a user every time.
            let user = recipient.parse::<u64>().unwrap_or(0);
            let id = match state.dms.by_user.get(&user) {
                Some(id) => *id,
                None => {
                    let id = state.snowflake();
                    state.channels.insert(id, None);
                    state.dms.by_user.insert(user, id);
                    id
                }
            };
            (
                StatusCode::OK,
                json!({ "id": id.to_string(), "type": 1, "last_message_id": null,
                "recipients": [{ "id": recipient, "username": "user", "discriminator": "0", "global_name": null, "avatar": null }] }),
            )
        }
        ("POST", ["channels", channel, "messages"]) => {
            let Some(channel) = known_channel(state, channel) else {
                return error(404, 10003, "Unknown Channel");
            };
            let recipient = state.dms.recipient(channel);
            if recipient.is_some_and(|user| state.dms.closed.contains(&user)) {
                return error(403, 50007, "Cannot send messages to this user");
            }
            create_message(state, channel, body, 0, None)
        }
        ("PATCH", ["channels", channel, "messages", message]) => {
            let Some(channel) = known_channel(state, channel) else {
                return error(404, 10003, "Unknown Channel");
            };
            match message.parse::<u64>().ok().filter(|id| {
                state
                    .message(*id)
                    .is_some_and(|m| is_id(&m["channel_id"], channel))
            }) {
                Some(id) => edit_message(state, id, body),
                None => error(404, 10008, "Unknown Message"),
            }
        }
        ("GET", ["channels", _, "messages", message]) => {
            match message.parse::<u64>().ok().and_then(|id| state.message(id)) {
                Some(m) => (StatusCode::OK, m.clone()),
                None => error(404, 10008, "Unknown Message"),
            }
        }
        ("DELETE", ["channels", _, "messages", message]) => match message
            .parse::<u64>()
            .ok()
            .and_then(|id| state.remove_message(id))
        {
            Some(_) => (StatusCode::NO_CONTENT, Value::Null),
            None => error(404, 10008, "Unknown Message"),
        },
        _ => error(404, 0, "404: Not Found"),
    }
}

fn known_channel(state: &FakeState, channel: &str) -> Option<u64> {
    channel
        .parse::<u64>()
        .ok()
        .filter(|c| state.channels.contains_key(c))
}

fn application_json() -> Value {
    json!({
        "id": APP_ID.to_string(), "name": "toguz", "icon": null, "description": "",
        "bot_public": true, "bot_require_code_grant": false, "verify_key": "00",
        "flags": 0, "owner": bot_user(), "team": null, "summary": "",
        "rpc_origins": [], "tags": [],
    })
}
