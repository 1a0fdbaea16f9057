//! Several records read at once by key (the explorer's import reads a chunk's rows so).

use super::{decode, Backend, Store, StoreError, Tree, Versioned};
use serde::de::DeserializeOwned;

impl Store {
    /// The records `keys` hold with their revisions (`None`: absent or undecodable, which is
    /// logged), in their order: one read however many keys.
    pub async fn get_many<T: DeserializeOwned>(
        &self,
        tree: Tree,
        keys: &[String],
    ) -> Result<Vec<Option<Versioned<T>>>, StoreError> {
        self.count_read();
        let raw = match &self.backend {
            Backend::Sled(s) => keys
                .iter()
                .map(|k| s.get_bytes(tree, k))
                .collect::<Result<Vec<_>, _>>()?,
            Backend::Postgres(pg) => pg.get_many(tree, keys).await?,
        };
        Ok(raw
            .into_iter()
            .zip(keys)
            .map(|(found, key)| {
                let (bytes, revision) = found?;
                match decode(tree, key, &bytes) {
                    Ok(value) => Some(Versioned { value, revision }),
                    Err(error) => {
                        tracing::error!(tree = tree.name(), key, %error, "undecodable record skipped");
                        None
                    }
                }
            })
            .collect())
    }
}
