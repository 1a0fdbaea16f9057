//! Timed games (issue 17) on the real bot against the fake Bot API: a time control typed
//! after `/challenge` and `/play`, a refused one answered with examples, and a `0.1+0` game
//! whose flag falls with nobody pressing.

use std::time::Duration;
use toguz::testing::telegram::bot::{wait_board, Board, BotProcess, TOKEN, WAIT};
use toguz::testing::telegram::{FakeTelegram, TgChat, TgUser};

const GROUP: i64 = -100_888;

/// The real bot and a group with two players.
struct Club {
    // Declared first so the bot is stopped before the fake server.
    _bot: BotProcess,
    fake: FakeTelegram,
    _dir: tempfile::TempDir,
    group: TgChat,
    alice: TgUser,
    bob: TgUser,
}

impl Club {
    fn start() -> Club {
        Club::start_with("")
    }

    /// With `telegram_extra` lines in the bot's `[telegram]` config.
    fn start_with(telegram_extra: &str) -> Club {
        let fake = FakeTelegram::start(TOKEN);
        let dir = tempfile::tempdir().expect("temp dir");
        let bot = BotProcess::start(&fake, dir.path(), telegram_extra, "");
        Club {
            _bot: bot,
            fake,
            _dir: dir,
            group: TgChat::group(GROUP, "Blitz club"),
            alice: TgUser::new(701, "Alice", "alice_k", "en"),
            bob: TgUser::new(702, "Bob", "bob_the_player", "en"),
        }
    }

    /// The text of the first message the bot sent to `chat` after call `mark`.
    fn answer_after(&self, mark: usize, chat: i64) -> String {
        let (_, call) = self
            .fake
            .wait_call(mark, WAIT, |c| {
                c.method == "sendMessage" && c.ok() && c.i64("chat_id") == Some(chat)
            })
            .expect("the bot answered");
        call.str("text").unwrap_or_default()
    }

    /// Alice replies `command` (a `/challenge`) to a message of Bob's: the challenge posted.
    fn challenge(&self, command: &str) -> toguz::testing::telegram::Call {
        let theirs = self.fake.send_text(&self.group, &self.bob, "A game?");
        let mark = self.fake.mark();
        self.fake
            .send_reply(&self.group, &self.alice, command, theirs);
        let (_, call) = self
            .fake
            .wait_call(mark, WAIT, |c| {
                c.method == "sendMessage" && c.ok() && challenge_of(c).is_some()
            })
            .expect("challenge posted");
        call
    }

    /// Alice replies `/challenge <time>` to Bob, Bob accepts: the first board.
    fn timed_game(&self, time: &str) -> Board {
        let call = self.challenge(&format!("/challenge {time}"));
        let invite = call.str("text").unwrap_or_default();
        assert!(
            invite.contains("Alice challenges Bob") && invite.contains(time),
            "{invite}"
        );
        let msg = call.response["result"]["message_id"]
            .as_i64()
            .expect("message id");
        let id = challenge_of(&call).expect("challenge id");
        let q = self
            .fake
            .press(&self.group, msg, &self.bob, &format!("1ca:{id}"));
        let answer = self.fake.wait_answer(&q, WAIT).expect("accept answered");
        assert_eq!(answer.str("text"), None, "{answer:#?}");
        wait_board(&self.fake, GROUP, |b| b.ply == 0 && !b.pits.is_empty())
    }

    /// The player to move on `board` (named in its caption).
    fn to_move(&self, board: &Board) -> &TgUser {
        let caption = board.caption();
        let line = caption.lines().find(|l| l.contains(" to move: "));
        let name = line.and_then(|l| l.rsplit(": ").next()).unwrap_or("");
        [&self.alice, &self.bob]
            .into_iter()
            .find(|u| u.first_name == name)
            .unwrap_or_else(|| panic!("no player to move in {caption:?}"))
    }

