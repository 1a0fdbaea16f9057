//! Text on the PNG board: the embedded DejaVu Sans subsets, drawn with ab_glyph.
//!
//! The fonts are compiled into the binary (assets/fonts, rebuilt by assets/fonts/subset.sh),
//! so no system font is ever read and the image is the same on every machine.

use super::RenderError;
use ab_glyph::{point, Font, FontRef, GlyphId, PxScale, ScaleFont};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::sync::LazyLock;
use tiny_skia::Pixmap;

static REGULAR_TTF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");
static BOLD_TTF: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold-subset.ttf");

/// The two faces the board uses.
pub(super) struct Fonts {
    pub regular: FontRef<'static>,
    pub bold: FontRef<'static>,
}

static FONTS: LazyLock<Result<Fonts, String>> = LazyLock::new(|| {
    let load = |bytes: &'static [u8]| FontRef::try_from_slice(bytes).map_err(|e| e.to_string());
    Ok(Fonts {
        regular: load(REGULAR_TTF)?,
        bold: load(BOLD_TTF)?,
    })
});

pub(super) fn fonts() -> Result<&'static Fonts, RenderError> {
    FONTS.as_ref().map_err(|e| RenderError::Font(e.clone()))
}

/// Whether the font has a glyph for `c` (both faces cover the same characters).
pub(super) fn has_glyph(font: &FontRef<'_>, c: char) -> bool {
    font.glyph_id(c) != GlyphId(0)
}

/// How to place a line of text relative to its x coordinate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Align {
    Left,
    Center,
    Right,
}

/// A run of text in one face and size.
#[derive(Clone, Copy)]
pub(super) struct Style<'f> {
    pub font: &'f FontRef<'static>,
    pub size: f32,
    pub color: [u8; 3],
}

/// The advance width of `text`; characters the font lacks count as nothing.
pub(super) fn measure(style: Style<'_>, text: &str) -> f32 {
    let scaled = style.font.as_scaled(PxScale::from(style.size));
    let mut width = 0.0;
    let mut prev: Option<GlyphId> = None;
    for id in glyph_ids(style.font, text) {
        if let Some(p) = prev {
            width += scaled.kern(p, id);
        }
        width += scaled.h_advance(id);
        prev = Some(id);
    }
    width
}

/// `text` cut with an ellipsis so that it measures at most `max` pixels.
pub(super) fn fit(style: Style<'_>, text: &str, max: f32) -> String {
    if measure(style, text) <= max {
        return text.to_string();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let candidate = format!("{}…", chars.iter().collect::<String>().trim_end());
        if measure(style, &candidate) <= max {
            return candidate;
        }
    }
    String::new()
}

/// Draws `text` with its baseline at `y`; returns the drawn width.
pub(super) fn draw(
    pixmap: &mut Pixmap,
    style: Style<'_>,
    x: f32,
    y: f32,
    align: Align,
    text: &str,
) -> f32 {
    let width = measure(style, text);
    let mut caret = match align {
        Align::Left => x,
        Align::Center => x - width / 2.0,
        Align::Right => x - width,
    };
    let baseline = y.round() as i32;
    let scaled = style.font.as_scaled(PxScale::from(style.size));
    let mut prev: Option<GlyphId> = None;
    for id in glyph_ids(style.font, text) {
        if let Some(p) = prev {
            caret += scaled.kern(p, id);
        }
        // Each glyph starts on a whole pixel (crisp stems, and one cached bitmap per glyph);
        // the advance stays fractional so spacing does not drift.
        let origin = caret.round() as i32;
        caret += scaled.h_advance(id);
        prev = Some(id);
        with_bitmap(style, id, |bitmap| {
            for (row, line) in bitmap.coverage.chunks_exact(bitmap.width).enumerate() {
                for (col, &coverage) in line.iter().enumerate() {
                    let px = origin + bitmap.left + col as i32;
                    let py = baseline + bitmap.top + row as i32;
                    blend(pixmap, px, py, style.color, coverage);
                }
            }
        });
    }
    width
}

