//! A position drawn as SVG on the server, as the game page's script draws it (`game.js`:
//! the same 960 x 520 drawing and classes, styled by the site's style sheet), so a page
//! that has no script shows it too: the explorer's. The pits the side to move may play can
//! be links (to the position after each).

use super::page::escape;
use crate::platform::present::web::PlyShown;
use std::fmt::Write;

/// `shown` as an SVG element; `links`: the pits of the side to move that are links, with
/// their label and address.
pub fn board_svg(shown: &PlyShown, store_word: &str, links: &[(u8, String, String)]) -> String {
    let mut svg = format!(
        "<svg viewBox=\"0 0 960 520\" role=\"img\" aria-label=\"{}\">\
<rect x=\"8\" y=\"8\" width=\"944\" height=\"504\" rx=\"18\" class=\"wood\"/>",
        escape(&shown.fen)
    );
    let mover = usize::from(shown.to_move);
    let link_of = |side: usize, hole: u8| {
        (side == mover)
            .then(|| links.iter().find(|(pit, _, _)| *pit == hole))
            .flatten()
    };
    for i in 0..9u8 {
        let hole = 9 - i;
        pit(
            &mut svg,
            shown,
            1,
            hole,
            40 + u32::from(i) * 100,
            50,
            link_of(1, hole),
        );
    }
    store(&mut svg, shown, 1, 212, store_word);
    store(&mut svg, shown, 0, 264, store_word);
    for i in 0..9u8 {
        let hole = i + 1;
        pit(
            &mut svg,
            shown,
            0,
            hole,
            40 + u32::from(i) * 100,
            356,
            link_of(0, hole),
        );
    }
    svg.push_str("</svg>");
    svg
}

/// Up to 18 balls, three to a row; the number says the rest.
fn balls(svg: &mut String, cx: f64, top: f64, count: u8) {
    let shown = usize::from(count.min(18));
    let rows = shown.div_ceil(3);
    let start_y = top + 62.0 - (rows as f64 - 1.0) * 9.0;
    for i in 0..shown {
        let row = i / 3;
        let in_row = (shown - row * 3).min(3) as f64;
        let x = cx + ((i % 3) as f64 - (in_row - 1.0) / 2.0) * 19.0;
        let y = start_y + row as f64 * 18.0;
        let _ = write!(
            svg,
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"8\" class=\"ball\"/>"
        );
    }
}

#[allow(clippy::too_many_arguments)]
fn pit(
    svg: &mut String,
    shown: &PlyShown,
    side: usize,
    hole: u8,
    x: u32,
    y: u32,
    link: Option<&(u8, String, String)>,
) {
    let count = shown.pits[side][usize::from(hole - 1)];
    let tuzdek = shown.tuzdeks[1 - side] == hole;
    let mut class = String::from(if tuzdek { "hole tuzdek" } else { "hole" });
    if let Some(last) = shown.last {
        if usize::from(last[0]) == side && last[1] == hole {
            class.push_str(" played");
        }
        if usize::from(last[2]) == side && last[3] == hole {
            class.push_str(" landed");
        }
    }
    match link {
        Some((_, label, href)) => {
            let _ = write!(
                svg,
                "<a class=\"pit-link\" href=\"{}\" aria-label=\"{}\" data-pit=\"{hole}\"><title>{}</title><g class=\"pit\">",
                escape(href),
                escape(label),
                escape(label)
            );
        }
        None => svg.push_str("<g class=\"pit\">"),
    }
    let _ = write!(
        svg,
        "<rect x=\"{x}\" y=\"{y}\" width=\"80\" height=\"125\" rx=\"40\" class=\"{class}\"/>"
    );
    if tuzdek {
        let _ = write!(
            svg,
            "<path d=\"M{} {} l40 40 m0 -40 l-40 40\" class=\"cross\"/>",
            x + 20,
            y + 42
        );
    } else {
        balls(svg, f64::from(x) + 40.0, f64::from(y), count);
    }
    svg.push_str("</g>");
    if link.is_some() {
        svg.push_str("</a>");
    }
    let (count_y, number_y) = if side == 1 {
        (y + 150, y - 12)
    } else {
        (y - 14, y + 142)
    };
    let cx = x + 40;
    let _ = write!(
        svg,
        "<text x=\"{cx}\" y=\"{count_y}\" text-anchor=\"middle\" class=\"count\" data-side=\"{side}\" data-hole=\"{hole}\">{count}</text>\
<text x=\"{cx}\" y=\"{number_y}\" text-anchor=\"middle\" class=\"pit-number\">{hole}</text>"
    );
}

fn store(svg: &mut String, shown: &PlyShown, side: usize, y: u32, word: &str) {
    let _ = write!(
        svg,
        "<rect x=\"40\" y=\"{y}\" width=\"720\" height=\"44\" rx=\"22\" class=\"store-bar\"/>"
    );
    let balls = shown.stores[side].min(162);
    for i in 0..u32::from(balls) {
        let cx = 62 + (i / 4) * 11;
        let cy = f64::from(y) + 8.0 + f64::from(i % 4) * 9.5;
        let _ = write!(
            svg,
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"4.2\" class=\"ball\"/>"
        );
    }
    let _ = write!(
        svg,
        "<rect x=\"772\" y=\"{y}\" width=\"146\" height=\"44\" rx=\"8\" class=\"store-box\"/>\
<text x=\"810\" y=\"{}\" text-anchor=\"middle\" class=\"store-label\">{}</text>\
<text x=\"880\" y=\"{}\" text-anchor=\"middle\" class=\"store-count\" data-store=\"{side}\">{}</text>",
        y + 28,
        escape(word),
        y + 32,
        shown.stores[side]
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::present::web::shown_after;
    use crate::rules::{Position, Variant};

    #[test]
    fn the_board_shows_every_pit_and_links_only_the_movers_pits() {
        let mut position = Position::start(Variant::STANDARD);
        let report = position.play(7).unwrap();
        let shown = shown_after(&position, Some(&report));
        let links: Vec<(u8, String, String)> = (1..=9)
            .map(|p| (p, format!("Play <{p}>"), format!("/explorer?moves=7{p}")))
            .collect();
        let svg = board_svg(&shown, "Store", &links);
        assert_eq!(svg.matches("class=\"count\"").count(), 18);
        assert_eq!(svg.matches("class=\"pit-link\"").count(), 9);
        // Black moves: the links are on Black's pits (side 1), drawn in the top row.
        let first_link = svg.find("pit-link").unwrap();
        let black_count = svg.find("data-side=\"1\"").unwrap();
        let white_count = svg.find("data-side=\"0\"").unwrap();
        assert!(first_link < black_count && black_count < white_count);
        assert!(svg.contains("href=\"/explorer?moves=71\""), "{svg}");
        assert!(svg.contains("Play &lt;1&gt;"), "labels escaped");
        assert!(
            svg.contains("class=\"hole played\""),
            "the last move is marked"
        );
        assert!(!svg.contains("style="), "the CSP allows no inline style");
        // White's pit 7 was emptied; Black's pit 1 received a ball.
        assert!(svg.contains("data-side=\"0\" data-hole=\"7\">1<"), "{svg}");
        assert!(svg.contains("data-side=\"1\" data-hole=\"1\">10<"), "{svg}");
    }
}
