//! The evaluation: what a position is worth to the side to move, in hundredths of a ball.
//!
//! Terms, in order of weight: the store difference; tuzdeks (worth the balls they will still
//! collect, which shrinks as the board empties); balls and playable pits in each row
//! (mobility, and what each side keeps at an atsyrau). A side to move that can reach the
//! winning store at once gets an exact win score, and one whose opponent could reach it next
//! move a penalty. Captures waiting to be made are not guessed here: the search's quiescence
//! stage plays them out (a guessed share of the best capture made even- and odd-depth
//! searches disagree, and deeper searches gained little).

use super::search::{win_in, BALL};
use crate::rules::{Position, Side, TuzdekRule, RING, ROW};

/// What the chance to make a tuzdek next move is worth, in balls (besides its 3 balls).
const TUZDEK_CHANCE: i32 = 4;
/// Per ball in one's own row.
const ROW_BALL: i32 = 4;
/// Per playable pit.
const MOBILITY: i32 = 12;
/// An opponent able to reach the winning store next move, if we cannot stop it.
const LOSING_THREAT: i32 = 6 * BALL;

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
    row_balls: i32,
    playable: i32,
    row_max: i32,
    /// What each pit (0-based) takes at once; 0 for an empty pit or no capture.
    gains: [i32; ROW],
    best_gain: i32,
    best_start: usize,
}

fn row_facts(pos: &Position, side: Side) -> SideFacts {
    let base = side.index() * ROW;
    let mut facts = SideFacts {
        row_balls: 0,
        playable: 0,
        row_max: 0,
        gains: [0; ROW],
        best_gain: 0,
        best_start: base,
    };
    for &n in &pos.ring()[base..base + ROW] {
        facts.row_balls += n as i32;
        facts.playable += (n > 0) as i32;
        facts.row_max = facts.row_max.max(n as i32);
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

/// What `side`'s tuzdek (if any) is still worth: the balls it will collect, roughly one
/// eighteenth of those still on the board, plus a little for denying the opponent a pit.
fn tuzdek_value(pos: &Position, side: Side, on_board: i32) -> i32 {
    match pos.tuzdek(side) {
        Some(_) => 2 * BALL + on_board * BALL / 18,
        None => 0,
    }
}

/// The score alone (for the tests).
#[cfg(test)]
pub fn evaluate(pos: &Position, ply: usize) -> i32 {
    evaluate_with_gains(pos, ply).0
}

/// The static value of a position that is not over, for the side to move (`ply` is the
/// distance from the root, used for the exact score of a win next move), and what each of the
/// side to move's pits (0-based) would take at once: the quiescence stage's moves, worked out
/// here anyway.
pub fn evaluate_with_gains(pos: &Position, ply: usize) -> (i32, [i32; ROW]) {
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

    let on_board = pos.variant().total() as i32 - our_store - their_store;
    let mut score = (our_store - their_store) * BALL;
    score += tuzdek_value(pos, us, on_board) - tuzdek_value(pos, them, on_board);
    score += (mine.row_balls - theirs.row_balls) * ROW_BALL;
    score += (mine.playable - theirs.playable) * MOBILITY;
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
        // Nothing captured yet, both rows alike.
        assert_eq!(evaluate(&start, 0), 0);
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
}
