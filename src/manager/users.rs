//! Per-user data kept by the manager: the chosen language, `@handle`s, one-time claims.

use super::*;
use crate::store::CLAIM_TTL_SECS;

/// Per-user settings kept in the store.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
struct UserSettings {
    lang: Option<Lang>,
}

/// The key of a handle in the handles tree: `telegram:bob` (lower case, no `@`).
fn handle_key(platform: Platform, handle: &str) -> String {
    let handle = handle.trim().trim_start_matches('@').to_lowercase();
    format!("{}:{handle}", platform.name())
}

impl Manager {
    /// The language a user chose, if any.
    pub async fn user_lang(&self, user: &UserRef) -> Option<Lang> {
        match self
            .inner
            .store
            .get::<UserSettings>(Tree::Settings, &user.key())
            .await
        {
            Ok(settings) => settings.and_then(|s| s.lang),
            Err(error) => {
                tracing::warn!(user = user.key(), %error, "unreadable user settings");
                None
            }
        }
    }

    /// Remembers a user's language (durable before it returns).
    pub async fn set_user_lang(&self, user: &UserRef, lang: Lang) -> Result<(), ActionError> {
        let key = user.key();
        let mut settings = self
            .inner
            .store
            .get::<UserSettings>(Tree::Settings, &key)
            .await
            .ok()
            .flatten()
            .unwrap_or_default();
        settings.lang = Some(lang);
        self.inner
            .store
            .put(Tree::Settings, &key, &settings)
            .await?;
        self.inner.store.commit().await?;
        Ok(())
    }

    /// Remembers the public handle a user goes by on their platform (a Telegram @username),
    /// so `user_by_handle` finds them later, after a restart too; a handle names the user
    /// last seen with it. Only a change is written (and is durable before this returns).
    pub async fn remember_handle(&self, handle: &str, user: &UserRef) -> Result<(), ActionError> {
        let key = handle_key(user.platform, handle);
        // A store that cannot say what it has is not written to either: every press calls
        // this, and a press must not wait out a write's bound after its read's.
        let known = self.inner.store.get::<UserRef>(Tree::Handles, &key).await?;
        if known.is_some_and(|k| k == *user && k.name == user.name) {
            return Ok(());
        }
        self.inner.store.put(Tree::Handles, &key, user).await?;
        self.inner.store.commit().await?;
        Ok(())
    }

    /// Marks a one-time platform event as handled, durably: true the first time for `key`,
    /// false ever after, across restarts. For events a platform may deliver again after a
    /// crash, such as a Telegram inline message becoming a challenge. A claim is kept for
    /// `CLAIM_TTL_SECS` (longer than any platform redelivers), then expires.
    pub async fn claim_once(&self, platform: Platform, key: &str) -> Result<bool, ActionError> {
        let key = format!("{}:{key}", platform.name());
        let expires = self.now().saturating_add(CLAIM_TTL_SECS);
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
