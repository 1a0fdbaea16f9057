//! The embedded backend: sled, held by one process alone (its file lock). Writes land in
//! memory at once and become durable through the group commit (`commit.rs`).
//!
//! Every record carries its revision at the end of its stored bytes (see `split`), and every
//! conditional write is checked against it (`Expect`), as on PostgreSQL: the manager does
//! not need to know which backend it has.

use super::bands::{self, Deltas};
use super::batch::{Batch, Expect, Op};
use super::commit::{self, Committer, Flusher};
use super::migrate::{self, Upgradable};
use super::{decode, KeyRange, Order, RawRecord, StoreError, StoreOptions, Tree};
use serde::de::DeserializeOwned;
use sled::transaction::{
    ConflictableTransactionError, TransactionError, Transactional, TransactionalTree,
};
use sled::IVec;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// The two trees behind expiry: `EXPIRY` is time-ordered (big-endian seconds, tree tag, key),
/// `EXPIRY_KEYS` maps (tree tag, key) to its current time so a new expiry replaces the old.
const EXPIRY: usize = Tree::ALL.len();
const EXPIRY_KEYS: usize = EXPIRY + 1;
/// The counts of counted trees' bands (`bands.rs`): (tree tag, band) -> big-endian `i64`.
const COUNTS: usize = EXPIRY_KEYS + 1;
const INNER_NAMES: [&str; 3] = ["expiry", "expiry.keys", "counts.bands"];

