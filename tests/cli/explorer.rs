//! `toguz explorer import` and `toguz explorer` as an operator runs them: records counted
//! (a corrupt one refused with its reason), a second import skipping what is in, the table
//! and its JSON, filters by source and player, and usage errors.

use super::{stderr, stdout, toguz};
use serde_json::Value;

const GAMES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/championships-kz-2018.pgn"
);

const CORRUPT: &str = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. 71 98 1-0\n\n\
[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1. 76 98 *\n";

fn json(args: &[&str]) -> Value {
    let out = toguz(args, "");
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

#[test]
fn import_counts_refuses_and_skips_then_shows_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("store");
    let data = data.to_str().unwrap();
    let bad = dir.path().join("bad.pgn");
    std::fs::write(&bad, CORRUPT).unwrap();
    let bad = bad.to_str().unwrap();

    let out = toguz(&["explorer", "import", "--data-dir", data, GAMES, bad], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    // The file holds three games twice (the same moves and players): counted once.
    assert!(
        err.contains("took 739 games, skipped 3 already in, refused 2"),
        "{err}"
    );
    assert!(err.contains("1 refused: breaks the rules"), "{err}");
    assert!(err.contains("1 refused: no result"), "{err}");
    assert!(
        err.contains("bad.pgn:1: breaks the rules: A - B: line 5: move 1. 71"),
        "{err}"
    );

    // Again: everything is in already; the sizes are those of the store as it is.
    let out = toguz(
        &["explorer", "import", "--sizes", "--data-dir", data, GAMES],
        "",
    );
    let err = stderr(&out);
    assert!(
        err.contains("took 0 games, skipped 742 already in, refused 0"),
        "{err}"
    );
    assert!(err.contains("explorer.games: 739 records, "), "{err}");
    for line in [
        "bytes gzip-compressed",
        "explorer trees: ",
        "store directory: ",
    ] {
        assert!(err.contains(line), "{line}: {err}");
    }

    let start = json(&["explorer", "--data-dir", data, "--json"]);
    assert_eq!(start["games"], 739);
    let moves = start["moves"].as_array().unwrap();
    let sum: u64 = moves.iter().map(|m| m["games"].as_u64().unwrap()).sum();
    assert_eq!(sum, 739);
    // Best-played first, each with its results adding up.
    for pair in moves.windows(2) {
        assert!(pair[0]["games"].as_u64() >= pair[1]["games"].as_u64());
    }
    for m in moves {
        let parts = ["white", "draws", "black"].map(|k| m[k].as_u64().unwrap());
        assert_eq!(
            parts.iter().sum::<u64>(),
            m["games"].as_u64().unwrap(),
            "{m}"
        );
    }
    // The most played first move, then the position after it.
    let best = moves[0]["pit"].as_u64().unwrap().to_string();
    let after = json(&["explorer", "--data-dir", data, "--moves", &best, "--json"]);
    assert_eq!(after["games"], moves[0]["games"]);
    let masters = json(&[
        "explorer",
        "--data-dir",
        data,
        "--source",
        "masters",
        "--json",
    ]);
    assert_eq!(masters["games"], 739);
    let club = json(&["explorer", "--data-dir", data, "--source", "club", "--json"]);
    assert_eq!(club["games"], 0);
    // Another variant's games never mix with the standard game's: none were imported.
    let five = json(&["explorer", "--data-dir", data, "--variant", "5", "--json"]);
    assert_eq!(five["games"], 0);
    let player = "player:Кажгалиев Темірлан";
    let one = json(&["explorer", "--data-dir", data, "--source", player, "--json"]);
    assert!(one["games"].as_u64().unwrap() > 0, "{one}");

    let table = toguz(&["explorer", "--data-dir", data, "--moves", &best], "");
    let text = stdout(&table);
    assert!(
        text.starts_with(&format!("{} games\n", after["games"])),
        "{text}"
    );
    assert!(text.contains("pit   games  white  draws  black"), "{text}");
}

#[test]
fn bad_moves_and_sources_are_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let out = toguz(&["explorer", "--data-dir", data, "--moves", "7 x"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("move 2: \"x\" is not a pit"),
        "{}",
        stderr(&out)
    );
    let out = toguz(&["explorer", "--data-dir", data, "--source", "friends"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is not a source"), "{}", stderr(&out));
    let out = toguz(&["explorer", "--data-dir", data, "--variant", "many"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is not a variant"),
        "{}",
        stderr(&out)
    );
}
