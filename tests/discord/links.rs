//! Links from Discord to the game pages (issue 35), end to end: with `[web]` on, a board
//! (ongoing and finished) ends with an action row of its own holding one link button to the
//! game's signed page, and `/record` names the page; without `[web]`, no board has a link.

use crate::ratings::content;
use serde_json::{json, Value};
use std::time::Duration;
use toguz::testing::discord::bot::{BotProcess, Options};
use toguz::testing::discord::{buttons, id_of, FakeDiscord, User};

const GUILD: u64 = 930_000_000_000_000_000;
const CHANNEL: u64 = 740;
const PAGES: &str = "https://pages.example.org";
const WEB: &str =
    "[web]\nenabled = true\nlisten = \"127.0.0.1:0\"\npublic_url = \"https://pages.example.org\"\n";

async fn start(extra: &str) -> (FakeDiscord, tempfile::TempDir, BotProcess) {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let opts = Options {
        extra: extra.into(),
        ..Options::default()
    };
    let bot = BotProcess::start(&fake, dir.path(), &opts);
    fake.wait_ready(1).await;
    fake.wait_call(0, "command registration", |c| {
        c.method == "PUT" && c.path.ends_with("/commands")
    })
    .await;
    (fake, dir, bot)
}

/// `/play random` in the server channel: the board's message and its game.
async fn a_game(fake: &FakeDiscord, user: &User) -> (Value, String) {
    let place = fake.guild_channel(GUILD, CHANNEL);
    let level = json!([{ "name": "level", "type": 3, "value": "random" }]);
    let id = fake.slash(user, place, "play", level, &[]);
    fake.wait_callback(id).await;
    let board = fake.original_message(id).expect("the board");
    let game = buttons(&board)
        .iter()
        .find_map(|b| {
            let id = b["custom_id"].as_str()?;
            Some(id.strip_prefix("1r:")?.split(':').next()?.to_string())
        })
        .unwrap_or_else(|| panic!("a Resign button: {board}"));
    (board, game)
}

/// The board's last action row when it is a lone link button: its address.
fn link_of(board: &Value) -> Option<String> {
    let rows = board["components"].as_array()?;
    assert!(rows.len() <= 5, "{board}");
    let [button] = rows.last()?["components"].as_array()?.as_slice() else {
        return None;
    };
    (button["style"] == 5).then(|| {
        assert_eq!(button["label"], "🌐 Game page", "{button}");
        assert!(button["custom_id"].is_null(), "{button}");
        button["url"].as_str().expect("an address").to_string()
    })
}

