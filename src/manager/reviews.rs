//! Game reviews (docs/review.md): the engine goes through a finished game, one position at a
//! time on the bot's search slots but only when no bot move waits (`BotQueue::review_slot`),
//! so reviews never hold up play. Reviews have their own limits (`[review]`): how many run at
//! once and how many may wait; more are refused with `ReviewsBusy`. Each user has at most one
//! review running or waiting (a second is refused with `ReviewPending`), so one user pressing
//! Review under many games takes one place in the queue, not all of them (issue 31, item 11).
//! Finished games never change, so the last reviews are kept and asked-for-again ones
//! answered at once, with the pictures the adapters drew of them ([`Drawings`]).

use super::*;
use crate::review::{Review, ReviewOptions, Reviewer, StoredReview};
use crate::rules::Position;
use std::collections::{HashMap, HashSet, VecDeque};
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

/// A reviewed game: the game as it ended, the engine's review of it, and the pictures
/// drawn of it so far.
#[derive(Clone, Debug)]
pub struct GameReview {
    pub game: GameView,
    pub review: Arc<Review>,
    pub drawings: Arc<Drawings>,
    /// How long the game followed the explorer's games, and its novelty (`None`: it could
    /// not be read; the review goes out without that line).
    pub book: Option<super::explorer::BookLine>,
}

/// Pictures of a kept review (the graph, in each language asked for), as opaque bytes under
/// a name the adapters choose: a finished game's review never changes, so each picture is
/// drawn once and reused while the review is kept, and forgotten with it.
#[derive(Debug, Default)]
pub struct Drawings(Mutex<HashMap<String, Arc<Vec<u8>>>>);

impl Drawings {
    /// The picture drawn under `name`, if any.
    pub fn get(&self, name: &str) -> Option<Arc<Vec<u8>>> {
        lock(&self.0).get(name).cloned()
    }

    /// Keeps `bytes` under `name`; the one kept first if two were drawn at once.
    pub fn keep(&self, name: &str, bytes: Vec<u8>) -> Arc<Vec<u8>> {
        lock(&self.0)
            .entry(name.to_string())
            .or_insert_with(|| Arc::new(bytes))
            .clone()
    }

