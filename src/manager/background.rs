//! Work nobody asked for directly: the bot's moves, expired challenges, time-outs.

use super::bots::Ticket;
use super::*;
use std::sync::atomic::Ordering as AtomicOrdering;

/// How long the bot's move may wait for a search slot before the player is told the bot is
/// busy.
const BUSY_NOTICE_AFTER: std::time::Duration = std::time::Duration::from_secs(1);

/// A bot move whose write failed (a slow disk's commit timed out, the database was away) is
/// tried again this many times, the first after `BOT_RETRY_FIRST` and then twice as long
/// each time (0.5 + 1 + 2 + 4 + 8 s), before only the sweep's `retry_stuck_bot` is left to
/// pick it up.
const BOT_RETRIES: u32 = 5;
const BOT_RETRY_FIRST: std::time::Duration = std::time::Duration::from_millis(500);

impl Manager {
    /// Starts the bot's turn in game `id` unless one is already queued or searching.
    pub(super) fn spawn_bot(&self, id: GameId) {
        self.spawn_bot_try(id, 0);
    }

    /// The bot's turn after `failures` failed tries.
    fn spawn_bot_try(&self, id: GameId, failures: u32) {
        let Some(ticket) = self.inner.bots.enter(&id) else {
            return;
        };
        let manager = self.clone();
        tokio::spawn(async move {
            let Err(error) = manager.bot_turn(&id, ticket).await else {
                return;
            };
            tracing::error!(game = id, %error, failures, "bot move failed");
            // A store error passes (the move was undone whole): try soon rather than at
            // the next sweep, which can be a minute away. Other errors (the game is gone)
            // do not. The pause holds no strong reference: a manager dropped meanwhile
            // (shut down) tries nothing more.
            if !error.is_storage() || failures >= BOT_RETRIES {
                return;
            }
            let weak = Arc::downgrade(&manager.inner);
            drop(manager);
            tokio::time::sleep(BOT_RETRY_FIRST * 2u32.pow(failures)).await;
            if let Some(inner) = weak.upgrade() {
                Manager { inner }.spawn_bot_try(id, failures + 1);
            }
        });
    }

