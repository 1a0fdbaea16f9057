//! Playing on the page (issue 50) over HTTP: the sign-in link (redeemed once, a second use,
//! an expired link and an ended session refused), the seat and the actions with their
//! refusals (no session, a wrong CSRF token, a foreign origin, someone else's game, not
//! your turn, a stale board, over the limit: each refused and nothing played), `/me`,
//! `/api/me/games`, signing out, the framing policy and the page's weight.

use super::{play, start_game, Site};
use reqwest::header::{HeaderMap, HeaderValue};
use reqwest::StatusCode;
use serde_json::{json, Value};
use toguz::i18n::Lang;
use toguz::manager::{Action, ActionError, Clock};
use toguz::model::{Platform, UserRef};
use toguz::platform::present::{self, web_play};
use toguz::platform::web::WebConfig;
use toguz::testing::manager::{game, test_config, Backend, T0};

/// The Activity's origin in these tests (`[web] embed_origins`).
const ACTIVITY: &str = "https://1234567890.discordsays.com";

/// A client that follows no redirect and keeps no cookie: each test sends what it means.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// A signed-in browser: its cookie, the session's token and its CSRF token.
#[derive(Clone, Debug)]
pub struct Signed {
    pub cookie: String,
    pub token: String,
    pub csrf: String,
}

/// The sign-in page's button pressed: `path` (`/login/<token>`) posted from `origin`.
pub async fn press_sign_in(site: &Site, path: &str, origin: &str) -> reqwest::Response {
    client()
        .post(site.url(path))
        .header("origin", origin)
        .send()
        .await
        .unwrap()
}

/// The value of `<meta name="toguz-csrf">` in `html`.
pub fn csrf_in(html: &str) -> Option<String> {
    let at = html.find("<meta name=\"toguz-csrf\" content=\"")?;
    let rest = &html[at + 33..];
    Some(rest[..rest.find('"')?].to_string())
}

