-- How many leaderboard rows each rating band holds (src/store/bands.rs), kept in the
-- transaction of the rows themselves, so that a player's place is found without counting
-- every row above them. `band` compares as bytes, as the keys do.
CREATE TABLE IF NOT EXISTS toguz_counts (
    tree TEXT NOT NULL,
    band TEXT COLLATE "C" NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (tree, band)
);

-- The rows already there. A key's band is the key up to its last `|` less four characters
-- (the key itself when it has no such digits), as bands.rs has it.
INSERT INTO toguz_counts (tree, band, n)
SELECT tree, band, count(*) FROM (
    SELECT tree,
        CASE WHEN char_length(key) - strpos(reverse(key), '|') >= 4
                AND strpos(reverse(key), '|') > 0
            THEN left(key, char_length(key) - strpos(reverse(key), '|') - 4)
            ELSE key
        END AS band
    FROM toguz_records WHERE tree = 'ratings.board'
) AS rows
GROUP BY tree, band
ON CONFLICT (tree, band) DO UPDATE SET n = excluded.n;

-- An older toguz would write leaderboard rows without counting them.
UPDATE toguz_schema SET value = 4 WHERE name = 'oldest_reader' AND value < 4;
