//! Under load: a chat under constant 429 or a user flooding commands holds up nobody else;
//! against the bot a turn costs one edit; a short soak of many games at once (a long one is
//! `#[ignore]`d: `cargo test --release --test telegram soak_long -- --ignored --nocapture`).

use std::time::{Duration, Instant};
use toguz::testing::telegram::bot::{latest_board, wait_board, Board, BotProcess, TOKEN, WAIT};
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
fn wait_game(
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

/// The soak's pace: one press every 150 ms at most, about 20 posts a second.
const PRESS_GAP: Duration = Duration::from_millis(150);

/// One game of the soak: its chat, its players (one: a game against the bot), and the
/// press waiting for its board.
struct SoakGame {
    chat: TgChat,
    players: Vec<TgUser>,
    game: String,
    flooded: bool,
    /// When the last accepted press was made and the ply it was made at.
    pending: Option<(Instant, u16)>,
    /// The newest ply an accepted press must show.
    expected: u16,
    over: bool,
}

/// Figures of one soak run.
struct SoakReport {
    samples: Vec<Duration>,
    worst: Duration,
    rss_warm: u64,
    rss_end: u64,
    presses: usize,
}

/// Many games at once: `bot_chats` private games against the bot, `groups` groups with
/// `per_group` games between people each, one more private chat under constant 429, random
/// 429 / 500 / 502 on 10% of all posts, presses at random moments for `run`.
fn soak(bot_chats: i64, groups: i64, per_group: i64, run: Duration) -> SoakReport {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let bot = BotProcess::start(&fake, dir.path(), "", "");
    let mut games = vec![];
    for i in 0..=bot_chats {
        let user = TgUser::new(60_000 + i, &format!("P{i}"), "", "en");
        let (chat, board) = bot_game(&fake, &user, if i % 2 == 0 { "easy" } else { "medium" });
        games.push(SoakGame {
            chat,
            players: vec![user],
            game: board.game,
            flooded: i == bot_chats,
            pending: None,
            expected: 0,
            over: false,
        });
    }
    for g in 0..groups {
        let chat = TgChat::group(-70_000 - g, "Soak");
        for k in 0..per_group {
            let id = 80_000 + g * 100 + k * 2;
            let ann = TgUser::new(id, &format!("A{g}x{k}"), "", "en");
            let ben = TgUser::new(id + 1, &format!("B{g}x{k}"), "", "en");
            let board = group_game(&fake, &chat, &ann, &ben);
            games.push(SoakGame {
                chat: chat.clone(),
                players: vec![ann, ben],
                game: board.game,
                flooded: false,
                pending: None,
                expected: 0,
                over: false,
            });
        }
    }
    let flooded_chat = games[bot_chats as usize].chat.id;
    fake.flood(flooded_chat, 3);
    fake.chaos(100, 7);
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut random = move |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let start = Instant::now();
    let mut rss_warm = 0;
    let mut samples = vec![];
    let mut worst = Duration::ZERO;
    let mut presses = 0;
    // Presses are spread so the bot stays within Telegram's overall limit of about 30
    // posts a second (a move between people costs an edit, a notice and a deletion).
    let mut last_press = Instant::now();
    while start.elapsed() < run {
        if rss_warm == 0 && start.elapsed() > run / 4 {
            rss_warm = bot.rss_kib().unwrap_or(0);
        }
        for g in games.iter_mut() {
            if g.over {
                continue;
            }
            let messages = fake.bot_messages(g.chat.id);
            let Some(board) = board_of(&messages, &g.game) else {
                continue;
            };
            if let Some((at, ply)) = g.pending {
                let done = board.ply > ply && (g.players.len() == 2 || board.ply > ply + 1)
                    || board.is_over();
                if done {
                    g.pending = None;
                    if !g.flooded {
                        samples.push(at.elapsed());
                        worst = worst.max(at.elapsed());
                    }
                } else if !g.flooded {
                    worst = worst.max(at.elapsed());
                    continue;
                } else {
                    continue;
                }
            }
            g.over = board.is_over();
            // Presses at random moments: about one game in eight is pressed per round.
            if g.over || board.pits.is_empty() || random(8) != 0 || last_press.elapsed() < PRESS_GAP
            {
                continue;
            }
            last_press = Instant::now();
            let Some(mover) = to_move(&board, &g.players).cloned() else {
                continue;
            };
            let q = press_first(&fake, &g.chat, &mover, &board);
            presses += 1;
            let answer = fake.wait_answer(&q, WAIT).expect("every press is answered");
            if answer.str("text").is_none() {
                g.pending = Some((Instant::now(), board.ply));
                g.expected = board.ply + 1;
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    fake.chaos(0, 0);
    // Every accepted move reaches its board (the flooded chat's posts are refused for good).
    for g in games.iter().filter(|g| !g.flooded) {
        let shown = wait_game(&fake, g.chat.id, &g.game, WAIT, |b| {
            b.ply >= g.expected || b.is_over()
        });
        assert!(
            shown.is_some(),
            "game {} never showed ply {}",
            g.game,
            g.expected
        );
    }
    let rss_end = bot.rss_kib().unwrap_or(0);
    assert!(latest_board(fake.bot_messages(flooded_chat)).is_some());
    SoakReport {
        samples,
        worst,
        rss_warm,
        rss_end,
        presses,
    }
}

fn print(report: &mut SoakReport) {
    report.samples.sort();
    let n = report.samples.len().max(1);
    let at = |q: usize| {
        report
            .samples
            .get(q.min(n - 1))
            .copied()
            .unwrap_or_default()
    };
    println!(
        "soak: presses={} boards={} p50={:?} p99={:?} max={:?} rss warm={} KiB end={} KiB",
        report.presses,
        report.samples.len(),
        at(n / 2),
        at(n * 99 / 100),
        report.worst,
        report.rss_warm,
        report.rss_end
    );
}

/// The 3 s bound holds for 99% of presses: with 10% of posts failing at random, an edit
/// now and then meets two or three failures in a row, and each 429 with Telegram's smallest
/// retry_after (1 s) or a 5xx backoff costs a second or two (runs saw 4.1 s now and then).
/// So one press in each started hundred may take longer: with the ~90 presses of the short
/// soak the 99th percentile would be the worst press itself. The worst press is still held
/// to `worst`, so a stuck chat cannot pass.
fn check(report: &SoakReport, worst: Duration) {
    let n = report.samples.len();
    assert!(n > 20, "too few moves: {n}");
    let allowed = n.div_ceil(100);
    let slow: Vec<&Duration> = report
        .samples
        .iter()
        .filter(|d| **d > Duration::from_secs(3))
        .collect();
    assert!(
        slow.len() <= allowed,
        "{} of {n} presses waited over 3 s for their board: {slow:?}",
        slow.len()
    );
    assert!(
        report.worst <= worst,
        "a press waited {:?} for its board",
        report.worst
    );
    assert!(report.rss_warm > 0 && report.rss_end > 0);
    // Flat after warm-up: some growth is the allocator's, not a leak.
    assert!(
        report.rss_end <= report.rss_warm + report.rss_warm / 2 + 16 * 1024,
        "RSS grew from {} KiB to {} KiB",
        report.rss_warm,
        report.rss_end
    );
}

#[test]
fn soak_short() {
    let mut report = soak(6, 3, 3, Duration::from_secs(15));
    print(&mut report);
    check(&report, Duration::from_secs(8));
}

#[test]
#[ignore = "long: about four minutes; run with --ignored --nocapture"]
fn soak_long() {
    // 200 games at once in 50 chats: 20 private chats against the bot and 30 groups with
    // six games between people each (plus the chat under constant 429).
    let mut report = soak(20, 30, 6, Duration::from_secs(180));
    print(&mut report);
    check(&report, Duration::from_secs(8));
}
