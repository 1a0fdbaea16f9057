//! The opening explorer's pages (issue 52): `/explorer?moves=772&source=...&category=...&band=...`
//! shows a position's board and the moves played from it (each a link to the next
//! position), the source and filter choices as links and the last games through it;
//! `/explorer/game/<id>` an imported game. Plain links and server-drawn SVG: the pages work
//! without a script, under the site's strict policy. Words and addresses come from
//! `present::web_explorer`; this file lays them out, escaped.

use super::board_svg::board_svg;
use super::page::{document_with, escape};
use super::{html, lang_of, read_failed, unavailable, App};
use crate::i18n::Lang;
use crate::manager::explorer::ExplorerView;
use crate::manager::ActionError;
use crate::platform::present::web::{shown_after, Missing};
use crate::platform::present::web_explorer::{self as words, BadAsk, ExplorerPageWords, GameWords};
use crate::rules::Position;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use std::collections::HashMap;
use std::fmt::Write;

/// The language a reader chose on the page (`?lang=`), kept on its links.
fn chosen(query: &HashMap<String, String>) -> Option<Lang> {
    query.get("lang").and_then(|l| Lang::from_code(l))
}

/// `/explorer`: a position and its moves. A line that cannot be played, or a choice the
/// explorer does not have, gets a 400 page saying why.
pub(super) async fn page(
    State(app): State<App>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&query, &headers);
    let chosen = chosen(&query);
    let ask = match words::ask_of(|k| query.get(k).map(String::as_str), lang) {
        Ok(ask) => ask,
        Err(BadAsk(text)) => return refused(lang, chosen, &text),
    };
    let view = match app.manager.explore(ask, None).await {
        Ok(view) => view,
        Err(error @ (ActionError::ExplorerMoves { .. } | ActionError::ExplorerTooDeep { .. })) => {
            let text = crate::platform::present::error_text(&error, lang);
            return refused(lang, chosen, &text);
        }
        Err(error) => {
            tracing::warn!(%error, "web: the explorer could not be read");
            return unavailable(lang, words::PATH);
        }
    };
    let w = words::page_words(&view, lang, chosen);
    html(StatusCode::OK, explorer_page(&w, &view, lang))
}

/// The 400 page of an address the explorer refuses, with a link to its start.
fn refused(lang: Lang, chosen: Option<Lang>, text: &str) -> Response {
    let start = words::href(&crate::manager::explorer::ExplorerAsk::start(), chosen);
    let body = format!(
        "<p id=\"refused\" role=\"alert\">{}</p><p><a href=\"{}\">{}</a></p>",
        escape(text),
        escape(&start),
        escape(&crate::t!(lang, "explorer-line-start")),
    );
    let title = crate::t!(lang, "web-explorer-title");
    let link = |l: Lang| format!("{}?lang={}", words::PATH, l.code());
    html(
        StatusCode::BAD_REQUEST,
        document_with(lang, &title, "", &link, &body),
    )
}

/// The position `view` asked for, with the last move that reached it marked.
fn board(view: &ExplorerView, w: &ExplorerPageWords) -> String {
    let mut position = Position::start(view.ask.variant);
    let mut last = None;
    for &pit in &view.ask.moves {
        match position.play(pit) {
            Ok(report) => last = Some(report),
            // The manager replayed the same line; it cannot fail here.
            Err(_) => break,
        }
    }
    let shown = shown_after(&view.position, last.as_ref());
    format!(
        "<div id=\"board\" data-position=\"{}\">{}</div>",
        escape(&shown.fen),
        board_svg(&shown, &w.store, &w.pit_links)
    )
}

/// The explorer's page.
fn explorer_page(w: &ExplorerPageWords, view: &ExplorerView, lang: Lang) -> String {
    let mut body = format!(
        "<h2 id=\"line\">{}</h2><p class=\"meta\" id=\"source\">{}</p>",
        escape(&w.line),
        escape(&w.source)
    );
    let steps: Vec<String> = [&w.start, &w.back]
        .into_iter()
        .flatten()
        .zip(["to-start", "step-back"])
        .map(|((text, href), id)| {
            format!(
                "<a class=\"button\" id=\"{id}\" href=\"{}\">{}</a>",
                escape(href),
                escape(text)
            )
        })
        .collect();
    if !steps.is_empty() {
        let _ = write!(body, "<nav class=\"controls\">{}</nav>", steps.concat());
    }
    body.push_str(&board(view, w));
    let _ = write!(body, "<p id=\"status\">{}</p>", escape(&w.to_move));
    body.push_str("<div class=\"choices\">");
    for group in &w.choices {
        let _ = write!(
            body,
            "<p class=\"choice-group\"><span class=\"meta\">{}:</span> ",
            escape(&group.label)
        );
        for choice in &group.choices {
            let current = if choice.current {
                " aria-current=\"true\""
            } else {
                ""
            };
            let _ = write!(
                body,
                "<a class=\"choice\" href=\"{}\"{current}>{}</a> ",
                escape(&choice.href),
                escape(&choice.text)
            );
        }
        body.push_str("</p>");
    }
    body.push_str("</div>");
    if w.table.rows.is_empty() {
        let _ = write!(
            body,
            "<p class=\"meta\" id=\"no-games\">{}</p>",
            escape(&w.no_games)
        );
    } else {
        body.push_str(&table(w));
    }
    let _ = write!(body, "<h2>{}</h2>", escape(&w.last_heading));
    if let Some(note) = &w.last_note {
        let _ = write!(body, "<p class=\"meta\">{}</p>", escape(note));
    } else if !w.last.is_empty() {
        body.push_str("<ul class=\"games\" id=\"last-games\">");
        for row in &w.last {
            match &row.href {
                Some(href) => {
                    let _ = write!(
                        body,
                        "<li><a href=\"{}\">{}</a></li>",
                        escape(href),
                        escape(&row.text)
                    );
                }
                None => {
                    let _ = write!(body, "<li>{}</li>", escape(&row.text));
                }
            }
        }
        body.push_str("</ul>");
    } else {
        let _ = write!(body, "<p class=\"meta\">{}</p>", escape(&w.no_games));
    }
    let title = format!("{} · {}", w.title, w.line);
    let ask = &view.ask;
    let link = |l: Lang| words::href(ask, Some(l));
    document_with(lang, &title, "", &link, &body)
}

