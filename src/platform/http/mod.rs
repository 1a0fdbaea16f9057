//! The HTTP server the front ends that listen share (the game pages, the Telegram webhook):
//! each connection served by hyper with a header-read timeout and closed when idle
//! (`server`), connections counted and capped per address, an IPv6 address by its /64, and
//! the reverse proxies whose forwarding headers are believed (`limits`). Issue 49,
//! finding 3.

pub mod limits;
pub mod server;
