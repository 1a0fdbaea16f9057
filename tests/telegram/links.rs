//! Links from Telegram to the game pages (issue 35), end to end: with `[web]` on, every
//! board (ongoing and finished) ends with a row holding one button to the game's signed
//! page: a Web App button in a private chat (the page opens inside Telegram) when the
//! address is https, a URL button in a group and whenever the address is http; `/record`
//! and `/review` name the page; the address opens the game on the bot's own web server.
//! Without `[web]`, no board has a link.

use serde_json::Value;
use std::io::{Read, Write};
use toguz::testing::telegram::bot::{wait_board, Board, BotProcess, TOKEN, WAIT};
use toguz::testing::telegram::{Call, FakeTelegram, TgChat, TgUser, BOT_USERNAME};

const GROUP: i64 = -100_735;
const PAGES: &str = "https://pages.example.org";
/// The pages on, served on a free port; a small review budget.
const WEB: &str = "[web]\nenabled = true\nlisten = \"127.0.0.1:0\"\n\
                   public_url = \"https://pages.example.org\"\n\n[review]\nnodes = 2000\n";

/// The board's last row when it is a lone link button: (kind, its JSON).
fn link_row(board: &Board) -> Option<(&'static str, Value)> {
    let markup = board.message.reply_markup.as_ref()?;
    let last = markup["inline_keyboard"].as_array()?.last()?.as_array()?;
    let [button] = last.as_slice() else {
        return None;
    };
    ["url", "web_app"]
        .into_iter()
        .find(|k| button.get(*k).is_some())
        .map(|k| (k, button.clone()))
}

/// Whether `url` is `base`'s page of `game`: `<base>/g/<game>-<20 hex digits>`.
fn is_page_of(url: &str, base: &str, game: &str) -> bool {
    let Some(sig) = url.strip_prefix(&format!("{base}/g/{game}-")) else {
        return false;
    };
    sig.len() == 20
        && sig
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

/// The address of the link under `board`, checked to be a button labelled as English says.
fn link_url(board: &Board, kind: &str) -> String {
    let (found, button) = link_row(board).unwrap_or_else(|| panic!("no link row: {board:#?}"));
    assert_eq!(found, kind, "{button}");
    assert_eq!(button["text"], "🌐 Game page");
    let url = if kind == "url" {
        &button["url"]
    } else {
        &button["web_app"]["url"]
    };
    url.as_str().expect("an address").to_string()
}

/// Starts a game against the bot with `/play random` and plays one move: the board after
/// the bot's answer.
fn a_game(fake: &FakeTelegram, chat: &TgChat, user: &TgUser) -> Board {
    fake.send_text(chat, user, "/play random");
    let board = wait_board(fake, chat.id, |b| !b.pits.is_empty());
    let (pit, _) = board.pits[0].clone();
    let data = format!("1m:{}:{}:{pit}", board.game, board.ply);
    let q = fake.press(chat, board.message.message_id, user, &data);
    fake.wait_answer(&q, WAIT).expect("move answered");
    let game = board.game.clone();
    wait_board(fake, chat.id, |b| {
        b.game == game && b.ply >= 2 && !b.pits.is_empty()
    })
}

/// The next successful call of `method` after `mark`.
fn next_call(fake: &FakeTelegram, mark: usize, method: &str) -> Call {
    let (_, call) = fake
        .wait_call(mark, WAIT, |c| c.method == method && c.ok())
        .unwrap_or_else(|| panic!("no {method}"));
    call
}

/// Where `toguz run` serves the pages, from its log.
fn served_at(bot: &BotProcess) -> String {
    let mut found = None;
    let ok = std::iter::repeat_with(|| {
        found = bot
            .log_text()
            .lines()
            .find(|l| l.contains("serving game pages"))
            .and_then(|l| l.split("listen=").nth(1))
            .and_then(|rest| rest.split_whitespace().next())
            .map(str::to_string);
        found.is_some() || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            false
        }
    })
    .take(300)
    .any(|done| done);
    assert!(ok, "the pages are not served: {}", bot.log_text());
    found.expect("found")
}

