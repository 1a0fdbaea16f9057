//! Puzzles in a Telegram group (issue 34), through the real teloxide client against the fake
//! Bot API: `/puzzle` posts the board as a photo with the solver's legal pits as buttons; a
//! pit press edits that message (photo, caption, keyboard) move by move until the puzzle is
//! solved or missed, then Next and Daily post new ones; presses by others, on old boards and
//! with data the message never carried are refused and change nothing; `/puzzle daily`,
//! `/puzzle stats`, `/puzzle top`; an attempt outlives a restart. The daily post: an admin's
//! `/puzzle post HOUR` has the day's puzzle posted in the group at that hour with a link that
//! opens it in a private chat, and its count redrawn in place as people solve it there. The
//! adapter runs in this process (`InProcessBot`) on a small collection of real puzzles.

use std::sync::Arc;
use toguz::manager::puzzles::DailyPost;
use toguz::manager::ManagerConfig;
use toguz::model::{ChatRef, Platform};
use toguz::rules::Position;
use toguz::testing::manager::{test_config, T0};
use toguz::testing::telegram::bot::{TOKEN, WAIT};
use toguz::testing::telegram::inproc::InProcessBot;
use toguz::testing::telegram::{
    check_png, Call, FakeTelegram, StoredMessage, TgChat, TgUser, BOT_USERNAME,
};
use toguz::testing::Lifted;

const GROUP: i64 = -100_734;

/// Black to move; the line is 5, White's answer 3, then 6. Rated 1500 here.
const TWO_MOVES: &str = r#"{"id":"p7c21ec94de","position":"4,2,14,1,1,16,3,x,7/1,5,1,3,14,14,2,5,2 40/27 b 10","solution":"536","themes":["capture"],"rating":1500.0,"score":500,"gap":600,"depth":10,"effort":20,"game":"test"}"#;
const TWO_MOVES_FEN: &str = "4,2,14,1,1,16,3,x,7/1,5,1,3,14,14,2,5,2 40/27 b 10";
/// White to move; the line is 9. Rated 1300 here (in the daily puzzle's band).
const ONE_MOVE: &str = r#"{"id":"p11441970ae","position":"3,2,15,2,16,x,3,15,14/14,2,1,14,2,3,2,1,4 38/11 w 6","solution":"9","themes":["capture"],"rating":1300.0,"score":500,"gap":600,"depth":10,"effort":20,"game":"test"}"#;
const ONE_MOVE_FEN: &str = "3,2,15,2,16,x,3,15,14/14,2,1,14,2,3,2,1,4 38/11 w 6";

const NOT_YOURS: &str = "This is someone else's puzzle. Ask for your own with /puzzle.";
const STALE: &str = "This board is out of date: play on the newest one.";
const OVER: &str = "This puzzle is over. Ask for the next one with /puzzle.";
const BAD_BUTTON: &str =
    "This button is not valid (an old or damaged message). Use /board for a fresh board.";
const NEXT_BUTTONS: [(&str, &str); 2] = [("Next puzzle", "1zn"), ("Daily puzzle", "1zd")];

/// The bot in this process on a collection of `puzzles`, and a group with Alice and Bob.
struct Room {
    // Declared first so the bot is stopped before the fake server and its store's directory.
    bot: Option<InProcessBot>,
    fake: FakeTelegram,
    dir: tempfile::TempDir,
    config: ManagerConfig,
    group: TgChat,
    alice: TgUser,
    bob: TgUser,
}

/// A press's answer: its text (empty for none) and whether it is an alert.
#[derive(Debug, PartialEq)]
struct Answer {
    text: String,
    alert: bool,
}

impl Room {
    fn start(puzzles: &[&str]) -> Room {
        Room::start_with(puzzles, None)
    }

    /// `start` with the flood limits lifted, for the reason `lifted` gives.
    fn start_with(puzzles: &[&str], lifted: Option<Lifted>) -> Room {
        let fake = FakeTelegram::start(TOKEN);
        let dir = tempfile::tempdir().expect("temp dir");
        let config = ManagerConfig {
            puzzles: Some(Arc::from(puzzles.join("\n"))),
            ..test_config()
        };
        let bot = match lifted {
            Some(lifted) => {
                InProcessBot::start_with_lifted(&fake, config.clone(), dir.path(), lifted)
            }
            None => InProcessBot::start_with(&fake, config.clone(), dir.path()),
        };
        Room {
            bot: Some(bot),
            fake,
            dir,
            config,
            group: TgChat::group(GROUP, "Puzzle club"),
            alice: TgUser::new(901, "Alice", "alice_p", "en"),
            bob: TgUser::new(902, "Bob", "bob_p", "en"),
        }
    }

    /// Stops the bot once it has taken every update, and starts it again on the same store;
    /// returns once the new adapter serves (it asks for the webhook's state as it starts
    /// taking updates, having subscribed to the manager's events).
    fn restart(&mut self) {
        let taken = self.fake.wait_until(WAIT, |v| v.pending_updates() == 0);
        assert!(taken, "the bot left updates unconfirmed");
        self.bot = None;
        let mark = self.fake.mark();
        self.bot = Some(InProcessBot::start_with(
            &self.fake,
            self.config.clone(),
            self.dir.path(),
        ));
        let serving = self
            .fake
            .wait_call(mark, WAIT, |c| c.ok() && c.method == "getWebhookInfo");
        assert!(serving.is_some(), "{:#?}", self.summary(mark));
    }

