//! Inline keyboards: the board's pit buttons, the game and challenge buttons, the levels.
//!
//! Labels and button data come from the shared `platform::present` and `manager::buttons`,
//! so every platform shows the same words, and the data carries the game id and the ply
//! shown, fits Telegram's 64 bytes, and still works after a restart.

use super::refs::MsgRef;
use crate::i18n::{words, Lang};
use crate::manager::buttons::{decode, encode, Button};
use crate::manager::{ChallengeView, GameView, Player};
use crate::model::{Level, TimeControl, UserRef};
use crate::platform::present::history_text;
use crate::platform::present::{self, LabeledButton, LinkButton};
use crate::t;
use teloxide::types::{
    InlineKeyboardButton, InlineKeyboardButtonKind, InlineKeyboardMarkup, WebAppInfo,
};
use url::Url;

/// Pit buttons per row: nine in one row would be too narrow on a phone.
const PITS_PER_ROW: usize = 5;

fn button(b: &LabeledButton) -> InlineKeyboardButton {
    InlineKeyboardButton::callback(b.label.clone(), encode(&b.button))
}

/// Where a board is shown: Telegram opens a Web App button only in a user's private chat
/// with the bot (elsewhere it refuses the message: `BUTTON_TYPE_INVALID`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Where {
    /// A user's private chat with the bot.
    Private,
    /// A group, a supergroup or a channel.
    Group,
    /// An inline message, which may be in any chat.
    Inline,
}

impl Where {
    /// Where a chat's message is: users' chats have positive ids, groups negative ones.
    pub fn chat(chat: i64) -> Where {
        if chat > 0 {
            Where::Private
        } else {
            Where::Group
        }
    }

    pub fn of(place: &MsgRef) -> Where {
        match place {
            MsgRef::Chat { chat, .. } => Where::chat(*chat),
            MsgRef::Inline(_) => Where::Inline,
        }
    }

    pub fn is_inline(self) -> bool {
        self == Where::Inline
    }
}

/// The keyboard under a board everyone in the chat sees: the legal pits of the player to
/// move (none while the bot thinks), then what either player may do (resign, draw, abort,
/// rematch), then in a row of its own the game's page when the pages are served.
pub fn game_keyboard(
    view: &GameView,
    lang: Lang,
    place: Where,
    mini_app: Option<&MiniApp>,
) -> InlineKeyboardMarkup {
    game_keyboard_for(view, lang, place, None, mini_app)
}

/// `game_keyboard` for a board in `owner`'s private chat: its pits only on their turn.
pub fn game_keyboard_for(
    view: &GameView,
    lang: Lang,
    place: Where,
    owner: Option<&UserRef>,
    mini_app: Option<&MiniApp>,
) -> InlineKeyboardMarkup {
    let mut rows: Vec<Vec<InlineKeyboardButton>> = vec![];
    let to_move = match view.to_move_player() {
        Some(Player::Human(user)) if owner.is_none_or(|o| o == user) => Some(user),
        _ => None,
    };
    if let Some(user) = to_move {
        let pits: Vec<InlineKeyboardButton> = present::pit_buttons(view, Some(user))
            .iter()
            .filter(|b| b.enabled)
            .map(button)
            .collect();
        rows.extend(pits.chunks(PITS_PER_ROW).map(<[_]>::to_vec));
    }
    let mut actions: Vec<InlineKeyboardButton> = present::action_buttons(view, None, lang)
        .iter()
        .map(button)
        .collect();
    if view.is_over() {
        actions.push(button(&history_text::record_button(&view.id, lang)));
    }
    rows.extend(actions.chunks(3).map(<[_]>::to_vec));
    let link = present::page_button(view, lang).and_then(|l| link_button(&l, place, mini_app));
    if let Some(link) = link {
        rows.push(vec![link]);
    }
    InlineKeyboardMarkup::new(rows)
}

/// The Mini App made with @BotFather's /newapp (`[telegram] mini_app`) and its bot: where
/// no Web App button may go, a game page is linked through it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MiniApp {
    /// The bot's username, without `@`.
    pub bot: String,
    /// The app's short name.
    pub app: String,
}

