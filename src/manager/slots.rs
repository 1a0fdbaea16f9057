//! Games and challenges in memory: one lock slot each, loaded from the store on demand,
//! written back durably (or not at all), dropped again when finished.
//!
//! Two rules keep exactly one copy of each game and challenge:
//! - a new one is put into the map, locked, before its id can be found anywhere (the index,
//!   the store), so whoever finds the id waits on that one slot; if the creation fails, the
//!   slot leaves the map before it is unlocked, and a waiter is told it does not exist
//!   (`SlotRef::enter`);
//! - a write that does not reach the disk leaves nothing in the store (`Store::write`
//!   undoes it) and is undone in memory here, so the two never disagree.
//!
//! Each one is held with the revision of the stored record it matches ([`Stored`]), and
//! every write is a compare-and-set on that revision, checked by the store (both backends),
//! which also says what revision it stored. What memory holds is checked against the stored
//! revision whenever a slot is entered ([`Manager::enter`]) and read again if another
//! process changed it (possible on a shared database); a write that loses a race
//! (`StoreError::Conflict`) is refused as stale and the record read again, so a change is
//! never applied twice nor lost.

use super::public::ListedKind;
use super::recheck::Recheck;
use super::*;
use crate::store::{Batch, Expect, StoreError, Written, CLOSED_CHALLENGE_TTL_SECS};
use std::ops::{Deref, DerefMut};

pub(super) type Slot<T> = Arc<AsyncMutex<Stored<T>>>;
type SlotMap<T> = Mutex<HashMap<String, Slot<T>>>;

/// The revision of a copy whose last write has an unknown outcome: no stored record has it,
/// so whoever enters the copy next reads the record again (`Manager::refresh`).
pub(super) const UNKNOWN_REVISION: u64 = u64::MAX;

/// A game or challenge in memory and the revision of the stored record it matches (0 for a
/// record not written yet, `UNKNOWN_REVISION` when its last write's outcome is unknown).
#[derive(Clone, Debug)]
pub(super) struct Stored<T> {
    pub(super) value: T,
    pub(super) revision: u64,
}

impl<T> Stored<T> {
    pub(super) fn new(value: T, revision: u64) -> Stored<T> {
        Stored { value, revision }
    }
}

impl<T> Deref for Stored<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> DerefMut for Stored<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.value
    }
}

/// A fresh short id: 6 characters `[a-z0-9]`.
pub(super) fn new_id() -> String {
    const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::thread_rng();
    (0..6)
        .map(|_| CHARS[rng.gen_range(0..CHARS.len())] as char)
        .collect()
}

/// What the slot map needs to know of a game or challenge.
pub(super) trait Held: Sized {
    /// What the store keeps.
    type Record: serde::de::DeserializeOwned;
    /// Where the store keeps it: while live, and once done.
    const TREES: (Tree, Tree);
    /// How it is read back after a write with an unknown outcome.
    const RECHECK: Recheck;
    /// Finished or closed: kept in memory only while someone uses it.
    fn done(&self) -> bool;
    /// The error for an id that does not (or no longer) exist.
    fn missing() -> ActionError;
    /// The in-memory form of a stored record.
    fn from_record(id: &str, rec: Self::Record) -> Result<Self, ActionError>;
    /// Drops it from the index of what is live (it became done in another process).
    fn unindex(&self, index: &mut Index);
    /// Enters it into the index (read from the store: another process may have made it).
    fn index(&self, index: &mut Index);

    /// The tree its record is in now.
    fn tree(&self) -> Tree {
        if self.done() {
            Self::TREES.1
        } else {
            Self::TREES.0
        }
    }
}

impl Held for Game {
    type Record = GameRecord;
    const TREES: (Tree, Tree) = (Tree::Games, Tree::Archive);
    const RECHECK: Recheck = Recheck::Game;
    fn done(&self) -> bool {
        self.is_over()
    }
    fn missing() -> ActionError {
        ActionError::NoSuchGame
    }
    fn from_record(id: &str, rec: GameRecord) -> Result<Game, ActionError> {
        Game::from_record(rec).map_err(|error| {
            tracing::error!(key = id, error, "game record does not replay");
            ActionError::NoSuchGame
        })
    }
    fn unindex(&self, index: &mut Index) {
        index.remove_game(self);
    }
    fn index(&self, index: &mut Index) {
        index.add_game(self);
    }
}

