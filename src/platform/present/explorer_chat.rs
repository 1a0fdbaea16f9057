//! The opening explorer in chat (issue 52), decided once for Telegram and Discord: what
//! `/opening` was asked, the picture's words (`render::explorer`), the caption (the last
//! games, with their pages), and the buttons: a move to step in, Back, and the source, time
//! category and rating band, each cycling. A button keeps the whole position
//! (`ExplorerAt`) and whose explorer it is, so a press needs nothing stored.

use super::explorer::{
    band_text, explorer_table, last_game_text, line_text, no_games_text, source_text, ExplorerRow,
};
use super::history_text::category_name;
use super::LabeledButton;
use crate::explorer::{Band, Filter};
use crate::i18n::Lang;
use crate::manager::buttons::{Button, ExplorerAt, ExplorerFrom, EXPLORER_BUTTON_MOVES};
use crate::manager::explorer::{ExplorerAsk, ExplorerSource, ExplorerView};
use crate::manager::ActionError;
use crate::model::{Category, ChatRef, UserRef};
use crate::render::explorer::{ExplorerLine, ExplorerPicture};
use crate::render::BoardView;
use crate::rules::{Position, Variant};
use crate::t;

/// Move buttons in a row (Discord allows five).
pub const EXPLORER_MOVES_PER_ROW: usize = 5;

/// The time categories the time button cycles through (`explorer::category_code`), after
/// "every category".
const CATEGORIES: [(u8, Category); 3] = [
    (1, Category::Blitz),
    (2, Category::Rapid),
    (3, Category::Correspondence),
];

/// The bands the rating button cycles through, after "every rating".
const BANDS: [Band; 4] = [
    Band::Below1200,
    Band::From1200,
    Band::From1600,
    Band::From2000,
];

/// What `/opening` asks, from its words: an optional source first (`all`, `masters`,
/// `club`, `chat`, or `player:NAME`, in English, Russian or Kazakh), then the pits played
/// from the start ("7 7 2" or "772"). `chat` is where it was asked.
pub fn opening_ask(args: &str, chat: &ChatRef) -> Result<ExplorerAsk, ActionError> {
    let args = args.trim();
    let (first, rest) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
    let (source, moves) = match source_word(first, chat) {
        Some(source) => (source, rest),
        None => (ExplorerSource::All, args),
    };
    let moves = ExplorerAsk::parse_moves(moves)?;
    opening_ask_of(source, moves)
}

/// The explorer at `moves` in `source`, refused when the line is longer than a button
/// keeps (the explorer counts fewer half-moves than that).
pub fn opening_ask_of(source: ExplorerSource, moves: Vec<u8>) -> Result<ExplorerAsk, ActionError> {
    if moves.len() > EXPLORER_BUTTON_MOVES {
        return Err(ActionError::ExplorerTooDeep {
            max: EXPLORER_BUTTON_MOVES,
        });
    }
    Ok(ExplorerAsk {
        moves,
        source,
        ..ExplorerAsk::start()
    })
}

/// A source word of `/opening` (Discord's `source` option takes the same words).
pub fn source_word(word: &str, chat: &ChatRef) -> Option<ExplorerSource> {
    let lower = word.to_lowercase();
    for prefix in ["player:", "игрок:", "ойыншы:"] {
        if let Some(name) = lower.strip_prefix(prefix) {
            // The name as typed (its case kept for showing).
            let name = word[word.len() - name.len()..].trim();
            return (!name.is_empty()).then(|| ExplorerSource::Player(name.to_string()));
        }
    }
    Some(match lower.as_str() {
        "all" | "все" | "барлығы" => ExplorerSource::All,
        "masters" | "мастера" | "шеберлер" => ExplorerSource::Masters,
        "club" | "клуб" => ExplorerSource::Club,
        "chat" | "чат" => ExplorerSource::Chat(chat.clone()),
        _ => return None,
    })
}

