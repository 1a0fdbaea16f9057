//! Where everything sits on the PNG board, in pixels. Public so tests (and anyone placing
//! overlays) can find a pit without decoding the drawing.
//!
//! ```text
//!  0 ┌ top bar: opponent's name, side, turn chip ─────────────────────────┐
//! 60 │ board: pit numbers 9..1                                            │
//!    │        opponent's pits (9..1), counts                              │
//!    │        opponent's store  ─────────────────────────── [total]       │
//!    │        viewer's store    ─────────────────────────── [total]       │
//!    │        counts, viewer's pits (1..9), pit numbers 1..9              │
//! 560│ bottom bar: viewer's name, side, turn chip                         │
//! 612│ footer: status or result, last move, legend                        │
//! 660└────────────────────────────────────────────────────────────────────┘
//! ```

use crate::rules::Side;

/// Image width in pixels.
pub const WIDTH: u32 = 960;
/// Image height in pixels.
pub const HEIGHT: u32 = 660;

/// The wooden board.
pub const BOARD: Rect = Rect::new(16.0, 60.0, 928.0, 496.0);
/// Size of one pit (otau).
pub const PIT_W: f32 = 76.0;
pub const PIT_H: f32 = 124.0;
/// Distance between the left edges of neighbouring pits.
const PIT_PITCH: f32 = 100.0;
const FIRST_PIT_X: f32 = 42.0;
const TOP_PITS_Y: f32 = 90.0;
const BOTTOM_PITS_Y: f32 = 402.0;
/// The store troughs (qazan) and the boxes with their totals.
const STORE_X: f32 = 42.0;
const STORE_W: f32 = 718.0;
const STORE_H: f32 = 50.0;
const TOP_STORE_Y: f32 = 254.0;
const BOTTOM_STORE_Y: f32 = 312.0;
const TOTAL_X: f32 = 772.0;
const TOTAL_W: f32 = 146.0;

/// Baselines of the labels around the pits.
pub const TOP_NUMBERS_Y: f32 = 80.0;
pub const TOP_COUNTS_Y: f32 = 242.0;
pub const BOTTOM_COUNTS_Y: f32 = 392.0;
pub const BOTTOM_NUMBERS_Y: f32 = 546.0;

/// The name bars above and below the board, and the footer.
pub const TOP_BAR: Rect = Rect::new(0.0, 0.0, WIDTH as f32, 58.0);
pub const BOTTOM_BAR: Rect = Rect::new(0.0, 558.0, WIDTH as f32, 54.0);
pub const FOOTER: Rect = Rect::new(0.0, 612.0, WIDTH as f32, 48.0);

/// The last move's highlight is a ring `RING_WIDTH` wide whose centre line runs `RING_GAP`
/// pixels outside the pit's edge.
pub const RING_GAP: f32 = 5.0;
pub const RING_WIDTH: f32 = 5.0;

/// An axis-aligned rectangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    pub const fn new(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect { x, y, w, h }
    }
    pub fn center(&self) -> (f32, f32) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }
    pub fn right(&self) -> f32 {
        self.x + self.w
    }
    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }
    /// The rectangle grown by `d` on every side.
    pub fn outset(&self, d: f32) -> Rect {
        Rect::new(self.x - d, self.y - d, self.w + 2.0 * d, self.h + 2.0 * d)
    }
}

/// Whether `side`'s row is drawn on top for a viewer at `perspective`.
pub fn is_top(perspective: Side, side: Side) -> bool {
    side != perspective
}

/// The column (0 = left) of `side`'s pit `pit` (1..=9): the viewer's pits run 1..9 left to
/// right, the opponent's 9..1, as on a real board seen from the viewer's seat.
pub fn pit_column(perspective: Side, side: Side, pit: u8) -> usize {
    let pit = pit.clamp(1, 9) as usize;
    if is_top(perspective, side) {
        9 - pit
    } else {
        pit - 1
    }
}

/// The outline of `side`'s pit `pit` (1..=9).
pub fn pit_rect(perspective: Side, side: Side, pit: u8) -> Rect {
    let x = FIRST_PIT_X + PIT_PITCH * pit_column(perspective, side, pit) as f32;
    let y = if is_top(perspective, side) {
        TOP_PITS_Y
    } else {
        BOTTOM_PITS_Y
    };
    Rect::new(x, y, PIT_W, PIT_H)
}

/// The trough of `side`'s store: the opponent's is nearer the top.
pub fn store_rect(perspective: Side, side: Side) -> Rect {
    Rect::new(STORE_X, store_y(perspective, side), STORE_W, STORE_H)
}

/// The box beside the trough with the store's total.
pub fn total_rect(perspective: Side, side: Side) -> Rect {
    Rect::new(TOTAL_X, store_y(perspective, side), TOTAL_W, STORE_H)
}

fn store_y(perspective: Side, side: Side) -> f32 {
    if is_top(perspective, side) {
        TOP_STORE_Y
    } else {
        BOTTOM_STORE_Y
    }
}

/// A pixel on the highlight ring of a pit: the middle of the ring above the pit's top edge.
pub fn ring_probe(pit: Rect) -> (u32, u32) {
    let (cx, _) = pit.center();
    (cx as u32, (pit.y - RING_GAP) as u32)
}

/// A pixel inside a pit that no ball, mark or label covers: the tuzdek colour shows here.
pub fn fill_probe(pit: Rect) -> (u32, u32) {
    let (_, cy) = pit.center();
    ((pit.x + 9.0) as u32, cy as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_viewer_reads_pits_one_to_nine_left_to_right_at_the_bottom() {
        for perspective in Side::BOTH {
            let me = perspective;
            let them = perspective.other();
            assert!(pit_rect(perspective, me, 1).x < pit_rect(perspective, me, 9).x);
            assert!(pit_rect(perspective, them, 9).x < pit_rect(perspective, them, 1).x);
            assert!(pit_rect(perspective, them, 1).y < pit_rect(perspective, me, 1).y);
            // Sowing goes round: my 9 sits below their 1, my 1 below their 9.
            assert_eq!(
                pit_rect(perspective, me, 9).x,
                pit_rect(perspective, them, 1).x
            );
            assert!(store_rect(perspective, them).y < store_rect(perspective, me).y);
        }
    }

    #[test]
    fn everything_fits_inside_the_image_and_the_board() {
        for side in Side::BOTH {
            for pit in 1..=9 {
                let r = pit_rect(Side::White, side, pit).outset(RING_GAP + RING_WIDTH / 2.0);
                assert!(r.x >= BOARD.x && r.right() <= BOARD.right());
                assert!(r.y >= BOARD.y && r.bottom() <= BOARD.bottom());
            }
            let total = total_rect(Side::Black, side);
            assert!(total.right() <= BOARD.right());
            assert!(store_rect(Side::Black, side).right() < total.x);
        }
        assert!(FOOTER.bottom() <= HEIGHT as f32);
    }
}
