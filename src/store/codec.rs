//! A record's bytes: the JSON envelope (`{"schema":1,"data":...}`) of most trees, or the
//! compact form (a zero byte, then postcard) of the trees that hold many small rows
//! (`Tree::is_compact`). Either is known by its first byte when read.

use super::{StoreError, Tree, SCHEMA_VERSION};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

#[derive(Serialize)]
struct Envelope<'a, T> {
    schema: u32,
    data: &'a T,
}

#[derive(Deserialize)]
struct Head {
    schema: u32,
}

#[derive(Deserialize)]
struct Owned<T> {
    data: T,
}

/// The first byte of a record in the compact form (`Tree::is_compact`): a JSON envelope
/// starts with `{`, so either form is known by its first byte.
const COMPACT: u8 = 0;

pub(super) fn encode<T: Serialize>(tree: Tree, value: &T) -> Result<Vec<u8>, StoreError> {
    if tree.is_compact() {
        return postcard::to_extend(value, vec![COMPACT]).map_err(|e| StoreError::Encode {
            tree: tree.name(),
            source: serde::ser::Error::custom(e),
        });
    }
    serde_json::to_vec(&Envelope {
        schema: SCHEMA_VERSION,
        data: value,
    })
    .map_err(|source| StoreError::Encode {
        tree: tree.name(),
        source,
    })
}

pub(super) fn decode<T: DeserializeOwned>(
    tree: Tree,
    key: &str,
    bytes: &[u8],
) -> Result<T, StoreError> {
    let err = |reason: String| StoreError::Decode {
        tree: tree.name(),
        key: key.to_string(),
        reason,
    };
    if let Some((&COMPACT, rest)) = bytes.split_first() {
        let (value, left) = postcard::take_from_bytes(rest).map_err(|e| err(e.to_string()))?;
        if !left.is_empty() {
            return Err(err(format!("{} bytes after the record", left.len())));
        }
        return Ok(value);
    }
    let head: Head = serde_json::from_slice(bytes).map_err(|e| err(e.to_string()))?;
    if head.schema != SCHEMA_VERSION {
        return Err(err(format!("unknown schema version {}", head.schema)));
    }
    let owned: Owned<T> = serde_json::from_slice(bytes).map_err(|e| err(e.to_string()))?;
    Ok(owned.data)
}
