//! The opening explorer on Discord (issue 52), end to end: the real serenity client (the
//! adapter in this process) against the fake Discord, on the 2018 championships imported as
//! masters. `/opening` answers publicly with the board over the moves table (`board.png`
//! in an embed) and a button per move; a move, Back and the source button update the
//! pressed message in place; someone else's press and forged data are refused privately
//! and change nothing; a finished board's Opening button posts a new explorer.

use serde_json::{json, Value};
use std::time::Duration;
use toguz::explorer::{import_games, prepare, Source};
use toguz::manager::buttons::{decode, Button};
use toguz::manager::explorer::ExplorerAsk;
use toguz::manager::Manager;
use toguz::rules::parse_records;
use toguz::testing::discord::bot::{start_with_manager, Options};
use toguz::testing::discord::{
    buttons, first_legal_pit, id_of, is_valid_png, Call, FakeDiscord, Place, User,
};
use toguz::testing::manager::test_config;

const GUILD: u64 = 940_000_000_000_000_052;
const CHANNEL: u64 = 5252;
const WAIT: Duration = Duration::from_secs(15);
const GAMES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/championships-kz-2018.pgn"
);
const NOT_YOURS: &str = "This explorer was opened by someone else. Send /opening to open your own.";
const BAD_BUTTON: &str =
    "This button does not belong to any game I know. Use /board to see your current board.";

struct Server {
    fake: FakeDiscord,
    manager: Manager,
    _bot: tokio::task::JoinHandle<anyhow::Result<()>>,
    _dir: tempfile::TempDir,
    alice: User,
    bob: User,
}

impl Server {
    async fn start() -> Server {
        let fake = FakeDiscord::start().await;
        let dir = tempfile::tempdir().expect("temp dir");
        let store = toguz::store::Store::open(&dir.path().join("data")).expect("a store");
        let engine = toguz::engine::EnginePool::new(toguz::engine::EngineConfig::default());
        let manager = Manager::start(store, engine, test_config())
            .await
            .expect("a manager");
        let text = std::fs::read_to_string(GAMES).expect("the games");
        let games: Vec<_> = parse_records(&text)
            .into_iter()
            .flatten()
            .filter_map(|r| prepare(&r, Source::Masters).ok())
            .collect();
        import_games(manager.store(), &games)
            .await
            .expect("imported");
        let bot = start_with_manager(&fake, manager.clone(), &Options::default());
        fake.wait_ready(1).await;
        fake.wait_call(0, "command registration", |c| {
            c.method == "PUT" && c.path.ends_with("/commands") && c.status == 200
        })
        .await;
        Server {
            fake,
            manager,
            _bot: bot,
            _dir: dir,
            alice: User::new(1301, "Alice"),
            bob: User::new(1302, "Bob"),
        }
    }

    fn place(&self) -> Place {
        self.fake.guild_channel(GUILD, CHANNEL)
    }

    /// `/opening` with `options` by `user`: the explorer posted for the channel.
    async fn opening(&self, user: &User, options: Value) -> Value {
        let id = self.fake.slash(user, self.place(), "opening", options, &[]);
        let call = self.fake.wait_callback(id).await;
        assert_eq!(call.callback_type(), Some(4), "{}", content(&call));
        assert!(!call.is_ephemeral(), "an explorer is for the channel");
        let message = self.fake.original_message(id).expect("the explorer");
        self.check_image(&message);
        message
    }

    /// `user` presses `custom_id` on `message`, which is updated in place.
    async fn step(&self, user: &User, message: &Value, custom_id: &str) -> Value {
        let before = self.fake.message(id_of(message)).expect("the message");
        let id = self.fake.press(user, id_of(message), custom_id);
        let call = self.fake.wait_callback(id).await;
        let kind = call.callback_type();
        assert!(matches!(kind, Some(6 | 7)), "{kind:?} {}", content(&call));
        let after = self
            .fake
            .wait_for("the message updated", WAIT, |f| {
                let now = f.message(id_of(message))?;
                let changed =
                    now["embeds"] != before["embeds"] || now["components"] != before["components"];
                changed.then_some(now)
            })
            .await;
        self.check_image(&after);
        after
    }

    /// `user`'s press of `custom_id` on `message` is refused privately with `text`.
    async fn refused(&self, user: &User, message: &Value, custom_id: &str, text: &str) {
        let before = self.fake.message(id_of(message)).expect("the message");
        let id = match buttons(&before).iter().any(|b| b["custom_id"] == custom_id) {
            true => self.fake.press(user, id_of(message), custom_id),
            false => self.fake.press_forged(user, id_of(message), custom_id),
        };
        let call = self.fake.wait_callback(id).await;
        assert_eq!(call.callback_type(), Some(4));
        assert!(call.is_ephemeral(), "a refusal is private");
        assert_eq!(content(&call), text);
        let after = self.fake.message(id_of(message)).expect("the message");
        assert_eq!(
            (description(&after), buttons(&after)),
            (description(&before), buttons(&before))
        );
        assert_eq!(after["attachments"], before["attachments"]);
    }

