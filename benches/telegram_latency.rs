//! Latency of a human move in Telegram: from a button press (the update handed to the fake
//! Bot API, which long-polls it to the bot) to the edited board (the bot's editMessageMedia
//! with the new PNG received by the fake), with the real `toguz run` binary. No bot thinking
//! is involved: two people play each other in each of a few groups, with default settings
//! (the turn notice to the next player included) but the flood limits lifted (a move in each
//! group every 400 ms is far over Telegram's 20 posts a minute per group, which would time
//! the group's budget instead of the bot). Presses are paced (`PACE`, outside the
//! timed span) so the bot stays under Telegram's overall limit of about 30 posts a second
//! (each move costs an edit and a turn notice); back to back, they would time the flood
//! limiter instead of the bot.
//!
//! The second part plays whole games against the bot at `easy` and `medium` in private
//! chats with Telegram's default flood limits (60 posts a minute per private chat, a burst
//! of 4): from a press to the board showing the bot's reply, which is when the player can
//! press again. With a player who looks at each board for a second before pressing, one who
//! looks for 300 ms (a quick human), and one who presses the instant the board is back.
//!
//! The `human-pg` part is the first one with the store on PostgreSQL (a durable throwaway
//! cluster, fsync on, or TOGUZ_BENCH_DATABASE_URL; skipped without either).
//!
//! Run: `cargo bench --bench telegram_latency` (prints its own numbers);
//! `-- human`, `-- human-pg` or `-- bot` runs one part.

use std::time::{Duration, Instant};
use toguz::testing::latency::report;
use toguz::testing::pg;
use toguz::testing::telegram::bot::{wait_board, Board, BotProcess, TOKEN, WAIT};
use toguz::testing::telegram::{FakeTelegram, TgChat, TgUser};
use toguz::testing::Lifted;

const GAMES: i64 = 4;
const MOVES_EACH: usize = 50;
const PACE: Duration = Duration::from_millis(100);

/// A game between two people in a group.
struct Game {
    chat: TgChat,
    players: [TgUser; 2],
}

fn main() {
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wants = |part: &str| only.is_empty() || only.iter().any(|a| a == part);
    if wants("human") {
        human_moves("", "telegram press -> edited board (human move)");
    }
    if wants("human-pg") {
        if let Some((url, _cluster)) = pg::bench_database("human-pg") {
            let storage = format!("backend = \"postgres\"\nurl = {url:?}");
            human_moves(
                &storage,
                "telegram press -> edited board (human move, PostgreSQL)",
            );
        }
    }
    if wants("bot") {
        // A second's look, a quick player's 300 ms, and presses the instant the board is back.
        for think in [
            Duration::from_secs(1),
            Duration::from_millis(300),
            Duration::ZERO,
        ] {
            for level in ["easy", "medium"] {
                bot_games(level, think);
            }
        }
    }
}

/// Games against the bot played to the end in `BOT_CHATS` private chats at once.
const BOT_CHATS: i64 = 3;

fn bot_games(level: &str, think: Duration) {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().expect("temp dir");
    let _bot = BotProcess::start(&fake, dir.path(), BotProcess::default_limits(), "");
    let samples = std::thread::scope(|s| {
        let fake = &fake;
        let players: Vec<_> = (0..BOT_CHATS)
            .map(|i| s.spawn(move || bot_game(fake, 9500 + i, level, think)))
            .collect();
        players
            .into_iter()
            .flat_map(|p| p.join().expect("player"))
            .collect::<Vec<_>>()
    });
    report(
        &format!(
            "telegram press -> bot's reply shown ({level}, {} ms to look, default limits)",
            think.as_millis()
        ),
        samples,
    );
}

