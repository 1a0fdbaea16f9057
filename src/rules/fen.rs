//! The compact one-line position string, FEN-like:
//!
//! ```text
//! 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 w 1
//! ```
//!
//! Fields, separated by single spaces:
//! 1. White's pits 1..9, a `/`, Black's pits 1..9. A tuzdek is written `x` in the pit where it
//!    lies (a tuzdek in White's row is Black's, and the other way round).
//! 2. White's store `/` Black's store.
//! 3. The side to move, `w` or `b`.
//! 4. The move number (1 for the first move of each side).
//! 5. Optional rule flag: `no-tuzdek` or `ninth-tuzdek`; absent for the standard rule.
//!
//! Balls per pit (9, 5 or 3) follow from the ball total. A finished game's outcome is derived
//! from the position itself.

use super::{Position, PositionError, Side, TuzdekRule, ROW};
use std::fmt::Write;
use std::str::FromStr;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("a position string has 4 or 5 fields separated by spaces, found {0}")]
    FieldCount(usize),
    #[error("the pits field must be two rows of 9 pits separated by '/': {0:?}")]
    Rows(String),
    #[error("pit count {0:?} is not a number of balls or 'x'")]
    Pit(String),
    #[error("the stores field must be two numbers separated by '/': {0:?}")]
    Stores(String),
    #[error("the side to move must be 'w' or 'b', found {0:?}")]
    Side(String),
    #[error("the move number must be a number from 1, found {0:?}")]
    MoveNumber(String),
    #[error("unknown rule flag {0:?} (use no-tuzdek or ninth-tuzdek)")]
    Flag(String),
    #[error("row {0} has more than one tuzdek")]
    TwoTuzdeksInRow(&'static str),
    #[error(transparent)]
    Position(#[from] PositionError),
}

impl Position {
    /// The position string (see the module documentation).
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(64);
        for side in Side::BOTH {
            if side == Side::Black {
                s.push('/');
            }
            for pit in 1..=ROW as u8 {
                if pit > 1 {
                    s.push(',');
                }
                if self.is_tuzdek(side, pit) {
                    s.push('x');
                } else {
                    let _ = write!(s, "{}", self.pit(side, pit));
                }
            }
        }
        let side = if self.to_move() == Side::White {
            'w'
        } else {
            'b'
        };
        let _ = write!(
            s,
            " {}/{} {} {}",
            self.store(Side::White),
            self.store(Side::Black),
            side,
            self.fullmove()
        );
        match self.variant().tuzdek_rule() {
            TuzdekRule::Standard => {}
            TuzdekRule::Off => s.push_str(" no-tuzdek"),
            TuzdekRule::NinthAllowed => s.push_str(" ninth-tuzdek"),
        }
        s
    }

    /// Parses a position string.
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(4..=5).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let (rows, tuzdeks) = parse_rows(fields[0])?;
        let stores = parse_stores(fields[1])?;
        let to_move = match fields[2] {
            "w" | "W" => Side::White,
            "b" | "B" => Side::Black,
            other => return Err(FenError::Side(other.to_string())),
        };
        let fullmove: u16 = fields[3]
            .parse()
            .ok()
            .filter(|&n: &u16| (1..=16_000).contains(&n))
            .ok_or_else(|| FenError::MoveNumber(fields[3].to_string()))?;
        let ply = (fullmove - 1) * 2 + (to_move == Side::Black) as u16;
        let rule = match fields.get(4) {
            None => TuzdekRule::Standard,
            Some(&"no-tuzdek") => TuzdekRule::Off,
            Some(&"ninth-tuzdek") => TuzdekRule::NinthAllowed,
            Some(other) => return Err(FenError::Flag(other.to_string())),
        };
        Ok(Position::from_parts(
            rows, stores, tuzdeks, to_move, ply, rule,
        )?)
    }
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Position::from_fen(s)
    }
}

type Rows = ([[u8; ROW]; 2], [Option<u8>; 2]);

/// Parses the pits field; returns the rows and each side's tuzdek (by pit number).
fn parse_rows(field: &str) -> Result<Rows, FenError> {
    let (white, black) = field
        .split_once('/')
        .ok_or_else(|| FenError::Rows(field.to_string()))?;
    let mut rows = [[0u8; ROW]; 2];
    let mut tuzdeks = [None; 2];
    for (row_side, text) in [(Side::White, white), (Side::Black, black)] {
        let cells: Vec<&str> = text.split(',').collect();
        if cells.len() != ROW {
            return Err(FenError::Rows(field.to_string()));
        }
        for (i, cell) in cells.iter().enumerate() {
            if cell.eq_ignore_ascii_case("x") {
                // A tuzdek in this row belongs to the other side.
                let owner = row_side.other().index();
                if tuzdeks[owner].is_some() {
                    return Err(FenError::TwoTuzdeksInRow(row_side.name()));
                }
                tuzdeks[owner] = Some(i as u8 + 1);
            } else {
                rows[row_side.index()][i] =
                    cell.parse().map_err(|_| FenError::Pit(cell.to_string()))?;
            }
        }
    }
    Ok((rows, tuzdeks))
}

fn parse_stores(field: &str) -> Result<[u8; 2], FenError> {
    let bad = || FenError::Stores(field.to_string());
    let (w, b) = field.split_once('/').ok_or_else(bad)?;
    Ok([w.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?])
}
