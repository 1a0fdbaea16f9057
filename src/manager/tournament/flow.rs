//! The manager's side of tournaments: creating one, entries, cancelling, and the tick that
//! starts events, collects results, pairs rounds and arena waves and creates their games.
//!
//! A tournament is not held in memory: every change reads its record and writes it back
//! conditional on its revision (another process may have changed it meanwhile: then the
//! change is made again on the fresh record). Events taking entries or running live in
//! `Tree::Tournaments` (indexed by chat, `live.rs`), which the tick reads whole; finished
//! and cancelled ones move to
//! `Tree::TournamentArchive` in the write that ends them. Several processes may tick at
//! once: pairing a round is one conditional write, so exactly one of them pairs it, and the
//! games' ids are in that write (`<tournament>r<round>b<board>`, `<tournament>a<n>`), so a
//! process that dies before creating them leaves the next tick, of any process, the same
//! games to create; creating one that exists already changes nothing.

use super::record::{Board, BoardResult, Format, Status, TournamentError, TournamentRecord};
use crate::manager::creation::GivenId;
use crate::manager::public::ListedKind;
use crate::manager::{ActionError, Event, FinishReason, GameStatus, Manager, MessageRef, Player};
use crate::model::{ChatRef, GameId, Level, Platform, TimeControl, UserRef};
use crate::rules::{Side, Variant};
use crate::store::{Batch, Expect, StoreError, Tree};

/// How often the tick runs: an arena player whose game ended waits at most this long for a
/// new pairing.
pub const TICK: std::time::Duration = std::time::Duration::from_secs(2);
/// Conditional writes tried before giving up on a busy record.
const ATTEMPTS: usize = 8;
/// A new player's seeding rating when they have none in the event's category.
const UNRATED: f64 = 1500.0;

/// How a game of the event ended: its result, half-moves, and who went berserk.
type GameEnd = (BoardResult, u16, [bool; 2]);

/// What a new tournament is.
#[derive(Clone, Debug, PartialEq)]
pub struct NewTournament {
    pub format: Format,
    pub time: TimeControl,
    pub variant: Variant,
    pub rated: bool,
    /// Unix seconds.
    pub starts_at: u64,
}

/// A change to a tournament, for the adapters that show it (`Event::Tournament`): its
/// messages are redrawn from `record`; `paired` are games created by this change, whose
/// pairings are announced and boards posted; `ended` says it finished or was cancelled just
/// now (the podium is announced once).
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentNews {
    pub record: TournamentRecord,
    pub paired: Vec<GameId>,
    pub ended: bool,
}

impl TournamentNews {
    /// What changed between two versions of a record; `None` when no player would see it
    /// (only the list of its messages changed).
    fn between(before: &TournamentRecord, after: &TournamentRecord) -> Option<TournamentNews> {
        let mut seen = before.clone();
        seen.messages.clone_from(&after.messages);
        seen.tables.clone_from(&after.tables);
        if seen == *after {
            return None;
        }
        let was_started = |game: &GameId| {
            let boards = before.rounds.iter().flat_map(|r| r.boards.iter());
            boards
                .chain(before.arena.iter())
                .any(|b| b.started && b.game.as_ref() == Some(game))
        };
        let boards = after.rounds.iter().flat_map(|r| r.boards.iter());
        let paired = boards
            .chain(after.arena.iter())
            .filter(|b| b.started)
            .filter_map(|b| b.game.clone())
            .filter(|g| !was_started(g))
            .collect();
        let over = |s: Status| matches!(s, Status::Finished | Status::Cancelled);
        Some(TournamentNews {
            record: after.clone(),
            paired,
            ended: over(after.status) && !over(before.status),
        })
    }
}