impl MiniApp {
    /// The direct link that opens the Mini App on the game page `page` (`.../g/<key>`):
    /// `https://t.me/<bot>/<app>?startapp=<key>`; the app's page (`/tg`) reads the key from
    /// `start_param`. `None` when the address names no page key Telegram would pass on
    /// (`startapp`: 1 to 64 of A-Z a-z 0-9 _ -).
    pub fn link(&self, page: &Url) -> Option<Url> {
        let mut segments = page.path_segments()?.rev();
        let key = segments.next()?;
        let startable = (1..=64).contains(&key.len())
            && key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if segments.next()? != "g" || !startable {
            return None;
        }
        let mut url = Url::parse("https://t.me/").ok()?;
        url.set_path(&format!("{}/{}", self.bot, self.app));
        url.query_pairs_mut().append_pair("startapp", key);
        Some(url)
    }
}

/// A link button: in a private chat, when the address is https (Telegram opens only those
/// as Web Apps), one that opens the page inside Telegram; elsewhere the Mini App's direct
/// link to the page when there is a Mini App (it opens inside Telegram too, signed in),
/// else a plain URL button. `None` (logged) for an address that does not parse, and for
/// one Telegram refuses.
fn link_button(
    link: &LinkButton,
    place: Where,
    mini_app: Option<&MiniApp>,
) -> Option<InlineKeyboardButton> {
    let url = match Url::parse(&link.url) {
        Ok(url) => url,
        Err(error) => {
            tracing::warn!(url = link.url, %error, "telegram: a page address that does not parse");
            return None;
        }
    };
    if place != Where::Private {
        if let Some(direct) = mini_app.and_then(|app| app.link(&url)) {
            return Some(InlineKeyboardButton::url(link.label.clone(), direct));
        }
    }
    if !telegram_takes(&url) {
        // `toguz run` warned about the address at start; a board without the link still
        // plays, a board with it would be refused whole.
        tracing::debug!(
            url = link.url,
            "telegram: no link button to a host without a dot"
        );
        return None;
    }
    let label = link.label.clone();
    if place == Where::Private && url.scheme() == "https" {
        Some(InlineKeyboardButton::web_app(label, WebAppInfo { url }))
    } else {
        Some(InlineKeyboardButton::url(label, url))
    }
}

/// The keyboard of a private alert (issue 51): a row per game, opening its page (inside
/// Telegram over https: the alert is in the user's private chat), or with `pages` false
/// its board message (a `t.me/c/` link Telegram opens in the group). `None` without
/// buttons.
pub fn alert_keyboard(
    links: &[LinkButton],
    pages: bool,
    mini_app: Option<&MiniApp>,
) -> Option<InlineKeyboardMarkup> {
    let button = |l: &LinkButton| match pages {
        true => link_button(l, Where::Private, mini_app),
        false => {
            let url = Url::parse(&l.url).ok().filter(telegram_takes)?;
            Some(InlineKeyboardButton::url(l.label.clone(), url))
        }
    };
    let rows: Vec<Vec<InlineKeyboardButton>> =
        links.iter().filter_map(button).map(|b| vec![b]).collect();
    (!rows.is_empty()).then(|| InlineKeyboardMarkup::new(rows))
}

/// A keyboard of one button that opens `link` in the user's browser (not as a Web App: the
/// sign-in link's cookie belongs in the browser). `None` for an address Telegram refuses.
pub fn link_keyboard(link: &LinkButton) -> Option<InlineKeyboardMarkup> {
    let url = Url::parse(&link.url).ok().filter(telegram_takes)?;
    let button = InlineKeyboardButton::url(link.label.clone(), url);
    Some(InlineKeyboardMarkup::new([[button]]))
}

/// Whether Telegram takes a URL button to `url`: it refuses a host name without a dot
/// (`localhost`, a LAN machine's name) with BUTTON_URL_INVALID, and with it the whole
/// message the button is on.
pub fn telegram_takes(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(name)) => name.trim_end_matches('.').contains('.'),
        Some(_) => true,
        None => false,
    }
}

/// Accept / Decline / Cancel while the challenge is open; no buttons after. Under them, while
/// the challenger may still pick the time control (they named none), rows of time controls
/// (clocks, then days per move) with the current one ticked.
pub fn challenge_keyboard(view: &ChallengeView, lang: Lang) -> InlineKeyboardMarkup {
    let row: Vec<InlineKeyboardButton> = present::challenge_buttons(view, lang)
        .iter()
        .map(button)
        .collect();
    let mut rows = vec![row];
    if shows_time_row(view) {
        rows.extend(time_rows().map(|times| {
            times
                .into_iter()
                .map(|time| {
                    let data = Button::ChallengeTime {
                        challenge: view.id.clone(),
                        time,
                    };
                    let label = time_label(time, time == view.time_control, lang);
                    InlineKeyboardButton::callback(label, encode(&data))
                })
                .collect()
        }));
    }
    InlineKeyboardMarkup::new(rows.into_iter().filter(|r| !r.is_empty()))
}

