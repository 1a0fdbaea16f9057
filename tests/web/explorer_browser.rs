//! The opening explorer's page in a real Chromium at a phone's width (issue 52): it fits
//! 360 px, a click on a move (a plain link) shows the next position and its table, a click
//! on a pit of the board steps in too, the policy refuses nothing, and a game page's
//! explorer link follows the half-move shown.

use super::browser;
use super::explorer::import_masters;
use super::Site;
use std::time::Duration;

/// Sums the moves table's games (its rows' first number cells).
const TABLE_GAMES: &str = "[...document.querySelectorAll('#explorer-moves tbody tr')]\
    .map(r => parseInt(r.querySelector('td.num').textContent)).reduce((a, b) => a + b, 0)";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_works_by_clicks_on_a_phone() {
    let Some(mut chrome) = browser::launch().await else {
        return;
    };
    let site = Site::start().await;
    let imported = import_masters(&site).await;
    chrome
        .open(&site.url("/explorer?lang=ru"), 360, 740, true)
        .await;
    let fits = "document.documentElement.scrollWidth <= window.innerWidth";
    assert_eq!(chrome.eval(fits).await, true);
    assert_eq!(chrome.eval(TABLE_GAMES).await, imported as u64);
    let board = "document.querySelector('#board svg').getBoundingClientRect().width";
    assert!(chrome.eval(board).await.as_f64().unwrap() > 300.0);
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(
        tmp.join("web-explorer-start.png"),
        chrome.screenshot().await,
    )
    .unwrap();

    // The most played move: clicked, the next position's table counts its games.
    let first = "document.querySelector('#explorer-moves tbody tr')";
    let pit = chrome.eval(&format!("{first}.dataset.pit")).await;
    let games = chrome
        .eval(&format!(
            "parseInt({first}.querySelector('td.num').textContent)"
        ))
        .await;
    chrome
        .eval(&format!("{first}.querySelector('a.move').click()"))
        .await;
    let moved = format!(
        "location.search.includes('moves={}') && document.readyState === 'complete' \
         && document.querySelector('#line').textContent.includes('{}')",
        pit.as_str().unwrap(),
        pit.as_str().unwrap()
    );
    chrome
        .wait_across_loads(&moved, Duration::from_secs(10))
        .await;
    assert_eq!(chrome.eval(TABLE_GAMES).await, games);
    assert!(chrome.eval("location.search.includes('lang=ru')").await == true);
    assert_eq!(chrome.eval(fits).await, true);
    chrome
        .eval("window.scrollTo(0, document.querySelector('#explorer-moves').offsetTop - 8)")
        .await;
    std::fs::write(
        tmp.join("web-explorer-table.png"),
        chrome.screenshot().await,
    )
    .unwrap();

    // A pit of the board (Black's, to move now) steps in as well.
    let black_pit = "document.querySelector('#board a.pit-link')";
    let href = chrome
        .eval(&format!("{black_pit}.getAttribute('href')"))
        .await;
    let href = href.as_str().unwrap().replace("&amp;", "&");
    // A real click at the pit's middle, as a finger would.
    chrome
        .eval(&format!("{black_pit}.scrollIntoView({{block: 'center'}})"))
        .await;
    let at = chrome
        .eval(&format!(
            "(() => {{ const r = {black_pit}.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ))
        .await;
    let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
    for kind in ["mousePressed", "mouseReleased"] {
        let event =
            serde_json::json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 });
        chrome.call("Input.dispatchMouseEvent", event).await;
    }
    let moves = href
        .split("moves=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap();
    let stepped =
        format!("location.search.includes('moves={moves}') && document.readyState === 'complete'");
    chrome
        .wait_across_loads(&stepped, Duration::from_secs(10))
        .await;
    std::fs::write(
        tmp.join("web-explorer-board.png"),
        chrome.screenshot().await,
    )
    .unwrap();
    assert!(chrome.errors.is_empty(), "{:?}", chrome.errors);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_pages_explorer_link_follows_the_half_move_shown() {
    let Some(mut chrome) = browser::launch().await else {
        return;
    };
    let site = Site::start().await;
    let m = &site.manager;
    let (view, players) = super::start_game(m, ["Asel", "Bolat"]).await;
    let mut pits = Vec::new();
    let view = super::play(m, view, &players, 5, &mut pits).await;
    let moves: String = pits.iter().map(|p| char::from(b'0' + p)).collect();
    chrome
        .open(&site.url(&site.page_of(&view.id).await), 360, 740, true)
        .await;
    let link = |moves: &str| {
        format!("document.querySelector('#explorer-link').getAttribute('href') === '/explorer?moves={moves}'")
    };
    chrome.wait_for(&link(&moves), Duration::from_secs(5)).await;
    chrome.key("Home", 36).await;
    chrome.wait_for(&link(""), Duration::from_secs(5)).await;
    chrome.key("ArrowRight", 39).await;
    chrome.key("ArrowRight", 39).await;
    chrome
        .wait_for(&link(&moves[..2]), Duration::from_secs(5))
        .await;
    assert_eq!(
        chrome
            .eval("document.documentElement.scrollWidth <= window.innerWidth")
            .await,
        true
    );
    assert!(chrome.errors.is_empty(), "{:?}", chrome.errors);
}
