//! Themes, read from what the solution does when it is played out (docs/puzzles.md,
//! *Themes*).

use super::types::Theme;
use crate::engine::{is_win, BALL};
use crate::rules::{EndReason, Position};

/// Balls on the board at most for an endgame: a third of the variant's total (54 of 162).
fn endgame_balls(pos: &Position) -> u32 {
    pos.variant().total() as u32 / 3
}

/// A store this close to the winning one (or closer) makes a forced win a race.
const RACE_DISTANCE: u8 = 12;

/// The themes of `solution` (pits, the solver's moves at even places) played from `start`;
/// `score` is the first move's verified score for the solver. Sorted, each once.
pub fn detect_themes(start: &Position, solution: &[u8], score: i32) -> Vec<Theme> {
    let solver = start.to_move();
    let mut themes = Vec::new();
    let mut pos = *start;
    let mut first_quiet = false;
    for (i, &pit) in solution.iter().enumerate() {
        let before = pos.store(solver);
        let Ok(report) = pos.play(pit) else {
            break;
        };
        if i % 2 == 1 {
            continue;
        }
        if report.captured > 0 {
            themes.push(Theme::Capture);
        }
        // Balls the move put into the solver's store that no capture or new tuzdek explains
        // were sown into the solver's tuzdek.
        let made = 3 * i32::from(report.tuzdek_created);
        let fed =
            i32::from(report.store_after) - i32::from(before) - i32::from(report.captured) - made;
        if report.tuzdek_created || fed > 0 {
            themes.push(Theme::Tuzdek);
        }
        if i == 0 {
            first_quiet = report.captured == 0 && !report.tuzdek_created;
        }
        if let Some(outcome) = report.outcome {
            if outcome.winner == Some(solver) {
                match outcome.reason {
                    EndReason::Atsyrau => themes.push(Theme::Atsyrau),
                    EndReason::Kazan => themes.push(Theme::Race),
                    EndReason::EqualKazans => {}
                }
            }
        }
    }
    if first_quiet && !is_win(score) && score < 10 * BALL {
        themes.push(Theme::Defence);
    }
    let on_board = start.balls_in_row(solver) + start.balls_in_row(solver.other());
    if on_board <= endgame_balls(start) {
        themes.push(Theme::Endgame);
    }
    let near = start
        .variant()
        .winning_store()
        .saturating_sub(RACE_DISTANCE);
    if is_win(score) && (start.store(solver) >= near || start.store(solver.other()) >= near) {
        themes.push(Theme::Race);
    }
    themes.sort();
    themes.dedup();
    themes
}
