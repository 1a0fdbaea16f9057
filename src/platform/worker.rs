//! The one worker machinery of every adapter: one task per key (a game, a challenge, a
//! tournament) with something to show, fed through a one-slot queue. Discord's and
//! Telegram's game boards, challenges and tournament messages are all drawn this way, so a
//! shared event loop never waits for a post, a flood limit or a 429, a burst of changes
//! costs one drawing of the newest, and one key's work is done in order.
//!
//! Each key has a `tokio::sync::watch` channel while its worker runs. What is offered while
//! the worker is busy folds into the one waiting value (replaced by the newest, or merged
//! where nothing may be lost, such as games to announce). A worker with nothing left to do
//! lingers for news as long as its adapter asks, then removes its key, so the map holds only
//! keys with work in hand (memory stays flat however many games were ever shown).

use futures::FutureExt as _;
use std::collections::HashMap;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::watch;

/// The workers of one kind of key, with their waiting values.
pub struct Workers<T> {
    senders: Arc<Mutex<HashMap<String, watch::Sender<T>>>>,
    /// What the logs call these workers ("Discord game", "Telegram tournament").
    label: &'static str,
}

impl<T> Clone for Workers<T> {
    fn clone(&self) -> Self {
        Workers {
            senders: self.senders.clone(),
            label: self.label,
        }
    }
}