/// Whether `url` is the page of `game`: `<PAGES>/g/<game>-<20 hex digits>`.
fn is_page_of(url: &str, game: &str) -> bool {
    url.strip_prefix(&format!("{PAGES}/g/{game}-"))
        .is_some_and(|sig| sig.len() == 20 && sig.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boards_and_records_link_the_game_page_when_the_pages_are_served() {
    let (fake, _dir, _bot) = start(WEB).await;
    let aru = User::new(1401, "Aru");
    let (board, game) = a_game(&fake, &aru).await;
    let url = link_of(&board).unwrap_or_else(|| panic!("no link row: {board}"));
    assert!(is_page_of(&url, &game), "{url}");

    // Resigned: the final board keeps the link under its rematch, review and record buttons.
    let place = fake.guild_channel(GUILD, CHANNEL);
    let id = fake.slash(&aru, place, "resign", json!([]), &[]);
    fake.wait_callback(id).await;
    let message = id_of(&board);
    let end = fake
        .wait_for("the final board", Duration::from_secs(15), |f| {
            let m = f.message(message)?;
            let over = buttons(&m)
                .iter()
                .any(|b| b["custom_id"] == format!("1rc:{game}"));
            over.then_some(m)
        })
        .await;
    assert_eq!(link_of(&end).as_deref(), Some(url.as_str()), "{end}");

    // /record names the page above the moves.
    let id = fake.slash(&aru, place, "record", json!([]), &[]);
    let call = fake.wait_callback(id).await;
    let text = content(&call);
    assert!(
        text.starts_with(&format!("Record of game {game}\n🌐 Game page: {url}\n")),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_pages_no_board_has_a_link() {
    let (fake, _dir, _bot) = start("").await;
    let aru = User::new(1402, "Aru");
    let (board, _) = a_game(&fake, &aru).await;
    assert_eq!(link_of(&board), None, "{board}");
    assert!(
        buttons(&board)
            .iter()
            .all(|b| b["style"] != 5 && b["url"].is_null()),
        "{board}"
    );
}

/// Discord's MANAGE_GUILD permission bit.
const MANAGE_GUILD: u64 = 1 << 5;

/// `/web` with `public` (or without) by `user` in the server channel: the private answer.
async fn web(fake: &FakeDiscord, user: &User, public: Option<&str>) -> String {
    web_with(fake, user, public.map(|v| ("public", v))).await
}

/// `/web` with one option (`name`, value) or none.
async fn web_with(fake: &FakeDiscord, user: &User, option: Option<(&str, &str)>) -> String {
    let place = fake.guild_channel(GUILD, CHANNEL);
    let options = match option {
        Some((name, v)) => json!([{ "name": name, "type": 3, "value": v }]),
        None => json!([]),
    };
    let id = fake.slash(user, place, "web", options, &[]);
    let call = fake.wait_callback(id).await;
    assert_eq!(call.callback_type(), Some(4), "{}", content(&call));
    assert!(call.is_ephemeral(), "/web answers privately");
    content(&call)
}

/// Where `toguz run` serves the pages, from its log.
async fn served_at(bot: &BotProcess) -> String {
    for _ in 0..300 {
        let found = bot
            .log_text()
            .lines()
            .find(|l| l.contains("serving game pages"))
            .and_then(|l| l.split("listen=").nth(1))
            .and_then(|rest| rest.split_whitespace().next())
            .map(str::to_string);
        if let Some(addr) = found {
            return addr;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the pages are not served: {}", bot.log_text());
}

/// The front page's HTML.
async fn front_page(addr: &str) -> String {
    let page = reqwest::get(format!("http://{addr}/"))
        .await
        .expect("GET /");
    assert_eq!(page.status(), 200);
    page.text().await.expect("a body")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_who_manages_the_server_lists_its_games_on_the_front_page() {
    let (fake, _dir, bot) = start(WEB).await;
    let addr = served_at(&bot).await;
    let (dana, erlan) = (User::new(1403, "Dana"), User::new(1404, "Erlan"));
    fake.set_permissions(&dana, MANAGE_GUILD);
    let (board, _) = a_game(&fake, &erlan).await;
    let url = link_of(&board).unwrap_or_else(|| panic!("no link row: {board}"));
    let path = url.trim_start_matches(PAGES).to_string();
    assert!(!front_page(&addr).await.contains(&path), "not listed yet");

    let off = "This chat's games are not listed on the website's front page. \
               Admins can list them with /web public:on.";
    assert!(web(&fake, &erlan, None).await.starts_with(off));
    // Erlan may not manage the server: refused, nothing changes.
    let refused = web(&fake, &erlan, Some("on")).await;
    assert_eq!(
        refused,
        "Only the chat's admins can choose whether its games are listed on the website."
    );
    assert!(!front_page(&addr).await.contains(&path));

    let on = web(&fake, &dana, Some("on")).await;
    assert!(
        on.starts_with(
            "This chat's games are now listed on the website's front page, for anyone to watch."
        ),
        "{on}"
    );
    let html = front_page(&addr).await;
    assert!(html.contains(&format!("href=\"{path}\"")), "{html}");
    assert!(
        !html.contains("1404"),
        "no Discord id on the front page: {html}"
    );
    let state = web(&fake, &erlan, None).await;
    assert!(
        state.starts_with(
            "This chat's games are listed on the website's front page. \
             Admins can change that with /web public:off."
        ),
        "{state}"
    );

    // An unknown value (an outdated or forged client) is refused; Dana turns it off.
    let bad = web(&fake, &dana, Some("maybe")).await;
    assert!(!bad.is_empty() && !bad.contains("now listed"), "{bad}");
    let off_now = web(&fake, &dana, Some("off")).await;
    assert!(
        off_now.starts_with("This chat's games are no longer listed"),
        "{off_now}"
    );
    assert!(!front_page(&addr).await.contains(&path));

    // Issue 49, finding 9: anyone chooses for their own page (Erlan manages nothing).
    let mine = web_with(&fake, &erlan, Some(("profile", "on"))).await;
    assert!(
        mine.starts_with("Your page on the website now lists all your games"),
        "{mine}"
    );
    let state = web(&fake, &erlan, None).await;
    assert!(state.ends_with("/web profile:off"), "{state}");
    let hidden = web_with(&fake, &erlan, Some(("profile", "off"))).await;
    assert!(
        hidden.starts_with("Your page on the website now lists only"),
        "{hidden}"
    );
}

/// Issue 50: `/web signin:login` answers privately with a one-time sign-in link as a button
/// (the text names no address Discord would unfurl); `signin:logout` ends the sessions;
/// `signin` with another option is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_signin_gives_a_private_one_time_link() {
    let (fake, _dir, _bot) = start(WEB).await;
    let aigul = User::new(1405, "Aigul");
    let place = fake.guild_channel(GUILD, CHANNEL);
    let login = json!([{ "name": "signin", "type": 3, "value": "login" }]);
    let id = fake.slash(&aigul, place, "web", login, &[]);
    let call = fake.wait_callback(id).await;
    assert_eq!(call.callback_type(), Some(4), "{}", content(&call));
    assert!(call.is_ephemeral(), "the link is only for its user");
    let text = content(&call);
    assert!(
        text.contains("works once, within the next 10 minutes"),
        "{text}"
    );
    assert!(!text.contains(PAGES), "{text}");
    let data = call.message_data().expect("a message");
    let button = &data["components"][0]["components"][0];
    assert_eq!(button["style"], 5, "a link button: {button}");
    assert_eq!(button["label"], "🔑 Sign in on the website");
    let url = button["url"].as_str().expect("an address");
    let token = url
        .strip_prefix(&format!("{PAGES}/login/"))
        .unwrap_or_else(|| panic!("a link to the site's /login/: {url}"));
    assert_eq!(token.len(), 64, "{url}");

    let logout = web_with(&fake, &aigul, Some(("signin", "logout"))).await;
    assert_eq!(logout, "You were not signed in on the website anywhere.");
    let both = json!([
        { "name": "signin", "type": 3, "value": "login" },
        { "name": "public", "type": 3, "value": "on" }
    ]);
    let id = fake.slash(&aigul, place, "web", both, &[]);
    let call = fake.wait_callback(id).await;
    assert!(call.is_ephemeral());
    assert!(!content(&call).contains("works once"), "{}", content(&call));
}

/// Issue 50, end to end through the real binary and its pages: the link `/web signin:login`
/// gives opens a page that signs in only when its button is pressed; signed in, a move made
/// on the game's page is played, and the board message in the channel is redrawn as after a
/// press (the bot's reply included), within Discord's limits as shipped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_link_from_chat_signs_in_and_a_move_on_the_page_redraws_the_board() {
    // The pages' port, chosen here so that the links name it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let base = format!("http://127.0.0.1:{port}");
    let web =
        format!("[web]\nenabled = true\nlisten = \"127.0.0.1:{port}\"\npublic_url = \"{base}\"\n");
    let (fake, _dir, _bot) = start(&web).await;
    let dana = User::new(1406, "Dana");
    let place = fake.guild_channel(GUILD, CHANNEL);
    let (board, game) = a_game(&fake, &dana).await;
    let board_id = id_of(&board);
    let page = board["components"]
        .as_array()
        .and_then(|rows| rows.last())
        .map(|row| {
            row["components"][0]["url"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .unwrap_or_default();
    assert!(page.starts_with(&format!("{base}/g/{game}-")), "{board}");

    let login = json!([{ "name": "signin", "type": 3, "value": "login" }]);
    let id = fake.slash(&dana, place, "web", login, &[]);
    let call = fake.wait_callback(id).await;
    let data = call.message_data().expect("a message");
    let link = data["components"][0]["components"][0]["url"]
        .as_str()
        .expect("the link")
        .to_string();
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    // Opening the link only shows its page (a preview would use nothing up).
    let shown = http.get(&link).send().await.unwrap();
    assert_eq!(shown.status(), 200);
    assert!(shown.headers().get("set-cookie").is_none());
    assert!(shown
        .text()
        .await
        .unwrap()
        .contains("<form method=\"post\""));
    // Its button: the session.
    let pressed = http
        .post(&link)
        .header("origin", &base)
        .send()
        .await
        .unwrap();
    assert_eq!(pressed.status(), 303);
    let cookie = pressed.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let html = http
        .get(&page)
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let at = html
        .find("name=\"toguz-csrf\" content=\"")
        .expect("signed in")
        + 27;
    let csrf = html[at..at + html[at..].find('"').unwrap()].to_string();
    let seat: Value = http
        .get(format!("{page}/seat"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let ply = seat["ply"].as_u64().unwrap();
    let pit = seat["pits"][0]
        .as_u64()
        .expect("Dana's turn: she moves first");
    let moved = http
        .post(format!("{page}/act"))
        .header("cookie", &cookie)
        .header("x-toguz-csrf", &csrf)
        .header("origin", &base)
        .body(json!({ "action": "move", "ply": ply, "pit": pit }).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(moved.status(), 200, "{}", moved.text().await.unwrap());

    // The board in the channel follows: the bot replied, and it is Dana's turn again.
    let resign_at = |ply: u64| format!("1r:{game}:{ply}");
    fake.wait_for("the board redrawn", Duration::from_secs(15), |f| {
        let message = f.message(board_id)?;
        let ids: Vec<String> = buttons(&message)
            .iter()
            .filter_map(|b| b["custom_id"].as_str().map(str::to_string))
            .collect();
        ids.contains(&resign_at(ply + 2)).then_some(())
    })
    .await;
}
