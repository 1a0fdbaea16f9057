//! Game reviews on Discord, end to end (the real `toguz run` against the fake Discord):
//! `/review` of the channel's last finished game is deferred at once and then given as a
//! public message with the graph (`review.png`, a valid PNG shown by the embed) and the
//! summary; the Review button under the final board answers with the kept review at once;
//! refusals (an unknown game, too many reviews) are ephemeral and immediate.

use serde_json::{json, Value};
use std::time::Duration;
use toguz::testing::discord::bot::{BotProcess, Options};
use toguz::testing::discord::{buttons, first_legal_pit, id_of, is_valid_png, FakeDiscord, User};

/// The bot against the fake, with `[review]` settings.
async fn start(review: &str) -> (FakeDiscord, tempfile::TempDir, BotProcess) {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let opts = Options {
        extra: format!("[review]\n{review}\n"),
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

fn custom_ids(message: &Value) -> Vec<String> {
    buttons(message)
        .iter()
        .filter_map(|b| b["custom_id"].as_str().map(str::to_string))
        .collect()
}

/// `user` plays the bot in DM channel 800 until both sides moved, then resigns: the final
/// board message.
async fn a_resigned_game(fake: &FakeDiscord, user: &User) -> Value {
    let dm = fake.dm_channel(800);
    let options = json!([{ "name": "level", "type": 3, "value": "random" }]);
    let id = fake.slash(user, dm, "play", options, &[]);
    fake.wait_callback(id).await;
    let board = id_of(&fake.original_message(id).expect("the board"));
    // Six moves each (the bot plays at random, so the review has mistakes to mark).
    let mut last = String::new();
    for _ in 0..6 {
        let pit = fake
            .wait_for("my turn", Duration::from_secs(15), |f| {
                first_legal_pit(&f.message(board)?).filter(|c| *c != last)
            })
            .await;
        let press = fake.press(user, board, &pit);
        fake.wait_callback(press).await;
        last = pit;
    }
    fake.wait_for("the bot's reply", Duration::from_secs(15), |f| {
        first_legal_pit(&f.message(board)?).filter(|c| *c != last)
    })
    .await;
    let resign = fake.slash(user, dm, "resign", json!([]), &[]);
    fake.wait_callback(resign).await;
    fake.wait_for("the final board", Duration::from_secs(15), |f| {
        let m = f.message(board)?;
        custom_ids(&m)
            .iter()
            .any(|c| c.starts_with("1rv:"))
            .then_some(m)
    })
    .await
}

/// The review message: the graph attached as review.png, shown by the embed, with the
/// summary naming the player; returns the summary.
fn assert_review(fake: &FakeDiscord, message: &Value) -> String {
    let attachments = message["attachments"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(attachments.len(), 1, "one graph: {message}");
    assert_eq!(attachments[0]["filename"], "review.png");
    assert!(
        is_valid_png(&fake.attachment_bytes(&attachments[0])),
        "a valid PNG"
    );
    let embed = &message["embeds"][0];
    assert_eq!(
        embed["image"]["url"], attachments[0]["url"],
        "the embed shows it"
    );
    let summary = embed["description"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(summary.starts_with("Game review: "), "{summary}");
    assert!(
        summary.contains("Alice") && summary.contains("accuracy"),
        "{summary}"
    );
    assert!(summary.contains("Alice resigned"), "{summary}");
    summary
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn review_by_command_is_deferred_then_posted_and_the_button_answers_at_once() {
    let (fake, _dir, _bot) = start("nodes = 2000").await;
    let alice = User::new(1001, "Alice");
    let dm = fake.dm_channel(800);
    let end = a_resigned_game(&fake, &alice).await;

    let id = fake.slash(&alice, dm, "review", json!([]), &[]);
    let call = fake.wait_callback(id).await;
    assert_eq!(call.callback_type(), Some(5), "deferred at once, publicly");
    assert!(!call.is_ephemeral());
    let reviewed = fake
        .wait_for("the review", Duration::from_secs(15), |f| {
            let m = f.original_message(id)?;
            (!m["attachments"].as_array()?.is_empty()).then_some(m)
        })
        .await;
    let summary = assert_review(&fake, &reviewed);

    // A button per marked mistake; the first posts the board before it.
    let mistakes: Vec<String> = custom_ids(&reviewed);
    assert!(!mistakes.is_empty(), "{summary}");
    assert!(
        mistakes.iter().all(|c| c.starts_with("1rb:")),
        "{mistakes:?}"
    );
    let press = fake.press(&alice, id_of(&reviewed), &mistakes[0]);
    assert_eq!(fake.wait_callback(press).await.callback_type(), Some(4));
    let board = fake.original_message(press).expect("the mistake's board");
    let attachments = board["attachments"].as_array().cloned().unwrap_or_default();
    assert_eq!(attachments.len(), 1, "{board}");
    assert_eq!(attachments[0]["filename"], "board.png");
    assert!(is_valid_png(&fake.attachment_bytes(&attachments[0])));
    let caption = board["embeds"][0]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(caption.starts_with("Before mistake 1: "), "{caption}");

    // The button under the final board: the review is kept, so it is the answer itself.
    let game = custom_ids(&end)
        .into_iter()
        .find(|c| c.starts_with("1rv:"))
        .expect("a Review button");
    let press = fake.press(&alice, id_of(&end), &game);
    let call = fake.wait_callback(press).await;
    assert_eq!(call.callback_type(), Some(4), "a new message");
    let again = fake.original_message(press).expect("the review message");
    assert_eq!(assert_review(&fake, &again), summary);
    assert_ne!(id_of(&again), id_of(&end), "the board itself is left alone");

    // An unknown game: a private answer at once.
    let options = json!([{ "name": "game", "type": 3, "value": "zz99zz" }]);
    let id = fake.slash(&alice, dm, "review", options, &[]);
    let call = fake.wait_callback(id).await;
    assert_eq!(call.callback_type(), Some(4));
    assert!(call.is_ephemeral());
    let text = call.message_data().expect("data")["content"].clone();
    assert_eq!(text, "There is no such game.");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_beyond_the_limit_is_refused_at_once_while_one_runs() {
    // One review at a time and none waiting; the first takes long.
    let (fake, _dir, _bot) = start("nodes = 50000000\nrunning = 1\nwaiting = 0").await;
    let alice = User::new(1001, "Alice");
    let dm = fake.dm_channel(800);
    let end = a_resigned_game(&fake, &alice).await;
    let id = fake.slash(&alice, dm, "review", json!([]), &[]);
    assert_eq!(fake.wait_callback(id).await.callback_type(), Some(5));

    let game = custom_ids(&end)
        .into_iter()
        .find(|c| c.starts_with("1rv:"))
        .expect("a Review button");
    // Alice has one on the way (one each, issue 31 item 11)...
    let press = fake.press(&alice, id_of(&end), &game);
    let call = fake.wait_callback(press).await;
    assert_eq!(call.callback_type(), Some(4));
    assert!(call.is_ephemeral(), "a refusal is private");
    let text = call.message_data().expect("data")["content"].clone();
    assert_eq!(
        text,
        "Your previous review is still being worked out. Ask for the next one once it is posted."
    );
    // ...and anyone else finds the only place taken.
    let bob = User::new(1002, "Bob");
    let press = fake.press(&bob, id_of(&end), &game);
    let call = fake.wait_callback(press).await;
    assert_eq!(call.callback_type(), Some(4));
    assert!(call.is_ephemeral(), "a refusal is private");
    let text = call.message_data().expect("data")["content"].clone();
    assert_eq!(
        text,
        "The bot is reviewing many games right now. Please ask again in a minute."
    );
    // The first review has not been given (the engine is still at it).
    let first = fake.original_message(id).expect("the deferred answer");
    assert!(first["attachments"].as_array().is_none_or(Vec::is_empty));
}

/// After a restart the channel's last game is no longer in memory: `/review` alone reviews
/// the caller's last finished game from the archive.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn review_alone_after_a_restart_reviews_the_callers_last_game() {
    let (fake, dir, mut bot) = start("nodes = 2000").await;
    let alice = User::new(1001, "Alice");
    let dm = fake.dm_channel(800);
    let end = a_resigned_game(&fake, &alice).await;
    let game = custom_ids(&end)
        .into_iter()
        .find_map(|c| c.strip_prefix("1rv:").map(str::to_string))
        .expect("a Review button");
    bot.kill();
    fake.drop_sessions();
    let from = fake.call_count();
    let opts = Options {
        extra: "[review]\nnodes = 2000\n".into(),
        ..Options::default()
    };
    let _bot = BotProcess::start(&fake, dir.path(), &opts);
    fake.wait_ready(1).await;
    fake.wait_call(from, "command registration", |c| {
        c.method == "PUT" && c.path.ends_with("/commands")
    })
    .await;

    let id = fake.slash(&alice, dm, "review", json!([]), &[]);
    assert_eq!(fake.wait_callback(id).await.callback_type(), Some(5));
    let reviewed = fake
        .wait_for("the review", Duration::from_secs(15), |f| {
            let m = f.original_message(id)?;
            (!m["attachments"].as_array()?.is_empty()).then_some(m)
        })
        .await;
    assert_review(&fake, &reviewed);
    // It is that game: its mistake buttons name it.
    let mistakes = custom_ids(&reviewed);
    assert!(
        !mistakes.is_empty(),
        "the bot plays at random: mistakes are marked"
    );
    let prefix = format!("1rb:{game}:");
    assert!(
        mistakes.iter().all(|c| c.starts_with(&prefix)),
        "{mistakes:?}"
    );
}
