//! One worker per game (or challenge), fed through a one-slot queue that keeps only the newest
//! value: only the newest board of a game matters, so ten events that arrive while an edit is
//! stuck behind a rate limit cost one more edit, not ten tasks waiting for the game.
//!
//! Each key has a `tokio::sync::watch` channel while its worker runs; the worker removes the
//! key when it finds nothing new, so the map holds only games with work in hand.

use futures::FutureExt as _;
use std::collections::HashMap;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// Runs a worker; a panic in it is logged and `forget` frees its queue slot for the next
/// event.
pub(super) fn spawn_worker<S: Send + Sync + 'static>(
    state: Arc<S>,
    id: String,
    work: impl Future<Output = ()> + Send + 'static,
    forget: fn(&S, &str),
) {
    tokio::spawn(async move {
        if AssertUnwindSafe(work).catch_unwind().await.is_err() {
            tracing::error!(id, "Discord: a redraw worker panicked");
            forget(&state, &id);
        }
    });
}

/// Whether a failed request may succeed later, so that a worker tries it again: Discord or
/// the network in trouble, not a refusal (a deleted message, a missing permission) that
/// would only repeat.
pub(super) fn transient(error: &serenity::Error) -> bool {
    use serenity::http::HttpError;
    match error {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(resp)) => {
            resp.status_code.is_server_error() || resp.status_code.as_u16() == 429
        }
        serenity::Error::Http(HttpError::Request(_)) => true,
        _ => false,
    }
}

pub(super) struct Latest<T> {
    senders: Mutex<HashMap<String, watch::Sender<T>>>,
}

impl<T> Default for Latest<T> {
    fn default() -> Self {
        Latest {
            senders: Mutex::new(HashMap::new()),
        }
    }
}

impl<T> Latest<T> {
    /// Hands `value` to the worker of `key`, replacing any value it has not looked at yet.
    /// Returns a receiver when there is no worker (or its task died): the caller starts one.
    pub(super) fn offer(&self, key: &str, value: T) -> Option<watch::Receiver<T>> {
        let mut senders = super::lock(&self.senders);
        if let Some(tx) = senders.get(key).filter(|tx| !tx.is_closed()) {
            tx.send_replace(value);
            return None;
        }
        let (tx, mut rx) = watch::channel(value);
        rx.mark_changed();
        senders.insert(key.to_string(), tx);
        Some(rx)
    }

    /// Like [`Latest::offer`], but folds `value` into the one the worker has not looked at
    /// yet with `merge` (work that must not be lost, such as new games to announce, piles
    /// up instead of being replaced). Returns a receiver when there is no worker.
    pub(super) fn merge(
        &self,
        key: &str,
        value: T,
        merge: impl FnOnce(&mut T, T),
    ) -> Option<watch::Receiver<T>> {
        let mut senders = super::lock(&self.senders);
        if let Some(tx) = senders.get(key).filter(|tx| !tx.is_closed()) {
            tx.send_modify(|pending| merge(pending, value));
            return None;
        }
        let (tx, mut rx) = watch::channel(value);
        rx.mark_changed();
        senders.insert(key.to_string(), tx);
        Some(rx)
    }

    /// The work piled up for the worker of `key` ([`Latest::merge`]), taken out so that the
    /// next merge starts afresh; `rx` is marked as seen in the same step, under the lock the
    /// merges take, so no merge falls between the two.
    pub(super) fn take(&self, key: &str, rx: &mut watch::Receiver<T>) -> T
    where
        T: Default,
    {
        let senders = super::lock(&self.senders);
        rx.borrow_and_update();
        let mut taken = T::default();
        if let Some(tx) = senders.get(key) {
            tx.send_if_modified(|pending| {
                taken = std::mem::take(pending);
                false
            });
        }
        taken
    }

    /// Called by a worker with nothing left to do: true, and the key is forgotten, unless a
    /// value arrived since the worker last looked (then it goes on). Offers take the same
    /// lock, so none can slip in between the check and the removal.
    pub(super) fn retire(&self, key: &str, rx: &watch::Receiver<T>) -> bool {
        let mut senders = super::lock(&self.senders);
        if rx.has_changed().unwrap_or(false) {
            return false;
        }
        senders.remove(key);
        true
    }

    /// Forgets a key whose worker is gone without retiring (it panicked).
    pub(super) fn forget_dead(&self, key: &str) {
        let mut senders = super::lock(&self.senders);
        if senders.get(key).is_some_and(watch::Sender::is_closed) {
            senders.remove(key);
        }
    }

    /// Keys with a live worker.
    pub(super) fn len(&self) -> usize {
        super::lock(&self.senders).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offers_to_a_busy_worker_collapse_into_the_newest() {
        let latest = Latest::default();
        let mut rx = latest
            .offer("g1", 1)
            .expect("a first offer starts a worker");
        assert_eq!(*rx.borrow_and_update(), 1);
        // The worker is busy: five more events for the game start nothing new.
        for v in 2..=6 {
            assert!(latest.offer("g1", v).is_none());
        }
        assert!(!latest.retire("g1", &rx), "there is newer work");
        assert_eq!(*rx.borrow_and_update(), 6, "only the newest is seen");
        assert!(latest.retire("g1", &rx));
        assert_eq!(latest.len(), 0, "an idle game holds no entry");
        assert!(
            latest.offer("g1", 7).is_some(),
            "the next event starts a worker"
        );
    }

    #[test]
    fn merged_offers_pile_up_until_taken() {
        let latest: Latest<Vec<u32>> = Latest::default();
        let mut rx = latest.merge("t1", vec![1], |a, b| a.extend(b)).unwrap();
        assert!(latest.merge("t1", vec![2], |a, b| a.extend(b)).is_none());
        assert!(latest.merge("t1", vec![3], |a, b| a.extend(b)).is_none());
        assert_eq!(latest.take("t1", &mut rx), vec![1, 2, 3]);
        assert!(latest.merge("t1", vec![4], |a, b| a.extend(b)).is_none());
        assert!(!latest.retire("t1", &rx), "more came in");
        assert_eq!(latest.take("t1", &mut rx), vec![4], "only what is new");
        assert!(latest.retire("t1", &rx));
    }

    #[test]
    fn a_dead_worker_is_replaced_and_forgotten() {
        let latest = Latest::default();
        let rx = latest.offer("g1", 1).unwrap();
        drop(rx); // the worker panicked
        latest.forget_dead("g1");
        assert_eq!(latest.len(), 0);
        let rx = latest.offer("g1", 2).unwrap();
        drop(rx);
        assert!(latest.offer("g1", 3).is_some(), "a closed slot is replaced");
        assert_eq!(latest.len(), 1);
    }
}
