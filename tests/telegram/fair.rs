//! Fair use of shared resources (issue 31, item 11): drawing a board never holds up other
//! chats.

use crate::abuse::next_text;
use std::time::{Duration, Instant};
use toguz::testing::telegram::bot::{wait_board, BotProcess, TOKEN};
use toguz::testing::telegram::{FakeTelegram, TgChat, TgUser};

/// With one async worker thread and every PNG taking 3 s longer (`TOGUZ_TEST_SLOW_DRAW_MS`,
/// a debug-build hook), a `/help` in another chat is answered while a board is being drawn:
/// drawing runs on the drawing pool, not on the worker. (Drawn on the worker, as before,
/// the answer waited for the drawing.)
#[test]
fn a_slow_board_drawing_holds_up_no_other_chat() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let env = [
        ("TOKIO_WORKER_THREADS", "1"),
        ("TOGUZ_TEST_SLOW_DRAW_MS", "3000"),
    ];
    let bot = BotProcess::start_with_env(&fake, dir.path(), "", "", &env);
    let ann = TgUser::new(5601, "Ann", "", "en");
    let bob = TgUser::new(5602, "Bob", "", "en");
    let (at_ann, at_bob) = (TgChat::private(&ann), TgChat::private(&bob));
    // The bot is up and idle.
    let mark = fake.mark();
    fake.send_text(&at_bob, &bob, "/help");
    assert!(next_text(&fake, mark, at_bob.id).contains("/play"));
    fake.send_text(&at_ann, &ann, "/play easy");
    // The board is being drawn now (3 s).
    std::thread::sleep(Duration::from_millis(500));
    let mark = fake.mark();
    let asked = Instant::now();
    fake.send_text(&at_bob, &bob, "/help");
    assert!(next_text(&fake, mark, at_bob.id).contains("/play"));
    let waited = asked.elapsed();
    assert!(
        waited < Duration::from_millis(1500),
        "another chat waited {waited:?} for a board to be drawn"
    );
    // The board itself arrives, drawn slowly.
    let board = wait_board(&fake, at_ann.id, |b| !b.pits.is_empty());
    assert!(!board.game.is_empty());
    let log = bot.log_text();
    assert!(
        !log.contains("a PNG was drawn on an async worker thread"),
        "{log}"
    );
}
