//! The rules of toguzqumalak, as written in RULES.md.
//!
//! A pure module: no I/O, no async, and `Position::play` allocates nothing. A position is a
//! small `Copy` value, so searches copy-make instead of undoing moves.
//!
//! The 18 pits form one ring indexed 0..18: White's pits 1..9 are indices 0..9, Black's pits
//! 1..9 are indices 9..18. Sowing runs up the indices and wraps from 17 to 0.

mod fen;
mod notation;
mod perft;
mod record;

pub use fen::FenError;
pub use notation::{parse_move_token, MoveToken, NotationError};
pub use perft::perft;
pub use record::{
    annotate_clocks, move_text, parse_record, parse_records, parse_variant, push_move_text, replay,
    variant_text, write_record, write_timed_record, Disagreement, DisagreementKind, Record,
    RecordError, RecordResult, ReplayedPly, WrittenMove,
};

use std::fmt;

/// Number of pits in one player's row.
pub const ROW: usize = 9;
/// Number of pits in the ring.
pub const RING: usize = 2 * ROW;
/// Marker for "no tuzdek" in the compact tuzdek array.
const NO_TUZDEK: u8 = u8::MAX;

/// A player. White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White = 0,
    Black = 1,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// Ring index of this side's pit `pit` (1..=9). The caller guarantees the range.
    fn ring_index(self, pit: u8) -> usize {
        self.index() * ROW + pit as usize - 1
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

/// Which tuzdek rule a game uses.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum TuzdekRule {
    /// The standard rule: no tuzdek on the opponent's pit 9.
    #[default]
    Standard,
    /// No tuzdeks at all; captures still work.
    Off,
    /// The opponent's pit 9 may become a tuzdek (some Kyrgyz formats).
    NinthAllowed,
}

/// The rules a game is played with. The default is the standard game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Variant {
    /// Balls in each pit at the start: 9 (standard), 5 or 3.
    balls_per_pit: u8,
    tuzdek: TuzdekRule,
}

impl Default for Variant {
    fn default() -> Self {
        Variant::STANDARD
    }
}

impl Variant {
    pub const STANDARD: Variant = Variant {
        balls_per_pit: 9,
        tuzdek: TuzdekRule::Standard,
    };
    /// The starting counts a variant may use.
    pub const BALLS_PER_PIT: [u8; 3] = [9, 5, 3];

    pub fn new(balls_per_pit: u8, tuzdek: TuzdekRule) -> Result<Variant, VariantError> {
        if !Self::BALLS_PER_PIT.contains(&balls_per_pit) {
            return Err(VariantError::BallsPerPit(balls_per_pit));
        }
        Ok(Variant {
            balls_per_pit,
            tuzdek,
        })
    }

    pub fn balls_per_pit(self) -> u8 {
        self.balls_per_pit
    }

    pub fn tuzdek_rule(self) -> TuzdekRule {
        self.tuzdek
    }

    /// All balls in the game.
    pub fn total(self) -> u8 {
        self.balls_per_pit * RING as u8
    }

    /// A store holding this many wins at once (82 in the standard game).
    pub fn winning_store(self) -> u8 {
        self.total() / 2 + 1
    }

    /// Both stores holding this many is a draw (81 in the standard game).
    pub fn drawing_store(self) -> u8 {
        self.total() / 2
    }

    pub fn is_standard(self) -> bool {
        self == Variant::STANDARD
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    #[error("{0} balls per pit is not a variant (use 9, 5 or 3)")]
    BallsPerPit(u8),
}

/// How a game ended on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// A store reached the winning total (82).
    Kazan,
    /// Both stores hold exactly half the balls (81:81).
    EqualKazans,
    /// The player to move had no ball in their row.
    Atsyrau,
}

/// The result of a finished game: the winner, or `None` for a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub reason: EndReason,
}

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("pit {0} does not exist (pits are numbered 1 to 9)")]
    NoSuchPit(u8),
    #[error("pit {0} is empty")]
    EmptyPit(u8),
    #[error("pit {0} is the opponent's tuzdek")]
    TuzdekPit(u8),
    #[error("the game is over")]
    GameOver,
}

