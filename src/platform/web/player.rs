//! The HTML of a player's page (`/p/<key>`): ratings, the rating history as an SVG graph
//! drawn here (no script: the page works without one), and the last games linking to their
//! pages. Every word comes from `present::web_player`; this file only lays them out,
//! escaped, styled by the site's style sheet (the CSP allows no inline style).

use super::page::{document, escape};
use crate::i18n::Lang;
use crate::platform::present::web_player::{PlayerWords, Series};
use std::fmt::Write;

/// The graph's drawing box (SVG units; it scales to the page's width).
const WIDTH: f64 = 600.0;
const HEIGHT: f64 = 220.0;
/// Room for the rating labels on the left, and around the plot.
const LEFT: f64 = 62.0;
const PAD: f64 = 14.0;

/// The page of a player; `public`: they chose to show all their games, and the page may
/// be indexed.
pub fn player_page(w: &PlayerWords, key: &str, public: bool, lang: Lang) -> String {
    let mut body = format!(
        "<p class=\"meta\">{platform}</p>",
        platform = escape(&w.platform)
    );
    let _ = write!(body, "<h2>{}</h2>", escape(&w.ratings_heading));
    if w.ratings.is_empty() {
        let _ = write!(body, "<p class=\"meta\">{}</p>", escape(&w.no_ratings));
    } else {
        let [category, rating, games, results] = &w.columns;
        let _ = write!(
            body,
            "<table class=\"board\"><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
            escape(category),
            escape(rating),
            escape(games),
            escape(results),
        );
        for row in &w.ratings {
            let _ = write!(
                body,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&row.category),
                escape(&row.rating),
                row.games,
                escape(&row.results),
            );
        }
        body.push_str("</tbody></table>");
    }
    if !w.graph.is_empty() {
        let _ = write!(
            body,
            "<h2>{}</h2><p class=\"meta\">{}</p>",
            escape(&w.graph_heading),
            escape(&w.graph_about)
        );
        body.push_str(&graph(&w.graph, &w.graph_heading));
    }
    let _ = write!(body, "<h2>{}</h2>", escape(&w.recent_heading));
    if w.recent.is_empty() {
        let _ = write!(body, "<p class=\"meta\">{}</p>", escape(&w.no_recent));
    } else {
        body.push_str("<ul class=\"games\">");
        for row in &w.recent {
            let change = row
                .change
                .as_ref()
                .map(|c| format!(" · <span class=\"change\">{}</span>", escape(c)))
                .unwrap_or_default();
            let detail = if row.detail.is_empty() {
                String::new()
            } else {
                format!(" · {}", escape(&row.detail))
            };
            let _ = write!(
                body,
                "<li><a href=\"/g/{key}\">{opponent}</a> <span class=\"meta\">{date} · {outcome}{change}{detail}</span></li>",
                key = escape(&row.key),
                opponent = escape(&row.opponent),
                date = escape(&row.date),
                outcome = escape(&row.outcome),
            );
        }
        body.push_str("</ul>");
    }
    let _ = write!(
        body,
        "<p><a href=\"/\">{}</a> · <a href=\"/leaderboard\">{}</a></p>",
        escape(&w.all_games),
        escape(&w.leaderboards)
    );
    let title = format!("{} · {}", w.name, w.platform);
    let og = format!(
        "{}<meta property=\"og:type\" content=\"profile\"><meta property=\"og:title\" content=\"{}\">",
        super::page::robots(public),
        escape(&title)
    );
    document(lang, &w.title, &og, &format!("/p/{key}"), &body)
}