/// GET `path` from `addr` over plain HTTP/1.1: (status line, body).
fn get(addr: &str, path: &str) -> (String, String) {
    let mut stream = std::net::TcpStream::connect(addr).expect("connect to the pages");
    stream.set_read_timeout(Some(WAIT)).expect("timeout");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read");
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    (
        head.lines().next().unwrap_or("").to_string(),
        body.to_string(),
    )
}

#[test]
fn boards_records_and_reviews_link_the_game_page_when_the_pages_are_served() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let bot = BotProcess::start(&fake, dir.path(), "", WEB);
    let group = TgChat::group(GROUP, "Toguz club");
    let asel = TgUser::new(741, "Asel", "asel_l", "en");

    // In a group: a URL button, alone in the last row, to the game's signed page.
    let ongoing = a_game(&fake, &group, &asel);
    let url = link_url(&ongoing, "url");
    assert!(is_page_of(&url, PAGES, &ongoing.game), "{url}");
    // The finished board keeps it, under the rematch, review and record buttons.
    fake.send_text(&group, &asel, "/resign");
    let game = ongoing.game.clone();
    let end = wait_board(&fake, GROUP, |b| b.game == game && b.is_over());
    assert_eq!(link_url(&end, "url"), url);
    assert!(end.data.contains(&format!("1rc:{game}")), "{:?}", end.data);

    // The address opens this game on the bot's own server.
    let addr = served_at(&bot);
    let path = url.trim_start_matches(PAGES);
    let (status, page) = get(&addr, path);
    assert!(status.contains(" 200 "), "{status}");
    assert!(page.contains("Asel"), "{page}");
    let flipped = if path.ends_with('0') { '1' } else { '0' };
    let forged = format!("{}{flipped}", &path[..path.len() - 1]);
    let (status, _) = get(&addr, &forged);
    assert!(status.contains(" 404 "), "a forged address: {status}");

    // /record names the page with the record.
    let mark = fake.mark();
    fake.send_text(&group, &asel, "/record");
    let record = next_call(&fake, mark, "sendDocument");
    let caption = record.caption().unwrap_or_default();
    assert!(
        caption.contains(&format!("🌐 Game page: {url}")),
        "{caption}"
    );
    // So does the review.
    let mark = fake.mark();
    fake.send_text(&group, &asel, "/review");
    let review = next_call(&fake, mark, "sendPhoto");
    let caption = review.caption().unwrap_or_default();
    assert!(caption.starts_with("Game review: "), "{caption}");
    assert!(caption.contains(&url), "{caption}");

    // In a private chat: a Web App button, the page opening inside Telegram.
    let private = TgChat::private(&asel);
    let own = a_game(&fake, &private, &asel);
    let app = link_url(&own, "web_app");
    assert!(is_page_of(&app, PAGES, &own.game), "{app}");
    assert_ne!(own.game, game);
}

/// POSTs `body` (JSON) to `path` on `addr`: (status line, body).
fn post_json(addr: &str, path: &str, body: &str) -> (String, String) {
    let mut stream = std::net::TcpStream::connect(addr).expect("connect to the pages");
    stream.set_read_timeout(Some(WAIT)).expect("timeout");
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read");
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    (
        head.lines().next().unwrap_or("").to_string(),
        body.to_string(),
    )
}

