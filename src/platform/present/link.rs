//! The way from a chat to a game's page on the web (issue 35): the link button under its
//! boards and the line naming the page in a record or a review. Decided here for every
//! adapter; the address is the view's (`GameView::page_url`, set by the manager only when
//! the pages are served), so without `[web]` nothing here shows anything.

use crate::i18n::Lang;
use crate::manager::GameView;
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
    use crate::model::{ChatRef, Level, Platform, UserRef};

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
}
