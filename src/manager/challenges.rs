//! Challenges: open, accept, decline, cancel, expire.

use super::creation::GivenId;
use super::*;

/// What a player does with an open challenge.
#[derive(Clone, Copy)]
pub(super) enum Answer {
    /// With the terms' version the accepting player was shown (a button), if known.
    Accept(Option<u32>),
    Decline,
    Cancel,
}

/// What a challenge proposes.
pub(super) struct Terms {
    pub variant: Variant,
    pub time: TimeControl,
    /// The challenger named no time control: they may pick one with buttons.
    pub time_changeable: bool,
    /// The game will be rated (only games between people are).
    pub rated: bool,
    /// The challenger's colour, when fixed (a rematch).
    pub challenger_side: Option<Side>,
    pub rematch_of: Option<GameId>,
}

impl Manager {
    /// `rematch`: the challenger's colour and the game this is a rematch of.
    pub(super) async fn challenge(
        &self,
        actor: UserRef,
        chat: ChatRef,
        opponent: Option<UserRef>,
        terms: Terms,
    ) -> Result<Reply, ActionError> {
        let Terms {
            variant,
            time,
            time_changeable,
            rated,
            challenger_side,
            rematch_of,
        } = terms;
        if let Some(o) = &opponent {
            if *o == actor {
                return Err(ActionError::ChallengeSelf);
            }
            if lock(&self.inner.bot_users).contains(&o.key()) {
                return Err(ActionError::ChallengeBot);
            }
        }
        // Over the pair's daily limit of rated games the challenge is unrated from the start,
        // and its text says so (`pairs`).
        let rated = match &opponent {
            Some(o) if rated => {
                let pair = [Player::Human(actor.clone()), Player::Human(o.clone())];
                self.pair_may_play_rated(&pair).await?
            }
            _ => rated,
        };
        let now = self.now();
        let rec = ChallengeRecord {
            id: self.unused_id(Tree::Challenges).await?,
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
            rated,
            time_control: time,
            time_changeable,
            time_changes: 0,
        };
        // Locked and in the map before the index makes its id findable (see `slots`).
        let id = rec.id.clone();
        let slot = SlotRef::new(&self.inner.challenges, &id, rec);
        let mut rec = slot.lock().await;
        slot.publish();
        // Findable through the index; its limits are checked by the store as it is written
        // (`seats`).
        lock(&self.inner.index).add_challenge(&rec);
        match self.write_challenge(None, Some(&rec)).await {
            Ok(revision) => rec.revision = revision,
            Err(error) => {
                lock(&self.inner.index).remove_challenge(&rec);
                slot.forget();
                return Err(error);
            }
        }
        let view = self.challenge_view(&rec).await;
        Ok(Reply::Challenge(view))
    }

