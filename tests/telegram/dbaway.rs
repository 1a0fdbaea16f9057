//! The database away, through the real Telegram adapter (issue 31, item 8): `toguz run` on
//! PostgreSQL behind a TCP proxy the test controls (`toguz::testing::proxy`). While the
//! network to the database stalls or is cut, every press and command is answered within
//! 3 s, in the player's language, with "nothing changed, try again"; when COMMIT reaches
//! the server and its answer is held, the press is answered "being checked", and the board
//! is redrawn from what the database stored once it answers. docs/security.md names them.

use std::time::{Duration, Instant};
use toguz::i18n::Lang;
use toguz::testing::pg;
use toguz::testing::proxy::{Mode, Proxy};
use toguz::testing::telegram::bot::{wait_board, Board, BotProcess, TOKEN, WAIT};
use toguz::testing::telegram::{FakeTelegram, TgChat, TgUser};

/// Discord's bound, which every answer keeps on every platform.
const THREE_S: Duration = Duration::from_secs(3);
const ROOMY: &str = "commands_per_minute = 300\n";

/// `toguz run` on a fresh schema through a proxy; `None` without PostgreSQL (skipped).
fn start(fake: &FakeTelegram, dir: &std::path::Path) -> Option<(BotProcess, Proxy)> {
    let url = pg::fresh_url()?;
    let (proxy, url) = Proxy::in_front_of(&url);
    let storage = format!("backend = \"postgres\"\nurl = {url:?}\npool_size = 4\n");
    let bot = BotProcess::start(fake, dir, ROOMY, &storage);
    Some((bot, proxy))
}

/// A game against the bot in `user`'s private chat: its first board.
fn new_game(fake: &FakeTelegram, chat: &TgChat, user: &TgUser) -> Board {
    fake.send_text(chat, user, "/play random");
    wait_board(fake, chat.id, |b| !b.pits.is_empty())
}

/// Presses `data` on `board`: the answer's text and alert flag, and how long it took.
fn press(
    fake: &FakeTelegram,
    chat: &TgChat,
    user: &TgUser,
    board: &Board,
    data: &str,
) -> (Option<String>, bool, Duration) {
    let started = Instant::now();
    let query = fake.press(chat, board.message.message_id, user, data);
    let answer = fake
        .wait_answer(&query, WAIT)
        .expect("the press is answered");
    let alert = answer
        .params
        .get("show_alert")
        .is_some_and(|v| v.as_bool() == Some(true) || v.as_str() == Some("true"));
    (answer.str("text"), alert, started.elapsed())
}

fn move_data(board: &Board) -> String {
    format!("1m:{}:{}:{}", board.game, board.ply, board.pits[0].0)
}

#[test]
fn presses_and_commands_while_the_database_is_away_are_answered_within_3s_to_try_again() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let Some((_bot, proxy)) = start(&fake, dir.path()) else {
        return;
    };
    let asel = TgUser::new(881, "Asel", "asel_away", "ru");
    let chat = TgChat::private(&asel);
    let board = new_game(&fake, &chat, &asel);
    let away = toguz::t!(Lang::Ru, "manager-error-store-away");
    for mode in [Mode::Stall, Mode::Cut] {
        proxy.set(mode);
        let (text, _, took) = press(&fake, &chat, &asel, &board, &move_data(&board));
        assert!(took < THREE_S, "{mode:?}: the press took {took:?}");
        assert_eq!(text.as_deref(), Some(away.as_str()), "{mode:?}");
        let mark = fake.mark();
        let started = Instant::now();
        fake.send_text(&chat, &asel, "/board");
        let (_, reply) = fake
            .wait_call(mark, WAIT, |c| c.method == "sendMessage" && c.ok())
            .expect("the command is answered");
        let took = started.elapsed();
        assert!(took < THREE_S, "{mode:?}: the command took {took:?}");
        let said = reply.str("text").unwrap_or_default();
        assert!(said.contains(&away), "{mode:?}: {said}");
    }
    proxy.set(Mode::Pass);
    // Back: the same press applies (the first one or two may still find it away).
    let started = Instant::now();
    loop {
        let (text, _, _) = press(&fake, &chat, &asel, &board, &move_data(&board));
        match text {
            None => break,
            Some(text) => assert_eq!(text, away),
        }
        assert!(started.elapsed() < WAIT, "the database never came back");
        std::thread::sleep(Duration::from_millis(200));
    }
    wait_board(&fake, chat.id, |b| b.ply > board.ply);
}

#[test]
fn a_resign_whose_commit_goes_unanswered_is_being_checked_and_the_board_redrawn_as_stored() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let Some((_bot, proxy)) = start(&fake, dir.path()) else {
        return;
    };
    let kairat = TgUser::new(882, "Kairat", "kairat_away", "kk");
    let chat = TgChat::private(&kairat);
    let board = new_game(&fake, &chat, &kairat);
    let resign = board
        .data
        .iter()
        .find(|d| d.starts_with("1r:"))
        .expect("a Resign button")
        .clone();
    // The resignation's COMMIT reaches the server; its answer, and every later one, is held.
    proxy.hold_replies_after(b"COMMIT");
    let (text, alert, took) = press(&fake, &chat, &kairat, &board, &resign);
    assert!(took < THREE_S, "the press took {took:?}");
    let checking = toguz::t!(Lang::Kk, "manager-error-outcome-unknown");
    assert_eq!(text.as_deref(), Some(checking.as_str()));
    assert!(alert, "shown so that it is noticed");
    assert_eq!(proxy.mode(), Mode::HoldReplies, "the COMMIT went out");
    std::thread::sleep(Duration::from_millis(700));
    let shown = fake
        .message(chat.id, board.message.message_id)
        .expect("the board");
    assert!(
        !Board::of(&shown).expect("a board").is_over(),
        "redrawn before the database answered"
    );
    // The database answers again: the board is redrawn as stored (the server committed).
    proxy.set(Mode::Pass);
    let redrawn = wait_board(&fake, chat.id, |b| b.is_over());
    assert_eq!(redrawn.message.message_id, board.message.message_id);
    assert_eq!(redrawn.game, board.game);
}
