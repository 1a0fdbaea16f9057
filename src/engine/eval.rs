//! The evaluation: what a position is worth to the side to move, in hundredths of a ball.
//!
//! The store difference, plus a weighed sum of linear terms (`Terms`), each "ours minus
//! theirs": tuzdeks (by the pit they stand in), balls and playable pits in each row (mobility,
//! and what each side keeps at an atsyrau), balls in odd pits (an opponent's last ball there
//! makes them even: a capture), balls hoarded in big pits, too few playable pits, and the move.
//! Every term has an opening and an endgame weight, blended by the balls still on the board:
//! balls in one's row, say, are the opponent's to capture early and one's own at an atsyrau. The weights (`Weights::TUNED`)
//! were fitted to the results of the 3,140 real games in the test data; see docs/engine.md.
//! A side to move that can reach the winning store at once gets an exact win score, and one
//! whose opponent could reach it next move a penalty. Captures waiting to be made are not
//! guessed here: the search's quiescence stage plays them out.

use super::score::{win_in, BALL};
use crate::rules::{Position, Side, TuzdekRule, RING, ROW};

/// What the chance to make a tuzdek next move is worth, in balls (besides its 3 balls).
const TUZDEK_CHANCE: i32 = 4;
/// An opponent able to reach the winning store next move, if we cannot stop it.
const LOSING_THREAT: i32 = 6 * BALL;

/// The linear terms of the evaluation, each for the side to move minus the opponent.
pub mod term {
    /// A tuzdek in the opponent's pit 1..=9: indices 0..=8.
    pub const TUZDEK: usize = 0;
    /// Balls in one's own pit 1..=9: indices 9..=17.
    pub const PIT_BALLS: usize = 9;
    /// Pits one can play.
    pub const PLAYABLE: usize = 18;
    /// Balls in one's pits that hold an odd number: the opponent's last ball there captures.
    pub const ODD_BALLS: usize = 19;
    /// Balls beyond 12 in one's pits: kept for a later sweep, or a target.
    pub const HOARD: usize = 20;
    /// How many short of three playable pits one is: atsyrau comes near.
    pub const FEW_MOVES: usize = 21;
    /// 1 for the side to move.
    pub const TEMPO: usize = 22;
    /// How many terms there are.
    pub const COUNT: usize = 23;
}

/// The evaluation's terms for one position (see `term`), with what blends their weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    pub values: [i32; term::COUNT],
    /// Balls still on the board (not in a store).
    pub on_board: i32,
    /// Balls in the game.
    pub total: i32,
}

/// What each term is worth, in hundredths of a ball, at the start (`opening`, a full board)
/// and with an empty board (`endgame`); in between the two are blended by the balls on board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub opening: [i32; term::COUNT],
    pub endgame: [i32; term::COUNT],
}

impl Weights {
    /// The first, hand-set evaluation: a tuzdek worth 2 balls plus an eighteenth of the balls
    /// on board, 0.04 per ball in one's row, 0.12 per playable pit. Kept to measure against.
    pub const HAND_SET: Weights = Weights {
        opening: [
            1100, 1100, 1100, 1100, 1100, 1100, 1100, 1100, 1100, 4, 4, 4, 4, 4, 4, 4, 4, 4, 12, 0,
            0, 0, 0,
        ],
        endgame: [
            200, 200, 200, 200, 200, 200, 200, 200, 200, 4, 4, 4, 4, 4, 4, 4, 4, 4, 12, 0, 0, 0, 0,
        ],
    };

    /// Fitted to the real games of the test data (`cargo run --release --example tune`).
    pub const TUNED: Weights = Weights {
        opening: [
            -320, 352, 864, 395, 2359, 2417, 2624, 1556, 1556, -71, -124, -100, -108, -98, -86,
            -131, -104, -101, -185, 17, 39, -2638, -60,
        ],
        endgame: [
            2770, 2510, 1970, 2273, 3022, 2648, 2495, 1694, 1694, 33, 129, 104, 95, 87, 84, 122,
            89, 152, 562, -17, -26, -117, -57,
        ],
    };

    /// The weighed sum of `terms`, in hundredths of a ball.
    #[inline]
    pub fn apply(&self, terms: &Terms) -> i32 {
        let mut opening = 0;
        let mut endgame = 0;
        for (i, &v) in terms.values.iter().enumerate() {
            opening += self.opening[i] * v;
            endgame += self.endgame[i] * v;
        }
        (opening * terms.on_board + endgame * (terms.total - terms.on_board)) / terms.total.max(1)
    }
}

impl Default for Weights {
    fn default() -> Self {
        Weights::TUNED
    }
}

/// `Blend`'s fixed point: its weights are in sixteenths of a hundredth of a ball.
const BLEND_SCALE: i32 = 16;

