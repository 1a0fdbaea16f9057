//! Puzzle play (issue 34): a player asks for a puzzle near their puzzle rating, presses the
//! line's moves, and the attempt ends solved or failed, moving both the player's and the
//! puzzle's Glicko-2 rating; the daily puzzle is the same for everyone on a day and keeps
//! streaks; leaderboards per chat and per platform.
//!
//! Every change is one conditional write of the player's record (and, when an attempt
//! ends, of the puzzle's rating, the day's count and the leaderboard rows): a change that
//! lost a race with another process is made again on the fresh records. Nothing is held in
//! memory but the collection and a cache of the puzzles' ratings for choosing (another
//! process's changes reach it when this process next rates that puzzle or restarts; a
//! puzzle's rating itself is always read from the store when it changes).

mod posts;
pub mod record;
mod shown;
mod tables;
mod view;

pub use posts::{DailyNews, DailyPost, POST_TICK, RECLAIM_SECS};
pub use record::{
    Attempt, AttemptLine, DailyCount, PuzzleError, PuzzlePlayer, PuzzleRating, DAILY_NAMES,
};
pub use view::{DailyView, PuzzleBoard, PuzzleState, PuzzleStats, PuzzleView};

use super::{lock, ActionError, Manager};
use crate::model::{ChatRef, UserRef};
use crate::puzzle::{ByRating, Collection, Puzzle, Verdict};
use crate::ratings::{after_game, Rating, Score};
use crate::store::{Batch, Expect, Store, StoreError, Tree};
use rand::Rng;
use std::sync::{Arc, Mutex};

/// Conditional writes tried before giving up on a busy record (the daily puzzle's rating
/// and count are written by every solver of the day).
const ATTEMPTS: u32 = 24;
/// Seconds in a day: the daily puzzle changes at 00:00 UTC.
pub const DAY_SECS: u64 = 24 * 3600;

/// The collection and the cache of its ratings.
pub(crate) struct Puzzles {
    collection: Arc<Collection>,
    by_rating: Mutex<ByRating>,
}

impl Puzzles {
    /// The collection with every rating stored so far (one read of the puzzles' ratings).
    pub(crate) async fn load(collection: Collection, store: &Store) -> Result<Puzzles, StoreError> {
        let mut ratings: Vec<f64> = collection.puzzles().iter().map(|p| p.rating).collect();
        for (id, stored) in store.load_all::<PuzzleRating>(Tree::PuzzleRatings).await? {
            if let Some(i) = collection.index_of(&id) {
                ratings[i] = stored.rating.rating;
            }
        }
        Ok(Puzzles {
            by_rating: Mutex::new(ByRating::new(ratings)),
            collection: Arc::new(collection),
        })
    }
}

/// The day (since 1970-01-01, UTC) of unix time `now`.
pub fn day_of(now: u64) -> i64 {
    (now / DAY_SECS) as i64
}

/// Who asks for which kind of puzzle, where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleKind {
    /// The next puzzle near the player's rating (the one on, if any).
    Next,
    /// Today's puzzle, the same for everyone.
    Daily,
}

impl Manager {
    /// The collection served.
    pub fn puzzle_collection(&self) -> Arc<Collection> {
        self.inner.puzzles.collection.clone()
    }

    /// A puzzle for `user`: the attempt on, if one is (a puzzle cannot be skipped), or a
    /// new one near their puzzle rating, never one they were given before until they have
    /// been given them all; or today's puzzle, once a day.
    pub async fn puzzle(
        &self,
        user: &UserRef,
        chat: &ChatRef,
        kind: PuzzleKind,
    ) -> Result<PuzzleView, ActionError> {
        let today = day_of(self.now());
        let pick: u64 = rand::thread_rng().gen();
        let (player, number) = self
            .update_puzzle_player(user, |p| self.begin(p, chat, kind, today, pick))
            .await?;
        self.attempt_view(&player, number)
    }

