//! What can go wrong in the store, and the kinds of it a user is told apart.

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot open the store at {path}: {reason}")]
    Open { path: String, reason: String },
    #[error("storage error: {0}")]
    Sled(#[from] sled::Error),
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
    /// A database error; the text never holds the connection's password.
    #[error("database error: {0}")]
    Database(String),
    #[error("cannot migrate the database schema: {0}")]
    Migrate(String),
    #[error("cannot encode a {tree} record: {source}")]
    Encode {
        tree: &'static str,
        source: serde_json::Error,
    },
    #[error("record {key:?} in {tree}: {reason}")]
    Decode {
        tree: &'static str,
        key: String,
        reason: String,
    },
    /// A conditional write found another revision (or a record where none was expected):
    /// another process changed the record since it was read. Nothing of the batch applied.
    #[error("record {key:?} in {tree} changed meanwhile")]
    Conflict { tree: &'static str, key: String },
    #[error(
        "the database schema is at version {found}, made by a newer toguz, and needs one that \
         knows version {needs} or later (this one knows {known}): upgrade toguz"
    )]
    SchemaTooNew { found: i64, known: i64, needs: i64 },
    #[error("the store has layout {found}, newer than this program knows ({known})")]
    Layout { found: u32, known: u32 },
    /// The write did not become durable within the bound and was undone (sled), or a
    /// database call got no answer before anything was committed: nothing changed.
    #[error("the write did not reach the disk within {ms} ms")]
    CommitTimeout { ms: u64 },
    /// The database could not be reached (refused, dropped, or silent) before anything of
    /// the call was committed: nothing changed; trying again later may work.
    #[error("the database is not reachable: {0}")]
    Unavailable(String),
    /// A write was sent to be committed (`COMMIT`, or a statement that commits by itself)
    /// and no answer came: it may or may not be stored. Only reading it again tells.
    #[error("the database did not confirm a write within {ms} ms: it may or may not be stored")]
    OutcomeUnknown { ms: u64 },
    #[error("the store failed earlier and refuses writes: {cause}")]
    Failed { cause: String },
    #[error("the store is shut down")]
    Closed,
}

impl StoreError {
    /// What the caller can tell the user: whether the store was away (nothing changed, try
    /// again), a write's outcome is unknown, or something else went wrong.
    pub fn kind(&self) -> StoreErrorKind {
        match self {
            StoreError::CommitTimeout { .. } | StoreError::Unavailable(_) => StoreErrorKind::Away,
            StoreError::OutcomeUnknown { .. } => StoreErrorKind::OutcomeUnknown,
            _ => StoreErrorKind::Other,
        }
    }
}

/// The kinds of [`StoreError`] a user is told apart (both backends map to them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreErrorKind {
    /// The store could not be reached or did not answer in time, and nothing changed.
    Away,
    /// A write may or may not have been stored.
    OutcomeUnknown,
    /// Anything else (a corrupt record, a failed disk, a refused statement).
    Other,
}
