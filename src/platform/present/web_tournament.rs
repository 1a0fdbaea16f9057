//! What a tournament's web page shows (issues 33 and 35), and the front page's list of
//! tournaments: the words in the page's language, the standings as the chat's table has them
//! (`present::tournament`: rank, name, rating, points, the arena's games and fire or the
//! Swiss tie-breaks), and the rounds or the arena's games, each linking to its game's page.
//! Pure: the web adapter turns this into HTML.

use super::clock::ClockStyle;
use super::names::plain_player_name;
use super::tournament::{detail_column, standings_rows, state_line, title};
use crate::i18n::Lang;
use crate::manager::tournament::{Board, BoardResult, Format, Status, TournamentRecord};
use crate::manager::tournament_pages::{ListedTournament, TournamentPage};
use crate::render::table::TableRow;
use crate::t;

/// Finished arena games listed on the page (the newest); the rest are counted.
const ARENA_FINISHED_SHOWN: usize = 40;

/// The page's words and what it lists.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentWords {
    pub lang: &'static str,
    /// "🏆 Tournament: 30-minute arena · 3+2 · rated".
    pub title: String,
    /// The state and the players, for link previews.
    pub description: String,
    /// Where it stands: its start, the arena's end, the round, or its end.
    pub state: String,
    /// What the countdown counts to (unix seconds): the start while it takes entries, an
    /// arena's end while it runs.
    pub countdown_to: Option<u64>,
    /// Whether it can still change (a page follows it while it does).
    pub ongoing: bool,
    pub live: String,
    pub players: String,
    pub standings_heading: String,
    /// Rank, player, rating, points, and the games or tie-breaks.
    pub columns: [String; 5],
    pub standings: Vec<TableRow>,
    /// Said instead of an empty table.
    pub no_players: String,
    /// The Swiss rounds, the newest first, or the arena's games being played and finished.
    pub sections: Vec<GamesSection>,
    /// Said when no game has been paired yet.
    pub no_games: String,
    /// The link back to the front page.
    pub back: String,
}

/// A heading and its games (a Swiss round, or the arena's games).
#[derive(Clone, Debug, PartialEq)]
pub struct GamesSection {
    pub heading: String,
    pub games: Vec<GameLine>,
    /// A line under the games: the round's bye, or how many earlier games are not shown.
    pub note: Option<String>,
}

/// One game of the event.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLine {
    /// The board's number in its round, or the arena game's number.
    pub number: usize,
    /// `White – Black`.
    pub players: String,
    /// `1–0`, `½–½`, `+/−` (a forfeit), or that it is being played.
    pub result: String,
    /// The game's page key (`/g/<key>`), once the game exists.
    pub key: Option<String>,
}

/// The page of `page`'s tournament in `lang`.
pub fn tournament_words(page: &TournamentPage, lang: Lang) -> TournamentWords {
    let rec = &page.record;
    let state = state_line(rec, lang, ClockStyle::TimeOfDay);
    let players = players_text(rec, lang);
    let countdown_to = countdown_to(rec).filter(|&at| at > page.now);
    TournamentWords {
        lang: lang.code(),
        title: title(rec, lang),
        description: format!("{state} · {players}"),
        state,
        countdown_to,
        ongoing: matches!(rec.status, Status::Open | Status::Running),
        live: t!(lang, "web-live"),
        players,
        standings_heading: t!(lang, "web-tournament-standings"),
        columns: [
            t!(lang, "tournament-column-rank"),
            t!(lang, "tournament-column-player"),
            t!(lang, "tournament-column-rating"),
            t!(lang, "tournament-column-score"),
            detail_column(rec, lang),
        ],
        standings: standings_rows(rec, lang),
        no_players: t!(lang, "tournament-no-players"),
        sections: match rec.format {
            Format::Swiss { .. } => swiss_rounds(page, lang),
            Format::Arena { .. } => arena_games(page, lang),
        },
        no_games: t!(lang, "web-tournament-no-games"),
        back: t!(lang, "web-all-games"),
    }
}

/// The moment a countdown on the page counts to: the start, or an arena's end.
fn countdown_to(rec: &TournamentRecord) -> Option<u64> {
    match (rec.status, rec.format) {
        (Status::Open, _) => Some(rec.starts_at),
        (Status::Running, Format::Arena { minutes }) => {
            let started = rec.started_at.unwrap_or(rec.starts_at);
            Some(started.saturating_add(u64::from(minutes) * 60))
        }
        _ => None,
    }
}

/// "12 players" (those who have not left).
fn players_text(rec: &TournamentRecord, lang: Lang) -> String {
    let count = rec
        .entrants
        .iter()
        .filter(|e| e.left_before.is_none())
        .count();
    t!(lang, "web-tournament-players", count = count)
}

