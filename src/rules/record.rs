//! Game records: PGN-style headers, numbered move text, a result and PlayOK's `{zero}`.
//!
//! ```text
//! [White "abeke93"]
//! [Black "maks95"]
//! [Result "0-1"]
//!
//! 1. 87(10) 87(10) 2. 22 99(22) ... 46. 91 12 0-1 {zero}
//! ```
//!
//! Bare move text (`76 98 66`) and bare pit digits (`7 9 6`) are records too.

use super::{
    parse_move_token, EndReason, MoveError, MoveReport, MoveToken, Position, Side, TuzdekRule,
    Variant,
};
use crate::model::{parse_pgn_clock, pgn_clock, TimeControl};
use std::fmt::{self, Write};

/// The result written in a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl RecordResult {
    fn parse(text: &str) -> Option<RecordResult> {
        match text {
            "1-0" => Some(RecordResult::WhiteWins),
            "0-1" => Some(RecordResult::BlackWins),
            "1/2-1/2" | "½-½" => Some(RecordResult::Draw),
            "*" => Some(RecordResult::Unknown),
            _ => None,
        }
    }

    pub fn from_winner(winner: Option<Side>) -> RecordResult {
        match winner {
            Some(Side::White) => RecordResult::WhiteWins,
            Some(Side::Black) => RecordResult::BlackWins,
            None => RecordResult::Draw,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            RecordResult::WhiteWins => "1-0",
            RecordResult::BlackWins => "0-1",
            RecordResult::Draw => "1/2-1/2",
            RecordResult::Unknown => "*",
        }
    }
}

/// One move as written, with where it stands in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    pub token: MoveToken,
    pub text: String,
    pub line: usize,
    /// The mover's time left after the move, from a `{[%clk 0:02:41]}` comment (ms).
    pub clock_ms: Option<u64>,
}

/// A parsed game record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub headers: Vec<(String, String)>,
    pub moves: Vec<WrittenMove>,
    pub result: Option<RecordResult>,
    /// PlayOK's `{zero}`: the game ended by atsyrau.
    pub zero: bool,
    /// Line of the text where the record starts (1-based).
    pub first_line: usize,
}

impl Record {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The result from the move text, else from the `Result` header.
    pub fn written_result(&self) -> Option<RecordResult> {
        self.result
            .or_else(|| self.header("Result").and_then(RecordResult::parse))
    }

    /// The `TimeControl` header (`180+2`, `1/259200`), if present and readable.
    pub fn time_control(&self) -> Option<TimeControl> {
        self.header("TimeControl").and_then(TimeControl::from_pgn)
    }

    /// A short description for error messages: `White - Black (Date)`.
    pub fn title(&self) -> String {
        let w = self.header("White").unwrap_or("?");
        let b = self.header("Black").unwrap_or("?");
        match self.header("Date") {
            Some(d) => format!("{w} - {b} ({d})"),
            None => format!("{w} - {b}"),
        }
    }

    /// The starting position: the `FEN` header if present, else the variant's start.
    pub fn start_position(&self) -> Result<Position, RecordError> {
        let variant = match self.header("Variant") {
            Some(v) => parse_variant(v).ok_or_else(|| RecordError::Variant(v.to_string()))?,
            None => Variant::STANDARD,
        };
        match self.header("FEN") {
            Some(fen) => Position::from_fen(fen).map_err(|e| RecordError::Fen(e.to_string())),
            None => Ok(Position::start(variant)),
        }
    }
}

/// Parses a variant description such as `9`, `5 no-tuzdek` or `standard`.
pub fn parse_variant(text: &str) -> Option<Variant> {
    let mut balls = 9;
    let mut rule = TuzdekRule::Standard;
    for word in text.split(|c: char| c == ',' || c.is_whitespace()) {
        match word.trim().to_ascii_lowercase().as_str() {
            "" | "standard" => {}
            "no-tuzdek" => rule = TuzdekRule::Off,
            "ninth-tuzdek" => rule = TuzdekRule::NinthAllowed,
            n => balls = n.parse().ok()?,
        }
    }
    Variant::new(balls, rule).ok()
}

pub fn variant_text(v: Variant) -> String {
    let mut s = v.balls_per_pit().to_string();
    match v.tuzdek_rule() {
        TuzdekRule::Standard => {}
        TuzdekRule::Off => s.push_str(" no-tuzdek"),
        TuzdekRule::NinthAllowed => s.push_str(" ninth-tuzdek"),
    }
    s
}

