//! Tournament pages (issues 33 and 35): a tournament run through the manager has its page
//! at its signed address, with the standings in order and every game linking to its page;
//! forged addresses get the plain 404; a listed chat's tournament is on the front page and a
//! private chat's is not; the page follows the standings live (server-sent events) when a
//! game ends; in Chromium it fits a phone's width and logs no error.

use super::{browser, Site};
use std::time::Duration;
use toguz::manager::tournament::{Format, NewTournament, Status, TournamentRecord};
use toguz::manager::{Action, ActionError, Manager, Player, Reply, Request};
use toguz::model::{ChatRef, Platform, TimeControl, UserRef};
use toguz::rules::Variant;

/// The players, with platform ids unlike their names (no page may show an id).
fn people() -> Vec<UserRef> {
    [
        ("81234567", "Асель"),
        ("92345678", "Bolat"),
        ("83456789", "Dana"),
        ("94567890", "Erlan"),
        ("85678901", "Farida"),
        ("96789012", "Gani"),
    ]
    .into_iter()
    .map(|(id, name)| UserRef::new(Platform::Telegram, id, name))
    .collect()
}

const PUBLIC: &str = "-1001111111111";
const PRIVATE: &str = "-1002222222222";

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

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

/// A Swiss event of `rounds` rounds in `chat` that every one of `people` joined, started
/// and its first round paired, its games made.
async fn running_swiss(
    m: &Manager,
    chat: &ChatRef,
    people: &[UserRef],
    rounds: u8,
) -> TournamentRecord {
    let new = NewTournament {
        format: Format::Swiss { rounds },
        time: TimeControl::Correspondence,
        variant: Variant::STANDARD,
        rated: true,
        // A second from now: everyone has joined before the manager's own tick starts it.
        starts_at: now() + 1,
    };
    let t = m
        .create_tournament(chat.clone(), &people[0], new)
        .await
        .unwrap();
    for p in people {
        m.join_tournament(&t.id, p).await.unwrap();
    }
    until(m, &t.id, |t| {
        t.rounds.len() == 1 && t.rounds[0].boards.iter().all(|b| b.started)
    })
    .await
}

