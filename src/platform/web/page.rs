//! The HTML of the pages: a game's page, the front page and the "not found" page. Every
//! word comes from `present::web`; this file only lays them out, escaped.

use super::assets::{ICON, PLAY_SCRIPT, SCRIPT, STYLE, TELEGRAM_SCRIPT};
use crate::i18n::Lang;
use crate::manager::explorer::BookLine;
use crate::manager::links::GamePage;
use crate::platform::present::web::{
    self as words, GameRow, IndexWords, LeaderboardWords, PageWords, PlyShown, ReviewShown,
};
use crate::platform::present::web_explorer::{self, GameExplorerLinks};
use serde::Serialize;
use std::fmt::Write;

/// What the page's script reads (`#game-data`), and what a live page receives on each
/// change (without `words`, `ply` and `live`).
#[derive(Serialize)]
pub struct PageData<'a> {
    pub plies: &'a [PlyShown],
    pub status: &'a str,
    pub clock: Option<ClockData>,
    pub now_ms: u64,
    /// The game's version: a page keeps the newest of the states it is given (the live
    /// stream's and an action's answer).
    pub version: u64,
    /// Whether the game goes on (a live page keeps listening).
    pub ongoing: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub words: Option<&'a PageWords>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
    /// The game's review, once reviewed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review: Option<ReviewShown>,
    /// The live events' address, while the game goes on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub live: Option<String>,
}

/// Both clocks: time left when the view was made, and which one runs.
#[derive(Serialize)]
pub struct ClockData {
    pub left_ms: [u64; 2],
    pub running: Option<u8>,
    pub at_ms: u64,
}

/// The clocks of `page` for the script.
pub fn clock_data(page: &GamePage) -> Option<ClockData> {
    let clock = page.view.clock.as_ref()?;
    let running = (!page.view.is_over() && clock.deadline.is_some())
        .then(|| page.view.position.to_move().index() as u8);
    Some(ClockData {
        left_ms: clock.left_ms,
        running,
        at_ms: clock.shown_at_ms,
    })
}

/// When `page`'s view was made (unix ms): the page's clocks count from it.
pub fn shown_at_ms(page: &GamePage) -> u64 {
    let view = &page.view;
    view.clock
        .as_ref()
        .map_or(view.last_move_at * 1000, |c| c.shown_at_ms)
}

/// `text` with HTML's special characters escaped (for text and quoted attributes).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON that may stand inside a `<script>` element: no `<` can close it.
pub fn script_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value)
        .unwrap_or_else(|_| "null".into())
        .replace('<', "\\u003c")
}

