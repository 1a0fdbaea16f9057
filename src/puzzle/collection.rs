//! The collection as players meet it: puzzles in a fixed order (by id), a player's set of
//! puzzles seen, choosing an unseen puzzle near a rating, the daily puzzle, and judging a
//! move against a puzzle's line. Pure: the manager keeps the ratings and the records.

use super::file::{parse_puzzles, FileError};
use super::types::{fnv1a, Puzzle};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The collection shipped in the binary (docs/puzzles.md says how it was made).
pub const SHIPPED: &str = include_str!("collection.jsonl");

/// How many of the nearest unseen puzzles a choice is made among: enough that two players
/// of one rating rarely get the same sequence, few enough to stay near the rating.
const POOL: usize = 12;

/// The daily puzzle is chosen among puzzles rated within this band: hard enough to count,
/// easy enough for most of a chat.
const DAILY_BAND: (f64, f64) = (1100.0, 1700.0);

/// Puzzles in id order: a player's `Seen` refers to them by place.
#[derive(Clone, Debug)]
pub struct Collection {
    puzzles: Vec<Puzzle>,
    by_id: HashMap<String, usize>,
    fingerprint: u64,
}

impl Collection {
    /// The collection of a file's text (`puzzle::parse_puzzles`), ordered by id; a repeated
    /// id keeps its first puzzle.
    pub fn from_text(text: &str) -> Result<Collection, FileError> {
        let mut puzzles = parse_puzzles(text)?;
        puzzles.sort_by(|a, b| a.id.cmp(&b.id));
        puzzles.dedup_by(|a, b| a.id == b.id);
        let by_id = puzzles
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.clone(), i))
            .collect();
        let ids: String = puzzles.iter().map(|p| p.id.as_str()).collect();
        Ok(Collection {
            fingerprint: fnv1a(ids.as_bytes()),
            puzzles,
            by_id,
        })
    }

    /// The shipped collection.
    pub fn shipped() -> Result<Collection, FileError> {
        Collection::from_text(SHIPPED)
    }

    pub fn len(&self) -> usize {
        self.puzzles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.puzzles.is_empty()
    }

    pub fn get(&self, index: usize) -> Option<&Puzzle> {
        self.puzzles.get(index)
    }

    pub fn puzzles(&self) -> &[Puzzle] {
        &self.puzzles
    }

    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    pub fn by_id(&self, id: &str) -> Option<&Puzzle> {
        self.index_of(id).and_then(|i| self.get(i))
    }

    /// A hash of the ids: a seen-set made for another collection starts afresh.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The puzzle of day `day` (days since 1970-01-01, UTC): the same in every process and
    /// chat, chosen by a hash of the day among the puzzles whose starting rating is in the
    /// daily band (or any puzzle, when none is).
    pub fn daily(&self, day: i64) -> Option<usize> {
        let band: Vec<usize> = (0..self.len())
            .filter(|&i| (DAILY_BAND.0..DAILY_BAND.1).contains(&self.puzzles[i].rating))
            .collect();
        let pick = fnv1a(format!("daily {day}").as_bytes());
        if band.is_empty() {
            let n = self.len() as u64;
            return (n > 0).then(|| (pick % n) as usize);
        }
        Some(band[(pick % band.len() as u64) as usize])
    }
}

/// The puzzles a player has been given, by place in the collection: none is given twice
/// until all have been. Kept as hex in the player's record (8,000 puzzles: 2,000 digits).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seen {
    /// The collection's fingerprint these bits are for.
    pub collection: u64,
    #[serde(with = "hex_words")]
    pub bits: Vec<u64>,
}

impl Seen {
    /// Whether `index` has been given; a set of another collection has nothing.
    pub fn has(&self, collection: &Collection, index: usize) -> bool {
        self.collection == collection.fingerprint()
            && self
                .bits
                .get(index / 64)
                .is_some_and(|w| w & (1 << (index % 64)) != 0)
    }

    /// Marks `index` given, starting afresh for a new collection.
    pub fn insert(&mut self, collection: &Collection, index: usize) {
        if self.collection != collection.fingerprint() {
            self.clear(collection);
        }
        let words = collection.len().div_ceil(64);
        self.bits.resize(words, 0);
        if let Some(w) = self.bits.get_mut(index / 64) {
            *w |= 1 << (index % 64);
        }
    }

    /// Forgets every puzzle: the player starts the collection again.
    pub fn clear(&mut self, collection: &Collection) {
        self.collection = collection.fingerprint();
        self.bits.clear();
    }

