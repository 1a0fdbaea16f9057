//! Zobrist keys for the transposition table: one random key per (pit, count), per
//! (store, count), per tuzdek and for the side to move, XORed together.
//!
//! The tables are built at compile time from a fixed seed, so keys (and with them searches)
//! are the same in every run.

use crate::rules::{Position, Side, RING};

/// Counts a pit or a store can hold: 0..=162.
const COUNTS: usize = 163;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

struct Keys {
    pits: [[u64; COUNTS]; RING],
    stores: [[u64; COUNTS]; 2],
    /// Per owner, per pit number 1..=9 (index 0 unused).
    tuzdeks: [[u64; 10]; 2],
    black_to_move: u64,
}

const fn build() -> Keys {
    let mut keys = Keys {
        pits: [[0; COUNTS]; RING],
        stores: [[0; COUNTS]; 2],
        tuzdeks: [[0; 10]; 2],
        black_to_move: 0,
    };
    let mut state = 0x746F_677A_5F65_6E67; // "togz_eng"
    let mut i = 0;
    while i < RING {
        let mut c = 0;
        while c < COUNTS {
            let (s, k) = splitmix(state);
            state = s;
            keys.pits[i][c] = k;
            c += 1;
        }
        i += 1;
    }
    let mut side = 0;
    while side < 2 {
        let mut c = 0;
        while c < COUNTS {
            let (s, k) = splitmix(state);
            state = s;
            keys.stores[side][c] = k;
            c += 1;
        }
        let mut p = 1;
        while p < 10 {
            let (s, k) = splitmix(state);
            state = s;
            keys.tuzdeks[side][p] = k;
            p += 1;
        }
        side += 1;
    }
    let (_, k) = splitmix(state);
    keys.black_to_move = k;
    keys
}

static KEYS: Keys = build();

/// The position's key. Positions of one search share their variant, so it is left out.
pub fn hash(pos: &Position) -> u64 {
    let keys = &KEYS;
    let mut h = 0;
    for (i, &count) in pos.ring().iter().enumerate() {
        h ^= keys.pits[i][count as usize];
    }
    for side in Side::BOTH {
        h ^= keys.stores[side.index()][pos.store(side) as usize];
        if let Some(pit) = pos.tuzdek(side) {
            h ^= keys.tuzdeks[side.index()][pit as usize];
        }
    }
    if pos.to_move() == Side::Black {
        h ^= keys.black_to_move;
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn keys_tell_apart_side_stores_and_tuzdeks() {
        let start = Position::start(Variant::STANDARD);
        let white = Position::from_fen("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 w 1").unwrap();
        let black = Position::from_fen("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 b 1").unwrap();
        assert_eq!(hash(&start), hash(&white));
        assert_ne!(hash(&white), hash(&black));
        // Same pits, balls moved between the stores.
        let a = Position::from_fen("9,9,9,9,9,9,9,9,0/9,9,9,9,9,9,9,9,9 9/0 w 5").unwrap();
        let b = Position::from_fen("9,9,9,9,9,9,9,9,0/9,9,9,9,9,9,9,9,9 0/9 w 5").unwrap();
        assert_ne!(hash(&a), hash(&b));
        // Same pits and stores; in one the empty pit is a tuzdek.
        let c = Position::from_fen("9,9,9,9,9,9,9,9,9/9,9,0,9,9,9,9,9,9 9/0 b 5").unwrap();
        let d = Position::from_fen("9,9,9,9,9,9,9,9,9/9,9,x,9,9,9,9,9,9 9/0 b 5").unwrap();
        assert_ne!(hash(&c), hash(&d));
    }

    #[test]
    fn keys_differ_after_every_opening_move() {
        let start = Position::default();
        let mut seen = vec![hash(&start)];
        for pit in 1..=9 {
            let mut p = start;
            p.play(pit).unwrap();
            seen.push(hash(&p));
        }
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 10);
    }
}
