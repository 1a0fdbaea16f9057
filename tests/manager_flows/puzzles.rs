//! Puzzles through the manager (issue 34): an attempt move by move, a miss, no puzzle twice
//! until all were given, an attempt that cannot be skipped and survives a restart, the
//! daily puzzle with its streaks and counts, and two processes rating one puzzle. On both
//! backends.

use std::sync::Arc;
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::puzzles::{
    DailyNews, PuzzleError, PuzzleKind, PuzzleRating, PuzzleState, PuzzleView, DAY_SECS,
    RECLAIM_SECS,
};
use toguz::manager::{ActionError, Clock, Event, Manager, ManagerConfig, MessageRef};
use toguz::model::Platform;
use toguz::ratings::keys::Scope;
use toguz::store::{Store, Tree};
use toguz::testing::manager::{chat, user, Backend, T0};
use tokio::sync::broadcast::error::TryRecvError;
use tokio::sync::broadcast::Receiver;

/// Real puzzles of the collection (the championship file): two of two moves of the
/// solver, three of one.
const TWO_MOVES: [&str; 2] = [
    r#"{"id":"p7c21ec94de","position":"4,2,14,1,1,16,3,x,7/1,5,1,3,14,14,2,5,2 40/27 b 10","solution":"536","themes":["capture"],"rating":RATING,"score":500,"gap":600,"depth":10,"effort":20,"game":"test"}"#,
    r#"{"id":"p4c127abda8","position":"15,1,15,1,3,4,4,x,2/5,x,2,17,1,8,8,17,1 32/26 b 8","solution":"937","themes":["capture"],"rating":RATING,"score":500,"gap":600,"depth":10,"effort":20,"game":"test"}"#,
];
const ONE_MOVE: [&str; 3] = [
    r#"{"id":"p11441970ae","position":"3,2,15,2,16,x,3,15,14/14,2,1,14,2,3,2,1,4 38/11 w 6","solution":"9","themes":["capture"],"rating":RATING,"score":500,"gap":600,"depth":10,"effort":20,"game":"test"}"#,
    r#"{"id":"p7758546af7","position":"7,0,18,5,17,x,3,1,2/2,5,4,17,5,6,5,1,8 38/18 w 8","solution":"9","themes":["capture"],"rating":RATING,"score":500,"gap":600,"depth":10,"effort":20,"game":"test"}"#,
    r#"{"id":"pb990024111","position":"1,2,20,1,20,x,2,3,1/x,0,6,18,6,7,5,1,1 43/25 b 11","solution":"4","themes":["capture"],"rating":RATING,"score":500,"gap":600,"depth":10,"effort":20,"game":"test"}"#,
];

/// A collection of these puzzles at these ratings.
fn collection(puzzles: &[(&str, f64)]) -> Arc<str> {
    let lines: Vec<String> = puzzles
        .iter()
        .map(|(line, rating)| line.replace("RATING", &format!("{rating:.1}")))
        .collect();
    Arc::from(lines.join("\n"))
}

async fn start(store: Store, clock: &Clock, puzzles: Arc<str>) -> Manager {
    let engine = EnginePool::new(EngineConfig::default());
    let config = ManagerConfig {
        puzzles: Some(puzzles),
        ..toguz::testing::manager::test_config()
    };
    Manager::start_with_clock(store, engine, config, clock.clone())
        .await
        .unwrap()
}

/// The solver's move of the line at the view's step.
fn right_move(view: &PuzzleView) -> u8 {
    view.puzzle.pits()[usize::from(view.step) * 2]
}

/// A legal move that is not the line's.
fn wrong_move(view: &PuzzleView) -> u8 {
    let right = right_move(view);
    view.pits().into_iter().find(|&p| p != right).unwrap()
}

async fn play(m: &Manager, view: &PuzzleView, pit: u8) -> Result<PuzzleView, ActionError> {
    m.puzzle_move(&view.owner, &view.owner.id, (view.attempt, view.step, pit))
        .await
}

fn refused(result: Result<PuzzleView, ActionError>) -> PuzzleError {
    match result {
        Err(ActionError::Puzzle(e)) => e,
        other => panic!("expected a puzzle refusal, got {other:?}"),
    }
}

