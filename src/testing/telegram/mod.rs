//! A fake Telegram Bot API server on 127.0.0.1 for tests.
//!
//! It is as strict as the real Bot API where a bot can go wrong: methods are matched
//! case-insensitively under `/bot<token>/`, parameters come as a query string, JSON, urlencoded
//! or multipart form, and every mistake gets Telegram's own error body
//! (`{"ok":false,"error_code":400,"description":"Bad Request: ..."}`) with the descriptions
//! teloxide recognises. Uploaded photos must be valid PNGs, `callback_data` is 1..64 bytes,
//! an edit that changes nothing is "message is not modified", a callback query can be
//! answered once, a private chat exists only after the user wrote to the bot.
//!
//! It keeps Telegram's flood limits (`flood`: 20 messages a minute into a group, about one a
//! second into a private chat, about 30 a second in all), answering a post over one with
//! Telegram's 429 and `retry_after`, posting nothing, and keeping the refusal for the test
//! (`flood_refusals`). A test lifts them only with a reason (`lift_limits(Lifted::because(..))`).
//!
//! Tests script updates (messages, commands, button presses, inline queries, chosen inline
//! results), script failures (e.g. a 429 with `retry_after`), and read every recorded call.
//! The server runs on its own thread and runtime, so tests may be plain `#[test]` functions.
//!
//! The pieces: `fake` (the server's handle: scripting updates and failures, reading calls
//! and messages), `http` (routing, scripted failures and flood control, getUpdates and
//! webhook delivery), `flood` (Telegram's flood limits and their arithmetic), `params` (a
//! request's parameters in any of its encodings), `methods`
//! (each Bot API method on the fake's state), `checks` (Telegram's limits on text, markup and
//! photos), `state` (what the fake remembers), `bot` (the real `toguz run` against it).

pub mod bot;
mod checks;
mod fake;
pub mod flood;
mod http;
pub mod inproc;
mod methods;
pub mod mini_app;
mod params;
mod state;

pub use checks::check_png;
pub use fake::{FakeTelegram, FakeView};
pub use flood::{Limit, Refusal};

use params::{value_i64, value_str};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::time::Instant;

/// The bot's own user id and username in every fake.
pub const BOT_ID: i64 = 7_000_000_001;
pub const BOT_USERNAME: &str = "toguz_test_bot";

/// The user id Telegram gives every anonymous group admin's message (`sender_chat` is the
/// group), and the one of every message sent on behalf of a channel (`sender_chat` is the
/// channel).
pub const GROUP_ANONYMOUS_BOT_ID: i64 = 1_087_968_824;
pub const CHANNEL_BOT_ID: i64 = 136_817_688;

/// A user of the fake Telegram.
#[derive(Clone, Debug)]
pub struct TgUser {
    pub id: i64,
    pub is_bot: bool,
    pub first_name: String,
    pub username: Option<String>,
    pub language_code: Option<String>,
}

impl TgUser {
    pub fn new(id: i64, first_name: &str, username: &str, language_code: &str) -> TgUser {
        TgUser {
            id,
            is_bot: false,
            first_name: first_name.to_string(),
            username: (!username.is_empty()).then(|| username.to_string()),
            language_code: (!language_code.is_empty()).then(|| language_code.to_string()),
        }
    }

    /// Another bot (Telegram shows bots' messages to bots only in a few cases, such as a
    /// reply to them; it names them as users with `is_bot`).
    pub fn bot(id: i64, first_name: &str, username: &str) -> TgUser {
        TgUser {
            is_bot: true,
            ..TgUser::new(id, first_name, username, "")
        }
    }

    /// Who Telegram names as the sender of an anonymous group admin's message.
    pub fn group_anonymous_bot() -> TgUser {
        TgUser::bot(GROUP_ANONYMOUS_BOT_ID, "Group", "GroupAnonymousBot")
    }

    /// Who Telegram names as the sender of a message sent on behalf of a channel.
    pub fn channel_bot() -> TgUser {
        TgUser::bot(CHANNEL_BOT_ID, "Channel", "Channel_Bot")
    }