/// Whether a challenge's message has the time row: while it is open, if the challenger named
/// no time control, and not in an inline message (open to anyone, it becomes the game's
/// board when accepted).
fn shows_time_row(view: &ChallengeView) -> bool {
    view.is_open() && view.time_changeable && !view.chat.id.starts_with("inline:")
}

/// The time controls of the level keyboard's last rows and of a challenge's time rows: on
/// the clock, then without (days per move, or the configured hours).
const TIME_CHOICES: [&[&str]; 2] = [
    &["3+2", "5+3", "10+5"],
    &["1d", "3d", "7d", "correspondence"],
];

/// Data of a time-row button (`tgt:3+2`): Telegram-only, it changes the level keyboard it is
/// on and never reaches the manager.
pub const TIME_PREFIX: &str = "tgt:";

/// One button per bot level, three to a row, each playing at `time` (`None`: the chat's
/// default); then rows of time controls, `time` ticked, that redraw this keyboard.
pub fn level_keyboard(lang: Lang, time: Option<TimeControl>) -> InlineKeyboardMarkup {
    let levels: Vec<InlineKeyboardButton> = Level::ALL
        .into_iter()
        .map(|level| {
            InlineKeyboardButton::callback(
                words::level_name(lang, level),
                encode(&Button::PlayLevel { level, time }),
            )
        })
        .collect();
    let mut rows: Vec<Vec<InlineKeyboardButton>> = levels.chunks(3).map(<[_]>::to_vec).collect();
    rows.extend(time_rows().map(|times| {
        times
            .into_iter()
            .map(|choice| {
                let label = time_label(choice, Some(choice) == time, lang);
                InlineKeyboardButton::callback(label, format!("{TIME_PREFIX}{choice}"))
            })
            .collect()
    }));
    InlineKeyboardMarkup::new(rows)
}

/// A time button's label: `3+2`, `2 days`, or the word for correspondence; ticked if
/// chosen.
fn time_label(time: TimeControl, ticked: bool, lang: Lang) -> String {
    let shown = match time {
        TimeControl::Correspondence => t!(lang, "tg-time-correspondence"),
        TimeControl::Days(days) => t!(lang, "manager-span-days", days = days),
        timed => timed.to_string(),
    };
    if ticked {
        format!("✓ {shown}")
    } else {
        shown
    }
}

fn time_rows() -> [Vec<TimeControl>; 2] {
    TIME_CHOICES.map(|row| {
        row.iter()
            .map(|text| TimeControl::parse(text).unwrap_or_default())
            .collect()
    })
}

/// Whether a keyboard is a level keyboard (its buttons play the bot): only there may a
/// time-row press redraw it.
pub fn is_level_keyboard(k: &InlineKeyboardMarkup) -> bool {
    k.inline_keyboard.iter().flatten().any(|b| {
        matches!(&b.kind, InlineKeyboardButtonKind::CallbackData(d)
            if matches!(decode(d), Ok(Button::PlayLevel { .. })))
    })
}

/// The placeholder button of an inline-mode challenge before Telegram reported it chosen:
/// `data` is `tgi:<challenger's user id>:<signature>` (Telegram-only data, never reaches the
/// shared codec; see `inline::ButtonKey`).
pub fn inline_placeholder(data: String, label: String) -> InlineKeyboardMarkup {
    InlineKeyboardMarkup::new([[InlineKeyboardButton::callback(label, data)]])
}

pub const INLINE_PREFIX: &str = "tgi:";

/// The game a keyboard's buttons belong to (for `/rematch` as a reply to a board).
pub fn game_of(k: &InlineKeyboardMarkup) -> Option<String> {
    k.inline_keyboard
        .iter()
        .flatten()
        .find_map(|b| match &b.kind {
            InlineKeyboardButtonKind::CallbackData(d) => decode(d).ok()?.game().map(str::to_string),
            _ => None,
        })
}

