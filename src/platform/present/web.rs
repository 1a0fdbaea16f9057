//! What a game's web page shows (issue 35), decided here like every other view: the words
//! in the page's language and the position after every half-move, which the page replays.
//! Pure: the web adapter turns this into HTML.

use crate::i18n::Lang;
use crate::manager::links::GamePage;
use crate::manager::public::{ListedGame, PublicGames};
use crate::manager::Leaderboard;
use crate::ratings::keys::Scope;
use crate::rules::{MoveReport, Position, Side};
use crate::t;
use serde::Serialize;

/// One shown position: after `ply` half-moves of the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlyShown {
    /// The position string (docs/rules.md), for `data-position` and the Copy button.
    pub fen: String,
    /// White's and Black's pits, 1 to 9.
    pub pits: [[u8; 9]; 2],
    pub stores: [u8; 2],
    /// White's and Black's tuzdek: the pit (1-9) in the *opponent's* row, or 0.
    pub tuzdeks: [u8; 2],
    /// The move that led here: side (0 White, 1 Black), pit, landing side, landing pit.
    pub last: Option<[u8; 4]>,
    /// That move in standard notation (`76`, `68X`); empty at the start.
    pub token: String,
    /// Side to move: 0 White, 1 Black.
    pub to_move: u8,
}

/// The page's words, in its language.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PageWords {
    pub lang: &'static str,
    pub title: String,
    pub description: String,
    /// White's and Black's names as shown (cleaned; no platform ids).
    pub names: [String; 2],
    /// "White", "Black".
    pub sides: [String; 2],
    /// A rating beside each name, when the game is rated.
    pub ratings: [Option<String>; 2],
    pub variant: String,
    pub time_control: String,
    /// The result, or whose move it is.
    pub status: String,
    pub to_move: [String; 2],
    pub store: String,
    pub tuzdek: String,
    pub start: String,
    pub back: String,
    pub forward: String,
    pub end: String,
    pub copy: String,
    pub copied: String,
    pub record: String,
    pub moves: String,
    pub live: String,
    pub ply: String,
    pub language: String,
}

/// Every position of the game, from the start (`[0]`) to the last move; a move the rules
/// refuse (a corrupt record) ends the list there.
pub fn replay(page: &GamePage) -> Vec<PlyShown> {
    let mut pos = Position::start(page.view.variant);
    let mut out = vec![shown_after(&pos, None)];
    for &pit in &page.pits {
        let Ok(report) = pos.play(pit) else {
            tracing::warn!(game = page.view.id, pit, "a page's move does not replay");
            break;
        };
        out.push(shown_after(&pos, Some(&report)));
    }
    out
}

/// `pos` as the page's board draws it, `report` the move that led there (marked).
pub fn shown_after(pos: &Position, report: Option<&MoveReport>) -> PlyShown {
    let last = report.map(|r| {
        [
            r.side.index() as u8,
            r.pit,
            r.landing_side.index() as u8,
            r.landing_pit,
        ]
    });
    let token = report.map(|r| r.notation().to_string()).unwrap_or_default();
    PlyShown {
        fen: pos.to_fen(),
        pits: Side::BOTH.map(|s| pos.row(s)),
        stores: Side::BOTH.map(|s| pos.store(s)),
        tuzdeks: Side::BOTH.map(|s| pos.tuzdek(s).unwrap_or(0)),
        last,
        token,
        to_move: pos.to_move().index() as u8,
    }
}

/// A reviewed game's graph and largest mistakes, as the page shows them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReviewShown {
    pub title: String,
    /// Each position's value from White's side, in balls (clipped), from the start.
    pub evals: Vec<f64>,
    pub mistakes: Vec<MistakeShown>,
}

/// One marked mistake: its line, and the half-move of the board before it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MistakeShown {
    pub before_ply: usize,
    pub text: String,
}

