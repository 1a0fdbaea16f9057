//! A game's clock: both sides' time in milliseconds, charged move by move.
//!
//! The side to move's time runs from `turn_started_ms`, the moment the previous move (or the
//! start) became durable, to the moment the next press reaches the manager; the caller
//! passes both as `now`. Each side's first move has its own limit (the game is aborted
//! without result when it runs out) and is not charged; from its second move on, a side's
//! time is charged and the increment added after each move.

use crate::rules::Side;
use serde::{Deserialize, Serialize};

/// What happens when a deadline passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockEvent {
    /// The side ran out of time: it loses.
    Flag(Side),
    /// The side did not make its first move in time: the game ends without result.
    Abort(Side),
}

/// The next moment something happens on the clock, unless a move comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    pub at_ms: u64,
    pub event: ClockEvent,
}

/// Both sides' clocks, stored with the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameClock {
    /// Time left (White, Black) at the start of the side's current or next turn.
    pub remaining_ms: [u64; 2],
    pub increment_ms: u64,
    /// When the side to move's time began to run (unix milliseconds).
    pub turn_started_ms: u64,
    /// Time left of the side that moved, after each move (for `%clk` in records).
    #[serde(default)]
    pub after_move_ms: Vec<u64>,
    /// (White, Black) went berserk in an arena: half their time, no increment.
    #[serde(default)]
    pub berserk: [bool; 2],
    /// (White, Black) the game's board has not reached this player yet (a tournament's
    /// boards go out behind the platforms' flood limits): no first move's time runs until
    /// the board has reached both (`seen`).
    #[serde(default, skip_serializing_if = "none_unseen")]
    pub unseen: [bool; 2],
    /// While a player is unseen, the latest moment the first move's time starts anyway: a
    /// board that can reach nobody must not hold its game (and its tournament) for ever.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unseen_until_ms: u64,
}

