//! `toguz render` as a user runs it: text and PNG, to a file or standard output, and errors.

use super::{stderr, stdout};
use std::process::Output;
use toguz::render::layout;

/// `toguz render ARGS`.
fn toguz(args: &[&str], stdin: &str) -> Output {
    let mut all = vec!["render"];
    all.extend_from_slice(args);
    super::toguz(&all, stdin)
}

fn png_size(bytes: &[u8]) -> (u32, u32) {
    let decoder = ::png::Decoder::new(bytes);
    let reader = decoder.read_info().expect("a PNG");
    let info = reader.info();
    (info.width, info.height)
}

#[test]
fn text_board_after_moves_from_blacks_side() {
    let out = toguz(&["--moves", "1. 76", "--perspective", "black"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "  White · Store 10");
    assert_eq!(lines[4], "  10  10  10  10  10  (0)  9   9   9");
    assert_eq!(lines[6], "» Black · Store 0");
    assert_eq!(lines[7], "Last move: [7] → (6), captured 10");
}

#[test]
fn a_record_on_stdin_names_the_players() {
    let record = "[White \"Асель\"]\n[Black \"Aibek\"]\n\n1. 76 98 2. 66\n";
    let out = toguz(&["--moves", "-", "--lang", "kk", "--ascii"], record);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // The ASCII board cannot show "Асель": White's row falls back to the side's name.
    assert!(text.starts_with("> Aibek (Қара) - Қазан 0\n"), "{text}");
    assert!(text.contains("\n  Ақ - Қазан 10\n"), "{text}");
}

#[test]
fn png_to_a_file_and_to_a_pipe() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("board.png");
    let file = path.to_str().expect("utf-8 path");
    let out = toguz(&["--moves", "7 9", "--format", "png", "-o", file], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let written = std::fs::read(&path).expect("PNG written");
    assert_eq!(png_size(&written), (layout::WIDTH, layout::HEIGHT));

    let piped = toguz(&["--moves", "7 9", "--format", "png"], "");
    assert!(piped.status.success(), "{}", stderr(&piped));
    assert_eq!(piped.stdout, written, "stdout and file get the same bytes");
}

#[test]
fn bad_input_is_a_clear_error_not_a_panic() {
    for args in [
        &["--position", "9,9,9/9 0/0 w 1"][..],
        &["--moves", "1. 76 12"][..],
        &["--moves", "hello"][..],
        &["--position", "x", "--moves", "7"][..],
    ] {
        let out = toguz(args, "");
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.trim().is_empty(), "{args:?}: no message");
    }
    let out = toguz(&["-o", "/nonexistent-dir/board.txt"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot write /nonexistent-dir/board.txt"));
}
