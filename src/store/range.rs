//! Key ranges of ordered reads (`Store::scan`, `scan_back`), as both backends read them.

/// Which keys of a tree [`Store::scan`] reads: those that start with `prefix`, and are
/// strictly after `after` and strictly before `before` when those are given, in ascending
/// byte order of the key (a backend must compare keys as bytes, not by a locale's collation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyRange<'a> {
    pub prefix: &'a str,
    pub after: Option<&'a str>,
    pub before: Option<&'a str>,
}

impl<'a> KeyRange<'a> {
    /// Every key that starts with `prefix`.
    pub fn prefix(prefix: &'a str) -> KeyRange<'a> {
        KeyRange {
            prefix,
            after: None,
            before: None,
        }
    }

    pub(super) fn admits(&self, key: &[u8]) -> bool {
        key.starts_with(self.prefix.as_bytes())
            && self.after.is_none_or(|a| key > a.as_bytes())
            && self.before.is_none_or(|b| key < b.as_bytes())
    }

    /// The first key the range may hold, and whether it is excluded itself.
    pub(super) fn lower(&self) -> (&'a str, bool) {
        match self.after {
            Some(after) if after >= self.prefix => (after, true),
            _ => (self.prefix, false),
        }
    }

    /// The smallest string above every key that starts with `prefix` (its last code point
    /// raised by one: UTF-8 byte order is code point order), or None for an empty prefix.
    fn prefix_end(&self) -> Option<String> {
        let mut chars: Vec<char> = self.prefix.chars().collect();
        while let Some(last) = chars.pop() {
            let next = (u32::from(last) + 1..=u32::from(char::MAX)).find_map(char::from_u32);
            if let Some(next) = next {
                chars.push(next);
                return Some(chars.into_iter().collect());
            }
        }
        None
    }

    /// The exclusive upper bound: the lower of `before` and the end of the prefix.
    pub(super) fn upper(&self) -> Option<String> {
        match (self.before, self.prefix_end()) {
            (Some(b), Some(end)) => Some(if b < end.as_str() { b.to_string() } else { end }),
            (Some(b), None) => Some(b.to_string()),
            (None, end) => end,
        }
    }
}

/// The direction of an ordered read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    Up,
    Down,
}
