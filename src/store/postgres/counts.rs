//! The band counts on PostgreSQL (`bands.rs`): the table `toguz_counts (tree, band, n)`
//! (migration V4), moved in the transaction of the records it counts.

use super::{fail, int, run_op, Fail};
use crate::store::bands::{band, Deltas};
use crate::store::batch::{Expect, Op};
use deadpool_postgres::GenericClient;

/// Whether `op` writes a record of a counted tree: its batch then needs a transaction,
/// even alone, for the count to land with it.
pub(super) fn counted(op: &Op) -> bool {
    match op {
        Op::Put { tree, key, .. } | Op::Delete { tree, key, .. } => band(*tree, key).is_some(),
        _ => false,
    }
}

/// Runs `op`, noting in `deltas` whether its tree gained or lost a record.
pub(super) async fn run<C: GenericClient>(
    client: &C,
    op: &Op,
    deltas: &mut Deltas,
) -> Result<(), Fail> {
    if !counted(op) {
        return run_op(client, op).await.map(drop);
    }
    match op {
        Op::Put {
            tree,
            key,
            value,
            expect: Expect::Any,
            revision,
        } => {
            // An upsert does not say whether it inserted: insert if absent, and only when
            // the key was there, write over it.
            let sql = "INSERT INTO toguz_records (tree, key, value, revision) \
                       VALUES ($1, $2, $3, $4) ON CONFLICT (tree, key) DO NOTHING";
            let statement = client.prepare_cached(sql).await.map_err(fail)?;
            let rev = int(revision.unwrap_or(1));
            let params: [&(dyn tokio_postgres::types::ToSql + Sync); 4] =
                [&tree.name(), key, value, &rev];
            let inserted = client.execute(&statement, &params).await.map_err(fail)?;
            if inserted == 1 {
                deltas.add(*tree, key, 1);
                return Ok(());
            }
            run_op(client, op).await.map(drop)
        }
        Op::Put {
            tree,
            key,
            expect: Expect::Absent,
            ..
        } => {
            // It fails the batch unless it inserted.
            run_op(client, op).await?;
            deltas.add(*tree, key, 1);
            Ok(())
        }
        Op::Delete { tree, key, .. } => {
            let gone = run_op(client, op).await?;
            deltas.add(*tree, key, -i64::try_from(gone).unwrap_or(0));
            Ok(())
        }
        // A put at an expected revision finds the record there: the count stays.
        _ => run_op(client, op).await.map(drop),
    }
}

/// Adds a transaction's changes to the counts, in band order.
pub(super) async fn add<C: GenericClient>(client: &C, deltas: &Deltas) -> Result<(), Fail> {
    let sql = "INSERT INTO toguz_counts (tree, band, n) VALUES ($1, $2, $3) \
               ON CONFLICT (tree, band) DO UPDATE SET n = toguz_counts.n + excluded.n";
    let mut statement = None;
    for (tree, band, n) in deltas.changes() {
        let prepared = match &statement {
            Some(s) => s,
            None => statement.insert(client.prepare_cached(sql).await.map_err(fail)?),
        };
        client
            .execute(prepared, &[&tree.name(), &band, &n])
            .await
            .map_err(fail)?;
    }
    Ok(())
}

/// The sum of the counts of `tree`'s bands from `prefix` up to (not including) `before`.
pub(super) const SUM_SQL: &str = "SELECT coalesce(sum(n), 0)::BIGINT FROM toguz_counts \
     WHERE tree = $1 AND band >= $2 AND band < $3";
