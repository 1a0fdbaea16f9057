//! Spectators' boards (issue 31, item 13). A board posted for someone who does not play the
//! game (`/board <game>` by a spectator) is kept apart from the game's record, in `Claims`
//! under `watch:<game>`: it never pushes one of the players' boards out of the game's
//! places (a spectator's board only ever displaces another spectator's), and, but for the
//! first, never changes the game's revision (a change that lost a race only to such a
//! write is tried again, `update_game_charged`, so the players' next press in another
//! process is not refused as stale either).
//!
//! Spectators' boards are redrawn like the players' (a game's view lists both): every
//! process that changes a game reads the list again after the change when its copy is older
//! than `FRESH_MS`, so a board a spectator got from another process is redrawn from a few
//! seconds after it was posted. The list expires `KEEP_SECS` after its last board. Only a
//! game marked watched (`GameRecord::watched`, set by its first spectator's board: the one
//! change of the game's revision spectators make) has a list to read, so a change of a game
//! nobody watches reads nothing more.

use super::slots::durable;
use super::*;
use crate::store::{Batch, Expect, StoreError};

/// How old a process's copy of a game's spectators' boards may be when the game changes.
const FRESH_MS: u64 = 5_000;
/// How long a game's spectators' boards are redrawn after the last one was posted.
const KEEP_SECS: u64 = 7 * 86_400;
/// Attempts of a spectator's board against other spectators' at the same moment.
const ATTEMPTS: u32 = 4;

fn watch_key(game: &str) -> String {
    format!("watch:{game}")
}

/// What a process knows of a game's spectators' boards.
#[derive(Clone, Debug, Default)]
pub struct Watchers {
    /// The newest spectator's board per place, at most `MESSAGE_PLACES` places.
    pub places: Vec<MessageRef>,
    /// When they were read from the store (the manager's clock, ms); `None`: never.
    pub read_ms: Option<u64>,
}

impl Watchers {
    /// `own` (the game's places) with these spectators' boards: one board per place, a
    /// spectator's only where it is the newer message there (messages are numbered in the
    /// order they were posted in their chat or channel, on both platforms).
    pub fn merged(&self, own: &[MessageRef]) -> Vec<MessageRef> {
        let mut all = own.to_vec();
        for board in &self.places {
            let same =
                |m: &&mut MessageRef| m.platform == board.platform && m.place() == board.place();
            match all.iter_mut().find(same) {
                Some(m) if is_newer(board, m) => *m = board.clone(),
                Some(_) => {}
                None => all.push(board.clone()),
            }
        }
        all
    }
}

/// Whether `a` was posted after `b` in the same place (false when either is not numbered).
fn is_newer(a: &MessageRef, b: &MessageRef) -> bool {
    let number = |m: &MessageRef| {
        m.id.rsplit_once(':')
            .and_then(|(_, n)| n.parse::<u64>().ok())
    };
    matches!((number(a), number(b)), (Some(x), Some(y)) if x > y)
}

impl Manager {
    /// Keeps `msg` as a spectator's board of `game`, in the shared list (not the game's
    /// record).
    pub(super) async fn watch(&self, game: &mut Game, msg: MessageRef) -> Result<(), ActionError> {
        let key = watch_key(&game.rec.id);
        let store = &self.inner.store;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let (mut places, expect) = match store.get_versioned(Tree::Claims, &key).await {
                Ok(Some(found)) => (found.value, Expect::Revision(found.revision)),
                Ok(None) => (Vec::new(), Expect::Absent),
                Err(StoreError::Decode { .. }) => (Vec::new(), Expect::Any),
                Err(error) => return Err(error.into()),
            };
            if add_message(&mut places, msg.clone()) {
                let mut batch = Batch::new();
                batch.put_checked(Tree::Claims, &key, &places, expect)?;
                batch.expire_at(Tree::Claims, &key, self.now().saturating_add(KEEP_SECS));
                match store.write(batch).await {
                    Err(StoreError::Conflict { .. }) if attempt < ATTEMPTS => continue,
                    result => {
                        durable(result)?;
                    }
                }
            }
            game.watchers = Watchers {
                places,
                read_ms: Some(self.now_ms()),
            };
            return Ok(());
        }
    }

    /// Reads a game's spectators' boards again when this process's copy is older than
    /// `FRESH_MS`; a game no spectator's board was ever kept for has none to read. A failed
    /// read keeps the copy: only a spectator's board misses a redraw.
    pub(super) async fn refresh_watchers(&self, game: &mut Game) {
        let now = self.now_ms();
        let fresh = game
            .watchers
            .read_ms
            .is_some_and(|at| now.saturating_sub(at) < FRESH_MS);
        if fresh || !game.rec.watched {
            return;
        }
        let key = watch_key(&game.rec.id);
        match self
            .inner
            .store
            .get::<Vec<MessageRef>>(Tree::Claims, &key)
            .await
        {
            Ok(places) => {
                game.watchers = Watchers {
                    places: places.unwrap_or_default(),
                    read_ms: Some(now),
                }
            }
            Err(error) => {
                tracing::warn!(game = game.rec.id, %error, "spectators' boards not read")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(id: &str) -> MessageRef {
        MessageRef {
            platform: Platform::Telegram,
            id: id.to_string(),
        }
    }

    #[test]
    fn a_spectators_board_is_listed_only_where_it_is_the_newer() {
        let own = [msg("-100:50"), msg("-200:7")];
        let watchers = Watchers {
            places: vec![msg("-100:60"), msg("-200:3"), msg("300:1")],
            read_ms: Some(0),
        };
        assert_eq!(
            watchers.merged(&own),
            [msg("-100:60"), msg("-200:7"), msg("300:1")]
        );
        assert_eq!(Watchers::default().merged(&own), own);
    }
}
