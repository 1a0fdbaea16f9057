//! Games and challenges in memory: one lock slot each, loaded from the store on demand,
//! written back durably, dropped again when finished.

use super::*;

pub(super) type Slot<T> = Arc<AsyncMutex<T>>;

/// A fresh short id: 6 characters `[a-z0-9]`.
pub(super) fn new_id() -> String {
    const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::thread_rng();
    (0..6)
        .map(|_| CHARS[rng.gen_range(0..CHARS.len())] as char)
        .collect()
}

impl Manager {
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

    // ----- lookups -----

    /// The lock slot of a game, loading a finished game from the store on demand.
    pub(super) async fn game_slot(&self, id: &str) -> Result<Slot<Game>, ActionError> {
        cached_slot(&self.inner.games, id, || {
            let rec = self.load::<GameRecord>(Tree::Games, id, ActionError::NoSuchGame)?;
            Game::from_record(rec).map_err(|error| {
                tracing::error!(key = id, error, "game record does not replay");
                ActionError::NoSuchGame
            })
        })
    }

    /// The lock slot of a challenge, loading a closed one from the store on demand.
    pub(super) async fn challenge_slot(
        &self,
        id: &str,
    ) -> Result<Slot<ChallengeRecord>, ActionError> {
        cached_slot(&self.inner.challenges, id, || {
            self.load(Tree::Challenges, id, ActionError::NoSuchChallenge)
        })
    }

    /// One record from the store; `missing` when it is absent or cannot be decoded (a
    /// corrupt record is logged and treated as gone, never a panic).
    pub(super) fn load<T: serde::de::DeserializeOwned>(
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

    pub(super) fn unused_id(&self, tree: Tree) -> Result<String, ActionError> {
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

    pub(super) async fn save_challenge(&self, c: &ChallengeRecord) -> Result<(), ActionError> {
        self.inner.store.put(Tree::Challenges, &c.id, c)?;
        self.inner.store.commit().await?;
        Ok(())
    }

    /// Locks a game, applies `change`, and makes the result durable; on a storage failure
    /// the game is put back as it was. Afterwards: updates the index when the game ended and
    /// starts the bot when it is to move.
    pub(super) async fn update_game<T>(
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

    pub(super) fn after_change(&self, before: &Game, game: &Game) {
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
    pub(super) async fn create_game(
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
}

/// The slot of `id` in `map`, or a new one holding what `load` reads from the store. Two
/// racing loads of the same id end up sharing the first slot inserted.
pub(super) fn cached_slot<T>(
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

/// Drops a finished game or closed challenge from memory when nobody else holds its slot;
/// it is read back from the store if asked for again. The check runs under the map's mutex,
/// so nobody can take the slot in between (one reference is the map's, one is ours).
pub(super) fn evict<T>(map: &Mutex<HashMap<String, Slot<T>>>, id: &str, slot: Slot<T>) {
    let mut map = lock(map);
    let ours = map.get(id).is_some_and(|s| Arc::ptr_eq(s, &slot));
    if ours && Arc::strong_count(&slot) == 2 {
        map.remove(id);
    }
}
