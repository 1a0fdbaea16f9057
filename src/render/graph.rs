//! The review's picture: the evaluation over the whole game from White's side, drawn with the
//! board's colours and fonts. White's advantage is filled in ivory above the middle line,
//! Black's in black below it; evaluations beyond `RANGE_BALLS` (and won games) are drawn at
//! the edge; the largest mistakes are marked with numbered red discs.

use super::font::{self, Align, Style};
use super::png::{
    color, encode_own_palette, rounded_rect, solid, stone, stroke, BACKGROUND, BLACK_STONE,
    HOLE_TOP, INK_LIGHT, MUTED, TEXT, TUZDEK_COLOR, WHITE_STONE, WINNER_CHIP,
};
use super::RenderError;
use crate::engine::BALL;
use crate::i18n::Lang;
use crate::review::Review;
use crate::rules::Side;
use crate::t;
use tiny_skia::{FillRule, PathBuilder, Pixmap, Stroke, Transform};

/// The picture's size in pixels.
pub const GRAPH_WIDTH: u32 = 960;
pub const GRAPH_HEIGHT: u32 = 540;
/// Evaluations are drawn between -RANGE_BALLS and +RANGE_BALLS.
pub const RANGE_BALLS: i32 = 30;

const PLOT: super::layout::Rect = super::layout::Rect::new(64.0, 96.0, 872.0, 380.0);
const GRID_STEP_BALLS: i32 = 10;

/// What the graph shows.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphView {
    /// White's side, hundredths of a ball: the start position, then after every half-move.
    pub evals: Vec<i32>,
    /// (half-move counted from 1, its mark's number).
    pub marks: Vec<(usize, usize)>,
    /// The move number of the first half-move (1 for a game from the start).
    pub first_move: u16,
    /// White's and Black's names.
    pub names: [String; 2],
    /// The game's result in words.
    pub result: String,
    pub lang: Lang,
}

impl GraphView {
    pub fn new(review: &Review, names: [String; 2], result: String, lang: Lang) -> GraphView {
        let evals = std::iter::once(review.start_eval)
            .chain(review.plies.iter().map(|p| p.after))
            .map(|e| e.clipped_for(Side::White))
            .collect();
        let marks = review
            .marked_mistakes()
            .into_iter()
            .map(|m| (m.index + 1, m.mark))
            .collect();
        GraphView {
            evals,
            marks,
            first_move: review.start.fullmove(),
            names,
            result,
            lang,
        }
    }
}

/// The graph as an indexed-colour PNG of `GRAPH_WIDTH` x `GRAPH_HEIGHT` pixels.
pub fn render(view: &GraphView) -> Result<Vec<u8>, RenderError> {
    let mut canvas = Pixmap::new(GRAPH_WIDTH, GRAPH_HEIGHT)
        .ok_or(RenderError::Canvas(GRAPH_WIDTH, GRAPH_HEIGHT))?;
    canvas.fill(color(BACKGROUND));
    let fonts = font::fonts()?;
    draw_header(&mut canvas, fonts, view);
    draw_panel(&mut canvas, fonts, view);
    draw_curve(&mut canvas, view);
    draw_marks(&mut canvas, fonts, view);
    let footer = Style {
        font: &fonts.regular,
        size: 15.0,
        color: MUTED,
    };
    let title = t!(view.lang, "review-graph-title");
    font::draw(&mut canvas, footer, PLOT.x, 526.0, Align::Left, &title);
    encode_own_palette(&canvas)
}

/// x of the position after `ply` half-moves (0: the start).
fn x_of(view: &GraphView, ply: usize) -> f32 {
    let plies = view.evals.len().saturating_sub(1).max(1);
    PLOT.x + PLOT.w * ply as f32 / plies as f32
}

/// y of an evaluation, clipped to the range.
fn y_of(eval: i32) -> f32 {
    let range = RANGE_BALLS * BALL;
    let v = eval.clamp(-range, range) as f32 / range as f32;
    PLOT.y + PLOT.h / 2.0 * (1.0 - v)
}

