//! Word-level helpers of the matching (`blossom.rs`): the hash of the weight table and the
//! set bits of an adjacency word.

use std::hash::Hasher;

/// A multiply-rotate hash of whole words (FxHash's), for the table of a
/// round's distinct weights: SipHash over the limbs of every weight set was a
/// twentieth of a large round's time. The ids it hands out do not depend on it.
#[derive(Default)]
pub(super) struct WordHasher(u64);

impl WordHasher {
    fn word(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.word(u64::from_le_bytes(word));
        }
        for &byte in chunks.remainder() {
            self.word(u64::from(byte));
        }
    }
    fn write_u64(&mut self, word: u64) {
        self.word(word);
    }
    fn write_usize(&mut self, word: usize) {
        self.word(word as u64);
    }
}

/// The positions of the set bits of a word, lowest first.
pub(super) struct BitIter(pub(super) u64);

impl Iterator for BitIter {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}
