//! The Telegram Mini App's launch data (`initData`), checked exactly as Telegram documents
//! it (core.telegram.org/bots/webapps, "Validating data received via the Mini App"):
//!
//! - secret = HMAC-SHA256(key "WebAppData", message: the bot's token);
//! - data-check string = every field but `hash` (`signature` included: it is covered since
//!   Bot API 8.0), as `key=value` with the value percent-decoded, sorted by key, joined by
//!   "\n";
//! - `hash` = hex HMAC-SHA256(secret, data-check string), compared in constant time;
//! - `auth_date` no older than the configured age, and not in the future (beyond a small
//!   skew between our clock and Telegram's).
//!
//! Only data that passed the check is read as a user. Errors name what was wrong, never
//! the token nor the data itself (which is a credential for as long as it is fresh).

use crate::model::{Platform, UserRef};
use crate::secret::Secret;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::collections::BTreeMap;

type HmacSha256 = Hmac<Sha256>;

/// `[telegram] init_data_max_age`'s default: a day, as Telegram's own examples use.
pub const DEFAULT_MAX_AGE_SECS: u64 = 86_400;

/// How far in the future an `auth_date` may be: Telegram's clock and ours differ a little.
pub const FUTURE_SKEW_SECS: u64 = 60;

/// Launch data longer than this is refused unread (a real one is about 1 KB).
pub const MAX_LEN: usize = 8 * 1024;

/// What the pages need to sign Telegram users in: set by `toguz run` from `[telegram]`
/// when the Telegram bot runs beside the pages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TelegramSignIn {
    /// The bot's token: the launch data is signed with it.
    pub token: Secret,
    /// Launch data older than this many seconds is refused (`init_data_max_age`).
    pub max_age_secs: u64,
    /// `[telegram] commands_per_minute`, which counts sign-ins as commands when set (else
    /// `[limits] commands_per_minute`).
    pub commands_per_minute: Option<u32>,
}

/// The user a Mini App was opened by (`WebAppUser`): the fields we use; others are ignored.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
pub struct TelegramUser {
    pub id: i64,
    pub first_name: String,
    #[serde(default)]
    pub last_name: Option<String>,
    #[serde(default)]
    pub username: Option<String>,
    #[serde(default)]
    pub language_code: Option<String>,
}

impl TelegramUser {
    /// The user as the Telegram adapter names them (`platform::telegram::user_ref`: the
    /// first name, then the last name), so a sign-in is the same person as in chat.
    pub fn user_ref(&self) -> UserRef {
        let name = match &self.last_name {
            Some(last) if !last.is_empty() => format!("{} {last}", self.first_name),
            _ => self.first_name.clone(),
        };
        UserRef::new(Platform::Telegram, self.id.to_string(), name)
    }
}

/// Launch data that passed the check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitData {
    pub user: TelegramUser,
    /// Unix seconds Telegram signed it at.
    pub auth_date: u64,
    /// `startapp` of a direct link (`t.me/<bot>/<app>?startapp=...`).
    pub start_param: Option<String>,
}

/// Why launch data was refused. The texts name the fault only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InitDataError {
    #[error("the launch data is empty or too long")]
    Size,
    #[error("the launch data is not a list of key=value fields")]
    Malformed,
    #[error("a field of the launch data is not percent-encoded UTF-8")]
    Encoding,
    #[error("a field appears twice in the launch data")]
    Duplicate,
    #[error("the launch data carries no hash")]
    MissingHash,
    #[error("the launch data's hash does not match: it was not signed with this bot's token")]
    BadHash,
    #[error("the launch data carries no valid auth_date")]
    AuthDate,
    #[error("the launch data is older than allowed")]
    Stale,
    #[error("the launch data is dated in the future")]
    Future,
    #[error("the launch data names no user")]
    MissingUser,
    #[error("the launch data's user is not a Telegram user")]
    BadUser,
}

