//! Issue 51, being told: a move in a correspondence game brings the player to move a
//! private message (their chat with the bot) with a button to the game's page; the warning
//! at 80% of the move's time; quiet hours set with `/notify` hold a message back until
//! they end; a player who never started the bot gets nothing, is remembered, and is told
//! again once they write to the bot; `/games` lists the games where it is their move first.
//! On the adapter in this process (the manager's clock is a manual one), with the shipped
//! flood limits and the fake's.

use std::time::Duration;
use toguz::manager::alerts::ALERT_LEASE_MS;
use toguz::model::Platform;
use toguz::testing::manager::test_config;
use toguz::testing::telegram::bot::{wait_board, Board, TOKEN, WAIT};
use toguz::testing::telegram::inproc::InProcessBot;
use toguz::testing::telegram::{Call, FakeTelegram, StoredMessage, TgChat, TgUser};

const GROUP: i64 = -100_951;
/// A supergroup as Telegram numbers them (`-100` and ten digits): its messages have links.
const SUPERGROUP: i64 = -1_001_234_567_951;
const SITE: &str = "https://toguz.example.org";

/// The adapter, a group and two players.
struct Club {
    /// The process Telegram delivers updates to.
    bot: InProcessBot,
    /// A second process on the same store, when there is one.
    other: Option<InProcessBot>,
    fake: FakeTelegram,
    _dir: tempfile::TempDir,
    group: TgChat,
    alice: TgUser,
    bob: TgUser,
}

impl Club {
    /// The pages served, the group a basic one.
    fn start() -> Club {
        Club::start_with(Some(SITE), GROUP)
    }

    fn start_with(site: Option<&str>, group: i64) -> Club {
        let fake = FakeTelegram::start(TOKEN);
        let dir = tempfile::tempdir().expect("temp dir");
        let mut config = test_config();
        config.web_url = site.map(str::to_owned);
        let bot = InProcessBot::start_with(&fake, config, dir.path());
        Club::of(fake, bot, None, dir, group)
    }

    /// Two processes on one store, the pages served: Telegram delivers to the second.
    fn start_pair() -> Club {
        let fake = FakeTelegram::start(TOKEN);
        let mut config = test_config();
        config.web_url = Some(SITE.to_owned());
        let (first, second) = InProcessBot::start_pair(&fake, config);
        let dir = tempfile::tempdir().expect("temp dir");
        Club::of(fake, second, Some(first), dir, GROUP)
    }

    fn of(
        fake: FakeTelegram,
        bot: InProcessBot,
        other: Option<InProcessBot>,
        dir: tempfile::TempDir,
        group: i64,
    ) -> Club {
        Club {
            bot,
            other,
            fake,
            _dir: dir,
            group: TgChat::group(group, "Slow club"),
            alice: TgUser::new(951, "Alice", "alice_c", "en"),
            bob: TgUser::new(952, "Bob", "bob_c", "en"),
        }
    }

    /// `who` writes `text` to the bot in their private chat: the bot's answer.
    fn private(&self, who: &TgUser, text: &str) -> String {
        let mark = self.fake.mark();
        self.fake.send_text(&TgChat::private(who), who, text);
        let (_, call) = self
            .fake
            .wait_call(mark, WAIT, |c| {
                c.method == "sendMessage" && c.ok() && c.i64("chat_id") == Some(who.id)
            })
            .expect("the bot answered");
        call.str("text").unwrap_or_default()
    }

    /// Alice challenges Bob to a game of `days` per move in the group and Bob accepts: the
    /// first board.
    fn game(&self, days: u8) -> Board {
        self.game_at(&self.table(), days)
    }

    /// The club's own group and players.
    fn table(&self) -> Table {
        Table {
            group: self.group.clone(),
            a: self.alice.clone(),
            b: self.bob.clone(),
        }
    }

    /// `t.a` challenges `t.b` to a game of `days` per move in `t.group` and `t.b` accepts:
    /// the first board.
    fn game_at(&self, t: &Table, days: u8) -> Board {
        self.fake
            .send_text(&t.group, &t.b, "Anyone for a slow game?");
        let mark = self.fake.mark();
        let opponent = t.b.username.clone().unwrap_or_default();
        let command = format!("/challenge @{opponent} {days} days");
        self.fake.send_text(&t.group, &t.a, &command);
        let (_, call) = self
            .fake
            .wait_call(mark, WAIT, |c| {
                c.method == "sendMessage"
                    && c.ok()
                    && c.i64("chat_id") == Some(t.group.id)
                    && challenge_of(c).is_some()
            })
            .expect("challenge posted");
        let msg = call.response["result"]["message_id"]
            .as_i64()
            .expect("message id");
        let id = challenge_of(&call).expect("challenge id");
        let q = self.fake.press(&t.group, msg, &t.b, &format!("1ca:{id}:0"));
        self.fake.wait_answer(&q, WAIT).expect("accept answered");
        wait_board(&self.fake, t.group.id, |b| {
            b.ply == 0 && !b.pits.is_empty() && b.message.message_id > msg
        })
    }

