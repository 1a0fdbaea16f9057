//! The Discord Activity's sign-in (issue 50) against the fake Discord: the code exchange at
//! `POST /api/v10/oauth2/token` and `users/@me` (a good code, refused, reused and expired
//! codes, a wrong client secret, Discord failing, down or silent), then the server's
//! `POST /api/signin/discord` over HTTP: a session for exactly the user Discord names, a
//! localized 401 and no session for a refused code, and nothing from another site.

use crate::Site;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use toguz::model::Platform;
use toguz::platform::web::signin::discord::{DiscordExchange, DiscordSignIn, DiscordSignInError};
use toguz::platform::web::signin::SignIns;
use toguz::platform::web::WebConfig;
use toguz::secret::Secret;
use toguz::testing::discord::{Failure, FakeDiscord, User, APP_ID, CLIENT_SECRET};

pub fn sign_in_settings(api_base: &str, secret: &str) -> DiscordSignIn {
    DiscordSignIn {
        client_id: APP_ID,
        client_secret: Secret::new(secret),
        api_base: api_base.trim_end_matches('/').to_string(),
        timeout: Duration::from_secs(2),
    }
}

fn exchange(api_base: &str, secret: &str) -> DiscordExchange {
    DiscordExchange::new(sign_in_settings(api_base, secret)).unwrap()
}

/// An error's text and debug form show none of the secrets of the exchange.
fn assert_tells_nothing(error: &DiscordSignInError, secrets: &[&str]) {
    for shown in [error.to_string(), format!("{error:?}")] {
        for secret in secrets {
            assert!(!shown.contains(secret), "{shown} shows {secret}");
        }
    }
}

#[tokio::test]
async fn a_good_code_names_its_discord_user_and_gives_a_working_token() {
    let fake = FakeDiscord::start().await;
    let aigerim = User::new(710_000_000_000_000_001, "Aigerim");
    let code = fake.oauth_code(&aigerim);
    let signed = exchange(&fake.url(), CLIENT_SECRET)
        .sign_in(&code)
        .await
        .unwrap();
    assert_eq!(signed.user.platform, Platform::Discord);
    assert_eq!(signed.user.id, aigerim.id.to_string());
    assert_eq!(signed.user.name, "Aigerim", "the global display name");
    // The token is Discord's own: users/@me takes it.
    let me = reqwest::Client::new()
        .get(format!("{}/api/v10/users/@me", fake.url()))
        .bearer_auth(signed.access_token.expose())
        .send()
        .await
        .unwrap();
    assert_eq!(me.status(), 200);
    let calls: Vec<_> = fake.calls().into_iter().map(|c| c.path).collect();
    assert_eq!(calls[..2], ["/oauth2/token", "/users/@me"], "{calls:?}");
}

#[tokio::test]
async fn unknown_reused_and_expired_codes_are_refused() {
    let fake = FakeDiscord::start().await;
    let user = User::new(710_000_000_000_000_002, "Bolat");
    let signer = exchange(&fake.url(), CLIENT_SECRET);
    let refused = |r: Result<_, DiscordSignInError>| match r {
        Err(e @ DiscordSignInError::Refused { .. }) => {
            assert!(e.is_refusal());
            e
        }
        other => panic!("refused expected, got {other:?}"),
    };
    let e = refused(signer.sign_in("nosuchcode123").await);
    assert!(e.to_string().contains("invalid_grant"), "{e}");
    assert_tells_nothing(&e, &["nosuchcode123", CLIENT_SECRET]);

    let code = fake.oauth_code(&user);
    signer.sign_in(&code).await.unwrap();
    let e = refused(signer.sign_in(&code).await);
    assert_tells_nothing(&e, &[&code]);

    let stale = fake.oauth_code(&user);
    fake.expire_oauth_code(&stale);
    refused(signer.sign_in(&stale).await);

    // Not a code at all: refused before Discord is asked.
    let before = fake.call_count();
    for junk in ["", "a b", "x\"y", &"c".repeat(300)] {
        assert!(matches!(
            signer.sign_in(junk).await,
            Err(DiscordSignInError::BadCode)
        ));
    }
    assert_eq!(fake.call_count(), before);
}

#[tokio::test]
async fn a_wrong_client_secret_is_a_configuration_error_that_shows_no_secret() {
    let fake = FakeDiscord::start().await;
    let user = User::new(710_000_000_000_000_003, "Dana");
    let code = fake.oauth_code(&user);
    let wrong = "not-the-secret-987654321";
    let error = exchange(&fake.url(), wrong)
        .sign_in(&code)
        .await
        .unwrap_err();
    assert!(matches!(error, DiscordSignInError::Client), "{error:?}");
    assert!(!error.is_refusal(), "our configuration, not the player");
    assert!(error.to_string().contains("discord.client_secret"));
    assert_tells_nothing(&error, &[wrong, &code, CLIENT_SECRET]);
    // The code was not spent: with the right secret it still signs in.
    exchange(&fake.url(), CLIENT_SECRET)
        .sign_in(&code)
        .await
        .unwrap();
}

