-- Range reads of the index trees (a player's history, a leaderboard) walk keys in byte
-- order, whatever collation the database was created with: this index serves
-- `ORDER BY key COLLATE "C"` and its bounds.
CREATE INDEX IF NOT EXISTS toguz_records_key_bytes ON toguz_records (tree, key COLLATE "C");
