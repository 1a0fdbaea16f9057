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

mod activity;
mod alerts;
mod answer;
mod autocomplete;
mod board_answer;
mod commands;
pub mod config;
mod daily;
mod events;
mod failure;
mod guard;
mod handler;
mod hints;
mod history;
mod listing;
mod messages;
mod notify;
mod opening;
mod premoves;
mod puzzle;
pub mod rest;
mod tournament;
mod tournament_outlet;
mod tournament_view;

use crate::manager::limits::CommandLimit;
use crate::manager::{ChallengeView, Manager, MessageRef};
use crate::model::{Platform, UserRef};
use crate::platform::worker::Workers;
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
    let settings = config.resolve_with(
        std::env::var("DISCORD_TOKEN").ok(),
        std::env::var("DISCORD_CLIENT_SECRET").ok(),
    )?;
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
    let manager_limit = manager.config().limits.commands_per_minute;
    let flow_manager = manager.clone();
    let bot = Arc::new_cyclic(|this| Bot {
        tournaments: tournament_outlet::TournamentFlow::new(
            Arc::new(tournament_outlet::DiscordOutlet::new(this.clone())),
            flow_manager,
            "Discord tournament",
        ),
        manager,
        settings,
        bot_id: me.id,
        locks: Mutex::new(HashMap::new()),
        drawn: Mutex::new(HashMap::new()),
        cooldowns: Mutex::new(HashMap::new()),
        commands: CommandLimit::new(manager_limit),
        games: Workers::new("Discord game"),
        challenges: Workers::new("Discord challenge"),
        commands_registered: AtomicBool::new(false),
        daily: daily::DailyPosts::default(),
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
            let client = rest::bounded_pool(reqwest::Client::builder())
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
            let client = rest::bounded_pool(reqwest::Client::builder())
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
/// messages show is in the manager; `drawn` only saves needless edits. Every map here holds
/// only what is in use: games with work in hand, messages of games not yet over, members
/// within their cooldown.
pub(crate) struct Bot {
    manager: Manager,
    settings: DiscordSettings,
    bot_id: UserId,
    /// One lock per game or challenge (`g:<id>`, `c:<id>`) while someone holds or waits for
    /// it: an answer and the reading of what to redraw happen in order.
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// What each message (by id) shows, as far as we know.
    drawn: Mutex<HashMap<u64, Shown>>,
    /// When each member last challenged someone.
    cooldowns: Mutex<HashMap<String, Instant>>,
    /// Each user's costly lookups (`/review`, `/leaderboard`, ...) per minute: the policy
    /// every platform shares (`manager::limits`), by Discord user id.
    commands: CommandLimit<String>,
    /// The redraw worker of each game with events to show (events.rs).
    games: Workers<()>,
    /// The worker of each closed challenge whose messages are to be edited.
    challenges: Workers<ChallengeView>,
    commands_registered: AtomicBool,
    /// The tournaments with news to show: the shared flow over this adapter's outlet.
    tournaments: tournament_outlet::TournamentFlow,
    /// The daily puzzle posts to make or redraw, per channel.
    daily: daily::DailyPosts,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Drawn {
    Game(Stamp),
    Challenge,
}

/// What a message shows, and the writes of it: two writes that overlap (an answer to a
/// press and an edit by the event worker) may land in either order, so what the message
/// shows is known only after a write that no other write overlapped, whichever began
/// first. An edit held up by a 429 that began before an answer and lands after it would
/// otherwise put back the older board while the newer one is taken as shown.
#[derive(Clone, Copy, Debug, Default)]
struct Shown {
    /// Writes begun: the last one's ticket.
    writes: u64,
    /// Writes begun and not yet ended.
    in_flight: u32,
    /// Whether two of the writes in flight (since none was) overlapped.
    overlapped: bool,
    what: Option<Drawn>,
}

impl Shown {
    fn begin(&mut self) -> u64 {
        if self.in_flight > 0 {
            self.overlapped = true;
        }
        self.in_flight += 1;
        self.writes += 1;
        self.what = None;
        self.writes
    }

    /// The write `ticket` ended, having landed showing `landed` (`None`: it failed, and
    /// may or may not have landed). True when what the message shows is now known.
    fn end(&mut self, ticket: u64, landed: Option<Drawn>) -> bool {
        self.in_flight = self.in_flight.saturating_sub(1);
        let known = landed.is_some() && !self.overlapped && ticket == self.writes;
        if known {
            self.what = landed;
        }
        if self.in_flight == 0 {
            self.overlapped = false;
        }
        known
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// How long an answer waits for another task that is updating the same game.
const LOCK_WAIT: Duration = Duration::from_millis(1500);
/// Past this many entries `drawn` is cleared (a safety net; entries leave when games end).
const MAX_DRAWN: usize = 100_000;

/// A held game or challenge lock; the lock leaves the map when nobody holds or awaits it.
struct Held<'a> {
    guard: Option<tokio::sync::OwnedMutexGuard<()>>,
    key: String,
    locks: &'a Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        drop(self.guard.take());
        prune_lock(self.locks, &self.key);
    }
}

/// Removes an unused lock. Clones are made under the map's lock, so a count of one (the
/// map's own) means nobody holds or awaits it.
fn prune_lock(locks: &Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>, key: &str) {
    let mut locks = lock(locks);
    if locks.get(key).is_some_and(|l| Arc::strong_count(l) == 1) {
        locks.remove(key);
    }
}

impl Bot {
    /// Takes the lock of a game or challenge, waiting at most [`LOCK_WAIT`] (after that wait
    /// it goes ahead unlocked: the answer matters more, and a redraw catches up).
    async fn hold(&self, key: String) -> Option<Held<'_>> {
        self.hold_within(key, LOCK_WAIT).await
    }

    /// Takes the lock of a game for a worker, which has no deadline: it waits until an
    /// answer in progress is out, so it never reads what to redraw in the middle of one.
    async fn hold_patiently(&self, key: String) -> Option<Held<'_>> {
        self.hold_within(key, Duration::MAX).await
    }

    async fn hold_within(&self, key: String, wait: Duration) -> Option<Held<'_>> {
        let slot = lock(&self.locks).entry(key.clone()).or_default().clone();
        let guard = match wait {
            Duration::MAX => Some(slot.lock_owned().await),
            wait => tokio::time::timeout(wait, slot.lock_owned()).await.ok(),
        };
        match guard {
            Some(guard) => Some(Held {
                guard: Some(guard),
                key,
                locks: &self.locks,
            }),
            None => {
                prune_lock(&self.locks, &key);
                None
            }
        }
    }

    fn drawn(&self, message: u64) -> Option<Drawn> {
        lock(&self.drawn).get(&message).and_then(|s| s.what)
    }

    /// Before a message is drawn again: until this write is confirmed, what it shows is
    /// unknown. Returns the ticket for [`Bot::end_draw`].
    fn begin_draw(&self, message: u64) -> u64 {
        let mut drawn = lock(&self.drawn);
        if drawn.len() > MAX_DRAWN {
            drawn.clear();
        }
        drawn.entry(message).or_default().begin()
    }

    /// The write with `ticket` ended: it landed showing `landed`, or failed (`None`). The
    /// message shows `landed` only if no other write overlapped this one; else what it
    /// shows stays unknown and the next redraw draws it again. Every begun write is ended,
    /// failed ones too. Returns whether what the message shows is known now: a caller that
    /// gets false must see to a redraw.
    fn end_draw(&self, message: u64, ticket: u64, landed: Option<Drawn>) -> bool {
        lock(&self.drawn)
            .get_mut(&message)
            .is_some_and(|shown| shown.end(ticket, landed))
    }

    /// A message just posted shows `what`, unless another write of it has begun since: its
    /// id may be read back seconds after the post (the read failing meanwhile), and a press
    /// on it in those seconds (an accept turning a challenge into a board) drew it anew.
    fn set_posted(&self, message: u64, what: Drawn) {
        if !lock(&self.drawn).contains_key(&message) {
            self.set_drawn(message, what);
        }
    }

    /// A message just written shows `what`.
    fn set_drawn(&self, message: u64, what: Drawn) {
        let ticket = self.begin_draw(message);
        self.end_draw(message, ticket, Some(what));
    }

    /// Forgets messages that will not change again (a finished game, a closed challenge).
    fn forget_drawn(&self, messages: &[MessageRef], only: impl Fn(Option<Drawn>) -> bool) {
        let mut drawn = lock(&self.drawn);
        for (_, message) in messages.iter().filter_map(parse_message_ref) {
            if only(drawn.get(&message).and_then(|s| s.what)) {
                drawn.remove(&message);
            }
        }
    }

    /// Entries in the per-game and per-message maps (for the flat-memory checks).
    fn tracked(&self) -> [usize; 5] {
        [
            lock(&self.locks).len(),
            lock(&self.drawn).len(),
            lock(&self.cooldowns).len(),
            self.games.len(),
            self.challenges.len(),
        ]
    }
}

