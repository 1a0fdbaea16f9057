//! Game reviews (docs/review.md): the engine goes through a finished game, one position at a
//! time on the bot's search slots but only when no bot move waits (`BotQueue::review_slot`),
//! so reviews never hold up play. Reviews have their own limits (`[review]`): how many run at
//! once and how many may wait; more are refused with `ReviewsBusy`. Finished games never
//! change, so the last reviews are kept and asked-for-again ones answered at once.

use super::*;
use crate::review::{Review, ReviewOptions, Reviewer};
use crate::rules::Position;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use tokio::sync::Semaphore;

/// Reviews kept for asking again.
const KEPT: usize = 32;

/// `[review]` in the config.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ReviewConfig {
    /// Nodes searched per position (the same game gives the same review everywhere).
    pub nodes: u64,
    /// Reviews worked on at once.
    pub running: usize,
    /// Reviews that may wait for those; more are refused until one ends.
    pub waiting: usize,
}

impl Default for ReviewConfig {
    fn default() -> Self {
        ReviewConfig {
            nodes: crate::review::DEFAULT_NODES,
            running: 1,
            waiting: 8,
        }
    }
}

/// A reviewed game: the game as it ended, and the engine's review of it.
#[derive(Clone, Debug)]
pub struct GameReview {
    pub game: GameView,
    pub review: Arc<Review>,
}

/// The reviews' own limits and the kept results.
pub(super) struct Reviews {
    config: ReviewConfig,
    running: Semaphore,
    /// Reviews admitted (running or waiting to run).
    admitted: AtomicUsize,
    kept: Mutex<VecDeque<(GameId, Arc<Review>)>>,
}

impl Reviews {
    pub(super) fn new(config: ReviewConfig) -> Reviews {
        Reviews {
            running: Semaphore::new(config.running.max(1)),
            admitted: AtomicUsize::new(0),
            kept: Mutex::new(VecDeque::with_capacity(KEPT)),
            config,
        }
    }

    fn kept(&self, id: &str) -> Option<Arc<Review>> {
        lock(&self.kept)
            .iter()
            .find(|(g, _)| g == id)
            .map(|(_, r)| r.clone())
    }

    fn keep(&self, id: &str, review: Arc<Review>) {
        let mut kept = lock(&self.kept);
        if kept.iter().any(|(g, _)| g == id) {
            return;
        }
        if kept.len() >= KEPT {
            kept.pop_front();
        }
        kept.push_back((id.to_string(), review));
    }
}

/// One admitted review; leaving lets another in.
struct Admission<'a>(&'a AtomicUsize);

impl Drop for Admission<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, AtomicOrdering::AcqRel);
    }
}

impl Manager {
    /// Reviews finished game `id`. Refused with `NoSuchGame`, `GameNotOver`,
    /// `NothingToReview` (no move was played) or `ReviewsBusy` (too many reviews asked for).
    pub async fn review(&self, id: &str) -> Result<GameReview, ActionError> {
        let (game, pits, start) = {
            let slot = self.game_slot(id).await?;
            let game = slot.enter().await?;
            if !game.is_over() {
                return Err(ActionError::GameNotOver);
            }
            (
                self.view_of(&game),
                game.rec.moves.clone(),
                Position::start(game.rec.variant),
            )
        };
        let reviews = &self.inner.reviews;
        if let Some(review) = reviews.kept(id) {
            return Ok(GameReview { game, review });
        }
        let options = ReviewOptions {
            nodes: reviews.config.nodes,
        };
        let reviewer = Reviewer::new(start, &pits, options).map_err(|error| match error {
            crate::review::ReviewError::NoMoves => ActionError::NothingToReview,
            other => ActionError::Storage(format!("review: {other}")),
        })?;
        let limit = reviews.config.running.max(1) + reviews.config.waiting;
        if reviews.admitted.fetch_add(1, AtomicOrdering::AcqRel) >= limit {
            reviews.admitted.fetch_sub(1, AtomicOrdering::AcqRel);
            return Err(ActionError::ReviewsBusy);
        }
        let _admission = Admission(&reviews.admitted);
        let _running = reviews
            .running
            .acquire()
            .await
            .map_err(|_| ActionError::Storage("the review queue is closed".into()))?;
        tracing::info!(game = id, plies = pits.len(), "review started");
        let review = Arc::new(self.run_review(reviewer).await?);
        reviews.keep(id, review.clone());
        tracing::info!(game = id, "review done");
        Ok(GameReview { game, review })
    }

    /// Judges the positions one by one, each on a bot search slot granted only when no bot
    /// move waits, off the async runtime.
    async fn run_review(&self, mut reviewer: Reviewer) -> Result<Review, ActionError> {
        let closed = || ActionError::Storage("the review was cut short".into());
        loop {
            let permit = self.inner.bots.review_slot().await.ok_or_else(closed)?;
            let (back, more) = tokio::task::spawn_blocking(move || {
                let more = reviewer.step();
                (reviewer, more)
            })
            .await
            .map_err(|_| closed())?;
            drop(permit);
            reviewer = back;
            if !more {
                return Ok(reviewer.finish());
            }
        }
    }
}
