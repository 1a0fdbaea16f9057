//! Two consoles on one PostgreSQL database (issue 15): the second resumes the game the first
//! started, and a move typed in the first on its old board, after the second moved, is
//! refused as stale with the current board shown.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use toguz::testing::pg;

/// A config file whose `[storage]` is the database at `url`.
fn config(dir: &Path, url: &str) -> PathBuf {
    let path = dir.join("toguz.toml");
    let text = format!("[storage]\nbackend = \"postgres\"\nurl = {url:?}\n");
    std::fs::write(&path, text).expect("write the config");
    path
}

const ARGS: [&str; 6] = ["--level", "random", "--colour", "white", "--lang", "en"];

/// `toguz play --config <config>`, its output going to `out`.
fn console(config: &Path, out: &Path) -> Child {
    let file = std::fs::File::create(out).expect("an output file");
    Command::new(env!("CARGO_BIN_EXE_toguz"))
        .arg("play")
        .arg("--config")
        .arg(config)
        .args(ARGS)
        .stdin(Stdio::piped())
        .stdout(file.try_clone().expect("the output file"))
        .stderr(file)
        .spawn()
        .expect("toguz starts")
}

/// Waits until the output in `out` holds `text` `times` times; the output.
fn wait_for(out: &Path, text: &str, times: usize) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let now = std::fs::read_to_string(out).unwrap_or_default();
        if now.matches(text).count() >= times {
            return now;
        }
        assert!(Instant::now() < deadline, "no {text:?} in:\n{now}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The game id after `prefix` on one of the output's lines.
fn id_after(out: &str, prefix: &str) -> String {
    out.lines()
        .find_map(|l| l.strip_prefix(prefix))
        .map(|rest| {
            rest.chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect()
        })
        .unwrap_or_else(|| panic!("no {prefix:?} in:\n{out}"))
}

#[test]
fn a_second_console_resumes_the_game_and_a_stale_move_in_the_first_is_refused() {
    let Some(url) = pg::fresh_url() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let config = config(dir.path(), &url);

    // The first console starts a game, moves, sees the bot's reply, and stays open.
    let first_out = dir.path().join("first.out");
    let mut first = console(&config, &first_out);
    let mut typing = first.stdin.take().expect("stdin");
    typing.write_all(b"1\n").expect("type a move");
    let seen = wait_for(&first_out, "White to move", 2);
    let game = id_after(&seen, "New game ");

    // The second console, on the same database, resumes that game and moves on.
    let second_out = dir.path().join("second.out");
    let mut second = console(&config, &second_out);
    second
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"9\n")
        .expect("type a move");
    let status = second.wait().expect("the second console ends");
    let moved = std::fs::read_to_string(&second_out).unwrap_or_default();
    assert!(status.success(), "{moved}");
    assert_eq!(id_after(&moved, "Resuming your unfinished game "), game);
    assert!(moved.contains("Bot (random) played"), "{moved}");

    // The first console still shows the old board: its move is refused as stale, and the
    // board as it is now is shown (the second console's move on it).
    typing.write_all(b"2\n").expect("type a move");
    drop(typing);
    let status = first.wait().expect("the first console ends");
    let out = std::fs::read_to_string(&first_out).unwrap_or_default();
    assert!(status.success(), "{out}");
    let (_, after) = out
        .split_once("This board is out of date")
        .unwrap_or_else(|| panic!("no stale answer in:\n{out}"));
    assert!(after.contains("White to move"), "the board now:\n{after}");
    assert!(
        !after.contains("Bot (random) played"),
        "the stale move was played:\n{after}"
    );
    // The second console's move is on the board shown: White's pit 9 was sown.
    assert!(after.contains("Last move"), "{after}");
}
