//! A move made on the page redraws the game's board in the chat (issue 50), as after a
//! press: the Telegram adapter (in process, against the fake Telegram with its real flood
//! limits) and the pages served on the same manager.

use super::play::csrf_in;
use serde_json::{json, Value};
use toguz::model::{Platform, UserRef};
use toguz::platform::web::{self, WebConfig};
use toguz::rules::Position;
use toguz::testing::manager::test_config;
use toguz::testing::telegram::bot::{wait_board, TOKEN, WAIT};
use toguz::testing::telegram::inproc::InProcessBot;
use toguz::testing::telegram::{FakeTelegram, TgChat, TgUser};
use toguz::testing::Lifted;

/// The Telegram adapter (on a store under `dir`) with the pages served on its manager: the
/// bot and the pages' address. The address is bound first, so that the manager knows it
/// (`web_url`: the sign-in links and the boards' page links are made with it).
pub fn bot_with_pages(
    fake: &FakeTelegram,
    dir: &std::path::Path,
    lifted: Option<Lifted>,
) -> (InProcessBot, String) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let mut config = test_config();
    config.web_url = Some(base.clone());
    let bot = match lifted {
        Some(lifted) => InProcessBot::start_with_lifted(fake, config, dir, lifted),
        None => InProcessBot::start_with(fake, config, dir),
    };
    serve_pages(&bot, listener, &base);
    (bot, base)
}

/// The pages served on `bot`'s manager from `listener`, at `base`.
fn serve_pages(bot: &InProcessBot, listener: std::net::TcpListener, base: &str) {
    let manager = bot.manager.clone();
    let base = base.to_string();
    listener.set_nonblocking(true).unwrap();
    bot.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener).unwrap();
        let config = WebConfig {
            enabled: true,
            public_url: base,
            ..WebConfig::default()
        };
        tokio::spawn(web::serve_on(listener, config, manager));
    })
}

#[test]
fn a_move_made_on_the_page_redraws_the_board_in_the_telegram_chat() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let (bot, base) = bot_with_pages(&fake, dir.path(), None);
    let asel = TgUser::new(741, "Asel", "asel_l", "en");
    let chat = TgChat::private(&asel);
    fake.send_text(&chat, &asel, "/play random");
    let board = wait_board(&fake, chat.id, |b| !b.pits.is_empty());
    let (game, ply) = (board.game.clone(), board.ply);
    let pit = board.pits[0].0;

    // Asel signs in by her link and plays the pit on the game's page.
    let user = UserRef::new(Platform::Telegram, asel.id.to_string(), "Asel");
    let manager = bot.manager.clone();
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let mark = fake.mark();
    let (status, answer) = bot.block_on(async move {
        let link = manager.web_login_link(&user).await.unwrap();
        // The sign-in page's button, pressed.
        let opened = http
            .post(link.url.expose())
            .header("origin", &base)
            .send()
            .await
            .unwrap();
        let set = opened.headers()["set-cookie"].to_str().unwrap().to_string();
        let cookie = set.split(';').next().unwrap().to_string();
        let key = manager.page_key(&game).await.unwrap();
        let page = http
            .get(format!("{base}/g/{key}"))
            .header("cookie", &cookie)
            .send()
            .await
            .unwrap();
        let csrf = csrf_in(&page.text().await.unwrap()).expect("a signed-in page");
        let answer = http
            .post(format!("{base}/g/{key}/act"))
            .header("cookie", &cookie)
            .header("x-toguz-csrf", csrf)
            .header("origin", &base)
            .body(json!({ "action": "move", "ply": ply, "pit": pit }).to_string())
            .send()
            .await
            .unwrap();
        let status = answer.status();
        (status, answer.json::<Value>().await.unwrap())
    });
    assert_eq!(status, 200, "{answer}");

    // The chat's board is redrawn with the move (and the bot's reply, which it waits for a
    // moment to show both at once), by an edit of the board message.
    let game = board.game.clone();
    let redrawn = wait_board(&fake, chat.id, |b| b.game == game && b.ply > ply);
    assert_eq!(
        redrawn.message.message_id, board.message.message_id,
        "edited in place"
    );
    let edited = fake.wait_call(mark, WAIT, |c| {
        c.method.starts_with("editMessage") && c.ok()
    });
    assert!(edited.is_some(), "the board message was edited");
    let manager = bot.manager.clone();
    let view = bot.block_on(async move {
        let key = manager.page_key(&game).await.unwrap();
        manager.game_page(&key).await.unwrap().view
    });
    assert!(view.ply > ply);
    if !view.is_over() && redrawn.ply == view.ply {
        let pos: &Position = &view.position;
        redrawn.assert_pits_match(pos);
    }
}
