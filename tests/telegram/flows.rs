//! Scripted conversations with the real bot (`toguz run`) against the fake Bot API: group
//! challenges (by reply, by @username, open) accepted, played and resigned; decline and
//! expiry; draw offers; presses by outsiders; stale, double, forged and malformed buttons; a
//! 429 on an edit; webhook mode with its secret token; inline mode; a new message per move.

use crate::abuse::next_text;
use std::time::Duration;
use toguz::rules::{Position, Side, Variant};
use toguz::testing::telegram::bot::{
    assert_all_photos_png, wait_board, Board, BotProcess, TOKEN, WAIT,
};
use toguz::testing::telegram::{Call, FakeTelegram, TgChat, TgUser};
use toguz::testing::Lifted;

const GROUP: i64 = -100_777;

/// The real bot running against a fake Bot API, and the people of a group.
struct Flow {
    // Declared first so the bot is stopped before the fake server.
    bot: BotProcess,
    fake: FakeTelegram,
    dir: tempfile::TempDir,
    /// The config lines the bot was started with (under `[telegram]`, at the top).
    config: (String, String),
    /// Why the flood limits are lifted, in the few tests that lift them.
    lifted: Option<Lifted>,
    group: TgChat,
    alice: TgUser,
    bob: TgUser,
    carol: TgUser,
}

impl Flow {
    /// Starts the bot with extra lines under `[telegram]` and at the top of the config.
    fn start(telegram_extra: &str, extra: &str) -> Flow {
        Flow::with_fake(FakeTelegram::start(TOKEN), telegram_extra, extra)
    }

    /// `start` with the flood limits lifted, for the reason `lifted` gives.
    fn start_lifted(telegram_extra: &str, extra: &str, lifted: Lifted) -> Flow {
        let fake = FakeTelegram::start(TOKEN);
        Flow::launch(fake, telegram_extra, extra, Some(lifted))
    }

    fn with_fake(fake: FakeTelegram, telegram_extra: &str, extra: &str) -> Flow {
        Flow::launch(fake, telegram_extra, extra, None)
    }

    fn launch(
        fake: FakeTelegram,
        telegram_extra: &str,
        extra: &str,
        lifted: Option<Lifted>,
    ) -> Flow {
        let dir = tempfile::tempdir().expect("temp dir");
        let bot = match &lifted {
            Some(l) => {
                BotProcess::start_lifted(&fake, dir.path(), telegram_extra, extra, l.clone())
            }
            None => BotProcess::start(&fake, dir.path(), telegram_extra, extra),
        };
        Flow {
            bot,
            fake,
            dir,
            config: (telegram_extra.to_string(), extra.to_string()),
            lifted,
            group: TgChat::group(GROUP, "Toguz club"),
            alice: TgUser::new(601, "Alice", "alice_k", "en"),
            bob: TgUser::new(602, "Bob", "bob_the_player", "en"),
            carol: TgUser::new(603, "Carol", "carol_s", "en"),
        }
    }

    /// Kills the bot and starts it again on the same data.
    fn restart(&mut self) {
        self.bot.kill();
        let (telegram_extra, extra) = &self.config;
        let path = self.dir.path();
        self.bot = match &self.lifted {
            Some(l) => BotProcess::start_lifted(&self.fake, path, telegram_extra, extra, l.clone()),
            None => BotProcess::start(&self.fake, path, telegram_extra, extra),
        };
    }

    /// `user` writes `text` in the group; the message id.
    fn say(&self, user: &TgUser, text: &str) -> i64 {
        self.fake.send_text(&self.group, user, text)
    }

    /// `user` presses `data` under message `msg` of the group; the bot's answer.
    fn press(&self, msg: i64, user: &TgUser, data: &str) -> Call {
        let q = self.fake.press(&self.group, msg, user, data);
        self.fake.wait_answer(&q, WAIT).expect("press answered")
    }

    /// The challenge message the bot posted after `mark`: (message id, challenge id).
    fn challenge_message(&self, mark: usize) -> (i64, String) {
        let (_, call) = self
            .fake
            .wait_call(mark, WAIT, |c| {
                c.method == "sendMessage" && c.ok() && challenge_of(c).is_some()
            })
            .expect("challenge posted");
        let msg = call.response["result"]["message_id"].as_i64().expect("id");
        (msg, challenge_of(&call).expect("challenge id"))
    }

    /// `challenger` replies `/challenge` to a message of `opponent`.
    fn challenge_by_reply(&self, challenger: &TgUser, opponent: &TgUser) -> (i64, String) {
        let theirs = self.say(opponent, "Anyone up for a game?");
        let mark = self.fake.mark();
        self.fake
            .send_reply(&self.group, challenger, "/challenge", theirs);
        self.challenge_message(mark)
    }

    /// `user` accepts the challenge on message `msg`: the first board of the game.
    fn accept(&self, msg: i64, challenge: &str, user: &TgUser) -> Board {
        let answer = self.press(msg, user, &format!("1ca:{challenge}"));
        assert_eq!(answer.str("text"), None, "{answer:#?}");
        let board = wait_board(&self.fake, GROUP, |b| {
            b.ply == 0 && !b.pits.is_empty() && b.message.message_id > msg
        });
        // The challenge message says so, and its buttons are gone.
        let begun = format!("game {} has begun", board.game);
        let updated = self.fake.wait_until(WAIT, |v| {
            v.message(GROUP, msg).is_some_and(|m| {
                m.text.as_deref().is_some_and(|t| t.contains(&begun)) && m.buttons().is_empty()
            })
        });
        assert!(updated, "{}", self.text_of(msg));
        board
    }