impl Held for ChallengeRecord {
    type Record = ChallengeRecord;
    const TREES: (Tree, Tree) = (Tree::Challenges, Tree::ClosedChallenges);
    const RECHECK: Recheck = Recheck::Challenge;
    fn done(&self) -> bool {
        !self.is_open()
    }
    fn missing() -> ActionError {
        ActionError::NoSuchChallenge
    }
    fn from_record(_: &str, rec: ChallengeRecord) -> Result<ChallengeRecord, ActionError> {
        Ok(rec)
    }
    fn unindex(&self, index: &mut Index) {
        index.remove_challenge(self);
    }
    fn index(&self, index: &mut Index) {
        index.add_challenge(self);
    }
}

/// A slot taken from the map. Dropping it drops a finished game or closed challenge from
/// memory when nobody else holds it, on every path out of an action (errors included).
pub(super) struct SlotRef<'m, T: Held> {
    map: &'m SlotMap<T>,
    id: String,
    /// `None` only inside `drop`.
    slot: Option<Slot<T>>,
}

impl<T: Held> Deref for SlotRef<'_, T> {
    type Target = Slot<T>;
    fn deref(&self) -> &Slot<T> {
        self.slot
            .as_ref()
            .expect("a SlotRef holds its slot until it is dropped")
    }
}

impl<'m, T: Held> SlotRef<'m, T> {
    /// A slot for a new game or challenge, not in the map yet: lock it, then `publish` it.
    pub(super) fn new(map: &'m SlotMap<T>, id: &str, value: T) -> SlotRef<'m, T> {
        SlotRef {
            map,
            id: id.to_string(),
            slot: Some(Arc::new(AsyncMutex::new(Stored::new(value, 0)))),
        }
    }

    pub(super) fn id(&self) -> &str {
        &self.id
    }

    /// Puts the slot into the map, where others find it (and wait on its lock).
    pub(super) fn publish(&self) {
        lock(self.map).insert(self.id.clone(), Arc::clone(self));
    }

    /// Takes a slot whose creation failed out of the map again (while its creator still
    /// holds the lock, so a waiter finds it gone).
    pub(super) fn forget(&self) {
        let mut map = lock(self.map);
        if map.get(&self.id).is_some_and(|s| Arc::ptr_eq(s, self)) {
            map.remove(&self.id);
        }
    }

    /// Locks the slot; `missing` if it left the map meanwhile (its creation failed), so a
    /// waiter never acts on a copy nobody else can see.
    pub(super) async fn enter(
        &self,
    ) -> Result<tokio::sync::MutexGuard<'_, Stored<T>>, ActionError> {
        let guard = self.lock().await;
        let current = lock(self.map)
            .get(&self.id)
            .is_some_and(|s| Arc::ptr_eq(s, self));
        if current {
            Ok(guard)
        } else {
            Err(T::missing())
        }
    }
}

impl<T: Held> Drop for SlotRef<'_, T> {
    fn drop(&mut self) {
        let Some(slot) = self.slot.take() else { return };
        let mut map = lock(self.map);
        let ours = map.get(&self.id).is_some_and(|s| Arc::ptr_eq(s, &slot));
        // Only the map and this guard hold it, and nobody can take it while the map is
        // locked; a slot somebody has locked is in use and stays.
        if ours && Arc::strong_count(&slot) == 2 && slot.try_lock().is_ok_and(|v| v.done()) {
            map.remove(&self.id);
        }
        // Let go of our reference while the map is still locked, so the next guard to drop
        // counts without us and the last one out evicts.
        drop(slot);
        drop(map);
    }
}

/// Where a game record lives: ongoing games in the live tree, finished ones in the archive.
fn game_tree(rec: &GameRecord) -> Tree {
    match rec.status {
        GameStatus::Ongoing => Tree::Games,
        GameStatus::Finished { .. } => Tree::Archive,
    }
}

pub(super) fn challenge_tree(c: &ChallengeRecord) -> Tree {
    if c.is_open() {
        Tree::Challenges
    } else {
        Tree::ClosedChallenges
    }
}

