//! What players see of a tournament, on every platform: its announcement (with Join and
//! Leave while it takes players), the standings as text and as a table for the PNG, the
//! announcement of each pairing with both players named, and the podium. Adapters only say
//! how a time is written (a Discord timestamp counts down by itself) and how a person is
//! mentioned.

use super::clock::ClockStyle;
use super::names::{plain_player_name, player_name};
use crate::i18n::Lang;
use crate::manager::buttons::Button;
use crate::manager::tournament::{Format, Status, TournamentRecord};
use crate::manager::Player;
use crate::model::{GameId, UserRef};
use crate::render::table::{TableRow, TableView};
use crate::t;

/// Players listed by name on an announcement; the rest are counted.
const LISTED: usize = 30;
/// Rows of the standings as text (the table shows more).
const TEXT_ROWS: usize = 15;
/// Rows of the standings table.
pub const TABLE_ROWS: usize = 40;

/// How an adapter mentions a person (a ping on its platform); the bot is named.
pub type Mention<'a> = &'a dyn Fn(&UserRef) -> String;

/// A tournament's announcement: its text and its buttons.
#[derive(Clone, Debug, PartialEq)]
pub struct Announcement {
    pub text: String,
    /// (button, label): Join and Leave while the event takes players.
    pub buttons: Vec<(Button, String)>,
}

/// The announcement as it stands: terms, start (a countdown), players, state; the
/// standings once games have been played.
pub fn announcement(rec: &TournamentRecord, lang: Lang, style: ClockStyle) -> Announcement {
    let mut lines = vec![title(rec, lang)];
    lines.push(state_line(rec, lang, style));
    lines.push(t!(
        lang,
        "tournament-created-by",
        name = super::names::user_name(&rec.creator)
    ));
    lines.push(players_line(rec, lang));
    if rec.status != Status::Open && played_any(rec) {
        lines.push(String::new());
        lines.push(standings_text(rec, lang));
    }
    Announcement {
        text: lines.join("\n"),
        buttons: buttons(rec, lang),
    }
}

/// "Arena · 3+2 · 60 minutes · rated" (with the variant when not the standard game).
pub fn title(rec: &TournamentRecord, lang: Lang) -> String {
    let format = match rec.format {
        Format::Arena { minutes } => t!(lang, "tournament-arena", minutes = minutes),
        Format::Swiss { rounds } => t!(lang, "tournament-swiss", rounds = rounds),
    };
    let rated = match rec.rated {
        true => t!(lang, "tournament-rated"),
        false => t!(lang, "tournament-unrated"),
    };
    // Days per move in words; a clock as players type it (`3+2`).
    let time = match rec.time {
        crate::model::TimeControl::Days(_) => super::time_control_text(rec.time, lang),
        clock => clock.to_string(),
    };
    let mut parts = vec![format, time, rated];
    if !rec.variant.is_standard() {
        parts.push(super::variant_text(rec.variant, lang));
    }
    t!(lang, "tournament-title", terms = parts.join(" · "))
}

/// Where the event stands: its start, the arena's end or the Swiss round, or its end.
pub(super) fn state_line(rec: &TournamentRecord, lang: Lang, style: ClockStyle) -> String {
    match rec.status {
        Status::Open => t!(lang, "tournament-starts", when = when(rec.starts_at, style)),
        Status::Running => match rec.format {
            Format::Arena { minutes } => {
                let started = rec.started_at.unwrap_or(rec.starts_at);
                let ends = started.saturating_add(u64::from(minutes) * 60);
                t!(lang, "tournament-arena-ends", when = when(ends, style))
            }
            Format::Swiss { rounds } => t!(
                lang,
                "tournament-round",
                round = rec.rounds.len(),
                rounds = rounds
            ),
        },
        Status::Finished => t!(lang, "tournament-finished"),
        Status::Cancelled => t!(lang, "tournament-cancelled"),
    }
}

/// A moment as `style` writes it: Discord turns a timestamp into the reader's own time and
/// a live countdown; elsewhere it is UTC.
pub fn when(unix: u64, style: ClockStyle) -> String {
    match style {
        ClockStyle::Live => format!("<t:{unix}:t> (<t:{unix}:R>)"),
        ClockStyle::TimeOfDay => super::clock::utc_date_time(unix),
    }
}

fn players_line(rec: &TournamentRecord, lang: Lang) -> String {
    let present: Vec<String> = rec
        .entrants
        .iter()
        .filter(|e| e.left_before.is_none())
        .map(|e| format!("{} ({:.0})", player_name(&e.player, lang), e.rating))
        .collect();
    if present.is_empty() {
        return t!(lang, "tournament-no-players");
    }
    let mut names = present.iter().take(LISTED).cloned().collect::<Vec<_>>();
    if present.len() > LISTED {
        names.push(t!(
            lang,
            "tournament-and-more",
            count = present.len() - LISTED
        ));
    }
    t!(
        lang,
        "tournament-players",
        count = present.len(),
        names = names.join(", ")
    )
}

