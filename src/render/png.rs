//! The PNG board: tiny-skia draws, ab_glyph writes, the `png` crate encodes.
//!
//! tiny-skia's own PNG encoder compresses hard and is slow (about 4 ms for this image), and
//! fast RGB settings give files of 200 KB; the canvas is encoded here as an indexed-colour
//! PNG with a palette learnt once per process instead (see `quantize` and `encode`).

use super::font::{self, Align, Fonts, Style};
use super::layout::{self, Rect};
use super::quantize::Palette;
use super::{
    clean_name, has_tuzdek, last_move_line, pit_marks, pit_state, side_name, status_line,
    BoardView, MoveHint, PitMarks, PitState, RenderError,
};
use crate::i18n::Lang;
use crate::rules::{MoveReport, Position, Side};
use crate::t;
use flate2::write::ZlibEncoder;
use std::io::Write;
use std::sync::LazyLock;
use tiny_skia::{
    Color, FillRule, GradientStop, LineCap, LinearGradient, Paint, Path, PathBuilder, Pixmap,
    Point, RadialGradient, Shader, SpreadMode, Stroke, Transform,
};

/// Ring around the pit the last move was played from.
pub const PLAYED_COLOR: [u8; 3] = [0x2f, 0x9b, 0xff];
/// Ring around the pit where the last ball landed.
pub const LANDED_COLOR: [u8; 3] = [0xff, 0xb4, 0x1f];
/// Ring around the better move on a review's mistake board.
pub const BETTER_COLOR: [u8; 3] = [0x2e, 0xa0, 0x43];
/// Fill of a tuzdek pit.
pub const TUZDEK_COLOR: [u8; 3] = [0xb3, 0x26, 0x2e];

pub(super) const BACKGROUND: [u8; 3] = [0x1f, 0x1b, 0x18];
pub(super) const TEXT: [u8; 3] = [0xf3, 0xec, 0xe2];
pub(super) const MUTED: [u8; 3] = [0xb5, 0xa8, 0x98];
const WOOD_TOP: [u8; 3] = [0xcf, 0x97, 0x5c];
const WOOD_BOTTOM: [u8; 3] = [0xb2, 0x76, 0x3e];
const WOOD_EDGE: [u8; 3] = [0x6e, 0x40, 0x1d];
pub(super) const HOLE_TOP: [u8; 3] = [0x3c, 0x21, 0x0f];
const HOLE_BOTTOM: [u8; 3] = [0x6a, 0x3f, 0x20];
const HOLE_EDGE: [u8; 3] = [0x4a, 0x2a, 0x12];
const INK: [u8; 3] = [0x3a, 0x1f, 0x0c];
pub(super) const INK_LIGHT: [u8; 3] = [0x7e, 0x52, 0x2e];
const TURN_CHIP: [u8; 3] = [0x3e, 0x9b, 0x4f];
pub(super) const WINNER_CHIP: [u8; 3] = [0xe2, 0xb1, 0x3c];
pub(super) const WHITE_STONE: [u8; 3] = [0xf4, 0xf1, 0xea];
pub(super) const BLACK_STONE: [u8; 3] = [0x1a, 0x1a, 0x1a];

/// Balls drawn one by one in a pit; more are drawn as a full pile with the count on it.
pub const MAX_DRAWN_BALLS: u8 = 18;
const PIT_BALL: u32 = 17;
const PIT_BALL_COLUMNS: u8 = 3;
const PIT_BALL_DX: f32 = 20.0;
const PIT_BALL_DY: f32 = 18.0;
const STORE_BALL: u32 = 11;
const STORE_BALL_ROWS: u32 = 4;
const STORE_BALL_DX: f32 = 12.0;
const STORE_BALL_DY: f32 = 11.0;

