//! Perft: the number of leaves of the game tree to a fixed depth, finished games counting as
//! leaves. It checks move generation against known counts and measures raw speed.

use super::Position;

/// Leaves `depth` half-moves below `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 || pos.is_over() {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        // Bulk counting: every legal move leads to exactly one leaf.
        return moves.len() as u64;
    }
    let mut leaves = 0;
    for pit in moves.iter() {
        let mut child = *pos;
        if child.play(pit).is_ok() {
            leaves += perft(&child, depth - 1);
        }
    }
    leaves
}
