//! The score scale shared by the evaluation and the search: balls in hundredths, and won or
//! lost games as scores beyond any evaluation. Its own module so that `eval` and `search`
//! both build on it instead of on each other.

/// One ball, in score units.
pub const BALL: i32 = 100;
/// The score of a won game at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// The deepest the search goes (plies from the root).
pub const MAX_PLY: usize = 128;
/// Scores at least this large are known wins (or, negated, losses).
pub(super) const WIN_BOUND: i32 = WIN - MAX_PLY as i32 - 2;
/// The score of winning `ply` plies from the root.
pub(super) fn win_in(ply: usize) -> i32 {
    WIN - ply as i32
}

/// The score of losing `ply` plies from the root.
pub(super) fn loss_in(ply: usize) -> i32 {
    -WIN + ply as i32
}

/// For a decisive score, the plies until the game ends: positive when the side to move wins.
pub fn plies_to_end(score: i32) -> Option<i32> {
    if score >= WIN_BOUND {
        Some(WIN - score)
    } else if score <= -WIN_BOUND {
        Some(-(WIN + score))
    } else {
        None
    }
}

/// Whether a score is a known win for the side to move.
pub fn is_win(score: i32) -> bool {
    score >= WIN_BOUND
}

/// Whether a score is a known loss for the side to move.
pub fn is_loss(score: i32) -> bool {
    score <= -WIN_BOUND
}
