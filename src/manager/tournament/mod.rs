//! Tournaments (issue 33): Swiss events and arenas in a chat. `record` holds an event's
//! record and its rules, pure; the manager's actions on it come next.

pub mod record;

pub use record::{
    Board, BoardResult, Entrant, Format, Round, Status, TournamentError, TournamentId,
    TournamentRecord,
};
