//! The languages users speak: the one each chose (kept in the store), else their app's as
//! their platform last reported it (kept by the process that heard it).
//!
//! Every press needs the presser's language and the players' (the board speaks its
//! viewer's): read from the store each time, that was two or three reads a press besides
//! the game's own. A process keeps what it read ([`Langs`], bounded), and a press never
//! waits on a language it has seen: one read more than [`FRESH_MS`] ago is still answered
//! at once, and read again in the background (at most [`REFRESHES`] reads at once; the
//! rest wait for a later press), so a language chosen through another process shows here
//! from the press after next. One chosen through this process is known at once.

use super::*;
use mini_moka::sync::Cache;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::Semaphore;

/// Users whose languages (and handles, `users.rs`) a process keeps at most: memory stays
/// flat under load.
pub(super) const RECENT_USERS: u64 = 100_000;
/// How long (manager time) a language read from the store is taken as it is; after that it
/// is still used, and read again in the background.
const FRESH_MS: u64 = 10_000;
/// How long a process keeps a user's languages after it last used them.
const KEEP: Duration = Duration::from_secs(24 * 3600);
/// Background reads of languages at once.
const REFRESHES: usize = 32;

/// Per-user settings kept in the store.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub(super) struct UserSettings {
    lang: Option<Lang>,
    /// Their web page lists all their games, not only those of listed chats
    /// (`player_pages`, `/web profile on`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub public_page: bool,
}

/// A language as a process knows it: the choice (`None`: none), when it was read or last
/// sent to be read again, and which write put it here (so a background read that began
/// before a newer write does not put the older choice back).
#[derive(Clone, Copy, Debug)]
struct Known {
    lang: Option<Lang>,
    read_ms: u64,
    stamp: u64,
}

/// What a process knows of users' languages.
pub(super) struct Langs {
    /// User key -> the language they chose.
    chosen: Cache<String, Known>,
    /// User key -> the language of their app, as their platform last reported it.
    apps: Cache<String, Lang>,
    /// Background reads running.
    refreshes: Arc<Semaphore>,
    /// Background reads made so far.
    rereads: AtomicU64,
    /// Orders the writes of `chosen` (`Known::stamp`).
    stamps: AtomicU64,
    /// Held while a background read checks its stamp and writes what it read.
    writing: Mutex<()>,
}

impl Langs {
    pub(super) fn new() -> Langs {
        Langs {
            chosen: kept(),
            apps: kept(),
            refreshes: Arc::new(Semaphore::new(REFRESHES)),
            rereads: AtomicU64::new(0),
            stamps: AtomicU64::new(0),
            writing: Mutex::new(()),
        }
    }

    /// Keeps `lang` as `key`'s choice, read or written at `now_ms`; its stamp.
    fn keep(&self, key: String, lang: Option<Lang>, now_ms: u64) -> u64 {
        let stamp = self.stamps.fetch_add(1, Ordering::Relaxed) + 1;
        let known = Known {
            lang,
            read_ms: now_ms,
            stamp,
        };
        self.chosen.insert(key, known);
        stamp
    }
}

/// A cache of at most `RECENT_USERS` users, each kept `KEEP` after it was last used.
fn kept<V: Clone + Send + Sync + 'static>() -> Cache<String, V> {
    Cache::builder()
        .max_capacity(RECENT_USERS)
        .time_to_idle(KEEP)
        .build()
}

impl Manager {
    /// The language to speak to `user`: the one they chose, else their app's (`app`, as
    /// their platform reports it with the request at hand, else as it last did), else
    /// English. An adapter asks once per request, where the request comes in, and speaks
    /// this to the person who made it; the boards of a game speak its players' languages
    /// as the manager puts them into the view (`GameView::langs`).
    pub async fn speaker(&self, user: &UserRef, app: Option<Lang>) -> Lang {
        let key = user.key();
        if let Some(app) = app {
            self.note_app_lang_of(&key, app);
        }
        self.lang_by_key(&key).await
    }

    /// Notes the language of `user`'s app, as their platform reported it (kept by this
    /// process, for a day after it last heard of them).
    pub fn note_app_lang(&self, user: &UserRef, app: Lang) {
        self.note_app_lang_of(&user.key(), app);
    }

    #[allow(clippy::ptr_arg)]
    fn note_app_lang_of(&self, key: &String, app: Lang) {
        let apps = &self.inner.recent.langs.apps;
        if apps.get(key) != Some(app) {
            apps.insert(key.clone(), app);
        }
    }

    /// The language `user` is spoken to in when they did not ask (`speaker` without news
    /// from their app).
    pub(super) async fn lang_of(&self, user: &UserRef) -> Lang {
        self.lang_by_key(&user.key()).await
    }