#[test]
fn with_a_mini_app_a_group_board_opens_its_game_in_it_signed_in() {
    let fake = FakeTelegram::start(TOKEN);
    fake.add_mini_app("play", &format!("{PAGES}/tg"));
    let dir = tempfile::tempdir().unwrap();
    let bot = BotProcess::start(&fake, dir.path(), "mini_app = \"play\"\n", WEB);
    let group = TgChat::group(GROUP - 5, "Mini club");
    let asel = TgUser::new(745, "Asel", "asel_m", "en");

    // In a group: a URL button to the Mini App's direct link, the page's key as startapp.
    let board = a_game(&fake, &group, &asel);
    let url = link_url(&board, "url");
    let app = format!("https://t.me/{BOT_USERNAME}/play?startapp=");
    let key = url.strip_prefix(&app).unwrap_or_else(|| panic!("{url}"));
    assert!(
        is_page_of(&format!("{PAGES}/g/{key}"), PAGES, &board.game),
        "{url}"
    );
    // In a private chat the board keeps its Web App button to the page itself.
    let own = a_game(&fake, &TgChat::private(&asel), &asel);
    assert!(is_page_of(&link_url(&own, "web_app"), PAGES, &own.game));

    // Pressed, Telegram opens the app (`/tg`) with launch data signed with the bot's token;
    // its script sends that data to the bot's own server, which answers with a session and
    // the game to open.
    let opened = fake
        .open_mini_app_link(&url, &asel, &group)
        .expect("Telegram opens the app");
    let fragment = opened
        .strip_prefix(&format!("{PAGES}/tg#"))
        .unwrap_or_else(|| panic!("{opened}"));
    let (_, data) = url::form_urlencoded::parse(fragment.as_bytes())
        .find(|(k, _)| k == "tgWebAppData")
        .expect("the launch data");
    let body = serde_json::json!({ "init_data": data }).to_string();
    let (status, answer) = post_json(&served_at(&bot), "/api/signin/telegram", &body);
    assert!(status.contains(" 200 "), "{status} {answer}");
    let answer: Value = serde_json::from_str(&answer).expect("JSON");
    assert_eq!(answer["start"], key);
    assert_eq!(answer["name"], "Asel");
    assert!(answer["token"].as_str().is_some_and(|t| !t.is_empty()));
}

#[test]
fn an_http_address_is_a_url_button_even_in_a_private_chat() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let lan = "[web]\nenabled = true\nlisten = \"127.0.0.1:0\"\n\
               public_url = \"http://192.168.1.5:8080/\"\n";
    let _bot = BotProcess::start(&fake, dir.path(), "", lan);
    let bek = TgUser::new(742, "Bek", "bek_l", "ru");
    let board = a_game(&fake, &TgChat::private(&bek), &bek);
    let (kind, button) = link_row(&board).expect("a link row");
    assert_eq!(kind, "url", "{button}");
    assert_eq!(button["text"], "🌐 Страница партии");
    let url = button["url"].as_str().expect("an address");
    assert!(
        is_page_of(url, "http://192.168.1.5:8080", &board.game),
        "{url}"
    );
}

#[test]
fn without_the_pages_no_board_or_record_has_a_link() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&fake, dir.path(), "", "");
    let group = TgChat::group(GROUP - 1, "Toguz club");
    let asel = TgUser::new(743, "Asel", "asel_n", "en");
    for chat in [group.clone(), TgChat::private(&asel)] {
        let board = a_game(&fake, &chat, &asel);
        assert_eq!(link_row(&board), None, "{board:#?}");
        let markup = board.message.reply_markup.expect("a keyboard").to_string();
        assert!(
            !markup.contains("\"url\"") && !markup.contains("web_app"),
            "{markup}"
        );
    }
    fake.send_text(&group, &asel, "/resign");
    wait_board(&fake, group.id, |b| b.is_over());
    let mark = fake.mark();
    fake.send_text(&group, &asel, "/record");
    let record = next_call(&fake, mark, "sendDocument");
    let caption = record.caption().unwrap_or_default();
    assert!(caption.starts_with("Record of game "), "{caption}");
    assert!(!caption.contains("Game page"), "{caption}");
}

