//! Atomic batches of writes across trees, and the time-ordered expiry index they maintain.

use super::{encode, Store, StoreError, Tree, EXPIRY, EXPIRY_KEYS};
use serde::Serialize;
use sled::transaction::{
    ConflictableTransactionError, TransactionError, Transactional, TransactionalTree,
};
use std::sync::atomic::Ordering;

/// One change of a batch.
#[derive(Clone, Debug)]
enum Op {
    Put(Tree, Vec<u8>, Vec<u8>),
    /// Deletes the record and any expiry it had.
    Delete(Tree, Vec<u8>),
    /// The record is deleted by `Store::expire_due` from this time (unix seconds) on; it
    /// replaces an earlier expiry time of the same record.
    Expire(Tree, Vec<u8>, u64),
    /// Removes one entry of the time-ordered index (the sweeper's own bookkeeping).
    DropExpiryEntry(Vec<u8>),
}

/// Writes that land together or not at all, across any trees.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    ops: Vec<Op>,
}

impl Batch {
    pub fn new() -> Batch {
        Batch::default()
    }

    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    pub fn put<T: Serialize>(
        &mut self,
        tree: Tree,
        key: &str,
        value: &T,
    ) -> Result<&mut Batch, StoreError> {
        let bytes = encode(tree, value)?;
        self.ops.push(Op::Put(tree, key.as_bytes().to_vec(), bytes));
        Ok(self)
    }

    /// Puts bytes that are already an envelope (the migration copies records as they are).
    pub(super) fn put_bytes(&mut self, tree: Tree, key: Vec<u8>, bytes: Vec<u8>) {
        self.ops.push(Op::Put(tree, key, bytes));
    }

    pub(super) fn expire_raw(&mut self, tree: Tree, key: Vec<u8>, at: u64) {
        self.ops.push(Op::Expire(tree, key, at));
    }

    pub fn len(&self) -> usize {
        self.ops.len()
    }

    pub fn delete(&mut self, tree: Tree, key: &str) -> &mut Batch {
        self.delete_raw(tree, key.as_bytes().to_vec())
    }

    pub(super) fn delete_raw(&mut self, tree: Tree, key: Vec<u8>) -> &mut Batch {
        self.ops.push(Op::Delete(tree, key));
        self
    }

    /// Deletes the record `key` of `tree` at `at` (unix seconds) or later.
    pub fn expire_at(&mut self, tree: Tree, key: &str, at: u64) -> &mut Batch {
        self.ops.push(Op::Expire(tree, key.as_bytes().to_vec(), at));
        self
    }

    pub(super) fn drop_expiry_entry(&mut self, entry: Vec<u8>) {
        self.ops.push(Op::DropExpiryEntry(entry));
    }

    /// Only puts, all in one tree: sled's single-tree batch is atomic and cheaper than a
    /// transaction (a move is one put).
    fn single_tree_puts(&self) -> Option<Tree> {
        let Some(Op::Put(first, _, _)) = self.ops.first() else {
            return None;
        };
        let all = self
            .ops
            .iter()
            .all(|op| matches!(op, Op::Put(t, _, _) if t == first));
        all.then_some(*first)
    }
}

/// `(tree tag, key)`: the key of `EXPIRY_KEYS`.
fn tagged(tree: Tree, key: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(1 + key.len());
    out.push(tree as u8);
    out.extend_from_slice(key);
    out
}

/// `(big-endian seconds, tree tag, key)`: the key of the time-ordered `EXPIRY` tree.
fn expiry_key(at: u64, tree: Tree, key: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(9 + key.len());
    out.extend_from_slice(&at.to_be_bytes());
    out.push(tree as u8);
    out.extend_from_slice(key);
    out
}

/// The tree and record key an `EXPIRY` entry names.
pub(super) fn parse_expiry_key(entry: &[u8]) -> Option<(Tree, &[u8])> {
    let tag = *entry.get(8)?;
    Some((Tree::from_tag(tag)?, entry.get(9..)?))
}

type TxResult = Result<(), ConflictableTransactionError<()>>;

/// Removes the expiry of `key`, if it has one.
fn clear_expiry(t: &[TransactionalTree], tree: Tree, key: &[u8]) -> TxResult {
    if let Some(at) = t[EXPIRY_KEYS].remove(tagged(tree, key))? {
        if let Ok(at) = <[u8; 8]>::try_from(at.as_ref()) {
            t[EXPIRY].remove(expiry_key(u64::from_be_bytes(at), tree, key))?;
        }
    }
    Ok(())
}

fn apply_op(t: &[TransactionalTree], op: &Op) -> TxResult {
    match op {
        Op::Put(tree, key, value) => {
            t[*tree as usize].insert(key.as_slice(), value.as_slice())?;
        }
        Op::Delete(tree, key) => {
            t[*tree as usize].remove(key.as_slice())?;
            clear_expiry(t, *tree, key)?;
        }
        Op::Expire(tree, key, at) => {
            clear_expiry(t, *tree, key)?;
            t[EXPIRY].insert(expiry_key(*at, *tree, key), &[])?;
            t[EXPIRY_KEYS].insert(tagged(*tree, key), &at.to_be_bytes())?;
        }
        Op::DropExpiryEntry(entry) => {
            t[EXPIRY].remove(entry.as_slice())?;
            if let Some((tree, key)) = parse_expiry_key(entry) {
                t[EXPIRY_KEYS].remove(tagged(tree, key))?;
            }
        }
    }
    Ok(())
}

fn storage_error(error: TransactionError<()>) -> StoreError {
    match error {
        TransactionError::Storage(e) => StoreError::Sled(e),
        // Nothing in this module aborts a transaction without saying why.
        TransactionError::Abort(()) => StoreError::Closed,
    }
}

impl Store {
    /// Applies every change of `batch` at once (all or nothing, across trees); not yet
    /// durable: call `commit`.
    pub fn apply(&self, batch: Batch) -> Result<(), StoreError> {
        if batch.is_empty() {
            return Ok(());
        }
        if let Some(tree) = batch.single_tree_puts() {
            let mut sb = sled::Batch::default();
            for op in &batch.ops {
                if let Op::Put(_, key, value) = op {
                    sb.insert(key.as_slice(), value.as_slice());
                }
            }
            self.tree(tree).apply_batch(sb)?;
        } else {
            let trees: Vec<&sled::Tree> = self.trees.iter().collect();
            trees
                .as_slice()
                .transaction(|t| batch.ops.iter().try_for_each(|op| apply_op(t, op)))
                .map_err(storage_error)?;
        }
        self.committer.written.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }

    /// Applies `batch` only if `key` is absent from `tree`, atomically; true if it did.
    pub(super) fn apply_if_absent(
        &self,
        tree: Tree,
        key: &str,
        batch: Batch,
    ) -> Result<bool, StoreError> {
        let trees: Vec<&sled::Tree> = self.trees.iter().collect();
        let wrote = trees
            .as_slice()
            .transaction(|t| {
                if t[tree as usize].get(key.as_bytes())?.is_some() {
                    return Ok(false);
                }
                batch.ops.iter().try_for_each(|op| apply_op(t, op))?;
                Ok(true)
            })
            .map_err(storage_error)?;
        if wrote {
            self.committer.written.fetch_add(1, Ordering::SeqCst);
        }
        Ok(wrote)
    }
}
