//! The Discord adapter (issue 8).

pub mod config;
