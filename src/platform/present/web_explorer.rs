//! What the opening explorer's web page shows (issue 52): the address a position and its
//! choices are asked by (`/explorer?moves=772&source=masters&category=blitz&band=2000`),
//! read and written here, and the page's words and links in the reader's language. The
//! numbers come from `present::explorer` (what chat shows too); the web adapter lays this
//! out as HTML.

use super::explorer::{self as shared, ExplorerTable};
use crate::explorer::{Band, Filter, GameInfo};
use crate::i18n::Lang;
use crate::manager::explorer::{
    BookLine, ExplorerAsk, ExplorerSource, ExplorerView, EXPLORER_MAX_MOVES,
};
use crate::manager::ActionError;
use crate::model::Category;
use crate::rules::{parse_variant, variant_text, Position, Variant};
use crate::t;

/// The longest player name an address may ask for.
pub const MAX_NAME: usize = 64;

/// The page's address.
pub const PATH: &str = "/explorer";

/// The address of an imported game's page.
pub fn game_href(id: &str) -> String {
    format!("{PATH}/game/{}", encode(id))
}

fn encode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// Why an explorer address was refused: its words (a 400 page shows them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadAsk(pub String);

/// The position and choices a page's query asks for (`get` reads one parameter). A line
/// that cannot be played is refused with the chat's words for it; an unknown source,
/// category, band or variant with the page's.
pub fn ask_of<'a>(
    get: impl Fn(&str) -> Option<&'a str>,
    lang: Lang,
) -> Result<ExplorerAsk, BadAsk> {
    let bad_choice = || BadAsk(t!(lang, "web-explorer-bad-choice"));
    let mut ask = ExplorerAsk::start();
    if let Some(text) = get("variant").filter(|v| !v.trim().is_empty()) {
        ask.variant = parse_variant(text).ok_or_else(bad_choice)?;
    }
    ask.source = match get("source").map(str::trim).unwrap_or("") {
        "" | "all" => ExplorerSource::All,
        "masters" => ExplorerSource::Masters,
        "club" => ExplorerSource::Club,
        other => match other.strip_prefix("player:").map(str::trim) {
            Some(name) if !name.is_empty() && name.chars().count() <= MAX_NAME => {
                ExplorerSource::Player(name.to_string())
            }
            _ => return Err(bad_choice()),
        },
    };
    let mut filter = Filter::default();
    match get("category").map(str::trim).unwrap_or("") {
        "" | "any" => {}
        text => {
            let category = Category::ALL
                .into_iter()
                .find(|c| c.name() == text)
                .ok_or_else(bad_choice)?;
            filter.categories = vec![crate::explorer::category_code(Some(category))];
        }
    }
    match get("band").map(str::trim).unwrap_or("") {
        "" | "any" => {}
        text => filter.bands = vec![Band::parse(text).ok_or_else(bad_choice)?],
    }
    ask.filter = filter;
    let refused = |error: ActionError| BadAsk(super::error_text(&error, lang));
    ask.moves = ExplorerAsk::parse_moves(get("moves").unwrap_or("")).map_err(refused)?;
    ask.position().map_err(refused)?;
    Ok(ask)
}

/// How an address names a rating band (what `Band::parse` reads).
fn band_code(band: Band) -> &'static str {
    match band {
        Band::Unrated => "unrated",
        Band::Below1200 => "1200",
        Band::From1200 => "1200-1600",
        Band::From1600 => "1600-2000",
        Band::From2000 => "2000",
    }
}

/// The address of `ask`; `lang`: the language the reader chose on the page (kept on its
/// links), `None` when the browser's is used.
pub fn href(ask: &ExplorerAsk, lang: Option<Lang>) -> String {
    let moves: String = ask.moves.iter().map(|p| char::from(b'0' + p)).collect();
    let mut out = format!("{PATH}?moves={moves}");
    if !ask.variant.is_standard() {
        out.push_str(&format!("&variant={}", encode(&variant_text(ask.variant))));
    }
    let source = match &ask.source {
        ExplorerSource::All | ExplorerSource::Chat(_) => None,
        ExplorerSource::Masters => Some("masters".to_string()),
        ExplorerSource::Club => Some("club".to_string()),
        ExplorerSource::Player(name)
        | ExplorerSource::PlayerKey {
            name: Some(name), ..
        } => Some(format!("player:{name}")),
        ExplorerSource::PlayerKey { name: None, .. } => None,
    };
    if let Some(source) = source {
        out.push_str(&format!("&source={}", encode(&source)));
    }
    if let Some(&code) = ask.filter.categories.first() {
        if let Some(c) = Category::ALL
            .into_iter()
            .find(|c| crate::explorer::category_code(Some(*c)) == code)
        {
            out.push_str(&format!("&category={}", c.name()));
        }
    }
    if let Some(&band) = ask.filter.bands.first() {
        out.push_str(&format!("&band={}", band_code(band)));
    }
    if let Some(lang) = lang {
        out.push_str(&format!("&lang={}", lang.code()));
    }
    out
}