/// The moves table: each pit a link, its games and share, a White / draw / Black bar with
/// the percentages, the average rating; the position's totals last.
fn table(w: &ExplorerPageWords) -> String {
    let [move_word, games, results, rating] = &w.columns;
    let mut out = format!(
        "<div class=\"table-wrap\"><table class=\"board explorer\" id=\"explorer-moves\"><thead><tr>\
<th>{}</th><th class=\"num\">{}</th><th>{}</th><th class=\"num\">{}</th></tr></thead><tbody>",
        escape(move_word),
        escape(games),
        escape(results),
        escape(rating)
    );
    for (row, href) in w.table.rows.iter().zip(&w.row_hrefs) {
        let rating = row.rating.map(|r| r.to_string()).unwrap_or_default();
        let _ = write!(
            out,
            "<tr data-pit=\"{pit}\"><td><a class=\"move\" href=\"{href}\">{pit}</a></td>\
<td class=\"num\">{games} <span class=\"meta\">{share}%</span></td><td>{bar}</td><td class=\"num\">{rating}</td></tr>",
            pit = row.pit,
            href = escape(href),
            games = row.games,
            share = row.share,
            bar = bar(row.results, &w.results),
        );
    }
    let _ = write!(
        out,
        "</tbody><tfoot><tr><td>{}</td><td class=\"num\">{}</td><td>{}</td><td></td></tr></tfoot></table></div>",
        escape(&w.total),
        w.table.games,
        bar(w.table.results, &w.results),
    );
    out
}

/// White wins, draws and Black wins as a bar (SVG: widths are attributes, the policy
/// allows no inline style) with their percentages.
fn bar(results: [u8; 3], names: &[String; 3]) -> String {
    let label: Vec<String> = names
        .iter()
        .zip(results)
        .map(|(name, p)| format!("{name} {p}%"))
        .collect();
    let mut out = format!(
        "<span class=\"results\"><svg class=\"bar\" viewBox=\"0 0 100 10\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"{}\">",
        escape(&label.join(", "))
    );
    let mut x = 0u32;
    for (class, p) in ["bar-white", "bar-draw", "bar-black"]
        .into_iter()
        .zip(results)
    {
        if p > 0 {
            let _ = write!(
                out,
                "<rect class=\"{class}\" x=\"{x}\" y=\"0\" width=\"{p}\" height=\"10\"/>"
            );
        }
        x += u32::from(p);
    }
    let _ = write!(
        out,
        "</svg><span class=\"pct\">{} / {} / {}</span></span>",
        results[0], results[1], results[2]
    );
    out
}

/// `/explorer/game/<id>`: an imported game. An unknown key, or a club game's (which has its
/// own page), gets the plain 404.
pub(super) async fn game(
    State(app): State<App>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&query, &headers);
    let path = format!("{}/game/{id}", words::PATH);
    let info = match app.manager.explorer_game(&id).await {
        Ok(info) => info,
        Err(error) => return read_failed(error, lang, Missing::Game, &path),
    };
    let w = words::game_words(&info, lang, chosen(&query));
    html(StatusCode::OK, game_page(&w, &id, lang))
}

fn game_page(w: &GameWords, id: &str, lang: Lang) -> String {
    let mut body = String::new();
    if let Some(detail) = &w.detail {
        let _ = write!(body, "<p class=\"meta\">{}</p>", escape(detail));
    }
    let _ = write!(
        body,
        "<p id=\"result\"><strong>{}</strong></p><h2>{}</h2><ol class=\"opening\" id=\"opening\">",
        escape(&w.result),
        escape(&w.moves_heading)
    );
    for (label, href) in &w.moves {
        match href {
            Some(href) => {
                let _ = write!(
                    body,
                    "<li><a href=\"{}\">{}</a></li>",
                    escape(href),
                    escape(label)
                );
            }
            None => {
                let _ = write!(body, "<li>{}</li>", escape(label));
            }
        }
    }
    let start = words::href(&crate::manager::explorer::ExplorerAsk::start(), None);
    let _ = write!(
        body,
        "</ol><p><a href=\"{}\">{}</a></p>",
        escape(&start),
        escape(&w.back)
    );
    let path = words::game_href(id);
    let link = |l: Lang| format!("{path}?lang={}", l.code());
    document_with(lang, &w.title, "", &link, &body)
}