/// Why a record could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("the record is empty")]
    Empty,
    #[error("line {line}: malformed header {text:?} (write [Name \"value\"])")]
    Header { line: usize, text: String },
    #[error(
        "line {line}: {text:?} is not a move (write the pit played, 1-9, then the landing pit: 76)"
    )]
    Token { line: usize, text: String },
    #[error("line {line}: unclosed comment")]
    Comment { line: usize },
    #[error("line {line}: moves after the result")]
    AfterResult { line: usize },
    #[error("unknown variant {0:?} (use e.g. \"9\", \"5 no-tuzdek\", \"9 ninth-tuzdek\")")]
    Variant(String),
    #[error("bad FEN header: {0}")]
    Fen(String),
}

/// Parses a text holding exactly one record.
pub fn parse_record(text: &str) -> Result<Record, RecordError> {
    let mut records = parse_records(text);
    match records.len() {
        0 => Err(RecordError::Empty),
        _ => records.remove(0),
    }
}

/// Parses a text holding any number of records. A record starts at a header line that
/// follows move text; each record parses (or fails) on its own.
pub fn parse_records(text: &str) -> Vec<Result<Record, RecordError>> {
    let mut out = Vec::new();
    let mut chunk: Vec<(usize, &str)> = Vec::new();
    let mut seen_moves = false;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && seen_moves {
            out.push(parse_chunk(&chunk));
            chunk.clear();
            seen_moves = false;
        }
        if !trimmed.is_empty() && !trimmed.starts_with('[') {
            seen_moves = true;
        }
        chunk.push((i + 1, line));
    }
    if chunk.iter().any(|(_, l)| !l.trim().is_empty()) {
        out.push(parse_chunk(&chunk));
    }
    out
}

fn parse_chunk(lines: &[(usize, &str)]) -> Result<Record, RecordError> {
    let mut record = Record {
        first_line: lines.first().map_or(1, |(n, _)| *n),
        ..Record::default()
    };
    let mut in_comment: Option<usize> = None;
    let mut comment = String::new();
    for &(line_no, line) in lines {
        let trimmed = line.trim();
        if in_comment.is_none() && trimmed.starts_with('[') {
            record.headers.push(parse_header(line_no, trimmed)?);
            continue;
        }
        for word in trimmed.split_whitespace() {
            if in_comment.is_some() {
                comment.push(' ');
                comment.push_str(word);
                if word.ends_with('}') {
                    in_comment = None;
                    finish_comment(&mut record, &comment);
                }
                continue;
            }
            if word.starts_with('{') {
                comment = word.to_string();
                if word.ends_with('}') {
                    finish_comment(&mut record, &comment);
                } else {
                    in_comment = Some(line_no);
                }
                continue;
            }
            parse_word(&mut record, line_no, word)?;
        }
    }
    if let Some(line) = in_comment {
        return Err(RecordError::Comment { line });
    }
    if record.moves.is_empty() && record.headers.is_empty() {
        return Err(RecordError::Empty);
    }
    Ok(record)
}

fn finish_comment(record: &mut Record, comment: &str) {
    let inner = comment.trim_matches(|c| c == '{' || c == '}').trim();
    if inner == "zero" {
        record.zero = true;
    }
    // `[%clk 0:02:41]`: the time left of the move just written.
    let clock = inner
        .strip_prefix("[%clk")
        .and_then(|rest| rest.split_once(']'))
        .and_then(|(time, _)| parse_pgn_clock(time));
    if let (Some(ms), Some(last)) = (clock, record.moves.last_mut()) {
        last.clock_ms = Some(ms);
    }
}

fn parse_header(line: usize, text: &str) -> Result<(String, String), RecordError> {
    let bad = || RecordError::Header {
        line,
        text: text.to_string(),
    };
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(bad)?;
    let (name, value) = inner.split_once(char::is_whitespace).ok_or_else(bad)?;
    let value = value
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(bad)?;
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return Err(bad());
    }
    Ok((name.to_string(), value.to_string()))
}

fn parse_word(record: &mut Record, line: usize, word: &str) -> Result<(), RecordError> {
    if let Some(result) = RecordResult::parse(word) {
        record.result = Some(result);
        return Ok(());
    }
    if record.result.is_some() {
        return Err(RecordError::AfterResult { line });
    }
    // A move number `12.` (or `12...`), possibly glued to the move: `12.76`.
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let word = if digits > 0 && word[digits..].starts_with('.') {
        word[digits..].trim_start_matches('.')
    } else {
        word
    };
    if word.is_empty() {
        return Ok(());
    }
    let token = parse_move_token(word).map_err(|_| RecordError::Token {
        line,
        text: word.to_string(),
    })?;
    record.moves.push(WrittenMove {
        token,
        text: word.to_string(),
        line,
        clock_ms: None,
    });
    Ok(())
}