    /// A game between Alice and Bob in the group, at its first board.
    fn alice_vs_bob(&self) -> Board {
        let (msg, id) = self.challenge_by_reply(&self.alice, &self.bob);
        self.accept(msg, &id, &self.bob)
    }

    /// The player to move on `board` (named in its caption) and the other one.
    fn turn<'a>(&self, board: &Board, players: [&'a TgUser; 2]) -> (&'a TgUser, &'a TgUser) {
        let caption = board.caption();
        let line = caption.lines().find(|l| l.contains(" to move: "));
        let name = line.and_then(|l| l.rsplit(": ").next()).unwrap_or("");
        match players {
            [a, b] if a.first_name == name => (a, b),
            [a, b] if b.first_name == name => (b, a),
            _ => panic!("no player to move in {caption:?}"),
        }
    }

    /// The group's live board once it shows `pos`, its keyboard and score checked.
    fn board_at(&self, pos: &Position) -> Board {
        let ply = pos.ply();
        let board = wait_board(&self.fake, GROUP, |b| b.ply == ply && !b.pits.is_empty());
        board.assert_pits_match(pos);
        assert!(board.caption().contains(&score(pos)), "{}", board.caption());
        board
    }

    /// Plays `moves` plies with the players taking turns (varied pits), checking every
    /// keyboard and that the player to move is told each time. The live board after them.
    fn play(&self, players: [&TgUser; 2], pos: &mut Position, moves: usize) -> Board {
        for i in 0..moves {
            let board = self.board_at(pos);
            let (mover, next) = self.turn(&board, players);
            let (pit, _) = board.pits[(i * 7) % board.pits.len()].clone();
            let mark = self.fake.mark();
            let answer = self.press(board.message.message_id, mover, &move_data(&board, pit));
            assert_eq!(answer.str("text"), None, "{answer:#?}");
            pos.play(pit).expect("a keyboard pit is legal");
            self.assert_told_to_move(mark, next);
        }
        self.board_at(pos)
    }

    /// The bot told `user` in the group that it is their move (after call `mark`).
    fn assert_told_to_move(&self, mark: usize, user: &TgUser) {
        let link = format!("tg://user?id={}", user.id);
        let told = self.fake.wait_call(mark, WAIT, |c| {
            c.method == "sendMessage"
                && c.ok()
                && c.i64("chat_id") == Some(GROUP)
                && c.str("text").is_some_and(|t| t.contains(&link))
        });
        assert!(told.is_some(), "{} was not told to move", user.first_name);
    }

    /// Waits until the group shows `n` turn notices ("…, your move").
    fn assert_notices(&self, n: usize) {
        let count = |v: &toguz::testing::telegram::FakeView| {
            v.bot_messages(GROUP)
                .iter()
                .filter(|m| m.text.as_deref().is_some_and(|t| t.contains("your move")))
                .count()
        };
        let ok = self.fake.wait_until(WAIT, |v| count(v) == n);
        assert!(ok, "expected {n} turn notices");
    }

    fn text_of(&self, msg: i64) -> String {
        let m = self.fake.message(GROUP, msg).expect("message");
        m.text.unwrap_or_default()
    }
}

/// The challenge id on a call's Accept button.
fn challenge_of(c: &Call) -> Option<String> {
    c.buttons().iter().find_map(|(_, d)| {
        d.strip_prefix("1ca:")?
            .split(':')
            .next()
            .map(str::to_string)
    })
}

fn move_data(board: &Board, pit: u8) -> String {
    format!("1m:{}:{}:{pit}", board.game, board.ply)
}

fn score(pos: &Position) -> String {
    format!(
        "Kazans: {} : {}",
        pos.store(Side::White),
        pos.store(Side::Black)
    )
}

/// An answer that is a pop-up alert containing `words`.
fn assert_alert(answer: &Call, words: &str) {
    assert!(
        answer.str("show_alert").as_deref() == Some("true"),
        "not an alert: {answer:#?}"
    );
    assert_says(answer, words);
}

/// An answer whose text contains `words`.
fn assert_says(answer: &Call, words: &str) {
    let text = answer.str("text").unwrap_or_default();
    assert!(text.contains(words), "{text:?} lacks {words:?}");
}

/// No message was edited or posted with a board since call `mark`.
fn assert_nothing_changed(fake: &FakeTelegram, mark: usize) {
    let changed: Vec<Call> = fake.calls()[mark..]
        .iter()
        .filter(|c| c.ok() && (c.method.starts_with("edit") || c.method == "sendPhoto"))
        .cloned()
        .collect();
    assert!(changed.is_empty(), "{changed:#?}");
}

