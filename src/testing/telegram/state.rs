//! What the fake Telegram remembers (updates, messages, chats, queries, scripted failures),
//! and the Message objects it shows the bot.

use super::flood::FloodControl;
use super::Call;
use super::{StoredMessage, BOT_ID, BOT_USERNAME};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

/// A failure the next matching call gets instead of its normal answer.
#[derive(Clone, Debug)]
pub(super) struct ScriptedFailure {
    pub(super) method: String,
    pub(super) status: u16,
    pub(super) body: Value,
}

#[derive(Default)]
pub(super) struct InlineQueryState {
    pub(super) from: Value,
    pub(super) query: String,
    pub(super) answered: bool,
    pub(super) results: Vec<Value>,
    /// The button shown above the results, if the answer had one.
    pub(super) button: Option<Value>,
}

pub(super) struct Webhook {
    pub(super) url: String,
    pub(super) secret: Option<String>,
}

pub(super) struct FakeState {
    pub(super) token: String,
    pub(super) next_update_id: i64,
    /// Updates not yet confirmed by a getUpdates offset.
    pub(super) updates: VecDeque<(i64, Value)>,
    /// The highest update id the bot confirmed (offset - 1).
    pub(super) confirmed: i64,
    pub(super) calls: Vec<Call>,
    /// By (chat, message id): ordered, so one chat's messages are a range, not a walk
    /// through every message of the run.
    pub(super) messages: BTreeMap<(i64, i64), StoredMessage>,
    pub(super) next_message_id: HashMap<i64, i64>,
    pub(super) inline_messages: HashMap<String, StoredMessage>,
    /// Chats the bot may write to.
    pub(super) chats: HashMap<i64, Value>,
    pub(super) callback_queries: HashMap<String, bool>,
    pub(super) inline_queries: HashMap<String, InlineQueryState>,
    pub(super) failures: Vec<ScriptedFailure>,
    pub(super) webhook: Option<Webhook>,
    pub(super) allow_http_webhook: bool,
    pub(super) commands: HashMap<String, Value>,
    pub(super) next_id: u64,
    /// Webhook deliveries by update id: the HTTP status the bot answered.
    pub(super) deliveries: Vec<(i64, u16)>,
    /// Chats whose every post is answered 429 with this retry_after (a test's script).
    pub(super) flooded: HashMap<i64, u64>,
    /// The bot's Mini Apps (`/newapp`): short name -> the URL it opens.
    pub(super) mini_apps: HashMap<String, String>,
    /// Telegram's own flood limits (flood.rs).
    pub(super) flood_control: FloodControl,
    /// Per mille of posts that fail at random (429, 500, 502), and the generator's state.
    pub(super) chaos: (u32, u64),
    /// Users Telegram knows (they wrote or pressed somewhere), as User objects.
    pub(super) users: HashMap<i64, Value>,
    /// Membership by (chat, user): `creator`, `administrator`, `member`, `restricted`,
    /// `left` or `kicked`. A user who wrote in a group is a member unless set otherwise.
    pub(super) members: HashMap<(i64, i64), String>,
    /// The bot's reactions (emoji) by (chat, message), as setMessageReaction left them.
    pub(super) reactions: HashMap<(i64, i64), Vec<String>>,
}

pub(super) struct Shared {
    pub(super) state: Mutex<FakeState>,
    pub(super) changed: Condvar,
    pub(super) new_update: tokio::sync::Notify,
}

impl Shared {
    pub(super) fn lock(&self) -> MutexGuard<'_, FakeState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

pub(super) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

pub(super) fn bot_user() -> Value {
    json!({"id": BOT_ID, "is_bot": true, "first_name": "Toguz", "username": BOT_USERNAME})
}

pub(super) fn bot_messages(st: &FakeState, chat: i64) -> Vec<StoredMessage> {
    st.messages
        .range((chat, i64::MIN)..=(chat, i64::MAX))
        .map(|(_, m)| m)
        .filter(|m| m.from["id"] == json!(BOT_ID))
        .cloned()
        .collect()
}

pub(super) fn next_message_id(st: &mut FakeState, chat: i64) -> i64 {
    let n = st.next_message_id.entry(chat).or_insert(1);
    let id = *n;
    *n += 1;
    id
}

/// Entities Telegram attaches: a leading /command and @mentions.
pub(super) fn entities(text: &str) -> Vec<Value> {
    let mut out = vec![];
    let utf16 = |s: &str| s.encode_utf16().count();
    if text.starts_with('/') {
        let len = text.find(char::is_whitespace).unwrap_or(text.len());
        out.push(json!({"type": "bot_command", "offset": 0, "length": utf16(&text[..len])}));
    }
    let mut pos = 0;
    while let Some(at) = text[pos..].find('@') {
        let start = pos + at;
        let rest = &text[start + 1..];
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let in_command = text.starts_with('/') && !text[..start].contains(char::is_whitespace);
        if len >= 5 && !in_command {
            out.push(json!({"type": "mention", "offset": utf16(&text[..start]),
                "length": len + 1}));
        }
        pos = start + 1 + len;
    }
    out
}

pub(super) fn message_json(st: &FakeState, m: &StoredMessage) -> Value {
    let chat = st
        .chats
        .get(&m.chat_id)
        .cloned()
        .unwrap_or_else(|| json!({"id": m.chat_id, "type": "private", "first_name": "?"}));
    let mut v = json!({"message_id": m.message_id, "date": m.date, "chat": chat,
        "from": m.from});
    if let Some(t) = &m.text {
        v["text"] = json!(t);
    }
    if let Some(c) = &m.caption {
        v["caption"] = json!(c);
    }
    if let Some(p) = &m.photo {
        v["photo"] = json!([{"file_id": format!("F{p}"), "file_unique_id": format!("U{p}"),
            "width": m.photo_size.0, "height": m.photo_size.1, "file_size": 1000}]);
    }
    if let Some((name, bytes)) = &m.document {
        let id = hash(bytes);
        v["document"] = json!({"file_id": format!("D{id}"), "file_unique_id": format!("U{id}"),
            "file_name": name, "file_size": bytes.len()});
    }
    if let Some(k) = &m.reply_markup {
        v["reply_markup"] = k.clone();
    }
    if let Some(c) = &m.sender_chat {
        v["sender_chat"] = c.clone();
    }
    if m.edits > 0 {
        v["edit_date"] = json!(now());
    }
    if let Some(r) = m.reply_to.and_then(|r| st.messages.get(&(m.chat_id, r))) {
        // Telegram nests one level only.
        let mut inner = r.clone();
        inner.reply_to = None;
        v["reply_to_message"] = message_json(st, &inner);
    }
    v
}

pub(super) fn hash(bytes: &[u8]) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    format!("{:016x}", h.finish())
}
