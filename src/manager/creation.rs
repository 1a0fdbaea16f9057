//! A new game: made, indexed and stored durably with the seats, the pair's count and the
//! challenge it comes from, in one write (or not at all).

use super::slots::{challenge_tree, durable, stored_revision};
use super::*;
use crate::store::{Batch, Expect};
use crate::timecontrol::GameClock;

/// A game whose id is chosen before it is made (by an accepted challenge, or a
/// tournament's pairing), and the arena tournament it belongs to (whose players may go
/// berserk).
pub(crate) struct GivenId {
    pub id: GameId,
    pub arena: Option<String>,
    pub seat: Option<super::Seat>,
}

/// How long a tournament game's first moves wait at most for its board to reach both
/// players (`GameClock::wait_for_boards`): time enough for a board queued behind a group's
/// 20 posts a minute, and a bound for one that can reach nobody.
pub const BOARD_WAIT_MS: u64 = 10 * 60 * 1000;

impl Manager {
    /// Creates and stores a new game; checks the limits first. `accepted`, the challenge the
    /// game comes from (before, after), is written in the same atomic write, so a crash
    /// cannot leave a game whose challenge is still open (and could be accepted twice);
    /// `after` then holds the revision it is stored at.
    pub(super) async fn create_game(
        &self,
        given: Option<GivenId>,
        chat: ChatRef,
        (variant, time_control): (Variant, TimeControl),
        players: [Player; 2],
        rated: bool,
        accepted: Option<(&Stored<ChallengeRecord>, &mut Stored<ChallengeRecord>)>,
    ) -> Result<GameView, ActionError> {
        let now_ms = self.now_ms();
        let now = now_ms / 1000;
        let (id, arena, seat) = match given {
            Some(t) => (t.id, t.arena, t.seat),
            None => (self.unused_id(Tree::Games).await?, None, None),
        };
        // Only games between people are rated, and only so many a day between two of them
        // (`pairs`; the count is written with the game).
        let mut rated = rated && players.iter().all(|p| !p.is_bot());
        let pair = if rated {
            self.pair_count(&players).await?
        } else {
            None
        };
        let limit = self.inner.config.limits.rated_games_per_pair_per_day;
        if pair.as_ref().is_some_and(|p| p.reached(limit)) {
            rated = false;
        }
        let pair = pair.filter(|_| rated);
        // A tournament's boards go out behind the platforms' flood limits, to players who
        // may be anywhere: no first move's time runs before the board has reached both.
        let tournament = seat.is_some() || arena.is_some();
        let unseen = players.each_ref().map(|p| tournament && !p.is_bot());
        let rec = GameRecord {
            id: id.clone(),
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
            rated,
            ended: None,
            time_control,
            clock: match time_control {
                TimeControl::Fischer {
                    base_ms,
                    increment_ms,
                } => {
                    let mut clock = GameClock::new(base_ms, increment_ms, now_ms);
                    clock.wait_for_boards(unseen, now_ms.saturating_add(BOARD_WAIT_MS));
                    Some(clock)
                }
                // No clocks: each move has its time (`Game::timeout_at`).
                TimeControl::Correspondence | TimeControl::Days(_) => None,
            },
            hints: 0,
            version: 0,
            arena,
            seat,
            watched: false,
            alerts: Vec::new(),
            premoves: Default::default(),
        };
        // Locked and in the map before the index makes its id findable (see the top).
        let slot = SlotRef::new(&self.inner.games, &id, Game::new(rec));
        let mut game = slot.lock().await;
        slot.publish();
        // Findable through the index; its limits are checked by the store as it is written
        // (`seats`).
        lock(&self.inner.index).add_game(&game);
        match self
            .store_new_game(&game.rec, accepted, pair.as_ref())
            .await
        {
            Ok(revision) => game.revision = revision,
            Err(error) => {
                lock(&self.inner.index).remove_game(&game);
                slot.forget();
                return Err(error);
            }
        }
        if let Some(clock) = game.rec.clock.as_mut() {
            clock.start_turn(self.now_ms());
        }
        self.schedule_clock(&game);
        if game.bot_to_move().is_some() {
            self.spawn_bot(id);
        }
        Ok(self.view_of(&game).await)
    }

    /// Stores a new game (and the change of the challenge it comes from) durably; returns
    /// the game's revision.
    async fn store_new_game(
        &self,
        rec: &GameRecord,
        accepted: Option<(&Stored<ChallengeRecord>, &mut Stored<ChallengeRecord>)>,
        pair: Option<&super::pairs::PairCount>,
    ) -> Result<u64, ActionError> {
        let mut attempt = 0;
        let written = loop {
            attempt += 1;
            let mut batch = Batch::new();
            batch.put_checked(Tree::Games, &rec.id, rec, Expect::Absent)?;
            if self.inner.config.web_url.is_some() {
                // The players' pages exist from their first game on, so the game's page
                // links to pages that answer, and no page view writes (`player_pages`).
                for user in rec.players.iter().filter_map(Player::user) {
                    self.note_player_page(user, rec.created_at, &mut batch)
                        .await;
                }
            }
            self.seat_game(rec, &mut batch).await?;
            if let Some(pair) = pair {
                pair.count_one(&mut batch)?;
            }
            if let Some((before, after)) = &accepted {
                let revision = before.revision;
                self.challenge_change(&mut batch, Some(before), Some(after), revision)?;
                self.reseat_challenge(Some(before), Some(after), &mut batch)
                    .await?;
            }
            let result = self.inner.store.write(batch).await;
            if !super::seats::lost_a_seat(&result, attempt) {
                break durable(result)?;
            }
            tracing::debug!(game = rec.id, attempt, "a seat was taken meanwhile; again");
        };
        if let Some((_, after)) = accepted {
            after.revision = stored_revision(&written, challenge_tree(after), &after.id);
        }
        Ok(stored_revision(&written, Tree::Games, &rec.id))
    }
}