/// `Weights` blended in advance for every count of balls on the board of one variant, so that
/// the evaluation takes one dot product and no division.
#[derive(Clone, Debug)]
pub struct Blend {
    weights: Weights,
    total: i32,
    rows: Vec<[i32; term::COUNT]>,
}

impl Blend {
    /// `weights` for a game of `total` balls.
    pub fn new(weights: Weights, total: i32) -> Blend {
        let total = total.max(1);
        let rows = (0..=total)
            .map(|on_board| {
                let mut row = [0; term::COUNT];
                for (i, w) in row.iter_mut().enumerate() {
                    let mixed =
                        weights.opening[i] * on_board + weights.endgame[i] * (total - on_board);
                    *w = mixed * BLEND_SCALE / total;
                }
                row
            })
            .collect();
        Blend {
            weights,
            total,
            rows,
        }
    }

    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The balls in the game these weights were blended for.
    pub fn total(&self) -> i32 {
        self.total
    }

    /// `Weights::apply`, to within a hundredth of a ball per term.
    #[inline]
    pub fn apply(&self, terms: &Terms) -> i32 {
        let row = &self.rows[terms.on_board.clamp(0, self.total) as usize];
        let mut sum = 0;
        for (w, v) in row.iter().zip(terms.values.iter()) {
            sum += w * v;
        }
        // Division, not a shift: the side to move's score stays the negation of the other's.
        sum / BLEND_SCALE
    }
}

/// Where the last of `n` balls sown from ring index `start` lands, and how many balls that pit
/// then holds (tuzdek sweeps aside).
#[inline]
pub fn landing(ring: &[u8; RING], start: usize, n: u8) -> (usize, u32) {
    if n == 1 {
        let last = (start + 1) % RING;
        return (last, ring[last] as u32 + 1);
    }
    let n = n as usize;
    let mut last = start + n - 1;
    if last >= RING {
        last %= RING;
    }
    // The last pit gets one ball per pass; the starting pit was emptied first.
    let before = if last == start { 0 } else { ring[last] as u32 };
    (last, before + ((n - 1) / RING) as u32 + 1)
}

/// What one side's moves can take at once, prepared once per position: its own tuzdek
/// (landing there captures nothing) and the pits where a 3 would become its tuzdek.
#[derive(Clone, Copy)]
pub struct GainRules {
    side: usize,
    own_tuzdek: usize,
    /// Bit per ring index.
    tuzdek_ok: u32,
}

impl GainRules {
    pub fn new(pos: &Position, side: Side) -> GainRules {
        let other = side.other();
        let own = pos.tuzdek(side);
        // Pit numbers (bit 0 = pit 1) where a 3 would make our tuzdek.
        let mut numbers: u32 = match (own, pos.variant().tuzdek_rule()) {
            (Some(_), _) | (None, TuzdekRule::Off) => 0,
            (None, TuzdekRule::Standard) => 0xFF,
            (None, TuzdekRule::NinthAllowed) => 0x1FF,
        };
        if let Some(mirror) = pos.tuzdek(other) {
            numbers &= !(1 << (mirror - 1));
        }
        GainRules {
            side: side.index(),
            own_tuzdek: own.map_or(usize::MAX, |n| other.index() * ROW + n as usize - 1),
            tuzdek_ok: numbers << (other.index() * ROW),
        }
    }

    /// What playing the pit at ring index `start` (holding `n > 0` balls) takes at once:
    /// balls captured, or `TUZDEK_CHANCE + 3` for a new tuzdek (in balls).
    #[inline]
    pub fn gain(&self, ring: &[u8; RING], start: usize, n: u8) -> i32 {
        let (last, count) = landing(ring, start, n);
        if last / ROW == self.side || last == self.own_tuzdek {
            return 0; // own row, or our own tuzdek: the ball is ours anyway
        }
        if count % 2 == 0 {
            count as i32
        } else if count == 3 && self.tuzdek_ok & (1 << last) != 0 {
            3 + TUZDEK_CHANCE
        } else {
            0
        }
    }
}

/// What `side` playing its pit at ring index `start` would take at once (see
/// `GainRules::gain`); 0 for an empty pit.
pub fn immediate_gain(pos: &Position, side: Side, start: usize) -> i32 {
    let n = pos.ring()[start];
    if n == 0 {
        return 0;
    }
    GainRules::new(pos, side).gain(pos.ring(), start, n)
}

/// Per side: balls in the row, playable pits and the biggest pit; and once `add_gains` has
/// run, what each pit takes at once and the best of those (with its ring index).
struct SideFacts {
    playable: i32,
    row_max: i32,
    odd_balls: i32,
    hoard: i32,
    /// What each pit (0-based) takes at once; 0 for an empty pit or no capture.
    gains: [i32; ROW],
    best_gain: i32,
    best_start: usize,
}

