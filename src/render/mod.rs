//! Boards drawn as text (for every chat and the console) or as a PNG image.
//!
//! Both are drawn from one viewer's side, as on a real board: the viewer's row at the bottom
//! with pits 1..9 left to right, the opponent's row on top with pits 9..1, so sowing runs
//! anticlockwise. `text` fits 40 columns; `png` draws a `layout::WIDTH` x `layout::HEIGHT`
//! image with fonts embedded in the binary, so the bytes are the same on every machine.

pub mod explorer;
mod font;
mod graph;
pub mod layout;
mod png;
pub mod pool;
mod quantize;
pub mod table;
mod text;

use crate::i18n::Lang;
use crate::rules::{EndReason, MoveReport, Position, Side};
use crate::t;

pub use graph::{GraphView, GRAPH_HEIGHT, GRAPH_WIDTH, RANGE_BALLS};
pub use png::{BETTER_COLOR, LANDED_COLOR, PLAYED_COLOR, TUZDEK_COLOR};
pub use pool::{board_png, draw, drawn_on_async_workers, explorer_png};
pub use text::shorten;

/// Everything needed to draw a board for one viewer.
#[derive(Clone, Debug)]
pub struct BoardView {
    pub position: Position,
    pub last_move: Option<MoveReport>,
    /// Display names of White and Black.
    pub names: [String; 2],
    /// Whose row is drawn at the bottom.
    pub perspective: Side,
    pub lang: Lang,
    /// A finished game's result as the viewer should read it (e.g. "Black resigned"), or
    /// `None` to derive the status from the position.
    pub result_line: Option<String>,
    /// A review's board before a mistake (the move played and the better one), or a hint
    /// (the engine's move): marked instead of the last move's rings.
    pub hint: Option<MoveHint>,
}

/// The moves a board marks for `side`: on a review's mistake board the one played and the
/// engine's better one; on a hint (`played` `None`) the engine's move alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveHint {
    pub side: Side,
    pub played: Option<u8>,
    pub better: u8,
}

/// Character set of the text board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Charset {
    #[default]
    Unicode,
    /// Frame, marks and names in plain ASCII; labels stay in the view's language (use
    /// `Lang::En` for a board that is ASCII throughout).
    Ascii,
}

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("PNG encoding failed: {0}")]
    Encode(String),
    #[error("the embedded font cannot be read: {0}")]
    Font(String),
    #[error("cannot allocate a {0}x{1} image")]
    Canvas(u32, u32),
    /// The drawing task panicked, or the runtime is shutting down.
    #[error("the drawing task failed: {0}")]
    Task(String),
}

/// The board as monospace text, at most 40 columns wide.
pub fn text(view: &BoardView, charset: Charset) -> String {
    text::render(view, charset)
}

/// The board as a PNG image of `layout::WIDTH` x `layout::HEIGHT` pixels.
pub fn png(view: &BoardView) -> Result<Vec<u8>, RenderError> {
    pool::note_drawing("board");
    png::render(view)
}

/// A review's evaluation graph as a PNG image of `GRAPH_WIDTH` x `GRAPH_HEIGHT` pixels.
pub fn review_graph(view: &GraphView) -> Result<Vec<u8>, RenderError> {
    pool::note_drawing("review graph");
    graph::render(view)
}

/// A tournament's standings as a PNG image `table::TABLE_WIDTH` wide.
pub fn standings_table(view: &table::TableView) -> Result<Vec<u8>, RenderError> {
    pool::note_drawing("standings table");
    table::render(view)
}

/// The opening explorer's board and moves table as one PNG `layout::WIDTH` wide.
pub fn explorer_picture(picture: &explorer::ExplorerPicture) -> Result<Vec<u8>, RenderError> {
    pool::note_drawing("explorer");
    explorer::render(picture)
}

/// The stages of `png`, timed separately by `benches/render.rs`. Not an API.
#[doc(hidden)]
pub use png::stages;

/// What a pit shows: its count, or that it is a tuzdek.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PitState {
    Balls(u8),
    Tuzdek,
}

/// How the last move touched a pit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PitMarks {
    played: bool,
    landed: bool,
    /// The better move of a mistake board.
    better: bool,
}

fn pit_state(p: &Position, side: Side, pit: u8) -> PitState {
    if p.is_tuzdek(side, pit) {
        PitState::Tuzdek
    } else {
        PitState::Balls(p.pit(side, pit))
    }
}

fn pit_marks(view: &BoardView, side: Side, pit: u8) -> PitMarks {
    if let Some(h) = view.hint {
        return PitMarks {
            played: h.side == side && h.played == Some(pit),
            landed: false,
            better: h.side == side && h.better == pit,
        };
    }
    match view.last_move {
        Some(m) => PitMarks {
            played: m.side == side && m.pit == pit,
            landed: m.landing_side == side && m.landing_pit == pit,
            better: false,
        },
        None => PitMarks::default(),
    }
}

fn side_name(lang: Lang, side: Side) -> String {
    crate::i18n::words::side_name(lang, side)
}

/// Whose turn it is, or how the game ended (the view's own result line wins).
fn status_line(view: &BoardView, separator: &str) -> String {
    if let Some(line) = &view.result_line {
        return line.clone();
    }
    let p = &view.position;
    let lang = view.lang;
    let Some(outcome) = p.outcome() else {
        return match p.to_move() {
            Side::White => t!(lang, "board-to-move-white"),
            Side::Black => t!(lang, "board-to-move-black"),
        };
    };
    let (white, black) = (p.store(Side::White), p.store(Side::Black));
    let result = match outcome.winner {
        Some(Side::White) => t!(lang, "board-white-wins", white = white, black = black),
        Some(Side::Black) => t!(lang, "board-black-wins", white = white, black = black),
        None => t!(lang, "board-draw", white = white, black = black),
    };
    match outcome.reason {
        EndReason::Atsyrau => format!("{result}{separator}{}", t!(lang, "board-atsyrau")),
        EndReason::Kazan | EndReason::EqualKazans => result,
    }
}

/// "Last move: 76, captured 10", with the move drawn by the caller (`played_to_landed`).
fn last_move_line(view: &BoardView, played_to_landed: &str) -> Option<String> {
    let m = view.last_move?;
    let lang = view.lang;
    let mut line = t!(lang, "board-last-move", notation = played_to_landed);
    if m.captured > 0 {
        line.push_str(", ");
        line.push_str(&t!(lang, "board-captured", count = m.captured));
    }
    if m.tuzdek_created {
        line.push_str(", ");
        line.push_str(&t!(lang, "board-tuzdek-made"));
    }
    Some(line)
}

fn has_tuzdek(p: &Position) -> bool {
    Side::BOTH.iter().any(|&s| p.tuzdek(s).is_some())
}

/// A display name cleaned for drawing: no control characters, whitespace collapsed, and
/// characters `keep` rejects dropped. Falls back to the side's name when nothing is left.
fn clean_name(view: &BoardView, side: Side, keep: impl Fn(char) -> bool) -> String {
    let raw = &view.names[side.index()];
    let kept: String = raw
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|&c| c == ' ' || (!c.is_control() && keep(c)))
        .collect();
    let name = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        side_name(view.lang, side)
    } else {
        name
    }
}

#[cfg(test)]
mod tests;
