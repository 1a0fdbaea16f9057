//! One queue of posts per chat, served by its own task.
//!
//! A post may wait for the chat's flood allowance or sleep out a 429: that waiting happens
//! here, never in an update handler or the event loop, so one busy group delays only itself.
//! Handlers queue a job (the send, and what must follow it, such as attaching the message to
//! its game) and return. A queue is bounded: a job with the key of one already waiting
//! replaces it (only the newest board of a game matters), and past `OUTBOX_CAP` new jobs are
//! dropped (a chat that floods the bot loses its own replies, nothing else). A chat's task
//! ends, and its entry goes, as soon as its queue is empty, so memory follows the chats that
//! are busy now.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use std::collections::{HashMap, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex};

/// One post and what follows it.
pub type Job = BoxFuture<'static, ()>;

/// Jobs one chat may have waiting.
pub const OUTBOX_CAP: usize = 32;

struct Queued {
    key: Option<String>,
    job: Job,
}

/// A chat's queue, and the lock its task holds from sending a message until the message is
/// attached to its game or challenge (a press on the new message waits for it).
#[derive(Default)]
struct Queue {
    jobs: VecDeque<Queued>,
    posting: Arc<tokio::sync::Mutex<()>>,
}

/// A chat's entry exists exactly while its task runs (its queue may be empty while the
/// last job is being sent).
type Queues = Arc<Mutex<HashMap<i64, Queue>>>;

