//! Clocks of timed games: a flag timer per game, the heartbeat that says how long the
//! process was alive, and resuming clocks after a restart.
//!
//! Each ongoing timed game has one timer task sleeping until its deadline (the flag, or the
//! end of a first move's limit); a move replaces it. When it wakes it ends the game through
//! the same path as a press (`apply_due_clock`), so the board is updated and both players
//! are told even if nobody presses anything.
//!
//! Restarts: while timed games are going on, the manager writes the time every second
//! (`heartbeat`). At start-up each clock resumes where it stood at the last heartbeat: the
//! downtime is not charged, and a game whose time had run out before the stop ends at once.
//! On a shared database every live process writes that heartbeat; one that starts while
//! another keeps writing it (`others_alive`) knows the games were timed all along and leaves
//! their clocks alone (nothing was down).
//!
//! One time: the manager keeps its clock to the store's shared clock (the database's) by
//! measuring it at start and every `SYNC_EVERY` (`Clock::sync`), so every process reads the
//! same time whatever its host's clock says.

use super::*;

/// The key in the meta tree of the last time the manager was known alive (unix ms).
pub const HEARTBEAT_KEY: &str = "alive-ms";
/// How often the heartbeat is written while timed games are going on.
const HEARTBEAT_EVERY: std::time::Duration = std::time::Duration::from_secs(1);
/// A heartbeat this recent at start-up was written by another live process.
const OTHERS_ALIVE_WITHIN_MS: u64 = 3_000;
/// How often the clock is measured against the shared one.
const SYNC_EVERY: std::time::Duration = std::time::Duration::from_secs(5);
/// Measurements taken at start; the one with the shortest round trip counts.
pub(super) const SYNC_SAMPLES: usize = 3;

impl Manager {
    /// (Re)sets the flag timer of a timed game for its current deadline; an ended game's
    /// timer is cancelled.
    pub(super) fn schedule_clock(&self, game: &Game) {
        let Some(clock) = game.rec.clock.as_ref().filter(|_| !game.is_over()) else {
            self.cancel_clock(game.id());
            return;
        };
        let first_move_ms = self.inner.config.clock.first_move_ms();
        let deadline = clock.deadline(game.position.to_move(), game.ply(), first_move_ms);
        let weak: Weak<Inner> = Arc::downgrade(&self.inner);
        let time = self.inner.clock.clone();
        let id = game.id().clone();
        let task = tokio::spawn({
            let id = id.clone();
            async move {
                time.sleep_until_ms(deadline.at_ms).await;
                let Some(inner) = weak.upgrade() else { return };
                Manager { inner }.clock_ran_out(&id).await;
            }
        });
        if let Some(old) = lock(&self.inner.timers).insert(id, task.abort_handle()) {
            old.abort();
        }
    }

    pub(super) fn cancel_clock(&self, id: &str) {
        let handle = lock(&self.inner.timers).remove(id);
        if let Some(handle) = handle {
            // The timer itself ends the game through here: it must not cancel itself.
            if tokio::task::try_id() != Some(handle.id()) {
                handle.abort();
            }
        }
    }

    /// A game's timer woke: end the game if its clock ran out, else (a restart moved the
    /// deadline) wait again.
    async fn clock_ran_out(&self, id: &str) {
        let Ok(slot) = self.game_slot(id).await else {
            return;
        };
        let Ok(mut game) = self.enter(&slot).await else {
            return;
        };
        if let Err(error) = self.apply_due_clock(&mut game, self.now_ms()).await {
            // The store refused; a press or the next start-up will try again.
            tracing::error!(game = id, %error, "cannot end the game on time");
            return;
        }
        if !game.is_over() {
            self.schedule_clock(&game);
        }
    }

    /// How many timed games have a running flag timer.
    pub fn running_clocks(&self) -> usize {
        lock(&self.inner.timers).len()
    }

    /// Writes the manager's time as its last sign of life (durable before it returns), so a
    /// restart knows how long timed games' clocks had run. Runs every second while timed
    /// games are going on; tests call it.
    pub async fn heartbeat(&self) -> Result<(), ActionError> {
        self.inner
            .store
            .put(Tree::Meta, HEARTBEAT_KEY, &self.now_ms())
            .await?;
        self.inner.store.commit().await?;
        Ok(())
    }

