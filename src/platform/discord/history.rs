//! `/history` and `/record` in Discord (issue 16), and their buttons: a history page's ◀ ▶
//! (`1hp:<user id>:<page>`), each entry's button and a finished board's Record button
//! (`1rc:<game>`). The texts are shared (`platform::present::history_text`); here are the messages.
//!
//! Every answer is ephemeral, as `/stats` and `/leaderboard` are: a lookup is for the one
//! who asked, and a channel is not filled with pages and files. A history is public, so a
//! page button needs no signature (as Telegram's do): a forged one can only show what
//! `/history player:` shows anyway, and a malformed one is refused by the codec.

use super::answer::Origin;
use super::config::MentionStyle;
use super::failure::{said, Handled};
use super::messages::{self, Attachment, Outgoing};
use super::Bot;
use crate::i18n::Lang;
use crate::manager::buttons::{encode, Button, MAX_HISTORY_PAGE};
use crate::manager::history::{HistoryPage, PageAt, RecordFile};
use crate::manager::{Action, ActionError, GameView, Reply, Request};
use crate::model::{Category, ChatRef, Platform, UserRef};
use crate::platform::present::history_text::{
    self, entry_button, history_text, name_in, BoardsShown, Whose,
};
use crate::platform::present::{self, LabeledButton};
use crate::ratings::keys::Scope;
use crate::t;
use serenity::all::{ButtonStyle, CreateActionRow, CreateButton};

/// Discord's longest message content, in characters.
const CONTENT_MAX: usize = 2000;
/// Entry buttons per row (Discord allows five; four keep the ids readable on a phone).
const ENTRIES_PER_ROW: usize = 4;

impl Bot {
    /// `/leaderboard`'s text: one category in full, or every category's top.
    pub(super) async fn leaderboard(
        &self,
        scope: Scope,
        category: Option<Category>,
        caller: &UserRef,
        lang: Lang,
    ) -> Result<String, ActionError> {
        let boards = match category {
            Some(category) => self
                .manager
                .leaderboard(scope, category, Some(caller))
                .await
                .map(|board| (vec![board], BoardsShown::One)),
            None => {
                let more = t!(lang, "discord-leaderboard-more");
                let boards = self.manager.leaderboards(scope, Some(caller)).await;
                boards.map(|boards| (boards, BoardsShown::Overview { more }))
            }
        };
        let (boards, shown) = boards?;
        Ok(history_text::leaderboard_text(&boards, shown, lang))
    }

    /// `/history`: the first page of `whose`'s games.
    pub(super) async fn history(&self, origin: &Origin<'_>, whose: Whose, lang: Lang) -> Handled {
        let page = self
            .manager
            .history(&whose.user, &PageAt::Newest, 0)
            .await?;
        origin.private(history_message(&whose, &page, lang)).await;
        Ok(())
    }

    /// A ◀ or ▶ press: the pressed page becomes page `number` of `user`'s history. A page
    /// with no games (games are only ever added, so only a forged number asks for one) is
    /// answered as such, and the pressed message stays as it was.
    pub(super) async fn history_page(
        &self,
        origin: &Origin<'_>,
        presser: &UserRef,
        (user, number, at): (String, u16, PageAt),
        lang: Lang,
    ) -> Handled {
        let own = user == presser.id;
        let mut user = UserRef::new(Platform::Discord, user, presser.name.clone());
        let page = self
            .manager
            .history(&user, &at, usize::from(number))
            .await?;
        if page.entries.is_empty() {
            tracing::info!(page = number, "Discord: a history page with no games");
            return said(origin, t!(lang, "discord-history-page-gone")).await;
        }
        if !own {
            user.name = name_in(&page, &user);
        }
        let whose = Whose { user, own };
        origin.update(history_message(&whose, &page, lang)).await;
        Ok(())
    }

    /// `/record`, an entry's button and a board's Record button: the record as a file, the
    /// move text in the message, and (`with_board`) the game's final board above it.
    pub(super) async fn record(
        &self,
        origin: &Origin<'_>,
        (asker, chat): (&UserRef, &ChatRef),
        game: Option<String>,
        with_board: bool,
        lang: Lang,
    ) -> Handled {
        let file = self.manager.record_in(chat, game).await?;
        let board = if with_board {
            self.final_board(asker, chat, &file.game).await
        } else {
            None
        };
        origin.private(record_message(&file, board, lang)).await;
        Ok(())
    }

    /// A game's board as it stands (its final board once over), drawn in the board's
    /// language, without its buttons: a copy to look at, not to play on.
    async fn final_board(&self, asker: &UserRef, chat: &ChatRef, game: &str) -> Option<Outgoing> {
        let request = Request {
            actor: asker.clone(),
            chat: chat.clone(),
            action: Action::Show {
                game: Some(game.to_string()),
            },
        };
        let view: GameView = match self.manager.act(request).await {
            Ok(Reply::Game(view)) => view,
            _ => return None,
        };
        let lang = present::board_lang(&view);
        let mut out = messages::game(&view, lang, MentionStyle::Message).await;
        out.content.clear();
        out.ping.clear();
        out.components.clear();
        Some(out)
    }
}

