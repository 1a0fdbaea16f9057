//! Signing in through the Telegram Mini App (issue 50): `POST /api/signin/telegram` takes
//! launch data Telegram signed with the bot's token (made here as the fake Telegram makes
//! it) and refuses forged, stale, another bot's and malformed ones; in Chromium, `/tg`
//! opened with the launch fragment signs in and lands on the game named by `start_param`,
//! in Telegram's colours, and a forged one shows the localized refusal and keeps no session.

use super::browser;
use super::{start_game, Site};
use serde_json::{json, Value};
use std::time::Duration;
use toguz::manager::Action;
use toguz::platform::web::signin::telegram::TelegramSignIn;
use toguz::platform::web::signin::SignIns;
use toguz::platform::web::WebConfig;
use toguz::secret::Secret;
use toguz::testing::manager::act;
use toguz::testing::telegram::mini_app::{init_data, launch_fragment, sign, THEME};
use toguz::testing::telegram::{TgChat, TgUser};

/// The bot's token the pages check with.
const TOKEN: &str = "7000000001:AAweb-test-token";
/// The first player of `start_game` as Telegram knows them (id 81234567).
const NAMES: [&str; 2] = ["Асель", "Болат"];

fn asel(language: &str) -> TgUser {
    TgUser::new(81_234_567, "Асель", "asel_l", language)
}

/// The pages with Telegram sign-in on (`per_minute`: `[telegram] commands_per_minute`).
async fn site_with_telegram(per_minute: Option<u32>) -> Site {
    Site::start_with(WebConfig {
        sign_in: SignIns {
            telegram: Some(TelegramSignIn {
                token: Secret::new(TOKEN),
                max_age_secs: 86_400,
                commands_per_minute: per_minute,
            }),
            ..SignIns::default()
        },
        ..WebConfig::default()
    })
    .await
}

fn now(site: &Site) -> u64 {
    site.manager.clock().now()
}

/// Posts `body` to the sign-in: (status, JSON answer).
async fn post(site: &Site, body: String, language: &str) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(site.url("/api/signin/telegram"))
        .header("Content-Type", "application/json")
        .header("Accept-Language", language)
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let cache = response.headers().get("cache-control").cloned();
    assert_eq!(cache.unwrap().to_str().unwrap(), "no-store");
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn sign_in(site: &Site, data: &str) -> (u16, Value) {
    post(site, json!({ "init_data": data }).to_string(), "en").await
}

