//! Whole flows: the real bot (`toguz run`, serenity inside) against the fake Discord.
//!
//! Every board message is checked: its attachment is a valid PNG named in the embed, and its
//! pit buttons match the legal moves of the position (kept here by replaying the moves).

use serde_json::{json, Value};
use std::time::Duration;
use toguz::rules::{Position, TuzdekRule, Variant};
use toguz::testing::discord::bot::{BotProcess, Options};
use toguz::testing::discord::{
    buttons, id_of, is_valid_png, Call, Failure, FakeDiscord, Place, User,
};
use toguz::testing::Lifted;

const GUILD: u64 = 900_000_000_000_000_000;

/// The three-balls variant: whole games in a fraction of the moves.
fn small() -> Variant {
    Variant::new(3, TuzdekRule::Standard).expect("a variant")
}

struct Harness {
    fake: FakeDiscord,
    dir: tempfile::TempDir,
    bot: Option<Running>,
    opts: Options,
}

enum Running {
    Process(BotProcess),
    Task(tokio::task::JoinHandle<anyhow::Result<()>>),
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Running::Task(t) = self {
            t.abort();
        }
    }
}

/// `TOGUZ_DISCORD_IN_PROCESS=1` runs the adapter in the test process (for debugging).
fn in_process() -> bool {
    std::env::var_os("TOGUZ_DISCORD_IN_PROCESS").is_some()
}

impl Harness {
    async fn start(opts: Options) -> Harness {
        let fake = FakeDiscord::start().await;
        let dir = tempfile::tempdir().expect("temp dir");
        let mut h = Harness {
            fake,
            dir,
            bot: None,
            opts,
        };
        h.launch().await;
        h
    }

    async fn launch(&mut self) {
        let from = self.fake.call_count();
        self.bot = Some(if in_process() {
            Running::Task(
                toguz::testing::discord::bot::start_in_process(
                    &self.fake,
                    self.dir.path(),
                    &self.opts,
                )
                .await,
            )
        } else {
            Running::Process(BotProcess::start(&self.fake, self.dir.path(), &self.opts))
        });
        self.fake.wait_ready(1).await;
        // Commands are registered once the gateway is ready: then the bot is fully up.
        self.fake
            .wait_call(from, "command registration", |c| {
                c.method == "PUT" && c.path.ends_with("/commands")
            })
            .await;
    }

    fn kill(&mut self) {
        if let Some(Running::Process(p)) = &mut self.bot {
            p.kill();
        }
        self.bot = None;
        self.fake.drop_sessions();
    }

    fn log(&self) -> String {
        match &self.bot {
            Some(Running::Process(p)) => p.log_text(),
            _ => String::new(),
        }
    }
}

fn guild(fake: &FakeDiscord) -> Place {
    fake.guild_channel(GUILD, 700)
}

async fn slash(
    fake: &FakeDiscord,
    user: &User,
    place: Place,
    name: &str,
    options: Value,
    resolved: &[User],
) -> (u64, Call) {
    let id = fake.slash(user, place, name, options, resolved);
    let call = fake.wait_callback(id).await;
    (id, call)
}

async fn press(fake: &FakeDiscord, user: &User, message: u64, custom_id: &str) -> Call {
    let id = fake.press(user, message, custom_id);
    fake.wait_callback(id).await
}

async fn press_forged(fake: &FakeDiscord, user: &User, message: u64, custom_id: &str) -> Call {
    let id = fake.press_forged(user, message, custom_id);
    fake.wait_callback(id).await
}

fn content(call: &Call) -> String {
    call.message_data()
        .and_then(|d| d["content"].as_str())
        .unwrap_or_default()
        .to_string()
}

fn pit_buttons(message: &Value) -> Vec<Value> {
    buttons(message)
        .into_iter()
        .filter(|b| {
            b["custom_id"]
                .as_str()
                .is_some_and(|id| id.starts_with("1m:"))
        })
        .collect()
}