/// The explorer a pressed button names: "this chat" is the chat it was pressed in.
pub fn ask_of(at: &ExplorerAt, chat: &ChatRef) -> ExplorerAsk {
    let source = match &at.from {
        ExplorerFrom::All => ExplorerSource::All,
        ExplorerFrom::Masters => ExplorerSource::Masters,
        ExplorerFrom::Club => ExplorerSource::Club,
        ExplorerFrom::Chat => ExplorerSource::Chat(chat.clone()),
        ExplorerFrom::Player(key) => ExplorerSource::PlayerKey {
            key: key.clone(),
            name: None,
        },
    };
    ExplorerAsk {
        variant: Variant::STANDARD,
        moves: at.moves.clone(),
        source,
        filter: Filter {
            categories: at.category.into_iter().collect(),
            bands: at.band.into_iter().collect(),
        },
    }
}

/// An asked explorer as its buttons keep it (a player by her key).
pub fn at_of(ask: &ExplorerAsk) -> ExplorerAt {
    let from = match ask.source.compact() {
        ExplorerSource::All => ExplorerFrom::All,
        ExplorerSource::Masters => ExplorerFrom::Masters,
        ExplorerSource::Club => ExplorerFrom::Club,
        ExplorerSource::Chat(_) => ExplorerFrom::Chat,
        ExplorerSource::Player(_) => ExplorerFrom::All,
        ExplorerSource::PlayerKey { key, .. } => ExplorerFrom::Player(key),
    };
    ExplorerAt {
        from,
        category: ask.filter.categories.first().copied(),
        band: ask.filter.bands.first().copied(),
        moves: ask.moves.clone(),
    }
}

/// The source after `from` on the source button: every game, masters, the club, this
/// chat, and round again (a player's games go back to every game).
fn next_source(from: &ExplorerFrom) -> ExplorerFrom {
    match from {
        ExplorerFrom::All => ExplorerFrom::Masters,
        ExplorerFrom::Masters => ExplorerFrom::Club,
        ExplorerFrom::Club => ExplorerFrom::Chat,
        ExplorerFrom::Chat | ExplorerFrom::Player(_) => ExplorerFrom::All,
    }
}

fn next_category(category: Option<u8>) -> Option<u8> {
    let at = CATEGORIES.iter().position(|(c, _)| Some(*c) == category);
    match at {
        None => Some(CATEGORIES[0].0),
        Some(i) => CATEGORIES.get(i + 1).map(|(c, _)| *c),
    }
}

fn next_band(band: Option<Band>) -> Option<Band> {
    match BANDS.iter().position(|b| Some(*b) == band) {
        None => Some(BANDS[0]),
        Some(i) => BANDS.get(i + 1).copied(),
    }
}

/// The time category filter in words.
fn category_text(category: Option<u8>, lang: Lang) -> String {
    match CATEGORIES.iter().find(|(c, _)| Some(*c) == category) {
        Some((_, named)) => category_name(*named, lang),
        None => t!(lang, "explorer-chat-any-time"),
    }
}

fn band_words(band: Option<Band>, lang: Lang) -> String {
    match band {
        Some(band) => band_text(band, lang),
        None => t!(lang, "explorer-chat-any-rating"),
    }
}

/// The picture's title: the line, whose games, and the filters when some are on.
pub fn explorer_title(view: &ExplorerView, lang: Lang) -> String {
    let at = at_of(&view.ask);
    let mut parts = vec![
        line_text(&view.ask.moves, lang),
        source_text(&view.ask.source, lang),
    ];
    if at.category.is_some() {
        parts.push(category_text(at.category, lang));
    }
    if at.band.is_some() {
        parts.push(band_words(at.band, lang));
    }
    parts.join(" · ")
}