impl Manager {
    /// Creates a tournament in `chat`, taking entries until `starts_at`.
    pub async fn create_tournament(
        &self,
        chat: ChatRef,
        creator: &UserRef,
        new: NewTournament,
    ) -> Result<TournamentRecord, ActionError> {
        let id = self.unused_id(Tree::Tournaments).await?;
        let now = self.now();
        let terms = (new.format, new.time, new.variant, new.rated);
        let rec = TournamentRecord::new(
            id.clone(),
            chat,
            creator.clone(),
            terms,
            (now, new.starts_at),
        );
        // Indexed by chat, and refused past the caps of live events (`live.rs`).
        self.store_new_tournament(&rec).await?;
        tracing::info!(tournament = id, "tournament created");
        self.publish(Event::Tournament(TournamentNews {
            record: rec.clone(),
            paired: Vec::new(),
            ended: false,
        }));
        Ok(rec)
    }

    /// The tournament `id`, running or not.
    pub async fn tournament(&self, id: &str) -> Result<TournamentRecord, ActionError> {
        let store = &self.inner.store;
        for tree in [Tree::Tournaments, Tree::TournamentArchive] {
            if let Some(rec) = store.get::<TournamentRecord>(tree, id).await? {
                return Ok(rec);
            }
        }
        Err(ActionError::NoSuchTournament)
    }

    /// `user` joins, seeded with their rating in the event's category. An arena player
    /// paused for a missed first move who joins again is back in the pairings.
    pub async fn join_tournament(
        &self,
        id: &str,
        user: &UserRef,
    ) -> Result<TournamentRecord, ActionError> {
        let rating = self.seed_rating(id, user).await?;
        let player = Player::Human(user.clone());
        let (rec, _) = self
            .update_tournament(id, |t, _| match t.entrant(&player) {
                Some((_, e)) if e.paused && e.left_before.is_none() => t.resume(&player),
                _ => t.join(player.clone(), rating).map(|_| ()),
            })
            .await?;
        Ok(rec)
    }

    /// The bot joins at `level`: only the creator or an admin may ask.
    pub async fn add_bot_to_tournament(
        &self,
        id: &str,
        by: &UserRef,
        admin: bool,
        level: Level,
    ) -> Result<TournamentRecord, ActionError> {
        let (rec, _) = self
            .update_tournament(id, |t, _| {
                if t.creator != *by && !admin {
                    return Err(TournamentError::NotAllowed);
                }
                t.join(Player::Bot(level), level.seed_rating())
            })
            .await?;
        Ok(rec)
    }

    pub async fn leave_tournament(
        &self,
        id: &str,
        user: &UserRef,
    ) -> Result<TournamentRecord, ActionError> {
        let player = Player::Human(user.clone());
        let (rec, _) = self.update_tournament(id, |t, _| t.leave(&player)).await?;
        Ok(rec)
    }

    /// A half-point bye in Swiss round `round` (`None`: the next to be paired) for `user`;
    /// the round it was granted for.
    pub async fn ask_half_bye(
        &self,
        id: &str,
        user: &UserRef,
        round: Option<u8>,
    ) -> Result<(TournamentRecord, u8), ActionError> {
        let player = Player::Human(user.clone());
        self.update_tournament(id, |t, _| t.ask_half_bye(&player, round))
            .await
    }

    /// An arena player paused for a missed first move is back.
    pub async fn resume_tournament(
        &self,
        id: &str,
        user: &UserRef,
    ) -> Result<TournamentRecord, ActionError> {
        let player = Player::Human(user.clone());
        let (rec, _) = self.update_tournament(id, |t, _| t.resume(&player)).await?;
        Ok(rec)
    }

    /// Cancels the event: its creator, or a member the platform calls an admin.
    pub async fn cancel_tournament(
        &self,
        id: &str,
        by: &UserRef,
        admin: bool,
    ) -> Result<TournamentRecord, ActionError> {
        let (rec, _) = self
            .update_tournament(id, |t, _| t.cancel(by, admin))
            .await?;
        Ok(rec)
    }

