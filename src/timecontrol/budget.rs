//! How long the bot may think on its clock.
//!
//! It keeps a reserve of three seconds (all its time below that) for what is not thinking:
//! the queue for a search slot, writing the move, the search noticing its deadline. Of the
//! rest it spends a thirtieth plus ¾ of the increment, never more than a third of the rest
//! plus half the increment (at most a third of its time). So its spare time shrinks
//! geometrically towards the reserve, and the reserve pays for 150 moves at 20 ms each:
//! longer than toguzqumalak games last. Without an increment nothing lasts for ever: every
//! move costs something besides thinking.

/// The time the bot keeps for what is not thinking, in milliseconds.
pub const BOT_RESERVE_MS: u64 = 3_000;

/// The bot's thinking time in milliseconds with `remaining_ms` on its clock and
/// `increment_ms` coming after the move.
pub fn think_time(remaining_ms: u64, increment_ms: u64) -> u64 {
    let usable = remaining_ms.saturating_sub(BOT_RESERVE_MS);
    let wanted = (usable / 30).saturating_add(increment_ms.saturating_mul(3) / 4);
    let most = (usable / 3).saturating_add((increment_ms / 2).min(remaining_ms / 3));
    wanted.min(most)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays the bot's side of long games on its clock, each search taking its whole budget
    /// plus `overhead_ms` (queue, write, noticing the deadline), and returns the least time
    /// it ever had left (`None` if it flagged).
    fn least_left(base_ms: u64, increment_ms: u64, moves: u32, overhead_ms: u64) -> Option<u64> {
        let mut left = base_ms;
        let mut least = left;
        for _ in 0..moves {
            let spent = think_time(left, increment_ms) + overhead_ms;
            left = left.checked_sub(spent)?.checked_add(increment_ms)?;
            least = least.min(left);
        }
        Some(least)
    }

    #[test]
    fn the_budget_grows_with_the_clock_and_the_increment() {
        assert_eq!(think_time(180_000, 0), 5_900);
        assert_eq!(think_time(180_000, 2_000), 7_400);
        assert_eq!(think_time(6_000, 0), 100);
        assert_eq!(think_time(2_000, 0), 0);
        assert_eq!(think_time(0, 0), 0);
        // With little time left the increment does not tempt it past a third of it.
        assert_eq!(think_time(1_000, 60_000), 333);
    }

    #[test]
    fn the_bot_lasts_any_game_at_every_control() {
        // A toguzqumalak game rarely passes 100 moves a side; 150 with 20 ms lost per move
        // (far more than a search overshoots its deadline) still leaves time, even on the
        // shortest clock.
        let controls = [
            (180_000, 0),
            (6_000, 0),
            (6_000, 1_000),
            (30_000, 2_000),
            (600_000, 5_000),
        ];
        for (base, inc) in controls {
            let least = least_left(base, inc, 150, 20);
            assert!(least.is_some_and(|l| l > 1_000), "{base}+{inc}: {least:?}");
        }
        // At 3+0, 150 moves with 60 ms lost each.
        assert!(least_left(180_000, 0, 150, 60).is_some_and(|l| l > 1_000));
        // With an increment, however long the game.
        assert!(least_left(6_000, 1_000, 10_000, 60).is_some_and(|l| l > 1_000));
    }
}
