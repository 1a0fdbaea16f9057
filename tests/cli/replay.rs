//! `toguz replay` and `toguz perft` as a user runs them: output, errors and exit codes.

use super::{stderr, stdout, toguz};

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn replays_bare_digits_and_move_text() {
    for input in ["7 9 6", "76 98 66", "1. 76 98 2. 66"] {
        let out = toguz(&["replay"], input);
        assert!(out.status.success(), "{input}: {}", stderr(&out));
        assert!(stdout(&out).contains("3 half-moves"), "{}", stdout(&out));
    }
}

#[test]
fn json_output_has_the_data_format() {
    let out = toguz(&["replay", "--json", "-"], "21 98");
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[0],
        serde_json::json!({"ply": 1, "move": "21",
            "pits": [[9,1,10,10,10,10,10,10,10],[0,9,9,9,9,9,9,9,9]],
            "kazans": [10, 0], "tuzdeks": [null, null], "to_move": "black", "result": null})
    );
    assert_eq!(lines[1]["to_move"], "white");
}

#[test]
fn a_wrong_landing_digit_is_reported_with_its_move_number() {
    let out = toguz(&["replay"], "76 98 65");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("move 2. 65"), "{err}");
    assert!(err.contains("lands in pit 6"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn wrong_marks_and_totals_are_reported() {
    let out = toguz(&["replay"], "87(11)");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("store is 10"), "{}", stderr(&out));
    let out = toguz(&["replay"], "19X");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no tuzdek"), "{}", stderr(&out));
}

#[test]
fn bad_input_gets_a_one_line_error_never_a_panic() {
    let cases = [
        ("", "empty"),
        ("   \n\n", "empty"),
        ("76 0", "not a move"),
        ("76 x9", "not a move"),
        ("[White \"a\"\n\n76", "malformed header"),
        ("[White a]\n\n76", "malformed header"),
        ("76 98 1-0 66", "after the result"),
        ("76 {never closed", "unclosed comment"),
        ("[Variant \"7\"]\n76", "unknown variant"),
    ];
    for (input, expected) in cases {
        let out = toguz(&["replay"], input);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{input:?}: {err}");
        assert!(err.contains(expected), "{input:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{input:?}: {err}");
        assert!(!err.contains("panicked"), "{input:?}: {err}");
    }
}

#[test]
fn a_move_after_the_end_is_refused() {
    // A finished game from the data, then one more move.
    let text = std::fs::read_to_string(data("random-games.jsonl")).expect("data");
    let first: serde_json::Value =
        serde_json::from_str(text.lines().next().expect("line")).expect("json");
    let moves = format!("{} 1", first["moves"].as_str().expect("moves"));
    let out = toguz(&["replay"], &moves);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("the game is over"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_missing_file_names_the_file() {
    let out = toguz(&["replay", "/no/such/file.pgn"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("/no/such/file.pgn"));
}

#[test]
fn usage_errors_exit_with_2() {
    assert_eq!(toguz(&["perft"], "").status.code(), Some(2));
    assert_eq!(toguz(&["perft", "0"], "").status.code(), Some(2));
    assert_eq!(toguz(&["replay", "--wat"], "").status.code(), Some(2));
}

#[test]
fn check_mode_summarises_files() {
    let out = toguz(
        &["replay", "--check", &data("championships-kz-2018.pgn")],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).trim(),
        "742 games, 50980 half-moves, 0 disagreements"
    );
}

#[test]
fn check_mode_reports_disagreements_with_headers() {
    let bad = "[White \"Alpha\"]\n[Black \"Beta\"]\n[Result \"1-0\"]\n\n1. 76 98 2. 66 88 1-0\n\n\
               [White \"Gamma\"]\n[Black \"Delta\"]\n\n1. 21 98 *\n";
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bad.pgn");
    std::fs::write(&path, bad).expect("write");
    let out = toguz(&["replay", "--check", path.to_str().expect("path")], "");
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.starts_with("2 games, 2 half-moves, 1 disagreements"),
        "{text}"
    );
    assert!(text.contains("Alpha - Beta"), "{text}");
    assert!(text.contains("move 2... 88"), "{text}");
}

#[test]
fn a_wrong_result_tag_is_a_disagreement() {
    // Play a recorded game that ended on the board, but claim the other result.
    let text = std::fs::read_to_string(data("random-games.jsonl")).expect("data");
    let first: serde_json::Value =
        serde_json::from_str(text.lines().next().expect("line")).expect("json");
    let result = first["plies"]
        .as_array()
        .expect("plies")
        .last()
        .expect("last")["result"]
        .as_str()
        .expect("result")
        .to_string();
    let wrong = if result == "white" { "0-1" } else { "1-0" };
    let record = format!("{} {wrong}", first["moves"].as_str().expect("moves"));
    let out = toguz(&["replay"], &record);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("ended on the board"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn perft_prints_one_line_per_depth() {
    let out = toguz(&["perft", "5"], "");
    assert!(out.status.success());
    let counts: Vec<String> = stdout(&out)
        .lines()
        .map(|l| l.split(' ').take(2).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(counts, ["1 9", "2 73", "3 613", "4 5199", "5 43184"]);
    let out = toguz(&["perft", "2", "--position", "garbage"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--position"));
}

/// A record of a game on a clock, as the bot writes it: the `TimeControl` header and each
/// move's `%clk` are read back, shown, and kept in the JSON lines.
#[test]
fn a_timed_record_replays_with_its_clocks() {
    let record = "[White \"Asan\"]\n[Black \"Bota\"]\n[TimeControl \"180+2\"]\n\n\
                  1. 76 {[%clk 0:02:58]} 98 {[%clk 0:02:41]} 2. 66 {[%clk 0:02:50]} *\n";
    let out = toguz(&["replay", "-"], record);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("3 half-moves"), "{text}");
    assert!(text.contains("time control 3+2 (blitz)"), "{text}");
    assert!(
        text.contains("clocks after the last moves: White 0:02:50, Black 0:02:41"),
        "{text}"
    );

    let out = toguz(&["replay", "--json", "-"], record);
    assert!(out.status.success(), "{}", stderr(&out));
    let clocks: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("json line")["clock"].clone())
        .collect();
    assert_eq!(clocks, ["0:02:58", "0:02:41", "0:02:50"]);

    // Without clocks nothing about time is printed, and the JSON has no `clock` field.
    let out = toguz(&["replay", "--json", "-"], "76 98");
    assert!(!stdout(&out).contains("clock"), "{}", stdout(&out));
}