    fn json(&self) -> Value {
        let mut v = json!({"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name});
        if let Some(u) = &self.username {
            v["username"] = json!(u);
        }
        if let Some(l) = &self.language_code {
            v["language_code"] = json!(l);
        }
        v
    }
}

/// A chat: a user's private chat with the bot, or a group.
#[derive(Clone, Debug)]
pub struct TgChat {
    pub id: i64,
    json: Value,
}

impl TgChat {
    pub fn private(user: &TgUser) -> TgChat {
        let mut json = json!({"id": user.id, "type": "private", "first_name": user.first_name});
        if let Some(u) = &user.username {
            json["username"] = json!(u);
        }
        TgChat { id: user.id, json }
    }

    /// A channel (the sender chat of posts made on its behalf).
    pub fn channel(id: i64, title: &str) -> TgChat {
        assert!(id < 0, "channel ids are negative");
        TgChat {
            id,
            json: json!({"id": id, "type": "channel", "title": title}),
        }
    }

    pub fn group(id: i64, title: &str) -> TgChat {
        assert!(id < 0, "group chat ids are negative");
        TgChat {
            id,
            json: json!({"id": id, "type": "supergroup", "title": title}),
        }
    }
}

/// One request the bot made, with the fake's answer.
#[derive(Clone, Debug)]
pub struct Call {
    /// Telegram's spelling of the method, e.g. `editMessageMedia`.
    pub method: String,
    /// All parameters as one JSON object; JSON-valued form fields (reply_markup, media) are
    /// parsed, other form fields stay strings.
    pub params: Value,
    /// Uploaded files by form field name.
    pub files: HashMap<String, Vec<u8>>,
    pub status: u16,
    pub response: Value,
    pub at: Instant,
}

impl Call {
    pub fn ok(&self) -> bool {
        self.status == 200
    }
    /// A parameter as text (numbers are printed).
    pub fn str(&self, key: &str) -> Option<String> {
        value_str(self.params.get(key)?)
    }
    pub fn i64(&self, key: &str) -> Option<i64> {
        value_i64(self.params.get(key)?)
    }
    /// The `reply_markup` parameter, or for editMessageMedia also the media's markup.
    pub fn reply_markup(&self) -> Option<Value> {
        self.params.get("reply_markup").cloned()
    }
    /// `callback_data` of every inline keyboard button, row by row.
    pub fn buttons(&self) -> Vec<(String, String)> {
        self.reply_markup()
            .map(|m| keyboard_buttons(&m))
            .unwrap_or_default()
    }
    /// The uploaded photo of sendPhoto or editMessageMedia, if any.
    pub fn photo_bytes(&self) -> Option<&[u8]> {
        if let Some(name) = self.str("photo") {
            if let Some(name) = name.strip_prefix("attach://") {
                return self.files.get(name).map(Vec::as_slice);
            }
        }
        if let Some(media) = self.params.get("media") {
            let name = media.get("media").and_then(Value::as_str)?;
            return self
                .files
                .get(name.strip_prefix("attach://")?)
                .map(Vec::as_slice);
        }
        self.files.get("photo").map(Vec::as_slice)
    }
    /// Caption of sendPhoto/editMessageCaption or of editMessageMedia's media.
    pub fn caption(&self) -> Option<String> {
        self.str("caption").or_else(|| {
            self.params
                .get("media")?
                .get("caption")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
    }
}

/// `(text, callback_data)` of every button of an inline keyboard that has callback data.
pub fn keyboard_buttons(markup: &Value) -> Vec<(String, String)> {
    let mut out = vec![];
    for row in markup
        .get("inline_keyboard")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        for b in row.as_array().into_iter().flatten() {
            if let (Some(t), Some(d)) = (
                b.get("text").and_then(Value::as_str),
                b.get("callback_data").and_then(Value::as_str),
            ) {
                out.push((t.to_string(), d.to_string()));
            }
        }
    }
    out
}

/// A message as the fake stores it.
#[derive(Clone, Debug)]
pub struct StoredMessage {
    pub chat_id: i64,
    pub message_id: i64,
    pub from: Value,
    pub date: i64,
    pub text: Option<String>,
    pub caption: Option<String>,
    /// Hash of the photo's bytes (or its file_id when sent by reference).
    pub photo: Option<String>,
    pub photo_size: (u32, u32),
    /// A sent document: its file name and bytes.
    pub document: Option<(String, Vec<u8>)>,
    pub reply_markup: Option<Value>,
    pub edits: u32,
    pub reply_to: Option<i64>,
    /// The chat a message was sent on behalf of (anonymous admins, channels).
    pub sender_chat: Option<Value>,
}

impl StoredMessage {
    pub fn buttons(&self) -> Vec<(String, String)> {
        self.reply_markup
            .as_ref()
            .map(keyboard_buttons)
            .unwrap_or_default()
    }
}