/// The review of `page`'s game, if it was reviewed: the same marks and lines as `/review`.
pub fn review_shown(page: &GamePage, lang: Lang) -> Option<ReviewShown> {
    let review = page.review.as_ref()?;
    let mut evals = vec![review.start_eval.balls()];
    evals.extend(review.plies.iter().map(|p| p.after.balls()));
    let mistakes = review
        .marked_mistakes()
        .iter()
        .filter_map(|m| {
            let p = review.plies.get(m.index)?;
            Some(MistakeShown {
                before_ply: p.ply - 1,
                text: crate::review::mistake_line(lang, m.mark, p),
            })
        })
        .collect();
    Some(ReviewShown {
        title: t!(lang, "web-review"),
        evals,
        mistakes,
    })
}

/// The page's words for `page` in `lang`.
pub fn page_words(page: &GamePage, lang: Lang) -> PageWords {
    let view = &page.view;
    let names = Side::BOTH.map(|s| super::plain_player_name(view.player(s), lang));
    let sides = Side::BOTH.map(|s| super::side_name(s, lang));
    let ratings = page
        .ratings
        .map(|r| r.map(|r| t!(lang, "web-rating", rating = r.rating.round() as i64)));
    let variant = super::variant_text(view.variant, lang);
    let control = view.time_control;
    let to_move = [
        t!(lang, "board-to-move-white"),
        t!(lang, "board-to-move-black"),
    ];
    let status = super::result_text_plain(view, lang)
        .unwrap_or_else(|| to_move[view.position.to_move().index()].clone());
    PageWords {
        lang: lang.code(),
        title: t!(
            lang,
            "web-title",
            white = names[0].clone(),
            black = names[1].clone()
        ),
        description: format!("{} · {variant}", status),
        names,
        sides,
        ratings,
        variant,
        // A chat's texts leave correspondence unnamed; a page names it, and the time left
        // for the move in a game with days per move.
        time_control: match super::clock::days_left_line(view, lang, super::ClockStyle::TimeOfDay) {
            Some(left) => left,
            None => super::time_control_name(control, lang),
        },
        status,
        to_move,
        store: t!(lang, "web-store"),
        tuzdek: t!(lang, "web-tuzdek"),
        start: t!(lang, "web-start"),
        back: t!(lang, "web-back"),
        forward: t!(lang, "web-forward"),
        end: t!(lang, "web-end"),
        copy: t!(lang, "web-copy"),
        copied: t!(lang, "web-copied"),
        record: t!(lang, "web-record"),
        moves: t!(lang, "web-moves"),
        live: t!(lang, "web-live"),
        ply: t!(lang, "web-ply"),
        language: t!(lang, "web-language"),
    }
}

/// The words of the page for an address that names no game.
pub fn not_found_words(lang: Lang, missing: Missing) -> (String, String) {
    let text = match missing {
        Missing::Game => t!(lang, "web-not-found"),
        Missing::Player => t!(lang, "web-not-found-player"),
        Missing::Tournament => t!(lang, "web-not-found-tournament"),
        Missing::Page => t!(lang, "web-not-found-page"),
    };
    (t!(lang, "web-not-found-title"), text)
}

/// What an address that leads nowhere named, so its 404 page says what is not there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missing {
    /// `/g/<key>`, its record, image and live stream.
    Game,
    /// `/p/<key>`.
    Player,
    /// `/t/<key>` and its live stream.
    Tournament,
    /// Any other address.
    Page,
}

/// The title and text of the page shown while the store does not answer.
pub fn unavailable_words(lang: Lang) -> (String, String) {
    (
        t!(lang, "web-unavailable-title"),
        t!(lang, "web-unavailable"),
    )
}

/// The answer to `/web`: whether the chat's games are listed, and how admins change it
/// (`commands`: the adapter's own syntax to list, and to stop), with the site's address.
pub fn listing_state(
    public: bool,
    (on, off): (&str, &str),
    site: Option<&str>,
    lang: Lang,
) -> String {
    let text = match public {
        true => t!(lang, "web-public-state-on", command = off),
        false => t!(lang, "web-public-state-off", command = on),
    };
    with_site(text, site)
}

/// The answer to an admin who listed the chat's games (`public`) or stopped.
pub fn listing_set(public: bool, site: Option<&str>, lang: Lang) -> String {
    match public {
        true => with_site(t!(lang, "web-public-on"), site),
        false => t!(lang, "web-public-off"),
    }
}