/// The rating lines: one polyline per category over every point's place, each point a
/// link to its game with the rating in `data-rating`; the lowest and highest ratings on
/// the left, and a legend under it.
fn graph(series: &[Series], title: &str) -> String {
    let points = || series.iter().flat_map(|s| s.points.iter());
    let count = points().map(|p| p.x + 1).max().unwrap_or(1);
    let lowest = points().map(|p| p.rating).fold(f64::INFINITY, f64::min);
    let highest = points().map(|p| p.rating).fold(f64::NEG_INFINITY, f64::max);
    // Whole fifties around the ratings, at least a hundred apart.
    let mut low = (lowest / 50.0).floor() * 50.0;
    let mut high = (highest / 50.0).ceil() * 50.0;
    if high - low < 100.0 {
        let middle = ((low + high) / 2.0 / 50.0).round() * 50.0;
        low = middle - 50.0;
        high = middle + 50.0;
    }
    let x = |i: usize| {
        if count <= 1 {
            (LEFT + WIDTH - PAD) / 2.0
        } else {
            LEFT + (WIDTH - PAD - LEFT) * i as f64 / (count - 1) as f64
        }
    };
    let y = |r: f64| PAD + (HEIGHT - 2.0 * PAD) * (high - r) / (high - low);
    let radius = if count > 60 { 4 } else { 7 };
    let mut svg = format!(
        "<svg class=\"rating-graph\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-label=\"{}\">",
        escape(title)
    );
    for r in [low, (low + high) / 2.0, high] {
        let at = y(r);
        let _ = write!(
            svg,
            "<line class=\"rating-grid\" x1=\"{LEFT}\" y1=\"{at:.1}\" x2=\"{}\" y2=\"{at:.1}\"/>\
<text class=\"rating-axis\" x=\"{}\" y=\"{:.1}\">{}</text>",
            WIDTH - PAD,
            LEFT - 6.0,
            at + 7.0,
            r.round() as i64
        );
    }
    for line in series {
        let class = line.class;
        if line.points.len() > 1 {
            let path: Vec<String> = line
                .points
                .iter()
                .map(|p| format!("{:.1},{:.1}", x(p.x), y(p.rating)))
                .collect();
            let _ = write!(
                svg,
                "<polyline class=\"rating-line {class}\" points=\"{}\"/>",
                path.join(" ")
            );
        }
        for p in &line.points {
            let _ = write!(
                svg,
                "<a href=\"/g/{key}\"><circle class=\"rating-point {class}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"{radius}\" data-rating=\"{}\"><title>{}</title></circle></a>",
                x(p.x),
                y(p.rating),
                p.rating.round() as i64,
                escape(&p.label),
                key = escape(&p.key),
            );
        }
    }
    svg.push_str("</svg><ul class=\"legend\">");
    for line in series {
        let _ = write!(
            svg,
            "<li><span class=\"swatch {}\"></span>{}</li>",
            line.class,
            escape(&line.category)
        );
    }
    svg.push_str("</ul>");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::present::web_player::GraphPoint;

    fn point(x: usize, rating: f64) -> GraphPoint {
        GraphPoint {
            x,
            rating,
            key: format!("g{x}-0123"),
            label: format!("<{rating}>"),
        }
    }

    #[test]
    fn the_graph_draws_every_point_higher_for_a_higher_rating_and_links_its_game() {
        let series = [Series {
            category: "Blitz".into(),
            class: "blitz",
            points: vec![point(0, 1500.0), point(1, 1530.2), point(2, 1480.0)],
        }];
        let svg = graph(&series, "Rating history");
        let ratings: Vec<&str> = svg
            .split("data-rating=\"")
            .skip(1)
            .map(|s| &s[..s.find('"').unwrap()])
            .collect();
        assert_eq!(ratings, ["1500", "1530", "1480"]);
        let ys: Vec<f64> = svg
            .split("cy=\"")
            .skip(1)
            .map(|s| s[..s.find('"').unwrap()].parse().unwrap())
            .collect();
        assert!(ys[1] < ys[0] && ys[0] < ys[2], "{ys:?}");
        assert!(svg.contains("href=\"/g/g1-0123\""), "{svg}");
        assert!(svg.contains("&lt;1480&gt;"), "labels escaped: {svg}");
        assert!(
            !svg.contains("style="),
            "the CSP allows no inline style: {svg}"
        );
    }

    #[test]
    fn one_point_or_equal_ratings_still_draw_inside_the_box() {
        let series = [Series {
            category: "Rapid".into(),
            class: "rapid",
            points: vec![point(0, 1500.0)],
        }];
        let svg = graph(&series, "t");
        assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
        assert!(!svg.contains("polyline"), "{svg}");
        assert!(svg.contains("cx=\"324.0\""), "{svg}");
    }
}