    /// After the flag of the player to move on `last` fell (call `mark` on): the game's
    /// board (in the group, for both players) says who ran out of time and who won, and
    /// both are told by a message naming them, since an edit does not notify.
    fn flag_shown_and_told(&self, first: &Board, last: &Board, mark: usize) {
        let flagged = self.to_move(last).first_name.clone();
        let winner = if flagged == "Alice" { "Bob" } else { "Alice" };
        let end = wait_board(&self.fake, GROUP, Board::is_over);
        assert_eq!(end.message.message_id, first.message.message_id);
        let caption = end.caption();
        assert!(
            caption.contains(&format!("{flagged} ran out of time")),
            "{caption}"
        );
        assert!(caption.contains(&format!("wins: {winner}.")), "{caption}");
        assert!(end.pits.is_empty(), "{end:#?}");
        let (_, told) = self
            .fake
            .wait_call(mark, WAIT, |c| {
                c.method == "sendMessage"
                    && c.ok()
                    && c.str("text").is_some_and(|t| t.contains("is over"))
            })
            .expect("the players are told");
        let text = told.str("text").unwrap_or_default();
        for user in [&self.alice, &self.bob] {
            assert!(
                text.contains(&format!("tg://user?id={}", user.id)),
                "{text}"
            );
        }
        assert!(
            text.contains(&format!("{flagged} ran out of time")),
            "{text}"
        );
    }

    /// The player to move presses the first pit of `board`: the next board.
    fn first_pit(&self, board: &Board) -> Board {
        let (pit, _) = board.pits[0].clone();
        let data = format!("1m:{}:{}:{pit}", board.game, board.ply);
        let mover = self.to_move(board);
        let q = self
            .fake
            .press(&self.group, board.message.message_id, mover, &data);
        let answer = self.fake.wait_answer(&q, WAIT).expect("move answered");
        assert_eq!(answer.str("text"), None, "{answer:#?}");
        let ply = board.ply + 1;
        wait_board(&self.fake, GROUP, |b| b.ply == ply && !b.pits.is_empty())
    }
}

/// The challenge id on a call's Accept button.
fn challenge_of(c: &toguz::testing::telegram::Call) -> Option<String> {
    c.buttons().iter().find_map(|(_, d)| {
        d.strip_prefix("1ca:")?
            .split(':')
            .next()
            .map(str::to_string)
    })
}

#[test]
fn a_time_control_after_challenge_and_play_puts_the_game_on_a_clock() {
    let club = Club::start();
    let board = club.timed_game("3+2");
    let caption = board.caption();
    assert!(
        caption.contains("Clock blitz 3+2: 3:00 : 3:00"),
        "{caption}"
    );
    // Until White's first move, the board says by when it must come (UTC time of day).
    let white = club.to_move(&board).first_name.clone();
    assert!(
        caption.contains(&format!("{white}: make your first move by ")) && caption.contains("UTC"),
        "{caption}"
    );

    // By @username, with a rapid control (10 + 40 × 5 s is over 8 minutes).
    let mark = club.fake.mark();
    club.fake
        .send_text(&club.group, &club.alice, "/challenge @bob_the_player 10+5");
    let (_, call) = club
        .fake
        .wait_call(mark, WAIT, |c| {
            c.method == "sendMessage" && c.ok() && challenge_of(c).is_some()
        })
        .expect("challenge posted");
    let invite = call.str("text").unwrap_or_default();
    assert!(
        invite.contains("Alice challenges Bob") && invite.contains("rapid 10+5"),
        "{invite}"
    );

    // `/play easy 5+3` in a private chat: a game against the bot on the clock.
    let carol = TgUser::new(703, "Carol", "carol_s", "en");
    let private = TgChat::private(&carol);
    club.fake.send_text(&private, &carol, "/play easy 5+3");
    let board = wait_board(&club.fake, private.id, |b| !b.pits.is_empty());
    assert!(
        board.caption().contains("Clock blitz 5+3: 5:00 : 5:00"),
        "{}",
        board.caption()
    );
}

