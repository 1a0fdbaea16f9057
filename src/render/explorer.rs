//! The opening explorer's picture (issue 52): the position's board as every board is drawn,
//! and under it the moves table: per move its pit, games, a bar of White wins, draws and
//! Black wins with their percentages, and the movers' average rating. `present` decides
//! every word and number; this only draws them.

use super::font::{self, Align, Style};
use super::layout::{self, Rect};
use super::png::{
    self, color, rounded_rect, solid, BACKGROUND, BLACK_STONE, HOLE_TOP, MUTED, TEXT, WHITE_STONE,
};
use super::{BoardView, RenderError};
use tiny_skia::{FillRule, Pixmap, PixmapPaint, Transform};

const ROW: f32 = 36.0;
const MARGIN: f32 = 32.0;
/// The title's band under the board, then the header row.
const TITLE: f32 = 52.0;
const HEADER: f32 = 34.0;
const BOTTOM: f32 = 24.0;
/// Column edges: pit (centred), games (right), the bar (from, to), rating (right).
const PIT_CENTER: f32 = 70.0;
const GAMES_RIGHT: f32 = 250.0;
const BAR_LEFT: f32 = 280.0;
const BAR_RIGHT: f32 = 800.0;
const RATING_RIGHT: f32 = 928.0;
/// The narrowest bar segment that still shows its percentage.
const LABELLED: f32 = 46.0;
/// The draws' part of a bar.
const DRAW_GREY: [u8; 3] = [0x8a, 0x80, 0x76];

/// What the explorer's picture shows.
#[derive(Clone, Debug)]
pub struct ExplorerPicture {
    pub board: BoardView,
    /// The line and the source, as the table's title.
    pub title: String,
    /// Headers: move, games, results, rating.
    pub columns: [String; 4],
    pub rows: Vec<ExplorerLine>,
    /// Every game of the position, as the last line (none when it has no games).
    pub total: Option<ExplorerLine>,
    /// Said instead of the rows when there are none.
    pub empty: String,
}

/// One line of the moves table, in words.
#[derive(Clone, Debug, PartialEq)]
pub struct ExplorerLine {
    pub pit: String,
    /// The games and their share ("1 204 · 52%").
    pub games: String,
    /// White wins, draws, Black wins in percent (adding up to 100, or all 0).
    pub results: [u8; 3],
    pub rating: String,
}

/// The picture's height: the board, the title and header, the rows (or the empty line) and
/// the total.
pub fn explorer_height(picture: &ExplorerPicture) -> u32 {
    let lines = picture.rows.len().max(1) + usize::from(picture.total.is_some());
    (layout::HEIGHT as f32 + TITLE + HEADER + ROW * lines as f32 + BOTTOM) as u32
}

/// The picture as a PNG `layout::WIDTH` wide, in the board's palette.
pub fn render(picture: &ExplorerPicture) -> Result<Vec<u8>, RenderError> {
    let board = png::draw(&picture.board)?;
    let (width, height) = (layout::WIDTH, explorer_height(picture));
    let mut canvas = Pixmap::new(width, height).ok_or(RenderError::Canvas(width, height))?;
    canvas.fill(color(BACKGROUND));
    canvas.draw_pixmap(
        0,
        0,
        board.as_ref(),
        &PixmapPaint::default(),
        Transform::identity(),
        None,
    );
    let fonts = font::fonts()?;
    let top = layout::HEIGHT as f32;
    let title = Style {
        font: &fonts.bold,
        size: 24.0,
        color: TEXT,
    };
    let shown = font::fit(title, &picture.title, width as f32 - 2.0 * MARGIN);
    font::draw(&mut canvas, title, MARGIN, top + 36.0, Align::Left, &shown);
    draw_header(&mut canvas, fonts, &picture.columns, top + TITLE + 22.0);
    let first = top + TITLE + HEADER;
    if picture.rows.is_empty() {
        let style = Style {
            font: &fonts.regular,
            size: 19.0,
            color: MUTED,
        };
        let line = font::fit(style, &picture.empty, width as f32 - 2.0 * MARGIN);
        font::draw(&mut canvas, style, MARGIN, first + 24.0, Align::Left, &line);
    }
    for (i, row) in picture.rows.iter().enumerate() {
        draw_line(&mut canvas, fonts, first + ROW * i as f32, row, i % 2 == 0);
    }
    if let Some(total) = &picture.total {
        let at = first + ROW * picture.rows.len().max(1) as f32;
        draw_line(&mut canvas, fonts, at, total, false);
    }
    png::encode(&canvas)
}

fn draw_header(canvas: &mut Pixmap, fonts: &font::Fonts, columns: &[String; 4], y: f32) {
    let style = Style {
        font: &fonts.bold,
        size: 16.0,
        color: MUTED,
    };
    let [pit, games, results, rating] = columns;
    font::draw(canvas, style, PIT_CENTER, y, Align::Center, pit);
    font::draw(canvas, style, GAMES_RIGHT, y, Align::Right, games);
    font::draw(canvas, style, BAR_LEFT, y, Align::Left, results);
    font::draw(canvas, style, RATING_RIGHT, y, Align::Right, rating);
}

