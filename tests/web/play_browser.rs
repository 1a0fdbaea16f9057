//! Playing on the page in a real Chromium (issue 50): a player signs in by their link,
//! opens their game against the bot from `/me`, plays by clicking (and with the keyboard)
//! the pit buttons the server offers, sees the bot's reply arrive without a reload and the
//! last move marked, gets the manager's words for a move on a stale board, and at phone
//! width every pit button stays on the screen. Any error in the console fails the test.

use super::browser::{self, Browser};
use super::Site;
use serde_json::json;
use std::time::Duration;
use toguz::i18n::Lang;
use toguz::manager::{Action, ActionError, Manager, Request};
use toguz::model::{ChatRef, Level, Platform, UserRef};
use toguz::platform::present;
use toguz::rules::{Side, Variant};
use toguz::testing::manager::game;

const BUTTONS: &str = "document.querySelectorAll('#board [data-pit]').length > 0";

/// Presses `key` as a keyboard does (a key with a character also types it, which is what
/// makes Enter press a focused button).
pub(super) async fn press(chrome: &mut Browser, key: &str, code: u32, text: &str) {
    let down = json!({ "type": "keyDown", "key": key, "code": key,
                       "windowsVirtualKeyCode": code, "text": text });
    chrome.call("Input.dispatchKeyEvent", down).await;
    let up = json!({ "type": "keyUp", "key": key, "code": key, "windowsVirtualKeyCode": code });
    chrome.call("Input.dispatchKeyEvent", up).await;
}