/// The board image is there, valid and shown by the embed.
fn check_image(fake: &FakeDiscord, message: &Value) {
    let attachments = message["attachments"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(attachments.len(), 1, "one board image: {message}");
    assert!(
        is_valid_png(&fake.attachment_bytes(&attachments[0])),
        "the board is a valid PNG"
    );
    assert_eq!(message["embeds"][0]["image"]["url"], attachments[0]["url"]);
}

/// The board image is there and valid, and the pit buttons are the legal moves of `pos`
/// (with the balls of each pit in the label).
fn check_board(fake: &FakeDiscord, message: &Value, pos: &Position) {
    check_board_for(fake, message, pos, true)
}

/// As [`check_board`]; `human_to_move` false: the bot is to move and every pit is disabled.
fn check_board_for(fake: &FakeDiscord, message: &Value, pos: &Position, human_to_move: bool) {
    let attachments = message["attachments"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(attachments.len(), 1, "one board image: {message}");
    assert!(
        is_valid_png(&fake.attachment_bytes(&attachments[0])),
        "the board is a valid PNG"
    );
    assert_eq!(
        message["embeds"][0]["image"]["url"], attachments[0]["url"],
        "the embed shows the board"
    );
    let pits = pit_buttons(message);
    if pos.is_over() {
        assert!(pits.is_empty(), "no pit buttons after the end");
        return;
    }
    assert_eq!(pits.len(), 9);
    let side = pos.to_move();
    for (i, b) in pits.iter().enumerate() {
        let pit = i as u8 + 1;
        let label = b["label"].as_str().unwrap_or_default();
        assert_eq!(
            label,
            format!("{pit} · {}", pos.pit(side, pit)),
            "label of pit {pit}"
        );
        let enabled = b["disabled"] != true;
        let expected = human_to_move && pos.is_legal(pit);
        assert_eq!(
            enabled,
            expected,
            "pit {pit} enabled iff legal; position ply {}",
            pos.ply()
        );
    }
}

fn is_over(message: &Value) -> bool {
    buttons(message).iter().any(|b| {
        b["custom_id"]
            .as_str()
            .is_some_and(|s| s.starts_with("1rm:"))
    })
}

fn first_enabled_pit(message: &Value) -> Option<(u8, String)> {
    pit_buttons(message)
        .into_iter()
        .enumerate()
        .find_map(|(i, b)| {
            (b["disabled"] != true).then(|| {
                (
                    i as u8 + 1,
                    b["custom_id"].as_str().unwrap_or_default().to_string(),
                )
            })
        })
}

/// The custom_id of the `index`th button on `message`.
fn button_id(fake: &FakeDiscord, message: u64, index: usize) -> String {
    let buttons = buttons(&fake.message(message).expect("the message"));
    buttons[index]["custom_id"]
        .as_str()
        .expect("a custom_id")
        .to_string()
}

/// Starts a challenge from `a` to `b` in the guild; returns the challenge message id.
async fn challenge(fake: &FakeDiscord, a: &User, b: &User) -> u64 {
    challenge_with(fake, a, b, json!([])).await
}

/// A challenge with extra options (`[{"name": "balls", ...}]`).
async fn challenge_with(fake: &FakeDiscord, a: &User, b: &User, extra: Value) -> u64 {
    let mut options = json!([{ "name": "opponent", "type": 6, "value": b.id.to_string() }]);
    options
        .as_array_mut()
        .unwrap()
        .extend(extra.as_array().cloned().unwrap_or_default());
    let (id, call) = slash(
        fake,
        a,
        guild(fake),
        "challenge",
        options,
        std::slice::from_ref(b),
    )
    .await;
    assert_eq!(call.callback_type(), Some(4));
    assert!(!call.is_ephemeral());
    assert!(
        content(&call).starts_with(&b.mention()),
        "the challenged member is mentioned: {}",
        content(&call)
    );
    let message = fake.original_message(id).expect("the challenge message");
    let ids: Vec<String> = buttons(&message)
        .iter()
        .map(|b| b["custom_id"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(ids.len(), 3, "accept, decline, withdraw: {ids:?}");
    id_of(&message)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenge_accept_and_play_to_the_end() {
    let h = Harness::start(Options::default()).await;
    let fake = &h.fake;
    let (alice, bob, carol) = (
        User::new(1001, "Alice"),
        User::new(1002, "Bob"),
        User::new(1003, "Carol"),
    );
    let small_game = json!([{ "name": "balls", "type": 4, "value": 3 }]);
    let message = challenge_with(fake, &alice, &bob, small_game).await;
    let accept = button_id(fake, message, 0);
    assert!(accept.starts_with("1ca:"));

    // A third member may not accept: an ephemeral refusal, the message unchanged.
    let before = fake.message(message).unwrap();
    let call = press(fake, &carol, message, &accept).await;
    assert!(
        call.is_ephemeral() && content(&call).contains("not addressed to you"),
        "{}",
        content(&call)
    );
    assert_eq!(fake.message(message).unwrap(), before);

    // Bob accepts: the challenge message becomes the game board.
    let call = press(fake, &bob, message, &accept).await;
    assert_eq!(call.callback_type(), Some(7));
    assert_eq!(
        call.files.len(),
        1,
        "the board file is sent with the update"
    );
    let mut pos = Position::start(small());
    let mut board = fake.message(message).unwrap();
    check_board(fake, &board, &pos);

    // Both play (the first legal pit) until the game ends; every update is checked.
    let mut moves = 0;
    while !pos.is_over() {
        let text = board["content"].as_str().unwrap_or_default().to_string();
        let mover = if text.contains(&alice.mention()) {
            &alice
        } else {
            &bob
        };
        assert!(
            text.contains(&mover.mention()),
            "the player to move is mentioned: {text}"
        );
        let other = if mover.id == alice.id { &bob } else { &alice };
        let (pit, custom_id) = first_enabled_pit(&board).expect("a legal pit");
        if moves == 3 {
            // The other player pressing is refused and changes nothing.
            let call = press(fake, other, message, &custom_id).await;
            assert!(call.is_ephemeral(), "{}", content(&call));
            assert_eq!(fake.message(message).unwrap(), board);
        }
        let call = press(fake, mover, message, &custom_id).await;
        assert_eq!(
            call.callback_type(),
            Some(7),
            "a move updates the message in place"
        );
        pos.play(pit).expect("the bot accepted a legal move");
        board = fake.message(message).unwrap();
        check_board(fake, &board, &pos);
        moves += 1;
        assert!(moves < 500, "the game does not end");
    }
    let embed = board["embeds"][0]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(
        embed.contains("wins") || embed.contains("drawn"),
        "the result is shown: {embed}"
    );
    // Rematch, Review, Opening (the explorer) and Record, nothing else.
    let after: Vec<Value> = buttons(&board);
    assert_eq!(after.len(), 4);
    assert!(after[0]["custom_id"].as_str().unwrap().starts_with("1rm:"));
    assert!(after[1]["custom_id"].as_str().unwrap().starts_with("1rv:"));
    assert!(after[2]["custom_id"].as_str().unwrap().starts_with("1op:"));
    assert!(after[3]["custom_id"].as_str().unwrap().starts_with("1rc:"));
    assert!(
        !h.log().contains(toguz::testing::discord::TOKEN),
        "the token is never logged"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn decline_and_expiry_edit_the_challenge() {
    let h = Harness::start(Options::default()).await;
    let fake = &h.fake;
    let (alice, bob) = (User::new(1001, "Alice"), User::new(1002, "Bob"));
    // Declined.
    let message = challenge(fake, &alice, &bob).await;
    let decline = button_id(fake, message, 1);
    assert!(decline.starts_with("1cd:"));
    let call = press(fake, &bob, message, &decline).await;
    assert_eq!(call.callback_type(), Some(7));
    let m = fake.message(message).unwrap();
    assert!(m["content"].as_str().unwrap().contains("declined"), "{m}");
    assert!(buttons(&m).is_empty());

    // Expired: the sweeper closes it and the message is edited to say so.
    let h = Harness::start(Options {
        challenge_expiry_secs: 1,
        ..Options::default()
    })
    .await;
    let fake = &h.fake;
    let from = fake.call_count();
    let message = challenge(fake, &bob, &alice).await;
    let path = format!("/channels/{}/messages/{message}", guild(fake).channel());
    fake.wait_call(from, "the expiry edit", |c| {
        c.method == "PATCH" && c.path == path && c.status == 200
    })
    .await;
    let m = fake.message(message).unwrap();
    assert!(m["content"].as_str().unwrap().contains("expired"), "{m}");
    assert!(buttons(&m).is_empty());
    // Accepting now is refused.
    let call = press_forged(fake, &alice, message, &format!("1ca:{}", "zzzzzz")).await;
    assert!(call.is_ephemeral());
}

/// The ply a board was drawn at, read from its pit buttons (`1m:<game>:<ply>:<pit>`).
fn board_ply(message: &Value) -> Option<u16> {
    let id = pit_buttons(message).first()?["custom_id"]
        .as_str()?
        .to_string();
    id.split(':').nth(2)?.parse().ok()
}

/// The pit of the last move in the embed ("Last move: Bot (random), 7(3)X").
fn last_move_pit(message: &Value) -> Option<u8> {
    let text = message["embeds"][0]["description"].as_str()?;
    let line = text.lines().find(|l| l.starts_with("Last move:"))?;
    let notation = line
        .rsplit(", ")
        .find(|p| p.starts_with(|c: char| c.is_ascii_digit()))?;
    notation.chars().next()?.to_digit(10).map(|d| d as u8)
}

/// Plays the bot in a DM to the end; every bot move arrives as an edit of the same message,
/// and every board is checked against a position replayed from both sides' moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_the_bot_in_a_dm_to_the_end() {
    let h = Harness::start(Options::default()).await;
    let fake = &h.fake;
    fake.lift_limits(Lifted::because("a whole game against the bot, each reply an edit of one message: about the game, not the channel's 5 edits per 5 s"));
    let alice = User::new(1001, "Alice");
    let dm = fake.dm_channel(800);
    // Three balls a pit: a whole game, only shorter.
    let options = json!([{ "name": "level", "type": 3, "value": "random" }, { "name": "balls", "type": 4, "value": 3 }]);
    let (id, call) = slash(fake, &alice, dm, "play", options, &[]).await;
    assert_eq!(call.callback_type(), Some(4));
    let message = id_of(&fake.original_message(id).unwrap());
    let path = format!("/channels/800/messages/{message}");
    let mut pos = Position::start(small());
    for _ in 0..400 {
        // Wait until it is my turn or the game is over: the bot's reply is an edit.
        let m = fake
            .wait_for("the bot's move", Duration::from_secs(15), |f| {
                let m = f.message(message)?;
                (is_over(&m) || first_enabled_pit(&m).is_some()).then_some(m)
            })
            .await;
        let bot_moved = if is_over(&m) {
            !pos.is_over()
        } else {
            board_ply(&m) == Some(pos.ply() + 1)
        };
        if bot_moved {
            let pit = last_move_pit(&m).expect("the bot's move is shown");
            pos.play(pit).expect("the bot's move is legal");
        }
        check_board(fake, &m, &pos);
        if is_over(&m) {
            assert!(
                pos.is_over(),
                "the game ended on the board only: {}",
                pos.to_fen()
            );
            break;
        }
        assert_eq!(board_ply(&m), Some(pos.ply()), "{m}");
        let (pit, custom_id) = first_enabled_pit(&m).expect("my move");
        let call = press(fake, &alice, message, &custom_id).await;
        assert_eq!(call.callback_type(), Some(7));
        pos.play(pit).expect("my move is legal");
        check_image(fake, &fake.message(message).unwrap());
    }
    assert!(pos.is_over(), "the game ended");
    assert!(
        fake.calls()
            .iter()
            .any(|c| c.method == "PATCH" && c.path == path),
        "bot moves edit the message"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_forged_and_malformed_buttons_change_nothing() {
    let h = Harness::start(Options::default()).await;
    let fake = &h.fake;
    let (alice, bob) = (User::new(1001, "Alice"), User::new(1002, "Bob"));
    let message = challenge(fake, &alice, &bob).await;
    let accept = button_id(fake, message, 0);
    press(fake, &bob, message, &accept).await;
    let board = fake.message(message).unwrap();
    let mover = if board["content"]
        .as_str()
        .unwrap()
        .contains(&alice.mention())
    {
        &alice
    } else {
        &bob
    };
    let (_, first) = first_enabled_pit(&board).unwrap();
    press(fake, mover, message, &first).await;
    let after = fake.message(message).unwrap();
    let next = if mover.id == alice.id { &bob } else { &alice };
    // The old ply's button again (a client showing the old board), by the player now to move.
    let stale = first.clone();
    for (user, data) in [
        (next, stale.as_str()),
        (next, "1m:zzzzzz:1:3"),
        (next, "garbage"),
        (next, "1m:../../x:1:3"),
        (next, "2m:abc:1:3"),
        (next, &"x".repeat(100)),
    ] {
        let call = press_forged(fake, user, message, data).await;
        assert_eq!(call.callback_type(), Some(4), "{data}");
        assert!(call.is_ephemeral(), "{data}: refusals are ephemeral");
        assert!(!content(&call).is_empty());
        assert_eq!(
            fake.message(message).unwrap(),
            after,
            "{data} changed the board"
        );
    }
    // A double press of the same button: the second is stale.
    let (_, next_button) = first_enabled_pit(&after).unwrap();
    let a = fake.press(next, message, &next_button);
    let b = fake.press_forged(next, message, &next_button);
    let (ca, cb) = (fake.wait_callback(a).await, fake.wait_callback(b).await);
    let kinds = [ca.callback_type(), cb.callback_type()];
    assert!(
        kinds.contains(&Some(7)) && kinds.contains(&Some(4)),
        "one move, one refusal: {kinds:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limits_and_server_errors_are_retried() {
    let h = Harness::start(Options::default()).await;
    let fake = &h.fake;
    let alice = User::new(1001, "Alice");
    let dm = fake.dm_channel(801);
    fake.fail_next(
        "POST",
        "/callback",
        Failure::RateLimit {
            retry_after: 0.3,
            global: false,
        },
        1,
    );
    let from = fake.call_count();
    let id = fake.slash(&alice, dm, "games", json!([]), &[]);
    let ok = fake.wait_callback(id).await;
    let calls = fake.calls();
    let limited = calls[from..]
        .iter()
        .find(|c| c.status == 429)
        .expect("the 429");
    assert!(
        ok.at.duration_since(limited.at) >= Duration::from_millis(290),
        "retry_after honoured"
    );
    // A 502 on the interaction answer, then success.
    fake.fail_next("POST", "/callback", Failure::Server(502), 1);
    let id = fake.slash(&alice, dm, "help", json!([]), &[]);
    let call = fake.wait_callback(id).await;
    assert!(content(&call).contains("toguzqumalak"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn old_buttons_work_after_a_restart() {
    if in_process() {
        return;
    }
    let mut h = Harness::start(Options::default()).await;
    let (alice, bob) = (User::new(1001, "Alice"), User::new(1002, "Bob"));
    let message = challenge(&h.fake, &alice, &bob).await;
    let accept = buttons(&h.fake.message(message).unwrap())[0]["custom_id"]
        .as_str()
        .unwrap()
        .to_string();
    press(&h.fake, &bob, message, &accept).await;
    let mut pos = Position::default();
    let board = h.fake.message(message).unwrap();
    let mover = if board["content"]
        .as_str()
        .unwrap()
        .contains(&alice.mention())
    {
        alice.clone()
    } else {
        bob.clone()
    };
    let (pit, b) = first_enabled_pit(&board).unwrap();
    press(&h.fake, &mover, message, &b).await;
    pos.play(pit).unwrap();

    h.kill();
    h.launch().await;
    let board = h.fake.message(message).unwrap();
    let next = if mover.id == alice.id { &bob } else { &alice };
    let (pit, b) = first_enabled_pit(&board).unwrap();
    let call = press(&h.fake, next, message, &b).await;
    assert_eq!(
        call.callback_type(),
        Some(7),
        "the old message's button works: {}",
        content(&call)
    );
    pos.play(pit).unwrap();
    check_board(&h.fake, &h.fake.message(message).unwrap(), &pos);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_are_registered_without_kazakh_and_refusals_are_ephemeral() {
    let h = Harness::start(Options {
        cooldown_secs: 60,
        ..Options::default()
    })
    .await;
    let fake = &h.fake;
    let commands = fake.global_commands();
    let names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    for name in [
        "challenge",
        "play",
        "board",
        "games",
        "resign",
        "draw",
        "rematch",
        "help",
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    for c in &commands {
        let locales: Vec<&String> = c["name_localizations"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(locales, ["en-GB", "en-US", "ru"], "Discord's locales only");
    }
    // A challenge in a DM is refused; so is challenging oneself, and a second one within the cooldown.
    let (alice, bob, carol) = (
        User::new(1001, "Alice"),
        User::new(1002, "Bob"),
        User::new(1003, "Carol"),
    );
    let options = json!([{ "name": "opponent", "type": 6, "value": bob.id.to_string() }]);
    let (_, call) = slash(
        fake,
        &alice,
        fake.dm_channel(802),
        "challenge",
        options.clone(),
        std::slice::from_ref(&bob),
    )
    .await;
    assert!(call.is_ephemeral());
    let me = json!([{ "name": "opponent", "type": 6, "value": alice.id.to_string() }]);
    let (_, call) = slash(
        fake,
        &alice,
        guild(fake),
        "challenge",
        me,
        std::slice::from_ref(&alice),
    )
    .await;
    assert!(
        call.is_ephemeral() && content(&call).contains("yourself"),
        "{}",
        content(&call)
    );
    challenge(fake, &alice, &bob).await;
    let to_carol = json!([{ "name": "opponent", "type": 6, "value": carol.id.to_string() }]);
    let (_, call) = slash(
        fake,
        &alice,
        guild(fake),
        "challenge",
        to_carol,
        std::slice::from_ref(&carol),
    )
    .await;
    assert!(
        call.is_ephemeral() && content(&call).contains("Wait"),
        "{}",
        content(&call)
    );
    // /help language: Kazakh is remembered for later answers.
    let (_, call) = slash(
        fake,
        &carol,
        guild(fake),
        "help",
        json!([{ "name": "language", "type": 3, "value": "kk" }]),
        &[],
    )
    .await;
    assert!(content(&call).contains("қазақша"), "{}", content(&call));
    let (_, call) = slash(fake, &carol, guild(fake), "games", json!([]), &[]).await;
    assert!(content(&call).contains("ойын"), "{}", content(&call));
}

/// With `mention = "message"` the game message stays quiet and the next player gets a short
/// separate message (a follow-up) that pings only them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn message_style_pings_the_next_player_separately() {
    let h = Harness::start(Options {
        mention: "message",
        ..Options::default()
    })
    .await;
    let fake = &h.fake;
    let (alice, bob) = (User::new(1001, "Alice"), User::new(1002, "Bob"));
    let message = challenge(fake, &alice, &bob).await;
    let accept = button_id(fake, message, 0);
    press(fake, &bob, message, &accept).await;
    let board = fake.message(message).unwrap();
    assert_eq!(board["content"], "", "the board itself pings nobody");
    // Whoever is to move moves; then the other one is pinged by a follow-up.
    let (_, pit) = first_enabled_pit(&board).unwrap();
    let from = fake.call_count();
    let call = press(fake, &alice, message, &pit).await;
    if call.callback_type() != Some(7) {
        press(fake, &bob, message, &pit).await;
    }
    let ping = fake
        .wait_call(from, "the turn message", |c| {
            c.method == "POST" && c.path.starts_with("/webhooks/")
        })
        .await;
    let body = ping.json.clone().unwrap();
    let text = body["content"].as_str().unwrap();
    let pinged: Vec<String> = body["allowed_mentions"]["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            u.as_str()
                .map(str::to_string)
                .unwrap_or_else(|| u.to_string())
        })
        .collect();
    assert_eq!(pinged.len(), 1);
    assert!(text.contains(&format!("<@{}>", pinged[0])), "{text}");
}

/// Discord failing the edit that shows the bot's move for longer than the REST retries last:
/// the edit is tried again later, until the board shows the game as it is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_edit_of_the_bots_move_is_drawn_again_later() {
    let h = Harness::start(Options::default()).await;
    let fake = &h.fake;
    let alice = User::new(1001, "Alice");
    let dm = fake.dm_channel(803);
    let options = json!([{ "name": "level", "type": 3, "value": "random" }]);
    let (id, _) = slash(fake, &alice, dm, "play", options, &[]).await;
    let message = id_of(&fake.original_message(id).unwrap());
    let mine = fake
        .wait_for("my turn", Duration::from_secs(15), |f| {
            let m = f.message(message)?;
            first_enabled_pit(&m).is_some().then_some(m)
        })
        .await;
    let ply = board_ply(&mine).expect("the board's ply");
    // Every edit of this message fails nine times in a row: more than the four attempts of
    // one request, even with the two redraws (after my move, after the bot's) both trying.
    let path = format!("/messages/{message}");
    fake.fail_next("PATCH", &path, Failure::Server(500), 9);
    let (_, custom_id) = first_enabled_pit(&mine).unwrap();
    let call = press(fake, &alice, message, &custom_id).await;
    assert_eq!(call.callback_type(), Some(7), "my move is answered at once");

    let caught_up = fake
        .wait_for("the redrawn board", Duration::from_secs(20), |f| {
            let m = f.message(message)?;
            (board_ply(&m) == Some(ply + 2)).then_some(m)
        })
        .await;
    check_image(fake, &caught_up);
    let statuses: Vec<u16> = fake
        .calls()
        .iter()
        .filter(|c| c.method == "PATCH" && c.path.ends_with(&path))
        .map(|c| c.status)
        .collect();
    assert_eq!(
        statuses.iter().filter(|&&s| s == 500).count(),
        9,
        "{statuses:?}"
    );
    assert_eq!(statuses.last(), Some(&200), "{statuses:?}");
    assert!(
        in_process() || h.log().contains("will redraw the game again"),
        "a later redraw: {}",
        h.log()
    );
}

/// `/challenge opponent:` naming a bot account is refused for any bot (Discord marks them
/// `bot: true`), not only ours: another application's bot cannot play at all, ours is played
/// with /play. Nothing public is posted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenging_any_bot_account_is_refused() {
    let h = Harness::start(Options::default()).await;
    let fake = &h.fake;
    let alice = User::new(1001, "Alice");
    let other_bot = User::bot_account(4_000_000_000_000_000_001, "Mee6");
    let ours = User::bot_account(toguz::testing::discord::APP_ID, "toguz");
    for (bot, expected) in [
        (&other_bot, "Mee6 is a bot and cannot play"),
        (&ours, "start a game against it"),
    ] {
        let options = json!([{ "name": "opponent", "type": 6, "value": bot.id.to_string() }]);
        let (_, call) = slash(
            fake,
            &alice,
            guild(fake),
            "challenge",
            options,
            std::slice::from_ref(bot),
        )
        .await;
        assert!(
            call.is_ephemeral() && content(&call).contains(expected),
            "{}",
            content(&call)
        );
    }
    let public: Vec<Value> = fake
        .channel_messages(guild(fake).channel())
        .into_iter()
        .filter(|m| m["flags"].as_u64().unwrap_or(0) & 64 == 0)
        .collect();
    assert!(public.is_empty(), "no challenge was posted: {public:?}");
}

/// The member to move on a board (the one it mentions).
fn mover<'a>(board: &Value, a: &'a User, b: &'a User) -> &'a User {
    if board["content"]
        .as_str()
        .unwrap_or_default()
        .contains(&a.mention())
    {
        a
    } else {
        b
    }
}

/// A game shown in two channels; the edits of the second board wait out two 429s each.
/// Six moves made meanwhile (six events) cost one more edit, of the newest board, not one
/// edit per event; and the presses are answered in place all along.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_piling_up_behind_a_slow_edit_cost_one_edit_of_the_newest_board() {
    let h = Harness::start(Options::default()).await;
    let fake = &h.fake;
    let (alice, bob) = (User::new(1001, "Alice"), User::new(1002, "Bob"));
    let message = challenge(fake, &alice, &bob).await;
    let accept = button_id(fake, message, 0);
    press(fake, &bob, message, &accept).await;
    let elsewhere = fake.guild_channel(GUILD, 701);
    let (id, call) = slash(fake, &alice, elsewhere, "board", json!([]), &[]).await;
    assert_eq!(call.callback_type(), Some(4));
    let second = id_of(&fake.original_message(id).expect("the second board"));
    fake.fail_next(
        "PATCH",
        "/channels/701/",
        Failure::RateLimit {
            retry_after: 1.0,
            global: false,
        },
        2,
    );
    let from = fake.call_count();
    let mut pos = Position::default();
    for _ in 0..6 {
        let board = fake.message(message).unwrap();
        let (pit, custom_id) = first_enabled_pit(&board).expect("a legal pit");
        let call = press(fake, mover(&board, &alice, &bob), message, &custom_id).await;
        assert_eq!(call.callback_type(), Some(7));
        pos.play(pit).expect("a legal move");
    }
    let caught_up = fake
        .wait_for("the second board", Duration::from_secs(20), |f| {
            let m = f.message(second)?;
            (board_ply(&m) == Some(pos.ply())).then_some(m)
        })
        .await;
    check_board(fake, &caught_up, &pos);
    let path = format!("/channels/701/messages/{second}");
    let edits = fake.calls()[from..]
        .iter()
        .filter(|c| c.method == "PATCH" && c.path == path && c.status == 200)
        .count();
    assert!(
        (1..=2).contains(&edits),
        "{edits} edits of the second board for six events:\n{}",
        fake.describe_calls()
    );
}

/// An answer Discord refuses as too late ("Unknown interaction": the event reached the bot
/// after its 3 s) would leave a stored challenge that nobody sees: it is posted in the
/// channel instead, once, and can be accepted there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_answered_too_late_is_posted_in_the_channel() {
    let h = Harness::start(Options::default()).await;
    let fake = &h.fake;
    let (alice, bob) = (User::new(1001, "Alice"), User::new(1002, "Bob"));
    let place = guild(fake);
    fake.fail_next("POST", "/callback", Failure::UnknownInteraction, 1);
    let options = json!([{ "name": "opponent", "type": 6, "value": bob.id.to_string() }]);
    let id = fake.slash(
        &alice,
        place,
        "challenge",
        options,
        std::slice::from_ref(&bob),
    );
    let posted = fake
        .wait_for(
            "the challenge posted in the channel",
            Duration::from_secs(15),
            |f| {
                f.channel_messages(place.channel())
                    .into_iter()
                    .find(|m| !buttons(m).is_empty())
            },
        )
        .await;
    assert!(fake.callback(id).is_none(), "Discord took no answer");
    let text = posted["content"].as_str().unwrap_or_default();
    assert!(
        text.starts_with(&bob.mention()),
        "the challenged member is mentioned: {text}"
    );
    let accept = buttons(&posted)[0]["custom_id"]
        .as_str()
        .expect("a custom_id")
        .to_string();
    assert!(accept.starts_with("1ca:"), "{accept}");
    // Posted once, and it works like any challenge message.
    let with_buttons = fake
        .channel_messages(place.channel())
        .into_iter()
        .filter(|m| !buttons(m).is_empty())
        .count();
    assert_eq!(with_buttons, 1);
    // Bob's accept comes too late for Discord as well: the game's worker still turns the
    // challenge message into the board (an edit of the channel message).
    fake.fail_next("POST", "/callback", Failure::UnknownInteraction, 1);
    let press = fake.press(&bob, id_of(&posted), &accept);
    let board = fake
        .wait_for(
            "the board on the challenge message",
            Duration::from_secs(15),
            |f| {
                f.message(id_of(&posted))
                    .filter(|m| !pit_buttons(m).is_empty())
            },
        )
        .await;
    assert!(fake.callback(press).is_none(), "Discord took no answer");
    assert!(board["content"].as_str().is_some_and(|c| !c.is_empty()));
}

/// Alice challenges Bob in `place` without waiting for the answer; the interaction's id.
fn send_challenge(fake: &FakeDiscord, place: Place, alice: &User, bob: &User) -> u64 {
    let options = json!([{ "name": "opponent", "type": 6, "value": bob.id.to_string() }]);
    fake.slash(
        alice,
        place,
        "challenge",
        options,
        std::slice::from_ref(bob),
    )
}

/// The channel's messages that have buttons.
fn with_buttons(fake: &FakeDiscord, place: Place) -> Vec<Value> {
    fake.channel_messages(place.channel())
        .into_iter()
        .filter(|m| !buttons(m).is_empty())
        .collect()
}

/// Discord failing the answer to a challenge more often than the REST gate retries: the
/// challenge is stored, so the answer is tried again until Discord takes it (or says it is
/// too late, and it is posted in the channel): shown once, never lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_whose_answer_fails_past_the_retries_is_still_shown_once() {
    let h = Harness::start(Options::default()).await;
    let fake = &h.fake;
    let (alice, bob) = (User::new(1001, "Alice"), User::new(1002, "Bob"));
    let place = guild(fake);
    // The gate sends a request once and retries it three times.
    fake.fail_next("POST", "/callback", Failure::Server(503), 4);
    send_challenge(fake, place, &alice, &bob);
    let shown = fake
        .wait_for("the challenge shown", Duration::from_secs(20), |f| {
            let found = with_buttons(f, place);
            (!found.is_empty()).then_some(found)
        })
        .await;
    assert!(buttons(&shown[0])[0]["custom_id"]
        .as_str()
        .is_some_and(|id| id.starts_with("1ca:")));
    // Bob accepts. The accept waits for the challenge's lock, held from posting the
    // challenge until its message is attached, so the board on that message is the sign
    // that every try at the answer is over. Whichever way it went out, once: the board is
    // the only message with buttons (a second copy would still offer "Accept").
    let message = id_of(&shown[0]);
    let accept = button_id(fake, message, 0);
    fake.press(&bob, message, &accept);
    fake.wait_for(
        "the board on the challenge message",
        Duration::from_secs(15),
        |f| f.message(message).filter(|m| !pit_buttons(m).is_empty()),
    )
    .await;
    let now = with_buttons(fake, place);
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(id_of(&now[0]), message);
}

/// Alice challenges Bob; reading back the answer's message id fails one round of the gate's
/// four tries, so the id is known only after about 2.3 s. Returns the challenge message.
async fn challenge_read_back_slowly(fake: &FakeDiscord, alice: &User, bob: &User) -> u64 {
    fake.fail_next("GET", "/messages/@original", Failure::Server(500), 4);
    let id = send_challenge(fake, guild(fake), alice, bob);
    fake.wait_for("the challenge answer", Duration::from_secs(15), |f| {
        f.original_message(id).map(|m| id_of(&m))
    })
    .await
}

/// The answer went out but reading back its message id failed past the gate's retries:
/// without the id the challenge message would not be attached, and a later change (the
/// accept whose own answer Discord refused) would never reach it. It is asked again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_whose_id_could_not_be_read_back_at_once_still_follows_the_game() {
    let h = Harness::start(Options::default()).await;
    let fake = &h.fake;
    let (alice, bob) = (User::new(1001, "Alice"), User::new(1002, "Bob"));
    let message = challenge_read_back_slowly(fake, &alice, &bob).await;
    let accept = button_id(fake, message, 0);
    // The id is read back after the pauses; the accept comes once it has been.
    fake.wait_call(0, "the id read back", |c| {
        c.method == "GET" && c.path.ends_with("/messages/@original") && c.status == 200
    })
    .await;
    fake.fail_next("POST", "/callback", Failure::UnknownInteraction, 1);
    fake.press(&bob, message, &accept);
    fake.wait_for(
        "the board on the challenge message",
        Duration::from_secs(15),
        |f| f.message(message).filter(|m| !pit_buttons(m).is_empty()),
    )
    .await;
}

/// The long soak's lost board. The accept comes while the challenge's message id is still
/// being read back (the read fails for two seconds): the accept goes ahead after its wait
/// for the challenge's lock, and the read-back lands while the accept's answer (the board)
/// is on its way. It must not take the message for a challenge again: then the game's
/// worker "redraws" it with the same board, that edit is held up by a 429 while the next
/// move is answered, lands after that answer and puts back the older board, and the worker
/// counts the message as up to date. The players are left on a board a move behind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accept_during_a_slow_read_back_keeps_the_newest_board_on_the_message() {
    let h = Harness::start(Options::default()).await;
    let fake = &h.fake;
    let (alice, bob) = (User::new(1001, "Alice"), User::new(1002, "Bob"));
    let message = challenge_read_back_slowly(fake, &alice, &bob).await;
    // The accept's answer waits out a 429 (the read-back lands meanwhile); an edit of the
    // message by the game's worker would wait out a longer one.
    let slow = |retry_after| Failure::RateLimit {
        retry_after,
        global: false,
    };
    fake.fail_next("POST", "/callback", slow(1.0), 1);
    fake.fail_next("PATCH", &format!("/messages/{message}"), slow(2.0), 1);
    let accept = button_id(fake, message, 0);
    fake.press(&bob, message, &accept);
    let board = fake
        .wait_for(
            "the board on the challenge message",
            Duration::from_secs(15),
            |f| f.message(message).filter(|m| !pit_buttons(m).is_empty()),
        )
        .await;
    let (_, first_move) = first_enabled_pit(&board).expect("a legal pit");
    let call = press(fake, mover(&board, &alice, &bob), message, &first_move).await;
    assert_eq!(call.callback_type(), Some(7));
    let moved = board_ply(&fake.message(message).expect("the message"));
    assert_eq!(moved, board_ply(&board).map(|p| p + 1), "the move is shown");
    let from = fake.call_count();
    // The positive sign that nothing is still on its way: a resignation by slash command is
    // drawn by the game's one worker, after whatever it had under way for this message.
    let resign = fake.slash(&alice, guild(fake), "resign", json!([]), &[]);
    fake.wait_callback(resign).await;
    fake.wait_for("the final board", Duration::from_secs(15), |f| {
        let m = f.message(message)?;
        let over = buttons(&m).iter().any(|b| {
            b["custom_id"]
                .as_str()
                .is_some_and(|c| c.starts_with("1rv:"))
        });
        over.then_some(())
    })
    .await;
    // Meanwhile no edit took the message back to a board older than the move.
    let edit = format!("/messages/{message}");
    for call in &fake.calls()[from..] {
        let shown = call.json.as_ref().and_then(board_ply);
        let landed = call.method == "PATCH" && call.path.ends_with(&edit) && call.status == 200;
        assert!(
            !landed || shown.is_none() || shown >= moved,
            "an older board landed after the move: {}",
            fake.describe_calls_about(&[message.to_string()])
        );
    }
}

/// A board left behind (its edit was refused, so the game's worker let it be) is redrawn
/// when someone presses a button on it, as Telegram does: the press is refused as stale
/// and the board catches up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_press_on_a_lagging_board_is_refused_and_redraws_it() {
    let h = Harness::start(Options::default()).await;
    let fake = &h.fake;
    let alice = User::new(1001, "Alice");
    let dm = fake.dm_channel(804);
    let options = json!([{ "name": "level", "type": 3, "value": "random" }]);
    let (id, _) = slash(fake, &alice, dm, "play", options, &[]).await;
    let message = id_of(&fake.original_message(id).unwrap());
    let mine = fake
        .wait_for("my turn", Duration::from_secs(15), |f| {
            let m = f.message(message)?;
            first_enabled_pit(&m).is_some().then_some(m)
        })
        .await;
    let ply = board_ply(&mine).expect("the board's ply");
    // My move is answered through the interaction; the edit that shows the bot's reply is
    // refused once (403 is no reason to try again), so the board lags a move behind.
    let path = format!("/messages/{message}");
    fake.fail_next("PATCH", &path, Failure::MissingAccess, 1);
    let (_, custom_id) = first_enabled_pit(&mine).unwrap();
    let from = fake.call_count();
    assert_eq!(
        press(fake, &alice, message, &custom_id)
            .await
            .callback_type(),
        Some(7)
    );
    fake.wait_call(from, "the refused edit", |c| {
        c.method == "PATCH" && c.path.ends_with(&path) && c.status == 403
    })
    .await;
    let lagging = fake.message(message).unwrap();
    assert!(
        first_enabled_pit(&lagging).is_none(),
        "the bot's turn shown: {lagging}"
    );
    let action = buttons(&lagging)
        .into_iter()
        .filter_map(|b| b["custom_id"].as_str().map(str::to_string))
        .find(|id| id.starts_with("1r:") || id.starts_with("1d:"))
        .expect("a resign or draw button on the lagging board");

    let call = press(fake, &alice, message, &action).await;
    assert!(
        call.is_ephemeral(),
        "a stale press is refused: {}",
        content(&call)
    );
    let caught_up = fake
        .wait_for("the redrawn board", Duration::from_secs(10), |f| {
            let m = f.message(message)?;
            (board_ply(&m) == Some(ply + 2)).then_some(m)
        })
        .await;
    assert!(!is_over(&caught_up), "the stale press resigned nothing");
    check_image(fake, &caught_up);
}

/// The game's id, from a board's move buttons (`1m:<game>:...`).
fn game_id(board: &Value) -> String {
    buttons(board)
        .iter()
        .find_map(|b| {
            let data = b["custom_id"].as_str()?.strip_prefix("1m:")?;
            data.split(':').next().map(str::to_string)
        })
        .expect("the game id")
}

/// Issue 31, item 13: spectators asking for a game's board in seven other channels never
/// push the players' own boards out of the game's places: a move still redraws both of the
/// players' boards, and the spectators' newest boards too. Before, a seventh place pushed
/// out the oldest, the players' own board in the channel they play in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_boards_never_push_the_players_boards_out() {
    let h = Harness::start(Options::default()).await;
    let fake = &h.fake;
    let (alice, bob) = (User::new(1001, "Alice"), User::new(1002, "Bob"));
    let message = challenge(fake, &alice, &bob).await;
    let accept = button_id(fake, message, 0);
    press(fake, &bob, message, &accept).await;
    let game = game_id(&fake.message(message).expect("the board"));
    // Alice keeps a second board of her own in another channel.
    let (id, _) = slash(
        fake,
        &alice,
        fake.guild_channel(GUILD, 701),
        "board",
        json!([]),
        &[],
    )
    .await;
    let second = id_of(&fake.original_message(id).expect("alice's second board"));
    let mut spectators = Vec::new();
    for n in 0..7 {
        let watcher = User::new(2000 + n, &format!("Watcher{n}"));
        let place = fake.guild_channel(GUILD, 710 + n);
        let option = json!([{ "name": "game", "type": 3, "value": game }]);
        let (id, call) = slash(fake, &watcher, place, "board", option, &[]).await;
        assert_eq!(call.callback_type(), Some(4), "{}", content(&call));
        spectators.push(id_of(
            &fake.original_message(id).expect("a spectator's board"),
        ));
    }
    let board = fake.message(message).unwrap();
    let (pit, custom_id) = first_enabled_pit(&board).expect("a legal pit");
    let call = press(fake, mover(&board, &alice, &bob), message, &custom_id).await;
    assert_eq!(call.callback_type(), Some(7), "{}", content(&call));
    let mut pos = Position::default();
    pos.play(pit).expect("a legal move");
    check_board(fake, &fake.message(message).expect("the board"), &pos);
    // The spectators' six newest boards and Alice's second one follow the move.
    for shown in spectators.iter().skip(1).chain([&second]) {
        let redrawn = fake
            .wait_for("a board redrawn", Duration::from_secs(15), |f| {
                let m = f.message(*shown)?;
                (board_ply(&m) == Some(1)).then_some(m)
            })
            .await;
        check_board(fake, &redrawn, &pos);
    }
}

/// A board speaks the language of the player to move, as their Discord client reported it
/// (neither chose one with /lang), whoever pressed: Alice's press leaves a board in Bob's
/// Russian when it is Bob's turn, and his press one in her English. The languages come with
/// the manager's view (issue 32), not from a lookup of the presser.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_speaks_the_client_language_of_the_player_to_move() {
    let h = Harness::start(Options::default()).await;
    let fake = &h.fake;
    let (alice, bob) = (User::new(1011, "Alice"), User::new(1012, "Bob"));
    fake.set_locale(&bob, "ru");
    let message = challenge(fake, &alice, &bob).await;
    let accept = button_id(fake, message, 0);
    press(fake, &bob, message, &accept).await;
    for _ in 0..4 {
        let board = fake.message(message).unwrap();
        let text = board["content"].as_str().unwrap_or_default().to_string();
        let (mover, words) = if text.contains(&alice.mention()) {
            (&alice, "your move in game")
        } else {
            (&bob, "ваш ход в партии")
        };
        assert!(text.contains(words), "{text}");
        let (_, pit) = first_enabled_pit(&board).expect("a legal pit");
        let call = press(fake, mover, message, &pit).await;
        assert_eq!(call.callback_type(), Some(7), "{}", content(&call));
    }
}
