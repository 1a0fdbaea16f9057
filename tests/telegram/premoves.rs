//! Issue 51: conditional premoves on Telegram, end to end (docs/premoves.md). The board of
//! a 2-day game lives in the group; its Premoves button opens the presser's builder in
//! their private chat (or, before they started the bot, tells them to with a link); the
//! builder's keys enter a line; the opponent's move in the group is answered at once and
//! the group's board shows both moves; a move off every line clears the queue; a stranger's
//! press is refused.

use toguz::testing::telegram::bot::{wait_board, Board, BotProcess, TOKEN, WAIT};
use toguz::testing::telegram::{Call, FakeTelegram, StoredMessage, TgChat, TgUser};

const GROUP: i64 = -100_515;

struct Game {
    fake: FakeTelegram,
    group: TgChat,
    /// (White, Black).
    players: (TgUser, TgUser),
    board: Board,
}

impl Game {
    fn press(&self, chat: &TgChat, msg: i64, user: &TgUser, data: &str) -> Call {
        let q = self.fake.press(chat, msg, user, data);
        self.fake.wait_answer(&q, WAIT).expect("press answered")
    }

    /// The Premoves button's data on the group's board.
    fn premoves_data(&self) -> String {
        let data = self.board.message.buttons().into_iter().map(|(_, d)| d);
        data.into_iter()
            .find(|d| d.starts_with("1pm:"))
            .expect("a Premoves button")
    }

    /// The newest builder in `user`'s private chat once `pred` holds for it.
    fn builder(&self, user: &TgUser, pred: impl Fn(&StoredMessage) -> bool) -> StoredMessage {
        let newest = |all: Vec<StoredMessage>| {
            all.into_iter().rev().find(|m| {
                m.text
                    .as_deref()
                    .is_some_and(|t| t.contains("Your premoves"))
            })
        };
        let found = self.fake.wait_until(WAIT, |v| {
            newest(v.bot_messages(user.id)).is_some_and(|m| pred(&m))
        });
        let last = newest(self.fake.bot_messages(user.id));
        assert!(found, "no such builder; latest: {last:#?}");
        last.expect("a builder")
    }

    /// Presses the builder key labelled `label` in `user`'s private chat; the builder
    /// after it, once its text contains `then` (and, for Done, its keys are gone).
    fn key(&self, user: &TgUser, label: &str, then: &str) -> StoredMessage {
        let closing = label == "Done";
        let b = self.builder(user, |_| true);
        let (_, data) = b
            .buttons()
            .into_iter()
            .find(|(l, _)| l == label)
            .unwrap_or_else(|| panic!("no key {label} in {:?}", b.buttons()));
        let answer = self.press(&TgChat::private(user), b.message_id, user, &data);
        assert_eq!(answer.str("text"), None, "{answer:#?}");
        self.builder(user, |m| {
            m.text.as_deref().is_some_and(|t| t.contains(then))
                && (!closing || m.buttons().is_empty())
        })
    }

    /// White plays `pit` in the group; the group's board once it reaches `ply`.
    fn white_plays(&mut self, pit: u8, ply: u16) {
        let data = format!("1m:{}:{}:{pit}", self.board.game, self.board.ply);
        let (white, id) = (self.players.0.clone(), self.board.message.message_id);
        let answer = self.press(&self.group, id, &white, &data);
        assert_eq!(answer.str("text"), None, "{answer:#?}");
        let game = self.board.game.clone();
        self.board = wait_board(&self.fake, GROUP, |b| b.game == game && b.ply == ply);
    }
}

/// Alice challenges Bob to a 2-day game in the group; Bob accepts.
fn two_day_game(fake: FakeTelegram) -> Game {
    let group = TgChat::group(GROUP, "Correspondence club");
    let alice = TgUser::new(651, "Alice", "alice_c", "en");
    let bob = TgUser::new(652, "Bob", "bob_c", "en");
    fake.send_text(&group, &bob, "hello");
    fake.send_text(&group, &alice, "/challenge @bob_c 2 days");
    let found = fake.wait_until(WAIT, |v| {
        v.bot_messages(GROUP)
            .iter()
            .any(|m| m.buttons().iter().any(|(_, d)| d.starts_with("1ca:")))
    });
    assert!(found, "a challenge");
    let challenge = fake
        .bot_messages(GROUP)
        .into_iter()
        .rev()
        .find(|m| m.buttons().iter().any(|(_, d)| d.starts_with("1ca:")))
        .expect("a challenge");
    let accept = challenge.buttons().into_iter().map(|(_, d)| d);
    let accept = accept.into_iter().find(|d| d.starts_with("1ca:")).unwrap();
    let q = fake.press(&group, challenge.message_id, &bob, &accept);
    fake.wait_answer(&q, WAIT).expect("accepted");
    let board = wait_board(&fake, GROUP, |b| b.ply == 0 && !b.pits.is_empty());
    assert!(board.caption().contains("2 days"), "{}", board.caption());
    let to_move = board.caption();
    let white_is_alice = to_move
        .lines()
        .any(|l| l.contains(" to move: ") && l.ends_with("Alice"));
    let players = match white_is_alice {
        true => (alice, bob),
        false => (bob, alice),
    };
    Game {
        fake,
        group,
        players,
        board,
    }
}

