//! The soak: many games at once, at Telegram's real flood limits. Never lifted (a soak
//! shows what the bot does within what Telegram allows): the fake keeps 20 posts a minute
//! per group, about one a second per private chat and about 30 a second in all, and the bot
//! its shipped limits. `soak_short` runs with `cargo test`; the long one is `#[ignore]`d:
//! `cargo test --release --test telegram soak_long -- --ignored --nocapture`.

use crate::load::{board_of, bot_game, group_game, press_first, to_move, wait_game};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use toguz::testing::telegram::bot::{latest_board, BotProcess, TOKEN, WAIT};
use toguz::testing::telegram::flood::GROUP_PER_MINUTE;
use toguz::testing::telegram::{FakeTelegram, TgChat, TgUser};

/// The soak's pace: one press every 150 ms at most, about 20 posts a second.
const PRESS_GAP: Duration = Duration::from_millis(150);

/// The shortest time between two presses in one group (and from its games' setup to the
/// first): a move between people posts twice there (the board's edit and the turn notice;
/// the old notice's deletion is not counted), and the bot's own bucket for a group gives
/// one post every 3 s after its burst of 4. A press every 9 s leaves it a token for a
/// retry (10% of posts fail here), else a failed edit waits 3 s for its next try.
const GROUP_PRESS_GAP: Duration = Duration::from_secs(9);

/// Whether a group's last minute leaves room for a move's two posts and a retry: people
/// there press only as fast as Telegram lets the group be shown (20 posts a minute); a
/// faster press would only wait for the group's budget, which no bot can change.
fn group_has_room(fake: &FakeTelegram, chat: i64) -> bool {
    let minute_ago = Instant::now() - Duration::from_secs(60);
    fake.posts_since(chat, minute_ago) + 3 <= GROUP_PER_MINUTE
}

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
/// 429 / 500 / 502 on 10% of all posts, presses at random moments for `run` (in a group,
/// only while its budget has room: `group_has_room`).
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
    // Game by game across the groups, so that each group's posts wait for its budget while
    // the others' go out.
    for k in 0..per_group {
        for g in 0..groups {
            let chat = TgChat::group(-70_000 - g, "Soak");
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
    // The groups' buckets are spent on the setup: their first presses wait a gap too.
    let mut group_pressed: HashMap<i64, Instant> = games
        .iter()
        .filter(|g| g.chat.id < 0)
        .map(|g| (g.chat.id, Instant::now()))
        .collect();
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
            let group = g.chat.id < 0;
            let recent = group_pressed
                .get(&g.chat.id)
                .is_some_and(|at| at.elapsed() < GROUP_PRESS_GAP);
            if group && (recent || !group_has_room(&fake, g.chat.id)) {
                continue;
            }
            last_press = Instant::now();
            let Some(mover) = to_move(&board, &g.players).cloned() else {
                continue;
            };
            if group {
                group_pressed.insert(g.chat.id, Instant::now());
            }
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
    // The bot kept within Telegram's limits: no post was refused for being over one (the
    // 429s it met were the scripted ones).
    let refused = fake.flood_refusals();
    assert!(refused.is_empty(), "over Telegram's limits: {refused:#?}");
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