    /// Waits for a search slot (telling the player if that takes a while), then computes
    /// the bot's move off the runtime from the position as it is once the slot is granted
    /// (the game is not locked meanwhile), and applies it like any other move if the game
    /// has not moved on.
    async fn bot_turn(&self, id: &str, mut ticket: Ticket) -> Result<(), ActionError> {
        let slot = self.game_slot(id).await?;
        let owner = {
            let game = slot.lock().await;
            let human = game.rec.players.iter().find_map(Player::user);
            human.map(UserRef::key).unwrap_or_default()
        };
        ticket.join(&owner);
        if !ticket.granted() {
            self.wait_for_slot(id, &slot, &mut ticket).await?;
        }
        self.inner.searches.fetch_add(1, AtomicOrdering::Relaxed);
        let (position, level, seed, think) = {
            let game = slot.lock().await;
            let Some(level) = game.bot_to_move() else {
                return Ok(());
            };
            let think = self.bot_think_time(&game);
            (
                game.position,
                level,
                game.rec.seed ^ u64::from(game.ply()),
                think,
            )
        };
        drop(slot);
        let started = std::time::Instant::now();
        let pit = self
            .inner
            .engine
            .choose_move_within(position, level, seed, think)
            .await
            .map_err(|e| ActionError::Storage(format!("engine: {e}")))?;
        // Charged at least what the search took, so a manual clock in tests charges it too.
        let searched_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let mut ticket = Some(ticket);
        let (played, view) = self
            .update_game_charged(id, searched_ms, move |game, now| {
                // Out of the queue, under the game's lock, before the move is written: the
                // search slot is free for the next game while this one's commit waits for
                // the disk, and whoever sees the move finds the bot free to think again.
                drop(ticket.take());
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

    /// How long the bot may think in a timed game: from its clock (`timecontrol::think_time`),
    /// and within the first-move limit on its first move. `None`: no clock, the level's own
    /// time.
    fn bot_think_time(&self, game: &Game) -> Option<std::time::Duration> {
        let clock = game.rec.clock.as_ref()?;
        let side = game.position.to_move();
        let left = clock.left(side, side, game.ply(), self.now_ms());
        let mut think = crate::timecontrol::think_time(left, clock.increment_ms);
        if game.ply() < 2 {
            think = think.min(self.inner.config.clock.first_move_ms() / 4);
        }
        Some(std::time::Duration::from_millis(think))
    }

    /// Searches ahead of the bot's move in game `id`, once it has waited for a slot longer
    /// than `BUSY_NOTICE_AFTER` (a view read meanwhile shows the player the bot is busy).
    pub(super) fn bot_busy(&self, id: &str) -> Option<u32> {
        let ahead = self.inner.bots.busy(id, BUSY_NOTICE_AFTER)?;
        Some(u32::try_from(ahead).unwrap_or(u32::MAX))
    }

    /// Waits for the bot's search slot; when that takes longer than `BUSY_NOTICE_AFTER`,
    /// shows the game once with how many searches are ahead of it, so the player knows the
    /// bot has not forgotten them.
    async fn wait_for_slot(
        &self,
        id: &str,
        slot: &Slot<Game>,
        ticket: &mut Ticket,
    ) -> Result<(), ActionError> {
        let closed = || ActionError::Storage("the bot's queue is closed".into());
        match tokio::time::timeout(BUSY_NOTICE_AFTER, ticket.wait()).await {
            Ok(granted) => return granted.ok_or_else(closed),
            Err(_) => {
                let ahead = u32::try_from(ticket.ahead()).unwrap_or(u32::MAX);
                let view = {
                    let game = slot.lock().await;
                    match game.bot_to_move() {
                        Some(_) => Some(self.view_of(&game).await),
                        None => None,
                    }
                };
                if let Some(mut view) = view {
                    tracing::info!(game = id, ahead, "the bot is busy; game queued");
                    view.bot_busy = Some(ahead);
                    self.publish(Event::Game(view));
                }
            }
        }
        ticket.wait().await.ok_or_else(closed)
    }

    /// Closes expired challenges and ends games whose move time ran out; publishes each
    /// change. Returns how many things changed. Runs in the background; tests call it.
    pub async fn sweep(&self) -> usize {
        let mut changed = 0;
        // What a drain after a game's end left (a crash, another process's ends).
        if let Err(error) = self.drain_explorer().await {
            tracing::warn!(%error, "the explorer's queue is not drained");
        }
        let challenges = lock(&self.inner.index).open_challenges();
        for id in challenges {
            let Ok(slot) = self.challenge_slot(&id).await else {
                continue;
            };
            let expired = match self.enter(&slot).await {
                Ok(mut c) => self.expire_if_due(&mut c).await,
                Err(error) => Err(error),
            };
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
        self.expire_records().await;
        changed
    }

    /// Starts the bot in a game where it is to move but no search is queued or running (its
    /// task failed). A search under way is left alone, so nothing is searched twice.
    pub(super) async fn retry_stuck_bot(&self, id: &str) {
        if self.inner.bots.is_active(id) {
            return;
        }
        let Ok(slot) = self.game_slot(id).await else {
            return;
        };
        // Asked again under the game's lock: a move being written when the sweep came by
        // (the lock was held) starts the bot before it lets the lock go, so only a game
        // that is still to move with no search after that is stuck.
        let stuck = {
            let game = slot.lock().await;
            game.bot_to_move().is_some()
                && !self.inner.bots.is_active(id)
                && !self.bot_left_to_others(id, &game)
        };
        if stuck {
            self.inner
                .bot_restarts
                .fetch_add(1, AtomicOrdering::Relaxed);
            tracing::warn!(
                game = id,
                "the bot is to move but not thinking; starting it again"
            );
            self.spawn_bot(id.to_string());
        }
    }

    /// The background task: sweeps every `sweep_interval_secs` until the manager is dropped.
    pub(super) fn spawn_sweeper(&self) {
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