/// Cheap to clone; all clones share one sled instance and one flusher.
#[derive(Clone)]
pub(super) struct SledStore {
    pub(super) db: sled::Db,
    /// The public trees in `Tree::ALL` order, then the two expiry trees and the counts.
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
        let mut trees = Vec::with_capacity(COUNTS + 1);
        for name in Tree::ALL.iter().map(|t| t.name()).chain(INNER_NAMES) {
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

    /// A record's envelope and revision.
    pub(super) fn get_bytes(
        &self,
        tree: Tree,
        key: &str,
    ) -> Result<Option<(Vec<u8>, u64)>, StoreError> {
        Ok(self.tree(tree).get(key.as_bytes())?.map(|v| {
            let (envelope, revision) = split(&v);
            (envelope.to_vec(), revision)
        }))
    }

    pub(super) fn get<T: DeserializeOwned>(
        &self,
        tree: Tree,
        key: &str,
    ) -> Result<Option<T>, StoreError> {
        match self.tree(tree).get(key.as_bytes())? {
            None => Ok(None),
            Some(bytes) => decode(tree, key, split(&bytes).0).map(Some),
        }
    }

    pub(super) fn revision(&self, tree: Tree, key: &str) -> Result<Option<u64>, StoreError> {
        Ok(self.tree(tree).get(key.as_bytes())?.map(|v| split(&v).1))
    }

    pub(super) fn count(&self, tree: Tree) -> usize {
        self.tree(tree).len()
    }

    /// Every key of a tree with its revision; unreadable entries are logged and skipped.
    pub(super) fn revisions(&self, tree: Tree) -> Vec<(String, u64)> {
        let mut out = Vec::new();
        for item in self.tree(tree).iter() {
            match item {
                Ok((key, bytes)) => {
                    let key = String::from_utf8_lossy(&key).into_owned();
                    out.push((key, split(&bytes).1));
                }
                Err(error) => {
                    tracing::error!(tree = tree.name(), %error, "cannot read a record; skipped")
                }
            }
        }
        out
    }

    /// The records of a tree and their keys' and envelopes' bytes; unreadable entries are
    /// logged and left out.
    pub(super) fn logical_size(&self, tree: Tree) -> super::size::TreeSize {
        let mut size = super::size::TreeSize::default();
        for item in self.tree(tree).iter() {
            match item {
                Ok((key, bytes)) => {
                    size.records += 1;
                    size.bytes += (key.len() + split(&bytes).0.len()) as u64;
                }
                Err(error) => {
                    tracing::error!(tree = tree.name(), %error, "cannot read a record; skipped")
                }
            }
        }
        size
    }

    /// Every record of a tree as stored (key, envelope, revision); unreadable entries are
    /// logged and skipped.
    pub(super) fn scan(&self, tree: Tree) -> Vec<(String, Vec<u8>, u64)> {
        let mut out = Vec::new();
        for item in self.tree(tree).iter() {
            match item {
                Ok((key, bytes)) => {
                    let (envelope, revision) = split(&bytes);
                    let key = String::from_utf8_lossy(&key).into_owned();
                    out.push((key, envelope.to_vec(), revision));
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
        order: Order,
    ) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
        let mut out = Vec::new();
        let items = self.tree(tree).range(bounds(range));
        let items: Box<dyn Iterator<Item = _>> = match order {
            Order::Up => Box::new(items),
            Order::Down => Box::new(items.rev()),
        };
        for item in items.take(limit) {
            let (key, bytes) = item?;
            if range.admits(&key) {
                let envelope = split(&bytes).0.to_vec();
                out.push((String::from_utf8_lossy(&key).into_owned(), envelope));
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

    /// The records of `tree`'s bands from `prefix` up to (not including) band `before`.
    pub(super) fn count_bands(
        &self,
        tree: Tree,
        prefix: &str,
        before: &str,
    ) -> Result<usize, StoreError> {
        let (from, to) = (
            tagged(tree, prefix.as_bytes()),
            tagged(tree, before.as_bytes()),
        );
        let mut n: i64 = 0;
        for item in self.trees[COUNTS].range(from.as_slice()..to.as_slice()) {
            let (band, count) = item?;
            if band.starts_with(&from) {
                n = n.saturating_add(read_count(Some(&count)));
            }
        }
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// Counts every band of every counted tree anew from its records (the upgrade to layout
    /// 4, before which no counts were kept). Run at open, before anything else writes.
    fn recount(&self) -> Result<usize, StoreError> {
        self.trees[COUNTS].clear()?;
        let mut deltas = Deltas::default();
        let mut rows = 0;
        for tree in Tree::ALL {
            for key in self.tree(tree).iter().keys() {
                let key = key?;
                deltas.add(tree, &String::from_utf8_lossy(&key), 1);
                rows += 1;
            }
        }
        for (tree, band, n) in deltas.changes() {
            let key = tagged(tree, band.as_bytes());
            self.trees[COUNTS].insert(key, &n.to_be_bytes()[..])?;
        }
        Ok(rows)
    }

    /// Every record of a tree with its expiry time, for `store copy`.
    pub(super) fn export(&self, tree: Tree) -> Result<Vec<RawRecord>, StoreError> {
        let mut out = Vec::new();
        for (key, value, revision) in self.scan(tree) {
            let at = self.trees[EXPIRY_KEYS].get(tagged(tree, key.as_bytes()))?;
            let expires_at = at
                .and_then(|at| <[u8; 8]>::try_from(at.as_ref()).ok())
                .map(u64::from_be_bytes);
            out.push(RawRecord {
                key,
                value,
                revision,
                expires_at,
            });
        }
        Ok(out)
    }

    /// Stores `bytes` as they are, as a record written before sled kept revisions (tests
    /// plant corrupt and old records with it).
    #[cfg(feature = "test-support")]
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
                    batch.delete(tree, &String::from_utf8_lossy(record));
                }
                None => tracing::error!(key = ?key, "malformed expiry entry; dropped"),
            }
            batch.drop_expiry_entry(key.to_vec());
            due += 1;
        }
        self.apply(batch)?;
        Ok(due)
    }

    /// Applies every change of `batch` at once (all or nothing, across trees), checking
    /// each conditional write against the stored revision; not yet durable: call `commit`.
    /// Returns what undoes it (`undo`). A lone put (a move) is one compare-and-swap of its
    /// key; anything else one transaction over every tree. A transaction (like sled's
    /// `apply_batch`) takes sled's global write lock and seals its own piece of the log, so
    /// group commit shares nothing between them: the hot path must stay a single-key write.
    pub(super) fn apply(&self, batch: Batch) -> Result<Undo, StoreError> {
        let undo = match batch.ops.as_slice() {
            [] => return Ok(Undo::default()),
            [Op::Put {
                tree,
                key,
                value,
                expect,
                revision,
            }] if bands::band(*tree, key).is_none() => {
                self.put_one(*tree, key, value, *expect, *revision)?
            }
            ops => self.transact(ops)?,
        };
        self.committer.written.fetch_add(1, Ordering::SeqCst);
        Ok(undo)
    }

    /// One conditional put: read, check, compare-and-swap (again if the key changed between
    /// the read and the swap).
    fn put_one(
        &self,
        tree: Tree,
        key: &str,
        envelope: &[u8],
        expect: Expect,
        revision: Option<u64>,
    ) -> Result<Undo, StoreError> {
        let t = self.tree(tree);
        loop {
            let current = t.get(key.as_bytes())?;
            let found = current.as_deref().map(|c| split(c).1);
            let next = next_revision(tree, key, expect, revision, found)?;
            let new = with_revision(envelope, next);
            if t.compare_and_swap(key.as_bytes(), current.as_ref(), Some(new.clone()))?
                .is_ok()
            {
                return Ok(Undo(vec![Change {
                    tree: tree as usize,
                    key: key.as_bytes().into(),
                    old: current,
                    new: Some(new),
                    counted: None,
                }]));
            }
        }
    }

    fn transact(&self, ops: &[Op]) -> Result<Undo, StoreError> {
        let trees: Vec<&sled::Tree> = self.trees.iter().collect();
        trees
            .as_slice()
            .transaction(|t| {
                let mut tx = Tx {
                    t,
                    log: Vec::new(),
                    deltas: Deltas::default(),
                };
                for op in ops {
                    tx.apply(op)?;
                }
                tx.count()?;
                Ok(Undo(tx.log))
            })
            .map_err(storage_error)
    }

    /// Puts back what `apply` replaced, key by key, where the key still holds what `apply`
    /// wrote (a later write of another caller stays). Not durable by itself: the next flush
    /// carries it.
    pub(super) fn undo(&self, undo: Undo) -> Result<(), StoreError> {
        match undo.0.as_slice() {
            [] => return Ok(()),
            [one] => {
                // Refused if the key changed since: then it is not ours to put back. (A lone
                // change is never a count: counts come with the record they count.)
                let _ = self.trees[one.tree].compare_and_swap(
                    &one.key,
                    one.new.as_ref(),
                    one.old.clone(),
                )?;
            }
            log => {
                let trees: Vec<&sled::Tree> = self.trees.iter().collect();
                trees
                    .as_slice()
                    .transaction(|t| {
                        for c in log.iter().rev() {
                            if let Some(by) = c.counted {
                                // Other writes may have moved the count since: take back
                                // only what this write added.
                                let n = read_count(t[c.tree].get(&c.key)?.as_ref());
                                t[c.tree].insert(c.key.clone(), &(n - by).to_be_bytes()[..])?;
                            } else if t[c.tree].get(&c.key)? == c.new {
                                match &c.old {
                                    Some(old) => t[c.tree].insert(c.key.clone(), old.clone())?,
                                    None => t[c.tree].remove(c.key.clone())?,
                                };
                            }
                        }
                        Ok::<_, ConflictableTransactionError<Conflict>>(())
                    })
                    .map_err(storage_error)?;
            }
        }
        self.committer.written.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }
}

/// What undoes an applied batch: every raw change it made to a sled tree (the expiry index
/// included), in order.
#[derive(Default)]
pub(super) struct Undo(Vec<Change>);

/// One raw change: `tree` is an index into `SledStore::trees`; `None` is no record.
/// `counted`: a band's count, moved by this much (undone by taking it back, not by putting
/// the old value back).
struct Change {
    tree: usize,
    key: IVec,
    old: Option<IVec>,
    new: Option<IVec>,
    counted: Option<i64>,
}

/// A stored count (`None` or unreadable: 0).
fn read_count(bytes: Option<&IVec>) -> i64 {
    bytes
        .and_then(|b| <[u8; 8]>::try_from(b.as_ref()).ok())
        .map_or(0, i64::from_be_bytes)
}

/// The last byte of a record stored with its revision (layout 3): the 8 bytes before it are
/// the revision (big-endian), everything before them the envelope. A record written before
/// layout 3 is a bare envelope (JSON, so it ends with `}`), read as revision 1.
const REVISIONED: u8 = 0x01;
/// The revision of a record written before sled kept revisions.
const FIRST_REVISION: u64 = 1;

/// A stored value's envelope and revision.
pub(super) fn split(stored: &[u8]) -> (&[u8], u64) {
    if let Some((&REVISIONED, rest)) = stored.split_last() {
        if let Some(at) = rest.len().checked_sub(8) {
            let (envelope, revision) = rest.split_at(at);
            if let Ok(revision) = <[u8; 8]>::try_from(revision) {
                return (envelope, u64::from_be_bytes(revision));
            }
        }
    }
    (stored, FIRST_REVISION)
}

/// The value stored for `envelope` at `revision`.
fn with_revision(envelope: &[u8], revision: u64) -> IVec {
    let mut out = Vec::with_capacity(envelope.len() + 9);
    out.extend_from_slice(envelope);
    out.extend_from_slice(&revision.to_be_bytes());
    out.push(REVISIONED);
    IVec::from(out)
}

/// The revision a write stores when what it found (`found`, `None` for no record) is what
/// it expects: `given`, or one above what it found; a conflict otherwise.
fn next_revision(
    tree: Tree,
    key: &str,
    expect: Expect,
    given: Option<u64>,
    found: Option<u64>,
) -> Result<u64, Conflict> {
    check(tree, key, expect, found)?;
    Ok(given.unwrap_or_else(|| found.map_or(1, |r| r.saturating_add(1))))
}

fn check(tree: Tree, key: &str, expect: Expect, found: Option<u64>) -> Result<(), Conflict> {
    let matches = match expect {
        Expect::Any => true,
        Expect::Absent => found.is_none(),
        Expect::Revision(r) => found == Some(r),
    };
    if matches {
        Ok(())
    } else {
        Err(Conflict {
            tree: tree.name(),
            key: key.to_string(),
        })
    }
}

/// A conditional write that found something else: aborts the transaction.
#[derive(Debug)]
pub(super) struct Conflict {
    tree: &'static str,
    key: String,
}

impl From<Conflict> for StoreError {
    fn from(c: Conflict) -> StoreError {
        StoreError::Conflict {
            tree: c.tree,
            key: c.key,
        }
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
        self.apply(batch).map(drop)
    }

    fn make_durable(&self) -> Result<(), StoreError> {
        self.flush()
    }

    fn recount(&self) -> Result<usize, StoreError> {
        SledStore::recount(self)
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

type TxResult = Result<(), ConflictableTransactionError<Conflict>>;

/// A transaction in progress, logging each raw change for `Undo`, and the records counted
/// trees gained or lost.
struct Tx<'a> {
    t: &'a [TransactionalTree],
    log: Vec<Change>,
    deltas: Deltas,
}

impl Tx<'_> {
    fn insert(&mut self, tree: usize, key: &[u8], value: IVec) -> TxResult {
        let old = self.t[tree].insert(key, value.clone())?;
        self.log.push(Change {
            tree,
            key: key.into(),
            old,
            new: Some(value),
            counted: None,
        });
        Ok(())
    }

    fn remove(&mut self, tree: usize, key: &[u8]) -> TxResult {
        if let Some(old) = self.t[tree].remove(key)? {
            self.log.push(Change {
                tree,
                key: key.into(),
                old: Some(old),
                new: None,
                counted: None,
            });
        }
        Ok(())
    }

    /// The stored revision of `key` (`None`: absent).
    fn revision(
        &self,
        tree: Tree,
        key: &str,
    ) -> Result<Option<u64>, ConflictableTransactionError<Conflict>> {
        Ok(self.t[tree as usize]
            .get(key.as_bytes())?
            .map(|v| split(&v).1))
    }

    /// Removes the expiry of `key`, if it has one.
    fn clear_expiry(&mut self, tree: Tree, key: &[u8]) -> TxResult {
        let tag = tagged(tree, key);
        if let Some(at) = self.t[EXPIRY_KEYS].get(&tag)? {
            self.remove(EXPIRY_KEYS, &tag)?;
            if let Ok(at) = <[u8; 8]>::try_from(at.as_ref()) {
                self.remove(EXPIRY, &expiry_key(u64::from_be_bytes(at), tree, key))?;
            }
        }
        Ok(())
    }

    /// Adds this transaction's record changes to its bands' counts.
    fn count(&mut self) -> TxResult {
        for (tree, band, by) in self.deltas.changes() {
            let key = tagged(tree, band.as_bytes());
            let old = self.t[COUNTS].get(&key)?;
            let n = read_count(old.as_ref()) + by;
            let new = IVec::from(&n.to_be_bytes()[..]);
            self.t[COUNTS].insert(key.as_slice(), new.clone())?;
            self.log.push(Change {
                tree: COUNTS,
                key: key.into(),
                old,
                new: Some(new),
                counted: Some(by),
            });
        }
        Ok(())
    }

    fn apply(&mut self, op: &Op) -> TxResult {
        match op {
            Op::Put {
                tree,
                key,
                value,
                expect,
                revision,
            } => {
                let found = self.revision(*tree, key)?;
                let next = next_revision(*tree, key, *expect, *revision, found)
                    .map_err(ConflictableTransactionError::Abort)?;
                self.insert(*tree as usize, key.as_bytes(), with_revision(value, next))?;
                if found.is_none() {
                    self.deltas.add(*tree, key, 1);
                }
            }
            Op::Delete { tree, key, expect } => {
                let found = self.revision(*tree, key)?;
                check(*tree, key, *expect, found).map_err(ConflictableTransactionError::Abort)?;
                self.remove(*tree as usize, key.as_bytes())?;
                if found.is_some() {
                    self.deltas.add(*tree, key, -1);
                }
                self.clear_expiry(*tree, key.as_bytes())?;
            }
            Op::Expire { tree, key, at } => {
                self.clear_expiry(*tree, key.as_bytes())?;
                self.insert(
                    EXPIRY,
                    &expiry_key(*at, *tree, key.as_bytes()),
                    IVec::default(),
                )?;
                let at = IVec::from(&at.to_be_bytes()[..]);
                self.insert(EXPIRY_KEYS, &tagged(*tree, key.as_bytes()), at)?;
            }
            Op::DropExpiryEntry(entry) => {
                self.remove(EXPIRY, entry)?;
                if let Some((tree, key)) = parse_expiry_key(entry) {
                    self.remove(EXPIRY_KEYS, &tagged(tree, key))?;
                }
            }
        }
        Ok(())
    }
}

fn storage_error<E: Into<StoreError>>(error: TransactionError<E>) -> StoreError {
    match error {
        TransactionError::Storage(e) => StoreError::Sled(e),
        TransactionError::Abort(e) => e.into(),
    }
}