/// A glyph rasterized with its origin at (0, 0).
struct Bitmap {
    left: i32,
    top: i32,
    width: usize,
    coverage: Vec<u8>,
}

type GlyphKey = (usize, u32, u16);

thread_local! {
    /// Rasterized glyphs by (face, size, glyph). Bounded: two faces, the few sizes the board
    /// uses, and the glyphs of the embedded subsets.
    static BITMAPS: RefCell<FxHashMap<GlyphKey, Option<Bitmap>>> = RefCell::default();
}

fn with_bitmap(style: Style<'_>, id: GlyphId, draw: impl FnOnce(&Bitmap)) {
    let key = (
        std::ptr::from_ref(style.font) as usize,
        style.size.to_bits(),
        id.0,
    );
    BITMAPS.with(|cache| {
        let mut cache = cache.borrow_mut();
        let bitmap = cache.entry(key).or_insert_with(|| rasterize(style, id));
        if let Some(bitmap) = bitmap {
            draw(bitmap);
        }
    });
}

fn rasterize(style: Style<'_>, id: GlyphId) -> Option<Bitmap> {
    let glyph = id.with_scale_and_position(style.size, point(0.0, 0.0));
    let outline = style.font.outline_glyph(glyph)?;
    let bounds = outline.px_bounds();
    let width = bounds.width() as usize;
    let height = bounds.height() as usize;
    if width == 0 || height == 0 {
        return None;
    }
    let mut coverage = vec![0u8; width * height];
    outline.draw(|x, y, c| {
        if let Some(cell) = coverage.get_mut(y as usize * width + x as usize) {
            *cell = (c.clamp(0.0, 1.0) * 255.0).round() as u8;
        }
    });
    Some(Bitmap {
        left: bounds.min.x as i32,
        top: bounds.min.y as i32,
        width,
        coverage,
    })
}

fn glyph_ids<'a>(font: &'a FontRef<'static>, text: &'a str) -> impl Iterator<Item = GlyphId> + 'a {
    text.chars()
        .map(|c| font.glyph_id(c))
        .filter(|&id| id != GlyphId(0))
}

/// Mixes `color` into one pixel of the opaque canvas by `coverage` (0..255).
fn blend(pixmap: &mut Pixmap, x: i32, y: i32, color: [u8; 3], coverage: u8) {
    let (w, h) = (pixmap.width() as i32, pixmap.height() as i32);
    if x < 0 || y < 0 || x >= w || y >= h || coverage == 0 {
        return;
    }
    let a = u32::from(coverage);
    let i = (y * w + x) as usize * 4;
    let data = pixmap.data_mut();
    // The canvas is opaque, so premultiplied channels are plain colour values.
    for (channel, &c) in data[i..i + 3].iter_mut().zip(color.iter()) {
        let mixed = u32::from(c) * a + u32::from(*channel) * (255 - a);
        *channel = ((mixed + 127) / 255) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_fonts_cover_kazakh_and_russian_but_not_emoji() {
        let f = fonts().expect("embedded fonts load");
        for c in "әғқңөұүһі ӘҒҚҢӨҰҮҺІ ёЁщЩ AZaz09 →·…▶★".chars() {
            assert!(has_glyph(&f.regular, c), "regular lacks {c:?}");
            assert!(has_glyph(&f.bold, c), "bold lacks {c:?}");
        }
        assert!(!has_glyph(&f.regular, '🙂'));
        assert!(!has_glyph(&f.bold, '中'));
    }

    #[test]
    fn missing_glyphs_measure_as_nothing_and_fit_shortens() {
        let f = fonts().expect("embedded fonts load");
        let style = Style {
            font: &f.bold,
            size: 20.0,
            color: [0, 0, 0],
        };
        assert_eq!(measure(style, "Асель🙂"), measure(style, "Асель"));
        let long = "Айгерім Нұрсұлтанқызы Төлеуова";
        let cut = fit(style, long, 120.0);
        assert!(cut.ends_with('…'), "{cut}");
        assert!(measure(style, &cut) <= 120.0);
        assert_eq!(fit(style, "Ая", 120.0), "Ая");
    }
}
