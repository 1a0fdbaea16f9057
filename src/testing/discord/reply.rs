//! The fake's answers as Discord words them: a status with a JSON body (`{"message",
//! "code"}`), 400 Invalid Form Body with the path of the offending field. Every part of the
//! fake that refuses something shares these (its own file, so that no two files import each
//! other for them).

use axum::http::StatusCode;
use serde_json::{json, Value};

pub(super) type Reply = (StatusCode, Value);

pub(super) fn error(status: u16, code: u64, message: &str) -> Reply {
    (
        StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST),
        json!({ "message": message, "code": code }),
    )
}

/// 400 Invalid Form Body, with the path of the offending field.
pub(super) fn form_error(path: &str, code: &str, message: &str) -> Reply {
    let mut errors = json!({ "_errors": [{ "code": code, "message": message }] });
    for part in path.rsplit('.') {
        errors = json!({ part: errors });
    }
    (
        StatusCode::BAD_REQUEST,
        json!({ "message": "Invalid Form Body", "code": 50035, "errors": errors }),
    )
}