    /// Accepts, declines or cancels a challenge, under its lock.
    pub(super) async fn answer(
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

    pub(super) async fn answer_locked(
        &self,
        actor: &UserRef,
        slot: &SlotRef<'_, ChallengeRecord>,
        answer: Answer,
    ) -> Result<Reply, ActionError> {
        let mut c = self.enter(slot).await?;
        self.expire_if_due(&mut c).await?;
        if !c.is_open() {
            return Err(ActionError::ChallengeClosed);
        }
        let status = match answer {
            // Accepting is agreeing to the terms shown: once they changed, an Accept shown
            // before is refused with the new ones (issue 31, item 3).
            Answer::Accept(Some(terms)) if terms != c.time_changes => {
                return Err(ActionError::TermsChanged {
                    variant: c.variant,
                    time: c.time_control,
                    rated: c.rated,
                });
            }
            Answer::Accept(_) => return self.accept_open(actor, &mut c).await,
            // Only the one challenged declines (an open challenge is simply left to expire),
            // only the challenger cancels.
            Answer::Decline if c.opponent.as_ref() == Some(actor) => ChallengeStatus::Declined,
            Answer::Cancel if c.challenger == *actor => ChallengeStatus::Cancelled,
            Answer::Decline | Answer::Cancel => return Err(ActionError::NotForYou),
        };
        self.close_challenge(&mut c, status).await?;
        Ok(Reply::Challenge(self.challenge_view(&c).await))
    }

    /// Starts the game of an open challenge that `actor` accepts.
    pub(super) async fn accept_open(
        &self,
        actor: &UserRef,
        c: &mut Stored<ChallengeRecord>,
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
        if c.rated && !self.pair_may_play_rated(&players).await? {
            return self.unrate(c).await;
        }
        let before = c.clone();
        let game_id = self.unused_id(Tree::Games).await?;
        c.status = ChallengeStatus::Accepted(game_id.clone());
        c.opponent = Some(actor.clone());
        let created = self
            .create_game(
                Some(GivenId {
                    id: game_id,
                    arena: None,
                    seat: None,
                }),
                c.chat.clone(),
                (c.variant, c.time_control),
                players,
                c.rated,
                Some((&before, &mut *c)),
            )
            .await;
        let view = match created {
            Ok(view) => view,
            Err(error) => {
                *c = before;
                let id = c.id.clone();
                self.unsure(&id, c, &error);
                return Err(error);
            }
        };
        lock(&self.inner.index).remove_challenge(c);
        self.publish(Event::Challenge(self.challenge_view(c).await));
        Ok(Reply::Game(view))
    }

    /// A challenge shown as rated whose two players reached their daily limit of rated games
    /// since: it becomes unrated (a change of its terms, redrawn through the event), and the
    /// Accept of the rated terms is refused with the new ones.
    async fn unrate(&self, c: &mut Stored<ChallengeRecord>) -> Result<Reply, ActionError> {
        let before = c.clone();
        c.rated = false;
        c.time_changes = c.time_changes.saturating_add(1);
        if let Err(error) = self.write_challenge(Some(&before), Some(c)).await {
            *c = before;
            let id = c.id.clone();
            self.unsure(&id, c, &error);
            return Err(error);
        }
        c.revision += 1;
        self.publish(Event::Challenge(self.challenge_view(c).await));
        Err(ActionError::TermsChanged {
            variant: c.variant,
            time: c.time_control,
            rated: false,
        })
    }

    /// The challenger changes the time control of their open challenge, under its lock (so
    /// an accept is either before it, and refused after, or after it and plays at `time`).
    pub(super) async fn set_challenge_time(
        &self,
        actor: &UserRef,
        id: &str,
        time: TimeControl,
    ) -> Result<Reply, ActionError> {
        let slot = self.challenge_slot(id).await?;
        let result = self.set_time_locked(actor, &slot, time).await;
        self.release_challenge(id, slot).await;
        result
    }

    async fn set_time_locked(
        &self,
        actor: &UserRef,
        slot: &SlotRef<'_, ChallengeRecord>,
        time: TimeControl,
    ) -> Result<Reply, ActionError> {
        let mut c = self.enter(slot).await?;
        self.expire_if_due(&mut c).await?;
        if !c.is_open() {
            return Err(ActionError::ChallengeClosed);
        }
        if c.challenger != *actor {
            return Err(ActionError::NotYourChallenge);
        }
        if c.time_control != time {
            let before = c.clone();
            c.time_control = time;
            c.time_changes = c.time_changes.saturating_add(1);
            match self.write_challenge(Some(&before), Some(&c)).await {
                Ok(revision) => c.revision = revision,
                Err(error) => {
                    *c = before;
                    let id = c.id.clone();
                    self.unsure(&id, &mut c, &error);
                    return Err(error);
                }
            }
        }
        Ok(Reply::Challenge(self.challenge_view(&c).await))
    }

    /// Lets go of a challenge's slot now rather than at the end of the caller's scope (a
    /// closed challenge then leaves memory, see `SlotRef`).
    pub(super) async fn release_challenge(&self, _id: &str, slot: SlotRef<'_, ChallengeRecord>) {
        drop(slot);
    }

    /// Closes a challenge whose time is up (and tells subscribers); true if it did.
    pub(super) async fn expire_if_due(
        &self,
        c: &mut Stored<ChallengeRecord>,
    ) -> Result<bool, ActionError> {
        if !c.is_open() || c.expires_at > self.now() {
            return Ok(false);
        }
        self.close_challenge(c, ChallengeStatus::Expired).await?;
        self.publish(Event::Challenge(self.challenge_view(c).await));
        Ok(true)
    }

    pub(super) async fn close_challenge(
        &self,
        c: &mut Stored<ChallengeRecord>,
        status: ChallengeStatus,
    ) -> Result<(), ActionError> {
        let before = c.clone();
        c.status = status;
        match self.write_challenge(Some(&before), Some(c)).await {
            Ok(revision) => c.revision = revision,
            Err(error) => {
                *c = before;
                let id = c.id.clone();
                self.unsure(&id, c, &error);
                return Err(error);
            }
        }
        lock(&self.inner.index).remove_challenge(c);
        Ok(())
    }
}
