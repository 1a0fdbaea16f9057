//! The embedded backend: sled, held by one process alone (its file lock). Writes land in
//! memory at once and become durable through the group commit (`commit.rs`).
//!
//! Revisions are not stored: with one process, the manager's per-record lock already makes
//! every change a compare-and-set, so `Expect` is not checked here and reads report
//! revision 0.

use super::batch::{Batch, Expect, Op};
use super::commit::{self, Committer, Flusher};
use super::migrate::{self, Upgradable};
use super::{decode, KeyRange, RawRecord, StoreError, StoreOptions, Tree};
use serde::de::DeserializeOwned;
use sled::transaction::{
    ConflictableTransactionError, TransactionError, Transactional, TransactionalTree,
};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// The two trees behind expiry: `EXPIRY` is time-ordered (big-endian seconds, tree tag, key),
/// `EXPIRY_KEYS` maps (tree tag, key) to its current time so a new expiry replaces the old.
const EXPIRY: usize = Tree::ALL.len();
const EXPIRY_KEYS: usize = EXPIRY + 1;
const EXPIRY_NAMES: [&str; 2] = ["expiry", "expiry.keys"];

/// Cheap to clone; all clones share one sled instance and one flusher.
#[derive(Clone)]
pub(super) struct SledStore {
    pub(super) db: sled::Db,
    /// The public trees in `Tree::ALL` order, then the two expiry trees.
    trees: Arc<[sled::Tree]>,
    pub(super) committer: Arc<Committer>,
}

impl SledStore {
    pub(super) fn open(
        dir: Option<&Path>,
        options: &StoreOptions,
        wrap: impl FnOnce(Arc<dyn Flusher>) -> Arc<dyn Flusher>,
    ) -> Result<SledStore, StoreError> {
        let config = sled::Config::new().cache_capacity(options.cache_capacity);
        let db = match dir {
            Some(dir) => config.path(dir).open().map_err(|source| StoreError::Open {
                path: dir.display().to_string(),
                reason: source.to_string(),
            })?,
            None => config.temporary(true).open()?,
        };
        let mut trees = Vec::with_capacity(EXPIRY_KEYS + 1);
        for name in Tree::ALL.iter().map(|t| t.name()).chain(EXPIRY_NAMES) {
            trees.push(db.open_tree(name)?);
        }
        let flusher = wrap(commit::sled_flusher(db.clone()));
        let store = SledStore {
            db,
            trees: trees.into(),
            committer: Committer::start(flusher, options.commit_timeout),
        };
        migrate::upgrade(&store, super::unix_now())?;
        Ok(store)
    }

    fn tree(&self, tree: Tree) -> &sled::Tree {
        &self.trees[tree as usize]
    }

