//! Interaction callbacks (once, within 3 seconds, of a type the interaction allows), the
//! interaction webhook (follow-ups, `@original`), and messages created and edited, with
//! their attachments matched against `payload_json`.

use super::body::Body;
use super::checks::{check_components, check_embeds};
use super::reply::{error, form_error, Reply};
use super::state::{bot_user, FakeState};
use super::{id_of, is_id, Upload, APP_ID, TIMESTAMP};
use axum::http::StatusCode;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::time::Duration;

pub(super) fn interaction_callback(
    state: &mut FakeState,
    id: &str,
    token: &str,
    body: Body,
) -> Reply {
    let Some(id) = id
        .parse::<u64>()
        .ok()
        .filter(|id| state.interactions.get(id).is_some_and(|i| i.token == token))
    else {
        return error(404, 10062, "Unknown interaction");
    };
    let (kind, created, acked, channel, component_message) = {
        let i = &state.interactions[&id];
        (i.kind, i.created, i.acked, i.channel, i.component_message)
    };
    if created.elapsed() > Duration::from_secs(3) && acked.is_none() {
        return error(404, 10062, "Unknown interaction");
    }
    if acked.is_some() {
        return error(400, 40060, "Interaction has already been acknowledged.");
    }
    let Some(json) = body.json.clone() else {
        return form_error("type", "BASE_TYPE_REQUIRED", "This field is required");
    };
    let response_type = json["type"].as_u64().unwrap_or(0);
    let original = match response_type {
        // An autocomplete interaction (4) is answered with its choices only.
        4 | 5 if kind != 4 => {
            let data = if response_type == 5 {
                let flags = json["data"]["flags"].as_u64().unwrap_or(0) & 64;
                Body {
                    json: Some(json!({ "content": "", "flags": flags | 128 })),
                    files: vec![],
                }
            } else {
                Body {
                    json: Some(json["data"].clone()),
                    files: body.files,
                }
            };
            let message_type = if kind == 2 { 20 } else { 19 };
            match create_message(state, channel, data, message_type, Some(id)) {
                (StatusCode::OK, m) => Some(id_of(&m)),
                err => return err,
            }
        }
        6 | 7 if kind == 3 => {
            let message = component_message.unwrap_or(0);
            if response_type == 7 {
                let data = Body {
                    json: Some(json["data"].clone()),
                    files: body.files,
                };
                let (status, reply) = edit_message(state, message, data);
                if status != StatusCode::OK {
                    return (status, reply);
                }
            }
            Some(message)
        }
        // APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: the choices for an option being typed;
        // no message is made.
        8 if kind == 4 => {
            if let Err(refused) = check_suggestions(&json["data"]) {
                return refused;
            }
            None
        }
        // LAUNCH_ACTIVITY: a command or a component, of an application with Activities
        // enabled; no message is made.
        12 if matches!(kind, 2 | 3) && state.activities => None,
        // (Discord's exact code for this is not documented; the fake words it as an
        // invalid form field, which is what a client can act on.)
        12 if matches!(kind, 2 | 3) => {
            return form_error(
                "type",
                "INTERACTION_RESPONSE_TYPE_INVALID",
                "This application has no Activity to launch",
            )
        }
        _ => {
            return form_error(
                "type",
                "INTERACTION_RESPONSE_TYPE_INVALID",
                "Interaction response type is invalid for this interaction",
            )
        }
    };
    if let Some(i) = state.interactions.get_mut(&id) {
        i.acked = Some(response_type);
        i.original = original;
    }
    (StatusCode::NO_CONTENT, Value::Null)
}