/// Whether the caller's page lists all their games (`public`), and how to change it.
pub fn profile_state(public: bool, (on, off): (&str, &str), lang: Lang) -> String {
    match public {
        true => t!(lang, "web-profile-state-on", command = off),
        false => t!(lang, "web-profile-state-off", command = on),
    }
}

/// The answer to a player who chose to show all their games on their page, or stopped.
pub fn profile_set(public: bool, lang: Lang) -> String {
    match public {
        true => t!(lang, "web-profile-on"),
        false => t!(lang, "web-profile-off"),
    }
}

/// The answer to someone who is not an admin of the chat.
pub fn listing_admins_only(lang: Lang) -> String {
    t!(lang, "web-public-admins")
}

fn with_site(text: String, site: Option<&str>) -> String {
    match site {
        Some(site) => format!("{text}\n{site}/"),
        None => text,
    }
}

/// A game in the front page's lists: its page's key and its words.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub key: String,
    /// `White – Black`.
    pub players: String,
    /// The result, or whose move it is.
    pub status: String,
    /// The variant and time control.
    pub detail: String,
}

/// The front page's words and lists.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexWords {
    pub title: String,
    pub about: String,
    pub listed: String,
    pub live_heading: String,
    pub recent_heading: String,
    pub no_live: String,
    pub no_recent: String,
    pub leaderboards: String,
    pub live: Vec<GameRow>,
    pub recent: Vec<GameRow>,
}

/// The front page: the listed chats' games, ongoing and ended.
pub fn index_words(games: &PublicGames, lang: Lang) -> IndexWords {
    let rows = |list: &[ListedGame]| list.iter().map(|g| game_row(g, lang)).collect();
    IndexWords {
        title: t!(lang, "web-index-title"),
        about: t!(lang, "web-index-about"),
        listed: t!(lang, "web-index-listed"),
        live_heading: t!(lang, "web-index-live"),
        recent_heading: t!(lang, "web-index-recent"),
        no_live: t!(lang, "web-index-no-live"),
        no_recent: t!(lang, "web-index-no-recent"),
        leaderboards: t!(lang, "web-leaderboards"),
        live: rows(&games.live),
        recent: rows(&games.recent),
    }
}

fn game_row(game: &ListedGame, lang: Lang) -> GameRow {
    let view = &game.view;
    let names = Side::BOTH.map(|s| super::plain_player_name(view.player(s), lang));
    let status =
        super::result_text_plain(view, lang).unwrap_or_else(|| match view.position.to_move() {
            Side::White => t!(lang, "board-to-move-white"),
            Side::Black => t!(lang, "board-to-move-black"),
        });
    let control = view.time_control;
    let control = super::time_control_name(control, lang);
    let [white, black] = names;
    GameRow {
        key: game.key.clone(),
        players: t!(lang, "web-index-players", white = white, black = black),
        status,
        detail: format!("{} · {control}", super::variant_text(view.variant, lang)),
    }
}

/// One leaderboard as the page shows it: names and ratings, never a platform id.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardWords {
    /// `Leaderboard: everyone on Telegram`.
    pub scope: String,
    pub category: String,
    /// Place, name, rating, games, and the player's page key.
    pub rows: Vec<(usize, String, String, u32, Option<String>)>,
}

/// The leaderboards page's words: its headings, and the boards someone is on.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderboardWords {
    pub title: String,
    pub player: String,
    pub rating: String,
    pub games: String,
    pub empty: String,
    pub back: String,
    pub boards: Vec<BoardWords>,
}