/// Ticks until `done` holds of the tournament (the manager's own ticker runs too).
async fn until(
    m: &Manager,
    id: &str,
    done: impl Fn(&TournamentRecord) -> bool,
) -> TournamentRecord {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let t = m.tournament(id).await.unwrap();
        if done(&t) {
            return t;
        }
        assert!(tokio::time::Instant::now() < deadline, "{t:?}");
        m.tick_tournaments().await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The person playing pairing number `n`.
fn entrant(t: &TournamentRecord, n: u32) -> UserRef {
    match &t.entrants[n as usize - 1].player {
        Player::Human(user) => user.clone(),
        Player::Bot(level) => panic!("a bot ({level})"),
    }
}

/// Board `b` of round 1 ends: a move each, then Black resigns (White wins). Returns the
/// winner's and the loser's names.
async fn white_wins(m: &Manager, t: &TournamentRecord, b: usize) -> (String, String) {
    let board = &t.rounds[0].boards[b];
    let game = board.game.clone().unwrap();
    let (white, black) = (entrant(t, board.white), entrant(t, board.black));
    for who in [&white, &black] {
        let action = Action::Move {
            game: game.clone(),
            ply: None,
            pit: 1,
        };
        act_in(m, &t.chat, who, action).await.unwrap();
    }
    let resign = Action::Resign {
        game: Some(game),
        ply: None,
    };
    act_in(m, &t.chat, &black, resign).await.unwrap();
    (white.name.clone(), black.name.clone())
}

async fn get(site: &Site, path: &str) -> (u16, String) {
    let response = reqwest::get(site.url(path)).await.unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

/// The names in the standings table, top first.
fn standings_names(html: &str) -> Vec<String> {
    html.split("<td class=\"name\">")
        .skip(1)
        .map(|rest| rest[..rest.find("</td>").unwrap()].to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_page_shows_the_standings_in_order_and_links_every_game() {
    let site = Site::start().await;
    let m = &site.manager;
    let (public, private) = (
        ChatRef::new(Platform::Telegram, PUBLIC),
        ChatRef::new(Platform::Telegram, PRIVATE),
    );
    let admin = UserRef::new(Platform::Telegram, "70000001", "Admin");
    m.set_chat_public(&public, &admin, true).await.unwrap();
    let people = people();
    let t = running_swiss(m, &public, &people[..4], 2).await;
    let hidden = running_swiss(m, &private, &people[4..], 1).await;
    let key = m.tournament_page_key(&t.id).await.unwrap();
    let hidden_key = m.tournament_page_key(&hidden.id).await.unwrap();
    let path = format!("/t/{key}");

    // Round 1 under way: every board links its game's page, which opens.
    let (status, html) = get(&site, &path).await;
    assert_eq!(status, 200, "{html}");
    assert!(html.contains("Round 1 of 2"), "{html}");
    assert!(html.contains("4 players"), "{html}");
    for board in &t.rounds[0].boards {
        let game = board.game.as_ref().unwrap();
        let game_path = format!("/g/{}", m.page_key(game).await.unwrap());
        assert!(html.contains(&format!("href=\"{game_path}\"")), "{html}");
        let (status, _) = get(&site, &game_path).await;
        assert_eq!(status, 200, "{game_path}");
    }

    // Both games end; once the tick records them, the winners lead the standings.
    let mut winners = Vec::new();
    let mut losers = Vec::new();
    for b in 0..2 {
        let (winner, loser) = white_wins(m, &t, b).await;
        winners.push(winner);
        losers.push(loser);
    }
    until(m, &t.id, |t| t.rounds.len() == 2).await;
    let (_, html) = get(&site, &path).await;
    let names = standings_names(&html);
    assert_eq!(names.len(), 4, "{html}");
    let mut top: Vec<String> = names[..2].to_vec();
    let mut bottom: Vec<String> = names[2..].to_vec();
    top.sort();
    bottom.sort();
    winners.sort();
    losers.sort();
    assert_eq!((top, bottom), (winners, losers), "{html}");
    assert!(html.contains("1–0"), "{html}");
    assert!(html.contains("Round 2"), "{html}");
    // Names only: no platform id, no chat id.
    for id in [
        "81234567", "92345678", "83456789", "94567890", PUBLIC, "70000001",
    ] {
        assert!(!html.contains(id), "a platform id on the page: {html}");
    }
    // In Russian and Kazakh.
    let (_, ru) = get(&site, &format!("{path}?lang=ru")).await;
    assert!(
        ru.contains("Турнирная таблица") && ru.contains("Тур 1"),
        "{ru}"
    );
    let (_, kk) = get(&site, &format!("{path}?lang=kk")).await;
    assert!(
        kk.contains("Турнир кестесі") && kk.contains("1-тур"),
        "{kk}"
    );

    // The listed chat's event may be indexed; the private chat's says noindex (issue 49,
    // finding 9).
    assert!(!html.contains("noindex"), "{html}");
    let (status, hidden_html) = get(&site, &format!("/t/{hidden_key}")).await;
    assert_eq!(status, 200, "{hidden_html}");
    assert!(
        hidden_html.contains("<meta name=\"robots\" content=\"noindex, nofollow\">"),
        "{hidden_html}"
    );

    // Forged, altered or borrowed keys: the plain 404 page.
    let mut forged = key.clone();
    let last = forged.pop().unwrap();
    forged.push(if last == '0' { '1' } else { '0' });
    let game_key = m
        .page_key(t.rounds[0].boards[0].game.as_ref().unwrap())
        .await
        .unwrap();
    for bad in [
        format!("/t/{forged}"),
        format!("/t/{}", t.id),
        format!("/t/{game_key}"),
        format!("/g/{key}"),
        format!("/t/{forged}/live"),
    ] {
        let (status, body) = get(&site, &bad).await;
        assert_eq!(status, 404, "{bad}: {body}");
        assert!(!body.contains("Асель"), "{bad}: {body}");
        let said = if bad.starts_with("/g/") {
            "no game"
        } else {
            "no tournament"
        };
        assert!(body.contains(said), "{bad}: {body}");
    }

    // The front page lists the listed chat's tournament, and not the private chat's, whose
    // page opens through its link only.
    let (_, index) = get(&site, "/").await;
    assert!(index.contains("<h2>Tournaments</h2>"), "{index}");
    assert!(index.contains(&format!("href=\"{path}\"")), "{index}");
    assert!(!index.contains(&hidden_key), "{index}");
    assert!(!index.contains(&hidden.id), "{index}");
    let (status, _) = get(&site, &format!("/t/{hidden_key}")).await;
    assert_eq!(status, 200);
}

/// Reads server-sent events from `response` until one's data contains `wanted`.
async fn event_with(response: &mut reqwest::Response, seen: &mut String, wanted: &str) {
    while !seen.contains(wanted) {
        let chunk = response
            .chunk()
            .await
            .unwrap()
            .expect("the stream stays open");
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_standings_follow_a_game_that_ends_and_a_finished_event_is_listed() {
    let site = Site::start().await;
    let m = &site.manager;
    let console = ChatRef::new(Platform::Console, "local");
    let people = people();
    let t = running_swiss(m, &console, &people[..2], 1).await;
    let key = m.tournament_page_key(&t.id).await.unwrap();
    let mut live = reqwest::get(site.url(&format!("/t/{key}/live")))
        .await
        .unwrap();
    assert_eq!(live.status(), 200);
    let mut seen = String::new();
    // The first event is the state now: the game being played.
    tokio::time::timeout(
        Duration::from_secs(5),
        event_with(&mut live, &mut seen, "being played"),
    )
    .await
    .expect("the first state at once");
    assert!(seen.starts_with("event: tournament"), "{seen}");
    assert!(!seen.contains("1–0"), "{seen}");

    // The game ends; the manager's own tick (every 2 s) records it and the page hears.
    let started = tokio::time::Instant::now();
    let (winner, _) = white_wins(m, &t, 0).await;
    seen.clear();
    tokio::time::timeout(
        Duration::from_secs(5),
        event_with(&mut live, &mut seen, "1–0"),
    )
    .await
    .expect("the result on the live page within 5 s");
    eprintln!("a result reached the live page in {:?}", started.elapsed());
    assert!(seen.contains(&winner), "{seen}");

    // That was the only round: the event ends, and the stream says so.
    until(m, &t.id, |t| t.status == Status::Finished).await;
    tokio::time::timeout(
        Duration::from_secs(5),
        event_with(&mut live, &mut seen, "event: end"),
    )
    .await
    .expect("the end on the live page");

    // Finished: on the front page among the tournaments (the console's are listed) at
    // once: the listing is written with the end itself (a restart keeps it: manager_flows).
    let link = format!("href=\"/t/{key}\"");
    let (_, index) = get(&site, "/").await;
    assert!(index.contains(&link), "{index}");
    assert!(index.contains("The tournament is over."), "{index}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_shows_a_tournament_at_phone_width_and_follows_it_without_errors() {
    let Some(mut chrome) = browser::launch().await else {
        return;
    };
    let site = Site::start().await;
    let m = &site.manager;
    let public = ChatRef::new(Platform::Telegram, PUBLIC);
    let people = people();
    let t = running_swiss(m, &public, &people[..4], 2).await;
    let key = m.tournament_page_key(&t.id).await.unwrap();
    chrome
        .open(&site.url(&format!("/t/{key}")), 360, 740, true)
        .await;
    let fits = "document.documentElement.scrollWidth <= window.innerWidth";
    assert_eq!(chrome.eval(fits).await, true);
    // The live stream is open (its first state has come) before the game ends.
    chrome
        .wait_for(
            "Number(document.getElementById('tournament').dataset.updates) >= 1",
            Duration::from_secs(10),
        )
        .await;
    white_wins(m, &t, 0).await;
    let took = chrome
        .wait_for(
            "document.getElementById('t-live').textContent.includes('1–0')",
            Duration::from_secs(5),
        )
        .await;
    eprintln!("a result reached the open page in {took:?}");
    assert_eq!(chrome.eval(fits).await, true);
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(
        tmp.join("web-tournament-phone.png"),
        chrome.screenshot().await,
    )
    .unwrap();
    assert!(chrome.errors.is_empty(), "{:?}", chrome.errors);
}