#[test]
fn a_time_control_that_is_none_is_answered_with_examples() {
    let club = Club::start();
    let carol = TgUser::new(703, "Carol", "carol_s", "ru");
    let private = TgChat::private(&carol);
    for (chat, user, text, answer) in [
        (&club.group, &club.alice, "/challenge 1000+0", "60+30"),
        (
            &club.group,
            &club.alice,
            "/challenge @bob_the_player 0+0",
            "0.1+0",
        ),
        (&club.group, &club.bob, "/challenge -1+0", "3+2"),
        (&club.group, &club.bob, "/play easy 3+x", "3+2"),
        (&club.group, &club.bob, "/play easy 5+90", "10+5"),
        (&private, &carol, "/play abc+1", "0,5+2"),
    ] {
        let mark = club.fake.mark();
        club.fake.send_text(chat, user, text);
        let said = club.answer_after(mark, chat.id);
        let typed = text.rsplit(' ').next().unwrap_or_default();
        assert!(said.contains(typed), "{text}: {said}");
        assert!(said.contains(answer), "{text}: {said}");
    }
    // Nothing was challenged and no game began.
    let calls = club.fake.calls();
    assert!(
        calls
            .iter()
            .all(|c| challenge_of(c).is_none() && c.method != "sendPhoto"),
        "{calls:#?}"
    );
}

#[test]
fn a_tenth_of_a_minute_game_flags_the_player_to_move_and_both_see_it() {
    flag_falls_and_both_are_told(Club::start());
}

/// Turn notices off: the end on time is still announced, since nobody would learn of it.
#[test]
fn a_flag_is_announced_even_with_turn_notices_off() {
    flag_falls_and_both_are_told(Club::start_with("notify_turn = false"));
}

fn flag_falls_and_both_are_told(club: Club) {
    let first = club.timed_game("0.1+0");
    // First moves are under their own limit; then White's six seconds run.
    let second = club.first_pit(&first);
    let third = club.first_pit(&second);
    assert!(
        third
            .caption()
            .contains("Clock blitz 0.1+0: 0:06.0 : 0:06.0"),
        "{}",
        third.caption()
    );
    // Nobody presses: the flag falls on its own.
    let mark = club.fake.mark();
    club.flag_shown_and_told(&first, &third, mark);
}

/// The process stopped after a flag fell but before its timer wrote it: at start-up the
/// game ends at once, and since no event reached the adapter then, it shows the end and
/// tells both players itself.
#[test]
fn a_flag_that_fell_before_a_crash_is_shown_and_told_after_the_restart() {
    let mut club = Club::start();
    let first = club.timed_game("1+0");
    let second = club.first_pit(&first);
    let third = club.first_pit(&second);
    club._bot.kill();
    // Alive for an hour after the last move (its timer never wrote the flag).
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_millis() as u64;
    toguz::testing::manager::write_heartbeat_offline(
        &club._dir.path().join("db"),
        now_ms + 3_600_000,
    )
    .expect("the heartbeat written");
    let mark = club.fake.mark();
    club._bot = BotProcess::start(&club.fake, club._dir.path(), "", "");
    club.flag_shown_and_told(&first, &third, mark);
}

