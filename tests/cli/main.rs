//! The `toguz` command line as a user runs it: `replay`, `perft`, `render`, `analyze`,
//! `match`, `engine`, `swiss pair` and `puzzle generate/export`; output, errors and exit codes. One test binary for all of them.

mod engine;
mod explorer;
mod history;
mod puzzle;
mod render;
mod replay;
mod review;
mod run;
mod swiss;
mod tournament;

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the real binary with `args`, feeding it `stdin`.
pub fn toguz(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toguz"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start toguz");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("wait")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
