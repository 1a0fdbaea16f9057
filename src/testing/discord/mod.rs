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
//! Every REST call is recorded for assertions; failures (429 with `retry_after`, 5xx) can be
//! scripted for the next matching calls.
#![allow(dead_code)]

pub mod bot;

use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequest, RawQuery, Request, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde_json::{json, Map, Value};
use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};

/// A valid-looking bot token the fake accepts.
pub const TOKEN: &str = "MTEwMDAwMDAwMDAwMDAwMDAx.GfAkEd.fake-discord-token-0123456789abcdef";
pub const APP_ID: u64 = 1_100_000_000_000_000_001;
const TIMESTAMP: &str = "2026-11-30T07:00:00.000000+00:00";
/// Discord's locales (https://discord.com/developers/docs/reference#locales). No Kazakh.
const LOCALES: &[&str] = &[
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th",
    "zh-CN", "ja", "zh-TW", "ko",
];
/// GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT.
const PRIVILEGED_INTENTS: u64 = (1 << 1) | (1 << 8) | (1 << 15);

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

struct Scripted {
    method: String,
    path_contains: String,
    failure: Failure,
    remaining: u32,
}

struct Interaction {
    token: String,
    kind: u8,
    created: Instant,
    acked: Option<u64>,
    channel: u64,
    guild: Option<u64>,
    /// The message a component sits on.
    component_message: Option<u64>,
    /// The message `@original` refers to, once there is one.
    original: Option<u64>,
    user: Value,
}

struct Session {
    shard: [u64; 2],
    tx: mpsc::UnboundedSender<Value>,
    seq: u64,
}

/// Random failures of a share of the REST calls (a soak test's weather).
struct Chaos {
    /// Per thousand calls.
    per_mille: u32,
    rng: rand::rngs::StdRng,
}

#[derive(Default)]
struct FakeState {
    calls: Vec<Call>,
    /// The successful callback of each interaction.
    callbacks: HashMap<u64, Call>,
    chaos: Option<Chaos>,
    /// Record calls without their files and bodies (long soak runs).
    light: bool,
    failures: Vec<Scripted>,
    interactions: HashMap<u64, Interaction>,
    messages: HashMap<u64, Value>,
    /// channel id -> guild id (None: a DM channel).
    channels: HashMap<u64, Option<u64>>,
    global_commands: Vec<Value>,
    guild_commands: HashMap<u64, Vec<Value>>,
    sessions: Vec<Session>,
    identifies: Vec<Value>,
    /// Shards GET /gateway/bot recommends.
    recommended_shards: u64,
    next_id: u64,
}

impl FakeState {
    fn snowflake(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }
}

struct Shared {
    addr: SocketAddr,
    state: Mutex<FakeState>,
    version: watch::Sender<u64>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, FakeState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
    fn bump(&self) {
        self.version.send_modify(|v| *v += 1);
    }
}

/// The fake Discord. Dropping it leaves the server running until the test's runtime ends.
#[derive(Clone)]
pub struct FakeDiscord {
    shared: Arc<Shared>,
}

fn bot_user() -> Value {
    json!({
        "id": APP_ID.to_string(), "username": "toguz", "global_name": null,
        "discriminator": "0", "avatar": null, "bot": true, "public_flags": 0,
        "verified": true, "mfa_enabled": false, "flags": 0,
    })
}

impl FakeDiscord {
    pub async fn start() -> FakeDiscord {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the fake Discord");
        let addr = listener.local_addr().expect("local addr");
        let (version, _) = watch::channel(0);
        let state = FakeState {
            recommended_shards: 1,
            next_id: 1_200_000_000_000_000_000,
            ..FakeState::default()
        };
        let shared = Arc::new(Shared {
            addr,
            state: Mutex::new(state),
            version,
        });
        let app = Router::new()
            .route("/gateway", get(gateway))
            .fallback(rest)
            .with_state(shared.clone());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        FakeDiscord { shared }
    }

    /// The base URL to give the bot as `proxy_url`.
    pub fn url(&self) -> String {
        format!("http://{}", self.shared.addr)
    }

    pub fn set_recommended_shards(&self, n: u64) {
        self.shared.lock().recommended_shards = n;
    }

    /// A guild channel the bot can see.
    pub fn guild_channel(&self, guild: u64, channel: u64) -> Place {
        self.shared.lock().channels.insert(channel, Some(guild));
        Place::Guild { guild, channel }
    }

    /// A DM channel between the bot and a user.
    pub fn dm_channel(&self, channel: u64) -> Place {
        self.shared.lock().channels.insert(channel, None);
        Place::Dm { channel }
    }

    /// The next `times` calls whose method is `method` and whose path contains `path_contains`
    /// fail with `failure`.
    pub fn fail_next(&self, method: &str, path_contains: &str, failure: Failure, times: u32) {
        self.shared.lock().failures.push(Scripted {
            method: method.to_string(),
            path_contains: path_contains.to_string(),
            failure,
            remaining: times,
        });
    }

    /// Every later call to an interaction, webhook or channel route fails with probability
    /// `per_mille / 1000`: half 429s (retry_after 0.05-0.5 s), half 500/502/503/504.
    pub fn fail_randomly(&self, per_mille: u32, seed: u64) {
        use rand::SeedableRng;
        self.shared.lock().chaos = Some(Chaos {
            per_mille,
            rng: rand::rngs::StdRng::seed_from_u64(seed),
        });
    }

    /// From now on calls with files (boards) are recorded without them, and with only the
    /// `type` of their JSON (enough for `callback_type`): a long run keeps its memory.
    pub fn record_lightly(&self) {
        self.shared.lock().light = true;
    }

    /// A message without its attachments' bytes: id, channel, content, embeds, components.
    pub fn message_view(&self, id: u64) -> Option<Value> {
        let state = self.shared.lock();
        let m = state.messages.get(&id)?;
        Some(
            json!({ "id": m["id"], "channel_id": m["channel_id"], "content": m["content"],
            "embeds": m["embeds"], "components": m["components"] }),
        )
    }

    /// Ends every scripted and random failure.
    pub fn stop_failures(&self) {
        let mut state = self.shared.lock();
        state.chaos = None;
        state.failures.clear();
    }

    pub fn calls(&self) -> Vec<Call> {
        self.shared.lock().calls.clone()
    }

    pub fn call_count(&self) -> usize {
        self.shared.lock().calls.len()
    }

    pub fn message(&self, id: u64) -> Option<Value> {
        self.shared.lock().messages.get(&id).cloned()
    }

    /// Messages in a channel, oldest first.
    pub fn channel_messages(&self, channel: u64) -> Vec<Value> {
        let state = self.shared.lock();
        let mut list: Vec<Value> = state
            .messages
            .values()
            .filter(|m| is_id(&m["channel_id"], channel))
            .cloned()
            .collect();
        list.sort_by_key(id_of);
        list
    }

    pub fn global_commands(&self) -> Vec<Value> {
        self.shared.lock().global_commands.clone()
    }

    pub fn guild_commands(&self, guild: u64) -> Vec<Value> {
        self.shared
            .lock()
            .guild_commands
            .get(&guild)
            .cloned()
            .unwrap_or_default()
    }

