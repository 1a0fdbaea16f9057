//! Group commit: one flusher task flushes whatever was written, every writer waits (with a
//! time limit) for a flush that started after its write; a failed flush fails the store.

use super::StoreError;
#[cfg(feature = "test-support")]
use std::sync::atomic::AtomicBool;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::sync::{watch, Notify};

/// Makes everything written so far durable; blocking (it runs on tokio's blocking pool).
/// Production uses sled's flush; tests wrap it to make flushes slow or fail
/// (`Store::with_flusher`, with the `test-support` feature).
pub trait Flusher: Send + Sync + 'static {
    fn flush(&self) -> Result<(), StoreError>;
}

struct SledFlusher(sled::Db);

impl Flusher for SledFlusher {
    fn flush(&self) -> Result<(), StoreError> {
        self.0.flush()?;
        Ok(())
    }
}

pub(super) fn sled_flusher(db: sled::Db) -> Arc<dyn Flusher> {
    Arc::new(SledFlusher(db))
}

/// A flusher for tests: sled's own flush behind an adjustable delay (a slow disk) and an
/// injectable I/O error (a failing disk). See `Store::faulty`.
#[cfg(feature = "test-support")]
pub struct FaultyFlusher {
    inner: Arc<dyn Flusher>,
    delay_ms: AtomicU64,
    fail: AtomicBool,
}

#[cfg(feature = "test-support")]
impl FaultyFlusher {
    /// Every flush from now on first sleeps this long.
    pub fn set_delay(&self, delay: Duration) {
        let ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX);
        self.delay_ms.store(ms, Ordering::SeqCst);
    }

    /// Every flush from now on fails with an I/O error (after the delay).
    pub fn set_failing(&self, failing: bool) {
        self.fail.store(failing, Ordering::SeqCst);
    }
}

#[cfg(feature = "test-support")]
impl Flusher for FaultyFlusher {
    fn flush(&self) -> Result<(), StoreError> {
        std::thread::sleep(Duration::from_millis(self.delay_ms.load(Ordering::SeqCst)));
        if self.fail.load(Ordering::SeqCst) {
            return Err(std::io::Error::other("injected: no space left on device").into());
        }
        self.inner.flush()
    }
}

#[cfg(feature = "test-support")]
impl super::Store {
    /// A store whose flushes go through a [`FaultyFlusher`] (for tests); `dir` `None` is a
    /// temporary store.
    pub fn faulty(
        dir: Option<&std::path::Path>,
        options: &super::StoreOptions,
    ) -> Result<(super::Store, Arc<FaultyFlusher>), StoreError> {
        let mut handle = None;
        let store = super::Store::with_flusher(dir, options, |inner| {
            let faulty = Arc::new(FaultyFlusher {
                inner,
                delay_ms: AtomicU64::new(0),
                fail: AtomicBool::new(false),
            });
            handle = Some(faulty.clone());
            faulty
        })?;
        match handle {
            Some(faulty) => Ok((store, faulty)),
            None => Err(StoreError::Closed),
        }
    }
}

/// What the flusher publishes to waiting writers.
#[derive(Clone, Debug, Default)]
struct Durable {
    /// Every write with a sequence number up to this is on disk.
    seq: u64,
    /// Set by the first failed flush, never cleared: sled keeps an I/O error forever.
    failed: Option<Arc<str>>,
}

/// Shared state between writers and the flusher task.
pub(super) struct Committer {
    pub(super) written: AtomicU64,
    wake: Arc<Notify>,
    durable: watch::Sender<Durable>,
    timeout: Duration,
}

impl Committer {
    /// The committer and its flusher task, which ends when the committer is dropped.
    pub(super) fn start(flusher: Arc<dyn Flusher>, timeout: Duration) -> Arc<Committer> {
        let (durable, _) = watch::channel(Durable::default());
        let committer = Arc::new(Committer {
            written: AtomicU64::new(0),
            wake: Arc::new(Notify::new()),
            durable,
            timeout,
        });
        let wake = committer.wake.clone();
        tokio::spawn(flush_loop(flusher, wake, Arc::downgrade(&committer)));
        committer
    }

    /// Waits until every write made so far is on disk, at most `timeout`. Writes of other
    /// callers made in the meantime ride along in the same flush (group commit).
    pub(super) async fn commit(&self) -> Result<(), StoreError> {
        let target = self.written.load(Ordering::SeqCst);
        let mut rx = self.durable.subscribe();
        if covered(&rx.borrow_and_update(), target)? {
            return Ok(());
        }
        self.wake.notify_one();
        let wait = async {
            loop {
                rx.changed().await.map_err(|_| StoreError::Closed)?;
                if covered(&rx.borrow_and_update(), target)? {
                    return Ok(());
                }
            }
        };
        match tokio::time::timeout(self.timeout, wait).await {
            Ok(result) => result,
            Err(_) => {
                let ms = u64::try_from(self.timeout.as_millis()).unwrap_or(u64::MAX);
                tracing::warn!(timeout_ms = ms, "commit timed out waiting for the disk");
                Err(StoreError::CommitTimeout { ms })
            }
        }
    }

    /// Resolves with the cause of the first failed flush (never, if none fails).
    pub(super) fn failed(&self) -> impl std::future::Future<Output = String> + Send + 'static {
        let mut rx = self.durable.subscribe();
        async move {
            let cause = match rx.wait_for(|d| d.failed.is_some()).await {
                Ok(d) => d.failed.clone(),
                Err(_) => None,
            };
            match cause {
                Some(cause) => cause.to_string(),
                // The store is gone without failing: nothing will ever fail.
                None => std::future::pending().await,
            }
        }
    }
}

/// Whether `target` is durable in `state`; an error once the store has failed.
fn covered(state: &Durable, target: u64) -> Result<bool, StoreError> {
    if let Some(cause) = &state.failed {
        return Err(StoreError::Failed {
            cause: cause.to_string(),
        });
    }
    Ok(state.seq >= target)
}

/// The group-commit loop: each wake-up flushes everything written so far and tells the
/// waiters. Ends when the store is dropped, or after the first failed flush (the store is
/// then failed for good).
async fn flush_loop(flusher: Arc<dyn Flusher>, wake: Arc<Notify>, committer: Weak<Committer>) {
    loop {
        // Wait for a writer, but look again now and then so a dropped store ends the task
        // (and lets go of sled's file lock).
        let woken = tokio::time::timeout(Duration::from_secs(1), wake.notified()).await;
        let Some(c) = committer.upgrade() else { return };
        if woken.is_err() {
            continue;
        }
        let target = c.written.load(Ordering::SeqCst);
        let f = flusher.clone();
        let cause = match tokio::task::spawn_blocking(move || f.flush()).await {
            Ok(Ok(())) => {
                c.durable.send_modify(|d| d.seq = d.seq.max(target));
                continue;
            }
            Ok(Err(error)) => error.to_string(),
            Err(join) => format!("the flush task failed: {join}"),
        };
        tracing::error!(cause, "store flush failed; every later write is refused");
        c.durable.send_modify(|d| d.failed = Some(cause.into()));
        return;
    }
}
