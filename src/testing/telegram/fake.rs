//! The running fake Telegram: what a test does with it (users write, press buttons, ask
//! inline queries; scripted failures and flood control) and what it reads back (calls,
//! messages, commands, webhook deliveries), waiting for the bot where it must.

use super::flood::{FloodControl, Refusal, COUNTED};
use super::http::{canonical, handle, webhook_delivery};
use super::state::{
    bot_messages, entities, message_json, next_message_id, now, FakeState, InlineQueryState,
    ScriptedFailure, Shared,
};
use super::{Call, StoredMessage, TgChat, TgUser};
use crate::testing::Lifted;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

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
                messages: BTreeMap::new(),
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
                mini_apps: HashMap::new(),
                flood_control: FloodControl::new(Instant::now()),
                chaos: (0, 0x9e37_79b9_7f4a_7c15),
                users: HashMap::new(),
                members: HashMap::new(),
                reactions: HashMap::new(),
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

    /// Makes a Mini App of the bot, as @BotFather's /newapp does: `name` opens `url`.
    pub fn add_mini_app(&self, name: &str, url: &str) {
        self.lock().mini_apps.insert(name.into(), url.into());
    }

    /// What a Telegram client opens when `user` presses the direct link `link` in `chat`:
    /// the Mini App's URL with the launch data signed with the bot's token in its fragment
    /// (`mini_app`), or why it would open nothing.
    pub fn open_mini_app_link(
        &self,
        link: &str,
        user: &TgUser,
        chat: &TgChat,
    ) -> Result<String, String> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let state = self.lock();
        super::mini_app::open_link(&state.token, &state.mini_apps, link, user, chat, now)
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
        let msg = Self::store_text(&mut st, chat, from, text, reply_to, sender_chat);
        let message_id = msg["message_id"].as_i64().unwrap_or_default();
        self.push_update(&mut st, json!({"message": msg}));
        message_id
    }

    /// A user's message as an update the test delivers itself (straight to a webhook): the
    /// message is stored, the update not queued.
    pub fn text_update(&self, chat: &TgChat, from: &TgUser, text: &str) -> Value {
        let mut st = self.lock();
        let msg = Self::store_text(&mut st, chat, from, text, None, None);
        let update = json!({"update_id": st.next_update_id, "message": msg});
        st.next_update_id += 1;
        update
    }

    /// Stores a user's message in `chat`, with its entities; its JSON as Telegram sends it.
    fn store_text(
        st: &mut FakeState,
        chat: &TgChat,
        from: &TgUser,
        text: &str,
        reply_to: Option<i64>,
        sender_chat: Option<&TgChat>,
    ) -> Value {
        st.chats.insert(chat.id, chat.json.clone());
        Self::met(st, chat, from);
        let message_id = next_message_id(st, chat.id);
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
        let mut msg = message_json(st, &stored);
        msg["entities"] = json!(entities(text));
        st.messages.insert((chat.id, message_id), stored);
        msg
    }

    /// Telegram knows `user`, who is in `chat` (a member, unless their status there was
    /// set); anonymous senders (bots) are not recorded.
    fn met(st: &mut FakeState, chat: &TgChat, user: &TgUser) {
        if user.is_bot {
            return;
        }
        st.users.insert(user.id, user.json());
        if chat.id < 0 {
            st.members
                .entry((chat.id, user.id))
                .or_insert_with(|| "member".to_string());
        }
    }

    /// Sets `user`'s status in group `chat`, as getChatMember reports it: `creator`,
    /// `administrator`, `member`, `restricted`, `left` or `kicked`.
    pub fn set_member_status(&self, chat: &TgChat, user: &TgUser, status: &str) {
        assert!(
            [
                "creator",
                "administrator",
                "member",
                "restricted",
                "left",
                "kicked"
            ]
            .contains(&status),
            "no such status {status}"
        );
        let mut st = self.lock();
        st.chats.insert(chat.id, chat.json.clone());
        st.users.insert(user.id, user.json());
        st.members.insert((chat.id, user.id), status.to_string());
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
        st.users.insert(from.id, from.json());
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

    /// Stops enforcing Telegram's flood limits (flood.rs) for the rest of the test, for the
    /// reason `lifted` gives. Scripted failures (`flood`, `chaos`, `fail_next`) still apply.
    pub fn lift_limits(&self, lifted: Lifted) {
        self.lock().flood_control.lift(lifted);
    }

    /// Why the flood limits are lifted, if they are.
    pub fn limits_lifted(&self) -> Option<String> {
        let st = self.lock();
        st.flood_control.lifted().map(|l| l.reason().to_string())
    }

    /// The calls answered 429 because they were over one of Telegram's flood limits, oldest
    /// first (scripted 429s are not among them: see `count_status`).
    pub fn flood_refusals(&self) -> Vec<Refusal> {
        self.lock().flood_control.refusals().to_vec()
    }

    /// Every post into `chat` (sends, edits, deletes) is answered 429 with `retry_after`,
    /// as Telegram does to a chat over its flood limit, for the rest of the test.
    pub fn flood(&self, chat: i64, retry_after: u64) {
        self.lock().flooded.insert(chat, retry_after);
    }

    /// `per_mille` of all posts fail at random: a third each 429 (retry_after 1), 500 and
    /// 502, as Telegram's answers look under load. Deterministic for a given `seed`.
    pub fn chaos(&self, per_mille: u32, seed: u64) {
        self.lock().chaos = (per_mille, seed | 1);
    }

    /// How many posts (sends and edits, flood.rs `COUNTED`) into `chat` went through at or
    /// after `since`: what Telegram counts against the chat's budget.
    pub fn posts_since(&self, chat: i64, since: Instant) -> usize {
        let st = self.lock();
        st.calls
            .iter()
            .rev()
            .take_while(|c| c.at >= since)
            .filter(|c| c.ok() && COUNTED.contains(&c.method.as_str()))
            .filter(|c| c.i64("chat_id") == Some(chat))
            .count()
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

    /// Waits until `find` finds something in the fake's state, looking again after every
    /// change; `None` after `timeout`.
    fn wait_for<T>(&self, timeout: Duration, find: impl Fn(&FakeState) -> Option<T>) -> Option<T> {
        let deadline = Instant::now() + timeout;
        let mut st = self.lock();
        loop {
            if let Some(found) = find(&st) {
                return Some(found);
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

    /// Waits for the first call at index >= `since` that satisfies `pred`; returns its index
    /// and the call, or `None` after `timeout`.
    pub fn wait_call(
        &self,
        since: usize,
        timeout: Duration,
        pred: impl Fn(&Call) -> bool,
    ) -> Option<(usize, Call)> {
        self.wait_for(timeout, |st| {
            let mut calls = st.calls.iter().enumerate().skip(since);
            calls.find(|(_, c)| pred(c)).map(|(i, c)| (i, c.clone()))
        })
    }

    /// Waits until `cond` holds on the fake's state (messages and calls), or `timeout`.
    /// `cond` runs under the fake's lock: use only the `FakeView` it gets.
    pub fn wait_until(&self, timeout: Duration, cond: impl Fn(&FakeView) -> bool) -> bool {
        self.wait_for(timeout, |st| cond(&FakeView { st }).then_some(()))
            .is_some()
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

    /// Whether the bot may write to chat `id` (a private chat exists once its user wrote to
    /// the bot).
    pub fn chat_known(&self, id: i64) -> bool {
        self.lock().chats.contains_key(&id)
    }

    /// The bot's reactions on a message (setMessageReaction).
    pub fn reactions(&self, chat: i64, message_id: i64) -> Vec<String> {
        let st = self.lock();
        st.reactions
            .get(&(chat, message_id))
            .cloned()
            .unwrap_or_default()
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