fn buttons(rec: &TournamentRecord, lang: Lang) -> Vec<(Button, String)> {
    let takes_players = match rec.status {
        Status::Open => true,
        // Late entries: an arena until its end, a Swiss event until its last round.
        Status::Running => match rec.format {
            Format::Arena { .. } => true,
            Format::Swiss { rounds } => rec.rounds.len() < usize::from(rounds),
        },
        Status::Finished | Status::Cancelled => false,
    };
    if !takes_players {
        return Vec::new();
    }
    let tournament = rec.id.clone();
    vec![
        (
            Button::JoinTournament {
                tournament: tournament.clone(),
            },
            t!(lang, "tournament-button-join"),
        ),
        (
            Button::LeaveTournament { tournament },
            t!(lang, "tournament-button-leave"),
        ),
    ]
}

fn played_any(rec: &TournamentRecord) -> bool {
    let boards = rec.rounds.iter().flat_map(|r| r.boards.iter());
    boards.chain(rec.arena.iter()).any(|b| b.result.is_some())
}

/// One row of the standings, whatever the format.
struct Row {
    rank: usize,
    player: Player,
    rating: f64,
    /// Points, as the format writes them ("12", "3½").
    score: String,
    /// The arena's fire streak and game marks, or the Swiss tie-breaks.
    detail: String,
    on_fire: bool,
}

fn rows(rec: &TournamentRecord, lang: Lang) -> Vec<Row> {
    let entrant = |n: usize| rec.entrants.get(n.saturating_sub(1));
    match rec.format {
        Format::Arena { .. } => rec
            .arena_standings()
            .into_iter()
            .enumerate()
            .filter_map(|(i, e)| {
                let player = entrant(e.player as usize)?.player.clone();
                let marks: Vec<String> = e.sheet.marks.iter().map(u8::to_string).collect();
                Some(Row {
                    rank: i + 1,
                    player,
                    rating: e.rating,
                    score: e.sheet.points.to_string(),
                    detail: marks.join(" "),
                    on_fire: e.sheet.on_fire(),
                })
            })
            .collect(),
        Format::Swiss { .. } => rec
            .swiss_standings()
            .into_iter()
            .filter_map(|s| {
                let e = entrant(s.number)?;
                Some(Row {
                    rank: s.rank,
                    player: e.player.clone(),
                    rating: e.rating,
                    score: tenths(s.score),
                    detail: t!(
                        lang,
                        "tournament-tiebreaks",
                        buchholz = tenths(s.buchholz),
                        sb = hundredths(s.sonneborn_berger)
                    ),
                    on_fire: false,
                })
            })
            .collect(),
    }
}

/// The standings as text: a title, then one line per player, best first.
pub fn standings_text(rec: &TournamentRecord, lang: Lang) -> String {
    let rows = rows(rec, lang);
    let mut lines = vec![t!(lang, "tournament-standings")];
    for row in rows.iter().take(TEXT_ROWS) {
        let fire = if row.on_fire { " 🔥" } else { "" };
        lines.push(format!(
            "{}. {} ({:.0}) — {}{fire} · {}",
            row.rank,
            player_name(&row.player, lang),
            row.rating,
            row.score,
            row.detail
        ));
    }
    if rows.len() > TEXT_ROWS {
        lines.push(t!(
            lang,
            "tournament-and-more",
            count = rows.len() - TEXT_ROWS
        ));
    }
    lines.join("\n")
}

/// The standings as a table for `render::table`.
pub fn standings_table(rec: &TournamentRecord, lang: Lang) -> TableView {
    let detail = detail_column(rec, lang);
    TableView {
        title: title(rec, lang),
        columns: [
            t!(lang, "tournament-column-rank"),
            t!(lang, "tournament-column-player"),
            t!(lang, "tournament-column-rating"),
            t!(lang, "tournament-column-score"),
            detail,
        ],
        rows: standings_rows(rec, lang)
            .into_iter()
            .take(TABLE_ROWS)
            .collect(),
        footer: state_footer(rec, lang),
    }
}

/// Every row of the standings as the table shows them, best first (the web page shows
/// them all).
pub fn standings_rows(rec: &TournamentRecord, lang: Lang) -> Vec<TableRow> {
    rows(rec, lang)
        .into_iter()
        .map(|row| TableRow {
            rank: row.rank.to_string(),
            name: plain_player_name(&row.player, lang),
            rating: format!("{:.0}", row.rating),
            score: row.score,
            detail: row.detail,
            on_fire: row.on_fire,
        })
        .collect()
}

