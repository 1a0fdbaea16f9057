//! Atomic batches of writes across trees, in backend-neutral terms: each backend applies a
//! batch all or nothing (sled in one transaction, PostgreSQL in one SQL transaction).

use super::{encode, StoreError, Tree};
use serde::Serialize;

/// What a conditional write expects to find stored under its key: the compare of a
/// compare-and-set. PostgreSQL checks it (`UPDATE ... WHERE revision = $n`); sled, which one
/// process holds alone behind its file lock, has the manager's per-record lock as its
/// compare-and-set and does not store revisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Whatever is there (or nothing).
    Any,
    /// Nothing: the write creates the record.
    Absent,
    /// The record, at this revision.
    Revision(u64),
}

/// One change of a batch.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Op {
    /// Writes the record; `revision` `None` counts the stored one up by one (or starts at 1).
    Put {
        tree: Tree,
        key: String,
        value: Vec<u8>,
        expect: Expect,
        revision: Option<u64>,
    },
    /// Deletes the record and any expiry it had.
    Delete {
        tree: Tree,
        key: String,
        expect: Expect,
    },
    /// The record is deleted by `Store::expire_due` from this time (unix seconds) on; it
    /// replaces an earlier expiry time of the same record.
    Expire { tree: Tree, key: String, at: u64 },
    /// Removes one entry of sled's time-ordered index (its sweeper's own bookkeeping).
    DropExpiryEntry(Vec<u8>),
}

/// Writes that land together or not at all, across any trees.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    pub(super) ops: Vec<Op>,
}

impl Batch {
    pub fn new() -> Batch {
        Batch::default()
    }

    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// Writes `value` under `key`, whatever is stored there.
    pub fn put<T: Serialize>(
        &mut self,
        tree: Tree,
        key: &str,
        value: &T,
    ) -> Result<&mut Batch, StoreError> {
        let value = encode(tree, value)?;
        self.put_bytes(tree, key, value, Expect::Any, None);
        Ok(self)
    }

    /// Writes `value` under `key` at `revision` if what is stored matches `expect`; the whole
    /// batch fails with `StoreError::Conflict` otherwise (on a backend that checks, see
    /// [`Expect`]).
    pub fn put_checked<T: Serialize>(
        &mut self,
        tree: Tree,
        key: &str,
        value: &T,
        expect: Expect,
        revision: u64,
    ) -> Result<&mut Batch, StoreError> {
        let value = encode(tree, value)?;
        self.put_bytes(tree, key, value, expect, Some(revision));
        Ok(self)
    }

    /// Puts bytes that are already an envelope (migrations and copies move records as
    /// they are).
    pub(super) fn put_bytes(
        &mut self,
        tree: Tree,
        key: &str,
        value: Vec<u8>,
        expect: Expect,
        revision: Option<u64>,
    ) {
        self.ops.push(Op::Put {
            tree,
            key: key.to_string(),
            value,
            expect,
            revision,
        });
    }

    pub fn delete(&mut self, tree: Tree, key: &str) -> &mut Batch {
        self.delete_checked(tree, key, Expect::Any)
    }

    /// Deletes the record if what is stored matches `expect` (see `put_checked`).
    pub fn delete_checked(&mut self, tree: Tree, key: &str, expect: Expect) -> &mut Batch {
        self.ops.push(Op::Delete {
            tree,
            key: key.to_string(),
            expect,
        });
        self
    }

    /// Deletes the record `key` of `tree` at `at` (unix seconds) or later.
    pub fn expire_at(&mut self, tree: Tree, key: &str, at: u64) -> &mut Batch {
        self.ops.push(Op::Expire {
            tree,
            key: key.to_string(),
            at,
        });
        self
    }

    pub(super) fn drop_expiry_entry(&mut self, entry: Vec<u8>) {
        self.ops.push(Op::DropExpiryEntry(entry));
    }

    /// Only puts, all in one tree: sled's single-tree batch is atomic and
    /// cheaper than a transaction (a move is one put).
    pub(super) fn single_tree_puts(&self) -> Option<Tree> {
        let Some(Op::Put { tree: first, .. }) = self.ops.first() else {
            return None;
        };
        let all = self
            .ops
            .iter()
            .all(|op| matches!(op, Op::Put { tree, .. } if tree == first));
        all.then_some(*first)
    }
}
