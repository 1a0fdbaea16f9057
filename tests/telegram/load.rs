//! Under load: a chat under constant 429 or a user flooding commands holds up nobody else;
//! against the bot a turn costs one edit. The soak of many games at once is in soak.rs.

use std::time::Duration;
use toguz::testing::telegram::bot::{wait_board, Board, BotProcess, TOKEN, WAIT};
use toguz::testing::telegram::{FakeTelegram, StoredMessage, TgChat, TgUser};

/// How long a press may wait for its board here: generous for a loaded test machine, far
/// below the 15 s and more that a 429'd chat held everyone up for before.
const PROMPT: Duration = Duration::from_secs(4);

/// Starts a game against the bot at `level` in `user`'s private chat; its first board with
/// pits.
pub fn bot_game(fake: &FakeTelegram, user: &TgUser, level: &str) -> (TgChat, Board) {
    let chat = TgChat::private(user);
    fake.send_text(&chat, user, &format!("/play {level}"));
    let board = wait_board(fake, chat.id, |b| !b.pits.is_empty());
    (chat, board)
}

/// Presses the first legal pit of `board`; returns the press's query id.
pub fn press_first(fake: &FakeTelegram, chat: &TgChat, user: &TgUser, board: &Board) -> String {
    let (pit, _) = board.pits[0].clone();
    let data = format!("1m:{}:{}:{pit}", board.game, board.ply);
    fake.press(chat, board.message.message_id, user, &data)
}

/// The board of `game` in `messages`, newest first.
pub fn board_of(messages: &[StoredMessage], game: &str) -> Option<Board> {
    messages
        .iter()
        .rev()
        .filter_map(Board::of)
        .find(|b| b.game == game)
}

/// Waits until the board of `game` in `chat` satisfies `pred`, up to `timeout`.
pub fn wait_game(
    fake: &FakeTelegram,
    chat: i64,
    game: &str,
    timeout: Duration,
    pred: impl Fn(&Board) -> bool,
) -> Option<Board> {
    let ok = fake.wait_until(timeout, |v| {
        board_of(&v.bot_messages(chat), game).is_some_and(|b| pred(&b))
    });
    ok.then(|| board_of(&fake.bot_messages(chat), game))
        .flatten()
}

/// Ann challenges Ben in `chat` and Ben accepts; the first board.
pub fn group_game(fake: &FakeTelegram, chat: &TgChat, ann: &TgUser, ben: &TgUser) -> Board {
    let theirs = fake.send_text(chat, ben, "a game?");
    let mark = fake.mark();
    fake.send_reply(chat, ann, "/challenge", theirs);
    let (_, call) = fake
        .wait_call(mark, WAIT, |c| {
            c.method == "sendMessage"
                && c.ok()
                && c.i64("chat_id") == Some(chat.id)
                && c.buttons().iter().any(|(_, d)| d.starts_with("1ca:"))
        })
        .expect("challenge posted");
    let msg = call.response["result"]["message_id"].as_i64().expect("id");
    let (_, accept) = call.buttons().into_iter().next().expect("accept button");
    let mark = fake.mark();
    fake.press(chat, msg, ben, &accept);
    let (_, posted) = fake
        .wait_call(mark, WAIT, |c| {
            c.method == "sendPhoto" && c.ok() && c.i64("chat_id") == Some(chat.id)
        })
        .expect("board posted");
    let id = posted.response["result"]["message_id"]
        .as_i64()
        .expect("id");
    Board::of(&fake.message(chat.id, id).expect("board")).expect("a board")
}

/// The player named in the caption's "… to move: <name>".
pub fn to_move<'a>(board: &Board, players: &'a [TgUser]) -> Option<&'a TgUser> {
    let caption = board.caption();
    players
        .iter()
        .find(|p| caption.contains(&format!("to move: {}", p.first_name)))
}