async fn a_puzzle_is_solved_move_by_move_and_moves_both_ratings(backend: Backend) {
    let clock = Clock::manual(T0);
    let m = start(
        backend.open().await,
        &clock,
        collection(&[(TWO_MOVES[0], 1500.0)]),
    )
    .await;
    let asel = user("asel");
    let view = m.puzzle(&asel, &chat(), PuzzleKind::Next).await.unwrap();
    assert_eq!(view.puzzle.id, "p7c21ec94de");
    assert_eq!(view.state, PuzzleState::Solving { reply: None });
    assert!(view.themes().is_empty(), "themes stay hidden while solving");
    assert_eq!(view.solver, view.position.to_move());
    // Someone else's press, and a press for a later step, are refused.
    let other = user("aibek");
    let pressed = (view.attempt, 0, right_move(&view));
    let by_other = m.puzzle_move(&other, &asel.id, pressed).await;
    assert_eq!(refused(by_other), PuzzleError::NotYours);
    let ahead = m.puzzle_move(&asel, &asel.id, (view.attempt, 1, 3)).await;
    assert_eq!(refused(ahead), PuzzleError::Stale);
    // The first move: the reply of the line comes back.
    let second = play(&m, &view, right_move(&view)).await.unwrap();
    let PuzzleState::Solving { reply: Some(reply) } = second.state else {
        panic!("expected the reply, got {:?}", second.state);
    };
    assert_eq!(reply.pit, 3);
    assert_eq!(second.step, 1);
    // The old board is stale now.
    assert_eq!(
        refused(play(&m, &view, right_move(&view)).await),
        PuzzleError::Stale
    );
    let solved = play(&m, &second, right_move(&second)).await.unwrap();
    assert_eq!(solved.state, PuzzleState::Solved);
    assert_eq!(solved.themes().len(), 1);
    let before = solved.rating_before.unwrap();
    assert!(solved.rating.rating > before.rating, "{solved:?}");
    assert!(
        solved.puzzle_rating.rating < 1500.0,
        "a solved puzzle gets easier"
    );
    assert_eq!(refused(play(&m, &second, 6).await), PuzzleError::Over);
    let stored = m
        .store()
        .get::<PuzzleRating>(Tree::PuzzleRatings, "p7c21ec94de")
        .await
        .unwrap()
        .unwrap();
    assert_eq!((stored.solved, stored.failed), (1, 0));
    let stats = m.puzzle_stats(&asel).await.unwrap();
    assert_eq!((stats.player.solved, stats.player.failed), (1, 0));
    assert_eq!(stats.recent, vec![true]);
    assert_eq!((stats.seen, stats.collection), (1, 1));
    let board = m
        .puzzle_leaderboard(Scope::Chat(chat()), Some(&asel))
        .await
        .unwrap();
    assert_eq!(board.top.len(), 1);
    assert_eq!(board.top[0].1.user, asel);
    let telegram = m
        .puzzle_leaderboard(Scope::Platform(Platform::Telegram), None)
        .await
        .unwrap();
    assert_eq!(telegram.top[0].0, 1);
}

async fn a_wrong_move_ends_the_attempt_and_shows_the_solution(backend: Backend) {
    let clock = Clock::manual(T0);
    let m = start(
        backend.open().await,
        &clock,
        collection(&[(ONE_MOVE[0], 1500.0)]),
    )
    .await;
    let asel = user("asel");
    let view = m.puzzle(&asel, &chat(), PuzzleKind::Next).await.unwrap();
    let wrong = wrong_move(&view);
    let failed = play(&m, &view, wrong).await.unwrap();
    let PuzzleState::Failed {
        played, solution, ..
    } = failed.state
    else {
        panic!("expected a miss, got {:?}", failed.state);
    };
    assert_eq!((played, solution), (wrong, 9));
    // The board is the puzzle's position, for both moves to be marked on it.
    assert_eq!(failed.position, view.position);
    assert!(failed.rating.rating < failed.rating_before.unwrap().rating);
    assert!(
        failed.puzzle_rating.rating > 1500.0,
        "a missed puzzle gets harder"
    );
    assert!(failed.pits().is_empty());
    let stats = m.puzzle_stats(&asel).await.unwrap();
    assert_eq!((stats.player.solved, stats.player.failed), (0, 1));
    // An illegal pit is refused without ending anything.
    let next = m.puzzle(&asel, &chat(), PuzzleKind::Next).await.unwrap();
    let empty = (1..=9).find(|&p| !next.position.is_legal(p)).unwrap();
    assert!(matches!(
        play(&m, &next, empty).await,
        Err(ActionError::Illegal(_))
    ));
    assert!(play(&m, &next, right_move(&next)).await.is_ok());
}