/// What one move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveReport {
    pub side: Side,
    /// The pit played, 1..=9 in the mover's row.
    pub pit: u8,
    /// The row the last ball landed in.
    pub landing_side: Side,
    /// The pit the last ball landed in, 1..=9 in `landing_side`'s row.
    pub landing_pit: u8,
    /// Balls taken by an even-count capture (0 if none).
    pub captured: u8,
    /// Whether the move created the mover's tuzdek.
    pub tuzdek_created: bool,
    /// The mover's store after the move, before any atsyrau sweep.
    pub store_after: u8,
    /// Set when the move ended the game.
    pub outcome: Option<Outcome>,
}

impl MoveReport {
    /// Whether PlayOK would write the store total `(N)` after this move.
    pub fn is_capture(&self) -> bool {
        self.captured > 0
    }
}

/// A position: pits, stores, tuzdeks, side to move, the variant and, once over, the outcome.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pits: [u8; RING],
    stores: [u8; 2],
    /// Ring index of each side's tuzdek (it lies in the opponent's row), or `NO_TUZDEK`.
    tuzdeks: [u8; 2],
    to_move: Side,
    /// Half-moves played since the start.
    ply: u16,
    variant: Variant,
    outcome: Option<Outcome>,
}

impl Default for Position {
    fn default() -> Self {
        Position::start(Variant::STANDARD)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

/// The set of legal moves, as a bit mask over pits 1..=9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MoveSet(u16);

impl MoveSet {
    pub fn contains(self, pit: u8) -> bool {
        (1..=9).contains(&pit) && self.0 & (1 << (pit - 1)) != 0
    }
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn bits(self) -> u16 {
        self.0
    }
    /// Pits in increasing order.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let pit = bits.trailing_zeros() as u8 + 1;
            bits &= bits - 1;
            Some(pit)
        })
    }
}

impl Position {
    /// The starting position of a variant.
    pub fn start(variant: Variant) -> Position {
        Position {
            pits: [variant.balls_per_pit; RING],
            stores: [0; 2],
            tuzdeks: [NO_TUZDEK; 2],
            to_move: Side::White,
            ply: 0,
            variant,
            outcome: None,
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }
    pub fn to_move(&self) -> Side {
        self.to_move
    }
    /// Half-moves played.
    pub fn ply(&self) -> u16 {
        self.ply
    }
    /// The move number in notation (1 for White's and Black's first moves).
    pub fn fullmove(&self) -> u16 {
        self.ply / 2 + 1
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }
    pub fn store(&self, side: Side) -> u8 {
        self.stores[side.index()]
    }
    /// Balls in `side`'s pit `pit` (1..=9); 0 for an out-of-range pit.
    pub fn pit(&self, side: Side, pit: u8) -> u8 {
        if !(1..=9).contains(&pit) {
            return 0;
        }
        self.pits[side.ring_index(pit)]
    }
    /// `side`'s row, pits 1..9.
    pub fn row(&self, side: Side) -> [u8; ROW] {
        let mut row = [0; ROW];
        row.copy_from_slice(&self.pits[side.index() * ROW..side.index() * ROW + ROW]);
        row
    }
    /// All 18 pits in ring order (White 1..9, Black 1..9).
    pub fn ring(&self) -> &[u8; RING] {
        &self.pits
    }
    pub fn balls_in_row(&self, side: Side) -> u32 {
        self.row(side).iter().map(|&b| b as u32).sum()
    }
    /// `side`'s tuzdek, as a pit number in the opponent's row.
    pub fn tuzdek(&self, side: Side) -> Option<u8> {
        match self.tuzdeks[side.index()] {
            NO_TUZDEK => None,
            ring => Some(ring % ROW as u8 + 1),
        }
    }
    /// Whether `side`'s pit `pit` is a tuzdek (owned by the other side).
    pub fn is_tuzdek(&self, side: Side, pit: u8) -> bool {
        self.tuzdek(side.other()) == Some(pit)
    }

    /// The pits the side to move may play.
    pub fn legal_moves(&self) -> MoveSet {
        if self.outcome.is_some() {
            return MoveSet(0);
        }
        let base = self.to_move.index() * ROW;
        let mut bits = 0u16;
        for i in 0..ROW {
            bits |= ((self.pits[base + i] != 0) as u16) << i;
        }
        MoveSet(bits)
    }

    pub fn is_legal(&self, pit: u8) -> bool {
        self.legal_moves().contains(pit)
    }

    /// Plays `pit` (1..=9) for the side to move.
    pub fn play(&mut self, pit: u8) -> Result<MoveReport, MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        if !(1..=9).contains(&pit) {
            return Err(MoveError::NoSuchPit(pit));
        }
        let side = self.to_move;
        let start = side.ring_index(pit);
        let n = self.pits[start];
        if n == 0 {
            return Err(if self.is_tuzdek(side, pit) {
                MoveError::TuzdekPit(pit)
            } else {
                MoveError::EmptyPit(pit)
            });
        }
        self.pits[start] = 0;
        let last = self.sow(start, n);
        self.sweep_tuzdeks();
        let (captured, tuzdek_created) = self.examine_landing(side, last);

        self.to_move = side.other();
        self.ply += 1;
        let store_after = self.stores[side.index()];
        self.outcome = self.settle_end();
        Ok(MoveReport {
            side,
            pit,
            landing_side: if last < ROW { Side::White } else { Side::Black },
            landing_pit: (last % ROW) as u8 + 1,
            captured,
            tuzdek_created,
            store_after,
            outcome: self.outcome,
        })
    }

