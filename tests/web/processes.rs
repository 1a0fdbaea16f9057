//! Several processes on one PostgreSQL database: a page served by one follows a game played,
//! or a tournament changed, through another (live pages poll the stored revisions of what
//! they follow).

use super::{browser, play, positions, start_game, Site};
use std::time::Duration;
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::tournament::{Format, NewTournament};
use toguz::manager::{Action, Manager};
use toguz::model::{ChatRef, Platform, TimeControl, UserRef};
use toguz::rules::Variant;
use toguz::testing::manager::{act, game, test_config, Backend};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_made_in_another_process_shows_on_an_open_page_within_a_second() {
    let Some(backend) = Backend::postgres().await else {
        return;
    };
    let Some(mut chrome) = browser::launch().await else {
        return;
    };
    let engine = EnginePool::new(EngineConfig::default());
    let there = Manager::start(backend.open().await, engine, test_config())
        .await
        .unwrap();
    let site = Site::start_on(backend.open().await).await;
    let (view, players) = start_game(&there, ["Aigerim", "Bauyrzhan"]).await;
    let mut pits = Vec::new();
    let view = play(&there, view, &players, 4, &mut pits).await;
    let path = site.page_of(&view.id).await;
    let ids = [view.id.clone(), "nosuch".to_string()];
    let stored = site.manager.live_revisions(&ids).await.unwrap();
    assert!(stored[0].is_some() && stored[1].is_none(), "{stored:?}");
    chrome.open(&site.url(&path), 1000, 900, false).await;
    chrome
        .wait_for(
            "Number(document.getElementById('board').dataset.live) >= 1",
            Duration::from_secs(10),
        )
        .await;

    // Two moves and the end, each made in the other process, each on the page within 1 s.
    let mut view = view;
    for _ in 0..2 {
        view = play(&there, view, &players, 1, &mut pits).await;
        let fen = positions(&pits).pop().unwrap();
        let shows = format!("document.getElementById('board').dataset.position === '{fen}'");
        let took = chrome.wait_for(&shows, Duration::from_secs(1)).await;
        eprintln!("a move made in another process reached the page in {took:?}");
    }
    let resign = Action::Resign {
        game: Some(view.id.clone()),
        ply: None,
    };
    game(act(&there, &players[0], resign).await);
    chrome
        .wait_for(
            "document.getElementById('live').hidden === true",
            Duration::from_secs(1),
        )
        .await;
    assert!(chrome.errors.is_empty(), "{:?}", chrome.errors);
}

/// The server-sent events of `response` until one holds `wanted`, within `limit`.
async fn until_event(response: &mut reqwest::Response, wanted: &str, limit: Duration) -> String {
    let mut seen = String::new();
    let read = async {
        while !seen.contains(wanted) {
            let chunk = response.chunk().await.unwrap().expect("the stream goes on");
            seen.push_str(&String::from_utf8_lossy(&chunk));
        }
    };
    let found = tokio::time::timeout(limit, read).await;
    assert!(
        found.is_ok(),
        "no event with {wanted} within {limit:?}: {seen}"
    );
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_page_follows_entries_made_in_another_process() {
    let Some(backend) = Backend::postgres().await else {
        return;
    };
    let engine = EnginePool::new(EngineConfig::default());
    let there = Manager::start(backend.open().await, engine, test_config())
        .await
        .unwrap();
    let site = Site::start_on(backend.open().await).await;
    let console = ChatRef::new(Platform::Console, "local");
    let creator = UserRef::new(Platform::Console, "local", "Aigerim");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let new = NewTournament {
        format: Format::Swiss { rounds: 3 },
        time: TimeControl::Correspondence,
        variant: Variant::STANDARD,
        rated: false,
        starts_at: now + 3600,
    };
    let t = there
        .create_tournament(console, &creator, new)
        .await
        .unwrap();
    let key = site.manager.tournament_page_key(&t.id).await.unwrap();
    let mut live = reqwest::get(site.url(&format!("/t/{key}/live")))
        .await
        .unwrap();
    assert_eq!(live.status(), 200);
    until_event(&mut live, "event: tournament", Duration::from_secs(5)).await;

    // Zhanar joins through the other process: the open page lists her within 2 s (the
    // page's process polls the stored revisions every second).
    let zhanar = UserRef::new(Platform::Telegram, "81234567", "Zhanar");
    let started = tokio::time::Instant::now();
    there.join_tournament(&t.id, &zhanar).await.unwrap();
    let seen = until_event(&mut live, "Zhanar", Duration::from_secs(2)).await;
    eprintln!(
        "an entry made in another process reached the page in {:?}",
        started.elapsed()
    );
    assert!(!seen.contains("81234567"), "no platform id: {seen}");
}
