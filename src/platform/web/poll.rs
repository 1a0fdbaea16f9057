//! What live game and tournament pages share to follow changes another process writes to
//! the store (no event reaches this process then): a poll, now and then, of the stored
//! revisions of what they follow (`live`, `tournament_live`).

use std::future::Future;
use std::sync::{Arc, Weak};
use std::time::Duration;

/// The stored revision a poll last saw of one followed record: `None` before the first
/// poll, `Some(None)` once the record has left its live tree.
pub(super) type Seen = Option<Option<u64>>;

/// Notes `stored` as seen; whether it differs from what the last poll saw. The first poll
/// counts as a change: a change between the page's first read and that poll would
/// otherwise go unseen (and reading a record that did not change sends nothing).
pub(super) fn moved(seen: &mut Seen, stored: Option<u64>) -> bool {
    let moved = *seen != Some(stored);
    *seen = Some(stored);
    moved
}

/// Runs `once` every `period` for as long as `followed` lives (the web server's life).
pub(super) async fn every<T, F, Fut>(followed: Weak<T>, period: Duration, once: F)
where
    F: Fn(Arc<T>) -> Fut,
    Fut: Future<Output = ()>,
{
    let mut ticks = tokio::time::interval(period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let Some(followed) = followed.upgrade() else {
            return;
        };
        once(followed).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_poll_and_every_change_count_as_moves() {
        let mut seen: Seen = None;
        assert!(moved(&mut seen, Some(3)), "the first poll");
        assert!(!moved(&mut seen, Some(3)));
        assert!(moved(&mut seen, Some(4)));
        assert!(moved(&mut seen, None), "left the live tree");
        assert!(!moved(&mut seen, None));
    }
}
