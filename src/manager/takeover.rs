//! Nothing is orphaned: every process watches every live game and challenge.
//!
//! On a shared database a game's flag timer, its move time-out and a challenge's expiry used
//! to live only in the process that made them; when that process died they waited for
//! somebody to press a button. Now each process lists the live trees every
//! `TAKEOVER_EVERY` and takes in what it does not hold yet (made by another process): a
//! timed game gets its flag timer here too, and the sweep applies time-outs and expiry to
//! all of them. Two processes ending the same game at once is harmless: every write is a
//! compare-and-set on the record's revision, so exactly one of them lands and the other
//! reads the ended game back.
//!
//! A record that left the live tree elsewhere (the game ended, the challenge closed) is
//! read again here, so it leaves this process's index and its timer stops.
//!
//! The bot's move is the one thing not done twice on purpose: a game taken in from another
//! process starts a search here only once the bot has been to move for
//! `BOT_STUCK_AFTER_SECS` (its own process, if alive, has moved long before).

use super::*;

/// How often the live trees are listed for records another process made.
pub(super) const TAKEOVER_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// A taken-in game whose bot has been to move this long is searched here.
pub(super) const BOT_STUCK_AFTER_SECS: u64 = 15;

impl Manager {
    /// Takes in the live games and challenges this process does not hold, and reads again
    /// those it holds that are no longer live in the store. Returns how many it took in.
    /// Runs every `TAKEOVER_EVERY`; tests call it.
    pub async fn take_over(&self) -> usize {
        let games = self.take_over_games().await;
        let challenges = self.take_over_challenges().await;
        if games + challenges > 0 {
            tracing::info!(games, challenges, "taken over from the store");
        }
        games + challenges
    }

    async fn take_over_games(&self) -> usize {
        let stored = match self.inner.store.revisions(Tree::Games).await {
            Ok(stored) => stored,
            Err(error) => {
                tracing::warn!(%error, "cannot list the live games");
                return 0;
            }
        };
        let live: HashSet<&str> = stored.iter().map(|(key, _)| key.as_str()).collect();
        let held = lock(&self.inner.index).ongoing_games();
        for id in held.iter().filter(|id| !live.contains(id.as_str())) {
            self.reread_game(id).await;
        }
        let mut taken = 0;
        for (id, _) in &stored {
            if lock(&self.inner.games).contains_key(id) {
                continue;
            }
            if self.take_game(id).await {
                taken += 1;
            }
        }
        taken
    }

    /// Loads a live game made elsewhere and sets its flag timer.
    async fn take_game(&self, id: &str) -> bool {
        let Ok(slot) = self.game_slot(id).await else {
            return false;
        };
        let Ok(game) = self.enter(&slot).await else {
            return false;
        };
        if game.is_over() {
            return false;
        }
        lock(&self.inner.taken_over).insert(id.to_string());
        self.schedule_clock(&game);
        true
    }

    /// A game this process holds as ongoing that is no longer in the live tree: read it
    /// again (it ended elsewhere), which takes it out of the index and stops its timer.
    async fn reread_game(&self, id: &str) {
        let Ok(slot) = self.game_slot(id).await else {
            return;
        };
        let over = match self.enter(&slot).await {
            Ok(game) => game.is_over(),
            Err(_) => false,
        };
        if over {
            self.cancel_clock(id);
            lock(&self.inner.taken_over).remove(id);
        }
    }

    async fn take_over_challenges(&self) -> usize {
        let stored = match self.inner.store.revisions(Tree::Challenges).await {
            Ok(stored) => stored,
            Err(error) => {
                tracing::warn!(%error, "cannot list the open challenges");
                return 0;
            }
        };
        let live: HashSet<&str> = stored.iter().map(|(key, _)| key.as_str()).collect();
        let held = lock(&self.inner.index).open_challenges();
        for id in held.iter().filter(|id| !live.contains(id.as_str())) {
            if let Ok(slot) = self.challenge_slot(id).await {
                // Entering reads it again: closed elsewhere, it leaves the index.
                let entered = self.enter(&slot).await.map(drop);
                if let Err(error) = entered {
                    tracing::debug!(challenge = id, %error, "cannot read a challenge again");
                }
            }
        }
        let mut taken = 0;
        for (id, _) in &stored {
            if lock(&self.inner.challenges).contains_key(id) {
                continue;
            }
            // Loading a live challenge enters it into the index, where the sweep finds it.
            if self.challenge_slot(id).await.is_ok() {
                taken += 1;
            }
        }
        taken
    }

    /// Whether the bot's move in game `id` is left to another process for now: the game was
    /// taken in from another process and its bot has not been to move for
    /// `BOT_STUCK_AFTER_SECS` yet.
    pub(super) fn bot_left_to_others(&self, id: &str, game: &Game) -> bool {
        lock(&self.inner.taken_over).contains(id)
            && self.now() < game.rec.last_move_at.saturating_add(BOT_STUCK_AFTER_SECS)
    }

    pub(super) fn spawn_takeover(&self) {
        let weak: Weak<Inner> = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(TAKEOVER_EVERY);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            ticks.tick().await;
            loop {
                ticks.tick().await;
                let Some(inner) = weak.upgrade() else { return };
                Manager { inner }.take_over().await;
            }
        });
    }
}
