//! `toguz puzzle` in the terminal, on a collection of its own (`--puzzles FILE`): a puzzle
//! solved, one left mid-line and finished after a restart, one missed, and the stats.

use super::run_command;
use std::path::Path;
use std::process::{Command, Stdio};

/// White to move; the line is 9.
const ONE_MOVE: &str = r#"{"id":"p11441970ae","position":"3,2,15,2,16,x,3,15,14/14,2,1,14,2,3,2,1,4 38/11 w 6","solution":"9","themes":["capture"],"rating":1300.0,"score":500,"gap":600,"depth":10,"effort":20,"game":"test"}"#;
/// Black to move; the line is 5, White's answer 3, then 6.
const TWO_MOVES: &str = r#"{"id":"p7c21ec94de","position":"4,2,14,1,1,16,3,x,7/1,5,1,3,14,14,2,5,2 40/27 b 10","solution":"536","themes":["capture"],"rating":1500.0,"score":500,"gap":600,"depth":10,"effort":20,"game":"test"}"#;

/// `toguz puzzle` on the store in `dir` with the collection `puzzles`, fed `input`.
fn run_puzzle(dir: &Path, puzzles: &str, input: &str) -> String {
    let file = dir.join("collection.jsonl");
    std::fs::write(&file, format!("{puzzles}\n")).unwrap();
    let file = file.to_str().unwrap();
    let args = ["--puzzles", file, "--lang", "en"];
    let (stdout, stderr, ok) = run_command("puzzle", &dir.join("db"), &args, input);
    assert!(ok, "{stdout}\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stdout
}

#[test]
fn puzzles_are_solved_missed_and_resumed_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();

    // The puzzle starts at once; its one move solves it.
    let out = run_puzzle(dir.path(), ONE_MOVE, "9\npuzzle stats\n");
    assert!(out.contains("Your move (White)"), "{out}");
    assert!(out.contains("✅ Solved!"), "{out}");
    assert!(
        out.contains("themes: capture"),
        "the theme once solved:\n{out}"
    );
    assert!(out.contains("Solved 1, missed 0"), "{out}");

    // A two-move line, left after the first move and its reply...
    let out = run_puzzle(dir.path(), TWO_MOVES, "5\n");
    assert!(out.contains("Your move (Black)"), "{out}");
    assert!(out.contains("White replied with pit 3."), "{out}");
    assert!(!out.contains("Solved!"), "{out}");
    // ...is the same puzzle, at the same move, when the terminal starts again.
    let out = run_puzzle(dir.path(), TWO_MOVES, "6\npuzzle stats\n");
    assert!(out.contains("✅ Solved!"), "{out}");
    assert!(out.contains("Solved 2, missed 0"), "{out}");

    // Every puzzle seen: the collection starts over; a wrong move ends the attempt with the
    // solution shown.
    let out = run_puzzle(dir.path(), TWO_MOVES, "1\npuzzle stats\n");
    assert!(out.contains("❌ Not pit 1: the move was pit 5."), "{out}");
    assert!(out.contains("Solved 2, missed 1"), "{out}");
}

#[test]
fn a_collection_that_is_not_one_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.jsonl");
    std::fs::write(&file, "not json\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_toguz"))
        .arg("puzzle")
        .arg("--data-dir")
        .arg(dir.path().join("db"))
        .arg("--puzzles")
        .arg(&file)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.jsonl") && err.contains("line 1"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Issue 49: the puzzle console speaks of puzzles: its first screen says nothing of a game
/// against the bot, and its help lists the puzzle's commands, not a game's (resign, draw,
/// hint, review); in Russian too.
#[test]
fn the_puzzle_console_has_its_own_words() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_puzzle(dir.path(), TWO_MOVES, "help\n");
    let first = out.lines().next().unwrap_or_default();
    assert!(first.contains("Puzzles"), "{out}");
    assert!(!out.contains("against the bot"), "{out}");
    assert!(out.contains("puzzle daily"), "{out}");
    for game_command in ["resign", "draw", "hint", "review", "record"] {
        assert!(
            !out.lines()
                .any(|l| l.trim_start().starts_with(game_command)),
            "{game_command} in the puzzle's help:\n{out}"
        );
    }
    assert!(out.contains("Your puzzles are saved"), "{out}");

    let file = dir.path().join("collection.jsonl");
    let args = ["--puzzles", file.to_str().unwrap(), "--lang", "ru"];
    let (out, _, ok) = run_command("puzzle", &dir.path().join("db"), &args, "help\n");
    assert!(ok, "{out}");
    assert!(out.contains("Задачи из сыгранных партий"), "{out}");
    assert!(!out.contains("с ботом"), "{out}");
    assert!(!out.contains("resign"), "{out}");
}
