//! A player's page on the web (issue 35): their ratings, the rating after each rated game,
//! and their last games, at an address that does not show who they are on their platform.
//!
//! Pages never show platform user ids, so a player page's key is not the user key
//! (`platform:user id`) but 80 bits of HMAC-SHA256 of it under a key kept in the store
//! (`secret:web:players`, not the game pages' key): the same on every process and after any
//! restart, and nobody can make one from an id. An HMAC cannot be read back, so the key ->
//! player mapping is written to `Tree::PlayerPages` in the write that makes a player's
//! first game when the pages are served (`creation`), and in the one that ends it
//! (`history::count_end`); for players whose first game ended before that, once by
//! a task a full manager starts (`backfill_player_pages`, from `Tree::Ratings`). Showing a
//! page, or a link to one, writes nothing (issue 49, finding 19). The web adapter asks by
//! key and never reaches the store itself.
//!
//! What a page lists (issue 49, finding 9): the games of listed chats (`/web public on`)
//! and of the console only, unless the player chose to show all of theirs (`/web profile
//! on`, `UserSettings::public_page`); only such a page may be indexed by search engines.

use super::*;
use crate::model::Category;
use crate::ratings::keys::history_prefix;
use crate::ratings::{PlayerStats, Rating};
use crate::store::{Batch, KeyRange};
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

/// Hex digits of a player page key (80 bits).
pub const PLAYER_KEY_HEX: usize = 20;
/// Finished games read for a page: the graph's rated ones among them.
pub const GRAPH_GAMES: usize = 200;
/// Finished games a page lists, newest first.
pub const RECENT_GAMES: usize = 20;
/// Where the keys' signing key is kept (`Tree::Meta`).
const SECRET_NAME: &str = "secret:web:players";
/// Marks in `Tree::Meta` that every player with stats has their page recorded.
const BACKFILLED: &str = "web:player-pages-backfilled";
/// Players read at once by the backfill.
const BACKFILL_CHUNK: usize = 500;

/// The record of `Tree::PlayerPages`: whose page a key is, and since when.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerLink {
    pub user: UserRef,
    pub made_at: u64,
}

/// What the manager keeps for player pages: the signing key once read.
#[derive(Default)]
pub(super) struct PlayerPages {
    secret: std::sync::OnceLock<[u8; 32]>,
}

/// One point of the rating graph: the rating after a rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingPoint {
    /// The game's page key (`/g/<key>`).
    pub key: String,
    pub ended_at: u64,
    /// The rating's time category (`None`: not known, an old entry whose game is gone).
    pub category: Option<Category>,
    pub rating: Rating,
}

/// One of the recent games: its history line and its page key.
#[derive(Clone, Debug, PartialEq)]
pub struct RecentGame {
    /// The game's page key (`/g/<key>`).
    pub key: String,
    pub entry: HistoryEntry,
}

/// What a player's page shows. No platform user id: the name and the platform only (the
/// history entries' players carry ids, which the page's words leave out).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerPage {
    pub key: String,
    /// The display name, as in their last game.
    pub name: String,
    pub platform: Platform,
    /// Their stats (ratings per category, results); `None` before their first finished game.
    pub stats: Option<PlayerStats>,
    /// The rating after each rated game among the last `GRAPH_GAMES`, oldest first.
    pub points: Vec<RatingPoint>,
    /// The last `RECENT_GAMES` finished games shown, newest first.
    pub recent: Vec<RecentGame>,
    /// The player chose to show all their games (`/web profile on`): the page lists them,
    /// and may be indexed. Otherwise it lists only games of listed chats and says `noindex`.
    pub public: bool,
}

impl Manager {
    /// The key of `user`'s page (`/p/<key>`): computed, never written (the mapping is
    /// written with the player's first game, `note_player_page`, or by the backfill).
    pub async fn player_page_key(&self, user: &UserRef) -> Result<String, ActionError> {
        let secret = self.player_secret().await?;
        Ok(player_key(&secret, &user.key()))
    }

    /// Starts the one-time backfill of player pages (`backfill_player_pages`) in the
    /// background (not called yet: see `start_with_clock`).
    #[allow(dead_code)]
    pub(super) fn spawn_player_pages_backfill(&self) {
        let manager = self.clone();
        tokio::spawn(async move {
            if let Err(error) = manager.backfill_player_pages().await {
                tracing::warn!(%error, "player pages backfill stopped; the next start goes on");
            }
        });
    }

