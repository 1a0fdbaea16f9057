//! Game reviews in Telegram, end to end: `/review` of the chat's last finished game, by id
//! and by the Review button under the final board; the graph goes out as a PNG with the
//! summary as its caption. Refusals (unknown game, a game still going on, no game ended here,
//! too many reviews at once) are answered at once.

use toguz::testing::telegram::bot::{wait_board, Board, BotProcess, TOKEN, WAIT};
use toguz::testing::telegram::{check_png, Call, FakeTelegram, TgChat, TgUser};

/// A small node budget: a few moves are reviewed in well under a second in a debug build.
const QUICK: &str = "[review]\nnodes = 2000\n";

/// Plays the bot in `chat` for six moves of each side (so the review has mistakes to mark:
/// the bot plays at random), then resigns: the final board.
fn a_resigned_game(fake: &FakeTelegram, chat: &TgChat, user: &TgUser) -> Board {
    fake.send_text(chat, user, "/play random");
    let mut board = wait_board(fake, chat.id, |b| !b.pits.is_empty());
    let game = board.game.clone();
    for _ in 0..6 {
        let (pit, _) = board.pits[0].clone();
        let data = format!("1m:{}:{}:{pit}", board.game, board.ply);
        let q = fake.press(chat, board.message.message_id, user, &data);
        fake.wait_answer(&q, WAIT).expect("move answered");
        let ply = board.ply;
        board = wait_board(fake, chat.id, |b| {
            b.game == game && b.ply >= ply + 2 && !b.pits.is_empty()
        });
    }
    fake.send_text(chat, user, "/resign");
    wait_board(fake, chat.id, |b| b.game == game && b.is_over())
}

/// The next photo the bot sends after `mark`.
fn next_photo(fake: &FakeTelegram, mark: usize) -> Call {
    let (_, call) = fake
        .wait_call(mark, WAIT, |c| c.method == "sendPhoto" && c.ok())
        .expect("a photo was sent");
    call
}

/// The next text message the bot sends after `mark`.
fn next_text(fake: &FakeTelegram, mark: usize) -> String {
    let (_, call) = fake
        .wait_call(mark, WAIT, |c| c.method == "sendMessage" && c.ok())
        .expect("a message was sent");
    call.str("text").unwrap_or_default()
}

/// The review graph: a valid PNG of the graph's size, with the summary as caption.
fn assert_review(call: &Call, names: &[&str]) -> String {
    let png = call.photo_bytes().expect("the graph is uploaded");
    assert_eq!(check_png(png), Ok((960, 540)), "the graph's size");
    assert!(png.len() <= 60 * 1024, "graph of {} bytes", png.len());
    let caption = call.caption().expect("the summary is the caption");
    assert!(caption.starts_with("Game review: "), "{caption}");
    assert!(caption.contains("accuracy"), "{caption}");
    assert!(caption.contains("resigned"), "{caption}");
    for name in names {
        assert!(caption.contains(name), "{name} in {caption}");
    }
    caption
}

#[test]
fn the_last_game_of_the_chat_is_reviewed_by_command_by_id_and_by_button() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&fake, dir.path(), "", QUICK);
    let asel = TgUser::new(701, "Asel", "asel", "en");
    let chat = TgChat::private(&asel);

    // Before any game ended here, /review alone says how to name one.
    let mark = fake.mark();
    fake.send_text(&chat, &asel, "/review");
    let none = next_text(&fake, mark);
    assert!(none.contains("No game has ended here"), "{none}");

    let end = a_resigned_game(&fake, &chat, &asel);
    let review_button = format!("1rv:{}", end.game);
    assert!(end.data.contains(&review_button), "{:?}", end.data);

    let mark = fake.mark();
    fake.send_text(&chat, &asel, "/review");
    let review = next_photo(&fake, mark);
    let first = assert_review(&review, &["Asel", "Bot ("]);

    // A button per marked mistake ("1)" in the summary); the first shows the board before it.
    let mistakes: Vec<(String, String)> = review.buttons();
    assert!(!mistakes.is_empty(), "{first}");
    assert_eq!(
        mistakes[0],
        ("Mistake 1".to_string(), format!("1rb:{}:1", end.game))
    );
    let marked = first
        .lines()
        .filter_map(|l| l.trim_start().split_once(") "))
        .filter(|(n, _)| n.parse::<u8>().is_ok())
        .count();
    assert_eq!(mistakes.len(), marked, "{first}");
    let review_msg = review.response["result"]["message_id"]
        .as_i64()
        .expect("id");
    let mark = fake.mark();
    let q = fake.press(&chat, review_msg, &asel, &mistakes[0].1);
    fake.wait_answer(&q, WAIT).expect("press answered");
    let board = next_photo(&fake, mark);
    let (w, h) = check_png(board.photo_bytes().expect("a board")).expect("a PNG");
    assert!(w > h && h >= 300, "a board picture: {w}x{h}");
    let caption = board.caption().unwrap_or_default();
    assert!(caption.starts_with("Before mistake 1: "), "{caption}");
    assert!(caption.contains("was better"), "{caption}");

    // By id: the same review (kept), the same words.
    let mark = fake.mark();
    fake.send_text(
        &chat,
        &asel,
        &format!("/review {}", end.game.to_uppercase()),
    );
    assert_eq!(assert_review(&next_photo(&fake, mark), &["Asel"]), first);

    // The button under the final board: answered at once, then the review.
    let mark = fake.mark();
    let q = fake.press(&chat, end.message.message_id, &asel, &review_button);
    let answer = fake.wait_answer(&q, WAIT).expect("press answered");
    assert_eq!(answer.str("show_alert"), None, "{answer:#?}");
    assert_eq!(assert_review(&next_photo(&fake, mark), &["Asel"]), first);

    // An unknown game and a game still going on get a clear answer.
    let mark = fake.mark();
    fake.send_text(&chat, &asel, "/review zz99zz");
    let unknown = next_text(&fake, mark);
    assert!(unknown.contains("no such game"), "{unknown}");
    fake.send_text(&chat, &asel, "/play random");
    let ongoing = wait_board(&fake, chat.id, |b| b.game != end.game);
    let mark = fake.mark();
    fake.send_text(&chat, &asel, &format!("/review {}", ongoing.game));
    let not_over = next_text(&fake, mark);
    assert!(not_over.contains("still going on"), "{not_over}");
}

