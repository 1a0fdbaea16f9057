//! Game pages on the web (issue 35), end to end: the real server (`platform::web`) on a real
//! manager and store, asked over HTTP and opened in a real headless Chromium. One test
//! binary.

mod activity;
mod activity_browser;
mod browser;
mod explorer;
mod explorer_browser;
mod index;
mod limits;
mod mini_app;
mod pages;
mod play;
mod play_browser;
mod play_chat;
mod players;
mod premoves;
mod premoves_browser;
mod processes;
mod readonly;
mod tournaments;

use std::net::SocketAddr;
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::{Action, Clock, GameView, Manager, ManagerConfig};
use toguz::model::{Platform, UserRef};
use toguz::platform::web::{self, WebConfig};
use toguz::rules::Position;
use toguz::store::Store;
use toguz::testing::manager::{act, challenge_id, game, rated_challenge, reopen, test_config};

/// A manager on a fresh sled store with the pages served on a free port.
pub struct Site {
    pub manager: Manager,
    pub addr: SocketAddr,
    server: tokio::task::JoinHandle<anyhow::Result<()>>,
    dir: tempfile::TempDir,
}

impl Site {
    pub async fn start() -> Site {
        Site::start_with(WebConfig::default()).await
    }

    pub async fn start_with(config: WebConfig) -> Site {
        let dir = tempfile::tempdir().unwrap();
        let store = reopen(&dir.path().join("db")).await;
        Site::serve(store, dir, config).await
    }

    /// The pages of `store` (one of several processes on a PostgreSQL database).
    pub async fn start_on(store: Store) -> Site {
        let dir = tempfile::tempdir().unwrap();
        Site::serve(store, dir, WebConfig::default()).await
    }

    /// The pages of `store` served with `config`, on a manager with `clock` (the system's
    /// when `None`) and `manager_config` (the tests' when `None`).
    pub async fn start_full(
        store: Store,
        config: WebConfig,
        clock: Option<Clock>,
        manager_config: Option<ManagerConfig>,
    ) -> Site {
        let dir = tempfile::tempdir().unwrap();
        Site::serve_with(store, dir, config, clock, manager_config).await
    }

    async fn serve(store: Store, dir: tempfile::TempDir, config: WebConfig) -> Site {
        Site::serve_with(store, dir, config, None, None).await
    }

    async fn serve_with(
        store: Store,
        dir: tempfile::TempDir,
        mut config: WebConfig,
        clock: Option<Clock>,
        manager_config: Option<ManagerConfig>,
    ) -> Site {
        let engine = EnginePool::new(EngineConfig::default());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut manager_config = manager_config.unwrap_or_else(test_config);
        manager_config.web_url = Some(format!("http://{addr}"));
        // Quick reviews: the page shows whatever a review found.
        manager_config.review.nodes = 5_000;
        let manager = match clock {
            Some(clock) => Manager::start_with_clock(store, engine, manager_config, clock).await,
            None => Manager::start(store, engine, manager_config).await,
        }
        .unwrap();
        config.enabled = true;
        config.public_url = format!("http://{addr}");
        let server = tokio::spawn(web::serve_on(listener, config, manager.clone()));
        Site {
            manager,
            addr,
            server,
            dir,
        }
    }

    /// Stops the server and the manager, and starts a new manager on the same store (what
    /// a restart, or another process, would find there).
    pub async fn restart_manager(self) -> (Manager, tempfile::TempDir) {
        let Site {
            manager,
            server,
            dir,
            ..
        } = self;
        server.abort();
        let _ = server.await;
        manager.flush().unwrap();
        drop(manager);
        let store = reopen(&dir.path().join("db")).await;
        let engine = EnginePool::new(EngineConfig::default());
        let manager = Manager::start(store, engine, test_config()).await.unwrap();
        (manager, dir)
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The address of `game`'s page (its path), as a board's link names it.
    pub async fn page_of(&self, game: &str) -> String {
        let key = self.manager.page_key(game).await.unwrap();
        let url = self.manager.page_url(game).expect("pages are served");
        assert_eq!(url, self.url(&format!("/g/{key}")));
        format!("/g/{key}")
    }
}

/// Two players named `names` start a rated game (White and Black by the challenge's
/// draw); returns them as White, Black.
pub async fn start_game(m: &Manager, names: [&str; 2]) -> (GameView, [UserRef; 2]) {
    // Platform ids unlike the names, so a test can tell that no page shows an id.
    let a = UserRef::new(Platform::Telegram, "81234567", names[0]);
    let b = UserRef::new(Platform::Telegram, "92345678", names[1]);
    let challenge = challenge_id(act(m, &a, rated_challenge(&b, None)).await);
    let view = game(act(m, &b, Action::AcceptChallenge { challenge }).await);
    let white = view.players[0].user().unwrap().clone();
    let players = if white == a { [a, b] } else { [b, a] };
    (view, players)
}

/// Plays `n` moves (the first legal pit each time, a fixed game) and adds their pits to
/// `pits`; returns the last view.
pub async fn play(
    m: &Manager,
    mut view: GameView,
    players: &[UserRef; 2],
    n: usize,
    pits: &mut Vec<u8>,
) -> GameView {
    for _ in 0..n {
        if view.is_over() {
            break;
        }
        let side = view.position.to_move().index();
        let pit = view.position.legal_moves().iter().next().unwrap();
        let action = Action::Move {
            game: view.id.clone(),
            ply: Some(view.ply),
            pit,
        };
        view = game(act(m, &players[side], action).await);
        pits.push(pit);
    }
    view
}

/// The position string after each prefix of `pits` (`[0]`: the start).
pub fn positions(pits: &[u8]) -> Vec<String> {
    let mut pos = Position::start(toguz::rules::Variant::STANDARD);
    let mut out = vec![pos.to_fen()];
    for &pit in pits {
        pos.play(pit).unwrap();
        out.push(pos.to_fen());
    }
    out
}
