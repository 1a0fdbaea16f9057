//! The PNG board: tiny-skia draws, ab_glyph writes, the `png` crate encodes.
//!
//! tiny-skia's own PNG encoder compresses hard and is slow (about 4 ms for this image), and
//! fast RGB settings give files of 200 KB; the canvas is encoded here as an indexed-colour
//! PNG instead (see `quantize` and `encode`).

use super::font::{self, Align, Fonts, Style};
use super::layout::{self, Rect};
use super::quantize::quantize;
use super::{
    clean_name, has_tuzdek, last_move_line, pit_marks, pit_state, side_name, status_line,
    BoardView, PitMarks, PitState, RenderError,
};
use crate::rules::Side;
use crate::t;
use flate2::write::ZlibEncoder;
use std::io::Write;
use std::sync::LazyLock;
use tiny_skia::{
    Color, FillRule, GradientStop, LineCap, LinearGradient, Paint, Path, PathBuilder, Pixmap,
    PixmapPaint, Point, RadialGradient, Shader, SpreadMode, Stroke, Transform,
};

/// Ring around the pit the last move was played from.
pub const PLAYED_COLOR: [u8; 3] = [0x2f, 0x9b, 0xff];
/// Ring around the pit where the last ball landed.
pub const LANDED_COLOR: [u8; 3] = [0xff, 0xb4, 0x1f];
/// Fill of a tuzdek pit.
pub const TUZDEK_COLOR: [u8; 3] = [0xb3, 0x26, 0x2e];

const BACKGROUND: [u8; 3] = [0x1f, 0x1b, 0x18];
const TEXT: [u8; 3] = [0xf3, 0xec, 0xe2];
const MUTED: [u8; 3] = [0xb5, 0xa8, 0x98];
const WOOD_TOP: [u8; 3] = [0xcf, 0x97, 0x5c];
const WOOD_BOTTOM: [u8; 3] = [0xb2, 0x76, 0x3e];
const WOOD_EDGE: [u8; 3] = [0x6e, 0x40, 0x1d];
const HOLE_TOP: [u8; 3] = [0x3c, 0x21, 0x0f];
const HOLE_BOTTOM: [u8; 3] = [0x6a, 0x3f, 0x20];
const HOLE_EDGE: [u8; 3] = [0x4a, 0x2a, 0x12];
const INK: [u8; 3] = [0x3a, 0x1f, 0x0c];
const INK_LIGHT: [u8; 3] = [0x7e, 0x52, 0x2e];
const TURN_CHIP: [u8; 3] = [0x3e, 0x9b, 0x4f];
const WINNER_CHIP: [u8; 3] = [0xe2, 0xb1, 0x3c];
const WHITE_STONE: [u8; 3] = [0xf4, 0xf1, 0xea];
const BLACK_STONE: [u8; 3] = [0x1a, 0x1a, 0x1a];

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
    let fonts = font::fonts()?;
    let mut canvas = Pixmap::new(layout::WIDTH, layout::HEIGHT)
        .ok_or(RenderError::Canvas(layout::WIDTH, layout::HEIGHT))?;
    canvas.fill(color(BACKGROUND));
    let top = view.perspective.other();
    draw_player_bar(&mut canvas, fonts, view, top, layout::TOP_BAR);
    draw_board(&mut canvas, fonts, view);
    draw_player_bar(
        &mut canvas,
        fonts,
        view,
        view.perspective,
        layout::BOTTOM_BAR,
    );
    draw_footer(&mut canvas, fonts, view);
    encode(&canvas)
}

fn draw_board(canvas: &mut Pixmap, fonts: &Fonts, view: &BoardView) {
    let b = layout::BOARD;
    let wood = vertical_gradient(b, WOOD_TOP, WOOD_BOTTOM);
    if let Some(path) = rounded_rect(b, 18.0) {
        canvas.fill_path(&path, &wood, FillRule::Winding, Transform::identity(), None);
        stroke(canvas, &path, WOOD_EDGE, 3.0);
    }
    for side in Side::BOTH {
        for pit in 1..=9 {
            draw_pit(canvas, fonts, view, side, pit);
        }
        draw_store(canvas, fonts, view, side);
    }
}

