//! Who and where on a chat service: the platform, a person on it, a chat. Plain values that
//! every layer shares (the manager's requests, ratings' keys, the adapters' answers).

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
            name: super::names::clean_name(&name.into()),
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