    /// `who` writes `text` in the group: the bot's photo in reply (a puzzle), and its call.
    fn ask_puzzle(&self, who: &TgUser, text: &str) -> (StoredMessage, Call) {
        let mark = self.fake.mark();
        let asked = self.fake.send_text(&self.group, who, text);
        let (_, call) = self
            .fake
            .wait_call(mark, WAIT, |c| {
                c.ok() && c.method == "sendPhoto" && c.i64("chat_id") == Some(GROUP)
            })
            .unwrap_or_else(|| panic!("no puzzle for {text}; calls: {:#?}", self.summary(mark)));
        let id = call.response["result"]["message_id"].as_i64().expect("id");
        let message = self.fake.message(GROUP, id).expect("stored");
        assert_eq!(
            message.reply_to,
            Some(asked),
            "the puzzle answers the command"
        );
        assert_png(&call);
        (message, call)
    }

    /// `who` writes `text` in the group: the text of the bot's reply.
    fn ask_text(&self, who: &TgUser, text: &str) -> String {
        let mark = self.fake.mark();
        let asked = self.fake.send_text(&self.group, who, text);
        let found = self.fake.wait_until(WAIT, |v| {
            v.bot_messages(GROUP)
                .iter()
                .any(|m| m.reply_to == Some(asked) && m.text.is_some())
        });
        assert!(
            found,
            "no answer to {text}; calls: {:#?}",
            self.summary(mark)
        );
        let messages = self.fake.bot_messages(GROUP);
        let answer = messages.iter().find(|m| m.reply_to == Some(asked));
        answer.and_then(|m| m.text.clone()).expect("a text")
    }

    /// `who` presses `data` under message `id`: the answer to the callback query.
    fn press(&self, id: i64, who: &TgUser, data: &str) -> Answer {
        let q = self.fake.press(&self.group, id, who, data);
        let call = self.fake.wait_answer(&q, WAIT).expect("press answered");
        Answer {
            text: call.str("text").unwrap_or_default(),
            alert: call.str("show_alert").is_some_and(|a| a == "true"),
        }
    }

    /// `who` presses `data` under message `id`, which is answered with no text and edited:
    /// the edit (editMessageMedia) and the message after it.
    fn play(&self, id: i64, who: &TgUser, data: &str) -> (Call, StoredMessage) {
        let before = self.fake.message(GROUP, id).expect("message").edits;
        let mark = self.fake.mark();
        let answer = self.press(id, who, data);
        assert_eq!(answer, Answer::quiet(), "a move is answered quietly");
        let (_, edit) = self
            .fake
            .wait_call(mark, WAIT, |c| {
                c.ok() && c.method == "editMessageMedia" && c.i64("message_id") == Some(id)
            })
            .unwrap_or_else(|| panic!("message {id} not edited: {:#?}", self.summary(mark)));
        assert_png(&edit);
        let edited = self.fake.wait_until(WAIT, |v| {
            v.message(GROUP, id).is_some_and(|m| m.edits > before)
        });
        assert!(edited);
        (edit, self.fake.message(GROUP, id).expect("message"))
    }

    /// `who`'s press of `data` on message `id` is refused with `text` (an alert or not),
    /// and the message is left as it was.
    fn refused(&self, id: i64, who: &TgUser, data: &str, text: &str, alert: bool) {
        let before = self.fake.message(GROUP, id).expect("message");
        let mark = self.fake.mark();
        let answer = self.press(id, who, data);
        let want = Answer {
            text: text.into(),
            alert,
        };
        assert_eq!(answer, want, "{data} on {id}");
        let after = self.fake.message(GROUP, id).expect("message");
        assert_eq!(after.edits, before.edits, "message {id} was edited");
        assert_eq!(
            (after.buttons(), after.caption),
            (before.buttons(), before.caption)
        );
        let calls = self.fake.calls();
        assert!(
            !calls[mark..]
                .iter()
                .any(|c| c.method.starts_with("edit") || c.method.starts_with("send")),
            "a refused press made: {:#?}",
            self.summary(mark)
        );
    }

    fn summary(&self, mark: usize) -> Vec<String> {
        self.fake.calls()[mark.min(self.fake.mark())..]
            .iter()
            .map(|c| {
                let text = c.str("text").or_else(|| c.caption()).unwrap_or_default();
                format!("{} {} {text:.160}", c.method, c.status)
            })
            .collect()
    }
}

impl Answer {
    fn quiet() -> Answer {
        Answer {
            text: String::new(),
            alert: false,
        }
    }
}

fn assert_png(call: &Call) {
    let png = call.photo_bytes().expect("a photo");
    let (w, h) = check_png(png).expect("a valid PNG");
    assert!(w >= 200 && h >= 100, "board image {w}x{h}");
}

fn caption(message: &StoredMessage) -> &str {
    message.caption.as_deref().unwrap_or_default()
}

fn lines(message: &StoredMessage) -> Vec<&str> {
    caption(message).lines().collect()
}

/// The keyboard of attempt `attempt` of `owner` at `step` on `pos`: every legal pit of the
/// solver, `"<pit> · <balls>"`, in order.
fn pits(pos: &Position, owner: &TgUser, attempt: u32, step: u8) -> Vec<(String, String)> {
    let side = pos.to_move();
    pos.legal_moves()
        .iter()
        .map(|pit| {
            (
                format!("{pit} · {}", pos.pit(side, pit)),
                format!("1zm:{}:{attempt}:{step}:{pit}", owner.id),
            )
        })
        .collect()
}

fn next_buttons() -> Vec<(String, String)> {
    NEXT_BUTTONS
        .iter()
        .map(|(l, d)| (l.to_string(), d.to_string()))
        .collect()
}