    /// Remembers that `message` shows tournament `id` (its announcement, or with `table`
    /// its standings as a picture), so that its changes redraw it.
    pub async fn attach_tournament_message(
        &self,
        id: &str,
        message: MessageRef,
        table: bool,
    ) -> Result<(), ActionError> {
        self.update_tournament(id, |t, _| {
            let list = if table {
                &mut t.tables
            } else {
                &mut t.messages
            };
            if !list.contains(&message) {
                list.push(message.clone());
            }
            Ok(())
        })
        .await?;
        Ok(())
    }

    /// A player's seeding rating: their rating in the event's category, or the default.
    async fn seed_rating(&self, id: &str, user: &UserRef) -> Result<f64, ActionError> {
        let rec = self.tournament(id).await?;
        let stats = self.stats(user).await?;
        let category = rec.time.category();
        Ok(stats
            .and_then(|s| s.category(category).map(|c| c.rating.rating))
            .unwrap_or(UNRATED))
    }

    /// Changes the record of tournament `id` with `change` and writes it back conditional on
    /// the revision it was read at, again on a fresh read if another write came first. An
    /// event that ends moves to the archive in the same write.
    pub(crate) async fn update_tournament<T>(
        &self,
        id: &str,
        change: impl Fn(&mut TournamentRecord, u64) -> Result<T, TournamentError>,
    ) -> Result<(TournamentRecord, T), ActionError> {
        let store = &self.inner.store;
        for _ in 0..ATTEMPTS {
            let Some(read) = store
                .get_versioned::<TournamentRecord>(Tree::Tournaments, id)
                .await?
            else {
                // Over already, or never was.
                self.tournament(id).await?;
                return Err(ActionError::Tournament(TournamentError::Closed));
            };
            let mut rec = read.value;
            let original = rec.clone();
            let out = change(&mut rec, self.now()).map_err(ActionError::Tournament);
            if rec == original {
                // Nothing to write: a tick that found nothing to do, or a plain refusal.
                return out.map(|out| (rec, out));
            }
            let ended = matches!(rec.status, Status::Finished | Status::Cancelled);
            // A refusal that changed the record (a start with too few players cancels it)
            // is still written.
            if out.is_err() && !ended {
                return Err(out
                    .err()
                    .unwrap_or(ActionError::Tournament(TournamentError::Closed)));
            }
            let mut batch = Batch::new();
            let expect = Expect::Revision(read.revision);
            if ended {
                batch.delete_checked(Tree::Tournaments, id, expect);
                batch.put(Tree::TournamentArchive, id, &rec)?;
                self.unindex_tournament(&rec, &mut batch).await?;
                if rec.status == Status::Finished {
                    self.note_listed_end(ListedKind::Tournament, &rec.chat, id, &mut batch)?;
                }
            } else {
                batch.put_checked(Tree::Tournaments, id, &rec, expect)?;
            }
            match store.write(batch).await {
                Ok(_) => {
                    if let Some(news) = TournamentNews::between(&original, &rec) {
                        self.publish(Event::Tournament(news));
                    }
                    return out.map(|out| (rec, out));
                }
                Err(StoreError::Conflict { .. }) => continue,
                Err(error) => return Err(error.into()),
            }
        }
        Err(ActionError::StoreAway(format!(
            "tournament {id} changed {ATTEMPTS} times while being written"
        )))
    }

    /// The running events in `platform`'s chats with games that were created but never
    /// shown anywhere (a process stopped between creating them and posting them): news
    /// naming those games as paired, for an adapter to announce them at start-up as the
    /// lost news would have.
    pub async fn unannounced_tournament_games(&self, platform: Platform) -> Vec<TournamentNews> {
        let live = self
            .inner
            .store
            .load_all::<TournamentRecord>(Tree::Tournaments);
        let live = match live.await {
            Ok(live) => live,
            Err(error) => {
                tracing::warn!(%error, "cannot read the tournaments for unannounced games");
                return Vec::new();
            }
        };
        let mut out = Vec::new();
        for (_, rec) in live {
            if rec.chat.platform != platform || rec.status != Status::Running {
                continue;
            }
            let boards = rec.rounds.iter().flat_map(|r| r.boards.iter());
            let playing = boards
                .chain(rec.arena.iter())
                .filter(|b| b.started && b.result.is_none())
                .filter_map(|b| b.game.clone());
            let mut paired = Vec::new();
            for game in playing {
                // Shown nowhere yet, or owed to a player (a board that reached one of them).
                let owed = |view: &crate::manager::GameView| {
                    view.messages.is_empty() || view.awaiting.iter().any(|a| *a)
                };
                match self.game(&game).await {
                    Ok(view) if owed(&view) && !view.is_over() => paired.push(game),
                    Ok(_) => {}
                    Err(error) => tracing::warn!(game, %error, "tournament game not read"),
                }
            }
            if !paired.is_empty() {
                out.push(TournamentNews {
                    record: rec,
                    paired,
                    ended: false,
                });
            }
        }
        out
    }

