//! toguz: a chat bot that hosts games of toguzqumalak in Discord and Telegram.
//!
//! `model` holds the plain values every layer shares (ids, levels, time controls); `rules` is
//! the pure game; `engine` plays it; `review` goes through a finished game with it; `store`
//! keeps games in sled or PostgreSQL; `manager` runs games for every platform; `pairing`
//! pairs Swiss rounds (FIDE Dutch); `render` draws boards; `platform/*` speak to chat
//! services; `i18n` holds every word shown to players; `cli` is the command line. `testing`
//! (the `test-support` feature, for tests and benchmarks only) holds the fake Telegram and
//! Discord. Which module may import which: docs/architecture.md.

pub mod cli;
pub mod config;
pub mod engine;
pub mod explorer;
pub mod i18n;
pub mod manager;
pub mod model;
pub mod pairing;
pub mod platform;
pub mod puzzle;
pub mod ratings;
pub mod render;
pub mod review;
pub mod rules;
pub mod secret;
pub mod store;
#[cfg(feature = "test-support")]
pub mod testing;
pub mod timecontrol;
