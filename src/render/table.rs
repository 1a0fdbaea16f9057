//! A tournament's standings as a picture, drawn with the board's colours and fonts: a title,
//! a header row, then one row per player (rank, name, rating, score, and the fire streak and
//! game marks of an arena or the Swiss tie-breaks); the first three ranks in gold.

use super::font::{self, Align, Style};
use super::png::{
    color, encode_own_palette, rounded_rect, solid, BACKGROUND, HOLE_TOP, LANDED_COLOR, MUTED,
    TEXT, TUZDEK_COLOR, WINNER_CHIP,
};
use super::RenderError;
use tiny_skia::{FillRule, PathBuilder, Pixmap, Transform};

/// The picture's width in pixels; its height grows with the rows.
pub const TABLE_WIDTH: u32 = 960;
const ROW: f32 = 34.0;
const TOP: f32 = 112.0;
const MARGIN: f32 = 32.0;
/// Where each column starts (rank, name) or ends (rating, score), and the detail starts.
const RANK_RIGHT: f32 = 78.0;
const NAME_LEFT: f32 = 96.0;
const RATING_RIGHT: f32 = 560.0;
const SCORE_RIGHT: f32 = 660.0;
const DETAIL_LEFT: f32 = 700.0;

/// What the standings table shows.
#[derive(Clone, Debug, PartialEq)]
pub struct TableView {
    pub title: String,
    /// Headers: rank, player, rating, score, detail.
    pub columns: [String; 5],
    pub rows: Vec<TableRow>,
    /// A last line under the table (the event's state).
    pub footer: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TableRow {
    pub rank: String,
    pub name: String,
    pub rating: String,
    pub score: String,
    pub detail: String,
    /// An arena player whose next win scores double: a flame beside the score.
    pub on_fire: bool,
}

/// The table's height for `rows` rows (at least one, for an empty table's header).
pub fn table_height(rows: usize) -> u32 {
    (TOP + ROW * rows.max(1) as f32 + 64.0) as u32
}

/// The table as an indexed-colour PNG `TABLE_WIDTH` wide.
pub fn render(view: &TableView) -> Result<Vec<u8>, RenderError> {
    let height = table_height(view.rows.len());
    let mut canvas =
        Pixmap::new(TABLE_WIDTH, height).ok_or(RenderError::Canvas(TABLE_WIDTH, height))?;
    canvas.fill(color(BACKGROUND));
    let fonts = font::fonts()?;
    let title = Style {
        font: &fonts.bold,
        size: 26.0,
        color: TEXT,
    };
    let width = TABLE_WIDTH as f32 - 2.0 * MARGIN;
    let shown = font::fit(title, &view.title, width);
    font::draw(&mut canvas, title, MARGIN, 48.0, Align::Left, &shown);
    draw_header(&mut canvas, fonts, view);
    for (i, row) in view.rows.iter().enumerate() {
        draw_row(&mut canvas, fonts, i, row);
    }
    let footer = Style {
        font: &fonts.regular,
        size: 16.0,
        color: MUTED,
    };
    let line = font::fit(footer, &view.footer, width);
    font::draw(
        &mut canvas,
        footer,
        MARGIN,
        height as f32 - 24.0,
        Align::Left,
        &line,
    );
    encode_own_palette(&canvas)
}

fn draw_header(canvas: &mut Pixmap, fonts: &font::Fonts, view: &TableView) {
    let style = Style {
        font: &fonts.bold,
        size: 16.0,
        color: MUTED,
    };
    let y = TOP - 14.0;
    let [rank, player, rating, score, detail] = &view.columns;
    font::draw(canvas, style, RANK_RIGHT, y, Align::Right, rank);
    font::draw(canvas, style, NAME_LEFT, y, Align::Left, player);
    font::draw(canvas, style, RATING_RIGHT, y, Align::Right, rating);
    font::draw(canvas, style, SCORE_RIGHT, y, Align::Right, score);
    let detail = font::fit(style, detail, TABLE_WIDTH as f32 - MARGIN - DETAIL_LEFT);
    font::draw(canvas, style, DETAIL_LEFT, y, Align::Left, &detail);
}

fn draw_row(canvas: &mut Pixmap, fonts: &font::Fonts, i: usize, row: &TableRow) {
    let top = TOP + ROW * i as f32;
    if i % 2 == 0 {
        let band = super::layout::Rect::new(MARGIN - 8.0, top, TABLE_WIDTH as f32 - 48.0, ROW);
        if let Some(path) = rounded_rect(band, 6.0) {
            let paint = solid(HOLE_TOP);
            canvas.fill_path(
                &path,
                &paint,
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }
    let podium = i < 3 && row.rank.parse::<usize>().is_ok_and(|r| r <= 3);
    let text = |bold: bool, rgb: [u8; 3]| Style {
        font: if bold { &fonts.bold } else { &fonts.regular },
        size: 19.0,
        color: rgb,
    };
    let y = top + ROW / 2.0 + 7.0;
    let rank_color = if podium { WINNER_CHIP } else { MUTED };
    font::draw(
        canvas,
        text(true, rank_color),
        RANK_RIGHT,
        y,
        Align::Right,
        &row.rank,
    );
    let name_style = text(podium, TEXT);
    let name = font::fit(name_style, &row.name, RATING_RIGHT - 70.0 - NAME_LEFT);
    font::draw(canvas, name_style, NAME_LEFT, y, Align::Left, &name);
    font::draw(
        canvas,
        text(false, MUTED),
        RATING_RIGHT,
        y,
        Align::Right,
        &row.rating,
    );
    font::draw(
        canvas,
        text(true, TEXT),
        SCORE_RIGHT,
        y,
        Align::Right,
        &row.score,
    );
    if row.on_fire {
        flame(canvas, SCORE_RIGHT + 18.0, top + ROW / 2.0);
    }
    let detail_style = text(false, MUTED);
    let detail = font::fit(
        detail_style,
        &row.detail,
        TABLE_WIDTH as f32 - MARGIN - DETAIL_LEFT,
    );
    font::draw(canvas, detail_style, DETAIL_LEFT, y, Align::Left, &detail);
}

/// A small flame (the fonts have no emoji): an orange drop with a red core.
fn flame(canvas: &mut Pixmap, cx: f32, cy: f32) {
    for (scale, rgb) in [(1.0, LANDED_COLOR), (0.55, TUZDEK_COLOR)] {
        let (w, h) = (7.0 * scale, 11.0 * scale);
        let base = cy + 7.0 * scale;
        let mut pb = PathBuilder::new();
        pb.move_to(cx, base - 2.0 * h);
        pb.cubic_to(cx + w, base - h, cx + w, base, cx, base);
        pb.cubic_to(cx - w, base, cx - w, base - h, cx, base - 2.0 * h);
        pb.close();
        if let Some(path) = pb.finish() {
            let paint = solid(rgb);
            canvas.fill_path(
                &path,
                &paint,
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(rank: usize, name: &str, fire: bool) -> TableRow {
        TableRow {
            rank: rank.to_string(),
            name: name.to_string(),
            rating: "1500".into(),
            score: "12".into(),
            detail: "2 2 4 0".into(),
            on_fire: fire,
        }
    }

    #[test]
    fn a_table_is_a_png_as_tall_as_its_rows() {
        let view = TableView {
            title: "Арена · 3+2 · 60 минут".into(),
            columns: ["#", "Player", "Rating", "Score", "Games"].map(String::from),
            rows: (1..=12)
                .map(|r| row(r, "Әсел Нұрғалиқызы", r == 2))
                .collect(),
            footer: "Ends 05.12.2026 18:00 UTC".into(),
        };
        let png = render(&view).expect("drawn");
        assert_eq!(&png[1..4], b"PNG");
        let decoded = image_size(&png);
        assert_eq!(decoded, (TABLE_WIDTH, table_height(12)));
        let empty = TableView {
            rows: Vec::new(),
            ..view
        };
        let png = render(&empty).expect("drawn");
        assert_eq!(image_size(&png), (TABLE_WIDTH, table_height(0)));
    }

    /// Width and height from the PNG's IHDR chunk.
    fn image_size(png: &[u8]) -> (u32, u32) {
        let word = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
        (word(16), word(20))
    }
}