/// A refusal: its status, an `error` text and no session.
fn refused(answer: &(u16, Value), status: u16) -> String {
    assert_eq!(answer.0, status, "{}", answer.1);
    assert!(answer.1.get("token").is_none(), "{}", answer.1);
    answer.1["error"]
        .as_str()
        .expect("an error text")
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn launch_data_signed_with_the_bots_token_opens_a_session_for_its_user() {
    let site = site_with_telegram(None).await;
    let (view, players) = start_game(&site.manager, NAMES).await;
    let key = site
        .page_of(&view.id)
        .await
        .trim_start_matches("/g/")
        .to_string();
    let group = TgChat::group(-100_777, "Club");
    let data = init_data(TOKEN, &asel("ru"), Some(&key), Some(&group), now(&site));
    let (status, opened) = sign_in(&site, &data).await;
    assert_eq!(status, 200, "{opened}");
    assert_eq!(opened["start"], key);
    assert_eq!(opened["name"], "Асель");
    let token = opened["token"].as_str().expect("a token");
    let session = site
        .manager
        .web_session(token)
        .await
        .expect("a live session");
    let asel_ref = players.iter().find(|p| p.id == "81234567").unwrap();
    assert_eq!(&session.user, asel_ref);
    assert_eq!(opened["csrf"], session.csrf.as_str());
    assert_eq!(session.via, toguz::manager::SignIn::TelegramMiniApp);
    // Without a start (a Web App button's launch), no start.
    let data = init_data(TOKEN, &asel("ru"), None, None, now(&site));
    let (status, opened) = sign_in(&site, &data).await;
    assert_eq!(status, 200);
    assert_eq!(opened["start"], Value::Null);
    // A start that cannot be a page's key is not passed on.
    let fields = [
        ("auth_date".to_string(), now(&site).to_string()),
        (
            "user".to_string(),
            r#"{"id":5,"first_name":"A"}"#.to_string(),
        ),
        ("start_param".to_string(), "../me".to_string()),
    ];
    let (status, opened) = sign_in(&site, &sign(TOKEN, &fields)).await;
    assert_eq!(status, 200);
    assert_eq!(opened["start"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_stale_foreign_and_malformed_sign_ins_are_refused_in_the_users_language() {
    let site = site_with_telegram(None).await;
    let at = now(&site);
    let good = init_data(TOKEN, &asel("ru"), Some("ab12cd-0123"), None, at);

    // A changed field: Telegram did not sign it. In the user's language (ru), whatever the
    // browser's.
    let forged = good.replacen("%22id%22%3A81234567", "%22id%22%3A92345678", 1);
    assert_ne!(forged, good);
    let text = refused(&sign_in(&site, &forged).await, 401);
    assert!(text.contains("Telegram не подтвердил"), "{text}");
    // The hash itself changed.
    let (rest, hash) = good.rsplit_once("hash=").unwrap();
    let flipped = if hash.starts_with('0') { "1" } else { "0" };
    let forged = format!("{rest}hash={flipped}{}", &hash[1..]);
    refused(&sign_in(&site, &forged).await, 401);
    // Signed by another bot.
    let foreign = init_data("7000000002:AAother-bot", &asel("kk"), None, None, at);
    let text = refused(&sign_in(&site, &foreign).await, 401);
    assert!(text.contains("Telegram сіздің"), "{text}");
    // Older than a day.
    let stale = init_data(TOKEN, &asel("en"), None, None, at - 86_401);
    let text = refused(&sign_in(&site, &stale).await, 401);
    assert!(text.contains("too long ago"), "{text}");
    // A key twice (the second one unsigned).
    let twice = format!("{good}&start_param=zz99zz-0123");
    refused(&sign_in(&site, &twice).await, 401);

    // Bodies that are no sign-in: 400, in the browser's language.
    for body in ["init_data=x", "{}", "{\"init_data\": 5}", ""] {
        let answer = post(&site, body.to_string(), "kk-KZ").await;
        let text = refused(&answer, 400);
        assert!(text.contains("Кіру сұрауын"), "{body}: {text}");
    }
    let big = json!({ "init_data": "a".repeat(40_000) }).to_string();
    let answer = reqwest::Client::new()
        .post(site.url("/api/signin/telegram"))
        .header("Content-Type", "application/json")
        .body(big)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 413);

    // Pages served without the Telegram bot sign nobody in through it.
    let plain = Site::start().await;
    let answer = sign_in(&plain, &good).await;
    let text = refused(&answer, 404);
    assert!(text.contains("не настроен"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_ins_count_against_the_users_command_budget() {
    let site = site_with_telegram(Some(2)).await;
    let data = || init_data(TOKEN, &asel("en"), None, None, now(&site));
    assert_eq!(sign_in(&site, &data()).await.0, 200);
    assert_eq!(sign_in(&site, &data()).await.0, 200);
    let text = refused(&sign_in(&site, &data()).await, 429);
    assert!(text.contains("Too many sign-ins"), "{text}");
    // Someone else still signs in.
    let bolat = TgUser::new(92_345_678, "Болат", "", "en");
    let other = init_data(TOKEN, &bolat, None, None, now(&site));
    assert_eq!(sign_in(&site, &other).await.0, 200);
}

/// Stands in for telegram-web-app.js (telegram.org is out of reach here): the
/// `Telegram.WebApp` calls telegram.js makes, noted in sessionStorage (they outlive a
/// page), the theme from the fragment, and `_theme(params)` to change it as a client would.
const TELEGRAM_WEB_APP: &str = r#"(function () {
  function note(call) {
    var calls = JSON.parse(sessionStorage.getItem("fake-telegram") || "[]");
    calls.push(call);
    sessionStorage.setItem("fake-telegram", JSON.stringify(calls));
  }
  var params = {};
  location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
    var at = pair.indexOf("=");
    if (at > 0) params[pair.slice(0, at)] = decodeURIComponent(pair.slice(at + 1));
  });
  var handlers = {};
  var app = {
    initData: params.tgWebAppData || "",
    version: params.tgWebAppVersion || "6.0",
    themeParams: JSON.parse(params.tgWebAppThemeParams || "{}"),
    isVersionAtLeast: function (v) { return parseFloat(app.version) >= parseFloat(v); },
    ready: function () { note("ready"); },
    expand: function () { note("expand"); },
    onEvent: function (name, f) { (handlers[name] = handlers[name] || []).push(f); },
    BackButton: {
      show: function () { note("back:show"); },
      hide: function () { note("back:hide"); },
      onClick: function () {}
    },
    MainButton: {
      setText: function (text) { app.MainButton.text = text; },
      show: function () { note("main:show:" + app.MainButton.text); },
      hide: function () { note("main:hide"); },
      onClick: function (f) { window.__mainClick = f; },
      offClick: function (f) { if (window.__mainClick === f) window.__mainClick = null; }
    },
    HapticFeedback: {
      notificationOccurred: function (kind) { note("haptic:" + kind); },
      impactOccurred: function (style) { note("impact:" + style); }
    },
    _theme: function (theme) {
      app.themeParams = theme;
      (handlers.themeChanged || []).forEach(function (f) { f(); });
    }
  };
  window.Telegram = { WebApp: app };
})();"#;

async fn telegram_browser() -> Option<browser::Browser> {
    let mut chrome = browser::launch().await?;
    chrome
        .stand_in("https://telegram.org", TELEGRAM_WEB_APP)
        .await;
    Some(chrome)
}

const BACKGROUND: &str = "getComputedStyle(document.body).backgroundColor";
const SESSION: &str = "JSON.parse(sessionStorage.getItem('toguz-session'))";
const CALLS: &str = "JSON.parse(sessionStorage.getItem('fake-telegram') || '[]')";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mini_app_signs_in_and_opens_the_game_of_its_start_in_telegrams_colours() {
    let Some(mut chrome) = telegram_browser().await else {
        return;
    };
    let site = site_with_telegram(None).await;
    let (view, _) = start_game(&site.manager, NAMES).await;
    let path = site.page_of(&view.id).await;
    let key = path.trim_start_matches("/g/");
    let group = TgChat::group(-100_777, "Club");
    let data = init_data(TOKEN, &asel("en"), Some(key), Some(&group), now(&site));
    let url = site.url(&format!("/tg#{}", launch_fragment(&data, THEME)));
    chrome.open(&url, 360, 740, true).await;
    let there = format!("location.pathname === '{path}' && document.readyState === 'complete'");
    chrome
        .wait_across_loads(&there, Duration::from_secs(10))
        .await;
    let session = chrome.eval(SESSION).await;
    let token = session["token"].as_str().expect("a session kept");
    let signed = site
        .manager
        .web_session(token)
        .await
        .expect("a live session");
    assert_eq!(signed.user.id, "81234567");
    assert_eq!(session["csrf"], signed.csrf.as_str());
    assert_eq!(session["name"], "Асель");
    // Telegram's colours (bg_color #17212b), on the game page too.
    assert_eq!(chrome.eval(BACKGROUND).await, "rgb(23, 33, 43)");
    let accent = "getComputedStyle(document.documentElement).getPropertyValue('--accent')";
    assert_eq!(chrome.eval(accent).await, "#5288c1");
    // Telegram's script was used: ready, expanded, a success tap.
    let calls = chrome.eval(CALLS).await;
    for call in ["ready", "expand", "haptic:success"] {
        assert!(calls.as_array().unwrap().contains(&json!(call)), "{calls}");
    }
    // A theme change in Telegram follows on the page.
    chrome
        .eval("Telegram.WebApp._theme({bg_color: '#ffffff', text_color: '#000000'})")
        .await;
    assert_eq!(chrome.eval(BACKGROUND).await, "rgb(255, 255, 255)");
    assert!(chrome.errors.is_empty(), "{:?}", chrome.errors);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_page_opened_by_a_web_app_button_signs_in_and_stays() {
    let Some(mut chrome) = telegram_browser().await else {
        return;
    };
    let site = site_with_telegram(None).await;
    let (view, players) = start_game(&site.manager, NAMES).await;
    let path = site.page_of(&view.id).await;
    let data = init_data(TOKEN, &asel("en"), None, None, now(&site));
    let url = site.url(&format!("{path}#{}", launch_fragment(&data, THEME)));
    chrome.open(&url, 360, 740, true).await;
    chrome
        .wait_for(&format!("{SESSION} !== null"), Duration::from_secs(10))
        .await;
    assert_eq!(chrome.eval("location.pathname").await, path.as_str());
    let token = chrome.eval(&format!("{SESSION}.token")).await;
    let signed = site
        .manager
        .web_session(token.as_str().unwrap())
        .await
        .unwrap();
    assert_eq!(signed.user.id, "81234567");
    assert_eq!(chrome.eval(BACKGROUND).await, "rgb(23, 33, 43)");
    // The page's board is still there (no navigation, no replacement).
    assert_eq!(
        chrome.eval("!!document.getElementById('board')").await,
        true
    );

    // The opponent offers a draw: Telegram's main button offers to accept it, and pressed,
    // it does.
    let bolat = players.iter().find(|p| p.id != "81234567").unwrap();
    let offer = Action::OfferDraw {
        game: Some(view.id.clone()),
        ply: None,
    };
    act(&site.manager, bolat, offer).await.unwrap();
    let shown = format!("{CALLS}.includes('main:show:Accept draw')");
    chrome.wait_for(&shown, Duration::from_secs(10)).await;
    chrome.eval("window.__mainClick()").await;
    let over = || async { site.manager.game(&view.id).await.unwrap().is_over() };
    let started = std::time::Instant::now();
    while !over().await {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the draw was not taken"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Then it is gone: a rematch between people is asked for under the chat's board.
    let hidden = format!("{CALLS}.at(-1) === 'main:hide'");
    chrome.wait_for(&hidden, Duration::from_secs(10)).await;
    assert!(chrome.errors.is_empty(), "{:?}", chrome.errors);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_launch_shows_the_refusal_in_the_users_language_and_keeps_no_session() {
    let Some(mut chrome) = telegram_browser().await else {
        return;
    };
    let site = site_with_telegram(None).await;
    let data = init_data(
        "7000000002:AAforger",
        &asel("ru"),
        Some("ab12cd-0123"),
        None,
        now(&site),
    );
    let url = site.url(&format!("/tg#{}", launch_fragment(&data, THEME)));
    chrome.open(&url, 360, 740, true).await;
    let shown = "!document.getElementById('tg-error').hidden";
    chrome.wait_for(shown, Duration::from_secs(10)).await;
    let text = chrome
        .eval("document.getElementById('tg-error').textContent")
        .await;
    assert!(
        text.as_str().unwrap().contains("Telegram не подтвердил"),
        "{text}"
    );
    assert_eq!(
        chrome
            .eval("document.getElementById('tg-status').hidden")
            .await,
        true
    );
    assert_eq!(chrome.eval("location.pathname").await, "/tg");
    assert_eq!(chrome.eval(SESSION).await, Value::Null);
    let calls = chrome.eval(CALLS).await;
    assert!(
        calls.as_array().unwrap().contains(&json!("haptic:error")),
        "{calls}"
    );
    // The refusal is a 401 the browser logs; nothing else went wrong.
    let others: Vec<&String> = chrome
        .errors
        .iter()
        .filter(|e| !e.contains("401"))
        .collect();
    assert!(others.is_empty(), "{others:?}");

    // Outside Telegram (no fragment), the page says where to open it.
    chrome.open(&site.url("/tg?lang=kk"), 360, 740, true).await;
    let outside = "!document.getElementById('tg-outside').hidden";
    chrome.wait_for(outside, Duration::from_secs(5)).await;
}