#[test]
fn a_challenge_by_reply_is_accepted_played_and_resigned() {
    let lifted = Lifted::because("eight moves and their turn notices in one group within seconds: about the flow, not the group's 20 posts a minute");
    let f = Flow::start_lifted("", "", lifted);
    let (msg, id) = f.challenge_by_reply(&f.alice, &f.bob);
    assert!(
        f.text_of(msg).contains("Alice challenges Bob"),
        "{}",
        f.text_of(msg)
    );
    // Only Bob may answer it.
    let answer = f.press(msg, &f.carol, &format!("1ca:{id}"));
    assert_alert(&answer, "not addressed to you");
    let first = f.accept(msg, &id, &f.bob);

    let players = [&f.alice, &f.bob];
    let mut pos = Position::start(Variant::default());
    let board = f.play(players, &mut pos, 8);
    // Each notice replaced the one before it.
    f.assert_notices(1);
    let (mover, winner) = f.turn(&board, players);
    let resign = format!("1r:{}:{}", board.game, board.ply);
    let answer = f.press(board.message.message_id, mover, &resign);
    assert_eq!(answer.str("text"), None, "{answer:#?}");

    let end = wait_board(&f.fake, GROUP, |b| b.is_over());
    assert_eq!(
        end.message.message_id, first.message.message_id,
        "edited in place"
    );
    let caption = end.caption();
    assert!(
        caption.contains(&format!("{} resigned", mover.first_name)),
        "{caption}"
    );
    assert!(
        caption.contains(&format!("wins: {}.", winner.first_name)),
        "{caption}"
    );
    assert!(end.pits.is_empty() && end.data.iter().any(|d| d.starts_with("1rm:")));
    assert!(assert_all_photos_png(&f.fake.calls()) >= 9);
    f.assert_notices(0);

    // The winner asks for a rematch with the button; the other accepts: a new game.
    let mark = f.fake.mark();
    let rematch = format!("1rm:{}", end.game);
    let answer = f.press(end.message.message_id, winner, &rematch);
    assert_eq!(answer.str("text"), None, "{answer:#?}");
    let (msg, id) = f.challenge_message(mark);
    let wants = format!(
        "{} wants a rematch with {}",
        winner.first_name, mover.first_name
    );
    assert!(f.text_of(msg).contains(&wants), "{}", f.text_of(msg));
    let next = f.accept(msg, &id, mover);
    assert_ne!(next.game, end.game);
}

#[test]
fn an_open_challenge_is_for_anyone_but_its_author() {
    let f = Flow::start("", "");
    let mark = f.fake.mark();
    f.say(&f.carol, "/challenge");
    let (msg, id) = f.challenge_message(mark);
    assert!(f.text_of(msg).contains("Carol is looking for an opponent"));
    let data: Vec<String> = f
        .fake
        .message(GROUP, msg)
        .unwrap()
        .buttons()
        .into_iter()
        .map(|(_, d)| d)
        .collect();
    assert_eq!(
        data[..2],
        [format!("1ca:{id}:0"), format!("1cc:{id}")],
        "accept, withdraw"
    );
    // Then the time rows (no time control was given): clocks, then days per move.
    assert_eq!(data.len(), 9, "{data:?}");
    assert!(data[2..].iter().all(|d| d.starts_with("1ct:")), "{data:?}");
    let answer = f.press(msg, &f.carol, &format!("1ca:{id}"));
    assert_says(&answer, "against yourself");
    f.accept(msg, &id, &f.alice);
    let mut pos = Position::start(Variant::default());
    f.play([&f.carol, &f.alice], &mut pos, 4);
}

#[test]
fn the_language_comes_from_telegram_or_from_lang() {
    let f = Flow::start("", "");
    let dana = TgUser::new(604, "Dana", "", "ru");
    let chat = TgChat::private(&dana);
    let mark = f.fake.mark();
    f.fake.send_text(&chat, &dana, "/start");
    let said = |mark: usize, words: &str| {
        let found = f.fake.wait_call(mark, WAIT, |c| {
            c.method == "sendMessage" && c.str("text").is_some_and(|t| t.contains(words))
        });
        assert!(found.is_some(), "no message with {words:?}");
    };
    said(mark, "Здравствуйте!");
    let mark = f.fake.mark();
    f.fake.send_text(&chat, &dana, "/lang kk");
    said(mark, "Сізбен қазақша сөйлесемін.");
    f.fake.send_text(&chat, &dana, "/play random");
    let board = wait_board(&f.fake, chat.id, |b| !b.pits.is_empty());
    assert!(board.caption().contains("Қазандар:"), "{}", board.caption());
}

#[test]
fn a_challenge_by_username_can_be_declined_and_then_not_accepted() {
    let f = Flow::start("", "");
    f.say(&f.bob, "hello everyone");
    let mark = f.fake.mark();
    f.say(&f.alice, "/challenge @bob_the_player");
    let (msg, id) = f.challenge_message(mark);
    assert!(f.text_of(msg).contains("Alice challenges Bob"));
    assert_alert(
        &f.press(msg, &f.carol, &format!("1cd:{id}")),
        "not addressed to you",
    );
    let answer = f.press(msg, &f.bob, &format!("1cd:{id}"));
    assert_eq!(answer.str("text"), None, "{answer:#?}");
    let declined = f.fake.wait_until(WAIT, |v| {
        v.message(GROUP, msg).is_some_and(|m| {
            m.text.as_deref() == Some("Bob declined the challenge.") && m.buttons().is_empty()
        })
    });
    assert!(declined, "{}", f.text_of(msg));
    // An old Accept button does nothing but say so.
    let mark = f.fake.mark();
    assert_says(
        &f.press(msg, &f.bob, &format!("1ca:{id}")),
        "no longer open",
    );
    assert_nothing_changed(&f.fake, mark);
    // A name never seen cannot be challenged, and the bot says why.
    let mark = f.fake.mark();
    f.say(&f.alice, "/challenge @nobody_here");
    let (_, said) = f
        .fake
        .wait_call(mark, WAIT, |c| c.method == "sendMessage" && c.ok())
        .expect("answer");
    assert!(said.str("text").unwrap().contains("@nobody_here"));
}