/// Both players (stone, name) on the first line, the result on the second.
fn draw_header(canvas: &mut Pixmap, fonts: &super::font::Fonts, view: &GraphView) {
    let name_style = Style {
        font: &fonts.bold,
        size: 22.0,
        color: TEXT,
    };
    let half = GRAPH_WIDTH as f32 / 2.0;
    let white = font::fit(name_style, &name(fonts, view, Side::White), half - 110.0);
    let black = font::fit(name_style, &name(fonts, view, Side::Black), half - 110.0);
    stone(canvas, Side::White, 36.0, 32.0, 12.0);
    font::draw(canvas, name_style, 58.0, 40.0, Align::Left, &white);
    font::draw(canvas, name_style, half, 40.0, Align::Center, "–");
    let right = GRAPH_WIDTH as f32 - 58.0;
    stone(canvas, Side::Black, GRAPH_WIDTH as f32 - 36.0, 32.0, 12.0);
    font::draw(canvas, name_style, right, 40.0, Align::Right, &black);
    let result_style = Style {
        font: &fonts.bold,
        size: 18.0,
        color: WINNER_CHIP,
    };
    let result = font::fit(result_style, &view.result, GRAPH_WIDTH as f32 - 80.0);
    font::draw(canvas, result_style, half, 74.0, Align::Center, &result);
}

