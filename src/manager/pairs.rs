//! Rated games between the same two people in one day (issue 31, item 2): a second account
//! that loses on purpose to the first must not pay, so the same pair gets at most
//! `limits.rated_games_per_pair_per_day` rated games a day (UTC); the rest are unrated.
//!
//! The count is in the store (one record per pair and day in `Claims`, expiring the day
//! after), read when a challenge is made (a challenge over the limit is unrated from the
//! start, and says so) and when it is accepted (a challenge shown as rated whose pair has
//! since reached the limit becomes unrated, and the Accept of the rated terms is refused with
//! the new ones, like any change of terms), and written compare-and-set in the same batch as
//! the game it counts: several processes sharing the database never start more rated games
//! than the limit. An aborted game gives its count back, in the abort's own write: it has no
//! result, so it farms nothing, and friends who abort for a wrong colour or a misclick keep
//! their rated games of the day.

use super::*;
use crate::store::{Batch, Expect, StoreError};

const DAY_SECS: u64 = 24 * 3600;

/// What every pair's key in `Claims` starts with.
pub(super) const PAIR_KEYS: &str = "pairs:";

/// A pair's count of rated games today, as read.
pub(super) struct PairCount {
    key: String,
    count: u32,
    expect: Expect,
    /// The day after the day counted ends (unix seconds): the record expires then.
    expires_at: u64,
}

/// The store key of the pair playing `players` on the day of `now`; `None` unless both
/// are people.
fn pair_key(players: &[Player; 2], now: u64) -> Option<String> {
    let mut keys = [players[0].user()?.key(), players[1].user()?.key()];
    keys.sort();
    Some(format!(
        "{PAIR_KEYS}{}:{}|{}",
        now / DAY_SECS,
        keys[0],
        keys[1]
    ))
}

impl Manager {
    /// How many rated games the two people of `players` have started today; `None` when
    /// no limit applies (a bot plays, or the limit is off).
    pub(super) async fn pair_count(
        &self,
        players: &[Player; 2],
    ) -> Result<Option<PairCount>, ActionError> {
        self.pair_count_on(players, self.now()).await
    }

    /// The count of the day of `now` (unix seconds).
    async fn pair_count_on(
        &self,
        players: &[Player; 2],
        now: u64,
    ) -> Result<Option<PairCount>, ActionError> {
        if self.inner.config.limits.rated_games_per_pair_per_day == 0 {
            return Ok(None);
        }
        let Some(key) = pair_key(players, now) else {
            return Ok(None);
        };
        let found = self
            .inner
            .store
            .get_versioned::<u32>(Tree::Claims, &key)
            .await;
        let (count, expect) = match found {
            Ok(Some(f)) => (f.value, Expect::Revision(f.revision)),
            Ok(None) => (0, Expect::Absent),
            Err(error @ StoreError::Decode { .. }) => {
                tracing::error!(key, %error, "unreadable pair count; counted afresh");
                (0, Expect::Any)
            }
            Err(error) => return Err(error.into()),
        };
        let expires_at = (now / DAY_SECS + 2) * DAY_SECS;
        Ok(Some(PairCount {
            key,
            count,
            expect,
            expires_at,
        }))
    }

    /// Whether the two people of `players` may still start a rated game today.
    pub(super) async fn pair_may_play_rated(
        &self,
        players: &[Player; 2],
    ) -> Result<bool, ActionError> {
        let limit = self.inner.config.limits.rated_games_per_pair_per_day;
        Ok(self
            .pair_count(players)
            .await?
            .is_none_or(|c| c.count < limit))
    }

    /// Adds to `batch` the count given back by `aborted`, a rated game that ends aborted:
    /// one less on the day it started (compare-and-set like the count itself; a conflict
    /// makes the caller read again).
    pub(super) async fn uncount_aborted(
        &self,
        aborted: &GameRecord,
        batch: &mut Batch,
    ) -> Result<(), ActionError> {
        let Some(pair) = self
            .pair_count_on(&aborted.players, aborted.created_at)
            .await?
        else {
            return Ok(());
        };
        if pair.count > 0 {
            let count = pair.count - 1;
            batch.put_checked(Tree::Claims, &pair.key, &count, pair.expect)?;
            let expires_at = (aborted.created_at / DAY_SECS + 2) * DAY_SECS;
            batch.expire_at(Tree::Claims, &pair.key, expires_at);
        }
        Ok(())
    }
}

/// Whether the change from `before` to `after` aborts a rated game (which gives its pair's
/// count back).
pub(super) fn aborts_rated(before: &GameRecord, after: &GameRecord) -> bool {
    before.status == GameStatus::Ongoing
        && after.rated
        && matches!(
            after.status,
            GameStatus::Finished {
                reason: FinishReason::Aborted,
                ..
            }
        )
}

impl PairCount {
    pub(super) fn reached(&self, limit: u32) -> bool {
        limit > 0 && self.count >= limit
    }

    /// Adds the game being started to the count in `batch`; the write fails as a conflict
    /// if another process counted one meanwhile (the store undoes the whole batch itself if
    /// it cannot be made durable).
    pub(super) fn count_one(&self, batch: &mut Batch) -> Result<(), StoreError> {
        let count = self.count.saturating_add(1);
        batch.put_checked(Tree::Claims, &self.key, &count, self.expect)?;
        batch.expire_at(Tree::Claims, &self.key, self.expires_at);
        Ok(())
    }
}
