//! Premoves set on the board of the game's page, in a real Chromium (issue 51): a signed-in
//! player whose opponent is to move enters the premove mode, clicks the opponent's pit and
//! then (with the keyboard) their own reply, sees the board show where the line leads as
//! the server computed it, adds the line (reached with Tab) and sees it listed; back on
//! the game, the opponent plays that pit and the page shows the reply played. At phone
//! width the mode fits the screen (a screenshot is kept in the test's temporary directory).
//! Any error in the console fails the test.

use super::browser::{self, Browser};
use super::play_browser::press;
use super::{start_game, Site};
use serde_json::{json, Value};
use std::time::Duration;
use toguz::i18n::Lang;
use toguz::manager::{Action, Manager};
use toguz::model::UserRef;
use toguz::platform::present;
use toguz::rules::Position;
use toguz::testing::manager::act;

const WAIT: Duration = Duration::from_secs(10);

/// The stone counts the page's board shows: White's pits 1-9, then Black's.
async fn counts(chrome: &mut Browser) -> Value {
    chrome
        .eval(
            "[0, 1].map(side => [1, 2, 3, 4, 5, 6, 7, 8, 9].map(pit => Number(document.querySelector(\
             `#board text.count[data-side=\"${side}\"][data-hole=\"${pit}\"]`).textContent)))",
        )
        .await
}

/// The board the server previews for `who`'s draft in `game`.
async fn server_preview(
    m: &Manager,
    who: &UserRef,
    game: &str,
) -> present::premoves::PremovePreview {
    let mine = m.premoves(who, game).await.unwrap();
    present::premoves::preview(&mine, Lang::En).expect("a preview while the opponent is to move")
}

