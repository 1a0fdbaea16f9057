//! `toguz swiss pair` as a user runs it: a reference tournament's next round, and errors.

use super::{stderr, stdout, toguz};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/swiss");

#[test]
fn pairs_a_reference_tournament_as_the_reference_engine_does() {
    let file = format!("{DATA}/1000.trf");
    let out = toguz(&["swiss", "pair", &file], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let want = std::fs::read_to_string(format!("{DATA}/1000.pairs")).expect("1000.pairs");
    assert_eq!(stdout(&out).trim_end(), want.trim_end());
}

#[test]
fn reads_standard_input_and_prints_the_bye_last() {
    // 1011 has an odd number of players: the last line is the bye, `N 0`.
    let text = std::fs::read_to_string(format!("{DATA}/1011.trf")).expect("1011.trf");
    let out = toguz(&["swiss", "pair", "-"], &text);
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = stdout(&out);
    let want = std::fs::read_to_string(format!("{DATA}/1011.pairs")).expect("1011.pairs");
    assert_eq!(printed.trim_end(), want.trim_end());
    assert!(printed.trim_end().ends_with(" 0"), "{printed}");
}

#[test]
fn a_malformed_file_is_a_one_line_error() {
    let out = toguz(&["swiss", "pair", "-"], "001    1      too short\n");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("not a valid TRF file") && err.contains("line 1"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(stdout(&out).is_empty());
}

#[test]
fn a_finished_tournament_cannot_be_paired() {
    let text = std::fs::read_to_string(format!("{DATA}/1000.trf")).expect("1000.trf");
    // 1000 has played 8 rounds; say the event had 8.
    let finished = text.replace("XXR 9", "XXR 8");
    let out = toguz(&["swiss", "pair", "-"], &finished);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("all 8 rounds have been played"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_missing_file_is_named() {
    let out = toguz(&["swiss", "pair", "/nonexistent/event.trf"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("/nonexistent/event.trf"),
        "{}",
        stderr(&out)
    );
}