/// `user` signs in by opening their sign-in link: the cookie it sets and the CSRF token
/// `/me` carries.
pub async fn sign_in(site: &Site, user: &UserRef) -> Signed {
    let link = site.manager.web_login_link(user).await.unwrap();
    let path = link
        .url
        .expose()
        .strip_prefix(&site.url(""))
        .expect("a link to this site");
    let opened = press_sign_in(site, path, &site.url("")).await;
    assert_eq!(opened.status(), StatusCode::SEE_OTHER);
    let set = opened.headers()["set-cookie"].to_str().unwrap().to_string();
    let token = set
        .strip_prefix("toguz_session=")
        .and_then(|rest| rest.split(';').next())
        .expect("the session cookie")
        .to_string();
    let cookie = format!("toguz_session={token}");
    let me = client()
        .get(site.url("/me"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    let html = me.text().await.unwrap();
    let csrf = csrf_in(&html).expect("/me carries the CSRF token");
    Signed {
        cookie,
        token,
        csrf,
    }
}

/// A request the web must refuse: why, as whom, its CSRF token and origin, the status it
/// gets, and the error's words where they matter.
type Refusal<'a> = (
    &'a str,
    As<'a>,
    Option<&'a str>,
    Option<&'a str>,
    StatusCode,
    Option<String>,
);

/// How a request is sent: by cookie or bearer token, with which CSRF token and origin.
#[derive(Clone, Copy)]
pub enum As<'a> {
    Nobody,
    Cookie(&'a Signed),
    Bearer(&'a Signed),
}

fn headers(who: As, csrf: Option<&str>, origin: Option<&str>) -> HeaderMap {
    let mut h = HeaderMap::new();
    match who {
        As::Nobody => {}
        As::Cookie(s) => {
            h.insert("cookie", HeaderValue::from_str(&s.cookie).unwrap());
        }
        As::Bearer(s) => {
            let bearer = format!("Bearer {}", s.token);
            h.insert("authorization", HeaderValue::from_str(&bearer).unwrap());
        }
    }
    if let Some(csrf) = csrf {
        h.insert("x-toguz-csrf", HeaderValue::from_str(csrf).unwrap());
    }
    if let Some(origin) = origin {
        h.insert("origin", HeaderValue::from_str(origin).unwrap());
    }
    h
}

/// POSTs `body` to `/g/<key>/act` as `who` with `csrf` and `origin`: (status, answer).
pub async fn post_act(
    site: &Site,
    key: &str,
    who: As<'_>,
    (csrf, origin): (Option<&str>, Option<&str>),
    body: &Value,
) -> (StatusCode, Value) {
    let response = client()
        .post(site.url(&format!("/g/{key}/act")))
        .headers(headers(who, csrf, origin))
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// An action as a signed-in page of this site sends it.
pub async fn act_signed(site: &Site, key: &str, s: &Signed, body: &Value) -> (StatusCode, Value) {
    let origin = site.url("");
    post_act(
        site,
        key,
        As::Cookie(s),
        (Some(&s.csrf), Some(&origin)),
        body,
    )
    .await
}

/// GETs `path` as `who`: (status, JSON answer).
async fn get_json(site: &Site, path: &str, who: As<'_>) -> (StatusCode, Value) {
    let response = client()
        .get(site.url(path))
        .headers(headers(who, None, None))
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

fn person(id: &str, name: &str) -> UserRef {
    UserRef::new(Platform::Telegram, id, name)
}

fn error(answer: &Value) -> &str {
    answer["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error: {answer}"))
}

async fn the_sign_in_link_opens_one_session_once(backend: Backend) {
    let clock = Clock::manual(T0);
    let store = backend.open().await;
    let site = Site::start_full(store, WebConfig::default(), Some(clock.clone()), None).await;
    let asel = person("5101", "Asel");
    let link = site.manager.web_login_link(&asel).await.unwrap();
    let path = link
        .url
        .expose()
        .strip_prefix(&site.url(""))
        .unwrap()
        .to_string();
    assert!(path.starts_with("/login/"), "{path}");

    // Opening the link (a person, or a chat's link preview or a mail scanner fetching it)
    // only shows a page whose button signs in: it uses nothing up.
    for agent in ["TelegramBot (like TwitterBot)", "Mozilla/5.0"] {
        let page = client()
            .get(site.url(&path))
            .header("user-agent", agent)
            .send()
            .await
            .unwrap();
        assert_eq!(page.status(), 200);
        assert!(page.headers().get("set-cookie").is_none());
        assert_eq!(page.headers()["cache-control"], "no-store");
        let csp = page.headers()["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("form-action 'self'"), "{csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
        let html = page.text().await.unwrap();
        assert!(
            html.contains(&format!("<form method=\"post\" action=\"{path}\">")),
            "{html}"
        );
        assert!(html.contains(">Sign in</button>"), "{html}");
    }
    let russian = client()
        .get(site.url(&path))
        .header("accept-language", "ru")
        .send()
        .await
        .unwrap();
    assert!(russian.text().await.unwrap().contains(">Войти</button>"));

    // Another site's form posting the link (signing the visitor in as someone else), or a
    // post naming no origin: refused, and the link still works.
    let forgeries: [&[(&str, &str)]; 4] = [
        &[("origin", "https://evil.example")],
        &[("origin", "null"), ("sec-fetch-site", "cross-site")],
        &[("origin", "null")],
        &[],
    ];
    for headers in forgeries {
        let mut forged = client().post(site.url(&path));
        for (name, value) in headers {
            forged = forged.header(*name, *value);
        }
        let forged = forged.send().await.unwrap();
        assert_eq!(forged.status(), StatusCode::FORBIDDEN, "{headers:?}");
        assert!(forged.headers().get("set-cookie").is_none());
    }

    // Pressed: a session cookie, and on to /me.
    let opened = press_sign_in(&site, &path, &site.url("")).await;
    assert_eq!(opened.status(), StatusCode::SEE_OTHER);
    assert_eq!(opened.headers()["location"], "/me");
    assert_eq!(opened.headers()["cache-control"], "no-store");
    let cookie = opened.headers()["set-cookie"].to_str().unwrap().to_string();
    for part in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age="] {
        assert!(cookie.contains(part), "{cookie}");
    }
    assert!(!cookie.contains("Secure"), "an http site: {cookie}");
    let session = cookie.split(';').next().unwrap().to_string();
    let me = client()
        .get(site.url("/me"))
        .header("cookie", &session)
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), 200);
    assert_eq!(me.headers()["cache-control"], "no-store");
    let html = me.text().await.unwrap();
    assert!(html.contains("Signed in as Asel."), "{html}");
    assert!(csrf_in(&html).is_some(), "{html}");

    // Used once: the second press is refused with a page in the reader's language.
    let again = press_sign_in(&site, &path, &site.url("")).await;
    assert_eq!(again.status(), StatusCode::FORBIDDEN);
    assert!(again.headers().get("set-cookie").is_none());
    assert!(again
        .text()
        .await
        .unwrap()
        .contains("This sign-in link does not work"));
    let russian = client()
        .post(site.url(&path))
        .header("origin", site.url(""))
        .header("accept-language", "ru-RU,ru;q=0.9")
        .send()
        .await
        .unwrap();
    assert_eq!(russian.status(), StatusCode::FORBIDDEN);
    let text = russian.text().await.unwrap();
    assert!(text.contains("Эта ссылка для входа не работает"), "{text}");
    // An unknown one too.
    let unknown = press_sign_in(&site, "/login/abc", &site.url("")).await;
    assert_eq!(unknown.status(), StatusCode::FORBIDDEN);

    // A link older than 10 minutes is refused.
    let late = site.manager.web_login_link(&asel).await.unwrap();
    clock.advance(10 * 60 + 1);
    let late_path = late.url.expose().strip_prefix(&site.url("")).unwrap();
    let expired = press_sign_in(&site, late_path, &site.url("")).await;
    assert_eq!(expired.status(), StatusCode::FORBIDDEN);

    // The session works until the user's sessions are ended (`/web logout`), then not.
    let signed = Signed {
        cookie: session.clone(),
        token: String::new(),
        csrf: String::new(),
    };
    let (status, _) = get_json(&site, "/api/me/games", As::Cookie(&signed)).await;
    assert_eq!(status, 200);
    assert_eq!(site.manager.end_web_sessions(&asel).await.unwrap(), 1);
    let (status, answer) = get_json(&site, "/api/me/games", As::Cookie(&signed)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(error(&answer), web_play::no_session_text(Lang::En));
    let me = client()
        .get(site.url("/me"))
        .header("cookie", &session)
        .send()
        .await
        .unwrap();
    let html = me.text().await.unwrap();
    assert!(
        csrf_in(&html).is_none() && !html.contains("Signed in as Asel"),
        "{html}"
    );
}

async fn actions_are_refused_without_session_token_origin_or_turn_and_play_nothing(
    backend: Backend,
) {
    let config = WebConfig {
        embed_origins: vec![ACTIVITY.into()],
        ..WebConfig::default()
    };
    let site = Site::start_full(backend.open().await, config, None, None).await;
    let m = &site.manager;
    let (view, [white, black]) = start_game(m, ["Aigerim", "Bauyrzhan"]).await;
    let key = m.page_key(&view.id).await.unwrap();
    let w = sign_in(&site, &white).await;
    let b = sign_in(&site, &black).await;
    let dana = sign_in(&site, &person("5303", "Dana")).await;
    let pit = view.position.legal_moves().iter().next().unwrap();
    let mv = json!({ "action": "move", "ply": 0, "pit": pit });
    let here = site.url("");
    let ply = || async { m.game_page(&key).await.unwrap().view.ply };
    let en = |e: ActionError| present::error_text(&e, Lang::En);

    // The seats: White's legal pits in White's numbering, Black none yet, a stranger none.
    let (status, seat) = get_json(&site, &format!("/g/{key}/seat"), As::Cookie(&w)).await;
    assert_eq!(status, 200);
    assert_eq!(seat["side"], 0);
    let legal: Vec<u8> = view.position.legal_moves().iter().collect();
    assert_eq!(seat["pits"], json!(legal));
    assert_eq!(seat["actions"]["resign"], true);
    let (_, seat) = get_json(&site, &format!("/g/{key}/seat"), As::Cookie(&b)).await;
    assert_eq!(
        (seat["side"].clone(), seat["pits"].clone()),
        (json!(1), json!([]))
    );
    let (_, seat) = get_json(&site, &format!("/g/{key}/seat"), As::Cookie(&dana)).await;
    assert_eq!(seat["side"], Value::Null);
    let (status, _) = get_json(&site, &format!("/g/{key}/seat"), As::Nobody).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);

    let refusals: [Refusal; 8] = [
        (
            "no session",
            As::Nobody,
            None,
            Some(&here),
            StatusCode::UNAUTHORIZED,
            None,
        ),
        (
            "no CSRF token",
            As::Cookie(&w),
            None,
            Some(&here),
            StatusCode::FORBIDDEN,
            None,
        ),
        (
            "a wrong CSRF token",
            As::Cookie(&w),
            Some(&b.csrf),
            Some(&here),
            StatusCode::FORBIDDEN,
            None,
        ),
        (
            "a foreign origin",
            As::Cookie(&w),
            Some(&w.csrf),
            Some("https://evil.example"),
            StatusCode::FORBIDDEN,
            None,
        ),
        (
            "no origin",
            As::Cookie(&w),
            Some(&w.csrf),
            None,
            StatusCode::FORBIDDEN,
            None,
        ),
        (
            "a bearer token from a foreign origin",
            As::Bearer(&w),
            Some(&w.csrf),
            Some("https://99.discordsays.com"),
            StatusCode::FORBIDDEN,
            None,
        ),
        (
            "someone else's game",
            As::Cookie(&dana),
            Some(&dana.csrf),
            Some(&here),
            StatusCode::FORBIDDEN,
            Some(en(ActionError::NotYourGame)),
        ),
        (
            "not your turn",
            As::Cookie(&b),
            Some(&b.csrf),
            Some(&here),
            StatusCode::CONFLICT,
            Some(en(ActionError::NotYourTurn)),
        ),
    ];
    for (what, who, csrf, origin, status, text) in refusals {
        let (got, answer) = post_act(&site, &key, who, (csrf, origin), &mv).await;
        assert_eq!(got, status, "{what}: {answer}");
        assert!(answer["error"].is_string(), "{what}: {answer}");
        if let Some(text) = text {
            assert_eq!(error(&answer), text, "{what}");
        }
        assert_eq!(ply().await, 0, "{what}: nothing played");
    }
    // A stale board, a body that is no action, a pit that is none.
    let stale = json!({ "action": "move", "ply": 3, "pit": pit });
    let (status, answer) = act_signed(&site, &key, &w, &stale).await;
    assert_eq!(
        (status, error(&answer)),
        (StatusCode::CONFLICT, en(ActionError::StaleBoard).as_str())
    );
    for body in [
        json!({ "action": "dance" }),
        json!({ "action": "move", "ply": 0, "pit": 10 }),
        json!([1]),
    ] {
        let (status, _) = act_signed(&site, &key, &w, &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    }
    assert_eq!(ply().await, 0, "nothing played");

    // White's move: the answer is the new seat and the board as a live page gets it, and
    // the manager has it (durable before the answer).
    let (status, answer) = act_signed(&site, &key, &w, &mv).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["ply"], 1);
    assert_eq!(answer["pits"], json!([]));
    assert_eq!(answer["state"]["plies"].as_array().unwrap().len(), 2);
    assert_eq!(answer["state"]["version"], answer["version"]);
    assert_eq!(ply().await, 1);
    // The same move again is a stale board now.
    let (status, answer) = act_signed(&site, &key, &w, &mv).await;
    assert_eq!(
        (status, error(&answer)),
        (StatusCode::CONFLICT, en(ActionError::StaleBoard).as_str())
    );

    // Black, framed in the Activity: a bearer token from the allowed embedding origin.
    let reply = m
        .game_page(&key)
        .await
        .unwrap()
        .view
        .position
        .legal_moves()
        .iter()
        .next()
        .unwrap();
    let mv = json!({ "action": "move", "ply": 1, "pit": reply });
    let (status, answer) = post_act(
        &site,
        &key,
        As::Bearer(&b),
        (Some(&b.csrf), Some(ACTIVITY)),
        &mv,
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(ply().await, 2);
    // Draws and resigning go through the manager the same way.
    let offer = json!({ "action": "offer_draw", "ply": 2 });
    let (status, answer) = act_signed(&site, &key, &w, &offer).await;
    assert_eq!(status, 200, "{answer}");
    let (_, seat) = get_json(&site, &format!("/g/{key}/seat"), As::Cookie(&b)).await;
    assert_eq!(
        (
            seat["actions"]["accept_draw"].clone(),
            seat["actions"]["decline_draw"].clone()
        ),
        (json!(true), json!(true))
    );
    let (status, _) = act_signed(&site, &key, &b, &json!({ "action": "decline_draw" })).await;
    assert_eq!(status, 200);
    let (status, answer) = act_signed(&site, &key, &b, &json!({ "action": "resign" })).await;
    assert_eq!(status, 200, "{answer}");
    assert!(m.game_page(&key).await.unwrap().view.is_over());
    // After the end: no more moves; a rematch with a person is asked for in the chat.
    let (status, answer) = act_signed(
        &site,
        &key,
        &w,
        &json!({ "action": "move", "ply": 2, "pit": 1 }),
    )
    .await;
    assert_eq!(
        (status, error(&answer)),
        (StatusCode::CONFLICT, en(ActionError::GameOver).as_str())
    );
    let (status, answer) = act_signed(&site, &key, &w, &json!({ "action": "rematch" })).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        error(&answer),
        web_play::not_offered_text(web_play::PageAction::Rematch, Lang::En)
    );
}

toguz::on_both_backends!(
    single: [],
    multi: [
        the_sign_in_link_opens_one_session_once,
        actions_are_refused_without_session_token_origin_or_turn_and_play_nothing,
    ],
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn actions_share_the_users_command_budget_with_the_chat() {
    let mut config = test_config();
    config.limits.commands_per_minute = 4;
    let store = Backend::sled();
    let site = Site::start_full(store.open().await, WebConfig::default(), None, Some(config)).await;
    let m = &site.manager;
    let (view, [white, _black]) = start_game(m, ["Aigerim", "Bauyrzhan"]).await;
    let key = m.page_key(&view.id).await.unwrap();
    let w = sign_in(&site, &white).await;
    // Two commands in chat this minute (counted by every process together).
    assert!(m.command_allowed(&white, 4).await);
    assert!(m.command_allowed(&white, 4).await);
    // Two actions on the page (refused ones count too), then the budget is spent.
    let stale = json!({ "action": "move", "ply": 7, "pit": 1 });
    for _ in 0..2 {
        let (status, _) = act_signed(&site, &key, &w, &stale).await;
        assert_eq!(status, StatusCode::CONFLICT);
    }
    let pit = view.position.legal_moves().iter().next().unwrap();
    let mv = json!({ "action": "move", "ply": 0, "pit": pit });
    let (status, answer) = act_signed(&site, &key, &w, &mv).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{answer}");
    assert_eq!(error(&answer), web_play::limited_text(Lang::En));
    assert_eq!(
        m.game_page(&key).await.unwrap().view.ply,
        0,
        "nothing played"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn me_lists_the_players_games_a_channels_first_and_signing_out_ends_the_session() {
    let site = Site::start().await;
    let m = &site.manager;
    let (first, [white, _black]) = start_game(m, ["Aigerim", "Bauyrzhan"]).await;
    // A second game of White's, in another chat, against the bot.
    let bot_game = Action::PlayBot {
        level: toguz::model::Level::Easy,
        variant: toguz::rules::Variant::STANDARD,
        colour: Some(toguz::rules::Side::Black),
        time: None,
    };
    let second = game(
        m.act(toguz::manager::Request {
            actor: white.clone(),
            chat: toguz::model::ChatRef::new(Platform::Telegram, "777"),
            action: bot_game,
        })
        .await,
    );
    let keys = [
        m.page_key(&first.id).await.unwrap(),
        m.page_key(&second.id).await.unwrap(),
    ];
    let w = sign_in(&site, &white).await;
    let html = client()
        .get(site.url("/me"))
        .header("cookie", &w.cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for key in &keys {
        assert!(html.contains(&format!("href=\"/g/{key}\"")), "{html}");
    }
    assert!(html.contains("Aigerim – Bauyrzhan") || html.contains("Bauyrzhan – Aigerim"));
    for channel in ["777", first.chat.id.as_str()] {
        let (status, list) = get_json(
            &site,
            &format!("/api/me/games?channel={channel}"),
            As::Cookie(&w),
        )
        .await;
        assert_eq!(status, 200);
        let games = list["games"].as_array().unwrap();
        assert_eq!(games.len(), 2, "{list}");
        let wanted = if channel == "777" { &keys[1] } else { &keys[0] };
        assert_eq!(games[0]["key"], json!(wanted), "{list}");
    }

    // Signing out needs the token and the origin, then ends every session of the user.
    let (status, _) = post_act_path(&site, "/logout", As::Cookie(&w), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, answer) = post_act_path(&site, "/logout", As::Cookie(&w), Some(&w.csrf)).await;
    assert_eq!(status, 200, "{answer}");
    let (status, _) = get_json(&site, &format!("/g/{}/seat", keys[0]), As::Cookie(&w)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

async fn post_act_path(
    site: &Site,
    path: &str,
    who: As<'_>,
    csrf: Option<&str>,
) -> (StatusCode, Value) {
    let origin = site.url("");
    let response = client()
        .post(site.url(path))
        .headers(headers(who, csrf, Some(&origin)))
        .send()
        .await
        .unwrap();
    let status = response.status();
    if status == 200 {
        let cleared = response.headers()["set-cookie"].to_str().unwrap();
        assert!(cleared.contains("Max-Age=0"), "{cleared}");
    }
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn framed_pages_allow_telegram_and_discord_and_the_rest_stay_strict() {
    let site = Site::start().await;
    let m = &site.manager;
    let (view, _) = start_game(m, ["Aigerim", "Bauyrzhan"]).await;
    let key = m.page_key(&view.id).await.unwrap();
    let ancestors = "frame-ancestors https://web.telegram.org https://*.discordsays.com \
                     https://discord.com https://*.discord.com";
    for (path, telegram) in [(format!("/g/{key}"), true), ("/me".to_string(), false)] {
        let r = client().get(site.url(&path)).send().await.unwrap();
        let csp = r.headers()["content-security-policy"].to_str().unwrap();
        assert!(csp.contains(ancestors), "{path}: {csp}");
        assert_eq!(
            csp.contains("script-src 'self' https://telegram.org;"),
            telegram,
            "{path}: {csp}"
        );
        assert!(!csp.contains("unsafe"), "{path}: {csp}");
        assert!(r.headers().get("x-frame-options").is_none(), "{path}");
    }
    for path in [
        "/".to_string(),
        format!("/g/{key}.png"),
        format!("/g/{key}/seat"),
        "/leaderboard".into(),
    ] {
        let r = client().get(site.url(&path)).send().await.unwrap();
        let csp = r.headers()["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self';"), "{path}: {csp}");
        assert_eq!(r.headers()["x-frame-options"], "DENY", "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_playable_page_with_everything_it_loads_weighs_under_250_kb() {
    let site = Site::start().await;
    let m = &site.manager;
    let (view, players) = start_game(m, ["Aigerim", "Bauyrzhan"]).await;
    let view = play(m, view, &players, 200, &mut Vec::new()).await;
    let key = m.page_key(&view.id).await.unwrap();
    let w = sign_in(&site, &players[0]).await;
    let html = client()
        .get(site.url(&format!("/g/{key}")))
        .header("cookie", &w.cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(csrf_in(&html).is_some(), "a signed-in reader's page");
    // Everything the page loads from this site: every /assets/ address in it (the play
    // script and, once the Activity's SDK bundle is loaded by the game page, that too).
    let mut total = html.len();
    let mut loaded = Vec::new();
    for (at, _) in html.match_indices("\"/assets/") {
        let href = &html[at + 1..];
        let href = &href[..href.find('"').unwrap()];
        if loaded.iter().any(|l| l == href) {
            continue;
        }
        let body = client().get(site.url(href)).send().await.unwrap();
        assert_eq!(body.status(), 200, "{href}");
        total += body.bytes().await.unwrap().len();
        loaded.push(href.to_string());
    }
    assert!(
        loaded.iter().any(|h| h.starts_with("/assets/play.js")),
        "{loaded:?}"
    );
    eprintln!(
        "a {}-ply playable page loads {total} bytes: {loaded:?}",
        view.ply
    );
    assert!(total < 250_000, "{total} bytes");
}
