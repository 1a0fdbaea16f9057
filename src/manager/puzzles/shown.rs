//! Building a puzzle's view: the board at a point of its line, while solving and once the
//! attempt is over.

use super::record::{Attempt, PuzzleError, PuzzlePlayer};
use super::view::{PuzzleState, PuzzleView};
use crate::manager::ActionError;
use crate::puzzle::Puzzle;
use crate::ratings::Rating;
use crate::rules::{MoveReport, Position};

/// The position where the solver is to play their move `step` (0-based), and the reply that
/// led to it (`None` at the start).
fn at_step(puzzle: &Puzzle, step: u8) -> Result<(Position, Option<MoveReport>), ActionError> {
    let mut pos = Position::from_fen(&puzzle.position).map_err(|_| PuzzleError::Over)?;
    let mut last = None;
    for &pit in puzzle.pits().iter().take(usize::from(step) * 2) {
        last = Some(pos.play(pit).map_err(ActionError::Illegal)?);
    }
    Ok((pos, last))
}

/// The position where the solver plays their move `step`.
pub(super) fn position_at(puzzle: &Puzzle, step: u8) -> Result<Position, ActionError> {
    at_step(puzzle, step).map(|(pos, _)| pos)
}

/// An attempt on: the solver to move at its step, with the reply that led there.
pub(super) fn solving_view(
    player: &PuzzlePlayer,
    attempt: &Attempt,
    puzzle: &Puzzle,
    puzzle_rating: Rating,
    today: i64,
) -> Result<PuzzleView, ActionError> {
    let (position, reply) = at_step(puzzle, attempt.step)?;
    Ok(PuzzleView {
        owner: player.user.clone(),
        attempt: attempt.number,
        puzzle: puzzle.clone(),
        daily: attempt.daily,
        solver: position.to_move(),
        position,
        step: attempt.step,
        last_move: reply,
        state: PuzzleState::Solving { reply },
        rating: player.rating,
        rating_before: None,
        puzzle_rating,
        streak: player.streak_on(today),
    })
}

/// An attempt just over: solved (the board after the last move) or failed (the board before
/// the wrong move; the front end marks it and the solution).
pub(super) fn ended_view(
    player: &PuzzlePlayer,
    (attempt, solved, pit): &(Attempt, bool, u8),
    puzzle: &Puzzle,
    (before, puzzle_rating): (Rating, Rating),
) -> Result<PuzzleView, ActionError> {
    let (mut position, reply) = at_step(puzzle, attempt.step)?;
    let solver = position.to_move();
    let (state, last_move) = if *solved {
        let report = position.play(*pit).map_err(ActionError::Illegal)?;
        (PuzzleState::Solved, Some(report))
    } else {
        let pits = puzzle.pits();
        let solution = *pits
            .get(usize::from(attempt.step) * 2)
            .ok_or(PuzzleError::Over)?;
        let report = position
            .clone()
            .play(solution)
            .map_err(ActionError::Illegal)?;
        let state = PuzzleState::Failed {
            played: *pit,
            solution,
            captures: report.captured,
            makes_tuzdek: report.tuzdek_created,
            gap: puzzle.gap,
        };
        (state, reply)
    };
    Ok(PuzzleView {
        owner: player.user.clone(),
        attempt: attempt.number,
        puzzle: puzzle.clone(),
        daily: attempt.daily,
        position,
        solver,
        step: attempt.step,
        last_move,
        state,
        rating: player.rating,
        rating_before: Some(before),
        puzzle_rating,
        streak: player.streak,
    })
}