fn none_unseen(unseen: &[bool; 2]) -> bool {
    !unseen.iter().any(|u| *u)
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Whether the move at `ply` (0-based) is its side's first: those have their own limit.
fn first_move(ply: u16) -> bool {
    ply < 2
}

impl GameClock {
    pub fn new(base_ms: u64, increment_ms: u64, now_ms: u64) -> GameClock {
        GameClock {
            remaining_ms: [base_ms; 2],
            increment_ms,
            turn_started_ms: now_ms,
            after_move_ms: Vec::new(),
            berserk: [false; 2],
            unseen: [false; 2],
            unseen_until_ms: 0,
        }
    }

    /// The board has not reached the players marked in `unseen` yet: the first moves' time
    /// waits for it, until `until_ms` at the latest.
    pub fn wait_for_boards(&mut self, unseen: [bool; 2], until_ms: u64) {
        self.unseen = unseen;
        self.unseen_until_ms = if none_unseen(&unseen) { 0 } else { until_ms };
    }

    /// Whether a board has yet to reach a player.
    pub fn awaits_boards(&self) -> bool {
        !none_unseen(&self.unseen)
    }

    /// The board reached `side` at `now_ms` (it was posted where they see it, or they
    /// moved). When that was the last player waited for, the first move's time of the side
    /// to move (at `ply`) starts now. True if anything changed.
    pub fn seen(&mut self, side: Side, ply: u16, now_ms: u64) -> bool {
        if !std::mem::replace(&mut self.unseen[side.index()], false) {
            return false;
        }
        if !self.awaits_boards() {
            self.unseen_until_ms = 0;
            if first_move(ply) {
                self.turn_started_ms = self.turn_started_ms.max(now_ms);
            }
        }
        true
    }

    /// `side` goes berserk (an arena's bonus for a win): its time is halved and it plays
    /// without increment. The caller checks that it has not moved yet.
    pub fn go_berserk(&mut self, side: Side) {
        let i = side.index();
        if !self.berserk[i] {
            self.berserk[i] = true;
            self.remaining_ms[i] /= 2;
        }
    }

    /// Time the side to move has used on this turn by `now_ms`.
    pub fn elapsed(&self, now_ms: u64) -> u64 {
        now_ms.saturating_sub(self.turn_started_ms)
    }

    /// When the side to move (`to_move`, at ply `ply`) flags, or is aborted on a first
    /// move that takes longer than `first_move_ms`.
    pub fn deadline(&self, to_move: Side, ply: u16, first_move_ms: u64) -> Deadline {
        if first_move(ply) {
            let start = match self.awaits_boards() {
                true => self.turn_started_ms.max(self.unseen_until_ms),
                false => self.turn_started_ms,
            };
            Deadline {
                at_ms: start.saturating_add(first_move_ms),
                event: ClockEvent::Abort(to_move),
            }
        } else {
            Deadline {
                at_ms: self
                    .turn_started_ms
                    .saturating_add(self.remaining_ms[to_move.index()]),
                event: ClockEvent::Flag(to_move),
            }
        }
    }

    /// The event due at `now_ms`, if the deadline has come: a press at the very millisecond
    /// the time runs out is too late (no time was left for it).
    pub fn due(
        &self,
        to_move: Side,
        ply: u16,
        first_move_ms: u64,
        now_ms: u64,
    ) -> Option<ClockEvent> {
        let deadline = self.deadline(to_move, ply, first_move_ms);
        (now_ms >= deadline.at_ms).then_some(deadline.event)
    }

    /// Time `side` has left at `now_ms` (the side to move's runs; a first move's does not).
    pub fn left(&self, side: Side, to_move: Side, ply: u16, now_ms: u64) -> u64 {
        let stored = self.remaining_ms[side.index()];
        if side == to_move && !first_move(ply) {
            stored.saturating_sub(self.elapsed(now_ms))
        } else {
            stored
        }
    }

    /// Charges a move by `mover` at `ply` that took `used_ms` (the caller has checked that
    /// nothing was `due`), adds the increment, and returns the mover's time left. The
    /// opponent's time starts with `start_turn`, once the move is durable.
    pub fn charge(&mut self, mover: Side, ply: u16, used_ms: u64) -> u64 {
        let increment = match self.berserk[mover.index()] {
            true => 0,
            false => self.increment_ms,
        };
        let left = &mut self.remaining_ms[mover.index()];
        if !first_move(ply) {
            *left = left.saturating_sub(used_ms).saturating_add(increment);
        }
        let left = *left;
        self.after_move_ms.push(left);
        left
    }

    /// The side to move's time starts now (its opponent's move just became durable).
    pub fn start_turn(&mut self, now_ms: u64) {
        self.turn_started_ms = now_ms;
    }

    /// After a restart: the side to move had used `alive_ms - turn_started_ms` when the
    /// process was last known alive; that much stays used, the downtime is not charged. A
    /// deadline that had passed before the stop is then `due` at once.
    pub fn resume(&mut self, alive_ms: u64, now_ms: u64) {
        let used = alive_ms.saturating_sub(self.turn_started_ms);
        self.turn_started_ms = now_ms.saturating_sub(used);
        if self.awaits_boards() {
            // The boards' wait is not cut short by the downtime either.
            let down = now_ms.saturating_sub(alive_ms);
            self.unseen_until_ms = self.unseen_until_ms.saturating_add(down);
        }
    }

    /// The deadline a board shows at `now_ms`: while a board is still on its way, the first
    /// move's time as it will be once it arrives (about now), not the latest start.
    pub fn deadline_shown(
        &self,
        to_move: Side,
        ply: u16,
        first_move_ms: u64,
        now_ms: u64,
    ) -> Deadline {
        let mut deadline = self.deadline(to_move, ply, first_move_ms);
        if first_move(ply) && self.awaits_boards() {
            deadline.at_ms = deadline.at_ms.min(now_ms.saturating_add(first_move_ms));
        }
        deadline
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const FIRST: u64 = 30_000;

    #[test]
    fn the_increment_is_added_after_each_move_but_the_first() {
        let mut c = GameClock::new(180_000, 2_000, 0);
        // Each side's first move: its own limit, nothing charged.
        assert_eq!(c.charge(Side::White, 0, 10_000), 180_000);
        c.start_turn(10_000);
        assert_eq!(c.charge(Side::Black, 1, 5_000), 180_000);
        c.start_turn(15_000);
        // White's second move took 19 s: 180 - 19 + 2.
        assert_eq!(c.left(Side::White, Side::White, 2, 34_000), 161_000);
        assert_eq!(c.charge(Side::White, 2, c.elapsed(34_000)), 163_000);
        assert_eq!(c.after_move_ms, vec![180_000, 180_000, 163_000]);
    }

    #[test]
    fn no_first_move_time_runs_until_the_board_reached_both_players() {
        let mut c = GameClock::new(180_000, 2_000, 1_000);
        c.wait_for_boards([true, true], 600_000);
        // Long after the creation, nothing is due while the boards are on their way.
        assert_eq!(c.due(Side::White, 0, FIRST, 200_000), None);
        assert!(c.seen(Side::Black, 0, 100_000), "Black's board arrived");
        assert!(!c.seen(Side::Black, 0, 110_000), "once is enough");
        assert_eq!(c.due(Side::White, 0, FIRST, 200_000), None);
        // White's board arrives at 250 s: White's 30 s start then.
        assert!(c.seen(Side::White, 0, 250_000));
        assert!(!c.awaits_boards());
        assert_eq!(c.due(Side::White, 0, FIRST, 279_999), None);
        assert_eq!(
            c.due(Side::White, 0, FIRST, 280_000),
            Some(ClockEvent::Abort(Side::White))
        );
    }

    #[test]
    fn a_board_that_never_arrives_holds_the_game_until_the_latest_start() {
        let mut c = GameClock::new(180_000, 0, 1_000);
        c.wait_for_boards([true, false], 600_000);
        assert_eq!(c.deadline(Side::White, 0, FIRST).at_ms, 630_000);
        // A board shows the time as it will run once the board is there.
        assert_eq!(c.deadline_shown(Side::White, 0, FIRST, 5_000).at_ms, 35_000);
        // A restart does not eat into the wait.
        c.resume(100_000, 160_000);
        assert_eq!(c.deadline(Side::White, 0, FIRST).at_ms, 690_000);
        // Nothing waits on a board once a side has moved twice.
        assert_eq!(
            c.deadline(Side::White, 2, FIRST).event,
            ClockEvent::Flag(Side::White)
        );
    }

    #[test]
    fn berserk_halves_the_time_once_and_drops_the_increment() {
        let mut c = GameClock::new(180_000, 2_000, 0);
        c.go_berserk(Side::Black);
        c.go_berserk(Side::Black);
        assert_eq!(c.remaining_ms, [180_000, 90_000]);
        c.charge(Side::White, 0, 1_000);
        c.charge(Side::Black, 1, 1_000);
        assert_eq!(c.charge(Side::White, 2, 10_000), 172_000);
        assert_eq!(c.charge(Side::Black, 3, 10_000), 80_000, "no increment");
    }

    #[test]
    fn a_first_move_too_late_aborts_and_a_later_one_flags() {
        let c = GameClock::new(6_000, 0, 1_000);
        assert_eq!(c.due(Side::White, 0, FIRST, 30_999), None);
        assert_eq!(
            c.due(Side::White, 0, FIRST, 31_000),
            Some(ClockEvent::Abort(Side::White))
        );
        assert_eq!(
            c.deadline(Side::Black, 3, FIRST),
            Deadline {
                at_ms: 7_000,
                event: ClockEvent::Flag(Side::Black)
            }
        );
        assert_eq!(c.due(Side::Black, 3, FIRST, 6_999), None);
        assert_eq!(
            c.due(Side::Black, 3, FIRST, 7_000),
            Some(ClockEvent::Flag(Side::Black))
        );
    }

    #[test]
    fn downtime_is_not_charged_on_resume() {
        let mut c = GameClock::new(60_000, 0, 0);
        c.start_turn(100_000);
        // Alive until 110 s (10 s used), restarted at 500 s.
        c.resume(110_000, 500_000);
        assert_eq!(c.left(Side::Black, Side::Black, 3, 500_000), 50_000);
        assert_eq!(c.due(Side::Black, 3, FIRST, 549_999), None);
        // Out of time before the stop: due at once.
        let mut late = GameClock::new(5_000, 0, 0);
        late.start_turn(100_000);
        late.resume(106_000, 900_000);
        assert_eq!(
            late.due(Side::White, 4, FIRST, 900_000),
            Some(ClockEvent::Flag(Side::White))
        );
    }

    proptest! {
        /// Whatever the moves' times, a side's clock never grows by more than the increment
        /// per move, a move is charged exactly its time (past the first moves), and a side
        /// is due to flag exactly when its time is used up.
        #[test]
        fn charging_is_exact(
            base in 6_000u64..600_000,
            inc in 0u64..10_000,
            times in proptest::collection::vec(0u64..20_000, 2..60),
        ) {
            let mut c = GameClock::new(base, inc, 0);
            let mut now = 0u64;
            for (i, used) in times.iter().enumerate() {
                let ply = u16::try_from(i).unwrap_or(u16::MAX);
                let side = if i % 2 == 0 { Side::White } else { Side::Black };
                let before = c.remaining_ms[side.index()];
                let deadline = c.deadline(side, ply, FIRST);
                let at = now + used;
                prop_assert_eq!(c.due(side, ply, FIRST, at).is_some(), at >= deadline.at_ms);
                if c.due(side, ply, FIRST, at).is_some() {
                    break;
                }
                let left = c.charge(side, ply, c.elapsed(at));
                if ply < 2 {
                    prop_assert_eq!(left, before);
                } else {
                    prop_assert_eq!(left, before - used + inc);
                }
                now = at;
                c.start_turn(now);
            }
        }

        /// Resuming at any later time leaves exactly the time left at the last sign of life.
        #[test]
        fn resume_keeps_the_time_left_when_the_process_stopped(
            used in 0u64..100_000, down in 0u64..10_000_000,
        ) {
            let mut c = GameClock::new(120_000, 0, 0);
            c.start_turn(1_000);
            let alive = 1_000 + used;
            let before = c.left(Side::White, Side::White, 2, alive);
            c.resume(alive, alive + down);
            prop_assert_eq!(c.left(Side::White, Side::White, 2, alive + down), before);
        }
    }
}
