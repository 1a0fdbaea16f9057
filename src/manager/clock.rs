//! The manager's time source: the system clock, or a manual one that tests move.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The time source: the system clock, or a manual one for tests.
#[derive(Clone, Debug)]
pub enum Clock {
    System,
    Manual(Arc<AtomicU64>),
}

impl Clock {
    pub fn manual(start: u64) -> Clock {
        Clock::Manual(Arc::new(AtomicU64::new(start)))
    }

    /// Unix seconds.
    pub fn now(&self) -> u64 {
        match self {
            Clock::System => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            Clock::Manual(t) => t.load(Ordering::SeqCst),
        }
    }

    /// Moves a manual clock forward (no effect on the system clock).
    pub fn advance(&self, secs: u64) {
        if let Clock::Manual(t) = self {
            t.fetch_add(secs, Ordering::SeqCst);
        }
    }
}
