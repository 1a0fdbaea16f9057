//! Per-user data kept by the manager: `@handle`s and one-time claims (languages:
//! `langs.rs`).
//!
//! A press needs the presser's language and the board's (its players'), and notes the
//! presser's handle: read from the store each time, that was three or four reads a press
//! besides the game's own. A process keeps what it read or wrote of them lately (`Recent`,
//! bounded), so a press waits on the game's read alone.

use super::langs::RECENT_USERS;
use super::*;
use crate::store::CLAIM_TTL_SECS;
use mini_moka::sync::Cache;
use std::time::Duration;

/// How long a process trusts that a handle is stored as it saw it, after it last saw it. A
/// handle taken over by someone else in another process meanwhile is no risk: the one who
/// gave it up no longer sends it, and its new holder is not the one remembered here.
const HANDLE_FRESH: Duration = Duration::from_secs(3600);

/// What a process read or wrote lately of users' languages and handles.
pub(super) struct Recent {
    /// Users' chosen languages and their apps' (`langs.rs`).
    pub(super) langs: super::langs::Langs,
    /// Handle key -> the user stored with it.
    handles: Cache<String, UserRef>,
}

impl Recent {
    pub(super) fn new() -> Recent {
        Recent {
            langs: super::langs::Langs::new(),
            handles: Cache::builder()
                .max_capacity(RECENT_USERS)
                .time_to_idle(HANDLE_FRESH)
                .build(),
        }
    }
}

/// The key of a handle in the handles tree: `telegram:bob` (lower case, no `@`).
fn handle_key(platform: Platform, handle: &str) -> String {
    let handle = handle.trim().trim_start_matches('@').to_lowercase();
    format!("{}:{handle}", platform.name())
}

/// The key of a user by id in the handles tree: `telegram:#5202`. No handle has a `#`
/// (Telegram's are letters, digits and `_`), so the two kinds of keys never meet.
fn id_key(platform: Platform, id: &str) -> String {
    format!("{}:#{id}", platform.name())
}

impl Manager {
    /// Remembers the public handle a user goes by on their platform (a Telegram @username),
    /// so `user_by_handle` finds them later, after a restart too; a handle names the user
    /// last seen with it. Only a change is written (and is durable before this returns).
    pub async fn remember_handle(&self, handle: &str, user: &UserRef) -> Result<(), ActionError> {
        self.remember_under(handle_key(user.platform, handle), user)
            .await
    }

    /// Stores `user` under `key` of the handles tree unless this process knows it is stored
    /// so already.
    async fn remember_under(&self, key: String, user: &UserRef) -> Result<(), ActionError> {
        let same = |k: &UserRef| k == user && k.name == user.name;
        let recent = &self.inner.recent.handles;
        if recent.get(&key).is_some_and(|k| same(&k)) {
            return Ok(());
        }
        // A store that cannot say what it has is not written to either: every press calls
        // this, and a press must not wait out a write's bound after its read's.
        let known = self.inner.store.get::<UserRef>(Tree::Handles, &key).await?;
        if !known.is_some_and(|k| same(&k)) {
            self.inner.store.put(Tree::Handles, &key, user).await?;
            self.inner.store.commit().await?;
        }
        recent.insert(key, user.clone());
        Ok(())
    }

    /// Remembers `user` as they go by now (their name) under their id, so that
    /// `known_user` finds them later without them: a Telegram inline offer is accepted by
    /// someone else, whose press names only themselves (issue 49, finding 12). Only a
    /// change is written, as `remember_handle` does.
    pub async fn remember_user(&self, user: &UserRef) -> Result<(), ActionError> {
        let key = id_key(user.platform, &user.id);
        self.remember_under(key, user).await
    }

    /// The user remembered under `id` (`remember_user`), with the name they went by then.
    pub async fn known_user(&self, platform: Platform, id: &str) -> Option<UserRef> {
        let key = id_key(platform, id);
        match self.inner.store.get::<UserRef>(Tree::Handles, &key).await {
            Ok(user) => user,
            Err(error) => {
                tracing::warn!(key, %error, "unreadable remembered user");
                None
            }
        }
    }

    /// Marks a one-time platform event as handled, durably: true the first time for `key`,
    /// false ever after, across restarts. For events a platform may deliver again after a
    /// crash, such as a Telegram inline message becoming a challenge. A claim is kept for
    /// `CLAIM_TTL_SECS` (longer than any platform redelivers), then expires.
    pub async fn claim_once(&self, platform: Platform, key: &str) -> Result<bool, ActionError> {
        self.claim_once_until(platform, key, 0).await
    }

    /// As `claim_once`, for a claim that must outlive what it guards: kept until `until`
    /// (unix seconds) when that is later than `CLAIM_TTL_SECS` from now. A Telegram inline
    /// offer is good while the challenge it offers would be open (`challenge_expiry_secs`,
    /// which has no upper bound): its mark must not expire before it (issue 49, finding 13).
    pub async fn claim_once_until(
        &self,
        platform: Platform,
        key: &str,
        until: u64,
    ) -> Result<bool, ActionError> {
        let key = format!("{}:{key}", platform.name());
        let expires = self.now().saturating_add(CLAIM_TTL_SECS).max(until);
        let first = self
            .inner
            .store
            .put_new(Tree::Claims, &key, &true, Some(expires))
            .await?;
        if first {
            self.inner.store.commit().await?;
        }
        Ok(first)
    }

    /// The user last seen with `handle` (case-insensitive, with or without `@`).
    pub async fn user_by_handle(&self, platform: Platform, handle: &str) -> Option<UserRef> {
        let key = handle_key(platform, handle);
        match self.inner.store.get::<UserRef>(Tree::Handles, &key).await {
            Ok(user) => user,
            Err(error) => {
                tracing::warn!(key, %error, "unreadable user handle");
                None
            }
        }
    }
}
