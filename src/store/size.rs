//! How many bytes a tree holds, as the store sees them (keys and values, neither sled's
//! pages and log nor PostgreSQL's tuples): what the explorer's size figure compares
//! (docs/explorer.md "Figures").

use super::{Backend, Store, StoreError, Tree};

/// A tree's records and their logical bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreeSize {
    pub records: u64,
    /// The sum of each record's key and stored value (the envelope; sled's revision
    /// suffix and PostgreSQL's revision column are left out).
    pub bytes: u64,
}

impl Store {
    /// The records of `tree` and their keys' and values' bytes: one walk of the tree on sled,
    /// one aggregate query on PostgreSQL (nothing decoded).
    pub async fn logical_size(&self, tree: Tree) -> Result<TreeSize, StoreError> {
        self.count_read();
        match &self.backend {
            Backend::Sled(s) => Ok(s.logical_size(tree)),
            Backend::Postgres(pg) => pg.logical_size(tree).await,
        }
    }
}