/// The data of `pit` on a keyboard.
fn data_of(message: &StoredMessage, pit: u8) -> String {
    let prefix = format!("{pit} · ");
    message
        .buttons()
        .into_iter()
        .find(|(label, _)| label.starts_with(&prefix))
        .map(|(_, data)| data)
        .unwrap_or_else(|| panic!("no pit {pit} on {:?}", message.buttons()))
}

/// Five pit buttons a row.
fn assert_rows(message: &StoredMessage) {
    let markup = message.reply_markup.as_ref().expect("a keyboard");
    let rows: Vec<usize> = markup["inline_keyboard"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r.as_array().map_or(0, Vec::len))
        .collect();
    let n = message.buttons().len();
    let mut want = vec![5; n / 5];
    if n % 5 > 0 {
        want.push(n % 5);
    }
    assert_eq!(rows, want);
}

/// The number after `prefix` on a caption's line starting with it ("Puzzle rating 1432 · …").
fn number_after(message: &StoredMessage, prefix: &str) -> i64 {
    let line = lines(message)
        .into_iter()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} in {:?}", caption(message)));
    let digits: String = line[prefix.len()..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '-' || *c == '+')
        .collect();
    digits.parse().unwrap_or_else(|_| panic!("{line:?}"))
}

/// The change of the player's rating on an ended puzzle: "Your puzzle rating: 1662? (+162)".
fn rating_change(message: &StoredMessage) -> i64 {
    let line = lines(message)
        .into_iter()
        .find(|l| l.starts_with("Your puzzle rating: "))
        .unwrap_or_else(|| panic!("no rating line in {:?}", caption(message)));
    let inner = line.rsplit('(').next().unwrap_or_default();
    inner.trim_end_matches(')').parse().expect("a change")
}

#[test]
fn a_puzzle_is_solved_move_by_move_in_its_message_then_ranked() {
    let room = Room::start(&[TWO_MOVES]);
    let (alice, bob) = (&room.alice, &room.bob);
    let (board, call) = room.ask_puzzle(alice, "/puzzle");
    let start = Position::from_fen(TWO_MOVES_FEN).unwrap();
    assert_eq!(
        lines(&board),
        [
            "🧩 Puzzle for Alice",
            "Your move (Black): find the best one."
        ]
    );
    assert_eq!(call.caption().as_deref(), Some(caption(&board)));
    assert_eq!(board.buttons(), pits(&start, alice, 1, 0));
    assert_rows(&board);

    // Bob may watch, not play: an alert, and Alice's board stays as it is.
    room.refused(board.message_id, bob, &data_of(&board, 5), NOT_YOURS, true);

    // Asked again, the attempt on is posted again (a puzzle cannot be skipped).
    let (again, _) = room.ask_puzzle(alice, "/puzzle");
    assert_eq!(again.buttons(), board.buttons());
    let id = again.message_id;

    // The line's first move: White's answer is played and named; Black is to move again.
    let (edit, after) = room.play(id, alice, &data_of(&again, 5));
    assert_eq!(edit.i64("chat_id"), Some(GROUP));
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
    assert_eq!(after.buttons(), pits(&pos, alice, 1, 1));
    assert_eq!(
        edit.buttons(),
        after.buttons(),
        "the edit sent the keyboard"
    );
    assert_ne!(after.photo, board.photo, "the board was redrawn");
    // The first message still shows the start: its move is out of date (a notice).
    room.refused(board.message_id, alice, &data_of(&board, 5), STALE, false);

    // The second: solved, with the themes and both ratings; Next and Daily instead of pits.
    let (_, solved) = room.play(id, alice, &data_of(&after, 6));
    let shown = lines(&solved);
    assert_eq!(shown[..2], ["🧩 Puzzle for Alice", "✅ Solved!"]);
    assert!(
        shown[2].starts_with("Puzzle rating ") && shown[2].ends_with(" · themes: capture"),
        "{shown:?}"
    );
    assert!(
        number_after(&solved, "Puzzle rating ") < 1500,
        "a solved puzzle gets easier"
    );
    assert!(rating_change(&solved) > 0, "{shown:?}");
    assert_eq!(solved.buttons(), next_buttons());
    // Its old pits are answered as over.
    room.refused(id, alice, &data_of(&after, 6), BAD_BUTTON, true);

    // Stats and the boards (the group's, and all of Telegram's).
    let stats = room.ask_text(alice, "/puzzle stats");
    let stats: Vec<&str> = stats.lines().collect();
    assert_eq!(stats[0], "🧩 Puzzles: Alice");
    assert!(stats[1].starts_with("Puzzle rating: "), "{stats:?}");
    assert!(stats.contains(&"Solved 1, missed 0"), "{stats:?}");
    assert!(
        stats.contains(&"Today's puzzle: not tried yet"),
        "{stats:?}"
    );
    assert!(stats.contains(&"Recent puzzles: ✅"), "{stats:?}");
    assert!(stats.contains(&"Puzzles seen: 1 of 1"), "{stats:?}");
    let bobs = room.ask_text(bob, "/puzzle stats");
    assert!(bobs.starts_with("🧩 Puzzles: Bob\n"), "{bobs}");
    assert!(bobs.contains("Solved 0, missed 0"), "{bobs}");

    let top = room.ask_text(bob, "/puzzle top");
    let top: Vec<&str> = top.lines().collect();
    assert_eq!(top[0], "🧩 Best puzzle solvers in this chat");
    assert_eq!(top.len(), 2, "{top:?}");
    assert!(
        top[1].starts_with("1. Alice ") && top[1].ends_with(" (1 of 1)"),
        "{top:?}"
    );
    let global = room.ask_text(alice, "/puzzle top global");
    let global: Vec<&str> = global.lines().collect();
    assert_eq!(global[0], "🧩 Best puzzle solvers");
    assert_eq!(global[1], top[1]);

    // Next posts a new puzzle (the collection's only one again, as attempt 2) and leaves
    // the solved one as it is.
    let mark = room.fake.mark();
    assert_eq!(room.press(id, alice, "1zn"), Answer::quiet());
    let (_, next) = room
        .fake
        .wait_call(mark, WAIT, |c| c.ok() && c.method == "sendPhoto")
        .expect("the next puzzle");
    assert_png(&next);
    assert_eq!(next.buttons(), pits(&start, alice, 2, 0));
    assert!(next
        .caption()
        .unwrap_or_default()
        .starts_with("🧩 Puzzle for Alice\n"));
    let kept = room.fake.message(GROUP, id).expect("message");
    assert_eq!((kept.edits, kept.buttons()), (solved.edits, next_buttons()));
}

