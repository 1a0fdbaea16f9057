//! `toguz play` in the terminal, as a user runs it: whole games, languages, and a crash in
//! the middle of a game. One test binary.

mod crash;
mod lang;
mod play;
