//! Mining one game: a cheap screen of every position, then the verification of the few that
//! pass, the solver's line, its themes and its rating (docs/puzzles.md).

use super::games::Game;
use super::themes::detect_themes;
use super::types::{fnv1a, position_key, solver_keys, Puzzle, Settings};
use crate::engine::{is_loss, is_win, Limits, Searcher};
use crate::rules::Position;
use std::collections::HashSet;

/// The transposition table of a mining thread, in MiB.
pub const TABLE_MB: usize = 16;

/// What mining one game gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameMined {
    /// Positions looked at (from `min_ply` on, with two moves or more).
    pub positions: usize,
    /// Positions that passed the screen and were verified.
    pub candidates: usize,
    /// The puzzles found, in the order of the game (none shares a position with another).
    pub puzzles: Vec<Puzzle>,
}

/// The score of every legal move of `pos` at `depth` for the side to move, best first, from
/// a cleared table: the same position always gets the same scores. This is the
/// verification every shipped puzzle passed.
pub fn scores_at(searcher: &mut Searcher, pos: &Position, depth: u32) -> Vec<(u8, i32)> {
    searcher.clear();
    searcher.score_moves(pos, depth)
}

/// The only move of scored moves (best first): one move at least `margin` better than every
/// other, or a known win when no other move wins. Its score and the second best's.
pub fn only_move(scores: &[(u8, i32)], margin: i32) -> Option<(u8, i32, i32)> {
    let [(best, first), (_, second), ..] = *scores else {
        return None;
    };
    if is_win(second) || is_loss(first) {
        return None;
    }
    (is_win(first) || first - second >= margin).then_some((best, first, second))
}

/// Mines `game` for puzzles. `searcher` is the thread's own; its table is cleared first,
/// so a game gives the same puzzles whichever thread mines it.
pub fn mine_game(game: &Game, settings: &Settings, searcher: &mut Searcher) -> GameMined {
    searcher.clear();
    let mut mined = GameMined::default();
    // Solver positions of the puzzles found so far: none is used twice.
    let mut used: HashSet<String> = HashSet::new();
    let mut pos = game.start;
    for &pit in &game.pits {
        if pos.ply() >= settings.min_ply && pos.legal_moves().len() >= 2 {
            mined.positions += 1;
            let screen = searcher.score_moves(&pos, settings.screen_depth);
            if only_move(&screen, settings.margin / 2).is_some()
                && !used.contains(&position_key(&pos))
            {
                mined.candidates += 1;
                if let Some(puzzle) = verify(game, &pos, settings, searcher) {
                    used.extend(solver_keys(&pos, &puzzle.pits()));
                    mined.puzzles.push(puzzle);
                }
                // The verification cleared the table: the screen starts it again.
            }
        }
        if pos.play(pit).is_err() {
            break;
        }
    }
    mined
}

/// The puzzle starting at `pos`, if its only move holds at the verification depth.
fn verify(
    game: &Game,
    pos: &Position,
    settings: &Settings,
    searcher: &mut Searcher,
) -> Option<Puzzle> {
    let scores = scores_at(searcher, pos, settings.depth);
    let (best, first, second) = only_move(&scores, settings.margin)?;
    // A move that cannot change the result is no puzzle.
    if (!is_win(second) && second >= settings.decided)
        || (!is_win(first) && first <= -settings.decided)
    {
        return None;
    }
    let solution = line(pos, best, settings, searcher);
    let effort = effort(searcher, pos, best, settings.depth);
    let solver_moves = solution.len().div_ceil(2);
    Some(Puzzle {
        id: puzzle_id(pos),
        position: pos.to_fen(),
        solution: solution.iter().map(|p| char::from(b'0' + p)).collect(),
        themes: detect_themes(pos, &solution, first),
        rating: start_rating(effort, solver_moves),
        score: first,
        gap: first.saturating_sub(second),
        depth: settings.depth,
        effort,
        game: game.label.clone(),
    })
}

/// The solution from `pos`, first move `best`: after each solver's move the engine's reply
/// (a fresh search at the verification depth), then the next only move, while there is one
/// and the game goes on, up to `max_moves` of the solver's.
fn line(pos: &Position, best: u8, settings: &Settings, searcher: &mut Searcher) -> Vec<u8> {
    let mut solution = Vec::with_capacity(2 * settings.max_moves);
    let (mut pos, mut next) = (*pos, best);
    loop {
        if pos.play(next).is_err() {
            break;
        }
        solution.push(next);
        if pos.is_over() || solution.len().div_ceil(2) >= settings.max_moves {
            break;
        }
        searcher.clear();
        let limits = Limits {
            depth: Some(settings.depth),
            ..Limits::default()
        };
        let Some(reply) = searcher.search(&pos, limits, |_| {}).best_move else {
            break;
        };
        let mut after = pos;
        if after.play(reply).is_err() || after.is_over() {
            break;
        }
        let scores = scores_at(searcher, &after, settings.depth);
        let Some((only, _, _)) = only_move(&scores, settings.margin) else {
            break;
        };
        solution.push(reply);
        pos = after;
        next = only;
    }
    solution
}

/// Nodes a fresh search of `pos` (to `depth`) takes to settle on `best`: the nodes of the
/// first iteration from which every iteration chose it; twice the whole search's when the
/// search never settles on it.
fn effort(searcher: &mut Searcher, pos: &Position, best: u8, depth: u32) -> u64 {
    searcher.clear();
    let mut settled: Option<u64> = None;
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let result = searcher.search(pos, limits, |info| {
        if info.pv.first() == Some(&best) {
            settled.get_or_insert(info.nodes);
        } else {
            settled = None;
        }
    });
    match (settled, result.best_move == Some(best)) {
        (Some(nodes), true) => nodes.max(1),
        _ => result.info.nodes.max(1) * 2,
    }
}

/// The starting rating: 300 plus 140 per doubling of the engine's effort, plus 100 per move
/// of the solver after the first, between 600 and 2500 (docs/puzzles.md, *Ratings*). The
/// steep slope spreads the collection: most only moves are seen within a few dozen nodes.
pub fn start_rating(effort: u64, solver_moves: usize) -> f64 {
    let effort = (effort.max(1) as f64).log2();
    let line = solver_moves.saturating_sub(1) as f64;
    (300.0 + 140.0 * effort + 100.0 * line)
        .clamp(600.0, 2500.0)
        .round()
}

/// `p` and ten hex digits of the FNV-1a hash of the position key.
fn puzzle_id(pos: &Position) -> String {
    format!("p{:010x}", fnv1a(position_key(pos).as_bytes()) >> 24)
}
