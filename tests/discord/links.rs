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
