//! A game's page: served with its record, board image and link preview; forged addresses
//! refused; replayed in Chromium ply by ply with the keys; live moves shown within a second;
//! no overflow at phone width; no console errors.

use super::browser;
use super::{play, positions, start_game, Site};
use std::time::Duration;
use toguz::manager::Action;
use toguz::testing::manager::{act, game};

/// The players of most tests.
const NAMES: [&str; 2] = ["Асель Нұрланқызы", "Болат Серіков"];

fn header<'a>(response: &'a reqwest::Response, name: &str) -> &'a str {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_has_its_page_record_and_image_and_forged_addresses_get_404() {
    let site = Site::start().await;
    let m = &site.manager;
    let (view, players) = start_game(m, ["Асель <b>&", "Bolat"]).await;
    let mut pits = Vec::new();
    let view = play(m, view, &players, 12, &mut pits).await;
    let resign = Action::Resign {
        game: Some(view.id.clone()),
        ply: None,
    };
    let view = game(act(m, &players[0], resign).await);
    assert!(view.is_over());
    let fens = positions(&pits);
    let path = site.page_of(&view.id).await;
    let http = reqwest::Client::new();

    let page = http.get(site.url(&path)).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(header(&page, "content-type").starts_with("text/html"));
    assert!(header(&page, "content-security-policy").contains("script-src 'self'"));
    assert_eq!(header(&page, "referrer-policy"), "no-referrer");
    assert_eq!(header(&page, "x-content-type-options"), "nosniff");
    let html = page.text().await.unwrap();
    let last = fens.last().unwrap();
    assert!(
        html.contains(&format!("data-position=\"{last}\"")),
        "{html}"
    );
    let og_image = format!(
        "<meta property=\"og:image\" content=\"{}.png\">",
        site.url(&path)
    );
    assert!(html.contains(&og_image), "{html}");
    assert!(html.contains("twitter:card"), "{html}");
    assert!(
        html.contains("Асель &lt;b&gt;&amp;"),
        "names escaped: {html}"
    );
    for id in ["81234567", "92345678"] {
        assert!(!html.contains(id), "a platform id on the page: {html}");
    }

    // ?ply=N opens the game after N half-moves.
    let at3 = http
        .get(site.url(&format!("{path}?ply=3")))
        .send()
        .await
        .unwrap();
    let html3 = at3.text().await.unwrap();
    assert!(
        html3.contains(&format!("data-position=\"{}\"", fens[3])),
        "{html3}"
    );

    // The record is the manager's, the image a PNG.
    let record = http
        .get(site.url(&format!("{path}.pgn")))
        .send()
        .await
        .unwrap();
    assert_eq!(record.status(), 200);
    let expected = m.record(&view.id).await.unwrap().text;
    let record = record.text().await.unwrap();
    assert_eq!(record, expected);
    assert!(!record.contains("81234567"), "{record}");
    let image = http
        .get(site.url(&format!("{path}.png")))
        .send()
        .await
        .unwrap();
    assert_eq!(header(&image, "content-type"), "image/png");
    let png = image.bytes().await.unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));

    // In the browser's language, or the one chosen.
    let ru = http
        .get(site.url(&path))
        .header("accept-language", "ru-RU,ru;q=0.9,en;q=0.5")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        ru.contains("<html lang=\"ru\"") && ru.contains("Копировать позицию"),
        "{ru}"
    );
    let kk = http
        .get(site.url(&format!("{path}?lang=kk")))
        .send()
        .await
        .unwrap();
    let kk = kk.text().await.unwrap();
    assert!(kk.contains("Позицияны көшіру"), "{kk}");

    // Forged, unknown and malformed addresses: a plain 404 page.
    let (id, _) = path.trim_start_matches("/g/").split_once('-').unwrap();
    for wrong in [
        format!("/g/{id}-00000000000000000000"),
        format!("/g/{id}"),
        "/g/zzzzzz-00000000000000000000.pgn".to_string(),
        format!("/g/{}x", path.trim_start_matches("/g/")),
        "/nothing/here".to_string(),
    ] {
        let response = http.get(site.url(&wrong)).send().await.unwrap();
        assert_eq!(response.status(), 404, "{wrong}");
        assert!(header(&response, "content-type").starts_with("text/html"));
        let body = response.text().await.unwrap();
        assert!(body.contains("Page not found"), "{wrong}: {body}");
    }
}

