//! The way from a chat to a game's page on the web (issue 35): the link button under its
//! boards and the line naming the page in a record or a review. Decided here for every
//! adapter; the address is the view's (`GameView::page_url`, set by the manager only when
//! the pages are served), so without `[web]` nothing here shows anything.

use crate::i18n::Lang;
use crate::manager::{GameView, MessageRef};
use crate::model::{ChatRef, Platform};
use crate::t;

/// A button that opens an address (not one the bot is told about when pressed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkButton {
    pub label: String,
    pub url: String,
}

/// The link under a board of `view`, ongoing or finished: to the game's page, when the
/// pages are served. Adapters put it in a row of its own, last.
pub fn page_button(view: &GameView, lang: Lang) -> Option<LinkButton> {
    let url = view.page_url.clone()?;
    Some(LinkButton {
        label: t!(lang, "web-page-button"),
        url,
    })
}

/// The line that names a game's page in a text (a record's message, a review), when the
/// pages are served.
pub fn page_line(url: Option<&str>, lang: Lang) -> Option<String> {
    url.map(|url| t!(lang, "web-page-link", url = url))
}

/// Telegram's supergroups (and channels) have ids `-100` followed by the id that
/// `t.me/c/<id>/<message>` links take: -1001234567890 is `t.me/c/1234567890`.
const TELEGRAM_SUPERGROUP: i64 = -1_000_000_000_000;

/// The address of a board message `board` in the game's chat `chat`, for a member of that
/// chat to open (issue 51: an alert's way to the board when the pages are not served).
/// `None` where the platform has no such link: a Telegram basic group, a private chat or
/// an inline message; a Discord DM board.
pub fn board_message_url(chat: &ChatRef, board: &MessageRef) -> Option<String> {
    if board.platform != chat.platform {
        return None;
    }
    let (place, message) = board.id.split_once(':')?;
    let message: u64 = message.parse().ok()?;
    match chat.platform {
        Platform::Telegram => {
            let group: i64 = place.parse().ok()?;
            if place != chat.id || group >= TELEGRAM_SUPERGROUP {
                return None;
            }
            let linked = TELEGRAM_SUPERGROUP.checked_sub(group)?;
            Some(format!("https://t.me/c/{linked}/{message}"))
        }
        Platform::Discord => {
            // A guild's chat is the guild's id; a DM board's place is `user@channel`.
            let guild: u64 = chat.id.parse().ok()?;
            let channel: u64 = place.parse().ok()?;
            Some(format!(
                "https://discord.com/channels/{guild}/{channel}/{message}"
            ))
        }
        _ => None,
    }
}

/// `/web login`'s answer (issue 50), the same on every platform: a text that does not hold
/// the address (a text's link gets a preview, and a preview fetcher must not see it) and a
/// button that opens it. Only ever shown to its user: in a private chat or privately.
pub fn login_answer(link: &crate::manager::LoginLink, lang: Lang) -> (String, LinkButton) {
    let minutes = crate::manager::web_sessions::LOGIN_LINK_TTL_SECS / 60;
    let text = t!(lang, "web-login-link", minutes = minutes);
    let button = LinkButton {
        label: t!(lang, "web-login-button"),
        url: link.url.expose().to_owned(),
    };
    (text, button)
}

/// `/web login` said where others would see the link.
pub fn login_private_only(lang: Lang) -> String {
    t!(lang, "web-login-private-only")
}

/// `/web logout`'s answer: the user's sessions on the site were ended.
pub fn logout_done(ended: usize, lang: Lang) -> String {
    t!(lang, "web-logout-done", count = ended)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manager::Player;
    use crate::model::{Level, UserRef};

    fn view(page_url: Option<&str>) -> GameView {
        let players = [
            Player::Human(UserRef::new(Platform::Telegram, "1", "Asel")),
            Player::Bot(Level::Easy),
        ];
        let chat = ChatRef::new(Platform::Telegram, "-100");
        GameView {
            page_url: page_url.map(str::to_string),
            ..GameView::sample("ab12cd", chat, players)
        }
    }

    #[test]
    fn a_board_links_its_page_only_when_the_pages_are_served() {
        assert_eq!(page_button(&view(None), Lang::En), None);
        let url = "https://pages.example.org/g/ab12cd-0123456789abcdef0123";
        let button = page_button(&view(Some(url)), Lang::Ru);
        assert_eq!(
            button,
            Some(LinkButton {
                label: "🌐 Страница партии".into(),
                url: url.into()
            })
        );
        let kk = page_button(&view(Some(url)), Lang::Kk).map(|b| b.label);
        assert_eq!(kk.as_deref(), Some("🌐 Ойын беті"));
        assert_eq!(page_line(None, Lang::En), None);
        assert_eq!(
            page_line(Some(url), Lang::En).as_deref(),
            Some("🌐 Game page: https://pages.example.org/g/ab12cd-0123456789abcdef0123")
        );
    }

    fn board(platform: Platform, id: &str) -> MessageRef {
        MessageRef {
            platform,
            id: id.into(),
        }
    }

    #[test]
    fn a_board_message_links_where_the_platform_has_links() {
        let supergroup = ChatRef::new(Platform::Telegram, "-1001234567890");
        let url = board_message_url(&supergroup, &board(Platform::Telegram, "-1001234567890:42"));
        assert_eq!(url.as_deref(), Some("https://t.me/c/1234567890/42"));
        // A basic group, a private chat, an inline message, another chat's message: none.
        let basic = ChatRef::new(Platform::Telegram, "-100951");
        assert_eq!(
            board_message_url(&basic, &board(Platform::Telegram, "-100951:7")),
            None
        );
        let private = ChatRef::new(Platform::Telegram, "951");
        assert_eq!(
            board_message_url(&private, &board(Platform::Telegram, "951:7")),
            None
        );
        let inline = ChatRef::new(Platform::Telegram, "inline:AbC");
        assert_eq!(
            board_message_url(&inline, &board(Platform::Telegram, "inline:AbC")),
            None
        );
        let elsewhere = board(Platform::Telegram, "-1009999999999:42");
        assert_eq!(board_message_url(&supergroup, &elsewhere), None);

        let guild = ChatRef::new(Platform::Discord, "930000000000000051");
        let url = board_message_url(&guild, &board(Platform::Discord, "751:1234"));
        assert_eq!(
            url.as_deref(),
            Some("https://discord.com/channels/930000000000000051/751/1234")
        );
        // A board in a player's DM (`user@channel:message`), a DM game's chat: none.
        assert_eq!(
            board_message_url(&guild, &board(Platform::Discord, "5@77:1")),
            None
        );
        let dm = ChatRef::new(Platform::Discord, "dm77");
        assert_eq!(
            board_message_url(&dm, &board(Platform::Discord, "77:1")),
            None
        );
        // Another platform's message, a message id that is not a number: none.
        assert_eq!(
            board_message_url(&guild, &board(Platform::Telegram, "751:1")),
            None
        );
        assert_eq!(
            board_message_url(&guild, &board(Platform::Discord, "751:x")),
            None
        );
    }
}
