//! Fixed-width two's complement integers for matching weights.
//!
//! A Dutch edge weight packs every pairing criterion into one number, most
//! important criterion in the highest bits, so it needs far more than 128 bits
//! for large fields. `Wide<L>` holds `L` little-endian 64-bit limbs.

use std::cmp::Ordering;

/// A signed integer of `64 * L` bits (two's complement, wrapping).
#[derive(Clone, Copy, Eq, Debug)]
pub struct Wide<const L: usize>(pub [u64; L]);

impl<const L: usize> Wide<L> {
    /// Zero.
    pub const ZERO: Self = Wide([0; L]);

    /// A small non-negative value.
    pub fn from_u64(value: u64) -> Self {
        let mut limbs = [0; L];
        limbs[0] = value;
        Wide(limbs)
    }

    /// Whether the value is zero.
    #[inline]
    pub fn is_zero(&self) -> bool {
        self.0.iter().fold(0, |acc, &limb| acc | limb) == 0
    }

    /// Whether the value is negative.
    pub fn is_negative(&self) -> bool {
        self.0[L - 1] >> 63 == 1
    }

    /// Wrapping sum.
    // The carry goes through a `u128`, which compiles to a chain of
    // add-with-carry instructions; two `overflowing_add`s per limb did not.
    #[inline]
    pub fn plus(self, other: Self) -> Self {
        let mut out = [0; L];
        let mut carry = 0u128;
        for ((o, a), b) in out.iter_mut().zip(self.0).zip(other.0) {
            let sum = u128::from(a) + u128::from(b) + carry;
            *o = sum as u64;
            carry = sum >> 64;
        }
        Wide(out)
    }

    /// Wrapping difference.
    #[inline]
    pub fn minus(self, other: Self) -> Self {
        let mut out = [0; L];
        let mut borrow = 0u128;
        for ((o, a), b) in out.iter_mut().zip(self.0).zip(other.0) {
            let difference = u128::from(a).wrapping_sub(u128::from(b) + borrow);
            *o = difference as u64;
            borrow = difference >> 127;
        }
        Wide(out)
    }

    /// Adds a small value.
    pub fn add_u64(self, value: u64) -> Self {
        self.plus(Self::from_u64(value))
    }

    /// Subtracts a small value.
    pub fn sub_u64(self, value: u64) -> Self {
        self.minus(Self::from_u64(value))
    }

    /// Shift left by `bits` (bits shifted out are lost).
    pub fn shifted(self, bits: u32) -> Self {
        let limbs = (bits / 64) as usize;
        let rest = bits % 64;
        let mut out = [0; L];
        for i in (limbs..L).rev() {
            let low = self.0[i - limbs];
            let mut value = low << rest;
            if rest > 0 && i > limbs {
                value |= self.0[i - limbs - 1] >> (64 - rest);
            }
            out[i] = value;
        }
        Wide(out)
    }

    /// Arithmetic shift right by one bit (halves, rounding toward minus infinity).
    pub fn shr1(self) -> Self {
        let mut out = [0; L];
        let sign = if self.is_negative() { 1 << 63 } else { 0 };
        for (i, o) in out.iter_mut().enumerate() {
            let high = self.0.get(i + 1).map_or(sign, |next| next << 63);
            *o = (self.0[i] >> 1) | high;
        }
        Wide(out)
    }

    /// The number with the lowest `bits` bits set.
    pub fn ones(bits: u32) -> Self {
        Self::from_u64(1).shifted(bits).sub_u64(1)
    }

    /// `1 << bits`.
    pub fn bit(bits: u32) -> Self {
        Self::from_u64(1).shifted(bits)
    }
}

// Written out rather than derived: the derived comparison of a limb array
// calls `memcmp`, which was a quarter of the pairing's time.
impl<const L: usize> PartialEq for Wide<L> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.0
            .iter()
            .zip(&other.0)
            .fold(0, |acc, (a, b)| acc | (a ^ b))
            == 0
    }
}

// Hashes the limbs, as equality compares them.
impl<const L: usize> std::hash::Hash for Wide<L> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<const L: usize> Ord for Wide<L> {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.is_negative(), other.is_negative()) {
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        for i in (0..L).rev() {
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => continue,
                unequal => return unequal,
            }
        }
        Ordering::Equal
    }
}

impl<const L: usize> PartialOrd for Wide<L> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The integer type of edge weights and dual variables.
pub trait Weight: Copy + Ord + std::hash::Hash {
    /// Zero.
    fn zero() -> Self;
    /// Wrapping sum.
    fn plus(self, other: Self) -> Self;
    /// Wrapping difference.
    fn minus(self, other: Self) -> Self;
    /// Half (exact for the even values the algorithm halves).
    fn half(self) -> Self;
}

impl<const L: usize> Weight for Wide<L> {
    fn zero() -> Self {
        Self::ZERO
    }
    fn plus(self, other: Self) -> Self {
        Wide::plus(self, other)
    }
    fn minus(self, other: Self) -> Self {
        Wide::minus(self, other)
    }
    fn half(self) -> Self {
        self.shr1()
    }
}

impl Weight for i64 {
    fn zero() -> Self {
        0
    }
    fn plus(self, other: Self) -> Self {
        self + other
    }
    fn minus(self, other: Self) -> Self {
        self - other
    }
    fn half(self) -> Self {
        self >> 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_crosses_limbs() {
        let a = Wide::<2>::from_u64(u64::MAX).add_u64(1);
        assert_eq!(a.0, [0, 1]);
        assert_eq!(a.sub_u64(1).0, [u64::MAX, 0]);
        assert_eq!(Wide::<2>::from_u64(3).shifted(64).0, [0, 3]);
        assert_eq!(Wide::<2>::from_u64(3).shifted(63).0, [1 << 63, 1]);
        assert_eq!(Wide::<2>([0, 1]).shr1().0, [1 << 63, 0]);
        assert!(Wide::<2>::ZERO.sub_u64(1) < Wide::ZERO);
        assert_eq!(Wide::<2>::ZERO.sub_u64(2).shr1(), Wide::ZERO.sub_u64(1));
    }
}