/// Adds to `batch` what turns the stored `from` (at `revision`) into `to` (either may be
/// absent), moving the record between trees when `tree` says it changed. Every write is
/// conditional on what was read: the record at `revision`, or no record for a new one (the
/// store counts the revision the result is stored at).
fn change<T: serde::Serialize>(
    batch: &mut Batch,
    key: &str,
    from: Option<(Tree, &T)>,
    to: Option<(Tree, &T)>,
    revision: u64,
) -> Result<(), ActionError> {
    let mut expect = Expect::Absent;
    if let Some((old, _)) = from {
        expect = Expect::Revision(revision);
        if to.is_none_or(|(new, _)| new != old) {
            batch.delete_checked(old, key, expect);
            expect = Expect::Absent;
        }
    }
    if let Some((new, value)) = to {
        batch.put_checked(new, key, value, expect)?;
    }
    Ok(())
}

impl Manager {
    /// Records that `msg` shows a game or challenge, so later changes can update it. `by`:
    /// whose request the message answers (`None`: the bot posted it of itself, a new
    /// game's board). A game's board asked for by someone who does not play it is a
    /// spectator's, kept apart from the game (`watchers.rs`).
    pub async fn attach_message(
        &self,
        target: Target,
        msg: MessageRef,
        by: Option<&UserRef>,
    ) -> Result<(), ActionError> {
        match target {
            Target::Game(id) => self.attach_to_game(&id, msg, by).await?,
            Target::Challenge(id) => {
                let slot = self.challenge_slot(&id).await?;
                let mut c = self.enter(&slot).await?;
                let before = c.clone();
                if add_message(&mut c.messages, msg) {
                    match self.write_challenge(Some(&before), Some(&c)).await {
                        Ok(revision) => c.revision = revision,
                        Err(error) => {
                            *c = before;
                            self.after_conflict(&slot, &mut c, &error).await;
                            return Err(error);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// `attach_message` for a game: only its list of messages changes (no board, no
    /// version), so only that list is kept to put back, not a copy of the whole game. A
    /// spectator's board goes to the spectators' list instead (`watch`); the first one
    /// marks the game watched, once.
    async fn attach_to_game(
        &self,
        id: &str,
        msg: MessageRef,
        by: Option<&UserRef>,
    ) -> Result<(), ActionError> {
        let slot = self.game_slot(id).await?;
        let mut game = self.enter(&slot).await?;
        self.apply_due_clock(&mut game, self.now_ms()).await?;
        let (messages, watched) = (game.rec.messages.clone(), game.rec.watched);
        let clock = game.rec.clock.clone();
        let reached = game.reached_by(&msg, by);
        let changed = if by.is_some_and(|user| game.side_of(user).is_none()) {
            self.watch(&mut game, msg).await?;
            !std::mem::replace(&mut game.rec.watched, true)
        } else {
            add_message(&mut game.rec.messages, msg)
        };
        let seen = game.boards_reached(reached, self.now_ms());
        if !changed && !seen {
            return Ok(());
        }
        let mut batch = Batch::new();
        let (tree, revision) = (game_tree(&game.rec), game.revision);
        batch.put_checked(tree, game.id(), &game.rec, Expect::Revision(revision))?;
        match self.write(batch).await {
            Ok(written) => game.revision = stored_revision(&written, tree, game.id()),
            Err(error) => {
                // None of these changes what a board shows: putting them back is exact.
                game.rec.messages = messages;
                game.rec.watched = watched;
                game.rec.clock = clock;
                self.after_conflict(&slot, &mut game, &error).await;
                return Err(error);
            }
        }
        if seen {
            // The first move's time may have started now.
            self.schedule_clock(&game);
        }
        Ok(())
    }

    // ----- lookups -----

    /// The lock slot of a game, loading a finished game from the archive on demand.
    pub(super) async fn game_slot(&self, id: &str) -> Result<SlotRef<'_, Game>, ActionError> {
        let slot = cached_slot(&self.inner.games, id, self.load_held::<Game>(id)).await?;
        Ok(slot)
    }

    /// The lock slot of a challenge, loading a closed one from the store on demand.
    pub(super) async fn challenge_slot(
        &self,
        id: &str,
    ) -> Result<SlotRef<'_, ChallengeRecord>, ActionError> {
        cached_slot(&self.inner.challenges, id, self.load_held(id)).await
    }

    /// A game or challenge from the store, live or done, with its revision. A live one is
    /// entered into the index (another process may have created it). A record that does not
    /// decode is logged and treated as gone, never a panic.
    async fn load_held<T: Held>(&self, id: &str) -> Result<Stored<T>, ActionError> {
        let (live, done) = T::TREES;
        for tree in [live, done] {
            match self.inner.store.get_versioned::<T::Record>(tree, id).await {
                Ok(Some(found)) => {
                    let value = T::from_record(id, found.value)?;
                    if !value.done() {
                        value.index(&mut lock(&self.inner.index));
                    }
                    return Ok(Stored::new(value, found.revision));
                }
                Ok(None) => {}
                Err(error @ StoreError::Decode { .. }) => {
                    tracing::error!(key = id, ?tree, %error, "undecodable record");
                    return Err(T::missing());
                }
                Err(error) => return Err(error.into()),
            }
        }
        Err(T::missing())
    }

    /// Locks a slot and, with a shared store, brings what it holds up to the stored
    /// revision first (another process may have changed it meanwhile).
    pub(super) async fn enter<'s, T: Held>(
        &self,
        slot: &'s SlotRef<'_, T>,
    ) -> Result<tokio::sync::MutexGuard<'s, Stored<T>>, ActionError> {
        let mut held = slot.enter().await?;
        self.refresh(slot.id(), &mut held).await?;
        Ok(held)
    }

    /// Reads a record again if its stored revision is not the one memory holds (another
    /// process on the same database changed it).
    async fn refresh<T: Held>(&self, id: &str, held: &mut Stored<T>) -> Result<(), ActionError> {
        let store = &self.inner.store;
        if store.revision(held.tree(), id).await? == Some(held.revision) {
            return Ok(());
        }
        let fresh = self.load_held::<T>(id).await?;
        if fresh.done() && !held.done() {
            held.unindex(&mut lock(&self.inner.index));
        }
        tracing::debug!(
            key = id,
            from = held.revision,
            to = fresh.revision,
            "changed elsewhere"
        );
        *held = fresh;
        Ok(())
    }

    /// After a write that failed: when it lost a race with another process, read the
    /// record again so the next action (and the board redrawn now) sees what is stored;
    /// when its outcome is unknown, see `unsure`.
    pub(super) async fn after_conflict<T: Held>(
        &self,
        slot: &SlotRef<'_, T>,
        held: &mut Stored<T>,
        error: &ActionError,
    ) {
        if matches!(error, ActionError::StaleBoard) {
            if let Err(error) = self.refresh(slot.id(), held).await {
                tracing::warn!(key = slot.id(), %error, "cannot read a changed record again");
            }
        }
        self.unsure(slot.id(), held, error);
    }

    /// After a write whose outcome is unknown (`error` says so; `held` is what memory had
    /// before it): the copy is not trusted any more, so the next entry reads the record
    /// again, and a task reads it back as soon as the store answers and publishes what is
    /// stored (`recheck`). Memory cannot know which way the write went: only the store does.
    pub(super) fn unsure<T: Held>(&self, id: &str, held: &mut Stored<T>, error: &ActionError) {
        if matches!(error, ActionError::OutcomeUnknown(_)) {
            held.revision = UNKNOWN_REVISION;
            self.spawn_recheck(T::RECHECK, id.to_string());
        }
    }

    /// An id no game (`Tree::Games`) or no challenge (any other tree) has, live or not.
    pub(super) async fn unused_id(&self, tree: Tree) -> Result<String, ActionError> {
        let store = &self.inner.store;
        loop {
            let id = new_id();
            let taken = if tree == Tree::Games {
                lock(&self.inner.games).contains_key(&id)
                    || store.contains(Tree::Games, &id).await?
                    || store.contains(Tree::Archive, &id).await?
            } else if tree == Tree::Tournaments {
                store.contains(Tree::Tournaments, &id).await?
                    || store.contains(Tree::TournamentArchive, &id).await?
            } else {
                lock(&self.inner.challenges).contains_key(&id)
                    || store.contains(Tree::Challenges, &id).await?
                    || store.contains(Tree::ClosedChallenges, &id).await?
            };
            if !taken {
                return Ok(id);
            }
        }
    }

    // ----- writing -----

    /// Adds the change of a challenge from `before` (`None`: new) to `after` to `batch`; a
    /// challenge that closes moves to the closed tree and gets its expiry.
    pub(super) fn challenge_change(
        &self,
        batch: &mut Batch,
        before: Option<&ChallengeRecord>,
        after: Option<&ChallengeRecord>,
        revision: u64,
    ) -> Result<(), ActionError> {
        let from = before.map(|c| (challenge_tree(c), c));
        let to = after.map(|c| (challenge_tree(c), c));
        let key = before.or(after).map_or("", |c| c.id.as_str());
        change(batch, key, from, to, revision)?;
        let closes = before.is_none_or(|c| c.is_open()) && after.is_some_and(|c| !c.is_open());
        if closes {
            let at = self.now().saturating_add(CLOSED_CHALLENGE_TTL_SECS);
            batch.expire_at(Tree::ClosedChallenges, key, at);
        }
        Ok(())
    }

    /// Writes the change of a challenge durably, or leaves the store as it was; `before` is
    /// what memory held (at its revision), `None` for a new challenge. Returns the revision
    /// `after` is stored at, for the caller to hold.
    pub(super) async fn write_challenge(
        &self,
        before: Option<&Stored<ChallengeRecord>>,
        after: Option<&ChallengeRecord>,
    ) -> Result<u64, ActionError> {
        let revision = before.map_or(0, |b| b.revision);
        let was = before.map(|b| &b.value);
        let mut attempt = 0;
        let written = loop {
            attempt += 1;
            let mut batch = Batch::new();
            self.challenge_change(&mut batch, was, after, revision)?;
            self.reseat_challenge(was, after, &mut batch).await?;
            let result = self.inner.store.write(batch).await;
            if !super::seats::lost_a_seat(&result, attempt) {
                break durable(result)?;
            }
            tracing::debug!(attempt, "a seat was taken meanwhile; again");
        };
        Ok(after.map_or(0, |c| stored_revision(&written, challenge_tree(c), &c.id)))
    }

    /// Writes the change of a game durably, or leaves the store as it was. A game that
    /// finishes moves to the archive in the same write, together with its players' new
    /// stats, ratings, history lines and leaderboard rows (`history::count_end`, which also
    /// records the end in `after`). Returns the revision `after` is stored at, for the
    /// caller to hold.
    pub(super) async fn write_game(
        &self,
        before: &GameRecord,
        after: &mut GameRecord,
        revision: u64,
    ) -> Result<u64, ActionError> {
        premoves::clear_at_end(after);
        after.version = before.version + u64::from(after.shows_more_than(before));
        // The game's private alerts change with its moves, in the same write (`alerts`).
        let mut alert_rows = Batch::new();
        alerts::schedule_alerts(
            before,
            after,
            self.now_ms(),
            self.timeout_secs(),
            &mut alert_rows,
        )?;
        // A player's stats (and a pair's count, which an abort gives back) are written
        // compare-and-set: another process may have counted another game meanwhile; then
        // read them again and count this one on top.
        let mut attempt = 0;
        loop {
            attempt += 1;
            let mut batch = alert_rows.clone();
            // Held until the write is durable or undone: see `history`.
            let _stats_locks = if history::ends(before, after) {
                let locks = self.count_end(after, &mut batch).await?;
                // Counted in the explorer from a queue written with the end (ratings in).
                super::explorer::queue_club_game(after, &mut batch)?;
                locks
            } else {
                Vec::new()
            };
            let after = &*after;
            if super::pairs::aborts_rated(before, after) {
                self.uncount_aborted(after, &mut batch).await?;
            }
            if before.status == GameStatus::Ongoing && after.status != GameStatus::Ongoing {
                self.unseat_game(after, &mut batch).await?;
                self.note_listed_end(ListedKind::Game, &after.chat, &after.id, &mut batch)?;
            }
            let (from, to) = ((game_tree(before), before), (game_tree(after), after));
            change(&mut batch, &after.id, Some(from), Some(to), revision)?;
            match self.inner.store.write(batch).await {
                Err(StoreError::Conflict { tree, key })
                    if counted_meanwhile(tree, &key) && attempt < STATS_ATTEMPTS =>
                {
                    tracing::info!(key, attempt, "a player's count changed meanwhile; again");
                }
                result => {
                    let written = durable(result)?;
                    if history::ends(before, after) {
                        self.kick_explorer();
                    }
                    return Ok(stored_revision(&written, to.0, &after.id));
                }
            }
        }
    }

    /// A durable write (or none at all); a compare-and-set that lost a race is refused as a
    /// stale board.
    pub(super) async fn write(&self, batch: Batch) -> Result<Written, ActionError> {
        durable(self.inner.store.write(batch).await)
    }

    /// Locks a game, applies `change`, and makes the result durable; on a storage failure
    /// the game is put back as it was, in memory and in the store. Afterwards: updates the
    /// index when the game ended and starts the bot when it is to move.
    pub(super) async fn update_game<T>(
        &self,
        id: &str,
        change: impl FnMut(&mut Game, u64) -> Result<T, ActionError>,
    ) -> Result<(T, GameView), ActionError> {
        self.update_game_charged(id, 0, change).await
    }

    /// `update_game` where a move is charged at least `min_used_ms` on the mover's clock
    /// (the bot's measured search: on a manual clock no time passes otherwise).
    ///
    /// In a timed game the press counts from when it reached the manager, before any wait
    /// for the game's lock. A clock that ran out by then ends the game first (and is
    /// published); the change then finds the game over. Whichever of a press and the flag
    /// timer takes the lock first wins, and only one of them.
    pub(super) async fn update_game_charged<T>(
        &self,
        id: &str,
        min_used_ms: u64,
        mut change: impl FnMut(&mut Game, u64) -> Result<T, ActionError>,
    ) -> Result<(T, GameView), ActionError> {
        let arrived_ms = self.now_ms();
        let slot = self.game_slot(id).await?;
        let mut races = 0;
        loop {
            let mut game = self.enter(&slot).await?;
            self.apply_due_clock(&mut game, arrived_ms).await?;
            let before = game.clone();
            let out = change(&mut game, arrived_ms / 1000)?;
            // A premoved reply joins the move it answers in one write.
            premoves::follow(before.ply(), &mut game, arrived_ms / 1000);
            if game.ply() != before.ply() {
                // A player who moved has seen the board, wherever it reached them.
                let mover = before.position.to_move();
                let mut reached = [false; 2];
                reached[mover.index()] = true;
                game.boards_reached(reached, arrived_ms);
                let used = game.rec.clock.as_ref().map_or(0, |c| c.elapsed(arrived_ms));
                game.charge_clock(before.ply(), used.max(min_used_ms));
                if let Some(clock) = game.rec.clock.as_mut() {
                    // Stored as the opponent's start; moved to the durable moment below.
                    clock.start_turn(arrived_ms);
                }
            }
            if game.rec != before.rec {
                let shown = before.rec.version;
                match self
                    .write_game(&before.rec, &mut game.rec, before.revision)
                    .await
                {
                    Ok(revision) => game.revision = revision,
                    Err(error) => {
                        *game = before;
                        self.after_conflict(&slot, &mut game, &error).await;
                        // Lost a race to another process's write that changed nothing a
                        // board shows (it attached a message, say): the press was made on
                        // the board as it still is, so it is tried again on what is stored.
                        let unseen = game.rec.version == shown;
                        if matches!(error, ActionError::StaleBoard) && unseen && races < RACES {
                            races += 1;
                            continue;
                        }
                        return Err(error);
                    }
                }
                self.after_change(&before, &mut game);
                self.refresh_watchers(&mut game).await;
            }
            return Ok((out, self.view_of(&game).await));
        }
    }

    /// Ends a timed game whose clock says so at `now_ms` (a flag, or a first move not made
    /// in time), durably, and tells subscribers. Nothing happens when nothing is due.
    pub(super) async fn apply_due_clock(
        &self,
        game: &mut Stored<Game>,
        now_ms: u64,
    ) -> Result<(), ActionError> {
        let first_move_ms = self.inner.config.clock.first_move_ms();
        let Some(event) = game.clock_due(first_move_ms, now_ms) else {
            return Ok(());
        };
        let before = game.clone();
        game.apply_clock(event);
        match self
            .write_game(&before.rec, &mut game.rec, before.revision)
            .await
        {
            Ok(revision) => game.revision = revision,
            Err(error) => {
                *game = before;
                let id = game.id().clone();
                self.unsure(&id, game, &error);
                return Err(error);
            }
        }
        self.after_change(&before, game);
        self.refresh_watchers(game).await;
        tracing::info!(game = game.id(), ?event, "the clock ended the game");
        self.publish(Event::Game(self.view_of(game).await));
        Ok(())
    }

    /// After a durable change: the index forgets a game that ended; in a timed game the
    /// side to move's time starts now (the move is durable) and its flag timer is set; the
    /// bot starts thinking when it is to move.
    pub(super) fn after_change(&self, before: &Game, game: &mut Game) {
        if game.is_over() && !before.is_over() {
            lock(&self.inner.index).remove_game(game);
            self.cancel_clock(game.id());
        }
        if game.ply() != before.ply() {
            let over = game.is_over();
            if let Some(clock) = game.rec.clock.as_mut().filter(|_| !over) {
                clock.start_turn(self.now_ms());
            }
            self.schedule_clock(game);
            if game.bot_to_move().is_some() {
                self.spawn_bot(game.id().clone());
            }
        }
    }

    /// Deletes closed challenges and claims whose time is up (a range scan of the expiry
    /// index); returns how many.
    pub(super) async fn expire_records(&self) -> usize {
        match self.inner.store.expire_due(self.now(), 10_000).await {
            Ok(0) => 0,
            Ok(n) => {
                tracing::info!(records = n, "expired records deleted");
                n
            }
            Err(error) => {
                tracing::error!(%error, "cannot delete expired records");
                0
            }
        }
    }
}

/// The slot of `id` in `map`, or a new one holding what `load` reads from the store (`load`
/// is only awaited on a miss). Two racing loads of the same id end up sharing the first slot
/// inserted.
async fn cached_slot<'m, T: Held>(
    map: &'m SlotMap<T>,
    id: &str,
    load: impl std::future::Future<Output = Result<Stored<T>, ActionError>>,
) -> Result<SlotRef<'m, T>, ActionError> {
    let cached = lock(map).get(id).cloned();
    let slot = match cached {
        Some(slot) => slot,
        None => {
            let value = load.await?;
            lock(map)
                .entry(id.to_string())
                .or_insert_with(|| Arc::new(AsyncMutex::new(value)))
                .clone()
        }
    };
    Ok(SlotRef {
        map,
        id: id.to_string(),
        slot: Some(slot),
    })
}