/// The explorer's picture: the position's board from the mover's side (the table's pits
/// are the mover's), its last move marked, and the moves table.
pub fn explorer_picture(view: &ExplorerView, lang: Lang) -> ExplorerPicture {
    let table = explorer_table(view);
    let line = |row: &ExplorerRow| ExplorerLine {
        pit: row.pit.to_string(),
        games: t!(
            lang,
            "explorer-chat-games",
            games = row.games,
            share = row.share
        ),
        results: row.results,
        rating: row.rating.map_or(String::new(), |r| r.to_string()),
    };
    let rows: Vec<ExplorerLine> = table.rows.iter().map(line).collect();
    let total = (!rows.is_empty()).then(|| ExplorerLine {
        pit: "Σ".to_string(),
        games: table.games.to_string(),
        results: table.results,
        rating: String::new(),
    });
    ExplorerPicture {
        board: board_view(&view.ask, view.position, lang),
        title: explorer_title(view, lang),
        columns: [
            t!(lang, "explorer-chat-column-move"),
            t!(lang, "explorer-chat-column-games"),
            t!(lang, "explorer-chat-column-results"),
            t!(lang, "explorer-chat-column-rating"),
        ],
        rows,
        total,
        empty: no_games_text(lang),
    }
}

fn board_view(ask: &ExplorerAsk, position: Position, lang: Lang) -> BoardView {
    // The last move, replayed (the moves were checked when the view was made).
    let mut replay = Position::start(ask.variant);
    let mut last_move = None;
    for &pit in &ask.moves {
        last_move = replay.play(pit).ok();
    }
    BoardView {
        position,
        last_move,
        names: crate::rules::Side::BOTH.map(|s| crate::i18n::words::side_name(lang, s)),
        perspective: position.to_move(),
        lang,
        result_line: None,
        hint: None,
    }
}

/// The caption under the picture: the title (for those who read no pictures), "no games"
/// when empty, and the last games through the position with their pages.
pub fn explorer_caption(view: &ExplorerView, lang: Lang) -> String {
    let mut lines = vec![explorer_title(view, lang)];
    if view.answer.moves.is_empty() {
        lines.push(no_games_text(lang));
    }
    if !view.last.is_empty() {
        lines.push(t!(lang, "explorer-chat-last-games"));
        for game in &view.last {
            let text = last_game_text(game, lang);
            lines.push(match &game.page_url {
                Some(url) => format!("• {text}: {url}"),
                None => format!("• {text}"),
            });
        }
    }
    lines.join("\n")
}

/// The explorer's buttons for `owner`, in rows: the moves played from the position (best
/// played first), then Back, source, time and rating.
pub fn explorer_buttons(
    view: &ExplorerView,
    owner: &UserRef,
    lang: Lang,
) -> Vec<Vec<LabeledButton>> {
    let at = at_of(&view.ask);
    let button = |at: ExplorerAt, label: String| LabeledButton {
        button: Button::Explorer {
            owner: owner.id.clone(),
            at,
        },
        label,
        enabled: true,
    };
    let mut rows: Vec<Vec<LabeledButton>> = Vec::new();
    if at.moves.len() < EXPLORER_BUTTON_MOVES {
        let table = explorer_table(view);
        let moves: Vec<LabeledButton> = table
            .rows
            .iter()
            .map(|row| {
                let mut step = at.clone();
                step.moves.push(row.pit);
                let label = t!(lang, "explorer-chat-move", pit = row.pit, share = row.share);
                button(step, label)
            })
            .collect();
        rows.extend(moves.chunks(EXPLORER_MOVES_PER_ROW).map(<[_]>::to_vec));
    }
    let mut controls = Vec::with_capacity(4);
    if !at.moves.is_empty() {
        let mut back = at.clone();
        back.moves.pop();
        controls.push(button(back, t!(lang, "explorer-chat-back")));
    }
    let source = ExplorerAt {
        from: next_source(&at.from),
        ..at.clone()
    };
    controls.push(button(source, source_text(&view.ask.source, lang)));
    let time = ExplorerAt {
        category: next_category(at.category),
        ..at.clone()
    };
    controls.push(button(time, category_text(at.category, lang)));
    let rating = band_words(at.band, lang);
    let band = ExplorerAt {
        band: next_band(at.band),
        ..at
    };
    controls.push(button(band, rating));
    rows.push(controls);
    rows
}

#[cfg(test)]
#[path = "explorer_chat_tests.rs"]
mod tests;
