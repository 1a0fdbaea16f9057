//! The Telegram adapter (issue 6).

pub mod config;