/// The heading of the standings' last column: the arena's games, or the Swiss tie-breaks.
pub fn detail_column(rec: &TournamentRecord, lang: Lang) -> String {
    match rec.format {
        Format::Arena { .. } => t!(lang, "tournament-column-games"),
        Format::Swiss { .. } => t!(lang, "tournament-column-tiebreaks"),
    }
}

fn state_footer(rec: &TournamentRecord, lang: Lang) -> String {
    match rec.status {
        Status::Finished => t!(lang, "tournament-finished"),
        Status::Cancelled => t!(lang, "tournament-cancelled"),
        Status::Open | Status::Running => state_line(rec, lang, ClockStyle::TimeOfDay),
    }
}

/// The board of game `game` in the event, and its round (Swiss) or number (arena).
/// The answer to a granted half-point bye.
pub fn bye_answer(rec: &TournamentRecord, round: u8, lang: Lang) -> String {
    t!(
        lang,
        "tournament-bye-granted",
        round = round,
        title = title(rec, lang)
    )
}

/// The line that announces a new game of the event, both players mentioned (White first);
/// `None` for a game that is not the event's.
pub fn pairing_line(
    rec: &TournamentRecord,
    game: &str,
    lang: Lang,
    mention: Mention<'_>,
) -> Option<String> {
    let (seat, board) = rec.seat_of(game)?;
    let (round, number) = (seat.round, seat.board);
    let named = |n: u32| {
        let e = rec.entrants.get((n as usize).saturating_sub(1))?;
        Some(match &e.player {
            Player::Human(user) => mention(user),
            bot => player_name(bot, lang),
        })
    };
    let (white, black) = (named(board.white)?, named(board.black)?);
    Some(match rec.format {
        Format::Swiss { .. } => t!(
            lang,
            "tournament-pairing-swiss",
            round = round,
            board = number,
            white = white,
            black = black
        ),
        Format::Arena { .. } => t!(
            lang,
            "tournament-pairing-arena",
            white = white,
            black = black
        ),
    })
}

/// Pairing lines a pairings message lists at most (a 200-player arena's first wave has
/// 100 games): the rest are counted, and every player has their own board anyway.
pub const PAIRINGS_LISTED: usize = 20;

/// The message of the event's chat that announces `games`, whose boards went to their
/// players privately: a pairing line each (players mentioned), then where the boards are.
pub fn pairings_text(
    rec: &TournamentRecord,
    games: &[GameId],
    lang: Lang,
    mention: Mention<'_>,
) -> String {
    let mut lines: Vec<String> = games
        .iter()
        .take(PAIRINGS_LISTED)
        .filter_map(|game| pairing_line(rec, game, lang, mention))
        .collect();
    if games.len() > PAIRINGS_LISTED {
        let count = games.len() - PAIRINGS_LISTED;
        lines.push(t!(lang, "tournament-and-more", count = count));
    }
    lines.push(t!(lang, "tournament-pairings-private"));
    lines.join("\n")
}

/// The podium of a finished event (the first three, mentioned), or the news that it was
/// cancelled.
pub fn ending_text(rec: &TournamentRecord, lang: Lang, mention: Mention<'_>) -> String {
    if rec.status == Status::Cancelled {
        return t!(lang, "tournament-cancelled-news", title = title(rec, lang));
    }
    let medals = ["🥇", "🥈", "🥉"];
    let mut lines = vec![t!(lang, "tournament-podium", title = title(rec, lang))];
    for (row, medal) in rows(rec, lang).into_iter().zip(medals) {
        let name = match &row.player {
            Player::Human(user) => mention(user),
            bot => player_name(bot, lang),
        };
        lines.push(t!(
            lang,
            "tournament-podium-place",
            medal = medal,
            name = name,
            score = row.score
        ));
    }
    lines.join("\n")
}

/// The answer to a player who joined or left, for them only.
pub fn entry_answer(rec: &TournamentRecord, joined: bool, lang: Lang) -> String {
    match joined {
        true => t!(lang, "tournament-joined", title = title(rec, lang)),
        false => t!(lang, "tournament-left", title = title(rec, lang)),
    }
}

/// Half-points as players write them: 3, 3½, ½.
fn tenths(value: u32) -> String {
    let (whole, rest) = (value / 10, value % 10);
    match (whole, rest) {
        (0, 5) => "½".to_string(),
        (w, 5) => format!("{w}½"),
        (w, 0) => w.to_string(),
        (w, r) => format!("{w}.{r}"),
    }
}

/// Sonneborn-Berger in hundredths: 6.25, 6.5, 6.
fn hundredths(value: u32) -> String {
    let (whole, rest) = (value / 100, value % 100);
    match rest {
        0 => whole.to_string(),
        r if r % 10 == 0 => format!("{whole}.{}", r / 10),
        r => format!("{whole}.{r:02}"),
    }
}

#[cfg(test)]
#[path = "tournament_tests.rs"]
mod tests;