    pub fn identifies(&self) -> Vec<Value> {
        self.shared.lock().identifies.clone()
    }

    /// Shards that are connected and identified, as `[id, total]`.
    pub fn connected_shards(&self) -> Vec<[u64; 2]> {
        let state = self.shared.lock();
        let mut v: Vec<_> = state
            .sessions
            .iter()
            .filter(|s| !s.tx.is_closed())
            .map(|s| s.shard)
            .collect();
        v.sort();
        v
    }

    /// Waits until `check` finds something, re-checking after every change.
    pub async fn wait_for<T>(
        &self,
        what: &str,
        timeout: Duration,
        mut check: impl FnMut(&FakeDiscord) -> Option<T>,
    ) -> T {
        let mut rx = self.shared.version.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if let Some(found) = check(self) {
                return found;
            }
            match tokio::time::timeout_at(deadline, rx.changed()).await {
                Ok(Ok(())) => {}
                _ => {
                    if let Some(found) = check(self) {
                        return found;
                    }
                    panic!(
                        "timed out waiting for {what}; calls so far:\n{}",
                        self.describe_calls()
                    )
                }
            }
        }
    }

    /// The first call from index `from` on that matches.
    pub async fn wait_call(&self, from: usize, what: &str, pred: impl Fn(&Call) -> bool) -> Call {
        self.wait_for(what, Duration::from_secs(15), |f| {
            let state = f.shared.lock();
            state.calls[from.min(state.calls.len())..]
                .iter()
                .find(|c| pred(c))
                .cloned()
        })
        .await
    }

    /// Waits until `n` shards are connected.
    pub async fn wait_ready(&self, n: usize) {
        self.wait_for("the bot's gateway sessions", Duration::from_secs(30), |f| {
            (f.connected_shards().len() >= n).then_some(())
        })
        .await
    }

    /// The successful callback of an interaction.
    /// The accepted answer to an interaction, if there is one yet.
    pub fn callback(&self, interaction: u64) -> Option<Call> {
        self.shared.lock().callbacks.get(&interaction).cloned()
    }

    pub async fn wait_callback(&self, interaction: u64) -> Call {
        self.wait_for(
            &format!("callback of {interaction}"),
            Duration::from_secs(15),
            |f| f.shared.lock().callbacks.get(&interaction).cloned(),
        )
        .await
    }

    /// The message an interaction's answer created or updated.
    pub fn original_message(&self, interaction: u64) -> Option<Value> {
        let state = self.shared.lock();
        let id = state.interactions.get(&interaction)?.original?;
        state.messages.get(&id).cloned()
    }

    pub fn describe_calls(&self) -> String {
        self.calls()
            .iter()
            .map(|c| {
                let body = c
                    .json
                    .as_ref()
                    .map(|j| {
                        let s = j.to_string();
                        s.chars().take(300).collect::<String>()
                    })
                    .unwrap_or_default();
                format!(
                    "{} {} -> {} files={} {}",
                    c.method,
                    c.path,
                    c.status,
                    c.files.len(),
                    body
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Sends a slash command; returns the interaction id. `options` as Discord sends them
    /// (`[{"name": "user", "type": 6, "value": "123"}]`); users named in options are put into
    /// `resolved` (as members in a guild).
    pub fn slash(
        &self,
        user: &User,
        place: Place,
        name: &str,
        options: Value,
        resolved: &[User],
    ) -> u64 {
        self.check_invocation(place, name, &options);
        let mut users = Map::new();
        let mut members = Map::new();
        for u in resolved {
            users.insert(u.id.to_string(), u.json());
            members.insert(u.id.to_string(), member_json(None));
        }
        let mut resolved_json = json!({ "users": users });
        if place.guild().is_some() {
            resolved_json["members"] = Value::Object(members);
        }
        let data = json!({
            "id": "1100000000000000100", "name": name, "type": 1,
            "options": options, "resolved": resolved_json,
        });
        self.interaction(user, place, 2, data, None)
    }

    /// A real client sends only a registered command with registered options of their
    /// types, strings within their `max_length`: anything else panics (a test bug). Choices
    /// are not checked: forged and outdated clients send other values, and the bot must
    /// refuse them. Skipped while nothing is registered (the fake's own tests).
    fn check_invocation(&self, place: Place, name: &str, options: &Value) {
        let state = self.shared.lock();
        let guild = place.guild().and_then(|g| state.guild_commands.get(&g));
        let registered: Vec<&Value> = state
            .global_commands
            .iter()
            .chain(guild.into_iter().flatten())
            .collect();
        if registered.is_empty() {
            return;
        }
        let command = registered
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("/{name} is not a registered command"));
        for given in options.as_array().into_iter().flatten() {
            let defined = command["options"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|d| d["name"] == given["name"])
                .unwrap_or_else(|| panic!("/{name} has no option {}", given["name"]));
            assert_eq!(defined["type"], given["type"], "/{name} {given}");
            if let (Some(max), Some(text)) =
                (defined["max_length"].as_u64(), given["value"].as_str())
            {
                let n = text.chars().count() as u64;
                assert!(n <= max, "/{name} {given}: longer than max_length {max}");
            }
        }
    }

    /// Presses a button that is on the message, enabled, and (an ephemeral message) shown to
    /// `user`; panics otherwise (a real client cannot press a button it does not see).
    /// Returns the interaction id.
    /// The player to move (mentioned on board `message`) presses its first legal pit; the
    /// interaction's answer.
    pub async fn press_first_pit(&self, message: u64, players: [&User; 2]) -> Call {
        let board = self.message(message).expect("the board");
        let mover = to_move(&board, players).unwrap_or_else(|| panic!("nobody to move: {board}"));
        let pit = first_legal_pit(&board).unwrap_or_else(|| panic!("no legal pit: {board}"));
        let id = self.press(mover, message, &pit);
        self.wait_callback(id).await
    }

    pub fn press(&self, user: &User, message: u64, custom_id: &str) -> u64 {
        let msg = self
            .message(message)
            .expect("pressing on an unknown message");
        let button = buttons(&msg)
            .into_iter()
            .find(|b| b["custom_id"] == custom_id)
            .unwrap_or_else(|| panic!("no button {custom_id} on message {message}: {msg}"));
        assert_ne!(button["disabled"], true, "button {custom_id} is disabled");
        // An ephemeral message is shown only to the user whose interaction it answers.
        if msg["flags"].as_u64().unwrap_or(0) & 64 != 0 {
            let owner = &msg["interaction_metadata"]["user"]["id"];
            assert!(
                is_id(owner, user.id),
                "user {} cannot see the ephemeral message {message}",
                user.id
            );
        }
        self.press_forged(user, message, custom_id)
    }

    /// Sends a component interaction with any custom_id, as a modified client could.
    pub fn press_forged(&self, user: &User, message: u64, custom_id: &str) -> u64 {
        let msg = self
            .message(message)
            .expect("pressing on an unknown message");
        let channel: u64 = msg["channel_id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let guild = self.shared.lock().channels.get(&channel).copied().flatten();
        let place = match guild {
            Some(guild) => Place::Guild { guild, channel },
            None => Place::Dm { channel },
        };
        let data = json!({ "custom_id": custom_id, "component_type": 2 });
        // Discord sends the message's attachments as metadata, not their bytes.
        let mut msg = msg;
        for a in msg["attachments"].as_array_mut().into_iter().flatten() {
            if let Some(a) = a.as_object_mut() {
                a.remove("_bytes");
            }
        }
        self.interaction(user, place, 3, data, Some(msg))
    }

    fn interaction(
        &self,
        user: &User,
        place: Place,
        kind: u8,
        data: Value,
        message: Option<Value>,
    ) -> u64 {
        let (id, token) = {
            let mut state = self.shared.lock();
            state
                .channels
                .entry(place.channel())
                .or_insert(place.guild());
            let id = state.snowflake();
            let token = format!("aW50ZXJhY3Rpb246{id}:fake-token");
            state.interactions.insert(
                id,
                Interaction {
                    token: token.clone(),
                    kind,
                    created: Instant::now(),
                    acked: None,
                    channel: place.channel(),
                    guild: place.guild(),
                    component_message: message.as_ref().map(id_of),
                    original: None,
                    user: user.json(),
                },
            );
            (id, token)
        };
        let channel_type = if place.guild().is_some() { 0 } else { 1 };
        let mut d = json!({
            "id": id.to_string(), "application_id": APP_ID.to_string(), "type": kind,
            "data": data, "channel_id": place.channel().to_string(),
            "channel": { "id": place.channel().to_string(), "type": channel_type },
            "token": token, "version": 1, "locale": "en-US",
            "app_permissions": "2248473465835073", "entitlements": [],
            "authorizing_integration_owners": { "0": "1100000000000000900" },
            "context": if place.guild().is_some() { 0 } else { 1 },
            "attachment_size_limit": 10485760,
        });
        match place.guild() {
            Some(guild) => {
                d["guild_id"] = json!(guild.to_string());
                d["guild_locale"] = json!("en-US");
                d["member"] = member_json(Some(user));
            }
            None => d["user"] = user.json(),
        }
        if let Some(message) = message {
            d["message"] = message;
        }
        self.dispatch("INTERACTION_CREATE", d, place.guild());
        id
    }

    /// Sends a dispatch event to the shard that owns the guild (shard 0 for DMs).
    pub fn dispatch(&self, event: &str, d: Value, guild: Option<u64>) {
        let mut state = self.shared.lock();
        let live: Vec<usize> = (0..state.sessions.len())
            .filter(|&i| !state.sessions[i].tx.is_closed())
            .collect();
        let target = live.into_iter().find(|&i| {
            let [id, total] = state.sessions[i].shard;
            match guild {
                Some(g) => (g >> 22) % total.max(1) == id,
                None => id == 0,
            }
        });
        let Some(i) = target else {
            panic!("no gateway session owns this event ({event}, guild {guild:?})");
        };
        let session = &mut state.sessions[i];
        session.seq += 1;
        let payload = json!({ "op": 0, "t": event, "s": session.seq, "d": d });
        let _ = session.tx.send(payload);
    }

    /// Closes every gateway session (as when the bot process is killed).
    pub fn drop_sessions(&self) {
        self.shared.lock().sessions.clear();
    }
}

fn member_json(user: Option<&User>) -> Value {
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

// ---------------------------------------------------------------------------------------------
// Gateway

async fn gateway(
    State(shared): State<Arc<Shared>>,
    RawQuery(query): RawQuery,
    ws: WebSocketUpgrade,
) -> Response {
    // serenity appends ?v=10 to the URL from GET /gateway; anything else is a broken URL.
    if query.as_deref() != Some("v=10") {
        return (StatusCode::BAD_REQUEST, "bad gateway query").into_response();
    }
    ws.on_upgrade(move |socket| session(shared, socket))
}

async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    let _ = socket.send(WsMessage::Close(Some(frame))).await;
}

async fn session(shared: Arc<Shared>, mut socket: WebSocket) {
    let hello = json!({ "op": 10, "d": { "heartbeat_interval": 41250 }, "s": null, "t": null });
    if socket
        .send(WsMessage::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        return;
    }
    let (tx, mut rx) = mpsc::unbounded_channel::<Value>();
    let mut tx = Some(tx);
    let mut identified = false;
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let Some(Ok(msg)) = incoming else { break };
                let text = match msg {
                    WsMessage::Text(t) => t.to_string(),
                    WsMessage::Close(_) => break,
                    _ => continue,
                };
                let Ok(payload) = serde_json::from_str::<Value>(&text) else {
                    close(&mut socket, 4002, "Error while decoding payload.").await;
                    break;
                };
                match payload["op"].as_u64() {
                    Some(1) => {
                        let ack = json!({ "op": 11, "d": null, "s": null, "t": null });
                        if socket.send(WsMessage::Text(ack.to_string().into())).await.is_err() {
                            break;
                        }
                    }
                    Some(2) if identified => {
                        close(&mut socket, 4005, "Already authenticated.").await;
                        break;
                    }
                    Some(2) => {
                        let d = &payload["d"];
                        let token = d["token"].as_str().unwrap_or_default();
                        if token.trim_start_matches("Bot ") != TOKEN {
                            close(&mut socket, 4004, "Authentication failed.").await;
                            break;
                        }
                        let intents = d["intents"].as_u64().unwrap_or(0);
                        if intents & PRIVILEGED_INTENTS != 0 {
                            close(&mut socket, 4014, "Disallowed intent(s).").await;
                            break;
                        }
                        let shard = [
                            d["shard"][0].as_u64().unwrap_or(0),
                            d["shard"][1].as_u64().unwrap_or(1),
                        ];
                        if shard[1] == 0 || shard[0] >= shard[1] {
                            close(&mut socket, 4010, "Invalid shard.").await;
                            break;
                        }
                        identified = true;
                        let ready = {
                            let mut state = shared.lock();
                            state.identifies.push(d.clone());
                            let session_id = format!("session{}", state.snowflake());
                            if let Some(tx) = tx.take() {
                                state.sessions.push(Session { shard, tx, seq: 1 });
                            }
                            json!({ "op": 0, "t": "READY", "s": 1, "d": {
                                "v": 10, "user": bot_user(), "guilds": [],
                                "session_id": session_id,
                                "resume_gateway_url": format!("ws://{}/gateway", shared.addr),
                                "shard": shard, "application": { "id": APP_ID.to_string(), "flags": 0 },
                                "private_channels": [], "relationships": [], "presences": [],
                                "user_settings": {}, "guild_join_requests": [],
                                "geo_ordered_rtc_regions": [], "_trace": ["fake-discord"],
                            }})
                        };
                        if socket.send(WsMessage::Text(ready.to_string().into())).await.is_err() {
                            break;
                        }
                        shared.bump();
                    }
                    Some(6) => {
                        // Resuming is not supported here: ask for a fresh Identify.
                        let invalid = json!({ "op": 9, "d": false, "s": null, "t": null });
                        let _ = socket.send(WsMessage::Text(invalid.to_string().into())).await;
                    }
                    _ if !identified => {
                        close(&mut socket, 4003, "Not authenticated.").await;
                        break;
                    }
                    _ => {}
                }
            }
            Some(out) = rx.recv() => {
                if socket.send(WsMessage::Text(out.to_string().into())).await.is_err() {
                    break;
                }
            }
        }
    }
    drop(rx);
    shared.bump();
}