/// Issue 49: `/challenge @bob 2 days` made a two-minute blitz game (`2` read as the time,
/// `days` dropped). Since issue 51 "2 days" is a time control; "2 weeks" is such a case
/// now. A word the command does not take is refused by name, and nothing is made; the
/// same command without it makes the challenge.
#[test]
fn a_word_a_challenge_does_not_take_is_refused_by_name() {
    let f = Flow::start("", "");
    f.say(&f.bob, "hello everyone");
    for (command, word) in [
        ("/challenge @bob_the_player 2 weeks", "weeks"),
        ("/challenge @bob_the_player 3+2 tomorrow", "tomorrow"),
    ] {
        let mark = f.fake.mark();
        f.say(&f.alice, command);
        let text = next_text(&f.fake, mark, GROUP);
        assert!(
            text.contains(&format!("“{word}” in /challenge")),
            "{command}: {text}"
        );
        let made = f.fake.calls()[mark..]
            .iter()
            .any(|c| c.buttons().iter().any(|(_, d)| d.starts_with("1ca:")));
        assert!(!made, "{command}: a challenge was made");
    }
    let mark = f.fake.mark();
    f.say(&f.alice, "/challenge @bob_the_player 2");
    let (msg, _) = f.challenge_message(mark);
    assert!(f.text_of(msg).contains("Alice challenges Bob"));
}

#[test]
fn a_username_seen_before_a_restart_can_still_be_challenged() {
    let mut f = Flow::start("", "");
    let mark = f.fake.mark();
    f.say(&f.bob, "/games");
    f.fake
        .wait_call(mark, WAIT, |c| c.method == "sendMessage" && c.ok())
        .expect("Bob answered");
    f.restart();
    let mark = f.fake.mark();
    f.say(&f.alice, "/challenge @Bob_The_Player");
    let (msg, id) = f.challenge_message(mark);
    assert!(
        f.text_of(msg).contains("Alice challenges Bob"),
        "{}",
        f.text_of(msg)
    );
    f.accept(msg, &id, &f.bob);
}

#[test]
fn an_unanswered_challenge_expires_and_its_buttons_say_so() {
    let f = Flow::start(
        "",
        "[limits]\nchallenge_expiry_secs = 2\nsweep_interval_secs = 1",
    );
    let (msg, id) = f.challenge_by_reply(&f.alice, &f.bob);
    let expired = f.fake.wait_until(WAIT, |v| {
        v.message(GROUP, msg).is_some_and(|m| {
            m.text.as_deref().is_some_and(|t| t.contains("expired")) && m.buttons().is_empty()
        })
    });
    assert!(expired, "{}", f.text_of(msg));
    let mark = f.fake.mark();
    assert_says(
        &f.press(msg, &f.bob, &format!("1ca:{id}")),
        "no longer open",
    );
    assert_says(
        &f.press(msg, &f.alice, &format!("1cc:{id}")),
        "no longer open",
    );
    assert_nothing_changed(&f.fake, mark);
}

#[test]
fn draws_are_offered_declined_and_accepted_and_resign_works_by_command() {
    let f = Flow::start("", "");
    let players = [&f.alice, &f.bob];
    f.alice_vs_bob();
    let mut pos = Position::start(Variant::default());
    let board = f.play(players, &mut pos, 2);
    let msg = board.message.message_id;
    let (mover, other) = f.turn(&board, players);

    let offer = format!("1d:{}:{}", board.game, board.ply);
    assert_eq!(f.press(msg, mover, &offer).str("text"), None);
    let offered = wait_board(&f.fake, GROUP, |b| {
        b.data.iter().any(|d| d.starts_with("1dd:"))
    });
    assert!(offered
        .caption()
        .contains(&format!("{} offers a draw", mover.first_name)));
    // Only the other player can answer the offer.
    assert_says(
        &f.press(msg, mover, &format!("1da:{}", board.game)),
        "Nobody has offered",
    );
    assert_eq!(
        f.press(msg, other, &format!("1dd:{}", board.game))
            .str("text"),
        None
    );
    let declined = wait_board(&f.fake, GROUP, |b| {
        b.data.iter().any(|d| d.starts_with("1d:"))
    });
    assert!(!declined.caption().contains("offers a draw"));
    assert_eq!(declined.ply, board.ply, "the game goes on");

    // An offer by command, accepted with the button.
    f.say(other, "/draw");
    wait_board(&f.fake, GROUP, |b| {
        b.data.iter().any(|d| d.starts_with("1da:"))
    });
    assert_eq!(
        f.press(msg, mover, &format!("1da:{}", board.game))
            .str("text"),
        None
    );
    let drawn = wait_board(&f.fake, GROUP, |b| b.is_over());
    assert!(
        drawn.caption().contains("Drawn by agreement"),
        "{}",
        drawn.caption()
    );

    // A new game, resigned with /resign before anyone moved: aborted, no result (issue 31,
    // item 1).
    let next = f.alice_vs_bob();
    f.say(&f.bob, "/resign");
    let end = wait_board(&f.fake, GROUP, |b| b.is_over() && b.game == next.game);
    assert!(
        end.caption().contains("it has no result"),
        "{}",
        end.caption()
    );
}