#[test]
fn a_premove_set_with_the_buttons_answers_the_opponents_move() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&fake, dir.path(), "", "");
    let mut g = two_day_game(fake);
    let (white, black) = g.players.clone();
    let premoves = g.premoves_data();
    let board = g.board.message.message_id;

    // Black never started the bot: told to, with a link that opens the private chat.
    let answer = g.press(&g.group, board, &black, &premoves);
    let toast = answer.str("text").unwrap_or_default();
    assert!(
        toast.starts_with("Start a private chat with me ("),
        "{toast}"
    );
    let url = answer.str("url").unwrap_or_default();
    let game = &g.board.game;
    assert!(
        url.starts_with("https://t.me/") && url.ends_with(&format!("?start=pm{game}")),
        "{url}"
    );
    let start = format!("/start pm{game}");

    // A stranger's press is refused, and nothing is sent to them.
    let carol = TgUser::new(653, "Carol", "carol_c", "en");
    g.fake.send_text(&g.group, &carol, "hi");
    let answer = g.press(&g.group, board, &carol, &premoves);
    assert_eq!(
        answer.str("show_alert").as_deref(),
        Some("true"),
        "{answer:#?}"
    );
    // White, to move, is told premoves wait for the opponent's turn.
    g.fake.send_text(&TgChat::private(&white), &white, "/start");
    let answer = g.press(&g.group, board, &white, &premoves);
    let refusal = answer.str("text").unwrap_or_default();
    assert!(refusal.contains("It is your move"), "{refusal}");

    // Black follows the link: its Start opens the builder in the private chat.
    g.fake.send_text(&TgChat::private(&black), &black, &start);
    let b = g.builder(&black, |m| {
        m.text
            .as_deref()
            .is_some_and(|t| t.contains("No lines yet"))
    });
    assert!(b
        .text
        .unwrap()
        .contains("Press the pit your opponent may play"));
    assert!(g.fake.bot_messages(carol.id).is_empty());

    // If White plays 3, Black plays 7.
    g.key(&black, "3", "3 → …");
    g.key(&black, "7", "New line: 3 → 7");
    g.key(&black, "Add line", "1. 3 → 7");
    let done = g.key(&black, "Done", "1. 3 → 7");
    assert!(done.buttons().is_empty(), "Done closes the builder");

    // White plays 3 in the group: Black's 7 follows at once, on the same board change.
    g.white_plays(3, 2);
    assert!(!g.board.pits.is_empty(), "White to move again");
    let caption = g.board.caption();
    let to_move = format!(" to move: {}", white.first_name);
    assert!(caption.contains(&to_move), "{caption}");

    // Another line; White plays off it: nothing is played and the queue is empty.
    let answer = g.press(
        &g.group,
        g.board.message.message_id,
        &black,
        &g.premoves_data(),
    );
    assert!(answer
        .str("text")
        .unwrap_or_default()
        .contains("private chat"));
    g.builder(&black, |m| {
        m.text
            .as_deref()
            .is_some_and(|t| t.contains("No lines yet"))
    });
    g.key(&black, "5", "5 → …");
    g.key(&black, "5", "New line: 5 → 5");
    g.key(&black, "Add line", "1. 5 → 5");
    let off = g
        .board
        .pits
        .iter()
        .map(|(p, _)| *p)
        .find(|&p| p != 5)
        .unwrap();
    g.white_plays(off, 3);
    let answer = g.press(
        &g.group,
        g.board.message.message_id,
        &black,
        &g.premoves_data(),
    );
    assert!(answer
        .str("text")
        .unwrap_or_default()
        .contains("It is your move"));
}