#[test]
fn a_chat_under_constant_429_does_not_hold_up_another_chats_bot_game() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&fake, dir.path(), "", "");
    // A group game between two people: every move there sends the other a turn notice.
    let group = TgChat::group(-4001, "Flooded");
    let ann = TgUser::new(4101, "Ann", "", "en");
    let ben = TgUser::new(4102, "Ben", "", "en");
    let first = group_game(&fake, &group, &ann, &ben);
    let bob = TgUser::new(4103, "Bob", "", "en");
    let (bob_chat, mut board) = bot_game(&fake, &bob, "easy");

    // Telegram answers every post in the group with 429 from now on.
    fake.flood(group.id, 30);
    let players = [ann.clone(), ben.clone()];
    let mover = to_move(&first, &players).expect("mover");
    let q = press_first(&fake, &group, mover, &first);
    fake.wait_answer(&q, WAIT)
        .expect("the press in the flooded group is answered");
    // The turn notice for the group is now waiting out its 429s.
    for _ in 0..3 {
        let ply = board.ply;
        let q = press_first(&fake, &bob_chat, &bob, &board);
        fake.wait_answer(&q, PROMPT).expect("press answered");
        board = wait_game(&fake, bob_chat.id, &board.game, PROMPT, |b| {
            b.ply >= ply + 2 || b.is_over()
        })
        .expect("the bot's reply is shown promptly while another chat is flooded");
        assert!(!board.is_over());
    }
    assert!(fake.count_status(429) >= 1, "the group was answered 429");
}

#[test]
fn a_user_flooding_commands_is_limited_and_other_chats_are_answered() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let extra = format!("{}commands_per_minute = 5\n", BotProcess::default_limits());
    let _bot = BotProcess::start(&fake, dir.path(), &extra, "");
    let bob = TgUser::new(4203, "Bob", "", "en");
    let (bob_chat, mut board) = bot_game(&fake, &bob, "easy");

    let group = TgChat::group(-4002, "Spam");
    let spammer = TgUser::new(4201, "Spam", "", "en");
    for _ in 0..100 {
        fake.send_text(&group, &spammer, "/help");
    }
    // Presses elsewhere are answered at once, and the bot's replies shown.
    for _ in 0..3 {
        let ply = board.ply;
        let q = press_first(&fake, &bob_chat, &bob, &board);
        fake.wait_answer(&q, PROMPT)
            .expect("a press in another chat is answered while a group floods /help");
        board = wait_game(&fake, bob_chat.id, &board.game, PROMPT, |b| {
            b.ply >= ply + 2 || b.is_over()
        })
        .expect("the bot's reply is shown");
    }
    // Five answers and one "slow down", within the group's flood limit (20 a minute after a
    // burst of 4), then nothing more.
    let told = |m: &StoredMessage| m.text.as_deref().is_some_and(|t| t.contains("Too many"));
    assert!(fake.wait_until(WAIT, |v| v.bot_messages(group.id).len() >= 6));
    std::thread::sleep(Duration::from_secs(2));
    let sent = fake.bot_messages(group.id);
    assert_eq!(sent.len(), 6, "{sent:#?}");
    assert_eq!(sent.iter().filter(|m| told(m)).count(), 1);
    assert!(fake.wait_until(WAIT, |v| v.pending_updates() == 0));
}

#[test]
fn against_the_bot_a_turn_costs_one_edit_and_no_notice() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&fake, dir.path(), BotProcess::default_limits(), "");
    let cat = TgUser::new(4301, "Cat", "", "en");
    let (chat, mut board) = bot_game(&fake, &cat, "easy");
    let message = board.message.message_id;
    let mark = fake.mark();
    let presses = 8;
    for _ in 0..presses {
        let ply = board.ply;
        let q = press_first(&fake, &chat, &cat, &board);
        fake.wait_answer(&q, WAIT).expect("answered");
        board = wait_game(&fake, chat.id, &board.game, WAIT, |b| {
            b.ply >= ply + 2 || b.is_over()
        })
        .expect("the bot's reply");
        assert!(!board.is_over());
        // Both moves are named: the bot's reply and, before it, the player's move.
        assert!(
            board.caption().contains("Last move: Bot"),
            "{}",
            board.caption()
        );
        assert!(
            board.caption().contains("Before that: Cat"),
            "{}",
            board.caption()
        );
    }
    let calls = fake.calls();
    let edits = calls[mark..]
        .iter()
        .filter(|c| c.method == "editMessageMedia" && c.i64("message_id") == Some(message))
        .count();
    // One edit per turn; a loaded test machine may let the bot miss the 0.5 s hold once
    // (then that turn shows the player's move first). Before: two edits per turn.
    assert!(
        (presses..=presses + 1).contains(&edits),
        "{edits} edits for {presses} turns"
    );
    let notices = calls[mark..]
        .iter()
        .filter(|c| c.method == "sendMessage" || c.method == "deleteMessage")
        .count();
    assert_eq!(
        notices, 0,
        "no turn notice to a player who has just pressed"
    );
}
