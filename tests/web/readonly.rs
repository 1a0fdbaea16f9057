//! Issue 49, finding 19: `toguz web` only reads. Its manager (`Manager::start_read_only`)
//! runs no sweep, timer, bot or heartbeat, and no page view writes anything, on sled and
//! on PostgreSQL; nor does a page view of a full manager (`toguz run`) write a player page
//! key any more (they are written with a player's first game, or by the start-up backfill).

use super::{play, start_game};
use std::net::SocketAddr;
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::player_pages::PlayerLink;
use toguz::manager::{Action, Manager};
use toguz::platform::web::{self, WebConfig};
use toguz::store::{Batch, RawRecord, Store, Tree};
use toguz::testing::manager::{act, game, test_config, Backend};

/// Every tree's records (`Meta` left out when `meta` is false: a full manager's heartbeat
/// writes there on its own).
async fn snapshot(store: &Store, meta: bool) -> Vec<(Tree, Vec<RawRecord>)> {
    let mut all = Vec::new();
    for tree in Tree::ALL {
        if tree == Tree::Meta && !meta {
            continue;
        }
        all.push((tree, store.export(tree).await.unwrap()));
    }
    all
}

async fn serve(manager: &Manager) -> (SocketAddr, tokio::task::JoinHandle<anyhow::Result<()>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = WebConfig {
        enabled: true,
        public_url: format!("http://{addr}"),
        ..WebConfig::default()
    };
    (
        addr,
        tokio::spawn(web::serve_on(listener, config, manager.clone())),
    )
}

/// Asks for every kind of page there is (the game pages of `games`, their players').
async fn browse(m: &Manager, addr: SocketAddr, games: &[String]) {
    let mut paths = vec!["/".to_string(), "/leaderboard".into(), "/nothing".into()];
    for id in games {
        let key = m.page_key(id).await.unwrap();
        paths.extend([
            format!("/g/{key}"),
            format!("/g/{key}.png"),
            format!("/g/{key}.pgn"),
            format!("/g/{key}?lang=ru"),
        ]);
    }
    for (i, path) in paths.clone().iter().enumerate() {
        let html = reqwest::get(format!("http://{addr}{path}"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap_or_default();
        // The players' pages the game pages link to.
        if i >= 3 && path.ends_with(|c: char| c.is_ascii_hexdigit()) {
            for link in html.split("href=\"/p/").skip(1) {
                let key = &link[..link.find('"').unwrap()];
                let status = reqwest::get(format!("http://{addr}/p/{key}"))
                    .await
                    .unwrap()
                    .status();
                assert!(status == 200 || status == 404, "{status}");
            }
        }
    }
}

async fn a_page_view_writes_nothing_and_toguz_web_nothing_at_all(backend: Backend) {
    let engine = || EnginePool::new(EngineConfig::default());
    let store = backend.open().await;
    let full = Manager::start(store.clone(), engine(), test_config())
        .await
        .unwrap();
    // A finished game, and one going on without a first move (the kind a sweep aborts).
    let (view, players) = start_game(&full, ["Ali", "Bota"]).await;
    let view = play(&full, view, &players, 4, &mut Vec::new()).await;
    let resign = Action::Resign {
        game: Some(view.id.clone()),
        ply: None,
    };
    let ended = game(act(&full, &players[0], resign).await);
    let (waiting, _) = start_game(&full, ["Ali", "Bota"]).await;
    let games = [ended.id.clone(), waiting.id.clone()];
    // Players from before their page keys were written with their first game.
    let mut forget = Batch::new();
    for (key, _) in store
        .load_all::<PlayerLink>(Tree::PlayerPages)
        .await
        .unwrap()
    {
        forget.delete(Tree::PlayerPages, &key);
    }
    store.write(forget).await.unwrap();

    // `toguz run`: a page view writes nothing (the heartbeat's Meta left aside).
    let (addr, server) = serve(&full).await;
    let before = snapshot(&store, false).await;
    browse(&full, addr, &games).await;
    assert!(before == snapshot(&store, false).await, "a page view wrote");
    server.abort();
    let _ = server.await;
    full.flush().unwrap();
    drop(full);
    drop(store);

    // `toguz web`: nothing at all, its start included.
    let store = backend.open().await;
    let before = snapshot(&store, true).await;
    let reader = Manager::start_read_only(store.clone(), engine(), test_config())
        .await
        .unwrap();
    assert!(reader.is_read_only());
    let (addr, server) = serve(&reader).await;
    browse(&reader, addr, &games).await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(
        before == snapshot(&store, true).await,
        "the read-only process wrote"
    );
    // And it refuses actions outright.
    let refused = act(
        &reader,
        &players[0],
        Action::Resign {
            game: Some(waiting.id.clone()),
            ply: None,
        },
    )
    .await;
    assert!(refused.is_err(), "{refused:?}");
    server.abort();
}

toguz::on_both_backends!(
    single: [],
    multi: [
        a_page_view_writes_nothing_and_toguz_web_nothing_at_all,
    ],
);
