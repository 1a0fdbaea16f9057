//! The bot's queue: which games get a search slot next.
//!
//! Searches run a bounded number at a time (`[engine] max_concurrent`). Waiting games are
//! queued per user and served round-robin between users, so one user's ten `max` games
//! cannot starve another user's `easy` game: each user with something waiting gets the next
//! free slot in turn. A game is in the queue (or searching) at most once, so a sweep or a
//! restart that asks again for a search already under way changes nothing.
//!
//! Game reviews use the same slots, one position (a short search) per slot, and only when no
//! bot move is waiting: `review_slot` queues behind every bot move, so a burst of reviews
//! delays a bot move by at most one position's search.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

use crate::model::GameId;

/// A search slot; the next waiting game gets it when this is dropped.
pub(super) struct Permit {
    queue: Arc<BotQueue>,
}

impl Drop for Permit {
    fn drop(&mut self) {
        self.queue.release();
    }
}

/// A game's place in the queue, from `BotQueue::enter` to the end of its turn; dropping it
/// lets the game be queued again.
pub(super) struct Ticket {
    queue: Arc<BotQueue>,
    game: GameId,
    /// Resolves with the permit when a slot is free.
    grant: Option<oneshot::Receiver<Permit>>,
    permit: Option<Permit>,
}

impl Ticket {
    /// Joins the queue on behalf of `user`, whose waiting games take turns with everyone
    /// else's; the slot may be granted at once.
    pub(super) fn join(&mut self, user: &str) {
        let queue = self.queue.clone();
        queue.join(self, user);
    }

    /// Waits for a search slot. `None` if the queue was torn down.
    pub(super) async fn wait(&mut self) -> Option<()> {
        if self.permit.is_none() {
            // Awaited by reference: a caller may give up waiting (a time-out) and wait again.
            let grant = self.grant.as_mut()?;
            let permit = grant.await.ok()?;
            self.grant = None;
            self.permit = Some(permit);
        }
        Some(())
    }

    /// Whether the slot was granted at once (nobody was waiting and a slot was free).
    pub(super) fn granted(&self) -> bool {
        self.permit.is_some()
    }

    /// Searches queued ahead of this game (0 when it holds a slot).
    pub(super) fn ahead(&self) -> usize {
        if self.permit.is_some() {
            return 0;
        }
        self.queue.ahead_of(&self.game)
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.queue.leave(&self.game);
    }
}

/// A game waiting for a slot: since when, and where its slot is sent.
struct Waiting {
    game: GameId,
    since: Instant,
    grant: oneshot::Sender<Permit>,
}

#[derive(Default)]
struct State {
    /// Slots in use.
    running: usize,
    /// Games queued or searching.
    active: HashSet<GameId>,
    /// Waiting games per user, oldest first.
    waiting: HashMap<String, VecDeque<Waiting>>,
    /// Users with waiting games, in the order they are served.
    turn: VecDeque<String>,
    /// Reviews waiting for a slot, served once no game waits.
    reviews: VecDeque<oneshot::Sender<Permit>>,
}

pub(super) struct BotQueue {
    slots: usize,
    state: Mutex<State>,
}

