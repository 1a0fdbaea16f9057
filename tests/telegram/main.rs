//! The Telegram adapter end to end: the real `toguz` binary (teloxide inside) against a fake
//! Telegram Bot API on 127.0.0.1. One test binary.

mod fake_telegram;
#[path = "../common/pg.rs"]
mod pg;

mod abuse;
mod bot_game;
mod clock;
mod fake;
mod flows;
mod hint;
mod history;
mod load;
mod review;
mod scale;
