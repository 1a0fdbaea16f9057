//! Who acts, where, and what they ask for: the neutral vocabulary between adapters and the
//! manager.

use crate::engine::Level;
use crate::rules::{Side, Variant};
use crate::timecontrol::TimeControl;
use serde::{Deserialize, Serialize};

/// A chat service (or the local console).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Platform {
    Console,
    Telegram,
    Discord,
}

impl Platform {
    pub fn name(self) -> &'static str {
        match self {
            Platform::Console => "console",
            Platform::Telegram => "telegram",
            Platform::Discord => "discord",
        }
    }
}

/// A person on a platform. Two `UserRef`s are the same user when platform and id match; the
/// display name is only for showing.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct UserRef {
    pub platform: Platform,
    pub id: String,
    /// Display name.
    pub name: String,
}

impl UserRef {
    /// A user as an adapter met them; the display name is cleaned here, where names enter
    /// (`names::clean_name`).
    pub fn new(platform: Platform, id: impl Into<String>, name: impl Into<String>) -> UserRef {
        UserRef {
            platform,
            id: id.into(),
            name: crate::names::clean_name(&name.into()),
        }
    }

    /// `platform:id`, the key of this user in indexes and the store.
    pub fn key(&self) -> String {
        format!("{}:{}", self.platform.name(), self.id)
    }
}

impl PartialEq for UserRef {
    fn eq(&self, other: &Self) -> bool {
        self.platform == other.platform && self.id == other.id
    }
}
impl Eq for UserRef {}

/// Where an action happens: a Telegram chat id, a Discord guild id (or DM channel id), the
/// console. Limits count per chat.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ChatRef {
    pub platform: Platform,
    pub id: String,
}

impl ChatRef {
    pub fn new(platform: Platform, id: impl Into<String>) -> ChatRef {
        ChatRef {
            platform,
            id: id.into(),
        }
    }

    pub fn key(&self) -> String {
        format!("{}:{}", self.platform.name(), self.id)
    }
}

/// A short unique id, 6 characters `[a-z0-9]`.
pub type GameId = String;
pub type ChallengeId = String;

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