#[test]
fn outsiders_and_bad_buttons_change_nothing() {
    let f = Flow::start("", "");
    let players = [&f.alice, &f.bob];
    f.alice_vs_bob();
    let mut pos = Position::start(Variant::default());
    let board = f.play(players, &mut pos, 1);
    let msg = board.message.message_id;
    let (mover, waiting) = f.turn(&board, players);
    let pit = board.pits[0].0;
    let good = move_data(&board, pit);

    let mark = f.fake.mark();
    assert_alert(&f.press(msg, &f.carol, &good), "not playing in this game");
    assert_alert(&f.press(msg, waiting, &good), "not your turn");
    let stale = format!("1m:{}:{}:{pit}", board.game, board.ply - 1);
    assert_says(&f.press(msg, mover, &stale), "out of date");
    // Data naming another game than the pressed board's is refused as forged.
    let forged_game = format!("1m:zzzzzz:{}:{pit}", board.ply);
    assert_says(&f.press(msg, mover, &forged_game), "not valid");
    let long = format!("1m:{}:{}:{}", board.game, board.ply, "9".repeat(60));
    for bad in [
        format!("1m:{}:{}:10", board.game, board.ply),
        format!("1m:{}", board.game),
        format!("1r:{}:x", board.game),
        format!("9m:{}:{}:{pit}", board.game, board.ply),
        "hello".to_string(),
        long,
    ] {
        assert_says(&f.press(msg, mover, &bad), "not valid");
    }
    assert_nothing_changed(&f.fake, mark);
    assert_eq!(
        f.fake.message(GROUP, msg).unwrap().edits,
        board.message.edits
    );

    // /board shows the game exactly as it was.
    f.say(mover, "/board");
    let again = wait_board(&f.fake, GROUP, |b| b.message.message_id > msg);
    assert_eq!(again.ply, board.ply);
    again.assert_pits_match(&pos);

    // A double press plays once; the second is answered as out of date.
    let good = move_data(&again, pit);
    let first = f
        .fake
        .press(&f.group, again.message.message_id, mover, &good);
    let second = f
        .fake
        .press(&f.group, again.message.message_id, mover, &good);
    let answers = [first, second].map(|q| f.fake.wait_answer(&q, WAIT).expect("answered"));
    let texts: Vec<Option<String>> = answers.iter().map(|a| a.str("text")).collect();
    assert!(texts.contains(&None), "{texts:?}");
    assert!(
        texts.iter().flatten().any(|t| t.contains("out of date")),
        "{texts:?}"
    );
    pos.play(pit).expect("legal");
    f.board_at(&pos);
}

#[test]
fn a_429_on_an_edit_is_waited_out_and_the_move_is_kept() {
    let f = Flow::start("", "");
    let players = [&f.alice, &f.bob];
    let board = f.alice_vs_bob();
    let (mover, _) = f.turn(&board, players);
    f.fake.fail_next_with_429("editMessageMedia", 1);
    let mark = f.fake.mark();
    let pit = board.pits[0].0;
    let answer = f.press(board.message.message_id, mover, &move_data(&board, pit));
    assert_eq!(answer.str("text"), None, "{answer:#?}");

    let is_edit = |c: &Call| c.method == "editMessageMedia";
    let (i, limited) = f
        .fake
        .wait_call(mark, WAIT, |c| is_edit(c) && c.status == 429)
        .expect("the edit met the flood limit");
    let (_, done) = f
        .fake
        .wait_call(i + 1, WAIT, |c| is_edit(c) && c.ok())
        .expect("the edit went through later");
    let waited = done.at.duration_since(limited.at);
    assert!(waited >= Duration::from_secs(1), "retried after {waited:?}");
    let mut pos = Position::start(Variant::default());
    pos.play(pit).expect("legal");
    let after = f.board_at(&pos);
    assert_eq!(after.message.message_id, board.message.message_id);
}

#[test]
fn a_failed_edit_loses_no_move_and_board_shows_it() {
    let f = Flow::start("", "");
    let players = [&f.alice, &f.bob];
    let board = f.alice_vs_bob();
    let (mover, _) = f.turn(&board, players);
    f.fake
        .fail_next("editMessageMedia", 500, "Internal Server Error");
    let mark = f.fake.mark();
    let pit = board.pits[0].0;
    let answer = f.press(board.message.message_id, mover, &move_data(&board, pit));
    assert_eq!(answer.str("text"), None, "{answer:#?}");
    f.fake
        .wait_call(mark, WAIT, |c| {
            c.method == "editMessageMedia" && c.status == 500
        })
        .expect("the edit failed");
    // The message still shows the old board, but the move is kept: /board shows it.
    let mut pos = Position::start(Variant::default());
    pos.play(pit).expect("legal");
    f.say(mover, "/board");
    let again = wait_board(&f.fake, GROUP, |b| {
        b.message.message_id > board.message.message_id
    });
    assert_eq!(again.ply, 1);
    again.assert_pits_match(&pos);
}

