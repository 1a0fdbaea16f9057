//! Discord's limits on a message's embeds (sizes, fields, `attachment://` images that must
//! be in the message) and components (at most five action rows of one to five buttons,
//! custom_ids of 1..100 characters, unique; link buttons with an address and no custom_id,
//! other buttons with no address).

use super::reply::{form_error, Reply};
use serde_json::{json, Value};
use std::collections::HashSet;

pub(super) fn check_embeds(embeds: &Value, message: &Value) -> Result<Value, Reply> {
    let Some(list) = embeds.as_array() else {
        return Err(form_error("embeds", "BASE_TYPE_ARRAY", "Must be an array"));
    };
    if list.len() > 10 {
        return Err(form_error(
            "embeds",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 10 or fewer in length.",
        ));
    }
    let mut total = 0;
    let mut out = Vec::new();
    let len = |v: &Value| v.as_str().map(|s| s.chars().count()).unwrap_or(0);
    for (i, e) in list.iter().enumerate() {
        let limits = [("title", 256), ("description", 4096)];
        for (key, max) in limits {
            if len(&e[key]) > max {
                return Err(form_error(
                    &format!("embeds.{i}.{key}"),
                    "BASE_TYPE_MAX_LENGTH",
                    "Too long",
                ));
            }
            total += len(&e[key]);
        }
        let fields = e["fields"].as_array().cloned().unwrap_or_default();
        if fields.len() > 25 {
            return Err(form_error(
                &format!("embeds.{i}.fields"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 25 or fewer in length.",
            ));
        }
        for (j, f) in fields.iter().enumerate() {
            let (n, v) = (len(&f["name"]), len(&f["value"]));
            if n == 0 || n > 256 || v == 0 || v > 1024 {
                return Err(form_error(
                    &format!("embeds.{i}.fields.{j}"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Field name 1..256, value 1..1024",
                ));
            }
            total += n + v;
        }
        if len(&e["footer"]["text"]) > 2048 || len(&e["author"]["name"]) > 256 {
            return Err(form_error(
                &format!("embeds.{i}"),
                "BASE_TYPE_MAX_LENGTH",
                "Too long",
            ));
        }
        total += len(&e["footer"]["text"]) + len(&e["author"]["name"]);
        let mut stored = e.clone();
        for key in ["image", "thumbnail"] {
            let Some(url) = e[key]["url"].as_str() else {
                continue;
            };
            if let Some(name) = url.strip_prefix("attachment://") {
                let found = message["attachments"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .find(|a| a["filename"] == name)
                    .cloned();
                let Some(att) = found else {
                    return Err(form_error(
                        &format!("embeds.{i}.{key}.url"),
                        "EMBED_ATTACHMENT_NOT_FOUND",
                        "Embed refers to an attachment that is not in the message",
                    ));
                };
                stored[key] = json!({ "url": att["url"], "proxy_url": att["proxy_url"], "width": 960, "height": 400 });
            } else if !url.starts_with("https://") && !url.starts_with("http://") {
                return Err(form_error(
                    &format!("embeds.{i}.{key}.url"),
                    "URL_TYPE_INVALID_URL",
                    "Not a well formed URL.",
                ));
            }
        }
        stored["type"] = json!("rich");
        out.push(stored);
    }
    if total > 6000 {
        return Err(form_error(
            "embeds",
            "BASE_TYPE_MAX_LENGTH",
            "Embed size exceeds maximum size of 6000",
        ));
    }
    Ok(Value::Array(out))
}

/// A link button: an http(s) or discord:// address of at most 512 characters, and no
/// custom_id (pressing it tells the bot nothing).
fn check_link(b: &Value, path: &str) -> Result<(), Reply> {
    if !b["custom_id"].is_null() {
        return Err(form_error(
            &format!("{path}.custom_id"),
            "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
            "A custom id may not be set on a link button",
        ));
    }
    let Some(url) = b["url"].as_str() else {
        return Err(form_error(
            &format!("{path}.url"),
            "BASE_TYPE_REQUIRED",
            "This field is required",
        ));
    };
    let scheme_ok = url::Url::parse(url).is_ok_and(|u| match u.scheme() {
        "http" | "https" => u.host_str().is_some_and(|h| !h.is_empty()),
        "discord" => true,
        _ => false,
    });
    if !scheme_ok || url.chars().count() > 512 {
        return Err(form_error(
            &format!("{path}.url"),
            "URL_TYPE_INVALID_URL",
            "Not a well formed URL.",
        ));
    }
    Ok(())
}

pub(super) fn check_components(components: &Value) -> Result<(), Reply> {
    let Some(rows) = components.as_array() else {
        return Err(form_error(
            "components",
            "BASE_TYPE_ARRAY",
            "Must be an array",
        ));
    };
    if rows.len() > 5 {
        return Err(form_error(
            "components",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 5 or fewer in length.",
        ));
    }
    let mut ids = HashSet::new();
    for (i, row) in rows.iter().enumerate() {
        if row["type"] != 1 {
            return Err(form_error(
                &format!("components.{i}.type"),
                "COMPONENT_LAYOUT_INVALID",
                "Top-level components must be action rows",
            ));
        }
        let items = row["components"].as_array().cloned().unwrap_or_default();
        if items.is_empty() || items.len() > 5 {
            return Err(form_error(
                &format!("components.{i}.components"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 5 in length.",
            ));
        }
        for (j, b) in items.iter().enumerate() {
            let path = format!("components.{i}.components.{j}");
            if b["type"] != 2 {
                return Err(form_error(
                    &path,
                    "COMPONENT_TYPE_INVALID",
                    "Only buttons are expected here",
                ));
            }
            let style = b["style"].as_u64().unwrap_or(0);
            let label = b["label"].as_str().unwrap_or_default();
            if label.chars().count() > 80 || (label.is_empty() && b["emoji"].is_null()) {
                return Err(form_error(
                    &format!("{path}.label"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Label must be 1 to 80 characters",
                ));
            }
            match style {
                1..=4 if !b["url"].is_null() => {
                    return Err(form_error(
                        &format!("{path}.url"),
                        "BUTTON_COMPONENT_URL_NOT_ALLOWED",
                        "A url may only be set on a link button",
                    ));
                }
                1..=4 => {
                    let id = b["custom_id"].as_str().unwrap_or_default();
                    if !(1..=100).contains(&id.chars().count()) {
                        return Err(form_error(
                            &format!("{path}.custom_id"),
                            "BASE_TYPE_BAD_LENGTH",
                            "Must be between 1 and 100 in length.",
                        ));
                    }
                    if !ids.insert(id.to_string()) {
                        return Err(form_error(
                            &format!("{path}.custom_id"),
                            "COMPONENT_CUSTOM_ID_DUPLICATED",
                            "Component custom id cannot be duplicated",
                        ));
                    }
                }
                5 => check_link(b, &path)?,
                _ => {
                    return Err(form_error(
                        &format!("{path}.style"),
                        "BUTTON_COMPONENT_INVALID",
                        "Invalid button",
                    ))
                }
            }
        }
    }
    Ok(())
}
