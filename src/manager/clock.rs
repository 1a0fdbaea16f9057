//! The manager's time source: the system clock (kept to the database's clock when the store
//! has one every process shares), or a manual one that tests move.
//!
//! Why the database's clock: on a shared database several processes time the same games.
//! A move written by one host and a flag timer running on another must measure with one
//! clock, or a flag falls early or late by the hosts' difference. Each process therefore
//! measures the offset between its own clock and the database's (the midpoint of a round
//! trip, like NTP; error at most half the round trip) at start and every few seconds, and
//! reads the time as its monotonic clock plus that offset. Between two measurements a jump
//! of the host's wall clock changes nothing.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::watch;

/// A round trip slower than this gives no sample: its midpoint could be off by more than
/// half of it.
pub(super) const MAX_SYNC_ROUND_TRIP_MS: u64 = 500;

/// A measurement that moves the clock by this much or more wakes the sleeping timers, which
/// then sleep again for what is left by the new time.
const TIMER_WAKE_ON_MOVE_MS: u64 = 20;

/// The system clock: a monotonic clock plus an offset, which starts as the host's wall
/// clock (plus a test's skew) and follows the database's clock once measured.
#[derive(Debug)]
pub struct SyncedTime {
    origin: Instant,
    /// Unix ms at `origin`.
    offset_ms: AtomicI64,
    /// Whether the offset came from the database (`sync`).
    synced: AtomicBool,
    /// Wakes timers when a measurement moved the clock noticeably.
    moved: watch::Sender<()>,
}

impl SyncedTime {
    fn new(skew_ms: i64) -> SyncedTime {
        let origin = Instant::now();
        SyncedTime {
            origin,
            offset_ms: AtomicI64::new(wall_ms(skew_ms)),
            synced: AtomicBool::new(false),
            moved: watch::channel(()).0,
        }
    }

    fn elapsed_ms(&self) -> i64 {
        i64::try_from(self.origin.elapsed().as_millis()).unwrap_or(i64::MAX)
    }

    fn now_ms(&self) -> u64 {
        let ms = self
            .elapsed_ms()
            .saturating_add(self.offset_ms.load(Ordering::SeqCst));
        u64::try_from(ms).unwrap_or(0)
    }
}

/// The host's wall clock in unix ms, off by `skew_ms`.
fn wall_ms(skew_ms: i64) -> i64 {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    ms.saturating_add(skew_ms)
}

/// A manual clock's time (unix milliseconds) and a signal for timers waiting on it.
#[derive(Debug)]
pub struct ManualTime {
    ms: AtomicU64,
    moved: watch::Sender<u64>,
}

/// The time source: the system clock, or a manual one for tests.
#[derive(Clone, Debug)]
pub enum Clock {
    System(Arc<SyncedTime>),
    Manual(Arc<ManualTime>),
}

impl Clock {
    /// The host's clock, until the manager measures the database's.
    pub fn system() -> Clock {
        Clock::System(Arc::new(SyncedTime::new(0)))
    }

    /// A system clock whose host pretends to be `skew_ms` off (tests of several hosts).
    pub fn system_skewed(skew_ms: i64) -> Clock {
        Clock::System(Arc::new(SyncedTime::new(skew_ms)))
    }

    /// Whether the time follows the database's clock (measured at least once).
    pub fn is_synced(&self) -> bool {
        matches!(self, Clock::System(t) if t.synced.load(Ordering::SeqCst))
    }

    /// Takes one measurement of the shared clock: `shared_ms` was read between `sent` and
    /// `received` (instants of this process). A round trip slower than
    /// `MAX_SYNC_ROUND_TRIP_MS` is ignored. Returns the new offset's change in ms.
    pub(super) fn sync(&self, sent: Instant, received: Instant, shared_ms: u64) -> Option<i64> {
        let Clock::System(t) = self else { return None };
        let trip = received.saturating_duration_since(sent);
        if trip.as_millis() > u128::from(MAX_SYNC_ROUND_TRIP_MS) {
            return None;
        }
        // The database read its clock, on average, half-way through the round trip.
        let midpoint = sent.saturating_duration_since(t.origin) + trip / 2;
        let midpoint_ms = i64::try_from(midpoint.as_millis()).unwrap_or(i64::MAX);
        let shared = i64::try_from(shared_ms).unwrap_or(i64::MAX);
        let offset = shared.saturating_sub(midpoint_ms);
        let old = t.offset_ms.swap(offset, Ordering::SeqCst);
        t.synced.store(true, Ordering::SeqCst);
        let change = offset.saturating_sub(old);
        if change.unsigned_abs() >= TIMER_WAKE_ON_MOVE_MS {
            t.moved.send_replace(());
        }
        Some(change)
    }

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
            Clock::System(t) => t.now_ms(),
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
            Clock::System(t) => {
                let mut moved = t.moved.subscribe();
                loop {
                    let now = t.now_ms();
                    if now >= at_ms {
                        return;
                    }
                    // The clock may lag tokio's timer by a millisecond; a measurement may
                    // move it either way meanwhile.
                    let wait = std::time::Duration::from_millis((at_ms - now).max(1));
                    tokio::select! {
                        () = tokio::time::sleep(wait) => {}
                        changed = moved.changed() => {
                            if changed.is_err() {
                                tokio::time::sleep(wait).await;
                            }
                        }
                    }
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

    #[test]
    fn a_measurement_sets_the_time_to_the_shared_clock_at_the_round_trips_midpoint() {
        let clock = Clock::system_skewed(5_000);
        let sent = std::time::Instant::now();
        let received = sent + std::time::Duration::from_millis(40);
        let shared = u64::try_from(wall_ms(0)).unwrap_or(0);
        let change = clock.sync(sent, received, shared).expect("a sample");
        // The host was 5 s ahead; the database read its clock 20 ms into the trip.
        assert!((-5_100..-4_900).contains(&change), "{change}");
        assert!(clock.is_synced());
        let off = clock
            .now_ms()
            .abs_diff(u64::try_from(wall_ms(0)).unwrap_or(0));
        assert!(off < 100, "{off} ms off the shared clock");
    }

    #[test]
    fn a_slow_round_trip_gives_no_measurement() {
        let clock = Clock::system_skewed(5_000);
        let sent = std::time::Instant::now();
        let received = sent + std::time::Duration::from_millis(MAX_SYNC_ROUND_TRIP_MS + 1);
        assert_eq!(clock.sync(sent, received, 0), None);
        assert!(!clock.is_synced());
        assert_eq!(Clock::manual(1).sync(sent, sent, 0), None);
    }

    #[tokio::test]
    async fn a_timer_wakes_early_when_a_measurement_moves_the_clock_forward() {
        let clock = Clock::system();
        let at = clock.now_ms() + 60_000;
        let waiting = tokio::spawn({
            let clock = clock.clone();
            async move { clock.sleep_until_ms(at).await }
        });
        tokio::task::yield_now().await;
        let now = std::time::Instant::now();
        clock.sync(now, now, at + 10);
        tokio::time::timeout(std::time::Duration::from_secs(5), waiting)
            .await
            .expect("the timer wakes")
            .expect("the timer task ends");
    }
}