#[test]
fn a_miss_shows_the_solution_and_forged_data_is_refused() {
    let room = Room::start(&[ONE_MOVE]);
    let (alice, bob) = (&room.alice, &room.bob);
    let start = Position::from_fen(ONE_MOVE_FEN).unwrap();
    let (old, _) = room.ask_puzzle(alice, "/puzzle");
    let (board, _) = room.ask_puzzle(alice, "/puzzle");
    assert_eq!(
        lines(&board),
        [
            "🧩 Puzzle for Alice",
            "Your move (White): find the best one."
        ]
    );
    assert_eq!(board.buttons(), pits(&start, alice, 1, 0));
    let (bobs, _) = room.ask_puzzle(bob, "/puzzle");
    assert_eq!(bobs.buttons(), pits(&start, bob, 1, 0));

    // Bob sends his own attempt's right move from Alice's message (a modified client): the
    // data is not on that keyboard, so it is refused, and neither message changes.
    let forged = format!("1zm:{}:1:0:9", bob.id);
    room.refused(board.message_id, bob, &forged, BAD_BUTTON, true);
    // Nor does data naming Alice's attempt at a step her board never showed.
    let ahead = format!("1zm:{}:1:1:9", alice.id);
    room.refused(board.message_id, alice, &ahead, BAD_BUTTON, true);
    let unchanged = room.fake.message(GROUP, bobs.message_id).unwrap();
    assert_eq!((unchanged.edits, unchanged.buttons()), (0, bobs.buttons()));

    // Alice plays a legal pit that is not the line's: missed, the solution named, and what
    // it would have taken.
    let wrong = start
        .legal_moves()
        .iter()
        .find(|&p| p != 9)
        .expect("a wrong pit");
    let (_, missed) = room.play(board.message_id, alice, &data_of(&board, wrong));
    // What the solution does, in words: its capture, its tuzdek, or else the gap (600
    // hundredths of a ball in the collection) to every other move.
    let solution = start.clone().play(9).unwrap();
    let gain = match (solution.tuzdek_created, solution.captured) {
        (true, _) => "It makes a tuzdek.".to_string(),
        (false, 0) => "Any other move loses at least 6 balls.".to_string(),
        (false, n) => format!("It captures {n} balls."),
    };
    let shown = lines(&missed);
    assert_eq!(
        shown[..3],
        [
            "🧩 Puzzle for Alice",
            &format!("❌ Not pit {wrong}: the move was pit 9."),
            &gain,
        ]
    );
    assert!(shown[3].ends_with(" · themes: capture"), "{shown:?}");
    assert!(
        number_after(&missed, "Puzzle rating ") > 1300,
        "a missed puzzle gets harder"
    );
    assert!(rating_change(&missed) < 0, "{shown:?}");
    assert_eq!(missed.buttons(), next_buttons());
    // The attempt's other message: over (a notice).
    room.refused(old.message_id, alice, &data_of(&old, 9), OVER, false);

    // Bob's attempt was untouched by the forged press: his move solves it.
    let (_, solved) = room.play(bobs.message_id, bob, &data_of(&bobs, 9));
    assert_eq!(lines(&solved)[..2], ["🧩 Puzzle for Bob", "✅ Solved!"]);
    let top = room.ask_text(alice, "/puzzle top");
    let top: Vec<&str> = top.lines().collect();
    assert_eq!(top[0], "🧩 Best puzzle solvers in this chat");
    assert!(
        top[1].starts_with("1. Bob ") && top[1].ends_with(" (1 of 1)"),
        "{top:?}"
    );
    assert!(
        top[2].starts_with("2. Alice ") && top[2].ends_with(" (0 of 1)"),
        "{top:?}"
    );
}

