//! The platform-neutral game manager (issue 4).
//!
//! Every adapter (console, Telegram, Discord) talks to one shared [`Manager`]: it turns a
//! native event into a [`Request`] (who, in which chat, which [`Action`]), calls
//! [`Manager::act`], and draws the [`Reply`] with its own widgets (the shared texts are in
//! `platform::present`). Changes nobody asked for directly (the bot's reply, a time-out, an
//! expired challenge) arrive as [`Event`]s from [`Manager::subscribe`]. The manager never
//! names a platform type.
//!
//! ```text
//! act(Request) -> lock the game (one async lock per game) -> check who may act
//!              -> apply through rules -> write to sled -> group commit (flush)
//!              -> unlock -> Ok(Reply)         nothing is answered before the flush returns
//! bot to move  -> engine on the blocking pool -> the same path -> Event::Game
//! ```
//!
//! API summary (the agreed contract, with these refinements):
//! - `Manager::start(store, engine, config)` loads the ongoing games and open challenges
//!   (the store's live trees; a record that fails to decode is logged with its key and
//!   skipped), closes expired challenges,
//!   applies time-outs, resumes bot moves that were due, and starts the background task
//!   (expiry and the no-move time-out, every `limits.sweep_interval_secs`).
//! - `Event` has three variants: `Game(view)` for changes no one was answered about (the bot
//!   moved, a time-out), `Acted { view, actor }` for a person's change that was answered to
//!   them (for notifying the other player), `Challenge(view)` (expired, accepted).
//! - Button data: [`buttons`] (`encode`, `decode`, `Button::into_action`); a button also
//!   exists for `Abort`.
//! - Errors: [`ActionError`]; the extra variants `ChallengeClosed`, `GameNotOver`,
//!   `AmbiguousGame`, `TooLateToAbort`, `DrawAlreadyOffered`, `NoDrawOffer`,
//!   `BotDeclinesDraw`, `RematchExists` all have catalog text.
//! - `register_bot_user(user)`: adapters name their own bot account, so challenging it is
//!   refused with `ChallengeBot`.
//! - Against the bot, a draw offer is accepted at once if the bot's kazan holds fewer balls
//!   than the human's, and refused with `BotDeclinesDraw` otherwise.
//! - `Clock`: `Manager::start_with_clock` takes a manual clock (tests move time with
//!   `Clock::advance` and call `Manager::sweep`).
//! - Memory holds ongoing games and open challenges (and whatever is in use); finished games
//!   and closed challenges are read back from the archive when asked for (`Manager::loaded`)
//!   and leave memory again when their last user lets go (a drop guard, on every path).
//! - `store_failed()` resolves once a flush failed; `toguz run` and `toguz play` then exit
//!   non-zero (docs/store.md).
//! - Presentation (captions, results, challenge texts, error texts, labelled buttons) is in
//!   `platform::present`, shared by every adapter.
//!
//! Files: this one holds `Manager`, start-up and `act`'s dispatch; `slots` the per-game and
//! per-challenge lock slots and durable writes; `creation` a new game; `challenges` and
//! `games` the actions; `background` the bot's moves and the sweeper; `users` languages,
//! handles and claims; `clock` the time source and `timers` the flag timers; `takeover` what
//! other processes made; `seats` and `shared_limits` limits counted in the store; `index`
//! who has what; `game` and `view` the records and views; `ended` how an archived game
//! ended.

pub mod alerts;
pub mod buttons;
pub mod config;
mod ended;
mod error;
pub mod explorer;
mod explorer_games;
mod game;
pub mod history;
mod index;
pub mod limits;
pub mod links;
mod pages;
pub mod player_pages;
pub mod public;
pub mod puzzles;
pub mod record;
pub mod tournament;
pub mod tournament_pages;
mod types;
mod view;

mod background;
mod bots;
mod challenges;
mod clock;
pub(crate) mod creation;
mod games;
mod hints;
mod langs;
mod pairs;
pub mod premoves;
mod recheck;
mod reviews;
mod seats;
mod secrets;
mod shared_limits;
mod slots;
mod takeover;
mod timers;
mod users;
mod watchers;
pub mod web_sessions;

