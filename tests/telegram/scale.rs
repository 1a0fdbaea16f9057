//! Two `toguz run` processes on one PostgreSQL database (issue 15), in Telegram's webhook
//! mode behind a "load balancer" (the test posts each update to the process it picks): the
//! presses of one game alternate between the processes, the same press reaches both at once
//! and is applied once, one process is SIGKILLed mid-game and the other carries on, and the
//! database restarts mid-game without losing an acknowledged move.

use std::time::Duration;
use toguz::testing::pg;
use toguz::testing::telegram::bot::{wait_board, Board, BotProcess, WAIT};
use toguz::testing::telegram::{FakeTelegram, TgChat, TgUser};

const SECRET: &str = "lb_secret_42";

/// One bot process behind the balancer: its webhook URL.
struct Node {
    bot: BotProcess,
    hook: String,
    _dir: tempfile::TempDir,
}

impl Node {
    /// Starts `toguz run` on the shared database `url`, its webhook on a port of its own.
    fn start(fake: &FakeTelegram, url: &str) -> Node {
        Node::start_with(fake, url, "")
    }

    /// `start` with more of the `[telegram]` section.
    fn start_with(fake: &FakeTelegram, url: &str, telegram: &str) -> Node {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let hook = format!("http://127.0.0.1:{port}/hook");
        let webhook = format!(
            "{telegram}\n[telegram.webhook]\nlisten = \"127.0.0.1:{port}\"\n\
             public_url = {hook:?}\nsecret_token = {SECRET:?}"
        );
        let storage = format!("backend = \"postgres\"\nurl = {url:?}\npool_size = 4");
        let dir = tempfile::tempdir().expect("temp dir");
        let mark = fake.mark();
        let bot = BotProcess::start(fake, dir.path(), &webhook, &storage);
        fake.wait_call(mark, WAIT, |c| {
            c.method == "setWebhook" && c.ok() && c.str("url").as_deref() == Some(hook.as_str())
        })
        .unwrap_or_else(|| panic!("no webhook set: {}", bot.log_text()));
        Node {
            bot,
            hook,
            _dir: dir,
        }
    }

    /// Delivers `update` as Telegram would: the HTTP status the process answered.
    fn deliver(&self, update: &serde_json::Value) -> u16 {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async {
            reqwest::Client::new()
                .post(&self.hook)
                .header("X-Telegram-Bot-Api-Secret-Token", SECRET)
                .json(update)
                .timeout(Duration::from_secs(30))
                .send()
                .await
                .map_or(0, |r| r.status().as_u16())
        })
    }
}

struct Game<'a> {
    fake: &'a FakeTelegram,
    chat: TgChat,
    alice: TgUser,
    board: Board,
}

impl Game<'_> {
    /// Alice presses her first legal pit through `node`; the board after the bot's reply.
    /// Each press must be applied exactly once: the board moves on by her move and the
    /// bot's (or ends).
    fn press_via(&mut self, node: &Node) {
        let (query, update) = self.press_update();
        assert_eq!(node.deliver(&update), 200, "{}", node.bot.log_text());
        self.after_press(&query);
    }

    fn press_update(&self) -> (String, serde_json::Value) {
        let pit = self.board.pits[0].0;
        let data = format!("1m:{}:{}:{pit}", self.board.game, self.board.ply);
        let msg = self.board.message.message_id;
        self.fake.press_update(&self.chat, msg, &self.alice, &data)
    }

    fn after_press(&mut self, query: &str) {
        let answer = self.fake.wait_answer(query, WAIT).expect("answered");
        assert_eq!(
            answer.str("text"),
            None,
            "the move was refused: {answer:#?}"
        );
        let ply = self.board.ply;
        self.board = wait_board(self.fake, self.chat.id, |b| {
            b.ply == ply + 2 || (b.ply == ply + 1 && b.is_over())
        });
    }
}

