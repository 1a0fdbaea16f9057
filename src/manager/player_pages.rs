//! A player's page on the web (issue 35): their ratings, the rating after each rated game,
//! and their last games, at an address that does not show who they are on their platform.
//!
//! Pages never show platform user ids, so a player page's key is not the user key
//! (`platform:user id`) but 80 bits of HMAC-SHA256 of it under a key kept in the store
//! (`secret:web:players`, not the game pages' key): the same on every process and after any
//! restart, and nobody can make one from an id. An HMAC cannot be read back, so the key ->
//! player mapping is written to `Tree::PlayerPages` in the write that ends a player's first
//! game (`history::count_end`), so that showing a page stays a read; for players whose first
//! game ended before that, the first time a link to the page is made (a game's page names
//! its players, the leaderboards theirs). It is read when the page is asked for. The web
//! adapter asks by key and never reaches the store itself.

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
/// Player page keys this process remembers having written (then it starts afresh).
const CACHE_MAX: usize = 10_000;
/// Where the keys' signing key is kept (`Tree::Meta`).
const SECRET_NAME: &str = "secret:web:players";

/// The record of `Tree::PlayerPages`: whose page a key is, and since when.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerLink {
    pub user: UserRef,
    pub made_at: u64,
}

/// What the manager keeps for player pages: the signing key once read, and the keys
/// already written (so a second link costs no write and no read).
#[derive(Default)]
pub(super) struct PlayerPages {
    secret: std::sync::OnceLock<[u8; 32]>,
    written: Mutex<HashMap<String, String>>,
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
    /// The last `RECENT_GAMES` finished games, newest first.
    pub recent: Vec<RecentGame>,
}

impl Manager {
    /// The key of `user`'s page (`/p/<key>`). The first time, the key -> player mapping is
    /// written to the store (durably); after that this process answers from memory.
    pub async fn player_page_key(&self, user: &UserRef) -> Result<String, ActionError> {
        let user_key = user.key();
        let pages = &self.inner.player_pages;
        if let Some(key) = lock(&pages.written).get(&user_key) {
            return Ok(key.clone());
        }
        let secret = self.player_secret().await?;
        let key = player_key(&secret, &user_key);
        let store = &self.inner.store;
        let found = store.get::<PlayerLink>(Tree::PlayerPages, &key).await?;
        match found {
            Some(link) if link.user.key() == user_key => {}
            Some(_) => return Err(taken(&key)),
            None => {
                let link = PlayerLink {
                    user: user.clone(),
                    made_at: self.now(),
                };
                if store.put_new(Tree::PlayerPages, &key, &link, None).await? {
                    store.commit().await?;
                } else {
                    // Another process wrote it meanwhile: the same player, or a collision.
                    let again = store.get::<PlayerLink>(Tree::PlayerPages, &key).await?;
                    if again.is_none_or(|l| l.user.key() != user_key) {
                        return Err(taken(&key));
                    }
                }
            }
        }
        let mut written = lock(&pages.written);
        if written.len() >= CACHE_MAX {
            written.clear();
        }
        written.insert(user_key, key.clone());
        Ok(key)
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
        let entries: Vec<HistoryEntry> = entries.into_iter().map(|(_, e)| e).collect();
        let mut points = Vec::new();
        for entry in entries.iter().rev() {
            let Some(change) = entry.change else { continue };
            let category = match entry.category {
                Some(category) => Some(category),
                None => self.archived_category(&entry.game).await,
            };
            points.push(RatingPoint {
                key: self.page_key(&entry.game).await?,
                ended_at: entry.ended_at,
                category,
                rating: change.after,
            });
        }
        let mut recent = Vec::with_capacity(RECENT_GAMES);
        for entry in entries.into_iter().take(RECENT_GAMES) {
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
        })
    }

    /// The time category of an archived game, for history entries written before entries
    /// kept it; `None` when the game cannot be read.
    async fn archived_category(&self, game: &str) -> Option<Category> {
        let store = &self.inner.store;
        match store.get::<GameRecord>(Tree::Archive, game).await {
            Ok(found) => found.map(|g| g.time_control.category()),
            Err(error) => {
                tracing::warn!(game, %error, "an archived game could not be read");
                None
            }
        }
    }

    /// The player page keys' signing key: made once, kept in the store.
    async fn player_secret(&self) -> Result<[u8; 32], ActionError> {
        let cell = &self.inner.player_pages.secret;
        if let Some(secret) = cell.get() {
            return Ok(*secret);
        }
        let secret = self.durable_secret_named(SECRET_NAME).await?;
        Ok(*cell.get_or_init(|| secret))
    }
}

fn taken(key: &str) -> ActionError {
    tracing::error!(key, "two players' page keys collide");
    ActionError::Storage(format!("player page key {key} belongs to someone else"))
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
