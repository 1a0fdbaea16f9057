//! The front page and the leaderboards page: games of chats that chose to be listed (and
//! the console's) appear, live and then among the finished ones, linking to their signed
//! pages; a chat that did not choose never appears; no page shows a platform id.

use super::Site;
use toguz::manager::{Action, ActionError, GameView, Manager, Reply, Request};
use toguz::model::{ChatRef, Level, Platform, UserRef};
use toguz::rules::Variant;
use toguz::testing::manager::{challenge_id, game, rated_challenge};

async fn act_in(
    m: &Manager,
    chat: &ChatRef,
    who: &UserRef,
    action: Action,
) -> Result<Reply, ActionError> {
    let request = Request {
        actor: who.clone(),
        chat: chat.clone(),
        action,
    };
    m.act(request).await
}

/// `a` challenges `b` to a rated game in `chat`, which `b` accepts.
async fn game_in(m: &Manager, chat: &ChatRef, a: &UserRef, b: &UserRef) -> GameView {
    let challenge = challenge_id(act_in(m, chat, a, rated_challenge(b, None)).await);
    game(act_in(m, chat, b, Action::AcceptChallenge { challenge }).await)
}

async fn resign(m: &Manager, chat: &ChatRef, who: &UserRef, view: &GameView) -> GameView {
    let action = Action::Resign {
        game: Some(view.id.clone()),
        ply: None,
    };
    game(act_in(m, chat, who, action).await)
}

/// Plays `n` moves (the first legal pit each time) so that the game counts when it ends.
async fn play_in(m: &Manager, chat: &ChatRef, mut view: GameView, n: usize) -> GameView {
    for _ in 0..n {
        let side = view.position.to_move();
        let mover = view.player(side).user().unwrap().clone();
        let pit = view.position.legal_moves().iter().next().unwrap();
        let action = Action::Move {
            game: view.id.clone(),
            ply: Some(view.ply),
            pit,
        };
        view = game(act_in(m, chat, &mover, action).await);
    }
    view
}

async fn get(site: &Site, path: &str) -> String {
    let response = reqwest::get(site.url(path)).await.unwrap();
    assert_eq!(response.status(), 200, "{path}");
    response.text().await.unwrap()
}

/// The part of the front page after `heading` up to the next heading (or the end).
fn section<'a>(html: &'a str, heading: &str) -> &'a str {
    let start = html
        .find(&format!("<h2>{heading}</h2>"))
        .unwrap_or_else(|| panic!("no {heading} in {html}"));
    let rest = &html[start + heading.len() + 9..];
    &rest[..rest.find("<h2>").unwrap_or(rest.len())]
}