/// The explorer at the position after the first `ply` of `pits` (standard start of
/// `variant`), or `None` past the deepest line it takes.
pub fn ply_href(variant: Variant, pits: &[u8], ply: usize) -> Option<String> {
    (ply <= EXPLORER_MAX_MOVES && ply <= pits.len()).then(|| {
        let ask = ExplorerAsk {
            variant,
            moves: pits[..ply].to_vec(),
            ..ExplorerAsk::start()
        };
        href(&ask, None)
    })
}

/// A game page's ways into the explorer: the link at the shown half-move (its script moves
/// it along with the board) and the game's line in the explorer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameExplorerLinks {
    pub label: String,
    /// The explorer after the shown half-move (`None` past the deepest line it takes).
    pub href: Option<String>,
    /// The explorer's address without moves: the script sets `moves` for each half-move.
    pub base: String,
    /// The deepest half-move it links.
    pub max: usize,
    /// How long the game followed the explorer's games and its novelty (`book_line_text`),
    /// with the link to the position where it left them.
    pub book: Option<(String, String, String)>,
}

/// The explorer's links of a game's page at half-move `ply` of `pits`.
pub fn game_links(
    variant: Variant,
    pits: &[u8],
    ply: usize,
    book: Option<&BookLine>,
    lang: Lang,
) -> GameExplorerLinks {
    let base = ExplorerAsk {
        variant,
        ..ExplorerAsk::start()
    };
    GameExplorerLinks {
        label: t!(lang, "web-explorer-link"),
        href: ply_href(variant, pits, ply),
        base: href(&base, None),
        max: EXPLORER_MAX_MOVES,
        book: book.and_then(|book| {
            let text = super::review::book_line_text(book, lang)?;
            let link = t!(lang, "web-explorer-book-link");
            Some((text, link, href(&book.ask(), None)))
        }),
    }
}

/// One choice among a group's (a source, a time category, a band): a link, the current one
/// marked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub text: String,
    pub href: String,
    pub current: bool,
}

/// A row of choices with its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChoiceGroup {
    pub label: String,
    pub choices: Vec<Choice>,
}

/// One of the last games: its line, and its page (a club game's, or an imported game's
/// page here) when it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastRow {
    pub text: String,
    pub href: Option<String>,
}

/// The explorer page's words and links.
#[derive(Clone, Debug, PartialEq)]
pub struct ExplorerPageWords {
    pub title: String,
    /// "After 7 7 2" or "Start position".
    pub line: String,
    /// Whose games are counted.
    pub source: String,
    pub table: ExplorerTable,
    /// Each row's link: the position after its pit.
    pub row_hrefs: Vec<String>,
    /// The table's column heads: move, games, results (White / draws / Black), rating.
    pub columns: [String; 4],
    pub total: String,
    /// White wins, draws, Black wins (the bars' legend).
    pub results: [String; 3],
    pub no_games: String,
    /// To the start and one move back, while not at the start.
    pub start: Option<(String, String)>,
    pub back: Option<(String, String)>,
    pub choices: Vec<ChoiceGroup>,
    pub last_heading: String,
    pub last: Vec<LastRow>,
    /// The last games are not listed under a filter (the explorer keeps them unfiltered).
    pub last_note: Option<String>,
    pub to_move: String,
    /// The board's store label.
    pub store: String,
    /// The link of each pit the side to move may play (1-9), with its label.
    pub pit_links: Vec<(u8, String, String)>,
}