/// Issue 49, findings 4 and 11: sixty board images asked at once with made-up query strings
/// are drawn through the drawing pool (none on a runtime thread outside it), once, and each
/// says that it differs by language.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn board_images_are_drawn_through_the_pool_once_and_vary_by_language() {
    let site = Site::start().await;
    let m = &site.manager;
    let (view, players) = start_game(m, NAMES).await;
    let mut pits = Vec::new();
    let view = play(m, view, &players, 6, &mut pits).await;
    let path = site.page_of(&view.id).await;
    let before = toguz::render::pool::drawn_on_async_workers();
    let http = reqwest::Client::new();
    let mut asks = Vec::new();
    for x in 0..60 {
        let url = site.url(&format!("{path}.png?x={x}"));
        let http = http.clone();
        asks.push(tokio::spawn(async move {
            let response = http.get(url).send().await.unwrap();
            assert_eq!(response.status(), 200);
            let vary = header(&response, "vary").to_ascii_lowercase();
            assert!(vary.contains("accept-language"), "{vary}");
            response.bytes().await.unwrap()
        }));
    }
    let mut images = Vec::new();
    for ask in asks {
        images.push(ask.await.unwrap());
    }
    assert!(images[0].starts_with(b"\x89PNG\r\n\x1a\n"));
    assert!(images.iter().all(|i| *i == images[0]), "one picture");
    assert_eq!(
        toguz::render::pool::drawn_on_async_workers(),
        before,
        "drawn outside the drawing pool"
    );
    let ru = http
        .get(site.url(&format!("{path}.png")))
        .header("accept-language", "ru")
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert_ne!(ru, images[0], "the Russian board's words differ");
}

