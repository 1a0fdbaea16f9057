//! Puzzles on Discord (issue 34), end to end: the real serenity client (the adapter in this
//! process, on a small collection of real puzzles) against the fake Discord. `/puzzle play`
//! and `/puzzle daily` answer publicly with the board (`board.png` in an embed) and the
//! solver's nine pits, the illegal ones disabled; a pit press updates the pressed message
//! until the puzzle is solved or missed, then Next and Daily stand in for the pits; presses
//! by others and on old boards are refused privately and change nothing; `/puzzle stats`
//! and `/puzzle top` answer privately; the daily puzzle is played once a day. The daily
//! post: `/puzzle post hour:` by a member who may manage the server has the day's puzzle
//! posted in the channel at that hour, its Solve button gives each presser the puzzle
//! privately, and the post's count is redrawn as they solve or miss it.

use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use toguz::manager::{Clock, Manager, ManagerConfig};
use toguz::model::{ChatRef, Platform};
use toguz::rules::Position;
use toguz::testing::discord::bot::{start_with_manager, Options};
use toguz::testing::discord::{buttons, id_of, is_valid_png, Call, FakeDiscord, Place, User};
use toguz::testing::manager::{test_config, T0};

const GUILD: u64 = 940_000_000_000_000_000;
const CHANNEL: u64 = 770;
const WAIT: Duration = Duration::from_secs(15);

/// Black to move; the line is 5, White's answer 3, then 6. Rated 1500 here.
const TWO_MOVES: &str = r#"{"id":"p7c21ec94de","position":"4,2,14,1,1,16,3,x,7/1,5,1,3,14,14,2,5,2 40/27 b 10","solution":"536","themes":["capture"],"rating":1500.0,"score":500,"gap":600,"depth":10,"effort":20,"game":"test"}"#;
const TWO_MOVES_FEN: &str = "4,2,14,1,1,16,3,x,7/1,5,1,3,14,14,2,5,2 40/27 b 10";
/// White to move; the line is 9. Rated 1300 here (in the daily puzzle's band).
const ONE_MOVE: &str = r#"{"id":"p11441970ae","position":"3,2,15,2,16,x,3,15,14/14,2,1,14,2,3,2,1,4 38/11 w 6","solution":"9","themes":["capture"],"rating":1300.0,"score":500,"gap":600,"depth":10,"effort":20,"game":"test"}"#;
const ONE_MOVE_FEN: &str = "3,2,15,2,16,x,3,15,14/14,2,1,14,2,3,2,1,4 38/11 w 6";

const NOT_YOURS: &str = "This is someone else's puzzle. Ask for your own with /puzzle.";
const STALE: &str = "This board is out of date: play on the newest one.";
const BAD_BUTTON: &str =
    "This button does not belong to any game I know. Use /board to see your current board.";

/// The adapter in this process against the fake, on a manager with a manual clock (at
/// `T0`: the day of the daily puzzle is known) and the collection `puzzles`.
struct Server {
    fake: FakeDiscord,
    manager: Manager,
    clock: Clock,
    _bot: tokio::task::JoinHandle<anyhow::Result<()>>,
    _dir: tempfile::TempDir,
    alice: User,
    bob: User,
}

impl Server {
    async fn start(puzzles: &[&str]) -> Server {
        let fake = FakeDiscord::start().await;
        let dir = tempfile::tempdir().expect("temp dir");
        let store = toguz::store::Store::open(&dir.path().join("data")).expect("a store");
        let engine = toguz::engine::EnginePool::new(toguz::engine::EngineConfig::default());
        let config = ManagerConfig {
            puzzles: Some(Arc::from(puzzles.join("\n"))),
            ..test_config()
        };
        let clock = Clock::manual(T0);
        let manager = Manager::start_with_clock(store, engine, config, clock.clone())
            .await
            .expect("a manager");
        let bot = start_with_manager(&fake, manager.clone(), &Options::default());
        fake.wait_ready(1).await;
        fake.wait_call(0, "command registration", |c| {
            c.method == "PUT" && c.path.ends_with("/commands") && c.status == 200
        })
        .await;
        Server {
            fake,
            manager,
            clock,
            _bot: bot,
            _dir: dir,
            alice: User::new(1201, "Alice"),
            bob: User::new(1202, "Bob"),
        }
    }

