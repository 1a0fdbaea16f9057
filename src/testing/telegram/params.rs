//! A Bot API request's parameters, from the query string and a JSON, urlencoded or
//! multipart body, as one JSON object; the errors Telegram answers a malformed one with.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::HeaderMap;
use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// An error answer exactly as Telegram shapes it.
#[derive(Debug)]
pub(super) struct ApiError {
    pub(super) status: u16,
    pub(super) description: String,
}

pub(super) fn bad(description: &str) -> ApiError {
    ApiError {
        status: 400,
        description: format!("Bad Request: {description}"),
    }
}

pub(super) fn err_body(e: &ApiError) -> Value {
    json!({"ok": false, "error_code": e.status, "description": e.description})
}

pub(super) type Params = Map<String, Value>;

pub(super) type Files = HashMap<String, Vec<u8>>;

/// Parameters from the query string and the body (JSON, urlencoded or multipart).
pub(super) async fn read_params(
    headers: &HeaderMap,
    request: Request,
) -> Result<(Params, Files), ApiError> {
    let mut params = Params::new();
    if let Some(q) = request.uri().query() {
        for (k, v) in url_pairs(q.as_bytes()) {
            params.insert(k, Value::String(v));
        }
    }
    let ctype = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    let mut files = Files::new();
    if ctype.starts_with("multipart/form-data") {
        let mut mp = axum::extract::Multipart::from_request(request, &())
            .await
            .map_err(|_| bad("wrong multipart request"))?;
        while let Ok(Some(field)) = mp.next_field().await {
            let name = field.name().unwrap_or("").to_string();
            let file_name = field.file_name().map(str::to_string);
            let data = field
                .bytes()
                .await
                .map_err(|_| bad("wrong multipart request"))?;
            if let Some(file_name) = file_name {
                files.insert(name_key(&name), file_name.into_bytes());
                files.insert(name, data.to_vec());
            } else {
                let text = String::from_utf8(data.to_vec())
                    .map_err(|_| bad("strings must be encoded in UTF-8"))?;
                params.insert(name, Value::String(text));
            }
        }
    } else {
        let body: Bytes = axum::body::to_bytes(request.into_body(), 60 << 20)
            .await
            .map_err(|_| bad("request too large"))?;
        if ctype.starts_with("application/json") && !body.is_empty() {
            let v: Value =
                serde_json::from_slice(&body).map_err(|_| bad("can't parse JSON object"))?;
            let Value::Object(map) = v else {
                return Err(bad("can't parse JSON object"));
            };
            params.extend(map);
        } else if !body.is_empty() {
            for (k, v) in url_pairs(&body) {
                params.insert(k, Value::String(v));
            }
        }
    }
    // Form fields carrying JSON are parsed so tests see one shape.
    for key in [
        "reply_markup",
        "media",
        "results",
        "commands",
        "scope",
        "allowed_updates",
        "reply_parameters",
        "entities",
        "caption_entities",
        "link_preview_options",
    ] {
        if let Some(Value::String(s)) = params.get(key) {
            let parsed: Value = serde_json::from_str(s)
                .map_err(|_| bad(&format!("can't parse {key} JSON object")))?;
            params.insert(key.to_string(), parsed);
        }
    }
    Ok((params, files))
}

/// Where `read_params` keeps the file name of an uploaded part (beside its bytes; `#`
/// never occurs in a form field name Telegram knows).
pub(super) fn name_key(field: &str) -> String {
    format!("{field}#name")
}

pub(super) fn url_pairs(bytes: &[u8]) -> Vec<(String, String)> {
    let text = String::from_utf8_lossy(bytes);
    match reqwest::Url::parse(&format!("http://x/?{text}")) {
        Ok(url) => url.query_pairs().into_owned().collect(),
        Err(_) => vec![],
    }
}

pub(super) fn value_str(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

pub(super) fn value_i64(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

pub(super) fn value_bool(v: Option<&Value>) -> bool {
    match v {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => s == "true" || s == "1",
        Some(Value::Number(n)) => n.as_i64() == Some(1),
        _ => false,
    }
}

pub(super) fn opt_str(p: &Params, key: &str) -> Option<String> {
    p.get(key).and_then(value_str)
}

pub(super) fn req_str(p: &Params, key: &str) -> Result<String, ApiError> {
    opt_str(p, key).ok_or_else(|| bad(&format!("{key} is required")))
}

pub(super) fn opt_i64(p: &Params, key: &str) -> Result<Option<i64>, ApiError> {
    match p.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => value_i64(v)
            .map(Some)
            .ok_or_else(|| bad(&format!("invalid {key} specified"))),
    }
}
