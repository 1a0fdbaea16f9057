-- Every tree of the store in one table, keyed by (tree, key): a new tree needs no migration.
-- `revision` counts the record's changes: writes compare-and-set on it. `expires_at` (unix
-- seconds) is when the sweeper deletes the record. Only SQL CockroachDB accepts too.
CREATE TABLE IF NOT EXISTS toguz_records (
    tree TEXT NOT NULL,
    key TEXT NOT NULL,
    value BYTEA NOT NULL,
    revision BIGINT NOT NULL,
    expires_at BIGINT,
    PRIMARY KEY (tree, key)
);

CREATE INDEX IF NOT EXISTS toguz_records_expiry ON toguz_records (expires_at)
    WHERE expires_at IS NOT NULL;
