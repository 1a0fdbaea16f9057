//! The per-user command limit across processes (issue 31, item 6). Each adapter first asks
//! its own process's limiter (`limits::CommandLimit`, in memory: a flood costs the store
//! nothing); a command it lets through is then counted in the store, one record per user and
//! minute (`cmds:<minute>:<user>` in `Claims`, expiring two minutes later), written
//! compare-and-set, so N processes together allow a user `per_minute` commands a minute, not
//! N times as many.

use super::*;
use crate::store::{Batch, Expect, StoreError};

/// Tries of the compare-and-set when other processes count the same user at once.
const TRIES: u32 = 4;

impl Manager {
    /// Counts one command of `user` in the store; false when the user already gave
    /// `per_minute` this minute (across every process). A store that cannot be read or
    /// written lets the command through: the command itself will say what is wrong.
    pub async fn command_allowed(&self, user: &UserRef, per_minute: u32) -> bool {
        let minute = self.now() / 60;
        let key = format!("cmds:{minute}:{}", user.key());
        for _ in 0..TRIES {
            match self.count_command(&key, minute, per_minute).await {
                Ok(allowed) => return allowed,
                Err(StoreError::Conflict { .. }) => continue,
                Err(error) => {
                    tracing::warn!(%error, "cannot count a command; let through");
                    return true;
                }
            }
        }
        true
    }

    async fn count_command(
        &self,
        key: &str,
        minute: u64,
        per_minute: u32,
    ) -> Result<bool, StoreError> {
        let store = &self.inner.store;
        let (count, expect) = match store.get_versioned::<u32>(Tree::Claims, key).await? {
            Some(found) => (found.value, Expect::Revision(found.revision)),
            None => (0, Expect::Absent),
        };
        if count >= per_minute {
            return Ok(false);
        }
        let mut batch = Batch::new();
        batch.put_checked(Tree::Claims, key, &(count + 1), expect)?;
        batch.expire_at(Tree::Claims, key, (minute + 2) * 60);
        // Not waited for the disk: a count lost in a crash only lets a few commands more.
        store.apply(batch).await?;
        Ok(true)
    }
}
