//! Layout versions of the database and the one-time upgrade from layout 1.
//!
//! Layout 1 (up to the "Hold up under real load" issue) had three trees: `games` (ongoing and
//! finished), `challenges` (open and closed) and `users` (settings under `platform:id`,
//! handles under `@platform:handle`, claims under `claim:platform:key`). Layout 2 splits them
//! so start-up reads only what is live (see `Tree`). The upgrade copies every record as it is
//! (same envelope, same bytes) into its new tree, records the layout in `meta`, and only then
//! drops the old trees: a crash part-way leaves the old trees whole and the upgrade runs again.
//! It knows the shapes of layout 1's records, which are history and no longer change.
//!
//! Layout 3 stores each record's revision after its envelope (`sled_store::split`). Records
//! written before it are bare envelopes and read as revision 1, so the upgrade from layout 2
//! rewrites nothing: it only records layout 3, which an older program refuses to open (it
//! would take every newer record for a corrupt one).
//!
//! Layout 4 keeps the counts of the leaderboard's rating bands (`bands.rs`). The upgrade
//! counts them from the rows; an older program must not open it, as its writes would leave
//! the counts behind.

use super::batch::{Batch, Expect};
use super::{StoreError, Tree, CLAIM_TTL_SECS, CLOSED_CHALLENGE_TTL_SECS};
use serde::Deserialize;

const LAYOUT_KEY: &str = "layout";
/// The layout this program writes.
pub(super) const LAYOUT: u32 = 4;
/// The trees of layout 1.
const LEGACY: [&str; 3] = ["games", "challenges", "users"];
/// Records copied per atomic batch.
const CHUNK: usize = 1000;

/// What the upgrade needs of the sled store. A trait, so that this file does not name the
/// store that runs the upgrade when it opens (`sled_store.rs` implements it).
pub(super) trait Upgradable {
    /// The sled database: its tree names, the legacy trees.
    fn db(&self) -> &sled::Db;
    /// A `u32` kept in `meta` under `key` (the layout), if any.
    fn read_meta(&self, key: &str) -> Result<Option<u32>, StoreError>;
    /// Applies `batch` atomically.
    fn write(&self, batch: Batch) -> Result<(), StoreError>;
    /// Makes everything written so far durable.
    fn make_durable(&self) -> Result<(), StoreError>;
    /// Counts every band of the counted trees anew; returns how many records it read.
    fn recount(&self) -> Result<usize, StoreError>;
}

/// Brings the database to the current layout; `now` (unix seconds) starts the expiry clocks
/// of closed challenges and claims found in layout 1.
pub(super) fn upgrade(store: &impl Upgradable, now: u64) -> Result<(), StoreError> {
    let names = store.db().tree_names();
    let legacy: Vec<&str> = LEGACY
        .into_iter()
        .filter(|n| names.iter().any(|t| t.as_ref() == n.as_bytes()))
        .collect();
    let found = store.read_meta(LAYOUT_KEY)?;
    match found {
        Some(found) if found > LAYOUT => {
            return Err(StoreError::Layout {
                found,
                known: LAYOUT,
            })
        }
        Some(LAYOUT) => {}
        _ => {
            if found.is_none() && !legacy.is_empty() {
                copy_layout1(store, &legacy, now)?;
            }
            // Before the layout is recorded: a crash part-way counts again at next open.
            let rows = store.recount()?;
            tracing::info!(rows, "leaderboard bands counted");
            let mut batch = Batch::new();
            batch.put(Tree::Meta, LAYOUT_KEY, &LAYOUT)?;
            store.write(batch)?;
            store.make_durable()?;
        }
    }
    // Left over only by a crash between recording the layout and dropping them.
    for name in legacy {
        store.db().drop_tree(name)?;
    }
    Ok(())
}

fn copy_layout1(store: &impl Upgradable, legacy: &[&str], now: u64) -> Result<(), StoreError> {
    let started = std::time::Instant::now();
    let mut copied = 0usize;
    for &name in legacy {
        let mut batch = Batch::new();
        for item in store.db().open_tree(name)?.iter() {
            let (key, bytes) = item?;
            let key = String::from_utf8_lossy(&key).into_owned();
            place(&mut batch, name, &key, bytes.to_vec(), now);
            copied += 1;
            if batch.len() >= CHUNK {
                store.write(std::mem::take(&mut batch))?;
            }
        }
        store.write(batch)?;
    }
    store.make_durable()?;
    let ms = started.elapsed().as_millis() as u64;
    tracing::info!(
        records = copied,
        ms,
        "store upgraded from layout 1 to layout 2"
    );
    Ok(())
}

/// Where a layout-1 record goes in layout 2.
fn place(batch: &mut Batch, legacy: &str, key: &str, bytes: Vec<u8>, now: u64) {
    let put = |batch: &mut Batch, tree: Tree, key: &str, bytes: Vec<u8>| {
        batch.put_bytes(tree, key, bytes, Expect::Any, None);
    };
    match legacy {
        // An undecodable record stays with the live ones, where start-up logs and skips it
        // as it always did.
        "games" if status(&bytes).is_none_or(|s| s == "ongoing") => {
            put(batch, Tree::Games, key, bytes)
        }
        "games" => put(batch, Tree::Archive, key, bytes),
        "challenges" if status(&bytes).is_none_or(|s| s == "open") => {
            put(batch, Tree::Challenges, key, bytes)
        }
        "challenges" => {
            put(batch, Tree::ClosedChallenges, key, bytes);
            batch.expire_at(Tree::ClosedChallenges, key, now + CLOSED_CHALLENGE_TTL_SECS);
        }
        _ => match (key.strip_prefix('@'), key.strip_prefix("claim:")) {
            (Some(handle), _) => put(batch, Tree::Handles, handle, bytes),
            (_, Some(claim)) => {
                put(batch, Tree::Claims, claim, bytes);
                batch.expire_at(Tree::Claims, claim, now + CLAIM_TTL_SECS);
            }
            _ => put(batch, Tree::Settings, key, bytes),
        },
    }
}

/// The `status` of a layout-1 game or challenge record when it is a plain word (`ongoing`,
/// `open`, `declined`...); `Some("")` for a structured one (`{"finished": ..}`), `None` if
/// the record does not decode.
fn status(bytes: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct Rec {
        data: WithStatus,
    }
    #[derive(Deserialize)]
    struct WithStatus {
        status: serde_json::Value,
    }
    let rec: Rec = serde_json::from_slice(bytes).ok()?;
    Some(rec.data.status.as_str().unwrap_or_default().to_string())
}