    /// The player to move on `board`, and the other.
    fn sides(&self, board: &Board) -> (TgUser, TgUser) {
        let table = self.table();
        let (mover, other) = table.sides(board);
        (mover.clone(), other.clone())
    }

    /// The player to move presses the first pit of `board`: the next board.
    fn first_pit(&self, board: &Board) -> Board {
        self.first_pit_at(&self.table(), board)
    }

    /// The player to move at `t` presses the first pit of `board`: the next board.
    fn first_pit_at(&self, t: &Table, board: &Board) -> Board {
        let (pit, _) = board.pits[0].clone();
        let data = format!("1m:{}:{}:{pit}", board.game, board.ply);
        let (mover, _) = t.sides(board);
        let q = self
            .fake
            .press(&t.group, board.message.message_id, mover, &data);
        let answer = self.fake.wait_answer(&q, WAIT).expect("move answered");
        assert_eq!(answer.str("text"), None, "{answer:#?}");
        // The pressed board is edited (another game's board may be newer in the group).
        let (ply, id) = (board.ply + 1, board.message.message_id);
        let moved = |m: Option<&StoredMessage>| {
            m.and_then(Board::of)
                .filter(|b| b.ply == ply && !b.pits.is_empty())
        };
        let found = self
            .fake
            .wait_until(WAIT, |v| moved(v.message(t.group.id, id)).is_some());
        assert!(
            found,
            "the board did not move on: {:#?}",
            self.fake.message(t.group.id, id)
        );
        moved(self.fake.message(t.group.id, id).as_ref()).expect("the board")
    }

    /// One tick of the alerts' scheduler now, in every process: how many alerts they
    /// handed to their adapters.
    fn tick(&self) -> usize {
        let bots = std::iter::once(&self.bot).chain(self.other.as_ref());
        bots.map(|bot| {
            let manager = bot.manager.clone();
            bot.block_on(async move { manager.alert_tick().await })
        })
        .sum()
    }

