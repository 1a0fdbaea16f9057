//! The live tournaments of a chat, and how many may be live (issue 49, finding 6).
//!
//! **The index.** Each event taking entries or running has a key in `Claims`,
//! `tournament:chat:<chat>|<id>`, written in the write that creates it and deleted in the
//! write that ends it (finished or cancelled). `/tournament` (`chat_tournaments`) and the
//! web's front page (`listed_live_tournaments`) read the keys of the chats they show, then
//! only those events' records, never every live event. Events created before the index
//! existed are indexed at start-up (`index_live_tournaments`); a key whose event is no
//! longer live (a start-up index racing the event's end) is skipped, and removed.
//!
//! **The caps.** `[limits] tournaments_per_chat` and `tournaments_per_user` (its creator)
//! bound the events live at once. They are seats in the store, as the game and challenge
//! limits are (`seats.rs`): taken compare-and-set in the creating write, given back in the
//! ending one, so several processes together allow no more than the cap.

use super::record::TournamentRecord;
use crate::manager::seats::lost_a_seat;
use crate::manager::{ActionError, Manager};
use crate::model::ChatRef;
use crate::store::{Batch, Expect, KeyRange, Tree};

/// The most index keys read for one chat: far over the cap, so an index of events from
/// before the cap, or a cap lowered since, still shows them all.
const CHAT_READ: usize = 256;

fn chat_prefix(chat_key: &str) -> String {
    format!("tournament:chat:{chat_key}|")
}

fn index_key(rec: &TournamentRecord) -> String {
    format!("{}{}", chat_prefix(&rec.chat.key()), rec.id)
}

impl Manager {
    /// Stores a new event with its index key and the seats of the caps, in one write; a
    /// seat another process took first is read anew and the write made again.
    pub(super) async fn store_new_tournament(
        &self,
        rec: &TournamentRecord,
    ) -> Result<(), ActionError> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            let mut batch = Batch::new();
            batch.put_checked(Tree::Tournaments, &rec.id, rec, Expect::Absent)?;
            batch.put(Tree::Claims, &index_key(rec), &rec.id)?;
            self.seat_tournament(rec, &mut batch).await?;
            let result = self.inner.store.write(batch).await;
            if !lost_a_seat(&result, attempt) {
                result?;
                return Ok(());
            }
            tracing::debug!(tournament = rec.id, attempt, "a seat was taken meanwhile");
        }
    }

    /// Into `batch`, the write that ends an event: its index key goes, its seats are given
    /// back.
    pub(super) async fn unindex_tournament(
        &self,
        rec: &TournamentRecord,
        batch: &mut Batch,
    ) -> Result<(), ActionError> {
        batch.delete(Tree::Claims, &index_key(rec));
        self.unseat_tournament(rec, batch).await
    }

    /// The tournaments of `chat` that take entries or are running, the newest first.
    pub async fn chat_tournaments(
        &self,
        chat: &ChatRef,
    ) -> Result<Vec<TournamentRecord>, ActionError> {
        let mut ours = self.indexed_live(&chat.key()).await?;
        ours.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.id.cmp(&a.id)));
        Ok(ours)
    }

    /// The live events of the chats whose key is `chat_key` or starts with it (the
    /// console's chats: `console:`), from the index.
    pub(crate) async fn indexed_live(
        &self,
        chat_key: &str,
    ) -> Result<Vec<TournamentRecord>, ActionError> {
        let store = &self.inner.store;
        let prefix = if chat_key.ends_with(':') {
            format!("tournament:chat:{chat_key}")
        } else {
            chat_prefix(chat_key)
        };
        let keys = store
            .scan::<String>(Tree::Claims, KeyRange::prefix(&prefix), CHAT_READ)
            .await?;
        let mut live = Vec::with_capacity(keys.len());
        for (key, id) in keys {
            match store
                .get::<TournamentRecord>(Tree::Tournaments, &id)
                .await?
            {
                Some(rec) => live.push(rec),
                None => {
                    // Ended while a start-up indexed it: not live, so not shown.
                    let mut batch = Batch::new();
                    batch.delete(Tree::Claims, &key);
                    if let Err(error) = store.write(batch).await {
                        tracing::warn!(key, %error, "a stale tournament index key stays");
                    }
                }
            }
        }
        Ok(live)
    }

    /// Indexes the live events that have no index key (created by a version without the
    /// index). Run once at start-up; putting a key twice changes nothing.
    pub(crate) async fn index_live_tournaments(&self) -> Result<(), ActionError> {
        let store = &self.inner.store;
        // The one read of every live event outside the tick, once per start.
        let live = store
            .load_all::<TournamentRecord>(Tree::Tournaments)
            .await?;
        let mut batch = Batch::new();
        for (_, rec) in &live {
            let key = index_key(rec);
            if !store.contains(Tree::Claims, &key).await? {
                batch.put(Tree::Claims, &key, &rec.id)?;
            }
        }
        if !batch.is_empty() {
            store.write(batch).await?;
            tracing::info!("live tournaments indexed by chat");
        }
        Ok(())
    }
}
