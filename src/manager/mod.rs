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
//! - `Manager::start(store, engine, config)` loads every stored game and challenge (a record
//!   that fails to decode is logged with its key and skipped), closes expired challenges,
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
//!   and closed challenges are read back from sled when asked for (`Manager::loaded`).
//! - Presentation (captions, results, challenge texts, error texts, labelled buttons) is in
//!   `platform::present`, shared by every adapter.

pub mod buttons;
pub mod config;
mod error;
mod game;
mod index;
mod types;
mod view;

pub use config::{BotConfig, LimitsConfig, ManagerConfig};
pub use error::{ActionError, LimitKind};
pub use game::{ChallengeRecord, GameRecord};
pub use types::{
    Action, ChallengeId, ChatRef, GameId, MessageRef, Platform, Player, Request, Target, UserRef,
};
pub use view::{
    Actions, ChallengeActions, ChallengeStatus, ChallengeView, FinishReason, GameStatus, GameView,
    PitAction,
};

use crate::engine::{EnginePool, Level};
use crate::i18n::Lang;
use crate::rules::{Side, Variant};
use crate::store::{Store, Tree};
use game::{add_message, Game};
use index::Index;
use rand::Rng;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::{broadcast, Mutex as AsyncMutex};

/// What an action answers with.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    Game(GameView),
    Challenge(ChallengeView),
    Games(Vec<GameView>),
    Done,
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
}

/// The time source: the system clock, or a manual one for tests.
#[derive(Clone, Debug)]
pub enum Clock {
    System,
    Manual(Arc<AtomicU64>),
}

impl Clock {
    pub fn manual(start: u64) -> Clock {
        Clock::Manual(Arc::new(AtomicU64::new(start)))
    }

    /// Unix seconds.
    pub fn now(&self) -> u64 {
        match self {
            Clock::System => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            Clock::Manual(t) => t.load(Ordering::SeqCst),
        }
    }

    /// Moves a manual clock forward (no effect on the system clock).
    pub fn advance(&self, secs: u64) {
        if let Clock::Manual(t) = self {
            t.fetch_add(secs, Ordering::SeqCst);
        }
    }
}

/// Per-user settings kept in the store.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct UserSettings {
    lang: Option<Lang>,
}

type Slot<T> = Arc<AsyncMutex<T>>;

/// What a player does with an open challenge.
#[derive(Clone, Copy)]
enum Answer {
    Accept,
    Decline,
    Cancel,
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

/// Where a handle is kept among the user settings: `@telegram:bob` (settings use
/// `telegram:<id>`, so the two never meet).
fn handle_key(platform: Platform, handle: &str) -> String {
    let handle = handle.trim().trim_start_matches('@').to_lowercase();
    format!("@{}:{handle}", platform.name())
}

/// A fresh short id: 6 characters `[a-z0-9]`.
fn new_id() -> String {
    const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::thread_rng();
    (0..6)
        .map(|_| CHARS[rng.gen_range(0..CHARS.len())] as char)
        .collect()
}

impl Manager {
    /// Starts the manager on the system clock. Must be called inside a tokio runtime.
    pub async fn start(
        store: Store,
        engine: EnginePool,
        config: ManagerConfig,
    ) -> Result<Manager, ActionError> {
        Manager::start_with_clock(store, engine, config, Clock::System).await
    }

    /// Starts the manager with a given clock (tests use a manual one).
    pub async fn start_with_clock(
        store: Store,
        engine: EnginePool,
        config: ManagerConfig,
        clock: Clock,
    ) -> Result<Manager, ActionError> {
        let (events, _) = broadcast::channel(1024);
        let manager = Manager {
            inner: Arc::new(Inner {
                store,
                engine,
                config,
                clock,
                events,
                games: Mutex::new(HashMap::new()),
                challenges: Mutex::new(HashMap::new()),
                index: Mutex::new(Index::default()),
                bot_users: Mutex::new(HashSet::new()),
            }),
        };
        manager.recover().await?;
        manager.spawn_sweeper();
        Ok(manager)
    }