fn draw_line(canvas: &mut Pixmap, fonts: &font::Fonts, top: f32, line: &ExplorerLine, band: bool) {
    if band {
        let stripe = Rect::new(MARGIN - 8.0, top, layout::WIDTH as f32 - 48.0, ROW);
        fill(canvas, stripe, 6.0, HOLE_TOP);
    }
    let y = top + ROW / 2.0 + 7.0;
    let text = |bold: bool, rgb: [u8; 3]| Style {
        font: if bold { &fonts.bold } else { &fonts.regular },
        size: 19.0,
        color: rgb,
    };
    font::draw(
        canvas,
        text(true, TEXT),
        PIT_CENTER,
        y,
        Align::Center,
        &line.pit,
    );
    let games = text(false, TEXT);
    let shown = font::fit(games, &line.games, GAMES_RIGHT - PIT_CENTER - 30.0);
    font::draw(canvas, games, GAMES_RIGHT, y, Align::Right, &shown);
    draw_bar(
        canvas,
        fonts,
        Rect::new(BAR_LEFT, top + 6.0, BAR_RIGHT - BAR_LEFT, ROW - 12.0),
        line.results,
    );
    let rating = text(false, MUTED);
    font::draw(canvas, rating, RATING_RIGHT, y, Align::Right, &line.rating);
}

/// White wins, draws and Black wins side by side, each as wide as its share, its
/// percentage inside when there is room.
fn draw_bar(canvas: &mut Pixmap, fonts: &font::Fonts, bar: Rect, results: [u8; 3]) {
    if results == [0; 3] {
        return;
    }
    let colours = [
        (WHITE_STONE, BLACK_STONE),
        (DRAW_GREY, BLACK_STONE),
        (BLACK_STONE, WHITE_STONE),
    ];
    let mut x = bar.x;
    for (share, (fill_rgb, ink)) in results.into_iter().zip(colours) {
        let w = bar.w * f32::from(share) / 100.0;
        if w <= 0.0 {
            continue;
        }
        fill(canvas, Rect::new(x, bar.y, w, bar.h), 0.0, fill_rgb);
        if w >= LABELLED {
            let style = Style {
                font: &fonts.bold,
                size: 15.0,
                color: ink,
            };
            let label = format!("{share}%");
            font::draw(
                canvas,
                style,
                x + w / 2.0,
                bar.y + bar.h / 2.0 + 5.5,
                Align::Center,
                &label,
            );
        }
        x += w;
    }
    // An outline: Black's part would melt into the dark background.
    if let Some(path) = tiny_skia::Rect::from_xywh(bar.x, bar.y, bar.w, bar.h)
        .map(tiny_skia::PathBuilder::from_rect)
    {
        png::stroke(canvas, &path, MUTED, 1.0);
    }
}

fn fill(canvas: &mut Pixmap, rect: Rect, radius: f32, rgb: [u8; 3]) {
    let path = match radius > 0.0 {
        true => rounded_rect(rect, radius),
        false => tiny_skia::Rect::from_xywh(rect.x, rect.y, rect.w, rect.h)
            .map(tiny_skia::PathBuilder::from_rect),
    };
    if let Some(path) = path {
        canvas.fill_path(
            &path,
            &solid(rgb),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::rules::{Position, Side, Variant};

    fn picture(rows: usize) -> ExplorerPicture {
        let mut position = Position::start(Variant::STANDARD);
        let last = position.play(7).ok();
        ExplorerPicture {
            board: BoardView {
                position,
                last_move: last,
                names: ["White".into(), "Black".into()],
                perspective: Side::Black,
                lang: Lang::En,
                result_line: None,
                hint: None,
            },
            title: "After 7 · Masters".into(),
            columns: ["Move", "Games", "White / draw / Black", "Rating"].map(String::from),
            rows: (0..rows)
                .map(|i| ExplorerLine {
                    pit: (i + 1).to_string(),
                    games: format!("{} · {}%", 1000 - i * 100, 30 - i),
                    results: [[48, 12, 40], [100, 0, 0], [0, 3, 97]][i % 3],
                    rating: "1834".into(),
                })
                .collect(),
            total: (rows > 0).then(|| ExplorerLine {
                pit: "Σ".into(),
                games: "4 000".into(),
                results: [50, 10, 40],
                rating: String::new(),
            }),
            empty: "No games reached this position.".into(),
        }
    }

    #[test]
    fn the_picture_is_the_board_over_its_table() {
        for rows in [0, 3, 9] {
            let view = picture(rows);
            let png = render(&view).expect("drawn");
            assert_eq!(&png[1..4], b"PNG");
            let word =
                |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
            assert_eq!(
                (word(16), word(20)),
                (layout::WIDTH, explorer_height(&view))
            );
            if let Ok(dir) = std::env::var("TOGUZ_EXPLORER_PNG") {
                let path = std::path::Path::new(&dir).join(format!("explorer-{rows}.png"));
                std::fs::write(path, &png).expect("written");
            }
        }
        assert!(explorer_height(&picture(9)) > explorer_height(&picture(3)));
        assert_eq!(
            explorer_height(&picture(0)),
            explorer_height(&picture(1)) - ROW as u32
        );
    }
}
