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
//! Tests script updates (messages, commands, button presses, inline queries, chosen inline
//! results), script failures (e.g. a 429 with `retry_after`), and read every recorded call.
//! The server runs on its own thread and runtime, so tests may be plain `#[test]` functions.
#![allow(dead_code)]

pub mod bot;

use axum::body::Bytes;
use axum::extract::{FromRequest, Path, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Map, Value};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The bot's own user id and username in every fake.
pub const BOT_ID: i64 = 7_000_000_001;
pub const BOT_USERNAME: &str = "toguz_test_bot";

/// The user id Telegram gives every anonymous group admin's message (`sender_chat` is the
/// group), and the one of every message sent on behalf of a channel (`sender_chat` is the
/// channel).
pub const GROUP_ANONYMOUS_BOT_ID: i64 = 1_087_968_824;
pub const CHANNEL_BOT_ID: i64 = 136_817_688;

/// Methods that post into a chat, which Telegram's flood control answers with 429.
const POSTING: &[&str] = &[
    "sendMessage",
    "sendPhoto",
    "sendDocument",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
    "deleteMessage",
];

/// Methods the fake knows, in Telegram's spelling (matched case-insensitively).
const METHODS: &[&str] = &[
    "getMe",
    "logOut",
    "close",
    "getUpdates",
    "setWebhook",
    "deleteWebhook",
    "getWebhookInfo",
    "sendMessage",
    "sendPhoto",
    "sendDocument",
    "sendChatAction",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
    "deleteMessage",
    "answerCallbackQuery",
    "answerInlineQuery",
    "setMyCommands",
    "getMyCommands",
    "deleteMyCommands",
    "setChatMenuButton",
];

const NOT_MODIFIED: &str = "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message";
const INVALID_QUERY: &str =
    "Bad Request: query is too old and response timeout expired or query id is invalid";

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

/// A failure the next matching call gets instead of its normal answer.
#[derive(Clone, Debug)]
struct ScriptedFailure {
    method: String,
    status: u16,
    body: Value,
}

#[derive(Default)]
struct InlineQueryState {
    from: Value,
    query: String,
    answered: bool,
    results: Vec<Value>,
}

struct Webhook {
    url: String,
    secret: Option<String>,
}

struct FakeState {
    token: String,
    next_update_id: i64,
    /// Updates not yet confirmed by a getUpdates offset.
    updates: VecDeque<(i64, Value)>,
    /// The highest update id the bot confirmed (offset - 1).
    confirmed: i64,
    calls: Vec<Call>,
    messages: HashMap<(i64, i64), StoredMessage>,
    next_message_id: HashMap<i64, i64>,
    inline_messages: HashMap<String, StoredMessage>,
    /// Chats the bot may write to.
    chats: HashMap<i64, Value>,
    callback_queries: HashMap<String, bool>,
    inline_queries: HashMap<String, InlineQueryState>,
    failures: Vec<ScriptedFailure>,
    webhook: Option<Webhook>,
    allow_http_webhook: bool,
    commands: HashMap<String, Value>,
    next_id: u64,
    /// Webhook deliveries by update id: the HTTP status the bot answered.
    deliveries: Vec<(i64, u16)>,
    /// Chats whose every post is answered 429 with this retry_after (flood control).
    flooded: HashMap<i64, u64>,
    /// Per mille of posts that fail at random (429, 500, 502), and the generator's state.
    chaos: (u32, u64),
}