/// Issue 49, finding 10: the 404 page's language links stay on this site whatever the path.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_404_for_a_path_naming_another_host_links_only_to_this_site() {
    let site = Site::start().await;
    let (mut tcp, request) = (
        tokio::net::TcpStream::connect(site.addr).await.unwrap(),
        "GET //evil.example/x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    );
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    tcp.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 404"), "{answer}");
    assert!(!answer.contains("href=\"//"), "{answer}");
    assert!(
        answer.contains("href=\"/evil.example/x?lang=kk\""),
        "{answer}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_with_everything_it_loads_weighs_under_200_kb_and_assets_are_cached_gzip() {
    let site = Site::start().await;
    let m = &site.manager;
    let (view, players) = start_game(m, NAMES).await;
    let view = play(m, view, &players, 200, &mut Vec::new()).await;
    let path = site.page_of(&view.id).await;
    let http = reqwest::Client::new();
    let html = http.get(site.url(&path)).send().await.unwrap();
    let html = html.text().await.unwrap();
    let mut total = html.len();
    for asset in ["game.js", "game.css"] {
        let at = html.find(&format!("/assets/{asset}?v=")).expect(asset);
        let end = at + html[at..].find('"').unwrap();
        let href = &html[at..end];
        let plain = http.get(site.url(href)).send().await.unwrap();
        assert_eq!(plain.status(), 200);
        assert!(header(&plain, "cache-control").contains("immutable"));
        total += plain.bytes().await.unwrap().len();
        let gzip = http
            .get(site.url(href))
            .header("accept-encoding", "gzip")
            .send()
            .await
            .unwrap();
        assert_eq!(header(&gzip, "content-encoding"), "gzip");
    }
    eprintln!("a {}-ply page loads {total} bytes", view.ply);
    assert!(
        total < 200_000,
        "a {}-ply page loads {total} bytes",
        view.ply
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_replays_every_ply_with_the_keys_and_shows_no_error() {
    let Some(mut chrome) = browser::launch().await else {
        return;
    };
    let site = Site::start().await;
    let m = &site.manager;
    let (view, players) = start_game(m, NAMES).await;
    let mut pits = Vec::new();
    let view = play(m, view, &players, 40, &mut pits).await;
    let fens = positions(&pits);
    let path = site.page_of(&view.id).await;
    let shown = "document.getElementById('board').dataset.position";

    chrome
        .open(&site.url(&format!("{path}?ply=0")), 1000, 900, false)
        .await;
    assert_eq!(chrome.eval(shown).await, fens[0]);
    for (ply, fen) in fens.iter().enumerate().skip(1) {
        chrome.key("ArrowRight", 39).await;
        assert_eq!(chrome.eval(shown).await, *fen, "after ply {ply}");
    }
    chrome.key("ArrowRight", 39).await;
    assert_eq!(
        chrome.eval(shown).await,
        *fens.last().unwrap(),
        "stays at the end"
    );
    chrome.key("Home", 36).await;
    assert_eq!(chrome.eval(shown).await, fens[0]);
    chrome.key("End", 35).await;
    chrome.key("ArrowLeft", 37).await;
    assert_eq!(chrome.eval(shown).await, fens[fens.len() - 2]);
    // The move list and the slider go to a ply too.
    chrome
        .eval("document.querySelector('#moves button[data-ply=\"7\"]').click()")
        .await;
    assert_eq!(chrome.eval(shown).await, fens[7]);
    assert_eq!(chrome.eval("location.search").await, "?ply=7");
    assert!(chrome.errors.is_empty(), "{:?}", chrome.errors);
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(tmp.join("web-desktop.png"), chrome.screenshot().await).unwrap();

    // At phone width nothing overflows; the screenshot is kept to look at.
    chrome.open(&site.url(&path), 360, 740, true).await;
    let fits = "document.documentElement.scrollWidth <= window.innerWidth";
    assert_eq!(chrome.eval(fits).await, true);
    let shot = chrome.screenshot().await;
    std::fs::write(tmp.join("web-phone.png"), shot).unwrap();
    assert!(chrome.errors.is_empty(), "{:?}", chrome.errors);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_shows_on_an_open_page_within_a_second() {
    let Some(mut chrome) = browser::launch().await else {
        return;
    };
    let site = Site::start().await;
    let m = &site.manager;
    let (view, players) = start_game(m, NAMES).await;
    let mut pits = Vec::new();
    let view = play(m, view, &players, 6, &mut pits).await;
    let path = site.page_of(&view.id).await;
    chrome.open(&site.url(&path), 1000, 900, false).await;
    // The live stream is open (its first state has come) before the move is made.
    chrome
        .wait_for(
            "Number(document.getElementById('board').dataset.live) >= 1",
            Duration::from_secs(10),
        )
        .await;
    let view = play(m, view, &players, 1, &mut pits).await;
    let fen = positions(&pits).pop().unwrap();
    let shows = format!("document.getElementById('board').dataset.position === '{fen}'");
    let took = chrome.wait_for(&shows, Duration::from_secs(1)).await;
    eprintln!("a move reached the open page in {took:?}");
    // Another, and the game's end: the page says so and stops listening.
    let resign = Action::Resign {
        game: Some(view.id.clone()),
        ply: None,
    };
    game(act(m, &players[1], resign).await);
    chrome
        .wait_for(
            "document.getElementById('live').hidden === true",
            Duration::from_secs(1),
        )
        .await;
    assert!(chrome.errors.is_empty(), "{:?}", chrome.errors);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reviewed_game_shows_its_graph_and_mistakes_also_after_a_restart() {
    let site = Site::start().await;
    let m = &site.manager;
    let (view, players) = start_game(m, NAMES).await;
    let view = play(m, view, &players, 30, &mut Vec::new()).await;
    let resign = Action::Resign {
        game: Some(view.id.clone()),
        ply: None,
    };
    let view = game(act(m, &players[0], resign).await);
    let path = site.page_of(&view.id).await;
    let http = reqwest::Client::new();
    let before = http.get(site.url(&path)).send().await.unwrap();
    let before = before.text().await.unwrap();
    assert!(!before.contains("\"review\":{"), "not reviewed yet");

    let reviewed = m.review(&view.id, &players[1]).await.unwrap();
    let marks = reviewed.review.marked_mistakes();
    let html = http.get(site.url(&path)).send().await.unwrap();
    let html = html.text().await.unwrap();
    assert!(html.contains("\"review\":{\"title\":\"Review\""), "{html}");
    let evals = format!("\"evals\":[{}", reviewed.review.start_eval.balls());
    assert!(html.contains(&evals), "{html}");
    for mark in &marks {
        let ply = &reviewed.review.plies[mark.index];
        let line = toguz::review::mistake_line(toguz::i18n::Lang::En, mark.mark, ply);
        assert!(
            html.contains(&line.replace('<', "\\u003c")),
            "{line} in {html}"
        );
    }

    // The review is in the store: another manager on it (a restart, another process)
    // shows it without reviewing again.
    let key = path.trim_start_matches("/g/").to_string();
    let (again, _dir) = site.restart_manager().await;
    let page = again.game_page(&key).await.unwrap();
    assert_eq!(page.review.as_deref(), Some(&*reviewed.review));
}
