//! Platform adapters: each turns native events into manager actions and draws views with its
//! own widgets. What a player sees is decided once, for all of them, in `present` (the floor
//! below the adapters, docs/architecture.md); no adapter touches the store.

pub mod console;
pub mod discord;
pub mod flow;
pub mod http;
pub mod present;
pub mod telegram;
pub mod web;
pub mod worker;