fn row_facts(pos: &Position, side: Side) -> SideFacts {
    let base = side.index() * ROW;
    let mut facts = SideFacts {
        playable: 0,
        row_max: 0,
        odd_balls: 0,
        hoard: 0,
        gains: [0; ROW],
        best_gain: 0,
        best_start: base,
    };
    for &n in &pos.ring()[base..base + ROW] {
        facts.playable += (n > 0) as i32;
        facts.row_max = facts.row_max.max(n as i32);
        facts.odd_balls += (n as i32) * (n & 1) as i32;
        facts.hoard += (n as i32 - 12).max(0);
    }
    facts
}

fn add_gains(pos: &Position, side: Side, facts: &mut SideFacts) {
    let ring = pos.ring();
    let rules = GainRules::new(pos, side);
    let base = side.index() * ROW;
    for (start, &n) in ring.iter().enumerate().skip(base).take(ROW) {
        if n == 0 {
            continue;
        }
        let gain = rules.gain(ring, start, n);
        facts.gains[start - base] = gain;
        if gain > facts.best_gain {
            facts.best_gain = gain;
            facts.best_start = start;
        }
    }
}

/// The most `side` could take at once, from the row facts alone: a capture takes one of the
/// other row's pits plus at most one ball per lap, a tuzdek counts `3 + TUZDEK_CHANCE`.
fn gain_bound(facts: &SideFacts, other: &SideFacts) -> i32 {
    (other.row_max + facts.row_max / RING as i32 + 1).max(3 + TUZDEK_CHANCE)
}

/// The terms of `pos` for its side to move (see `term`).
pub fn terms(pos: &Position) -> Terms {
    let us = pos.to_move();
    terms_from(pos, &row_facts(pos, us), &row_facts(pos, us.other()))
}

fn terms_from(pos: &Position, mine: &SideFacts, theirs: &SideFacts) -> Terms {
    let us = pos.to_move();
    let them = us.other();
    let mut values = [0; term::COUNT];
    if let Some(pit) = pos.tuzdek(us) {
        values[term::TUZDEK + pit as usize - 1] += 1;
    }
    if let Some(pit) = pos.tuzdek(them) {
        values[term::TUZDEK + pit as usize - 1] -= 1;
    }
    let ring = pos.ring();
    let (our_row, their_row) = (us.index() * ROW, them.index() * ROW);
    for pit in 0..ROW {
        values[term::PIT_BALLS + pit] = ring[our_row + pit] as i32 - ring[their_row + pit] as i32;
    }
    values[term::PLAYABLE] = mine.playable - theirs.playable;
    values[term::ODD_BALLS] = mine.odd_balls - theirs.odd_balls;
    values[term::HOARD] = mine.hoard - theirs.hoard;
    values[term::FEW_MOVES] = (3 - mine.playable).max(0) - (3 - theirs.playable).max(0);
    values[term::TEMPO] = 1;
    let total = pos.variant().total() as i32;
    Terms {
        values,
        on_board: total - pos.store(us) as i32 - pos.store(them) as i32,
        total,
    }
}

/// The score alone (for the tests).
#[cfg(test)]
pub fn evaluate(pos: &Position, ply: usize) -> i32 {
    let blend = Blend::new(Weights::TUNED, pos.variant().total() as i32);
    evaluate_with_gains(pos, ply, &blend).0
}

/// The static value of a position that is not over, for the side to move (`ply` is the
/// distance from the root, used for the exact score of a win next move), and what each of the
/// side to move's pits (0-based) would take at once: the quiescence stage's moves, worked out
/// here anyway.
/// `blend` must be made for the position's variant (its number of balls).
pub fn evaluate_with_gains(pos: &Position, ply: usize, blend: &Blend) -> (i32, [i32; ROW]) {
    let us = pos.to_move();
    let them = us.other();
    let win = pos.variant().winning_store() as i32;
    let our_store = pos.store(us) as i32;
    let their_store = pos.store(them) as i32;
    let mut mine = row_facts(pos, us);
    add_gains(pos, us, &mut mine);
    let mut theirs = row_facts(pos, them);
    // The opponent's captures only matter here if one could reach the winning store; most
    // positions rule that out from the row facts, which saves half the evaluation.
    if their_store + gain_bound(&theirs, &mine) >= win {
        add_gains(pos, them, &mut theirs);
    }

    if our_store + mine.best_gain >= win && wins_at_once(pos, mine.best_start) {
        return (win_in(ply + 1), mine.gains);
    }

    let mut score = (our_store - their_store) * BALL;
    score += blend.apply(&terms_from(pos, &mine, &theirs));
    if their_store + theirs.best_gain >= win {
        score -= LOSING_THREAT;
    }
    (score, mine.gains)
}

