-- What an older toguz may do with this database (src/store/pg_schema.rs): `oldest_reader`
-- is the oldest schema version a binary may know and still use it. A migration that only
-- adds (a table, a column with a default, an index) leaves it; one that older binaries
-- cannot live with sets it to its own version in the same migration.
CREATE TABLE IF NOT EXISTS toguz_schema (
    name TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);

INSERT INTO toguz_schema (name, value) VALUES ('oldest_reader', 1)
    ON CONFLICT (name) DO NOTHING;