fn tg(id: &str, name: &str) -> UserRef {
    UserRef::new(Platform::Telegram, id, name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_front_page_lists_games_of_public_chats_and_the_console_and_never_others() {
    let site = Site::start().await;
    let m = &site.manager;
    let public = ChatRef::new(Platform::Telegram, "-1001111111111");
    let private = ChatRef::new(Platform::Telegram, "-1002222222222");
    let admin = tg("70000001", "Admin");
    m.set_chat_public(&public, &admin, true).await.unwrap();
    assert!(m.is_chat_public(&public).await.unwrap());
    assert!(!m.is_chat_public(&private).await.unwrap());

    let (asel, bolat) = (tg("81234567", "Асель"), tg("92345678", "Bolat"));
    let (dana, erlan) = (tg("83456789", "Dana"), tg("94567890", "Erlan"));
    let shown = game_in(m, &public, &asel, &bolat).await;
    let hidden = game_in(m, &private, &dana, &erlan).await;
    let console = ChatRef::new(Platform::Console, "local");
    let player = UserRef::new(Platform::Console, "local", "Zhanar");
    let play_bot = Action::PlayBot {
        level: Level::Easy,
        variant: Variant::STANDARD,
        colour: None,
        time: None,
    };
    let at_console = game(act_in(m, &console, &player, play_bot).await);

    let shown_path = site.page_of(&shown.id).await;
    let hidden_path = site.page_of(&hidden.id).await;
    let console_path = site.page_of(&at_console.id).await;
    let html = get(&site, "/").await;
    let live = section(&html, "Playing now");
    assert!(live.contains(&format!("href=\"{shown_path}\"")), "{html}");
    assert!(live.contains(&format!("href=\"{console_path}\"")), "{html}");
    assert!(
        !html.contains(&hidden.id),
        "a chat that did not opt in: {html}"
    );
    assert!(!html.contains(&hidden_path), "{html}");
    assert!(html.contains("href=\"/leaderboard\""), "{html}");
    // Names only, never a platform id.
    assert!(live.contains("Асель") && live.contains("Bolat"), "{html}");
    for id in ["81234567", "92345678", "83456789", "94567890", "70000001"] {
        assert!(
            !html.contains(id),
            "a platform id on the front page: {html}"
        );
    }
    // The page it links to opens.
    get(&site, &shown_path).await;

    // Finished: among the recent games, no longer live; the other chat's never.
    let white = shown.players[0].user().unwrap().clone();
    resign(m, &public, &white, &shown).await;
    let other = hidden.players[0].user().unwrap().clone();
    resign(m, &private, &other, &hidden).await;
    let html = get(&site, "/").await;
    let live = section(&html, "Playing now");
    let recent = section(&html, "Recently finished");
    assert!(!live.contains(&shown_path), "{html}");
    assert!(recent.contains(&format!("href=\"{shown_path}\"")), "{html}");
    assert!(!html.contains(&hidden.id), "{html}");

    // A chat that stops being listed leaves the page, finished games too.
    m.set_chat_public(&public, &admin, false).await.unwrap();
    let html = get(&site, "/").await;
    assert!(!html.contains(&shown.id), "{html}");
    assert!(html.contains(&console_path), "the console's stay: {html}");

    // In Russian and Kazakh.
    let ru = get(&site, "/?lang=ru").await;
    assert!(
        ru.contains("Идут сейчас") && ru.contains("Рейтинги игроков"),
        "{ru}"
    );
    let kk = get(&site, "/?lang=kk").await;
    assert!(kk.contains("Қазір жүріп жатқан ойындар"), "{kk}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_listed_later_shows_its_ongoing_games() {
    let site = Site::start().await;
    let m = &site.manager;
    let chat = ChatRef::new(Platform::Discord, "555000111222333444");
    let (a, b) = (
        UserRef::new(Platform::Discord, "111111111111111111", "Aibek"),
        UserRef::new(Platform::Discord, "222222222222222222", "Saule"),
    );
    let view = game_in(m, &chat, &a, &b).await;
    let path = site.page_of(&view.id).await;
    assert!(!get(&site, "/").await.contains(&path));
    m.set_chat_public(&chat, &a, true).await.unwrap();
    let html = get(&site, "/").await;
    assert!(section(&html, "Playing now").contains(&path), "{html}");
    assert!(!html.contains("555000111222333444"), "{html}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_page_lists_rated_players_by_name_only() {
    let site = Site::start().await;
    let m = &site.manager;
    let chat = ChatRef::new(Platform::Telegram, "-1003333333333");
    let (asel, bolat) = (tg("81234567", "Асель <b>"), tg("92345678", "Bolat"));
    let empty = get(&site, "/leaderboard").await;
    assert!(empty.contains("Nobody here has played"), "{empty}");
    let view = game_in(m, &chat, &asel, &bolat).await;
    let view = play_in(m, &chat, view, 4).await;
    let loser = view.players[0].user().unwrap().clone();
    resign(m, &chat, &loser, &view).await;
    let html = get(&site, "/leaderboard").await;
    assert!(html.contains("Leaderboard: everyone on Telegram"), "{html}");
    assert!(
        html.contains("Асель &lt;b&gt;") && html.contains("Bolat"),
        "{html}"
    );
    assert!(
        html.contains("<td>1</td>") && html.contains("<td>2</td>"),
        "{html}"
    );
    for id in ["81234567", "92345678", "-1003333333333"] {
        assert!(
            !html.contains(id),
            "a platform id on the leaderboards: {html}"
        );
    }
    let ru = get(&site, "/leaderboard?lang=ru").await;
    assert!(ru.contains("Игрок") && ru.contains("Все партии"), "{ru}");
}
