//! Tournaments (issue 33): Swiss events and arenas in a chat. `record` holds an event's
//! record and its rules, pure; `flow` the manager's actions on it and the tick that runs
//! events (started by `Manager::start`, every `TICK`); `live` the index of a chat's live
//! events and the caps on how many may be live.

mod flow;
mod live;
pub mod record;

pub use flow::{NewTournament, TournamentNews, TICK};

pub use record::{
    Board, BoardResult, Entrant, Format, Round, Status, TournamentError, TournamentId,
    TournamentRecord, MAX_HALF_BYES,
};
