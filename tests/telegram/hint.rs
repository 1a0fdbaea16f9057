//! Hints in Telegram, end to end: the Hint button under the board of a game against the bot
//! answers with the engine's move and posts the board with it marked as a reply; the button
//! counts down on the board, a fourth press is refused, and the record says hints were used.

use toguz::testing::telegram::bot::{wait_board, Board, BotProcess, TOKEN, WAIT};
use toguz::testing::telegram::{check_png, Call, FakeTelegram, TgChat, TgUser};

/// A small node budget: a hint is found in well under a second in a debug build.
const QUICK: &str = "[review]\nnodes = 2000\n";

/// The Hint button of a board: (label, data).
fn hint_button(board: &Board) -> Option<(String, String)> {
    board
        .message
        .buttons()
        .into_iter()
        .find(|(_, data)| data.starts_with("1h:"))
}

fn next_call(fake: &FakeTelegram, mark: usize, method: &str) -> Call {
    let (_, call) = fake
        .wait_call(mark, WAIT, |c| c.method == method && c.ok())
        .unwrap_or_else(|| panic!("a {method} call"));
    call
}

/// Presses Hint on `board`: the press's answer (the hint, no alert) and the hint's photo,
/// a reply to the board with the pit named in its caption.
fn press_hint(fake: &FakeTelegram, chat: &TgChat, user: &TgUser, board: &Board) -> Call {
    let (_, data) = hint_button(board).expect("a Hint button");
    let mark = fake.mark();
    let q = fake.press(chat, board.message.message_id, user, &data);
    let answer = fake.wait_answer(&q, WAIT).expect("press answered");
    assert_eq!(
        answer.str("show_alert").as_deref(),
        Some("false"),
        "{answer:#?}"
    );
    let toast = answer.str("text").unwrap_or_default();
    assert!(toast.starts_with("Hint: play pit "), "{toast}");
    let photo = next_call(fake, mark, "sendPhoto");
    assert_eq!(photo.caption().as_deref(), Some(toast.as_str()));
    let chat_id = photo.i64("chat_id").expect("chat");
    let id = photo.response["result"]["message_id"].as_i64().expect("id");
    let stored = fake.message(chat_id, id).expect("stored");
    assert_eq!(stored.reply_to, Some(board.message.message_id));
    let (w, h) = check_png(photo.photo_bytes().expect("a board")).expect("a PNG");
    assert!(w > h && h >= 300, "a board picture: {w}x{h}");
    photo
}

/// The pit a hint's caption names: "Hint: play pit 7 (76)...".
fn hinted_pit(caption: &str) -> u8 {
    caption
        .trim_start_matches("Hint: play pit ")
        .chars()
        .next()
        .and_then(|c| c.to_digit(10))
        .expect("a pit in the caption") as u8
}

