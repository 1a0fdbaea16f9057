//! The ground floor (docs/architecture.md): plain values every layer shares and that import
//! nothing of the crate: who and where (`Platform`, `UserRef`, `ChatRef`), the ids of games
//! and challenges, playing levels and time controls, display names made safe to show
//! (`names`). Anything here may be used anywhere;
//! nothing here knows about games, storage or chat services.

mod ids;
mod level;
pub mod names;
pub mod notify;
mod platform;
mod time_control;

pub use ids::{ChallengeId, GameId};
pub use level::{Level, UnknownLevel};
pub use platform::{ChatRef, Platform, UserRef};
pub use time_control::{
    clock_text, parse_pgn_clock, pgn_clock, Category, TimeControl, TimeControlError, DAYS_PER_MOVE,
    MAX_BASE_MS, MAX_INCREMENT_MS, MIN_BASE_MS,
};