#[test]
fn the_time_row_under_the_levels_puts_a_game_against_the_bot_on_a_clock() {
    let club = Club::start();
    let carol = TgUser::new(704, "Carol", "carol_s", "en");
    let private = TgChat::private(&carol);
    let mark = club.fake.mark();
    club.fake.send_text(&private, &carol, "/play");
    let (_, levels) = club
        .fake
        .wait_call(mark, WAIT, |c| {
            c.method == "sendMessage" && !c.buttons().is_empty()
        })
        .expect("the level keyboard");
    let msg = levels.response["result"]["message_id"]
        .as_i64()
        .expect("message id");
    let data: Vec<String> = levels.buttons().into_iter().map(|(_, d)| d).collect();
    assert!(data.contains(&"1b:easy".to_string()), "{data:?}");
    assert!(data.contains(&"tgt:5+3".to_string()), "{data:?}");

    // A time button redraws the keyboard: the levels now play at 5+3, which is ticked.
    let q = club.fake.press(&private, msg, &carol, "tgt:5+3");
    let answer = club.fake.wait_answer(&q, WAIT).expect("answered");
    let toast = answer.str("text").unwrap_or_default();
    assert!(toast.contains("blitz 5+3"), "{toast}");
    let redrawn = club.fake.wait_until(WAIT, |v| {
        v.message(private.id, msg).is_some_and(|m| {
            let buttons = m.buttons();
            buttons.iter().any(|(_, d)| d == "1b:easy:5+3")
                && buttons.iter().any(|(label, _)| label == "✓ 5+3")
        })
    });
    assert!(redrawn, "{:?}", club.fake.message(private.id, msg));
    let edits = |message: i64| {
        move |c: &toguz::testing::telegram::Call| {
            c.method == "editMessageReplyMarkup" && c.ok() && c.i64("message_id") == Some(message)
        }
    };
    assert!(club.fake.calls().iter().any(edits(msg)));

    club.fake.press(&private, msg, &carol, "1b:easy:5+3");
    let board = wait_board(&club.fake, private.id, |b| !b.pits.is_empty());
    assert!(
        board.caption().contains("Clock blitz 5+3: 5:00 : 5:00"),
        "{}",
        board.caption()
    );

    // A time button forged onto the board changes nothing there.
    let keyboard = board.data.clone();
    let mark = club.fake.mark();
    let q = club
        .fake
        .press(&private, board.message.message_id, &carol, "tgt:3+2");
    let answer = club.fake.wait_answer(&q, WAIT).expect("answered");
    assert_eq!(
        answer.str("show_alert").as_deref(),
        Some("true"),
        "{answer:#?}"
    );
    let edited = club.fake.wait_call(
        mark,
        Duration::from_secs(1),
        edits(board.message.message_id),
    );
    assert!(edited.is_none(), "{edited:#?}");
    let now = club
        .fake
        .message(private.id, board.message.message_id)
        .expect("the board");
    let data: Vec<String> = now.buttons().into_iter().map(|(_, d)| d).collect();
    assert_eq!(data, keyboard);
}