/// `path` as a link within this site: its segments split on `/` and `\\` (browsers read
/// both as separators), empty, `.` and `..` segments dropped, each byte outside the
/// characters a path segment may hold percent-encoded, joined under one leading `/`. A raw
/// path such as `//evil.example/x` would be a link to another host; this makes it
/// `/evil.example/x`.
pub fn site_path(path: &str) -> String {
    let mut out = String::new();
    for segment in path.split(['/', '\\']) {
        if matches!(segment, "" | "." | "..") {
            continue;
        }
        out.push('/');
        for byte in segment.bytes() {
            let keep = byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@%".contains(&byte);
            if keep {
                out.push(byte as char);
            } else {
                let _ = write!(out, "%{byte:02X}");
            }
        }
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

/// The tag that keeps search engines from indexing a page, unless it is `listed` (a game
/// of a listed chat or the console; the page of a player who chose to show their games).
pub fn robots(listed: bool) -> &'static str {
    if listed {
        ""
    } else {
        "<meta name=\"robots\" content=\"noindex, nofollow\">"
    }
}

/// The document around `body`: head, OpenGraph tags (`og`), language links (to `path`
/// made a path of this site, `site_path`, whatever the request's path was).
pub(super) fn document(lang: Lang, title: &str, og: &str, path: &str, body: &str) -> String {
    let path = site_path(path);
    let link = |l: Lang| format!("{path}?lang={}", l.code());
    document_with(lang, title, og, &link, body)
}

/// `document` whose language links are `lang_link`'s (a page whose query names what it
/// shows keeps it in them: the explorer's); each an address of this site.
pub(super) fn document_with(
    lang: Lang,
    title: &str,
    og: &str,
    lang_link: &dyn Fn(Lang) -> String,
    body: &str,
) -> String {
    let mut langs = String::new();
    for l in Lang::ALL {
        let current = if l == lang {
            " aria-current=\"true\""
        } else {
            ""
        };
        let _ = write!(
            langs,
            "<a href=\"{}\" hreflang=\"{}\" lang=\"{}\"{current}>{}</a>",
            escape(&lang_link(l)),
            l.code(),
            l.code(),
            l.code()
        );
    }
    format!(
        "<!doctype html>\n<html lang=\"{code}\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<meta name=\"referrer\" content=\"no-referrer\">\
<title>{title}</title>{og}<link rel=\"icon\" href=\"{icon}\" type=\"image/svg+xml\">\
<link rel=\"stylesheet\" href=\"{css}\"></head>\
<body><main><header><h1>{title}</h1><nav class=\"langs\" aria-label=\"{language}\">{langs}</nav></header>\
{body}</main></body></html>\n",
        code = lang.code(),
        title = escape(title),
        css = STYLE.href(),
        icon = ICON.href(),
        language = escape(&crate::t!(lang, "web-language")),
    )
}

/// A game's page at half-move `ply`; `csrf`: the CSRF token of the reader's session when
/// they are signed in by cookie (the page's play script sends it with their actions).
pub fn game_page(
    page: &GamePage,
    lang: Lang,
    ply: Option<usize>,
    base: &str,
    csrf: Option<&str>,
    book: Option<&BookLine>,
) -> String {
    let plies = words::replay(page);
    let w = words::page_words(page, lang);
    let last = plies.len() - 1;
    let ply = ply.map_or(last, |p| p.min(last));
    let key = &page.key;
    let path = format!("/g/{key}");
    let data = PageData {
        plies: &plies,
        status: &w.status,
        clock: clock_data(page),
        now_ms: shown_at_ms(page),
        version: page.view.version,
        ongoing: !page.view.is_over(),
        words: Some(&w),
        ply: Some(ply),
        review: words::review_shown(page, lang),
        live: (!page.view.is_over()).then(|| format!("{path}/live")),
    };
    let og = format!(
        "{robots}<meta property=\"og:type\" content=\"website\">\
<meta property=\"og:title\" content=\"{title}\">\
<meta property=\"og:description\" content=\"{description}\">\
<meta property=\"og:url\" content=\"{base}{path}\">\
<meta property=\"og:image\" content=\"{base}{path}.png\">\
<meta property=\"og:image:width\" content=\"960\">\
<meta name=\"twitter:card\" content=\"summary_large_image\">\
<meta name=\"twitter:title\" content=\"{title}\">\
<meta name=\"twitter:image\" content=\"{base}{path}.png\">\
<meta name=\"description\" content=\"{description}\">",
        title = escape(&w.title),
        description = escape(&w.description),
        base = escape(base),
        robots = robots(page.listed),
    );
    let og = match csrf {
        Some(csrf) => format!(
            "{og}<meta name=\"toguz-csrf\" content=\"{}\">",
            escape(csrf)
        ),
        None => og,
    };
    let links = web_explorer::game_links(page.view.variant, &page.pits, ply, book, lang);
    let mut body = String::new();
    let clock = page.view.clock.is_some();
    body.push_str(&player_line(&w, 1, page.player_keys[1].as_deref(), clock));
    let _ = write!(
        body,
        "<div id=\"board\" data-position=\"{fen}\" data-ply=\"{ply}\" data-key=\"{key}\">\
<noscript><img src=\"{path}.png\" alt=\"{fen}\" width=\"960\" style=\"max-width:100%;height:auto\"></noscript></div>",
        fen = escape(&plies[ply].fen),
        key = escape(key),
    );
    body.push_str(&player_line(&w, 0, page.player_keys[0].as_deref(), clock));
    let live = if page.view.is_over() {
        String::new()
    } else {
        format!(
            "<span id=\"live\" class=\"live\">● {}</span> ",
            escape(&w.live)
        )
    };
    let _ = write!(
        body,
        "<p>{live}<span id=\"status\">{status}</span></p>\
<section id=\"play\" hidden><p id=\"play-message\" role=\"status\" aria-live=\"polite\"></p>\
<div class=\"controls\" id=\"play-actions\"></div></section>\
<div class=\"controls\">\
<button type=\"button\" id=\"start\" aria-label=\"{start}\" title=\"{start}\">{icon_start}</button>\
<button type=\"button\" id=\"back\" aria-label=\"{back}\" title=\"{back}\">{icon_back}</button>\
<input type=\"range\" id=\"slider\" min=\"0\" max=\"{last}\" value=\"{ply}\" aria-label=\"{ply_word}\">\
<button type=\"button\" id=\"forward\" aria-label=\"{forward}\" title=\"{forward}\">{icon_forward}</button>\
<button type=\"button\" id=\"end\" aria-label=\"{end}\" title=\"{end}\">{icon_end}</button>\
<span id=\"ply-text\">{ply_word} {ply} / {last}</span></div>\
<div class=\"controls\"><button type=\"button\" id=\"copy\">{copy}</button>\
<a class=\"button\" href=\"{path}.pgn\" download>{record}</a>{explorer}</div>\
<p class=\"meta\">{variant} · {control}</p>{book}\
<section id=\"review\" hidden></section>\
<h2>{moves}</h2><div id=\"moves\"></div>\
<script type=\"application/json\" id=\"game-data\">{data}</script>\
<script type=\"application/json\" id=\"play-words\">{play_words}</script>\
<script src=\"{js}\" defer></script><script src=\"{play_js}\" defer></script>{telegram}",
        status = escape(&w.status),
        start = escape(&w.start),
        back = escape(&w.back),
        forward = escape(&w.forward),
        end = escape(&w.end),
        ply_word = escape(&w.ply),
        copy = escape(&w.copy),
        record = escape(&w.record),
        variant = escape(&w.variant),
        control = escape(&w.time_control),
        moves = escape(&w.moves),
        data = script_json(&data),
        play_words = script_json(&crate::platform::present::web_play::play_words(lang)),
        js = SCRIPT.href(),
        // Inside Telegram (a private chat's Web App button), it signs the player in.
        telegram = telegram_script_tag(lang),
        play_js = PLAY_SCRIPT.href(),
        explorer = explorer_link(&links),
        book = book_line(&links),
        icon_start = icon("M3 2v12M14 2 6 8l8 6z"),
        icon_back = icon("M12 2 4 8l8 6z"),
        icon_forward = icon("M4 2l8 6-8 6z"),
        icon_end = icon("M13 2v12M2 2l8 6-8 6z"),
    );
    document(lang, &w.title, &og, &path, &body)
}

/// The link to the explorer at the shown half-move; `game.js` moves it with the board.
fn explorer_link(links: &GameExplorerLinks) -> String {
    format!(
        "<a class=\"button\" id=\"explorer-link\" href=\"{href}\" data-base=\"{base}\" data-max=\"{max}\"{hidden}>{label}</a>",
        href = escape(links.href.as_deref().unwrap_or(&links.base)),
        base = escape(&links.base),
        max = links.max,
        hidden = if links.href.is_none() { " hidden" } else { "" },
        label = escape(&links.label),
    )
}

/// The game's line in the explorer and the link to where it left the explorer's games.
fn book_line(links: &GameExplorerLinks) -> String {
    match &links.book {
        Some((text, label, href)) => format!(
            "<p id=\"book\" class=\"meta\"><span id=\"book-text\">{}</span> <a href=\"{}\">{}</a></p>",
            escape(text),
            escape(href),
            escape(label)
        ),
        None => String::new(),
    }
}

/// A step button's picture (drawn, not a glyph: phones lack the media-control glyphs).
fn icon(path: &str) -> String {
    format!(
        "<svg class=\"icon\" viewBox=\"0 0 16 16\" aria-hidden=\"true\"><path d=\"{path}\"/></svg>"
    )
}

/// A player's name, linking to their page (`/p/<key>`) when they have one (people do, the
/// bot does not).
pub fn player_link(name: &str, key: Option<&str>) -> String {
    match key {
        Some(key) => format!("<a href=\"/p/{}\">{}</a>", escape(key), escape(name)),
        None => escape(name),
    }
}

/// A player's line above (Black) or below (White) the board, the name linking to their
/// page (`key`).
fn player_line(w: &PageWords, side: usize, key: Option<&str>, clock: bool) -> String {
    let rating = w.ratings[side]
        .as_ref()
        .map(|r| format!("<span class=\"rating\">{}</span>", escape(r)))
        .unwrap_or_default();
    let clock = if clock {
        format!("<span class=\"clock\" id=\"clock-{side}\"></span>")
    } else {
        String::new()
    };
    format!(
        "<div class=\"player\"><span class=\"name\">{}</span><span class=\"side\">{}</span>{rating}{clock}</div>",
        player_link(&w.names[side], key),
        escape(&w.sides[side]),
    )
}

/// The page for an address that leads nowhere, saying what it named.
pub fn not_found(lang: Lang, missing: words::Missing, path: &str) -> String {
    let (title, text) = words::not_found_words(lang, missing);
    let body = format!("<p>{}</p><p><a href=\"/\">/</a></p>", escape(&text));
    document(lang, &title, "", path, &body)
}

/// The page shown (with a 503) while the store does not answer.
pub fn unavailable(lang: Lang, path: &str) -> String {
    let (title, text) = words::unavailable_words(lang);
    document(lang, &title, "", path, &format!("<p>{}</p>", escape(&text)))
}

/// The front page: the listed chats' games, ongoing and ended, and a link to the
/// leaderboards.
pub fn index(w: &IndexWords, lang: Lang) -> String {
    index_with(w, lang, "")
}

/// The front page with `more` (its HTML: the tournaments) between the introduction and the
/// games.
pub fn index_with(w: &IndexWords, lang: Lang, more: &str) -> String {
    let mut body = format!(
        "<p>{}</p><p>{}</p><p><a href=\"/leaderboard\">{}</a></p>{more}",
        escape(&w.about),
        escape(&w.listed),
        escape(&w.leaderboards)
    );
    game_list(&mut body, &w.live_heading, &w.live, &w.no_live);
    game_list(&mut body, &w.recent_heading, &w.recent, &w.no_recent);
    document(lang, &w.title, "", "/", &body)
}

/// A heading and a list of games, each linking to its page (or `none` when empty).
fn game_list(body: &mut String, heading: &str, rows: &[GameRow], none: &str) {
    let _ = write!(body, "<h2>{}</h2>", escape(heading));
    if rows.is_empty() {
        let _ = write!(body, "<p class=\"meta\">{}</p>", escape(none));
        return;
    }
    body.push_str("<ul class=\"games\">");
    for row in rows {
        let _ = write!(
            body,
            "<li><a href=\"/g/{key}\">{players}</a> <span class=\"meta\">{status} · {detail}</span></li>",
            key = escape(&row.key),
            players = escape(&row.players),
            status = escape(&row.status),
            detail = escape(&row.detail),
        );
    }
    body.push_str("</ul>");
}

/// The leaderboards page: a table per platform and category (names and ratings only).
pub fn leaderboards(w: &LeaderboardWords, lang: Lang) -> String {
    let mut body = format!("<p><a href=\"/\">{}</a></p>", escape(&w.back));
    if w.boards.is_empty() {
        let _ = write!(body, "<p>{}</p>", escape(&w.empty));
    }
    for board in &w.boards {
        let _ = write!(
            body,
            "<h2>{} · {}</h2><table class=\"board\"><thead><tr><th>#</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
            escape(&board.scope),
            escape(&board.category),
            escape(&w.player),
            escape(&w.rating),
            escape(&w.games),
        );
        for (place, name, rating, games, key) in &board.rows {
            let _ = write!(
                body,
                "<tr><td>{place}</td><td>{}</td><td>{}</td><td>{games}</td></tr>",
                player_link(name, key.as_deref()),
                escape(rating),
            );
        }
        body.push_str("</tbody></table>");
    }
    document(lang, &w.title, "", "/leaderboard", &body)
}

/// The `<script>` element of `telegram.js`, with the words it shows when the site cannot be
/// reached (the server's refusals come with their own words): on `/tg` and the game page.
pub fn telegram_script_tag(lang: Lang) -> String {
    format!(
        "<script src=\"{src}\" data-failed=\"{failed}\" defer></script>",
        src = TELEGRAM_SCRIPT.href(),
        failed = escape(&crate::t!(lang, "web-tg-failed")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_json_cannot_break_out_of_the_page() {
        assert_eq!(
            escape("<b>\"Ali\" & 'Asel'</b>"),
            "&lt;b&gt;&quot;Ali&quot; &amp; &#39;Asel&#39;&lt;/b&gt;"
        );
        let json = script_json(&"</script><script>alert(1)</script>");
        assert!(!json.contains('<'), "{json}");
        let back: String = serde_json::from_str(&json).unwrap();
        assert_eq!(back, "</script><script>alert(1)</script>");
    }

    #[test]
    fn a_store_that_does_not_answer_gets_a_page_in_the_readers_language() {
        let en = unavailable(Lang::En, "/g/<x>");
        assert!(en.contains("<title>Try again in a moment"), "{en}");
        assert!(!en.contains("/g/<x>"), "the path is escaped: {en}");
        let ru = unavailable(Lang::Ru, "/");
        assert!(ru.contains("Сайт сейчас не может прочитать данные"), "{ru}");
        let kk = unavailable(Lang::Kk, "/");
        assert!(kk.contains("Сайт қазір деректерді оқи алмай тұр"), "{kk}");
    }

    #[test]
    fn language_links_stay_on_this_site_whatever_the_path() {
        for (raw, link) in [
            ("//evil.example/x", "/evil.example/x"),
            ("/\\evil.example/x", "/evil.example/x"),
            ("/./../evil.example", "/evil.example"),
            ("/g/a b\"<x>", "/g/a%20b%22%3Cx%3E"),
            ("", "/"),
            ("/p/0123abcd", "/p/0123abcd"),
        ] {
            assert_eq!(site_path(raw), link, "{raw}");
        }
        let page = not_found(Lang::En, words::Missing::Page, "//evil.example/x");
        assert!(!page.contains("href=\"//"), "{page}");
        assert!(!page.contains("href=\"/\\"), "{page}");
        assert!(page.contains("href=\"/evil.example/x?lang=ru\""), "{page}");
    }

    #[test]
    fn a_404_says_what_the_address_named() {
        use words::Missing;
        let en = |m| not_found(Lang::En, m, "/x");
        assert!(en(Missing::Game).contains("no game at this address"));
        assert!(en(Missing::Player).contains("no player&#39;s page"));
        assert!(en(Missing::Tournament).contains("no tournament at this address"));
        assert!(en(Missing::Page).contains("nothing at this address"));
        assert!(not_found(Lang::Ru, Missing::Tournament, "/t/x").contains("турнира нет"));
        assert!(not_found(Lang::Kk, Missing::Player, "/p/x").contains("ойыншы беті жоқ"));
        for lang in [Lang::En, Lang::Ru, Lang::Kk] {
            let texts: std::collections::HashSet<String> = [
                Missing::Game,
                Missing::Player,
                Missing::Tournament,
                Missing::Page,
            ]
            .into_iter()
            .map(|m| words::not_found_words(lang, m).1)
            .collect();
            assert_eq!(texts.len(), 4, "{lang:?}: four different texts");
        }
    }
}