pub(super) fn render(view: &BoardView) -> Result<Vec<u8>, RenderError> {
    CANVAS.with(|cell| {
        let mut canvas = cell.borrow_mut();
        let canvas = match canvas.as_mut() {
            Some(canvas) => {
                canvas.data_mut().copy_from_slice(base()?.data());
                canvas
            }
            None => canvas.insert(base()?.clone()),
        };
        draw_on(canvas, view)?;
        encode(canvas)
    })
}

thread_local! {
    /// Each thread's board canvas (960 x 660 RGBA, 2.5 MB), reset from [`BASE`] for every
    /// board: no 2.5 MB allocation, and no fresh pages to fault in, per board.
    static CANVAS: std::cell::RefCell<Option<Pixmap>> = const { std::cell::RefCell::new(None) };
}

fn base() -> Result<&'static Pixmap, RenderError> {
    BASE.as_ref()
        .ok_or(RenderError::Canvas(layout::WIDTH, layout::HEIGHT))
}

/// The board on a canvas of its own, before encoding (the bench times the stages).
pub(super) fn draw(view: &BoardView) -> Result<Pixmap, RenderError> {
    let mut canvas = base()?.clone();
    draw_on(&mut canvas, view)?;
    Ok(canvas)
}

/// The stages of `render`, timed separately by `benches/render.rs` (re-exported as
/// `render::stages`). Not an API.
pub mod stages {
    use super::{BoardView, RenderError};
    pub use tiny_skia::Pixmap;

    /// Draws the board on a canvas.
    pub fn draw(view: &BoardView) -> Result<Pixmap, RenderError> {
        super::draw(view)
    }
    /// Quantizes and encodes the canvas.
    pub fn encode(canvas: &Pixmap) -> Result<Vec<u8>, RenderError> {
        super::encode(canvas)
    }
}

/// Draws the board on `canvas`, a copy of [`BASE`].
fn draw_on(canvas: &mut Pixmap, view: &BoardView) -> Result<(), RenderError> {
    let fonts = font::fonts()?;
    let top = view.perspective.other();
    draw_player_bar(canvas, fonts, view, top, layout::TOP_BAR);
    for side in Side::BOTH {
        for pit in 1..=9 {
            draw_pit(canvas, fonts, view, side, pit);
        }
        draw_store(canvas, fonts, view, side);
    }
    let bottom = view.perspective;
    draw_player_bar(canvas, fonts, view, bottom, layout::BOTTOM_BAR);
    draw_footer(canvas, fonts, view);
    Ok(())
}

/// Everything that looks the same on every board: the wood, the empty pits and troughs, the
/// pit numbers. Gradient fills are the slowest thing tiny-skia does here (tens of
/// milliseconds), so they are drawn once per process and each board starts from a copy.
static BASE: LazyLock<Option<Pixmap>> = LazyLock::new(|| draw_base(font::fonts().ok()?));