#[test]
fn two_processes_on_one_database_play_one_game_through_a_balancer_a_crash_and_a_db_restart() {
    let Some(url) = pg::fresh_url() else { return };
    let fake = FakeTelegram::start(toguz::testing::telegram::bot::TOKEN);
    fake.allow_http_webhook();
    let mut a = Node::start(&fake, &url);
    let b = Node::start(&fake, &url);
    let alice = TgUser::new(951, "Alice", "alice_scale", "en");
    let chat = TgChat::private(&alice);
    // The fake delivers to the last webhook set (b's); the game is stored for both.
    fake.send_text(&chat, &alice, "/play random");
    let board = wait_board(&fake, chat.id, |b| !b.pits.is_empty());
    let mut game = Game {
        fake: &fake,
        chat,
        alice,
        board,
    };

    // Presses alternate between the processes: each sees the other's moves.
    for i in 0..4 {
        let node = if i % 2 == 0 { &a } else { &b };
        game.press_via(node);
    }

    // One press reaches both at once: it is applied exactly once.
    let (query, update) = game.press_update();
    let statuses = std::thread::scope(|s| {
        let ta = s.spawn(|| a.deliver(&update));
        let tb = s.spawn(|| b.deliver(&update));
        [ta.join().expect("a"), tb.join().expect("b")]
    });
    assert_eq!(statuses, [200, 200]);
    let ply = game.board.ply;
    // Both answer the press: the one that applied it quietly, the other (which lost the
    // race) as stale, in either order.
    game.board = wait_board(&fake, game.chat.id, |b| {
        b.ply == ply + 2 || (b.ply == ply + 1 && b.is_over())
    });
    let applied = fake.wait_call(0, WAIT, |c| {
        c.method == "answerCallbackQuery"
            && c.str("callback_query_id").as_deref() == Some(query.as_str())
            && c.str("text").is_none()
    });
    assert!(applied.is_some(), "no process applied the press");
    // The losing process redraws the board too; if its redraw lands after the winner's
    // newer one it looks again, so the board ends at the game as it is: one press further.
    // It ends playable: a redraw still on its way may show the same ply without the pits
    // for a moment, and the next press needs them.
    std::thread::sleep(Duration::from_millis(300));
    let settled = game.board.ply;
    game.board = wait_board(&fake, game.chat.id, |b| {
        b.ply == settled && (!b.pits.is_empty() || b.is_over())
    });

    // Process a dies mid-game; b carries on with the game.
    a.bot.kill();
    game.press_via(&b);
    game.press_via(&b);

    // The database restarts mid-game: b recovers and goes on; no acknowledged move is lost.
    if let Some(cluster) = pg::server().and_then(|s| s.cluster.as_ref()) {
        cluster.kill().expect("stop the database");
        cluster.restart().expect("start the database");
        let before = game.board.ply;
        game.press_via(&b);
        assert!(game.board.ply > before);
    }
    // A fresh process reads the game where the others left it.
    let _c = Node::start(&fake, &url);
    let mark = fake.mark();
    fake.send_text(&game.chat, &game.alice, "/board");
    let (_, posted) = fake
        .wait_call(mark, WAIT, |c| c.method == "sendPhoto" && c.ok())
        .expect("the board posted");
    let id = posted.response["result"]["message_id"]
        .as_i64()
        .expect("message id");
    let shown = fake
        .message(game.chat.id, id)
        .as_ref()
        .and_then(Board::of)
        .expect("a board");
    assert_eq!((shown.game, shown.ply), (game.board.game, game.board.ply));
}

/// Issue 31, item 6, through two real processes: a user's commands spread over two
/// processes behind the balancer count once against `commands_per_minute` (3 here), not once
/// per process: three are answered and the other three told to slow down (each process's
/// own limiter, which lets three through here, would silence later ones).
#[test]
fn the_command_limit_holds_across_two_processes() {
    let Some(url) = pg::fresh_url() else { return };
    let fake = FakeTelegram::start(toguz::testing::telegram::bot::TOKEN);
    fake.allow_http_webhook();
    let limit = "commands_per_minute = 3\n";
    let nodes = [
        Node::start_with(&fake, &url, limit),
        Node::start_with(&fake, &url, limit),
    ];
    let carol = TgUser::new(961, "Carol", "carol_limit", "en");
    let chat = TgChat::private(&carol);
    for n in 0..6 {
        let update = fake.text_update(&chat, &carol, "/help");
        let node = &nodes[n % 2];
        assert_eq!(node.deliver(&update), 200, "{}", node.bot.log_text());
    }
    let told = |t: &str| t.contains("Too many");
    assert!(fake.wait_until(WAIT, |v| {
        v.bot_messages(chat.id)
            .iter()
            .any(|m| m.text.as_deref().is_some_and(told))
    }));
    std::thread::sleep(Duration::from_secs(2));
    let sent = fake.bot_messages(chat.id);
    let (slow, answered): (Vec<_>, Vec<_>) = sent
        .iter()
        .partition(|m| m.text.as_deref().is_some_and(told));
    assert_eq!(answered.len(), 3, "{sent:#?}");
    assert_eq!(slow.len(), 3, "{sent:#?}");
}
