//! Where a board or challenge lives in Telegram, as stored in the manager's `MessageRef`;
//! the manager's chat of such a message (`chat_ref`); where an answer goes (`Place`).
//!
//! `"<chat_id>:<message_id>"` for a message in a chat, `"inline:<inline_message_id>"` for a
//! message sent through inline mode. The manager keeps these with the game, so after a
//! restart the adapter still knows which messages to edit.

use crate::manager::MessageRef;
use crate::model::{ChatRef, Platform};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MsgRef {
    Chat { chat: i64, message: i32 },
    Inline(String),
}

impl MsgRef {
    pub fn to_ref(&self) -> MessageRef {
        let id = match self {
            MsgRef::Chat { chat, message } => format!("{chat}:{message}"),
            MsgRef::Inline(id) => format!("inline:{id}"),
        };
        MessageRef {
            platform: Platform::Telegram,
            id,
        }
    }

    /// The Telegram message of a stored reference; `None` for other platforms or a
    /// reference this adapter did not write.
    pub fn parse(r: &MessageRef) -> Option<MsgRef> {
        if r.platform != Platform::Telegram {
            return None;
        }
        if let Some(id) = r.id.strip_prefix("inline:") {
            return (!id.is_empty()).then(|| MsgRef::Inline(id.to_string()));
        }
        let (chat, message) = r.id.split_once(':')?;
        Some(MsgRef::Chat {
            chat: chat.parse().ok()?,
            message: message.parse().ok()?,
        })
    }

    /// The key of the chat for rate limiting, and whether it is a group (negative ids).
    pub fn chat_key(&self) -> (String, bool) {
        match self {
            MsgRef::Chat { chat, .. } => (chat.to_string(), *chat < 0),
            MsgRef::Inline(id) => (format!("inline:{id}"), false),
        }
    }

    pub fn is_inline(&self) -> bool {
        matches!(self, MsgRef::Inline(_))
    }
}

/// The manager's chat of a message: the Telegram chat, or the inline message itself.
pub fn chat_ref(place: &MsgRef) -> ChatRef {
    match place {
        MsgRef::Chat { chat, .. } => ChatRef::new(Platform::Telegram, chat.to_string()),
        MsgRef::Inline(id) => ChatRef::new(Platform::Telegram, format!("inline:{id}")),
    }
}

/// Where an answer goes: the chat and the message it replies to.
#[derive(Clone, Copy)]
pub struct Place {
    pub chat: i64,
    pub reply_to: Option<i32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_round_trip_and_foreign_ones_are_refused() {
        for r in [
            MsgRef::Chat {
                chat: -100123,
                message: 42,
            },
            MsgRef::Inline("AgAAAB-x_y".into()),
        ] {
            assert_eq!(MsgRef::parse(&r.to_ref()), Some(r));
        }
        let discord = MessageRef {
            platform: Platform::Discord,
            id: "1:2".into(),
        };
        assert_eq!(MsgRef::parse(&discord), None);
        for bad in ["", "12", "a:b", "inline:", "1:99999999999"] {
            let r = MessageRef {
                platform: Platform::Telegram,
                id: bad.into(),
            };
            assert_eq!(MsgRef::parse(&r), None, "{bad}");
        }
    }
}