/// The page of `view`; `chosen`: the language the reader picked on the page.
pub fn page_words(view: &ExplorerView, lang: Lang, chosen: Option<Lang>) -> ExplorerPageWords {
    let ask = &view.ask;
    let with = |moves: Vec<u8>| {
        href(
            &ExplorerAsk {
                moves,
                ..ask.clone()
            },
            chosen,
        )
    };
    let table = shared::explorer_table(view);
    let row_hrefs = table
        .rows
        .iter()
        .map(|row| with([ask.moves.as_slice(), &[row.pit]].concat()))
        .collect();
    let step = |text: String, moves: Vec<u8>| (text, with(moves));
    let at_start = ask.moves.is_empty();
    let back = ask.moves[..ask.moves.len().saturating_sub(1)].to_vec();
    let position = &view.position;
    let deeper = ask.moves.len() < EXPLORER_MAX_MOVES;
    let pit_links = position
        .legal_moves()
        .iter()
        .filter(|_| deeper)
        .map(|pit| {
            let label = t!(lang, "web-explorer-play-pit", pit = pit);
            (pit, label, with([ask.moves.as_slice(), &[pit]].concat()))
        })
        .collect();
    let filtered = ask.filter != Filter::default();
    ExplorerPageWords {
        title: t!(lang, "web-explorer-title"),
        line: shared::line_text(&ask.moves, lang),
        source: shared::source_text(&ask.source, lang),
        row_hrefs,
        table,
        columns: [
            t!(lang, "web-explorer-move"),
            t!(lang, "web-explorer-games"),
            t!(lang, "web-explorer-results"),
            t!(lang, "web-explorer-rating"),
        ],
        total: t!(lang, "web-explorer-total"),
        results: [
            t!(lang, "web-explorer-white-wins"),
            t!(lang, "web-explorer-draws"),
            t!(lang, "web-explorer-black-wins"),
        ],
        no_games: shared::no_games_text(lang),
        start: (!at_start).then(|| step(t!(lang, "web-start"), Vec::new())),
        back: (!at_start).then(|| step(t!(lang, "web-back"), back)),
        choices: choices(ask, lang, chosen),
        last_heading: t!(lang, "web-explorer-last"),
        last: view
            .last
            .iter()
            .map(|game| LastRow {
                text: shared::last_game_text(game, lang),
                href: match (&game.page_url, &game.game.info.game) {
                    (Some(url), _) => Some(url.clone()),
                    // A club game without a page to show is listed without a link.
                    (None, Some(_)) => None,
                    (None, None) => Some(game_href(&game.game.id)),
                },
            })
            .collect(),
        last_note: filtered.then(|| t!(lang, "web-explorer-last-unfiltered")),
        to_move: to_move(position, lang),
        store: t!(lang, "web-store"),
        pit_links,
    }
}

fn to_move(position: &Position, lang: Lang) -> String {
    if position.outcome().is_some() {
        return t!(lang, "web-explorer-over");
    }
    match position.to_move() {
        crate::rules::Side::White => t!(lang, "board-to-move-white"),
        crate::rules::Side::Black => t!(lang, "board-to-move-black"),
    }
}

/// The source, time category and band choices, each a link to the same position.
fn choices(ask: &ExplorerAsk, lang: Lang, chosen: Option<Lang>) -> Vec<ChoiceGroup> {
    let link = |changed: ExplorerAsk, current: bool, text: String| Choice {
        href: href(&changed, chosen),
        current,
        text,
    };
    let mut sources: Vec<Choice> = [
        ExplorerSource::All,
        ExplorerSource::Masters,
        ExplorerSource::Club,
    ]
    .into_iter()
    .map(|source| {
        let text = shared::source_text(&source, lang);
        let current = source == ask.source;
        link(
            ExplorerAsk {
                source,
                ..ask.clone()
            },
            current,
            text,
        )
    })
    .collect();
    if matches!(
        ask.source,
        ExplorerSource::Player(_) | ExplorerSource::PlayerKey { .. }
    ) {
        let text = shared::source_text(&ask.source, lang);
        sources.push(link(ask.clone(), true, text));
    }
    let any = t!(lang, "web-explorer-any");
    let filter_with = |categories: Vec<u8>, bands: Vec<Band>| ExplorerAsk {
        filter: Filter { categories, bands },
        ..ask.clone()
    };
    let bands = ask.filter.bands.clone();
    let mut categories = vec![link(
        filter_with(Vec::new(), bands.clone()),
        ask.filter.categories.is_empty(),
        any.clone(),
    )];
    for category in Category::ALL {
        let code = crate::explorer::category_code(Some(category));
        categories.push(link(
            filter_with(vec![code], bands.clone()),
            ask.filter.categories == [code],
            super::history_text::category_name(category, lang),
        ));
    }
    let chosen_categories = ask.filter.categories.clone();
    let mut band_choices = vec![link(
        filter_with(chosen_categories.clone(), Vec::new()),
        bands.is_empty(),
        any,
    )];
    for band in Band::ALL {
        band_choices.push(link(
            filter_with(chosen_categories.clone(), vec![band]),
            bands == [band],
            shared::band_text(band, lang),
        ));
    }
    vec![
        ChoiceGroup {
            label: t!(lang, "web-explorer-source"),
            choices: sources,
        },
        ChoiceGroup {
            label: t!(lang, "web-explorer-category"),
            choices: categories,
        },
        ChoiceGroup {
            label: t!(lang, "web-explorer-band"),
            choices: band_choices,
        },
    ]
}