/// A tournament announcement's Join and Leave buttons, in one row; `None` once it takes
/// no players (a text edit without a keyboard takes the old one off).
pub fn tournament_keyboard(
    buttons: &[(Button, String)],
    link: Option<&LinkButton>,
) -> Option<InlineKeyboardMarkup> {
    let row: Vec<InlineKeyboardButton> = buttons
        .iter()
        .map(|(b, label)| InlineKeyboardButton::callback(label.clone(), encode(b)))
        .collect();
    let mut rows = Vec::new();
    if !row.is_empty() {
        rows.push(row);
    }
    // Tournaments are announced in groups: a plain link, in a row of its own.
    if let Some(link) = link.and_then(|l| link_button(l, Where::Group, None)) {
        rows.push(vec![link]);
    }
    (!rows.is_empty()).then(|| InlineKeyboardMarkup::new(rows))
}

/// The game, challenge or tournament a button acts on (`None` for the level buttons).
pub fn target(button: &Button) -> Option<&str> {
    match button {
        Button::AcceptChallenge { challenge, .. }
        | Button::DeclineChallenge { challenge }
        | Button::CancelChallenge { challenge }
        | Button::ChallengeTime { challenge, .. } => Some(challenge),
        Button::JoinTournament { tournament } | Button::LeaveTournament { tournament } => {
            Some(tournament)
        }
        other => other.game(),
    }
}

/// The game or challenge a keyboard's buttons act on.
pub fn target_of(k: &InlineKeyboardMarkup) -> Option<String> {
    k.inline_keyboard
        .iter()
        .flatten()
        .find_map(|b| match &b.kind {
            InlineKeyboardButtonKind::CallbackData(d) => {
                decode(d).ok().as_ref().and_then(target).map(str::to_string)
            }
            _ => None,
        })
}

