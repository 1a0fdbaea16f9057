//! Chats listed on the web's front page (issue 35): a chat's admins choose to have its
//! games listed (the adapter checks who is an admin); the console's games always are. The
//! choice is a record in `Tree::PublicChats`, read whole at start-up and again at most every
//! `REFRESH_SECS` on a page view (another process may have changed it). The ongoing games
//! listed are kept in the index (`Index::listed_games`); a game of a listed chat that ends
//! is written to `Tree::Listed` with its end, so every process sharing the store lists the
//! recent ones, also after a restart. A page view reads a hundred keys at most, and the
//! few games it shows.

use super::*;
use crate::store::{Batch, KeyRange};
use serde::{Deserialize, Serialize};

/// How long the listed chats read from the store are trusted before a page view reads
/// them again (choices made in this process count at once).
const REFRESH_SECS: u64 = 60;

/// How long an ended game stays in `Tree::Listed` (the front page shows the newest anyway).
const LISTED_KEEP_SECS: u64 = 30 * 86_400;

/// Ended games read from `Tree::Listed` per page view, to find the few still listed (a
/// chat may have stopped being listed since).
const RECENT_READ: usize = 100;

/// What a `Tree::Listed` entry is of: a game or a tournament that ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ListedKind {
    Game,
    Tournament,
}

impl ListedKind {
    fn prefix(self) -> &'static str {
        match self {
            ListedKind::Game => "g|",
            ListedKind::Tournament => "t|",
        }
    }
}

/// The key of an ended listed game or tournament: its kind, then newest first.
fn listed_key(kind: ListedKind, ended_at_ms: u64, id: &str) -> String {
    format!("{}{:016x}|{id}", kind.prefix(), u64::MAX - ended_at_ms)
}

/// A chat's choice to be listed: who chose, and when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicChat {
    pub chat: ChatRef,
    pub set_by: UserRef,
    pub at: u64,
}

/// A listed game: its view and its page's key (`/g/<key>`).
#[derive(Clone, Debug, PartialEq)]
pub struct ListedGame {
    pub key: String,
    pub view: GameView,
}

/// What the front page lists: ongoing games, newest first, and games that ended, the last
/// to end first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PublicGames {
    pub live: Vec<ListedGame>,
    pub recent: Vec<ListedGame>,
}

impl Manager {
    /// Lists (`public`) or stops listing the chat's games on the front page. Whether `by`
    /// may is the adapter's question (a chat's admins).
    pub async fn set_chat_public(
        &self,
        chat: &ChatRef,
        by: &UserRef,
        public: bool,
    ) -> Result<(), ActionError> {
        let key = chat.key();
        let mut batch = Batch::new();
        if public {
            let choice = PublicChat {
                chat: chat.clone(),
                set_by: by.clone(),
                at: self.now(),
            };
            batch.put(Tree::PublicChats, &key, &choice)?;
        } else {
            batch.delete(Tree::PublicChats, &key);
        }
        self.inner.store.write(batch).await?;
        lock(&self.inner.index).set_public(&key, public);
        tracing::info!(chat = key, public, by = by.key(), "chat listing set");
        Ok(())
    }

    /// Whether the chat chose to be listed, as the store has it.
    pub async fn is_chat_public(&self, chat: &ChatRef) -> Result<bool, ActionError> {
        let key = chat.key();
        let found = self.inner.store.get::<PublicChat>(Tree::PublicChats, &key);
        Ok(found.await?.is_some())
    }

    /// Up to `limit` ongoing and `limit` ended games of listed chats, with their pages' keys.
    /// Games that can no longer be read are left out.
    pub async fn public_games(&self, limit: usize) -> Result<PublicGames, ActionError> {
        self.refresh_public_chats().await;
        let live = lock(&self.inner.index).listed_games(limit);
        let mut recent = self.listed_ends(ListedKind::Game).await?;
        recent.truncate(limit);
        Ok(PublicGames {
            live: self.listed_views(live).await?,
            recent: self.listed_views(recent).await?,
        })
    }

    /// Adds the game or tournament `id` of `chat`, which ends in `batch`, to `batch` as a
    /// recent listed one when its chat is listed (a choice made in another process counts
    /// from this one's next read of them).
    pub(super) fn note_listed_end(
        &self,
        kind: ListedKind,
        chat: &ChatRef,
        id: &str,
        batch: &mut Batch,
    ) -> Result<(), ActionError> {
        let chat = chat.key();
        if !lock(&self.inner.index).lists(&chat) {
            return Ok(());
        }
        let key = listed_key(kind, self.now_ms(), id);
        batch.put(Tree::Listed, &key, &chat)?;
        batch.expire_at(
            Tree::Listed,
            &key,
            self.now().saturating_add(LISTED_KEEP_SECS),
        );
        Ok(())
    }

    /// The ids of the games or tournaments of listed chats that ended lately, the last to
    /// end first (of the newest `RECENT_READ` entries, those whose chats are still listed).
    pub(super) async fn listed_ends(&self, kind: ListedKind) -> Result<Vec<String>, ActionError> {
        let range = KeyRange::prefix(kind.prefix());
        let ended = self
            .inner
            .store
            .scan::<String>(Tree::Listed, range, RECENT_READ);
        let ended = ended.await?;
        let index = lock(&self.inner.index);
        let listed = ended.into_iter().filter(|(_, chat)| index.lists(chat));
        Ok(listed
            .filter_map(|(key, _)| key.rsplit_once('|').map(|(_, id)| id.to_string()))
            .collect())
    }

    async fn listed_views(&self, ids: Vec<GameId>) -> Result<Vec<ListedGame>, ActionError> {
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let view = match self.game_slot(&id).await {
                Ok(slot) => {
                    let game = self.enter(&slot).await?;
                    self.view_of(&game).await
                }
                Err(ActionError::NoSuchGame) => continue,
                Err(error) => return Err(error),
            };
            out.push(ListedGame {
                key: self.page_key(&id).await?,
                view,
            });
        }
        Ok(out)
    }

    /// Reads the listed chats from the store at start-up.
    pub(super) async fn load_public_chats(&self) -> Result<(), ActionError> {
        let chats = self
            .inner
            .store
            .load_all::<PublicChat>(Tree::PublicChats)
            .await?;
        let keys = chats.into_iter().map(|(key, _)| key).collect();
        lock(&self.inner.index).replace_public(keys);
        self.inner
            .public_read_at
            .store(self.now(), std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }

    /// Reads the listed chats again when the last read is older than `REFRESH_SECS`; a
    /// failed read keeps what was read before.
    pub(super) async fn refresh_public_chats(&self) {
        use std::sync::atomic::Ordering;
        let last = self.inner.public_read_at.load(Ordering::Relaxed);
        if self.now() < last.saturating_add(REFRESH_SECS) {
            return;
        }
        // Claimed first, so page views arriving together read the store once.
        self.inner
            .public_read_at
            .store(self.now(), Ordering::Relaxed);
        if let Err(error) = self.load_public_chats().await {
            tracing::warn!(%error, "the listed chats could not be read again");
        }
    }
}
