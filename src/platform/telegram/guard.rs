//! What stands between an update and its handler: a panic is caught (a handler's is then
//! answered and logged as any failure, see failure.rs; a worker's is logged; the process goes
//! on), and commands are rate-limited per user (the shared policy, `manager::limits`).

use futures_util::FutureExt;
use std::any::Any;
use std::future::Future;
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

/// The command limit, shared with every adapter (`manager::limits`); Telegram knows a sender
/// by user id, or by chat id for anonymous senders.
pub use crate::manager::limits::Verdict;
pub type CommandLimit = crate::manager::limits::CommandLimit<i64>;

#[cfg(test)]
mod tests {
    use super::*;

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
