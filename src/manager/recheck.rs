//! After a write whose outcome is unknown (the database took COMMIT and never answered):
//! the player was told the outcome is being checked, and memory no longer trusts its copy
//! (`slots::Manager::unsure` marks its revision unknown, so whoever enters it next reads the
//! record again). This task reads the record again as soon as the store answers and
//! publishes it as stored, so every adapter redraws the board or the challenge from the
//! stored truth, whichever way the write went.

use super::*;
use std::time::Duration;

/// The first pause before reading again; each later one is twice as long, at most `LONGEST`.
const FIRST: Duration = Duration::from_millis(250);
const LONGEST: Duration = Duration::from_secs(5);
/// A store away for longer than this is an outage for the operator; the next press reads
/// the record again anyway (its revision stays unknown).
const GIVE_UP: Duration = Duration::from_secs(3600);

/// What is read again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Recheck {
    Game,
    Challenge,
}

impl Manager {
    /// Reads `id` again once the store answers and publishes it (see the top). Holds no
    /// strong reference while it waits: a manager shut down meanwhile checks nothing more.
    pub(super) fn spawn_recheck(&self, what: Recheck, id: String) {
        let weak = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let started = std::time::Instant::now();
            let mut pause = FIRST;
            loop {
                tokio::time::sleep(pause).await;
                let Some(inner) = weak.upgrade() else { return };
                let manager = Manager { inner };
                let error = match manager.recheck(what, &id).await {
                    Ok(()) => return,
                    Err(error) => error,
                };
                if !error.is_storage() || started.elapsed() > GIVE_UP {
                    tracing::warn!(key = id, ?what, %error, "cannot read back an unsure write");
                    return;
                }
                tracing::debug!(key = id, ?what, %error, "the store is still away");
                pause = (pause * 2).min(LONGEST);
            }
        });
    }

    async fn recheck(&self, what: Recheck, id: &str) -> Result<(), ActionError> {
        match what {
            Recheck::Game => self.recheck_game(id).await,
            Recheck::Challenge => self.recheck_challenge(id).await,
        }
    }

    /// Enters the game (which reads it again) and publishes it; a move that did land gets
    /// what a durable move gets: its flag timer, and the bot's reply.
    async fn recheck_game(&self, id: &str) -> Result<(), ActionError> {
        let slot = self.game_slot(id).await?;
        let game = self.enter(&slot).await?;
        if !game.is_over() {
            self.schedule_clock(&game);
            if game.bot_to_move().is_some() {
                self.spawn_bot(game.id().clone());
            }
        }
        tracing::info!(game = id, ply = game.ply(), "an unsure write read back");
        self.publish(Event::Game(self.view_of(&game).await));
        Ok(())
    }

    async fn recheck_challenge(&self, id: &str) -> Result<(), ActionError> {
        let slot = self.challenge_slot(id).await?;
        let c = self.enter(&slot).await?;
        tracing::info!(challenge = id, "an unsure write read back");
        if let ChallengeStatus::Accepted(game) = &c.status {
            let (game, messages) = (game.clone(), c.messages.clone());
            drop(c);
            return self.show_accepted_game(&game, messages).await;
        }
        self.publish(Event::Challenge(self.challenge_view(&c).await));
        Ok(())
    }

    /// An accept whose outcome was unknown did land (the game and the accepted challenge
    /// are one write): the press was answered "being checked", so no message shows the new
    /// game. The challenge's messages become its boards, as an answered accept makes them,
    /// and the game is published: every adapter draws it there.
    async fn show_accepted_game(
        &self,
        game: &str,
        messages: Vec<MessageRef>,
    ) -> Result<(), ActionError> {
        for message in messages {
            self.attach_message(Target::Game(game.to_string()), message, None)
                .await?;
        }
        self.recheck_game(game).await
    }
}