/// The callback data of a keyboard, row by row.
fn rows(markup: &serde_json::Value) -> Vec<Vec<String>> {
    let rows = markup["inline_keyboard"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    rows.iter()
        .map(|row| {
            let buttons = row.as_array().cloned().unwrap_or_default();
            buttons
                .iter()
                .map(|b| b["callback_data"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .collect()
}

/// `/challenge` without a time control: the challenge is open at once with the group's
/// default (correspondence), and a time row lets only its challenger pick another, so Bob
/// sees the control before he accepts; the game then runs on the clock picked.
#[test]
fn a_challenge_without_a_time_control_gets_a_time_row_for_its_challenger() {
    let club = Club::start();
    let call = club.challenge("/challenge");
    let msg = call.response["result"]["message_id"]
        .as_i64()
        .expect("message id");
    let id = challenge_of(&call).expect("challenge id");
    let invite = call.str("text").unwrap_or_default();
    assert!(
        invite.contains("Alice challenges Bob") && !invite.contains("blitz"),
        "{invite}"
    );
    let time = |t: &str| format!("1ct:{id}:{t}");
    let keyboard = rows(&call.reply_markup().expect("a keyboard"));
    assert_eq!(
        keyboard,
        [
            vec![
                format!("1ca:{id}:0"),
                format!("1cd:{id}"),
                format!("1cc:{id}")
            ],
            ["3+2", "5+3", "10+5"].map(time).to_vec(),
            ["1d", "3d", "7d", "correspondence"].map(time).to_vec(),
        ]
    );
    let labels: Vec<String> = call.buttons().into_iter().map(|(l, _)| l).collect();
    assert_eq!(
        labels[3..],
        [
            "3+2",
            "5+3",
            "10+5",
            "1 day",
            "3 days",
            "7 days",
            "✓ Correspondence"
        ]
    );

    // Bob may not change it: an alert, and the message stays as it is.
    let before = club.fake.message(GROUP, msg).expect("the challenge");
    let mark = club.fake.mark();
    let q = club.fake.press(&club.group, msg, &club.bob, &time("5+3"));
    let answer = club.fake.wait_answer(&q, WAIT).expect("answered");
    assert_eq!(answer.str("show_alert").as_deref(), Some("true"));
    let said = answer.str("text").unwrap_or_default();
    assert!(
        said.contains("Only the player who made the challenge"),
        "{said}"
    );
    let edited = club.fake.wait_call(mark, Duration::from_secs(1), |c| {
        c.method.starts_with("editMessage") && c.i64("message_id") == Some(msg)
    });
    assert!(edited.is_none(), "{edited:#?}");
    let after = club.fake.message(GROUP, msg).expect("the challenge");
    assert_eq!(
        (after.buttons(), after.text, after.edits),
        (before.buttons(), before.text, before.edits)
    );

    // Alice picks 3 days per move (issue 51): the text names it and the tick moves.
    let q = club.fake.press(&club.group, msg, &club.alice, &time("3d"));
    let answer = club.fake.wait_answer(&q, WAIT).expect("answered");
    let toast = answer.str("text").unwrap_or_default();
    assert_eq!(toast, "Time control: 3 days per move.");
    let redrawn = club.fake.wait_until(WAIT, |v| {
        v.message(GROUP, msg).is_some_and(|m| {
            m.text
                .as_deref()
                .is_some_and(|t| t.contains("3 days per move"))
                && m.buttons().contains(&("✓ 3 days".to_string(), time("3d")))
        })
    });
    assert!(redrawn, "{:?}", club.fake.message(GROUP, msg));

    // Then 5+3: the text names it and the tick moves.
    let q = club.fake.press(&club.group, msg, &club.alice, &time("5+3"));
    let answer = club.fake.wait_answer(&q, WAIT).expect("answered");
    let toast = answer.str("text").unwrap_or_default();
    assert!(toast.contains("blitz 5+3"), "{toast}");
    let redrawn = club.fake.wait_until(WAIT, |v| {
        v.message(GROUP, msg).is_some_and(|m| {
            let buttons = m.buttons();
            m.text.as_deref().is_some_and(|t| t.contains("blitz 5+3"))
                && buttons.contains(&("✓ 5+3".to_string(), time("5+3")))
                && buttons.contains(&("Correspondence".to_string(), time("correspondence")))
                && buttons.contains(&("3 days".to_string(), time("3d")))
        })
    });
    assert!(redrawn, "{:?}", club.fake.message(GROUP, msg));

    // Bob accepts the terms he now sees (version 1): the game is on Alice's clock.
    let q = club
        .fake
        .press(&club.group, msg, &club.bob, &format!("1ca:{id}:2"));
    let answer = club.fake.wait_answer(&q, WAIT).expect("accept answered");
    assert_eq!(answer.str("text"), None, "{answer:#?}");
    let board = wait_board(&club.fake, GROUP, |b| b.ply == 0 && !b.pits.is_empty());
    assert!(
        board.caption().contains("Clock blitz 5+3: 5:00 : 5:00"),
        "{}",
        board.caption()
    );
    // The challenge message loses its buttons; a late time press is refused.
    let closed = club.fake.wait_until(WAIT, |v| {
        v.message(GROUP, msg)
            .is_some_and(|m| m.buttons().is_empty())
    });
    assert!(closed, "{:?}", club.fake.message(GROUP, msg));
    let q = club.fake.press(&club.group, msg, &club.alice, &time("3+2"));
    let answer = club.fake.wait_answer(&q, WAIT).expect("answered");
    let said = answer.str("text").unwrap_or_default();
    assert!(said.contains("no longer open"), "{said}");
}

/// Issue 51: `/challenge @bob 2 days` makes a game of 2 days per move: the challenge names
/// it and has no time rows (it was typed), and the board shows the time left for the move,
/// renewed by each move. Days no game may have are refused naming those it may, in the
/// sender's language; `/play` takes days in Kazakh too.
#[test]
fn a_challenge_of_two_days_makes_a_game_of_two_days_per_move() {
    let club = Club::start();
    // Bob has written in the group: the bot knows his username.
    club.fake
        .send_text(&club.group, &club.bob, "Anyone for a slow game?");
    let mark = club.fake.mark();
    club.fake.send_text(
        &club.group,
        &club.alice,
        "/challenge @bob_the_player 2 days",
    );
    let (_, call) = club
        .fake
        .wait_call(mark, WAIT, |c| {
            c.method == "sendMessage" && c.ok() && challenge_of(c).is_some()
        })
        .expect("challenge posted");
    let invite = call.str("text").unwrap_or_default();
    assert!(
        invite.contains("Alice challenges Bob") && invite.contains("2 days per move"),
        "{invite}"
    );
    let keyboard = rows(&call.reply_markup().expect("a keyboard"));
    assert_eq!(keyboard.len(), 1, "{keyboard:?}");
    let msg = call.response["result"]["message_id"]
        .as_i64()
        .expect("message id");
    let id = challenge_of(&call).expect("challenge id");
    let q = club
        .fake
        .press(&club.group, msg, &club.bob, &format!("1ca:{id}:0"));
    let answer = club.fake.wait_answer(&q, WAIT).expect("accept answered");
    assert_eq!(answer.str("text"), None, "{answer:#?}");
    let board = wait_board(&club.fake, GROUP, |b| b.ply == 0 && !b.pits.is_empty());
    let caption = board.caption();
    assert!(
        caption.contains("2 days per move: 2 days left (until ") && caption.contains(" UTC)."),
        "{caption}"
    );
    assert!(!caption.contains("Clock"), "no clocks: {caption}");
    // A move gives the other player their own 2 days.
    let next = club.first_pit(&board);
    assert!(
        next.caption().contains("2 days per move: 2 days left"),
        "{}",
        next.caption()
    );

    let carol = TgUser::new(703, "Carol", "carol_s", "ru");
    let private = TgChat::private(&carol);
    let mark = club.fake.mark();
    club.fake.send_text(&private, &carol, "/play easy 4 дня");
    let said = club.answer_after(mark, private.id);
    assert!(
        said.contains("4 дня") && said.contains("1, 2, 3, 5, 7 или 14 дней"),
        "{said}"
    );
    let dana = TgUser::new(704, "Dana", "dana_k", "kk");
    let private = TgChat::private(&dana);
    club.fake.send_text(&private, &dana, "/play easy 3 күн");
    let board = wait_board(&club.fake, private.id, |b| b.caption().contains("қалды"));
    assert!(
        board
            .caption()
            .contains("Уақыт: әр жүріске 3 күн, 3 күн қалды"),
        "{}",
        board.caption()
    );
}

/// A time control typed after `/challenge` is fixed: no time row.
#[test]
fn a_challenge_with_a_typed_time_control_has_no_time_row() {
    let club = Club::start();
    let call = club.challenge("/challenge 3+2");
    let keyboard = rows(&call.reply_markup().expect("a keyboard"));
    assert_eq!(keyboard.len(), 1, "{keyboard:?}");
    assert!(
        keyboard[0].iter().all(|d| !d.starts_with("1ct:")),
        "{keyboard:?}"
    );
}
