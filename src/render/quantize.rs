//! Reduces the drawn board to a 256-colour palette, so the PNG stores one byte per pixel
//! instead of three and compresses quickly to a small file.
//!
//! The board is built from a few flat colours and gradients that fill whole rows, so their
//! colours are by far the most frequent; the rarer ones are the anti-aliased fringes of
//! edges and letters, which blend two neighbours and look right when drawn in the nearest
//! frequent colour. The palette is therefore the 256 most frequent colours (ties broken by
//! value, so the result is deterministic), and every other colour maps to its nearest entry.

use rustc_hash::FxHashMap;

/// An image as palette indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Indexed {
    pub palette: Vec<[u8; 3]>,
    pub pixels: Vec<u8>,
}

const MAX_COLORS: usize = 256;

/// Quantizes opaque RGBA pixels (alpha is ignored).
pub(super) fn quantize(rgba: &[u8]) -> Indexed {
    let counts = count_colors(rgba);
    let mut by_count: Vec<(u32, u32)> = counts.into_iter().collect();
    by_count.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let palette: Vec<u32> = by_count.iter().take(MAX_COLORS).map(|&(c, _)| c).collect();

    let mut index: FxHashMap<u32, u8> = FxHashMap::default();
    index.reserve(by_count.len());
    for (i, &c) in palette.iter().enumerate() {
        index.insert(c, i as u8);
    }
    for &(c, _) in by_count.iter().skip(MAX_COLORS) {
        index.insert(c, nearest(&palette, c));
    }

    let mut pixels = Vec::with_capacity(rgba.len() / 4);
    let (mut last_key, mut last_index) = (u32::MAX, 0u8);
    for px in rgba.chunks_exact(4) {
        let key = pack(px);
        // Neighbouring pixels usually share a colour: skip the lookup for runs.
        if key != last_key {
            last_key = key;
            last_index = index.get(&key).copied().unwrap_or(0);
        }
        pixels.push(last_index);
    }
    Indexed {
        palette: palette.into_iter().map(unpack).collect(),
        pixels,
    }
}

fn count_colors(rgba: &[u8]) -> FxHashMap<u32, u32> {
    let mut counts: FxHashMap<u32, u32> = FxHashMap::default();
    let (mut run_key, mut run_len) = (u32::MAX, 0u32);
    for px in rgba.chunks_exact(4) {
        let key = pack(px);
        if key == run_key {
            run_len += 1;
            continue;
        }
        if run_len > 0 {
            *counts.entry(run_key).or_insert(0) += run_len;
        }
        (run_key, run_len) = (key, 1);
    }
    if run_len > 0 {
        *counts.entry(run_key).or_insert(0) += run_len;
    }
    counts
}

/// The palette entry closest to `color`, by squared distance weighted for the eye.
fn nearest(palette: &[u32], color: u32) -> u8 {
    let [r, g, b] = unpack(color).map(i32::from);
    let mut best = (i32::MAX, 0u8);
    for (i, &p) in palette.iter().enumerate() {
        let [pr, pg, pb] = unpack(p).map(i32::from);
        let d = 3 * (r - pr).pow(2) + 4 * (g - pg).pow(2) + 2 * (b - pb).pow(2);
        if d < best.0 {
            best = (d, i as u8);
        }
    }
    best.1
}

fn pack(px: &[u8]) -> u32 {
    (u32::from(px[0]) << 16) | (u32::from(px[1]) << 8) | u32::from(px[2])
}

fn unpack(c: u32) -> [u8; 3] {
    [(c >> 16) as u8, (c >> 8) as u8, c as u8]
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
    fn few_colours_are_kept_exactly() {
        let img = rgba(&[[1, 2, 3], [1, 2, 3], [200, 0, 0], [1, 2, 3]]);
        let q = quantize(&img);
        assert_eq!(q.palette, vec![[1, 2, 3], [200, 0, 0]]);
        assert_eq!(q.pixels, vec![0, 0, 1, 0]);
    }

    #[test]
    fn rare_colours_map_to_the_nearest_frequent_one() {
        // 256 frequent greys, then a rare colour next to grey 100.
        let mut colors = Vec::new();
        for v in 0..=255u8 {
            colors.extend([[v, v, v]; 3]);
        }
        colors.push([101, 99, 100]);
        let q = quantize(&rgba(&colors));
        assert_eq!(q.palette.len(), 256);
        let last = *q.pixels.last().expect("pixels");
        assert_eq!(q.palette[last as usize], [100, 100, 100]);
        // Every frequent colour is exact.
        for (i, c) in colors.iter().take(768).enumerate() {
            assert_eq!(q.palette[q.pixels[i] as usize], *c);
        }
    }
}
