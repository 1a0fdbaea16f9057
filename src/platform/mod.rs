//! Platform adapters: each turns native events into manager actions and draws views with its
//! own widgets.

pub mod console;
pub mod discord;
pub mod present;
pub mod telegram;
