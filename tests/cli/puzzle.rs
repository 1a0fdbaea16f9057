//! `toguz puzzle generate` and `toguz puzzle export` as an operator runs them: a run mined
//! in two slices (the second resumes where the first stopped), what the file holds, both
//! export formats, and the errors of a missing or corrupt file.

use super::{stderr, stdout, toguz};
use serde_json::Value;
use std::collections::HashSet;
use std::path::Path;
use toguz::rules::Position;

const GAMES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/championships-kz-2018.pgn"
);

/// `toguz puzzle generate` of `n` more games into `out`, shallow enough for a test.
fn generate(out: &Path, n: usize) -> std::process::Output {
    let out = out.to_str().unwrap();
    let n = n.to_string();
    let args = [
        "puzzle", "generate", GAMES, "-o", out, "--depth", "6", "--games", &n, "--every", "1",
    ];
    toguz(&args, "")
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Plays a puzzle's whole solution from its position: every move is legal and the solver
/// moves first and last.
fn check_solution(puzzle: &Value) {
    let fen = puzzle["position"].as_str().unwrap();
    let mut pos = Position::from_fen(fen).unwrap();
    let solution = puzzle["solution"].as_str().unwrap();
    assert!(
        (1..=9).contains(&solution.len()) && solution.len() % 2 == 1,
        "{puzzle}"
    );
    // No puzzle from the first 10 plies: the move number is past 5.
    let move_number: u32 = fen.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(move_number > 5, "{puzzle}");
    for digit in solution.chars() {
        let pit = digit.to_digit(10).unwrap() as u8;
        pos.play(pit)
            .unwrap_or_else(|e| panic!("{puzzle}: {pit}: {e}"));
    }
}

#[test]
fn generate_mines_in_slices_that_resume_and_export_lists_every_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("puzzles.jsonl");
    let done = dir.path().join("puzzles.jsonl.done");

    let first = generate(&out, 2);
    assert!(first.status.success(), "{}", stderr(&first));
    // Without a terminal, a plain progress line a game, then the run's totals.
    let err = format!("{}{}", stdout(&first), stderr(&first));
    assert!(
        err.contains("games 1/") && err.contains("games 2/"),
        "{err}"
    );
    assert_eq!(lines(&done).len(), 2, "two games mined");
    let after_first = lines(&out);

    let second = generate(&out, 2);
    assert!(second.status.success(), "{}", stderr(&second));
    assert_eq!(
        lines(&done).len(),
        4,
        "the next two games, not the first two again"
    );
    let all = lines(&out);
    assert_eq!(&all[..after_first.len()], &after_first[..], "appended only");
    assert!(!all.is_empty(), "four championship games hold puzzles");

    let mut ids = HashSet::new();
    let mut positions = HashSet::new();
    for line in &all {
        let puzzle: Value = serde_json::from_str(line).unwrap();
        assert!(
            ids.insert(puzzle["id"].as_str().unwrap().to_string()),
            "{line}"
        );
        assert!(positions.insert(puzzle["position"].to_string()), "{line}");
        let rating = puzzle["rating"].as_f64().unwrap();
        assert!((600.0..=2500.0).contains(&rating), "{line}");
        assert!(puzzle["themes"].is_array(), "{line}");
        assert_eq!(puzzle["depth"], 6, "{line}");
        check_solution(&puzzle);
    }

    // --json: the same objects, one a line.
    let json = toguz(&["puzzle", "export", "--json", out.to_str().unwrap()], "");
    assert!(json.status.success(), "{}", stderr(&json));
    let exported: Vec<Value> = stdout(&json)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let stored: Vec<Value> = all
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let key = |v: &Value| v["id"].as_str().unwrap().to_string();
    let mut exported_ids: Vec<String> = exported.iter().map(key).collect();
    let mut stored_ids: Vec<String> = stored.iter().map(key).collect();
    exported_ids.sort();
    stored_ids.sort();
    assert_eq!(exported_ids, stored_ids);
    for puzzle in &exported {
        let same = stored.iter().find(|s| s["id"] == puzzle["id"]).unwrap();
        for field in ["position", "solution", "themes", "rating"] {
            assert_eq!(puzzle[field], same[field], "{field}");
        }
    }

    // Text: a line a puzzle naming its id, solution and position.
    let text = toguz(&["puzzle", "export", out.to_str().unwrap()], "");
    assert!(text.status.success(), "{}", stderr(&text));
    let text = stdout(&text);
    assert_eq!(text.lines().count(), stored.len(), "{text}");
    for puzzle in &stored {
        let line = text
            .lines()
            .find(|l| l.contains(puzzle["id"].as_str().unwrap()))
            .unwrap_or_else(|| panic!("{puzzle} in {text}"));
        assert!(
            line.contains(puzzle["solution"].as_str().unwrap()),
            "{line}"
        );
        assert!(
            line.contains(puzzle["position"].as_str().unwrap()),
            "{line}"
        );
    }
}

#[test]
fn a_missing_or_corrupt_collection_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nothing.jsonl");
    let out = toguz(&["puzzle", "export", missing.to_str().unwrap()], "");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("nothing.jsonl"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));

    let corrupt = dir.path().join("corrupt.jsonl");
    let good = toguz::puzzle::SHIPPED.lines().next().unwrap();
    std::fs::write(
        &corrupt,
        format!("{good}\n{{\"id\": \"p1\", \"solution\": 5\n"),
    )
    .unwrap();
    let out = toguz(&["puzzle", "export", corrupt.to_str().unwrap()], "");
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("line 2"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    // Mining needs an output file, and a record file that exists.
    let out = toguz(&["puzzle", "generate", GAMES], "");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--output"), "{}", stderr(&out));
    let target = dir.path().join("p.jsonl");
    let no_games = dir.path().join("no-such.pgn");
    let args = [
        "puzzle",
        "generate",
        no_games.to_str().unwrap(),
        "-o",
        target.to_str().unwrap(),
    ];
    let out = toguz(&args, "");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("no-such.pgn"), "{}", stderr(&out));
}

/// Issue 49: `toguz puzzle export` without a file lists the collection `toguz puzzle`
/// plays (the shipped one), not a `./puzzles.jsonl` nobody made.
#[test]
fn export_without_a_file_lists_the_shipped_collection() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_toguz"))
        .args(["puzzle", "export", "--json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let shipped: Vec<&str> = toguz::puzzle::SHIPPED
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect();
    let listed = stdout(&out);
    assert_eq!(listed.lines().count(), shipped.len());
    let ids = |text: &str| -> HashSet<String> {
        text.lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["id"].to_string())
            .collect()
    };
    assert_eq!(ids(&listed), ids(&shipped.join("\n")));
}

/// Issue 49: `toguz puzzle --help` offers what a puzzle uses, not a game's options.
#[test]
fn puzzle_help_lists_only_what_puzzles_use() {
    let out = toguz(&["puzzle", "--help"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let help = stdout(&out);
    for option in ["--puzzles", "--lang", "--data-dir", "--config"] {
        assert!(help.contains(option), "{option} missing:\n{help}");
    }
    for option in [
        "--white",
        "--black",
        "--clock",
        "--variant",
        "--colour",
        "--level",
    ] {
        assert!(!help.contains(option), "{option} listed:\n{help}");
    }
}
