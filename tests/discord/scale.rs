//! Two `toguz run` processes on one PostgreSQL database (issue 15), each running its own
//! range of Discord shards against the fake gateway: a game started in a server of one
//! process is shown and played in a server of the other, each process's change redraws the
//! other's message, and after one process is SIGKILLed the other carries on with the game.

use serde_json::{json, Value};
use std::time::Duration;
use toguz::testing::discord::bot::{BotProcess, Options};
use toguz::testing::discord::{buttons, id_of, FakeDiscord, User};
use toguz::testing::pg;

/// A guild id whose events Discord sends to `shard` of 2 (`(id >> 22) % 2`).
fn guild_on_shard(shard: u64) -> u64 {
    let base = 910_000_000_000_000_000u64;
    (0..2)
        .map(|i| base + (i << 22))
        .find(|g| (g >> 22) % 2 == shard)
        .unwrap_or(base)
}

fn node(fake: &FakeDiscord, url: &str, shard: u64) -> (BotProcess, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let opts = Options {
        shards: format!("{{ first = {shard}, last = {shard}, total = 2 }}"),
        storage: format!("backend = \"postgres\"\nurl = {url:?}\npool_size = 4"),
        ..Options::default()
    };
    (BotProcess::start(fake, dir.path(), &opts), dir)
}

/// The game's ply on a board message, from its pit buttons (`1m:<game>:<ply>:<pit>`).
fn ply_of(message: &Value) -> Option<u16> {
    buttons(message).iter().find_map(|b| {
        let id = b["custom_id"].as_str()?;
        id.strip_prefix("1m:")?.split(':').nth(1)?.parse().ok()
    })
}

/// The player to move (mentioned in the board's content) presses the first legal pit of
/// board `message`; the move must be applied and the message show the next ply.
async fn move_on(fake: &FakeDiscord, message: u64, players: [&User; 2]) -> u16 {
    let board = fake.message(message).expect("the board");
    let ply = ply_of(&board).expect("a board with pits");
    let call = fake.press_first_pit(message, players).await;
    assert_eq!(
        call.callback_type(),
        Some(7),
        "the move was refused: {call:?}"
    );
    let next = ply + 1;
    fake.wait_for("the moved board", Duration::from_secs(15), |f| {
        (ply_of(&f.message(message)?) == Some(next)).then_some(())
    })
    .await;
    next
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_with_shard_ranges_share_one_game_and_survive_a_crash() {
    let Some(options) = pg::fresh().await else {
        return;
    };
    let fake = FakeDiscord::start().await;
    let (mut first, _dir0) = node(&fake, &options.url, 0);
    let (_second, _dir1) = node(&fake, &options.url, 1);
    fake.wait_ready(2).await;
    assert_eq!(fake.connected_shards(), [[0, 2], [1, 2]]);
    let (alice, bob) = (User::new(1001, "Alice"), User::new(1002, "Bob"));
    let players = [&alice, &bob];

    // A challenge in a server of shard 0 (the first process).
    let here = fake.guild_channel(guild_on_shard(0), 731);
    let opponent = json!([{ "name": "opponent", "type": 6, "value": bob.id.to_string() }]);
    let id = fake.slash(
        &alice,
        here,
        "challenge",
        opponent,
        std::slice::from_ref(&bob),
    );
    fake.wait_callback(id).await;
    let board = id_of(&fake.original_message(id).expect("the challenge"));
    let accept = buttons(&fake.message(board).expect("the challenge"))
        .iter()
        .filter_map(|b| b["custom_id"].as_str())
        .find(|c| c.starts_with("1ca:"))
        .expect("an accept button")
        .to_string();
    let call = fake.wait_callback(fake.press(&bob, board, &accept)).await;
    assert_eq!(
        call.callback_type(),
        Some(7),
        "the challenge becomes the board"
    );
    move_on(&fake, board, players).await;
    let game = buttons(&fake.message(board).expect("the board"))
        .iter()
        .find_map(|b| {
            b["custom_id"]
                .as_str()?
                .strip_prefix("1m:")?
                .split(':')
                .next()
                .map(str::to_string)
        })
        .expect("the game id");

    // `/board game:` in a server of shard 1 (the second process) shows it from the store.
    let there = fake.guild_channel(guild_on_shard(1), 732);
    let option = json!([{ "name": "game", "type": 3, "value": game }]);
    let id = fake.slash(&bob, there, "board", option, &[]);
    let call = fake.wait_callback(id).await;
    assert_eq!(call.callback_type(), Some(4), "{call:?}");
    let copy = id_of(&fake.original_message(id).expect("the board copy"));
    assert_eq!(ply_of(&fake.message(copy).expect("copy")), Some(1));

    // A move there, by the second process: the first server's message follows.
    move_on(&fake, copy, players).await;
    fake.wait_for("the first message redrawn", Duration::from_secs(15), |f| {
        (ply_of(&f.message(board)?) == Some(2)).then_some(())
    })
    .await;
    // And a move on the first message, by the first process: the copy follows.
    move_on(&fake, board, players).await;
    fake.wait_for("the copy redrawn", Duration::from_secs(15), |f| {
        (ply_of(&f.message(copy)?) == Some(3)).then_some(())
    })
    .await;

    // The first process dies; the game goes on in the second one's server.
    first.kill();
    assert_eq!(move_on(&fake, copy, players).await, 4);
    assert_eq!(move_on(&fake, copy, players).await, 5);
}
