//! What the fake Discord remembers: calls, interactions, messages, channels, commands,
//! gateway sessions, scripted and random failures.

use super::limits::RateLimits;
use super::{Call, Failure, User, APP_ID, TIMESTAMP};
use serde_json::{json, Value};
use std::collections::{BTreeSet, HashMap};
use std::net::SocketAddr;
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;
use tokio::sync::{mpsc, watch};

pub(super) struct Scripted {
    pub(super) method: String,
    pub(super) path_contains: String,
    pub(super) failure: Failure,
    pub(super) remaining: u32,
}

pub(super) struct Interaction {
    pub(super) token: String,
    pub(super) kind: u8,
    pub(super) created: Instant,
    pub(super) acked: Option<u64>,
    pub(super) channel: u64,
    /// The message a component sits on.
    pub(super) component_message: Option<u64>,
    /// The message `@original` refers to, once there is one.
    pub(super) original: Option<u64>,
    pub(super) user: Value,
}

pub(super) struct Session {
    pub(super) shard: [u64; 2],
    pub(super) tx: mpsc::UnboundedSender<Value>,
    pub(super) seq: u64,
}

/// Random failures of a share of the REST calls (a soak test's weather).
pub(super) struct Chaos {
    /// Per thousand calls.
    pub(super) per_mille: u32,
    pub(super) rng: rand::rngs::StdRng,
}

#[derive(Default)]
pub(super) struct FakeState {
    pub(super) calls: Vec<Call>,
    /// The successful callback of each interaction.
    pub(super) callbacks: HashMap<u64, Call>,
    pub(super) chaos: Option<Chaos>,
    /// Discord's rate limits (limits.rs).
    pub(super) rate_limits: RateLimits,
    /// Record calls without their files and bodies (long soak runs).
    pub(super) light: bool,
    pub(super) failures: Vec<Scripted>,
    pub(super) interactions: HashMap<u64, Interaction>,
    /// token -> interaction id: webhooks name the interaction by its token only.
    pub(super) tokens: HashMap<String, u64>,
    /// Private to `put_message`/`remove_message`, which keep `by_channel` in step.
    messages: HashMap<u64, Value>,
    /// channel id -> its messages' ids, oldest first: finding a message in a channel must
    /// not walk every message of every channel (a long soak holds tens of thousands).
    by_channel: HashMap<u64, BTreeSet<u64>>,
    /// The bytes of each uploaded attachment by its id, as the CDN serves them (not kept
    /// when recording lightly). Not in the message JSON: Discord never sends them there.
    pub(super) files: HashMap<u64, Vec<u8>>,
    /// channel id -> guild id (None: a DM channel).
    pub(super) channels: HashMap<u64, Option<u64>>,
    /// The DM channels the bot opened (POST /users/@me/channels): user id -> channel id,
    /// and users who do not take DMs from the bot (closed DMs, the bot blocked): a message
    /// to them is refused as Discord does (403, 50007).
    pub(super) dms: DmChannels,
    pub(super) global_commands: Vec<Value>,
    pub(super) guild_commands: HashMap<u64, Vec<Value>>,
    pub(super) sessions: Vec<Session>,
    pub(super) identifies: Vec<Value>,
    /// Shards GET /gateway/bot recommends.
    pub(super) recommended_shards: u64,
    pub(super) next_id: u64,
    /// Member permissions by user id, for interactions in a guild (default: the
    /// `member_json` set, without Manage Server).
    pub(super) permissions: HashMap<u64, u64>,
    /// Client locales by user id (default `en-US`).
    pub(super) locales: HashMap<u64, String>,
    /// OAuth2 codes and access tokens (an Activity's sign-in).
    pub(super) oauth: super::oauth::OAuth,
    /// Whether the application has Activities enabled (the Developer Portal's switch):
    /// LAUNCH_ACTIVITY is refused without it.
    pub(super) activities: bool,
}

#[derive(Default)]
pub(super) struct DmChannels {
    pub(super) by_user: HashMap<u64, u64>,
    pub(super) closed: std::collections::HashSet<u64>,
}

impl DmChannels {
    /// The user a DM channel the bot opened is with.
    pub(super) fn recipient(&self, channel: u64) -> Option<u64> {
        self.by_user
            .iter()
            .find_map(|(user, c)| (*c == channel).then_some(*user))
    }
}

impl FakeState {
    pub(super) fn snowflake(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    pub(super) fn message(&self, id: u64) -> Option<&Value> {
        self.messages.get(&id)
    }

    /// Stores (or replaces) message `id`; its `channel_id` files it under its channel.
    pub(super) fn put_message(&mut self, id: u64, message: Value) {
        if let Some(channel) = channel_of(&message) {
            self.by_channel.entry(channel).or_default().insert(id);
        }
        self.messages.insert(id, message);
    }

    pub(super) fn remove_message(&mut self, id: u64) -> Option<Value> {
        let message = self.messages.remove(&id)?;
        if let Some(channel) = channel_of(&message) {
            if let Some(ids) = self.by_channel.get_mut(&channel) {
                ids.remove(&id);
            }
        }
        Some(message)
    }

    /// The messages of `channel`, newest first.
    pub(super) fn channel_messages(&self, channel: u64) -> impl Iterator<Item = &Value> {
        self.by_channel
            .get(&channel)
            .into_iter()
            .flat_map(|ids| ids.iter().rev())
            .filter_map(|id| self.messages.get(id))
    }
}

fn channel_of(message: &Value) -> Option<u64> {
    message["channel_id"].as_str()?.parse().ok()
}

pub(super) struct Shared {
    pub(super) addr: SocketAddr,
    pub(super) state: Mutex<FakeState>,
    pub(super) version: watch::Sender<u64>,
}

impl Shared {
    pub(super) fn lock(&self) -> MutexGuard<'_, FakeState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
    pub(super) fn bump(&self) {
        self.version.send_modify(|v| *v += 1);
    }
}

pub(super) fn bot_user() -> Value {
    json!({
        "id": APP_ID.to_string(), "username": "toguz", "global_name": null,
        "discriminator": "0", "avatar": null, "bot": true, "public_flags": 0,
        "verified": true, "mfa_enabled": false, "flags": 0,
    })
}

pub(super) fn member_json(user: Option<&User>) -> Value {
    let mut m = json!({
        "nick": null, "avatar": null, "roles": [], "joined_at": TIMESTAMP,
        "premium_since": null, "deaf": false, "mute": false, "flags": 0, "pending": false,
        "permissions": "2248473465835073", "communication_disabled_until": null,
    });
    if let Some(user) = user {
        m["user"] = user.json();
    }
    m
}
