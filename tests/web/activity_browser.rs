//! The Discord Activity in Chromium (issue 50), with the real Embedded App SDK bundle: the
//! test plays the Discord client. Its page is served as `https://discord.com/...` and frames
//! the Activity at `https://<application id>.discordsays.com/activity?frame_id=..`, whose
//! requests are forwarded to our server as Discord's proxy forwards them (the URL mapping
//! `/` -> the site). So the browser applies everything the real setting has: the SDK's check
//! of its parent's origin, our pages' `frame-ancestors`, the sign-in's `Origin` check.
//!
//! The page plays Discord's side of the SDK's postMessage protocol: it checks the handshake
//! (`[0, {v: 1, encoding: "json", client_id, frame_id}]`), dispatches READY, answers
//! AUTHORIZE with a code the fake Discord issued for the user, and AUTHENTICATE with the
//! user the access token belongs to.
//!
//! Site isolation is off for this browser so that the test can read the Activity's frame
//! (its storage, its text) from the same DevTools session.

use crate::activity::activity_site;
use crate::browser::{self, Answer, Browser, Route};
use serde_json::Value;
use std::time::Duration;
use toguz::testing::discord::{FakeDiscord, User, APP_ID, CLIENT_SECRET};

const FRAME: &str = "frame-5f1c";
const INSTANCE: &str = "i-1234-gc-7";
const GUILD: u64 = 930_000_000_000_000_777;
const CHANNEL: u64 = 940_000_000_000_000_555;

fn activity_origin() -> String {
    format!("https://{APP_ID}.discordsays.com")
}

/// The Discord client's side of the SDK's protocol, answering AUTHORIZE with `code`.
fn client_page(code: &str, user: &User) -> String {
    let src = format!(
        "{}/activity?frame_id={FRAME}&instance_id={INSTANCE}&channel_id={CHANNEL}&guild_id={GUILD}&platform=desktop",
        activity_origin()
    );
    format!(
        r#"<!doctype html><html><body>
<iframe id="app" src="{src}" width="400" height="700"></iframe>
<script>
const APP = {app:?};
window.seen = [];
window.problems = [];
const frame = document.getElementById("app");
function send(message) {{ frame.contentWindow.postMessage(message, APP); }}
const user = {{ id: "{user_id}", username: "{username}", discriminator: "0", avatar: null,
  public_flags: 0, global_name: "{name}" }};
window.addEventListener("message", async (event) => {{
  if (event.origin !== APP || event.source !== frame.contentWindow) return;
  const [op, data] = event.data;
  window.seen.push(op === 1 ? data.cmd : "op" + op);
  if (op === 0) {{
    if (data.v !== 1 || data.encoding !== "json" || data.client_id !== "{app_id}" || data.frame_id !== "{frame}")
      window.problems.push("handshake " + JSON.stringify(data));
    window.handshake = data;
    send([1, {{ cmd: "DISPATCH", evt: "READY", nonce: null, data: {{ v: 1,
      config: {{ cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" }},
      user: {{ id: user.id, username: user.username, discriminator: "0" }} }} }}]);
  }} else if (op === 1 && data.cmd === "AUTHORIZE") {{
    window.authorize = data.args;
    send([1, {{ cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: {{ code: {code:?} }} }}]);
  }} else if (op === 1 && data.cmd === "AUTHENTICATE") {{
    window.authenticate = data.args;
    send([1, {{ cmd: "AUTHENTICATE", evt: null, nonce: data.nonce, data: {{
      access_token: data.args.access_token, user, scopes: ["identify"],
      expires: "2027-01-01T00:00:00.000Z",
      application: {{ id: "{app_id}", name: "toguz", description: "", icon: null }} }} }}]);
  }} else if (op === 1) {{
    send([1, {{ cmd: data.cmd, evt: "ERROR", nonce: data.nonce, data: {{ code: 4000, message: "not in this test" }} }}]);
  }}
}});
</script></body></html>"#,
        app = activity_origin(),
        app_id = APP_ID,
        frame = FRAME,
        user_id = user.id,
        username = user.name.to_lowercase(),
        name = user.name,
    )
}

/// Chromium with the test as Discord: `None` where Chromium is not installed.
async fn discord_client(site: &crate::Site, page: String) -> Option<Browser> {
    let mut browser = browser::launch_with(&[
        "--disable-site-isolation-trials",
        "--disable-features=IsolateOrigins,site-per-process",
    ])
    .await?;
    // The Discord client's language: Russian.
    let version = browser
        .call("Browser.getVersion", serde_json::json!({}))
        .await;
    let agent = serde_json::json!({ "userAgent": version["userAgent"], "acceptLanguage": "ru" });
    browser.call("Network.setUserAgentOverride", agent).await;
    let extra = serde_json::json!({ "headers": { "Accept-Language": "ru" } });
    browser.call("Network.setExtraHTTPHeaders", extra).await;
    browser
        .intercept(vec![
            Route {
                origin: "https://discord.com".into(),
                answer: Answer::Page(page),
            },
            Route {
                origin: activity_origin(),
                answer: Answer::Forward(site.url("")),
            },
        ])
        .await;
    browser
        .open(
            "https://discord.com/channels/activity-test",
            420,
            760,
            false,
        )
        .await;
    Some(browser)
}

async fn stored_session(browser: &mut Browser) -> Value {
    let found = browser
        .eval_in_frame(
            &activity_origin(),
            "sessionStorage.getItem('toguz-session')",
        )
        .await;
    match found.as_str() {
        Some(text) => serde_json::from_str(text).unwrap(),
        None => Value::Null,
    }
}

#[tokio::test]
async fn the_activity_signs_in_through_the_sdk_handshake() {
    let fake = FakeDiscord::start().await;
    let site = activity_site(&fake, CLIENT_SECRET).await;
    let user = User::new(710_000_000_000_000_101, "Nurlan");
    let code = fake.oauth_code(&user);
    let Some(mut browser) = discord_client(&site, client_page(&code, &user)).await else {
        return;
    };
    let origin = activity_origin();
    browser
        .wait_in_frame(
            &origin,
            "sessionStorage.getItem('toguz-session') !== null",
            Duration::from_secs(15),
        )
        .await;
    // Discord's side saw the protocol in order, and nothing odd in it.
    let seen = browser.eval("window.seen").await;
    assert_eq!(
        seen,
        serde_json::json!(["op0", "AUTHORIZE", "AUTHENTICATE"]),
        "{seen}"
    );
    assert_eq!(browser.eval("window.problems").await, serde_json::json!([]));
    let authorize = browser.eval("window.authorize").await;
    assert_eq!(authorize["client_id"], APP_ID.to_string(), "{authorize}");
    assert_eq!(authorize["response_type"], "code");
    assert_eq!(authorize["prompt"], "none");
    assert_eq!(authorize["scope"], serde_json::json!(["identify"]));
    // AUTHENTICATE got the access token Discord issued for this very user.
    let access = browser.eval("window.authenticate.access_token").await;
    let me: Value = reqwest::Client::new()
        .get(format!("{}/api/v10/users/@me", fake.url()))
        .bearer_auth(access.as_str().unwrap())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(me["id"], user.id.to_string());
    // The session the page keeps is the server's, for this Discord user.
    let session = stored_session(&mut browser).await;
    assert_eq!(session["name"], "Nurlan");
    let token = session["token"].as_str().unwrap();
    let kept = site.manager.web_session(token).await.unwrap();
    assert_eq!(kept.user.id, user.id.to_string());
    assert_eq!(kept.csrf, session["csrf"].as_str().unwrap());
    // The sign-in went through the Activity's origin, and then the page asked for this
    // channel's games with the session.
    let signin = browser
        .intercepted
        .iter()
        .find(|r| r.url.ends_with("/api/signin/discord"))
        .expect("the sign-in request")
        .clone();
    assert_eq!(signin.method, "POST");
    assert_eq!(signin.status, 200);
    let games_url = format!("{origin}/api/me/games?channel={CHANNEL}");
    let start = tokio::time::Instant::now();
    while !browser.intercepted.iter().any(|r| r.url == games_url) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?}",
            browser.intercepted
        );
        browser.eval("1").await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let games = browser
        .intercepted
        .iter()
        .find(|r| r.url == games_url)
        .unwrap();
    let auth = games.headers["Authorization"]
        .as_str()
        .or(games.headers["authorization"].as_str());
    assert_eq!(auth, Some(format!("Bearer {token}").as_str()));
}

