//! Platform adapters: each turns native events into manager actions and draws views with its
//! own widgets.

pub mod console;
pub mod discord;
pub mod history_text;
pub mod present;
pub mod present_clock;
pub mod present_review;
pub mod telegram;
