//! How a finished game ended, as its archived record keeps it: shared by the history
//! (which writes it when the game's end is counted) and the game's record file.

use crate::ratings::RatingChange;
use serde::{Deserialize, Serialize};

/// How a finished game ended, as kept in its archived record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Ended {
    /// Unix seconds.
    pub at: u64,
    /// White's and Black's rating before and after, for a rated game.
    pub ratings: [Option<RatingChange>; 2],
}
