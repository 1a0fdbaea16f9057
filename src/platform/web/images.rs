//! Board images (`/g/<key>.png`): drawn through the shared drawing pool
//! (`render::pool`, one drawing per core at once, never on an async worker) and kept a
//! while, so that a burst of requests for one board, whatever query strings they carry
//! (`?x=1`, `?x=2`, ... would each miss a proxy's cache), costs one drawing. The cache's key
//! is what the picture depends on and nothing else: the game's page key, its version, the
//! language, and for a game with a running clock the second its view was made.

use crate::i18n::Lang;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::OnceCell;

/// Images kept at most (then the cache starts afresh; a board is ~30 KB).
const KEPT: usize = 512;

/// What a board image depends on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct ImageKey {
    pub page: String,
    pub version: u64,
    pub lang: Lang,
    /// The second the clocks were read at (0 without a running clock).
    pub second: u64,
}

/// One image: drawn once, by whichever request came first; the others wait for it.
type Cell = Arc<OnceCell<Arc<Vec<u8>>>>;

/// The images drawn lately.
#[derive(Default)]
pub(super) struct Images {
    kept: Mutex<HashMap<ImageKey, Cell>>,
}

impl Images {
    /// The image of `key`, drawn by `draw` unless it is kept (or being drawn).
    pub async fn get_or_draw<F, Fut, E>(&self, key: ImageKey, draw: F) -> Result<Arc<Vec<u8>>, E>
    where
        F: FnOnce() -> Fut,
        Fut: std::future::Future<Output = Result<Vec<u8>, E>>,
    {
        let cell = {
            let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            if kept.len() >= KEPT && !kept.contains_key(&key) {
                kept.clear();
            }
            kept.entry(key.clone()).or_default().clone()
        };
        let drawn = cell
            .get_or_try_init(|| async { draw().await.map(Arc::new) })
            .await;
        if drawn.is_err() {
            // A failed drawing is not kept: the next request tries again.
            let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            if kept.get(&key).is_some_and(|c| Arc::ptr_eq(c, &cell)) {
                kept.remove(&key);
            }
        }
        drawn.cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn key(version: u64) -> ImageKey {
        ImageKey {
            page: "abc123-00".into(),
            version,
            lang: Lang::En,
            second: 0,
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sixty_requests_for_one_board_draw_it_once() {
        let images = Arc::new(Images::default());
        let drawn = Arc::new(AtomicUsize::new(0));
        let mut asks = Vec::new();
        for _ in 0..60 {
            let (images, drawn) = (images.clone(), drawn.clone());
            asks.push(tokio::spawn(async move {
                images
                    .get_or_draw(key(3), || async {
                        drawn.fetch_add(1, Ordering::SeqCst);
                        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                        Ok::<_, ()>(vec![1, 2, 3])
                    })
                    .await
            }));
        }
        for ask in asks {
            assert_eq!(*ask.await.unwrap().unwrap(), vec![1, 2, 3]);
        }
        assert_eq!(drawn.load(Ordering::SeqCst), 1);
        // Another version is another picture.
        let again = images
            .get_or_draw(key(4), || async { Ok::<_, ()>(vec![4]) })
            .await;
        assert_eq!(*again.unwrap(), vec![4]);
    }

    #[tokio::test]
    async fn a_failed_drawing_is_tried_again() {
        let images = Images::default();
        let failed = images
            .get_or_draw(key(1), || async { Err::<Vec<u8>, _>("no") })
            .await;
        assert!(failed.is_err());
        let drawn = images
            .get_or_draw(key(1), || async { Ok::<_, &str>(vec![9]) })
            .await;
        assert_eq!(*drawn.unwrap(), vec![9]);
    }
}