/// The ply a board's keyboard was drawn for (its pit, resign and draw buttons carry it).
pub fn ply_of(k: &InlineKeyboardMarkup) -> Option<u16> {
    k.inline_keyboard
        .iter()
        .flatten()
        .find_map(|b| match &b.kind {
            InlineKeyboardButtonKind::CallbackData(d) => match decode(d).ok()? {
                Button::Move { ply, .. }
                | Button::Resign { ply, .. }
                | Button::OfferDraw { ply, .. } => Some(ply),
                _ => None,
            },
            _ => None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manager::ChallengeStatus;
    use crate::model::{ChatRef, Platform, UserRef};

    #[test]
    fn a_board_keyboard_gives_back_its_game_and_ply() {
        let board = InlineKeyboardMarkup::new([[
            InlineKeyboardButton::callback("3 · 9", "1m:abc:12:3"),
            InlineKeyboardButton::callback("Resign", "1r:abc:12"),
        ]]);
        assert_eq!(ply_of(&board), Some(12));
        assert_eq!(game_of(&board).as_deref(), Some("abc"));
        let finished =
            InlineKeyboardMarkup::new([[InlineKeyboardButton::callback("Rematch", "1rm:abc")]]);
        assert_eq!(ply_of(&finished), None);
        let forged = InlineKeyboardMarkup::new([[InlineKeyboardButton::callback("x", "1m:A:1:1")]]);
        assert_eq!(ply_of(&forged), None);
    }

    fn data(k: &InlineKeyboardMarkup) -> Vec<Vec<(String, String)>> {
        k.inline_keyboard
            .iter()
            .map(|row| {
                row.iter()
                    .map(|b| match &b.kind {
                        InlineKeyboardButtonKind::CallbackData(d) => (b.text.clone(), d.clone()),
                        other => panic!("{other:?}"),
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_level_keyboard_ends_with_time_rows_that_tick_the_choice() {
        let plain = data(&level_keyboard(Lang::Ru, None));
        let clocks = &plain[plain.len() - 2];
        assert_eq!(
            clocks.iter().map(|(_, d)| d.as_str()).collect::<Vec<_>>(),
            ["tgt:3+2", "tgt:5+3", "tgt:10+5"]
        );
        let times = plain.last().expect("a time row");
        assert_eq!(
            times.iter().map(|(_, d)| d.as_str()).collect::<Vec<_>>(),
            ["tgt:1d", "tgt:3d", "tgt:7d", "tgt:correspondence"]
        );
        let labels: Vec<&str> = times.iter().map(|(label, _)| label.as_str()).collect();
        assert_eq!(labels, ["1 день", "3 дня", "7 дней", "Заочная"]);
        assert!(times.iter().all(|(label, _)| !label.starts_with('✓')));
        let levels: Vec<&(String, String)> = plain[..plain.len() - 2].iter().flatten().collect();
        assert_eq!(levels.len(), Level::ALL.len());
        assert!(levels.iter().any(|(_, d)| d == "1b:easy"), "{levels:?}");

        let blitz = level_keyboard(Lang::En, TimeControl::parse("5+3").ok());
        assert!(is_level_keyboard(&blitz));
        let rows = data(&blitz);
        assert_eq!(rows[rows.len() - 2][1].0.as_str(), "✓ 5+3");
        for (_, d) in rows.iter().flatten() {
            assert!(d.len() <= crate::manager::buttons::MAX_LEN, "{d}");
        }
        assert!(rows.iter().flatten().any(|(_, d)| d == "1b:easy:5+3"));
        let ticked = data(&level_keyboard(Lang::Kk, Some(TimeControl::Correspondence)));
        assert_eq!(ticked.last().map(|r| r[3].0.as_str()), Some("✓ Сырттай"));
        let days = data(&level_keyboard(Lang::En, Some(TimeControl::Days(3))));
        assert_eq!(days.last().map(|r| r[1].0.as_str()), Some("✓ 3 days"));
        assert!(days.iter().flatten().any(|(_, d)| d == "1b:easy:3d"));
        let board =
            InlineKeyboardMarkup::new([[InlineKeyboardButton::callback("3 · 9", "1m:abc:12:3")]]);
        assert!(!is_level_keyboard(&board));
    }

    #[test]
    fn a_board_links_its_page_as_a_web_app_only_in_a_private_chat_and_over_https() {
        let players = [
            Player::Human(UserRef::new(Platform::Telegram, "1", "A")),
            Player::Human(UserRef::new(Platform::Telegram, "2", "B")),
        ];
        let chat = ChatRef::new(Platform::Telegram, "-100");
        let mut view = GameView::sample("ab12cd", chat, players);
        let without = game_keyboard(&view, Lang::Ru, Where::Private, None);
        // Only callback buttons (`data` panics on any other kind).
        assert!(!data(&without).is_empty());
        let url = "https://pages.example.org/g/ab12cd-0123456789abcdef0123";
        view.page_url = Some(url.into());
        let link = |view: &GameView, place: Where| {
            let keyboard = game_keyboard(view, Lang::Ru, place, None);
            let rows = &keyboard.inline_keyboard;
            assert_eq!(rows[..rows.len() - 1], without.inline_keyboard[..]);
            let last = rows.last().expect("a link row");
            assert_eq!(last.len(), 1);
            assert_eq!(last[0].text, "🌐 Страница партии");
            last[0].kind.clone()
        };
        let parsed = Url::parse(url).unwrap();
        assert_eq!(
            link(&view, Where::Private),
            InlineKeyboardButtonKind::WebApp(WebAppInfo {
                url: parsed.clone()
            })
        );
        for place in [Where::Group, Where::Inline] {
            assert_eq!(
                link(&view, place),
                InlineKeyboardButtonKind::Url(parsed.clone())
            );
        }
        let http = "http://192.168.1.5:8080/g/ab12cd-0123456789abcdef0123";
        view.page_url = Some(http.into());
        let expected = InlineKeyboardButtonKind::Url(Url::parse(http).unwrap());
        assert_eq!(link(&view, Where::Private), expected);
        // A host without a dot, which Telegram refuses (and the board with it): no link.
        for refused in ["http://localhost:8080/g/x", "https://toguzbox/g/x"] {
            view.page_url = Some(refused.into());
            for place in [Where::Private, Where::Group] {
                let keyboard = game_keyboard(&view, Lang::Ru, place, None);
                assert_eq!(
                    keyboard.inline_keyboard, without.inline_keyboard,
                    "{refused}"
                );
            }
        }
    }

    #[test]
    fn with_a_mini_app_a_board_outside_a_private_chat_links_its_page_through_it() {
        let players = [
            Player::Human(UserRef::new(Platform::Telegram, "1", "A")),
            Player::Human(UserRef::new(Platform::Telegram, "2", "B")),
        ];
        let chat = ChatRef::new(Platform::Telegram, "-100");
        let mut view = GameView::sample("ab12cd", chat, players);
        let url = "https://pages.example.org/g/ab12cd-0123456789abcdef0123";
        view.page_url = Some(url.into());
        let app = MiniApp {
            bot: "toguz_bot".into(),
            app: "play".into(),
        };
        let last = |place: Where| {
            let keyboard = game_keyboard(&view, Lang::En, place, Some(&app));
            let row = keyboard.inline_keyboard.last().expect("a link row").clone();
            assert_eq!(row.len(), 1);
            assert_eq!(row[0].text, "🌐 Game page");
            row[0].kind.clone()
        };
        let direct =
            Url::parse("https://t.me/toguz_bot/play?startapp=ab12cd-0123456789abcdef0123").unwrap();
        for place in [Where::Group, Where::Inline] {
            assert_eq!(last(place), InlineKeyboardButtonKind::Url(direct.clone()));
        }
        // A private chat keeps its Web App button (it carries the launch data itself).
        let page = Url::parse(url).unwrap();
        assert_eq!(
            last(Where::Private),
            InlineKeyboardButtonKind::WebApp(WebAppInfo { url: page })
        );
        // An address with no page key Telegram would pass on: the page itself.
        for odd in [
            "https://pages.example.org/p/ab12cd-0123",
            "https://pages.example.org/g/ab.cd",
            "https://pages.example.org/",
        ] {
            assert_eq!(app.link(&Url::parse(odd).unwrap()), None, "{odd}");
        }
        let long = format!("https://pages.example.org/g/{}", "a".repeat(65));
        assert_eq!(app.link(&Url::parse(&long).unwrap()), None);
    }

    fn challenge(chat: &str, changeable: bool) -> ChallengeView {
        let rec = crate::manager::ChallengeRecord {
            id: "ch0001".into(),
            challenger: UserRef::new(Platform::Telegram, "1", "A"),
            opponent: Some(UserRef::new(Platform::Telegram, "2", "B")),
            variant: crate::rules::Variant::STANDARD,
            chat: ChatRef::new(Platform::Telegram, chat),
            created_at: 0,
            expires_at: 600,
            status: ChallengeStatus::Open,
            challenger_side: None,
            rematch_of: None,
            messages: vec![],
            rated: true,
            time_control: TimeControl::fischer(5, 3),
            time_changeable: changeable,
            time_changes: 0,
        };
        rec.view(0)
    }

    #[test]
    fn a_challenge_given_without_a_time_control_has_a_time_row_while_open() {
        let rows = data(&challenge_keyboard(&challenge("-100", true), Lang::En));
        assert_eq!(rows.len(), 3, "{rows:?}");
        assert_eq!(
            rows[1],
            [
                ("3+2", "1ct:ch0001:3+2"),
                ("✓ 5+3", "1ct:ch0001:5+3"),
                ("10+5", "1ct:ch0001:10+5"),
            ]
            .map(|(l, d)| (l.to_string(), d.to_string()))
        );
        assert_eq!(
            rows[2],
            [
                ("1 day", "1ct:ch0001:1d"),
                ("3 days", "1ct:ch0001:3d"),
                ("7 days", "1ct:ch0001:7d"),
                ("Correspondence", "1ct:ch0001:correspondence"),
            ]
            .map(|(l, d)| (l.to_string(), d.to_string()))
        );
        assert!(rows
            .iter()
            .flatten()
            .all(|(_, d)| decode(d).is_ok() && d.len() <= crate::manager::buttons::MAX_LEN));
        // A typed time control, an inline message, a closed challenge: no time row.
        for view in [
            challenge("-100", false),
            challenge("inline:AAQ", true),
            ChallengeView {
                status: ChallengeStatus::Declined,
                ..challenge("-100", true)
            },
        ] {
            let rows = data(&challenge_keyboard(&view, Lang::En));
            assert!(
                rows.iter().flatten().all(|(_, d)| !d.starts_with("1ct:")),
                "{rows:?}"
            );
        }
    }

    #[test]
    fn a_tournament_keyboard_links_its_page_in_a_row_of_its_own() {
        let join = [(
            Button::JoinTournament {
                tournament: "ab12cd".into(),
            },
            "Join".to_string(),
        )];
        let link = LinkButton {
            label: "🏆 Tournament page".into(),
            url: "https://toguz.example.org/t/ab12cd-0123456789abcdef0123".into(),
        };
        let k = tournament_keyboard(&join, Some(&link)).expect("a keyboard");
        assert_eq!(k.inline_keyboard.len(), 2);
        assert!(matches!(
            &k.inline_keyboard[1][0].kind,
            InlineKeyboardButtonKind::Url(url) if url.as_str() == link.url
        ));
        assert_eq!(target_of(&k).as_deref(), Some("ab12cd"));
        // Over, no Join or Leave: the link alone; without pages, nothing.
        let over = tournament_keyboard(&[], Some(&link)).expect("the link");
        assert_eq!(over.inline_keyboard.len(), 1);
        assert_eq!(tournament_keyboard(&[], None), None);
    }
}