// ---------------------------------------------------------------------------------------------
// REST

type Reply = (StatusCode, Value);

fn error(status: u16, code: u64, message: &str) -> Reply {
    (
        StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST),
        json!({ "message": message, "code": code }),
    )
}

/// 400 Invalid Form Body, with the path of the offending field.
fn form_error(path: &str, code: &str, message: &str) -> Reply {
    let mut errors = json!({ "_errors": [{ "code": code, "message": message }] });
    for part in path.rsplit('.') {
        errors = json!({ part: errors });
    }
    (
        StatusCode::BAD_REQUEST,
        json!({ "message": "Invalid Form Body", "code": 50035, "errors": errors }),
    )
}

struct Body {
    json: Option<Value>,
    files: Vec<Upload>,
}

async fn read_body(headers: &HeaderMap, req: Request) -> Result<Body, Reply> {
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

async fn rest(State(shared): State<Arc<Shared>>, req: Request) -> Response {
    let method = req.method().clone();
    let full_path = req.uri().path().to_string();
    let headers = req.headers().clone();
    let Some(path) = full_path.strip_prefix("/api/v10").map(str::to_string) else {
        return (
            StatusCode::NOT_FOUND,
            Json(json!({"message": "404: Not Found", "code": 0})),
        )
            .into_response();
    };
    let body = match read_body(&headers, req).await {
        Ok(b) => b,
        Err(reply) => return reply_response(reply, None),
    };
    let mut call = Call {
        method: method.to_string(),
        path: path.clone(),
        status: 0,
        json: body.json.clone(),
        files: body.files.clone(),
        at: Instant::now(),
    };
    let (reply, retry_after) = {
        let mut state = shared.lock();
        match scripted_failure(&mut state, &method, &path)
            .or_else(|| random_failure(&mut state, &path))
        {
            Some(failure) => failure,
            None => (
                handle(&shared, &mut state, &method, &path, &headers, body),
                None,
            ),
        }
    };
    call.status = reply.0.as_u16();
    let mut state = shared.lock();
    if state.light && !call.files.is_empty() {
        call.files.clear();
        call.json = call
            .json
            .as_ref()
            .and_then(|j| j.get("type"))
            .map(|t| json!({ "type": t }));
    }
    if call.status == 204 && path.ends_with("/callback") {
        if let Some(id) = path.split('/').nth(2).and_then(|s| s.parse().ok()) {
            state.callbacks.insert(id, call.clone());
        }
    }
    state.calls.push(call);
    drop(state);
    shared.bump();
    reply_response(reply, retry_after)
}

struct Json(Value);

impl IntoResponse for Json {
    fn into_response(self) -> Response {
        ([("content-type", "application/json")], self.0.to_string()).into_response()
    }
}

fn reply_response(reply: Reply, retry_after: Option<f64>) -> Response {
    let (status, body) = reply;
    if status == StatusCode::NO_CONTENT {
        return status.into_response();
    }
    let mut response = (status, Json(body)).into_response();
    if let Some(secs) = retry_after {
        let h = response.headers_mut();
        let set = |h: &mut HeaderMap, k: &'static str, v: String| {
            if let Ok(v) = v.parse() {
                h.insert(k, v);
            }
        };
        set(h, "retry-after", format!("{}", secs.ceil() as u64));
        set(h, "x-ratelimit-limit", "5".into());
        set(h, "x-ratelimit-remaining", "0".into());
        set(h, "x-ratelimit-reset-after", format!("{secs:.3}"));
        set(h, "x-ratelimit-bucket", "fakebucket".into());
        set(h, "x-ratelimit-scope", "user".into());
    }
    response
}