fn draw_base(fonts: &Fonts) -> Option<Pixmap> {
    let mut canvas = Pixmap::new(layout::WIDTH, layout::HEIGHT)?;
    canvas.fill(color(BACKGROUND));
    let b = layout::BOARD;
    let wood = vertical_gradient(b, WOOD_TOP, WOOD_BOTTOM);
    let board = rounded_rect(b, 18.0)?;
    canvas.fill_path(
        &board,
        &wood,
        FillRule::Winding,
        Transform::identity(),
        None,
    );
    stroke(&mut canvas, &board, WOOD_EDGE, 3.0);
    let number = Style {
        font: &fonts.regular,
        size: 15.0,
        color: INK_LIGHT,
    };
    // The layout does not depend on the viewer except for which side is where: draw both
    // rows as White sees them; the numbers read the same for either viewer.
    for side in Side::BOTH {
        for pit in 1..=9 {
            let rect = layout::pit_rect(Side::White, side, pit);
            hollow(&mut canvas, rect, rect.w / 2.0);
            let y = if layout::is_top(Side::White, side) {
                layout::TOP_NUMBERS_Y
            } else {
                layout::BOTTOM_NUMBERS_Y
            };
            let (cx, _) = rect.center();
            font::draw(&mut canvas, number, cx, y, Align::Center, &pit.to_string());
        }
        let trough = layout::store_rect(Side::White, side);
        hollow(&mut canvas, trough, trough.h / 2.0);
        let total = rounded_rect(layout::total_rect(Side::White, side), 12.0)?;
        let fill = solid(HOLE_TOP);
        canvas.fill_path(
            &total,
            &fill,
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
    Some(canvas)
}

/// A hollow in the wood, shaded darker towards the top as if lit from above.
fn hollow(canvas: &mut Pixmap, rect: Rect, radius: f32) {
    if let Some(path) = rounded_rect(rect, radius) {
        let shade = vertical_gradient(rect, HOLE_TOP, HOLE_BOTTOM);
        canvas.fill_path(
            &path,
            &shade,
            FillRule::Winding,
            Transform::identity(),
            None,
        );
        stroke(canvas, &path, HOLE_EDGE, 2.0);
    }
}

/// One pit's contents on the empty pit of the base: balls or the tuzdek, rings, count.
fn draw_pit(canvas: &mut Pixmap, fonts: &Fonts, view: &BoardView, side: Side, pit: u8) {
    let rect = layout::pit_rect(view.perspective, side, pit);
    let state = pit_state(&view.position, side, pit);
    match state {
        PitState::Tuzdek => {
            if let Some(hole) = rounded_rect(rect, rect.w / 2.0) {
                let red = solid(TUZDEK_COLOR);
                canvas.fill_path(&hole, &red, FillRule::Winding, Transform::identity(), None);
                stroke(canvas, &hole, HOLE_EDGE, 2.0);
            }
            draw_cross(canvas, rect);
        }
        PitState::Balls(n) => draw_pit_balls(canvas, fonts, rect, n),
    }
    draw_marks(canvas, rect, pit_marks(view, side, pit));
    draw_pit_labels(canvas, fonts, view, side, rect, state);
}

/// The rings of the last move: blue where it was played, amber where the last ball landed
/// (both, one inside the other, when a lap of 19 or more ends in its own pit).
fn draw_marks(canvas: &mut Pixmap, rect: Rect, marks: PitMarks) {
    let ring = |canvas: &mut Pixmap, gap: f32, rgb: [u8; 3]| {
        let r = rect.outset(gap);
        if let Some(path) = rounded_rect(r, r.w / 2.0) {
            stroke(canvas, &path, rgb, layout::RING_WIDTH);
        }
    };
    if marks.landed {
        ring(canvas, layout::RING_GAP, LANDED_COLOR);
    }
    if marks.played {
        let gap = if marks.landed { 0.0 } else { layout::RING_GAP };
        ring(canvas, gap, PLAYED_COLOR);
    }
    if marks.better {
        ring(canvas, layout::RING_GAP, BETTER_COLOR);
    }
}

/// The count (or the word "tuzdek") on the inner side of the pit; the number is on the base.
fn draw_pit_labels(
    canvas: &mut Pixmap,
    fonts: &Fonts,
    view: &BoardView,
    side: Side,
    rect: Rect,
    state: PitState,
) {
    let (cx, _) = rect.center();
    let top = layout::is_top(view.perspective, side);
    let count_y = if top {
        layout::TOP_COUNTS_Y
    } else {
        layout::BOTTOM_COUNTS_Y
    };
    match state {
        PitState::Balls(n) => {
            let count = Style {
                font: &fonts.bold,
                size: 24.0,
                color: INK,
            };
            font::draw(canvas, count, cx, count_y, Align::Center, &n.to_string());
        }
        PitState::Tuzdek => {
            let label = Style {
                font: &fonts.bold,
                size: 15.0,
                color: TEXT,
            };
            let word = t!(view.lang, "board-tuzdek");
            let word = font::fit(label, &word, 92.0);
            chip(
                canvas,
                label,
                TUZDEK_COLOR,
                cx,
                count_y - 6.0,
                Align::Center,
                &word,
            );
        }
    }
}

/// Up to `MAX_DRAWN_BALLS` balls in rows of three, centred in the pit; a bigger pile shows
/// its count on top.
fn draw_pit_balls(canvas: &mut Pixmap, fonts: &Fonts, rect: Rect, n: u8) {
    let Some(ball) = PIT_BALL_SPRITE.as_ref() else {
        return;
    };
    let drawn = n.min(MAX_DRAWN_BALLS);
    let rows = drawn.div_ceil(PIT_BALL_COLUMNS);
    let (cx, cy) = rect.center();
    let top = cy - (rows as f32 * PIT_BALL_DY) / 2.0;
    for i in 0..drawn {
        let row = i / PIT_BALL_COLUMNS;
        let in_row = (drawn - row * PIT_BALL_COLUMNS).min(PIT_BALL_COLUMNS);
        let col = i % PIT_BALL_COLUMNS;
        // A short last row is centred under the full ones.
        let left = cx - (in_row as f32 * PIT_BALL_DX) / 2.0 + (PIT_BALL_DX - PIT_BALL as f32) / 2.0;
        let x = left + col as f32 * PIT_BALL_DX;
        let y = top + row as f32 * PIT_BALL_DY;
        blit(canvas, ball, x, y);
    }
    if n > MAX_DRAWN_BALLS {
        let style = Style {
            font: &fonts.bold,
            size: 20.0,
            color: TEXT,
        };
        chip(
            canvas,
            style,
            INK,
            cx,
            cy + 7.0,
            Align::Center,
            &n.to_string(),
        );
    }
}

fn draw_cross(canvas: &mut Pixmap, rect: Rect) {
    let (cx, cy) = rect.center();
    let d = 20.0;
    let mut pb = PathBuilder::new();
    pb.move_to(cx - d, cy - d);
    pb.line_to(cx + d, cy + d);
    pb.move_to(cx + d, cy - d);
    pb.line_to(cx - d, cy + d);
    if let Some(path) = pb.finish() {
        let stroke_style = Stroke {
            width: 8.0,
            line_cap: LineCap::Round,
            ..Stroke::default()
        };
        canvas.stroke_path(
            &path,
            &solid(TEXT),
            &stroke_style,
            Transform::identity(),
            None,
        );
    }
}

/// A store: a trough holding every ball (up to four rows), and its total beside it.
fn draw_store(canvas: &mut Pixmap, fonts: &Fonts, view: &BoardView, side: Side) {
    let trough = layout::store_rect(view.perspective, side);
    let total = view.position.store(side);
    if let Some(ball) = STORE_BALL_SPRITE.as_ref() {
        let top = trough.y + (trough.h - STORE_BALL_ROWS as f32 * STORE_BALL_DY) / 2.0;
        let left = trough.x + trough.h / 2.0 - 4.0;
        let columns = ((trough.w - trough.h) / STORE_BALL_DX) as u32;
        for i in 0..(total as u32).min(columns * STORE_BALL_ROWS) {
            let x = left + (i / STORE_BALL_ROWS) as f32 * STORE_BALL_DX;
            let y = top + (i % STORE_BALL_ROWS) as f32 * STORE_BALL_DY;
            blit(canvas, ball, x, y);
        }
    }
    draw_total(canvas, fonts, view, side, total);
}

/// "● Store 14": the owner's stone, the word and the total.
fn draw_total(canvas: &mut Pixmap, fonts: &Fonts, view: &BoardView, side: Side, total: u8) {
    let r = layout::total_rect(view.perspective, side);
    let (_, cy) = r.center();
    stone(canvas, side, r.x + 18.0, cy, 8.0);
    let label = Style {
        font: &fonts.regular,
        size: 14.0,
        color: MUTED,
    };
    let number = Style {
        font: &fonts.bold,
        size: 30.0,
        color: TEXT,
    };
    let word = font::fit(label, &t!(view.lang, "board-store"), 60.0);
    font::draw(canvas, label, r.x + 32.0, cy + 5.0, Align::Left, &word);
    font::draw(
        canvas,
        number,
        r.right() - 12.0,
        cy + 11.0,
        Align::Right,
        &total.to_string(),
    );
}

/// Stone, name and side on the left; "▶ to move" or "winner" chip on the right.
fn draw_player_bar(canvas: &mut Pixmap, fonts: &Fonts, view: &BoardView, side: Side, bar: Rect) {
    let (_, cy) = bar.center();
    let baseline = cy + 9.0;
    stone(canvas, side, 38.0, cy, 13.0);
    let chip_style = Style {
        font: &fonts.bold,
        size: 17.0,
        color: TEXT,
    };
    let p = &view.position;
    let chip_left = match p.outcome() {
        None if p.to_move() == side => {
            let text = format!("▶ {}", t!(view.lang, "board-turn-chip"));
            chip(
                canvas,
                chip_style,
                TURN_CHIP,
                bar.right() - 24.0,
                cy + 6.0,
                Align::Right,
                &text,
            )
        }
        Some(o) if o.winner == Some(side) => {
            let text = format!("★ {}", t!(view.lang, "board-winner-chip"));
            let dark = Style {
                color: BACKGROUND,
                ..chip_style
            };
            chip(
                canvas,
                dark,
                WINNER_CHIP,
                bar.right() - 24.0,
                cy + 6.0,
                Align::Right,
                &text,
            )
        }
        _ => bar.right() - 24.0,
    };
    let name_style = Style {
        font: &fonts.bold,
        size: 24.0,
        color: TEXT,
    };
    let side_style = Style {
        font: &fonts.regular,
        size: 18.0,
        color: MUTED,
    };
    let name = clean_name(view, side, |c| font::has_glyph(&fonts.bold, c));
    let mut side_label = side_name(view.lang, side);
    if name.to_lowercase() == side_label.to_lowercase() {
        side_label.clear();
    }
    let side_w = font::measure(side_style, &side_label);
    let room = chip_left - 20.0 - 62.0 - side_w - 14.0;
    let name = font::fit(name_style, &name, room);
    let name_w = font::draw(canvas, name_style, 62.0, baseline, Align::Left, &name);
    font::draw(
        canvas,
        side_style,
        62.0 + name_w + 14.0,
        baseline,
        Align::Left,
        &side_label,
    );
}

/// Status (whose turn, or the result) and the last move on the left; the legend on the right.
fn draw_footer(canvas: &mut Pixmap, fonts: &Fonts, view: &BoardView) {
    let f = layout::FOOTER;
    let legend_left = draw_legend(canvas, fonts, view, f);
    let room = legend_left - 24.0 - 24.0;
    let status = Style {
        font: &fonts.bold,
        size: 18.0,
        color: TEXT,
    };
    let text = font::fit(status, &status_line(view, " · "), room);
    font::draw(canvas, status, 24.0, f.y + 20.0, Align::Left, &text);
    if let Some(m) = view.last_move {
        let small = Style {
            font: &fonts.regular,
            size: 15.0,
            color: MUTED,
        };
        let notation = format!("{} → {}", m.pit, m.landing_pit);
        if let Some(line) = last_move_line(view, &notation) {
            let line = font::fit(small, &line, room);
            font::draw(canvas, small, 24.0, f.y + 41.0, Align::Left, &line);
        }
    }
}

/// The key to the rings (and the tuzdek colour once there is one); returns its left edge.
fn draw_legend(canvas: &mut Pixmap, fonts: &Fonts, view: &BoardView, f: Rect) -> f32 {
    let style = Style {
        font: &fonts.regular,
        size: 14.0,
        color: MUTED,
    };
    let mut items = match view.hint {
        Some(MoveHint { played: None, .. }) => {
            vec![(BETTER_COLOR, false, t!(view.lang, "board-legend-hint"))]
        }
        Some(_) => vec![
            (PLAYED_COLOR, false, t!(view.lang, "board-legend-mistake")),
            (BETTER_COLOR, false, t!(view.lang, "board-legend-better")),
        ],
        None => vec![
            (PLAYED_COLOR, false, t!(view.lang, "board-legend-played")),
            (LANDED_COLOR, false, t!(view.lang, "board-legend-landed")),
        ],
    };
    if has_tuzdek(&view.position) {
        items.push((TUZDEK_COLOR, true, t!(view.lang, "board-tuzdek")));
    }
    let (_, cy) = f.center();
    let mut x = f.right() - 24.0;
    for (rgb, filled, label) in items.iter().rev() {
        x -= font::measure(style, label);
        font::draw(canvas, style, x, cy + 5.0, Align::Left, label);
        x -= 22.0;
        let swatch = Rect::new(x, cy - 10.0, 14.0, 20.0);
        if let Some(path) = rounded_rect(swatch, 7.0) {
            if *filled {
                let paint = solid(*rgb);
                canvas.fill_path(
                    &path,
                    &paint,
                    FillRule::Winding,
                    Transform::identity(),
                    None,
                );
            } else {
                stroke(canvas, &path, *rgb, 3.0);
            }
        }
        x -= 18.0;
    }
    x
}

/// A rounded label; returns its left edge. `y` is the text baseline.
fn chip(
    canvas: &mut Pixmap,
    style: Style<'_>,
    fill: [u8; 3],
    x: f32,
    y: f32,
    align: Align,
    text: &str,
) -> f32 {
    let w = font::measure(style, text) + 20.0;
    let h = style.size + 12.0;
    let left = match align {
        Align::Left => x,
        Align::Center => x - w / 2.0,
        Align::Right => x - w,
    };
    let rect = Rect::new(left, y - style.size * 0.75 - 6.0 - 1.0, w, h);
    if let Some(path) = rounded_rect(rect, h / 2.0) {
        canvas.fill_path(
            &path,
            &solid(fill),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
    font::draw(canvas, style, left + w / 2.0, y, Align::Center, text);
    left
}

/// A player's colour: a white or black stone with an outline.
pub(super) fn stone(canvas: &mut Pixmap, side: Side, cx: f32, cy: f32, r: f32) {
    let (fill, edge) = match side {
        Side::White => (WHITE_STONE, [0x9a, 0x8f, 0x80]),
        Side::Black => (BLACK_STONE, [0xd8, 0xcf, 0xc4]),
    };
    if let Some(path) = PathBuilder::from_circle(cx, cy, r) {
        canvas.fill_path(
            &path,
            &solid(fill),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
        stroke(canvas, &path, edge, 2.0);
    }
}

static PIT_BALL_SPRITE: LazyLock<Option<Pixmap>> = LazyLock::new(|| ball_sprite(PIT_BALL));
static STORE_BALL_SPRITE: LazyLock<Option<Pixmap>> = LazyLock::new(|| ball_sprite(STORE_BALL));

/// One ivory ball lit from the upper left, drawn once and then copied into place.
fn ball_sprite(size: u32) -> Option<Pixmap> {
    let mut sprite = Pixmap::new(size, size)?;
    let d = size as f32;
    let shader = RadialGradient::new(
        Point::from_xy(d * 0.36, d * 0.3),
        Point::from_xy(d * 0.5, d * 0.5),
        d * 0.55,
        vec![
            GradientStop::new(0.0, color(rgb(0xff, 0xfb, 0xf0))),
            GradientStop::new(0.5, color(rgb(0xea, 0xd9, 0xb8))),
            GradientStop::new(1.0, color(rgb(0xa8, 0x86, 0x58))),
        ],
        SpreadMode::Pad,
        Transform::identity(),
    )?;
    let paint = Paint {
        shader,
        anti_alias: true,
        ..Paint::default()
    };
    let path = PathBuilder::from_circle(d / 2.0, d / 2.0, d / 2.0 - 0.5)?;
    sprite.fill_path(
        &path,
        &paint,
        FillRule::Winding,
        Transform::identity(),
        None,
    );
    Some(sprite)
}

/// Copies a sprite onto the canvas (source-over). tiny-skia's `draw_pixmap` sets up a
/// pattern pipeline per call, which costs more than the 17x17 pixels it moves.
fn blit(canvas: &mut Pixmap, sprite: &Pixmap, x: f32, y: f32) {
    let (x0, y0) = (x.round() as i64, y.round() as i64);
    let (cw, ch) = (i64::from(canvas.width()), i64::from(canvas.height()));
    let sw = sprite.width() as usize;
    let src = sprite.data();
    let dst = canvas.data_mut();
    for (sy, src_row) in src.chunks_exact(sw * 4).enumerate() {
        let dy = y0 + sy as i64;
        if !(0..ch).contains(&dy) {
            continue;
        }
        for (sx, px) in src_row.chunks_exact(4).enumerate() {
            let dx = x0 + sx as i64;
            let alpha = u32::from(px[3]);
            if alpha == 0 || !(0..cw).contains(&dx) {
                continue;
            }
            let d = ((dy * cw + dx) * 4) as usize;
            // Premultiplied source over an opaque canvas: out = src + dst * (1 - alpha).
            for c in 0..3 {
                let under = u32::from(dst[d + c]) * (255 - alpha);
                dst[d + c] = (u32::from(px[c]) + (under + 127) / 255).min(255) as u8;
            }
        }
    }
}

fn rgb(r: u8, g: u8, b: u8) -> [u8; 3] {
    [r, g, b]
}

pub(super) fn color(c: [u8; 3]) -> Color {
    Color::from_rgba8(c[0], c[1], c[2], 255)
}

pub(super) fn solid(c: [u8; 3]) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color(color(c));
    paint.anti_alias = true;
    paint
}

fn vertical_gradient(r: Rect, top: [u8; 3], bottom: [u8; 3]) -> Paint<'static> {
    let shader = LinearGradient::new(
        Point::from_xy(r.x, r.y),
        Point::from_xy(r.x, r.bottom()),
        vec![
            GradientStop::new(0.0, color(top)),
            GradientStop::new(1.0, color(bottom)),
        ],
        SpreadMode::Pad,
        Transform::identity(),
    )
    .unwrap_or(Shader::SolidColor(color(bottom)));
    Paint {
        shader,
        anti_alias: true,
        ..Paint::default()
    }
}

pub(super) fn stroke(canvas: &mut Pixmap, path: &Path, rgb: [u8; 3], width: f32) {
    let style = Stroke {
        width,
        ..Stroke::default()
    };
    canvas.stroke_path(path, &solid(rgb), &style, Transform::identity(), None);
}

/// A rectangle with corners of radius `r` (a stadium when `r` is half the short side).
pub(super) fn rounded_rect(rect: Rect, r: f32) -> Option<Path> {
    let r = r.min(rect.w / 2.0).min(rect.h / 2.0);
    // Control-point distance that makes a cubic Bezier a quarter circle.
    let k = r * 0.552_284_8;
    let (x0, y0, x1, y1) = (rect.x, rect.y, rect.right(), rect.bottom());
    let mut pb = PathBuilder::new();
    pb.move_to(x0 + r, y0);
    pb.line_to(x1 - r, y0);
    pb.cubic_to(x1 - r + k, y0, x1, y0 + r - k, x1, y0 + r);
    pb.line_to(x1, y1 - r);
    pb.cubic_to(x1, y1 - r + k, x1 - r + k, y1, x1 - r, y1);
    pb.line_to(x0 + r, y1);
    pb.cubic_to(x0 + r - k, y1, x0, y1 - r + k, x0, y1 - r);
    pb.line_to(x0, y0 + r);
    pb.cubic_to(x0, y0 + r - k, x0 + r - k, y0, x0 + r, y0);
    pb.close();
    pb.finish()
}

/// The palette every board is encoded with, learnt from two boards that between them show
/// every element: both tuzdeks, both rings, a pile, the turn chip and the winner chip.
static PALETTE: LazyLock<Option<Palette>> = LazyLock::new(|| {
    let samples = calibration_views()
        .iter()
        .map(draw)
        .collect::<Result<Vec<_>, _>>()
        .ok()?;
    let data: Vec<&[u8]> = samples.iter().map(|c| c.data()).collect();
    Some(Palette::learn(&data))
});

fn calibration_views() -> [BoardView; 2] {
    let board = |fen: &str| Position::from_fen(fen).unwrap_or_default();
    let playing = BoardView {
        position: board("5,0,12,3,8,1,x,20,4/7,2,0,x,15,6,9,1,11 30/28 w 24"),
        last_move: Some(MoveReport {
            side: Side::Black,
            pit: 5,
            landing_side: Side::White,
            landing_pit: 3,
            captured: 0,
            tuzdek_created: false,
            store_after: 28,
            outcome: None,
        }),
        names: ["Асель Нұрсұлтанқызы".into(), "Aibek Sagyndykov".into()],
        perspective: Side::White,
        lang: Lang::Kk,
        result_line: None,
        hint: None,
    };
    let finished = BoardView {
        position: board("2,0,0,1,0,0,0,0,0/0,0,3,0,0,0,2,0,0 84/70 b 40"),
        last_move: None,
        lang: Lang::Ru,
        ..playing.clone()
    };
    [playing, finished]
}

/// The opaque canvas as an indexed-colour PNG: one palette byte per pixel, unfiltered (a
/// palette index has no useful arithmetic neighbour), deflated at zlib's fastest level, which
/// still finds the long repeats of flat rows and identical balls.
pub(super) fn encode(canvas: &Pixmap) -> Result<Vec<u8>, RenderError> {
    let palette = PALETTE
        .as_ref()
        .ok_or_else(|| RenderError::Encode("no palette".into()))?;
    encode_with(canvas, palette, flate2::Compression::fast())
}

/// Encodes a picture that is not a board (the review's graph) with a palette learnt from the
/// picture itself: its colours are few, and learning is deterministic. Such pictures are
/// rare, so zlib takes its time to make them small.
pub(super) fn encode_own_palette(canvas: &Pixmap) -> Result<Vec<u8>, RenderError> {
    encode_with(
        canvas,
        &Palette::learn(&[canvas.data()]),
        flate2::Compression::best(),
    )
}

fn encode_with(
    canvas: &Pixmap,
    palette: &Palette,
    level: flate2::Compression,
) -> Result<Vec<u8>, RenderError> {
    let raw = palette.scanlines(canvas.data(), canvas.width() as usize);
    let mut zlib = ZlibEncoder::new(Vec::with_capacity(64 * 1024), level);
    let io = |e: std::io::Error| RenderError::Encode(e.to_string());
    zlib.write_all(&raw).map_err(io)?;
    let idat = zlib.finish().map_err(io)?;

    let mut out = Vec::with_capacity(idat.len() + 1024);
    let mut encoder = ::png::Encoder::new(&mut out, canvas.width(), canvas.height());
    encoder.set_color(::png::ColorType::Indexed);
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_palette(palette.colors.concat());
    let err = |e: ::png::EncodingError| RenderError::Encode(e.to_string());
    let mut writer = encoder.write_header().map_err(err)?;
    writer.write_chunk(::png::chunk::IDAT, &idat).map_err(err)?;
    writer.finish().map_err(err)?;
    Ok(out)
}