    pub(super) fn spawn_heartbeat(&self) {
        let weak: Weak<Inner> = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(HEARTBEAT_EVERY);
            loop {
                ticks.tick().await;
                let Some(inner) = weak.upgrade() else { return };
                let manager = Manager { inner };
                if manager.running_clocks() == 0 {
                    continue;
                }
                if let Err(error) = manager.heartbeat().await {
                    tracing::warn!(%error, "cannot write the heartbeat");
                }
            }
        });
    }

    /// The last heartbeat any process wrote (unix ms).
    pub(super) async fn last_heartbeat(&self) -> Option<u64> {
        match self.inner.store.get(Tree::Meta, HEARTBEAT_KEY).await {
            Ok(alive) => alive,
            Err(error) => {
                tracing::warn!(%error, "unreadable heartbeat; clocks resume as they were");
                None
            }
        }
    }

    /// Whether another process is alive at start-up: it timed the games all along. A
    /// heartbeat within `OTHERS_ALIVE_WITHIN_MS` may also be this process's own last one
    /// (a quick restart), so a recent one is read again once it would be that old: another
    /// live process has written a new one by then. Only a store every process shares (its
    /// clock is the database's) can have other processes; on sled nobody else is alive.
    pub(super) async fn others_alive(&self, alive: Option<u64>) -> bool {
        if !self.inner.clock.is_synced() {
            return false;
        }
        let Some(at) = alive else { return false };
        let now = self.now_ms();
        // A heartbeat from the future is a host whose clock was ahead before clocks were
        // shared, not a sign of life.
        if at > now || now - at >= OTHERS_ALIVE_WITHIN_MS {
            return false;
        }
        let wait = OTHERS_ALIVE_WITHIN_MS - (now - at);
        tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
        self.last_heartbeat().await.is_some_and(|again| again != at)
    }

    /// At start-up: resumes every ongoing timed game's clock where it stood at the last
    /// heartbeat (stored, so a second restart does not charge the first downtime), ends
    /// those whose time had run out before the stop, and sets the others' timers. With
    /// another process alive nothing was down: only the timers are set.
    pub(super) async fn resume_clocks(&self, alive: Option<u64>, others_alive: bool) {
        let now_ms = self.now_ms();
        let ongoing = lock(&self.inner.index).ongoing_games();
        let mut resumed = 0;
        for id in ongoing {
            let Ok(slot) = self.game_slot(&id).await else {
                continue;
            };
            let Ok(mut game) = self.enter(&slot).await else {
                continue;
            };
            if game.rec.clock.is_none() {
                continue;
            }
            if others_alive {
                // Only a flag that fell meanwhile is applied (here, so that the adapters
                // learn of it from `ended_at_start`); the clock itself is as it was.
                if let Err(error) = self.apply_due_clock(&mut game, now_ms).await {
                    tracing::error!(game = id, %error, "cannot apply a due clock");
                }
                self.schedule_clock(&game);
                continue;
            }
            let before = game.clone();
            let Some(clock) = game.rec.clock.as_mut() else {
                continue;
            };
            clock.resume(alive.unwrap_or(0), now_ms);
            let written = self
                .write_game(&before.rec, &mut game.rec, before.revision)
                .await;
            let result = match written {
                Ok(revision) => {
                    game.revision = revision;
                    self.apply_due_clock(&mut game, now_ms).await
                }
                Err(error) => Err(error),
            };
            if let Err(error) = result {
                tracing::error!(game = id, %error, "cannot resume the clock");
                *game = before;
            }
            self.schedule_clock(&game);
            resumed += 1;
        }
        if resumed > 0 {
            tracing::info!(resumed, ?alive, "clocks resumed");
        }
    }

    /// Measures the store's shared clock `samples` times and keeps the sample with the
    /// shortest round trip. False when the store has no shared clock (sled: this process's
    /// clock is the only one) or could not be read.
    pub(super) async fn sync_clock(&self, samples: usize) -> bool {
        if !matches!(self.inner.clock, Clock::System(_)) {
            return false;
        }
        let mut best: Option<(std::time::Instant, std::time::Instant, u64)> = None;
        for _ in 0..samples.max(1) {
            let sent = std::time::Instant::now();
            let shared = match self.inner.store.shared_time_ms().await {
                Ok(Some(ms)) => ms,
                Ok(None) => return false,
                Err(error) => {
                    tracing::warn!(%error, "cannot read the shared clock");
                    continue;
                }
            };
            let received = std::time::Instant::now();
            let trip = received - sent;
            if best.is_none_or(|(s, r, _)| trip < r - s) {
                best = Some((sent, received, shared));
            }
        }
        let Some((sent, received, shared)) = best else {
            return false;
        };
        match self.inner.clock.sync(sent, received, shared) {
            Some(change) => {
                let trip_ms = (received - sent).as_millis();
                tracing::debug!(change_ms = change, trip_ms, "clock measured");
                true
            }
            None => {
                tracing::warn!("the shared clock answered too slowly to measure");
                self.inner.clock.is_synced()
            }
        }
    }

    /// Keeps measuring the shared clock every `SYNC_EVERY` (a host's clock drifts).
    pub(super) fn spawn_clock_sync(&self) {
        let weak: Weak<Inner> = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(SYNC_EVERY);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            ticks.tick().await;
            loop {
                ticks.tick().await;
                let Some(inner) = weak.upgrade() else { return };
                Manager { inner }.sync_clock(1).await;
            }
        });
    }
}
