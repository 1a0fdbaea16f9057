//! Who acts, where, and what they ask for: the neutral vocabulary between adapters and the
//! manager.

use crate::model::{ChallengeId, ChatRef, GameId, Level, Platform, TimeControl, UserRef};
use crate::rules::{Side, Variant};
use serde::{Deserialize, Serialize};

/// One side of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    Human(UserRef),
    Bot(Level),
}

impl Player {
    pub fn user(&self) -> Option<&UserRef> {
        match self {
            Player::Human(u) => Some(u),
            Player::Bot(_) => None,
        }
    }

    pub fn is_bot(&self) -> bool {
        matches!(self, Player::Bot(_))
    }
}

/// Where a platform shows a game or challenge. Opaque to the manager except for one
/// convention: adapters write `<place>:<message>` (`chat_id:message_id`,
/// `channel:message`, `inline:<inline_message_id>`), where the place is the chat or channel
/// the message is in, so the manager can keep the newest message per place.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MessageRef {
    pub platform: Platform,
    pub id: String,
}

impl MessageRef {
    /// The chat or channel of the message: `id` up to its last `:`.
    pub fn place(&self) -> &str {
        self.id
            .rsplit_once(':')
            .map_or(self.id.as_str(), |(place, _)| place)
    }
}

/// One user's action in one chat.
#[derive(Clone, Debug)]
pub struct Request {
    pub actor: UserRef,
    pub chat: ChatRef,
    pub action: Action,
}

/// Everything a user can ask of the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Challenge `opponent`, or anyone when `None` (an open challenge).
    /// `rated`: the game changes both players' ratings (the default on every platform).
    Challenge {
        opponent: Option<UserRef>,
        variant: Variant,
        rated: bool,
        /// `None`: the chat's default (`[clock]` in the config).
        time: Option<TimeControl>,
    },
    AcceptChallenge {
        challenge: ChallengeId,
    },
    /// Accept a challenge only if its terms are still those of version `terms`
    /// (`ChallengeView::time_changes`): what an Accept button asks.
    AcceptTerms {
        challenge: ChallengeId,
        terms: u32,
    },
    DeclineChallenge {
        challenge: ChallengeId,
    },
    CancelChallenge {
        challenge: ChallengeId,
    },
    /// A game against the bot; `colour` is the human's side, random when `None`.
    PlayBot {
        level: Level,
        variant: Variant,
        colour: Option<Side>,
        /// `None`: the chat's default (`[clock]` in the config).
        time: Option<TimeControl>,
    },
    /// `ply` is the ply the board was shown at (from button data), `None` from a typed
    /// command.
    Move {
        game: GameId,
        ply: Option<u16>,
        pit: u8,
    },
    /// `game` `None`: the actor's only ongoing game in this chat.
    Resign {
        game: Option<GameId>,
        ply: Option<u16>,
    },
    OfferDraw {
        game: Option<GameId>,
        ply: Option<u16>,
    },
    AcceptDraw {
        game: GameId,
    },
    DeclineDraw {
        game: GameId,
    },
    /// End a game before both sides have moved, without a result.
    Abort {
        game: GameId,
    },
    /// Halve one's own time (no increment) before one's first move in an arena game; a
    /// win then scores one point more.
    Berserk {
        game: GameId,
    },
    /// `None`: the actor's latest ongoing game in this chat.
    Show {
        game: Option<GameId>,
    },
    /// The actor's ongoing games (in every chat of the platform).
    ListGames,
    /// After a game ends: against the bot a new game at once, against a person a challenge
    /// to them; colours swapped either way.
    Rematch {
        game: GameId,
    },
    /// The challenger picks another time control for their open challenge (the time
    /// buttons under a challenge given without one); an accept after it plays at `time`.
    SetChallengeTime {
        challenge: ChallengeId,
        time: TimeControl,
    },
}

/// What a message shows, for `Manager::attach_message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Game(GameId),
    Challenge(ChallengeId),
}

/// A tournament game's place in its event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub tournament: String,
    /// The Swiss round (from 1); 0 for an arena game.
    pub round: u32,
    /// The board in its round, or the arena game's number (from 1).
    pub board: u32,
}
