//! The Discord adapter (issue 8): slash commands and buttons in servers and DMs, on serenity.
//!
//! ```text
//! INTERACTION_CREATE -> handler.rs (one global handler; custom_ids are manager button data)
//!   -> Manager::act -> messages.rs draws the view -> the interaction is answered
//!      (a button press updates the pressed message in place: UPDATE_MESSAGE with the board)
//! manager Event (bot moved, time-out, challenge expired) -> events.rs edits the messages
//!   attached to the game or challenge (their refs are stored, so this works after a restart)
//! ```
//! REST goes straight to Discord with serenity's rate limiter, or, with `proxy_url`, through
//! [`rest::RestGate`] which honours 429s and retries failures (serenity's limiter ignores proxies).

mod commands;
pub mod config;
mod events;
mod handler;
mod messages;
pub mod rest;

use crate::manager::{Manager, MessageRef, Platform, UserRef};
use anyhow::Context as _;
use config::{DiscordConfig, DiscordSettings, Shards};
use messages::Stamp;
use serenity::all::{ApplicationId, GatewayIntents, Http, HttpBuilder, UserId};
use serenity::client::ClientBuilder;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Runs the Discord bot until the gateway connection ends for good.
pub async fn serve(config: DiscordConfig, manager: Manager) -> anyhow::Result<()> {
    let settings = config.resolve(std::env::var("DISCORD_TOKEN").ok())?;
    serve_with(settings, manager).await
}

/// Runs the bot with checked settings.
pub async fn serve_with(settings: DiscordSettings, manager: Manager) -> anyhow::Result<()> {
    let gate = match &settings.proxy_url {
        Some(upstream) => Some(
            rest::RestGate::start(upstream, settings.request_timeout, settings.max_retries)
                .await
                .context("cannot start the Discord REST gate")?,
        ),
        None => None,
    };
    let http = build_http(&settings, gate.as_ref())?;
    let me = http.get_current_user().await.map_err(start_error)?;
    tracing::info!(bot = %me.name, id = me.id.get(), "Discord: logged in");
    let bot_user = UserRef::new(Platform::Discord, me.id.to_string(), me.name.clone());
    manager.register_bot_user(&bot_user);
    if let Some(app) = settings.application_id {
        http.set_application_id(ApplicationId::new(app));
    }
    let shards = settings.shards;
    let bot = Arc::new(Bot {
        manager,
        settings,
        bot_id: me.id,
        locks: Mutex::new(HashMap::new()),
        drawn: Mutex::new(HashMap::new()),
        cooldowns: Mutex::new(HashMap::new()),
        commands_registered: AtomicBool::new(false),
    });
    // Interactions need no intents at all; GUILDS is not privileged.
    let mut client = ClientBuilder::new_with_http(http, GatewayIntents::GUILDS)
        .event_handler(handler::Handler { bot: bot.clone() })
        .await
        .context("cannot build the Discord client")?;
    let events = tokio::spawn(events::run(bot.clone(), client.http.clone()));
    let result = match shards {
        Shards::Auto => client.start_autosharded().await,
        // serenity reads the range's end as the last shard, inclusive.
        Shards::Range { first, last, total } => client.start_shard_range(first..last, total).await,
    };
    events.abort();
    drop(gate);
    result.map_err(|e| anyhow::anyhow!("the Discord gateway connection ended: {e}"))
}

fn build_http(settings: &DiscordSettings, gate: Option<&rest::RestGate>) -> anyhow::Result<Http> {
    let builder = HttpBuilder::new(settings.token.expose());
    Ok(match gate {
        // Through the gate: serenity's limiter would bypass the proxy, so it is off and the
        // gate handles 429s; the gate bounds each attempt, this bounds the whole call.
        Some(gate) => {
            let patience = settings.request_timeout * (settings.max_retries + 2);
            let client = reqwest::Client::builder()
                .timeout(patience + Duration::from_secs(30))
                .build()
                .context("cannot build the HTTP client")?;
            builder
                .client(client)
                .proxy(gate.url())
                .ratelimiter_disabled(true)
                .build()
        }
        None => {
            let client = reqwest::Client::builder()
                .use_rustls_tls()
                .timeout(settings.request_timeout)
                .build()
                .context("cannot build the HTTP client")?;
            builder.client(client).build()
        }
    })
}