fn text_is(selector: &str, text: &str) -> String {
    format!(
        "(document.querySelector({}) || {{}}).textContent === {}",
        json!(selector),
        json!(text)
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_sets_a_premove_on_the_board_and_it_is_played() {
    let Some(mut chrome) = browser::launch().await else {
        return;
    };
    let site = Site::start().await;
    let m = &site.manager;
    // A correspondence game between two people, White to move: Black may set premoves.
    let (view, [white, black]) = start_game(m, ["Aigerim", "Bauyrzhan"]).await;
    let key = m.page_key(&view.id).await.unwrap();

    // Black signs in by their link, on a phone.
    let link = m.web_login_link(&black).await.unwrap();
    chrome.open(link.url.expose(), 360, 800, true).await;
    chrome
        .eval("document.getElementById('sign-in').click()")
        .await;
    chrome
        .wait_across_loads(
            "location.pathname === '/me' && document.readyState === 'complete'",
            WAIT,
        )
        .await;
    chrome
        .open(&site.url(&format!("/g/{key}")), 360, 800, true)
        .await;
    let enter = "#play-premoves [data-action=premoves_board]";
    chrome
        .wait_for(&format!("!!document.querySelector('{enter}')"), WAIT)
        .await;
    let start = counts(&mut chrome).await;
    let nine = [9u8; 9];
    assert_eq!(start, json!([nine, nine]));

    // The mode: the board is framed as a preview, a button over each of White's pits.
    chrome
        .eval(&format!("document.querySelector('{enter}').click()"))
        .await;
    chrome
        .wait_for(
            "document.getElementById('board').classList.contains('preview') && \
             document.querySelectorAll('#board [data-premove]').length === 9 && \
             !document.querySelector('#board .pit-buttons.top')",
            WAIT,
        )
        .await;
    let prompt = present::premoves::preview(&m.premoves(&black, &view.id).await.unwrap(), Lang::En)
        .unwrap()
        .prompt;
    chrome
        .wait_for(&text_is("#play-message", &prompt), WAIT)
        .await;

    // Their 3, clicked: the board shows the position after it, as the server computes it.
    chrome
        .eval("document.querySelector('#board [data-premove][data-pit=\"3\"]').click()")
        .await;
    chrome
        .wait_for(&text_is("#premoves-draft", "New line: 3 → …"), WAIT)
        .await;
    let preview = server_preview(m, &black, &view.id).await;
    chrome
        .wait_for("!!document.querySelector('#board .pit-buttons.top')", WAIT)
        .await;
    let shown = counts(&mut chrome).await;
    assert_eq!(shown, json!(preview.board.pits), "the server's preview");
    assert_eq!(shown[0][2], 1, "White's 3 sown");
    assert_eq!(shown[1][1], 0, "Black's 2 taken");
    assert_ne!(shown, start);
    // Black's pits to choose from are those the server names, and the game did not move.
    let offered = chrome
        .eval("[...document.querySelectorAll('#board [data-premove]')].map(b => Number(b.dataset.pit)).sort()")
        .await;
    assert_eq!(offered, json!(preview.pits));
    assert_eq!(m.game_page(&key).await.unwrap().view.ply, 0);
    chrome
        .wait_for(&text_is("#play-message", &preview.prompt), WAIT)
        .await;

    // My 7, with the keyboard.
    chrome
        .eval("document.querySelector('#board [data-premove][data-pit=\"7\"]').focus()")
        .await;
    press(&mut chrome, "Enter", 13, "\r").await;
    chrome
        .wait_for(&text_is("#premoves-draft", "New line: 3 → 7"), WAIT)
        .await;
    let preview = server_preview(m, &black, &view.id).await;
    chrome
        .wait_for("!document.querySelector('#board .pit-buttons.top')", WAIT)
        .await;
    assert_eq!(counts(&mut chrome).await, json!(preview.board.pits));
    // The reply is marked where it was played.
    assert_eq!(
        chrome
            .eval("document.querySelectorAll('#board .hole.played').length")
            .await,
        1
    );

    // At phone width, the mode fits: no sideways scrolling, every pit button on the screen.
    let fits = "document.documentElement.scrollWidth <= window.innerWidth";
    assert_eq!(chrome.eval(fits).await, true);
    let on_screen = "[...document.querySelectorAll('#board [data-premove]')].every(b => { \
                     const r = b.getBoundingClientRect(); \
                     return r.left >= 0 && r.right <= window.innerWidth && r.width >= 24; })";
    assert_eq!(chrome.eval(on_screen).await, true);
    chrome
        .eval("document.getElementById('board').scrollIntoView()")
        .await;
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(
        tmp.join("web-premoves-phone.png"),
        chrome.screenshot().await,
    )
    .unwrap();

    // Add line, reached with Tab.
    let mut found = false;
    for _ in 0..40 {
        press(&mut chrome, "Tab", 9, "").await;
        let on = chrome
            .eval("!!document.activeElement && document.activeElement.dataset.action === 'premove_add'")
            .await;
        if on == true {
            found = true;
            break;
        }
    }
    assert!(found, "Add line is reached with Tab");
    press(&mut chrome, "Enter", 13, "\r").await;
    chrome
        .wait_for(&text_is("#play-premoves ol li", "3 → 7"), WAIT)
        .await;
    assert_eq!(
        m.premoves(&black, &view.id).await.unwrap().lines,
        vec![vec![3, 7]]
    );

    // Back to the game: the real board again.
    chrome
        .eval("document.querySelector('#play-premoves [data-action=premoves_back]').click()")
        .await;
    let fen = Position::default().to_fen();
    chrome
        .wait_for(
            &format!(
                "!document.getElementById('board').classList.contains('preview') && \
                 document.getElementById('board').dataset.position === '{fen}' && \
                 !document.querySelector('#board [data-premove]')"
            ),
            WAIT,
        )
        .await;

    // White plays 3 (in the chat): Black's 7 is played with it, and the page shows both.
    let played = act(
        m,
        &white,
        Action::Move {
            game: view.id.clone(),
            ply: Some(0),
            pit: 3,
        },
    )
    .await;
    assert!(played.is_ok(), "{played:?}");
    let page = m.game_page(&key).await.unwrap();
    assert_eq!(page.view.ply, 2, "the reply was played");
    let fen = page.view.position.to_fen();
    chrome
        .wait_for(
            &format!(
                "document.getElementById('board').dataset.ply === '2' && \
                 document.getElementById('board').dataset.position === '{fen}'"
            ),
            WAIT,
        )
        .await;
    assert_eq!(counts(&mut chrome).await, json!(preview.board.pits));
    chrome
        .wait_for(&text_is("#play-premoves ol li", "No lines yet."), WAIT)
        .await;
    assert!(chrome.errors.is_empty(), "{:?}", chrome.errors);
}
