//! `toguz analyze`, `toguz match` and `toguz engine` as programs see them.

use std::io::Write;
use std::process::{Command, Stdio};
use toguz::rules::Position;

fn toguz(args: &[&str]) -> (bool, String, String) {
    let out = super::toguz(args, "");
    (
        out.status.success(),
        super::stdout(&out),
        super::stderr(&out),
    )
}

fn last_json(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout.lines().last().expect("some output")).expect("JSON last line")
}

#[test]
fn analyze_prints_iterations_and_a_json_summary() {
    let (ok, out, err) = toguz(&["analyze", "--moves", "1. 21 21", "--depth", "6"]);
    assert!(ok, "{err}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("depth ")).count(),
        6,
        "{out}"
    );
    assert_eq!(
        out.lines().filter(|l| l.starts_with("bestmove ")).count(),
        1,
        "{out}"
    );

    let (ok, out, err) = toguz(&["analyze", "--depth", "5", "--json"]);
    assert!(ok, "{err}");
    let json = last_json(&out);
    for key in ["bestmove", "score", "depth", "nodes", "nps", "pv"] {
        assert!(json.get(key).is_some(), "{key} missing in {json}");
    }
    assert_eq!(json["depth"], 5);
    let best = json["bestmove"].as_u64().unwrap() as u8;
    assert!(Position::default().is_legal(best));
    assert_eq!(json["pv"].as_array().unwrap().len(), 5);
}

#[test]
fn analyze_refuses_bad_input_with_a_message() {
    for args in [
        &["analyze", "--moves", "25"][..],
        &["analyze", "--position", "nonsense"],
        &[
            "analyze",
            "--position",
            "0,0,0,0,0,0,0,0,0/10,10,10,10,10,10,10,10,0 82/0 b 40",
        ],
    ] {
        let (ok, _, err) = toguz(args);
        assert!(!ok, "{args:?}");
        assert!(err.starts_with("toguz: "), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn match_reports_wins_draws_and_losses() {
    let (ok, out, err) = toguz(&["match", "beginner", "random", "--games", "4", "--seed", "3"]);
    assert!(ok, "{err}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("game ")).count(),
        4,
        "{out}"
    );
    let (ok, out, err) = toguz(&[
        "match", "easy", "random", "--games", "4", "--jobs", "2", "--json",
    ]);
    assert!(ok, "{err}");
    let json = last_json(&out);
    assert_eq!(
        (json["a"].as_str(), json["b"].as_str()),
        (Some("easy"), Some("random"))
    );
    let counts: Vec<u64> = ["wins", "draws", "losses"]
        .iter()
        .map(|k| json[k].as_u64().unwrap())
        .collect();
    assert_eq!(counts.iter().sum::<u64>(), 4);
    assert_eq!(json["games"], 4);
    let (ok, _, err) = toguz(&["match", "easy", "grandmaster"]);
    assert!(!ok && err.contains("grandmaster"), "{err}");
}

#[test]
fn engine_speaks_the_line_protocol() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toguz"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run toguz engine");
    let script = "isready\nposition startpos moves 21 7\ngo depth 3\nbogus\nlevel easy\ngo\nnewgame\nposition fen 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 w 1\ngo movetime 50\nquit\nisready\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "readyok");
    assert!(
        lines[1..4].iter().all(|l| l.starts_with("info depth ")),
        "{text}"
    );
    assert!(lines[4].starts_with("bestmove "), "{text}");
    assert!(lines[5].starts_with("error "), "{text}");
    assert!(lines[6].starts_with("bestmove "), "{text}");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{text}");
    // Nothing after quit.
    assert_eq!(lines.iter().filter(|l| **l == "readyok").count(), 1);
}