    /// Loads ongoing games and open challenges, applies what fell due while we were down,
    /// and resumes bot moves.
    async fn recover(&self) -> Result<(), ActionError> {
        let store = &self.inner.store;
        let mut resumed = 0;
        for (key, rec) in store.load_all::<GameRecord>(Tree::Games) {
            if matches!(rec.status, GameStatus::Finished { .. }) {
                continue;
            }
            match Game::from_record(rec) {
                Ok(game) => {
                    lock(&self.inner.index).add_game(&game);
                    lock(&self.inner.games)
                        .insert(game.id().clone(), Arc::new(AsyncMutex::new(game)));
                }
                Err(error) => tracing::error!(key, error, "game record does not replay; skipped"),
            }
        }
        for (_, rec) in store.load_all::<ChallengeRecord>(Tree::Challenges) {
            if rec.is_open() {
                lock(&self.inner.index).add_challenge(&rec);
                lock(&self.inner.challenges).insert(rec.id.clone(), Arc::new(AsyncMutex::new(rec)));
            }
        }
        let swept = self.sweep().await;
        let ongoing = lock(&self.inner.index).ongoing_games();
        for id in ongoing {
            let slot = lock(&self.inner.games).get(&id).cloned();
            if let Some(slot) = slot {
                if slot.lock().await.bot_to_move().is_some() {
                    self.spawn_bot(id);
                    resumed += 1;
                }
            }
        }
        let ongoing = lock(&self.inner.index).ongoing_games().len();
        tracing::info!(ongoing, resumed, swept, "manager started");
        Ok(())
    }

    pub fn config(&self) -> &ManagerConfig {
        &self.inner.config
    }

    pub fn clock(&self) -> &Clock {
        &self.inner.clock
    }

    fn now(&self) -> u64 {
        self.inner.clock.now()
    }

