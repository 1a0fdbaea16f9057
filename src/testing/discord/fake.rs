//! The running fake Discord: what a test does with it (slash commands, button presses,
//! gateway events, scripted failures) and what it reads back, waiting for the bot where it
//! must.

use super::gateway::gateway;
use super::limits::Refusal;
use super::rest::rest;
use super::state::{member_json, Chaos, FakeState, Interaction, Scripted, Shared};
use super::{buttons, first_legal_pit, id_of, is_id, to_move, Call, Failure, Place, User, APP_ID};
use crate::testing::Lifted;
use axum::routing::get;
use axum::Router;
use serde_json::{json, Map, Value};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// The fake Discord. Dropping it leaves the server running until the test's runtime ends.
#[derive(Clone)]
pub struct FakeDiscord {
    shared: Arc<Shared>,
}

impl FakeDiscord {
    pub async fn start() -> FakeDiscord {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the fake Discord");
        let addr = listener.local_addr().expect("local addr");
        let (version, _) = watch::channel(0);
        let mut state = FakeState::default();
        state.recommended_shards = 1;
        state.next_id = 1_200_000_000_000_000_000;
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

    /// A fresh OAuth2 code for `user`, as the Discord client's `authorize` hands an
    /// Activity: good for one exchange at `POST /oauth2/token`, for ten minutes.
    pub fn oauth_code(&self, user: &User) -> String {
        self.shared.lock().oauth.issue_code(user)
    }

    /// Makes `code` older than Discord keeps codes.
    pub fn expire_oauth_code(&self, code: &str) {
        self.shared.lock().oauth.expire_code(code);
    }

    /// Turns Activities on for the application (the Developer Portal's switch), which
    /// LAUNCH_ACTIVITY needs.
    pub fn enable_activities(&self) {
        self.shared.lock().activities = true;
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

    /// `user` takes no DMs from the bot (closed DMs, the bot blocked): Discord refuses the
    /// bot's messages to them with 403, code 50007.
    pub fn close_dms(&self, user: &User) {
        self.shared.lock().dms.closed.insert(user.id);
    }

    /// `user` takes DMs from the bot again.
    pub fn open_dms(&self, user: &User) {
        self.shared.lock().dms.closed.remove(&user.id);
    }

    /// The DM channel the bot opened with `user`, if it did.
    pub fn dm_channel_of(&self, user: &User) -> Option<u64> {
        self.shared.lock().dms.by_user.get(&user.id).copied()
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

    /// Stops enforcing Discord's rate limits (limits.rs) for the rest of the test, for the
    /// reason `lifted` gives. Scripted and random failures still apply.
    pub fn lift_limits(&self, lifted: Lifted) {
        self.shared.lock().rate_limits.lift(lifted);
    }

    /// Why the rate limits are lifted, if they are.
    pub fn limits_lifted(&self) -> Option<String> {
        let state = self.shared.lock();
        state.rate_limits.lifted().map(|l| l.reason().to_string())
    }

    /// The requests answered 429 because they were over one of Discord's rate limits,
    /// oldest first (scripted and random 429s are not among them).
    pub fn rate_limit_refusals(&self) -> Vec<Refusal> {
        self.shared.lock().rate_limits.refusals().to_vec()
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

    /// What a player sees of a message (id, channel, content, embeds, components), without
    /// copying the rest.
    pub fn message_view(&self, id: u64) -> Option<Value> {
        let state = self.shared.lock();
        let m = state.message(id)?;
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
        self.shared.lock().message(id).cloned()
    }

    /// Messages in a channel, oldest first.
    pub fn channel_messages(&self, channel: u64) -> Vec<Value> {
        let state = self.shared.lock();
        let mut list: Vec<Value> = state.channel_messages(channel).cloned().collect();
        list.reverse();
        list
    }

    /// The newest message of `channel` that `pred` accepts (without copying the others).
    pub fn newest_in_channel(&self, channel: u64, pred: impl Fn(&Value) -> bool) -> Option<Value> {
        let state = self.shared.lock();
        let found = state.channel_messages(channel).find(|m| pred(m));
        found.cloned()
    }

    /// The bytes of an attachment of a stored message, as a client downloads them from
    /// its `url` (empty when the fake records lightly and so keeps no files).
    pub fn attachment_bytes(&self, attachment: &Value) -> Vec<u8> {
        let state = self.shared.lock();
        state
            .files
            .get(&id_of(attachment))
            .cloned()
            .unwrap_or_default()
    }

    /// The files of a stored message as a client downloads them: (file name, content
    /// type, bytes), in the message's order.
    pub fn files_of(&self, message: &Value) -> Vec<(String, String, Vec<u8>)> {
        message["attachments"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|a| {
                let text = |k: &str| a[k].as_str().unwrap_or_default().to_string();
                (
                    text("filename"),
                    text("content_type"),
                    self.attachment_bytes(a),
                )
            })
            .collect()
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
        check: impl FnMut(&FakeDiscord) -> Option<T>,
    ) -> T {
        match self.try_wait_for(timeout, check).await {
            Some(found) => found,
            None => panic!(
                "timed out waiting for {what}; calls so far:\n{}",
                self.describe_calls()
            ),
        }
    }

    /// `wait_for`, with `None` when `timeout` passes first.
    pub async fn try_wait_for<T>(
        &self,
        timeout: Duration,
        mut check: impl FnMut(&FakeDiscord) -> Option<T>,
    ) -> Option<T> {
        let mut rx = self.shared.version.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if let Some(found) = check(self) {
                return Some(found);
            }
            match tokio::time::timeout_at(deadline, rx.changed()).await {
                Ok(Ok(())) => {}
                _ => return check(self),
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
        state.message(id).cloned()
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

    /// The calls whose path names any of `needles` (a message or interaction id), with
    /// their time since the first call and what they showed (the callback type, the first
    /// button's custom_id): what a soak prints about one lost board.
    pub fn describe_calls_about(&self, needles: &[String]) -> String {
        let calls = self.calls();
        let Some(first) = calls.first().map(|c| c.at) else {
            return String::new();
        };
        calls
            .iter()
            .filter(|c| needles.iter().any(|n| c.path.contains(n.as_str())))
            .map(|c| {
                let shown = c.json.as_ref().map(|j| {
                    let data = j.get("data").unwrap_or(j);
                    let first_button = buttons(data)
                        .first()
                        .and_then(|b| b["custom_id"].as_str().map(str::to_string));
                    // The start of the text says which answer it was (a refusal, say).
                    let content: String = data["content"]
                        .as_str()
                        .unwrap_or_default()
                        .chars()
                        .take(100)
                        .collect();
                    format!(
                        "type={:?} first_button={first_button:?} content={content:?}",
                        j.get("type")
                    )
                });
                format!(
                    "{:>9.3} s {} {} -> {} {}",
                    c.at.duration_since(first).as_secs_f64(),
                    c.method,
                    c.path,
                    c.status,
                    shown.unwrap_or_default()
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

    /// A player typing into an option of `/name` with autocomplete, as the client reports
    /// it: `options` as typed so far, the one being typed with `"focused": true` (inside its
    /// subcommand for a command of subcommands). That option must be registered with
    /// `autocomplete` (a client asks for no other). Returns the interaction id; the bot
    /// answers with its choices (callback type 8).
    pub fn autocomplete(&self, user: &User, place: Place, name: &str, options: Value) -> u64 {
        {
            let state = self.shared.lock();
            let guild = place.guild().and_then(|g| state.guild_commands.get(&g));
            let command = state
                .global_commands
                .iter()
                .chain(guild.into_iter().flatten())
                .find(|c| c["name"] == name)
                .unwrap_or_else(|| panic!("/{name} is not a registered command"));
            let focused = focused_definition(command, &options)
                .unwrap_or_else(|| panic!("/{name}: no focused option in {options}"));
            assert_eq!(
                focused["autocomplete"], true,
                "/{name}: a client asks for suggestions only for an option with autocomplete"
            );
        }
        let data = json!({
            "id": "1100000000000000100", "name": name, "type": 1, "options": options,
        });
        self.interaction(user, place, 4, data, None)
    }

    /// `/name` as a client with an outdated list of our commands may send it: the options
    /// are not checked against the registered ones (a command of subcommands may arrive
    /// with none). Returns the interaction id.
    pub fn slash_outdated(&self, user: &User, place: Place, name: &str, options: Value) -> u64 {
        let data = json!({
            "id": "1100000000000000100", "name": name, "type": 1,
            "options": options, "resolved": {},
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
        check_given(&format!("/{name}"), command, options);
    }

    /// Member permissions (a bit set, as Discord computes them in the channel) that
    /// `user`'s interactions carry from now on, instead of the default (no Manage Server).
    pub fn set_permissions(&self, user: &User, permissions: u64) {
        self.shared.lock().permissions.insert(user.id, permissions);
    }

    /// The Discord client locale (`ru`, `en-GB`...) of `user`'s interactions from now on.
    pub fn set_locale(&self, user: &User, locale: &str) {
        self.shared
            .lock()
            .locales
            .insert(user.id, locale.to_string());
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
        let (guild, recipient) = {
            let state = self.shared.lock();
            let guild = state.channels.get(&channel).copied().flatten();
            (guild, state.dms.recipient(channel))
        };
        // Only its recipient sees a DM between the bot and a user.
        assert!(
            recipient.is_none_or(|r| r == user.id),
            "user {} cannot see the DM of user {recipient:?}",
            user.id
        );
        let place = match guild {
            Some(guild) => Place::Guild { guild, channel },
            None => Place::Dm { channel },
        };
        let data = json!({ "custom_id": custom_id, "component_type": 2 });
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
            state.tokens.insert(token.clone(), id);
            state.interactions.insert(
                id,
                Interaction {
                    token: token.clone(),
                    kind,
                    created: Instant::now(),
                    acked: None,
                    channel: place.channel(),
                    component_message: message.as_ref().map(id_of),
                    original: None,
                    user: user.json(),
                },
            );
            (id, token)
        };
        let channel_type = if place.guild().is_some() { 0 } else { 1 };
        let locale = self
            .shared
            .lock()
            .locales
            .get(&user.id)
            .cloned()
            .unwrap_or_else(|| "en-US".to_string());
        let mut d = json!({
            "id": id.to_string(), "application_id": APP_ID.to_string(), "type": kind,
            "data": data, "channel_id": place.channel().to_string(),
            "channel": { "id": place.channel().to_string(), "type": channel_type },
            "token": token, "version": 1, "locale": locale,
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
                if let Some(p) = self.shared.lock().permissions.get(&user.id) {
                    d["member"]["permissions"] = json!(p.to_string());
                }
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
    fn dispatch(&self, event: &str, d: Value, guild: Option<u64>) {
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

/// The definition of the option `given` marks `"focused"`, looked for in subcommands too.
fn focused_definition<'a>(defined: &'a Value, given: &Value) -> Option<&'a Value> {
    given.as_array()?.iter().find_map(|g| {
        let d = defined["options"]
            .as_array()?
            .iter()
            .find(|d| d["name"] == g["name"])?;
        if g["focused"] == true {
            Some(d)
        } else {
            focused_definition(d, &g["options"])
        }
    })
}

/// What a real client sends for a command (or subcommand) `defined`: only its options, of
/// their types, every required one, strings within `max_length`, integers within
/// `min_value`..`max_value`, a subcommand's own options likewise. Anything else panics (a
/// test bug). Choices are not checked: forged and outdated clients send other values.
fn check_given(what: &str, defined: &Value, given: &Value) {
    let defined_options: Vec<&Value> = defined["options"]
        .as_array()
        .into_iter()
        .flatten()
        .collect();
    let given: Vec<&Value> = given.as_array().into_iter().flatten().collect();
    for g in &given {
        let d = defined_options
            .iter()
            .find(|d| d["name"] == g["name"])
            .unwrap_or_else(|| panic!("{what} has no option {}", g["name"]));
        assert_eq!(d["type"], g["type"], "{what} {g}");
        if let (Some(max), Some(text)) = (d["max_length"].as_u64(), g["value"].as_str()) {
            let n = text.chars().count() as u64;
            assert!(n <= max, "{what} {g}: longer than max_length {max}");
        }
        if let Some(n) = g["value"].as_i64().filter(|_| d["type"] == 4) {
            let least = d["min_value"].as_i64().unwrap_or(i64::MIN);
            let most = d["max_value"].as_i64().unwrap_or(i64::MAX);
            assert!(
                (least..=most).contains(&n),
                "{what} {g}: out of {least}..={most}"
            );
        }
        if matches!(d["type"].as_u64(), Some(1 | 2)) {
            check_given(&format!("{what} {}", g["name"]), d, &g["options"]);
        }
    }
    let nested = defined_options
        .iter()
        .any(|d| matches!(d["type"].as_u64(), Some(1 | 2)));
    if nested {
        assert_eq!(
            given.len(),
            1,
            "{what}: a client sends exactly one subcommand"
        );
    }
    for d in defined_options.iter().filter(|d| d["required"] == true) {
        assert!(
            given.iter().any(|g| g["name"] == d["name"]),
            "{what}: the required option {} is missing",
            d["name"]
        );
    }
}