#[tokio::test]
async fn the_fake_takes_only_a_form_with_the_authorization_code_grant() {
    let fake = FakeDiscord::start().await;
    let user = User::new(710_000_000_000_000_004, "Erlan");
    let code = fake.oauth_code(&user);
    let client = reqwest::Client::new();
    let token_url = format!("{}/api/v10/oauth2/token", fake.url());
    // JSON: Discord reads no grant type from it.
    let as_json = client
        .post(&token_url)
        .json(&json!({
            "client_id": APP_ID.to_string(), "client_secret": CLIENT_SECRET,
            "grant_type": "authorization_code", "code": code,
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(as_json.status(), 400);
    let body: Value = as_json.json().await.unwrap();
    assert_eq!(body["error"], "unsupported_grant_type", "{body}");
    let form = |grant: &str, secret: &str| {
        url::form_urlencoded::Serializer::new(String::new())
            .append_pair("client_id", &APP_ID.to_string())
            .append_pair("client_secret", secret)
            .append_pair("grant_type", grant)
            .append_pair("code", &code)
            .finish()
    };
    let post = |body: String| {
        client
            .post(&token_url)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
    };
    let refresh = post(form("client_credentials", CLIENT_SECRET))
        .await
        .unwrap();
    assert_eq!(refresh.status(), 400);
    let wrong = post(form("authorization_code", "wrong")).await.unwrap();
    assert_eq!(wrong.status(), 401);
    let body: Value = wrong.json().await.unwrap();
    assert_eq!(body["error"], "invalid_client");
    // None of these spent the code.
    let good = post(form("authorization_code", CLIENT_SECRET))
        .await
        .unwrap();
    assert_eq!(good.status(), 200);
    let token: Value = good.json().await.unwrap();
    assert_eq!(token["token_type"], "Bearer");
    assert_eq!(token["scope"], "identify");
    // users/@me refuses a token it never gave.
    let forged = client
        .get(format!("{}/api/v10/users/@me", fake.url()))
        .bearer_auth("tok-forged")
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 401);
}

#[tokio::test]
async fn discord_failing_down_or_silent_is_an_error_within_the_timeout() {
    let fake = FakeDiscord::start().await;
    let user = User::new(710_000_000_000_000_005, "Farida");
    let signer = exchange(&fake.url(), CLIENT_SECRET);

    fake.fail_next("POST", "/oauth2/token", Failure::Server(502), 1);
    let error = signer.sign_in(&fake.oauth_code(&user)).await.unwrap_err();
    assert!(
        matches!(error, DiscordSignInError::Upstream { status: 502, .. }),
        "{error:?}"
    );
    assert!(!error.is_refusal());

    fake.fail_next("GET", "/users/@me", Failure::Server(503), 1);
    let error = signer.sign_in(&fake.oauth_code(&user)).await.unwrap_err();
    assert!(
        matches!(error, DiscordSignInError::Upstream { status: 503, .. }),
        "{error:?}"
    );

    // Nobody listening.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap()
    };
    let error = exchange(&format!("http://{closed}"), CLIENT_SECRET)
        .sign_in("somecode")
        .await
        .unwrap_err();
    assert!(
        matches!(error, DiscordSignInError::Unreachable { .. }),
        "{error:?}"
    );

    // A Discord that takes the connection and never answers: the deadline (2 s) ends it.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let silent_addr = silent.local_addr().unwrap();
    let held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((socket, _)) = silent.accept().await {
            open.push(socket);
        }
    });
    let started = Instant::now();
    let error = exchange(&format!("http://{silent_addr}"), CLIENT_SECRET)
        .sign_in("somecode")
        .await
        .unwrap_err();
    assert!(matches!(error, DiscordSignInError::Timeout(_)), "{error:?}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    held.abort();
}

/// The pages with the Activity's sign-in pointed at `fake`.
pub async fn activity_site(fake: &FakeDiscord, secret: &str) -> Site {
    Site::start_with(WebConfig {
        sign_in: SignIns {
            discord: Some(sign_in_settings(&fake.url(), secret)),
            ..SignIns::default()
        },
        ..WebConfig::default()
    })
    .await
}