/// An autocomplete answer as Discord takes it: `choices`, at most 25, each with a name and
/// a string value of 1 to 100 characters.
fn check_suggestions(data: &Value) -> Result<(), Reply> {
    let Some(choices) = data["choices"].as_array() else {
        return Err(form_error(
            "data.choices",
            "BASE_TYPE_REQUIRED",
            "This field is required",
        ));
    };
    if choices.len() > 25 {
        return Err(form_error(
            "data.choices",
            "BASE_TYPE_BAD_LENGTH",
            "Must be 25 or fewer in length.",
        ));
    }
    for (i, choice) in choices.iter().enumerate() {
        for field in ["name", "value"] {
            let length = choice[field].as_str().map(|s| s.chars().count());
            if !length.is_some_and(|n| (1..=100).contains(&n)) {
                return Err(form_error(
                    &format!("data.choices.{i}.{field}"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                ));
            }
        }
    }
    Ok(())
}

pub(super) fn webhook(
    state: &mut FakeState,
    method: &str,
    app: &str,
    token: &str,
    rest: &[&str],
    body: Body,
) -> Reply {
    let found = state
        .tokens
        .get(token)
        .and_then(|id| Some((*id, state.interactions.get(id)?)))
        .map(|(id, i)| (id, i.acked, i.original, i.channel, i.created));
    let Some((id, acked, original, channel, created)) = found.filter(|_| app == APP_ID.to_string())
    else {
        return error(401, 50027, "Invalid Webhook Token");
    };
    if acked.is_none() || created.elapsed() > Duration::from_secs(15 * 60) {
        return error(404, 10015, "Unknown Webhook");
    }
    match (method, rest) {
        ("POST", []) => create_message(state, channel, body, 0, Some(id)),
        (_, ["messages", which]) => {
            let target = if *which == "@original" {
                original
            } else {
                which.parse().ok()
            };
            let Some(target) = target.filter(|t| state.message(*t).is_some()) else {
                return error(404, 10008, "Unknown Message");
            };
            match method {
                "PATCH" => edit_message(state, target, body),
                "GET" => (
                    StatusCode::OK,
                    state.message(target).cloned().unwrap_or_default(),
                ),
                "DELETE" => {
                    state.remove_message(target);
                    (StatusCode::NO_CONTENT, Value::Null)
                }
                _ => error(405, 0, "405: Method Not Allowed"),
            }
        }
        _ => error(404, 0, "404: Not Found"),
    }
}

pub(super) fn create_message(
    state: &mut FakeState,
    channel: u64,
    body: Body,
    message_type: u64,
    interaction: Option<u64>,
) -> Reply {
    let data = body.json.clone().unwrap_or_else(|| json!({}));
    let id = state.snowflake();
    let guild = state.channels.get(&channel).copied().flatten();
    let mut message = json!({
        "id": id.to_string(), "channel_id": channel.to_string(), "author": bot_user(),
        "content": "", "timestamp": TIMESTAMP, "edited_timestamp": null, "tts": false,
        "mention_everyone": false, "mentions": [], "mention_roles": [], "attachments": [],
        "embeds": [], "pinned": false, "type": message_type, "flags": 0, "components": [],
    });
    if let Some(guild) = guild {
        message["guild_id"] = json!(guild.to_string());
    }
    if let Some(interaction) = interaction {
        message["webhook_id"] = json!(APP_ID.to_string());
        message["application_id"] = json!(APP_ID.to_string());
        let user = state.interactions.get(&interaction).map(|i| i.user.clone());
        message["interaction_metadata"] = json!({ "id": interaction.to_string(), "type": 2,
            "user": user, "authorizing_integration_owners": {} });
    }
    if let Err(e) = apply_message(state, &mut message, &data, body.files, true) {
        return e;
    }
    // A reply must answer a message of this channel (Discord: 50035, unknown message).
    if let Some(reference) = data.get("message_reference").filter(|r| !r.is_null()) {
        let id = &reference["message_id"];
        let target = id
            .as_str()
            .and_then(|s| s.parse::<u64>().ok())
            .or(id.as_u64());
        let known = target
            .and_then(|m| state.message(m))
            .is_some_and(|m| is_id(&m["channel_id"], channel));
        if !known {
            return form_error(
                "message_reference",
                "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                "Unknown message",
            );
        }
        message["message_reference"] = reference.clone();
    }
    let empty = message["content"] == ""
        && message["embeds"].as_array().is_none_or(Vec::is_empty)
        && message["attachments"].as_array().is_none_or(Vec::is_empty)
        && message["components"].as_array().is_none_or(Vec::is_empty);
    if empty && message["flags"].as_u64().unwrap_or(0) & 128 == 0 {
        return error(400, 50006, "Cannot send an empty message");
    }
    state.put_message(id, message.clone());
    (StatusCode::OK, message)
}

pub(super) fn edit_message(state: &mut FakeState, id: u64, body: Body) -> Reply {
    let Some(mut message) = state.message(id).cloned() else {
        return error(404, 10008, "Unknown Message");
    };
    if !is_id(&message["author"]["id"], APP_ID) {
        return error(403, 50005, "Cannot edit a message authored by another user");
    }
    let data = body.json.clone().unwrap_or_else(|| json!({}));
    if let Err(e) = apply_message(state, &mut message, &data, body.files, false) {
        return e;
    }
    // An edit clears the loading state of a deferred answer.
    let flags = message["flags"].as_u64().unwrap_or(0) & !128;
    message["flags"] = json!(flags);
    message["edited_timestamp"] = json!(TIMESTAMP);
    state.put_message(id, message.clone());
    (StatusCode::OK, message)
}

/// Applies a message create/edit payload to `message`, checking Discord's limits.
fn apply_message(
    state: &mut FakeState,
    message: &mut Value,
    data: &Value,
    files: Vec<Upload>,
    create: bool,
) -> Result<(), Reply> {
    if let Some(content) = data.get("content").filter(|c| !c.is_null()) {
        let text = content.as_str().unwrap_or_default();
        if text.chars().count() > 2000 {
            return Err(form_error(
                "content",
                "BASE_TYPE_MAX_LENGTH",
                "Must be 2000 or fewer in length.",
            ));
        }
        message["content"] = json!(text);
    }
    if let Some(flags) = data.get("flags").and_then(Value::as_u64) {
        // SUPPRESS_EMBEDS, EPHEMERAL, LOADING (set by the fake), SUPPRESS_NOTIFICATIONS.
        if flags & !(4 | 64 | 128 | 4096) != 0 {
            return Err(form_error(
                "flags",
                "MESSAGE_FLAGS_INVALID",
                "Invalid message flags",
            ));
        }
        if !create && (flags & 64) != (message["flags"].as_u64().unwrap_or(0) & 64) {
            return Err(form_error(
                "flags",
                "MESSAGE_FLAGS_INVALID",
                "Cannot change the ephemeral flag",
            ));
        }
        message["flags"] = json!(flags);
    }
    if let Some(components) = data.get("components").filter(|c| !c.is_null()) {
        check_components(components)?;
        message["components"] = components.clone();
    }
    apply_attachments(state, message, data, files)?;
    if let Some(embeds) = data.get("embeds").filter(|e| !e.is_null()) {
        let embeds = check_embeds(embeds, message)?;
        message["embeds"] = embeds;
    } else if data.get("attachments").is_some() {
        // The embeds still refer to attachments by URL; nothing to re-check.
    }
    Ok(())
}

fn apply_attachments(
    state: &mut FakeState,
    message: &mut Value,
    data: &Value,
    files: Vec<Upload>,
) -> Result<(), Reply> {
    let existing: Vec<Value> = message["attachments"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut uploaded: HashMap<u64, Upload> = HashMap::new();
    for f in files {
        let index = f
            .field
            .strip_prefix("files[")
            .and_then(|s| s.strip_suffix(']'))
            .and_then(|s| s.parse::<u64>().ok());
        let Some(index) = index else {
            return Err(form_error(
                "files",
                "BASE_TYPE_BAD_NAME",
                "File field names must be files[n]",
            ));
        };
        if uploaded.insert(index, f).is_some() {
            return Err(form_error("files", "DUPLICATE", "Duplicate file index"));
        }
    }
    let channel = message["channel_id"].as_str().unwrap_or("0").to_string();
    let mut result = Vec::new();
    match data.get("attachments").filter(|a| !a.is_null()) {
        Some(list) => {
            let Some(list) = list.as_array() else {
                return Err(form_error(
                    "attachments",
                    "BASE_TYPE_ARRAY",
                    "Must be an array",
                ));
            };
            let mut used = HashSet::new();
            for (i, a) in list.iter().enumerate() {
                let aid = id_of(a);
                if let Some(old) = existing.iter().find(|e| id_of(e) == aid) {
                    result.push(old.clone());
                } else if let Some(file) = uploaded.get(&aid) {
                    used.insert(aid);
                    let filename = a["filename"].as_str().unwrap_or(&file.filename).to_string();
                    let att_id = state.snowflake();
                    result.push(attachment_json(att_id, &channel, &filename, file));
                    keep_file(state, att_id, file);
                } else {
                    return Err(form_error(
                        &format!("attachments.{i}.id"),
                        "ATTACHMENT_NOT_FOUND",
                        "Unknown attachment",
                    ));
                }
            }
            if let Some(unused) = uploaded.keys().find(|k| !used.contains(k)) {
                return Err(form_error(
                    &format!("files[{unused}]"),
                    "ATTACHMENT_NOT_REFERENCED",
                    "File is not listed in attachments",
                ));
            }
        }
        None => {
            result = existing;
            let mut keys: Vec<_> = uploaded.keys().copied().collect();
            keys.sort();
            for k in keys {
                let file = &uploaded[&k];
                let att_id = state.snowflake();
                result.push(attachment_json(
                    att_id,
                    &channel,
                    &file.filename.clone(),
                    file,
                ));
                keep_file(state, att_id, file);
            }
        }
    }
    if result.len() > 10 {
        return Err(form_error(
            "attachments",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 10 or fewer in length.",
        ));
    }
    message["attachments"] = Value::Array(result);
    Ok(())
}

fn attachment_json(id: u64, channel: &str, filename: &str, file: &Upload) -> Value {
    json!({
        "id": id.to_string(), "filename": filename, "size": file.bytes.len(),
        "url": format!("https://cdn.discordapp.com/attachments/{channel}/{id}/{filename}"),
        "proxy_url": format!("https://media.discordapp.net/attachments/{channel}/{id}/{filename}"),
        "content_type": file.content_type,
    })
}

/// Keeps an attachment's bytes for the tests that look at them (the CDN's part of Discord).
fn keep_file(state: &mut FakeState, id: u64, file: &Upload) {
    if !state.light {
        state.files.insert(id, file.bytes.clone());
    }
}
