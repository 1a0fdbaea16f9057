//! Latency of a move made on the game's page (issue 50): from the click's request
//! (`POST /g/<key>/act`, as play.js sends it) to the new board on the page (the answer,
//! and the next state on the live stream every other open page follows) and in the chat
//! (the fake Telegram receiving the bot's edit of the board message). Two people play each
//! other in a few groups, signed in by their links; the Telegram adapter runs in this
//! process against the fake Telegram, the pages on the same manager. The flood limits are
//! lifted (a move in each group every few hundred milliseconds is far over Telegram's 20
//! posts a minute per group: that would time the group's budget, not the bot), as is the
//! per-person command budget (20 a minute; each player moves about once a second), and moves
//! are paced (`PACE`, outside the timed span) as in `telegram_latency`.
//!
//! Run: `cargo bench --bench web_play` (prints its own numbers).

use futures_util::StreamExt;
use serde_json::{json, Value};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use toguz::model::{Platform, UserRef};
use toguz::platform::web::{self, WebConfig};
use toguz::testing::latency::report;
use toguz::testing::manager::test_config;
use toguz::testing::telegram::bot::{wait_board, Board, TOKEN, WAIT};
use toguz::testing::telegram::inproc::InProcessBot;
use toguz::testing::telegram::{FakeTelegram, TgChat, TgUser};
use toguz::testing::Lifted;

const GAMES: i64 = 3;
const MOVES_EACH: usize = 40;
const PACE: Duration = Duration::from_millis(150);

/// A signed-in player: the cookie and the CSRF token.
struct Signed {
    cookie: String,
    csrf: String,
}

struct Game {
    chat: TgChat,
    players: [TgUser; 2],
    signed: [Signed; 2],
    key: String,
    /// (when, ply) of each state the game's live stream sent.
    live: mpsc::Receiver<(Instant, usize)>,
}

fn main() {
    let fake = FakeTelegram::start(TOKEN);
    let lifted = Lifted::because(
        "times the page and the bot from a click to the boards, moves back to back: not \
         Telegram's per-group budget",
    );
    let dir = tempfile::tempdir().expect("temp dir");
    // The pages' address is bound first, so that the manager makes its links with it.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("address"));
    let mut config = test_config();
    config.web_url = Some(base.clone());
    // Each player moves every ~1 s here, over the 20 commands a minute a person gets: the
    // budget is raised, as the flood limits are lifted, to time the path, not the limit.
    config.limits.commands_per_minute = 1_000;
    let bot = InProcessBot::start_with_lifted(&fake, config, dir.path(), lifted);
    serve_pages(&bot, listener, &base);
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let games: Vec<Game> = (0..GAMES)
        .map(|i| start_game(&fake, &bot, &http, &base, i))
        .collect();
    let (mut answered, mut paged, mut chatted) = (vec![], vec![], vec![]);
    for _ in 0..MOVES_EACH {
        for game in &games {
            if let Some((answer, page, chat)) = one_move(&fake, &bot, &http, &base, game) {
                answered.push(answer);
                paged.push(page);
                chatted.push(chat);
            }
            std::thread::sleep(PACE);
        }
    }
    report(
        "web click -> the action's answer (the board on the clicking page)",
        answered,
    );
    report(
        "web click -> next state on the live stream (every open page)",
        paged,
    );
    report(
        "web click -> the board edited in the Telegram chat",
        chatted,
    );
}

/// The pages served on `bot`'s manager from `listener`, at `base`.
fn serve_pages(bot: &InProcessBot, listener: std::net::TcpListener, base: &str) {
    let manager = bot.manager.clone();
    let config = WebConfig {
        enabled: true,
        public_url: base.to_string(),
        ..WebConfig::default()
    };
    listener.set_nonblocking(true).expect("non-blocking");
    bot.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
        tokio::spawn(web::serve_on(listener, config, manager));
    });
}

/// `user` signs in by their link.
fn sign_in(bot: &InProcessBot, http: &reqwest::Client, user: &TgUser) -> Signed {
    let user = UserRef::new(Platform::Telegram, user.id.to_string(), &user.first_name);
    let (manager, http) = (bot.manager.clone(), http.clone());
    bot.block_on(async move {
        let link = manager.web_login_link(&user).await.expect("a link");
        let site = link
            .url
            .expose()
            .split("/login/")
            .next()
            .expect("site")
            .to_string();
        // The sign-in page's button, pressed.
        let opened = http
            .post(link.url.expose())
            .header("origin", &site)
            .send()
            .await
            .expect("opened");
        let set = opened.headers()["set-cookie"].to_str().expect("cookie");
        let cookie = set.split(';').next().expect("cookie").to_string();
        let me = http
            .get(site + "/me")
            .header("cookie", &cookie)
            .send()
            .await
            .expect("/me");
        let html = me.text().await.expect("/me");
        let at = html.find("name=\"toguz-csrf\" content=\"").expect("csrf") + 27;
        let csrf = html[at..at + html[at..].find('"').expect("csrf")].to_string();
        Signed { cookie, csrf }
    })
}