/// A start-up error that says what to fix and never shows the token.
fn start_error(err: serenity::Error) -> anyhow::Error {
    use serenity::http::HttpError;
    match &err {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(resp))
            if resp.status_code.as_u16() == 401 =>
        {
            anyhow::anyhow!(
                "Discord rejected the bot token (401 Unauthorized): check discord.token or DISCORD_TOKEN"
            )
        }
        serenity::Error::Http(HttpError::UnsuccessfulRequest(resp)) => anyhow::anyhow!(
            "Discord answered {} to the start-up check (GET /users/@me): {}",
            resp.status_code,
            resp.error.message
        ),
        _ => anyhow::anyhow!("cannot reach Discord for the start-up check: {err}"),
    }
}

/// State shared by the interaction handler and the event task. Holds no game state: what
/// messages show is in the manager; `drawn` only saves needless edits.
pub(crate) struct Bot {
    manager: Manager,
    settings: DiscordSettings,
    bot_id: UserId,
    /// One lock per game or challenge (`g:<id>`, `c:<id>`): answers and edits of one game
    /// happen in order, so an older board never overwrites a newer one.
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// What each message (by id) was last drawn with.
    drawn: Mutex<HashMap<u64, Drawn>>,
    /// When each member last challenged someone.
    cooldowns: Mutex<HashMap<String, Instant>>,
    commands_registered: AtomicBool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Drawn {
    Game(Stamp),
    Challenge,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// How long an answer waits for another task that is updating the same game.
const LOCK_WAIT: Duration = Duration::from_millis(1500);

impl Bot {
    /// Takes the lock of a game or challenge, waiting at most [`LOCK_WAIT`] (an interaction
    /// must be answered within 3 s; after that wait it goes ahead unlocked).
    async fn hold(&self, key: String) -> Option<tokio::sync::OwnedMutexGuard<()>> {
        let slot = {
            let mut locks = lock(&self.locks);
            if locks.len() > 10_000 {
                locks.retain(|_, l| Arc::strong_count(l) > 1);
            }
            locks.entry(key).or_default().clone()
        };
        tokio::time::timeout(LOCK_WAIT, slot.lock_owned())
            .await
            .ok()
    }

    fn drawn(&self, message: u64) -> Option<Drawn> {
        lock(&self.drawn).get(&message).copied()
    }

    fn set_drawn(&self, message: u64, what: Drawn) {
        let mut drawn = lock(&self.drawn);
        if drawn.len() > 100_000 {
            drawn.clear();
        }
        drawn.insert(message, what);
    }
}

/// How a Discord message is named to the manager: `channel:message`.
pub(crate) fn message_ref(channel: u64, message: u64) -> MessageRef {
    MessageRef {
        platform: Platform::Discord,
        id: format!("{channel}:{message}"),
    }
}

/// The channel and message of a stored ref, if it is one of ours.
pub(crate) fn parse_message_ref(r: &MessageRef) -> Option<(u64, u64)> {
    if r.platform != Platform::Discord {
        return None;
    }
    let (c, m) = r.id.split_once(':')?;
    Some((c.parse().ok()?, m.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_refs_round_trip_and_reject_others() {
        let r = message_ref(12, 34);
        assert_eq!(r.id, "12:34");
        assert_eq!(parse_message_ref(&r), Some((12, 34)));
        let other = MessageRef {
            platform: Platform::Telegram,
            id: "12:34".into(),
        };
        assert_eq!(parse_message_ref(&other), None);
        let broken = MessageRef {
            platform: Platform::Discord,
            id: "inline:xyz".into(),
        };
        assert_eq!(parse_message_ref(&broken), None);
    }
}
