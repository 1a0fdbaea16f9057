//! Hints in casual games against the bot (issue 18, docs/review.md *Hints*), through the
//! manager the way the adapters call it, on sled and on PostgreSQL.

use std::time::Duration;
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::{
    Action, ActionError, Clock, GameHint, GameView, Manager, ManagerConfig, MAX_HINTS,
};
use toguz::model::{Level, UserRef};
use toguz::on_both_backends;
use toguz::rules::{parse_record, replay, Side, Variant};
use toguz::testing::manager::{act, challenge_id, chat, game, user, Backend, T0};

async fn manager_on(backend: &Backend, engine: EngineConfig) -> Manager {
    let store = backend.open().await;
    let engine = EnginePool::new(engine);
    Manager::start_with_clock(store, engine, ManagerConfig::default(), Clock::manual(T0))
        .await
        .unwrap()
}

async fn manager(backend: &Backend) -> Manager {
    manager_on(backend, EngineConfig::default()).await
}

/// A casual game against the bot at `level`, `who` playing `side`.
async fn bot_game(m: &Manager, who: &UserRef, level: Level, side: Side) -> GameView {
    let action = Action::PlayBot {
        level,
        variant: Variant::STANDARD,
        colour: Some(side),
        time: None,
    };
    game(act(m, who, action).await)
}

async fn hint(m: &Manager, who: &UserRef, v: &GameView) -> Result<GameHint, ActionError> {
    m.hint(who, &chat(), Some(v.id.clone()), Some(v.ply)).await
}

async fn show(m: &Manager, who: &UserRef, id: &str) -> GameView {
    let action = Action::Show {
        game: Some(id.to_string()),
    };
    game(act(m, who, action).await)
}