    /// How many puzzles of `collection` have been given.
    pub fn count(&self, collection: &Collection) -> usize {
        if self.collection != collection.fingerprint() {
            return 0;
        }
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// `Vec<u64>` as one hex string, 16 digits a word.
mod hex_words {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};
    use std::fmt::Write;

    pub fn serialize<S: Serializer>(words: &[u64], s: S) -> Result<S::Ok, S::Error> {
        let mut text = String::with_capacity(words.len() * 16);
        for w in words {
            let _ = write!(text, "{w:016x}");
        }
        s.serialize_str(&text)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u64>, D::Error> {
        let text = String::deserialize(d)?;
        if text.len() % 16 != 0 || !text.is_ascii() {
            return Err(D::Error::custom("seen puzzles: not whole hex words"));
        }
        (0..text.len() / 16)
            .map(|i| u64::from_str_radix(&text[i * 16..i * 16 + 16], 16).map_err(D::Error::custom))
            .collect()
    }
}

/// The collection's current ratings in order, for choosing near a rating. The manager keeps
/// one and moves a puzzle when its rating changes.
#[derive(Clone, Debug, Default)]
pub struct ByRating {
    /// (rating, place in the collection), ascending.
    order: Vec<(f64, u32)>,
    /// Each puzzle's rating, by place.
    ratings: Vec<f64>,
}

impl ByRating {
    pub fn new(ratings: Vec<f64>) -> ByRating {
        let mut order: Vec<(f64, u32)> = ratings
            .iter()
            .enumerate()
            .map(|(i, &r)| (r, i as u32))
            .collect();
        order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        ByRating { order, ratings }
    }

    pub fn rating(&self, index: usize) -> Option<f64> {
        self.ratings.get(index).copied()
    }

    /// Moves puzzle `index` to its new rating.
    pub fn set(&mut self, index: usize, rating: f64) {
        let Some(&old) = self.ratings.get(index) else {
            return;
        };
        if let Ok(at) = self.find((old, index as u32)) {
            self.order.remove(at);
        }
        self.ratings[index] = rating;
        let new = (rating, index as u32);
        let at = self.find(new).unwrap_or_else(|at| at);
        self.order.insert(at, new);
    }

    fn find(&self, key: (f64, u32)) -> Result<usize, usize> {
        self.order
            .binary_search_by(|p| p.0.total_cmp(&key.0).then(p.1.cmp(&key.1)))
    }

    /// An unseen puzzle near `target`: the `POOL` unseen puzzles nearest to it, walking out
    /// from it both ways, and `pick` (a random number) chooses among them. `None` when every
    /// puzzle has been seen.
    pub fn choose(
        &self,
        collection: &Collection,
        seen: &Seen,
        target: f64,
        pick: u64,
    ) -> Option<usize> {
        let start = self.order.partition_point(|p| p.0 < target);
        let (mut below, mut above) = (start, start);
        let mut pool = [0usize; POOL];
        let mut found = 0;
        while found < POOL && (below > 0 || above < self.order.len()) {
            // Take the nearer of the next puzzle below and above.
            let down = below.checked_sub(1).map(|i| (target - self.order[i].0, i));
            let up = self.order.get(above).map(|p| (p.0 - target, above));
            let (i, went_down) = match (down, up) {
                (Some(d), Some(u)) if d.0 <= u.0 => (d.1, true),
                (_, Some(u)) => (u.1, false),
                (Some(d), None) => (d.1, true),
                (None, None) => break,
            };
            if went_down {
                below -= 1;
            } else {
                above += 1;
            }
            let index = self.order[i].1 as usize;
            if !seen.has(collection, index) {
                pool[found] = index;
                found += 1;
            }
        }
        (found > 0).then(|| pool[(pick % found as u64) as usize])
    }
}

/// What a move does to an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The line's move. `reply` is the opponent's answer when the line goes on; `solved`
    /// when it was the solver's last move.
    Right { reply: Option<u8>, solved: bool },
    /// Not the line's move: the attempt is over; `solution` was the move.
    Wrong { solution: u8 },
}

impl Puzzle {
    /// Judges `pit` as the solver's move number `step` (0-based) of the line; `None` when the
    /// line has no such move.
    pub fn judge(&self, step: usize, pit: u8) -> Option<Verdict> {
        let pits = self.pits();
        let solution = *pits.get(step * 2)?;
        if pit != solution {
            return Some(Verdict::Wrong { solution });
        }
        let reply = pits.get(step * 2 + 1).copied();
        Some(Verdict::Right {
            reply,
            solved: reply.is_none(),
        })
    }
}