struct Shared {
    state: Mutex<FakeState>,
    changed: Condvar,
    new_update: tokio::sync::Notify,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, FakeState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The running fake server. Dropping it stops the server.
pub struct FakeTelegram {
    shared: Arc<Shared>,
    /// Base URL for the bot's `api_url`, e.g. `http://127.0.0.1:41234`.
    pub url: String,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for FakeTelegram {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

fn bot_user() -> Value {
    json!({"id": BOT_ID, "is_bot": true, "first_name": "Toguz", "username": BOT_USERNAME})
}

impl FakeTelegram {
    /// Starts a fake on a free loopback port that accepts `token`.
    pub fn start(token: &str) -> FakeTelegram {
        let shared = Arc::new(Shared {
            state: Mutex::new(FakeState {
                token: token.to_string(),
                next_update_id: 100,
                updates: VecDeque::new(),
                confirmed: 0,
                calls: vec![],
                messages: HashMap::new(),
                next_message_id: HashMap::new(),
                inline_messages: HashMap::new(),
                chats: HashMap::new(),
                callback_queries: HashMap::new(),
                inline_queries: HashMap::new(),
                failures: vec![],
                webhook: None,
                allow_http_webhook: false,
                commands: HashMap::new(),
                next_id: 1,
                deliveries: vec![],
                flooded: HashMap::new(),
                chaos: (0, 0x9e37_79b9_7f4a_7c15),
            }),
            changed: Condvar::new(),
            new_update: tokio::sync::Notify::new(),
        });
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        listener.set_nonblocking(true).expect("nonblocking");
        let url = format!("http://{}", listener.local_addr().expect("local addr"));
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let app_shared = shared.clone();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
                let app = axum::Router::new()
                    .route("/{bot}/{method}", axum::routing::any(handle))
                    .with_state(app_shared.clone());
                tokio::spawn(webhook_delivery(app_shared));
                let _ = axum::serve(listener, app)
                    .with_graceful_shutdown(async {
                        let _ = rx.await;
                    })
                    .await;
            });
        });
        FakeTelegram {
            shared,
            url,
            shutdown: Some(tx),
            thread: Some(thread),
        }
    }

    fn lock(&self) -> MutexGuard<'_, FakeState> {
        self.shared.lock()
    }

    /// Lets setWebhook accept plain `http://` URLs (the test bot has no TLS certificate).
    pub fn allow_http_webhook(&self) {
        self.lock().allow_http_webhook = true;
    }

    fn push_update(&self, st: &mut FakeState, body: Value) -> i64 {
        let id = st.next_update_id;
        st.next_update_id += 1;
        let mut update = body;
        update["update_id"] = json!(id);
        st.updates.push_back((id, update));
        self.shared.new_update.notify_waiters();
        self.shared.changed.notify_all();
        id
    }

    fn fresh_id(st: &mut FakeState, prefix: &str) -> String {
        st.next_id += 1;
        format!("{prefix}{}", st.next_id)
    }

    /// A user writes `text` in `chat`; commands and @mentions get their entities. Returns the
    /// message id.
    pub fn send_text(&self, chat: &TgChat, from: &TgUser, text: &str) -> i64 {
        self.send(chat, from, text, None)
    }

    /// A user writes `text` as a reply to message `reply_to` of `chat`.
    pub fn send_reply(&self, chat: &TgChat, from: &TgUser, text: &str, reply_to: i64) -> i64 {
        self.send(chat, from, text, Some(reply_to))
    }

    /// A message sent on behalf of `sender_chat`, as Telegram delivers it: from
    /// GroupAnonymousBot with the group as `sender_chat` for an anonymous admin, from
    /// Channel_Bot with the channel for "send as channel".
    pub fn send_as(
        &self,
        chat: &TgChat,
        sender_chat: &TgChat,
        from: &TgUser,
        text: &str,
        reply_to: Option<i64>,
    ) -> i64 {
        self.send_full(chat, from, text, reply_to, Some(sender_chat))
    }

    fn send(&self, chat: &TgChat, from: &TgUser, text: &str, reply_to: Option<i64>) -> i64 {
        self.send_full(chat, from, text, reply_to, None)
    }

    fn send_full(
        &self,
        chat: &TgChat,
        from: &TgUser,
        text: &str,
        reply_to: Option<i64>,
        sender_chat: Option<&TgChat>,
    ) -> i64 {
        let mut st = self.lock();
        st.chats.insert(chat.id, chat.json.clone());
        let message_id = next_message_id(&mut st, chat.id);
        let stored = StoredMessage {
            chat_id: chat.id,
            message_id,
            from: from.json(),
            date: now(),
            text: Some(text.to_string()),
            caption: None,
            photo: None,
            photo_size: (0, 0),
            document: None,
            reply_markup: None,
            edits: 0,
            reply_to,
            sender_chat: sender_chat.map(|c| c.json.clone()),
        };
        let mut msg = message_json(&st, &stored);
        msg["entities"] = json!(entities(text));
        st.messages.insert((chat.id, message_id), stored);
        self.push_update(&mut st, json!({"message": msg}));
        message_id
    }

    /// A user presses the button with `data` under message `message_id` of `chat` (the data
    /// need not be on the keyboard: forged presses are possible too). Returns the query id.
    pub fn press(&self, chat: &TgChat, message_id: i64, from: &TgUser, data: &str) -> String {
        let mut st = self.lock();
        let (id, update) = Self::press_json(&mut st, chat, message_id, from, data);
        self.push_update(&mut st, update);
        id
    }

    /// A button press as an update the test delivers itself (e.g. straight to a webhook):
    /// the query can be answered, but the update is not queued. Returns (query id, update).
    pub fn press_update(
        &self,
        chat: &TgChat,
        message_id: i64,
        from: &TgUser,
        data: &str,
    ) -> (String, Value) {
        let mut st = self.lock();
        let (id, mut update) = Self::press_json(&mut st, chat, message_id, from, data);
        update["update_id"] = json!(st.next_update_id);
        st.next_update_id += 1;
        (id, update)
    }

    fn press_json(
        st: &mut FakeState,
        chat: &TgChat,
        message_id: i64,
        from: &TgUser,
        data: &str,
    ) -> (String, Value) {
        let stored = st
            .messages
            .get(&(chat.id, message_id))
            .cloned()
            .unwrap_or_else(|| panic!("no message {message_id} in chat {}", chat.id));
        let message = message_json(st, &stored);
        let id = Self::fresh_id(st, "cq");
        st.callback_queries.insert(id.clone(), false);
        let q = json!({"id": id, "from": from.json(), "message": message,
            "chat_instance": format!("ci{}", chat.id), "data": data});
        (id, json!({"callback_query": q}))
    }

    /// A press on a button of an inline-mode message.
    pub fn press_inline(&self, inline_message_id: &str, from: &TgUser, data: &str) -> String {
        let mut st = self.lock();
        let id = Self::fresh_id(&mut st, "cq");
        st.callback_queries.insert(id.clone(), false);
        let q = json!({"id": id, "from": from.json(), "inline_message_id": inline_message_id,
            "chat_instance": "ci-inline", "data": data});
        self.push_update(&mut st, json!({"callback_query": q}));
        id
    }

    /// A user types `@bot query` somewhere. Returns the inline query id.
    pub fn inline_query(&self, from: &TgUser, query: &str) -> String {
        let mut st = self.lock();
        let id = Self::fresh_id(&mut st, "iq");
        st.inline_queries.insert(
            id.clone(),
            InlineQueryState {
                from: from.json(),
                query: query.to_string(),
                ..Default::default()
            },
        );
        let q = json!({"id": id, "from": from.json(), "query": query, "offset": "",
            "chat_type": "sender"});
        self.push_update(&mut st, json!({"inline_query": q}));
        id
    }

    /// The user picks result `result_id` of the answered inline query `query_id`: Telegram
    /// posts the result's message and, because it has an inline keyboard, tells the bot its
    /// inline_message_id. Returns that id.
    pub fn choose_inline_result(&self, query_id: &str, result_id: &str) -> String {
        self.send_inline_result(query_id, result_id, true)
    }

    /// The user picks a result, and Telegram posts its message; the bot is told only with
    /// `feedback` (inline feedback on in @BotFather). Returns the inline_message_id.
    pub fn send_inline_result(&self, query_id: &str, result_id: &str, feedback: bool) -> String {
        let mut st = self.lock();
        let q = st
            .inline_queries
            .get(query_id)
            .unwrap_or_else(|| panic!("no inline query {query_id}"));
        assert!(q.answered, "inline query {query_id} was not answered");
        let result = q
            .results
            .iter()
            .find(|r| r.get("id").and_then(Value::as_str) == Some(result_id))
            .cloned()
            .unwrap_or_else(|| panic!("no result {result_id}"));
        let (from, query) = (q.from.clone(), q.query.clone());
        let inline_id = Self::fresh_id(&mut st, "inl");
        let text = result
            .pointer("/input_message_content/message_text")
            .and_then(Value::as_str)
            .map(str::to_string);
        st.inline_messages.insert(
            inline_id.clone(),
            StoredMessage {
                chat_id: 0,
                message_id: 0,
                from: from.clone(),
                date: now(),
                text,
                caption: None,
                photo: None,
                photo_size: (0, 0),
                document: None,
                reply_markup: result.get("reply_markup").cloned(),
                edits: 0,
                reply_to: None,
                sender_chat: None,
            },
        );
        if feedback {
            let r = json!({"result_id": result_id, "from": from, "query": query,
                "inline_message_id": inline_id});
            self.push_update(&mut st, json!({"chosen_inline_result": r}));
        }
        inline_id
    }

    /// The next call of `method` fails with 429 and `retry_after` seconds.
    pub fn fail_next_with_429(&self, method: &str, retry_after: u64) {
        let body = json!({"ok": false, "error_code": 429,
            "description": format!("Too Many Requests: retry after {retry_after}"),
            "parameters": {"retry_after": retry_after}});
        self.lock().failures.push(ScriptedFailure {
            method: canonical(method).expect("known method").to_string(),
            status: 429,
            body,
        });
    }

    /// Every post into `chat` (sends, edits, deletes) is answered 429 with `retry_after`,
    /// as Telegram does to a chat over its flood limit, until `unflood`.
    pub fn flood(&self, chat: i64, retry_after: u64) {
        self.lock().flooded.insert(chat, retry_after);
    }

    pub fn unflood(&self, chat: i64) {
        self.lock().flooded.remove(&chat);
    }

    /// `per_mille` of all posts fail at random: a third each 429 (retry_after 1), 500 and
    /// 502, as Telegram's answers look under load. Deterministic for a given `seed`.
    pub fn chaos(&self, per_mille: u32, seed: u64) {
        self.lock().chaos = (per_mille, seed | 1);
    }

    /// How many calls the fake answered with `status`.
    pub fn count_status(&self, status: u16) -> usize {
        self.lock()
            .calls
            .iter()
            .filter(|c| c.status == status)
            .count()
    }

    /// The next call of `method` fails with `status` and `description`.
    pub fn fail_next(&self, method: &str, status: u16, description: &str) {
        let body = json!({"ok": false, "error_code": status, "description": description});
        self.lock().failures.push(ScriptedFailure {
            method: canonical(method).expect("known method").to_string(),
            status,
            body,
        });
    }

    /// Every call so far.
    pub fn calls(&self) -> Vec<Call> {
        self.lock().calls.clone()
    }

    /// How many calls were made so far: a mark for `wait_call`.
    pub fn mark(&self) -> usize {
        self.lock().calls.len()
    }

    /// Waits for the first call at index >= `since` that satisfies `pred`; returns its index
    /// and the call, or `None` after `timeout`.
    pub fn wait_call(
        &self,
        since: usize,
        timeout: Duration,
        pred: impl Fn(&Call) -> bool,
    ) -> Option<(usize, Call)> {
        let deadline = Instant::now() + timeout;
        let mut st = self.lock();
        loop {
            if let Some((i, c)) = st
                .calls
                .iter()
                .enumerate()
                .skip(since)
                .find(|(_, c)| pred(c))
            {
                return Some((i, c.clone()));
            }
            let left = deadline.checked_duration_since(Instant::now())?;
            st = self
                .shared
                .changed
                .wait_timeout(st, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Waits until `cond` holds on the fake's state (messages and calls), or `timeout`.
    /// `cond` runs under the fake's lock: use only the `FakeView` it gets.
    pub fn wait_until(&self, timeout: Duration, cond: impl Fn(&FakeView) -> bool) -> bool {
        let deadline = Instant::now() + timeout;
        let mut st = self.lock();
        loop {
            if cond(&FakeView { st: &st }) {
                return true;
            }
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                return false;
            };
            st = self
                .shared
                .changed
                .wait_timeout(st, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// The successful answerCallbackQuery for `query_id`, waiting up to `timeout`.
    pub fn wait_answer(&self, query_id: &str, timeout: Duration) -> Option<Call> {
        self.wait_call(0, timeout, |c| {
            c.method == "answerCallbackQuery"
                && c.ok()
                && c.str("callback_query_id").as_deref() == Some(query_id)
        })
        .map(|(_, c)| c)
    }

    pub fn message(&self, chat: i64, message_id: i64) -> Option<StoredMessage> {
        self.lock().messages.get(&(chat, message_id)).cloned()
    }

    pub fn inline_message(&self, id: &str) -> Option<StoredMessage> {
        self.lock().inline_messages.get(id).cloned()
    }

    /// Messages the bot sent to `chat`, oldest first.
    pub fn bot_messages(&self, chat: i64) -> Vec<StoredMessage> {
        bot_messages(&self.lock(), chat)
    }

    /// Commands registered with setMyCommands, by `<scope type>/<language code>`.
    pub fn commands(&self) -> HashMap<String, Value> {
        self.lock().commands.clone()
    }

    /// Webhook deliveries so far: (update id, HTTP status the bot answered).
    pub fn deliveries(&self) -> Vec<(i64, u16)> {
        self.lock().deliveries.clone()
    }

    /// The webhook URL and secret the bot registered.
    pub fn webhook(&self) -> Option<(String, Option<String>)> {
        self.lock()
            .webhook
            .as_ref()
            .map(|w| (w.url.clone(), w.secret.clone()))
    }
}

/// A read-only look at the fake's state, for `wait_until`.
pub struct FakeView<'a> {
    st: &'a FakeState,
}

impl FakeView<'_> {
    pub fn calls(&self) -> &[Call] {
        &self.st.calls
    }
    pub fn message(&self, chat: i64, message_id: i64) -> Option<&StoredMessage> {
        self.st.messages.get(&(chat, message_id))
    }
    pub fn inline_message(&self, id: &str) -> Option<&StoredMessage> {
        self.st.inline_messages.get(id)
    }
    /// Messages the bot sent to `chat`, oldest first.
    pub fn bot_messages(&self, chat: i64) -> Vec<StoredMessage> {
        bot_messages(self.st, chat)
    }
    /// Updates not yet confirmed by the bot.
    pub fn pending_updates(&self) -> usize {
        self.st.updates.len()
    }
}

fn bot_messages(st: &FakeState, chat: i64) -> Vec<StoredMessage> {
    let mut v: Vec<_> = st
        .messages
        .values()
        .filter(|m| m.chat_id == chat && m.from["id"] == json!(BOT_ID))
        .cloned()
        .collect();
    v.sort_by_key(|m| m.message_id);
    v
}

fn next_message_id(st: &mut FakeState, chat: i64) -> i64 {
    let n = st.next_message_id.entry(chat).or_insert(1);
    let id = *n;
    *n += 1;
    id
}

/// Entities Telegram attaches: a leading /command and @mentions.
fn entities(text: &str) -> Vec<Value> {
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

fn message_json(st: &FakeState, m: &StoredMessage) -> Value {
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

fn canonical(method: &str) -> Option<&'static str> {
    METHODS
        .iter()
        .find(|m| m.eq_ignore_ascii_case(method))
        .copied()
}

// ---------------------------------------------------------------------------------------
// The HTTP side.

/// An error answer exactly as Telegram shapes it.
#[derive(Debug)]
struct ApiError {
    status: u16,
    description: String,
}

fn bad(description: &str) -> ApiError {
    ApiError {
        status: 400,
        description: format!("Bad Request: {description}"),
    }
}

fn err_body(e: &ApiError) -> Value {
    json!({"ok": false, "error_code": e.status, "description": e.description})
}

type Params = Map<String, Value>;
type Files = HashMap<String, Vec<u8>>;

async fn handle(
    State(shared): State<Arc<Shared>>,
    Path((bot, method)): Path<(String, String)>,
    headers: HeaderMap,
    request: Request,
) -> Response {
    let token_ok = bot
        .strip_prefix("bot")
        .is_some_and(|t| t == shared.lock().token);
    let Some(method) = canonical(&method) else {
        let status = if token_ok { 404 } else { 401 };
        let description = if token_ok {
            "Not Found"
        } else {
            "Unauthorized"
        };
        return reply(
            status,
            json!({"ok": false, "error_code": status, "description": description}),
        );
    };
    let (params, files) = match read_params(&headers, request).await {
        Ok(p) => p,
        Err(e) => return reply(e.status, err_body(&e)),
    };
    if !token_ok {
        let body = json!({"ok": false, "error_code": 401, "description": "Unauthorized"});
        record(&shared, method, params, files, 401, body.clone());
        return reply(401, body);
    }
    let scripted = {
        let mut st = shared.lock();
        st.failures
            .iter()
            .position(|f| f.method == method)
            .map(|i| st.failures.remove(i))
    };
    let forced = scripted.map(|f| (f.status, f.body)).or_else(|| {
        let mut st = shared.lock();
        flood_or_chaos(&mut st, method, &params)
    });
    let (status, body) = if let Some(forced) = forced {
        forced
    } else if method == "getUpdates" {
        match get_updates(&shared, &params).await {
            Ok(v) => (200, json!({"ok": true, "result": v})),
            Err(e) => (e.status, err_body(&e)),
        }
    } else {
        let mut st = shared.lock();
        match dispatch(&mut st, method, &params, &files) {
            Ok(v) => (200, json!({"ok": true, "result": v})),
            Err(e) => (e.status, err_body(&e)),
        }
    };
    record(&shared, method, params, files, status, body.clone());
    reply(status, body)
}

/// A 429 for a flooded chat, or a random failure under `chaos`.
fn flood_or_chaos(st: &mut FakeState, method: &str, p: &Params) -> Option<(u16, Value)> {
    if !POSTING.contains(&method) {
        return None;
    }
    let chat = p.get("chat_id").and_then(value_i64);
    if let Some(retry) = chat.and_then(|c| st.flooded.get(&c)).copied() {
        return Some(too_many(retry));
    }
    let (per_mille, state) = &mut st.chaos;
    if *per_mille == 0 {
        return None;
    }
    // xorshift64: enough randomness for a test, and repeatable.
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    let roll = (*state % 3000) as u32;
    if roll >= *per_mille * 3 {
        return None;
    }
    Some(match roll % 3 {
        0 => too_many(1),
        1 => (
            500,
            json!({"ok": false, "error_code": 500, "description": "Internal Server Error"}),
        ),
        _ => (
            502,
            json!({"ok": false, "error_code": 502, "description": "Bad Gateway"}),
        ),
    })
}

fn too_many(retry_after: u64) -> (u16, Value) {
    let body = json!({"ok": false, "error_code": 429,
        "description": format!("Too Many Requests: retry after {retry_after}"),
        "parameters": {"retry_after": retry_after}});
    (429, body)
}

fn reply(status: u16, body: Value) -> Response {
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
    (code, Json(body)).into_response()
}

fn record(shared: &Shared, method: &str, params: Params, files: Files, status: u16, body: Value) {
    let mut st = shared.lock();
    st.calls.push(Call {
        method: method.to_string(),
        params: Value::Object(params),
        files,
        status,
        response: body,
        at: Instant::now(),
    });
    shared.changed.notify_all();
}

/// Parameters from the query string and the body (JSON, urlencoded or multipart).
async fn read_params(headers: &HeaderMap, request: Request) -> Result<(Params, Files), ApiError> {
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

fn url_pairs(bytes: &[u8]) -> Vec<(String, String)> {
    let text = String::from_utf8_lossy(bytes);
    match reqwest::Url::parse(&format!("http://x/?{text}")) {
        Ok(url) => url.query_pairs().into_owned().collect(),
        Err(_) => vec![],
    }
}

fn value_str(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn value_i64(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn value_bool(v: Option<&Value>) -> bool {
    match v {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => s == "true" || s == "1",
        Some(Value::Number(n)) => n.as_i64() == Some(1),
        _ => false,
    }
}

fn opt_str(p: &Params, key: &str) -> Option<String> {
    p.get(key).and_then(value_str)
}

fn req_str(p: &Params, key: &str) -> Result<String, ApiError> {
    opt_str(p, key).ok_or_else(|| bad(&format!("{key} is required")))
}

fn opt_i64(p: &Params, key: &str) -> Result<Option<i64>, ApiError> {
    match p.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => value_i64(v)
            .map(Some)
            .ok_or_else(|| bad(&format!("invalid {key} specified"))),
    }
}

async fn get_updates(shared: &Shared, p: &Params) -> Result<Value, ApiError> {
    let offset = opt_i64(p, "offset")?;
    let limit = opt_i64(p, "limit")?.unwrap_or(100).clamp(1, 100) as usize;
    let timeout = opt_i64(p, "timeout")?.unwrap_or(0).clamp(0, 50) as u64;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(timeout);
    loop {
        let notified = shared.new_update.notified();
        {
            let mut st = shared.lock();
            if st.webhook.is_some() {
                return Err(ApiError {
                    status: 409,
                    description: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first".into(),
                });
            }
            if let Some(off) = offset {
                // A positive offset confirms every update below it.
                if off > st.confirmed + 1 {
                    st.confirmed = off - 1;
                    let c = st.confirmed;
                    st.updates.retain(|(id, _)| *id > c);
                    shared.changed.notify_all();
                }
            }
            let ready: Vec<Value> = st
                .updates
                .iter()
                .filter(|(id, _)| offset.is_none_or(|o| *id >= o))
                .take(limit)
                .map(|(_, u)| u.clone())
                .collect();
            if !ready.is_empty() || tokio::time::Instant::now() >= deadline {
                return Ok(Value::Array(ready));
            }
        }
        let _ = tokio::time::timeout_at(deadline, notified).await;
    }
}

/// Delivers queued updates to the webhook, one at a time, like Telegram.
async fn webhook_delivery(shared: Arc<Shared>) {
    let client = reqwest::Client::new();
    loop {
        let notified = shared.new_update.notified();
        let next = {
            let st = shared.lock();
            st.webhook.as_ref().and_then(|w| {
                st.updates
                    .front()
                    .map(|(id, u)| (*id, u.clone(), w.url.clone(), w.secret.clone()))
            })
        };
        let Some((id, update, url, secret)) = next else {
            let _ = tokio::time::timeout(Duration::from_millis(200), notified).await;
            continue;
        };
        let mut req = client.post(&url).json(&update);
        if let Some(s) = secret {
            req = req.header("X-Telegram-Bot-Api-Secret-Token", s);
        }
        let status = match req.timeout(Duration::from_secs(10)).send().await {
            Ok(r) => r.status().as_u16(),
            Err(_) => 0,
        };
        {
            let mut st = shared.lock();
            st.deliveries.push((id, status));
            if (200..300).contains(&status) {
                st.updates.retain(|(u, _)| *u != id);
            }
            shared.changed.notify_all();
        }
        if !(200..300).contains(&status) {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

fn dispatch(
    st: &mut FakeState,
    method: &str,
    p: &Params,
    files: &Files,
) -> Result<Value, ApiError> {
    match method {
        "getMe" => Ok(json!({
            "id": BOT_ID, "is_bot": true, "first_name": "Toguz", "username": BOT_USERNAME,
            "can_join_groups": true, "can_read_all_group_messages": false,
            "supports_inline_queries": true, "can_connect_to_business": false,
            "has_main_web_app": false
        })),
        "logOut" | "close" => Ok(json!(true)),
        "getWebhookInfo" => Ok(match &st.webhook {
            Some(w) => json!({"url": w.url, "has_custom_certificate": false,
                "pending_update_count": st.updates.len()}),
            None => json!({"url": "", "has_custom_certificate": false,
                "pending_update_count": st.updates.len()}),
        }),
        "deleteWebhook" => {
            st.webhook = None;
            if value_bool(p.get("drop_pending_updates")) {
                st.updates.clear();
            }
            Ok(json!(true))
        }
        "setWebhook" => set_webhook(st, p),
        "sendMessage" => send_message(st, p),
        "sendPhoto" => send_photo(st, p, files),
        "sendDocument" => send_document(st, p, files),
        "sendChatAction" => {
            known_chat(st, p)?;
            Ok(json!(true))
        }
        "editMessageText" => edit_text(st, p),
        "editMessageCaption" => edit_caption(st, p),
        "editMessageMedia" => edit_media(st, p, files),
        "editMessageReplyMarkup" => edit_markup(st, p),
        "deleteMessage" => {
            let chat = known_chat(st, p)?;
            let id = opt_i64(p, "message_id")?.ok_or_else(|| bad("message_id is required"))?;
            st.messages
                .remove(&(chat, id))
                .map(|_| json!(true))
                .ok_or_else(|| bad("message to delete not found"))
        }
        "answerCallbackQuery" => answer_callback(st, p),
        "answerInlineQuery" => answer_inline(st, p),
        "setMyCommands" => set_commands(st, p),
        "getMyCommands" => Ok(st
            .commands
            .get(&command_key(p))
            .cloned()
            .unwrap_or(json!([]))),
        "deleteMyCommands" => {
            st.commands.remove(&command_key(p));
            Ok(json!(true))
        }
        "setChatMenuButton" => Ok(json!(true)),
        _ => Err(ApiError {
            status: 404,
            description: "Not Found".into(),
        }),
    }
}

fn set_webhook(st: &mut FakeState, p: &Params) -> Result<Value, ApiError> {
    let url = req_str(p, "url")?;
    if url.is_empty() {
        st.webhook = None;
        return Ok(json!(true));
    }
    let parsed = reqwest::Url::parse(&url).map_err(|_| bad("can't parse URL"))?;
    if parsed.scheme() != "https" && !(st.allow_http_webhook && parsed.scheme() == "http") {
        return Err(bad("bad webhook: HTTPS url must be provided for webhook"));
    }
    let port = parsed.port_or_known_default();
    if parsed.scheme() == "https" && !matches!(port, Some(443 | 80 | 88 | 8443)) {
        return Err(bad(
            "bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443",
        ));
    }
    let secret = opt_str(p, "secret_token");
    if let Some(s) = &secret {
        let ok = (1..=256).contains(&s.len())
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !ok {
            return Err(bad("secret token contains unallowed characters"));
        }
    }
    st.webhook = Some(Webhook { url, secret });
    Ok(json!(true))
}

fn known_chat(st: &FakeState, p: &Params) -> Result<i64, ApiError> {
    let raw = p.get("chat_id").ok_or_else(|| bad("chat_id is empty"))?;
    let id = value_i64(raw).ok_or_else(|| bad("chat not found"))?;
    if st.chats.contains_key(&id) {
        return Ok(id);
    }
    if id > 0 {
        // A user who never wrote to the bot.
        return Err(ApiError {
            status: 403,
            description: "Forbidden: bot can't initiate conversation with a user".into(),
        });
    }
    Err(bad("chat not found"))
}

fn check_parse_mode(p: &Params, text: &str) -> Result<(), ApiError> {
    match opt_str(p, "parse_mode").as_deref() {
        None | Some("") => Ok(()),
        Some("HTML") | Some("html") => check_html(text),
        Some("MarkdownV2") => check_markdown_v2(text),
        Some("Markdown") => Ok(()),
        Some(_) => Err(bad("unsupported parse_mode")),
    }
}

/// Telegram's HTML: only known tags, properly nested; `<`, `>` and `&` escaped elsewhere.
fn check_html(text: &str) -> Result<(), ApiError> {
    const TAGS: &[&str] = &[
        "b",
        "strong",
        "i",
        "em",
        "u",
        "ins",
        "s",
        "strike",
        "del",
        "span",
        "tg-spoiler",
        "a",
        "code",
        "pre",
        "blockquote",
        "tg-emoji",
    ];
    let mut stack: Vec<String> = vec![];
    let mut rest = text;
    while let Some(i) = rest.find(['<', '&']) {
        let after = &rest[i..];
        if after.starts_with('&') {
            let end = after.find(';').ok_or_else(|| {
                bad("can't parse entities: Unsupported start tag \"&\" at byte offset")
            })?;
            let name = &after[1..end];
            let ok = matches!(name, "lt" | "gt" | "amp" | "quot")
                || name.starts_with('#') && name.len() > 1;
            if !ok {
                return Err(bad(&format!(
                    "can't parse entities: Unsupported HTML entity \"&{name};\""
                )));
            }
            rest = &after[end + 1..];
            continue;
        }
        let end = after
            .find('>')
            .ok_or_else(|| bad("can't parse entities: Unclosed start tag"))?;
        let inner = &after[1..end];
        if let Some(name) = inner.strip_prefix('/') {
            let name = name.trim().to_ascii_lowercase();
            if stack.pop().as_deref() != Some(name.as_str()) {
                return Err(bad(&format!(
                    "can't parse entities: Unmatched end tag \"{name}\""
                )));
            }
        } else {
            let name = inner
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            if !TAGS.contains(&name.as_str()) {
                return Err(bad(&format!(
                    "can't parse entities: Unsupported start tag \"{name}\""
                )));
            }
            stack.push(name);
        }
        rest = &after[end + 1..];
    }
    if let Some(open) = stack.pop() {
        return Err(bad(&format!(
            "can't parse entities: Can't find end tag corresponding to start tag \"{open}\""
        )));
    }
    Ok(())
}

fn check_markdown_v2(text: &str) -> Result<(), ApiError> {
    let mut escaped = false;
    for c in text.chars() {
        if escaped {
            escaped = false;
            continue;
        }
        if c == '\\' {
            escaped = true;
        } else if ".!-=+#|{}>()".contains(c) {
            return Err(bad(&format!(
                "can't parse entities: Character '{c}' is reserved and must be escaped with the preceding '\\'"
            )));
        }
    }
    Ok(())
}

/// Validates an inline keyboard the way Telegram does.
fn check_markup(markup: Option<&Value>, inline_only: bool) -> Result<Option<Value>, ApiError> {
    let Some(m) = markup else { return Ok(None) };
    if m.is_null() {
        return Ok(None);
    }
    let Some(rows) = m.get("inline_keyboard") else {
        if inline_only {
            return Err(bad("inline keyboard expected"));
        }
        return Ok(Some(m.clone()));
    };
    let rows = rows
        .as_array()
        .ok_or_else(|| bad("can't parse inline keyboard"))?;
    let mut total = 0;
    for row in rows {
        let row = row
            .as_array()
            .ok_or_else(|| bad("can't parse inline keyboard"))?;
        if row.len() > 8 {
            return Err(bad("BUTTON_TYPE_INVALID"));
        }
        for b in row {
            total += 1;
            let text = b.get("text").and_then(Value::as_str).unwrap_or("");
            if text.trim().is_empty() {
                return Err(bad("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"));
            }
            let kinds = [
                "url",
                "callback_data",
                "switch_inline_query",
                "switch_inline_query_current_chat",
                "switch_inline_query_chosen_chat",
                "web_app",
                "login_url",
                "copy_text",
                "pay",
                "callback_game",
            ];
            let n = kinds.iter().filter(|k| b.get(**k).is_some()).count();
            if n != 1 {
                return Err(bad("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"));
            }
            if let Some(d) = b.get("callback_data") {
                let d = d.as_str().ok_or_else(|| bad("BUTTON_DATA_INVALID"))?;
                if d.is_empty() || d.len() > 64 {
                    return Err(bad("BUTTON_DATA_INVALID"));
                }
            }
        }
    }
    if total > 100 {
        return Err(bad("reply markup is too long"));
    }
    Ok(Some(m.clone()))
}

fn check_text(text: &str, edit: bool) -> Result<(), ApiError> {
    if text.trim().is_empty() {
        return Err(bad("message text is empty"));
    }
    if text.encode_utf16().count() > 4096 {
        return Err(bad(if edit {
            "MESSAGE_TOO_LONG"
        } else {
            "message is too long"
        }));
    }
    Ok(())
}

fn check_caption(caption: &Option<String>) -> Result<(), ApiError> {
    if caption
        .as_ref()
        .is_some_and(|c| c.encode_utf16().count() > 1024)
    {
        return Err(bad("message caption is too long"));
    }
    Ok(())
}

fn check_reply_to(st: &FakeState, chat: i64, p: &Params) -> Result<Option<i64>, ApiError> {
    let id = match p.get("reply_parameters") {
        Some(r) => r.get("message_id").and_then(value_i64),
        None => opt_i64(p, "reply_to_message_id")?,
    };
    match id {
        Some(id) if !st.messages.contains_key(&(chat, id)) => {
            Err(bad("message to be replied not found"))
        }
        other => Ok(other),
    }
}

fn send_message(st: &mut FakeState, p: &Params) -> Result<Value, ApiError> {
    let chat = known_chat(st, p)?;
    let text = opt_str(p, "text").unwrap_or_default();
    check_text(&text, false)?;
    check_parse_mode(p, &text)?;
    let markup = check_markup(p.get("reply_markup"), false)?;
    let reply_to = check_reply_to(st, chat, p)?;
    let m = StoredMessage {
        text: Some(text),
        ..bot_message(st, chat, markup, reply_to)
    };
    Ok(store_message(st, m))
}

/// A new message from the bot in `chat`, with its id, and nothing in it yet.
fn bot_message(
    st: &mut FakeState,
    chat: i64,
    reply_markup: Option<Value>,
    reply_to: Option<i64>,
) -> StoredMessage {
    StoredMessage {
        chat_id: chat,
        message_id: next_message_id(st, chat),
        from: bot_user(),
        date: now(),
        text: None,
        caption: None,
        photo: None,
        photo_size: (0, 0),
        document: None,
        reply_markup,
        edits: 0,
        reply_to,
        sender_chat: None,
    }
}

/// Keeps a sent message; the Message object the Bot API answers with.
fn store_message(st: &mut FakeState, m: StoredMessage) -> Value {
    let v = message_json(st, &m);
    st.messages.insert((m.chat_id, m.message_id), m);
    v
}

/// Decodes a PNG fully and applies Telegram's photo limits; returns (width, height).
pub fn check_png(bytes: &[u8]) -> Result<(u32, u32), String> {
    if bytes.len() > 10 << 20 {
        return Err("photo over 10 MB".into());
    }
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
    let (w, h) = (info.width, info.height);
    if w == 0 || h == 0 || w + h > 10_000 || w.max(h) > 20 * w.min(h) {
        return Err(format!("bad dimensions {w}x{h}"));
    }
    Ok((w, h))
}

/// The photo of a request: an uploaded file (by field name or `attach://`) or a file_id.
fn photo_of(
    value: Option<&Value>,
    files: &Files,
    field: &str,
    inline: bool,
) -> Result<(String, (u32, u32)), ApiError> {
    let reference = value.and_then(value_str);
    let upload = match reference.as_deref() {
        Some(r) if r.starts_with("attach://") => {
            if inline {
                return Err(bad(
                    "can't use attach:// in inline messages: upload is not allowed",
                ));
            }
            Some(
                files
                    .get(&r["attach://".len()..])
                    .ok_or_else(|| bad("there is no photo in the request"))?,
            )
        }
        Some(r) if r.starts_with('F') => return Ok((r[1..].to_string(), (960, 400))),
        Some(r) if r.starts_with("http") => {
            return Err(bad("failed to get HTTP URL content"));
        }
        Some(_) => return Err(bad("wrong file identifier/HTTP URL specified")),
        None => files.get(field),
    };
    let bytes = upload.ok_or_else(|| bad("there is no photo in the request"))?;
    if inline {
        return Err(bad(
            "can't use attach:// in inline messages: upload is not allowed",
        ));
    }
    let size = check_png(bytes).map_err(|_| bad("IMAGE_PROCESS_FAILED"))?;
    Ok((hash(bytes), size))
}

fn hash(bytes: &[u8]) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    format!("{:016x}", h.finish())
}

fn send_photo(st: &mut FakeState, p: &Params, files: &Files) -> Result<Value, ApiError> {
    let chat = known_chat(st, p)?;
    let caption = opt_str(p, "caption");
    check_caption(&caption)?;
    if let Some(c) = &caption {
        check_parse_mode(p, c)?;
    }
    let markup = check_markup(p.get("reply_markup"), false)?;
    let reply_to = check_reply_to(st, chat, p)?;
    let (photo, size) = photo_of(p.get("photo"), files, "photo", false)?;
    let m = StoredMessage {
        caption,
        photo: Some(photo),
        photo_size: size,
        ..bot_message(st, chat, markup, reply_to)
    };
    Ok(store_message(st, m))
}

/// sendDocument as Telegram takes it: an uploaded file (multipart, the field `document`
/// or `attach://` a part) with a file name and 1 byte to 50 MB; a `caption` of at most 1024
/// characters. A document sent by URL or file id is not something this bot does: refused.
fn send_document(st: &mut FakeState, p: &Params, files: &Files) -> Result<Value, ApiError> {
    let chat = known_chat(st, p)?;
    let caption = opt_str(p, "caption");
    check_caption(&caption)?;
    if let Some(c) = &caption {
        check_parse_mode(p, c)?;
    }
    let markup = check_markup(p.get("reply_markup"), false)?;
    let reply_to = check_reply_to(st, chat, p)?;
    let (name, bytes) = match p.get("document").and_then(value_str) {
        Some(r) if r.starts_with("attach://") => files_named(files, &r["attach://".len()..]),
        Some(_) => return Err(bad("wrong file identifier/HTTP URL specified")),
        None => files_named(files, "document"),
    }
    .ok_or_else(|| bad("there is no document in the request"))?;
    if bytes.is_empty() {
        return Err(bad("file must be non-empty"));
    }
    if bytes.len() > 50 << 20 {
        return Err(ApiError {
            status: 413,
            description: "Request Entity Too Large".into(),
        });
    }
    let m = StoredMessage {
        caption,
        document: Some((name, bytes.to_vec())),
        ..bot_message(st, chat, markup, reply_to)
    };
    Ok(store_message(st, m))
}

/// Where `read_params` keeps the file name of an uploaded part (beside its bytes; `#`
/// never occurs in a form field name Telegram knows).
fn name_key(field: &str) -> String {
    format!("{field}#name")
}

/// An uploaded part and its file name (Telegram shows a document by its name: one is
/// required).
fn files_named<'a>(files: &'a Files, field: &str) -> Option<(String, &'a [u8])> {
    let bytes = files.get(field)?;
    let name = String::from_utf8(files.get(&name_key(field))?.clone()).ok()?;
    (!name.is_empty()).then_some((name, bytes.as_slice()))
}

/// The message an edit targets: `chat_id` + `message_id`, or `inline_message_id`.
enum Target {
    Chat(i64, i64),
    Inline(String),
}

fn edit_target(st: &FakeState, p: &Params) -> Result<Target, ApiError> {
    if let Some(id) = opt_str(p, "inline_message_id") {
        if p.contains_key("chat_id") || p.contains_key("message_id") {
            return Err(bad("message identifier is not specified"));
        }
        if !st.inline_messages.contains_key(&id) {
            return Err(bad("MESSAGE_ID_INVALID"));
        }
        return Ok(Target::Inline(id));
    }
    let (Some(_), Some(mid)) = (p.get("chat_id"), opt_i64(p, "message_id")?) else {
        return Err(bad("message identifier is not specified"));
    };
    let chat = known_chat(st, p)?;
    let m = st
        .messages
        .get(&(chat, mid))
        .ok_or_else(|| bad("message to edit not found"))?;
    if m.from["id"] != json!(BOT_ID) {
        return Err(bad("message can't be edited"));
    }
    Ok(Target::Chat(chat, mid))
}

fn target_mut<'a>(st: &'a mut FakeState, t: &Target) -> &'a mut StoredMessage {
    match t {
        Target::Chat(c, m) => st.messages.get_mut(&(*c, *m)).expect("checked"),
        Target::Inline(id) => st.inline_messages.get_mut(id).expect("checked"),
    }
}

fn edit_result(st: &FakeState, t: &Target) -> Value {
    match t {
        Target::Chat(c, m) => message_json(st, &st.messages[&(*c, *m)]),
        Target::Inline(_) => json!(true),
    }
}

fn edit_text(st: &mut FakeState, p: &Params) -> Result<Value, ApiError> {
    let t = edit_target(st, p)?;
    let text = opt_str(p, "text").unwrap_or_default();
    check_text(&text, true)?;
    check_parse_mode(p, &text)?;
    let markup = check_markup(p.get("reply_markup"), true)?;
    let m = target_mut(st, &t);
    if m.text.is_none() {
        return Err(bad("there is no text in the message to edit"));
    }
    if m.text.as_deref() == Some(text.as_str()) && m.reply_markup == markup {
        return Err(bad(NOT_MODIFIED.trim_start_matches("Bad Request: ")));
    }
    m.text = Some(text);
    m.reply_markup = markup;
    m.edits += 1;
    Ok(edit_result(st, &t))
}

fn edit_caption(st: &mut FakeState, p: &Params) -> Result<Value, ApiError> {
    let t = edit_target(st, p)?;
    let caption = opt_str(p, "caption");
    check_caption(&caption)?;
    let markup = check_markup(p.get("reply_markup"), true)?;
    let m = target_mut(st, &t);
    if m.photo.is_none() {
        return Err(bad("there is no caption in the message to edit"));
    }
    if m.caption == caption && m.reply_markup == markup {
        return Err(bad(NOT_MODIFIED.trim_start_matches("Bad Request: ")));
    }
    m.caption = caption;
    m.reply_markup = markup;
    m.edits += 1;
    Ok(edit_result(st, &t))
}

fn edit_media(st: &mut FakeState, p: &Params, files: &Files) -> Result<Value, ApiError> {
    let t = edit_target(st, p)?;
    let media = p
        .get("media")
        .filter(|m| m.is_object())
        .ok_or_else(|| bad("can't parse InputMedia: media is not an object"))?;
    if media.get("type").and_then(Value::as_str) != Some("photo") {
        return Err(bad("wrong type of the web page content"));
    }
    let caption = media
        .get("caption")
        .and_then(Value::as_str)
        .map(str::to_string);
    check_caption(&caption)?;
    let markup = check_markup(p.get("reply_markup"), true)?;
    let inline = matches!(t, Target::Inline(_));
    let (photo, size) = photo_of(media.get("media"), files, "", inline)?;
    let m = target_mut(st, &t);
    if m.photo.is_none() && m.text.is_some() && inline {
        return Err(bad("MESSAGE_ID_INVALID"));
    }
    if m.photo.as_deref() == Some(photo.as_str())
        && m.caption == caption
        && m.reply_markup == markup
    {
        return Err(bad(NOT_MODIFIED.trim_start_matches("Bad Request: ")));
    }
    m.photo = Some(photo);
    m.photo_size = size;
    m.text = None;
    m.caption = caption;
    m.reply_markup = markup;
    m.edits += 1;
    Ok(edit_result(st, &t))
}

fn edit_markup(st: &mut FakeState, p: &Params) -> Result<Value, ApiError> {
    let t = edit_target(st, p)?;
    let markup = check_markup(p.get("reply_markup"), true)?;
    let m = target_mut(st, &t);
    if m.reply_markup == markup {
        return Err(bad(NOT_MODIFIED.trim_start_matches("Bad Request: ")));
    }
    m.reply_markup = markup;
    m.edits += 1;
    Ok(edit_result(st, &t))
}

fn answer_callback(st: &mut FakeState, p: &Params) -> Result<Value, ApiError> {
    let id = opt_str(p, "callback_query_id").unwrap_or_default();
    let text = opt_str(p, "text").unwrap_or_default();
    if text.chars().count() > 200 {
        return Err(bad("MESSAGE_TOO_LONG"));
    }
    match st.callback_queries.get_mut(&id) {
        Some(answered) if !*answered => {
            *answered = true;
            Ok(json!(true))
        }
        _ => Err(bad(INVALID_QUERY.trim_start_matches("Bad Request: "))),
    }
}

fn answer_inline(st: &mut FakeState, p: &Params) -> Result<Value, ApiError> {
    let id = opt_str(p, "inline_query_id").unwrap_or_default();
    let results = p
        .get("results")
        .and_then(Value::as_array)
        .cloned()
        .ok_or_else(|| bad("can't parse inline query results"))?;
    if results.len() > 50 {
        return Err(bad("RESULTS_TOO_MUCH"));
    }
    let mut ids = HashSet::new();
    for r in &results {
        let rid = r.get("id").and_then(Value::as_str).unwrap_or("");
        if rid.is_empty() || rid.len() > 64 || !ids.insert(rid.to_string()) {
            return Err(bad("RESULT_ID_INVALID"));
        }
        if r.get("type").and_then(Value::as_str) == Some("article") {
            let title = r.get("title").and_then(Value::as_str).unwrap_or("");
            if title.trim().is_empty() {
                return Err(bad("RESULT_TITLE_EMPTY"));
            }
            let text = r
                .pointer("/input_message_content/message_text")
                .and_then(Value::as_str)
                .ok_or_else(|| bad("can't parse InputMessageContent"))?;
            check_text(text, false)?;
        }
        check_markup(r.get("reply_markup"), true)?;
    }
    let q = st
        .inline_queries
        .get_mut(&id)
        .filter(|q| !q.answered)
        .ok_or_else(|| bad(INVALID_QUERY.trim_start_matches("Bad Request: ")))?;
    q.answered = true;
    q.results = results;
    Ok(json!(true))
}

fn command_key(p: &Params) -> String {
    let scope = p
        .get("scope")
        .and_then(|s| s.get("type"))
        .and_then(Value::as_str)
        .unwrap_or("default");
    let lang = opt_str(p, "language_code").unwrap_or_default();
    format!("{scope}/{lang}")
}

fn set_commands(st: &mut FakeState, p: &Params) -> Result<Value, ApiError> {
    let commands = p
        .get("commands")
        .and_then(Value::as_array)
        .cloned()
        .ok_or_else(|| bad("can't parse commands JSON object"))?;
    if commands.len() > 100 {
        return Err(bad("BOT_COMMANDS_TOO_MUCH"));
    }
    for c in &commands {
        let name = c.get("command").and_then(Value::as_str).unwrap_or("");
        let ok = (1..=32).contains(&name.len())
            && name
                .chars()
                .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_');
        if !ok {
            return Err(bad("BOT_COMMAND_INVALID"));
        }
        let d = c.get("description").and_then(Value::as_str).unwrap_or("");
        if d.trim().is_empty() || d.chars().count() > 256 {
            return Err(bad("command description is empty or too long"));
        }
    }
    if let Some(l) = opt_str(p, "language_code") {
        if !(l.is_empty() || l.len() == 2 && l.chars().all(|c| c.is_ascii_lowercase())) {
            return Err(bad("invalid language code specified"));
        }
    }
    st.commands.insert(command_key(p), Value::Array(commands));
    Ok(json!(true))
}