    /// Records the page of every player with stats (everyone whose game ended) whose page
    /// is not recorded yet: players whose first game ended before pages were written with
    /// it. Once per store (a mark in `Tree::Meta`); several processes doing it at once
    /// write each page once (`put_new`). How many were written.
    pub async fn backfill_player_pages(&self) -> Result<usize, ActionError> {
        let store = &self.inner.store;
        if store.contains(Tree::Meta, BACKFILLED).await? {
            return Ok(0);
        }
        let secret = self.player_secret().await?;
        let mut after: Option<String> = None;
        let mut written = 0;
        loop {
            let range = KeyRange {
                prefix: "",
                after: after.as_deref(),
                before: None,
            };
            let chunk: Vec<(String, PlayerStats)> =
                store.scan(Tree::Ratings, range, BACKFILL_CHUNK).await?;
            let Some((last, _)) = chunk.last() else { break };
            let last = last.clone();
            for (_, stats) in &chunk {
                let link = PlayerLink {
                    user: stats.user.clone(),
                    made_at: self.now(),
                };
                let key = player_key(&secret, &stats.user.key());
                if store.put_new(Tree::PlayerPages, &key, &link, None).await? {
                    written += 1;
                }
            }
            store.commit().await?;
            after = Some(last);
        }
        store.put(Tree::Meta, BACKFILLED, &self.now()).await?;
        store.commit().await?;
        tracing::info!(written, "player pages recorded for players from before");
        Ok(written)
    }

    /// Adds the key -> player mapping of `user`'s page to `batch`, the write that ends their
    /// first game. Without the signing key (the store did not answer) it is left out: the
    /// first link to the page writes it then.
    pub(super) async fn note_player_page(&self, user: &UserRef, now: u64, batch: &mut Batch) {
        let secret = match self.player_secret().await {
            Ok(secret) => secret,
            Err(error) => {
                tracing::warn!(user = user.key(), %error, "player page key left for later");
                return;
            }
        };
        let link = PlayerLink {
            user: user.clone(),
            made_at: now,
        };
        let key = player_key(&secret, &user.key());
        if let Err(error) = batch.put(Tree::PlayerPages, &key, &link) {
            tracing::warn!(user = user.key(), %error, "player page key left for later");
        }
    }

    /// The page `key` names. A key that is not one, or that no link was made with, is
    /// `NoSuchGame` (the web answers it with the same 404 as any unknown address).
    pub async fn player_page(&self, key: &str) -> Result<PlayerPage, ActionError> {
        if !is_player_key(key) {
            return Err(ActionError::NoSuchGame);
        }
        let store = &self.inner.store;
        let link = store.get::<PlayerLink>(Tree::PlayerPages, key).await?;
        let Some(PlayerLink { user, .. }) = link else {
            return Err(ActionError::NoSuchGame);
        };
        let secret = self.player_secret().await?;
        if !constant_time_eq(player_key(&secret, &user.key()).as_bytes(), key.as_bytes()) {
            // A record under a key its secret does not make: written by someone else.
            tracing::warn!(key, "a player page record under a foreign key");
            return Err(ActionError::NoSuchGame);
        }
        let stats = self.stats(&user).await?;
        let prefix = history_prefix(&user.key());
        let range = KeyRange::prefix(&prefix);
        let entries: Vec<(String, HistoryEntry)> =
            store.scan(Tree::History, range, GRAPH_GAMES).await?;
        let public = self.player_page_public(&user).await?;
        let entries = self.entries_shown(entries, public).await;
        let mut points = Vec::new();
        for (entry, category) in entries.iter().rev() {
            let Some(change) = entry.change else { continue };
            points.push(RatingPoint {
                key: self.page_key(&entry.game).await?,
                ended_at: entry.ended_at,
                category: *category,
                rating: change.after,
            });
        }
        let mut recent = Vec::with_capacity(RECENT_GAMES);
        for (entry, _) in entries.into_iter().take(RECENT_GAMES) {
            recent.push(RecentGame {
                key: self.page_key(&entry.game).await?,
                entry,
            });
        }
        let name = stats
            .as_ref()
            .map(|s| s.user.name.clone())
            .or_else(|| {
                let newest = &recent.first()?.entry;
                Some(newest.players[newest.side.index()].user()?.name.clone())
            })
            .unwrap_or_else(|| user.name.clone());
        Ok(PlayerPage {
            key: key.to_string(),
            name,
            platform: user.platform,
            stats,
            points,
            recent,
            public,
        })
    }