fn scripted_failure(
    state: &mut FakeState,
    method: &Method,
    path: &str,
) -> Option<(Reply, Option<f64>)> {
    let i = state.failures.iter().position(|f| {
        f.remaining > 0
            && f.method.eq_ignore_ascii_case(method.as_str())
            && path.contains(&f.path_contains)
    })?;
    let f = &mut state.failures[i];
    f.remaining -= 1;
    Some(failure_reply(&f.failure))
}

fn failure_reply(failure: &Failure) -> (Reply, Option<f64>) {
    match *failure {
        Failure::RateLimit {
            retry_after,
            global,
        } => (
            (
                StatusCode::TOO_MANY_REQUESTS,
                json!({ "message": "You are being rate limited.", "retry_after": retry_after, "global": global }),
            ),
            Some(retry_after),
        ),
        Failure::Server(status) => (
            (
                StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY),
                json!({ "message": format!("{status}: Server Error"), "code": 0 }),
            ),
            None,
        ),
        Failure::UnknownInteraction => (error(404, 10062, "Unknown interaction"), None),
        Failure::MissingAccess => (
            (
                StatusCode::FORBIDDEN,
                json!({ "message": "Missing Access", "code": 50001 }),
            ),
            None,
        ),
    }
}

fn random_failure(state: &mut FakeState, path: &str) -> Option<(Reply, Option<f64>)> {
    use rand::Rng;
    let routed = ["/interactions/", "/webhooks/", "/channels/"]
        .iter()
        .any(|p| path.starts_with(p));
    let chaos = state.chaos.as_mut().filter(|_| routed)?;
    if chaos.rng.gen_range(0..1000) >= chaos.per_mille {
        return None;
    }
    let failure = if chaos.rng.gen_bool(0.5) {
        Failure::RateLimit {
            retry_after: f64::from(chaos.rng.gen_range(50..500u32)) / 1000.0,
            global: false,
        }
    } else {
        Failure::Server([500, 502, 503, 504][chaos.rng.gen_range(0..4)])
    };
    Some(failure_reply(&failure))
}

fn authorized(headers: &HeaderMap) -> bool {
    headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == format!("Bot {TOKEN}"))
}