/// Ann challenges Ben in a new group, Ben accepts; both sign in; a live stream of the game
/// is opened (another page watching).
fn start_game(
    fake: &FakeTelegram,
    bot: &InProcessBot,
    http: &reqwest::Client,
    base: &str,
    i: i64,
) -> Game {
    let chat = TgChat::group(-2000 - i, "Bench");
    let ann = TgUser::new(9100 + 2 * i, &format!("Ann{i}"), "", "en");
    let ben = TgUser::new(9101 + 2 * i, &format!("Ben{i}"), "", "en");
    let theirs = fake.send_text(&chat, &ben, "a game?");
    let mark = fake.mark();
    fake.send_reply(&chat, &ann, "/challenge", theirs);
    let (_, call) = fake
        .wait_call(mark, WAIT, |c| {
            c.method == "sendMessage" && c.buttons().iter().any(|(_, d)| d.starts_with("1ca:"))
        })
        .expect("challenge posted");
    let msg = call.response["result"]["message_id"].as_i64().expect("id");
    let (_, accept) = call.buttons().into_iter().next().expect("accept button");
    fake.press(&chat, msg, &ben, &accept);
    let board = wait_board(fake, chat.id, |b| !b.pits.is_empty());
    let manager = bot.manager.clone();
    let game = board.game.clone();
    let key = bot.block_on(async move { manager.page_key(&game).await.expect("key") });
    let signed = [sign_in(bot, http, &ann), sign_in(bot, http, &ben)];
    let (sender, live) = mpsc::channel();
    let stream = http.get(format!("{base}/g/{key}/live")).send();
    bot.block_on(async move {
        let response = stream.await.expect("live stream");
        tokio::spawn(async move {
            let mut body = response.bytes_stream();
            let mut text = String::new();
            while let Some(Ok(chunk)) = body.next().await {
                let at = Instant::now();
                text.push_str(&String::from_utf8_lossy(&chunk));
                while let Some(end) = text.find("\n\n") {
                    let event: String = text.drain(..end + 2).collect();
                    let Some(data) = event.lines().find_map(|l| l.strip_prefix("data:")) else {
                        continue;
                    };
                    if let Ok(state) = serde_json::from_str::<Value>(data.trim()) {
                        let plies = state["plies"].as_array().map_or(0, Vec::len);
                        if sender.send((at, plies.saturating_sub(1))).is_err() {
                            return;
                        }
                    }
                }
            }
        });
    });
    Game {
        chat,
        players: [ann, ben],
        signed,
        key,
        live,
    }
}

/// The player to move clicks a pit on the page: the time to the answer, to the live
/// stream's state with the move, and to the edit of the chat's board.
fn one_move(
    fake: &FakeTelegram,
    bot: &InProcessBot,
    http: &reqwest::Client,
    base: &str,
    game: &Game,
) -> Option<(Duration, Duration, Duration)> {
    let board = wait_board(fake, game.chat.id, |b| b.is_over() || !b.pits.is_empty());
    if board.is_over() {
        return None;
    }
    let mover = to_move(&board, &game.players);
    let signed = &game.signed[mover];
    let (pit, _) = board.pits[0].clone();
    let ply = board.ply;
    let message = board.message.message_id;
    while game.live.try_recv().is_ok() {}
    let mark = fake.mark();
    let request = http
        .post(format!("{base}/g/{}/act", game.key))
        .header("cookie", &signed.cookie)
        .header("x-toguz-csrf", &signed.csrf)
        .header("origin", base)
        .body(json!({ "action": "move", "ply": ply, "pit": pit }).to_string());
    let start = Instant::now();
    let status = bot.block_on(async move { request.send().await.expect("act").status() });
    let answered = start.elapsed();
    assert_eq!(status, 200, "the move was refused");
    let paged = loop {
        let (at, shown) = game.live.recv_timeout(WAIT).expect("a live state");
        if shown > usize::from(ply) {
            break at.duration_since(start);
        }
    };
    let (_, edit) = fake
        .wait_call(mark, WAIT, |c| {
            c.method == "editMessageMedia" && c.ok() && c.i64("message_id") == Some(message)
        })
        .expect("board edited");
    Some((answered, paged, edit.at.duration_since(start)))
}

/// Which player the caption names to move ("… to move: <name>").
fn to_move(board: &Board, players: &[TgUser; 2]) -> usize {
    let caption = board.caption();
    players
        .iter()
        .position(|p| caption.contains(&format!("to move: {}", p.first_name)))
        .expect("the player to move is named")
}
