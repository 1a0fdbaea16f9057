//! A position's row in bytes (the explorer's trees are stored in the store's compact form,
//! `Tree::is_compact`): a version byte, the counters (a cell in one byte, category x 45 +
//! band x 9 + pit - 1, then games, White wins, draws, Black wins, rating sum and rated as
//! varints), then the last games (pit and the game key's 12 bytes). Also the pits of a
//! game's row, two to a byte.

use super::keys::{base64, ALPHABET};
use super::{Entry, Row};
use serde::{de, ser, Deserialize, Deserializer, Serialize, Serializer};

const VERSION: u8 = 2;

fn put_varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Reads bytes off the front of a row.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, String> {
        let (first, rest) = self.0.split_first().ok_or("the row ends too early")?;
        self.0 = rest;
        Ok(*first)
    }

    fn varint(&mut self) -> Result<u64, String> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err("a count is too long".into())
    }

    fn bytes(&mut self, len: usize) -> Result<&[u8], String> {
        if self.0.len() < len {
            return Err("the row ends too early".into());
        }
        let (taken, rest) = self.0.split_at(len);
        self.0 = rest;
        Ok(taken)
    }
}

/// The row's bytes (`None`: a counter outside the cell's ranges, or a game key that is not
/// base64 of at most 255 bytes, which the import never makes).
pub fn encode(row: &Row) -> Option<Vec<u8>> {
    let mut out = vec![VERSION];
    put_varint(&mut out, row.e.len() as u64);
    for e in &row.e {
        if e.0 >= 4 || e.1 >= 5 || !(1..=9).contains(&e.2) {
            return None;
        }
        out.push(e.0 * 45 + e.1 * 9 + e.2 - 1);
        for n in [e.3, e.4, e.5, e.6, e.7, e.8] {
            put_varint(&mut out, n);
        }
    }
    put_varint(&mut out, row.l.len() as u64);
    for (pit, id) in &row.l {
        let raw = unbase64(id).filter(|raw| base64(raw) == *id)?;
        out.push(*pit);
        out.push(u8::try_from(raw.len()).ok()?);
        out.extend_from_slice(&raw);
    }
    Some(out)
}

pub fn decode(bytes: &[u8]) -> Result<Row, String> {
    let mut r = Reader(bytes);
    let version = r.byte()?;
    if version != VERSION {
        return Err(format!("unknown row version {version}"));
    }
    let mut row = Row::default();
    for _ in 0..r.varint()? {
        let cell = r.byte()?;
        if cell >= 180 {
            return Err(format!("bad cell {cell}"));
        }
        let mut n = [0u64; 6];
        for slot in &mut n {
            *slot = r.varint()?;
        }
        row.e.push(Entry(
            cell / 45,
            cell % 45 / 9,
            cell % 9 + 1,
            n[0],
            n[1],
            n[2],
            n[3],
            n[4],
            n[5],
        ));
    }
    for _ in 0..r.varint()? {
        let pit = r.byte()?;
        let len = usize::from(r.byte()?);
        row.l.push((pit, base64(r.bytes(len)?)));
    }
    if !r.0.is_empty() {
        return Err("bytes after the row".into());
    }
    Ok(row)
}

/// The bytes of URL-safe base64 without padding (`None`: another character, or a length
/// no encoding makes).
fn unbase64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.as_bytes().chunks(4) {
        if chunk.len() == 1 {
            return None;
        }
        let mut n = 0u32;
        for &c in chunk {
            let v = ALPHABET.iter().position(|&a| a == c)?;
            n = (n << 6) | v as u32;
        }
        n <<= 6 * (4 - chunk.len());
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

impl Serialize for Row {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let bytes = encode(self).ok_or_else(|| ser::Error::custom("a counter out of range"))?;
        s.serialize_bytes(&bytes)
    }
}

/// Takes a value's bytes, however the format gives them.
struct BytesVisitor;

impl<'de> de::Visitor<'de> for BytesVisitor {
    type Value = Vec<u8>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("bytes")
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
        Ok(v.to_vec())
    }

    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
        Ok(v)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
        let mut out = Vec::new();
        while let Some(b) = seq.next_element()? {
            out.push(b);
        }
        Ok(out)
    }
}

impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Row, D::Error> {
        let bytes = d.deserialize_bytes(BytesVisitor)?;
        decode(&bytes).map_err(de::Error::custom)
    }
}

/// A game's pits (digits 1-9) two to a byte in the store; as the digits in JSON (the CLI's
/// `--json`). `#[serde(with = "pits")]`.
pub mod pits {
    use super::BytesVisitor;
    use serde::{de, ser, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(digits: &str, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            return s.serialize_str(digits);
        }
        let mut packed = Vec::with_capacity(digits.len().div_ceil(2));
        for pair in digits.as_bytes().chunks(2) {
            let nibble = |c: u8| match c {
                b'1'..=b'9' => Ok(c - b'0'),
                _ => Err(ser::Error::custom("a pit that is not 1-9")),
            };
            let low = pair.get(1).map_or(Ok(0), |&c| nibble(c))?;
            packed.push(nibble(pair[0])? << 4 | low);
        }
        s.serialize_bytes(&packed)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        if d.is_human_readable() {
            return serde::Deserialize::deserialize(d);
        }
        let packed = d.deserialize_bytes(BytesVisitor)?;
        let mut digits = String::with_capacity(packed.len() * 2);
        for byte in packed {
            for nibble in [byte >> 4, byte & 15] {
                match nibble {
                    0 => {}
                    1..=9 => digits.push(char::from(b'0' + nibble)),
                    _ => return Err(de::Error::custom("a pit that is not 1-9")),
                }
            }
        }
        Ok(digits)
    }
}