fn handle(
    shared: &Shared,
    state: &mut FakeState,
    method: &Method,
    path: &str,
    headers: &HeaderMap,
    body: Body,
) -> Reply {
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    // Interaction callbacks and webhooks are authorised by their token in the path; an
    // Authorization header, if sent, must still be valid.
    let token_routes = matches!(parts.first(), Some(&"interactions") | Some(&"webhooks"));
    let has_auth = headers.contains_key("authorization");
    if (!token_routes || has_auth) && !authorized(headers) {
        return error(401, 0, "401: Unauthorized");
    }
    let m = method.as_str();
    match (m, parts.as_slice()) {
        ("GET", ["gateway"]) => (
            StatusCode::OK,
            json!({ "url": format!("ws://{}/gateway", shared.addr) }),
        ),
        ("GET", ["gateway", "bot"]) => (
            StatusCode::OK,
            json!({
                "url": format!("ws://{}/gateway", shared.addr), "shards": state.recommended_shards,
                "session_start_limit": { "total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1 }
            }),
        ),
        ("GET", ["users", "@me"]) => (StatusCode::OK, bot_user()),
        ("GET", ["oauth2", "applications", "@me"]) => (StatusCode::OK, application_json()),
        ("PUT", ["applications", app, "commands"]) => {
            if *app != APP_ID.to_string() {
                return error(403, 50001, "Missing Access");
            }
            match register_commands(state, body.json) {
                Ok(list) => {
                    state.global_commands = list.clone();
                    (StatusCode::OK, Value::Array(list))
                }
                Err(e) => e,
            }
        }
        ("PUT", ["applications", app, "guilds", guild, "commands"]) => {
            if *app != APP_ID.to_string() {
                return error(403, 50001, "Missing Access");
            }
            let Ok(guild) = guild.parse::<u64>() else {
                return error(404, 10004, "Unknown Guild");
            };
            match register_commands(state, body.json) {
                Ok(mut list) => {
                    for c in &mut list {
                        c["guild_id"] = json!(guild.to_string());
                    }
                    state.guild_commands.insert(guild, list.clone());
                    (StatusCode::OK, Value::Array(list))
                }
                Err(e) => e,
            }
        }
        ("GET", ["applications", _, "commands"]) => {
            (StatusCode::OK, Value::Array(state.global_commands.clone()))
        }
        ("POST", ["interactions", id, token, "callback"]) => {
            interaction_callback(state, id, token, body)
        }
        (_, ["webhooks", app, token, rest @ ..]) => webhook(state, m, app, token, rest, body),
        ("POST", ["users", "@me", "channels"]) => {
            let recipient = body
                .json
                .as_ref()
                .and_then(|j| j["recipient_id"].as_str().map(str::to_string));
            let Some(recipient) = recipient else {
                return form_error(
                    "recipient_id",
                    "BASE_TYPE_REQUIRED",
                    "This field is required",
                );
            };
            let id = state.snowflake();
            state.channels.insert(id, None);
            (
                StatusCode::OK,
                json!({ "id": id.to_string(), "type": 1, "last_message_id": null,
                "recipients": [{ "id": recipient, "username": "user", "discriminator": "0", "global_name": null, "avatar": null }] }),
            )
        }
        ("POST", ["channels", channel, "messages"]) => {
            let Some(channel) = known_channel(state, channel) else {
                return error(404, 10003, "Unknown Channel");
            };
            create_message(state, channel, body, 0, None)
        }
        ("PATCH", ["channels", channel, "messages", message]) => {
            let Some(channel) = known_channel(state, channel) else {
                return error(404, 10003, "Unknown Channel");
            };
            match message.parse::<u64>().ok().filter(|id| {
                state
                    .messages
                    .get(id)
                    .is_some_and(|m| is_id(&m["channel_id"], channel))
            }) {
                Some(id) => edit_message(state, id, body),
                None => error(404, 10008, "Unknown Message"),
            }
        }
        ("GET", ["channels", _, "messages", message]) => match message
            .parse::<u64>()
            .ok()
            .and_then(|id| state.messages.get(&id))
        {
            Some(m) => (StatusCode::OK, m.clone()),
            None => error(404, 10008, "Unknown Message"),
        },
        ("DELETE", ["channels", _, "messages", message]) => match message
            .parse::<u64>()
            .ok()
            .and_then(|id| state.messages.remove(&id))
        {
            Some(_) => (StatusCode::NO_CONTENT, Value::Null),
            None => error(404, 10008, "Unknown Message"),
        },
        _ => error(404, 0, "404: Not Found"),
    }
}

fn known_channel(state: &FakeState, channel: &str) -> Option<u64> {
    channel
        .parse::<u64>()
        .ok()
        .filter(|c| state.channels.contains_key(c))
}

fn application_json() -> Value {
    json!({
        "id": APP_ID.to_string(), "name": "toguz", "icon": null, "description": "",
        "bot_public": true, "bot_require_code_grant": false, "verify_key": "00",
        "flags": 0, "owner": bot_user(), "team": null, "summary": "",
        "rpc_origins": [], "tags": [],
    })
}

// --- application commands ------------------------------------------------------------------

fn valid_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=32).contains(&n)
        && name
            .chars()
            .all(|c| c == '-' || c == '_' || c.is_alphanumeric())
        && name.to_lowercase() == name
}

fn check_localizations(v: &Value, path: &str, names: bool) -> Result<(), Reply> {
    let Some(map) = v.as_object() else {
        return if v.is_null() {
            Ok(())
        } else {
            Err(form_error(
                path,
                "DICT_TYPE_CONVERT",
                "Only dictionaries may be used in a DictType",
            ))
        };
    };
    for (locale, text) in map {
        if !LOCALES.contains(&locale.as_str()) {
            return Err(form_error(
                &format!("{path}.{locale}"),
                "ENUM_TYPE_COERCE",
                &format!("Value \"{locale}\" is not a valid enum value."),
            ));
        }
        let text = text.as_str().unwrap_or_default();
        let ok = if names {
            valid_name(text)
        } else {
            (1..=100).contains(&text.chars().count())
        };
        if !ok {
            return Err(form_error(
                &format!("{path}.{locale}"),
                if names {
                    "APPLICATION_COMMAND_INVALID_NAME"
                } else {
                    "BASE_TYPE_BAD_LENGTH"
                },
                "Invalid localized value",
            ));
        }
    }
    Ok(())
}

fn check_named(v: &Value, path: &str, description_required: bool) -> Result<(), Reply> {
    let name = v["name"].as_str().unwrap_or_default();
    if !valid_name(name) {
        return Err(form_error(
            &format!("{path}.name"),
            "APPLICATION_COMMAND_INVALID_NAME",
            "Command name is invalid",
        ));
    }
    let description = v["description"].as_str().unwrap_or_default();
    let len = description.chars().count();
    if (description_required && len == 0) || len > 100 {
        return Err(form_error(
            &format!("{path}.description"),
            "BASE_TYPE_BAD_LENGTH",
            "Must be between 1 and 100 in length.",
        ));
    }
    check_localizations(
        &v["name_localizations"],
        &format!("{path}.name_localizations"),
        true,
    )?;
    check_localizations(
        &v["description_localizations"],
        &format!("{path}.description_localizations"),
        false,
    )
}

