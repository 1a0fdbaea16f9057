//! A fake Discord on 127.0.0.1 for tests: REST under `/api/v10` and a gateway websocket.
//!
//! It is as strict as the real service where a bot can go wrong: unknown tokens get 401,
//! interaction callbacks are answered once, within 3 seconds, with types allowed for the
//! interaction, 204; multipart uploads must match the `attachments` of `payload_json`; command
//! registration rejects what Discord rejects (names, lengths, locales such as `kk`: 50035);
//! messages are checked against Discord's limits (content, embeds, components, custom_ids).
//! Gateway: Hello, Identify (token, no privileged intents, shard) -> READY with every field
//! serenity needs, heartbeats and ACKs, then scripted `INTERACTION_CREATE` events.
//!
//! It keeps Discord's rate limits (`limits`: 5 message creates, and apart 5 edits, per 5 s
//! per channel; 50 requests a second in all), with the `x-ratelimit-*` headers on every
//! answer of a limited route and Discord's 429 (`retry_after`, `global`) over one; refusals
//! are kept for the test (`rate_limit_refusals`). A test lifts them only with a reason
//! (`lift_limits(Lifted::because(..))`).
//!
//! Every REST call is recorded for assertions; failures (429 with `retry_after`, 5xx) can be
//! scripted for the next matching calls.
//!
//! The pieces: `fake` (the handle a test holds: interactions it sends, failures it scripts,
//! what it reads back), `gateway` (the websocket sessions), `rest` (routing, auth, rate
//! limits, scripted and random failures, recording), `limits` (Discord's rate limits and
//! their arithmetic), `reply` (Discord's error bodies), `body` (JSON and multipart bodies as
//! Discord takes them), `commands` (command registration), `messages` (interaction callbacks, webhooks,
//! messages and their attachments), `checks` (Discord's limits on embeds and components),
//! `state` (what the fake remembers), `oauth` (an Activity's OAuth2 code exchange and
//! `users/@me`), `bot` (the real bot against it).

mod body;
pub mod bot;
mod checks;
mod commands;
mod fake;
mod gateway;
pub mod limits;
mod messages;
mod oauth;
mod reply;
mod rest;
mod state;

pub use fake::FakeDiscord;
pub use limits::Refusal;
pub use oauth::CLIENT_SECRET;

use serde_json::{json, Value};
use std::time::Instant;

/// A valid-looking bot token the fake accepts.
pub const TOKEN: &str = "MTEwMDAwMDAwMDAwMDAwMDAx.GfAkEd.fake-discord-token-0123456789abcdef";
pub const APP_ID: u64 = 1_100_000_000_000_000_001;
const TIMESTAMP: &str = "2026-11-30T07:00:00.000000+00:00";

/// A Discord user the test plays.
#[derive(Clone, Debug)]
pub struct User {
    pub id: u64,
    pub name: String,
    /// A bot account (another application's bot, or ours): `bot: true` in its user object.
    pub bot: bool,
}

impl User {
    pub fn new(id: u64, name: &str) -> User {
        User {
            id,
            name: name.to_string(),
            bot: false,
        }
    }
    /// Another application's bot, as Discord shows it in `resolved.users`.
    pub fn bot_account(id: u64, name: &str) -> User {
        User {
            bot: true,
            ..User::new(id, name)
        }
    }
    fn json(&self) -> Value {
        json!({
            "id": self.id.to_string(), "username": self.name.to_lowercase(),
            "global_name": self.name, "discriminator": "0", "avatar": null,
            "public_flags": 0, "bot": self.bot,
        })
    }
    pub fn mention(&self) -> String {
        format!("<@{}>", self.id)
    }
}

/// Where an interaction happens: a guild channel or a DM channel.
#[derive(Clone, Copy, Debug)]
pub enum Place {
    Guild { guild: u64, channel: u64 },
    Dm { channel: u64 },
}

impl Place {
    pub fn channel(&self) -> u64 {
        match *self {
            Place::Guild { channel, .. } | Place::Dm { channel } => channel,
        }
    }
    fn guild(&self) -> Option<u64> {
        match *self {
            Place::Guild { guild, .. } => Some(guild),
            Place::Dm { .. } => None,
        }
    }
}

/// A file uploaded with a request.
#[derive(Clone, Debug)]
pub struct Upload {
    pub field: String,
    pub filename: String,
    /// The part's Content-Type (what the client declared for the file).
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// One REST call as the fake saw it.
#[derive(Clone, Debug)]
pub struct Call {
    pub method: String,
    /// Without the `/api/v10` prefix, without the query.
    pub path: String,
    pub status: u16,
    /// The JSON body or the multipart `payload_json`.
    pub json: Option<Value>,
    pub files: Vec<Upload>,
    pub at: Instant,
}

impl Call {
    /// The interaction callback type (4, 5, 6, 7) of a callback call.
    pub fn callback_type(&self) -> Option<u64> {
        self.json.as_ref()?.get("type")?.as_u64()
    }
    /// The message data of a callback, or the body of a message create/edit.
    pub fn message_data(&self) -> Option<&Value> {
        let json = self.json.as_ref()?;
        if self.path.ends_with("/callback") {
            json.get("data")
        } else {
            Some(json)
        }
    }
    pub fn is_ephemeral(&self) -> bool {
        self.message_data()
            .and_then(|d| d.get("flags"))
            .and_then(Value::as_u64)
            .is_some_and(|f| f & 64 != 0)
    }
}

/// A scripted failure for the next calls that match.
#[derive(Clone, Debug)]
pub enum Failure {
    /// 429 with `retry_after` seconds.
    RateLimit { retry_after: f64, global: bool },
    /// A server error status (500, 502, 503, 504).
    Server(u16),
    /// 404 "Unknown interaction" (10062), as Discord answers an interaction response that
    /// comes after its 3 s (say the event reached the bot late); nothing is taken.
    UnknownInteraction,
    /// 403 Missing Access (the bot lost a permission): a refusal, not worth retrying.
    MissingAccess,
}

/// Every button of a message.
pub fn buttons(message: &Value) -> Vec<Value> {
    message["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .collect()
}

/// The custom_id of the first pit button of a board that may be pressed (`1m:...`).
pub fn first_legal_pit(message: &Value) -> Option<String> {
    buttons(message).into_iter().find_map(|b| {
        let id = b["custom_id"].as_str()?;
        (b["disabled"] != true && id.starts_with("1m:")).then(|| id.to_string())
    })
}

/// Which of `players` a board mentions as the one to move.
pub fn to_move<'a>(message: &Value, players: [&'a User; 2]) -> Option<&'a User> {
    let text = message["content"].as_str().unwrap_or_default();
    players.into_iter().find(|u| text.contains(&u.mention()))
}

/// True when `v` is the snowflake string of `id`.
fn is_id(v: &Value, id: u64) -> bool {
    v.as_str().and_then(|s| s.parse::<u64>().ok()) == Some(id)
}

pub fn id_of(v: &Value) -> u64 {
    v["id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .or_else(|| v["id"].as_u64())
        .unwrap_or(0)
}

/// True when `bytes` is a PNG the `png` crate decodes completely.
pub fn is_valid_png(bytes: &[u8]) -> bool {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let Ok(mut reader) = decoder.read_info() else {
        return false;
    };
    let mut buf = vec![0; reader.output_buffer_size()];
    reader.next_frame(&mut buf).is_ok()
}
