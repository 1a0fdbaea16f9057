//! The Discord adapter end to end: the real serenity client inside the real `toguz` binary
//! against a fake Discord (gateway websocket + REST) on 127.0.0.1. One test binary.

mod fake_discord;

mod clock;
mod fake;
mod flows;
mod hint;
mod history;
mod ratings;
mod review;
mod soak;
mod startup;