const SECRET: &str = "hook_Secret-42";

/// A loopback port nobody listens on (for the bot's webhook server).
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("addr").port()
}

/// POSTs `update` to the bot's webhook with `secret` in Telegram's header; the HTTP status.
fn post_update(url: &str, update: &serde_json::Value, secret: Option<&str>) -> u16 {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let mut req = reqwest::Client::new().post(url).json(update);
        if let Some(s) = secret {
            req = req.header("X-Telegram-Bot-Api-Secret-Token", s);
        }
        req.send().await.map_or(0, |r| r.status().as_u16())
    })
}

#[test]
fn webhook_mode_checks_the_secret_token_on_every_request() {
    let fake = FakeTelegram::start(TOKEN);
    fake.allow_http_webhook();
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/tg-hook");
    let webhook = format!(
        "[telegram.webhook]\nlisten = \"127.0.0.1:{port}\"\npublic_url = {url:?}\n\
         secret_token = {SECRET:?}"
    );
    let f = Flow::with_fake(fake, &webhook, "");
    let (_, set) = f
        .fake
        .wait_call(0, WAIT, |c| c.method == "setWebhook" && c.ok())
        .expect("setWebhook");
    assert_eq!(set.str("url").as_deref(), Some(url.as_str()));
    assert_eq!(set.str("secret_token").as_deref(), Some(SECRET));

    // Telegram (the fake) delivers updates with the secret: a game starts.
    let chat = TgChat::private(&f.alice);
    f.fake.send_text(&chat, &f.alice, "/play random");
    let board = wait_board(&f.fake, chat.id, |b| !b.pits.is_empty());
    let msg = board.message.message_id;
    let data = move_data(&board, board.pits[0].0);
    let (query, update) = f.fake.press_update(&chat, msg, &f.alice, &data);
    // Without the secret, or with a wrong one, the update is refused...
    assert_eq!(post_update(&url, &update, None), 401);
    assert_eq!(post_update(&url, &update, Some("wrong_secret")), 401);
    // ...and nothing happens: a later update is answered, the refused press is not.
    let mark = f.fake.mark();
    f.fake.send_text(&chat, &f.alice, "/games");
    let games = f.fake.wait_call(mark, WAIT, |c| {
        c.method == "sendMessage" && c.str("text").is_some_and(|t| t.contains("ongoing games"))
    });
    assert!(games.is_some(), "/games not answered");
    assert!(f.fake.wait_answer(&query, Duration::ZERO).is_none());
    assert_eq!(
        f.fake.message(chat.id, msg).unwrap().edits,
        board.message.edits
    );
    // With the secret, the same update plays the move.
    assert_eq!(post_update(&url, &update, Some(SECRET)), 200);
    let answer = f.fake.wait_answer(&query, WAIT).expect("answered");
    assert_eq!(answer.str("text"), None, "{answer:#?}");
    wait_board(&f.fake, chat.id, |b| b.ply > board.ply);
    let refused: Vec<_> = f
        .fake
        .deliveries()
        .into_iter()
        .filter(|(_, s)| *s != 200)
        .collect();
    assert!(refused.iter().all(|(_, s)| *s == 0), "{refused:?}");
}

#[test]
fn a_token_telegram_refuses_is_a_clear_start_up_error() {
    // The fake serves another bot: getMe with our token answers 401 Unauthorized.
    let fake = FakeTelegram::start("1111:another-bots-token");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut bot = BotProcess::start(&fake, dir.path(), "", "");
    assert_eq!(bot.wait_exit(WAIT), Some(1), "the bot must stop");
    let log = bot.log_text();
    assert!(log.contains("Telegram refused the bot token"), "{log}");
    assert!(!log.contains(TOKEN), "the token is never printed: {log}");
}

#[test]
fn a_taken_webhook_port_is_a_clear_start_up_error() {
    let fake = FakeTelegram::start(TOKEN);
    fake.allow_http_webhook();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = taken.local_addr().expect("addr").port();
    let webhook = format!(
        "[telegram.webhook]\nlisten = \"127.0.0.1:{port}\"\n\
         public_url = \"http://127.0.0.1:{port}/hook\"\nsecret_token = {SECRET:?}"
    );
    let mut f = Flow::with_fake(fake, &webhook, "");
    assert_eq!(f.bot.wait_exit(WAIT), Some(1), "the bot must stop");
    let log = f.bot.log_text();
    assert!(
        log.contains("cannot listen on telegram.webhook.listen"),
        "{log}"
    );
    assert!(!log.contains(TOKEN) && !log.contains(SECRET));
    assert!(f.fake.webhook().is_none(), "no webhook set");
}

