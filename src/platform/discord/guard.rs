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

/// Runs the handling of one interaction: defers it when no answer went out by `defer_at`
/// (its arrival + [`DEFER_AFTER`]), and turns a panic into a log line and an answer.
pub(super) async fn guarded(
    answer: &impl Guarded,
    defer_at: Instant,
    work: impl Future<Output = ()>,
) {
    let work = AssertUnwindSafe(work).catch_unwind();
    tokio::pin!(work);
    let outcome = tokio::select! {
        outcome = &mut work => outcome,
        () = tokio::time::sleep_until(defer_at) => {
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

    /// Records what the guard asked for, in order.
    #[derive(Default)]
    struct Recorder {
        log: Mutex<Vec<&'static str>>,
        answered: Mutex<bool>,
    }

    impl Recorder {
        fn answer(&self) {
            *self.answered.lock().unwrap() = true;
            self.log.lock().unwrap().push("answer");
        }
        fn log(&self) -> Vec<&'static str> {
            self.log.lock().unwrap().clone()
        }
    }

    impl Guarded for Recorder {
        async fn defer(&self) {
            if !*self.answered.lock().unwrap() {
                self.log.lock().unwrap().push("defer");
            }
        }
        async fn fail(&self) {
            if !*self.answered.lock().unwrap() {
                self.log.lock().unwrap().push("fail");
            }
        }
    }

    fn after(ms: u64) -> Instant {
        Instant::now() + Duration::from_millis(ms)
    }

    async fn slow(ms: u64) {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }

    #[tokio::test]
    async fn a_late_answer_is_deferred_then_given() {
        let r = Recorder::default();
        guarded(&r, after(20), async {
            slow(300).await; // a slow disk
            r.answer();
        })
        .await;
        assert_eq!(r.log(), ["defer", "answer"]);
    }

    #[tokio::test]
    async fn a_deadline_already_past_defers_at_once() {
        // The interaction waited in a queue before the handler ran.
        let r = Recorder::default();
        guarded(&r, Instant::now() - Duration::from_secs(1), async {
            slow(100).await;
            r.answer();
        })
        .await;
        assert_eq!(r.log(), ["defer", "answer"]);
    }

    #[tokio::test]
    async fn a_prompt_answer_is_not_deferred() {
        let r = Recorder::default();
        guarded(&r, after(60_000), async { r.answer() }).await;
        assert_eq!(r.log(), ["answer"]);
    }

    #[tokio::test]
    async fn a_panic_is_caught_and_answered() {
        let r = Recorder::default();
        guarded(&r, after(60_000), async {
            slow(10).await;
            panic!("a bug in a handler");
        })
        .await;
        assert_eq!(r.log(), ["fail"]);
        // After the answer went out, a panic has nothing more to say.
        let r = Recorder::default();
        guarded(&r, after(60_000), async {
            r.answer();
            panic!("a bug after the answer");
        })
        .await;
        assert_eq!(r.log(), ["answer"]);
    }

    #[tokio::test]
    async fn a_panic_after_the_deferral_still_answers() {
        let r = Recorder::default();
        guarded(&r, after(20), async {
            slow(300).await;
            panic!("slow, then a bug");
        })
        .await;
        assert_eq!(r.log(), ["defer", "fail"]);
    }
}
