//! Test support, compiled only with the `test-support` feature: the tests and benchmarks
//! switch it on (a dev-dependency of the package on itself); the bot that ships never has it.
//! Nothing here is a mock of our own code: the bot runs for real, and what it talks to is
//! faked at the wire.
//!
//! - [`telegram`]: a fake Telegram Bot API server, and the real `toguz run` pointed at it.
//! - [`discord`]: a fake Discord (REST and the gateway websocket), the same way.
//! - [`pg`]: a real PostgreSQL, a throwaway cluster started from Debian's binaries.
//! - [`proxy`]: a TCP proxy in front of it that stalls, cuts or holds replies after COMMIT.
//! - [`manager`]: the helpers of the manager-level tests (users, requests, both backends).
//! - [`lifted`]: the one way a test lifts the platforms' flood limits, with a reason.
//!
//! The fakes are strict on purpose: where the real service refuses a request (a bad token,
//! an edit that changes nothing, a button's data over 64 bytes, an interaction answered
//! twice or too late, a command Discord would not register, a PNG that does not decode), the
//! fake refuses it too, with the service's own error, so a bug that would fail in production
//! fails a test. Each fake's module doc lists what it checks. Both keep the platforms' flood
//! limits (Telegram: 20 messages a minute per group, about one a second per private chat,
//! about 30 a second in all; Discord: 5 messages per 5 s per channel, 50 requests a second),
//! and so do the test bots: a test lifts them only with a reason ([`Lifted`]).

pub mod discord;
pub mod latency;
pub mod lifted;
pub mod manager;
pub mod pg;
pub mod proxy;
pub mod telegram;

pub use lifted::Lifted;

use std::path::PathBuf;

/// The `toguz` binary of this build, for the fakes' bot launchers. Cargo builds it for
/// every integration test and benchmark and names it in `CARGO_BIN_EXE_toguz` when it runs
/// them; run by hand, a test or benchmark finds it beside its own `deps` directory
/// (`target/<profile>/deps/<test>` next to `target/<profile>/toguz`).
pub fn toguz_exe() -> PathBuf {
    if let Some(path) = std::env::var_os("CARGO_BIN_EXE_toguz") {
        return PathBuf::from(path);
    }
    let exe = std::env::current_exe().expect("the path of this test binary");
    let profile = exe
        .parent()
        .filter(|dir| dir.ends_with("deps"))
        .and_then(|deps| deps.parent())
        .unwrap_or_else(|| panic!("{} is not under target/<profile>/deps", exe.display()));
    let path = profile.join(format!("toguz{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "no toguz binary at {}", path.display());
    path
}
