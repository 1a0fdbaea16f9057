//! Player pages (`/p/<key>`): a game's page and the leaderboards link each person to their
//! page, whose key shows no platform id and cannot be forged; the page shows the name, the
//! rating after each rated game as the graph's points, and the last games linking to their
//! pages; the key stays the same after a restart; at phone width nothing overflows and the
//! browser reports no error; the same on PostgreSQL.

use super::browser;
use super::{play, start_game, Site};
use std::net::SocketAddr;
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::{Action, ActionError, Manager};
use toguz::model::UserRef;
use toguz::platform::web::{self, WebConfig};
use toguz::testing::manager::{act, chat, game, test_config, Backend};

/// The players' platform ids (`start_game`'s): no page may show them.
const IDS: [&str; 2] = ["81234567", "92345678"];

/// What the games left: the ids of the games in the order played, and the first player's
/// rating after each (rounded, as the graph's `data-rating`).
struct Played {
    games: Vec<String>,
    ratings: Vec<i64>,
    first: UserRef,
    second: UserRef,
}

/// `n` rated games between two people (a few moves, then White resigns), in a chat listed
/// on the front page (a player's page lists those).
async fn play_games(m: &Manager, n: usize) -> Played {
    let admin = UserRef::new(toguz::model::Platform::Telegram, "1", "Admin");
    m.set_chat_public(&chat(), &admin, true).await.unwrap();
    play_games_unlisted(m, n).await
}

/// `play_games` in a chat whatever its listing.
async fn play_games_unlisted(m: &Manager, n: usize) -> Played {
    let mut played = Played {
        games: Vec::new(),
        ratings: Vec::new(),
        first: UserRef::new(toguz::model::Platform::Telegram, IDS[0], "?"),
        second: UserRef::new(toguz::model::Platform::Telegram, IDS[1], "?"),
    };
    for _ in 0..n {
        let (view, players) = start_game(m, ["Асель <Нұр>", "Bolat"]).await;
        let view = play(m, view, &players, 4, &mut Vec::new()).await;
        let resign = Action::Resign {
            game: Some(view.id.clone()),
            ply: None,
        };
        let view = game(act(m, &players[0], resign).await);
        assert!(view.is_over());
        let category = view.time_control.category();
        let (first, second) = if players[0].id == IDS[0] {
            (players[0].clone(), players[1].clone())
        } else {
            (players[1].clone(), players[0].clone())
        };
        let stats = m.stats(&first).await.unwrap().unwrap();
        played
            .ratings
            .push(stats.rating_in(category).rating.round() as i64);
        played.games.push(view.id.clone());
        played.first = first;
        played.second = second;
    }
    played
}

async fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let response = reqwest::get(format!("http://{addr}{path}")).await.unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

/// Every value of `attribute="..."` in `html`, in order.
fn values<'a>(html: &'a str, attribute: &str) -> Vec<&'a str> {
    let marker = format!("{attribute}=\"");
    html.split(marker.as_str())
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect()
}

/// The player page addresses (`/p/...`) a page links to, in order.
fn player_links(html: &str) -> Vec<&str> {
    values(html, "href")
        .into_iter()
        .filter(|h| h.starts_with("/p/"))
        .collect()
}

