//! The collection file: one puzzle a line as a JSON object (`Puzzle`'s fields). A run's
//! progress is kept beside it, in `FILE.done`: one finished game's key a line, so a stopped
//! run resumes with the games it had not finished.

use super::games::Game;
use super::types::{fnv1a, Puzzle, Theme};
use crate::rules::Position;
use std::collections::HashSet;
use std::fmt::Write;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    #[error("line {line}: {message}")]
    Line { line: usize, message: String },
}

/// A game's key in `FILE.done`: a hash of its start and its moves, so the same game is
/// known again whatever file or place it comes from.
pub fn game_key(game: &Game) -> String {
    let mut text = game.start.to_fen();
    text.push(' ');
    text.extend(game.pits.iter().map(|p| char::from(b'0' + p)));
    format!("{:016x}", fnv1a(text.as_bytes()))
}

/// The games of `games` still to mine: not in `done`, each once (the first of two equal
/// games is kept).
pub fn pending_games(games: Vec<Game>, done: &HashSet<String>) -> Vec<Game> {
    let mut seen = HashSet::new();
    games
        .into_iter()
        .filter(|g| {
            let key = game_key(g);
            !done.contains(&key) && seen.insert(key)
        })
        .collect()
}

/// Every solver position of `puzzles` (`position_key`): what a resumed run must not use
/// again.
pub fn used_positions(puzzles: &[Puzzle]) -> HashSet<String> {
    puzzles.iter().flat_map(Puzzle::solver_keys).collect()
}

/// One line of the collection file (without the newline).
pub fn puzzle_line(puzzle: &Puzzle) -> String {
    serde_json::to_string(puzzle).unwrap_or_default()
}

/// Every puzzle of a collection file's text. A puzzle whose position or solution does not
/// play is an error naming its line: the file was edited or truncated.
pub fn parse_puzzles(text: &str) -> Result<Vec<Puzzle>, FileError> {
    let mut puzzles = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |message: String| FileError::Line {
            line: i + 1,
            message,
        };
        let puzzle: Puzzle = serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
        // The solver moves first and last: an empty line, or one ending with the
        // opponent's reply, could never be finished and would leave the player stuck.
        if puzzle.solution.len() % 2 == 0 {
            return Err(bad(format!(
                "puzzle {}: the solution {:?} must be an odd number of moves (the solver's \
                 first and last), not {}",
                puzzle.id,
                puzzle.solution,
                puzzle.solution.len()
            )));
        }
        let mut pos = Position::from_fen(&puzzle.position).map_err(|e| bad(e.to_string()))?;
        for pit in puzzle.pits() {
            pos.play(pit)
                .map_err(|e| bad(format!("solution {}: {e}", puzzle.solution)))?;
        }
        puzzles.push(puzzle);
    }
    Ok(puzzles)
}

/// The keys of `FILE.done`'s text.
pub fn read_done(text: &str) -> HashSet<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// A few lines on a collection: how many puzzles, solution lengths, themes, the spread of
/// ratings (docs/puzzles.md quotes them).
pub fn summary(puzzles: &[Puzzle]) -> String {
    let mut out = String::new();
    let n = puzzles.len();
    let _ = writeln!(out, "{n} puzzles");
    if n == 0 {
        return out;
    }
    let mut lengths = [0usize; 6];
    for p in puzzles {
        lengths[p.solver_moves().min(5)] += 1;
    }
    let _ = writeln!(
        out,
        "solver's moves: {}",
        (1..=5)
            .map(|k| format!("{k}: {}", lengths[k]))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let themes: Vec<String> = Theme::ALL
        .iter()
        .map(|t| {
            let count = puzzles.iter().filter(|p| p.themes.contains(t)).count();
            format!(
                "{} {count} ({:.0}%)",
                t.name(),
                100.0 * count as f64 / n as f64
            )
        })
        .collect();
    let none = puzzles.iter().filter(|p| p.themes.is_empty()).count();
    let _ = writeln!(out, "themes: {}, none {none}", themes.join(", "));
    let mut ratings: Vec<f64> = puzzles.iter().map(|p| p.rating).collect();
    ratings.sort_by(f64::total_cmp);
    let at = |q: f64| ratings[((n - 1) as f64 * q).round() as usize];
    let _ = writeln!(
        out,
        "ratings: min {}, 10% {}, 25% {}, median {}, 75% {}, 90% {}, max {}",
        at(0.0),
        at(0.1),
        at(0.25),
        at(0.5),
        at(0.75),
        at(0.9),
        at(1.0)
    );
    let mut bands = String::new();
    for low in (600..2500).step_by(200) {
        let count = ratings
            .iter()
            .filter(|&&r| r >= low as f64 && r < (low + 200) as f64)
            .count();
        if count > 0 {
            let _ = write!(bands, " {low}-{}: {count};", low + 199);
        }
    }
    let _ = writeln!(out, "rating bands:{}", bands.trim_end_matches(';'));
    out
}