/// A move of the record that the rules contradict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement {
    /// Half-move index, 1-based (0 for the final result).
    pub ply: usize,
    /// The move number as written in notation (`12.`).
    pub move_number: usize,
    pub side: Side,
    /// The move as written.
    pub text: String,
    pub line: usize,
    pub kind: DisagreementKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DisagreementKind {
    Illegal(MoveError),
    Landing {
        written: u8,
        actual: u8,
    },
    TuzdekMark {
        written: bool,
    },
    Store {
        written: u16,
        actual: u8,
    },
    Result {
        written: RecordResult,
        actual: RecordResult,
    },
    Zero,
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ply == 0 {
            write!(f, "line {}: result: ", self.line)?;
        } else {
            let dots = if self.side == Side::White { "." } else { "..." };
            write!(
                f,
                "line {}: move {}{} {}: ",
                self.line, self.move_number, dots, self.text
            )?;
        }
        match &self.kind {
            DisagreementKind::Illegal(e) => write!(f, "illegal: {e}"),
            DisagreementKind::Landing { written, actual } => write!(
                f,
                "the last ball lands in pit {actual}, the record says {written}"
            ),
            DisagreementKind::TuzdekMark { written: true } => {
                write!(f, "marked X, but no tuzdek is created")
            }
            DisagreementKind::TuzdekMark { written: false } => {
                write!(f, "creates a tuzdek, but is not marked X")
            }
            DisagreementKind::Store { written, actual } => write!(
                f,
                "the mover's store is {actual} after the move, the record says ({written})"
            ),
            DisagreementKind::Result { written, actual } => write!(
                f,
                "the game ended on the board {}, the record says {}",
                actual.as_str(),
                written.as_str()
            ),
            DisagreementKind::Zero => write!(
                f,
                "the record says {{zero}} (atsyrau), but the game did not end by atsyrau"
            ),
        }
    }
}

/// One replayed half-move.
#[derive(Clone, Copy, Debug)]
pub struct ReplayedPly {
    pub report: MoveReport,
    /// The position after the move.
    pub position: Position,
}

/// Replays a record from `start`, checking every landing digit, `X` mark and `(N)` total,
/// and, when the game ended on the board, the written result and `{zero}`.
pub fn replay(record: &Record, start: Position) -> Result<Vec<ReplayedPly>, Disagreement> {
    let mut pos = start;
    let mut plies = Vec::with_capacity(record.moves.len());
    for (i, written) in record.moves.iter().enumerate() {
        let (move_number, side) = (pos.fullmove() as usize, pos.to_move());
        let disagree = |kind| Disagreement {
            ply: i + 1,
            move_number,
            side,
            text: written.text.clone(),
            line: written.line,
            kind,
        };
        let report = pos
            .play(written.token.pit)
            .map_err(|e| disagree(DisagreementKind::Illegal(e)))?;
        check_written(&written.token, &report).map_err(disagree)?;
        plies.push(ReplayedPly {
            report,
            position: pos,
        });
    }
    check_result(record, &pos)?;
    Ok(plies)
}

fn check_written(token: &MoveToken, report: &MoveReport) -> Result<(), DisagreementKind> {
    if let Some(written) = token.landing {
        if written != report.landing_pit {
            return Err(DisagreementKind::Landing {
                written,
                actual: report.landing_pit,
            });
        }
    }
    // Bare pit digits carry no marks; only full move text is checked for `X`.
    if token.landing.is_some() && token.tuzdek != report.tuzdek_created {
        return Err(DisagreementKind::TuzdekMark {
            written: token.tuzdek,
        });
    }
    if let Some(written) = token.store {
        if written != report.store_after as u16 {
            return Err(DisagreementKind::Store {
                written,
                actual: report.store_after,
            });
        }
    }
    Ok(())
}