#[test]
fn the_daily_puzzle_is_played_once_a_day() {
    let room = Room::start(&[ONE_MOVE]);
    let (alice, bob) = (&room.alice, &room.bob);
    let today = toguz::ratings::dates::iso_date(T0);
    assert_eq!(today, "2027-01-15");
    let (board, _) = room.ask_puzzle(alice, "/puzzle daily");
    let start = Position::from_fen(ONE_MOVE_FEN).unwrap();
    assert_eq!(
        lines(&board),
        [
            "🧩 Daily puzzle, 2027-01-15",
            "Your move (White): find the best one."
        ]
    );
    assert_eq!(board.buttons(), pits(&start, alice, 1, 0));
    let (_, solved) = room.play(board.message_id, alice, &data_of(&board, 9));
    let shown = lines(&solved);
    assert_eq!(shown[..2], ["🧩 Daily puzzle, 2027-01-15", "✅ Solved!"]);
    assert_eq!(shown.last(), Some(&"Daily streak: 1 day"), "{shown:?}");
    assert_eq!(solved.buttons(), next_buttons());

    // Once a day: asked again, and with the button, it is refused as done.
    let again = room.ask_text(alice, "/puzzle daily");
    assert_eq!(
        again,
        "You have already solved today's puzzle. The next one comes at 00:00 UTC."
    );
    let mark = room.fake.mark();
    let answer = room.press(board.message_id, alice, "1zd");
    assert_eq!(answer.text, again);
    assert!(room.fake.calls()[mark..]
        .iter()
        .all(|c| c.method != "sendPhoto"));
    let stats = room.ask_text(alice, "/puzzle stats");
    assert!(stats.contains("\nDaily streak: 1 (best 1)\n"), "{stats}");
    assert!(stats.contains("\nToday's puzzle: solved ✅\n"), "{stats}");

    // Bob's daily puzzle is the same one; he misses it, and is refused a second try.
    let (his, _) = room.ask_puzzle(bob, "/puzzle daily");
    assert_eq!(his.buttons(), pits(&start, bob, 1, 0));
    let wrong = start
        .legal_moves()
        .iter()
        .find(|&p| p != 9)
        .expect("a wrong pit");
    let (_, missed) = room.play(his.message_id, bob, &data_of(&his, wrong));
    assert!(
        caption(&missed).contains("\n❌ Not "),
        "{}",
        caption(&missed)
    );
    assert_eq!(
        room.ask_text(bob, "/puzzle daily"),
        "You have already tried today's puzzle. The next one comes at 00:00 UTC."
    );
}

#[test]
fn an_attempt_outlives_a_restart_of_the_bot() {
    let mut room = Room::start(&[TWO_MOVES]);
    let alice = room.alice.clone();
    let (board, _) = room.ask_puzzle(&alice, "/puzzle");
    room.restart();
    // The new process finds the attempt in the store and edits the old message.
    let (_, after) = room.play(board.message_id, &alice, &data_of(&board, 5));
    assert!(
        caption(&after).contains("\nWhite replied with pit 3.\n"),
        "{}",
        caption(&after)
    );
    let (_, solved) = room.play(board.message_id, &alice, &data_of(&after, 6));
    assert_eq!(lines(&solved)[1], "✅ Solved!");
}

/// Issue 49, finding 17: Next and Daily presses count against the per-user command limit
/// (each reads and writes the presser's puzzle record and draws a board): past it, the
/// presser is told in an alert to slow down and nothing is posted; someone else is served.
#[test]
fn next_and_daily_presses_are_limited_as_commands_are() {
    let room = Room::start_with(
        &[ONE_MOVE],
        Some(Lifted::because(
            "about the per-user command limit: twenty puzzles posted in the group would \
             otherwise wait a minute for the group's flood allowance",
        )),
    );
    let (alice, bob) = (&room.alice, &room.bob);
    let start = Position::from_fen(ONE_MOVE_FEN).unwrap();
    let (board, _) = room.ask_puzzle(alice, "/puzzle");
    let wrong = start
        .legal_moves()
        .iter()
        .find(|&p| p != 9)
        .expect("a wrong pit");
    let (_, missed) = room.play(board.message_id, alice, &data_of(&board, wrong));
    assert_eq!(missed.buttons(), next_buttons());
    let slow = "Too many puzzles asked for at once. Please wait a minute, then press again.";
    let mut limited = None;
    for i in 0..30 {
        let data = if i % 2 == 0 { "1zn" } else { "1zd" };
        let answer = room.press(missed.message_id, alice, data);
        if answer.text == slow {
            assert!(answer.alert);
            limited = Some(i);
            break;
        }
    }
    // The command limit is 20 a minute; `/puzzle` was one of them.
    let limited = limited.expect("presses past the limit are refused");
    assert!(limited <= 19, "refused only after {limited} presses");
    // Every press let through posted its puzzle (the first `/puzzle` besides); then no more.
    let photos = |v: &toguz::testing::telegram::FakeView| {
        v.bot_messages(GROUP)
            .iter()
            .filter(|m| m.photo.is_some())
            .count()
    };
    let all_posted = room.fake.wait_until(WAIT, |v| photos(v) == limited + 1);
    assert!(all_posted, "{:#?}", room.summary(0));
    let refused_at = room.fake.mark();
    let answer = room.press(missed.message_id, alice, "1zn");
    assert_eq!(answer.text, slow);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let posted = room.fake.calls()[refused_at..]
        .iter()
        .any(|c| c.method.starts_with("send"));
    assert!(!posted, "{:#?}", room.summary(refused_at));
    // Bob is not held back by Alice.
    room.ask_puzzle(bob, "/puzzle");
}

// ----- the daily post (`/puzzle post HOUR` in a group) -----

/// T0 is 08:00 UTC on 2027-01-15; the posts' hour in these tests is 09:00.
const HOUR: u64 = 3600;
const DAY: u64 = 24 * HOUR;
const POST_SET: &str = "The daily puzzle will be posted here every day at 09:00 UTC.";
const POST_OFF: &str = "The daily puzzle will no longer be posted here.";
const POST_ADMINS: &str = "Only the chat's admins can choose when the daily puzzle is posted.";

impl Room {
    fn bot(&self) -> &InProcessBot {
        self.bot.as_ref().expect("the bot runs")
    }

    fn group_ref(&self) -> ChatRef {
        ChatRef::new(Platform::Telegram, GROUP.to_string())
    }

