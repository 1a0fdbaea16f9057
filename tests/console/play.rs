//! `toguz play` end to end: piped input, bad commands, resign, new, draw, and resuming a game
//! from the same data directory.

use super::run_play;

/// The game id from "New game <id>:" or "Resuming your unfinished game <id>."
fn game_id(out: &str) -> String {
    for line in out.lines() {
        for prefix in ["New game ", "Resuming your unfinished game "] {
            if let Some(rest) = line.strip_prefix(prefix) {
                return rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric())
                    .collect();
            }
        }
    }
    panic!("no game id in:\n{out}");
}

fn record_lines(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("1. ")).collect()
}

#[test]
fn a_piped_session_plays_saves_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--level", "random", "--colour", "white", "--lang", "en"];
    let (out, err, ok) = run_play(dir.path(), &args, "7\nrecord\ndance\n0\nnew\n");
    assert!(ok, "stderr: {err}");
    let id = game_id(&out);
    assert!(out.contains("you play White"), "{out}");
    assert!(out.contains("played"), "the bot replied:\n{out}");
    let records = record_lines(&out);
    assert_eq!(records.len(), 1, "{out}");
    assert!(records[0].starts_with("1. 7"), "{}", records[0]);
    assert_eq!(
        records[0].split_whitespace().count(),
        3,
        "my move and the bot's"
    );
    assert!(out.contains("I do not know the command “dance”"), "{out}");
    assert!(out.contains("I do not know the command “0”"), "{out}");
    assert!(out.contains("Finish it or resign"), "{out}");
    assert!(
        out.trim_end().ends_with("Game saved. Goodbye!"),
        "EOF saves:\n{out}"
    );

    // Started again on the same directory: the same game, same moves.
    let (out2, err2, ok2) = run_play(dir.path(), &args, "record\nresign\nrecord\nnew\nquit\n7\n");
    assert!(ok2, "stderr: {err2}");
    assert_eq!(game_id(&out2), id, "{out2}");
    assert!(out2.contains("Resuming"), "{out2}");
    assert_eq!(record_lines(&out2)[0], records[0]);
    // The board wraps a long result line.
    let words = out2.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("Black wins: Bot (random). You resigned."),
        "{out2}"
    );
    // The record of a finished game ends with its result: White resigned.
    let finished = record_lines(&out2)[1];
    assert!(finished.starts_with(records[0]), "{finished}");
    assert!(finished.ends_with(" 0-1"), "{finished}");
    assert!(out2.contains("The game is over."), "{out2}");
    assert!(
        out2.contains("New game "),
        "new starts another game:\n{out2}"
    );
    // Nothing after quit is read.
    assert!(out2.trim_end().ends_with("Game saved. Goodbye!"), "{out2}");
}

#[test]
fn the_bot_moves_first_when_you_play_black_and_declines_a_bad_draw() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--level", "random", "--colour", "black", "--lang", "en"];
    let (out, err, ok) = run_play(dir.path(), &args, "record\ndraw\nhelp\n");
    assert!(ok, "stderr: {err}");
    assert!(out.contains("you play Black"), "{out}");
    let records = record_lines(&out);
    assert_eq!(records.len(), 1, "{out}");
    assert_eq!(records[0].split_whitespace().count(), 2, "{}", records[0]);
    // The bot takes a draw only when its kazan is behind; either answer is one line.
    assert!(
        out.contains("The bot declines the draw") || out.contains("Drawn by agreement"),
        "{out}"
    );
    assert!(out.contains("Commands:"), "{out}");
}

#[test]
fn bad_arguments_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["--level", "grandmaster"][..],
        &["--lang", "de"],
        &["--colour", "green"],
        &["--variant", "7"],
    ] {
        let (_, err, ok) = run_play(dir.path(), args, "");
        assert!(!ok, "{args:?} was accepted");
        assert!(err.contains("invalid value"), "{args:?}: {err}");
    }
}

#[test]
fn levels_are_named_in_russian_and_kazakh_too() {
    for (level, lang, bot) in [
        ("лёгкий", "ru", "Бот (лёгкий)"),
        ("легкий", "en", "Bot (easy)"),
        ("жаңа бастаушы", "kk", "Бот (жаңа бастаушы)"),
        ("ЕҢ КҮШТІ", "ru", "Бот (максимальный)"),
        ("макс", "kk", "Бот (ең күшті)"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let args = ["--level", level, "--colour", "white", "--lang", lang];
        let (out, err, ok) = run_play(dir.path(), &args, "quit\n");
        assert!(ok, "--level {level}: {err}");
        assert!(out.contains(bot), "--level {level}:\n{out}");
    }
}
