//! The opening explorer in a Telegram group (issue 52), through the real teloxide client
//! against the fake Bot API, on the 2018 championships imported as masters: `/opening`
//! answers with one photo (the board over the moves table) and a button per move; a move
//! steps in, Back steps out, the source and time buttons change what is counted, each by
//! editing the same message (editMessageMedia); someone else's press and data the message
//! never carried are refused and change nothing; a finished board's Opening button posts a
//! new explorer. The adapter runs in this process (`InProcessBot`).

use toguz::explorer::{import_games, prepare, Source};
use toguz::manager::buttons::{decode, Button};
use toguz::manager::explorer::ExplorerAsk;
use toguz::rules::parse_records;
use toguz::testing::telegram::bot::{wait_board, TOKEN, WAIT};
use toguz::testing::telegram::inproc::InProcessBot;
use toguz::testing::telegram::{check_png, Call, FakeTelegram, StoredMessage, TgChat, TgUser};

const GROUP: i64 = -100_552;
const GAMES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/championships-kz-2018.pgn"
);
const NOT_YOURS: &str = "This explorer was opened by someone else. Send /opening to open your own.";
const BAD_BUTTON: &str =
    "This button is not valid (an old or damaged message). Use /board for a fresh board.";

struct Room {
    bot: InProcessBot,
    fake: FakeTelegram,
    _dir: tempfile::TempDir,
    group: TgChat,
    alice: TgUser,
    bob: TgUser,
}

impl Room {
    /// The bot with the championships imported as masters' games.
    fn start() -> Room {
        let fake = FakeTelegram::start(TOKEN);
        let dir = tempfile::tempdir().expect("temp dir");
        let config = toguz::testing::manager::test_config();
        let bot = InProcessBot::start_with(&fake, config, dir.path());
        let text = std::fs::read_to_string(GAMES).expect("the games");
        let games: Vec<_> = parse_records(&text)
            .into_iter()
            .flatten()
            .filter_map(|r| prepare(&r, Source::Masters).ok())
            .collect();
        bot.block_on(import_games(bot.manager.store(), &games))
            .expect("imported");
        Room {
            bot,
            fake,
            _dir: dir,
            group: TgChat::group(GROUP, "Opening club"),
            alice: TgUser::new(5201, "Alice", "alice_o", "en"),
            bob: TgUser::new(5202, "Bob", "bob_o", "en"),
        }
    }

    /// `who` writes `text`: the bot's photo in reply, and its call.
    fn ask(&self, who: &TgUser, text: &str) -> (StoredMessage, Call) {
        let mark = self.fake.mark();
        let asked = self.fake.send_text(&self.group, who, text);
        let (_, call) = self
            .fake
            .wait_call(mark, WAIT, |c| {
                c.ok() && c.method == "sendPhoto" && c.i64("chat_id") == Some(GROUP)
            })
            .unwrap_or_else(|| panic!("no explorer for {text}: {:#?}", self.summary(mark)));
        let id = call.response["result"]["message_id"].as_i64().expect("id");
        let message = self.fake.message(GROUP, id).expect("stored");
        assert_eq!(
            message.reply_to,
            Some(asked),
            "the explorer answers the command"
        );
        assert_png(&call);
        (message, call)
    }

    /// `who` presses `data` under `id`: the press is answered quietly and the message
    /// edited in place (its photo, caption and keyboard).
    fn step(&self, id: i64, who: &TgUser, data: &str) -> StoredMessage {
        let before = self.fake.message(GROUP, id).expect("message").edits;
        let mark = self.fake.mark();
        let q = self.fake.press(&self.group, id, who, data);
        let answer = self.fake.wait_answer(&q, WAIT).expect("answered");
        assert_eq!(answer.str("text").unwrap_or_default(), "", "{data}");
        let (_, edit) = self
            .fake
            .wait_call(mark, WAIT, |c| {
                c.ok() && c.method == "editMessageMedia" && c.i64("message_id") == Some(id)
            })
            .unwrap_or_else(|| panic!("{id} not edited: {:#?}", self.summary(mark)));
        assert_png(&edit);
        let edited = self.fake.wait_until(WAIT, |v| {
            v.message(GROUP, id).is_some_and(|m| m.edits > before)
        });
        assert!(edited);
        self.fake.message(GROUP, id).expect("message")
    }

