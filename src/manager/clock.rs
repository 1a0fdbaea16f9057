//! The manager's time source: the system clock, or a manual one that tests move.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::watch;

/// A manual clock's time (unix milliseconds) and a signal for timers waiting on it.
#[derive(Debug)]
pub struct ManualTime {
    ms: AtomicU64,
    moved: watch::Sender<u64>,
}

/// The time source: the system clock, or a manual one for tests.
#[derive(Clone, Debug)]
pub enum Clock {
    System,
    Manual(Arc<ManualTime>),
}

impl Clock {
    /// A manual clock at `start` unix seconds.
    pub fn manual(start: u64) -> Clock {
        let ms = start.saturating_mul(1000);
        Clock::Manual(Arc::new(ManualTime {
            ms: AtomicU64::new(ms),
            moved: watch::channel(ms).0,
        }))
    }

    /// Unix seconds.
    pub fn now(&self) -> u64 {
        self.now_ms() / 1000
    }

    /// Unix milliseconds.
    pub fn now_ms(&self) -> u64 {
        match self {
            Clock::System => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
            Clock::Manual(t) => t.ms.load(Ordering::SeqCst),
        }
    }

    /// Moves a manual clock forward (no effect on the system clock).
    pub fn advance(&self, secs: u64) {
        self.advance_ms(secs.saturating_mul(1000));
    }

    /// Moves a manual clock forward by milliseconds, waking timers that are due.
    pub fn advance_ms(&self, ms: u64) {
        if let Clock::Manual(t) = self {
            let now = t.ms.fetch_add(ms, Ordering::SeqCst).saturating_add(ms);
            t.moved.send_replace(now);
        }
    }

    /// Resolves once the clock reads `at_ms` or later: a tokio sleep on the system clock,
    /// on a manual clock when a test has moved it that far.
    pub async fn sleep_until_ms(&self, at_ms: u64) {
        match self {
            Clock::System => {
                let wait = at_ms.saturating_sub(self.now_ms());
                tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
                // The system clock may lag tokio's timer by a millisecond or so.
                while self.now_ms() < at_ms {
                    tokio::time::sleep(std::time::Duration::from_millis(1)).await;
                }
            }
            Clock::Manual(t) => {
                let mut moved = t.moved.subscribe();
                while t.ms.load(Ordering::SeqCst) < at_ms {
                    if moved.changed().await.is_err() {
                        return;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_manual_timer_wakes_when_the_clock_reaches_it() {
        let clock = Clock::manual(100);
        assert_eq!(clock.now_ms(), 100_000);
        let waiting = tokio::spawn({
            let clock = clock.clone();
            async move { clock.sleep_until_ms(100_250).await }
        });
        clock.advance_ms(249);
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished());
        clock.advance_ms(1);
        tokio::time::timeout(std::time::Duration::from_secs(5), waiting)
            .await
            .expect("the timer wakes")
            .expect("the timer task ends");
        assert_eq!(clock.now(), 100);
    }
}