    /// Starts (or finds) the attempt `kind` asks for on `p`; its number.
    fn begin(
        &self,
        p: &mut PuzzlePlayer,
        chat: &ChatRef,
        kind: PuzzleKind,
        today: i64,
        pick: u64,
    ) -> Result<u32, ActionError> {
        let collection = &self.inner.puzzles.collection;
        if kind == PuzzleKind::Daily {
            if let Some(a) = p.daily_on(today) {
                return Ok(a.number);
            }
            if let Some(done) = p.last_daily.filter(|d| d.day == today) {
                return Err(PuzzleError::DailyDone {
                    solved: done.solved,
                }
                .into());
            }
            let index = collection.daily(today).ok_or(PuzzleError::Empty)?;
            let id = collection
                .get(index)
                .map(|z| z.id.clone())
                .unwrap_or_default();
            p.seen.insert(collection, index);
            return Ok(p.start(&id, Some(today), chat, self.now()));
        }
        if let Some(a) = p.ordinary() {
            return Ok(a.number);
        }
        let index = self.choose_for(p, pick).ok_or(PuzzleError::Empty)?;
        let id = collection
            .get(index)
            .map(|z| z.id.clone())
            .unwrap_or_default();
        p.seen.insert(collection, index);
        Ok(p.start(&id, None, chat, self.now()))
    }

    /// An unseen puzzle near `p`'s rating; when they have seen them all, they start again.
    fn choose_for(&self, p: &mut PuzzlePlayer, pick: u64) -> Option<usize> {
        let collection = &self.inner.puzzles.collection;
        let by_rating = lock(&self.inner.puzzles.by_rating);
        let target = p.rating.rating;
        if let Some(i) = by_rating.choose(collection, &p.seen, target, pick) {
            return Some(i);
        }
        p.seen.clear(collection);
        by_rating.choose(collection, &p.seen, target, pick)
    }

    /// `presser` plays `pit` on attempt `number` of the player `owner` (a user id of the
    /// presser's platform), as their move `step`: the board's button data.
    pub async fn puzzle_move(
        &self,
        presser: &UserRef,
        owner: &str,
        (number, step, pit): (u32, u8, u8),
    ) -> Result<PuzzleView, ActionError> {
        if presser.id != owner {
            return Err(PuzzleError::NotYours.into());
        }
        for lost in 0..ATTEMPTS {
            if let Some(view) = self.try_puzzle_move(presser, number, step, pit).await? {
                return Ok(view);
            }
            backoff(lost).await;
        }
        Err(ActionError::StoreAway(
            "puzzle records kept changing".into(),
        ))
    }

    /// One try of `puzzle_move`; `None` when a conditional write lost a race.
    async fn try_puzzle_move(
        &self,
        presser: &UserRef,
        number: u32,
        step: u8,
        pit: u8,
    ) -> Result<Option<PuzzleView>, ActionError> {
        let store = &self.inner.store;
        let read = store
            .get_versioned::<PuzzlePlayer>(Tree::PuzzlePlayers, &presser.key())
            .await?;
        let Some(read) = read else {
            return Err(PuzzleError::Over.into());
        };
        let mut player = read.value;
        let attempt = player.attempt(number).ok_or(PuzzleError::Over)?.clone();
        if attempt.step != step {
            return Err(PuzzleError::Stale.into());
        }
        let puzzle = self.puzzle_of(&attempt.puzzle)?;
        let at = shown::position_at(&puzzle, attempt.step)?;
        if !at.is_legal(pit) {
            let illegal = at.clone().play(pit).err();
            return Err(illegal.map_or(PuzzleError::Stale.into(), ActionError::Illegal));
        }
        let verdict = puzzle
            .judge(usize::from(step), pit)
            .ok_or(PuzzleError::Over)?;
        let expect = Expect::Revision(read.revision);
        match verdict {
            Verdict::Right { solved: false, .. } => {
                if let Some(a) = player.current.iter_mut().find(|a| a.number == number) {
                    a.step += 1;
                }
                let mut batch = Batch::new();
                batch.put_checked(Tree::PuzzlePlayers, &presser.key(), &player, expect)?;
                if !self.write_or_lost(batch).await? {
                    return Ok(None);
                }
                let view = self.attempt_view(&player, number)?;
                Ok(Some(view))
            }
            Verdict::Right { solved: true, .. } | Verdict::Wrong { .. } => {
                let solved = matches!(verdict, Verdict::Right { .. });
                let before = player.rating;
                let ended = (attempt, solved, pit);
                let Some(its) = self
                    .end_attempt(presser, &mut player, expect, &ended)
                    .await?
                else {
                    return Ok(None);
                };
                let view = shown::ended_view(&player, &ended, &puzzle, (before, its))?;
                if let Some(day) = ended.0.daily {
                    self.redraw_daily_post(&ended.0.chat, day).await;
                }
                Ok(Some(view))
            }
        }
    }

