//! Hints on Discord, end to end (the real `toguz run` against the fake Discord): the Hint
//! button under the board of a game against the bot is answered within Discord's 3 s with
//! a public message showing the board with the engine's move (`board.png`); the board's
//! button counts down, and a fourth press is refused privately.

use serde_json::{json, Value};
use std::time::Duration;
use toguz::testing::discord::bot::{BotProcess, Options};
use toguz::testing::discord::{buttons, id_of, is_valid_png, FakeDiscord, User};

/// The Hint button of a message: (label, custom_id).
fn hint_button(message: &Value) -> Option<(String, String)> {
    buttons(message).into_iter().find_map(|b| {
        let id = b["custom_id"].as_str()?;
        id.starts_with("1h:").then(|| {
            (
                b["label"].as_str().unwrap_or_default().to_string(),
                id.to_string(),
            )
        })
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_hints_by_button_then_a_private_refusal() {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let opts = Options {
        extra: "[review]\nnodes = 2000\n".into(),
        ..Options::default()
    };
    let _bot = BotProcess::start(&fake, dir.path(), &opts);
    fake.wait_ready(1).await;
    let alice = User::new(1011, "Alice");
    let dm = fake.dm_channel(811);
    let options = json!([{ "name": "level", "type": 3, "value": "random" }]);
    let id = fake.slash(&alice, dm, "play", options, &[]);
    fake.wait_callback(id).await;
    let board = id_of(&fake.original_message(id).expect("the board"));
    // Alice's turn (the bot may open the game): the board offers three hints.
    let (label, data) = fake
        .wait_for("a Hint button", Duration::from_secs(15), |f| {
            hint_button(&f.message(board)?)
        })
        .await;
    assert_eq!(label, "Hint (3 left)");
    for left in [2usize, 1, 0] {
        let press = fake.press(&alice, board, &data);
        let call = fake.wait_callback(press).await;
        assert_eq!(call.callback_type(), Some(4), "a new message");
        assert!(!call.is_ephemeral());
        let hint = fake.original_message(press).expect("the hint message");
        assert_ne!(
            id_of(&hint),
            board,
            "the board itself is redrawn, not replaced"
        );
        let attachments = hint["attachments"].as_array().cloned().unwrap_or_default();
        assert_eq!(attachments.len(), 1, "{hint}");
        assert_eq!(attachments[0]["filename"], "board.png");
        assert!(is_valid_png(&fake.attachment_bytes(&attachments[0])));
        let caption = hint["embeds"][0]["description"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(caption.starts_with("Hint: play pit "), "{caption}");
        let told = [
            "That was your last hint",
            "You have one hint left",
            "You have 2 hints left",
        ];
        assert!(caption.contains(told[left]), "{caption}");
        // The board's button counts down (and is gone after the last).
        let want = (left > 0).then(|| format!("Hint ({left} left)"));
        fake.wait_for("the board redrawn", Duration::from_secs(15), |f| {
            let now = hint_button(&f.message(board)?).map(|(l, _)| l);
            (now == want).then_some(())
        })
        .await;
    }
    // The button is gone; its data sent anyway (a press racing the redraw, or a modified
    // client) is refused privately, and nothing is posted.
    let press = fake.press_forged(&alice, board, &data);
    let call = fake.wait_callback(press).await;
    assert_eq!(call.callback_type(), Some(4));
    assert!(call.is_ephemeral(), "a refusal is private");
    let text = call.message_data().expect("data")["content"].clone();
    assert_eq!(
        text,
        "You have used all your hints in this game (3 per game)."
    );
}
