//! The Discord adapter end to end: the real serenity client inside the real `toguz` binary
//! against a fake Discord (gateway websocket + REST) on 127.0.0.1. One test binary.

mod activity;
mod alerts;
mod arena40;
mod clock;
mod fair;
mod fake;
mod flows;
mod hint;
mod history;
mod links;
mod names;
mod openings;
mod premoves;
mod puzzles;
mod ratings;
mod review;
mod scale;
mod soak;
mod startup;
mod tournament;