    /// Runs `tick_tournaments` every `TICK` until the manager is dropped.
    pub(crate) fn spawn_tournament_ticker(&self) {
        let weak = std::sync::Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(TICK);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                ticks.tick().await;
                let Some(inner) = weak.upgrade() else { return };
                Manager { inner }.tick_tournaments().await;
            }
        });
    }

    /// One pass over the live tournaments: starts those due, records the results of games
    /// that ended, pairs the next round or arena wave, creates their games, ends events.
    /// Returns how many tournaments it changed.
    ///
    /// It reads every live event, not the chat index: any of them may be due to start, have
    /// a result to record or a round to pair, and another process may have changed any of
    /// them since the last tick, so each must be looked at anyway. The caps of live events
    /// per chat and per user (`live.rs`) bound what that read costs.
    pub async fn tick_tournaments(&self) -> usize {
        let live = match self
            .inner
            .store
            .load_all::<TournamentRecord>(Tree::Tournaments)
            .await
        {
            Ok(live) => live,
            Err(error) => {
                tracing::error!(%error, "cannot read the tournaments");
                return 0;
            }
        };
        let mut changed = 0;
        for (id, rec) in live {
            match self.tick_one(&rec).await {
                Ok(true) => changed += 1,
                Ok(false) => {}
                Err(error) => tracing::warn!(tournament = id, %error, "tournament tick failed"),
            }
        }
        changed
    }

    async fn tick_one(&self, rec: &TournamentRecord) -> Result<bool, ActionError> {
        let now = self.now();
        if rec.status == Status::Open {
            if now < rec.starts_at {
                return Ok(false);
            }
            let started = self.update_tournament(&rec.id, |t, now| t.start(now)).await;
            return match started {
                Ok(_) | Err(ActionError::Tournament(TournamentError::TooFew)) => Ok(true),
                Err(error) => Err(error),
            };
        }
        let mut changed = self.collect_results(rec).await?;
        let rec = self.tournament(&rec.id).await?;
        if rec.status != Status::Running {
            return Ok(changed);
        }
        changed |= self.create_missing_games(&rec).await?;
        changed |= match rec.format {
            Format::Swiss { .. } => self.next_swiss_round(&rec).await?,
            Format::Arena { minutes } => self.next_arena_wave(&rec, minutes).await?,
        };
        Ok(changed)
    }

    /// Records every game of the event that has ended since the last tick.
    async fn collect_results(&self, rec: &TournamentRecord) -> Result<bool, ActionError> {
        let open = rec
            .rounds
            .iter()
            .flat_map(|r| r.boards.iter())
            .chain(rec.arena.iter())
            .filter(|b| b.started && b.result.is_none());
        let mut ended = Vec::new();
        for board in open {
            let Some(game) = &board.game else { continue };
            if let Some(result) = self.board_result(game).await? {
                ended.push((game.clone(), result));
            }
        }
        if ended.is_empty() {
            return Ok(false);
        }
        self.update_tournament(&rec.id, |t, _| {
            for (game, (result, plies, berserk)) in &ended {
                let boards = t.rounds.iter_mut().flat_map(|r| r.boards.iter_mut());
                let mut boards = boards.chain(t.arena.iter_mut());
                if let Some(b) = boards.find(|b| b.game.as_ref() == Some(game)) {
                    b.berserk = *berserk;
                }
                t.record_result(game, *result, *plies)?;
            }
            Ok(())
        })
        .await?;
        Ok(true)
    }

    /// How game `id` ended, for its tournament (`None`: still going), its half-moves and
    /// who went berserk. A side that never made its first move (missed it, ran out of time
    /// or resigned before it) loses by forfeit.
    async fn board_result(&self, id: &str) -> Result<Option<GameEnd>, ActionError> {
        let slot = self.game_slot(id).await?;
        let game = slot.lock().await;
        let plies = u16::try_from(game.rec.moves.len()).unwrap_or(u16::MAX);
        let GameStatus::Finished { winner, reason } = game.rec.status else {
            return Ok(None);
        };
        let forfeit = |side: Side| match side {
            Side::White => BoardResult::WhiteForfeits,
            Side::Black => BoardResult::BlackForfeits,
        };
        let result = match (reason, winner) {
            (FinishReason::FirstMoveMissed(side) | FinishReason::Forfeited(side), _) => {
                forfeit(side)
            }
            (FinishReason::TimedOut(side) | FinishReason::Resigned(side), _) if plies <= 1 => {
                forfeit(side)
            }
            (FinishReason::Aborted, _) => BoardResult::NoGame,
            (_, Some(Side::White)) => BoardResult::WhiteWins,
            (_, Some(Side::Black)) => BoardResult::BlackWins,
            (_, None) => BoardResult::Draw,
        };
        let berserk = game.rec.clock.as_ref().map_or([false; 2], |c| c.berserk);
        Ok(Some((result, plies, berserk)))
    }

    /// Creates the games of boards paired but not yet started (a process that paired them
    /// and died before creating them, or this tick's pairing), then marks them started.
    ///
    /// A round is made whole (issue 49, finding 1): its games take no seats of the chat's
    /// or the players' game limits, and every board's players are checked before any game
    /// is made. Should the store fail part of the way, the games made are still marked
    /// started (so they are announced, not forfeited unseen) and the next tick makes the
    /// rest.
    async fn create_missing_games(&self, rec: &TournamentRecord) -> Result<bool, ActionError> {
        let waiting: Vec<Board> = rec
            .rounds
            .iter()
            .flat_map(|r| r.boards.iter())
            .chain(rec.arena.iter())
            .filter(|b| !b.started && b.game.is_some())
            .cloned()
            .collect();
        if waiting.is_empty() {
            return Ok(false);
        }
        if waiting.iter().any(|b| board_players(rec, b).is_none()) {
            return Err(ActionError::NoSuchGame);
        }
        let mut started: Vec<String> = Vec::with_capacity(waiting.len());
        let mut failed = None;
        for board in &waiting {
            match self.create_board_game(rec, board).await {
                Ok(()) => started.extend(board.game.clone()),
                Err(error) => {
                    tracing::warn!(tournament = rec.id, game = ?board.game, %error, "board not made");
                    failed = Some(error);
                }
            }
        }
        if started.is_empty() {
            return Err(failed.unwrap_or(ActionError::NoSuchGame));
        }
        self.update_tournament(&rec.id, |t, _| {
            let boards = t.rounds.iter_mut().flat_map(|r| r.boards.iter_mut());
            for b in boards.chain(t.arena.iter_mut()) {
                if b.game.as_ref().is_some_and(|g| started.contains(g)) {
                    b.started = true;
                }
            }
            Ok(())
        })
        .await?;
        Ok(true)
    }

    /// The game of one board, unless it exists already.
    async fn create_board_game(
        &self,
        rec: &TournamentRecord,
        board: &Board,
    ) -> Result<(), ActionError> {
        let Some(id) = &board.game else {
            return Ok(());
        };
        if self.game_slot(id).await.is_ok() {
            return Ok(());
        }
        let Some([white, black]) = board_players(rec, board) else {
            return Err(ActionError::NoSuchGame);
        };
        let terms = (rec.variant, rec.time);
        let game = GivenId {
            id: id.clone(),
            arena: matches!(rec.format, Format::Arena { .. }).then(|| rec.id.clone()),
            seat: rec.seat_of(id).map(|(seat, _)| seat),
        };
        match self
            .create_game(
                Some(game),
                rec.chat.clone(),
                terms,
                [white, black],
                rec.rated,
                None,
            )
            .await
        {
            Ok(view) => {
                tracing::info!(tournament = rec.id, game = id, "tournament game created");
                self.publish(Event::Game(view));
                Ok(())
            }
            // Another process created it meanwhile.
            Err(error) if self.game_slot(id).await.is_ok() => {
                tracing::info!(tournament = rec.id, game = id, %error, "created elsewhere");
                Ok(())
            }
            Err(error) => Err(error),
        }
    }

    /// Pairs the next Swiss round when the last has every result, or ends the event after
    /// its last round; the boards get their games' ids in the same write.
    async fn next_swiss_round(&self, rec: &TournamentRecord) -> Result<bool, ActionError> {
        if !rec.boards_done() {
            return Ok(false);
        }
        let result = self
            .update_tournament(&rec.id, |t, _| {
                let Format::Swiss { rounds } = t.format else {
                    return Ok(false);
                };
                // Looked at again on the record as written now: another tick (of this
                // process or another) may have paired the next round since `rec` was read,
                // and its games are not over (the event is not finished by their pairing).
                if !t.boards_done() {
                    return Err(TournamentError::RoundRunning);
                }
                if t.rounds.len() >= usize::from(rounds) {
                    t.status = Status::Finished;
                    return Ok(true);
                }
                let number = t.rounds.len() + 1;
                t.pair_next_round()?;
                let id = t.id.clone();
                if let Some(round) = t.rounds.last_mut() {
                    for (b, board) in round.boards.iter_mut().enumerate() {
                        board.game = Some(format!("{id}r{number}b{}", b + 1));
                    }
                }
                Ok(true)
            })
            .await;
        let (rec, changed) = match result {
            Ok(done) => done,
            Err(ActionError::Tournament(TournamentError::RoundRunning)) => return Ok(false),
            Err(error) => return Err(error),
        };
        if rec.status == Status::Running {
            self.create_missing_games(&rec).await?;
        } else {
            tracing::info!(tournament = rec.id, "tournament finished");
        }
        Ok(changed)
    }

    /// Pairs the arena's waiting players while it runs; after its end, pairs no one and ends
    /// the event once its last games are over.
    async fn next_arena_wave(
        &self,
        rec: &TournamentRecord,
        minutes: u16,
    ) -> Result<bool, ActionError> {
        let started = rec.started_at.unwrap_or(rec.starts_at);
        let ends_at = started.saturating_add(u64::from(minutes) * 60);
        let (rec, changed) = self
            .update_tournament(&rec.id, |t, now| {
                if now >= ends_at {
                    if t.boards_done() {
                        t.status = Status::Finished;
                        return Ok(true);
                    }
                    return Ok(false);
                }
                let before = t.arena.len();
                let paired = t.pair_arena_wave()?;
                let id = t.id.clone();
                for (n, board) in t.arena.iter_mut().enumerate().skip(before) {
                    board.game = Some(format!("{id}a{}", n + 1));
                }
                Ok(paired > 0)
            })
            .await?;
        if changed && rec.status == Status::Running {
            self.create_missing_games(&rec).await?;
        }
        Ok(changed)
    }
}

/// The players of a board, White and Black; `None` when a pairing number names nobody.
fn board_players(rec: &TournamentRecord, board: &Board) -> Option<[Player; 2]> {
    let player = |n: u32| {
        let entrant = rec.entrants.get((n as usize).saturating_sub(1));
        entrant.map(|e| e.player.clone())
    };
    Some([player(board.white)?, player(board.black)?])
}