#[test]
fn a_webhook_telegram_refuses_is_a_clear_start_up_error() {
    let port = free_port();
    let webhook = format!(
        "[telegram.webhook]\nlisten = \"127.0.0.1:{port}\"\n\
         public_url = \"https://bot.example.org:9000/hook\"\nsecret_token = {SECRET:?}"
    );
    let mut f = Flow::start(&webhook, "");
    assert_eq!(f.bot.wait_exit(WAIT), Some(1), "the bot must stop");
    let log = f.bot.log_text();
    assert!(log.contains("cannot set the Telegram webhook (telegram.webhook.public_url)"));
    assert!(log.contains("ports 80, 88, 443 or 8443"), "{log}");
    assert!(!log.contains(TOKEN) && !log.contains(SECRET));
}

impl Flow {
    /// The inline message's board once it shows `pos`, keyboard checked.
    fn inline_board_at(&self, inline: &str, pos: &Position) -> Board {
        let ply = pos.ply();
        let at = |b: &Board| b.ply == ply && !b.pits.is_empty();
        let found = self.fake.wait_until(WAIT, |v| {
            v.inline_message(inline)
                .and_then(Board::of)
                .is_some_and(|b| at(&b))
        });
        let board = self.fake.inline_message(inline).and_then(|m| Board::of(&m));
        assert!(found, "{board:#?}");
        let board = board.expect("board");
        board.assert_pits_match(pos);
        assert!(board.caption().starts_with("<pre>"), "a text board");
        board
    }

    /// `user` presses `data` on inline message `inline`; the answer.
    fn press_inline(&self, inline: &str, user: &TgUser, data: &str) -> Call {
        let q = self.fake.press_inline(inline, user, data);
        self.fake.wait_answer(&q, WAIT).expect("press answered")
    }
}

#[test]
fn inline_mode_challenges_and_plays_on_a_text_board() {
    let f = Flow::start("", "");
    let query = f.fake.inline_query(&f.alice, "");
    let (_, offered) = f
        .fake
        .wait_call(0, WAIT, |c| c.method == "answerInlineQuery" && c.ok())
        .expect("inline query answered");
    let result = &offered.params["results"][0];
    assert_eq!(result["title"], "Challenge to toguzqumalak");
    let inline = f
        .fake
        .choose_inline_result(&query, result["id"].as_str().expect("id"));
    let ready = f.fake.wait_until(WAIT, |v| {
        v.inline_message(&inline)
            .is_some_and(|m| m.buttons().iter().any(|(_, d)| d.starts_with("1ca:")))
    });
    assert!(ready, "{:#?}", f.fake.inline_message(&inline));
    let buttons = f.fake.inline_message(&inline).unwrap().buttons();
    let accept = buttons
        .iter()
        .find(|(_, d)| d.starts_with("1ca:"))
        .unwrap()
        .1
        .clone();

    assert_says(
        &f.press_inline(&inline, &f.alice, &accept),
        "against yourself",
    );
    assert_eq!(f.press_inline(&inline, &f.bob, &accept).str("text"), None);
    let mut pos = Position::start(Variant::default());
    for i in 0..6 {
        let board = f.inline_board_at(&inline, &pos);
        let (mover, _) = f.turn(&board, [&f.alice, &f.bob]);
        let pit = board.pits[(i * 5) % board.pits.len()].0;
        let answer = f.press_inline(&inline, mover, &move_data(&board, pit));
        assert_eq!(answer.str("text"), None, "{answer:#?}");
        pos.play(pit).expect("legal");
    }
    f.inline_board_at(&inline, &pos);
    let calls = f.fake.calls();
    let photos = calls
        .iter()
        .filter(|c| c.method == "sendPhoto" || c.method == "editMessageMedia");
    assert_eq!(photos.count(), 0, "no photo in inline mode");
    let edits = calls.iter().filter(|c| {
        c.method == "editMessageText"
            && c.ok()
            && c.str("inline_message_id") == Some(inline.clone())
    });
    assert!(edits.count() >= 7);
}

#[test]
fn an_inline_challenge_sent_without_feedback_is_accepted_by_its_button() {
    let f = Flow::start("", "");
    let mark = f.fake.mark();
    let query = f.fake.inline_query(&f.bob, "");
    let (_, answered) = f
        .fake
        .wait_call(mark, WAIT, |c| c.method == "answerInlineQuery" && c.ok())
        .expect("inline query answered");
    let result = answered.params["results"][0]["id"].as_str().expect("id");
    // Telegram does not tell the bot the result was sent: the message keeps its first button.
    let inline = f.fake.send_inline_result(&query, result, false);
    let buttons = f.fake.inline_message(&inline).expect("sent").buttons();
    let (_, data) = buttons.first().cloned().expect("a button");
    assert!(data.starts_with("tgi:"), "{data}");
    assert_says(
        &f.press_inline(&inline, &f.bob, &data),
        "your own challenge",
    );
    assert_eq!(f.press_inline(&inline, &f.carol, &data).str("text"), None);
    let mut pos = Position::start(Variant::default());
    let board = f.inline_board_at(&inline, &pos);
    let (mover, _) = f.turn(&board, [&f.bob, &f.carol]);
    let pit = board.pits[0].0;
    let answer = f.press_inline(&inline, mover, &move_data(&board, pit));
    assert_eq!(answer.str("text"), None, "{answer:#?}");
    pos.play(pit).expect("legal");
    f.inline_board_at(&inline, &pos);
    // The placeholder cannot start a second game on the same message: it was used.
    assert_says(&f.press_inline(&inline, &f.alice, &data), "no longer valid");
    f.inline_board_at(&inline, &pos);
}