/// Whether playing the pit at ring index `start` wins the game for the side to move.
fn wins_at_once(pos: &Position, start: usize) -> bool {
    let mut child = *pos;
    let pit = (start % ROW) as u8 + 1;
    matches!(child.play(pit), Ok(r) if r.outcome.is_some_and(|o| o.winner == Some(r.side)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// The prediction agrees with the rules on every move of many random games.
    #[test]
    fn immediate_gain_matches_the_rules() {
        use rand::{seq::IteratorRandom, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let variants = [
            Variant::STANDARD,
            Variant::new(5, TuzdekRule::NinthAllowed).unwrap(),
            Variant::new(3, TuzdekRule::Off).unwrap(),
        ];
        let mut checked = 0;
        for game in 0..300 {
            let mut pos = Position::start(variants[game % 3]);
            while !pos.is_over() {
                let side = pos.to_move();
                for pit in pos.legal_moves().iter() {
                    let start = side.index() * ROW + pit as usize - 1;
                    let mut child = pos;
                    let report = child.play(pit).unwrap();
                    let expected = if report.tuzdek_created {
                        3 + TUZDEK_CHANCE
                    } else {
                        report.captured as i32
                    };
                    assert_eq!(
                        immediate_gain(&pos, side, start),
                        expected,
                        "{pos:?} pit {pit}"
                    );
                    checked += 1;
                }
                let pit = pos.legal_moves().iter().choose(&mut rng).unwrap();
                pos.play(pit).unwrap();
            }
        }
        assert!(checked > 10_000);
    }

    #[test]
    fn start_is_balanced_and_stores_count() {
        let start = Position::default();
        // Nothing captured yet, both rows alike: only the move itself counts.
        let tempo = Weights::TUNED.opening[term::TEMPO];
        assert_eq!(evaluate(&start, 0), tempo);
        let ahead = Position::from_fen("9,9,9,9,9,9,9,9,0/9,9,9,9,9,9,9,9,9 9/0 w 5").unwrap();
        let behind = Position::from_fen("9,9,9,9,9,9,9,9,0/9,9,9,9,9,9,9,9,9 0/9 w 5").unwrap();
        assert!(evaluate(&ahead, 0) > evaluate(&behind, 0) + 10 * BALL);
    }

    #[test]
    fn a_capture_reaching_the_winning_store_is_an_exact_win() {
        // White 80 in store; White's pit 9 (1 ball) lands in Black's pit 1 (1 -> 2): capture.
        let pos =
            Position::from_fen("0,0,0,0,0,0,0,0,1/1,10,10,10,10,10,10,10,10 80/0 w 40").unwrap();
        assert_eq!(evaluate(&pos, 3), win_in(4));
    }

    /// The blended weights give the plain blend, to within a hundredth of a ball per term, in
    /// every position of random games of every variant.
    #[test]
    fn blended_weights_match_the_plain_blend() {
        use rand::{seq::IteratorRandom, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for variant in [
            Variant::STANDARD,
            Variant::new(5, TuzdekRule::NinthAllowed).unwrap(),
            Variant::new(3, TuzdekRule::Off).unwrap(),
        ] {
            let blend = Blend::new(Weights::TUNED, variant.total() as i32);
            for _ in 0..50 {
                let mut pos = Position::start(variant);
                while !pos.is_over() {
                    let t = terms(&pos);
                    let plain = Weights::TUNED.apply(&t);
                    let fast = blend.apply(&t);
                    assert!((plain - fast).abs() <= term::COUNT as i32, "{pos:?}");
                    let pit = pos.legal_moves().iter().choose(&mut rng).unwrap();
                    pos.play(pit).unwrap();
                }
            }
        }
    }

    /// Each term is ours minus theirs: a tuzdek counts +1 at its pit for its owner to move and
    /// -1 for the other side.
    #[test]
    fn terms_are_ours_minus_theirs() {
        // White to move; Black has one ball more in pit 1, White one fewer in pit 9.
        let pos = Position::from_fen("9,9,9,9,9,9,9,9,8/10,9,9,9,9,9,9,9,9 0/0 w 5").unwrap();
        let t = terms(&pos);
        assert_eq!(t.values[term::PIT_BALLS], -1);
        assert_eq!(t.values[term::PIT_BALLS + 8], -1);
        assert_eq!(t.values[term::TEMPO], 1);
        assert_eq!(t.on_board, 162);
        // White's tuzdek in Black's pit 3 (9 balls went to White's store).
        let pos = Position::from_fen("9,9,9,9,9,9,9,9,9/9,9,x,9,9,9,9,9,9 9/0 w 5").unwrap();
        assert_eq!(terms(&pos).values[term::TUZDEK + 2], 1);
        let black_to_move =
            Position::from_fen("9,9,9,9,9,9,9,9,9/9,9,x,9,9,9,9,9,9 9/0 b 5").unwrap();
        assert_eq!(terms(&black_to_move).values[term::TUZDEK + 2], -1);
    }
}
