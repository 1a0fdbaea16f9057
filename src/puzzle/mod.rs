//! The puzzle collection (issue 34): positions mined from real games where the side to move
//! has one move clearly better than every other, each continued as a short line of such
//! moves, with the themes of what the line does and a starting rating. Pure code: games
//! in as text, puzzles out as values and JSON lines; the command line (`toguz puzzle`) does
//! the files, the threads and the progress bar. How puzzles are chosen, and the measured
//! figures of a run: docs/puzzles.md.

mod collection;
mod file;
mod games;
mod generate;
mod themes;
mod types;

pub use collection::{ByRating, Collection, Seen, Verdict, SHIPPED};
pub use file::{
    game_key, parse_puzzles, pending_games, puzzle_line, read_done, summary, used_positions,
    FileError,
};
pub use games::{read_games, Game};
pub use generate::{mine_game, only_move, scores_at, start_rating, GameMined, TABLE_MB};
pub use themes::detect_themes;
pub use types::{position_key, solver_keys, Puzzle, Settings, Theme};

#[cfg(test)]
mod tests;
