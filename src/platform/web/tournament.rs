//! Tournament pages (issues 33 and 35, docs/web.md): `/t/<key>` shows a tournament (its
//! terms, state and countdown, the standings, the Swiss rounds or the arena's games, each
//! linking to its game's page), `/t/<key>/live` follows it (server-sent events: the changing
//! part of the page, built once per change and language), and the front page lists the
//! tournaments of listed chats. Every word comes from `present::web_tournament`.

use super::assets::TOURNAMENT_SCRIPT;
use super::page::{document, escape, script_json};
use super::{html, lang_of, read_failed, too_many_live, App};
use crate::i18n::Lang;
use crate::manager::tournament_pages::TournamentPage;
use crate::platform::present::web::Missing;
use crate::platform::present::web_tournament::{
    tournament_words, GamesSection, TournamentList, TournamentWords,
};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::Serialize;
use std::collections::HashMap;
use std::fmt::Write;

/// `/t/<key>`: a tournament's page.
pub(super) async fn page(
    State(app): State<App>,
    Path(key): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&query, &headers);
    match app.manager.tournament_page(&key).await {
        Ok(page) => super::with_robots(
            html(StatusCode::OK, tournament_page(&page, lang, &app.base)),
            page.listed,
        ),
        Err(error) => read_failed(error, lang, Missing::Tournament, &format!("/t/{key}")),
    }
}

/// `/t/<key>/live`: the page's changing part after each change (`tournament`), until the
/// tournament is over (`end`). Counted with the games' live pages (`max_live`).
pub(super) async fn live(
    State(app): State<App>,
    Path(key): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&query, &headers);
    let Ok(slot) = app.live.slots.clone().try_acquire_owned() else {
        return too_many_live();
    };
    let page = match app.manager.tournament_page(&key).await {
        Ok(page) => page,
        Err(error) => {
            return read_failed(error, lang, Missing::Tournament, &format!("/t/{key}/live"))
        }
    };
    let receiver = app.tournaments.watch(page);
    super::sse::stream(
        slot,
        receiver,
        "tournament",
        move |s| s.json(lang),
        |s| !s.ongoing(),
    )
}

/// What a live page receives: its changing part.
#[derive(Serialize)]
struct LiveData<'a> {
    html: &'a str,
}

/// The JSON of one live event: the changing part of the page in `w`'s words.
pub(super) fn live_json(w: &TournamentWords) -> String {
    script_json(&LiveData {
        html: &changing_part(w),
    })
}

/// A tournament's whole page.
pub fn tournament_page(page: &TournamentPage, lang: Lang, base: &str) -> String {
    let w = tournament_words(page, lang);
    let path = format!("/t/{}", page.key);
    let og = format!(
        "<meta property=\"og:type\" content=\"website\">\
<meta property=\"og:title\" content=\"{title}\">\
<meta property=\"og:description\" content=\"{description}\">\
<meta property=\"og:url\" content=\"{base}{path}\">\
<meta name=\"description\" content=\"{description}\">",
        title = escape(&w.title),
        description = escape(&w.description),
        base = escape(base),
    );
    let (live_address, live_mark) = if w.ongoing {
        (
            format!(" data-live=\"{path}/live\""),
            format!(
                "<p><span id=\"live\" class=\"live\">● {}</span></p>",
                escape(&w.live)
            ),
        )
    } else {
        (String::new(), String::new())
    };
    let body = format!(
        "<p><a href=\"/\">{back}</a></p>\
<div id=\"tournament\" data-now=\"{now}\"{live_address}>{live_mark}\
<div id=\"t-live\">{part}</div></div>\
<script src=\"{js}\" defer></script>",
        back = escape(&w.back),
        now = page.now.saturating_mul(1000),
        part = changing_part(&w),
        js = TOURNAMENT_SCRIPT.href(),
    );
    let og = format!("{og}{}", super::page::robots(page.listed));
    document(lang, &w.title, &og, &path, &body)
}

/// What changes as the tournament goes on: its state, the standings and the games.
fn changing_part(w: &TournamentWords) -> String {
    let mut out = format!("<p class=\"t-state\"><strong>{}</strong>", escape(&w.state));
    if let Some(at) = w.countdown_to {
        let _ = write!(
            out,
            " · <span class=\"countdown\" data-until=\"{}\"></span>",
            at.saturating_mul(1000)
        );
    }
    let _ = write!(
        out,
        " · {}</p><h2>{}</h2>",
        escape(&w.players),
        escape(&w.standings_heading)
    );
    standings(&mut out, w);
    if w.sections.is_empty() {
        let _ = write!(out, "<p class=\"meta\">{}</p>", escape(&w.no_games));
    }
    for section in &w.sections {
        games(&mut out, section);
    }
    out
}

