//! Helpers shared by the manager-level test binaries (`manager_flows`, `store_flows`).

use std::path::Path;
use std::time::Duration;
use toguz::manager::{
    Action, ActionError, ChatRef, GameView, Manager, Platform, Reply, Request, UserRef,
};
use toguz::store::Store;

/// The tests' manual clock starts here (unix seconds).
pub const T0: u64 = 1_800_000_000;

pub fn user(id: &str) -> UserRef {
    UserRef::new(Platform::Telegram, id, format!("User {id}"))
}

pub fn chat() -> ChatRef {
    ChatRef::new(Platform::Telegram, "-100")
}

pub async fn act(m: &Manager, who: &UserRef, action: Action) -> Result<Reply, ActionError> {
    m.act(Request {
        actor: who.clone(),
        chat: chat(),
        action,
    })
    .await
}

pub fn game(reply: Result<Reply, ActionError>) -> GameView {
    match reply {
        Ok(Reply::Game(v)) => v,
        other => panic!("expected a game, got {other:?}"),
    }
}

pub fn challenge_id(reply: Result<Reply, ActionError>) -> String {
    match reply {
        Ok(Reply::Challenge(c)) => c.id,
        other => panic!("expected a challenge, got {other:?}"),
    }
}

/// Opens a store, waiting for the previous handle's flusher to let go of sled's lock.
pub async fn reopen(dir: &Path) -> Store {
    for _ in 0..100 {
        if let Ok(store) = Store::open(dir) {
            return store;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the store did not reopen");
}