#[cfg(test)]
impl Bot {
    /// A bot on `manager` with default settings, for unit tests.
    pub(super) fn for_tests(manager: Manager) -> Bot {
        const TOKEN: &str =
            "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB";
        let settings = DiscordConfig::default()
            .resolve(Some(TOKEN.into()))
            .expect("test settings");
        let manager_limit = manager.config().limits.commands_per_minute;
        let flow_manager = manager.clone();
        Bot {
            tournaments: tournament_outlet::TournamentFlow::new(
                Arc::new(tournament_outlet::DiscordOutlet::new(std::sync::Weak::new())),
                flow_manager,
                "Discord tournament",
            ),
            manager,
            settings,
            bot_id: UserId::new(1),
            locks: Mutex::new(HashMap::new()),
            drawn: Mutex::new(HashMap::new()),
            cooldowns: Mutex::new(HashMap::new()),
            commands: CommandLimit::new(manager_limit),
            games: Workers::new("Discord game"),
            challenges: Workers::new("Discord challenge"),
            commands_registered: AtomicBool::new(false),
            daily: daily::DailyPosts::default(),
        }
    }
}

/// How a Discord message is named to the manager: `channel:message`.
pub(crate) fn message_ref(channel: u64, message: u64) -> MessageRef {
    MessageRef {
        platform: Platform::Discord,
        id: format!("{channel}:{message}"),
    }
}