/// Checks `init_data` (the raw string, as `Telegram.WebApp.initData` or the URL's
/// `tgWebAppData` holds it) against the bot's `token` at `now` (Unix seconds).
pub fn check(
    init_data: &str,
    token: &Secret,
    max_age_secs: u64,
    now: u64,
) -> Result<InitData, InitDataError> {
    if init_data.is_empty() || init_data.len() > MAX_LEN {
        return Err(InitDataError::Size);
    }
    let mut fields = fields(init_data)?;
    let hash = fields.remove("hash").ok_or(InitDataError::MissingHash)?;
    verify_hash(&fields, &hash, token)?;
    let auth_date: u64 = fields
        .get("auth_date")
        .and_then(|d| d.parse().ok())
        .ok_or(InitDataError::AuthDate)?;
    if auth_date > now.saturating_add(FUTURE_SKEW_SECS) {
        return Err(InitDataError::Future);
    }
    if now.saturating_sub(auth_date) > max_age_secs {
        return Err(InitDataError::Stale);
    }
    let user = fields.get("user").ok_or(InitDataError::MissingUser)?;
    let user: TelegramUser = serde_json::from_str(user).map_err(|_| InitDataError::BadUser)?;
    if user.id <= 0 {
        return Err(InitDataError::BadUser);
    }
    Ok(InitData {
        user,
        auth_date,
        start_param: fields.remove("start_param"),
    })
}

/// The `language_code` the launch data's user claims, read without any check: only to
/// choose the language of a refusal.
pub fn claimed_language(init_data: &str) -> Option<String> {
    if init_data.len() > MAX_LEN {
        return None;
    }
    let user = fields(init_data).ok()?.remove("user")?;
    let value: serde_json::Value = serde_json::from_str(&user).ok()?;
    value["language_code"].as_str().map(str::to_string)
}

/// The fields, decoded, by key. Every pair must be `key=value`; a key twice is refused
/// (which of the two would count is where parsers disagree).
fn fields(init_data: &str) -> Result<BTreeMap<String, String>, InitDataError> {
    let mut fields = BTreeMap::new();
    for pair in init_data.split('&') {
        let (key, value) = pair.split_once('=').ok_or(InitDataError::Malformed)?;
        let key = decode(key)?;
        if key.is_empty() {
            return Err(InitDataError::Malformed);
        }
        if fields.insert(key, decode(value)?).is_some() {
            return Err(InitDataError::Duplicate);
        }
    }
    Ok(fields)
}

/// Percent-decoding as a URL's query is decoded (`+` is a space), strictly: a `%` not
/// followed by two hex digits, or bytes that are not UTF-8, are refused.
fn decode(text: &str) -> Result<String, InitDataError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes.get(i + 1..i + 3).ok_or(InitDataError::Encoding)?;
                let hex = std::str::from_utf8(hex).map_err(|_| InitDataError::Encoding)?;
                if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(InitDataError::Encoding);
                }
                out.push(u8::from_str_radix(hex, 16).map_err(|_| InitDataError::Encoding)?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| InitDataError::Encoding)
}

/// The data-check string of `fields` (`hash` already taken out): sorted by key (the map's
/// order), `key=value`, one per line.
fn data_check_string(fields: &BTreeMap<String, String>) -> String {
    let lines: Vec<String> = fields.iter().map(|(k, v)| format!("{k}={v}")).collect();
    lines.join("\n")
}

/// Whether `hash` (hex) is the data-check string's HMAC under the token's secret; the
/// comparison takes the same time wherever the two differ (`verify_slice`).
fn verify_hash(
    fields: &BTreeMap<String, String>,
    hash: &str,
    token: &Secret,
) -> Result<(), InitDataError> {
    let expected = hex_bytes(hash).ok_or(InitDataError::BadHash)?;
    let mut mac =
        HmacSha256::new_from_slice(&secret_key(token)).map_err(|_| InitDataError::BadHash)?;
    mac.update(data_check_string(fields).as_bytes());
    mac.verify_slice(&expected)
        .map_err(|_| InitDataError::BadHash)
}

/// HMAC-SHA256 with the key "WebAppData" of the bot's token.
fn secret_key(token: &Secret) -> Vec<u8> {
    // An HMAC takes a key of any length: this cannot fail.
    let mut mac = HmacSha256::new_from_slice(b"WebAppData").expect("any key length");
    mac.update(token.expose().as_bytes());
    mac.finalize().into_bytes().to_vec()
}

/// 32 bytes from 64 hex digits.
fn hex_bytes(hex: &str) -> Option<Vec<u8>> {
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..32)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok())
        .collect()
}

/// Whether `start` may be a game page's key from `start_param`: what Telegram allows in
/// `startapp` (A-Z a-z 0-9 _ -, up to 64 characters), so the page can put it in a path.
pub fn is_start_param(start: &str) -> bool {
    (1..=64).contains(&start.len())
        && start
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

#[cfg(test)]
#[path = "telegram_tests.rs"]
mod tests;
