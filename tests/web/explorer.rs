//! The opening explorer's page (issue 52) over HTTP: a position's board and moves table from
//! imported records, each move a link to the next position whose table is that move's
//! games; a bad line or choice refused with a 400 in the reader's language; an imported
//! game's page; the club's finished games counted and linked (a private chat's without its
//! page); every game page linking the explorer at its half-move with the game's line in it.
//! Readable signed out, under the site's strict policy, without a script.

use super::{play, start_game, Site};
use std::net::SocketAddr;
use toguz::explorer::{import_games, prepare, Source};
use toguz::manager::Action;
use toguz::model::{Platform, UserRef};
use toguz::rules::parse_records;
use toguz::testing::manager::{act, chat, game};

const GAMES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/championships-kz-2018.pgn"
);

/// The championship's records counted as masters' games in `site`'s store.
pub async fn import_masters(site: &Site) -> usize {
    let text = std::fs::read_to_string(GAMES).unwrap();
    let games: Vec<_> = parse_records(&text)
        .into_iter()
        .filter_map(|r| prepare(&r.ok()?, Source::Masters).ok())
        .collect();
    // The file holds three games twice: counted once.
    import_games(site.manager.store(), &games)
        .await
        .unwrap()
        .added
}

pub async fn get(addr: SocketAddr, path: &str, lang: Option<&str>) -> (u16, String, String) {
    let client = reqwest::Client::new();
    let mut request = client.get(format!("http://{addr}{path}"));
    if let Some(lang) = lang {
        request = request.header("Accept-Language", lang);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let policy = response
        .headers()
        .get("content-security-policy")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, response.text().await.unwrap(), policy)
}

/// The text of every `<td class="num">` cell's number in the moves table's rows, by pit:
/// (pit, games).
fn rows(page: &str) -> Vec<(u8, u64)> {
    page.split("<tr data-pit=\"")
        .skip(1)
        .map(|row| {
            let pit = row[..row.find('"').unwrap()].parse().unwrap();
            let cell = row.split("<td class=\"num\">").nth(1).unwrap();
            let games = cell[..cell.find(' ').unwrap()].parse().unwrap();
            (pit, games)
        })
        .collect()
}

/// The `href` of the first link whose opening tag holds `marker`.
fn href_after<'a>(page: &'a str, marker: &str) -> &'a str {
    let at = page
        .find(marker)
        .unwrap_or_else(|| panic!("{marker}: {page}"));
    let tag_start = page[..at + 1].rfind('<').unwrap();
    let tag = &page[tag_start..];
    let href = &tag[tag.find("href=\"").unwrap() + 6..];
    &href[..href.find('"').unwrap()]
}