/// Each Swiss round, the newest first, with its bye.
fn swiss_rounds(page: &TournamentPage, lang: Lang) -> Vec<GamesSection> {
    let rec = &page.record;
    rec.rounds
        .iter()
        .enumerate()
        .rev()
        .map(|(r, round)| GamesSection {
            heading: t!(lang, "web-tournament-round", round = r + 1),
            games: round
                .boards
                .iter()
                .enumerate()
                .map(|(b, board)| game_line(page, b + 1, board, lang))
                .collect(),
            note: round.bye.and_then(|n| {
                let name = entrant_name(rec, n, lang)?;
                Some(t!(lang, "web-tournament-bye", name = name))
            }),
        })
        .collect()
}

/// The arena's games being played, then the newest finished ones.
fn arena_games(page: &TournamentPage, lang: Lang) -> Vec<GamesSection> {
    let numbered = || page.record.arena.iter().enumerate().rev();
    let playing: Vec<GameLine> = numbered()
        .filter(|(_, b)| b.result.is_none())
        .map(|(n, b)| game_line(page, n + 1, b, lang))
        .collect();
    let finished: Vec<(usize, &Board)> = numbered().filter(|(_, b)| b.result.is_some()).collect();
    let hidden = finished.len().saturating_sub(ARENA_FINISHED_SHOWN);
    let finished = finished
        .into_iter()
        .take(ARENA_FINISHED_SHOWN)
        .map(|(n, b)| game_line(page, n + 1, b, lang))
        .collect();
    let mut sections = Vec::new();
    if !playing.is_empty() {
        sections.push(GamesSection {
            heading: t!(lang, "web-index-live"),
            games: playing,
            note: None,
        });
    }
    sections.push(GamesSection {
        heading: t!(lang, "web-index-recent"),
        games: finished,
        note: (hidden > 0).then(|| t!(lang, "tournament-and-more", count = hidden)),
    });
    sections.retain(|s| !s.games.is_empty());
    sections
}

fn game_line(page: &TournamentPage, number: usize, board: &Board, lang: Lang) -> GameLine {
    let rec = &page.record;
    let name = |n| entrant_name(rec, n, lang).unwrap_or_else(|| "?".to_string());
    let result = match board.result {
        Some(result) => result_text(result).to_string(),
        None => t!(lang, "web-tournament-playing"),
    };
    let key = board
        .game
        .as_deref()
        .filter(|_| board.started)
        .and_then(|game| page.game_key(game))
        .map(str::to_string);
    GameLine {
        number,
        players: t!(
            lang,
            "web-index-players",
            white = name(board.white),
            black = name(board.black)
        ),
        result,
        key,
    }
}

/// A board's result as a score sheet writes it.
fn result_text(result: BoardResult) -> &'static str {
    match result {
        BoardResult::WhiteWins => "1–0",
        BoardResult::Draw => "½–½",
        BoardResult::BlackWins => "0–1",
        BoardResult::BlackForfeits => "+/−",
        BoardResult::WhiteForfeits => "−/+",
        BoardResult::NoGame => "−/−",
    }
}

/// Pairing number `n`'s name, cleaned as on the boards (never a platform id).
fn entrant_name(rec: &TournamentRecord, n: u32, lang: Lang) -> Option<String> {
    let entrant = rec.entrants.get((n as usize).checked_sub(1)?)?;
    Some(plain_player_name(&entrant.player, lang))
}

/// A tournament in the front page's list: its page's key and its words.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    pub key: String,
    pub title: String,
    /// Where it stands, and its players.
    pub detail: String,
}

/// The front page's tournaments: its heading, the listed ones (running and taking entries
/// first, then those that finished lately), and what it says when there are none.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentList {
    pub heading: String,
    pub rows: Vec<TournamentRow>,
    pub none: String,
}

/// The front page's list of tournaments, live first.
pub fn tournament_list(
    live: &[ListedTournament],
    finished: &[ListedTournament],
    lang: Lang,
) -> TournamentList {
    let rows = live
        .iter()
        .chain(finished)
        .map(|listed| {
            let rec = &listed.record;
            TournamentRow {
                key: listed.key.clone(),
                title: title(rec, lang),
                detail: format!(
                    "{} · {}",
                    state_line(rec, lang, ClockStyle::TimeOfDay),
                    players_text(rec, lang)
                ),
            }
        })
        .collect();
    TournamentList {
        heading: t!(lang, "web-index-tournaments"),
        rows,
        none: t!(lang, "web-index-no-tournaments"),
    }
}

/// The link to a tournament's page under its announcement, when the pages are served
/// (`url`: `Manager::tournament_page_url`). Adapters put it in a row of its own, last.
pub fn page_button(url: Option<String>, lang: Lang) -> Option<super::LinkButton> {
    Some(super::LinkButton {
        label: t!(lang, "web-tournament-button"),
        url: url?,
    })
}

#[cfg(test)]
#[path = "web_tournament_tests.rs"]
mod tests;
