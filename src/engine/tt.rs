//! The transposition table: buckets of two entries packed into `u64`s. The first slot keeps
//! the deepest result seen for its bucket, the second always takes the newest, so deep
//! results survive and fresh ones still find a place.

/// How a stored score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub score: i16,
    /// Best move found, 1..=9, or 0 for none.
    pub mv: u8,
    pub depth: u8,
    pub bound: Bound,
}

pub struct Table {
    slots: Vec<u64>,
    /// Mask selecting a bucket (an even slot index).
    mask: usize,
    /// Which search (mod 4) is running: deep entries of earlier searches may be replaced.
    generation: u64,
}

// Layout: key check (high 32 bits of the hash) | score 16 | move 4 | generation 2 | depth 8 |
// bound 2.
fn pack(check: u32, e: Entry, generation: u64) -> u64 {
    let bound = match e.bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (check as u64) << 32
        | (e.score as u16 as u64) << 16
        | ((e.mv as u64) & 0xF) << 12
        | (generation & 3) << 10
        | (e.depth as u64) << 2
        | bound
}

fn unpack(word: u64) -> Option<(u32, Entry)> {
    let bound = match word & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None, // an empty slot
    };
    Some((
        (word >> 32) as u32,
        Entry {
            score: (word >> 16) as u16 as i16,
            mv: ((word >> 12) & 0xF) as u8,
            depth: ((word >> 2) & 0xFF) as u8,
            bound,
        },
    ))
}

impl Table {
    /// A table of about `megabytes` MiB (rounded down to a power of two, at least 1 KiB).
    pub fn new(megabytes: usize) -> Table {
        let wanted = (megabytes.max(1) << 20) / 8;
        let slots = (wanted.next_power_of_two() >> 1).max(128);
        Table {
            slots: vec![0; slots],
            mask: (slots - 1) & !1,
            generation: 0,
        }
    }

    /// Marks the start of a new search: what earlier searches stored stays usable but gives
    /// way to new results.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 3;
    }

    /// Empties the table; a cleared table then fills exactly as a new one would (the
    /// generation restarts too), which reproducible searches rely on.
    pub fn clear(&mut self) {
        self.slots.fill(0);
        self.generation = 0;
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let check = (key >> 32) as u32;
        let bucket = key as usize & self.mask;
        for word in &self.slots[bucket..bucket + 2] {
            if let Some((c, e)) = unpack(*word) {
                if c == check {
                    return Some(e);
                }
            }
        }
        None
    }

    pub fn store(&mut self, key: u64, entry: Entry) {
        let check = (key >> 32) as u32;
        let bucket = key as usize & self.mask;
        let word = pack(check, entry, self.generation);
        let deep = unpack(self.slots[bucket]);
        let stale = (self.slots[bucket] >> 10) & 3 != self.generation;
        let replace_deep = match deep {
            None => true,
            Some((c, old)) => c == check || stale || entry.depth >= old.depth,
        };
        if replace_deep {
            // The old deep entry, if it was another position's, moves to the second slot.
            if let Some((c, _)) = deep {
                if c != check {
                    self.slots[bucket + 1] = self.slots[bucket];
                }
            }
            self.slots[bucket] = word;
        } else {
            self.slots[bucket + 1] = word;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_through_packing() {
        for (score, mv, depth, bound) in [
            (0, 0, 0, Bound::Exact),
            (-29_990, 9, 127, Bound::Upper),
            (31_000, 1, 255, Bound::Lower),
        ] {
            let e = Entry {
                score,
                mv,
                depth,
                bound,
            };
            assert_eq!(unpack(pack(0xDEAD_BEEF, e, 3)), Some((0xDEAD_BEEF, e)));
        }
        assert_eq!(unpack(0), None);
    }

    #[test]
    fn deep_entries_survive_shallow_ones_of_other_positions() {
        let mut t = Table::new(1);
        let deep = Entry {
            score: 5,
            mv: 3,
            depth: 10,
            bound: Bound::Exact,
        };
        let shallow = Entry { depth: 2, ..deep };
        // Same bucket (low bits), different positions (high bits).
        let (a, b, c) = (0x1_0000_0010u64, 0x2_0000_0010u64, 0x3_0000_0010u64);
        t.store(a, deep);
        t.store(b, shallow);
        t.store(c, shallow);
        assert_eq!(t.probe(a), Some(deep));
        assert_eq!(t.probe(c), Some(shallow));
        assert_eq!(
            t.probe(b),
            None,
            "the always-replace slot took the newer entry"
        );
        t.clear();
        assert_eq!(t.probe(a), None);
    }
}