/// Plays `pit` for `who`, then waits for the bot's reply: the game with `who` to move again
/// (or over).
async fn play_and_wait(m: &Manager, who: &UserRef, v: &GameView, pit: u8) -> GameView {
    let action = Action::Move {
        game: v.id.clone(),
        ply: Some(v.ply),
        pit,
    };
    let moved = game(act(m, who, action).await);
    for _ in 0..400 {
        let now = show(m, who, &moved.id).await;
        if now.is_over() || now.ply > moved.ply {
            return now;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the bot did not reply");
}

fn is<T: std::fmt::Debug>(result: Result<T, ActionError>, want: ActionError) {
    match result {
        Err(error) if std::mem::discriminant(&error) == std::mem::discriminant(&want) => {}
        other => panic!("expected {want:?}, got {other:?}"),
    }
}

async fn three_hints_a_game_then_none_and_the_record_says_so(backend: Backend) {
    let m = manager(&backend).await;
    let a = user("a");
    let mut v = bot_game(&m, &a, Level::Random, Side::White).await;
    assert!(v.actions_for(Some(&a)).hint);
    assert_eq!(v.hints_left(), MAX_HINTS);
    for used in 1..=MAX_HINTS {
        let h = hint(&m, &a, &v).await.unwrap();
        assert!(v.position.legal_moves().contains(h.pit), "{h:?}");
        assert!(h.text.starts_with(&h.pit.to_string()), "{h:?}");
        assert_eq!(h.left, MAX_HINTS - used);
        assert_eq!(h.game.hints, used);
        assert_eq!(h.game.ply, v.ply, "a hint plays no move");
        assert_eq!(h.game.actions_for(Some(&a)).hint, used < MAX_HINTS);
        v = play_and_wait(&m, &a, &h.game, h.pit).await;
        assert_eq!(v.hints, used);
    }
    assert!(!v.actions_for(Some(&a)).hint);
    is(hint(&m, &a, &v).await, ActionError::NoHintsLeft);
    assert_eq!(show(&m, &a, &v.id).await.hints, MAX_HINTS);
    // Once over, no hint; the record says how many were used, and still replays.
    let resign = Action::Resign {
        game: Some(v.id.clone()),
        ply: None,
    };
    let over = game(act(&m, &a, resign).await);
    is(hint(&m, &a, &over).await, ActionError::GameOver);
    let record = m.record(&over.id).await.unwrap();
    assert!(record.text.contains("[Hints \"3\"]"), "{}", record.text);
    let parsed = parse_record(&record.text).unwrap();
    let plies = replay(&parsed, parsed.start_position().unwrap()).unwrap();
    assert_eq!(plies.len(), usize::from(over.ply));
}

async fn a_game_without_hints_has_no_hints_tag(backend: Backend) {
    let m = manager(&backend).await;
    let a = user("a");
    let v = bot_game(&m, &a, Level::Random, Side::White).await;
    let v = play_and_wait(&m, &a, &v, 7).await;
    let resign = Action::Resign {
        game: Some(v.id.clone()),
        ply: None,
    };
    game(act(&m, &a, resign).await);
    let record = m.record(&v.id).await.unwrap();
    assert!(!record.text.contains("[Hints"), "{}", record.text);
}

async fn hints_are_refused_between_people_out_of_turn_and_to_others(backend: Backend) {
    let m = manager(&backend).await;
    let (a, b) = (user("a"), user("b"));
    for rated in [true, false] {
        let challenge = Action::Challenge {
            opponent: Some(b.clone()),
            variant: Variant::STANDARD,
            rated,
            time: None,
        };
        let id = challenge_id(act(&m, &a, challenge).await);
        let accept = Action::AcceptChallenge { challenge: id };
        let v = game(act(&m, &b, accept).await);
        for who in [&a, &b] {
            assert!(!v.actions_for(Some(who)).hint);
            is(hint(&m, who, &v).await, ActionError::HintsOnlyAgainstBot);
        }
        assert_eq!(v.hints_left(), 0);
    }
    // Against the bot: someone else's game, a stale board, and the bot's turn.
    let v = bot_game(&m, &a, Level::Random, Side::White).await;
    is(hint(&m, &b, &v).await, ActionError::NotYourGame);
    let stale = m.hint(&a, &chat(), Some(v.id.clone()), Some(5)).await;
    is(stale, ActionError::StaleBoard);
    is(
        m.hint(&a, &chat(), Some("nosuch".into()), None).await,
        ActionError::NoSuchGame,
    );
    // Nothing refused was counted.
    assert_eq!(show(&m, &a, &v.id).await.hints, 0);
}

async fn no_hint_while_the_bot_thinks(backend: Backend) {
    // The bot (hard, 1.5 s) opens the game: its opponent's hint waits for their turn.
    let engine = EngineConfig {
        hard_ms: 1500,
        ..EngineConfig::default()
    };
    let m = manager_on(&backend, engine).await;
    let a = user("a");
    let v = bot_game(&m, &a, Level::Hard, Side::Black).await;
    assert_eq!(v.ply, 0);
    assert!(!v.actions_for(Some(&a)).hint);
    is(hint(&m, &a, &v).await, ActionError::NotYourTurn);
    is(
        m.hint(&a, &chat(), None, None).await,
        ActionError::NotYourTurn,
    );
}

async fn the_count_survives_a_restart(backend: Backend) {
    let a = user("a");
    let (id, first) = {
        let m = manager(&backend).await;
        let v = bot_game(&m, &a, Level::Random, Side::White).await;
        let h = hint(&m, &a, &v).await.unwrap();
        m.flush().unwrap();
        (v.id, h)
    };
    let m = manager(&backend).await;
    let v = show(&m, &a, &id).await;
    assert_eq!(v.hints, 1);
    assert_eq!(v.hints_left(), MAX_HINTS - 1);
    // The same position gets the same hint: a fixed node budget and a cleared table.
    let again = hint(&m, &a, &v).await.unwrap();
    assert_eq!((again.pit, again.left), (first.pit, MAX_HINTS - 2));
    assert_eq!(show(&m, &a, &id).await.hints, 2);
}

on_both_backends! {
    single: [
        three_hints_a_game_then_none_and_the_record_says_so,
        a_game_without_hints_has_no_hints_tag,
        hints_are_refused_between_people_out_of_turn_and_to_others,
        the_count_survives_a_restart,
    ],
    multi: [
        no_hint_while_the_bot_thinks,
    ],
}
