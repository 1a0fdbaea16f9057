//! Per-user data kept by the manager: the chosen language, `@handle`s, one-time claims.
//!
//! A press needs the presser's language and the board's (its players'), and notes the
//! presser's handle: read from the store each time, that was three or four reads a press
//! besides the game's own. A process keeps what it read or wrote of them lately (`Recent`:
//! bounded, each entry trusted for a few seconds), so a press costs the game's read alone.
//! A language chosen through another process shows here once its entry expires.

use super::*;
use crate::store::CLAIM_TTL_SECS;
use mini_moka::sync::Cache;
use std::time::Duration;

/// How long a process trusts a language it read (one chosen through this process is known
/// at once).
const LANG_FRESH: Duration = Duration::from_secs(10);
/// How long a process trusts that a handle is stored as it saw it.
const HANDLE_FRESH: Duration = Duration::from_secs(60);
/// How long a process remembers the language of a user's app (as their platform reported
/// it) after it last heard from them: their boards speak it while they chose none.
const APP_FRESH: Duration = Duration::from_secs(24 * 3600);
/// Users whose language or handle a process keeps at most (memory stays flat under load).
const RECENT_USERS: u64 = 100_000;

/// What a process read or wrote lately of users' languages and handles.
pub(super) struct Recent {
    /// User key -> the language they chose (`None`: none).
    langs: Cache<String, Option<Lang>>,
    /// Handle key -> the user stored with it.
    handles: Cache<String, UserRef>,
    /// User key -> the language of their app, as their platform last reported it.
    apps: Cache<String, Lang>,
}

impl Recent {
    pub(super) fn new() -> Recent {
        Recent {
            langs: recent(LANG_FRESH),
            handles: recent(HANDLE_FRESH),
            apps: Cache::builder()
                .max_capacity(RECENT_USERS)
                .time_to_idle(APP_FRESH)
                .build(),
        }
    }
}

fn recent<V: Clone + Send + Sync + 'static>(fresh: Duration) -> Cache<String, V> {
    Cache::builder()
        .max_capacity(RECENT_USERS)
        .time_to_live(fresh)
        .build()
}

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
    /// The language to speak to `user`: the one they chose, else their app's (`app`, as
    /// their platform reports it with the request at hand, else as it last did), else
    /// English. An adapter asks once per request, where the request comes in, and speaks
    /// this to the person who made it; the boards of a game speak its players' languages
    /// as the manager puts them into the view (`GameView::langs`).
    pub async fn speaker(&self, user: &UserRef, app: Option<Lang>) -> Lang {
        if let Some(app) = app {
            self.note_app_lang(user, app);
        }
        self.lang_of(user).await
    }

    /// Notes the language of `user`'s app, as their platform reported it (kept by this
    /// process, for a day after it last heard of them).
    pub fn note_app_lang(&self, user: &UserRef, app: Lang) {
        let key = user.key();
        if self.inner.recent.apps.get(&key) != Some(app) {
            self.inner.recent.apps.insert(key, app);
        }
    }

    /// The language `user` is spoken to in when they did not ask (`speaker` without news
    /// from their app).
    pub(super) async fn lang_of(&self, user: &UserRef) -> Lang {
        match self.user_lang(user).await {
            Some(lang) => lang,
            None => self.inner.recent.apps.get(&user.key()).unwrap_or_default(),
        }
    }

    /// The language each player of `game` speaks (English for the bot).
    pub(super) async fn player_langs(&self, players: &[Player; 2]) -> [Lang; 2] {
        let mut langs = [Lang::default(); 2];
        for (lang, player) in langs.iter_mut().zip(players) {
            if let Player::Human(user) = player {
                *lang = self.lang_of(user).await;
            }
        }
        langs
    }

    /// The language a user chose, if any.
    pub async fn user_lang(&self, user: &UserRef) -> Option<Lang> {
        let key = user.key();
        let recent = &self.inner.recent.langs;
        if let Some(lang) = recent.get(&key) {
            return lang;
        }
        match self
            .inner
            .store
            .get::<UserSettings>(Tree::Settings, &key)
            .await
        {
            Ok(settings) => {
                let lang = settings.and_then(|s| s.lang);
                recent.insert(key, lang);
                lang
            }
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
        self.inner.recent.langs.insert(key, Some(lang));
        Ok(())
    }

    /// Remembers the public handle a user goes by on their platform (a Telegram @username),
    /// so `user_by_handle` finds them later, after a restart too; a handle names the user
    /// last seen with it. Only a change is written (and is durable before this returns).
    pub async fn remember_handle(&self, handle: &str, user: &UserRef) -> Result<(), ActionError> {
        let key = handle_key(user.platform, handle);
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
