//! The club's finished games in the opening explorer (issue 52): queued in the write that
//! ends them, counted once however many processes drain the queue, and still counted after a
//! restart that left the queue full.

use super::manager_with;
use toguz::explorer::{query, Filter, Scope, Source};
use toguz::manager::explorer::{ExplorerAsk, ExplorerSource};
use toguz::manager::{Action, GameView, Manager};
use toguz::model::{Platform, UserRef};
use toguz::rules::{Position, Variant};
use toguz::store::{Batch, Store, Tree};
use toguz::testing::manager::{
    act, challenge_id, chat, game, rated_challenge, test_config, Backend,
};

/// Two people play `moves` half-moves (the first legal pit each time) and White resigns.
async fn finished_game(m: &Manager, names: [&str; 2], moves: usize) -> GameView {
    let id = |name: &str| name.bytes().map(u64::from).sum::<u64>().to_string();
    let a = UserRef::new(Platform::Telegram, id(names[0]), names[0]);
    let b = UserRef::new(Platform::Telegram, id(names[1]), names[1]);
    let challenge = challenge_id(act(m, &a, rated_challenge(&b, None)).await);
    let mut view = game(act(m, &b, Action::AcceptChallenge { challenge }).await);
    let players = view.players.each_ref().map(|p| p.user().cloned().unwrap());
    for _ in 0..moves {
        let pit = view.position.legal_moves().iter().next().unwrap();
        let mover = &players[view.position.to_move().index()];
        let action = Action::Move {
            game: view.id.clone(),
            ply: Some(view.ply),
            pit,
        };
        view = game(act(m, mover, action).await);
    }
    let resign = Action::Resign {
        game: Some(view.id.clone()),
        ply: None,
    };
    let view = game(act(m, &players[0], resign).await);
    assert!(view.is_over());
    view
}

/// The club's games through the start position.
async fn club_games(store: &Store) -> u64 {
    let start = Position::start(Variant::STANDARD);
    let scope = Scope::Source(Source::Club);
    let every = Filter::default();
    query(store, &start, &scope, &every, 0).await.unwrap().games
}

/// What the queue holds.
async fn queued(store: &Store) -> Vec<String> {
    let found: Vec<(String, serde_json::Value)> = store
        .scan(Tree::ExplorerQueue, toguz::store::KeyRange::prefix(""), 100)
        .await
        .unwrap();
    found.into_iter().map(|(k, _)| k).collect()
}

/// A game that ends is in the queue or already counted the moment its end is acknowledged
/// (the queue is written with the end); soon it is counted, once, and the queue is empty. A
/// game against nobody but the bot, and an aborted one, are not the club's.
async fn an_ended_game_is_counted_once_from_the_queue_written_with_its_end(backend: Backend) {
    let store = backend.open().await;
    let (m, _) = manager_with(store.clone(), test_config()).await;
    let view = finished_game(&m, ["Aset", "Bota"], 4).await;
    let counted = club_games(&store).await;
    let waiting = queued(&store).await;
    assert!(
        counted == 1 || waiting == vec![view.id.clone()],
        "the end's write holds the game's place in the explorer: {counted} {waiting:?}"
    );
    m.drain_explorer().await.unwrap();
    assert_eq!(club_games(&store).await, 1);
    assert!(queued(&store).await.is_empty());
    // Counted once however often the queue is drained.
    m.drain_explorer().await.unwrap();
    assert_eq!(club_games(&store).await, 1);
    // The chat's own explorer has it; the game's page is linked in its own chat.
    let ask = ExplorerAsk {
        source: ExplorerSource::Chat(chat()),
        ..ExplorerAsk::start()
    };
    let seen = m.explore(ask, Some(&chat())).await.unwrap();
    assert_eq!(seen.answer.games, 1);
    assert_eq!(seen.last.len(), 1);
    assert_eq!(
        seen.last[0].game.info.game.as_deref(),
        Some(view.id.as_str())
    );
    // Another chat (not public) counts it but does not list it.
    let elsewhere = toguz::model::ChatRef::new(Platform::Telegram, "-200");
    let all = m
        .explore(ExplorerAsk::start(), Some(&elsewhere))
        .await
        .unwrap();
    assert_eq!(all.answer.games, 1);
    assert!(all.last.is_empty());
}

/// A restart that left games in the queue (a process stopped between a game's end and its
/// drain) counts them on the next drain; two processes draining the same queue at once
/// count each game once.
async fn a_queue_left_by_a_crash_is_counted_once_by_two_processes(backend: Backend) {
    // The records of two finished games, as the end's write queues them.
    let elsewhere = Backend::sled();
    let (source, _) = manager_with(elsewhere.open().await, test_config()).await;
    let games = [
        finished_game(&source, ["Aset", "Bota"], 4).await,
        finished_game(&source, ["Dana", "Erlan"], 6).await,
    ];
    let mut batch = Batch::new();
    for view in &games {
        let record = source.record(&view.id).await.unwrap().text;
        let entry = serde_json::json!({ "record": record, "chat": chat().key() });
        batch.put(Tree::ExplorerQueue, &view.id, &entry).unwrap();
    }
    drop(source);
    let store = backend.open().await;
    store.write(batch).await.unwrap();

    // Two processes start on the store the crash left (one store: sled opens a directory
    // once), and both drain at once.
    let (m1, _) = manager_with(store.clone(), test_config()).await;
    let (m2, _) = manager_with(store.clone(), test_config()).await;
    let (one, two) = tokio::join!(m1.drain_explorer(), m2.drain_explorer());
    one.unwrap();
    two.unwrap();
    assert_eq!(club_games(&store).await, 2);
    assert!(queued(&store).await.is_empty());
    // The sweep finds nothing more to count.
    m1.sweep().await;
    assert_eq!(club_games(&store).await, 2);
}

toguz::on_both_backends!(
    single: [an_ended_game_is_counted_once_from_the_queue_written_with_its_end],
    multi: [a_queue_left_by_a_crash_is_counted_once_by_two_processes],
);
