//! Reduces the drawn board to a 256-colour palette, so the PNG stores one byte per pixel
//! instead of three and compresses quickly to a small file.
//!
//! Every board is drawn from the same few colours: flat fills, row-wide gradients, one ball
//! sprite, text in three colours. So the palette is learnt once per process from sample boards
//! that show every element (the 256 most frequent colours; ties broken by value, so it is
//! deterministic), with a table giving every 5-bit-per-channel cell its nearest entry. A
//! board is then mapped run by run: a colour of the palette is itself, any other (the
//! anti-aliased fringes of edges and letters) takes its cell's entry.

use rustc_hash::FxHashMap;

const MAX_COLORS: usize = 256;
const CELLS: usize = 1 << 15;

/// A palette and the way to map any colour onto it.
pub(super) struct Palette {
    pub colors: Vec<[u8; 3]>,
    exact: FxHashMap<u32, u8>,
    by_cell: Vec<u8>,
}

impl Palette {
    /// The most frequent colours of the sample images (opaque RGBA; alpha is ignored).
    pub fn learn(samples: &[&[u8]]) -> Palette {
        let mut totals: FxHashMap<u32, u64> = FxHashMap::default();
        for rgba in samples {
            for (color, len) in runs(rgba) {
                *totals.entry(color).or_insert(0) += u64::from(len);
            }
        }
        let mut by_count: Vec<(u32, u64)> = totals.into_iter().collect();
        by_count.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let colors: Vec<[u8; 3]> = by_count
            .iter()
            .take(MAX_COLORS)
            .map(|&(c, _)| unpack(c))
            .collect();
        let exact = by_count
            .iter()
            .take(MAX_COLORS)
            .enumerate()
            .map(|(i, &(c, _))| (c, i as u8))
            .collect();
        let by_cell = (0..CELLS)
            .map(|cell| nearest(&colors, cell_center(cell)))
            .collect();
        Palette {
            colors,
            exact,
            by_cell,
        }
    }

    /// The image as PNG scanlines of palette indices: each row of `width` pixels after its
    /// filter byte (0, none). One pass, no copy in between: this runs for every board.
    pub fn scanlines(&self, rgba: &[u8], width: usize) -> Vec<u8> {
        let row_bytes = width.max(1) * 4;
        let mut out = Vec::with_capacity(rgba.len() / row_bytes * (width + 1));
        // Neighbouring pixels mostly share a colour: its entry is looked up once per run.
        // No packed colour is u32::MAX (alpha is masked off), so the first pixel looks up.
        let mut last = (u32::MAX, 0u8);
        for row in rgba.chunks_exact(row_bytes) {
            out.push(0);
            out.extend(row.chunks_exact(4).map(|px| {
                let color = pack(px);
                if color != last.0 {
                    last = (color, self.entry(color));
                }
                last.1
            }));
        }
        out
    }

    /// The image as palette indices.
    #[cfg(test)]
    pub fn apply(&self, rgba: &[u8]) -> Vec<u8> {
        let width = rgba.len() / 4;
        let mut rows = self.scanlines(rgba, width);
        rows.remove(0);
        rows
    }

    /// A colour of the palette is itself; any other takes its cell's entry.
    fn entry(&self, color: u32) -> u8 {
        match self.exact.get(&color) {
            Some(&i) => i,
            None => self.by_cell[cell_of(unpack(color))],
        }
    }
}

/// The pixels as runs of (colour, length): the board is mostly long runs of one colour.
fn runs(rgba: &[u8]) -> impl Iterator<Item = (u32, u32)> + '_ {
    let mut pixels = rgba.chunks_exact(4).map(pack).peekable();
    std::iter::from_fn(move || {
        let color = pixels.next()?;
        let mut len = 1u32;
        while pixels.next_if_eq(&color).is_some() {
            len += 1;
        }
        Some((color, len))
    })
}

