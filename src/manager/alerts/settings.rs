//! Each player's record for alerts (`Tree::Notify`, keyed by user key): their `/notify`
//! settings, when they were last told (the 10-minute merge), whether they are unreachable,
//! and which digest row is theirs. Written compare-and-set: two processes (a `/notify` and
//! a tick) never lose each other's change.

use super::plan::AlertRow;
use super::*;
use crate::model::notify::NotifyMode;
use crate::store::{Batch, Expect, StoreError, Versioned};

/// Attempts of a compare-and-set on a player's record before giving up.
const ATTEMPTS: usize = 5;
/// How long (manager time) a process takes a player it read as reachable to be so: a
/// private message within it reads nothing (`reachable_again` is called on every one).
const REACHABLE_FRESH_MS: u64 = 60_000;

/// A player's record for alerts.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub(super) struct NotifyState {
    #[serde(default)]
    pub settings: NotifySettings,
    /// When they were last sent a list of their games (a YourMove or a digest), unix ms.
    #[serde(default)]
    pub last_told_ms: u64,
    /// The alert that was (`AlertRow::identity`): handed back with `Later`, it is sent again
    /// rather than taken as told.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_alert: Option<String>,
    /// A message could not reach them; nothing is sent until they write to the bot.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unreachable: bool,
    /// Their digest row (`made_ms` of it), while the mode is a digest: a row with another
    /// `made_ms` is an old one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<(String, u64)>,
}

impl Manager {
    /// A player's record with its revision (0: none stored yet).
    pub(super) async fn notify_state(
        &self,
        user: &UserRef,
    ) -> Result<Versioned<NotifyState>, StoreError> {
        let found = self
            .inner
            .store
            .get_versioned::<NotifyState>(Tree::Notify, &user.key())
            .await?;
        Ok(found.unwrap_or(Versioned {
            value: NotifyState::default(),
            revision: 0,
        }))
    }

    /// Adds to `batch` the write of a player's record read at `revision` (0: absent).
    pub(super) fn put_state(
        batch: &mut Batch,
        user: &UserRef,
        state: &NotifyState,
        revision: u64,
    ) -> Result<(), StoreError> {
        let expect = match revision {
            0 => Expect::Absent,
            r => Expect::Revision(r),
        };
        batch.put_checked(Tree::Notify, &user.key(), state, expect)?;
        Ok(())
    }

    /// `set_notify`: the settings changed, and the digest row put where it now belongs.
    pub(super) async fn change_notify(
        &self,
        user: &UserRef,
        change: NotifyChange,
    ) -> Result<NotifySettings, ActionError> {
        for _ in 0..ATTEMPTS {
            let Versioned {
                value: mut state,
                revision,
            } = self.notify_state(user).await?;
            let mut batch = Batch::new();
            state.settings = state.settings.changed(change);
            if let Some((key, _)) = state.digest.take() {
                batch.delete(Tree::Alerts, &key);
            }
            let now = self.now_ms();
            if let Some(due) = state
                .settings
                .mode
                .next_digest_after(now, state.settings.utc_offset_min)
            {
                let row = AlertRow::new(user.clone(), None, AlertKind::Digest, now, 0);
                let key = row.key_at(due);
                batch.put(Tree::Alerts, &key, &row)?;
                state.digest = Some((key, now));
            }
            Manager::put_state(&mut batch, user, &state, revision)?;
            match self.inner.store.write(batch).await {
                Ok(_) => {
                    tracing::info!(user = user.key(), ?change, "notify settings changed");
                    return Ok(state.settings);
                }
                Err(StoreError::Conflict { .. }) => continue,
                Err(error) => return Err(error.into()),
            }
        }
        Err(ActionError::StaleBoard)
    }

    /// `reachable_again`: clears the mark, reading the store at most once a minute per
    /// player unless this process marked them itself.
    pub(super) async fn mark_reachable(&self, user: &UserRef) -> Result<(), StoreError> {
        let key = user.key();
        let now = self.now_ms();
        if let Some(read) = self.inner.alerts.reachable.get(&key) {
            if now.saturating_sub(read) < REACHABLE_FRESH_MS {
                return Ok(());
            }
        }
        for _ in 0..ATTEMPTS {
            let Versioned {
                value: mut state,
                revision,
            } = self.notify_state(user).await?;
            if !state.unreachable {
                self.inner.alerts.reachable.insert(key, now);
                return Ok(());
            }
            state.unreachable = false;
            let mut batch = Batch::new();
            if let Some(due) = state
                .settings
                .mode
                .next_digest_after(now, state.settings.utc_offset_min)
            {
                // Its digest stopped coming while unreachable: armed again.
                if let Some((old, _)) = state.digest.take() {
                    batch.delete(Tree::Alerts, &old);
                }
                let row = AlertRow::new(user.clone(), None, AlertKind::Digest, now, 0);
                let key = row.key_at(due);
                batch.put(Tree::Alerts, &key, &row)?;
                state.digest = Some((key, now));
            }
            Manager::put_state(&mut batch, user, &state, revision)?;
            match self.inner.store.write(batch).await {
                Ok(_) => {
                    tracing::info!(user = key, "reachable again");
                    self.inner.alerts.reachable.insert(key, now);
                    return Ok(());
                }
                Err(StoreError::Conflict { .. }) => continue,
                Err(error) => return Err(error),
            }
        }
        Ok(())
    }

    /// Marks a player unreachable (an adapter could not write to them).
    pub(super) async fn mark_unreachable(&self, user: &UserRef) -> Result<(), StoreError> {
        self.inner.alerts.reachable.invalidate(&user.key());
        for _ in 0..ATTEMPTS {
            let Versioned {
                value: mut state,
                revision,
            } = self.notify_state(user).await?;
            if state.unreachable {
                return Ok(());
            }
            state.unreachable = true;
            let mut batch = Batch::new();
            Manager::put_state(&mut batch, user, &state, revision)?;
            match self.inner.store.write(batch).await {
                Ok(_) => {
                    tracing::info!(
                        user = user.key(),
                        "unreachable: no more alerts until they write"
                    );
                    return Ok(());
                }
                Err(StoreError::Conflict { .. }) => continue,
                Err(error) => return Err(error),
            }
        }
        Ok(())
    }
}

/// Whether a digest row is the player's current one.
pub(super) fn current_digest(state: &NotifyState, row: &AlertRow) -> bool {
    matches!(state.settings.mode, NotifyMode::Digest { .. })
        && row.game.is_none()
        && state
            .digest
            .as_ref()
            .is_some_and(|(_, made)| *made == row.made_ms)
}
