//! Atomic batches of writes across trees, in backend-neutral terms: each backend applies a
//! batch all or nothing (sled in one transaction, PostgreSQL in one SQL transaction).

use super::{encode, StoreError, Tree};
use serde::Serialize;

/// What a conditional write expects to find stored under its key: the compare of a
/// compare-and-set. Both backends check it and keep real revisions (PostgreSQL: `UPDATE ...
/// WHERE revision = $n`; sled: a compare-and-swap of the stored bytes, which end with the
/// revision); a batch with a write whose expectation fails applies nothing and answers
/// `StoreError::Conflict`.
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
    /// Writes the record at `revision`; `None` counts the stored one up by one (or starts at
    /// 1). Only a copy (`Store::import`) gives a revision of its own: a conditional put's is
    /// the one its expectation implies.
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

    /// Writes `value` under `key` if what is stored matches `expect`; the whole batch fails
    /// with `StoreError::Conflict` otherwise. The store counts the revision: the record is
    /// then at `r + 1` for `Expect::Revision(r)`, at 1 for `Expect::Absent`, one above what
    /// was stored for `Expect::Any` (see [`Written`]).
    pub fn put_checked<T: Serialize>(
        &mut self,
        tree: Tree,
        key: &str,
        value: &T,
        expect: Expect,
    ) -> Result<&mut Batch, StoreError> {
        let value = encode(tree, value)?;
        self.put_bytes(tree, key, value, expect, expect.next());
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

    /// The revisions the conditional puts of this batch store when it applies.
    pub(super) fn written(&self) -> Written {
        let revisions = self
            .ops
            .iter()
            .filter_map(|op| match op {
                Op::Put {
                    tree,
                    key,
                    expect,
                    revision: Some(revision),
                    ..
                } if *expect != Expect::Any => Some((*tree, key.clone(), *revision)),
                _ => None,
            })
            .collect();
        Written { revisions }
    }
}

impl Expect {
    /// The revision a write that found what it expected stores (`None`: one above whatever
    /// it found).
    fn next(self) -> Option<u64> {
        match self {
            Expect::Any => None,
            Expect::Absent => Some(1),
            Expect::Revision(r) => Some(r.saturating_add(1)),
        }
    }
}

/// What an applied batch stored: the revision of each of its conditional puts, which the
/// caller holds to make its next write conditional on it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    revisions: Vec<(Tree, String, u64)>,
}

impl Written {
    /// The revision a conditional put of the batch stored under `key` of `tree`.
    pub fn revision(&self, tree: Tree, key: &str) -> Option<u64> {
        self.revisions
            .iter()
            .find(|(t, k, _)| *t == tree && k == key)
            .map(|(_, _, r)| *r)
    }
}
