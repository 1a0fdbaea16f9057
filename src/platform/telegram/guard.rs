//! What stands between an update and its handler: a panic is caught (a handler's is then
//! answered and logged as any failure, see failure.rs; a worker's is logged; the process goes
//! on), and commands are rate-limited per user.

use super::poster::quota;
use futures_util::FutureExt;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::any::Any;
use std::future::Future;
use std::num::NonZeroU32;
use std::panic::AssertUnwindSafe;

/// The message of a caught panic.
pub fn panic_text(panic: &(dyn Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

/// Runs a handler; the panic's message if it panicked. The handler's state is not shared
/// with anything that outlives it except through locks that recover from poisoning, so going
/// on after a panic is safe.
pub async fn catch_panic<T>(fut: impl Future<Output = T>) -> Result<T, String> {
    AssertUnwindSafe(fut)
        .catch_unwind()
        .await
        .map_err(|panic| panic_text(panic.as_ref()))
}

/// `catch_panic` for a worker, whose panic no one else hears of: `None` if it panicked
/// (logged with `what`).
pub async fn caught<T>(what: &'static str, fut: impl Future<Output = T>) -> Option<T> {
    match catch_panic(fut).await {
        Ok(out) => Some(out),
        Err(panic) => {
            tracing::error!(update = what, panic, "telegram: a handler panicked");
            None
        }
    }
}

/// What to do with a user's command.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Go,
    /// Over the limit: say so, once.
    Warn,
    /// Over the limit and already told.
    Ignore,
}

/// Commands per user: a burst of `per_minute`, then `per_minute` a minute. A user over it
/// is told once a minute at most.
pub struct CommandLimit {
    per_user: DefaultKeyedRateLimiter<i64>,
    warned: DefaultKeyedRateLimiter<i64>,
}

impl CommandLimit {
    pub fn new(per_minute: u32) -> CommandLimit {
        CommandLimit {
            per_user: RateLimiter::keyed(quota(per_minute, per_minute)),
            warned: RateLimiter::keyed(Quota::per_minute(NonZeroU32::MIN)),
        }
    }

    /// Counts a command of `sender` (a user id, or a chat id for anonymous senders).
    pub fn check(&self, sender: i64) -> Verdict {
        if self.per_user.check_key(&sender).is_ok() {
            Verdict::Go
        } else if self.warned.check_key(&sender).is_ok() {
            Verdict::Warn
        } else {
            Verdict::Ignore
        }
    }

    /// Forgets users whose allowance is full again.
    pub fn prune(&self) {
        for limiter in [&self.per_user, &self.warned] {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }

    /// Users with an entry now.
    pub fn users(&self) -> usize {
        self.per_user.len().max(self.warned.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_user_over_the_limit_is_told_once_then_ignored_others_go_on() {
        let limit = CommandLimit::new(3);
        let verdicts: Vec<Verdict> = (0..6).map(|_| limit.check(1)).collect();
        assert_eq!(
            verdicts,
            [
                Verdict::Go,
                Verdict::Go,
                Verdict::Go,
                Verdict::Warn,
                Verdict::Ignore,
                Verdict::Ignore
            ]
        );
        assert_eq!(limit.check(2), Verdict::Go);
    }

    #[test]
    fn users_whose_allowance_is_full_again_are_forgotten() {
        let limit = CommandLimit::new(60_000);
        for user in 0..500 {
            assert_eq!(limit.check(user), Verdict::Go);
        }
        assert_eq!(limit.users(), 500);
        std::thread::sleep(Duration::from_millis(20));
        limit.prune();
        assert_eq!(limit.users(), 0);
    }

    #[tokio::test]
    async fn a_panic_is_caught() {
        assert_eq!(catch_panic(async { 7 }).await, Ok(7));
        let panicked: Result<(), String> = catch_panic(async { panic!("boom") }).await;
        assert_eq!(panicked, Err("boom".to_string()));
        assert_eq!(caught("test", async { 7 }).await, Some(7));
        let panicked: Option<()> = caught("test", async { panic!("boom") }).await;
        assert_eq!(panicked, None);
    }
}