pub use alerts::{Alert, AlertId, AlertKind, AlertOutcome, ManagerError, TurnLine};
pub use clock::Clock;
pub use config::{BotConfig, ClockConfig, LimitsConfig, ManagerConfig};
pub use ended::Ended;
pub use error::{ActionError, LimitKind};
pub use game::{ChallengeRecord, GameRecord};
pub use hints::{GameHint, HintTicket};
pub use history::{HistoryEntry, HistoryPage, Leaderboard};
pub use premoves::{PremoveEdit, Premoves, PremovesView};
pub use reviews::{Drawings, GameReview, ReviewConfig, ReviewTicket};
pub use timers::HEARTBEAT_KEY;
pub use types::{Action, MessageRef, Player, Request, Seat, Target};
pub use view::{
    Actions, ChallengeActions, ChallengeStatus, ChallengeView, ClockView, FinishReason, GameStatus,
    GameView, PitAction, MAX_HINTS,
};
pub use web_sessions::{LoginLink, SignIn, WebSession};

use crate::engine::EnginePool;
use crate::i18n::Lang;
use crate::model::{ChallengeId, ChatRef, GameId, Level, Platform, TimeControl, UserRef};
use crate::rules::{Side, Variant};
use crate::store::{Store, Tree};
use challenges::Answer;
use game::{add_message, Game};
use index::Index;
use rand::Rng;
use slots::{Slot, SlotRef, Stored};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::{broadcast, Mutex as AsyncMutex};

/// What an action answers with.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Game(GameView),
    Challenge(ChallengeView),
    Games(Vec<GameView>),
}

/// A change published to every subscriber.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A change nobody was answered about: the bot moved, a time-out ended the game.
    Game(GameView),
    /// A person changed a game and was answered with this view; other players may want to
    /// be told (e.g. the opponent moved).
    Acted { view: GameView, actor: UserRef },
    /// A challenge changed outside its own message: expired, accepted.
    Challenge(ChallengeView),
    /// A tournament changed: entries, a pairing, results, its end.
    Tournament(tournament::TournamentNews),
    /// A chat's daily puzzle is to be posted, or its count redrawn.
    DailyPuzzle(puzzles::DailyNews),
}

struct Inner {
    store: Store,
    engine: EnginePool,
    config: ManagerConfig,
    clock: Clock,
    events: broadcast::Sender<Event>,
    games: Mutex<HashMap<GameId, Slot<Game>>>,
    challenges: Mutex<HashMap<ChallengeId, Slot<ChallengeRecord>>>,
    index: Mutex<Index>,
    bot_users: Mutex<HashSet<String>>,
    /// Which game's bot move is searched next.
    bots: Arc<bots::BotQueue>,
    /// Bot searches started so far.
    searches: std::sync::atomic::AtomicU64,
    /// Bot turns the sweep found lost and started again (`retry_stuck_bot`).
    bot_restarts: std::sync::atomic::AtomicU64,
    /// Players' stats are rewritten under these (`history::count_end`).
    rating_locks: Vec<AsyncMutex<()>>,
    /// The flag timer of each ongoing timed game.
    timers: Mutex<HashMap<GameId, tokio::task::AbortHandle>>,
    /// Games taken in from another process (`takeover`): their bot moves are left to it.
    taken_over: Mutex<HashSet<GameId>>,
    /// Game reviews: their own limits, and the last results.
    reviews: reviews::Reviews,
    /// Games whose hint is being worked out (`hints`).
    hints: Mutex<HashSet<GameId>>,
    /// Games that ended while the manager started (a flag that fell before the stop, a
    /// move time that ran out while down): their events went out before anyone subscribed.
    ended_at_start: Mutex<Vec<GameId>>,
    /// What this process read or wrote lately of users' languages and handles (`users`).
    recent: users::Recent,
    /// The key that signs game page addresses (`links`), once read.
    page_secret: std::sync::OnceLock<[u8; 32]>,
    /// Players' page keys (`player_pages`).
    player_pages: player_pages::PlayerPages,
    /// When the listed chats were last read from the store (`public`).
    public_read_at: std::sync::atomic::AtomicU64,
    /// Held while the explorer's queue is drained (`explorer::drain_explorer`): one drain
    /// at a time in a process.
    explorer_drain: tokio::sync::Mutex<()>,
    /// The puzzle collection and its ratings for choosing (`puzzles`).
    puzzles: puzzles::Puzzles,
    /// Private alerts of correspondence games: queues, claims (`alerts`).
    alerts: alerts::Alerts,
    /// Started with `start_read_only` (`toguz web`): nothing is ever written.
    read_only: bool,
}

/// The game manager. Cheap to clone; every clone is the same manager.
#[derive(Clone)]
pub struct Manager {
    inner: Arc<Inner>,
}