/// The palette entry closest to `color`, by squared distance weighted for the eye.
fn nearest(palette: &[[u8; 3]], color: [u8; 3]) -> u8 {
    let [r, g, b] = color.map(i32::from);
    let mut best = (i32::MAX, 0u8);
    for (i, p) in palette.iter().enumerate() {
        let [pr, pg, pb] = p.map(i32::from);
        let d = 3 * (r - pr).pow(2) + 4 * (g - pg).pow(2) + 2 * (b - pb).pow(2);
        if d < best.0 {
            best = (d, i as u8);
        }
    }
    best.1
}

fn pack(px: &[u8]) -> u32 {
    u32::from_le_bytes([px[0], px[1], px[2], px[3]]) & 0x00ff_ffff
}

/// The 5-bit-per-channel cell of a colour.
fn cell_of([r, g, b]: [u8; 3]) -> usize {
    (usize::from(r >> 3) << 10) | (usize::from(g >> 3) << 5) | usize::from(b >> 3)
}

fn cell_center(cell: usize) -> [u8; 3] {
    let channel = |shift: usize| (((cell >> shift) & 31) as u8) << 3 | 4;
    [channel(10), channel(5), channel(0)]
}

fn unpack(c: u32) -> [u8; 3] {
    let [r, g, b, _] = c.to_le_bytes();
    [r, g, b]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgba(colors: &[[u8; 3]]) -> Vec<u8> {
        colors
            .iter()
            .flat_map(|c| [c[0], c[1], c[2], 255])
            .collect()
    }

    #[test]
    fn cells_cover_every_colour() {
        assert_eq!(cell_of([0, 0, 0]), 0);
        assert_eq!(cell_of([255, 255, 255]), CELLS - 1);
        assert_eq!(cell_center(cell_of([100, 9, 250])), [100, 12, 252]);
    }

    #[test]
    fn runs_split_where_the_colour_changes() {
        let img = rgba(&[[1, 2, 3], [1, 2, 3], [200, 0, 0], [1, 2, 3]]);
        let found: Vec<(u32, u32)> = runs(&img).collect();
        let c = pack(&[1, 2, 3, 255]);
        assert_eq!(found, vec![(c, 2), (pack(&[200, 0, 0, 255]), 1), (c, 1)]);
    }

    #[test]
    fn scanlines_start_each_row_with_its_filter_byte() {
        let img = rgba(&[[1, 2, 3], [200, 0, 0], [200, 0, 0], [1, 2, 3]]);
        let palette = Palette::learn(&[&img]);
        // Equal counts: the smaller packed value ([200, 0, 0]) comes first.
        assert_eq!(palette.colors, vec![[200, 0, 0], [1, 2, 3]]);
        assert_eq!(palette.scanlines(&img, 2), vec![0, 1, 0, 0, 0, 1]);
    }

    #[test]
    fn few_colours_are_kept_exactly() {
        let img = rgba(&[[1, 2, 3], [1, 2, 3], [200, 0, 0], [1, 2, 3]]);
        let palette = Palette::learn(&[&img]);
        assert_eq!(palette.colors, vec![[1, 2, 3], [200, 0, 0]]);
        assert_eq!(palette.apply(&img), vec![0, 0, 1, 0]);
    }

    #[test]
    fn rare_and_new_colours_map_to_the_nearest_frequent_one() {
        // 256 frequent greys, then a rare colour next to grey 100.
        let mut colors = Vec::new();
        for v in 0..=255u8 {
            colors.extend([[v, v, v]; 3]);
        }
        colors.push([102, 99, 100]);
        let img = rgba(&colors);
        let palette = Palette::learn(&[&img]);
        assert_eq!(palette.colors.len(), 256);
        let pixels = palette.apply(&img);
        let last = *pixels.last().expect("pixels");
        assert_eq!(palette.colors[last as usize], [100, 100, 100]);
        // Every frequent colour is exact.
        for (i, c) in colors.iter().take(768).enumerate() {
            assert_eq!(palette.colors[pixels[i] as usize], *c);
        }
        // A colour the samples never had.
        let new = palette.apply(&rgba(&[[30, 200, 31]]));
        let [r, g, b] = palette.colors[new[0] as usize];
        assert!(r == g && g == b && (80..=110).contains(&r), "{r} {g} {b}");
    }
}
