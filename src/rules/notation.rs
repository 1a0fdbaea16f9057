//! Move notation: `76` (pit 7, last ball in pit 6), `X` after a move that created a tuzdek
//! (also `x`, Cyrillic `х`/`Х`), and PlayOK's `(N)`: the mover's store after a capture.
//! A bare pit digit (`7`) is accepted on input.

use super::MoveReport;
use std::fmt;

/// One half-move as written in a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveToken {
    pub pit: u8,
    /// The landing digit, when written.
    pub landing: Option<u8>,
    /// Whether the move is marked as creating a tuzdek.
    pub tuzdek: bool,
    /// PlayOK's store total after the move, when written.
    pub store: Option<u16>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("{0:?} is not a move (write the pit played, 1-9, then the landing pit: `76`)")]
    Malformed(String),
}

/// Parses one move such as `7`, `76`, `68X`, `87(10)` or `91х(42)`.
pub fn parse_move_token(text: &str) -> Result<MoveToken, NotationError> {
    let bad = || NotationError::Malformed(text.to_string());
    let mut chars = text.chars().peekable();
    let pit = digit(chars.next()).ok_or_else(bad)?;
    let landing = match chars.peek() {
        Some(c) if c.is_ascii_digit() => {
            let d = digit(chars.next()).ok_or_else(bad)?;
            Some(d)
        }
        _ => None,
    };
    let tuzdek = matches!(chars.peek(), Some('X' | 'x' | 'х' | 'Х'));
    if tuzdek {
        chars.next();
    }
    let rest: String = chars.collect();
    let store = if rest.is_empty() {
        None
    } else {
        let inner = rest
            .strip_prefix('(')
            .and_then(|r| r.strip_suffix(')'))
            .ok_or_else(bad)?;
        Some(inner.parse::<u16>().map_err(|_| bad())?)
    };
    Ok(MoveToken {
        pit,
        landing,
        tuzdek,
        store,
    })
}

/// A digit 1..=9.
fn digit(c: Option<char>) -> Option<u8> {
    let d = c?.to_digit(10)? as u8;
    (1..=9).contains(&d).then_some(d)
}

/// Writes a played move in standard notation: `76`, `68X`, and with `playok` also `87(10)`.
pub struct MoveText<'a> {
    report: &'a MoveReport,
    playok: bool,
}

impl MoveReport {
    /// The move in standard notation (`76`, `68X`).
    pub fn notation(&self) -> MoveText<'_> {
        MoveText {
            report: self,
            playok: false,
        }
    }
    /// The move as PlayOK writes it, with `(N)` after a capture.
    pub fn notation_playok(&self) -> MoveText<'_> {
        MoveText {
            report: self,
            playok: true,
        }
    }
}

impl fmt::Display for MoveText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.report;
        write!(f, "{}{}", r.pit, r.landing_pit)?;
        if r.tuzdek_created {
            f.write_str("X")?;
        }
        if self.playok && r.is_capture() {
            write!(f, "({})", r.store_after)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        let t = parse_move_token("76").unwrap();
        assert_eq!(
            (t.pit, t.landing, t.tuzdek, t.store),
            (7, Some(6), false, None)
        );
        let t = parse_move_token("7").unwrap();
        assert_eq!((t.pit, t.landing), (7, None));
        for mark in ["68X", "68x", "68х", "68Х"] {
            assert!(parse_move_token(mark).unwrap().tuzdek, "{mark}");
        }
        let t = parse_move_token("87(10)").unwrap();
        assert_eq!(t.store, Some(10));
        let t = parse_move_token("91X(42)").unwrap();
        assert!(t.tuzdek && t.store == Some(42));
    }

    #[test]
    fn rejects_garbage() {
        for bad in [
            "", "0", "06", "70", "a1", "76Y", "76(", "76(x)", "761", "7 6",
        ] {
            assert!(parse_move_token(bad).is_err(), "{bad}");
        }
    }
}