/// The leaderboards page from every platform's boards; `keys`: the players' page keys by
/// user key (`Manager::player_page_key`), a name without one is not linked.
pub fn leaderboard_words(
    boards: &[Leaderboard],
    keys: &std::collections::HashMap<String, String>,
    lang: Lang,
) -> LeaderboardWords {
    let boards = boards
        .iter()
        .filter(|b| !b.top.is_empty())
        .map(|b| BoardWords {
            scope: match &b.scope {
                Scope::Platform(p) => t!(
                    lang,
                    "leaderboard-global",
                    platform = super::history_text::platform_name(*p)
                ),
                Scope::Chat(_) => t!(lang, "leaderboard-chat"),
            },
            category: super::history_text::category_name(b.category, lang),
            rows: b
                .top
                .iter()
                .map(|(place, row)| {
                    let name = crate::model::names::clean_name(&row.user.name);
                    let key = keys.get(&row.user.key()).cloned();
                    (*place, name, row.rating.shown(), row.games, key)
                })
                .collect(),
        })
        .collect();
    LeaderboardWords {
        title: t!(lang, "web-leaderboards"),
        player: t!(lang, "web-leaderboard-player"),
        rating: t!(lang, "web-leaderboard-rating"),
        games: t!(lang, "web-leaderboard-games"),
        empty: t!(lang, "leaderboard-empty"),
        back: t!(lang, "web-all-games"),
        boards,
    }
}

/// The page's language: `?lang=` when it names one, else the browser's first language we
/// speak by `Accept-Language` (its q-values respected), else English.
pub fn page_lang(query: Option<&str>, accept_language: Option<&str>) -> Lang {
    if let Some(lang) = query.and_then(Lang::from_code) {
        return lang;
    }
    let Some(header) = accept_language else {
        return Lang::En;
    };
    let mut wanted: Vec<(f32, Lang)> = header
        .split(',')
        .filter_map(|part| {
            let mut fields = part.trim().split(';');
            let tag = fields.next()?.trim();
            let primary = tag.split(['-', '_']).next()?.to_ascii_lowercase();
            let lang = Lang::from_code(&primary)?;
            let q = fields
                .find_map(|f| f.trim().strip_prefix("q=").map(str::to_string))
                .and_then(|q| q.parse::<f32>().ok())
                .unwrap_or(1.0);
            (q > 0.0).then_some((q, lang))
        })
        .collect();
    // Stable: of equal q-values, the browser's order.
    wanted.sort_by(|a, b| b.0.total_cmp(&a.0));
    wanted.first().map_or(Lang::En, |(_, lang)| *lang)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_language_comes_from_the_switch_then_the_browser() {
        assert_eq!(page_lang(Some("kk"), Some("ru")), Lang::Kk);
        assert_eq!(page_lang(Some("xx"), Some("ru-RU,ru;q=0.9")), Lang::Ru);
        assert_eq!(
            page_lang(None, Some("de-DE,de;q=0.9,kk;q=0.8,ru;q=0.7")),
            Lang::Kk
        );
        assert_eq!(page_lang(None, Some("en;q=0.5, ru;q=0.8")), Lang::Ru);
        assert_eq!(page_lang(None, Some("ru;q=0, fr")), Lang::En);
        assert_eq!(page_lang(None, Some("garbage;;;,")), Lang::En);
        assert_eq!(page_lang(None, None), Lang::En);
    }

    #[test]
    fn a_page_names_the_time_control_and_the_time_left_of_a_day_game() {
        use crate::manager::{GameStatus, GameView, Player};
        use crate::model::{ChatRef, Platform, TimeControl, UserRef};
        let person = |id: &str| Player::Human(UserRef::new(Platform::Telegram, id, id));
        let chat = ChatRef::new(Platform::Telegram, "-100");
        let mut view = GameView::sample("ab12cd", chat, [person("1"), person("2")]);
        let page = |view: &GameView| GamePage {
            key: "k".into(),
            view: view.clone(),
            pits: vec![],
            record: String::new(),
            created_at: 0,
            ratings: [None, None],
            review: None,
            player_keys: [None, None],
            listed: false,
        };
        assert_eq!(page_words(&page(&view), Lang::Ru).time_control, "Заочные");
        view.time_control = TimeControl::Days(3);
        view.timeout_at = Some(3 * 86_400);
        view.shown_at = 3600;
        assert_eq!(
            page_words(&page(&view), Lang::En).time_control,
            "3 days per move: 2 days 23 h left (until 04.01.1970 00:00 UTC)."
        );
        view.status = GameStatus::Finished {
            winner: None,
            reason: crate::manager::FinishReason::Agreed,
        };
        assert_eq!(
            page_words(&page(&view), Lang::Ru).time_control,
            "3 дня на ход"
        );
    }
}
