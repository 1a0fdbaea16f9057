//! The fake's HTTP side: `/bot<token>/<method>` routing with Telegram's 401 and 404,
//! scripted failures, flood control and chaos (429, 5xx), recording every call, long-polled
//! getUpdates, and webhook delivery.

use super::flood::{Target, COUNTED};
use super::methods::dispatch;
use super::params::{err_body, opt_i64, read_params, value_i64, ApiError, Files, Params};
use super::state::{FakeState, Shared};
use super::Call;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Methods that post into a chat, which Telegram's flood control answers with 429.
const POSTING: &[&str] = &[
    "sendMessage",
    "sendPhoto",
    "sendDocument",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
    "deleteMessage",
];

/// Methods the fake knows, in Telegram's spelling (matched case-insensitively).
const METHODS: &[&str] = &[
    "getMe",
    "logOut",
    "close",
    "getUpdates",
    "setWebhook",
    "deleteWebhook",
    "getWebhookInfo",
    "sendMessage",
    "sendPhoto",
    "sendDocument",
    "sendChatAction",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
    "deleteMessage",
    "getChatMember",
    "answerCallbackQuery",
    "answerInlineQuery",
    "setMyCommands",
    "getMyCommands",
    "deleteMyCommands",
    "setChatMenuButton",
];

pub(super) fn canonical(method: &str) -> Option<&'static str> {
    METHODS
        .iter()
        .find(|m| m.eq_ignore_ascii_case(method))
        .copied()
}

pub(super) async fn handle(
    State(shared): State<Arc<Shared>>,
    Path((bot, method)): Path<(String, String)>,
    headers: HeaderMap,
    request: Request,
) -> Response {
    let token_ok = bot
        .strip_prefix("bot")
        .is_some_and(|t| t == shared.lock().token);
    let Some(method) = canonical(&method) else {
        let status = if token_ok { 404 } else { 401 };
        let description = if token_ok {
            "Not Found"
        } else {
            "Unauthorized"
        };
        return reply(
            status,
            json!({"ok": false, "error_code": status, "description": description}),
        );
    };
    let (params, files) = match read_params(&headers, request).await {
        Ok(p) => p,
        Err(e) => return reply(e.status, err_body(&e)),
    };
    if !token_ok {
        let body = json!({"ok": false, "error_code": 401, "description": "Unauthorized"});
        record(&shared, method, params, files, 401, body.clone());
        return reply(401, body);
    }
    let scripted = {
        let mut st = shared.lock();
        st.failures
            .iter()
            .position(|f| f.method == method)
            .map(|i| st.failures.remove(i))
    };
    let forced = scripted.map(|f| (f.status, f.body)).or_else(|| {
        let mut st = shared.lock();
        flood_or_chaos(&mut st, method, &params)
    });
    let (status, body) = if let Some(forced) = forced {
        forced
    } else if method == "getUpdates" {
        match get_updates(&shared, &params).await {
            Ok(v) => (200, json!({"ok": true, "result": v})),
            Err(e) => (e.status, err_body(&e)),
        }
    } else {
        // The call is recorded under the lock its effect was made under: a test that sees
        // the effect (a message edited) also sees the call, whatever mark it took since.
        // Flood control is checked and counted under it too, so two posts racing for a
        // chat's last slot cannot both pass.
        let mut st = shared.lock();
        let now = Instant::now();
        let target = flood_target(&st, method, &params);
        let over = target.and_then(|t| st.flood_control.check(method, t, now).err());
        let (status, body) = match over {
            Some((_, retry_after)) => too_many(retry_after),
            None => match dispatch(&mut st, method, &params, &files) {
                Ok(v) => {
                    if let Some(t) = target {
                        st.flood_control.record(t, now);
                    }
                    (200, json!({"ok": true, "result": v}))
                }
                Err(e) => (e.status, err_body(&e)),
            },
        };
        push_call(&mut st, method, params, files, status, body.clone());
        drop(st);
        shared.changed.notify_all();
        return reply(status, body);
    };
    record(&shared, method, params, files, status, body.clone());
    reply(status, body)
}

/// Where a call of `method` posts, for flood control: `None` for a method that posts nothing
/// (flood.rs says what counts) or a chat the fake cannot name.
fn flood_target(st: &FakeState, method: &str, p: &Params) -> Option<Target> {
    if !COUNTED.contains(&method) {
        return None;
    }
    if p.contains_key("inline_message_id") {
        return Some(Target::Inline);
    }
    let chat = p.get("chat_id").and_then(value_i64)?;
    let kind = st.chats.get(&chat).and_then(|c| c["type"].as_str());
    Some(match kind {
        Some("private") => Target::Private(chat),
        Some(_) => Target::Group(chat),
        // A chat the bot may not write to: refused anyway (403 or 400).
        None if chat > 0 => Target::Private(chat),
        None => Target::Group(chat),
    })
}

