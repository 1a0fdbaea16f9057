//! Issue 51: conditional premoves on Discord, end to end (docs/premoves.md). The Premoves
//! button under a 2-day game's board opens the presser's builder as an ephemeral reply (only
//! they see it); its keys update it in place; the opponent's move is answered at once and
//! the board shows both; a move off every line clears the queue; a stranger is refused.

use serde_json::{json, Value};
use std::time::Duration;
use toguz::testing::discord::bot::{BotProcess, Options};
use toguz::testing::discord::{buttons, id_of, to_move, FakeDiscord, User};

const WAIT: Duration = Duration::from_secs(15);

fn content(message: &Value) -> String {
    message["content"].as_str().unwrap_or_default().to_string()
}

/// The custom_id of the button labelled `label`, or starting with `prefix` when `label`
/// is empty.
fn button(message: &Value, label: &str, prefix: &str) -> Option<String> {
    buttons(message).into_iter().find_map(|b| {
        let id = b["custom_id"].as_str()?;
        let hit = match label {
            "" => id.starts_with(prefix),
            l => b["label"] == l && id.starts_with(prefix),
        };
        hit.then(|| id.to_string())
    })
}

/// The ply a board's pit buttons carry (`1m:<game>:<ply>:<pit>`).
fn board_ply(message: &Value) -> Option<u16> {
    let id = button(message, "", "1m:")?;
    id.split(':').nth(2)?.parse().ok()
}

/// Presses `label` on `user`'s builder `builder`: the builder once updated.
async fn key(fake: &FakeDiscord, user: &User, builder: u64, label: &str) -> Value {
    let message = fake.message(builder).expect("the builder");
    let data =
        button(&message, label, "1pe:").unwrap_or_else(|| panic!("no key {label}: {message}"));
    let press = fake.press(user, builder, &data);
    let call = fake.wait_callback(press).await;
    assert_eq!(
        call.callback_type(),
        Some(7),
        "the builder is updated in place"
    );
    fake.message(builder).expect("the builder")
}

/// `user` presses Premoves on `board`: the interaction's answer (its id and message).
async fn open(fake: &FakeDiscord, user: &User, board: u64) -> (u64, Value) {
    let board_msg = fake.message(board).expect("the board");
    let data = button(&board_msg, "Premoves", "1pm:").expect("a Premoves button");
    let press = fake.press(user, board, &data);
    let call = fake.wait_callback(press).await;
    assert!(call.is_ephemeral(), "only the presser sees it");
    let answer = fake
        .original_message(press)
        .unwrap_or_else(|| json!({ "content": call.message_data().map(|d| d["content"].clone()) }));
    (press, answer)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_premove_set_in_the_ephemeral_builder_answers_the_opponents_move() {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let _bot = BotProcess::start(&fake, dir.path(), &Options::default());
    fake.wait_ready(1).await;
    let (alice, bob, carol) = (
        User::new(1051, "Alice"),
        User::new(1052, "Bob"),
        User::new(1053, "Carol"),
    );
    let channel = fake.guild_channel(5100, 751);
    let options = json!([
        { "name": "opponent", "type": 6, "value": bob.id.to_string() },
        { "name": "time", "type": 3, "value": "2d" },
    ]);
    let id = fake.slash(
        &alice,
        channel,
        "challenge",
        options,
        std::slice::from_ref(&bob),
    );
    fake.wait_callback(id).await;
    let board = id_of(&fake.original_message(id).expect("the challenge"));
    let accept = button(&fake.message(board).unwrap(), "", "1ca:").expect("Accept");
    fake.wait_callback(fake.press(&bob, board, &accept)).await;
    let first = fake
        .wait_for("the board", WAIT, |f| {
            let m = f.message(board)?;
            (board_ply(&m) == Some(0)).then_some(m)
        })
        .await;
    let white = to_move(&first, [&alice, &bob])
        .expect("someone to move")
        .clone();
    let black = if white.id == alice.id {
        bob.clone()
    } else {
        alice.clone()
    };

    // A stranger and the player to move are refused, privately.
    let (_, refused) = open(&fake, &carol, board).await;
    assert!(content(&refused).contains("not playing"), "{refused}");
    let (_, refused) = open(&fake, &white, board).await;
    assert!(content(&refused).contains("It is your move"), "{refused}");

    // Black's builder: if White plays 3, Black plays 7.
    let (press, builder) = open(&fake, &black, board).await;
    assert!(content(&builder).contains("No lines yet"), "{builder}");
    let builder = id_of(&fake.original_message(press).expect("the builder"));
    key(&fake, &black, builder, "3").await;
    let drawn = key(&fake, &black, builder, "7").await;
    assert!(content(&drawn).contains("New line: 3 → 7"), "{drawn}");
    let drawn = key(&fake, &black, builder, "Add line").await;
    assert!(content(&drawn).contains("1. 3 → 7"), "{drawn}");

    // White plays 3: the board comes back at White's turn, two plies on.
    let pit3 = format!("1m:{}:0:3", accept_game(&first));
    let call = fake.wait_callback(fake.press(&white, board, &pit3)).await;
    assert_eq!(call.callback_type(), Some(7));
    let after = fake
        .wait_for("the reply on the board", WAIT, |f| {
            let m = f.message(board)?;
            (board_ply(&m) == Some(2)).then_some(m)
        })
        .await;
    assert_eq!(
        to_move(&after, [&alice, &bob]).map(|u| u.id),
        Some(white.id)
    );

    // A new line, then a move off it: nothing is played, the queue is empty.
    let (press, _) = open(&fake, &black, board).await;
    let builder = id_of(&fake.original_message(press).expect("the builder"));
    key(&fake, &black, builder, "5").await;
    key(&fake, &black, builder, "5").await;
    let drawn = key(&fake, &black, builder, "Add line").await;
    assert!(content(&drawn).contains("1. 5 → 5"), "{drawn}");
    let off = format!("1m:{}:2:4", accept_game(&first));
    fake.wait_callback(fake.press(&white, board, &off)).await;
    fake.wait_for("Black to move", WAIT, |f| {
        let m = f.message(board)?;
        (board_ply(&m) == Some(3)).then_some(())
    })
    .await;
    // The old builder's keys are stale now; a new one shows no lines (and Black's turn).
    let stale = fake.press(
        &black,
        builder,
        &button(&drawn, "Clear all", "1pe:").unwrap(),
    );
    let call = fake.wait_callback(stale).await;
    assert!(call.is_ephemeral(), "a refusal, privately");
    let (_, refused) = open(&fake, &black, board).await;
    assert!(content(&refused).contains("It is your move"), "{refused}");
}

/// The game id on a board's buttons.
fn accept_game(board: &Value) -> String {
    let id = button(board, "", "1m:").expect("a pit button");
    id.split(':').nth(1).unwrap_or_default().to_string()
}
