//! `toguz store copy`: every record of every tree from one store into another, as stored
//! (the same envelope bytes, revision and expiry time), so a deployment moves between sled
//! and PostgreSQL with its games, challenges, settings, handles, claims and secrets (the
//! key that signs Telegram's buttons lives in `Meta`: old buttons keep working).

use super::{Store, StoreError, Tree};

/// Records written per batch.
const CHUNK: usize = 500;

/// How many records of each tree were copied.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Copied(pub Vec<(Tree, usize)>);

impl Copied {
    pub fn total(&self) -> usize {
        self.0.iter().map(|(_, n)| n).sum()
    }
}

/// Copies every tree of `from` into `to`, replacing records with the same key; the target
/// keeps records the source does not have. Durable in `to` when it returns.
pub async fn copy_all(from: &Store, to: &Store) -> Result<Copied, StoreError> {
    let mut copied = Copied::default();
    for tree in Tree::ALL {
        let records = from.export(tree).await?;
        for chunk in records.chunks(CHUNK) {
            to.import(tree, chunk).await?;
        }
        tracing::info!(tree = tree.name(), records = records.len(), "tree copied");
        copied.0.push((tree, records.len()));
    }
    Ok(copied)
}