    fn place(&self) -> Place {
        self.fake.guild_channel(GUILD, CHANNEL)
    }

    /// `/puzzle <sub> <options>` by `user`: the interaction and its answer.
    async fn puzzle(&self, user: &User, sub: &str, options: Value) -> (u64, Call) {
        let options = json!([{ "name": sub, "type": 1, "options": options }]);
        let id = self.fake.slash(user, self.place(), "puzzle", options, &[]);
        (id, self.fake.wait_callback(id).await)
    }

    /// `/puzzle play` (or `daily`) by `user`: the puzzle posted for the channel.
    async fn posted(&self, user: &User, sub: &str) -> Value {
        let (id, call) = self.puzzle(user, sub, json!([])).await;
        assert_eq!(call.callback_type(), Some(4), "{}", content(&call));
        assert!(!call.is_ephemeral(), "a puzzle is for the channel");
        let message = self.fake.original_message(id).expect("the puzzle");
        self.check_image(&message);
        message
    }

    /// `/puzzle stats` or `/puzzle top` by `user`: the private answer's text.
    async fn private(&self, user: &User, sub: &str, options: Value) -> String {
        let (_, call) = self.puzzle(user, sub, options).await;
        assert_eq!(call.callback_type(), Some(4));
        assert!(call.is_ephemeral(), "/puzzle {sub} answers privately");
        content(&call)
    }

    /// `user` presses `custom_id` on `message`, which is updated in place: the message
    /// after it. (On a machine slow enough for the bot to defer, the update comes as an
    /// edit of the original response instead.)
    async fn play(&self, user: &User, message: &Value, custom_id: &str) -> Value {
        let before = self.fake.message(id_of(message)).expect("the message");
        let id = self.fake.press(user, id_of(message), custom_id);
        let call = self.fake.wait_callback(id).await;
        let kind = call.callback_type();
        assert!(matches!(kind, Some(6 | 7)), "{kind:?} {}", content(&call));
        let after = self
            .fake
            .wait_for("the message updated", WAIT, |f| {
                let now = f.message(id_of(message))?;
                let changed =
                    now["embeds"] != before["embeds"] || now["components"] != before["components"];
                changed.then_some(now)
            })
            .await;
        if kind == Some(7) {
            let data = call.message_data().expect("data");
            assert_eq!(after["components"], data["components"], "the update shown");
        }
        self.check_image(&after);
        after
    }

    /// `user`'s press of `custom_id` on `message` is refused privately with `text`, and
    /// the message is left as it was.
    async fn refused(&self, user: &User, message: &Value, custom_id: &str, text: &str) {
        let before = self.fake.message(id_of(message)).expect("the message");
        // Data the message does not carry can only come from a forged client.
        let id = match buttons(&before).iter().any(|b| b["custom_id"] == custom_id) {
            true => self.fake.press(user, id_of(message), custom_id),
            false => self.fake.press_forged(user, id_of(message), custom_id),
        };
        let call = self.fake.wait_callback(id).await;
        assert_eq!(call.callback_type(), Some(4));
        assert!(call.is_ephemeral(), "a refusal is private");
        assert_eq!(content(&call), text);
        let after = self.fake.message(id_of(message)).expect("the message");
        assert_eq!(
            (description(&after), buttons(&after)),
            (description(&before), buttons(&before)),
            "a refused press changed the message"
        );
        assert_eq!(after["attachments"], before["attachments"]);
    }

