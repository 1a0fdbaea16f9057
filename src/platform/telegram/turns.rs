//! What a Telegram game's worker does (the workers themselves are `platform/worker.rs`, as
//! on Discord): it draws the newest board and tells the player to move, so the event loop
//! never waits for a post, and a game's burst of changes costs one drawing of its newest
//! board; an older view never replaces a newer one (`present::is_older`).
//!
//! Against the bot, a turn costs one edit: after the player's move the worker holds the
//! board for up to `HOLD`, and if the bot answers in that time it shows both moves at once
//! (the caption names the player's move and the bot's reply). A player who has just pressed
//! gets no "your move" notice: only when the bot thought long enough (`LOOKED_AWAY`) that
//! they may have looked away. A worker ends when its game has been quiet for `IDLE`.

use super::boards;
use super::change::Change;
use super::guard::caught;
use super::Ctx;
use crate::manager::{GameStatus, GameView, Player};
use crate::platform::worker::Workers;
use crate::rules::Side;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tokio::time::Instant;

/// How long the board waits after the player's move for the bot's reply.
pub const HOLD: Duration = Duration::from_millis(500);
/// A bot reply later than this after the press gets a turn notice.
pub const LOOKED_AWAY: Duration = Duration::from_secs(5);
/// A worker whose game had no news for this long ends.
const IDLE: Duration = Duration::from_secs(60);

/// What a board shows that is worth an edit.
type Shown = (u16, GameStatus, Option<Side>, usize);

fn shown(view: &GameView) -> Shown {
    (view.ply, view.status, view.draw_offer, view.messages.len())
}

pub struct Turns {
    games: Workers<Change>,
}

impl Default for Turns {
    fn default() -> Self {
        Turns {
            games: Workers::new("Telegram game"),
        }
    }
}

impl Turns {
    /// Hands `change` to its game's worker (started if there is none); an older view never
    /// replaces a newer one still waiting.
    pub fn push(&self, ctx: &Arc<Ctx>, change: Change) {
        let id = change.view.id.clone();
        if let Some(rx) = self.games.merge(&id, change, merge) {
            let work = work(ctx.clone(), self.games.clone(), id.clone(), rx);
            self.games.spawn(id, work);
        }
    }

    /// Games with a worker now.
    pub fn games(&self) -> usize {
        self.games.len()
    }
}

/// Puts `new` in place of `waiting` unless it is older; keeps the time of a press.
fn merge(waiting: &mut Change, new: Change) -> bool {
    if crate::platform::present::is_older(&new.view, &waiting.view) {
        return false;
    }
    let pressed = new.pressed.or(waiting.pressed);
    *waiting = Change { pressed, ..new };
    true
}

/// Whether the board waits for the bot's reply before it is drawn.
fn holds(view: &GameView) -> bool {
    !view.is_over() && matches!(view.to_move_player(), Some(Player::Bot(_)))
}

async fn work(ctx: Arc<Ctx>, games: Workers<Change>, id: String, mut rx: watch::Receiver<Change>) {
    let mut last: Option<Shown> = None;
    let mut pressed: Option<Instant> = None;
    while games.next(&id, &mut rx, IDLE).await {
        let change = rx.borrow_and_update().clone();
        pressed = change.pressed.or(pressed);
        if holds(&change.view) && tokio::time::timeout(HOLD, rx.changed()).await.is_ok() {
            // The bot answered in time: show its board instead (it names both moves). Waiting
            // marked it seen; marked new again, the next turn of the loop takes it.
            rx.mark_changed();
            continue;
        }
        if last == Some(shown(&change.view)) {
            continue;
        }
        let notice = wants_notice(&change, pressed);
        // A board not attached yet is drawn by whoever posts it; this change is not "shown".
        if caught("board", boards::show_change(&ctx, &change, notice)).await == Some(true) {
            last = Some(shown(&change.view));
        }
    }
}

/// Whether the player to move should be told: not after the bot's quick reply to a press
/// (the player is looking at the board), otherwise as `Ctx::notify_turn` decides.
/// The bot's first move of a game counts as a quick reply too: the player has just asked
/// for the game. A game that ended on time with nobody pressing is always told.
fn wants_notice(change: &Change, pressed: Option<Instant>) -> bool {
    if change.actor.is_none() && crate::platform::present::ended_on_time(&change.view) {
        return true;
    }
    let bot_replied = change.actor.is_none() && change.view.against_bot();
    if !bot_replied {
        return true;
    }
    let just_started = change.view.ply <= 1 && pressed.is_none();
    !just_started && pressed.is_none_or(|p| p.elapsed() >= LOOKED_AWAY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ChatRef, Level, Platform, UserRef};

    fn change(ply: u16, actor: Option<&str>, pressed: Option<Instant>) -> Change {
        let user = UserRef::new(Platform::Telegram, "1", "A");
        let mut view = GameView::sample(
            "g",
            ChatRef::new(Platform::Telegram, "1"),
            [Player::Human(user.clone()), Player::Bot(Level::Easy)],
        );
        view.ply = ply;
        view.version = u64::from(ply);
        Change {
            view,
            actor: actor.map(|_| user),
            pressed,
        }
    }

    #[test]
    fn a_newer_change_replaces_a_waiting_one_an_older_never_does() {
        let t = Instant::now();
        let mut waiting = change(3, Some("a"), Some(t));
        assert!(merge(&mut waiting, change(4, None, None)));
        assert_eq!(waiting.view.ply, 4);
        assert_eq!(waiting.pressed, Some(t), "the press time is kept");
        assert!(!merge(&mut waiting, change(3, Some("a"), None)));
        assert_eq!(waiting.view.ply, 4);
    }

    #[test]
    fn no_notice_after_a_quick_bot_reply() {
        let now = Instant::now();
        assert!(!wants_notice(&change(4, None, None), Some(now)));
        assert!(wants_notice(&change(4, None, None), None), "no press seen");
        assert!(
            !wants_notice(&change(1, None, None), None),
            "the bot opened the game"
        );
        let long_ago = now.checked_sub(LOOKED_AWAY * 2).unwrap_or(now);
        if long_ago < now {
            assert!(wants_notice(&change(4, None, None), Some(long_ago)));
        }
        assert!(wants_notice(&change(3, Some("a"), Some(now)), Some(now)));
    }

    #[test]
    fn a_game_ended_on_time_is_always_told() {
        let mut flagged = change(6, None, None);
        flagged.view.status = GameStatus::Finished {
            winner: Some(Side::Black),
            reason: crate::manager::FinishReason::TimedOut(Side::White),
        };
        assert!(wants_notice(&flagged, Some(Instant::now())));
        assert!(!wants_notice(&change(6, None, None), Some(Instant::now())));
    }
}