impl BotQueue {
    pub(super) fn new(slots: usize) -> Arc<BotQueue> {
        Arc::new(BotQueue {
            slots: slots.max(1),
            state: Mutex::new(State::default()),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Claims the bot's turn in `game`; `None` when it is already queued or searching. The
    /// ticket joins the queue with `Ticket::join`.
    pub(super) fn enter(self: &Arc<Self>, game: &GameId) -> Option<Ticket> {
        if !self.state().active.insert(game.clone()) {
            return None;
        }
        Some(Ticket {
            queue: self.clone(),
            game: game.clone(),
            grant: None,
            permit: None,
        })
    }

    /// Takes a free slot for `ticket` if nobody waits, else queues it behind `user`'s
    /// other games.
    fn join(self: &Arc<Self>, ticket: &mut Ticket, user: &str) {
        let mut state = self.state();
        if state.running < self.slots && state.turn.is_empty() {
            state.running += 1;
            ticket.permit = Some(Permit {
                queue: self.clone(),
            });
            return;
        }
        let (tx, rx) = oneshot::channel();
        ticket.grant = Some(rx);
        let queue = state.waiting.entry(user.to_string()).or_default();
        queue.push_back(Waiting {
            game: ticket.game.clone(),
            since: Instant::now(),
            grant: tx,
        });
        if queue.len() == 1 {
            state.turn.push_back(user.to_string());
        }
    }

    /// A slot for one position of a review: at once if one is free and nothing waits,
    /// else after every bot move queued meanwhile. `None` if the queue was torn down.
    pub(super) async fn review_slot(self: &Arc<Self>) -> Option<Permit> {
        let rx = {
            let mut state = self.state();
            if state.running < self.slots && state.turn.is_empty() && state.reviews.is_empty() {
                state.running += 1;
                return Some(Permit {
                    queue: self.clone(),
                });
            }
            let (tx, rx) = oneshot::channel();
            state.reviews.push_back(tx);
            rx
        };
        rx.await.ok()
    }

    /// Whether `game` is queued or searching.
    pub(super) fn is_active(&self, game: &str) -> bool {
        self.state().active.contains(game)
    }

    /// Searches ahead of `game` if it has waited for a slot for at least `after`.
    pub(super) fn busy(&self, game: &str, after: Duration) -> Option<usize> {
        let waited = {
            let state = self.state();
            let since = state
                .waiting
                .values()
                .find_map(|q| q.iter().find(|w| w.game == game).map(|w| w.since))?;
            since.elapsed() >= after
        };
        waited.then(|| self.ahead_of(game))
    }

    /// (searching, waiting) right now.
    pub(super) fn load(&self) -> (usize, usize) {
        let state = self.state();
        let waiting = state.waiting.values().map(VecDeque::len).sum();
        (state.running, waiting)
    }

    /// Waiting games that will be served before `game`: in round-robin order, every other
    /// user's waiting games up to as many as `game` has before it, plus those.
    fn ahead_of(&self, game: &str) -> usize {
        let state = self.state();
        let Some(mine) = state
            .waiting
            .values()
            .find_map(|q| q.iter().position(|w| w.game == game))
        else {
            return 0;
        };
        state
            .waiting
            .values()
            .map(|q| {
                let before = q.iter().take_while(|w| w.game != game).count();
                if before < q.len() {
                    before
                } else {
                    q.len().min(mine + 1)
                }
            })
            .sum()
    }

    /// A slot came free: hand it to the next user in turn, else to the next review, or keep
    /// it free.
    fn release(self: &Arc<Self>) {
        let mut state = self.state();
        state.running = state.running.saturating_sub(1);
        loop {
            let tx = match state.turn.pop_front() {
                Some(user) => {
                    let Some(queue) = state.waiting.get_mut(&user) else {
                        continue;
                    };
                    let next = queue.pop_front();
                    if queue.is_empty() {
                        state.waiting.remove(&user);
                    } else {
                        state.turn.push_back(user);
                    }
                    let Some(Waiting { grant, .. }) = next else {
                        continue;
                    };
                    grant
                }
                None => match state.reviews.pop_front() {
                    Some(grant) => grant,
                    None => return,
                },
            };
            state.running += 1;
            let permit = Permit {
                queue: self.clone(),
            };
            // A waiter that gave up hands the permit back through its drop, under a lock
            // we must not hold then.
            if let Err(permit) = tx.send(permit) {
                drop(state);
                drop(permit);
            }
            return;
        }
    }

    /// The game's turn ended (or was abandoned): forget it, and drop its queue entry if it
    /// never got a slot.
    fn leave(&self, game: &str) {
        let mut state = self.state();
        state.active.remove(game);
        let mut emptied = None;
        for (user, queue) in state.waiting.iter_mut() {
            if let Some(i) = queue.iter().position(|w| w.game == game) {
                queue.remove(i);
                if queue.is_empty() {
                    emptied = Some(user.clone());
                }
                break;
            }
        }
        if let Some(user) = emptied {
            state.waiting.remove(&user);
            state.turn.retain(|u| *u != user);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> GameId {
        s.to_string()
    }

    fn ticket(q: &Arc<BotQueue>, game: &str, user: &str) -> Ticket {
        let mut t = q.enter(&id(game)).unwrap();
        t.join(user);
        t
    }

    #[tokio::test]
    async fn a_game_is_queued_once() {
        let q = BotQueue::new(1);
        let t = ticket(&q, "g1", "a");
        assert!(t.granted());
        assert!(q.enter(&id("g1")).is_none());
        drop(t);
        assert!(!q.is_active("g1"));
        assert!(q.enter(&id("g1")).is_some());
    }

    #[tokio::test]
    async fn users_take_turns() {
        let q = BotQueue::new(1);
        let first = ticket(&q, "a0", "alice");
        let mut alice: Vec<Ticket> = (1..=5)
            .map(|i| ticket(&q, &format!("a{i}"), "alice"))
            .collect();
        let mut bob = ticket(&q, "b1", "bob");
        assert_eq!(q.load(), (1, 6));
        // Bob waits behind one of Alice's games, not all five.
        assert_eq!(bob.ahead(), 1);
        assert_eq!(alice[4].ahead(), 5);
        drop(first);
        alice[0].wait().await.unwrap();
        assert!(alice[0].granted());
        drop(alice.remove(0));
        bob.wait().await.unwrap();
        assert!(bob.granted());
        assert_eq!(q.load(), (1, 4));
    }

    #[tokio::test]
    async fn reviews_wait_behind_every_bot_move() {
        let q = BotQueue::new(1);
        let first = ticket(&q, "g1", "a");
        // A review asks while the slot is taken, then a bot move asks too.
        let waiting_review = tokio::spawn({
            let q = q.clone();
            async move { q.review_slot().await.map(drop) }
        });
        while q.state().reviews.is_empty() {
            tokio::task::yield_now().await;
        }
        let mut bot = ticket(&q, "g2", "b");
        drop(first);
        // The bot move gets the slot although the review asked first.
        bot.wait().await.unwrap();
        assert!(bot.granted());
        assert!(!waiting_review.is_finished());
        drop(bot);
        assert_eq!(waiting_review.await.unwrap(), Some(()));
        assert_eq!(q.load(), (0, 0));
        // With nothing waiting, a review takes a free slot at once.
        let permit = q.review_slot().await.unwrap();
        assert_eq!(q.load(), (1, 0));
        drop(permit);
    }

    #[tokio::test]
    async fn an_abandoned_wait_passes_the_slot_on() {
        let q = BotQueue::new(1);
        let first = ticket(&q, "g1", "a");
        let gone = ticket(&q, "g2", "b");
        let mut next = ticket(&q, "g3", "c");
        drop(gone);
        drop(first);
        next.wait().await.unwrap();
        assert!(next.granted());
        drop(next);
        assert_eq!(q.load(), (0, 0));
    }
}