fn standings(out: &mut String, w: &TournamentWords) {
    if w.standings.is_empty() {
        let _ = write!(out, "<p class=\"meta\">{}</p>", escape(&w.no_players));
        return;
    }
    out.push_str("<div class=\"table-wrap\"><table class=\"standings\"><thead><tr>");
    for (i, column) in w.columns.iter().enumerate() {
        let class = if matches!(i, 0 | 2 | 3) {
            " class=\"num\""
        } else {
            ""
        };
        let _ = write!(out, "<th{class}>{}</th>", escape(column));
    }
    out.push_str("</tr></thead><tbody>");
    for row in &w.standings {
        let fire = if row.on_fire { " 🔥" } else { "" };
        let _ = write!(
            out,
            "<tr><td class=\"num\">{}</td><td class=\"name\">{}</td><td class=\"num\">{}</td>\
<td class=\"num score\">{}{fire}</td><td class=\"detail\">{}</td></tr>",
            escape(&row.rank),
            escape(&row.name),
            escape(&row.rating),
            escape(&row.score),
            escape(&row.detail),
        );
    }
    out.push_str("</tbody></table></div>");
}

/// A round or the arena's games: each a link to its game's page once the game exists.
fn games(out: &mut String, section: &GamesSection) {
    let _ = write!(
        out,
        "<h2>{}</h2><ul class=\"games\">",
        escape(&section.heading)
    );
    for game in &section.games {
        let players = match &game.key {
            Some(key) => format!(
                "<a href=\"/g/{}\">{}</a>",
                escape(key),
                escape(&game.players)
            ),
            None => escape(&game.players),
        };
        let _ = write!(
            out,
            "<li><span class=\"meta\">{}.</span> {players} <span class=\"result\">{}</span></li>",
            game.number,
            escape(&game.result)
        );
    }
    out.push_str("</ul>");
    if let Some(note) = &section.note {
        let _ = write!(out, "<p class=\"meta\">{}</p>", escape(note));
    }
}

/// The front page's section of tournaments.
pub fn index_section(list: &TournamentList) -> String {
    let mut out = format!("<h2>{}</h2>", escape(&list.heading));
    if list.rows.is_empty() {
        let _ = write!(out, "<p class=\"meta\">{}</p>", escape(&list.none));
        return out;
    }
    out.push_str("<ul class=\"games tournaments\">");
    for row in &list.rows {
        let _ = write!(
            out,
            "<li><a href=\"/t/{}\">{}</a> <span class=\"meta\">{}</span></li>",
            escape(&row.key),
            escape(&row.title),
            escape(&row.detail),
        );
    }
    out.push_str("</ul>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::present::web_tournament::{GameLine, TournamentRow};
    use crate::render::table::TableRow;

    fn words() -> TournamentWords {
        TournamentWords {
            lang: "en",
            title: "🏆 Tournament: <arena>".into(),
            description: "d".into(),
            state: "Starts soon".into(),
            countdown_to: Some(1_800_000_000),
            ongoing: true,
            live: "Live".into(),
            players: "2 players".into(),
            standings_heading: "Standings".into(),
            columns: ["#", "Player", "Rating", "Points", "Games"].map(String::from),
            standings: vec![TableRow {
                rank: "1".into(),
                name: "</td><script>x</script>".into(),
                rating: "1500".into(),
                score: "4".into(),
                detail: "2 2".into(),
                on_fire: true,
            }],
            no_players: "Nobody".into(),
            sections: vec![GamesSection {
                heading: "Playing now".into(),
                games: vec![
                    GameLine {
                        number: 2,
                        players: "A – B".into(),
                        result: "being played".into(),
                        key: Some("t1a2-0123".into()),
                    },
                    GameLine {
                        number: 1,
                        players: "C – D".into(),
                        result: "1–0".into(),
                        key: None,
                    },
                ],
                note: Some("and 3 more".into()),
            }],
            no_games: "none".into(),
            back: "All games".into(),
        }
    }

    #[test]
    fn the_changing_part_escapes_names_and_links_games_that_exist() {
        let html = changing_part(&words());
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("&lt;/td&gt;&lt;script&gt;"), "{html}");
        assert!(html.contains("4 🔥"), "{html}");
        assert!(html.contains("data-until=\"1800000000000\""), "{html}");
        assert!(
            html.contains("<a href=\"/g/t1a2-0123\">A – B</a>"),
            "{html}"
        );
        assert!(html.contains("1.</span> C – D"), "{html}");
        assert!(html.contains("and 3 more"), "{html}");
        let json = live_json(&words());
        assert!(!json.contains('<'), "{json}");
    }

    #[test]
    fn the_front_page_section_links_each_tournament() {
        let list = TournamentList {
            heading: "Tournaments".into(),
            rows: vec![TournamentRow {
                key: "ab12cd-0123".into(),
                title: "🏆 Tournament: <b>".into(),
                detail: "Round 1 of 3 · 4 players".into(),
            }],
            none: "None".into(),
        };
        let html = index_section(&list);
        assert!(html.contains("<a href=\"/t/ab12cd-0123\">🏆 Tournament: &lt;b&gt;</a>"));
        let empty = TournamentList {
            rows: Vec::new(),
            ..list
        };
        assert!(index_section(&empty).contains("None"));
    }
}
