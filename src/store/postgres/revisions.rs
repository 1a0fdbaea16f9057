//! Revisions without values on PostgreSQL: whether a record changed, read cheaply (the
//! manager checks a held copy against it; live web pages poll their games with it).

use super::{uint, PgStore};
use crate::store::{StoreError, Tree};

impl PgStore {
    pub(in crate::store) async fn revision(
        &self,
        tree: Tree,
        key: &str,
    ) -> Result<Option<u64>, StoreError> {
        let rows = self
            .query_within(
                self.read_timeout,
                "SELECT revision FROM toguz_records WHERE tree = $1 AND key = $2",
                &[&tree.name(), &key],
            )
            .await?;
        Ok(rows.first().map(|row| uint(row.get(0))))
    }

    /// The revisions of `keys`, in their order (`None`: absent), in one query.
    pub(in crate::store) async fn revisions_of(
        &self,
        tree: Tree,
        keys: &[String],
    ) -> Result<Vec<Option<u64>>, StoreError> {
        let rows = self
            .query_within(
                self.read_timeout,
                "SELECT key, revision FROM toguz_records WHERE tree = $1 AND key = ANY($2)",
                &[&tree.name(), &keys],
            )
            .await?;
        let found: std::collections::HashMap<String, u64> = rows
            .iter()
            .map(|row| (row.get(0), uint(row.get(1))))
            .collect();
        Ok(keys.iter().map(|k| found.get(k).copied()).collect())
    }

    /// The records `keys` hold with their revisions (`None`: absent), in their order: one
    /// query however many keys (the explorer's import reads a chunk's rows at once).
    pub(in crate::store) async fn get_many(
        &self,
        tree: Tree,
        keys: &[String],
    ) -> Result<Vec<Option<(Vec<u8>, u64)>>, StoreError> {
        let rows = self
            .query_within(
                self.read_timeout,
                "SELECT key, value, revision FROM toguz_records WHERE tree = $1 AND key = ANY($2)",
                &[&tree.name(), &keys],
            )
            .await?;
        let mut found: std::collections::HashMap<String, (Vec<u8>, u64)> = rows
            .iter()
            .map(|row| (row.get(0), (row.get(1), uint(row.get(2)))))
            .collect();
        Ok(keys.iter().map(|k| found.remove(k)).collect())
    }

    /// Every key of a tree with its revision, values not read.
    pub(in crate::store) async fn revisions(
        &self,
        tree: Tree,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        let rows = self
            .query(
                "SELECT key, revision FROM toguz_records WHERE tree = $1 ORDER BY key",
                &[&tree.name()],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|row| (row.get(0), uint(row.get(1))))
            .collect())
    }
}