fn check_option(o: &Value, path: &str) -> Result<(), Reply> {
    check_named(o, path, true)?;
    let kind = o["type"].as_u64().unwrap_or(0);
    if !(1..=11).contains(&kind) {
        return Err(form_error(
            &format!("{path}.type"),
            "BASE_TYPE_CHOICES",
            "Value must be one of (1..11).",
        ));
    }
    // Discord: min_length 0..=6000 and max_length 1..=6000, for string options only.
    for (key, least) in [("min_length", 0), ("max_length", 1)] {
        let Some(n) = o.get(key).filter(|v| !v.is_null()) else {
            continue;
        };
        if kind != 3 || !n.as_u64().is_some_and(|n| (least..=6000).contains(&n)) {
            return Err(form_error(
                &format!("{path}.{key}"),
                "NUMBER_TYPE_MAX",
                &format!("{key} must be between {least} and 6000, on a string option."),
            ));
        }
    }
    if let Some(choices) = o["choices"].as_array() {
        if choices.len() > 25 {
            return Err(form_error(
                &format!("{path}.choices"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be 25 or fewer in length.",
            ));
        }
        for (i, c) in choices.iter().enumerate() {
            let name = c["name"].as_str().unwrap_or_default();
            if !(1..=100).contains(&name.chars().count()) {
                return Err(form_error(
                    &format!("{path}.choices.{i}.name"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                ));
            }
            check_localizations(
                &c["name_localizations"],
                &format!("{path}.choices.{i}.name_localizations"),
                false,
            )?;
            let value_ok = match kind {
                3 => c["value"]
                    .as_str()
                    .is_some_and(|s| (1..=100).contains(&s.chars().count())),
                4 => c["value"].is_i64(),
                10 => c["value"].is_number(),
                _ => false,
            };
            if !value_ok {
                return Err(form_error(
                    &format!("{path}.choices.{i}.value"),
                    "BASE_TYPE_BAD_TYPE",
                    "Choice value does not match the option type",
                ));
            }
        }
    }
    Ok(())
}

fn register_commands(state: &mut FakeState, body: Option<Value>) -> Result<Vec<Value>, Reply> {
    let Some(Value::Array(commands)) = body else {
        return Err(form_error("_root", "BASE_TYPE_ARRAY", "Must be an array"));
    };
    if commands.len() > 100 {
        return Err(form_error(
            "_root",
            "BASE_TYPE_BAD_LENGTH",
            "Must be 100 or fewer in length.",
        ));
    }
    let mut names = HashSet::new();
    let mut out = Vec::new();
    for (i, c) in commands.iter().enumerate() {
        let kind = c["type"].as_u64().unwrap_or(1);
        check_named(c, &i.to_string(), kind == 1)?;
        if !names.insert((kind, c["name"].as_str().unwrap_or_default().to_string())) {
            return Err(form_error(
                &format!("{i}.name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                "Application command names must be unique",
            ));
        }
        let options = c["options"].as_array().cloned().unwrap_or_default();
        if options.len() > 25 {
            return Err(form_error(
                &format!("{i}.options"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be 25 or fewer in length.",
            ));
        }
        let mut seen_optional = false;
        for (j, o) in options.iter().enumerate() {
            let path = format!("{i}.options.{j}");
            check_option(o, &path)?;
            let required = o["required"].as_bool().unwrap_or(false);
            if required && seen_optional {
                return Err(form_error(
                    &path,
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                ));
            }
            seen_optional |= !required;
        }
        let mut stored = c.clone();
        stored["id"] = json!(state.snowflake().to_string());
        stored["application_id"] = json!(APP_ID.to_string());
        stored["version"] = json!(state.snowflake().to_string());
        stored["type"] = json!(kind);
        if stored.get("default_member_permissions").is_none() {
            stored["default_member_permissions"] = Value::Null;
        }
        stored["nsfw"] = json!(false);
        stored["options"] = json!(options);
        out.push(stored);
    }
    Ok(out)
}

// --- interactions and messages -------------------------------------------------------------

fn interaction_callback(state: &mut FakeState, id: &str, token: &str, body: Body) -> Reply {
    let Some(id) = id
        .parse::<u64>()
        .ok()
        .filter(|id| state.interactions.get(id).is_some_and(|i| i.token == token))
    else {
        return error(404, 10062, "Unknown interaction");
    };
    let (kind, created, acked, channel, component_message) = {
        let i = &state.interactions[&id];
        (i.kind, i.created, i.acked, i.channel, i.component_message)
    };
    if created.elapsed() > Duration::from_secs(3) && acked.is_none() {
        return error(404, 10062, "Unknown interaction");
    }
    if acked.is_some() {
        return error(400, 40060, "Interaction has already been acknowledged.");
    }
    let Some(json) = body.json.clone() else {
        return form_error("type", "BASE_TYPE_REQUIRED", "This field is required");
    };
    let response_type = json["type"].as_u64().unwrap_or(0);
    let original = match response_type {
        4 | 5 => {
            let data = if response_type == 5 {
                let flags = json["data"]["flags"].as_u64().unwrap_or(0) & 64;
                Body {
                    json: Some(json!({ "content": "", "flags": flags | 128 })),
                    files: vec![],
                }
            } else {
                Body {
                    json: Some(json["data"].clone()),
                    files: body.files,
                }
            };
            let message_type = if kind == 2 { 20 } else { 19 };
            match create_message(state, channel, data, message_type, Some(id)) {
                (StatusCode::OK, m) => Some(id_of(&m)),
                err => return err,
            }
        }
        6 | 7 if kind == 3 => {
            let message = component_message.unwrap_or(0);
            if response_type == 7 {
                let data = Body {
                    json: Some(json["data"].clone()),
                    files: body.files,
                };
                let (status, reply) = edit_message(state, message, data);
                if status != StatusCode::OK {
                    return (status, reply);
                }
            }
            Some(message)
        }
        _ => {
            return form_error(
                "type",
                "INTERACTION_RESPONSE_TYPE_INVALID",
                "Interaction response type is invalid for this interaction",
            )
        }
    };
    if let Some(i) = state.interactions.get_mut(&id) {
        i.acked = Some(response_type);
        i.original = original;
    }
    (StatusCode::NO_CONTENT, Value::Null)
}

fn webhook(
    state: &mut FakeState,
    method: &str,
    app: &str,
    token: &str,
    rest: &[&str],
    body: Body,
) -> Reply {
    let found = state
        .interactions
        .iter()
        .find(|(_, i)| i.token == token)
        .map(|(id, i)| (*id, i.acked, i.original, i.channel, i.created));
    let Some((id, acked, original, channel, created)) = found.filter(|_| app == APP_ID.to_string())
    else {
        return error(401, 50027, "Invalid Webhook Token");
    };
    if acked.is_none() || created.elapsed() > Duration::from_secs(15 * 60) {
        return error(404, 10015, "Unknown Webhook");
    }
    match (method, rest) {
        ("POST", []) => create_message(state, channel, body, 0, Some(id)),
        (_, ["messages", which]) => {
            let target = if *which == "@original" {
                original
            } else {
                which.parse().ok()
            };
            let Some(target) = target.filter(|t| state.messages.contains_key(t)) else {
                return error(404, 10008, "Unknown Message");
            };
            match method {
                "PATCH" => edit_message(state, target, body),
                "GET" => (StatusCode::OK, state.messages[&target].clone()),
                "DELETE" => {
                    state.messages.remove(&target);
                    (StatusCode::NO_CONTENT, Value::Null)
                }
                _ => error(405, 0, "405: Method Not Allowed"),
            }
        }
        _ => error(404, 0, "404: Not Found"),
    }
}

fn create_message(
    state: &mut FakeState,
    channel: u64,
    body: Body,
    message_type: u64,
    interaction: Option<u64>,
) -> Reply {
    let data = body.json.clone().unwrap_or_else(|| json!({}));
    let id = state.snowflake();
    let guild = state.channels.get(&channel).copied().flatten();
    let mut message = json!({
        "id": id.to_string(), "channel_id": channel.to_string(), "author": bot_user(),
        "content": "", "timestamp": TIMESTAMP, "edited_timestamp": null, "tts": false,
        "mention_everyone": false, "mentions": [], "mention_roles": [], "attachments": [],
        "embeds": [], "pinned": false, "type": message_type, "flags": 0, "components": [],
    });
    if let Some(guild) = guild {
        message["guild_id"] = json!(guild.to_string());
    }
    if let Some(interaction) = interaction {
        message["webhook_id"] = json!(APP_ID.to_string());
        message["application_id"] = json!(APP_ID.to_string());
        let user = state.interactions.get(&interaction).map(|i| i.user.clone());
        message["interaction_metadata"] = json!({ "id": interaction.to_string(), "type": 2,
            "user": user, "authorizing_integration_owners": {} });
    }
    if let Err(e) = apply_message(state, &mut message, &data, body.files, true) {
        return e;
    }
    // A reply must answer a message of this channel (Discord: 50035, unknown message).
    if let Some(reference) = data.get("message_reference").filter(|r| !r.is_null()) {
        let id = &reference["message_id"];
        let target = id
            .as_str()
            .and_then(|s| s.parse::<u64>().ok())
            .or(id.as_u64());
        let known = target
            .and_then(|m| state.messages.get(&m))
            .is_some_and(|m| {
                m["channel_id"].as_str().and_then(|c| c.parse().ok()) == Some(channel)
            });
        if !known {
            return form_error(
                "message_reference",
                "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                "Unknown message",
            );
        }
        message["message_reference"] = reference.clone();
    }
    let empty = message["content"] == ""
        && message["embeds"].as_array().is_none_or(Vec::is_empty)
        && message["attachments"].as_array().is_none_or(Vec::is_empty)
        && message["components"].as_array().is_none_or(Vec::is_empty);
    if empty && message["flags"].as_u64().unwrap_or(0) & 128 == 0 {
        return error(400, 50006, "Cannot send an empty message");
    }
    state.messages.insert(id, message.clone());
    (StatusCode::OK, message)
}

fn edit_message(state: &mut FakeState, id: u64, body: Body) -> Reply {
    let Some(mut message) = state.messages.get(&id).cloned() else {
        return error(404, 10008, "Unknown Message");
    };
    if !is_id(&message["author"]["id"], APP_ID) {
        return error(403, 50005, "Cannot edit a message authored by another user");
    }
    let data = body.json.clone().unwrap_or_else(|| json!({}));
    if let Err(e) = apply_message(state, &mut message, &data, body.files, false) {
        return e;
    }
    // An edit clears the loading state of a deferred answer.
    let flags = message["flags"].as_u64().unwrap_or(0) & !128;
    message["flags"] = json!(flags);
    message["edited_timestamp"] = json!(TIMESTAMP);
    state.messages.insert(id, message.clone());
    (StatusCode::OK, message)
}

/// Applies a message create/edit payload to `message`, checking Discord's limits.
fn apply_message(
    state: &mut FakeState,
    message: &mut Value,
    data: &Value,
    files: Vec<Upload>,
    create: bool,
) -> Result<(), Reply> {
    if let Some(content) = data.get("content").filter(|c| !c.is_null()) {
        let text = content.as_str().unwrap_or_default();
        if text.chars().count() > 2000 {
            return Err(form_error(
                "content",
                "BASE_TYPE_MAX_LENGTH",
                "Must be 2000 or fewer in length.",
            ));
        }
        message["content"] = json!(text);
    }
    if let Some(flags) = data.get("flags").and_then(Value::as_u64) {
        // SUPPRESS_EMBEDS, EPHEMERAL, LOADING (set by the fake), SUPPRESS_NOTIFICATIONS.
        if flags & !(4 | 64 | 128 | 4096) != 0 {
            return Err(form_error(
                "flags",
                "MESSAGE_FLAGS_INVALID",
                "Invalid message flags",
            ));
        }
        if !create && (flags & 64) != (message["flags"].as_u64().unwrap_or(0) & 64) {
            return Err(form_error(
                "flags",
                "MESSAGE_FLAGS_INVALID",
                "Cannot change the ephemeral flag",
            ));
        }
        message["flags"] = json!(flags);
    }
    if let Some(components) = data.get("components").filter(|c| !c.is_null()) {
        check_components(components)?;
        message["components"] = components.clone();
    }
    apply_attachments(state, message, data, files)?;
    if let Some(embeds) = data.get("embeds").filter(|e| !e.is_null()) {
        let embeds = check_embeds(embeds, message)?;
        message["embeds"] = embeds;
    } else if data.get("attachments").is_some() {
        // The embeds still refer to attachments by URL; nothing to re-check.
    }
    Ok(())
}

fn apply_attachments(
    state: &mut FakeState,
    message: &mut Value,
    data: &Value,
    files: Vec<Upload>,
) -> Result<(), Reply> {
    let existing: Vec<Value> = message["attachments"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut uploaded: HashMap<u64, Upload> = HashMap::new();
    for f in files {
        let index = f
            .field
            .strip_prefix("files[")
            .and_then(|s| s.strip_suffix(']'))
            .and_then(|s| s.parse::<u64>().ok());
        let Some(index) = index else {
            return Err(form_error(
                "files",
                "BASE_TYPE_BAD_NAME",
                "File field names must be files[n]",
            ));
        };
        if uploaded.insert(index, f).is_some() {
            return Err(form_error("files", "DUPLICATE", "Duplicate file index"));
        }
    }
    let channel = message["channel_id"].as_str().unwrap_or("0").to_string();
    let mut result = Vec::new();
    match data.get("attachments").filter(|a| !a.is_null()) {
        Some(list) => {
            let Some(list) = list.as_array() else {
                return Err(form_error(
                    "attachments",
                    "BASE_TYPE_ARRAY",
                    "Must be an array",
                ));
            };
            let mut used = HashSet::new();
            for (i, a) in list.iter().enumerate() {
                let aid = id_of(a);
                if let Some(old) = existing.iter().find(|e| id_of(e) == aid) {
                    result.push(old.clone());
                } else if let Some(file) = uploaded.get(&aid) {
                    used.insert(aid);
                    let filename = a["filename"].as_str().unwrap_or(&file.filename).to_string();
                    let att_id = state.snowflake();
                    result.push(attachment_json(att_id, &channel, &filename, file));
                } else {
                    return Err(form_error(
                        &format!("attachments.{i}.id"),
                        "ATTACHMENT_NOT_FOUND",
                        "Unknown attachment",
                    ));
                }
            }
            if let Some(unused) = uploaded.keys().find(|k| !used.contains(k)) {
                return Err(form_error(
                    &format!("files[{unused}]"),
                    "ATTACHMENT_NOT_REFERENCED",
                    "File is not listed in attachments",
                ));
            }
        }
        None => {
            result = existing;
            let mut keys: Vec<_> = uploaded.keys().copied().collect();
            keys.sort();
            for k in keys {
                let file = &uploaded[&k];
                let att_id = state.snowflake();
                result.push(attachment_json(
                    att_id,
                    &channel,
                    &file.filename.clone(),
                    file,
                ));
            }
        }
    }
    if result.len() > 10 {
        return Err(form_error(
            "attachments",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 10 or fewer in length.",
        ));
    }
    message["attachments"] = Value::Array(result);
    Ok(())
}

fn attachment_json(id: u64, channel: &str, filename: &str, file: &Upload) -> Value {
    json!({
        "id": id.to_string(), "filename": filename, "size": file.bytes.len(),
        "url": format!("https://cdn.discordapp.com/attachments/{channel}/{id}/{filename}"),
        "proxy_url": format!("https://media.discordapp.net/attachments/{channel}/{id}/{filename}"),
        "content_type": file.content_type,
        "_bytes": file.bytes.iter().map(|b| format!("{b:02x}")).collect::<String>(),
    })
}

/// The files of a stored message as a client downloads them: (file name, content type,
/// bytes), in the message's order.
pub fn files_of(message: &Value) -> Vec<(String, String, Vec<u8>)> {
    message["attachments"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|a| {
            let text = |k: &str| a[k].as_str().unwrap_or_default().to_string();
            (text("filename"), text("content_type"), attachment_bytes(a))
        })
        .collect()
}

/// The bytes of a stored attachment (the fake keeps them hex-encoded).
pub fn attachment_bytes(attachment: &Value) -> Vec<u8> {
    let hex = attachment["_bytes"].as_str().unwrap_or_default();
    (0..hex.len() / 2)
        .filter_map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok())
        .collect()
}

fn check_embeds(embeds: &Value, message: &Value) -> Result<Value, Reply> {
    let Some(list) = embeds.as_array() else {
        return Err(form_error("embeds", "BASE_TYPE_ARRAY", "Must be an array"));
    };
    if list.len() > 10 {
        return Err(form_error(
            "embeds",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 10 or fewer in length.",
        ));
    }
    let mut total = 0;
    let mut out = Vec::new();
    let len = |v: &Value| v.as_str().map(|s| s.chars().count()).unwrap_or(0);
    for (i, e) in list.iter().enumerate() {
        let limits = [("title", 256), ("description", 4096)];
        for (key, max) in limits {
            if len(&e[key]) > max {
                return Err(form_error(
                    &format!("embeds.{i}.{key}"),
                    "BASE_TYPE_MAX_LENGTH",
                    "Too long",
                ));
            }
            total += len(&e[key]);
        }
        let fields = e["fields"].as_array().cloned().unwrap_or_default();
        if fields.len() > 25 {
            return Err(form_error(
                &format!("embeds.{i}.fields"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 25 or fewer in length.",
            ));
        }
        for (j, f) in fields.iter().enumerate() {
            let (n, v) = (len(&f["name"]), len(&f["value"]));
            if n == 0 || n > 256 || v == 0 || v > 1024 {
                return Err(form_error(
                    &format!("embeds.{i}.fields.{j}"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Field name 1..256, value 1..1024",
                ));
            }
            total += n + v;
        }
        if len(&e["footer"]["text"]) > 2048 || len(&e["author"]["name"]) > 256 {
            return Err(form_error(
                &format!("embeds.{i}"),
                "BASE_TYPE_MAX_LENGTH",
                "Too long",
            ));
        }
        total += len(&e["footer"]["text"]) + len(&e["author"]["name"]);
        let mut stored = e.clone();
        for key in ["image", "thumbnail"] {
            let Some(url) = e[key]["url"].as_str() else {
                continue;
            };
            if let Some(name) = url.strip_prefix("attachment://") {
                let found = message["attachments"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .find(|a| a["filename"] == name)
                    .cloned();
                let Some(att) = found else {
                    return Err(form_error(
                        &format!("embeds.{i}.{key}.url"),
                        "EMBED_ATTACHMENT_NOT_FOUND",
                        "Embed refers to an attachment that is not in the message",
                    ));
                };
                stored[key] = json!({ "url": att["url"], "proxy_url": att["proxy_url"], "width": 960, "height": 400 });
            } else if !url.starts_with("https://") && !url.starts_with("http://") {
                return Err(form_error(
                    &format!("embeds.{i}.{key}.url"),
                    "URL_TYPE_INVALID_URL",
                    "Not a well formed URL.",
                ));
            }
        }
        stored["type"] = json!("rich");
        out.push(stored);
    }
    if total > 6000 {
        return Err(form_error(
            "embeds",
            "BASE_TYPE_MAX_LENGTH",
            "Embed size exceeds maximum size of 6000",
        ));
    }
    Ok(Value::Array(out))
}

fn check_components(components: &Value) -> Result<(), Reply> {
    let Some(rows) = components.as_array() else {
        return Err(form_error(
            "components",
            "BASE_TYPE_ARRAY",
            "Must be an array",
        ));
    };
    if rows.len() > 5 {
        return Err(form_error(
            "components",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 5 or fewer in length.",
        ));
    }
    let mut ids = HashSet::new();
    for (i, row) in rows.iter().enumerate() {
        if row["type"] != 1 {
            return Err(form_error(
                &format!("components.{i}.type"),
                "COMPONENT_LAYOUT_INVALID",
                "Top-level components must be action rows",
            ));
        }
        let items = row["components"].as_array().cloned().unwrap_or_default();
        if items.is_empty() || items.len() > 5 {
            return Err(form_error(
                &format!("components.{i}.components"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 5 in length.",
            ));
        }
        for (j, b) in items.iter().enumerate() {
            let path = format!("components.{i}.components.{j}");
            if b["type"] != 2 {
                return Err(form_error(
                    &path,
                    "COMPONENT_TYPE_INVALID",
                    "Only buttons are expected here",
                ));
            }
            let style = b["style"].as_u64().unwrap_or(0);
            let label = b["label"].as_str().unwrap_or_default();
            if label.chars().count() > 80 || (label.is_empty() && b["emoji"].is_null()) {
                return Err(form_error(
                    &format!("{path}.label"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Label must be 1 to 80 characters",
                ));
            }
            match style {
                1..=4 => {
                    let id = b["custom_id"].as_str().unwrap_or_default();
                    if !(1..=100).contains(&id.chars().count()) {
                        return Err(form_error(
                            &format!("{path}.custom_id"),
                            "BASE_TYPE_BAD_LENGTH",
                            "Must be between 1 and 100 in length.",
                        ));
                    }
                    if !ids.insert(id.to_string()) {
                        return Err(form_error(
                            &format!("{path}.custom_id"),
                            "COMPONENT_CUSTOM_ID_DUPLICATED",
                            "Component custom id cannot be duplicated",
                        ));
                    }
                }
                5 if b["url"].is_string() => {}
                _ => {
                    return Err(form_error(
                        &format!("{path}.style"),
                        "BUTTON_COMPONENT_INVALID",
                        "Invalid button",
                    ))
                }
            }
        }
    }
    Ok(())
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
