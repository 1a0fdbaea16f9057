//! Discord's answer deadline and panics in the interaction handler.
//!
//! Discord forgets an interaction that is not answered within 3 s of being sent. The answer
//! waits for the manager (a durable write) and for the board to be drawn; when either is
//! slow (a busy disk, a loaded machine) the interaction is deferred [`DEFER_AFTER`] after it
//! arrived, and the answer edits the deferred response later (`answer.rs`).
//!
//! A panic in the handling is caught here, logged, and answered with a short apology if the
//! user has no answer yet; serenity runs each event in its own task, so without this the user
//! would only see "the application did not respond".

use futures::FutureExt as _;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::time::Duration;
use tokio::time::Instant;

/// When an answer not ready yet is deferred: a second of margin before Discord's 3 s for the
/// gateway's delivery and the deferral's own trip.
pub(super) const DEFER_AFTER: Duration = Duration::from_secs(2);

/// What the guard needs of an interaction's answerer.
pub(super) trait Guarded {
    /// Sends the deferred response, unless the interaction is answered already.
    async fn defer(&self);
    /// After a panic: the generic error text, unless the user has their answer.
    async fn fail(&self);
}

/// Runs the handling of one interaction that arrived at `arrived`: defers it when no
/// answer went out within [`DEFER_AFTER`], and turns a panic into a log line and an answer.
pub(super) async fn guarded(
    answer: &impl Guarded,
    arrived: Instant,
    work: impl Future<Output = ()>,
) {
    let work = AssertUnwindSafe(work).catch_unwind();
    tokio::pin!(work);
    let outcome = tokio::select! {
        outcome = &mut work => outcome,
        () = tokio::time::sleep_until(arrived + DEFER_AFTER) => {
            // The work goes on while the deferral is sent; the answerer orders the two.
            let ((), outcome) = tokio::join!(answer.defer(), &mut work);
            outcome
        }
    };
    if let Err(panic) = outcome {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        tracing::error!(panic = what, "Discord: the interaction handler panicked");
        answer.fail().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Records what the guard asked for, and when (tokio's paused clock).
    #[derive(Default)]
    struct Recorder {
        log: Mutex<Vec<(&'static str, Duration)>>,
        answered: Mutex<bool>,
        start: Option<Instant>,
    }

    impl Recorder {
        fn new() -> Recorder {
            Recorder {
                start: Some(Instant::now()),
                ..Recorder::default()
            }
        }
        fn note(&self, what: &'static str) {
            let at = self.start.map(|s| s.elapsed()).unwrap_or_default();
            self.log.lock().unwrap().push((what, at));
        }
        fn answer(&self) {
            *self.answered.lock().unwrap() = true;
            self.note("answer");
        }
        fn log(&self) -> Vec<(&'static str, Duration)> {
            self.log.lock().unwrap().clone()
        }
    }

    impl Guarded for Recorder {
        async fn defer(&self) {
            if !*self.answered.lock().unwrap() {
                self.note("defer");
            }
        }
        async fn fail(&self) {
            if !*self.answered.lock().unwrap() {
                self.note("fail");
            }
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_slow_answer_is_deferred_after_two_seconds_then_given() {
        let r = Recorder::new();
        guarded(&r, Instant::now(), async {
            tokio::time::sleep(Duration::from_millis(4500)).await; // a slow disk
            r.answer();
        })
        .await;
        assert_eq!(
            r.log(),
            [
                ("defer", Duration::from_secs(2)),
                ("answer", Duration::from_millis(4500))
            ]
        );
    }

    #[tokio::test(start_paused = true)]
    async fn the_deadline_counts_from_arrival() {
        let r = Recorder::new();
        let arrived = Instant::now();
        tokio::time::sleep(Duration::from_millis(1500)).await; // queued before the handler ran
        guarded(&r, arrived, async {
            tokio::time::sleep(Duration::from_millis(800)).await;
            r.answer();
        })
        .await;
        assert_eq!(r.log()[0], ("defer", Duration::from_secs(2)));
    }

    #[tokio::test(start_paused = true)]
    async fn a_prompt_answer_is_not_deferred() {
        let r = Recorder::new();
        guarded(&r, Instant::now(), async {
            tokio::time::sleep(Duration::from_millis(300)).await;
            r.answer();
        })
        .await;
        tokio::time::sleep(Duration::from_secs(5)).await;
        assert_eq!(r.log(), [("answer", Duration::from_millis(300))]);
    }

    #[tokio::test(start_paused = true)]
    async fn a_panic_is_caught_and_answered() {
        let r = Recorder::new();
        guarded(&r, Instant::now(), async {
            tokio::time::sleep(Duration::from_millis(100)).await;
            panic!("a bug in a handler");
        })
        .await;
        assert_eq!(r.log(), [("fail", Duration::from_millis(100))]);
        // After the answer went out, a panic has nothing more to say.
        let r = Recorder::new();
        guarded(&r, Instant::now(), async {
            r.answer();
            panic!("a bug after the answer");
        })
        .await;
        assert_eq!(r.log(), [("answer", Duration::ZERO)]);
    }

    #[tokio::test(start_paused = true)]
    async fn a_panic_after_the_deferral_still_answers() {
        let r = Recorder::new();
        guarded(&r, Instant::now(), async {
            tokio::time::sleep(Duration::from_secs(3)).await;
            panic!("slow, then a bug");
        })
        .await;
        assert_eq!(
            r.log(),
            [
                ("defer", Duration::from_secs(2)),
                ("fail", Duration::from_secs(3))
            ]
        );
    }
}