/// The plot's frame, grid lines with their labels, move numbers and which side is better.
fn draw_panel(canvas: &mut Pixmap, fonts: &super::font::Fonts, view: &GraphView) {
    if let Some(panel) = rounded_rect(PLOT.outset(6.0), 10.0) {
        canvas.fill_path(
            &panel,
            &solid(HOLE_TOP),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
    let label = Style {
        font: &fonts.regular,
        size: 14.0,
        color: MUTED,
    };
    let mut balls = -RANGE_BALLS;
    while balls <= RANGE_BALLS {
        let y = y_of(balls * BALL);
        let width = if balls == 0 { 2.0 } else { 1.0 };
        line(canvas, PLOT.x, y, PLOT.right(), y, INK_LIGHT, width);
        let text = if balls > 0 {
            format!("+{balls}")
        } else {
            balls.to_string()
        };
        font::draw(canvas, label, PLOT.x - 12.0, y + 5.0, Align::Right, &text);
        balls += GRID_STEP_BALLS;
    }
    draw_move_numbers(canvas, label, view);
    let side_label = Style {
        color: INK_LIGHT,
        ..label
    };
    let white = t!(view.lang, "review-graph-white-better");
    let black = t!(view.lang, "review-graph-black-better");
    font::draw(
        canvas,
        side_label,
        PLOT.x + 8.0,
        PLOT.y + 18.0,
        Align::Left,
        &white,
    );
    font::draw(
        canvas,
        side_label,
        PLOT.x + 8.0,
        PLOT.bottom() - 8.0,
        Align::Left,
        &black,
    );
}

/// Move numbers under the plot, every 5 or 10 moves as the game's length allows.
fn draw_move_numbers(canvas: &mut Pixmap, label: Style<'_>, view: &GraphView) {
    let plies = view.evals.len().saturating_sub(1);
    let step = if plies > 60 { 10 } else { 5 };
    let first_ply = (view.first_move as usize - 1) * 2;
    let last_move = (first_ply + plies).div_ceil(2);
    let y = PLOT.bottom() + 26.0;
    let mut number = step;
    while number <= last_move {
        // The position before White's half of move `number`.
        let ply = (number - 1) * 2;
        if ply >= first_ply {
            let x = x_of(view, ply - first_ply);
            font::draw(canvas, label, x, y, Align::Center, &number.to_string());
        }
        number += step;
    }
    let word = t!(view.lang, "review-graph-move");
    font::draw(canvas, label, PLOT.right(), y + 20.0, Align::Right, &word);
}

/// The area between the curve and the middle line, then the curve itself.
fn draw_curve(canvas: &mut Pixmap, view: &GraphView) {
    if view.evals.len() < 2 {
        return;
    }
    let zero = y_of(0);
    for (fill, above) in [(WHITE_STONE, true), (BLACK_STONE, false)] {
        let mut pb = PathBuilder::new();
        pb.move_to(x_of(view, 0), zero);
        for (i, &e) in view.evals.iter().enumerate() {
            let y = y_of(e);
            let y = if above { y.min(zero) } else { y.max(zero) };
            pb.line_to(x_of(view, i), y);
        }
        pb.line_to(x_of(view, view.evals.len() - 1), zero);
        pb.close();
        if let Some(path) = pb.finish() {
            canvas.fill_path(
                &path,
                &solid(fill),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }
    let mut pb = PathBuilder::new();
    for (i, &e) in view.evals.iter().enumerate() {
        let (x, y) = (x_of(view, i), y_of(e));
        if i == 0 {
            pb.move_to(x, y);
        } else {
            pb.line_to(x, y);
        }
    }
    if let Some(path) = pb.finish() {
        stroke(canvas, &path, WINNER_CHIP, 2.5);
    }
}

/// A numbered red disc at each marked half-move's evaluation, with a thin line to the axis.
fn draw_marks(canvas: &mut Pixmap, fonts: &super::font::Fonts, view: &GraphView) {
    let number = Style {
        font: &fonts.bold,
        size: 14.0,
        color: TEXT,
    };
    for &(ply, mark) in &view.marks {
        let Some(&eval) = view.evals.get(ply) else {
            continue;
        };
        let (x, y) = (x_of(view, ply), y_of(eval));
        line(canvas, x, PLOT.y, x, PLOT.bottom(), TUZDEK_COLOR, 1.0);
        // Keep the disc inside the plot when the evaluation sits at the edge.
        let cy = y.clamp(PLOT.y + 12.0, PLOT.bottom() - 12.0);
        if let Some(disc) = PathBuilder::from_circle(x, cy, 11.0) {
            canvas.fill_path(
                &disc,
                &solid(TUZDEK_COLOR),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
            stroke(canvas, &disc, TEXT, 1.5);
        }
        font::draw(
            canvas,
            number,
            x,
            cy + 5.0,
            Align::Center,
            &mark.to_string(),
        );
    }
}

fn line(canvas: &mut Pixmap, x0: f32, y0: f32, x1: f32, y1: f32, rgb: [u8; 3], width: f32) {
    let mut pb = PathBuilder::new();
    pb.move_to(x0, y0);
    pb.line_to(x1, y1);
    if let Some(path) = pb.finish() {
        let style = Stroke {
            width,
            ..Stroke::default()
        };
        canvas.stroke_path(&path, &solid(rgb), &style, Transform::identity(), None);
    }
}

/// A player's name as the font can draw it (no control characters, whitespace collapsed),
/// or the side's name when nothing is left.
fn name(fonts: &super::font::Fonts, view: &GraphView, side: Side) -> String {
    let kept: String = view.names[side.index()]
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|&c| c == ' ' || (!c.is_control() && font::has_glyph(&fonts.bold, c)))
        .collect();
    let name = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        super::side_name(view.lang, side)
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(evals: Vec<i32>, lang: Lang) -> GraphView {
        GraphView {
            marks: vec![(3, 1), (7, 2)],
            evals,
            first_move: 1,
            names: ["Асель Нұрсұлтанқызы".into(), "aibek\u{7}  s".into()],
            result: "Ақтар жеңді".into(),
            lang,
        }
    }

    fn decode(png: &[u8]) -> (u32, u32) {
        let decoder = ::png::Decoder::new(png);
        let mut reader = decoder.read_info().expect("a PNG header");
        let mut pixels = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut pixels).expect("a frame");
        (info.width, info.height)
    }

    /// A long game: 200 half-moves swinging, a won game at the end.
    fn long_game() -> Vec<i32> {
        (0..=200)
            .map(|i| {
                if i == 200 {
                    30_000
                } else {
                    (i * 37 % 61 - 30) * 150
                }
            })
            .collect()
    }

    #[test]
    fn the_graph_decodes_at_its_size_and_stays_small() {
        for lang in Lang::ALL {
            let png = render(&view(long_game(), lang)).expect("a graph");
            assert_eq!(decode(&png), (GRAPH_WIDTH, GRAPH_HEIGHT));
            assert!(png.len() <= 60 * 1024, "{lang}: {} bytes", png.len());
        }
    }

    #[test]
    fn the_graph_is_the_same_for_the_same_game_and_changes_with_it() {
        let a = render(&view(long_game(), Lang::Ru)).expect("a graph");
        let b = render(&view(long_game(), Lang::Ru)).expect("a graph");
        assert_eq!(a, b);
        let mut other = long_game();
        other[100] = -2_000;
        let c = render(&view(other, Lang::Ru)).expect("a graph");
        assert_ne!(a, c);
        let short = render(&view(vec![0, 200, -300], Lang::En)).expect("a graph");
        assert_ne!(a, short);
        // A game of one half-move and a mark past the end are drawn without trouble.
        let mut odd = view(vec![0, 100], Lang::Kk);
        odd.marks.push((99, 3));
        assert_eq!(
            decode(&render(&odd).expect("a graph")),
            (GRAPH_WIDTH, GRAPH_HEIGHT)
        );
    }

    #[test]
    fn evaluations_beyond_the_range_sit_at_the_edge() {
        assert_eq!(y_of(RANGE_BALLS * BALL), PLOT.y);
        assert_eq!(y_of(30_000), PLOT.y);
        assert_eq!(y_of(-30_000), PLOT.bottom());
        assert_eq!(y_of(0), PLOT.y + PLOT.h / 2.0);
    }
}