fn unescape(text: &str) -> String {
    text.replace("&amp;", "&")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_shows_a_position_and_each_move_leads_to_the_next() {
    let site = Site::start().await;
    let imported = import_masters(&site).await;
    assert!(imported > 700, "{imported}");
    let (status, page, policy) = get(site.addr, "/explorer", None).await;
    assert_eq!(status, 200, "{page}");
    // Strict: no script, no inline style; the page needs neither.
    assert!(
        policy.contains("default-src 'none'") && !policy.contains("unsafe"),
        "{policy}"
    );
    assert!(!page.contains("<script"), "works without a script");
    assert!(!page.contains("style="), "no inline style under the policy");
    assert!(page.contains("Starting position"), "{page}");
    let table = rows(&page);
    assert!(table.len() > 3, "{page}");
    let total: u64 = table.iter().map(|(_, g)| g).sum();
    assert_eq!(total, imported as u64, "every game starts from the start");
    assert!(
        table.windows(2).all(|w| w[0].1 >= w[1].1),
        "best-played first"
    );
    assert!(
        page.contains(&format!("<td class=\"num\">{total}</td>")),
        "the totals row"
    );
    // White's nine pits are links on the board (White moves first).
    assert_eq!(page.matches("class=\"pit-link\"").count(), 9);
    // The start's last games: imported games, linked to their own pages.
    assert!(page.contains("href=\"/explorer/game/"), "{page}");

    // The most played move leads to the position after it: its games are that row's.
    let (pit, games) = table[0];
    let next = unescape(href_after(&page, &format!("<tr data-pit=\"{pit}\"><td><a")));
    assert_eq!(next, format!("/explorer?moves={pit}"));
    let (status, after, _) = get(site.addr, &next, None).await;
    assert_eq!(status, 200);
    assert!(after.contains(&format!("After {pit}")), "{after}");
    let sum: u64 = rows(&after).iter().map(|(_, g)| g).sum();
    assert_eq!(
        sum, games,
        "the next table counts the games that played {pit}"
    );
    // Back and to the start.
    assert_eq!(
        unescape(href_after(&after, "id=\"step-back\"")),
        "/explorer?moves="
    );
    assert_eq!(
        unescape(href_after(&after, "id=\"to-start\"")),
        "/explorer?moves="
    );

    // Sources and filters are links to the same position; the chosen one is marked.
    let (status, masters, _) = get(site.addr, &format!("{next}&source=masters"), None).await;
    assert_eq!(status, 200);
    assert!(
        masters.contains("aria-current=\"true\">Masters</a>"),
        "{masters}"
    );
    assert_eq!(rows(&masters), rows(&after), "all the games are masters'");
    let (_, club, _) = get(site.addr, &format!("{next}&source=club"), None).await;
    assert!(
        club.contains("No game has reached this position."),
        "{club}"
    );
    assert!(rows(&club).is_empty());
    let (status, blitz, _) =
        get(site.addr, "/explorer?moves=&band=2000&category=blitz", None).await;
    assert_eq!(status, 200);
    assert!(
        blitz.contains("href=\"/explorer?moves=&amp;category=blitz\""),
        "{blitz}"
    );
    // A player's games (as White or Black): fewer than all.
    let player = {
        let text = std::fs::read_to_string(GAMES).unwrap();
        let record = parse_records(&text).into_iter().next().unwrap().unwrap();
        record.header("White").unwrap().to_string()
    };
    let path = format!("/explorer?source=player:{}", urlencode(&player));
    let (status, theirs, _) = get(site.addr, &path, None).await;
    assert_eq!(status, 200, "{theirs}");
    let theirs: u64 = rows(&theirs).iter().map(|(_, g)| g).sum();
    assert!(theirs > 0 && theirs < total, "{theirs}");

    // The language links keep the position.
    assert!(
        after.contains(&format!("href=\"/explorer?moves={pit}&amp;lang=ru\"")),
        "{after}"
    );
    let (_, ru, _) = get(site.addr, &format!("{next}&lang=ru"), None).await;
    assert!(ru.contains(&format!("После ходов {pit}")), "{ru}");
    assert!(
        ru.contains("&amp;lang=ru\""),
        "links keep the chosen language"
    );
    let (_, kk, _) = get(site.addr, &next, Some("kk")).await;
    assert!(kk.contains("Дебют анықтамалығы"), "{kk}");
}

fn urlencode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_line_or_choice_is_refused_in_the_readers_language() {
    let site = Site::start().await;
    for (path, lang, words) in [
        (
            "/explorer?moves=7x",
            None,
            "Move 2 (x) cannot be played there",
        ),
        (
            "/explorer?moves=7x",
            Some("ru"),
            "Ход 2 (x) здесь невозможен",
        ),
        ("/explorer?moves=70", Some("kk"), "2-жүрісті (0)"),
        (
            "/explorer?source=friends",
            None,
            "The explorer has no such source",
        ),
        (
            "/explorer?band=9000",
            Some("ru"),
            "В справочнике нет такого",
        ),
        (
            "/explorer?category=bullet",
            None,
            "no such source, time control",
        ),
    ] {
        let (status, page, _) = get(site.addr, path, lang).await;
        assert_eq!(status, 400, "{path}");
        assert!(page.contains(words), "{path} {lang:?}: {page}");
        assert!(
            page.contains("href=\"/explorer?moves="),
            "a way back to the start"
        );
    }
    let deep = format!("/explorer?moves={}", "1".repeat(61));
    let (status, page, _) = get(site.addr, &deep, None).await;
    assert_eq!(status, 400);
    assert!(page.contains("That line is too long"), "{page}");
    // A pit that is empty in the position reached: named by its step.
    let (status, page, _) = get(site.addr, "/explorer?moves=11", None).await;
    assert_eq!(
        (status, page.contains("Move 2 (1)")),
        (200, false),
        "pit 1 of Black is full"
    );
    let (status, page, _) = get(site.addr, "/explorer?moves=1%201%201", None).await;
    assert_eq!(status, 200, "spaces between pits: {page}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_imported_game_has_a_page_whose_moves_lead_into_the_explorer() {
    let site = Site::start().await;
    import_masters(&site).await;
    let (_, start, _) = get(site.addr, "/explorer", None).await;
    let link = href_after(&start, "href=\"/explorer/game/").to_string();
    let (status, page, policy) = get(site.addr, &link, None).await;
    assert_eq!(status, 200, "{page}");
    assert!(policy.contains("default-src 'none'"));
    assert!(page.contains(" vs "), "the players: {page}");
    assert!(page.contains("id=\"result\""), "{page}");
    let moves: Vec<&str> = page
        .split("<ol class=\"opening\" id=\"opening\">")
        .nth(1)
        .unwrap()
        .split("</ol>")
        .next()
        .unwrap()
        .split("<li>")
        .skip(1)
        .collect();
    assert!(moves.len() >= 10, "its counted opening: {page}");
    // Each half-move links the explorer after it; the last link leads to a page that
    // counts this game.
    let last = unescape(href_after(moves[moves.len() - 1], "<a"));
    assert!(last.starts_with("/explorer?moves="), "{last}");
    let (status, deep, _) = get(site.addr, &last, None).await;
    assert_eq!(status, 200, "{deep}");
    let first = unescape(href_after(moves[0], "<a"));
    assert_eq!(first.len(), "/explorer?moves=".len() + 1, "{first}");
    for forged in [
        "/explorer/game/AAAAAAAAAAAAAAAA",
        "/explorer/game/x",
        "/explorer/game/%3Cb%3E",
    ] {
        let (status, _, _) = get(site.addr, forged, None).await;
        assert_eq!(status, 404, "{forged}");
    }
}

/// Two people play a short game in the test chat and White resigns; the game's pits and
/// its players as "White – Black".
async fn club_game(site: &Site) -> (String, Vec<u8>, String) {
    let m = &site.manager;
    let (view, players) = start_game(m, ["Asel", "Bolat"]).await;
    let mut pits = Vec::new();
    let view = play(m, view, &players, 4, &mut pits).await;
    let resign = Action::Resign {
        game: Some(view.id.clone()),
        ply: None,
    };
    let view = game(act(m, &players[0], resign).await);
    assert!(view.is_over());
    m.drain_explorer().await.unwrap();
    let names = format!("{} – {}", players[0].name, players[1].name);
    (view.id, pits, names)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clubs_games_are_counted_and_a_private_chats_game_is_not_linked() {
    let site = Site::start().await;
    let m = &site.manager;
    let (id, pits, names) = club_game(&site).await;
    let path = format!("/explorer?source=club&moves={}", pits[0]);
    let (status, page, _) = get(site.addr, &path, None).await;
    assert_eq!(status, 200);
    assert_eq!(rows(&page), vec![(pits[1], 1)], "{page}");
    // The chat is not public: the page neither links nor lists its game.
    let game_page = site.page_of(&id).await;
    assert!(!page.contains(&game_page), "{page}");
    assert!(!page.contains("Asel"), "{page}");
    let admin = UserRef::new(Platform::Telegram, "1", "Admin");
    m.set_chat_public(&chat(), &admin, true).await.unwrap();
    let (_, page, _) = get(site.addr, &path, None).await;
    assert!(
        page.contains(&format!("href=\"{}\"", site.url(&game_page))),
        "{page}"
    );
    assert!(page.contains(&format!("{names}, 0-1")), "{page}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_page_links_the_explorer_at_its_half_move_and_says_where_it_left_it() {
    let site = Site::start().await;
    // The first game is the club's only one; the second follows it, then leaves it.
    let (first, pits, _) = club_game(&site).await;
    let game_page = site.page_of(&first).await;
    let (status, page, _) = get(site.addr, &game_page, None).await;
    assert_eq!(status, 200);
    let moves: String = pits.iter().map(|p| char::from(b'0' + p)).collect();
    assert_eq!(
        unescape(href_after(&page, "id=\"explorer-link\"")),
        format!("/explorer?moves={moves}")
    );
    let (_, at_two, _) = get(site.addr, &format!("{game_page}?ply=2"), None).await;
    assert_eq!(
        unescape(href_after(&at_two, "id=\"explorer-link\"")),
        format!("/explorer?moves={}", &moves[..2])
    );
    // The game itself is counted, not as another game: its first move was new.
    assert!(
        page.contains(
            "A novelty from the very first move: no game in the explorer opens with move 1. (pit"
        ),
        "{page}"
    );
    assert_eq!(unescape(book_link(&page)), "/explorer?moves=");

    // Other players follow the first game's four half-moves, then play on.
    let m = &site.manager;
    let (view, players) = start_game(m, ["Dana", "Erlan"]).await;
    let mut second = Vec::new();
    let view = play(m, view, &players, 6, &mut second).await;
    assert_eq!(second[..4], pits[..]);
    let (_, page, _) = get(site.addr, &site.page_of(&view.id).await, None).await;
    let novelty = format!(
        "The game followed the explorer&#39;s games for 4 half-moves; the novelty was move 3. (pit {}).",
        second[4]
    );
    assert!(page.contains(&novelty), "{page}");
    assert_eq!(
        unescape(book_link(&page)),
        format!("/explorer?moves={moves}")
    );
    let (_, ru, _) = get(site.addr, &site.page_of(&view.id).await, Some("ru")).await;
    assert!(ru.contains("Партия шла по справочнику 4 полухода"), "{ru}");
}

/// The link of the game page's line in the explorer.
fn book_link(page: &str) -> &str {
    let book = &page[page.find("<p id=\"book\"").expect("the explorer's line")..];
    href_after(book, "<a ")
}