/// A history page: its text, one button per game, then ◀ ▶ where there are pages.
pub fn history_message(whose: &Whose, page: &HistoryPage, lang: Lang) -> Outgoing {
    let entries: Vec<LabeledButton> = page.entries.iter().map(entry_button).collect();
    let mut components: Vec<CreateActionRow> = entries
        .chunks(ENTRIES_PER_ROW)
        .map(|row| CreateActionRow::Buttons(row.iter().map(entry).collect()))
        .collect();
    let number = u16::try_from(page.page).unwrap_or(MAX_HISTORY_PAGE);
    let mut nav = Vec::new();
    // Each button carries the key its page starts from, so any page is one keyed read.
    if let Some(newer) = page.newer.clone() {
        let at = PageAt::NewerThan(newer);
        nav.push(page_button("◀", &whose.user, number.saturating_sub(1), at));
    }
    if let Some(older) = page.older.clone().filter(|_| number < MAX_HISTORY_PAGE) {
        let at = PageAt::OlderThan(older);
        nav.push(page_button("▶", &whose.user, number + 1, at));
    }
    if !nav.is_empty() {
        components.push(CreateActionRow::Buttons(nav));
    }
    Outgoing {
        content: history_text(whose.name().as_deref(), page, lang),
        components,
        ..Outgoing::default()
    }
}

fn entry(b: &LabeledButton) -> CreateButton {
    CreateButton::new(encode(&b.button))
        .label(b.label.clone())
        .style(ButtonStyle::Secondary)
}

fn page_button(label: &str, user: &UserRef, page: u16, at: PageAt) -> CreateButton {
    let button = Button::HistoryPage {
        user: user.id.clone(),
        page,
        at,
    };
    CreateButton::new(encode(&button))
        .label(label)
        .style(ButtonStyle::Primary)
}

/// A record: the file, the move text in the message (cut at a move, with a note, where it
/// is longer than a message may be: the file has it all), and the board if there is one.
pub fn record_message(file: &RecordFile, board: Option<Outgoing>, lang: Lang) -> Outgoing {
    let mut out = board.unwrap_or_default();
    out.content = fit(
        history_text::record_caption(file, lang),
        &t!(lang, "record-moves-cut"),
    );
    out.files.push(Attachment::new(
        file.file_name.clone(),
        file.text.clone().into_bytes(),
    ));
    out
}

/// `text` within [`CONTENT_MAX`] characters: cut at a space, ending with `note`.
fn fit(text: String, note: &str) -> String {
    if text.chars().count() <= CONTENT_MAX {
        return text;
    }
    let room = CONTENT_MAX.saturating_sub(note.chars().count());
    let head: String = text.chars().take(room).collect();
    let cut = head.rfind(char::is_whitespace).unwrap_or(head.len());
    format!("{}{note}", head[..cut].trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn a_long_move_text_is_cut_at_a_move_with_a_note() {
        let moves: Vec<String> = (1..=400).map(|n| format!("{n}. 7 3")).collect();
        let text = fit(moves.join(" "), " …");
        assert!(text.chars().count() <= CONTENT_MAX, "{}", text.len());
        assert!(text.ends_with(" …"));
        let before = text.trim_end_matches(" …");
        assert!(before.ends_with(" 7") || before.ends_with(" 3"), "{before}");
        assert_eq!(fit("1. 7 3".into(), " …"), "1. 7 3");
    }

    #[test]
    fn a_record_message_carries_the_file_and_the_moves() {
        let file = RecordFile {
            game: "ab12cd".into(),
            file_name: "toguz-ab12cd.pgn".into(),
            text: "[Game \"ab12cd\"]\n\n1. 7 3 *\n".into(),
            moves: "1. 7 3".into(),
            page_url: None,
        };
        let out = record_message(&file, None, Lang::Ru);
        assert!(
            out.content.starts_with("Запись партии ab12cd"),
            "{}",
            out.content
        );
        assert!(out.content.ends_with("1. 7 3"));
        assert_eq!(out.files.len(), 1);
        assert_eq!(out.files[0].name, "toguz-ab12cd.pgn");
        let sent = serde_json::to_value(out.into_response(true)).expect("json");
        assert_eq!(sent["attachments"][0]["filename"], "toguz-ab12cd.pgn");
        assert_eq!(sent["flags"], Value::from(64));
    }

    #[test]
    fn page_buttons_round_trip_and_only_where_there_are_pages() {
        let whose = Whose {
            user: UserRef::new(Platform::Discord, "1234567890123456789", "Alice"),
            own: false,
        };
        let cursor = |game: &str| crate::manager::history::Cursor {
            ended: 1_796_083_200_100,
            game: game.into(),
        };
        let page = HistoryPage {
            entries: vec![],
            page: 1,
            more: true,
            newer: Some(cursor("aa1")),
            older: Some(cursor("bb2")),
        };
        let out = history_message(&whose, &page, Lang::En);
        let row = serde_json::to_value(&out.components[0]).expect("json");
        let ids: Vec<&str> = row["components"]
            .as_array()
            .expect("buttons")
            .iter()
            .filter_map(|b| b["custom_id"].as_str())
            .collect();
        assert_eq!(
            ids,
            [
                "1hp:1234567890123456789:0:nmx3xkaqs.aa1",
                "1hp:1234567890123456789:2:omx3xkaqs.bb2"
            ]
        );
        for id in ids {
            assert!(matches!(
                crate::manager::buttons::decode(id),
                Ok(Button::HistoryPage { .. })
            ));
        }
        let first = HistoryPage {
            entries: vec![],
            page: 0,
            more: false,
            newer: None,
            older: None,
        };
        assert!(history_message(&whose, &first, Lang::En)
            .components
            .is_empty());
    }
}
