//! Latency of a human move in Telegram: from a button press (the update handed to the bot)
//! to the edited board (the bot's editMessageMedia reaching the Bot API), measured against
//! the fake Bot API server with the real `toguz run` binary. Bot thinking is excluded: the
//! bot plays level `random`, and the clock stops at the first edit after the press.
//!
//! Run: `cargo bench --bench telegram_latency` (prints its own numbers).

#[path = "../tests/telegram/fake_telegram/mod.rs"]
mod fake_telegram;

use fake_telegram::bot::{latest_board, BotProcess, TOKEN, WAIT};
use fake_telegram::{FakeTelegram, TgChat, TgUser};
use std::time::{Duration, Instant};

const PLAYERS: i64 = 10;
const MOVES_EACH: usize = 8;

fn main() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().expect("temp dir");
    let _bot = BotProcess::start(&fake, dir.path(), "notify_turn = false", "");
    let users: Vec<(TgUser, TgChat)> = (0..PLAYERS)
        .map(|i| {
            let u = TgUser::new(9000 + i, "Bench", "", "en");
            let c = TgChat::private(&u);
            (u, c)
        })
        .collect();
    for (u, c) in &users {
        fake.send_text(c, u, "/play random");
    }
    let mut samples: Vec<Duration> = vec![];
    for _ in 0..MOVES_EACH {
        for (user, chat) in &users {
            // The board, ready for a human move (the bot's reply, if any, is shown).
            let ok = fake.wait_until(WAIT, |v| {
                latest_board(v.bot_messages(chat.id))
                    .is_some_and(|b| !b.pits.is_empty() && v.pending_updates() == 0)
            });
            assert!(ok, "no board to play on");
            let Some(board) = latest_board(fake.bot_messages(chat.id)) else {
                continue;
            };
            // Let the bot's own edits settle so they are not taken for ours.
            std::thread::sleep(Duration::from_millis(30));
            let mark = fake.mark();
            let (pit, _) = board.pits[0].clone();
            let data = format!("1m:{}:{}:{pit}", board.game, board.ply);
            let start = Instant::now();
            fake.press(chat, board.message.message_id, user, &data);
            let message = board.message.message_id;
            let edited = fake.wait_call(mark, WAIT, |c| {
                c.method == "editMessageMedia" && c.i64("message_id") == Some(message)
            });
            let (_, call) = edited.expect("board edited");
            samples.push(call.at.duration_since(start));
        }
    }
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let n = samples.len();
    println!(
        "telegram press -> edited board: n={n} median={:.2} ms p90={:.2} ms min={:.2} ms max={:.2} ms",
        ms(samples[n / 2]),
        ms(samples[n * 9 / 10]),
        ms(samples[0]),
        ms(samples[n - 1])
    );
}
