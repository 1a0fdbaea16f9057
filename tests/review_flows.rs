//! `/review` without a game, through the manager as the adapters call it (docs/review.md):
//! the game that ended last in the chat, else, after a restart, the caller's last finished
//! game from the archive; on sled and on PostgreSQL.

use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::{Action, ActionError, Clock, GameView, Manager, ManagerConfig};
use toguz::model::{ChatRef, Level, Platform, UserRef};
use toguz::on_both_backends;
use toguz::rules::{Side, Variant};
use toguz::testing::manager::{act, chat, game, user, Backend, T0};

async fn manager(backend: &Backend, clock: &Clock) -> Manager {
    let engine = EnginePool::new(EngineConfig::default());
    let config = ManagerConfig::default();
    Manager::start_with_clock(backend.open().await, engine, config, clock.clone())
        .await
        .unwrap()
}

/// `who` plays the bot (White, random level), makes one move, then resigns.
async fn a_finished_game(m: &Manager, who: &UserRef) -> GameView {
    let play = Action::PlayBot {
        level: Level::Random,
        variant: Variant::STANDARD,
        colour: Some(Side::White),
        time: None,
    };
    let v = game(act(m, who, play).await);
    let pit = v.position.legal_moves().iter().next().unwrap();
    let action = Action::Move {
        game: v.id.clone(),
        ply: Some(0),
        pit,
    };
    game(act(m, who, action).await);
    let resign = Action::Resign {
        game: Some(v.id.clone()),
        ply: None,
    };
    game(act(m, who, resign).await)
}

async fn review_alone_finds_the_callers_last_game_after_a_restart(backend: Backend) {
    let (a, b) = (user("a"), user("b"));
    let elsewhere = ChatRef::new(Platform::Telegram, "-200");
    let clock = Clock::manual(T0);
    let (first, last) = {
        let m = manager(&backend, &clock).await;
        // Nothing ended anywhere yet: the clear refusal.
        let none = m.last_finished_for(&chat(), &a).await;
        assert!(
            matches!(none, Err(ActionError::NoFinishedGameHere)),
            "{none:?}"
        );
        let first = a_finished_game(&m, &a).await;
        clock.advance(60);
        let last = a_finished_game(&m, &a).await;
        // Before a restart: the chat's last game, whoever asks.
        assert_eq!(m.last_finished_for(&chat(), &b).await.unwrap(), last.id);
        m.flush().unwrap();
        (first, last)
    };
    let m = manager(&backend, &clock).await;
    // After it: the caller's newest finished game, from the archive, in any chat.
    assert_eq!(m.last_finished_for(&chat(), &a).await.unwrap(), last.id);
    assert_eq!(m.last_finished_for(&elsewhere, &a).await.unwrap(), last.id);
    assert_ne!(first.id, last.id);
    // Someone with no finished game still gets the clear refusal.
    let none = m.last_finished_for(&chat(), &b).await;
    assert!(
        matches!(none, Err(ActionError::NoFinishedGameHere)),
        "{none:?}"
    );
    // And that game is what gets reviewed.
    let id = m.last_finished_for(&chat(), &a).await.unwrap();
    let reviewed = m.start_review_in(&chat(), Some(id), &a).await.unwrap();
    assert_eq!(reviewed.game().id, last.id);
    let review = reviewed.finish().await.unwrap();
    assert_eq!(review.review.plies.len(), 1);
}

/// One review running or waiting per user (issue 31, item 11): a user's second request is
/// refused with `ReviewPending` while the first holds its place, others still get theirs, and
/// a kept review comes with the pictures drawn of it, shared by everyone who asks.
async fn one_review_per_user_and_a_kept_review_keeps_its_drawings(backend: Backend) {
    let (a, b, c) = (user("a"), user("b"), user("c"));
    let clock = Clock::manual(T0);
    let engine = EnginePool::new(EngineConfig::default());
    let mut config = ManagerConfig::default();
    config.review.running = 1;
    config.review.waiting = 8;
    config.review.nodes = 2_000;
    let m = Manager::start_with_clock(backend.open().await, engine, config, clock.clone())
        .await
        .unwrap();
    let first = a_finished_game(&m, &a).await;
    let second = a_finished_game(&m, &b).await;
    let held = m.start_review(&first.id, &a).await.unwrap();
    assert!(!held.is_ready());
    // `a` pressing Review under every game takes one place, not the whole queue.
    for id in [&first.id, &second.id] {
        let again = m.start_review(id, &a).await;
        assert!(
            matches!(again, Err(ActionError::ReviewPending)),
            "{:?}",
            again.err()
        );
    }
    let other = m.start_review(&second.id, &b).await.unwrap();
    // Done (or given up), the place is free again.
    let reviewed = held.finish().await.unwrap();
    reviewed.drawings.keep("graph:en", b"png".to_vec());
    drop(other);
    let kept = m.start_review(&first.id, &c).await.unwrap();
    assert!(kept.is_ready(), "kept: answered at once");
    let kept = kept.finish().await.unwrap();
    assert!(std::sync::Arc::ptr_eq(&kept.drawings, &reviewed.drawings));
    assert_eq!(
        kept.drawings.get("graph:en").as_deref(),
        Some(&b"png".to_vec())
    );
    assert!(m.start_review(&second.id, &a).await.is_ok());
}

on_both_backends! {
    single: [
        review_alone_finds_the_callers_last_game_after_a_restart,
        one_review_per_user_and_a_kept_review_keeps_its_drawings
    ],
    multi: [],
}

/// The review ends with the game's line in the opening explorer (issue 52): its first move
/// new while the explorer is empty; once games that open the same way are imported, it
/// followed them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_says_how_long_the_game_followed_the_explorer() {
    use toguz::i18n::Lang;
    use toguz::manager::explorer::ExplorerAsk;
    let backend = Backend::sled();
    let clock = Clock::manual(T0);
    let m = manager(&backend, &clock).await;
    let a = user("a");
    let finished = a_finished_game(&m, &a).await;
    let reviewed = m.review(&finished.id, &a).await.unwrap();
    let book = reviewed.book.clone().expect("the explorer's line is read");
    let first = book.moves[0];
    assert_eq!((book.followed, book.novelty), (0, Some((0, first))));
    let text = toguz::platform::present::review::review_post(&reviewed, Lang::En).text;
    assert!(
        text.contains(&format!(
            "A novelty from the very first move: no game in the explorer opens with move 1. (pit {first})."
        )),
        "{text}"
    );
    let ru = toguz::platform::present::review::review_post(&reviewed, Lang::Ru).text;
    assert!(ru.contains("Новинка — уже ход 1."), "{ru}");

    // The championship's games imported: a kept review is asked again, its line read anew.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/championships-kz-2018.pgn"
    ))
    .unwrap();
    let games: Vec<_> = toguz::rules::parse_records(&text)
        .into_iter()
        .filter_map(|r| toguz::explorer::prepare(&r.ok()?, toguz::explorer::Source::Masters).ok())
        .collect();
    toguz::explorer::import_games(m.store(), &games)
        .await
        .unwrap();
    let start = m.explore(ExplorerAsk::start(), None).await.unwrap();
    let known = start.answer.moves.iter().any(|mv| mv.pit == first);
    let again = m.review(&finished.id, &user("b")).await.unwrap();
    let book = again.book.expect("read");
    assert_eq!(book.followed >= 1, known, "{book:?}");
}