/// How many times a change is tried again after losing a race to another process's write
/// that left what the boards show as it was.
const RACES: u32 = 3;

/// How many times a game's end is counted again when a player's stats changed meanwhile.
const STATS_ATTEMPTS: u32 = 5;

/// Whether a write's conflict is on a count another process may change at any time (a
/// player's stats, a pair's rated games of the day): read it again and count on top.
fn counted_meanwhile(tree: &str, key: &str) -> bool {
    tree == Tree::Ratings.name()
        || (tree == Tree::Claims.name() && key.starts_with(super::pairs::PAIR_KEYS))
}

/// The revision `written` stored for the record `key` of `tree` (0 if it stored none).
pub(super) fn stored_revision(written: &Written, tree: Tree, key: &str) -> u64 {
    written.revision(tree, key).unwrap_or(0)
}

/// A durable write's result for the caller: a compare-and-set that lost a race is refused
/// as a stale board.
pub(super) fn durable(result: Result<Written, StoreError>) -> Result<Written, ActionError> {
    match result {
        Ok(written) => Ok(written),
        Err(StoreError::Conflict { tree, key }) => {
            tracing::info!(tree, key, "changed by another process; refused as stale");
            Err(ActionError::StaleBoard)
        }
        Err(error) => Err(error.into()),
    }
}