#[test]
fn without_edit_in_place_every_move_posts_a_new_board() {
    let f = Flow::start("edit_in_place = false", "");
    let chat = TgChat::private(&f.alice);
    f.fake.send_text(&chat, &f.alice, "/play random");
    let mut pos = Position::start(Variant::default());
    let mut board = wait_board(&f.fake, chat.id, |b| !b.pits.is_empty());
    for _ in 0..5 {
        if board.ply == pos.ply() + 1 {
            pos.play(board.last_move_pit().expect("bot's move"))
                .expect("legal");
        }
        board.assert_pits_match(&pos);
        let pit = board.pits[0].0;
        let q = f.fake.press(
            &chat,
            board.message.message_id,
            &f.alice,
            &move_data(&board, pit),
        );
        let answer = f.fake.wait_answer(&q, WAIT).expect("answered");
        assert_eq!(answer.str("text"), None, "{answer:#?}");
        pos.play(pit).expect("legal");
        let ply = pos.ply();
        let next = wait_board(&f.fake, chat.id, |b| b.ply > ply && !b.pits.is_empty());
        assert!(
            next.message.message_id > board.message.message_id,
            "a new message"
        );
        board = next;
    }
    // Only the newest board keeps its buttons.
    let cleared = f.fake.wait_until(WAIT, |v| {
        let boards: Vec<_> = v
            .bot_messages(chat.id)
            .into_iter()
            .filter(|m| m.photo.is_some())
            .collect();
        boards.len() >= 6
            && boards
                .iter()
                .rev()
                .skip(1)
                .all(|m| Board::of(m).is_none_or(|b| b.pits.is_empty()))
    });
    assert!(cleared, "{:#?}", f.fake.bot_messages(chat.id));
    let calls = f.fake.calls();
    assert!(calls.iter().all(|c| c.method != "editMessageMedia"));
    assert!(assert_all_photos_png(&calls) >= 6);
}

#[test]
fn each_refusal_is_answered_where_it_was_asked() {
    let f = Flow::start("", "");
    // Commands that cannot be carried out, in a private chat: a reply says why.
    let chat = TgChat::private(&f.carol);
    for (command, words) in [
        ("/challenge", "Challenges are made in groups"),
        ("/rematch", "Reply with /rematch"),
        ("/history bob", "know who “bob” is"),
    ] {
        let mark = f.fake.mark();
        f.fake.send_text(&chat, &f.carol, command);
        let text = next_text(&f.fake, mark, chat.id);
        assert!(text.contains(words), "{command}: {text}");
    }

    // On a board in a group: a stale press passes as a notice, not an alert.
    let players = [&f.alice, &f.bob];
    f.alice_vs_bob();
    let mut pos = Position::start(Variant::default());
    let board = f.play(players, &mut pos, 1);
    let msg = board.message.message_id;
    let (mover, _) = f.turn(&board, players);
    let stale = format!("1m:{}:{}:{}", board.game, board.ply - 1, board.pits[0].0);
    let answer = f.press(msg, mover, &stale);
    assert_says(&answer, "out of date");
    assert_ne!(
        answer.str("show_alert").as_deref(),
        Some("true"),
        "{answer:#?}"
    );
    // A Record button of a game that does not exist: the press is answered, and the refusal
    // is posted in the chat, where the record would have gone.
    let mark = f.fake.mark();
    let answer = f.press(msg, &f.carol, "1rc:zz99zz");
    assert_eq!(answer.str("text"), None, "{answer:#?}");
    let text = next_text(&f.fake, mark, GROUP);
    assert!(text.contains("There is no such game"), "{text}");

    // On an inline message: a record or a review is asked for in a private chat, and the
    // placeholder's refusals are alerts.
    let mark = f.fake.mark();
    let query = f.fake.inline_query(&f.alice, "");
    let (_, answered) = f
        .fake
        .wait_call(mark, WAIT, |c| c.method == "answerInlineQuery" && c.ok())
        .expect("inline query answered");
    let result = answered.params["results"][0]["id"].as_str().expect("id");
    let inline = f.fake.send_inline_result(&query, result, false);
    let (_, placeholder) = f
        .fake
        .inline_message(&inline)
        .expect("sent")
        .buttons()
        .first()
        .cloned()
        .expect("a button");
    assert_alert(
        &f.press_inline(&inline, &f.bob, "1rc:zz99zz"),
        "Send /record zz99zz to me in a private chat",
    );
    assert_alert(
        &f.press_inline(&inline, &f.bob, "1rv:zz99zz"),
        "Send /review zz99zz to me in a private chat",
    );
    assert_alert(
        &f.press_inline(&inline, &f.alice, &placeholder),
        "your own challenge",
    );
    assert_eq!(
        f.press_inline(&inline, &f.bob, &placeholder).str("text"),
        None
    );
    // The offer was used: good once (issue 31, item 4).
    assert_alert(
        &f.press_inline(&inline, &f.carol, &placeholder),
        "no longer valid",
    );
}