/// A 429 for a chat a test flooded, or a random failure under `chaos`.
fn flood_or_chaos(st: &mut FakeState, method: &str, p: &Params) -> Option<(u16, Value)> {
    if !POSTING.contains(&method) {
        return None;
    }
    let chat = p.get("chat_id").and_then(value_i64);
    if let Some(retry) = chat.and_then(|c| st.flooded.get(&c)).copied() {
        return Some(too_many(retry));
    }
    let (per_mille, state) = &mut st.chaos;
    if *per_mille == 0 {
        return None;
    }
    // xorshift64: enough randomness for a test, and repeatable.
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    let roll = (*state % 3000) as u32;
    if roll >= *per_mille * 3 {
        return None;
    }
    Some(match roll % 3 {
        0 => too_many(1),
        1 => (
            500,
            json!({"ok": false, "error_code": 500, "description": "Internal Server Error"}),
        ),
        _ => (
            502,
            json!({"ok": false, "error_code": 502, "description": "Bad Gateway"}),
        ),
    })
}

fn too_many(retry_after: u64) -> (u16, Value) {
    let body = json!({"ok": false, "error_code": 429,
        "description": format!("Too Many Requests: retry after {retry_after}"),
        "parameters": {"retry_after": retry_after}});
    (429, body)
}

fn reply(status: u16, body: Value) -> Response {
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    (code, Json(body)).into_response()
}

fn record(shared: &Shared, method: &str, params: Params, files: Files, status: u16, body: Value) {
    push_call(&mut shared.lock(), method, params, files, status, body);
    shared.changed.notify_all();
}

fn push_call(
    st: &mut FakeState,
    method: &str,
    params: Params,
    files: Files,
    status: u16,
    body: Value,
) {
    st.calls.push(Call {
        method: method.to_string(),
        params: Value::Object(params),
        files,
        status,
        response: body,
        at: Instant::now(),
    });
}

async fn get_updates(shared: &Shared, p: &Params) -> Result<Value, ApiError> {
    let offset = opt_i64(p, "offset")?;
    let limit = opt_i64(p, "limit")?.unwrap_or(100).clamp(1, 100) as usize;
    let timeout = opt_i64(p, "timeout")?.unwrap_or(0).clamp(0, 50) as u64;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(timeout);
    loop {
        let notified = shared.new_update.notified();
        {
            let mut st = shared.lock();
            if st.webhook.is_some() {
                return Err(ApiError {
                    status: 409,
                    description: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first".into(),
                });
            }
            if let Some(off) = offset {
                // A positive offset confirms every update below it.
                if off > st.confirmed + 1 {
                    st.confirmed = off - 1;
                    let c = st.confirmed;
                    st.updates.retain(|(id, _)| *id > c);
                    shared.changed.notify_all();
                }
            }
            let ready: Vec<Value> = st
                .updates
                .iter()
                .filter(|(id, _)| offset.is_none_or(|o| *id >= o))
                .take(limit)
                .map(|(_, u)| u.clone())
                .collect();
            if !ready.is_empty() || tokio::time::Instant::now() >= deadline {
                return Ok(Value::Array(ready));
            }
        }
        let _ = tokio::time::timeout_at(deadline, notified).await;
    }
}

/// Delivers queued updates to the webhook, one at a time, like Telegram.
pub(super) async fn webhook_delivery(shared: Arc<Shared>) {
    let client = reqwest::Client::new();
    loop {
        let notified = shared.new_update.notified();
        let next = {
            let st = shared.lock();
            st.webhook.as_ref().and_then(|w| {
                st.updates
                    .front()
                    .map(|(id, u)| (*id, u.clone(), w.url.clone(), w.secret.clone()))
            })
        };
        let Some((id, update, url, secret)) = next else {
            let _ = tokio::time::timeout(Duration::from_millis(200), notified).await;
            continue;
        };
        let mut req = client.post(&url).json(&update);
        if let Some(s) = secret {
            req = req.header("X-Telegram-Bot-Api-Secret-Token", s);
        }
        let status = match req.timeout(Duration::from_secs(10)).send().await {
            Ok(r) => r.status().as_u16(),
            Err(_) => 0,
        };
        {
            let mut st = shared.lock();
            st.deliveries.push((id, status));
            if (200..300).contains(&status) {
                st.updates.retain(|(u, _)| *u != id);
            }
            shared.changed.notify_all();
        }
        if !(200..300).contains(&status) {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}