/// An imported game's page: who played, where and when, the result, and its counted
/// opening moves, each a link to the explorer after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameWords {
    pub title: String,
    /// "Event, date", what the record names.
    pub detail: Option<String>,
    pub result: String,
    pub moves_heading: String,
    /// Each counted half-move: its label ("1. 7", "1... 3") and the explorer after it
    /// (`None` for a game from another start, which the explorer's lines do not reach).
    pub moves: Vec<(String, Option<String>)>,
    pub back: String,
}

/// The words of an imported game's page.
pub fn game_words(info: &GameInfo, lang: Lang, chosen: Option<Lang>) -> GameWords {
    let clean = crate::model::names::clean_name;
    let pits: Vec<u8> = info
        .moves
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    let linked = info.start.is_none();
    let moves = (0..pits.len())
        .map(|ply| {
            let number = ply / 2 + 1;
            let label = match ply % 2 {
                0 => format!("{number}. {}", pits[ply]),
                _ => format!("{number}... {}", pits[ply]),
            };
            let link = linked.then(|| {
                let ask = ExplorerAsk {
                    moves: pits[..=ply].to_vec(),
                    ..ExplorerAsk::start()
                };
                href(&ask, chosen)
            });
            (label, link)
        })
        .collect();
    let extra: Vec<String> = [&info.event, &info.date]
        .into_iter()
        .flatten()
        .map(|s| clean(s))
        .collect();
    let result = match info.result {
        crate::explorer::Result3::White => t!(lang, "review-result-white"),
        crate::explorer::Result3::Draw => t!(lang, "review-result-draw"),
        crate::explorer::Result3::Black => t!(lang, "review-result-black"),
    };
    GameWords {
        title: t!(
            lang,
            "web-title",
            white = clean(&info.white),
            black = clean(&info.black)
        ),
        detail: (!extra.is_empty()).then(|| extra.join(", ")),
        result,
        moves_heading: t!(lang, "web-explorer-game-moves"),
        moves,
        back: t!(lang, "web-explorer-title"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn ask(query: &[(&str, &str)], lang: Lang) -> Result<ExplorerAsk, BadAsk> {
        let map: HashMap<String, String> = query
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        ask_of(|k| map.get(k).map(String::as_str), lang)
    }

    #[test]
    fn an_address_is_read_back_from_the_address_written() {
        let read = ask(
            &[
                ("moves", "7 7 2"),
                ("source", "player:Асель Н"),
                ("category", "blitz"),
                ("band", "1600-2000"),
            ],
            Lang::En,
        )
        .unwrap();
        assert_eq!(read.moves, [7, 7, 2]);
        assert_eq!(read.source, ExplorerSource::Player("Асель Н".into()));
        assert_eq!(read.filter.bands, [Band::From1600]);
        let written = href(&read, Some(Lang::Ru));
        assert!(
            written.starts_with("/explorer?moves=772&source=player%3A"),
            "{written}"
        );
        assert!(
            written.ends_with("&category=blitz&band=1600-2000&lang=ru"),
            "{written}"
        );
        let query: HashMap<String, String> =
            url::form_urlencoded::parse(written.split_once('?').unwrap().1.as_bytes())
                .into_owned()
                .collect();
        assert_eq!(
            ask_of(|k| query.get(k).map(String::as_str), Lang::En),
            Ok(read)
        );
        let start = ask(&[], Lang::En).unwrap();
        assert_eq!(start, ExplorerAsk::start());
        assert_eq!(href(&start, None), "/explorer?moves=");
    }

    #[test]
    fn a_bad_address_is_refused_in_words() {
        let refused = ask(&[("moves", "7x")], Lang::En).unwrap_err();
        assert!(refused.0.contains("Move 2 (x)"), "{refused:?}");
        let ru = ask(&[("source", "friends")], Lang::Ru).unwrap_err();
        assert_ne!(ru, ask(&[("source", "friends")], Lang::En).unwrap_err());
        for query in [
            [("band", "9000")],
            [("category", "bullet")],
            [("variant", "7")],
            [("source", "player:")],
        ] {
            assert!(ask(&query, Lang::Kk).is_err(), "{query:?}");
        }
        let long = "9".repeat(EXPLORER_MAX_MOVES + 1);
        assert!(ask(&[("moves", &long)], Lang::En).is_err());
    }

    #[test]
    fn a_game_page_links_the_explorer_at_each_ply_it_takes() {
        let pits = [7, 7, 2];
        assert_eq!(
            ply_href(Variant::STANDARD, &pits, 2).as_deref(),
            Some("/explorer?moves=77")
        );
        assert_eq!(ply_href(Variant::STANDARD, &pits, 4), None);
        let five = Variant::new(5, crate::rules::TuzdekRule::Off).unwrap();
        assert_eq!(
            ply_href(five, &pits, 1).as_deref(),
            Some("/explorer?moves=7&variant=5+no-tuzdek")
        );
    }
}
