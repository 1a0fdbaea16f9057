//! The search: iterative deepening over a principal-variation (negamax) alpha-beta search with
//! a transposition table, hash-move / capture / killer / history move ordering, late-move
//! reductions, aspiration windows, and a quiescence stage that plays out captures at the
//! leaves.
//!
//! Positions are copied and played (`Position` is 32 bytes and `Copy`), never undone.
//! A search stops at its depth, its node limit, its hard deadline or when its stop flag is
//! set, and always answers with the best move of the last finished iteration. With the same
//! position, depth limit and a fresh `Searcher`, every run gives the same result.

use super::eval::{evaluate_with_gains, immediate_gain, Blend, GainRules, Weights};
use super::score::{is_win, loss_in, plies_to_end, win_in, BALL, MAX_PLY, WIN_BOUND};
use super::tt::{Bound, Entry, Table};
use super::zobrist;
use crate::rules::{Outcome, Position, Variant, ROW};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const INF: i32 = 32_000;
/// How often (in nodes) the clock and the stop flag are read.
const CHECK_EVERY: u64 = 1024;
/// How many captures in a row the quiescence stage plays out beyond the nominal depth.
const QUIESCENCE_PLIES: i32 = 6;

/// When a search must stop. With no limit at all it searches to `MAX_PLY`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration to run.
    pub depth: Option<u32>,
    /// Time for the whole search; the answer comes within it (plus the time to notice).
    pub movetime: Option<Duration>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
}

/// What one finished iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    /// For the side to move, in hundredths of a ball; see `plies_to_end` for decided games.
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Principal variation: pits, starting with the best move.
    pub pv: Vec<u8>,
}

impl SearchInfo {
    /// Nodes per second over the whole search so far.
    pub fn nps(&self) -> u64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            (self.nodes as f64 / secs) as u64
        } else {
            0
        }
    }
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the game is over.
    pub best_move: Option<u8>,
    /// The last finished iteration (depth 0 if none finished).
    pub info: SearchInfo,
}

