//! Clocks (issue 17): a running game's clock and the bot's thinking time. Pure: no I/O, no
//! system clock; every function that needs the time takes `now`.
//!
//! - `TimeControl` (in `model`): `correspondence` (hours per move, the sweep's time-out) or
//!   Fischer `M+S` (M minutes per side, fractional allowed, S seconds added after each move).
//! - [`GameClock`] (`clock.rs`): both sides' time in milliseconds, charged per move.
//! - [`think_time`] (`budget.rs`): how long the bot may think on its clock.

mod budget;
mod clock;

pub use budget::{think_time, BOT_RESERVE_MS};
pub use clock::{ClockEvent, Deadline, GameClock};