    pub(super) fn get_bytes(&self, tree: Tree, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.tree(tree).get(key.as_bytes())?.map(|v| v.to_vec()))
    }

    pub(super) fn get<T: DeserializeOwned>(
        &self,
        tree: Tree,
        key: &str,
    ) -> Result<Option<T>, StoreError> {
        match self.tree(tree).get(key.as_bytes())? {
            None => Ok(None),
            Some(bytes) => decode(tree, key, &bytes).map(Some),
        }
    }

    pub(super) fn contains(&self, tree: Tree, key: &str) -> Result<bool, StoreError> {
        Ok(self.tree(tree).contains_key(key.as_bytes())?)
    }

    pub(super) fn count(&self, tree: Tree) -> usize {
        self.tree(tree).len()
    }

    /// Every record of a tree as stored (key, bytes); unreadable entries are logged and
    /// skipped.
    pub(super) fn scan(&self, tree: Tree) -> Vec<(String, Vec<u8>)> {
        let mut out = Vec::new();
        for item in self.tree(tree).iter() {
            match item {
                Ok((key, bytes)) => {
                    out.push((String::from_utf8_lossy(&key).into_owned(), bytes.to_vec()))
                }
                Err(error) => {
                    tracing::error!(tree = tree.name(), %error, "cannot read a record; skipped")
                }
            }
        }
        out
    }

    /// At most `limit` records of `range`, in key order (sled orders keys as bytes).
    pub(super) fn range(
        &self,
        tree: Tree,
        range: &KeyRange<'_>,
        limit: usize,
    ) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
        let mut out = Vec::new();
        for item in self.tree(tree).range(bounds(range)).take(limit) {
            let (key, bytes) = item?;
            if range.admits(&key) {
                out.push((String::from_utf8_lossy(&key).into_owned(), bytes.to_vec()));
            }
        }
        Ok(out)
    }

    /// How many keys `range` holds (values are not read).
    pub(super) fn count_range(
        &self,
        tree: Tree,
        range: &KeyRange<'_>,
    ) -> Result<usize, StoreError> {
        let mut n = 0;
        for key in self.tree(tree).range(bounds(range)).keys() {
            n += usize::from(range.admits(&key?));
        }
        Ok(n)
    }

    /// Every record of a tree with its expiry time, for `store copy`.
    pub(super) fn export(&self, tree: Tree) -> Result<Vec<RawRecord>, StoreError> {
        let mut out = Vec::new();
        for (key, value) in self.scan(tree) {
            let at = self.trees[EXPIRY_KEYS].get(tagged(tree, key.as_bytes()))?;
            let expires_at = at
                .and_then(|at| <[u8; 8]>::try_from(at.as_ref()).ok())
                .map(u64::from_be_bytes);
            out.push(RawRecord {
                key,
                value,
                revision: 0,
                expires_at,
            });
        }
        Ok(out)
    }

    pub(super) fn put_raw(&self, tree: Tree, key: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.tree(tree).insert(key.as_bytes(), bytes)?;
        Ok(())
    }

    pub(super) fn flush(&self) -> Result<(), StoreError> {
        self.db.flush()?;
        Ok(())
    }

    /// See `Store::expire_due`: a range scan of the time-ordered index.
    pub(super) fn expire_due(&self, now: u64, max: usize) -> Result<usize, StoreError> {
        let upto = now.saturating_add(1).to_be_bytes();
        let mut batch = Batch::new();
        let mut due = 0;
        for item in self.trees[EXPIRY].range(..upto.as_slice()).take(max) {
            let (key, _) = item?;
            match parse_expiry_key(&key) {
                Some((tree, record)) => {
                    batch.ops.push(Op::Delete {
                        tree,
                        key: String::from_utf8_lossy(record).into_owned(),
                        expect: Expect::Any,
                    });
                }
                None => tracing::error!(key = ?key, "malformed expiry entry; dropped"),
            }
            batch.drop_expiry_entry(key.to_vec());
            due += 1;
        }
        self.apply(batch)?;
        Ok(due)
    }

    /// Applies every change of `batch` at once (all or nothing, across trees); not yet
    /// durable: call `commit`.
    pub(super) fn apply(&self, batch: Batch) -> Result<(), StoreError> {
        if batch.is_empty() {
            return Ok(());
        }
        if batch.single_tree_puts().is_some() {
            let mut sb = sled::Batch::default();
            let mut tree = None;
            for op in &batch.ops {
                if let Op::Put {
                    tree: t,
                    key,
                    value,
                    ..
                } = op
                {
                    tree = Some(*t);
                    sb.insert(key.as_bytes(), value.as_slice());
                }
            }
            if let Some(tree) = tree {
                self.tree(tree).apply_batch(sb)?;
            }
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

impl Upgradable for SledStore {
    fn db(&self) -> &sled::Db {
        &self.db
    }

    fn read_meta(&self, key: &str) -> Result<Option<u32>, StoreError> {
        self.get(Tree::Meta, key)
    }

    fn write(&self, batch: Batch) -> Result<(), StoreError> {
        self.apply(batch)
    }

    fn make_durable(&self) -> Result<(), StoreError> {
        self.flush()
    }
}

/// sled's bounds for a key range: from the prefix (or after `after`) up to the end of the
/// prefix (or `before`).
fn bounds(range: &KeyRange<'_>) -> (std::ops::Bound<Vec<u8>>, std::ops::Bound<Vec<u8>>) {
    use std::ops::Bound;
    let (lower, excluded) = range.lower();
    let start = match excluded {
        true => Bound::Excluded(lower.as_bytes().to_vec()),
        false => Bound::Included(lower.as_bytes().to_vec()),
    };
    let end = match range.upper() {
        Some(upper) => Bound::Excluded(upper.into_bytes()),
        None => Bound::Unbounded,
    };
    (start, end)
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
fn parse_expiry_key(entry: &[u8]) -> Option<(Tree, &[u8])> {
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
        Op::Put {
            tree, key, value, ..
        } => {
            t[*tree as usize].insert(key.as_bytes(), value.as_slice())?;
        }
        Op::Delete { tree, key, .. } => {
            t[*tree as usize].remove(key.as_bytes())?;
            clear_expiry(t, *tree, key.as_bytes())?;
        }
        Op::Expire { tree, key, at } => {
            clear_expiry(t, *tree, key.as_bytes())?;
            t[EXPIRY].insert(expiry_key(*at, *tree, key.as_bytes()), &[])?;
            t[EXPIRY_KEYS].insert(tagged(*tree, key.as_bytes()), &at.to_be_bytes())?;
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