#[test]
fn a_move_pressed_in_telegram_shows_on_the_open_page_within_a_second() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let bot = BotProcess::start(&fake, dir.path(), "", WEB);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let Some(mut chrome) = runtime.block_on(crate::browser::launch()) else {
        return;
    };
    let group = TgChat::group(GROUP - 2, "Live club");
    let dina = TgUser::new(744, "Dina", "dina_l", "en");
    let board = a_game(&fake, &group, &dina);
    let url = link_url(&board, "url");
    let page = format!(
        "http://{}{}",
        served_at(&bot),
        url.trim_start_matches(PAGES)
    );
    let live = "Number(document.getElementById('board').dataset.live) >= 1";
    let shown = "Number(document.getElementById('board').dataset.ply)";
    let before = runtime.block_on(async {
        chrome.open(&page, 1000, 900, false).await;
        chrome.wait_for(live, WAIT).await;
        chrome.eval(shown).await
    });
    assert_eq!(
        before,
        serde_json::json!(board.ply),
        "the page shows the game as it is"
    );

    // Dina presses a pit in Telegram; the open page shows her move within a second.
    let (pit, _) = board.pits[0].clone();
    let data = format!("1m:{}:{}:{pit}", board.game, board.ply);
    let pressed = std::time::Instant::now();
    let q = fake.press(&group, board.message.message_id, &dina, &data);
    let moved = format!("{shown} > {}", board.ply);
    runtime.block_on(chrome.wait_for(&moved, std::time::Duration::from_secs(1)));
    let took = pressed.elapsed();
    eprintln!("a press in Telegram reached the open page in {took:?}");
    assert!(took < std::time::Duration::from_secs(1), "{took:?}");
    fake.wait_answer(&q, WAIT).expect("the press answered");
    assert!(chrome.errors.is_empty(), "{:?}", chrome.errors);
}

#[test]
fn a_host_telegram_refuses_leaves_the_boards_without_a_link_and_still_playing() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let local = "[web]\nenabled = true\nlisten = \"127.0.0.1:0\"\n\
                 public_url = \"http://localhost:8080\"\n";
    let bot = BotProcess::start(&fake, dir.path(), "", local);
    let group = TgChat::group(GROUP - 3, "Local club");
    let ilyas = TgUser::new(745, "Ilyas", "ilyas_l", "en");
    // The board is posted and played (with a link to localhost Telegram would refuse it).
    let board = a_game(&fake, &group, &ilyas);
    assert_eq!(link_row(&board), None, "{board:#?}");
    assert!(bot.log_text().contains("public_url is a local address"));
    // The record still names the page, as text.
    fake.send_text(&group, &ilyas, "/resign");
    wait_board(&fake, group.id, |b| b.is_over());
    let mark = fake.mark();
    fake.send_text(&group, &ilyas, "/record");
    let record = next_call(&fake, mark, "sendDocument");
    let caption = record.caption().unwrap_or_default();
    assert!(
        caption.contains(&format!(
            "🌐 Game page: http://localhost:8080/g/{}-",
            board.game
        )),
        "{caption}"
    );
}

#[test]
fn a_tournament_announcement_links_the_tournament_page_when_the_pages_are_served() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let bot = BotProcess::start(&fake, dir.path(), "", WEB);
    let group = TgChat::group(GROUP - 2, "Toguz club");
    let asel = TgUser::new(744, "Asel", "asel_t", "en");
    let mark = fake.mark();
    fake.send_text(&group, &asel, "/tournament new arena");
    let (_, call) = fake
        .wait_call(mark, WAIT, |c| {
            c.method == "sendMessage" && c.buttons().iter().any(|(_, d)| d.starts_with("1tj:"))
        })
        .expect("the announcement");
    let mut markup = call.reply_markup().expect("a keyboard");
    if let Some(text) = markup.as_str() {
        markup = serde_json::from_str(text).expect("a keyboard's JSON");
    }
    let rows = markup["inline_keyboard"].as_array().expect("rows").clone();
    assert_eq!(rows.len(), 2, "Join and Leave, then the link: {markup}");
    let link = &rows[1][0];
    assert_eq!(link["text"], "🏆 Tournament page", "{markup}");
    let url = link["url"].as_str().expect("a URL button");
    let id = call
        .buttons()
        .iter()
        .find_map(|(_, d)| d.strip_prefix("1tj:").map(str::to_string))
        .expect("a Join button");
    let path = url.strip_prefix(PAGES).unwrap_or_else(|| panic!("{url}"));
    assert!(path.starts_with(&format!("/t/{id}-")), "{url}");
    // It opens the tournament on the bot's own server; the group's id is not on it.
    let addr = served_at(&bot);
    let (status, page) = get(&addr, path);
    assert!(status.contains(" 200 "), "{status}");
    assert!(page.contains("Standings"), "{page}");
    assert!(page.contains("Nobody has joined yet."), "{page}");
    assert!(!page.contains(&(GROUP - 2).to_string()), "{page}");
}