    /// `who`'s press of `data` under `id` is refused with `text` as an alert, and the
    /// message stays as it was.
    fn refused(&self, id: i64, who: &TgUser, data: &str, text: &str) {
        let before = self.fake.message(GROUP, id).expect("message");
        let mark = self.fake.mark();
        let q = self.fake.press(&self.group, id, who, data);
        let answer = self.fake.wait_answer(&q, WAIT).expect("answered");
        assert_eq!(answer.str("text").unwrap_or_default(), text, "{data}");
        assert_eq!(answer.str("show_alert").as_deref(), Some("true"), "{data}");
        let after = self.fake.message(GROUP, id).expect("message");
        assert_eq!(after.edits, before.edits, "{data}: edited");
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

    /// The masters' moves from the start, as the manager counts them.
    fn start_moves(&self) -> Vec<u8> {
        let view = self
            .bot
            .block_on(self.bot.manager.explore(ExplorerAsk::start(), None))
            .expect("explored");
        view.answer.moves.iter().map(|m| m.pit).collect()
    }
}

fn assert_png(call: &Call) {
    let png = call.photo_bytes().expect("a photo");
    let (w, h) = check_png(png).expect("a valid PNG");
    assert!(w >= 900 && h > 700, "explorer image {w}x{h}");
    if let Ok(dir) = std::env::var("TOGUZ_EXPLORER_PNG") {
        let n = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        std::fs::write(format!("{dir}/tg-{n}.png"), png).expect("written");
    }
}

fn caption(message: &StoredMessage) -> String {
    message.caption.clone().unwrap_or_default()
}

/// The explorer buttons of a message: (label, data, what the data says).
fn explorer_buttons(message: &StoredMessage) -> Vec<(String, String, Button)> {
    message
        .buttons()
        .into_iter()
        .map(|(label, data)| {
            let button = decode(&data).unwrap_or_else(|e| panic!("{data}: {e}"));
            (label, data, button)
        })
        .collect()
}

/// The data of the button whose label starts with `label`.
fn data_of(message: &StoredMessage, label: &str) -> String {
    let buttons = message.buttons();
    let found = buttons.iter().find(|(l, _)| l.starts_with(label));
    found
        .map(|(_, d)| d.clone())
        .unwrap_or_else(|| panic!("no {label:?} in {buttons:?}"))
}

#[test]
fn the_explorer_steps_in_and_back_changes_source_and_refuses_others() {
    let room = Room::start();
    let moves = room.start_moves();
    assert!(moves.len() >= 3, "{moves:?}");
    let (message, _) = room.ask(&room.alice, "/opening");
    let id = message.message_id;
    assert!(
        caption(&message).starts_with("Starting position · All games"),
        "{}",
        caption(&message)
    );
    let buttons = explorer_buttons(&message);
    // A button per move, best played first, then source, time and rating (no Back).
    let pits: Vec<u8> = buttons
        .iter()
        .filter_map(|(_, _, b)| match b {
            Button::Explorer { at, .. } if at.moves.len() == 1 => at.moves.first().copied(),
            _ => None,
        })
        .collect();
    assert_eq!(pits, moves);
    assert_eq!(buttons.len(), moves.len() + 3);
    for (label, data, button) in &buttons {
        assert!(data.len() <= 64, "{data}");
        match button {
            Button::Explorer { owner, .. } => assert_eq!(owner, "5201", "{label}"),
            other => panic!("{label}: {other:?}"),
        }
    }

    // Step into the best-played move, then one more, then back.
    let first = moves[0];
    let message = room.step(id, &room.alice, &data_of(&message, &format!("{first} ·")));
    assert!(
        caption(&message).starts_with(&format!("After {first} · All games")),
        "{}",
        caption(&message)
    );
    assert!(message.buttons().iter().any(|(l, _)| l == "◀ Back"));
    let next = explorer_buttons(&message)
        .into_iter()
        .find_map(|(_, d, b)| {
            matches!(b, Button::Explorer { ref at, .. } if at.moves.len() == 2).then_some(d)
        })
        .expect("a second move");
    let deeper = room.step(id, &room.alice, &next);
    assert!(
        caption(&deeper).starts_with("After "),
        "{}",
        caption(&deeper)
    );
    let back = room.step(id, &room.alice, &data_of(&deeper, "◀ Back"));
    assert_eq!(caption(&back), caption(&message));

    // Source: masters; the time button filters (the championships name no time control).
    let masters = room.step(id, &room.alice, &data_of(&back, "All games"));
    assert!(
        caption(&masters).contains(" · Masters"),
        "{}",
        caption(&masters)
    );
    let blitz = room.step(id, &room.alice, &data_of(&masters, "Any speed"));
    assert!(caption(&blitz).contains(" · Blitz"), "{}", caption(&blitz));
    assert!(caption(&blitz).contains("No game has reached this position."));

    // Bob may not press Alice's explorer; data the message never carried is forged.
    let hers = data_of(&blitz, "Masters");
    room.refused(id, &room.bob, &hers, NOT_YOURS);
    room.refused(id, &room.alice, "1o:3ld:a--:7777", BAD_BUTTON);
    room.refused(id, &room.alice, "1o:3ld:a--:x", BAD_BUTTON);

    // Bob's own explorer, with a player source and a line typed.
    let (his, _) = room.ask(&room.bob, "/opening masters 9 9");
    assert!(
        caption(&his).starts_with("After 9 9 · Masters"),
        "{}",
        caption(&his)
    );
    room.refused(
        his.message_id,
        &room.alice,
        &data_of(&his, "Masters"),
        NOT_YOURS,
    );

    // A line that cannot be played is refused in words.
    let mark = room.fake.mark();
    room.fake
        .send_text(&room.group, &room.alice, "/opening 7 7 0");
    let (_, answer) = room
        .fake
        .wait_call(mark, WAIT, |c| c.ok() && c.method == "sendMessage")
        .expect("an answer");
    let text = answer.str("text").unwrap_or_default();
    assert!(
        text.starts_with("Move 3 (0) cannot be played there."),
        "{text}"
    );
}

#[test]
fn a_finished_board_opens_the_explorer_where_the_game_left_the_others() {
    let room = Room::start();
    let fake = &room.fake;
    fake.send_text(&room.group, &room.alice, "/play random");
    let board = wait_board(fake, GROUP, |b| !b.pits.is_empty());
    let game = board.game.clone();
    // One move each (a game without moves has no opening).
    let (pit, _) = board.pits[0].clone();
    let q = fake.press(
        &room.group,
        board.message.message_id,
        &room.alice,
        &format!("1m:{game}:{}:{pit}", board.ply),
    );
    fake.wait_answer(&q, WAIT).expect("move answered");
    wait_board(fake, GROUP, |b| b.game == game && b.ply >= 2);
    fake.send_text(&room.group, &room.alice, "/resign");
    let over = wait_board(fake, GROUP, |b| {
        b.game == game
            && b.message
                .buttons()
                .iter()
                .any(|(_, d)| d.starts_with("1op:"))
    });
    let data = format!("1op:{game}");
    assert!(over
        .message
        .buttons()
        .iter()
        .any(|(l, d)| l == "Opening" && *d == data));
    let line = room
        .bot
        .block_on(room.bot.manager.book_line(&game))
        .expect("its line");
    let mark = fake.mark();
    let q = fake.press(&room.group, over.message.message_id, &room.bob, &data);
    fake.wait_answer(&q, WAIT).expect("answered");
    let (_, call) = fake
        .wait_call(mark, WAIT, |c| c.ok() && c.method == "sendPhoto")
        .unwrap_or_else(|| panic!("no explorer: {:#?}", room.summary(mark)));
    assert_png(&call);
    let id = call.response["result"]["message_id"].as_i64().expect("id");
    let message = fake.message(GROUP, id).expect("stored");
    let shown =
        toguz::platform::present::explorer::line_text(&line.ask().moves, toguz::i18n::Lang::En);
    assert!(
        caption(&message).starts_with(&shown),
        "{} / {shown}",
        caption(&message)
    );
    // The explorer is Bob's, who pressed.
    assert!(explorer_buttons(&message)
        .iter()
        .all(|(_, _, b)| matches!(b, Button::Explorer { owner, .. } if owner == "5202")));
}