    /// Sows `n` balls from ring index `start` (already emptied) and returns the landing index.
    fn sow(&mut self, start: usize, n: u8) -> usize {
        if n == 1 {
            let last = (start + 1) % RING;
            self.pits[last] += 1;
            return last;
        }
        // One ball back into the starting pit, then one into each following pit: the balls
        // cover indices start..start+n. Whole laps add to every pit at once.
        let n = n as usize;
        let laps = (n / RING) as u8;
        if laps > 0 {
            for p in self.pits.iter_mut() {
                *p += laps;
            }
        }
        let rest = n % RING;
        let first_run = rest.min(RING - start);
        for p in &mut self.pits[start..start + first_run] {
            *p += 1;
        }
        for p in &mut self.pits[..rest - first_run] {
            *p += 1;
        }
        (start + n - 1) % RING
    }

    /// Every ball in a tuzdek belongs to the tuzdek's owner.
    fn sweep_tuzdeks(&mut self) {
        for side in 0..2 {
            let t = self.tuzdeks[side];
            if t != NO_TUZDEK {
                self.stores[side] += self.pits[t as usize];
                self.pits[t as usize] = 0;
            }
        }
    }

    /// Applies a capture or a new tuzdek where the last ball landed.
    fn examine_landing(&mut self, side: Side, last: usize) -> (u8, bool) {
        if last / ROW == side.index() {
            return (0, false); // own row: never a capture
        }
        let count = self.pits[last];
        if count > 0 && count % 2 == 0 {
            self.pits[last] = 0;
            self.stores[side.index()] += count;
            return (count, false);
        }
        if count == 3 && self.may_create_tuzdek(side, last) {
            self.pits[last] = 0;
            self.stores[side.index()] += 3;
            self.tuzdeks[side.index()] = last as u8;
            return (0, true);
        }
        (0, false)
    }

    fn may_create_tuzdek(&self, side: Side, ring: usize) -> bool {
        let number = (ring % ROW) as u8 + 1;
        match self.variant.tuzdek {
            TuzdekRule::Off => return false,
            TuzdekRule::Standard if number == 9 => return false,
            _ => {}
        }
        self.tuzdeks[side.index()] == NO_TUZDEK && self.tuzdek(side.other()) != Some(number)
    }