    /// The entries a page shows, each with its time category: all of them when the player
    /// chose so (`public`), else those of games in listed chats and the console. Entries
    /// written before they kept their chat (or category) take it from the archived game; one
    /// that cannot be placed is not shown.
    async fn entries_shown(
        &self,
        entries: Vec<(String, HistoryEntry)>,
        public: bool,
    ) -> Vec<(HistoryEntry, Option<Category>)> {
        self.refresh_public_chats().await;
        let mut shown = Vec::new();
        for (_, entry) in entries {
            let needs_archive = (entry.chat.is_none() && !public)
                || (entry.category.is_none() && entry.change.is_some());
            let archived = if needs_archive {
                self.archived(&entry.game).await
            } else {
                None
            };
            let chat = entry
                .chat
                .clone()
                .or_else(|| archived.as_ref().map(|g| g.chat.clone()));
            let listed = chat.is_some_and(|c| lock(&self.inner.index).lists(&c.key()));
            if !(public || listed) {
                continue;
            }
            let category = entry
                .category
                .or_else(|| archived.map(|g| g.time_control.category()));
            shown.push((entry, category));
        }
        shown
    }

    /// Whether `user` chose to show all their games on their page (`/web profile on`).
    pub async fn player_page_public(&self, user: &UserRef) -> Result<bool, ActionError> {
        Ok(self.user_settings(&user.key()).await?.public_page)
    }

    /// Shows all of `user`'s games on their page (`public`), or only those of listed chats
    /// and the console (durable before it returns).
    pub async fn set_player_page_public(
        &self,
        user: &UserRef,
        public: bool,
    ) -> Result<(), ActionError> {
        self.update_user_settings(user, |settings| settings.public_page = public)
            .await?;
        tracing::info!(user = user.key(), public, "player page choice set");
        Ok(())
    }

    /// An archived game, for history entries written before entries kept their chat and
    /// category; `None` when it cannot be read.
    async fn archived(&self, game: &str) -> Option<GameRecord> {
        let store = &self.inner.store;
        match store.get::<GameRecord>(Tree::Archive, game).await {
            Ok(found) => found,
            Err(error) => {
                tracing::warn!(game, %error, "an archived game could not be read");
                None
            }
        }
    }

    /// The player page keys' signing key: made once, kept in the store.
    pub(super) async fn player_secret(&self) -> Result<[u8; 32], ActionError> {
        let cell = &self.inner.player_pages.secret;
        if let Some(secret) = cell.get() {
            return Ok(*secret);
        }
        let secret = self.secret_named(SECRET_NAME).await?;
        Ok(*cell.get_or_init(|| secret))
    }
}

/// `PLAYER_KEY_HEX` hex digits of HMAC-SHA256 of `user_key`.
fn player_key(secret: &[u8; 32], user_key: &str) -> String {
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret) else {
        // HMAC takes a key of any length; this cannot happen.
        return String::new();
    };
    mac.update(user_key.as_bytes());
    let digest = mac.finalize().into_bytes();
    digest
        .iter()
        .take(PLAYER_KEY_HEX / 2)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `key` looks like a player page key (lower-case hex of the right length): others
/// are refused before any read.
fn is_player_key(key: &str) -> bool {
    key.len() == PLAYER_KEY_HEX && key.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Equal bytes, compared without stopping at the first difference.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_hex_of_the_user_key_under_the_secret_and_shows_no_id() {
        let secret = [7u8; 32];
        let key = player_key(&secret, "telegram:81234567");
        assert_eq!(key.len(), PLAYER_KEY_HEX);
        assert!(is_player_key(&key), "{key}");
        assert!(!key.contains("81234567"));
        assert_eq!(player_key(&secret, "telegram:81234567"), key, "stable");
        assert_ne!(player_key(&[8u8; 32], "telegram:81234567"), key);
        assert_ne!(player_key(&secret, "discord:81234567"), key);
        assert!(!is_player_key(&key.to_uppercase()));
        assert!(!is_player_key(&key[1..]));
        assert!(!is_player_key("zz34567890abcdef0123"));
        assert!(!is_player_key("../../etc/passwd"));
    }
}