    /// How many pictures are kept.
    pub fn len(&self) -> usize {
        lock(&self.0).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A kept review and its pictures.
type Kept = (Arc<Review>, Arc<Drawings>);

/// The reviews' own limits and the kept results.
pub(super) struct Reviews {
    config: ReviewConfig,
    running: Semaphore,
    /// Reviews admitted (running or waiting to run).
    admitted: AtomicUsize,
    /// The users (keys) whose review is admitted: one each.
    asking: Mutex<HashSet<String>>,
    kept: Mutex<VecDeque<(GameId, Kept)>>,
}

impl Reviews {
    pub(super) fn new(config: ReviewConfig) -> Reviews {
        Reviews {
            running: Semaphore::new(config.running.max(1)),
            admitted: AtomicUsize::new(0),
            asking: Mutex::new(HashSet::new()),
            kept: Mutex::new(VecDeque::with_capacity(KEPT)),
            config,
        }
    }

    fn kept(&self, id: &str) -> Option<Kept> {
        lock(&self.kept)
            .iter()
            .find(|(g, _)| g == id)
            .map(|(_, k)| k.clone())
    }

    /// The pictures of the kept review of `id` (none drawn yet if it is not kept).
    fn drawings_of(&self, id: &str) -> Arc<Drawings> {
        self.kept(id).map(|(_, d)| d).unwrap_or_default()
    }

    /// Keeps `review` of game `id`, unless a review of it is kept already: the one kept.
    fn keep(&self, id: &str, review: Arc<Review>) -> Kept {
        let mut kept = lock(&self.kept);
        if let Some((_, k)) = kept.iter().find(|(g, _)| g == id) {
            return k.clone();
        }
        if kept.len() >= KEPT {
            kept.pop_front();
        }
        let k = (review, Arc::new(Drawings::default()));
        kept.push_back((id.to_string(), k.clone()));
        k
    }

    /// Admits a review asked for by `user` (a user key): refused while that user has one
    /// running or waiting, or when the queue is full.
    fn admit(&self, manager: &Manager, user: &str, game: &str) -> Result<Admission, ActionError> {
        if !lock(&self.asking).insert(user.to_string()) {
            tracing::info!(game, user, "review refused: the user has one on the way");
            return Err(ActionError::ReviewPending);
        }
        let limit = self.config.running.max(1) + self.config.waiting;
        if self.admitted.fetch_add(1, AtomicOrdering::AcqRel) >= limit {
            self.admitted.fetch_sub(1, AtomicOrdering::AcqRel);
            lock(&self.asking).remove(user);
            tracing::info!(game, user, limit, "review refused: too many asked for");
            return Err(ActionError::ReviewsBusy);
        }
        Ok(Admission {
            manager: manager.clone(),
            user: user.to_string(),
        })
    }
}

/// One admitted review; leaving (done, failed or dropped) lets another in, and its user ask
/// again.
struct Admission {
    manager: Manager,
    user: String,
}

impl Drop for Admission {
    fn drop(&mut self) {
        let reviews = &self.manager.inner.reviews;
        lock(&reviews.asking).remove(&self.user);
        reviews.admitted.fetch_sub(1, AtomicOrdering::AcqRel);
    }
}

/// A review that was asked for and admitted: either kept from before (ready at once) or
/// holding its place among `[review]`'s limits until [`ReviewTicket::finish`] has run it.
/// Getting one is quick (no search), so an adapter can answer "busy" or an error at once
/// and run the review off its handler.
pub struct ReviewTicket {
    game: GameView,
    work: Work,
    /// The game's line in the explorer (`GameReview::book`).
    book: Option<super::explorer::BookLine>,
}

enum Work {
    Kept(Kept),
    Run {
        reviewer: Box<Reviewer>,
        admission: Admission,
    },
}

impl ReviewTicket {
    /// The game as it ended.
    pub fn game(&self) -> &GameView {
        &self.game
    }

    /// Whether the review is kept from before: `finish` answers at once.
    pub fn is_ready(&self) -> bool {
        matches!(self.work, Work::Kept(_))
    }

    /// The review: kept, or worked out now, one position at a time on the bot's search
    /// slots whenever no bot move waits.
    pub async fn finish(self) -> Result<GameReview, ActionError> {
        let ReviewTicket { game, work, book } = self;
        let (reviewer, admission) = match work {
            Work::Kept((review, drawings)) => {
                return Ok(GameReview {
                    game,
                    review,
                    drawings,
                    book,
                })
            }
            Work::Run {
                reviewer,
                admission,
            } => (reviewer, admission),
        };
        let manager = admission.manager.clone();
        let reviews = &manager.inner.reviews;
        let _running = reviews
            .running
            .acquire()
            .await
            .map_err(|_| ActionError::Storage("the review queue is closed".into()))?;
        // Another request for the same game may have finished it while this one waited.
        if let Some((review, drawings)) = reviews.kept(&game.id) {
            return Ok(GameReview {
                game,
                review,
                drawings,
                book,
            });
        }
        tracing::info!(
            game = game.id,
            plies = game.ply,
            user = admission.user,
            "review started"
        );
        let review = Arc::new(manager.run_review(*reviewer).await?);
        manager.store_review(&game.id, &review).await;
        let (review, drawings) = reviews.keep(&game.id, review);
        tracing::info!(game = game.id, "review done");
        drop(admission);
        Ok(GameReview {
            game,
            review,
            drawings,
            book,
        })
    }
}

impl Manager {
    /// Reviews finished game `id` for `user` (see [`Manager::start_review`]), waiting for
    /// the result.
    pub async fn review(&self, id: &str, user: &UserRef) -> Result<GameReview, ActionError> {
        self.start_review(id, user).await?.finish().await
    }

    /// `user` asks for a review of `game`, or, without one, of the game that ended last in
    /// `chat` (`NoFinishedGameHere` if none did since the start).
    pub async fn start_review_in(
        &self,
        chat: &ChatRef,
        game: Option<GameId>,
        user: &UserRef,
    ) -> Result<ReviewTicket, ActionError> {
        let id = match game {
            Some(id) => id,
            None => lock(&self.inner.index)
                .last_finished(&chat.key())
                .ok_or(ActionError::NoFinishedGameHere)?,
        };
        self.start_review(&id, user).await
    }

    /// The game `/review` without a game means for `user` in `chat`: the game that ended
    /// last in `chat` since the start, else `user`'s newest finished game in the archive
    /// (their history, newest first), so it is found after a restart too.
    /// `NoFinishedGameHere` if there is neither.
    pub async fn last_finished_for(
        &self,
        chat: &ChatRef,
        user: &UserRef,
    ) -> Result<GameId, ActionError> {
        let here = lock(&self.inner.index).last_finished(&chat.key());
        if let Some(id) = here {
            return Ok(id);
        }
        let newest = super::history::PageAt::Newest;
        let page = super::history::history_page(&self.inner.store, &user.key(), &newest, 0).await?;
        page.entries
            .into_iter()
            .next()
            .map(|entry| entry.game)
            .ok_or(ActionError::NoFinishedGameHere)
    }

    /// `user` asks for a review of finished game `id`, quickly: refused at once with
    /// `NoSuchGame`, `GameNotOver`, `NothingToReview` (no move was played), `ReviewPending`
    /// (`user` has a review running or waiting) or `ReviewsBusy` (as many reviews as
    /// `[review]` allows are running or waiting). A kept review is answered whoever asks.
    pub async fn start_review(
        &self,
        id: &str,
        user: &UserRef,
    ) -> Result<ReviewTicket, ActionError> {
        let (game, pits, start) = {
            let slot = self.game_slot(id).await?;
            let game = self.enter(&slot).await?;
            if !game.is_over() {
                return Err(ActionError::GameNotOver);
            }
            (
                self.view_of(&game).await,
                game.rec.moves.clone(),
                Position::start(game.rec.variant),
            )
        };
        let reviews = &self.inner.reviews;
        if let Some(review) = self.known_review(id, start, &pits).await {
            let work = Work::Kept((review, reviews.drawings_of(id)));
            let book = self.book_line_or_none(id).await;
            return Ok(ReviewTicket { game, work, book });
        }
        if pits.is_empty() {
            return Err(ActionError::NothingToReview);
        }
        // Admitted first: a reviewer holds its search table (`review::TABLE_MB`), so only
        // admitted ones are made.
        let admission = reviews.admit(self, &user.key(), id)?;
        let options = ReviewOptions {
            nodes: reviews.config.nodes,
        };
        let reviewer = Reviewer::new(start, &pits, options).map_err(|error| match error {
            crate::review::ReviewError::NoMoves => ActionError::NothingToReview,
            other => ActionError::Storage(format!("review: {other}")),
        })?;
        let work = Work::Run {
            reviewer: Box::new(reviewer),
            admission,
        };
        let book = self.book_line_or_none(id).await;
        Ok(ReviewTicket { game, work, book })
    }

    /// The game's line in the explorer for its review; `None` (logged) when the store did
    /// not answer: the review is worth sending without it.
    async fn book_line_or_none(&self, id: &str) -> Option<super::explorer::BookLine> {
        match self.book_line(id).await {
            Ok(book) => Some(book),
            Err(error) => {
                tracing::warn!(game = id, %error, "review: the explorer's line could not be read");
                None
            }
        }
    }

    /// The review of finished game `id` if one was made: kept in memory, else stored (then
    /// kept). Never starts one.
    pub(super) async fn known_review(
        &self,
        id: &str,
        start: Position,
        pits: &[u8],
    ) -> Option<Arc<Review>> {
        let reviews = &self.inner.reviews;
        if let Some((review, _)) = reviews.kept(id) {
            return Some(review);
        }
        let stored = match self
            .inner
            .store
            .get::<StoredReview>(Tree::Reviews, id)
            .await
        {
            Ok(stored) => stored?,
            Err(error) => {
                tracing::warn!(game = id, %error, "a stored review could not be read");
                return None;
            }
        };
        match Review::from_stored(start, pits, &stored) {
            Ok(review) => Some(reviews.keep(id, Arc::new(review)).0),
            Err(error) => {
                tracing::error!(game = id, %error, "a stored review does not fit its game");
                None
            }
        }
    }

    /// Keeps a finished review durably, so the game's page and a later `/review` show it
    /// after a restart and on every process. A failed write only costs that: the review is
    /// answered all the same.
    async fn store_review(&self, id: &str, review: &Review) {
        let mut batch = crate::store::Batch::new();
        if let Err(error) = batch.put(Tree::Reviews, id, &review.stored()) {
            tracing::warn!(game = id, %error, "a review could not be encoded");
            return;
        }
        if let Err(error) = self.inner.store.write(batch).await {
            tracing::warn!(game = id, %error, "a review could not be stored");
        }
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