    /// `lang_of` by the user's key (made once per lookup: views look up every player's on
    /// every move, and every press the presser's).
    #[allow(clippy::ptr_arg)]
    async fn lang_by_key(&self, key: &String) -> Lang {
        match self.chosen_lang(key).await {
            Some(lang) => lang,
            None => self.inner.recent.langs.apps.get(key).unwrap_or_default(),
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

    /// The language a user chose, if any: as this process knows it (read again in the
    /// background once older than `FRESH_MS`), else read from the store.
    pub async fn user_lang(&self, user: &UserRef) -> Option<Lang> {
        self.chosen_lang(&user.key()).await
    }

    /// `user_lang` by the user's key. A `&String`: the caches look keys up by it.
    #[allow(clippy::ptr_arg)]
    async fn chosen_lang(&self, key: &String) -> Option<Lang> {
        let now = self.now_ms();
        match self.inner.recent.langs.chosen.get(key) {
            Some(known) => {
                if now.saturating_sub(known.read_ms) >= FRESH_MS {
                    self.refresh_lang(key.clone(), known, now);
                }
                known.lang
            }
            None => {
                let lang = self.read_lang(key).await.ok()?;
                let langs = &self.inner.recent.langs;
                let _writing = lock(&langs.writing);
                // A choice made through this process while the read ran is newer.
                match langs.chosen.get(key) {
                    Some(newer) => newer.lang,
                    None => {
                        langs.keep(key.clone(), lang, now);
                        lang
                    }
                }
            }
        }
    }

    /// Reads `key`'s language again in the background, unless `REFRESHES` reads are
    /// running (a later press asks again). Marked read now, so a burst of presses starts
    /// one read, not one each.
    fn refresh_lang(&self, key: String, known: Known, now: u64) {
        let langs = &self.inner.recent.langs;
        let Ok(permit) = Arc::clone(&langs.refreshes).try_acquire_owned() else {
            return;
        };
        let stamp = {
            let _writing = lock(&langs.writing);
            match langs.chosen.get(&key) {
                Some(k) if k.stamp == known.stamp => langs.keep(key.clone(), k.lang, now),
                _ => return,
            }
        };
        let weak = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let _permit = permit;
            let Some(inner) = weak.upgrade() else { return };
            let m = Manager { inner };
            let read = m.read_lang(&key).await;
            let langs = &m.inner.recent.langs;
            langs.rereads.fetch_add(1, Ordering::Relaxed);
            let Ok(lang) = read else { return };
            let _writing = lock(&langs.writing);
            // Only if nothing newer was kept meanwhile (a choice made through this process).
            if langs.chosen.get(&key).is_some_and(|k| k.stamp == stamp) {
                langs.keep(key, lang, m.now_ms());
            }
        });
    }

    /// `key`'s chosen language as stored; an unreadable record is logged and read as none.
    async fn read_lang(&self, key: &str) -> Result<Option<Lang>, ActionError> {
        let store = &self.inner.store;
        match store.get::<UserSettings>(Tree::Settings, key).await {
            Ok(settings) => Ok(settings.and_then(|s| s.lang)),
            Err(error) => {
                tracing::warn!(user = key, %error, "unreadable user settings");
                Err(error.into())
            }
        }
    }

    /// Background reads of languages running now (for tests: they end on their own).
    pub fn lang_refreshes(&self) -> usize {
        REFRESHES - self.inner.recent.langs.refreshes.available_permits()
    }

    /// Background reads of languages made so far (each one store read).
    pub fn lang_rereads(&self) -> u64 {
        self.inner.recent.langs.rereads.load(Ordering::Relaxed)
    }

    /// `key`'s settings as stored (none: the defaults).
    pub(super) async fn user_settings(&self, key: &str) -> Result<UserSettings, ActionError> {
        let store = &self.inner.store;
        Ok(store
            .get::<UserSettings>(Tree::Settings, key)
            .await?
            .unwrap_or_default())
    }

    /// Changes `user`'s settings with `change` (durable before it returns).
    pub(super) async fn update_user_settings(
        &self,
        user: &UserRef,
        change: impl FnOnce(&mut UserSettings),
    ) -> Result<(), ActionError> {
        let key = user.key();
        let mut settings = self
            .inner
            .store
            .get::<UserSettings>(Tree::Settings, &key)
            .await
            .ok()
            .flatten()
            .unwrap_or_default();
        change(&mut settings);
        self.inner
            .store
            .put(Tree::Settings, &key, &settings)
            .await?;
        self.inner.store.commit().await?;
        Ok(())
    }

    /// Remembers a user's language (durable before it returns).
    pub async fn set_user_lang(&self, user: &UserRef, lang: Lang) -> Result<(), ActionError> {
        let key = user.key();
        self.update_user_settings(user, |settings| settings.lang = Some(lang))
            .await?;
        let langs = &self.inner.recent.langs;
        let _writing = lock(&langs.writing);
        langs.keep(key, Some(lang), self.now_ms());
        Ok(())
    }
}