#[tokio::test]
async fn a_refused_code_shows_the_localized_error_and_keeps_no_session() {
    let fake = FakeDiscord::start().await;
    let site = activity_site(&fake, CLIENT_SECRET).await;
    let user = User::new(710_000_000_000_000_102, "Olzhas");
    // A code Discord already took: it refuses it now.
    let code = fake.oauth_code(&user);
    crate::activity::spend(&fake, &code).await;
    let Some(mut browser) = discord_client(&site, client_page(&code, &user)).await else {
        return;
    };
    let origin = activity_origin();
    browser
        .wait_in_frame(
            &origin,
            "document.querySelector('#activity-status.error') !== null",
            Duration::from_secs(15),
        )
        .await;
    let shown = browser
        .eval_in_frame(
            &origin,
            "document.getElementById('activity-status').textContent",
        )
        .await;
    // Chromium asked in Russian (`--lang=ru`): the server's words are Russian.
    let expected = toguz::i18n::tr(toguz::i18n::Lang::Ru, "web-activity-refused");
    assert_eq!(shown.as_str(), Some(expected.as_str()));
    assert_eq!(stored_session(&mut browser).await, Value::Null);
    let seen = browser.eval("window.seen").await;
    assert_eq!(
        seen,
        serde_json::json!(["op0", "AUTHORIZE"]),
        "no AUTHENTICATE: {seen}"
    );
    let signin = browser
        .intercepted
        .iter()
        .find(|r| r.url.ends_with("/api/signin/discord"))
        .expect("the sign-in request");
    assert_eq!(signin.status, 401);
    assert!(!browser
        .intercepted
        .iter()
        .any(|r| r.url.contains("/api/me/games")));
}
