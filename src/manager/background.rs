//! Work nobody asked for directly: the bot's moves, expired challenges, time-outs.

use super::*;

impl Manager {
    pub(super) fn spawn_bot(&self, id: GameId) {
        let manager = self.clone();
        tokio::spawn(async move {
            if let Err(error) = manager.bot_turn(&id).await {
                tracing::error!(game = id, %error, "bot move failed");
            }
        });
    }

    /// Computes the bot's move off the runtime (the game is not locked meanwhile), then
    /// applies it like any other move if the game has not moved on.
    pub(super) async fn bot_turn(&self, id: &str) -> Result<(), ActionError> {
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
        self.expire_records();
        changed
    }

    /// Starts the bot again in a game where it has been to move for over a minute (its
    /// task failed); a second task is harmless, as a bot move applies only to the position
    /// it was computed for.
    pub(super) async fn retry_stuck_bot(&self, id: &str) {
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
