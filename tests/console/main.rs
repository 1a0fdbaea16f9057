//! `toguz play` in the terminal, as a user runs it: whole games, languages, and a crash in
//! the middle of a game. One test binary.

mod crash;
mod hint;
mod hot_seat;
mod lang;
mod play;
mod puzzle;
mod review;
mod shared;

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `toguz play` with `input` on stdin; returns (stdout, stderr, success).
pub fn run_play(dir: &std::path::Path, args: &[&str], input: &str) -> (String, String, bool) {
    run_command("play", dir, args, input)
}

/// Runs `toguz <command> --data-dir <dir> <args>` with `input` on stdin.
pub fn run_command(
    command: &str,
    dir: &std::path::Path,
    args: &[&str],
    input: &str,
) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toguz"))
        .arg(command)
        .arg("--data-dir")
        .arg(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("toguz starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}
