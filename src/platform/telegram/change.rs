//! A change of a game to show: what `boards` hands to a game's worker in `turns`.

use crate::manager::GameView;
use crate::model::UserRef;
use tokio::time::Instant;

/// A change of a game to show.
#[derive(Clone, Debug)]
pub struct Change {
    pub view: GameView,
    /// The person whose action it was; `None` for the bot's move or a time-out.
    pub actor: Option<UserRef>,
    /// When a person acted, for the notice after the bot's reply.
    pub pressed: Option<Instant>,
}