    fn check_image(&self, message: &Value) {
        let attachments = message["attachments"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(attachments.len(), 1, "one picture: {message}");
        assert_eq!(attachments[0]["filename"], "board.png");
        assert!(is_valid_png(&self.fake.attachment_bytes(&attachments[0])));
        assert_eq!(message["embeds"][0]["image"]["url"], attachments[0]["url"]);
    }
}

fn content(call: &Call) -> String {
    call.message_data()
        .and_then(|d| d["content"].as_str())
        .unwrap_or_default()
        .to_string()
}

fn description(message: &Value) -> String {
    message["embeds"][0]["description"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// (label, custom_id) of every button.
fn labelled(message: &Value) -> Vec<(String, String)> {
    buttons(message)
        .iter()
        .map(|b| {
            let get = |k: &str| b[k].as_str().unwrap_or_default().to_string();
            (get("label"), get("custom_id"))
        })
        .collect()
}

fn id_labelled(message: &Value, label: &str) -> String {
    let all = labelled(message);
    let found = all.iter().find(|(l, _)| l.starts_with(label));
    found
        .map(|(_, id)| id.clone())
        .unwrap_or_else(|| panic!("no {label:?} in {all:?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_explorer_steps_in_and_back_and_refuses_others_privately() {
    let server = Server::start().await;
    let start = server
        .manager
        .explore(ExplorerAsk::start(), None)
        .await
        .expect("explored");
    let moves: Vec<u8> = start.answer.moves.iter().map(|m| m.pit).collect();
    let (alice, bob) = (&server.alice, &server.bob);
    let message = server.opening(alice, json!([])).await;
    assert!(description(&message).starts_with("Starting position · All games"));
    let all = labelled(&message);
    assert_eq!(all.len(), moves.len() + 3, "{all:?}");
    for (label, id) in &all {
        assert!(id.len() <= 100, "{id}");
        match decode(id) {
            Ok(Button::Explorer { owner, .. }) => assert_eq!(owner, "1301", "{label}"),
            other => panic!("{label}: {other:?}"),
        }
    }
    // At most five buttons a row (Discord's limit), the controls last.
    let rows = message["components"].as_array().expect("rows");
    assert!(rows
        .iter()
        .all(|r| r["components"].as_array().is_some_and(|b| b.len() <= 5)));

    let first = moves[0];
    let stepped = server
        .step(
            alice,
            &message,
            &id_labelled(&message, &format!("{first} ·")),
        )
        .await;
    assert!(description(&stepped).starts_with(&format!("After {first} · All games")));
    let masters = server
        .step(alice, &stepped, &id_labelled(&stepped, "All games"))
        .await;
    assert!(
        description(&masters).contains(" · Masters"),
        "{}",
        description(&masters)
    );
    let back = server
        .step(alice, &masters, &id_labelled(&masters, "◀ Back"))
        .await;
    assert!(description(&back).starts_with("Starting position · Masters"));

    server
        .refused(bob, &back, &id_labelled(&back, "Masters"), NOT_YOURS)
        .await;
    server
        .refused(alice, &back, "1o:10h:a--:1", BAD_BUTTON)
        .await;
    server
        .refused(alice, &back, "1o:10h:a--:0", BAD_BUTTON)
        .await;

    // The options: a line and a source; a source nobody knows is refused in words.
    let his = server
        .opening(bob, json!([{"name": "moves", "type": 3, "value": "9 9"}, {"name": "source", "type": 3, "value": "masters"}]))
        .await;
    assert!(
        description(&his).starts_with("After 9 9 · Masters"),
        "{}",
        description(&his)
    );
    let id = server.fake.slash(
        bob,
        server.place(),
        "opening",
        json!([{"name": "source", "type": 3, "value": "friends"}]),
        &[],
    );
    let call = server.fake.wait_callback(id).await;
    assert!(call.is_ephemeral());
    assert!(
        content(&call).starts_with("I don't know that source."),
        "{}",
        content(&call)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_board_opens_the_explorer_for_the_presser() {
    let server = Server::start().await;
    let (fake, alice, bob) = (&server.fake, &server.alice, &server.bob);
    let options = json!([{ "name": "level", "type": 3, "value": "random" }]);
    let id = fake.slash(alice, server.place(), "play", options, &[]);
    fake.wait_callback(id).await;
    let board = id_of(&fake.original_message(id).expect("the board"));
    // One move each (a game without moves has no opening), then Alice resigns.
    let pit = fake
        .wait_for("her turn", WAIT, |f| first_legal_pit(&f.message(board)?))
        .await;
    let press = fake.press(alice, board, &pit);
    fake.wait_callback(press).await;
    fake.wait_for("the bot's reply", WAIT, |f| {
        first_legal_pit(&f.message(board)?).filter(|c| *c != pit)
    })
    .await;
    let resign = fake.slash(alice, server.place(), "resign", json!([]), &[]);
    fake.wait_callback(resign).await;
    let end = fake
        .wait_for("the final board", WAIT, |f| {
            let m = f.message(board)?;
            labelled(&m)
                .iter()
                .any(|(_, c)| c.starts_with("1op:"))
                .then_some(m)
        })
        .await;
    let opening = id_labelled(&end, "Opening");
    let game = opening.strip_prefix("1op:").expect("a game").to_string();
    let line = server.manager.book_line(&game).await.expect("its line");

    // Bob presses: a new public message, his explorer where the game left the others'.
    let press = fake.press(bob, id_of(&end), &opening);
    let call = fake.wait_callback(press).await;
    // A new message (deferred first when the picture is slow).
    assert!(
        matches!(call.callback_type(), Some(4 | 5)),
        "{}",
        content(&call)
    );
    let message = fake
        .wait_for("the explorer", WAIT, |f| f.original_message(press))
        .await;
    server.check_image(&message);
    assert_ne!(
        id_of(&message),
        id_of(&end),
        "the board itself is left alone"
    );
    let shown =
        toguz::platform::present::explorer::line_text(&line.ask().moves, toguz::i18n::Lang::En);
    assert!(
        description(&message).starts_with(&shown),
        "{}",
        description(&message)
    );
    assert!(labelled(&message).iter().all(|(_, id)| matches!(
        decode(id),
        Ok(Button::Explorer { owner, .. }) if owner == "1302"
    )));
}