#[test]
fn three_hints_by_button_then_a_refusal_and_the_record_says_so() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&fake, dir.path(), "", QUICK);
    let asel = TgUser::new(711, "Asel", "asel", "en");
    let chat = TgChat::private(&asel);

    fake.send_text(&chat, &asel, "/play random");
    let mut board = wait_board(&fake, chat.id, |b| !b.pits.is_empty());
    let game = board.game.clone();
    assert_eq!(
        hint_button(&board),
        Some((
            "Hint (3 left)".to_string(),
            format!("1h:{game}:{}", board.ply)
        ))
    );
    for left in [2usize, 1] {
        let photo = press_hint(&fake, &chat, &asel, &board);
        let caption = photo.caption().unwrap_or_default();
        let pit = hinted_pit(&caption);
        assert!(board.pits.iter().any(|(p, _)| *p == pit), "{caption}");
        let told = ["", "You have one hint left", "You have 2 hints left"];
        assert!(caption.contains(told[left]), "{caption}");
        // The board's keyboard counts down.
        let label = format!("Hint ({left} left)");
        board = wait_board(&fake, chat.id, |b| {
            b.game == game && hint_button(b).is_some_and(|(l, _)| l == label)
        });
        // Play the hinted move; the bot answers.
        let ply = board.ply;
        let data = format!("1m:{game}:{ply}:{pit}");
        let q = fake.press(&chat, board.message.message_id, &asel, &data);
        fake.wait_answer(&q, WAIT).expect("move answered");
        board = wait_board(&fake, chat.id, |b| {
            b.game == game && b.ply >= ply + 2 && !b.pits.is_empty()
        });
    }
    let last = press_hint(&fake, &chat, &asel, &board);
    let caption = last.caption().unwrap_or_default();
    assert!(caption.contains("That was your last hint"), "{caption}");
    // No Hint button any more; its data sent anyway (a press racing the edit, or a modified
    // client) is refused, and no photo goes out.
    let stale_hint = hint_button(&board).expect("the old button").1;
    let now = wait_board(&fake, chat.id, |b| {
        b.game == game && hint_button(b).is_none()
    });
    assert!(!now.pits.is_empty(), "still the player's turn");
    let mark = fake.mark();
    let q = fake.press(&chat, board.message.message_id, &asel, &stale_hint);
    let answer = fake.wait_answer(&q, WAIT).expect("press answered");
    let refusal = answer.str("text").unwrap_or_default();
    assert!(
        refusal.contains("You have used all your hints in this game (3 per game)"),
        "{refusal}"
    );
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(fake.calls()[mark..].iter().all(|c| c.method != "sendPhoto"));

    // The record of the finished game says three hints were used.
    fake.send_text(&chat, &asel, "/resign");
    wait_board(&fake, chat.id, |b| b.game == game && b.is_over());
    let mark = fake.mark();
    fake.send_text(&chat, &asel, "/record");
    let call = next_call(&fake, mark, "sendDocument");
    let id = call.response["result"]["message_id"].as_i64().expect("id");
    let stored = fake.message(chat.id, id).expect("stored");
    let (_, bytes) = stored.document.expect("a document");
    let record = String::from_utf8(bytes).expect("UTF-8");
    assert!(record.contains("[Hints \"3\"]"), "{record}");
}

#[test]
fn a_hint_is_refused_in_a_game_between_people() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&fake, dir.path(), "", QUICK);
    let asel = TgUser::new(712, "Asel", "asel", "ru");
    let bota = TgUser::new(713, "Bota", "bota", "kk");
    let group = TgChat::group(-100_713, "Toguz club");
    let theirs = fake.send_text(&group, &bota, "A game?");
    let mark = fake.mark();
    fake.send_reply(&group, &asel, "/challenge", theirs);
    let (_, call) = fake
        .wait_call(mark, WAIT, |c| {
            c.method == "sendMessage"
                && c.ok()
                && c.buttons().iter().any(|(_, d)| d.starts_with("1ca:"))
        })
        .expect("challenge posted");
    let msg = call.response["result"]["message_id"].as_i64().expect("id");
    let accept = call
        .buttons()
        .into_iter()
        .find(|(_, d)| d.starts_with("1ca:"))
        .map(|(_, d)| d)
        .expect("accept");
    let q = fake.press(&group, msg, &bota, &accept);
    fake.wait_answer(&q, WAIT).expect("accepted");
    let board = wait_board(&fake, group.id, |b| !b.pits.is_empty());
    assert_eq!(hint_button(&board), None, "{:?}", board.data);
    // A forged Hint press on the board is refused in the presser's language.
    let forged = format!("1h:{}:{}", board.game, board.ply);
    for (who, words) in [
        (&asel, "Подсказки доступны только в партиях с ботом"),
        (&bota, "Кеңес тек ботпен ойнағанда беріледі"),
    ] {
        let q = fake.press(&group, board.message.message_id, who, &forged);
        let answer = fake.wait_answer(&q, WAIT).expect("press answered");
        let text = answer.str("text").unwrap_or_default();
        assert!(text.contains(words), "{text}");
    }
}
