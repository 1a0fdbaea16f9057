//! Where the chats' PNGs are drawn (issue 31, item 11): never on an async worker thread. A
//! board takes a few milliseconds of CPU and a review graph more; drawn on a worker, it holds
//! up every other chat's updates queued on that worker. [`draw`] runs the drawing on tokio's
//! blocking pool, at most one drawing per core at once, so a burst of boards queues here
//! instead of taking every core from the engine and the handlers.
//!
//! `png` and `review_graph` count the drawings made on an async worker anyway
//! ([`drawn_on_async_workers`]): the adapters' tests hold that count at zero.

use super::{BoardView, RenderError};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::LazyLock;
use tokio::sync::Semaphore;

/// Drawings running at once: one per core (at least one).
static SLOTS: LazyLock<Semaphore> = LazyLock::new(|| {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    Semaphore::new(cores)
});

/// PNGs drawn on a thread of a tokio runtime outside [`draw`].
static ON_WORKERS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Set while [`draw`] runs a drawing on this thread.
    static DRAWING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `drawing` on the blocking pool, waiting for a drawing slot first.
pub async fn draw<T, F>(drawing: F) -> Result<T, RenderError>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let _slot = SLOTS
        .acquire()
        .await
        .map_err(|error| RenderError::Task(error.to_string()))?;
    tokio::task::spawn_blocking(move || {
        DRAWING.with(|d| d.set(true));
        let out = drawing();
        DRAWING.with(|d| d.set(false));
        out
    })
    .await
    .map_err(|error| RenderError::Task(error.to_string()))
}

/// The board as a PNG ([`super::png`]), drawn through [`draw`].
pub async fn board_png(view: BoardView) -> Result<Vec<u8>, RenderError> {
    draw(move || super::png(&view)).await?
}

/// A standings table as a PNG ([`super::table`]), drawn through [`draw`].
pub async fn table_png(view: super::table::TableView) -> Result<Vec<u8>, RenderError> {
    draw(move || super::standings_table(&view)).await?
}

/// The explorer's picture ([`super::explorer`]), drawn through [`draw`].
pub async fn explorer_png(
    picture: super::explorer::ExplorerPicture,
) -> Result<Vec<u8>, RenderError> {
    draw(move || super::explorer_picture(&picture)).await?
}

/// Notes a PNG about to be drawn: counted (and logged) when it is drawn on a runtime's
/// thread outside [`draw`], where it would stall other chats.
pub(super) fn note_drawing(what: &'static str) {
    test_slow_drawing();
    let drawing = DRAWING.with(Cell::get);
    if !drawing && tokio::runtime::Handle::try_current().is_ok() {
        ON_WORKERS.fetch_add(1, Ordering::Relaxed);
        tracing::warn!(what, "a PNG was drawn on an async worker thread");
    }
}

/// Test hook, in debug builds only: every PNG takes `TOGUZ_TEST_SLOW_DRAW_MS` longer, so the
/// tests can show that a slow drawing holds up no other chat. Release builds have no hook.
#[cfg(debug_assertions)]
fn test_slow_drawing() {
    let slow = std::env::var("TOGUZ_TEST_SLOW_DRAW_MS").ok();
    if let Some(ms) = slow.and_then(|ms| ms.parse().ok()) {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

#[cfg(not(debug_assertions))]
fn test_slow_drawing() {}

/// PNGs drawn on an async worker thread (outside [`draw`]) since the process started.
pub fn drawn_on_async_workers() -> usize {
    ON_WORKERS.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_drawing_through_the_pool_is_marked_and_one_on_a_worker_is_counted() {
        assert!(draw(|| DRAWING.with(Cell::get)).await.expect("drawn"));
        assert!(!DRAWING.with(Cell::get));
        let before = drawn_on_async_workers();
        note_drawing("test");
        assert!(drawn_on_async_workers() > before);
    }
}