/// A search with its tables; reuse it across the moves of one game, or make a fresh one for
/// reproducible results.
pub struct Searcher {
    tt: Table,
    /// The evaluation's weights, blended for the variant last searched.
    blend: Blend,
    killers: [[u8; 2]; MAX_PLY],
    /// Per side and pit: how often a quiet move caused a cutoff, weighted by depth.
    history: [[i32; ROW]; 2],
    pv: Box<[[u8; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    nodes: u64,
    /// The node count at which the clock and stop flag are next read.
    next_check: u64,
    node_limit: u64,
    started: Instant,
    deadline: Option<Instant>,
    stop: Arc<AtomicBool>,
    stopped: bool,
    /// A root move of the running iteration that proved better than the iteration's first
    /// (the previous best): played if time runs out before the iteration ends.
    improved_root: Option<(u8, Vec<u8>)>,
}

impl Searcher {
    /// A searcher with a transposition table of about `tt_megabytes` MiB.
    pub fn new(tt_megabytes: usize) -> Searcher {
        Searcher {
            tt: Table::new(tt_megabytes),
            blend: Blend::new(Weights::default(), Variant::STANDARD.total() as i32),
            killers: [[0; 2]; MAX_PLY],
            history: [[0; ROW]; 2],
            pv: Box::new([[0; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            nodes: 0,
            next_check: CHECK_EVERY,
            node_limit: u64::MAX,
            started: Instant::now(),
            deadline: None,
            stop: Arc::new(AtomicBool::new(false)),
            stopped: false,
            improved_root: None,
        }
    }

    /// Evaluates with `weights` instead of the tuned ones (to measure one set against another).
    pub fn set_weights(&mut self, weights: Weights) {
        self.blend = Blend::new(weights, self.blend.total());
    }

    /// Forgets everything learned (for a new game, or reproducible results).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history = [[0; ROW]; 2];
        self.killers = [[0; 2]; MAX_PLY];
    }

    /// Uses `flag` as the stop flag: setting it makes a running search return at once with
    /// the best move found so far.
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    fn begin(&mut self, pos: &Position, limits: &Limits) {
        let total = pos.variant().total() as i32;
        if self.blend.total() != total {
            self.blend = Blend::new(*self.blend.weights(), total);
        }
        self.started = Instant::now();
        self.deadline = limits.movetime.map(|t| self.started + t);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.nodes = 0;
        self.next_check = CHECK_EVERY;
        self.stopped = false;
        self.killers = [[0; 2]; MAX_PLY];
        self.tt.new_search();
    }

    /// Searches `pos` within `limits`, calling `on_iteration` after every finished iteration.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: Limits,
        mut on_iteration: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        self.begin(pos, &limits);
        let mut result = SearchResult {
            best_move: fallback_move(pos),
            info: SearchInfo {
                depth: 0,
                score: 0,
                nodes: 0,
                elapsed: Duration::ZERO,
                pv: Vec::new(),
            },
        };
        if result.best_move.is_none() {
            return result;
        }
        let mut root: Vec<u8> = pos.legal_moves().iter().collect();
        order_root(pos, &mut root);
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let mut score = 0;
        for depth in 1..=max_depth {
            self.improved_root = None;
            score = self.aspiration(pos, depth as i32, score, &mut root);
            if self.stopped {
                // An unfinished iteration still counts if it proved a new move better.
                if let Some((mv, pv)) = self.improved_root.take() {
                    result.best_move = Some(mv);
                    result.info.pv = pv;
                }
                break;
            }
            result.best_move = Some(root[0]);
            result.info = SearchInfo {
                depth,
                score,
                nodes: self.nodes,
                elapsed: self.started.elapsed(),
                pv: self.pv[0][..self.pv_len[0]].to_vec(),
            };
            on_iteration(&result.info);
            if self.should_stop_deepening(&limits, score, depth) {
                break;
            }
        }
        result.info.nodes = self.nodes;
        result.info.elapsed = self.started.elapsed();
        result
    }

    /// Exact scores of every legal move at `depth` (each searched with a full window), best
    /// first. Used by the human-like levels, which need to know how much worse a move is.
    pub fn score_moves(&mut self, pos: &Position, depth: u32) -> Vec<(u8, i32)> {
        self.score_moves_within(pos, depth, None)
    }

    /// `score_moves` that stops at `movetime` (or the stop flag) and then answers with the
    /// scores of the last depth it finished (all equal when not even depth 1 finished).
    pub fn score_moves_within(
        &mut self,
        pos: &Position,
        depth: u32,
        movetime: Option<Duration>,
    ) -> Vec<(u8, i32)> {
        self.begin(
            pos,
            &Limits {
                movetime,
                ..Limits::default()
            },
        );
        let mut finished: Vec<(u8, i32)> = pos.legal_moves().iter().map(|m| (m, 0)).collect();
        for d in 1..=depth.max(1) as i32 {
            let mut scored = finished.clone();
            for entry in scored.iter_mut() {
                let mut child = *pos;
                if child.play(entry.0).is_err() {
                    continue;
                }
                entry.1 = -self.negamax(&child, d - 1, -INF, INF, 1);
            }
            if self.stopped {
                break;
            }
            scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
            finished = scored;
        }
        finished
    }

    fn should_stop_deepening(&self, limits: &Limits, score: i32, depth: u32) -> bool {
        if let Some(plies) = plies_to_end(score) {
            // A decided game: deeper iterations cannot change the verdict.
            if depth as i32 >= plies.abs() + 2 {
                return true;
            }
        }
        if let Some(movetime) = limits.movetime {
            // The next iteration takes a few times longer than this one: start it only if
            // it can at least search the best move again (which takes most of its time).
            if self.started.elapsed() * 5 > movetime * 3 {
                return true;
            }
        }
        false
    }

    /// One iteration at the root, first with a narrow window around the last score.
    fn aspiration(&mut self, pos: &Position, depth: i32, guess: i32, root: &mut [u8]) -> i32 {
        let mut delta = BALL / 2;
        let (mut alpha, mut beta) = if depth >= 5 && !is_win(guess.abs()) {
            (guess - delta, guess + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let score = self.root_search(pos, depth, alpha, beta, root);
            if self.stopped {
                return score;
            }
            // Widen the side that failed, to the full window once the miss is large.
            let give_up = delta > 4 * BALL;
            if score <= alpha {
                alpha = if give_up {
                    -INF
                } else {
                    (score - delta).max(-INF)
                };
            } else if score >= beta {
                beta = if give_up {
                    INF
                } else {
                    (score + delta).min(INF)
                };
            } else {
                return score;
            }
            delta *= 3;
        }
    }

    /// Searches the root moves in order; the best one is moved to the front.
    fn root_search(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        root: &mut [u8],
    ) -> i32 {
        self.nodes += 1;
        self.pv_len[0] = 0;
        let mut best = -INF;
        let mut best_index = 0;
        for (i, &mv) in root.iter().enumerate() {
            let mut child = *pos;
            if child.play(mv).is_err() {
                continue;
            }
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, 1)
            } else {
                let s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1);
                if s > alpha && s < beta && !self.stopped {
                    -self.negamax(&child, depth - 1, -beta, -alpha, 1)
                } else {
                    s
                }
            };
            if self.stopped {
                return best;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_index = i;
                    self.update_pv(0, mv);
                    if i > 0 {
                        self.improved_root = Some((mv, self.pv[0][..self.pv_len[0]].to_vec()));
                    }
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        // After a fail low every score is only a bound: keep the old order.
        root[..=best_index].rotate_right(1);
        best
    }

    fn update_pv(&mut self, ply: usize, mv: u8) {
        let child_len = self.pv_len[ply + 1];
        self.pv[ply][0] = mv;
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// Counts a node and, every `CHECK_EVERY` nodes, reads the clock and the stop flag.
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            self.check_limits();
        }
    }

    fn check_limits(&mut self) {
        if self.stop.load(Ordering::Relaxed)
            || self.nodes >= self.node_limit
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.stopped = true;
        }
    }

    /// Negamax alpha-beta with PVS: the value of `pos` for its side to move, `ply` plies from
    /// the root, searched `depth` plies deep.
    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.count_node();
        self.pv_len[ply] = 0;
        if self.stopped {
            return 0;
        }
        if let Some(outcome) = pos.outcome() {
            return terminal_score(pos, outcome, ply);
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiesce(pos, alpha, beta, ply, QUIESCENCE_PLIES);
        }
        // A win found nearer the root makes anything slower pointless.
        alpha = alpha.max(loss_in(ply));
        beta = beta.min(win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        let pv_node = beta - alpha > 1;
        // Nodes just above the leaves are the most numerous and the cheapest to redo: the
        // table (a cache miss per probe) only serves the deeper ones.
        let use_table = depth >= 2;
        let key = if use_table { zobrist::hash(pos) } else { 0 };
        let mut hash_move = 0;
        if let Some(entry) = use_table.then(|| self.tt.probe(key)).flatten() {
            hash_move = entry.mv;
            if !pv_node && entry.depth as i32 >= depth {
                let score = score_from_tt(entry.score as i32, ply);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    return score;
                }
            }
        }

        let side = pos.to_move().index();
        let mut moves = self.ordered_moves(pos, hash_move, ply);
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = 0;
        let mut index = 0;
        while let Some(mv) = moves.next_best() {
            let mut child = *pos;
            let Ok(report) = child.play(mv) else {
                continue;
            };
            let quiet = report.captured == 0 && !report.tuzdek_created;
            let score = if index == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                // Late quiet moves are searched shallower first; a surprise is re-searched.
                let reduction = if depth >= 3 && index >= 3 && quiet && report.outcome.is_none() {
                    1 + (depth >= 6 && index >= 5) as i32
                } else {
                    0
                };
                let mut s =
                    -self.negamax(&child, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
                if s > alpha && reduction > 0 && !self.stopped {
                    s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1);
                }
                s
            };
            index += 1;
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if alpha >= beta {
                        if quiet {
                            self.reward_quiet(side, ply, mv, depth);
                        }
                        break;
                    }
                }
            }
        }

        if !use_table {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            Entry {
                score: score_to_tt(best, ply) as i16,
                mv: best_move,
                depth: depth.clamp(0, 255) as u8,
                bound,
            },
        );
        best
    }

    /// The value of a leaf once the captures (and tuzdeks) waiting on the board are played out:
    /// the side to move may take the static value ("stand pat") or capture, up to `plies`
    /// captures deep. This is what makes a leaf's value the same whichever side is to move
    /// there, so that one ply more is worth its time.
    fn quiesce(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        plies: i32,
    ) -> i32 {
        let (stand, gains) = evaluate_with_gains(pos, ply, &self.blend);
        if plies <= 0 || stand >= beta || is_win(stand) || ply >= MAX_PLY - 1 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut captures = captures(pos, &gains);
        while let Some(mv) = captures.next_best() {
            let mut child = *pos;
            if child.play(mv).is_err() {
                continue;
            }
            self.count_node();
            if self.stopped {
                return 0;
            }
            let score = match child.outcome() {
                Some(outcome) => -terminal_score(&child, outcome, ply + 1),
                None => -self.quiesce(&child, -beta, -alpha, ply + 1, plies - 1),
            };
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    fn reward_quiet(&mut self, side: usize, ply: usize, mv: u8, depth: i32) {
        let killers = &mut self.killers[ply];
        if killers[0] != mv {
            killers[1] = killers[0];
            killers[0] = mv;
        }
        let h = &mut self.history[side][mv as usize - 1];
        *h += depth * depth;
        if *h > 1 << 16 {
            for row in self.history.iter_mut() {
                for v in row.iter_mut() {
                    *v /= 2;
                }
            }
        }
    }

    fn ordered_moves(&self, pos: &Position, hash_move: u8, ply: usize) -> MovePicker {
        let side = pos.to_move();
        let base = side.index() * ROW;
        let killers = self.killers[ply];
        let rules = GainRules::new(pos, side);
        let ring = pos.ring();
        let mut picker = MovePicker::default();
        for mv in pos.legal_moves().iter() {
            let start = base + mv as usize - 1;
            let gain = rules.gain(ring, start, ring[start]);
            let key = if mv == hash_move {
                1 << 30
            } else if gain > 0 {
                (1 << 20) + gain * 1024
            } else if mv == killers[0] {
                1 << 19
            } else if mv == killers[1] {
                1 << 18
            } else {
                self.history[side.index()][mv as usize - 1]
            };
            picker.push(mv, key);
        }
        picker
    }
}

/// Moves with ordering keys, handed out best first (selection sort: most nodes cut off after
/// one or two moves, so sorting everything would be wasted).
#[derive(Default)]
struct MovePicker {
    moves: [(u8, i32); ROW],
    len: usize,
}

impl MovePicker {
    fn push(&mut self, mv: u8, key: i32) {
        self.moves[self.len] = (mv, key);
        self.len += 1;
    }

    fn next_best(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        let mut best = 0;
        for i in 1..self.len {
            if self.moves[i].1 > self.moves[best].1 {
                best = i;
            }
        }
        let mv = self.moves[best].0;
        self.len -= 1;
        self.moves[best] = self.moves[self.len];
        Some(mv)
    }
}

/// The moves that capture or make a tuzdek (`gains` per pit, from the evaluation), biggest
/// gain first: the quiescence stage's moves.
fn captures(pos: &Position, gains: &[i32; ROW]) -> MovePicker {
    let mut picker = MovePicker::default();
    for mv in pos.legal_moves().iter() {
        let gain = gains[mv as usize - 1];
        if gain > 0 {
            picker.push(mv, gain);
        }
    }
    picker
}

/// Root moves before the first iteration: biggest immediate gain first.
fn order_root(pos: &Position, moves: &mut [u8]) {
    let side = pos.to_move();
    let base = side.index() * ROW;
    moves.sort_by_key(|&m| std::cmp::Reverse(immediate_gain(pos, side, base + m as usize - 1)));
}

/// A legal move to answer with even if no iteration finishes.
fn fallback_move(pos: &Position) -> Option<u8> {
    let mut moves: Vec<u8> = pos.legal_moves().iter().collect();
    order_root(pos, &mut moves);
    moves.first().copied()
}

/// The exact score of a finished game for the side that would move next.
fn terminal_score(pos: &Position, outcome: Outcome, ply: usize) -> i32 {
    match outcome.winner {
        None => 0,
        Some(w) if w == pos.to_move() => win_in(ply),
        Some(_) => loss_in(ply),
    }
}

/// Decisive scores are stored as distances from the node, not from the root.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{TuzdekRule, Variant};
    use rand::{seq::IteratorRandom, SeedableRng};

    /// The quiescence stage's value without cut-offs: the side to move takes the better of
    /// standing pat and every capture or tuzdek-making move, `plies` such moves deep.
    fn played_out(searcher: &Searcher, pos: &Position, ply: usize, plies: i32) -> i32 {
        let (stand, gains) = evaluate_with_gains(pos, ply, &searcher.blend);
        if plies <= 0 || is_win(stand) {
            return stand;
        }
        let mut best = stand;
        for mv in pos.legal_moves().iter() {
            if gains[mv as usize - 1] <= 0 {
                continue;
            }
            let mut child = *pos;
            child.play(mv).unwrap();
            let score = match child.outcome() {
                Some(outcome) => -terminal_score(&child, outcome, ply + 1),
                None => -played_out(searcher, &child, ply + 1, plies - 1),
            };
            best = best.max(score);
        }
        best
    }

    /// With a full window the stage's cut-offs never change its value: it matches the plain
    /// play-out in positions of random games of every variant, captures at the horizon
    /// answered by recaptures included.
    #[test]
    fn quiescence_cutoffs_keep_the_played_out_value() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut with_captures = 0;
        for variant in [
            Variant::STANDARD,
            Variant::new(5, TuzdekRule::NinthAllowed).unwrap(),
            Variant::new(3, TuzdekRule::Off).unwrap(),
        ] {
            let mut searcher = Searcher::new(1);
            searcher.begin(&Position::start(variant), &Limits::default());
            for _ in 0..40 {
                let mut pos = Position::start(variant);
                while !pos.is_over() {
                    let expected = played_out(&searcher, &pos, 0, QUIESCENCE_PLIES);
                    let stand = evaluate_with_gains(&pos, 0, &searcher.blend).0;
                    with_captures += (expected != stand) as u32;
                    let got = searcher.quiesce(&pos, -INF, INF, 0, QUIESCENCE_PLIES);
                    assert_eq!(got, expected, "{}", pos.to_fen());
                    let pit = pos.legal_moves().iter().choose(&mut rng).unwrap();
                    pos.play(pit).unwrap();
                }
            }
        }
        // Most positions have a capture worth playing out; the test must see many.
        assert!(with_captures > 1000, "{with_captures}");
    }
}