    /// The group's daily post as the manager keeps it.
    fn daily_post(&self) -> Option<DailyPost> {
        let (manager, chat) = (self.bot().manager.clone(), self.group_ref());
        self.bot()
            .block_on(async move { manager.daily_post(&chat).await })
            .expect("the store answers")
    }

    /// Moves the manager's clock on by `secs` and runs the daily posts' tick (as its own
    /// loop does every 30 s): how many posts it claimed.
    fn tick_after(&self, secs: u64) -> usize {
        self.bot().clock.advance(secs);
        let manager = self.bot().manager.clone();
        self.bot()
            .block_on(async move { manager.tick_daily_posts().await })
    }

    /// The post the tick made (a photo in the group after `mark`), once the adapter has
    /// attached it to the group's record (its count is redrawn there).
    fn wait_daily_post(&self, mark: usize) -> (StoredMessage, Call) {
        let (_, call) = self
            .fake
            .wait_call(mark, WAIT, |c| {
                c.method == "sendPhoto" && c.i64("chat_id") == Some(GROUP)
            })
            .unwrap_or_else(|| panic!("no daily post: {:#?}", self.summary(mark)));
        assert!(call.ok(), "{:#?}", call.response);
        assert_png(&call);
        let id = call.response["result"]["message_id"].as_i64().expect("id");
        let want = format!("{GROUP}:{id}");
        let deadline = std::time::Instant::now() + WAIT;
        loop {
            let post = self.daily_post().expect("the post is set");
            if post.message.as_ref().is_some_and(|m| m.id == want) {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "not attached: {post:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        (self.fake.message(GROUP, id).expect("stored"), call)
    }

    /// `who` follows a post's Solve link: Telegram opens the private chat and sends
    /// `/start <payload>` from them. The bot's answer there: a photo (the puzzle).
    fn follow_link(&self, who: &TgUser, link: &str) -> StoredMessage {
        let payload = link
            .strip_prefix(&format!("https://t.me/{BOT_USERNAME}?start="))
            .unwrap_or_else(|| panic!("not a deep link to the bot: {link}"));
        let chat = TgChat::private(who);
        let mark = self.fake.mark();
        self.fake
            .send_text(&chat, who, &format!("/start {payload}"));
        let (_, call) = self
            .fake
            .wait_call(mark, WAIT, |c| {
                c.ok() && c.method == "sendPhoto" && c.i64("chat_id") == Some(who.id)
            })
            .unwrap_or_else(|| panic!("no puzzle in private: {:#?}", self.summary(mark)));
        assert_png(&call);
        let id = call.response["result"]["message_id"].as_i64().expect("id");
        self.fake.message(who.id, id).expect("stored")
    }

    /// `who` presses pit `data` on their puzzle `message` in their private chat: the
    /// message once edited.
    fn play_private(&self, who: &TgUser, message: &StoredMessage, data: &str) -> StoredMessage {
        let chat = TgChat::private(who);
        let (id, before) = (message.message_id, message.edits);
        let q = self.fake.press(&chat, id, who, data);
        let answer = self.fake.wait_answer(&q, WAIT).expect("press answered");
        assert_eq!(answer.str("text").unwrap_or_default(), "", "a quiet move");
        let edited = self.fake.wait_until(WAIT, |v| {
            v.message(who.id, id).is_some_and(|m| m.edits > before)
        });
        assert!(edited, "{:#?}", self.summary(0));
        self.fake.message(who.id, id).expect("stored")
    }

    /// The group's post `id` once its caption has `line` (the count redrawn in place).
    fn wait_count(&self, id: i64, line: &str) -> StoredMessage {
        let redrawn = self.fake.wait_until(WAIT, |v| {
            v.message(GROUP, id)
                .is_some_and(|m| caption(m).lines().any(|l| l == line))
        });
        let now = self.fake.message(GROUP, id).expect("the post");
        assert!(redrawn, "{line:?} not on the post: {:?}", now.caption);
        now
    }
}

/// (text, url) of every URL button of a message's keyboard.
fn url_buttons(message: &StoredMessage) -> Vec<(String, String)> {
    let rows = message
        .reply_markup
        .as_ref()
        .and_then(|m| m["inline_keyboard"].as_array().cloned())
        .unwrap_or_default();
    rows.iter()
        .flat_map(|r| r.as_array().cloned().unwrap_or_default())
        .filter_map(|b| Some((b["text"].as_str()?.into(), b["url"].as_str()?.into())))
        .collect()
}

/// The post's Solve button: its one button, a link to the bot.
fn solve_link(post: &StoredMessage) -> String {
    let buttons = url_buttons(post);
    assert_eq!(buttons.len(), 1, "{:?}", post.reply_markup);
    assert!(
        post.buttons().is_empty(),
        "no callback buttons on a group's post"
    );
    assert_eq!(buttons[0].0, "Solve");
    buttons[0].1.clone()
}

#[test]
fn an_admin_has_the_daily_puzzle_posted_in_the_group_once_at_its_hour() {
    let room = Room::start(&[ONE_MOVE]);
    let (alice, bob) = (&room.alice, &room.bob);
    room.fake
        .set_member_status(&room.group, alice, "administrator");
    room.fake.set_member_status(&room.group, bob, "member");

    // A member who is not an admin is refused, and nothing is set.
    assert_eq!(room.ask_text(bob, "/puzzle post 9"), POST_ADMINS);
    assert_eq!(room.daily_post(), None);
    // An admin sets it (the bot asked Telegram who they are).
    let mark = room.fake.mark();
    assert_eq!(room.ask_text(alice, "/puzzle post 9"), POST_SET);
    let asked = room.fake.calls()[mark..]
        .iter()
        .any(|c| c.ok() && c.method == "getChatMember" && c.i64("user_id") == Some(alice.id));
    assert!(asked, "{:#?}", room.summary(mark));
    let post = room.daily_post().expect("set");
    assert_eq!((post.hour, post.place.as_str()), (9, "-100734"));
    assert_eq!((post.set_by.id.as_str(), post.message), ("901", None));

    // 08:00: not yet.
    let mark = room.fake.mark();
    assert_eq!(room.tick_after(0), 0, "before its hour");
    // 09:00: the day's puzzle is posted in the group, not as a reply.
    assert_eq!(room.tick_after(HOUR), 1);
    let (post, call) = room.wait_daily_post(mark);
    assert_eq!(post.reply_to, None);
    assert_eq!(call.caption().as_deref(), Some(caption(&post)));
    assert_eq!(
        lines(&post),
        [
            "🧩 Daily puzzle, 2027-01-15",
            "White to move: find the best move.",
            "Solved here today: 0 of 0",
        ]
    );
    // Its button opens the private chat with the bot on the group's daily puzzle (a
    // `start` payload Telegram accepts: 1-64 of A-Z, a-z, 0-9, _ and -).
    let link = solve_link(&post);
    assert_eq!(link, format!("https://t.me/{BOT_USERNAME}?start=zd{GROUP}"));
    let payload = link.rsplit('=').next().unwrap_or_default();
    assert!(
        (1..=64).contains(&payload.len())
            && payload
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
        "{payload}"
    );

    // Once a day: later ticks that day claim nothing, and nothing more is posted.
    assert_eq!(room.tick_after(0), 0, "just posted");
    assert_eq!(room.tick_after(10 * HOUR), 0, "posted today");
    let posts = room.fake.calls()[mark..]
        .iter()
        .filter(|c| c.method.starts_with("send") && c.i64("chat_id") == Some(GROUP))
        .count();
    assert_eq!(posts, 1, "{:#?}", room.summary(mark));
    assert_eq!(room.fake.message(GROUP, post.message_id).unwrap().edits, 0);
}

#[test]
fn the_group_post_counts_who_solved_the_daily_puzzle_through_its_link() {
    let room = Room::start(&[ONE_MOVE]);
    let (alice, bob) = (&room.alice, &room.bob);
    let carol = TgUser::new(903, "Carol", "carol_p", "en");
    room.fake.set_member_status(&room.group, &carol, "creator");
    // Alice and Bob are in the group (the bot asks Telegram when they follow the link).
    room.fake.set_member_status(&room.group, alice, "member");
    room.fake.set_member_status(&room.group, bob, "member");
    assert_eq!(room.ask_text(&carol, "/puzzle post 09:00"), POST_SET);
    let mark = room.fake.mark();
    assert_eq!(room.tick_after(HOUR), 1);
    let (post, _) = room.wait_daily_post(mark);
    let link = solve_link(&post);

    // Alice follows the link: the day's puzzle in her private chat, her own attempt.
    let start = Position::from_fen(ONE_MOVE_FEN).unwrap();
    let hers = room.follow_link(alice, &link);
    assert_eq!(
        lines(&hers),
        [
            "🧩 Daily puzzle, 2027-01-15",
            "Your move (White): find the best one."
        ]
    );
    assert_eq!(hers.buttons(), pits(&start, alice, 1, 0));
    // She solves it there; the group's post is redrawn in place with her name.
    let solved = room.play_private(alice, &hers, &data_of(&hers, 9));
    assert_eq!(
        lines(&solved)[..2],
        ["🧩 Daily puzzle, 2027-01-15", "✅ Solved!"]
    );
    let redrawn = room.wait_count(post.message_id, "Solved here today: 1 of 1");
    assert_eq!(
        lines(&redrawn),
        [
            "🧩 Daily puzzle, 2027-01-15",
            "White to move: find the best move.",
            "Solved here today: 1 of 1",
            "Solved by: Alice",
        ]
    );
    assert_eq!(solve_link(&redrawn), link, "the button stays");
    assert_eq!(redrawn.photo, post.photo, "the same board");

    // Bob follows it too and misses: one solver of two.
    let his = room.follow_link(bob, &link);
    assert_eq!(his.buttons(), pits(&start, bob, 1, 0));
    let wrong = start
        .legal_moves()
        .iter()
        .find(|&p| p != 9)
        .expect("a wrong pit");
    let missed = room.play_private(bob, &his, &data_of(&his, wrong));
    assert!(
        caption(&missed).contains("\n❌ Not pit "),
        "{}",
        caption(&missed)
    );
    let redrawn = room.wait_count(post.message_id, "Solved here today: 1 of 2");
    assert_eq!(lines(&redrawn)[3..], ["Solved by: Alice"]);

    // All of it in place: the group got no other message from the bot since the post.
    let sent: Vec<i64> = room
        .fake
        .bot_messages(GROUP)
        .iter()
        .map(|m| m.message_id)
        .filter(|id| *id >= post.message_id)
        .collect();
    assert_eq!(sent, [post.message_id]);
    // The link once more, by Alice: the day's puzzle is done for her.
    let mark = room.fake.mark();
    room.fake
        .send_text(&TgChat::private(alice), alice, &format!("/start zd{GROUP}"));
    let (_, answer) = room
        .fake
        .wait_call(mark, WAIT, |c| {
            c.ok() && c.method == "sendMessage" && c.i64("chat_id") == Some(alice.id)
        })
        .expect("an answer");
    assert_eq!(
        answer.str("text").as_deref(),
        Some("You have already solved today's puzzle. The next one comes at 00:00 UTC.")
    );
}

/// Issue 49, finding 8: anyone can type the post's link (`/start zd<group>`); a stranger to
/// the group plays the day's puzzle all the same, but it counts in their private chat and
/// they are told so; the group's count is its members'.
#[test]
fn a_stranger_following_the_link_is_not_counted_in_the_group() {
    let room = Room::start(&[ONE_MOVE]);
    let (alice, mallory) = (&room.alice, &room.bob);
    room.fake
        .set_member_status(&room.group, alice, "administrator");
    room.fake.set_member_status(&room.group, mallory, "left");
    assert_eq!(room.ask_text(alice, "/puzzle post 9"), POST_SET);
    let mark = room.fake.mark();
    assert_eq!(room.tick_after(HOUR), 1);
    let (post, _) = room.wait_daily_post(mark);
    let link = solve_link(&post);

    // Mallory left the group: she solves the day's puzzle, told it counts where she is.
    let mark = room.fake.mark();
    let hers = room.follow_link(mallory, &link);
    let (_, note) = room
        .fake
        .wait_call(mark, WAIT, |c| {
            c.ok() && c.method == "sendMessage" && c.i64("chat_id") == Some(mallory.id)
        })
        .expect("a note");
    let note = note.str("text").unwrap_or_default();
    assert!(note.starts_with("You are not in the group"), "{note}");
    let asked = room.fake.calls()[mark..]
        .iter()
        .any(|c| c.ok() && c.method == "getChatMember" && c.i64("user_id") == Some(mallory.id));
    assert!(asked, "{:#?}", room.summary(mark));
    room.play_private(mallory, &hers, &data_of(&hers, 9));
    // Alice, a member, solves it too: the group's count is hers alone.
    let its = room.follow_link(alice, &link);
    room.play_private(alice, &its, &data_of(&its, 9));
    let redrawn = room.wait_count(post.message_id, "Solved here today: 1 of 1");
    assert_eq!(lines(&redrawn)[3..], ["Solved by: Alice"]);
    let group = room.group_ref();
    let manager = room.bot().manager.clone();
    let daily = room
        .bot()
        .block_on(async move { manager.daily_puzzle(&group).await })
        .expect("today's puzzle");
    assert_eq!((daily.count.solved, daily.count.tried), (1, 1));
}

#[test]
fn the_daily_post_comes_anew_after_a_restart_until_turned_off() {
    let mut room = Room::start(&[ONE_MOVE]);
    let alice = room.alice.clone();
    room.fake
        .set_member_status(&room.group, &alice, "administrator");
    assert_eq!(room.ask_text(&alice, "/puzzle post 9"), POST_SET);
    let mark = room.fake.mark();
    assert_eq!(room.tick_after(HOUR), 1);
    let (yesterdays, _) = room.wait_daily_post(mark);

    // A new process on the same store (its clock at T0 again: 08:00 on the first day).
    room.restart();
    assert_eq!(room.tick_after(0), 0, "posted already that day");
    // The next day at 09:00: a new message, not an edit of yesterday's.
    let mark = room.fake.mark();
    assert_eq!(room.tick_after(DAY + HOUR), 1);
    let (post, _) = room.wait_daily_post(mark);
    assert!(post.message_id > yesterdays.message_id);
    assert_eq!(
        lines(&post),
        [
            "🧩 Daily puzzle, 2027-01-16",
            "White to move: find the best move.",
            "Solved here today: 0 of 0",
        ]
    );
    let old = room.fake.message(GROUP, yesterdays.message_id).unwrap();
    assert_eq!((old.edits, old.caption), (0, yesterdays.caption.clone()));
    // Solved through it, the new post is the one redrawn.
    let hers = room.follow_link(&alice, &solve_link(&post));
    assert!(caption(&hers).starts_with("🧩 Daily puzzle, 2027-01-16\n"));
    room.play_private(&alice, &hers, &data_of(&hers, 9));
    room.wait_count(post.message_id, "Solved here today: 1 of 1");
    let old = room.fake.message(GROUP, yesterdays.message_id).unwrap();
    assert_eq!(old.edits, 0, "yesterday's post is left as it was");

    // Turned off by the admin: the day after, the tick posts nothing.
    assert_eq!(room.ask_text(&alice, "/puzzle post off"), POST_OFF);
    assert_eq!(room.daily_post(), None);
    let mark = room.fake.mark();
    assert_eq!(room.tick_after(DAY), 0, "no post any more");
    let posted = room.fake.calls()[mark..]
        .iter()
        .any(|c| c.method.starts_with("send") && c.i64("chat_id") == Some(GROUP));
    assert!(!posted, "{:#?}", room.summary(mark));
}

#[test]
fn a_post_due_when_the_bot_starts_is_posted_once_the_adapter_serves() {
    let mut room = Room::start(&[ONE_MOVE]);
    let alice = room.alice.clone();
    room.fake
        .set_member_status(&room.group, &alice, "administrator");
    // 08:00 (T0) is the post's hour: due at once, but the bot stops before its tick.
    let at_eight = "The daily puzzle will be posted here every day at 08:00 UTC.";
    assert_eq!(room.ask_text(&alice, "/puzzle post 8"), at_eight);
    room.restart();
    // The first tick of the new process posts it, with no wait for a claim to go stale
    // (the clock stays at 08:00). Its own loop may have been first: either way, one post.
    let mark = room.fake.mark();
    assert!(room.tick_after(0) <= 1);
    let (post, _) = room.wait_daily_post(mark);
    assert_eq!(lines(&post)[0], "🧩 Daily puzzle, 2027-01-15");
    assert_eq!(room.tick_after(0), 0, "posted");
}