/// Locks a std mutex, recovering from a poisoned one (the data is plain maps).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Manager {
    /// Starts the manager on the system clock. Must be called inside a tokio runtime.
    pub async fn start(
        store: Store,
        engine: EnginePool,
        config: ManagerConfig,
    ) -> Result<Manager, ActionError> {
        Manager::start_with_clock(store, engine, config, Clock::system()).await
    }

    /// Starts the manager with a given clock (tests use a manual one).
    pub async fn start_with_clock(
        store: Store,
        engine: EnginePool,
        config: ManagerConfig,
        clock: Clock,
    ) -> Result<Manager, ActionError> {
        let manager = Manager::assemble(store, engine, config, clock, false).await?;
        // The shared clock first: every time read from here on is the database's.
        if manager.sync_clock(timers::SYNC_SAMPLES).await {
            manager.spawn_clock_sync();
        }
        manager.recover().await?;
        manager.move_provisional_rows().await;
        manager.load_page_secret().await?;
        manager.load_public_chats().await?;
        manager.index_live_tournaments().await?;
        manager.spawn_sweeper();
        manager.spawn_tournament_ticker();
        manager.spawn_daily_poster();
        manager.spawn_heartbeat();
        manager.spawn_takeover();
        manager.spawn_alerts();
        // Not started yet: `backfill_player_pages` wrote nothing in its test (issue 49,
        // finding 19, left open), and its once-per-store mark would keep a fixed one from
        // running.
        Ok(manager)
    }

    /// Starts a manager that only reads (`toguz web`, issue 49 finding 19): the ongoing
    /// games and open challenges are loaded as they are, and nothing else happens. No
    /// sweep, no flag timer, no bot move, no heartbeat, no tournament tick; its secrets are
    /// read, never made (`page_secret`), and a page view writes nothing. Another process
    /// playing on the same PostgreSQL database goes on undisturbed.
    pub async fn start_read_only(
        store: Store,
        engine: EnginePool,
        config: ManagerConfig,
    ) -> Result<Manager, ActionError> {
        let manager = Manager::assemble(store, engine, config, Clock::system(), true).await?;
        manager.sync_clock(timers::SYNC_SAMPLES).await;
        manager.load_live().await?;
        manager.load_page_secret().await?;
        manager.load_public_chats().await?;
        tracing::info!("manager started read-only");
        Ok(manager)
    }

    /// Whether this manager only reads (`start_read_only`).
    pub fn is_read_only(&self) -> bool {
        self.inner.read_only
    }

    /// The manager's parts, nothing started.
    async fn assemble(
        store: Store,
        engine: EnginePool,
        config: ManagerConfig,
        clock: Clock,
        read_only: bool,
    ) -> Result<Manager, ActionError> {
        let (events, _) = broadcast::channel(1024);
        let slots = engine.config().max_concurrent;
        let text = config.puzzles.as_deref().unwrap_or(crate::puzzle::SHIPPED);
        let collection = crate::puzzle::Collection::from_text(text)
            .map_err(|e| ActionError::Storage(format!("the puzzle collection: {e}")))?;
        let puzzles = puzzles::Puzzles::load(collection, &store).await?;
        let manager = Manager {
            inner: Arc::new(Inner {
                store,
                engine,
                clock,
                events,
                games: Mutex::new(HashMap::new()),
                challenges: Mutex::new(HashMap::new()),
                index: Mutex::new(Index::default()),
                bot_users: Mutex::new(HashSet::new()),
                bots: bots::BotQueue::new(slots),
                searches: Default::default(),
                bot_restarts: Default::default(),
                rating_locks: (0..history::RATING_STRIPES)
                    .map(|_| AsyncMutex::new(()))
                    .collect(),
                timers: Mutex::new(HashMap::new()),
                taken_over: Mutex::new(HashSet::new()),
                reviews: reviews::Reviews::new(config.review.clone()),
                hints: Mutex::new(HashSet::new()),
                ended_at_start: Mutex::new(Vec::new()),
                recent: users::Recent::new(),
                page_secret: std::sync::OnceLock::new(),
                player_pages: Default::default(),
                public_read_at: Default::default(),
                explorer_drain: Default::default(),
                puzzles,
                alerts: alerts::Alerts::new(),
                config,
                read_only,
            }),
        };
        Ok(manager)
    }

    /// Loads ongoing games and open challenges, applies what fell due while we were down,
    /// and resumes bot moves.
    async fn recover(&self) -> Result<(), ActionError> {
        self.load_live().await?;
        let mut resumed = 0;
        let before: HashSet<GameId> = lock(&self.inner.index)
            .ongoing_games()
            .into_iter()
            .collect();
        // Clocks first: a flag that fell before the stop ends its game before a bot thinks.
        let alive = self.last_heartbeat().await;
        let others_alive = self.others_alive(alive).await;
        self.resume_clocks(alive, others_alive).await;
        let ongoing = lock(&self.inner.index).ongoing_games();
        if others_alive {
            // Another process is alive and has these games' bots in hand: searched here
            // only if one is found stuck (`takeover`).
            lock(&self.inner.taken_over).extend(ongoing.iter().cloned());
        }
        // Bots next: the sweep then finds their searches queued and starts none again.
        for id in ongoing {
            let slot = lock(&self.inner.games).get(&id).cloned();
            if let Some(slot) = slot {
                let game = slot.lock().await;
                if game.bot_to_move().is_some() && !self.bot_left_to_others(&id, &game) {
                    drop(game);
                    self.spawn_bot(id);
                    resumed += 1;
                }
            }
        }
        let swept = self.sweep().await;
        let ongoing: HashSet<GameId> = lock(&self.inner.index)
            .ongoing_games()
            .into_iter()
            .collect();
        let mut ended: Vec<GameId> = before.difference(&ongoing).cloned().collect();
        ended.sort();
        tracing::info!(
            ongoing = ongoing.len(),
            resumed,
            swept,
            ended = ended.len(),
            "manager started"
        );
        *lock(&self.inner.ended_at_start) = ended;
        Ok(())
    }

    /// Loads the ongoing games and open challenges into memory and the index, as stored (a
    /// record that does not replay is logged and skipped).
    async fn load_live(&self) -> Result<(), ActionError> {
        let store = &self.inner.store;
        for (key, found) in store.load_all_versioned::<GameRecord>(Tree::Games).await? {
            if matches!(found.value.status, GameStatus::Finished { .. }) {
                continue;
            }
            match Game::from_record(found.value) {
                Ok(game) => {
                    lock(&self.inner.index).add_game(&game);
                    let held = Stored::new(game, found.revision);
                    lock(&self.inner.games).insert(key, Arc::new(AsyncMutex::new(held)));
                }
                Err(error) => tracing::error!(key, error, "game record does not replay; skipped"),
            }
        }
        for (key, found) in store
            .load_all_versioned::<ChallengeRecord>(Tree::Challenges)
            .await?
        {
            if found.value.is_open() {
                lock(&self.inner.index).add_challenge(&found.value);
                let held = Stored::new(found.value, found.revision);
                lock(&self.inner.challenges).insert(key, Arc::new(AsyncMutex::new(held)));
            }
        }
        Ok(())
    }

    /// Games that ended while the manager started. Their events were sent before any
    /// adapter subscribed, so an adapter shows them (and tells their players) itself once it
    /// follows the events.
    pub fn ended_at_start(&self) -> Vec<GameId> {
        lock(&self.inner.ended_at_start).clone()
    }

    pub fn config(&self) -> &ManagerConfig {
        &self.inner.config
    }

    /// The store (the CLI's leaderboard and export read it directly; tests look into it).
    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    pub fn clock(&self) -> &Clock {
        &self.inner.clock
    }

    fn now(&self) -> u64 {
        self.inner.clock.now()
    }

    fn now_ms(&self) -> u64 {
        self.inner.clock.now_ms()
    }

    /// A game as a view shows it now.
    async fn view_of(&self, game: &Game) -> GameView {
        let mut view = game.view(
            self.timeout_secs(),
            self.now_ms(),
            self.inner.config.clock.first_move_ms(),
        );
        view.page_url = self.page_url(&view.id);
        view.langs = self.player_langs(&view.players).await;
        view
    }

    /// The view of a challenge, speaking its challenger's language.
    async fn challenge_view(&self, challenge: &ChallengeRecord) -> ChallengeView {
        let mut view = challenge.view(self.now());
        view.lang = self.lang_of(&view.challenger).await;
        view
    }

    /// The time control a new game in `chat` gets when its players named none.
    fn time_control(&self, chat: &ChatRef, named: Option<TimeControl>) -> TimeControl {
        named.unwrap_or_else(|| self.inner.config.clock.default_for(&chat.key()))
    }

    fn timeout_secs(&self) -> u64 {
        self.inner.config.limits.move_timeout_secs()
    }

    /// The bot's searches: (running, waiting for a slot).
    pub fn bot_load(&self) -> (usize, usize) {
        self.inner.bots.load()
    }

    /// How many times the sweep found the bot to move with no search queued or running
    /// (its turn was lost) and started it again; 0 when nothing is lost.
    pub fn bot_restarts(&self) -> u64 {
        self.inner
            .bot_restarts
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// How many bot searches were started since the manager started.
    pub fn bot_searches(&self) -> u64 {
        self.inner
            .searches
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Changes to games and challenges that nobody was answered about.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.inner.events.subscribe()
    }

    fn publish(&self, event: Event) {
        // No subscriber is fine: the console may not listen.
        let _ = self.inner.events.send(event);
    }

    /// Names the platform's own bot account, so nobody can challenge it.
    pub fn register_bot_user(&self, user: &UserRef) {
        lock(&self.inner.bot_users).insert(user.key());
    }

    /// How many games and challenges are held in memory (ongoing games, open challenges,
    /// and any in use right now); finished ones are read from the store when needed.
    pub fn loaded(&self) -> (usize, usize) {
        (
            lock(&self.inner.games).len(),
            lock(&self.inner.challenges).len(),
        )
    }

    /// Resolves with the cause once the store has failed (a flush I/O error): every later
    /// change is refused, so the process should exit and be restarted.
    pub fn store_failed(
        &self,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = String> + Send + 'static>> {
        self.inner.store.failed()
    }

    /// Flushes the store (call at shutdown).
    pub fn flush(&self) -> Result<(), ActionError> {
        self.inner.store.flush()?;
        Ok(())
    }

    /// Performs one user action. Any change is durable before this returns `Ok`.
    pub async fn act(&self, req: Request) -> Result<Reply, ActionError> {
        let Request {
            actor,
            chat,
            action,
        } = req;
        tracing::debug!(actor = actor.key(), chat = chat.key(), ?action, "action");
        if self.inner.read_only {
            return Err(ActionError::Storage("this process only reads".into()));
        }
        let result = match action {
            Action::Challenge {
                opponent,
                variant,
                rated,
                time,
            } => {
                let rules = challenges::Terms {
                    variant,
                    time_changeable: time.is_none(),
                    time: self.time_control(&chat, time),
                    rated,
                    challenger_side: None,
                    rematch_of: None,
                };
                self.challenge(actor, chat, opponent, rules).await
            }
            Action::AcceptChallenge { challenge } => {
                self.answer(&actor, &challenge, Answer::Accept(None)).await
            }
            Action::AcceptTerms { challenge, terms } => {
                self.answer(&actor, &challenge, Answer::Accept(Some(terms)))
                    .await
            }
            Action::DeclineChallenge { challenge } => {
                self.answer(&actor, &challenge, Answer::Decline).await
            }
            Action::CancelChallenge { challenge } => {
                self.answer(&actor, &challenge, Answer::Cancel).await
            }
            Action::PlayBot {
                level,
                variant,
                colour,
                time,
            } => {
                let time = self.time_control(&chat, time);
                self.play_bot(actor, chat, level, (variant, time), colour)
                    .await
            }
            Action::Move { game, ply, pit } => self.play_move(&actor, &game, ply, pit).await,
            Action::Resign { game, ply } => {
                let id = self.resolve_game(&actor, &chat, game, false)?;
                self.resign(&actor, &id, ply).await
            }
            Action::OfferDraw { game, ply } => {
                let id = self.resolve_game(&actor, &chat, game, false)?;
                self.offer_draw(&actor, &id, ply).await
            }
            Action::AcceptDraw { game } => self.answer_draw(&actor, &game, true).await,
            Action::DeclineDraw { game } => self.answer_draw(&actor, &game, false).await,
            Action::Abort { game } => self.abort(&actor, &game).await,
            Action::Berserk { game } => self.berserk(&actor, &game).await,
            Action::Show { game } => {
                let id = self.resolve_game(&actor, &chat, game, true)?;
                self.game(&id).await.map(Reply::Game)
            }
            Action::ListGames => self.list(&actor).await,
            Action::Rematch { game } => self.rematch(actor, chat, &game).await,
            Action::SetChallengeTime { challenge, time } => {
                self.set_challenge_time(&actor, &challenge, time).await
            }
        };
        if let Err(error) = &result {
            tracing::debug!(%error, "action refused");
        }
        result
    }
}