    fn timeout_secs(&self) -> u64 {
        self.inner.config.limits.move_timeout_secs()
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

    /// The language a user chose, if any.
    pub async fn user_lang(&self, user: &UserRef) -> Option<Lang> {
        match self
            .inner
            .store
            .get::<UserSettings>(Tree::Users, &user.key())
        {
            Ok(settings) => settings.and_then(|s| s.lang),
            Err(error) => {
                tracing::warn!(user = user.key(), %error, "unreadable user settings");
                None
            }
        }
    }

    /// Remembers a user's language (durable before it returns).
    pub async fn set_user_lang(&self, user: &UserRef, lang: Lang) -> Result<(), ActionError> {
        let key = user.key();
        let mut settings = self
            .inner
            .store
            .get::<UserSettings>(Tree::Users, &key)
            .ok()
            .flatten()
            .unwrap_or_default();
        settings.lang = Some(lang);
        self.inner.store.put(Tree::Users, &key, &settings)?;
        self.inner.store.commit().await?;
        Ok(())
    }

    /// Remembers the public handle a user goes by on their platform (a Telegram @username),
    /// so `user_by_handle` finds them later, after a restart too; a handle names the user
    /// last seen with it. Only a change is written (and is durable before this returns).
    pub async fn remember_handle(&self, handle: &str, user: &UserRef) -> Result<(), ActionError> {
        let key = handle_key(user.platform, handle);
        let known = self
            .inner
            .store
            .get::<UserRef>(Tree::Users, &key)
            .ok()
            .flatten();
        if known.is_some_and(|k| k == *user && k.name == user.name) {
            return Ok(());
        }
        self.inner.store.put(Tree::Users, &key, user)?;
        self.inner.store.commit().await?;
        Ok(())
    }

    /// Marks a one-time platform event as handled, durably: true the first time for `key`,
    /// false ever after, across restarts. For events a platform may deliver again after a
    /// crash, such as a Telegram inline message becoming a challenge.
    pub async fn claim_once(&self, platform: Platform, key: &str) -> Result<bool, ActionError> {
        let key = format!("claim:{}:{key}", platform.name());
        let first = self.inner.store.put_new(Tree::Users, &key, &true)?;
        if first {
            self.inner.store.commit().await?;
        }
        Ok(first)
    }

    /// The user last seen with `handle` (case-insensitive, with or without `@`).
    pub fn user_by_handle(&self, platform: Platform, handle: &str) -> Option<UserRef> {
        let key = handle_key(platform, handle);
        match self.inner.store.get::<UserRef>(Tree::Users, &key) {
            Ok(user) => user,
            Err(error) => {
                tracing::warn!(key, %error, "unreadable user handle");
                None
            }
        }
    }

    /// Records that `msg` shows a game or challenge, so later changes can update it.
    pub async fn attach_message(&self, target: Target, msg: MessageRef) -> Result<(), ActionError> {
        match target {
            Target::Game(id) => {
                self.update_game(&id, |game, _| Ok(add_message(&mut game.rec.messages, msg)))
                    .await?;
            }
            Target::Challenge(id) => {
                let slot = self.challenge_slot(&id).await?;
                let mut c = slot.lock().await;
                if add_message(&mut c.messages, msg) {
                    self.save_challenge(&c).await?;
                }
            }
        }
        Ok(())
    }

    /// How many games and challenges are held in memory (ongoing games, open challenges,
    /// and any in use right now); finished ones are read from the store when needed.
    pub fn loaded(&self) -> (usize, usize) {
        (
            lock(&self.inner.games).len(),
            lock(&self.inner.challenges).len(),
        )
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
        let result = match action {
            Action::Challenge { opponent, variant } => {
                self.challenge(actor, chat, opponent, variant, None, None)
                    .await
            }
            Action::AcceptChallenge { challenge } => {
                self.answer(&actor, &challenge, Answer::Accept).await
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
            } => self.play_bot(actor, chat, level, variant, colour).await,
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
            Action::Show { game } => {
                let id = self.resolve_game(&actor, &chat, game, true)?;
                self.show(&id).await
            }
            Action::ListGames => self.list(&actor).await,
            Action::Rematch { game } => self.rematch(actor, chat, &game).await,
        };
        if let Err(error) = &result {
            tracing::debug!(%error, "action refused");
        }
        result
    }

    // ----- lookups -----

    /// The lock slot of a game, loading a finished game from the store on demand.
    async fn game_slot(&self, id: &str) -> Result<Slot<Game>, ActionError> {
        cached_slot(&self.inner.games, id, || {
            let rec = self.load::<GameRecord>(Tree::Games, id, ActionError::NoSuchGame)?;
            Game::from_record(rec).map_err(|error| {
                tracing::error!(key = id, error, "game record does not replay");
                ActionError::NoSuchGame
            })
        })
    }

    /// The lock slot of a challenge, loading a closed one from the store on demand.
    async fn challenge_slot(&self, id: &str) -> Result<Slot<ChallengeRecord>, ActionError> {
        cached_slot(&self.inner.challenges, id, || {
            self.load(Tree::Challenges, id, ActionError::NoSuchChallenge)
        })
    }

    /// One record from the store; `missing` when it is absent or cannot be decoded (a
    /// corrupt record is logged and treated as gone, never a panic).
    fn load<T: serde::de::DeserializeOwned>(
        &self,
        tree: Tree,
        id: &str,
        missing: ActionError,
    ) -> Result<T, ActionError> {
        match self.inner.store.get::<T>(tree, id) {
            Ok(Some(rec)) => Ok(rec),
            Ok(None) => Err(missing),
            Err(error) => {
                tracing::error!(key = id, ?tree, %error, "undecodable record");
                Err(missing)
            }
        }
    }

    /// The game an action without a game id means: the actor's ongoing game in this chat
    /// (`latest`: the newest of several; otherwise several is an error).
    fn resolve_game(
        &self,
        actor: &UserRef,
        chat: &ChatRef,
        game: Option<GameId>,
        latest: bool,
    ) -> Result<GameId, ActionError> {
        if let Some(id) = game {
            return Ok(id);
        }
        let mut games = lock(&self.inner.index).games_of(actor, Some(&chat.key()));
        match games.len() {
            0 => Err(ActionError::NoGameHere),
            1 => Ok(games.remove(0)),
            _ if latest => Ok(games.remove(games.len() - 1)),
            _ => Err(ActionError::AmbiguousGame),
        }
    }

    fn unused_id(&self, tree: Tree) -> Result<String, ActionError> {
        loop {
            let id = new_id();
            let taken = match tree {
                Tree::Games => lock(&self.inner.games).contains_key(&id),
                _ => lock(&self.inner.challenges).contains_key(&id),
            };
            if !taken && !self.inner.store.contains(tree, &id)? {
                return Ok(id);
            }
        }
    }

    // ----- writing -----

    async fn save_challenge(&self, c: &ChallengeRecord) -> Result<(), ActionError> {
        self.inner.store.put(Tree::Challenges, &c.id, c)?;
        self.inner.store.commit().await?;
        Ok(())
    }

    /// Locks a game, applies `change`, and makes the result durable; on a storage failure
    /// the game is put back as it was. Afterwards: updates the index when the game ended and
    /// starts the bot when it is to move.
    async fn update_game<T>(
        &self,
        id: &str,
        change: impl FnOnce(&mut Game, u64) -> Result<T, ActionError>,
    ) -> Result<(T, GameView), ActionError> {
        let slot = self.game_slot(id).await?;
        let (out, view, over) = {
            let mut game = slot.lock().await;
            let before = game.clone();
            let out = change(&mut game, self.now())?;
            if game.rec != before.rec {
                let saved = async {
                    self.inner.store.put(Tree::Games, id, &game.rec)?;
                    self.inner.store.commit().await
                };
                if let Err(error) = saved.await {
                    *game = before;
                    return Err(error.into());
                }
                self.after_change(&before, &game);
            }
            (out, game.view(self.timeout_secs()), game.is_over())
        };
        if over {
            evict(&self.inner.games, id, slot);
        }
        Ok((out, view))
    }

    fn after_change(&self, before: &Game, game: &Game) {
        if game.is_over() && !before.is_over() {
            lock(&self.inner.index).remove_game(game);
        }
        if game.ply() != before.ply() && game.bot_to_move().is_some() {
            self.spawn_bot(game.id().clone());
        }
    }

    /// Creates and stores a new game; checks the limits first. `accepted`, the challenge
    /// the game comes from, is written in the same commit, so a crash cannot leave a game
    /// whose challenge is still open (and could be accepted twice).
    async fn create_game(
        &self,
        id: Option<GameId>,
        chat: ChatRef,
        variant: Variant,
        players: [Player; 2],
        accepted: Option<&ChallengeRecord>,
    ) -> Result<GameView, ActionError> {
        let now = self.now();
        let id = match id {
            Some(id) => id,
            None => self.unused_id(Tree::Games)?,
        };
        let rec = GameRecord {
            id,
            chat,
            variant,
            players,
            moves: Vec::new(),
            status: GameStatus::Ongoing,
            draw_offer: None,
            created_at: now,
            last_move_at: now,
            messages: Vec::new(),
            seed: rand::thread_rng().gen(),
            rematch: None,
        };
        let game = Game::new(rec);
        {
            let users: Vec<&UserRef> = game.rec.players.iter().filter_map(|p| p.user()).collect();
            let mut index = lock(&self.inner.index);
            index.check_game_limits(&users, &game.rec.chat.key(), &self.inner.config.limits)?;
            index.add_game(&game);
        }
        let saved = async {
            self.inner.store.put(Tree::Games, game.id(), &game.rec)?;
            if let Some(c) = accepted {
                self.inner.store.put(Tree::Challenges, &c.id, c)?;
            }
            self.inner.store.commit().await
        };
        if let Err(error) = saved.await {
            lock(&self.inner.index).remove_game(&game);
            return Err(error.into());
        }
        let view = game.view(self.timeout_secs());
        let bot = game.bot_to_move().is_some();
        let id = game.id().clone();
        lock(&self.inner.games).insert(id.clone(), Arc::new(AsyncMutex::new(game)));
        if bot {
            self.spawn_bot(id);
        }
        Ok(view)
    }

    // ----- actions -----

    async fn challenge(
        &self,
        actor: UserRef,
        chat: ChatRef,
        opponent: Option<UserRef>,
        variant: Variant,
        challenger_side: Option<Side>,
        rematch_of: Option<GameId>,
    ) -> Result<Reply, ActionError> {
        if let Some(o) = &opponent {
            if *o == actor {
                return Err(ActionError::ChallengeSelf);
            }
            if lock(&self.inner.bot_users).contains(&o.key()) {
                return Err(ActionError::ChallengeBot);
            }
        }
        let now = self.now();
        let rec = ChallengeRecord {
            id: self.unused_id(Tree::Challenges)?,
            challenger: actor,
            opponent,
            variant,
            chat,
            created_at: now,
            expires_at: now.saturating_add(self.inner.config.limits.challenge_expiry_secs),
            status: ChallengeStatus::Open,
            challenger_side,
            rematch_of,
            messages: Vec::new(),
        };
        {
            let mut index = lock(&self.inner.index);
            index.check_challenge_limits(
                &rec.challenger,
                &rec.chat.key(),
                &self.inner.config.limits,
            )?;
            index.add_challenge(&rec);
        }
        if let Err(error) = self.save_challenge(&rec).await {
            lock(&self.inner.index).remove_challenge(&rec);
            return Err(error);
        }
        let view = rec.view();
        lock(&self.inner.challenges).insert(rec.id.clone(), Arc::new(AsyncMutex::new(rec)));
        Ok(Reply::Challenge(view))
    }

    /// Accepts, declines or cancels a challenge, under its lock.
    async fn answer(
        &self,
        actor: &UserRef,
        id: &str,
        answer: Answer,
    ) -> Result<Reply, ActionError> {
        let slot = self.challenge_slot(id).await?;
        let result = self.answer_locked(actor, &slot, answer).await;
        self.release_challenge(id, slot).await;
        result
    }

    async fn answer_locked(
        &self,
        actor: &UserRef,
        slot: &Slot<ChallengeRecord>,
        answer: Answer,
    ) -> Result<Reply, ActionError> {
        let mut c = slot.lock().await;
        self.expire_if_due(&mut c).await?;
        if !c.is_open() {
            return Err(ActionError::ChallengeClosed);
        }
        let status = match answer {
            Answer::Accept => return self.accept_open(actor, &mut c).await,
            // Only the one challenged declines (an open challenge is simply left to expire),
            // only the challenger cancels.
            Answer::Decline if c.opponent.as_ref() == Some(actor) => ChallengeStatus::Declined,
            Answer::Cancel if c.challenger == *actor => ChallengeStatus::Cancelled,
            Answer::Decline | Answer::Cancel => return Err(ActionError::NotForYou),
        };
        self.close_challenge(&mut c, status).await?;
        Ok(Reply::Challenge(c.view()))
    }

    /// Starts the game of an open challenge that `actor` accepts.
    async fn accept_open(
        &self,
        actor: &UserRef,
        c: &mut ChallengeRecord,
    ) -> Result<Reply, ActionError> {
        if c.challenger == *actor {
            return Err(ActionError::ChallengeSelf);
        }
        if c.opponent.as_ref().is_some_and(|o| o != actor) {
            return Err(ActionError::NotForYou);
        }
        let challenger_side = c
            .challenger_side
            .unwrap_or_else(|| Side::BOTH[rand::thread_rng().gen_range(0..2)]);
        let mut players = [
            Player::Human(c.challenger.clone()),
            Player::Human(actor.clone()),
        ];
        if challenger_side == Side::Black {
            players.swap(0, 1);
        }
        let before = c.clone();
        let game_id = self.unused_id(Tree::Games)?;
        c.status = ChallengeStatus::Accepted(game_id.clone());
        c.opponent = Some(actor.clone());
        let created = self
            .create_game(Some(game_id), c.chat.clone(), c.variant, players, Some(c))
            .await;
        let view = match created {
            Ok(view) => view,
            Err(error) => {
                *c = before;
                return Err(error);
            }
        };
        lock(&self.inner.index).remove_challenge(c);
        self.publish(Event::Challenge(c.view()));
        Ok(Reply::Game(view))
    }

    /// Drops a closed challenge from memory (see `evict`).
    async fn release_challenge(&self, id: &str, slot: Slot<ChallengeRecord>) {
        let open = slot.lock().await.is_open();
        if !open {
            evict(&self.inner.challenges, id, slot);
        }
    }

    /// Closes a challenge whose time is up (and tells subscribers); true if it did.
    async fn expire_if_due(&self, c: &mut ChallengeRecord) -> Result<bool, ActionError> {
        if !c.is_open() || c.expires_at > self.now() {
            return Ok(false);
        }
        self.close_challenge(c, ChallengeStatus::Expired).await?;
        self.publish(Event::Challenge(c.view()));
        Ok(true)
    }

    async fn close_challenge(
        &self,
        c: &mut ChallengeRecord,
        status: ChallengeStatus,
    ) -> Result<(), ActionError> {
        let before = c.status.clone();
        c.status = status;
        if let Err(error) = self.save_challenge(c).await {
            c.status = before;
            return Err(error);
        }
        lock(&self.inner.index).remove_challenge(c);
        Ok(())
    }

    async fn play_bot(
        &self,
        actor: UserRef,
        chat: ChatRef,
        level: Level,
        variant: Variant,
        colour: Option<Side>,
    ) -> Result<Reply, ActionError> {
        let side = colour.unwrap_or_else(|| Side::BOTH[rand::thread_rng().gen_range(0..2)]);
        let mut players = [Player::Human(actor), Player::Bot(level)];
        if side == Side::Black {
            players.swap(0, 1);
        }
        Ok(Reply::Game(
            self.create_game(None, chat, variant, players, None).await?,
        ))
    }

    async fn play_move(
        &self,
        actor: &UserRef,
        id: &str,
        ply: Option<u16>,
        pit: u8,
    ) -> Result<Reply, ActionError> {
        let ((), view) = self
            .update_game(id, |game, now| {
                let side = check_player(game, actor, ply)?;
                if game.position.to_move() != side {
                    return Err(ActionError::NotYourTurn);
                }
                game.play(pit, now).map_err(ActionError::Illegal)?;
                Ok(())
            })
            .await?;
        self.publish_acted(&view, actor);
        Ok(Reply::Game(view))
    }

    fn publish_acted(&self, view: &GameView, actor: &UserRef) {
        self.publish(Event::Acted {
            view: view.clone(),
            actor: actor.clone(),
        });
    }

    async fn resign(
        &self,
        actor: &UserRef,
        id: &str,
        ply: Option<u16>,
    ) -> Result<Reply, ActionError> {
        let ((), view) = self
            .update_game(id, |game, _| {
                let side = check_player(game, actor, ply)?;
                game.finish(Some(side.other()), FinishReason::Resigned(side));
                Ok(())
            })
            .await?;
        self.publish_acted(&view, actor);
        Ok(Reply::Game(view))
    }

    async fn offer_draw(
        &self,
        actor: &UserRef,
        id: &str,
        ply: Option<u16>,
    ) -> Result<Reply, ActionError> {
        let ((), view) = self
            .update_game(id, |game, _| {
                let side = check_player(game, actor, ply)?;
                match game.rec.draw_offer {
                    Some(s) if s == side => return Err(ActionError::DrawAlreadyOffered),
                    // Offering back is agreeing.
                    Some(_) => game.finish(None, FinishReason::Agreed),
                    None if game.player(side.other()).is_bot() => {
                        if !bot_accepts_draw(game, side.other()) {
                            return Err(ActionError::BotDeclinesDraw);
                        }
                        game.finish(None, FinishReason::Agreed);
                    }
                    None => game.rec.draw_offer = Some(side),
                }
                Ok(())
            })
            .await?;
        self.publish_acted(&view, actor);
        Ok(Reply::Game(view))
    }

    async fn answer_draw(
        &self,
        actor: &UserRef,
        id: &str,
        accept: bool,
    ) -> Result<Reply, ActionError> {
        let ((), view) = self
            .update_game(id, |game, _| {
                let side = check_player(game, actor, None)?;
                if game.rec.draw_offer != Some(side.other()) {
                    return Err(ActionError::NoDrawOffer);
                }
                if accept {
                    game.finish(None, FinishReason::Agreed);
                } else {
                    game.rec.draw_offer = None;
                }
                Ok(())
            })
            .await?;
        self.publish_acted(&view, actor);
        Ok(Reply::Game(view))
    }

    async fn abort(&self, actor: &UserRef, id: &str) -> Result<Reply, ActionError> {
        let ((), view) = self
            .update_game(id, |game, _| {
                check_player(game, actor, None)?;
                if game.ply() >= 2 {
                    return Err(ActionError::TooLateToAbort);
                }
                game.finish(None, FinishReason::Aborted);
                Ok(())
            })
            .await?;
        self.publish_acted(&view, actor);
        Ok(Reply::Game(view))
    }

    async fn show(&self, id: &str) -> Result<Reply, ActionError> {
        let slot = self.game_slot(id).await?;
        let (view, over) = {
            let game = slot.lock().await;
            (game.view(self.timeout_secs()), game.is_over())
        };
        if over {
            evict(&self.inner.games, id, slot);
        }
        Ok(Reply::Game(view))
    }

    async fn list(&self, actor: &UserRef) -> Result<Reply, ActionError> {
        let ids = lock(&self.inner.index).games_of(actor, None);
        let mut views = Vec::with_capacity(ids.len());
        for id in ids {
            let slot = self.game_slot(&id).await?;
            let game = slot.lock().await;
            views.push(game.view(self.timeout_secs()));
        }
        Ok(Reply::Games(views))
    }

    async fn rematch(&self, actor: UserRef, chat: ChatRef, id: &str) -> Result<Reply, ActionError> {
        let slot = self.game_slot(id).await?;
        let mut game = slot.lock().await;
        let side = game.side_of(&actor).ok_or(ActionError::NotYourGame)?;
        if !game.is_over() {
            return Err(ActionError::GameNotOver);
        }
        if let Some(existing) = game.rec.rematch.clone() {
            // The other player answering a rematch challenge accepts it.
            drop(game);
            return match self.answer(&actor, &existing, Answer::Accept).await {
                Err(ActionError::NoSuchChallenge | ActionError::ChallengeSelf) => {
                    Err(ActionError::RematchExists)
                }
                other => other,
            };
        }
        let swapped = [game.rec.players[1].clone(), game.rec.players[0].clone()];
        let chat = if game.rec.chat.platform == chat.platform {
            game.rec.chat.clone()
        } else {
            chat
        };
        let reply = match game.player(side.other()).user().cloned() {
            None => Reply::Game(
                self.create_game(None, chat, game.rec.variant, swapped, None)
                    .await?,
            ),
            Some(opponent) => {
                self.challenge(
                    actor,
                    chat,
                    Some(opponent),
                    game.rec.variant,
                    Some(side.other()),
                    Some(game.id().clone()),
                )
                .await?
            }
        };
        let new_id = match &reply {
            Reply::Game(v) => v.id.clone(),
            Reply::Challenge(c) => c.id.clone(),
            _ => return Ok(reply),
        };
        game.rec.rematch = Some(new_id);
        self.inner.store.put(Tree::Games, id, &game.rec)?;
        self.inner.store.commit().await?;
        drop(game);
        evict(&self.inner.games, id, slot);
        Ok(reply)
    }

    // ----- the bot and the clock -----

    fn spawn_bot(&self, id: GameId) {
        let manager = self.clone();
        tokio::spawn(async move {
            if let Err(error) = manager.bot_turn(&id).await {
                tracing::error!(game = id, %error, "bot move failed");
            }
        });
    }

    /// Computes the bot's move off the runtime (the game is not locked meanwhile), then
    /// applies it like any other move if the game has not moved on.
    async fn bot_turn(&self, id: &str) -> Result<(), ActionError> {
        let slot = self.game_slot(id).await?;
        let (position, level, seed) = {
            let game = slot.lock().await;
            let Some(level) = game.bot_to_move() else {
                return Ok(());
            };
            (game.position, level, game.rec.seed ^ u64::from(game.ply()))
        };
        let pit = self
            .inner
            .engine
            .choose_move(position, level, seed)
            .await
            .map_err(|e| ActionError::Storage(format!("engine: {e}")))?;
        let (played, view) = self
            .update_game(id, |game, now| {
                if game.position != position || game.bot_to_move().is_none() {
                    return Ok(false);
                }
                game.play(pit, now).map_err(ActionError::Illegal)?;
                Ok(true)
            })
            .await?;
        if played {
            tracing::debug!(game = id, pit, "bot moved");
            self.publish(Event::Game(view));
        }
        Ok(())
    }

    /// Closes expired challenges and ends games whose move time ran out; publishes each
    /// change. Returns how many things changed. Runs in the background; tests call it.
    pub async fn sweep(&self) -> usize {
        let mut changed = 0;
        let challenges = lock(&self.inner.index).open_challenges();
        for id in challenges {
            let Ok(slot) = self.challenge_slot(&id).await else {
                continue;
            };
            let expired = self.expire_if_due(&mut *slot.lock().await).await;
            match expired {
                Ok(true) => changed += 1,
                Ok(false) => {}
                Err(error) => tracing::error!(challenge = id, %error, "cannot expire"),
            }
            self.release_challenge(&id, slot).await;
        }
        let games = lock(&self.inner.index).ongoing_games();
        let timeout = self.timeout_secs();
        for id in games {
            self.retry_stuck_bot(&id).await;
            let result = self
                .update_game(&id, |game, now| {
                    let due = game.timeout_at(timeout).is_some_and(|t| t <= now);
                    if due {
                        let side = game.position.to_move();
                        game.finish(Some(side.other()), FinishReason::TimedOut(side));
                    }
                    Ok(due)
                })
                .await;
            match result {
                Ok((true, view)) => {
                    changed += 1;
                    tracing::info!(game = id, "game timed out");
                    self.publish(Event::Game(view));
                }
                Ok((false, _)) => {}
                Err(error) => tracing::error!(game = id, %error, "cannot apply a time-out"),
            }
        }
        changed
    }

    /// Starts the bot again in a game where it has been to move for over a minute (its
    /// task failed); a second task is harmless, as a bot move applies only to the position
    /// it was computed for.
    async fn retry_stuck_bot(&self, id: &str) {
        let Ok(slot) = self.game_slot(id).await else {
            return;
        };
        let stuck = {
            let game = slot.lock().await;
            game.bot_to_move().is_some() && game.rec.last_move_at + 60 < self.now()
        };
        if stuck {
            tracing::warn!(game = id, "the bot is late to move; starting it again");
            self.spawn_bot(id.to_string());
        }
    }

    /// The background task: sweeps every `sweep_interval_secs` until the manager is dropped.
    fn spawn_sweeper(&self) {
        let weak: Weak<Inner> = Arc::downgrade(&self.inner);
        let every =
            std::time::Duration::from_secs(self.inner.config.limits.sweep_interval_secs.max(1));
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            ticks.tick().await;
            loop {
                ticks.tick().await;
                let Some(inner) = weak.upgrade() else { return };
                Manager { inner }.sweep().await;
            }
        });
    }
}