/// How a board sent to a player in their DM is named: `user@channel:message`. The owner is
/// in the name because a DM channel's id does not say whose it is, and the board is drawn
/// from its owner's side on every redraw, after a restart too. Its place (up to the last
/// `:`) is still one per DM channel.
pub(crate) fn dm_message_ref(owner: u64, channel: u64, message: u64) -> MessageRef {
    MessageRef {
        platform: Platform::Discord,
        id: format!("{owner}@{channel}:{message}"),
    }
}

/// The channel and message of a stored ref, if it is one of ours (a DM board's too).
pub(crate) fn parse_message_ref(r: &MessageRef) -> Option<(u64, u64)> {
    if r.platform != Platform::Discord {
        return None;
    }
    let (place, m) = r.id.split_once(':')?;
    let c = place.split_once('@').map_or(place, |(_, channel)| channel);
    Some((c.parse().ok()?, m.parse().ok()?))
}

/// The user whose DM a board is in (`dm_message_ref`), if it is such a board.
pub(crate) fn dm_owner(r: &MessageRef) -> Option<u64> {
    parse_message_ref(r)?;
    let (owner, _) = r.id.split_once('@')?;
    owner.parse().ok()
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
        assert_eq!(dm_owner(&r), None);
    }

    #[test]
    fn a_dm_boards_ref_names_its_owner_and_parses_as_any_other() {
        let r = dm_message_ref(77, 12, 34);
        assert_eq!(r.id, "77@12:34");
        assert_eq!(parse_message_ref(&r), Some((12, 34)));
        assert_eq!(dm_owner(&r), Some(77));
        assert_eq!(r.place(), "77@12", "one place per DM channel");
        let forged = MessageRef {
            platform: Platform::Discord,
            id: "x@12:34".into(),
        };
        assert_eq!(dm_owner(&forged), None);
    }

    const OLD: Drawn = Drawn::Challenge;

    fn board(ply: u16) -> Drawn {
        Drawn::Game(Stamp {
            version: u64::from(ply),
            over: false,
            bot_busy: false,
        })
    }

    #[test]
    fn a_write_no_other_overlapped_is_known_to_show_what_it_sent() {
        let mut shown = Shown::default();
        let ticket = shown.begin();
        assert_eq!(shown.what, None, "unknown while on its way");
        assert!(shown.end(ticket, Some(board(1))));
        assert_eq!(shown.what, Some(board(1)));
    }

    #[test]
    fn a_failed_write_leaves_the_message_unknown() {
        let mut shown = Shown::default();
        let ticket = shown.begin();
        assert!(!shown.end(ticket, None));
        assert_eq!(shown.what, None);
        // The next write alone settles it.
        let ticket = shown.begin();
        assert!(shown.end(ticket, Some(board(2))));
    }

    /// The lost board of the long soak: an edit held up by a 429 began before an answer to
    /// a press and landed after it, putting back the older board, while the answer had
    /// marked the message as showing the newer one.
    #[test]
    fn an_older_write_landing_after_a_newer_one_leaves_the_message_unknown() {
        let mut shown = Shown::default();
        let edit = shown.begin();
        let answer = shown.begin();
        assert!(
            !shown.end(answer, Some(board(2))),
            "an older write is still on its way"
        );
        assert!(!shown.end(edit, Some(board(1))));
        assert_eq!(shown.what, None, "drawn again, not taken as showing either");
        let again = shown.begin();
        assert!(shown.end(again, Some(board(2))));
        assert_eq!(shown.what, Some(board(2)));
    }

    #[test]
    fn overlapping_writes_leave_the_message_unknown_whichever_ends_last() {
        let mut shown = Shown::default();
        let first = shown.begin();
        let second = shown.begin();
        assert!(!shown.end(first, Some(OLD)));
        assert!(
            !shown.end(second, Some(board(3))),
            "either may have landed last"
        );
        assert_eq!(shown.what, None);
    }
}