    /// One attachment, `board.png`, a valid PNG shown in the embed.
    fn check_image(&self, message: &Value) {
        let attachments = message["attachments"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(attachments.len(), 1, "one board image: {message}");
        assert_eq!(attachments[0]["filename"], "board.png");
        assert!(is_valid_png(&self.fake.attachment_bytes(&attachments[0])));
        assert_eq!(
            message["embeds"][0]["image"]["url"], attachments[0]["url"],
            "the embed shows the board"
        );
    }
}

fn content(call: &Call) -> String {
    call.message_data()
        .and_then(|d| d["content"].as_str())
        .unwrap_or_default()
        .to_string()
}

fn description(message: &Value) -> &str {
    message["embeds"][0]["description"]
        .as_str()
        .unwrap_or_default()
}

fn lines(message: &Value) -> Vec<&str> {
    description(message).lines().collect()
}

/// (label, custom_id, disabled) of every button.
fn shown(message: &Value) -> Vec<(String, String, bool)> {
    buttons(message)
        .iter()
        .map(|b| {
            (
                b["label"].as_str().unwrap_or_default().to_string(),
                b["custom_id"].as_str().unwrap_or_default().to_string(),
                b["disabled"] == true,
            )
        })
        .collect()
}

/// The nine pits of `owner`'s attempt `attempt` at `step` on `pos`, `"<pit> · <balls>"`,
/// the illegal ones disabled; five a row.
fn pits(pos: &Position, owner: &User, attempt: u32, step: u8) -> Vec<(String, String, bool)> {
    let side = pos.to_move();
    (1..=9u8)
        .map(|pit| {
            (
                format!("{pit} · {}", pos.pit(side, pit)),
                format!("1zm:{}:{attempt}:{step}:{pit}", owner.id),
                !pos.is_legal(pit),
            )
        })
        .collect()
}

fn next_buttons() -> Vec<(String, String, bool)> {
    vec![
        ("Next puzzle".into(), "1zn".into(), false),
        ("Daily puzzle".into(), "1zd".into(), false),
    ]
}

fn rows(message: &Value) -> Vec<usize> {
    message["components"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| r["components"].as_array().map_or(0, Vec::len))
        .collect()
}

/// The custom_id of `pit` on a puzzle.
fn pit_id(message: &Value, pit: u8) -> String {
    let prefix = format!("{pit} · ");
    shown(message)
        .into_iter()
        .find(|(label, _, _)| label.starts_with(&prefix))
        .map(|(_, id, _)| id)
        .unwrap_or_else(|| panic!("no pit {pit}: {message}"))
}

/// The change of the player's rating on an ended puzzle: "Your puzzle rating: 1662? (+162)".
fn rating_change(message: &Value) -> i64 {
    let line = lines(message)
        .into_iter()
        .find(|l| l.starts_with("Your puzzle rating: "))
        .unwrap_or_else(|| panic!("no rating line: {}", description(message)));
    let inner = line.rsplit('(').next().unwrap_or_default();
    inner.trim_end_matches(')').parse().expect("a change")
}

/// The puzzle's rating on an ended puzzle: "Puzzle rating 1432 · themes: capture".
fn puzzle_rating(message: &Value) -> i64 {
    let line = lines(message)
        .into_iter()
        .find(|l| l.starts_with("Puzzle rating "))
        .unwrap_or_else(|| panic!("no puzzle rating: {}", description(message)));
    assert!(line.ends_with(" · themes: capture"), "{line}");
    let digits: String = line["Puzzle rating ".len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().expect("a rating")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_is_solved_in_its_message_and_refusals_are_private() {
    let server = Server::start(&[TWO_MOVES]).await;
    let (alice, bob) = (&server.alice, &server.bob);
    let start = Position::from_fen(TWO_MOVES_FEN).unwrap();
    let first = server.posted(alice, "play").await;
    assert_eq!(
        lines(&first),
        [
            "🧩 Puzzle for Alice",
            "Your move (Black): find the best one."
        ]
    );
    assert_eq!(shown(&first), pits(&start, alice, 1, 0));
    assert_eq!(rows(&first), [5, 4]);

    // Bob may watch, not play.
    server
        .refused(bob, &first, &pit_id(&first, 5), NOT_YOURS)
        .await;
    // Asked again, the attempt on is posted again (a puzzle cannot be skipped).
    let board = server.posted(alice, "play").await;
    assert_ne!(id_of(&board), id_of(&first));
    assert_eq!(shown(&board), shown(&first));

    // The line's first move: White's answer is played and named.
    let after = server.play(alice, &board, &pit_id(&board, 5)).await;
    assert_eq!(
        lines(&after),
        [
            "🧩 Puzzle for Alice",
            "White replied with pit 3.",
            "Your move (Black): find the best one."
        ]
    );
    let mut pos = start;
    pos.play(5).unwrap();
    pos.play(3).unwrap();
    assert_eq!(shown(&after), pits(&pos, alice, 1, 1));
    // The first message still shows the start: its move is out of date.
    server
        .refused(alice, &first, &pit_id(&first, 5), STALE)
        .await;
    // Data the first message never carried (the current step's move) is refused as forged,
    // though it is Alice's own right move.
    let forged = pit_id(&first, 5).replace(":1:0:5", ":1:1:6");
    assert_ne!(forged, pit_id(&first, 5));
    server.refused(alice, &first, &forged, BAD_BUTTON).await;

    // The second move solves it: the themes and both ratings; Next and Daily.
    let solved = server.play(alice, &after, &pit_id(&after, 6)).await;
    assert_eq!(lines(&solved)[..2], ["🧩 Puzzle for Alice", "✅ Solved!"]);
    assert!(puzzle_rating(&solved) < 1500, "a solved puzzle gets easier");
    assert!(rating_change(&solved) > 0, "{}", description(&solved));
    assert_eq!(shown(&solved), next_buttons());
    assert_eq!(solved["embeds"][0]["color"], 0x2E7D32);

    // Stats and the boards, privately.
    let stats = server.private(alice, "stats", json!([])).await;
    let stats: Vec<&str> = stats.lines().collect();
    assert_eq!(stats[0], "🧩 Puzzles: Alice");
    assert!(stats.contains(&"Solved 1, missed 0"), "{stats:?}");
    assert!(stats.contains(&"Puzzles seen: 1 of 1"), "{stats:?}");
    let top = server.private(bob, "top", json!([])).await;
    let top: Vec<&str> = top.lines().collect();
    assert_eq!(top[0], "🧩 Best puzzle solvers in this chat");
    assert_eq!(top.len(), 2, "{top:?}");
    assert!(
        top[1].starts_with("1. Alice ") && top[1].ends_with(" (1 of 1)"),
        "{top:?}"
    );
    let options = json!([{ "name": "global", "type": 5, "value": true }]);
    let global = server.private(alice, "top", options).await;
    assert_eq!(global, format!("🧩 Best puzzle solvers\n{}", top[1]));

    // Next: Alice's next puzzle (the only one again, attempt 2) posted as a new message;
    // the solved one stays as it is.
    let press = server.fake.press(alice, id_of(&solved), "1zn");
    let call = server.fake.wait_callback(press).await;
    assert_eq!(call.callback_type(), Some(4), "{}", content(&call));
    assert!(!call.is_ephemeral(), "the next puzzle is for the channel");
    let next = server
        .fake
        .original_message(press)
        .expect("the next puzzle");
    assert_ne!(id_of(&next), id_of(&board));
    assert_eq!(
        server.fake.message(id_of(&board)).expect("kept")["embeds"],
        solved["embeds"]
    );
    assert_eq!(
        lines(&next),
        [
            "🧩 Puzzle for Alice",
            "Your move (Black): find the best one."
        ]
    );
    assert_eq!(shown(&next), pits(&start, alice, 2, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_miss_and_the_daily_puzzle_once_a_day() {
    let server = Server::start(&[ONE_MOVE]).await;
    let (alice, bob) = (&server.alice, &server.bob);
    let start = Position::from_fen(ONE_MOVE_FEN).unwrap();

    // Bob's puzzle: he misses it, and is shown the solution and what it does.
    let his = server.posted(bob, "play").await;
    assert_eq!(
        lines(&his),
        ["🧩 Puzzle for Bob", "Your move (White): find the best one."]
    );
    assert_eq!(shown(&his), pits(&start, bob, 1, 0));
    let wrong = start
        .legal_moves()
        .iter()
        .find(|&p| p != 9)
        .expect("a wrong pit");
    let missed = server.play(bob, &his, &pit_id(&his, wrong)).await;
    let solution = start.clone().play(9).unwrap();
    let gain = match (solution.tuzdek_created, solution.captured) {
        (true, _) => "It makes a tuzdek.".to_string(),
        (false, 0) => "Any other move loses at least 6 balls.".to_string(),
        (false, n) => format!("It captures {n} balls."),
    };
    assert_eq!(
        lines(&missed)[..3],
        [
            "🧩 Puzzle for Bob",
            &format!("❌ Not pit {wrong}: the move was pit 9."),
            &gain,
        ]
    );
    assert!(puzzle_rating(&missed) > 1300, "a missed puzzle gets harder");
    assert!(rating_change(&missed) < 0, "{}", description(&missed));
    assert_eq!(shown(&missed), next_buttons());
    assert_eq!(missed["embeds"][0]["color"], 0xC62828);
    let stats = server.private(bob, "stats", json!([])).await;
    assert!(stats.contains("\nSolved 0, missed 1\n"), "{stats}");
    assert!(stats.contains("\nRecent puzzles: ❌\n"), "{stats}");

    // Alice's daily puzzle: solved, with her streak.
    let daily = server.posted(alice, "daily").await;
    assert_eq!(
        lines(&daily),
        [
            "🧩 Daily puzzle, 2027-01-15",
            "Your move (White): find the best one."
        ]
    );
    assert_eq!(shown(&daily), pits(&start, alice, 1, 0));
    let solved = server.play(alice, &daily, &pit_id(&daily, 9)).await;
    let shown_lines = lines(&solved);
    assert_eq!(
        shown_lines[..2],
        ["🧩 Daily puzzle, 2027-01-15", "✅ Solved!"]
    );
    assert_eq!(shown_lines.last(), Some(&"Daily streak: 1 day"));

    // Once a day: by command and by the button, refused privately.
    let done = "You have already solved today's puzzle. The next one comes at 00:00 UTC.";
    let (_, again) = server.puzzle(alice, "daily", json!([])).await;
    assert!(again.is_ephemeral());
    assert_eq!(content(&again), done);
    server.refused(alice, &solved, "1zd", done).await;
    let stats = server.private(alice, "stats", json!([])).await;
    assert!(stats.contains("\nToday's puzzle: solved ✅\n"), "{stats}");
    assert!(stats.contains("\nDaily streak: 1 (best 1)\n"), "{stats}");
}

// ----- the daily post (`/puzzle post hour:` in a channel) -----

/// Discord's MANAGE_GUILD permission bit.
const MANAGE_GUILD: u64 = 1 << 5;
/// T0 is 08:00 UTC on 2027-01-15; the post's hour here is 09:00.
const HOUR: u64 = 3600;
const POST_SET: &str = "The daily puzzle will be posted here every day at 09:00 UTC.";
const POST_ADMINS: &str = "Only the chat's admins can choose when the daily puzzle is posted.";

impl Server {
    fn guild(&self) -> ChatRef {
        ChatRef::new(Platform::Discord, GUILD.to_string())
    }

    /// Moves the manager's clock on by `secs` and runs the daily posts' tick (as its own
    /// loop does every 30 s): how many posts it claimed.
    async fn tick_after(&self, secs: u64) -> usize {
        self.clock.advance(secs);
        self.manager.tick_daily_posts().await
    }

    /// The post the tick made in `channel` (a message created after call `mark`), once the
    /// adapter has attached it to the server's record.
    async fn daily_post(&self, mark: usize, channel: u64) -> Value {
        let path = format!("/channels/{channel}/messages");
        let call = self
            .fake
            .wait_call(mark, "the daily post", |c| {
                c.method == "POST" && c.path.ends_with(&path)
            })
            .await;
        assert_eq!(call.status, 200, "{}", self.fake.describe_calls());
        // The channel's newest plain message (not an interaction's answer: type 0).
        let made = self.fake.newest_in_channel(channel, |m| m["type"] == 0);
        let id = id_of(&made.expect("the post"));
        let want = format!("{channel}:{id}");
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let post = self.manager.daily_post(&self.guild()).await.unwrap();
            if post.and_then(|p| p.message).is_some_and(|m| m.id == want) {
                break;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "the post not attached"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let message = self.fake.message(id).expect("the post");
        self.check_image(&message);
        message
    }

    /// `user` presses the post's Solve button: the day's puzzle, shown to them alone.
    async fn solve_from(&self, user: &User, post: &Value) -> Value {
        let id = self.fake.press(user, id_of(post), "1zd");
        let call = self.fake.wait_callback(id).await;
        assert_eq!(call.callback_type(), Some(4), "{}", content(&call));
        assert!(call.is_ephemeral(), "the puzzle is for the presser alone");
        let message = self.fake.original_message(id).expect("the puzzle");
        self.check_image(&message);
        message
    }

    /// The post once its description has `line` (the count redrawn in place).
    async fn until_count(&self, post: &Value, line: &str) -> Value {
        self.fake
            .wait_for(&format!("{line:?} on the post"), WAIT, |f| {
                let now = f.message(id_of(post))?;
                lines(&now).contains(&line).then_some(now)
            })
            .await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_has_the_daily_puzzle_posted_in_a_channel_and_its_count_redrawn() {
    let server = Server::start(&[ONE_MOVE]).await;
    let (alice, bob) = (&server.alice, &server.bob);
    let carol = User::new(1203, "Carol");
    let hour = json!([{ "name": "hour", "type": 4, "value": 9 }]);

    // Without Manage Server: refused privately, and nothing is set.
    assert_eq!(server.private(bob, "post", hour.clone()).await, POST_ADMINS);
    assert_eq!(
        server.manager.daily_post(&server.guild()).await.unwrap(),
        None
    );
    // With it: set for this channel, confirmed privately.
    server.fake.set_permissions(&carol, MANAGE_GUILD);
    assert_eq!(server.private(&carol, "post", hour).await, POST_SET);
    let set = server.manager.daily_post(&server.guild()).await.unwrap();
    let set = set.expect("the post is set");
    assert_eq!((set.hour, set.place), (9, CHANNEL.to_string()));

    // 08:00: not yet; 09:00: the day's puzzle in the channel, with a Solve button.
    let mark = server.fake.call_count();
    assert_eq!(server.tick_after(0).await, 0, "before its hour");
    assert_eq!(server.tick_after(HOUR).await, 1);
    let post = server.daily_post(mark, CHANNEL).await;
    assert_eq!(post["flags"].as_u64().unwrap_or(0) & 64, 0, "for everyone");
    assert_eq!(
        lines(&post),
        [
            "🧩 Daily puzzle, 2027-01-15",
            "White to move: find the best move.",
            "Solved here today: 0 of 0",
        ]
    );
    assert_eq!(shown(&post), [("Solve".into(), "1zd".into(), false)]);
    assert_eq!(server.tick_after(10 * HOUR).await, 0, "once a day");

    // Bob presses Solve: his own attempt at the day's puzzle, privately; he solves it.
    let start = Position::from_fen(ONE_MOVE_FEN).unwrap();
    let his = server.solve_from(bob, &post).await;
    assert_eq!(
        lines(&his),
        [
            "🧩 Daily puzzle, 2027-01-15",
            "Your move (White): find the best one."
        ]
    );
    assert_eq!(shown(&his), pits(&start, bob, 1, 0));
    let solved = server.play(bob, &his, &pit_id(&his, 9)).await;
    assert_eq!(
        lines(&solved)[..2],
        ["🧩 Daily puzzle, 2027-01-15", "✅ Solved!"]
    );
    // The post is redrawn in place with his name, its board and button kept.
    let redrawn = server.until_count(&post, "Solved here today: 1 of 1").await;
    assert_eq!(lines(&redrawn)[3..], ["Solved by: Bob"]);
    assert_eq!(shown(&redrawn), shown(&post));
    server.check_image(&redrawn);

    // Alice misses it: one solver of two.
    let hers = server.solve_from(alice, &post).await;
    let wrong = start
        .legal_moves()
        .iter()
        .find(|&p| p != 9)
        .expect("a wrong pit");
    let missed = server.play(alice, &hers, &pit_id(&hers, wrong)).await;
    assert!(description(&missed).contains("\n❌ Not pit "), "{missed}");
    let redrawn = server.until_count(&post, "Solved here today: 1 of 2").await;
    assert_eq!(lines(&redrawn)[3..], ["Solved by: Bob"]);
    // Nothing else was posted in the channel: the puzzles were the pressers' own.
    let in_channel: Vec<u64> = server
        .fake
        .channel_messages(CHANNEL)
        .iter()
        .filter(|m| m["flags"].as_u64().unwrap_or(0) & 64 == 0)
        .map(id_of)
        .collect();
    assert_eq!(in_channel, [id_of(&post)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_moved_to_another_channel_keeps_todays_post_counted() {
    let server = Server::start(&[ONE_MOVE]).await;
    let (alice, bob) = (&server.alice, &server.bob);
    server.fake.set_permissions(alice, MANAGE_GUILD);
    let hour = json!([{ "name": "hour", "type": 4, "value": 9 }]);
    assert_eq!(server.private(alice, "post", hour.clone()).await, POST_SET);
    let mark = server.fake.call_count();
    assert_eq!(server.tick_after(HOUR).await, 1);
    let post = server.daily_post(mark, CHANNEL).await;

    // Later that day the post is moved to another channel of the server: from tomorrow.
    const OTHER: u64 = 771;
    let options = json!([{ "name": "post", "type": 1, "options": hour }]);
    let other = server.fake.guild_channel(GUILD, OTHER);
    let id = server.fake.slash(alice, other, "puzzle", options, &[]);
    let call = server.fake.wait_callback(id).await;
    assert!(call.is_ephemeral());
    assert_eq!(content(&call), POST_SET);
    assert_eq!(server.tick_after(HOUR).await, 0, "posted today already");

    // Today's post, in the first channel, still counts its solvers.
    let his = server.solve_from(bob, &post).await;
    server.play(bob, &his, &pit_id(&his, 9)).await;
    let redrawn = server.until_count(&post, "Solved here today: 1 of 1").await;
    assert_eq!(lines(&redrawn)[3..], ["Solved by: Bob"]);

    // The next day's post goes to the new channel.
    let mark = server.fake.call_count();
    assert_eq!(server.tick_after(24 * HOUR).await, 1);
    let next = server.daily_post(mark, OTHER).await;
    assert_eq!(lines(&next)[0], "🧩 Daily puzzle, 2027-01-16");
    assert_eq!(lines(&next)[2], "Solved here today: 0 of 0");
}

/// Issue 49, finding 7: a solver's name is shown as typed in the post's embed, never as
/// markdown: a masked link in a name is no link, `**x**` no bold text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_solvers_name_in_the_daily_post_is_no_link() {
    let server = Server::start(&[ONE_MOVE]).await;
    let alice = &server.alice;
    server.fake.set_permissions(alice, MANAGE_GUILD);
    let hour = json!([{ "name": "hour", "type": 4, "value": 9 }]);
    assert_eq!(server.private(alice, "post", hour).await, POST_SET);
    let mark = server.fake.call_count();
    assert_eq!(server.tick_after(HOUR).await, 1);
    let post = server.daily_post(mark, CHANNEL).await;

    let mallory = User::new(1204, "[free](https://evil.io) **x**");
    let his = server.solve_from(&mallory, &post).await;
    server.play(&mallory, &his, &pit_id(&his, 9)).await;
    let redrawn = server.until_count(&post, "Solved here today: 1 of 1").await;
    assert_eq!(
        lines(&redrawn)[3..],
        [r"Solved by: \[free\]\(https\://evil.io\) \*\*x\*\*"]
    );
}

/// Issue 49, finding 17: Next and Daily presses count against the per-user command limit
/// (each reads and writes the presser's puzzle record and draws a board): past it, the
/// presser is told privately to slow down and nothing is posted; someone else is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn next_and_daily_presses_are_limited_as_commands_are() {
    let server = Server::start(&[ONE_MOVE]).await;
    let (alice, bob) = (&server.alice, &server.bob);
    let his = server.posted(bob, "play").await;
    let missed = server.play(bob, &his, &pit_id(&his, 1)).await;
    assert_eq!(shown(&missed), next_buttons());
    let slow = "Too many requests at once. Please wait a minute, then ask again.";
    let mut limited = None;
    for i in 0..30 {
        let id = server
            .fake
            .press(bob, id_of(&missed), if i % 2 == 0 { "1zn" } else { "1zd" });
        let call = server.fake.wait_callback(id).await;
        if call.is_ephemeral() && content(&call) == slow {
            limited = Some(i);
            break;
        }
    }
    // The command limit is 20 a minute; `/puzzle play` was one of them.
    let limited = limited.expect("presses past the limit are refused");
    assert!(limited <= 19, "refused only after {limited} presses");
    let public = || {
        let all = server.fake.channel_messages(CHANNEL);
        all.iter()
            .filter(|m| m["flags"].as_u64().unwrap_or(0) & 64 == 0)
            .count()
    };
    let posted = public();
    let id = server.fake.press(bob, id_of(&missed), "1zn");
    let call = server.fake.wait_callback(id).await;
    assert_eq!(content(&call), slow);
    assert_eq!(public(), posted, "nothing posted");
    // Alice is not held back by Bob.
    server.posted(alice, "play").await;
}