async fn post_code(site: &Site, code: &str, origin: &str, lang: &str) -> reqwest::Response {
    reqwest::Client::new()
        .post(site.url("/api/signin/discord"))
        .header("origin", origin)
        .header("accept-language", lang)
        .header("content-type", "application/json")
        .body(json!({ "code": code }).to_string())
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn the_sign_in_opens_a_session_for_the_user_discord_names() {
    let fake = FakeDiscord::start().await;
    let site = activity_site(&fake, CLIENT_SECRET).await;
    let user = User::new(710_000_000_000_000_006, "Gulnar");
    let activity_origin = format!("https://{APP_ID}.discordsays.com");
    let answer = post_code(&site, &fake.oauth_code(&user), &activity_origin, "en").await;
    assert_eq!(answer.status(), 200);
    assert_eq!(answer.headers()["cache-control"], "no-store");
    let body: Value = answer.json().await.unwrap();
    assert_eq!(body["name"], "Gulnar");
    assert!(body["access_token"].as_str().is_some_and(|t| !t.is_empty()));
    assert!(body["csrf"].as_str().is_some_and(|t| !t.is_empty()));
    let token = body["token"].as_str().unwrap();
    let session = site.manager.web_session(token).await.unwrap();
    assert_eq!(session.user.platform, Platform::Discord);
    assert_eq!(session.user.id, user.id.to_string());
    assert_eq!(session.via, toguz::manager::SignIn::DiscordActivity);
    assert_eq!(session.csrf, body["csrf"].as_str().unwrap());
}

#[tokio::test]
async fn a_refused_code_gets_a_localized_401_and_no_session() {
    let fake = FakeDiscord::start().await;
    let site = activity_site(&fake, CLIENT_SECRET).await;
    let user = User::new(710_000_000_000_000_007, "Khan");
    let code = fake.oauth_code(&user);
    let origin = site.url("");
    let first = post_code(&site, &code, &origin, "en").await;
    assert_eq!(first.status(), 200);
    // The same code again: Discord refuses it, and so do we, in the reader's language.
    let again = post_code(&site, &code, &origin, "ru").await;
    assert_eq!(again.status(), 401);
    let body: Value = again.json().await.unwrap();
    let expected = toguz::i18n::tr(toguz::i18n::Lang::Ru, "web-activity-refused");
    assert_eq!(body, json!({ "error": expected }));
    // Not JSON, no code: refused as well, and Discord is not asked.
    let before = fake.call_count();
    let junk = reqwest::Client::new()
        .post(site.url("/api/signin/discord"))
        .header("origin", &origin)
        .body("code=abc")
        .send()
        .await
        .unwrap();
    assert_eq!(junk.status(), 400);
    assert_eq!(fake.call_count(), before);
}

/// A sign-in is one of the person's commands (one budget with the chat's): past
/// `[limits] commands_per_minute`, 429 and no session; someone else is not held up.
#[tokio::test]
async fn sign_ins_count_against_the_users_command_budget() {
    let fake = FakeDiscord::start().await;
    let site = activity_site(&fake, CLIENT_SECRET).await;
    let user = User::new(710_000_000_000_000_009, "Madina");
    let origin = site.url("");
    let per_minute = site.manager.config().limits.commands_per_minute;
    for _ in 0..per_minute {
        let answer = post_code(&site, &fake.oauth_code(&user), &origin, "en").await;
        assert_eq!(answer.status(), 200);
    }
    let over = post_code(&site, &fake.oauth_code(&user), &origin, "en").await;
    assert_eq!(over.status(), 429);
    let body: Value = over.json().await.unwrap();
    let expected = toguz::i18n::tr(toguz::i18n::Lang::En, "web-play-limited");
    assert_eq!(body, json!({ "error": expected }));
    let other = User::new(710_000_000_000_000_010, "Nurlan");
    let answer = post_code(&site, &fake.oauth_code(&other), &origin, "en").await;
    assert_eq!(answer.status(), 200);
}

#[tokio::test]
async fn a_sign_in_from_another_site_or_without_setup_is_refused() {
    let fake = FakeDiscord::start().await;
    let site = activity_site(&fake, CLIENT_SECRET).await;
    let user = User::new(710_000_000_000_000_008, "Lyazzat");
    let code = fake.oauth_code(&user);
    for origin in ["https://evil.example", "https://1.discordsays.com", "null"] {
        let answer = post_code(&site, &code, origin, "en").await;
        assert_eq!(answer.status(), 403, "{origin}");
    }
    // The code was never sent to Discord: it still works from the Activity.
    let origin = format!("https://{APP_ID}.discordsays.com");
    assert_eq!(post_code(&site, &code, &origin, "en").await.status(), 200);

    // A wrong client secret is ours to fix: 503, not the player's refusal.
    let misconfigured = activity_site(&fake, "wrong-secret").await;
    let code = fake.oauth_code(&user);
    let origin = misconfigured.url("");
    assert_eq!(
        post_code(&misconfigured, &code, &origin, "en")
            .await
            .status(),
        503
    );

    // Without the Activity set up: the page says so, the sign-in answers 503.
    let plain = Site::start().await;
    let page = reqwest::get(plain.url("/activity?lang=kk")).await.unwrap();
    assert_eq!(page.status(), 503);
    let text = page.text().await.unwrap();
    let expected = toguz::i18n::tr(toguz::i18n::Lang::Kk, "web-activity-not-configured");
    assert!(text.contains(&expected), "{text}");
    let origin = plain.url("");
    assert_eq!(post_code(&plain, "abc", &origin, "en").await.status(), 503);
}

#[tokio::test]
async fn the_activity_page_may_be_framed_by_discord_and_loads_the_bundle() {
    let fake = FakeDiscord::start().await;
    let site = activity_site(&fake, CLIENT_SECRET).await;
    let page = reqwest::get(site.url("/activity?frame_id=f&instance_id=i&platform=desktop"))
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let csp = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(csp.contains("frame-ancestors https://web.telegram.org https://*.discordsays.com https://discord.com https://*.discord.com"), "{csp}");
    assert!(csp.contains("script-src 'self'"), "{csp}");
    assert!(page.headers().get("x-frame-options").is_none());
    let html = page.text().await.unwrap();
    assert!(html.contains(&format!("data-client-id=\"{APP_ID}\"")));
    let script = toguz::platform::web::assets::ACTIVITY_SCRIPT.href();
    assert!(html.contains(&script));
    let bundle = reqwest::get(site.url(&script)).await.unwrap();
    assert_eq!(bundle.status(), 200);
    assert!(bundle.text().await.unwrap().contains("frame_id"));
    // Every other page keeps refusing frames.
    let index = reqwest::get(site.url("/")).await.unwrap();
    assert_eq!(index.headers()["x-frame-options"], "DENY");
}

/// Trades `code` at the fake once, as another sign-in would have: Discord refuses it after.
pub async fn spend(fake: &FakeDiscord, code: &str) {
    exchange(&fake.url(), CLIENT_SECRET)
        .sign_in(code)
        .await
        .unwrap();
}

/// Every `/assets/...` address a page names.
fn asset_hrefs(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find("\"/assets/") {
        let tail = &rest[at + 1..];
        let end = tail.find('"').unwrap();
        found.push(tail[..end].replace("&amp;", "&"));
        rest = &tail[end..];
    }
    found
}

/// The Activity's page, its SDK bundle and the game page it opens (200 half-moves), with
/// everything each loads (each asset counted once, as the browser caches it): under the
/// issue's 250 KB, before compression.
#[tokio::test]
async fn the_activity_and_the_game_page_it_opens_weigh_under_250_kb() {
    let fake = FakeDiscord::start().await;
    let site = activity_site(&fake, CLIENT_SECRET).await;
    let m = &site.manager;
    let (view, players) = crate::start_game(m, ["Aru", "Baurzhan"]).await;
    let view = crate::play(m, view, &players, 200, &mut Vec::new()).await;
    let game_path = site.page_of(&view.id).await;
    let http = reqwest::Client::new();
    let mut total = 0;
    let mut assets = std::collections::BTreeMap::new();
    for path in [
        "/activity?frame_id=f&instance_id=i&platform=desktop",
        &game_path,
    ] {
        let html = http
            .get(site.url(path))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        eprintln!("{path}: {} bytes", html.len());
        total += html.len();
        for href in asset_hrefs(&html) {
            if assets.contains_key(&href) {
                continue;
            }
            let body = http.get(site.url(&href)).send().await.unwrap();
            assert_eq!(body.status(), 200, "{href}");
            let gzip = http
                .get(site.url(&href))
                .header("accept-encoding", "gzip")
                .send()
                .await
                .unwrap()
                .bytes()
                .await
                .unwrap()
                .len();
            let len = body.bytes().await.unwrap().len();
            eprintln!("{href}: {len} bytes ({gzip} gzip)");
            assets.insert(href, len);
        }
    }
    assert!(
        assets.keys().any(|h| h.starts_with("/assets/activity.js")),
        "{assets:?}"
    );
    total += assets.values().sum::<usize>();
    eprintln!("the Activity with the game page it opens: {total} bytes");
    assert!(total < 250_000, "{total} bytes: {assets:?}");
}