async fn no_puzzle_is_given_twice_until_all_were_given(backend: Backend) {
    let clock = Clock::manual(T0);
    let puzzles: Vec<(&str, f64)> = ONE_MOVE.iter().map(|l| (*l, 1500.0)).collect();
    let m = start(backend.open().await, &clock, collection(&puzzles)).await;
    let asel = user("asel");
    let mut given = Vec::new();
    for _ in 0..3 {
        let view = m.puzzle(&asel, &chat(), PuzzleKind::Next).await.unwrap();
        assert!(!given.contains(&view.puzzle.id), "{} twice", view.puzzle.id);
        given.push(view.puzzle.id.clone());
        play(&m, &view, right_move(&view)).await.unwrap();
    }
    // All three seen: the collection starts again.
    let again = m.puzzle(&asel, &chat(), PuzzleKind::Next).await.unwrap();
    assert!(given.contains(&again.puzzle.id));
    assert_eq!(m.puzzle_stats(&asel).await.unwrap().seen, 1);
}

async fn a_puzzle_cannot_be_skipped_and_survives_a_restart(backend: Backend) {
    let clock = Clock::manual(T0);
    let puzzles = collection(&[(TWO_MOVES[0], 1500.0), (TWO_MOVES[1], 1500.0)]);
    let m = start(backend.open().await, &clock, puzzles.clone()).await;
    let asel = user("asel");
    let view = m.puzzle(&asel, &chat(), PuzzleKind::Next).await.unwrap();
    let again = m.puzzle(&asel, &chat(), PuzzleKind::Next).await.unwrap();
    assert_eq!(
        (again.attempt, &again.puzzle.id),
        (view.attempt, &view.puzzle.id)
    );
    let second = play(&m, &view, right_move(&view)).await.unwrap();
    drop(m);
    let m = start(backend.open().await, &clock, puzzles).await;
    // The same attempt, at the same step, after the restart.
    let shown = m.puzzle(&asel, &chat(), PuzzleKind::Next).await.unwrap();
    assert_eq!((shown.attempt, shown.step), (second.attempt, 1));
    assert_eq!(shown.position, second.position);
    let solved = play(&m, &shown, right_move(&shown)).await.unwrap();
    assert_eq!(solved.state, PuzzleState::Solved);
}

async fn the_daily_puzzle_is_one_for_everyone_once_a_day_with_streaks(backend: Backend) {
    let clock = Clock::manual(T0);
    let puzzles = collection(&[(ONE_MOVE[0], 1200.0), (ONE_MOVE[1], 1300.0)]);
    let m = start(backend.open().await, &clock, puzzles).await;
    let (asel, aibek) = (user("asel"), user("aibek"));
    let a = m.puzzle(&asel, &chat(), PuzzleKind::Daily).await.unwrap();
    let b = m.puzzle(&aibek, &chat(), PuzzleKind::Daily).await.unwrap();
    assert_eq!(a.puzzle.id, b.puzzle.id);
    assert!(a.daily.is_some());
    // An ordinary puzzle and the daily one may be on at once.
    let ordinary = m.puzzle(&asel, &chat(), PuzzleKind::Next).await.unwrap();
    assert_ne!(ordinary.attempt, a.attempt);
    let solved = play(&m, &a, right_move(&a)).await.unwrap();
    assert_eq!(solved.streak, 1);
    play(&m, &b, wrong_move(&b)).await.unwrap();
    let done = m.puzzle(&asel, &chat(), PuzzleKind::Daily).await;
    assert_eq!(refused(done), PuzzleError::DailyDone { solved: true });
    let done = m.puzzle(&aibek, &chat(), PuzzleKind::Daily).await;
    assert_eq!(refused(done), PuzzleError::DailyDone { solved: false });
    let daily = m.daily_puzzle(&chat()).await.unwrap();
    assert_eq!(daily.puzzle.id, a.puzzle.id);
    assert_eq!((daily.count.solved, daily.count.tried), (1, 2));
    assert_eq!(daily.count.names, vec![asel.name.clone()]);
    // The next day: a streak of two, then a day left out breaks it.
    clock.advance(DAY_SECS);
    let a2 = m.puzzle(&asel, &chat(), PuzzleKind::Daily).await.unwrap();
    let solved = play(&m, &a2, right_move(&a2)).await.unwrap();
    assert_eq!(solved.streak, 2);
    assert_eq!(m.puzzle_stats(&asel).await.unwrap().streak, 2);
    clock.advance(2 * DAY_SECS);
    let stats = m.puzzle_stats(&asel).await.unwrap();
    assert_eq!((stats.streak, stats.player.best_streak), (0, 2));
    assert_eq!(stats.daily_today, None);
}

