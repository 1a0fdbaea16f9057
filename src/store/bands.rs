//! Counted trees: the store keeps, for each band of keys of such a tree, how many records the
//! band holds, in the same transaction as the records themselves (every put of a new key,
//! every delete, every expiry). A record's place in the tree (how many keys sort before it)
//! is then the sum of the counts of the bands before its own plus a count of the keys of its
//! own band: a leaderboard place reads a few hundred counters and one band's rows, never
//! every row above the player (issue 31, item 12).
//!
//! Only `Tree::Leaderboard` is counted. Its keys are `board|inverted rating|user`, the
//! rating in ten digits of thousandths of a point: a key's band is the key up to its last
//! `|` less the last four digits, ten rating points. Ten points keep both halves small: a
//! board of 100,000 players spread over 2,000 points has about 200 bands, and its densest
//! band a few percent of the players.
//!
//! Counters are added to, never compared-and-set: two game ends in the same band both land
//! (PostgreSQL: `n = n + delta` under the row's lock; sled: inside its transaction).

use super::Tree;
use std::collections::BTreeMap;

/// Digits of the inverted rating a band leaves out (ten points in thousandths).
const BAND_DIGITS: usize = 4;

/// The band of `key` in `tree`, if `tree` is counted.
pub(crate) fn band(tree: Tree, key: &str) -> Option<&str> {
    if tree != Tree::Leaderboard {
        return None;
    }
    let end = key.rfind('|').and_then(|bar| bar.checked_sub(BAND_DIGITS));
    // A key not in the layout above (no digits before a `|`) counts in a band of its own
    // rather than not at all: counts and rows must always agree.
    Some(end.and_then(|end| key.get(..end)).unwrap_or(key))
}

/// The counter changes of one transaction, by band, applied at its end in key order (two
/// transactions touching the same bands lock them in the same order: no deadlock).
#[derive(Debug, Default)]
pub(crate) struct Deltas(BTreeMap<(Tree, String), i64>);

impl Deltas {
    /// A record of `tree` under `key` came (`+1`) or went (`-1`).
    pub(crate) fn add(&mut self, tree: Tree, key: &str, by: i64) {
        if let Some(band) = band(tree, key) {
            *self.0.entry((tree, band.to_string())).or_default() += by;
        }
    }

    /// The non-zero changes, in band order.
    pub(crate) fn changes(&self) -> impl Iterator<Item = (Tree, &str, i64)> {
        self.0
            .iter()
            .filter(|(_, n)| **n != 0)
            .map(|((tree, band), n)| (*tree, band.as_str(), *n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ratings::keys::board_key;

    #[test]
    fn a_band_is_ten_rating_points_of_one_board() {
        let a = board_key("chat:1", 1500.0, "telegram:1");
        let b = board_key("chat:1", 1509.0, "telegram:2");
        let c = board_key("chat:1", 1512.0, "telegram:3");
        let other = board_key("chat:2", 1500.0, "telegram:1");
        let band_of = |k: &str| band(Tree::Leaderboard, k).map(str::to_string);
        assert_eq!(band_of(&a), band_of(&b));
        assert_ne!(band_of(&a), band_of(&c));
        assert_ne!(band_of(&a), band_of(&other));
        assert!(a.starts_with(band(Tree::Leaderboard, &a).unwrap_or("none")));
        assert_eq!(band(Tree::History, &a), None);
    }

    #[test]
    fn odd_keys_still_have_a_band() {
        assert_eq!(band(Tree::Leaderboard, "x|y"), Some("x|y"));
        assert_eq!(band(Tree::Leaderboard, "nobar"), Some("nobar"));
    }

    #[test]
    fn deltas_cancel_and_come_out_in_order() {
        let mut d = Deltas::default();
        let k1 = board_key("b", 1500.0, "u1");
        let k2 = board_key("b", 1900.0, "u2");
        d.add(Tree::Leaderboard, &k1, 1);
        d.add(Tree::Leaderboard, &k2, 1);
        d.add(Tree::Leaderboard, &k1, -1);
        d.add(Tree::Games, "g", 1);
        let changes: Vec<_> = d.changes().map(|(_, b, n)| (b.to_string(), n)).collect();
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].1, 1);
        assert!(k2.starts_with(&changes[0].0));
    }
}