impl<T: Send + Sync + 'static> Workers<T> {
    pub fn new(label: &'static str) -> Self {
        Workers {
            senders: Arc::new(Mutex::new(HashMap::new())),
            label,
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, watch::Sender<T>>> {
        self.senders.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Hands `value` to the worker of `key`, replacing any value it has not looked at yet.
    /// Returns a receiver when there is no worker (or its task died): the caller starts one
    /// with [`Workers::spawn`].
    pub fn offer(&self, key: &str, value: T) -> Option<watch::Receiver<T>> {
        self.merge(key, value, |waiting, value| {
            *waiting = value;
            true
        })
    }

    /// Like [`Workers::offer`], but folds `value` into the waiting one with `merge`, which
    /// says whether it changed anything (an older view does not replace a newer one; work
    /// that must not be lost piles up). Returns a receiver when there is no worker.
    pub fn merge(
        &self,
        key: &str,
        value: T,
        merge: impl FnOnce(&mut T, T) -> bool,
    ) -> Option<watch::Receiver<T>> {
        let mut senders = self.lock();
        if let Some(tx) = senders.get(key).filter(|tx| !tx.is_closed()) {
            tx.send_if_modified(|waiting| merge(waiting, value));
            return None;
        }
        let (tx, mut rx) = watch::channel(value);
        rx.mark_changed();
        senders.insert(key.to_string(), tx);
        Some(rx)
    }

    /// The work piled up for the worker of `key` ([`Workers::merge`]), taken out so that the
    /// next merge starts afresh; `rx` is marked as seen in the same step, under the lock the
    /// merges take, so no merge falls between the two.
    pub fn take(&self, key: &str, rx: &mut watch::Receiver<T>) -> T
    where
        T: Default,
    {
        let senders = self.lock();
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
    pub fn retire(&self, key: &str, rx: &watch::Receiver<T>) -> bool {
        let mut senders = self.lock();
        if rx.has_changed().unwrap_or(false) {
            return false;
        }
        senders.remove(key);
        true
    }

    /// Whether the worker of `key` has more to do: at once when something new is waiting,
    /// else after up to `linger` of waiting for news (a game whose next move is seconds
    /// away keeps its worker); false, with the key forgotten, when nothing came.
    pub async fn next(&self, key: &str, rx: &mut watch::Receiver<T>, linger: Duration) -> bool {
        if rx.has_changed().unwrap_or(false) {
            return true;
        }
        if !linger.is_zero()
            && matches!(tokio::time::timeout(linger, rx.changed()).await, Ok(Ok(())))
        {
            return true;
        }
        !self.retire(key, rx)
    }

    /// Runs the worker of `key`. A panic in it is logged and frees the key for the next
    /// offer, which starts a new worker.
    pub fn spawn(&self, key: String, work: impl Future<Output = ()> + Send + 'static) {
        let workers = self.clone();
        tokio::spawn(async move {
            if AssertUnwindSafe(work).catch_unwind().await.is_err() {
                tracing::error!(key, workers = workers.label, "a worker panicked");
                workers.forget_dead(&key);
            }
        });
    }

    /// Forgets a key whose worker is gone without retiring (it panicked).
    fn forget_dead(&self, key: &str) {
        let mut senders = self.lock();
        if senders.get(key).is_some_and(watch::Sender::is_closed) {
            senders.remove(key);
        }
    }

    /// Keys with a live worker.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offers_to_a_busy_worker_collapse_into_the_newest() {
        let workers = Workers::new("test");
        let mut rx = workers
            .offer("g1", 1)
            .expect("a first offer starts a worker");
        assert_eq!(*rx.borrow_and_update(), 1);
        // The worker is busy: five more events for the game start nothing new.
        for v in 2..=6 {
            assert!(workers.offer("g1", v).is_none());
        }
        assert!(!workers.retire("g1", &rx), "there is newer work");
        assert_eq!(*rx.borrow_and_update(), 6, "only the newest is seen");
        assert!(workers.retire("g1", &rx));
        assert!(workers.is_empty(), "an idle game holds no entry");
        assert!(
            workers.offer("g1", 7).is_some(),
            "the next event starts a worker"
        );
    }

    #[test]
    fn a_merge_that_changes_nothing_wakes_nobody() {
        let workers = Workers::new("test");
        let mut rx = workers.offer("g1", 5).unwrap();
        rx.borrow_and_update();
        let newer = |waiting: &mut u32, new: u32| {
            let replace = new >= *waiting;
            if replace {
                *waiting = new;
            }
            replace
        };
        assert!(workers.merge("g1", 3, newer).is_none());
        assert!(workers.retire("g1", &rx), "an older value is no news");
        let mut rx = workers.merge("g1", 3, newer).expect("a new worker");
        assert!(workers.merge("g1", 8, newer).is_none());
        assert!(!workers.retire("g1", &rx));
        assert_eq!(*rx.borrow_and_update(), 8);
    }

    #[test]
    fn merged_offers_pile_up_until_taken() {
        let workers: Workers<Vec<u32>> = Workers::new("test");
        let pile = |a: &mut Vec<u32>, b: Vec<u32>| {
            a.extend(b);
            true
        };
        let mut rx = workers.merge("t1", vec![1], pile).unwrap();
        assert!(workers.merge("t1", vec![2], pile).is_none());
        assert!(workers.merge("t1", vec![3], pile).is_none());
        assert_eq!(workers.take("t1", &mut rx), vec![1, 2, 3]);
        assert!(workers.merge("t1", vec![4], pile).is_none());
        assert!(!workers.retire("t1", &rx), "more came in");
        assert_eq!(workers.take("t1", &mut rx), vec![4], "only what is new");
        assert!(workers.retire("t1", &rx));
    }

    #[tokio::test]
    async fn a_panicked_worker_is_forgotten_and_replaced() {
        let workers = Workers::new("test");
        let rx = workers.offer("g1", 1).unwrap();
        let (done_tx, done_rx) = tokio::sync::oneshot::channel::<()>();
        workers.spawn("g1".into(), async move {
            let _rx = rx;
            let _done = done_tx;
            panic!("a drawing bug");
        });
        let _ = done_rx.await;
        // The key is freed once the panic is caught; a new offer starts a new worker.
        for _ in 0..100 {
            if workers.is_empty() {
                break;
            }
            tokio::task::yield_now().await;
        }
        assert!(workers.is_empty());
        assert!(workers.offer("g1", 2).is_some());
    }

    #[tokio::test]
    async fn a_lingering_worker_takes_news_and_retires_when_quiet() {
        let workers = Workers::new("test");
        let mut rx = workers.offer("g1", 1).unwrap();
        assert!(
            workers.next("g1", &mut rx, Duration::ZERO).await,
            "news at once"
        );
        rx.borrow_and_update();
        let offering = workers.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            offering.offer("g1", 2);
        });
        // The news comes while the worker lingers (long enough for any loaded machine).
        assert!(workers.next("g1", &mut rx, Duration::from_secs(30)).await);
        assert_eq!(*rx.borrow_and_update(), 2);
        assert!(!workers.next("g1", &mut rx, Duration::from_millis(50)).await);
        assert!(workers.is_empty(), "a quiet key is forgotten");
    }
}