/// Checks a player's page: the name, the graph's points, the recent games' links, no id.
async fn check_page(m: &Manager, addr: SocketAddr, path: &str, played: &Played) {
    let (status, html) = get(addr, path).await;
    assert_eq!(status, 200, "{html}");
    assert!(
        html.contains("Асель &lt;Нұр&gt;"),
        "the name, escaped: {html}"
    );
    assert!(html.contains("Plays on Telegram"), "{html}");
    let ratings: Vec<i64> = values(&html, "data-rating")
        .iter()
        .map(|r| r.parse().unwrap())
        .collect();
    assert_eq!(
        ratings, played.ratings,
        "the rating after each game: {html}"
    );
    // The recent games, newest first, each linking to its game's page.
    let mut expected = Vec::new();
    for id in played.games.iter().rev() {
        expected.push(format!("/g/{}", m.page_key(id).await.unwrap()));
    }
    let recent = &html[html.find("<ul class=\"games\">").expect("a list of games")..];
    let links: Vec<String> = values(recent, "href")
        .into_iter()
        .filter(|h| h.starts_with("/g/"))
        .map(str::to_string)
        .collect();
    assert_eq!(links, expected, "{html}");
    assert!(recent.contains("vs Bolat"), "{html}");
    for id in IDS {
        assert!(!html.contains(id), "a platform id on a player page: {html}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_page_shows_the_ratings_graph_and_games_under_a_key_no_one_can_forge() {
    let site = Site::start().await;
    let m = &site.manager;
    let played = play_games(m, 3).await;

    // The last game's page links both players to their pages.
    let last = site.page_of(played.games.last().unwrap()).await;
    let (_, html) = get(site.addr, &last).await;
    let first_path = format!("/p/{}", m.player_page_key(&played.first).await.unwrap());
    let second_path = format!("/p/{}", m.player_page_key(&played.second).await.unwrap());
    let mut linked = player_links(&html);
    linked.sort_unstable();
    let mut both = vec![first_path.as_str(), second_path.as_str()];
    both.sort_unstable();
    assert_eq!(linked, both, "{html}");
    // And so do the leaderboards.
    let (_, board) = get(site.addr, "/leaderboard").await;
    let mut linked = player_links(&board);
    linked.sort_unstable();
    assert_eq!(linked, both, "{board}");
    for id in IDS {
        assert!(!first_path.contains(id) && !second_path.contains(id));
    }

    check_page(m, site.addr, &first_path, &played).await;
    let (status, ru) = get(site.addr, &format!("{first_path}?lang=ru")).await;
    assert_eq!(status, 200);
    assert!(
        ru.contains("История рейтинга") && ru.contains("Играет через Telegram"),
        "{ru}"
    );
    let (_, kk) = get(site.addr, &format!("{first_path}?lang=kk")).await;
    assert!(
        kk.contains("Рейтинг тарихы") && kk.contains("Соңғы ойындар"),
        "{kk}"
    );

    // A forged, altered or malformed key: the plain 404 page.
    let key = first_path.trim_start_matches("/p/");
    let last_digit = if key.ends_with('0') { "1" } else { "0" };
    let altered = format!("/p/{}{last_digit}", &key[..key.len() - 1]);
    for path in [
        altered.as_str(),
        &format!("/p/{}", key.to_uppercase()),
        &format!("/p/{key}0"),
        "/p/telegram:81234567",
        "/p/0000000000",
    ] {
        let (status, html) = get(site.addr, path).await;
        assert_eq!(status, 404, "{path}: {html}");
        assert!(html.contains("Page not found"), "{html}");
        assert!(html.contains("no player&#39;s page"), "{html}");
    }
    assert!(matches!(
        m.player_page(altered.trim_start_matches("/p/")).await,
        Err(ActionError::NoSuchGame)
    ));

    // After a restart the same key, and the page read back from the store.
    let first = played.first.clone();
    let (manager, _dir) = site.restart_manager().await;
    assert_eq!(
        format!("/p/{}", manager.player_page_key(&first).await.unwrap()),
        first_path
    );
    let page = manager.player_page(key).await.unwrap();
    assert_eq!(page.points.len(), 3);
    assert_eq!(page.recent.len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_without_finished_games_has_a_page_saying_so() {
    let site = Site::start().await;
    let m = &site.manager;
    let (view, _) = start_game(m, ["Dana", "Erlan"]).await;
    let path = site.page_of(&view.id).await;
    let (_, html) = get(site.addr, &path).await;
    let links = player_links(&html);
    assert_eq!(links.len(), 2, "{html}");
    let (status, page) = get(site.addr, links[0]).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("No finished games yet."), "{page}");
    assert!(page.contains("No rated games yet."), "{page}");
    assert!(!page.contains("<svg class=\"rating-graph\""), "{page}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_page_fits_a_phone_and_shows_no_error_in_the_browser() {
    let Some(mut chrome) = browser::launch().await else {
        return;
    };
    let site = Site::start().await;
    let m = &site.manager;
    let played = play_games(m, 3).await;
    let key = m.player_page_key(&played.first).await.unwrap();
    let url = site.url(&format!("/p/{key}"));
    for lang in ["en", "ru", "kk"] {
        chrome
            .open(&format!("{url}?lang={lang}"), 360, 740, true)
            .await;
        let fits = "document.documentElement.scrollWidth <= window.innerWidth";
        assert_eq!(chrome.eval(fits).await, true, "{lang}");
        let points = "document.querySelectorAll('svg.rating-graph circle').length";
        assert_eq!(chrome.eval(points).await, 3);
        // The graph is drawn at the page's width, not collapsed.
        let width = "document.querySelector('svg.rating-graph').getBoundingClientRect().width";
        assert!(chrome.eval(width).await.as_f64().unwrap() > 300.0);
    }
    chrome
        .eval("window.scrollTo(0, document.body.scrollHeight)")
        .await;
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(tmp.join("web-player-phone.png"), chrome.screenshot().await).unwrap();
    assert!(chrome.errors.is_empty(), "{:?}", chrome.errors);
}

/// Serves `manager`'s pages on a free port.
async fn serve(manager: &Manager) -> (SocketAddr, tokio::task::JoinHandle<anyhow::Result<()>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = WebConfig {
        enabled: true,
        public_url: format!("http://{addr}"),
        ..WebConfig::default()
    };
    let server = tokio::spawn(web::serve_on(listener, config, manager.clone()));
    (addr, server)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_page_works_on_postgresql_and_keeps_its_key() {
    let Some(backend) = Backend::postgres().await else {
        return;
    };
    let start = |store| async move {
        let engine = EnginePool::new(EngineConfig::default());
        Manager::start(store, engine, test_config()).await.unwrap()
    };
    let m = start(backend.open().await).await;
    let played = play_games(&m, 2).await;
    let key = m.player_page_key(&played.first).await.unwrap();
    let (addr, server) = serve(&m).await;
    check_page(&m, addr, &format!("/p/{key}"), &played).await;
    let (status, _) = get(addr, "/p/0123456789abcdef0123").await;
    assert_eq!(status, 404);
    server.abort();

    // Another process on the same database: the same key, the page read from the store.
    let other = start(backend.open().await).await;
    let page = other.player_page(&key).await.unwrap();
    assert_eq!(page.points.len(), 2);
    assert_eq!(other.player_page_key(&played.first).await.unwrap(), key);
    // A player's choice to show all their games, made through one process, holds in the
    // other (issue 49, finding 9).
    assert!(!other.player_page_public(&played.first).await.unwrap());
    m.set_player_page_public(&played.first, true).await.unwrap();
    assert!(other.player_page_public(&played.first).await.unwrap());
    assert!(other.player_page(&key).await.unwrap().public);
}

/// The key of a player's page is written in the write that ends their first game, so
/// showing a page that links to them writes nothing: the keys are there before any page
/// was asked for, and asking for them adds none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_page_key_is_written_with_the_end_of_their_first_game() {
    let backend = Backend::sled();
    let store = backend.open().await;
    let site = Site::start_on(store.clone()).await;
    let m = &site.manager;
    let pages = toguz::store::Tree::PlayerPages;
    assert_eq!(store.count(pages).await.unwrap(), 0);
    let played = play_games(m, 1).await;
    assert_eq!(store.count(pages).await.unwrap(), 2, "both players' keys");
    let last = site.page_of(&played.games[0]).await;
    let (status, html) = get(site.addr, &last).await;
    assert_eq!(status, 200);
    let first = m.player_page_key(&played.first).await.unwrap();
    assert!(html.contains(&format!("/p/{first}")), "{html}");
    assert_eq!(
        store.count(pages).await.unwrap(),
        2,
        "no key added by a view"
    );
    let page = m.player_page(&first).await.unwrap();
    assert_eq!(page.name, "Асель <Нұр>");
    // A second game writes no key again.
    play_games(m, 1).await;
    assert_eq!(store.count(pages).await.unwrap(), 2);
}

/// Issue 49, finding 9: a player's page lists only the games of listed chats (and the
/// console's) and says `noindex`, unless the player chose to show all of theirs
/// (`/web profile on`); a game page of a chat that is not listed says `noindex` too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_page_lists_only_listed_chats_games_unless_they_choose_otherwise() {
    let site = Site::start().await;
    let m = &site.manager;
    let played = play_games_unlisted(m, 2).await;
    let path = format!("/p/{}", m.player_page_key(&played.first).await.unwrap());
    let robots = "<meta name=\"robots\" content=\"noindex";
    let http = reqwest::Client::new();
    let ask = |path: String| {
        let http = http.clone();
        let url = site.url(&path);
        async move {
            let response = http.get(url).send().await.unwrap();
            let tag = response
                .headers()
                .get("x-robots-tag")
                .map(|v| v.to_str().unwrap().to_string());
            (tag, response.text().await.unwrap())
        }
    };

    // A private chat's games: not on the page, which stays out of search engines.
    let (tag, html) = ask(path.clone()).await;
    assert!(!html.contains("href=\"/g/"), "{html}");
    assert!(html.contains("No finished games yet."), "{html}");
    assert!(html.contains(robots), "{html}");
    assert_eq!(tag.as_deref(), Some("noindex, nofollow"));
    let game = site.page_of(&played.games[0]).await;
    let (tag, html) = ask(game.clone()).await;
    assert!(html.contains(robots) && tag.is_some(), "{html}");

    // The player shows all their games: listed, and indexable.
    m.set_player_page_public(&played.first, true).await.unwrap();
    let (tag, html) = ask(path.clone()).await;
    assert_eq!(values(&html, "data-rating").len(), 2, "{html}");
    assert!(!html.contains(robots) && tag.is_none(), "{html}");
    // The other player did not choose so.
    let other = format!("/p/{}", m.player_page_key(&played.second).await.unwrap());
    let (_, html) = ask(other.clone()).await;
    assert!(!html.contains("href=\"/g/"), "{html}");

    // Once the chat is listed, everyone's page lists its games, and the game's page may be
    // indexed; the page of a player who did not choose to be found still may not.
    m.set_chat_public(&chat(), &played.second, true)
        .await
        .unwrap();
    let (tag, html) = ask(other).await;
    assert_eq!(values(&html, "data-rating").len(), 2, "{html}");
    assert!(html.contains(robots) && tag.is_some(), "{html}");
    let (tag, html) = ask(game).await;
    assert!(!html.contains(robots) && tag.is_none(), "{html}");

    // The choice is kept in the store: the same after a restart.
    m.set_player_page_public(&played.second, false)
        .await
        .unwrap();
    let first = played.first.clone();
    let (manager, _dir) = site.restart_manager().await;
    assert!(manager.player_page_public(&first).await.unwrap());
}