    /// Waits until the alerts of `who` handed to the adapter are done (a claimed row's key
    /// is its lease's end: none due by then is left): a clock moved on before would find
    /// the claim still out and past its lease, and the alert would be taken again.
    fn settled(&self, who: &TgUser) {
        let mine = format!("|telegram:{}|", who.id);
        let lease_end = self.bot.clock.now_ms() + ALERT_LEASE_MS;
        let deadline = std::time::Instant::now() + WAIT;
        loop {
            let manager = self.bot.manager.clone();
            let keys = self
                .bot
                .block_on(async move { manager.due_alerts(Platform::Telegram, lease_end).await })
                .expect("the store answers");
            if !keys.iter().any(|k| k.contains(&mine)) {
                return;
            }
            assert!(std::time::Instant::now() < deadline, "still out: {keys:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The next private message the bot sends `who` after call `mark`.
    fn told(&self, mark: usize, who: &TgUser) -> Call {
        let (_, call) = self
            .fake
            .wait_call(mark, WAIT, |c| {
                c.method == "sendMessage" && c.ok() && c.i64("chat_id") == Some(who.id)
            })
            .unwrap_or_else(|| panic!("{} was told nothing", who.first_name));
        call
    }

    /// Calls made to `who`'s private chat since `mark`.
    fn tries_to(&self, mark: usize, who: &TgUser) -> usize {
        self.fake.calls()[mark..]
            .iter()
            .filter(|c| c.method == "sendMessage" && c.i64("chat_id") == Some(who.id))
            .count()
    }
}

/// Two processes on one store, each with its own webhook (Telegram delivers to one): both
/// run the alerts' scheduler (each every second, and the test's ticks besides), and every
/// alert reaches its player exactly once, whichever process claims it.
#[test]
fn two_processes_send_each_alert_exactly_once() {
    let club = Club::start_pair();
    for who in [&club.alice, &club.bob] {
        club.private(who, "/start");
    }
    let mut board = club.game(2);
    let mark = club.fake.mark();
    let told = |who: &TgUser| {
        club.fake.calls()[mark..]
            .iter()
            .filter(|c| c.method == "sendMessage" && c.ok() && c.i64("chat_id") == Some(who.id))
            .filter(|c| {
                c.str("text")
                    .is_some_and(|t| t.starts_with("Your move against "))
            })
            .count()
    };
    for round in 1..=6 {
        let (_, other) = club.sides(&board);
        let other = other.clone();
        let before = told(&other);
        board = club.first_pit(&board);
        club.tick();
        let deadline = std::time::Instant::now() + WAIT;
        while told(&other) == before {
            assert!(
                std::time::Instant::now() < deadline,
                "move {round}: nobody told"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        club.settled(&other);
        // Past the ten minutes between two messages to one player.
        club.bot.clock.advance(11 * 60);
    }
    // Both schedulers go on ticking: nothing more comes.
    club.tick();
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!((told(&club.alice), told(&club.bob)), (3, 3));
}

/// A group and its two players.
struct Table {
    group: TgChat,
    a: TgUser,
    b: TgUser,
}

impl Table {
    /// The `n`th of many: a supergroup of its own and two players.
    fn nth(n: i64) -> Table {
        let id = 96_000 + 2 * n;
        Table {
            group: TgChat::group(-1_001_000_096_000 - n, &format!("Club {n}")),
            a: TgUser::new(id, &format!("A{n}"), &format!("a{n}_f"), "en"),
            b: TgUser::new(id + 1, &format!("B{n}"), &format!("b{n}_f"), "en"),
        }
    }

    /// The player to move on `board`, and the other.
    fn sides(&self, board: &Board) -> (&TgUser, &TgUser) {
        let caption = board.caption();
        let line = caption.lines().find(|l| l.contains(" to move: "));
        let name = line.and_then(|l| l.rsplit(": ").next()).unwrap_or("");
        match name == self.a.first_name {
            true => (&self.a, &self.b),
            false => (&self.b, &self.a),
        }
    }
}

/// A flood of private alerts never holds a board back. Thirty players' alerts fall due at
/// once (their quiet hours end), and go out within their share of Telegram's 30 messages a
/// second; a move made against the bot as they start is on its board while most of them are
/// still waiting. The shipped flood limits, the fake's too.
#[test]
fn a_flood_of_alerts_never_holds_a_board_back() {
    const TABLES: usize = 30;
    let club = Club::start();
    let tables: Vec<Table> = (0..TABLES as i64).map(Table::nth).collect();
    for t in &tables {
        for who in [&t.a, &t.b] {
            // 08:00 UTC now: every message waits until 09:00.
            let said = club.private(who, "/notify quiet 08-09 +00");
            assert!(said.starts_with("Saved.\n"), "{said}");
        }
    }
    // All games first, then the moves: each group's posts are spread out (a group may
    // post 20 messages a minute), as they would be in real clubs.
    let started: Vec<Board> = tables.iter().map(|t| club.game_at(t, 2)).collect();
    for (t, board) in tables.iter().zip(&started) {
        club.first_pit_at(t, board);
    }
    // Someone plays the bot in private, their move to make.
    let player = TgUser::new(97_000, "Probe", "probe_f", "en");
    let chat = TgChat::private(&player);
    club.fake.send_text(&chat, &player, "/play random");
    let board = wait_board(&club.fake, chat.id, |b| !b.pits.is_empty());

    let alert = |c: &Call| {
        c.method == "sendMessage"
            && c.ok()
            && c.i64("chat_id").is_some_and(|chat| chat > 0)
            && c.str("text")
                .is_some_and(|t| t.starts_with("Your move against "))
    };
    let sent = |from: usize| {
        club.fake.calls()[from..]
            .iter()
            .filter(|c| alert(c))
            .count()
    };
    assert_eq!(sent(0), 0, "quiet hours held every alert");
    let mark = club.fake.mark();
    club.bot.clock.advance(3600);
    assert_eq!(club.tick(), TABLES, "every alert due at once");
    // The flood has started; the player moves.
    let (pit, _) = board.pits[0].clone();
    let data = format!("1m:{}:{}:{pit}", board.game, board.ply);
    let q = club
        .fake
        .press(&chat, board.message.message_id, &player, &data);
    club.fake.wait_answer(&q, WAIT).expect("move answered");
    let shown = |v: &toguz::testing::telegram::FakeView| {
        let now = v.message(chat.id, board.message.message_id);
        now.and_then(Board::of).is_some_and(|b| b.ply > board.ply)
    };
    assert!(
        club.fake.wait_until(WAIT, shown),
        "the board did not move on"
    );
    let sent_by_then = sent(mark);
    assert!(
        sent_by_then < TABLES / 2,
        "the board waited for {sent_by_then} alerts"
    );
    // And the flood still goes out whole, each alert once.
    let deadline = std::time::Instant::now() + WAIT;
    while sent(mark) < TABLES {
        assert!(
            std::time::Instant::now() < deadline,
            "{} alerts went out",
            sent(mark)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    club.tick();
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(sent(mark), TABLES);
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

/// The web-app buttons of a call's keyboard: (label, url).
fn web_apps(call: &Call) -> Vec<(String, String)> {
    buttons_to(call, |b| b["web_app"]["url"].as_str())
}

/// The URL buttons of a call's keyboard: (label, url).
fn url_buttons(call: &Call) -> Vec<(String, String)> {
    buttons_to(call, |b| b["url"].as_str())
}

/// The buttons of a call's keyboard that `url` finds an address on: (label, address).
fn buttons_to(
    call: &Call,
    url: impl Fn(&serde_json::Value) -> Option<&str>,
) -> Vec<(String, String)> {
    let markup = call.reply_markup().unwrap_or_default();
    let rows = markup["inline_keyboard"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    rows.iter()
        .flat_map(|row| row.as_array().cloned().unwrap_or_default())
        .filter_map(|b| {
            let address = url(&b)?.to_string();
            Some((b["text"].as_str().unwrap_or_default().to_string(), address))
        })
        .collect()
}

/// A move in a game of 2 days per move: the player to move gets a private message naming
/// the opponent and the time left, with a button opening the game's page inside Telegram;
/// at 80% of the move's time, one warning, once.
#[test]
fn a_two_day_game_tells_the_player_to_move_in_private_and_warns_them_once() {
    let club = Club::start();
    for who in [&club.alice, &club.bob] {
        club.private(who, "/start");
    }
    let board = club.game(2);
    let (mover, other) = club.sides(&board);
    let (mover, other) = (mover.clone(), other.clone());
    let mark = club.fake.mark();
    club.first_pit(&board);
    club.tick();
    let call = club.told(mark, &other);
    assert_eq!(
        call.str("text").unwrap_or_default(),
        format!(
            "Your move against {} (2 days per move: 2 days left).",
            mover.first_name
        )
    );
    let buttons = web_apps(&call);
    assert_eq!(buttons.len(), 1, "{call:#?}");
    assert_eq!(buttons[0].0, format!("Board: {}", mover.first_name));
    assert!(
        buttons[0]
            .1
            .starts_with(&format!("{SITE}/g/{}-", board.game)),
        "{buttons:?}"
    );
    assert_eq!(club.tries_to(mark, &mover), 0, "the mover is told nothing");
    club.settled(&other);

    // 38 h 24 min of the 48 gone: the warning, with the 9 h 36 min left.
    let mark = club.fake.mark();
    club.bot.clock.advance(38 * 3600 + 24 * 60);
    club.tick();
    let warning = club.told(mark, &other);
    assert_eq!(
        warning.str("text").unwrap_or_default(),
        format!(
            "Time is running out against {}: 9 h left.",
            mover.first_name
        )
    );
    club.settled(&other);
    let mark = club.fake.mark();
    club.bot.clock.advance(3600);
    club.tick();
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(club.tries_to(mark, &other), 0, "one warning per move");
}

/// Without the pages served, the private message's button links the board's message in
/// the supergroup (`t.me/c/<id>/<message>`, which Telegram opens in the group); a basic
/// group has no such links, and the message comes without a button.
#[test]
fn without_pages_the_message_links_the_board_in_the_group() {
    let club = Club::start_with(None, SUPERGROUP);
    for who in [&club.alice, &club.bob] {
        club.private(who, "/start");
    }
    let board = club.game(2);
    let (mover, other) = club.sides(&board);
    let (mover, other) = (mover.clone(), other.clone());
    let mark = club.fake.mark();
    let moved = club.first_pit(&board);
    club.tick();
    let call = club.told(mark, &other);
    assert!(web_apps(&call).is_empty(), "{call:#?}");
    let link = format!("https://t.me/c/1234567951/{}", moved.message.message_id);
    assert_eq!(
        url_buttons(&call),
        [(format!("Board: {}", mover.first_name), link)]
    );

    let basic = Club::start_with(None, GROUP);
    for who in [&basic.alice, &basic.bob] {
        basic.private(who, "/start");
    }
    let board = basic.game(2);
    let (_, other) = basic.sides(&board);
    let other = other.clone();
    let mark = basic.fake.mark();
    basic.first_pit(&board);
    basic.tick();
    let call = basic.told(mark, &other);
    assert_eq!(call.reply_markup(), None, "{call:#?}");
}

/// `/notify quiet 12-14 +05` (13:00 there now): the message waits until 14:00 their time.
#[test]
fn quiet_hours_hold_a_message_until_they_end() {
    let club = Club::start();
    for who in [&club.alice, &club.bob] {
        club.private(who, "/start");
    }
    let board = club.game(3);
    let (_, other) = club.sides(&board);
    let other = other.clone();
    // The manager's clock starts at 08:00 UTC: 13:00 at +05.
    let said = club.private(&other, "/notify quiet 12-14 +05");
    assert!(said.starts_with("Saved.\n"), "{said}");
    assert!(
        said.contains("Quiet hours: 12:00–14:00 (UTC+05:00)"),
        "{said}"
    );
    let shown = club.private(&other, "/notify");
    assert!(shown.contains("each time it is your move"), "{shown}");
    assert!(shown.contains("/notify quiet off"), "{shown}");
    let refused = club.private(&other, "/notify quiet 23 +05");
    assert!(refused.starts_with("“23” is not an hour"), "{refused}");

    let mark = club.fake.mark();
    club.first_pit(&board);
    assert_eq!(club.tick(), 0, "quiet now");
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(club.tries_to(mark, &other), 0, "nothing in quiet hours");
    club.bot.clock.advance(3600);
    club.tick();
    let call = club.told(mark, &other);
    let text = call.str("text").unwrap_or_default();
    assert!(text.starts_with("Your move against "), "{text}");
}

/// A player who never started the bot: Telegram refuses (403), they get nothing more and
/// are not tried again; the group's ping still names them; once they write to the bot they
/// are told again.
#[test]
fn an_unreachable_player_is_remembered_until_they_write_to_the_bot() {
    let club = Club::start();
    let board = club.game(2);
    let (mover, other) = club.sides(&board);
    let (mover, other) = (mover.clone(), other.clone());
    club.private(&mover, "/start");
    let mark = club.fake.mark();
    let next = club.first_pit(&board);
    club.tick();
    let refused = club.fake.wait_call(mark, WAIT, |c| {
        c.method == "sendMessage" && c.i64("chat_id") == Some(other.id) && !c.ok()
    });
    let (_, refused) = refused.expect("the bot tried");
    assert_eq!(refused.status, 403, "{refused:#?}");
    club.settled(&other);
    let (_, ping) = club
        .fake
        .wait_call(mark, WAIT, |c| {
            c.method == "sendMessage"
                && c.ok()
                && c.i64("chat_id") == Some(GROUP)
                && c.str("text").is_some_and(|t| t.contains("your move (game"))
        })
        .expect("the group's ping");
    let ping = ping.str("text").unwrap_or_default();
    assert!(
        ping.contains(&format!("tg://user?id={}", other.id)),
        "{ping}"
    );

    // Remembered: the next move tries nothing.
    club.bot.clock.advance(11 * 60);
    let back = club.first_pit(&next);
    club.bot.clock.advance(11 * 60);
    let mark = club.fake.mark();
    let again = club.first_pit(&back);
    club.tick();
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(club.tries_to(mark, &other), 0, "not tried again");

    // They write to the bot: told of the next move.
    club.private(&other, "/start");
    club.bot.clock.advance(11 * 60);
    let theirs = club.first_pit(&again);
    club.bot.clock.advance(11 * 60);
    let mark = club.fake.mark();
    club.first_pit(&theirs);
    club.tick();
    let call = club.told(mark, &other);
    let text = call.str("text").unwrap_or_default();
    assert!(text.starts_with("Your move against "), "{text}");
}

/// `/games`: the games where it is the player's move first, with the time left, then the
/// others with their player's time left.
#[test]
fn games_lists_the_players_move_first_with_the_time_left() {
    let club = Club::start();
    let first = club.game(2);
    let mut second = club.game(5);
    let (player, _) = club.sides(&first);
    let player = player.clone();
    if club.sides(&second).0.id != player.id {
        second = club.first_pit(&second);
    }
    assert_eq!(club.sides(&second).0.id, player.id);
    // Their move in the 5-day game; in the 2-day game, once they moved, the opponent's.
    club.first_pit(&first);
    let said = club.private(&player, "/games");
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 3, "{said}");
    assert!(lines[1].starts_with(&format!("{}:", second.game)), "{said}");
    assert!(lines[1].ends_with("(your move, 5 days left)"), "{said}");
    assert!(lines[2].starts_with(&format!("{}:", first.game)), "{said}");
    assert!(lines[2].ends_with("(2 days left)"), "{said}");
}