/// Drops a finished game or closed challenge from memory when nobody else holds its slot;
/// it is read back from the store if asked for again. The check runs under the map's mutex,
/// so nobody can take the slot in between (one reference is the map's, one is ours).
/// The slot of `id` in `map`, or a new one holding what `load` reads from the store. Two
/// racing loads of the same id end up sharing the first slot inserted.
fn cached_slot<T>(
    map: &Mutex<HashMap<String, Slot<T>>>,
    id: &str,
    load: impl FnOnce() -> Result<T, ActionError>,
) -> Result<Slot<T>, ActionError> {
    if let Some(slot) = lock(map).get(id) {
        return Ok(slot.clone());
    }
    let value = load()?;
    Ok(lock(map)
        .entry(id.to_string())
        .or_insert_with(|| Arc::new(AsyncMutex::new(value)))
        .clone())
}

fn evict<T>(map: &Mutex<HashMap<String, Slot<T>>>, id: &str, slot: Slot<T>) {
    let mut map = lock(map);
    let ours = map.get(id).is_some_and(|s| Arc::ptr_eq(s, &slot));
    if ours && Arc::strong_count(&slot) == 2 {
        map.remove(id);
    }
}

/// The actor's side in an ongoing game, checking the ply the board was shown at.
fn check_player(game: &Game, actor: &UserRef, ply: Option<u16>) -> Result<Side, ActionError> {
    let side = game.side_of(actor).ok_or(ActionError::NotYourGame)?;
    if game.is_over() {
        return Err(ActionError::GameOver);
    }
    if ply.is_some_and(|p| p != game.ply()) {
        return Err(ActionError::StaleBoard);
    }
    Ok(side)
}

/// The bot takes a draw when its kazan holds fewer balls than the opponent's.
fn bot_accepts_draw(game: &Game, bot: Side) -> bool {
    game.position.store(bot) < game.position.store(bot.other())
}
