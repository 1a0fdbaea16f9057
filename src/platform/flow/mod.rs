//! What a community event shows in chat, decided once for every adapter (issue 49): which
//! messages it has, where each goes and when it is drawn again. An adapter implements a
//! small outlet (send this, edit that, within its own platform's limits) and runs the flow;
//! the flow holds the bookkeeping both would otherwise keep twice (news merged while a
//! worker is busy, what was already shown, retries after a failure that may pass).
//!
//! - `tournament`: an event's announcement, pairings, boards, standings and podium.
//! - `daily`: a chat's daily puzzle post, made, attached and its count redrawn.

pub mod daily;
pub mod tournament;

/// The result of one send or edit of an outlet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Posted {
    /// Done, or never to be (a refusal that would only repeat).
    Done,
    /// Failed in a way that may pass (the service away, a limit): tried again later.
    Later,
}

impl Posted {
    pub fn later(self) -> bool {
        self == Posted::Later
    }
}