    /// The end rules, checked after every move: 82, then 81:81, then atsyrau. Atsyrau moves
    /// the balls left on the board to the store of the row they sit in.
    fn settle_end(&mut self) -> Option<Outcome> {
        let win = self.variant.winning_store();
        for side in Side::BOTH {
            if self.stores[side.index()] >= win {
                return Some(Outcome {
                    winner: Some(side),
                    reason: EndReason::Kazan,
                });
            }
        }
        let half = self.variant.drawing_store();
        if self.stores == [half, half] {
            return Some(Outcome {
                winner: None,
                reason: EndReason::EqualKazans,
            });
        }
        if self.balls_in_row(self.to_move) != 0 {
            return None;
        }
        for side in Side::BOTH {
            let base = side.index() * ROW;
            let sum: u8 = self.pits[base..base + ROW].iter().sum();
            self.stores[side.index()] += sum;
            self.pits[base..base + ROW].fill(0);
        }
        let [w, b] = self.stores;
        let winner = match w.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Side::White),
            std::cmp::Ordering::Less => Some(Side::Black),
            std::cmp::Ordering::Equal => None,
        };
        Some(Outcome {
            winner,
            reason: EndReason::Atsyrau,
        })
    }

    /// Builds a position from its parts, checking every invariant. Used by the position
    /// string parser; the outcome is derived (an unswept atsyrau is swept).
    pub fn from_parts(
        rows: [[u8; ROW]; 2],
        stores: [u8; 2],
        tuzdeks: [Option<u8>; 2],
        to_move: Side,
        ply: u16,
        tuzdek_rule: TuzdekRule,
    ) -> Result<Position, PositionError> {
        let total: u32 = rows.iter().flatten().map(|&b| b as u32).sum::<u32>()
            + stores.iter().map(|&s| s as u32).sum::<u32>();
        let balls_per_pit = Variant::BALLS_PER_PIT
            .into_iter()
            .find(|&b| b as u32 * RING as u32 == total)
            .ok_or(PositionError::BallTotal(total))?;
        let variant = Variant::new(balls_per_pit, tuzdek_rule)
            .map_err(|_| PositionError::BallTotal(total))?;
        let mut pits = [0u8; RING];
        pits[..ROW].copy_from_slice(&rows[0]);
        pits[ROW..].copy_from_slice(&rows[1]);
        let mut pos = Position {
            pits,
            stores,
            tuzdeks: [NO_TUZDEK; 2],
            to_move,
            ply,
            variant,
            outcome: None,
        };
        for side in Side::BOTH {
            let Some(number) = tuzdeks[side.index()] else {
                continue;
            };
            if !(1..=9).contains(&number) {
                return Err(PositionError::TuzdekPit(number));
            }
            if tuzdek_rule == TuzdekRule::Off {
                return Err(PositionError::TuzdekInNoTuzdekGame);
            }
            if number == 9 && tuzdek_rule == TuzdekRule::Standard {
                return Err(PositionError::TuzdekPit(number));
            }
            let ring = side.other().ring_index(number);
            if pos.pits[ring] != 0 {
                return Err(PositionError::TuzdekNotEmpty(number));
            }
            pos.tuzdeks[side.index()] = ring as u8;
        }
        if tuzdeks[0].is_some() && tuzdeks[0] == tuzdeks[1] {
            return Err(PositionError::MirrorTuzdeks);
        }
        pos.outcome = pos.settle_end();
        Ok(pos)
    }
}

/// Why a described position cannot exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    #[error("the board holds {0} balls in all; a game has 162, 90 or 54")]
    BallTotal(u32),
    #[error("pit {0} cannot be a tuzdek")]
    TuzdekPit(u8),
    #[error("a tuzdek must be empty, but pit {0} holds balls")]
    TuzdekNotEmpty(u8),
    #[error("the two tuzdeks cannot have the same number")]
    MirrorTuzdeks,
    #[error("a game without tuzdeks cannot have one")]
    TuzdekInNoTuzdekGame,
}

#[cfg(test)]
mod tests;
