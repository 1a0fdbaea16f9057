//! The Telegram adapter end to end: the real `toguz` binary (teloxide inside) against a fake
//! Telegram Bot API on 127.0.0.1. One test binary.

mod abuse;
mod alerts;
mod arena40;
mod bot_game;
/// The tests' headless Chromium, shared with the web tests.
#[path = "../web/browser.rs"]
#[allow(dead_code)]
mod browser;
mod clock;
mod dbaway;
mod fair;
mod fake;
mod flows;
mod hint;
mod history;
mod inline;
mod links;
mod load;
mod openings;
mod premoves;
mod puzzles;
mod review;
mod scale;
mod soak;
mod tournament;
mod trust;
mod variants;
mod web;
mod webhook;