fn draw_pit(canvas: &mut Pixmap, fonts: &Fonts, view: &BoardView, side: Side, pit: u8) {
    let rect = layout::pit_rect(view.perspective, side, pit);
    let state = pit_state(&view.position, side, pit);
    let marks = pit_marks(view, side, pit);
    let Some(hole) = rounded_rect(rect, rect.w / 2.0) else {
        return;
    };
    match state {
        PitState::Tuzdek => {
            canvas.fill_path(
                &hole,
                &solid(TUZDEK_COLOR),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
            draw_cross(canvas, rect);
        }
        PitState::Balls(n) => {
            let shade = vertical_gradient(rect, HOLE_TOP, HOLE_BOTTOM);
            canvas.fill_path(
                &hole,
                &shade,
                FillRule::Winding,
                Transform::identity(),
                None,
            );
            draw_pit_balls(canvas, fonts, rect, n);
        }
    }
    stroke(canvas, &hole, HOLE_EDGE, 2.0);
    draw_marks(canvas, rect, marks);
    draw_pit_labels(canvas, fonts, view, side, pit, rect, state);
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
}

/// Pit number on the outer side, count (or the word "tuzdek") on the inner side.
fn draw_pit_labels(
    canvas: &mut Pixmap,
    fonts: &Fonts,
    view: &BoardView,
    side: Side,
    pit: u8,
    rect: Rect,
    state: PitState,
) {
    let (cx, _) = rect.center();
    let top = layout::is_top(view.perspective, side);
    let (number_y, count_y) = if top {
        (layout::TOP_NUMBERS_Y, layout::TOP_COUNTS_Y)
    } else {
        (layout::BOTTOM_NUMBERS_Y, layout::BOTTOM_COUNTS_Y)
    };
    let number = Style {
        font: &fonts.regular,
        size: 15.0,
        color: INK_LIGHT,
    };
    font::draw(
        canvas,
        number,
        cx,
        number_y,
        Align::Center,
        &pit.to_string(),
    );
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
    if let Some(path) = rounded_rect(trough, trough.h / 2.0) {
        let shade = vertical_gradient(trough, HOLE_TOP, HOLE_BOTTOM);
        canvas.fill_path(
            &path,
            &shade,
            FillRule::Winding,
            Transform::identity(),
            None,
        );
        stroke(canvas, &path, HOLE_EDGE, 2.0);
    }
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
    if let Some(path) = rounded_rect(r, 12.0) {
        canvas.fill_path(
            &path,
            &solid(HOLE_TOP),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
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
    let mut items = vec![
        (PLAYED_COLOR, false, t!(view.lang, "board-legend-played")),
        (LANDED_COLOR, false, t!(view.lang, "board-legend-landed")),
    ];
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
fn stone(canvas: &mut Pixmap, side: Side, cx: f32, cy: f32, r: f32) {
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

fn blit(canvas: &mut Pixmap, sprite: &Pixmap, x: f32, y: f32) {
    canvas.draw_pixmap(
        x.round() as i32,
        y.round() as i32,
        sprite.as_ref(),
        &PixmapPaint::default(),
        Transform::identity(),
        None,
    );
}

fn rgb(r: u8, g: u8, b: u8) -> [u8; 3] {
    [r, g, b]
}

fn color(c: [u8; 3]) -> Color {
    Color::from_rgba8(c[0], c[1], c[2], 255)
}

fn solid(c: [u8; 3]) -> Paint<'static> {
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

fn stroke(canvas: &mut Pixmap, path: &Path, rgb: [u8; 3], width: f32) {
    let style = Stroke {
        width,
        ..Stroke::default()
    };
    canvas.stroke_path(path, &solid(rgb), &style, Transform::identity(), None);
}

/// A rectangle with corners of radius `r` (a stadium when `r` is half the short side).
fn rounded_rect(rect: Rect, r: f32) -> Option<Path> {
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

/// The opaque canvas as an indexed-colour PNG: one palette byte per pixel, unfiltered (a
/// palette index has no useful arithmetic neighbour), deflated at zlib's fastest level, which
/// still finds the long repeats of flat rows and identical balls.
fn encode(canvas: &Pixmap) -> Result<Vec<u8>, RenderError> {
    let indexed = quantize(canvas.data());
    let width = canvas.width() as usize;
    let mut raw = Vec::with_capacity(indexed.pixels.len() + canvas.height() as usize);
    for row in indexed.pixels.chunks_exact(width) {
        raw.push(0); // filter type None
        raw.extend_from_slice(row);
    }
    let mut zlib = ZlibEncoder::new(Vec::with_capacity(64 * 1024), flate2::Compression::fast());
    let io = |e: std::io::Error| RenderError::Encode(e.to_string());
    zlib.write_all(&raw).map_err(io)?;
    let idat = zlib.finish().map_err(io)?;

    let mut out = Vec::with_capacity(idat.len() + 1024);
    let mut encoder = ::png::Encoder::new(&mut out, canvas.width(), canvas.height());
    encoder.set_color(::png::ColorType::Indexed);
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_palette(indexed.palette.concat());
    let err = |e: ::png::EncodingError| RenderError::Encode(e.to_string());
    let mut writer = encoder.write_header().map_err(err)?;
    writer.write_chunk(::png::chunk::IDAT, &idat).map_err(err)?;
    writer.finish().map_err(err)?;
    Ok(out)
}
