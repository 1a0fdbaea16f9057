//! Request bodies as Discord takes them: JSON, or multipart with `payload_json` and files
//! `files[n]`, each with a file name.

use super::reply::{error, form_error, Reply};
use super::Upload;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::HeaderMap;
use serde_json::Value;

pub(super) struct Body {
    pub(super) json: Option<Value>,
    pub(super) files: Vec<Upload>,
}

pub(super) async fn read_body(headers: &HeaderMap, req: Request) -> Result<Body, Reply> {
    let content_type = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    if content_type.starts_with("multipart/form-data") {
        return read_multipart(req).await;
    }
    let bytes: Bytes = axum::body::to_bytes(req.into_body(), 25 << 20)
        .await
        .map_err(|_| error(413, 40005, "Request entity too large"))?;
    if bytes.is_empty() {
        return Ok(Body {
            json: None,
            files: vec![],
        });
    }
    let json = serde_json::from_slice(&bytes)
        .map_err(|_| error(400, 50109, "The request body contains invalid JSON."))?;
    Ok(Body {
        json: Some(json),
        files: vec![],
    })
}

/// A multipart body as Discord takes it: `payload_json` (the message) and files `files[n]`,
/// each with a file name, nothing else. Discord answers anything else with 400.
async fn read_multipart(req: Request) -> Result<Body, Reply> {
    let bad_json = || error(400, 50109, "The request body contains invalid JSON.");
    let mut form = axum::extract::Multipart::from_request(req, &())
        .await
        .map_err(|_| bad_json())?;
    let mut json = None;
    let mut files = Vec::new();
    loop {
        let field = match form.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(_) => return Err(error(400, 50035, "Invalid Form Body")),
        };
        let name = field.name().unwrap_or_default().to_string();
        let filename = field.file_name().map(str::to_string);
        let part_type = field.content_type().map(str::to_string);
        let bytes = field.bytes().await.unwrap_or_default();
        if name == "payload_json" {
            if json.is_some() {
                return Err(form_error("payload_json", "DUPLICATE", "Duplicate field"));
            }
            json = Some(serde_json::from_slice(&bytes).map_err(|_| bad_json())?);
            continue;
        }
        let indexed = name
            .strip_prefix("files[")
            .and_then(|s| s.strip_suffix(']'))
            .is_some_and(|n| n.parse::<u64>().is_ok());
        if !indexed {
            return Err(form_error(
                &name,
                "BASE_TYPE_BAD_NAME",
                "Form fields are payload_json and files[n]",
            ));
        }
        let Some(filename) = filename.filter(|f| !f.trim().is_empty()) else {
            return Err(form_error(
                &name,
                "BASE_TYPE_REQUIRED",
                "A file needs a filename",
            ));
        };
        files.push(Upload {
            field: name,
            content_type: part_type.unwrap_or_else(|| guess_type(&filename).to_string()),
            filename,
            bytes: bytes.to_vec(),
        });
    }
    let Some(json) = json else {
        return Err(form_error(
            "payload_json",
            "BASE_TYPE_REQUIRED",
            "A multipart message needs payload_json",
        ));
    };
    Ok(Body {
        json: Some(json),
        files,
    })
}

/// Discord's content type for a file sent without one: by its extension.
fn guess_type(filename: &str) -> &'static str {
    match filename.rsplit_once('.').map(|(_, ext)| ext) {
        Some("png") => "image/png",
        Some("txt") => "text/plain",
        _ => "application/octet-stream",
    }
}