async fn two_processes_rate_one_puzzle_without_losing_a_result(backend: Backend) {
    let clock = Clock::manual(T0);
    let puzzles = collection(&[(ONE_MOVE[0], 1200.0)]);
    let first = start(backend.open().await, &clock, puzzles.clone()).await;
    let second = match &backend {
        Backend::Postgres(_) => start(backend.open().await, &clock, puzzles).await,
        Backend::Sled(_) => start(first.store().clone(), &clock, puzzles).await,
    };
    let mut tasks = Vec::new();
    for i in 0..12 {
        let m = if i % 2 == 0 {
            first.clone()
        } else {
            second.clone()
        };
        tasks.push(tokio::spawn(async move {
            let who = user(&format!("s{i}"));
            let view = m.puzzle(&who, &chat(), PuzzleKind::Daily).await.unwrap();
            play(&m, &view, right_move(&view)).await.unwrap();
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let stored = first
        .store()
        .get::<PuzzleRating>(Tree::PuzzleRatings, "p11441970ae")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.solved, 12, "every solve counted once");
    let daily = second.daily_puzzle(&chat()).await.unwrap();
    assert_eq!((daily.count.solved, daily.count.tried), (12, 12));
}

/// The next daily-puzzle event, if one was published.
fn daily_event(events: &mut Receiver<Event>) -> Option<DailyNews> {
    loop {
        match events.try_recv() {
            Ok(Event::DailyPuzzle(news)) => return Some(news),
            Ok(_) => continue,
            Err(TryRecvError::Empty) | Err(TryRecvError::Closed) => return None,
            Err(TryRecvError::Lagged(_)) => continue,
        }
    }
}

async fn a_chat_gets_its_daily_puzzle_posted_once_at_its_hour(backend: Backend) {
    // T0 is 08:00 UTC.
    let clock = Clock::manual(T0);
    let puzzles = collection(&[(ONE_MOVE[0], 1200.0)]);
    let first = start(backend.open().await, &clock, puzzles.clone()).await;
    let second = match &backend {
        Backend::Postgres(_) => start(backend.open().await, &clock, puzzles).await,
        Backend::Sled(_) => start(first.store().clone(), &clock, puzzles).await,
    };
    let mut events = first.subscribe();
    let mut others = second.subscribe();
    let admin = user("admin");
    let post = first
        .set_daily_post((&chat(), "-100"), &admin, Some(9))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(post.hour, 9);
    assert_eq!(first.tick_daily_posts().await, 0, "not before its hour");
    clock.advance(3600);
    let (a, b) = tokio::join!(first.tick_daily_posts(), second.tick_daily_posts());
    assert_eq!(a + b, 1, "claimed by exactly one process");
    let news = daily_event(&mut events)
        .or_else(|| daily_event(&mut others))
        .expect("the post to make");
    assert!(news.fresh);
    assert_eq!(news.daily.puzzle.id, "p11441970ae");
    assert_eq!(news.post.place, "-100");
    assert_eq!(first.tick_daily_posts().await, 0, "once a day");
    // The poster stopped before posting: the claim is taken again after a while.
    clock.advance(RECLAIM_SECS);
    assert_eq!(second.tick_daily_posts().await, 1);
    let message = MessageRef {
        platform: Platform::Telegram,
        id: "-100:77".into(),
    };
    let day = news.daily.day;
    first
        .attach_daily_post(&chat(), day, message.clone())
        .await
        .unwrap();
    clock.advance(RECLAIM_SECS);
    assert_eq!(first.tick_daily_posts().await, 0, "posted: not again today");
    // A solve from the chat redraws the post with the count.
    while daily_event(&mut events).is_some() {}
    let solver = user("solver");
    let view = first
        .puzzle(&solver, &chat(), PuzzleKind::Daily)
        .await
        .unwrap();
    play(&first, &view, right_move(&view)).await.unwrap();
    let redraw = daily_event(&mut events).expect("a redraw");
    assert!(!redraw.fresh);
    assert_eq!(redraw.post.message, Some(message));
    assert_eq!(
        (redraw.daily.count.solved, redraw.daily.count.tried),
        (1, 1)
    );
    // The next day at nine again; stopped, never again.
    clock.advance(DAY_SECS);
    assert_eq!(first.tick_daily_posts().await, 1);
    first
        .set_daily_post((&chat(), "-100"), &admin, None)
        .await
        .unwrap();
    clock.advance(DAY_SECS);
    assert_eq!(first.tick_daily_posts().await, 0);
    assert!(first.daily_post(&chat()).await.unwrap().is_none());
}

toguz::on_both_backends! {
    single: [
        a_puzzle_is_solved_move_by_move_and_moves_both_ratings,
        a_wrong_move_ends_the_attempt_and_shows_the_solution,
        no_puzzle_is_given_twice_until_all_were_given,
        a_puzzle_cannot_be_skipped_and_survives_a_restart,
        the_daily_puzzle_is_one_for_everyone_once_a_day_with_streaks,
    ],
    multi: [
        two_processes_rate_one_puzzle_without_losing_a_result,
        a_chat_gets_its_daily_puzzle_posted_once_at_its_hour,
    ],
}