    /// Writes `batch`; `false` when a conditional write found the record changed.
    async fn write_or_lost(&self, batch: Batch) -> Result<bool, ActionError> {
        match self.inner.store.write(batch).await {
            Ok(_) => Ok(true),
            Err(StoreError::Conflict { .. }) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// Ends the attempt: both ratings, the counts, the attempt's line, the day's count and
    /// the leaderboard rows, in one write. The puzzle's new rating; `None` when it lost a
    /// race.
    async fn end_attempt(
        &self,
        presser: &UserRef,
        player: &mut PuzzlePlayer,
        expect: Expect,
        (attempt, solved, _): &(Attempt, bool, u8),
    ) -> Result<Option<Rating>, ActionError> {
        let store = &self.inner.store;
        let now = self.now();
        let stored = store
            .get_versioned::<PuzzleRating>(Tree::PuzzleRatings, &attempt.puzzle)
            .await?;
        let (mut rated, rating_expect) = match stored {
            Some(s) => (s.value, Expect::Revision(s.revision)),
            None => (self.fresh_rating(&attempt.puzzle)?, Expect::Absent),
        };
        let before = player.clone();
        let score = if *solved { Score::Win } else { Score::Loss };
        let (mine, its) = after_game(player.rating, rated.rating, score);
        player.rating = mine;
        rated.rating = its;
        if *solved {
            rated.solved += 1;
        } else {
            rated.failed += 1;
        }
        player.user = presser.clone();
        player.finish(attempt.number, *solved, now);
        let mut batch = Batch::new();
        batch.put_checked(Tree::PuzzlePlayers, &presser.key(), &*player, expect)?;
        batch.put_checked(Tree::PuzzleRatings, &attempt.puzzle, &rated, rating_expect)?;
        tables::attempt_line(&mut batch, player, attempt, *solved, now)?;
        let provisional_ok = self.inner.config.limits.provisional_on_leaderboards;
        tables::rewrite_rows(&before, player, &attempt.chat, provisional_ok, &mut batch)?;
        if let Some(day) = attempt.daily {
            self.count_daily(&mut batch, day, &attempt.chat, presser, *solved)
                .await?;
        }
        if !self.write_or_lost(batch).await? {
            return Ok(None);
        }
        if let Some(i) = self.inner.puzzles.collection.index_of(&attempt.puzzle) {
            lock(&self.inner.puzzles.by_rating).set(i, rated.rating.rating);
        }
        tracing::info!(
            user = %presser.key(),
            puzzle = attempt.puzzle,
            solved,
            rating = player.rating.rating.round(),
            "puzzle attempt ended"
        );
        Ok(Some(rated.rating))
    }

    /// A puzzle's rating before anyone tried it: its starting rating, `ratings`' defaults.
    fn fresh_rating(&self, id: &str) -> Result<PuzzleRating, ActionError> {
        let puzzle = self.puzzle_of(id)?;
        Ok(PuzzleRating {
            rating: Rating {
                rating: puzzle.rating,
                ..Rating::default()
            },
            solved: 0,
            failed: 0,
        })
    }

    /// Adds the attempt to its chat's count of the day (conditional on the count read).
    async fn count_daily(
        &self,
        batch: &mut Batch,
        day: i64,
        chat: &ChatRef,
        user: &UserRef,
        solved: bool,
    ) -> Result<(), ActionError> {
        let key = tables::daily_key(day, chat);
        let read = self
            .inner
            .store
            .get_versioned::<DailyCount>(Tree::PuzzleDaily, &key)
            .await?;
        let (mut count, expect) = match read {
            Some(r) => (r.value, Expect::Revision(r.revision)),
            None => (DailyCount::default(), Expect::Absent),
        };
        count.tried += 1;
        if solved {
            count.solved += 1;
            if count.names.len() < DAILY_NAMES {
                count.names.push(user.name.clone());
            }
        }
        batch.put_checked(Tree::PuzzleDaily, &key, &count, expect)?;
        batch.expire_at(Tree::PuzzleDaily, &key, (day as u64 + 8) * DAY_SECS);
        Ok(())
    }

    /// The collection's puzzle `id`.
    fn puzzle_of(&self, id: &str) -> Result<Puzzle, ActionError> {
        let found = self.inner.puzzles.collection.by_id(id).cloned();
        found.ok_or_else(|| PuzzleError::Over.into())
    }

    /// The view of attempt `number` of `player` (on).
    fn attempt_view(&self, player: &PuzzlePlayer, number: u32) -> Result<PuzzleView, ActionError> {
        let attempt = player.attempt(number).ok_or(PuzzleError::Over)?;
        let puzzle = self.puzzle_of(&attempt.puzzle)?;
        let puzzle_rating = self.cached_rating(&puzzle);
        let today = day_of(self.now());
        shown::solving_view(player, attempt, &puzzle, puzzle_rating, today)
    }

    /// A puzzle's rating for a view while solving: from the choosing cache, not the store
    /// (it is shown only once the attempt is over, from the rating just written).
    fn cached_rating(&self, puzzle: &Puzzle) -> Rating {
        let collection = &self.inner.puzzles.collection;
        let cached = collection
            .index_of(&puzzle.id)
            .and_then(|i| lock(&self.inner.puzzles.by_rating).rating(i));
        Rating {
            rating: cached.unwrap_or(puzzle.rating),
            ..Rating::default()
        }
    }

    /// Reads `user`'s puzzle record (a new one when they have none), changes it, and writes
    /// it back conditional on what was read; again on a lost race.
    async fn update_puzzle_player<T>(
        &self,
        user: &UserRef,
        change: impl Fn(&mut PuzzlePlayer) -> Result<T, ActionError>,
    ) -> Result<(PuzzlePlayer, T), ActionError> {
        let store = &self.inner.store;
        for lost in 0..ATTEMPTS {
            if lost > 0 {
                backoff(lost).await;
            }
            let read = store
                .get_versioned::<PuzzlePlayer>(Tree::PuzzlePlayers, &user.key())
                .await?;
            let (mut player, expect) = match read {
                Some(r) => (r.value, Expect::Revision(r.revision)),
                None => (PuzzlePlayer::new(user.clone()), Expect::Absent),
            };
            let original = player.clone();
            let out = change(&mut player)?;
            if player == original {
                return Ok((player, out));
            }
            player.user = user.clone();
            let mut batch = Batch::new();
            batch.put_checked(Tree::PuzzlePlayers, &user.key(), &player, expect)?;
            if self.write_or_lost(batch).await? {
                return Ok((player, out));
            }
        }
        Err(ActionError::StoreAway(
            "puzzle records kept changing".into(),
        ))
    }

    /// `user`'s puzzle numbers.
    pub async fn puzzle_stats(&self, user: &UserRef) -> Result<PuzzleStats, ActionError> {
        let store = &self.inner.store;
        let player = store
            .get::<PuzzlePlayer>(Tree::PuzzlePlayers, &user.key())
            .await?
            .unwrap_or_else(|| PuzzlePlayer::new(user.clone()));
        let recent = tables::recent(store, &user.key()).await?;
        let today = day_of(self.now());
        let collection = &self.inner.puzzles.collection;
        Ok(PuzzleStats {
            streak: player.streak_on(today),
            seen: player.seen.count(collection),
            collection: collection.len(),
            recent,
            daily_today: player
                .last_daily
                .filter(|d| d.day == today)
                .map(|d| d.solved),
            player,
        })
    }

    /// The puzzle leaderboard of a chat or a platform, and `caller`'s place on it.
    pub async fn puzzle_leaderboard(
        &self,
        scope: crate::ratings::keys::Scope,
        caller: Option<&UserRef>,
    ) -> Result<PuzzleBoard, ActionError> {
        let now = self.now();
        Ok(tables::leaderboard(&self.inner.store, scope, caller, now).await?)
    }

    /// Today's daily puzzle in `chat`, with its solvers there.
    pub async fn daily_puzzle(&self, chat: &ChatRef) -> Result<DailyView, ActionError> {
        let day = day_of(self.now());
        let collection = &self.inner.puzzles.collection;
        let index = collection.daily(day).ok_or(PuzzleError::Empty)?;
        let puzzle = collection.get(index).cloned().ok_or(PuzzleError::Empty)?;
        let count = self
            .inner
            .store
            .get::<DailyCount>(Tree::PuzzleDaily, &tables::daily_key(day, chat))
            .await?
            .unwrap_or_default();
        Ok(DailyView {
            day,
            puzzle,
            count,
            platform: chat.platform,
        })
    }
}

/// A short random wait after a lost race, growing with the losses, so that writers of one
/// record (a day's solvers) do not keep colliding in step.
async fn backoff(lost: u32) {
    let most = 2 + u64::from(lost.min(8)) * 4;
    let ms = rand::thread_rng().gen_range(0..most);
    tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
}