/// Waits until the game has reached `ply` (the bot's reply is made by the manager).
async fn until_ply(m: &Manager, key: &str, ply: u16) -> String {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let page = m.game_page(key).await.unwrap();
        if page.view.ply >= ply {
            return page.view.position.to_fen();
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the bot did not reply"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_signs_in_by_link_and_plays_the_bot_by_clicking_pits() {
    let Some(mut chrome) = browser::launch().await else {
        return;
    };
    let site = Site::start().await;
    let m = &site.manager;
    let asel = UserRef::new(Platform::Telegram, "5101", "Asel");
    let play_bot = Action::PlayBot {
        level: Level::Easy,
        variant: Variant::STANDARD,
        colour: Some(Side::White),
        time: None,
    };
    let request = Request {
        actor: asel.clone(),
        chat: ChatRef::new(Platform::Telegram, "5101"),
        action: play_bot,
    };
    let view = game(m.act(request).await);
    let key = m.page_key(&view.id).await.unwrap();

    // The sign-in link asks first; its button lands on /me, which links the game.
    let link = m.web_login_link(&asel).await.unwrap();
    chrome.open(link.url.expose(), 1000, 900, false).await;
    chrome
        .eval("document.getElementById('sign-in').click()")
        .await;
    chrome
        .wait_across_loads(
            "location.pathname === '/me' && document.readyState === 'complete'",
            Duration::from_secs(10),
        )
        .await;
    let href = chrome
        .eval("document.querySelector('#me-games a').getAttribute('href')")
        .await;
    assert_eq!(href, format!("/g/{key}"));
    chrome
        .open(&site.url(&format!("/g/{key}")), 1000, 900, false)
        .await;
    // A reload would lose this.
    chrome.eval("window.__kept = 'still here'").await;

    let mut ply = 0;
    for turn in 0..4 {
        chrome.wait_for(BUTTONS, Duration::from_secs(10)).await;
        // The buttons are the legal pits, in the player's numbering.
        let shown = chrome
            .eval("[...document.querySelectorAll('#board [data-pit]')].map(b => Number(b.dataset.pit))")
            .await;
        let page = m.game_page(&key).await.unwrap();
        let legal: Vec<u8> = page.view.position.legal_moves().iter().collect();
        assert_eq!(shown, json!(legal), "turn {turn}");
        if turn % 2 == 0 {
            chrome
                .eval("document.querySelector('#board [data-pit]').click()")
                .await;
        } else {
            // With the keyboard: Tab to the first pit button, Enter.
            chrome
                .eval("document.activeElement && document.activeElement.blur()")
                .await;
            let mut found = false;
            for _ in 0..40 {
                press(&mut chrome, "Tab", 9, "").await;
                if chrome
                    .eval("!!(document.activeElement && document.activeElement.dataset.pit)")
                    .await
                    == true
                {
                    found = true;
                    break;
                }
            }
            assert!(found, "a pit button is reached with Tab");
            press(&mut chrome, "Enter", 13, "\r").await;
        }
        // The player's move shows from the action's answer, the bot's reply through the
        // live stream, without a reload; the last move is marked.
        ply += 2;
        let fen = until_ply(m, &key, ply).await;
        let shows = format!("document.getElementById('board').dataset.position === '{fen}'");
        let took = chrome.wait_for(&shows, Duration::from_secs(5)).await;
        eprintln!("turn {turn}: the bot's reply on the page {took:?} after the manager had it");
        assert_eq!(chrome.eval("window.__kept").await, "still here");
        assert_eq!(
            chrome
                .eval("document.querySelectorAll('#board .hole.played').length")
                .await,
            1
        );
    }

    // A move on a board that moved on since it was drawn: refused with the manager's words,
    // and nothing is played.
    chrome.wait_for(BUTTONS, Duration::from_secs(10)).await;
    chrome
        .eval("(() => { const b = document.querySelector('#board [data-pit]'); b.dataset.ply = String(Number(b.dataset.ply) - 2); b.click(); })()")
        .await;
    let stale = present::error_text(&ActionError::StaleBoard, Lang::En);
    let says = format!(
        "document.getElementById('play-message').textContent === {}",
        json!(stale)
    );
    chrome.wait_for(&says, Duration::from_secs(5)).await;
    assert_eq!(
        m.game_page(&key).await.unwrap().view.ply,
        ply,
        "nothing played"
    );
    // Chromium logs every 4xx answer to a fetch as an error: this one was meant.
    let refused = "the server responded with a status of 409";
    let logged = chrome.errors.iter().filter(|e| e.contains(refused)).count();
    assert_eq!(logged, 1, "{:?}", chrome.errors);
    chrome.errors.retain(|e| !e.contains(refused));
    // The seat is asked again: the buttons come back for the board as it is.
    chrome.wait_for(BUTTONS, Duration::from_secs(5)).await;

    // Resigning asks first.
    chrome
        .eval("document.querySelector('#play-actions [data-action=confirm]').click()")
        .await;
    assert!(
        !m.game_page(&key).await.unwrap().view.is_over(),
        "only asked"
    );
    chrome
        .eval("document.querySelector('#play-actions [data-action=resign]').click()")
        .await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while !m.game_page(&key).await.unwrap().view.is_over() {
        assert!(tokio::time::Instant::now() < deadline, "not resigned");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    chrome
        .wait_for(
            "!document.querySelector('#board [data-pit]')",
            Duration::from_secs(5),
        )
        .await;
    assert!(chrome.errors.is_empty(), "{:?}", chrome.errors);

    // At phone width, in a new game, each pit button is on the screen and big enough to tap.
    let again = Request {
        actor: asel.clone(),
        chat: ChatRef::new(Platform::Telegram, "5101"),
        action: Action::PlayBot {
            level: Level::Easy,
            variant: Variant::STANDARD,
            colour: Some(Side::White),
            time: None,
        },
    };
    let view = game(m.act(again).await);
    let key = m.page_key(&view.id).await.unwrap();
    chrome
        .open(&site.url(&format!("/g/{key}")), 360, 740, true)
        .await;
    chrome.wait_for(BUTTONS, Duration::from_secs(10)).await;
    let fits = "document.documentElement.scrollWidth <= window.innerWidth";
    assert_eq!(chrome.eval(fits).await, true);
    let on_screen = "[...document.querySelectorAll('#board [data-pit]')].every(b => { \
                     const r = b.getBoundingClientRect(); \
                     return r.left >= 0 && r.right <= window.innerWidth && r.width >= 24 && r.height >= 40; })";
    assert_eq!(chrome.eval(on_screen).await, true);
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(tmp.join("web-play-phone.png"), chrome.screenshot().await).unwrap();
    assert!(chrome.errors.is_empty(), "{:?}", chrome.errors);
}
