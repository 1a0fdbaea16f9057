//! Several processes on one PostgreSQL database: a page served by one follows a game played
//! through another (live pages poll the followed games' stored revisions).

use super::{browser, play, positions, start_game, Site};
use std::time::Duration;
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::{Action, Manager};
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