#[test]
fn a_review_beyond_the_limit_is_answered_busy_at_once_and_in_the_readers_language() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    // One review at a time and none waiting; the first takes long (a huge budget per
    // position), so the next ones are refused while it runs.
    let config = "[review]\nnodes = 50000000\nrunning = 1\nwaiting = 0\n";
    let _bot = BotProcess::start(&fake, dir.path(), "", config);
    let dana = TgUser::new(702, "Dana", "dana", "ru");
    let chat = TgChat::private(&dana);
    let end = a_resigned_game(&fake, &chat, &dana);
    let mark = fake.mark();
    fake.send_text(&chat, &dana, "/review");
    // The first review is admitted and shows the chat action while the engine works.
    fake.wait_call(mark, WAIT, |c| c.method == "sendChatAction" && c.ok())
        .expect("the upload hint");
    let mark = fake.mark();
    let asked = std::time::Instant::now();
    // Someone else asking is refused as busy: the only place is taken.
    let ivan = TgUser::new(703, "Ivan", "ivan", "ru");
    let review = format!("1rv:{}", end.game);
    let q = fake.press(&chat, end.message.message_id, &ivan, &review);
    let answer = fake.wait_answer(&q, WAIT).expect("press answered");
    let busy = answer.str("text").unwrap_or_default();
    assert!(
        busy.contains("Бот сейчас занят разбором других партий"),
        "{busy}"
    );
    assert!(asked.elapsed() < std::time::Duration::from_secs(5));
    // Dana, whose review runs, is told hers is on the way (issue 31, item 11), by button
    // and by command.
    let q = fake.press(&chat, end.message.message_id, &dana, &review);
    let answer = fake.wait_answer(&q, WAIT).expect("press answered");
    let pending = answer.str("text").unwrap_or_default();
    assert!(
        pending.contains("Ваш предыдущий разбор ещё готовится"),
        "{pending}"
    );
    fake.send_text(&chat, &dana, "/review");
    let text = next_text(&fake, mark);
    assert!(
        text.contains("Ваш предыдущий разбор ещё готовится"),
        "{text}"
    );
    // No review went out meanwhile.
    assert!(fake.calls()[mark..].iter().all(|c| c.method != "sendPhoto"));
}

#[test]
fn review_alone_after_a_restart_reviews_the_callers_last_game() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let mut bot = BotProcess::start(&fake, dir.path(), "", QUICK);
    let aibek = TgUser::new(703, "Aibek", "aibek", "en");
    let chat = TgChat::private(&aibek);
    let end = a_resigned_game(&fake, &chat, &aibek);
    bot.kill();

    // A new process on the same data: the chat's last game is no longer in memory, but the
    // archive has Aibek's games, newest first.
    let _bot = BotProcess::start(&fake, dir.path(), "", QUICK);
    let mark = fake.mark();
    fake.send_text(&chat, &aibek, "/review");
    let review = next_photo(&fake, mark);
    assert_review(&review, &["Aibek"]);
    // It is that game: its mistake buttons name it.
    let buttons = review.buttons();
    assert!(
        !buttons.is_empty(),
        "the bot plays at random: mistakes are marked"
    );
    assert!(
        buttons
            .iter()
            .all(|(_, d)| d.starts_with(&format!("1rb:{}:", end.game))),
        "{buttons:?}"
    );
    // Someone who never finished a game is told how to name one.
    let dana = TgUser::new(704, "Dana", "dana", "en");
    let theirs = TgChat::private(&dana);
    let mark = fake.mark();
    fake.send_text(&theirs, &dana, "/review");
    let none = next_text(&fake, mark);
    assert!(none.contains("No game has ended here"), "{none}");
}