#[derive(Default)]
pub struct Outboxes {
    chats: Queues,
    /// Woken whenever a job is taken from a queue: `push_leaving_room` waits on it.
    taken: Arc<tokio::sync::Notify>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Outboxes {
    /// Queues `job` for `chat`. A waiting job with the same `key` is replaced by this one.
    /// Returns false if the queue was full and the job was dropped.
    pub fn push(&self, chat: i64, key: Option<String>, job: Job) -> bool {
        let mut chats = lock(&self.chats);
        let Some(queue) = chats.get_mut(&chat).map(|q| &mut q.jobs) else {
            let queue = Queue {
                jobs: VecDeque::from([Queued { key, job }]),
                ..Queue::default()
            };
            chats.insert(chat, queue);
            tokio::spawn(serve(self.chats.clone(), self.taken.clone(), chat));
            return true;
        };
        if let Some(k) = &key {
            if let Some(waiting) = queue.iter_mut().find(|q| q.key.as_ref() == Some(k)) {
                waiting.job = job;
                return true;
            }
        }
        if queue.len() >= OUTBOX_CAP {
            tracing::warn!(chat, "telegram: outbox full, post dropped");
            return false;
        }
        queue.push_back(Queued { key, job });
        true
    }

    /// Queues `job` for `chat` once its queue has more than `keep_free` places free, waiting
    /// for them if need be: for a worker with many posts for one chat (a tournament's
    /// hundred pairings at once), which must lose none of them and must leave the chat's
    /// other posts (replies, redraws) room not to be dropped. Only a worker of its own may
    /// wait here, never an update handler or the event loop.
    pub async fn push_leaving_room(
        &self,
        chat: i64,
        key: Option<String>,
        job: Job,
        keep_free: usize,
    ) {
        let keep_free = keep_free.min(OUTBOX_CAP - 1);
        loop {
            // Asked for before looking, so a job taken in between still wakes us.
            let taken = self.taken.notified();
            tokio::pin!(taken);
            taken.as_mut().enable();
            let waiting = lock(&self.chats).get(&chat).map_or(0, |q| q.jobs.len());
            if waiting + keep_free < OUTBOX_CAP {
                if !self.push(chat, key.clone(), job) {
                    tracing::warn!(chat, "telegram: outbox filled up at once; post dropped");
                }
                return;
            }
            taken.await;
        }
    }

    /// The lock `chat`'s task holds while a new message is being sent and attached; `None`
    /// when nothing is being posted there.
    pub fn posting(&self, chat: i64) -> Option<Arc<tokio::sync::Mutex<()>>> {
        lock(&self.chats).get(&chat).map(|q| q.posting.clone())
    }

    /// Waits until no message of `chat` is between being sent and being attached: a press
    /// on a message just posted must find it attached to its game. Never waits for a flood
    /// allowance (the lock is taken only around the request itself).
    pub async fn settled(&self, chat: i64) {
        if let Some(posting) = self.posting(chat) {
            drop(posting.lock().await);
        }
    }

    /// Chats with a queue (a task) now.
    pub fn chats(&self) -> usize {
        lock(&self.chats).len()
    }
}

/// Runs `chat`'s jobs in order until its queue is empty. A job that panics is logged and
/// the queue goes on.
async fn serve(chats: Queues, taken: Arc<tokio::sync::Notify>, chat: i64) {
    loop {
        let job = {
            let mut map = lock(&chats);
            let Some(queue) = map.get_mut(&chat) else {
                return;
            };
            match queue.jobs.pop_front() {
                Some(q) => q.job,
                None => {
                    map.remove(&chat);
                    return;
                }
            }
        };
        taken.notify_waiters();
        if let Err(panic) = AssertUnwindSafe(job).catch_unwind().await {
            let panic = super::guard::panic_text(panic.as_ref());
            tracing::error!(chat, panic, "telegram: a post panicked");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tokio::sync::{oneshot, Notify};

    fn record(log: &Arc<Mutex<Vec<&'static str>>>, what: &'static str) -> Job {
        let log = log.clone();
        Box::pin(async move { lock(&log).push(what) })
    }

    #[tokio::test]
    async fn a_chat_runs_its_jobs_in_order_merges_by_key_and_is_forgotten_when_idle() {
        let outboxes = Outboxes::default();
        let log = Arc::new(Mutex::new(vec![]));
        let gate = Arc::new(Notify::new());
        let (started_tx, started) = oneshot::channel();
        let g = gate.clone();
        // The first job waits (like a post waiting for its flood allowance).
        outboxes.push(
            1,
            None,
            Box::pin(async move {
                let _ = started_tx.send(());
                g.notified().await;
            }),
        );
        started.await.unwrap();
        outboxes.push(1, Some("board:g".into()), record(&log, "old board"));
        outboxes.push(1, None, record(&log, "reply"));
        outboxes.push(1, Some("board:g".into()), record(&log, "new board"));
        for _ in 0..OUTBOX_CAP {
            outboxes.push(1, None, record(&log, "flood"));
        }
        assert!(!outboxes.push(1, None, record(&log, "over")), "bounded");
        // Another chat is not held up by the first.
        outboxes.push(2, None, record(&log, "other chat"));
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(*lock(&log), ["other chat"]);
        assert_eq!(outboxes.chats(), 1, "chat 2's task is gone once done");
        gate.notify_one();
        tokio::time::sleep(Duration::from_millis(50)).await;
        let log = lock(&log).clone();
        assert_eq!(&log[1..3], ["new board", "reply"]);
        assert_eq!(log.len(), 3 + OUTBOX_CAP - 2);
        assert_eq!(outboxes.chats(), 0);
    }

    /// A worker with more posts than the queue holds loses none: it waits for room, and
    /// leaves the chat's other posts the room it was asked to.
    #[tokio::test]
    async fn a_patient_push_waits_for_room_and_leaves_some() {
        let outboxes = Arc::new(Outboxes::default());
        let log = Arc::new(Mutex::new(vec![]));
        let gate = Arc::new(Notify::new());
        let g = gate.clone();
        outboxes.push(4, None, Box::pin(async move { g.notified().await }));
        tokio::time::sleep(Duration::from_millis(20)).await;
        let keep_free = OUTBOX_CAP / 2;
        let worker = {
            let (outboxes, log) = (outboxes.clone(), log.clone());
            tokio::spawn(async move {
                for _ in 0..3 * OUTBOX_CAP {
                    let job = record(&log, "pairing");
                    outboxes.push_leaving_room(4, None, job, keep_free).await;
                }
            })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        // The first job holds the chat: the worker filled the queue up to the room it
        // leaves, and a reply still fits.
        let waiting = lock(&outboxes.chats).get(&4).map_or(0, |q| q.jobs.len());
        assert_eq!(waiting, OUTBOX_CAP - keep_free);
        assert!(outboxes.push(4, None, record(&log, "reply")), "room left");
        assert!(!worker.is_finished());
        gate.notify_one();
        tokio::time::timeout(Duration::from_secs(5), worker)
            .await
            .expect("the worker got through")
            .expect("no panic");
        tokio::time::sleep(Duration::from_millis(50)).await;
        let log = lock(&log).clone();
        assert_eq!(
            log.iter().filter(|w| **w == "pairing").count(),
            3 * OUTBOX_CAP
        );
        assert!(log.contains(&"reply"));
    }

    #[tokio::test]
    async fn a_panicking_job_does_not_stop_its_chat() {
        let outboxes = Outboxes::default();
        let log = Arc::new(Mutex::new(vec![]));
        outboxes.push(3, None, Box::pin(async { panic!("boom") }));
        outboxes.push(3, None, record(&log, "after"));
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(*lock(&log), ["after"]);
        assert_eq!(outboxes.chats(), 0);
    }
}