fn check_result(record: &Record, end: &Position) -> Result<(), Disagreement> {
    let last_line = record.moves.last().map_or(record.first_line, |m| m.line);
    let disagree = |kind| Disagreement {
        ply: 0,
        move_number: end.fullmove() as usize,
        side: end.to_move(),
        text: String::new(),
        line: last_line,
        kind,
    };
    let Some(outcome) = end.outcome() else {
        return if record.zero {
            Err(disagree(DisagreementKind::Zero))
        } else {
            Ok(()) // resigned, agreed or lost on time: nothing on the board to check
        };
    };
    if record.zero && outcome.reason != EndReason::Atsyrau {
        return Err(disagree(DisagreementKind::Zero));
    }
    let actual = RecordResult::from_winner(outcome.winner);
    match record.written_result() {
        Some(written) if written != actual && written != RecordResult::Unknown => {
            Err(disagree(DisagreementKind::Result { written, actual }))
        }
        _ => Ok(()),
    }
}

/// Writes a record: headers, numbered move text, the result and `{zero}` after an atsyrau.
/// `playok` adds the `(N)` store totals after captures.
pub fn write_record(
    headers: &[(String, String)],
    start: Position,
    moves: &[MoveReport],
    result: Option<RecordResult>,
    playok: bool,
) -> String {
    write_timed_record(headers, start, moves, &[], result, playok)
}

/// `write_record` for a game on a clock: `clocks[i]`, the mover's time left after move `i`
/// (ms), is written after it as `{[%clk 0:02:41]}` (put a `TimeControl` header in
/// `headers`).
pub fn write_timed_record(
    headers: &[(String, String)],
    start: Position,
    moves: &[MoveReport],
    clocks: &[u64],
    result: Option<RecordResult>,
    playok: bool,
) -> String {
    let mut out = String::new();
    for (name, value) in headers {
        let _ = writeln!(out, "[{name} \"{}\"]", value.replace('"', "'"));
    }
    if !start.variant().is_standard() && !headers.iter().any(|(n, _)| n == "Variant") {
        let _ = writeln!(out, "[Variant \"{}\"]", variant_text(start.variant()));
    }
    if start != Position::start(start.variant()) {
        let _ = writeln!(out, "[FEN \"{}\"]", start.to_fen());
    }
    if !out.is_empty() {
        out.push('\n');
    }
    if clocks.is_empty() {
        out.push_str(&move_text(start, moves, playok));
    } else {
        let text = move_text(start, moves, playok);
        out.push_str(&annotate_clocks(&text, clocks));
    }
    let result = result.or_else(|| {
        moves
            .last()
            .and_then(|m| m.outcome)
            .map(|o| RecordResult::from_winner(o.winner))
    });
    if let Some(result) = result {
        if !out.ends_with('\n') && !moves.is_empty() {
            out.push(' ');
        }
        out.push_str(result.as_str());
        let atsyrau = moves
            .last()
            .and_then(|m| m.outcome)
            .is_some_and(|o| o.reason == EndReason::Atsyrau);
        if atsyrau {
            out.push_str(" {zero}");
        }
    }
    out.push('\n');
    out
}

/// Puts `{[%clk h:mm:ss]}` after each move of move text `text` (`1. 76 98`; numbers like
/// `12.` are not moves): `clocks[i]` is the mover's time left after move `i`, in ms.
pub fn annotate_clocks(text: &str, clocks: &[u64]) -> String {
    let mut out = String::new();
    let mut next = clocks.iter();
    for word in text.split(' ') {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
        if !word.ends_with('.') {
            if let Some(&ms) = next.next() {
                let _ = write!(out, " {{[%clk {}]}}", pgn_clock(ms));
            }
        }
    }
    out
}

/// Numbered move text on one line: `1. 76 98 2. 66 87`.
pub fn move_text(start: Position, moves: &[MoveReport], playok: bool) -> String {
    let mut out = String::new();
    for (i, m) in moves.iter().enumerate() {
        push_move_text(&mut out, start.ply(), i, m, playok);
    }
    out
}

/// Appends the `i`-th move of a game that started at ply `start_ply` to its move text (what
/// `move_text` makes of them all): a game in memory keeps its text and adds each move,
/// instead of writing the whole list again for every board.
pub fn push_move_text(out: &mut String, start_ply: u16, i: usize, m: &MoveReport, playok: bool) {
    if i > 0 {
        out.push(' ');
    }
    let ply = usize::from(start_ply) + i;
    let number = ply / 2 + 1;
    if m.side == Side::White {
        let _ = write!(out, "{number}. ");
    } else if i == 0 {
        let _ = write!(out, "{number}... ");
    }
    if playok {
        let _ = write!(out, "{}", m.notation_playok());
    } else {
        let _ = write!(out, "{}", m.notation());
    }
}