/// One game against the bot to its end; the time from each press to the board with the
/// bot's reply (or the end).
fn bot_game(fake: &FakeTelegram, id: i64, level: &str, think: Duration) -> Vec<Duration> {
    let user = TgUser::new(id, &format!("P{id}"), "", "en");
    let chat = TgChat::private(&user);
    fake.send_text(&chat, &user, &format!("/play {level}"));
    let mut samples = vec![];
    loop {
        let board = wait_board(fake, chat.id, |b| b.is_over() || !b.pits.is_empty());
        if board.is_over() {
            return samples;
        }
        std::thread::sleep(think);
        let (pit, _) = board.pits[0].clone();
        let data = format!("1m:{}:{}:{pit}", board.game, board.ply);
        let ply = board.ply;
        let start = Instant::now();
        fake.press(&chat, board.message.message_id, &user, &data);
        wait_board(fake, chat.id, |b| {
            b.is_over() || (b.ply >= ply + 2 && !b.pits.is_empty())
        });
        samples.push(start.elapsed());
    }
}

/// `storage`: lines of `[storage]` (empty: sled in a temporary directory).
fn human_moves(storage: &str, label: &str) {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().expect("temp dir");
    let lifted = Lifted::because(
        "times the bot from press to board, 50 moves a group back to back: not the group's budget",
    );
    let _bot = BotProcess::start_lifted(&fake, dir.path(), "", storage, lifted);
    let games: Vec<Game> = (0..GAMES).map(|i| start_game(&fake, i)).collect();
    let mut samples = vec![];
    for _ in 0..MOVES_EACH {
        for game in &games {
            samples.extend(one_move(&fake, game));
            std::thread::sleep(PACE);
        }
    }
    report(label, samples);
}

/// Ann challenges Ben in a new group and Ben accepts: the game's first board is up.
fn start_game(fake: &FakeTelegram, i: i64) -> Game {
    let chat = TgChat::group(-1000 - i, "Bench");
    let ann = TgUser::new(9000 + 2 * i, &format!("Ann{i}"), "", "en");
    let ben = TgUser::new(9001 + 2 * i, &format!("Ben{i}"), "", "en");
    let theirs = fake.send_text(&chat, &ben, "a game?");
    let mark = fake.mark();
    fake.send_reply(&chat, &ann, "/challenge", theirs);
    let (_, call) = fake
        .wait_call(mark, WAIT, |c| {
            c.method == "sendMessage" && c.buttons().iter().any(|(_, d)| d.starts_with("1ca:"))
        })
        .expect("challenge posted");
    let msg = call.response["result"]["message_id"].as_i64().expect("id");
    let (_, accept) = call.buttons().into_iter().next().expect("accept button");
    fake.press(&chat, msg, &ben, &accept);
    wait_board(fake, chat.id, |b| !b.pits.is_empty());
    Game {
        chat,
        players: [ann, ben],
    }
}

/// The player to move presses a pit; the time until the board message is edited.
fn one_move(fake: &FakeTelegram, game: &Game) -> Option<Duration> {
    let board = wait_board(fake, game.chat.id, |b| b.is_over() || !b.pits.is_empty());
    if board.is_over() {
        return None;
    }
    let mover = to_move(&board, &game.players);
    let (pit, _) = board.pits[0].clone();
    let data = format!("1m:{}:{}:{pit}", board.game, board.ply);
    let message = board.message.message_id;
    let mark = fake.mark();
    let start = Instant::now();
    fake.press(&game.chat, message, mover, &data);
    let (_, edit) = fake
        .wait_call(mark, WAIT, |c| {
            c.method == "editMessageMedia" && c.ok() && c.i64("message_id") == Some(message)
        })
        .expect("board edited");
    Some(edit.at.duration_since(start))
}

/// The player named in the caption's "… to move: <name>".
fn to_move<'a>(board: &Board, players: &'a [TgUser; 2]) -> &'a TgUser {
    let caption = board.caption();
    players
        .iter()
        .find(|p| caption.contains(&format!("to move: {}", p.first_name)))
        .expect("the player to move is named")
}
