//! `toguz review` as programs see it: one JSON object per half-move, the link to `toguz
//! analyze`, the graph file, reproducibility and errors.

use super::{stderr, stdout, toguz};

/// Kazakhstan Cup 2018: Black resigned after White's 13th move.
const GAME: &str = "[White \"Исаханов Жарас\"]\n[Black \"Шораев Дастан\"]\n[Result \"1-0\"]\n\n\
1. 76 98 2. 66 87 3. 12 76 4. 25 78 5. 48 36x 6. 94 16 7. 84 82 8. 91x 89 9. 17 26 \
10. 91 23 11. 49 63 12. 23 73 13. 91 51 1-0\n";

const NODES: &str = "20000";

fn json_lines(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn review_prints_one_json_object_per_half_move() {
    let out = toguz(&["review", "--json", "--nodes", NODES, "-"], GAME);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = json_lines(&stdout(&out));
    assert_eq!(lines.len(), 26);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["ply"], i + 1);
        for key in ["move", "eval_before", "eval_after", "best", "loss"] {
            assert!(line.get(key).is_some(), "{key} missing in {line}");
        }
        assert!(line["loss"].as_f64().expect("a number") >= 0.0);
        if i > 0 {
            assert_eq!(line["eval_before"], lines[i - 1]["eval_after"]);
        }
    }
    assert_eq!(lines[0]["move"], "76");
}

#[test]
fn review_evaluations_match_analyze() {
    let out = toguz(
        &[
            "review",
            "--json",
            "--nodes",
            NODES,
            "--moves",
            "1. 76 98 2. 66",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let lines = json_lines(&stdout(&out));
    // Before ply 2 Black is to move (analyze's score is Black's), before ply 3 White.
    for (ply, moves, sign) in [(2, "76", -1.0), (3, "76 98", 1.0)] {
        let analyze = toguz(
            &[
                "analyze", "--json", "--nodes", NODES, "--hash", "4", "--moves", moves,
            ],
            "",
        );
        assert!(analyze.status.success(), "{}", stderr(&analyze));
        let last = stdout(&analyze);
        let json: serde_json::Value =
            serde_json::from_str(last.lines().last().expect("output")).expect("JSON");
        let score = json["score"].as_f64().expect("a score") / 100.0;
        let before = lines[ply - 1]["eval_before"].as_f64().expect("a number");
        assert_eq!(before, sign * score, "ply {ply}");
        assert_eq!(lines[ply - 1]["best"], json["bestmove_text"], "ply {ply}");
    }
}

#[test]
fn the_same_game_gives_the_same_review_and_graph() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let run = |name: &str| {
        let path = dir.path().join(name);
        let path = path.to_str().expect("a path").to_string();
        let out = toguz(
            &["review", "--nodes", NODES, "--lang", "kk", "-o", &path, "-"],
            GAME,
        );
        assert!(out.status.success(), "{}", stderr(&out));
        (stdout(&out), std::fs::read(&path).expect("the graph"))
    };
    let (text_a, png_a) = run("a.png");
    let (text_b, png_b) = run("b.png");
    assert_eq!(text_a, text_b);
    assert_eq!(png_a, png_b);
    assert!(png_a.starts_with(b"\x89PNG") && png_a.len() <= 60 * 1024);
    assert!(text_a.contains("Исаханов Жарас"), "{text_a}");
    assert!(text_a.contains("дәлдік"), "{text_a}");
    let shorter = GAME.replace(" 13. 91 51 1-0", " 1-0");
    let out = toguz(
        &[
            "review",
            "--nodes",
            NODES,
            "-o",
            &dir.path().join("c.png").to_string_lossy(),
            "-",
        ],
        &shorter,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_ne!(
        std::fs::read(dir.path().join("c.png")).expect("graph"),
        png_a
    );
}

#[test]
fn review_refuses_bad_input_with_a_message() {
    for (args, input) in [
        (&["review"][..], ""),
        (&["review", "--moves", "76 25"][..], ""),
        (&["review", "-"][..], "   \n"),
        (&["review", "/nonexistent/game.pgn"][..], ""),
    ] {
        let out = toguz(args, input);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = stderr(&out);
        assert!(
            err.starts_with("toguz: ") && err.lines().count() == 1,
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let out = toguz(&["review", "--moves", "76", "--nodes", "5"], "");
    assert_eq!(out.status.code(), Some(2));
}
