//! Boards drawn as text or PNG. (Placeholder: issue 5 builds the real boards.)

use crate::i18n::Lang;
use crate::rules::{MoveReport, Position, Side};

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
}

/// Character set of the text board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Charset {
    #[default]
    Unicode,
    Ascii,
}

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("PNG encoding failed: {0}")]
    Encode(String),
}

/// The board as monospace text, at most 40 columns wide.
pub fn text(view: &BoardView, _charset: Charset) -> String {
    let p = &view.position;
    let top = view.perspective.other();
    let bottom = view.perspective;
    let mut rows: Vec<String> = Vec::new();
    let mut top_row: Vec<String> = p.row(top).iter().map(|b| b.to_string()).collect();
    top_row.reverse();
    rows.push(top_row.join(" "));
    rows.push(
        p.row(bottom)
            .iter()
            .map(|b| b.to_string())
            .collect::<Vec<_>>()
            .join(" "),
    );
    rows.push(format!(
        "{} : {}",
        p.store(Side::White),
        p.store(Side::Black)
    ));
    rows.join("\n")
}

/// The board as a PNG image.
pub fn png(_view: &BoardView) -> Result<Vec<u8>, RenderError> {
    Err(RenderError::Encode("not built yet".into()))
}
