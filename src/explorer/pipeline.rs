//! Record files into the explorer with both cores: each chunk of records is checked and
//! counted out (`prepare`, the replay) on a blocking thread while the chunk before it is
//! written (`import_games`), so the import's two halves overlap.

use super::import::{import_games, prepare, Imported, Prepared, Refusal};
use super::Source;
use crate::rules::{parse_records, Record};
use crate::store::{Store, StoreError};

/// A record as read from its file: the file's name, its first line, and the record or why
/// it does not parse.
pub type ReadRecord = (String, usize, Result<Record, Refusal>);

/// The records of `texts` (file name, text), `size` at a time.
pub fn record_chunks(texts: &[(String, String)], size: usize) -> Vec<Vec<ReadRecord>> {
    let size = size.max(1);
    let mut chunks = Vec::new();
    let mut current = Vec::with_capacity(size);
    for (file, text) in texts {
        for parsed in parse_records(text) {
            let line = parsed.as_ref().map_or(0, |r| r.first_line);
            let record = parsed.map_err(|e| Refusal::Parse(e.to_string()));
            current.push((file.clone(), line, record));
            if current.len() == size {
                chunks.push(std::mem::replace(&mut current, Vec::with_capacity(size)));
            }
        }
    }
    if !current.is_empty() {
        chunks.push(current);
    }
    chunks
}

type Checked = Vec<(String, usize, Result<Prepared, Refusal>)>;

fn check_chunk(records: Vec<ReadRecord>) -> Checked {
    records
        .into_iter()
        .map(|(file, line, record)| {
            let game = record.and_then(|r| prepare(&r, Source::Masters));
            (file, line, game)
        })
        .collect()
}

/// Imports `chunks` as masters' games, one durable write per chunk; `seen` is told of each
/// record (file, line, and the game or why it is refused) as its chunk is written.
pub async fn import_pipelined(
    store: &Store,
    chunks: Vec<Vec<ReadRecord>>,
    mut seen: impl FnMut(&str, usize, &Result<Prepared, Refusal>),
) -> Result<Imported, StoreError> {
    let mut chunks = chunks.into_iter();
    let check = |c: Vec<ReadRecord>| tokio::task::spawn_blocking(move || check_chunk(c));
    let mut checking = chunks.next().map(check);
    let mut total = Imported::default();
    while let Some(running) = checking.take() {
        let checked = running
            .await
            .map_err(|e| StoreError::Database(format!("a check of records stopped: {e}")))?;
        checking = chunks.next().map(check);
        let mut games = Vec::with_capacity(checked.len());
        for (file, line, game) in checked {
            seen(&file, line, &game);
            games.extend(game.ok());
        }
        let done = import_games(store, &games).await?;
        total.added += done.added;
        total.already += done.already;
    }
    Ok(total)
}
