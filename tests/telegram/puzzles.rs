//! Puzzles in a Telegram group (issue 34), through the real teloxide client against the fake
//! Bot API: `/puzzle` posts the board as a photo with the solver's legal pits as buttons; a
//! pit press edits that message (photo, caption, keyboard) move by move until the puzzle is
//! solved or missed, then Next and Daily post new ones; presses by others, on old boards and
//! with data the message never carried are refused and change nothing; `/puzzle daily`,
//! `/puzzle stats`, `/puzzle top`; an attempt outlives a restart. The adapter runs in this
//! process (`InProcessBot`) on a small collection of real puzzles.

use std::sync::Arc;
use toguz::manager::ManagerConfig;
use toguz::rules::Position;
use toguz::testing::manager::{test_config, T0};
use toguz::testing::telegram::bot::{TOKEN, WAIT};
use toguz::testing::telegram::inproc::InProcessBot;
use toguz::testing::telegram::{check_png, Call, FakeTelegram, StoredMessage, TgChat, TgUser};

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
        let fake = FakeTelegram::start(TOKEN);
        let dir = tempfile::tempdir().expect("temp dir");
        let config = ManagerConfig {
            puzzles: Some(Arc::from(puzzles.join("\n"))),
            ..test_config()
        };
        let bot = InProcessBot::start_with(&fake, config.clone(), dir.path());
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

    /// Stops the bot once it has taken every update, and starts it again on the same store.
    fn restart(&mut self) {
        let taken = self.fake.wait_until(WAIT, |v| v.pending_updates() == 0);
        assert!(taken, "the bot left updates unconfirmed");
        self.bot = None;
        self.bot = Some(InProcessBot::start_with(
            &self.fake,
            self.config.clone(),
            self.dir.path(),
        ));
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
