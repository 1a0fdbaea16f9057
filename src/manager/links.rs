//! A game's page on the web (issue 35): its public address and what the page shows.
//!
//! Game ids are six characters, which a stranger could guess; a page's address carries the
//! id and a signature of it (`<id>-<20 hex digits>`, HMAC-SHA256 under a key kept in the
//! store like the adapters' secrets), so only someone given the link opens the page, on
//! every process sharing the store and after any restart. The web adapter asks for the page
//! by that key and never reaches the store itself.

use super::*;
use crate::ratings::Rating;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Hex digits of the signature in a page key (80 bits).
const SIGNATURE_HEX: usize = 20;

/// What a game's page shows: the game's view, every pit played (the page replays them
/// with the rules), the record file's text and the players' current ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct GamePage {
    pub key: String,
    pub view: GameView,
    pub pits: Vec<u8>,
    pub record: String,
    pub created_at: u64,
    /// White's and Black's rating now in the game's category (people in a rated game).
    pub ratings: [Option<Rating>; 2],
    /// The game's review, when one was made (`/review`): the page shows its graph and the
    /// largest mistakes.
    pub review: Option<Arc<crate::review::Review>>,
    /// White's and Black's player page keys (`/p/<key>`), for people.
    pub player_keys: [Option<String>; 2],
    /// The game's chat is listed (the console, or `/web public on`): its page may be
    /// indexed by search engines; any other says `noindex`.
    pub listed: bool,
}

impl Manager {
    /// The key of `game`'s page address (whether the game exists is not checked: links
    /// are made for games the caller holds).
    pub async fn page_key(&self, game: &str) -> Result<String, ActionError> {
        let secret = self.page_secret().await?;
        Ok(sign(&secret, game))
    }

    /// The address of `game`'s page when the pages are served (`ManagerConfig::web_url`):
    /// what a board's link button and `/record` show. Synchronous, for building views: the
    /// signing key is read when the manager starts.
    pub fn page_url(&self, game: &str) -> Option<String> {
        let base = self.inner.config.web_url.as_deref()?;
        let secret = self.inner.page_secret.get()?;
        Some(format!("{base}/g/{}", sign(secret, game)))
    }

    /// The site's address when the pages are served (`ManagerConfig::web_url`): where the
    /// front page is.
    pub fn site_url(&self) -> Option<&str> {
        self.inner.config.web_url.as_deref()
    }

    /// Reads (or makes) the pages' and the player pages' signing keys when the pages are
    /// served, so `page_url` can answer at once and no page view has to make one.
    pub(super) async fn load_page_secret(&self) -> Result<(), ActionError> {
        if self.inner.config.web_url.is_some() {
            self.page_secret().await?;
            self.player_secret().await?;
        }
        Ok(())
    }

    /// The page of the game `key` names. A key that is not one, was not signed here or
    /// names no game is `NoSuchGame`: a forged address learns nothing.
    pub async fn game_page(&self, key: &str) -> Result<GamePage, ActionError> {
        let (id, _) = key.split_once('-').ok_or(ActionError::NoSuchGame)?;
        let secret = self.page_secret().await?;
        if !constant_time_eq(sign(&secret, id).as_bytes(), key.as_bytes()) {
            return Err(ActionError::NoSuchGame);
        }
        let (view, pits, record, created_at, variant) = {
            let slot = self.game_slot(id).await?;
            let game = self.enter(&slot).await?;
            let record = super::record::record_text(&game.rec).map_err(|error| {
                tracing::error!(game = id, error, "game record does not replay");
                ActionError::NoSuchGame
            })?;
            let view = self.view_of(&game).await;
            let rec = &game.rec;
            (view, rec.moves.clone(), record, rec.created_at, rec.variant)
        };
        let ratings = self.page_ratings(&view).await;
        let review = if view.is_over() && !pits.is_empty() {
            let start = crate::rules::Position::start(variant);
            self.known_review(id, start, &pits).await
        } else {
            None
        };
        let mut player_keys = [None, None];
        for (i, player) in view.players.iter().enumerate() {
            let Some(user) = player.user() else { continue };
            // A page without the link is better than no page. Nothing is written here: a
            // player's page is recorded with their first game (`player_pages`).
            match self.player_page_key(user).await {
                Ok(key) => player_keys[i] = Some(key),
                Err(error) => tracing::warn!(%error, "a player page key could not be made"),
            }
        }
        self.refresh_public_chats().await;
        let listed = lock(&self.inner.index).lists(&view.chat.key());
        Ok(GamePage {
            player_keys,
            listed,
            key: key.to_string(),
            view,
            pits,
            record,
            created_at,
            ratings,
            review,
        })
    }

    /// The stored revisions of ongoing games (`None`: no longer ongoing, or no game), in
    /// one store read: live pages poll them to follow moves made by other processes.
    pub async fn live_revisions(&self, ids: &[String]) -> Result<Vec<Option<u64>>, ActionError> {
        Ok(self.inner.store.revisions_of(Tree::Games, ids).await?)
    }

    /// The players' ratings now, in a rated game's category; a failed read shows none.
    async fn page_ratings(&self, view: &GameView) -> [Option<Rating>; 2] {
        let mut out = [None, None];
        if !view.rated {
            return out;
        }
        let control = view.time_control;
        let category = control.category();
        for (i, player) in view.players.iter().enumerate() {
            let Some(user) = player.user() else { continue };
            if let Ok(Some(stats)) = self.stats(user).await {
                out[i] = stats
                    .categories
                    .iter()
                    .find(|c| c.category == category)
                    .map(|c| c.rating);
            }
        }
        out
    }

    /// The pages' signing key: made once, kept in the store, the same for every process.
    pub(super) async fn page_secret(&self) -> Result<[u8; 32], ActionError> {
        if let Some(secret) = self.inner.page_secret.get() {
            return Ok(*secret);
        }
        let secret = self.secret_named("secret:web:pages").await?;
        Ok(*self.inner.page_secret.get_or_init(|| secret))
    }
}

/// `<id>-<signature>`.
pub(super) fn sign(secret: &[u8; 32], id: &str) -> String {
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret) else {
        // HMAC takes a key of any length; this cannot happen.
        return format!("{id}-");
    };
    mac.update(id.as_bytes());
    let digest = mac.finalize().into_bytes();
    let mut key = format!("{id}-");
    for byte in digest.iter().take(SIGNATURE_HEX / 2) {
        key.push_str(&format!("{byte:02x}"));
    }
    key
}

/// Equal bytes, compared without stopping at the first difference.
pub(super) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_the_id_and_a_signature_only_its_secret_makes() {
        let secret = [7u8; 32];
        let key = sign(&secret, "abc123");
        assert!(key.starts_with("abc123-"), "{key}");
        assert_eq!(key.len(), "abc123-".len() + SIGNATURE_HEX);
        assert_eq!(sign(&secret, "abc123"), key, "the same every time");
        assert_ne!(sign(&[8u8; 32], "abc123"), key, "another secret");
        assert_ne!(sign(&secret, "abc124"), key, "another game");
        assert!(constant_time_eq(key.as_bytes(), key.as_bytes()));
        assert!(!constant_time_eq(key.as_bytes(), b"abc123-"));
    }
}
