//! Timed games through the manager (issue 17), on a manual clock: the increment, the flag
//! falling with nobody pressing, a press racing the flag, the first-move limit, restarts,
//! the bot playing on its clock, a challenger picking the time control of a challenge
//! given without one, and a game of days per move lost on time (issue 51).

use std::time::Duration;
use toguz::engine::{level_move_within, EngineConfig, EnginePool};
use toguz::i18n::Lang;
use toguz::manager::{
    Action, ActionError, ChallengeRecord, ChallengeView, Clock, Event, FinishReason, GameStatus,
    GameView, Manager, ManagerConfig, Reply, HEARTBEAT_KEY,
};
use toguz::model::{Category, Level, TimeControl, UserRef};
use toguz::on_both_backends;
use toguz::platform::present;
use toguz::rules::{Position, Side, Variant};
use toguz::store::{Store, Tree};
use toguz::testing::manager::{
    act, challenge_id, game, rated_challenge, reopen, user, Backend, T0,
};
use toguz::timecontrol::{think_time, GameClock};

async fn start(store: Store, clock: Clock, engine: EngineConfig) -> Manager {
    Manager::start_with_clock(
        store,
        EnginePool::new(engine),
        ManagerConfig::default(),
        clock,
    )
    .await
    .unwrap()
}

/// A challenges B at `time`, B accepts; returns the game with A as White.
async fn timed_game(m: &Manager, a: &UserRef, b: &UserRef, time: &str) -> GameView {
    loop {
        let challenge = rated_challenge(b, Some(TimeControl::parse(time).unwrap()));
        let id = challenge_id(act(m, a, challenge).await);
        let accept = Action::AcceptChallenge { challenge: id };
        let view = game(act(m, b, accept).await);
        if view.side_of(a) == Some(Side::White) {
            return view;
        }
        // Colours are random: abort and try again until A is White.
        game(act(m, a, Action::Abort { game: view.id }).await);
    }
}

async fn play(m: &Manager, who: &UserRef, id: &str, pit: u8) -> Result<Reply, ActionError> {
    let action = Action::Move {
        game: id.to_string(),
        ply: None,
        pit,
    };
    act(m, who, action).await
}

async fn show(m: &Manager, who: &UserRef, id: &str) -> GameView {
    game(
        act(
            m,
            who,
            Action::Show {
                game: Some(id.into()),
            },
        )
        .await,
    )
}

/// The next game event about `id` that ends it, within 10 s of real time.
async fn ended(rx: &mut tokio::sync::broadcast::Receiver<Event>, id: &str) -> GameView {
    let wait = async {
        loop {
            if let Ok(Event::Game(view)) = rx.recv().await {
                if view.id == id && view.is_over() {
                    return view;
                }
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), wait)
        .await
        .expect("the game ends within 10 s")
}

fn left(view: &GameView) -> [u64; 2] {
    view.clock
        .as_ref()
        .expect("a timed game shows its clocks")
        .left_ms
}

/// Both sides' first moves (not charged), then returns the view with White to move.
async fn past_first_moves(m: &Manager, clock: &Clock, a: &UserRef, b: &UserRef, id: &str) {
    clock.advance_ms(3_000);
    game(play(m, a, id, 7).await);
    clock.advance_ms(4_000);
    game(play(m, b, id, 9).await);
}

#[tokio::test]
async fn the_increment_is_added_and_time_counts_from_the_durable_move() {
    let clock = Clock::manual(T0);
    let m = start(
        Store::temporary().unwrap(),
        clock.clone(),
        EngineConfig::default(),
    )
    .await;
    let (a, b) = (user("a"), user("b"));
    let v = timed_game(&m, &a, &b, "3+2").await;
    assert_eq!(left(&v), [180_000, 180_000]);
    past_first_moves(&m, &clock, &a, &b, &v.id).await;
    // First moves are not charged and earn no increment.
    assert_eq!(left(&show(&m, &a, &v.id).await), [180_000, 180_000]);
    clock.advance_ms(19_000);
    assert_eq!(left(&show(&m, &a, &v.id).await)[0], 161_000);
    let after = game(play(&m, &a, &v.id, 6).await);
    assert_eq!(left(&after), [163_000, 180_000]);
    let clocks = after.clock.unwrap();
    assert_eq!(clocks.at_last_move_ms, [163_000, 180_000]);
    let deadline = clocks.deadline.unwrap();
    assert_eq!(deadline.at_ms, T0 * 1000 + 26_000 + 180_000);
    clock.advance_ms(1_500);
    let after = game(play(&m, &b, &v.id, 5).await);
    assert_eq!(left(&after), [163_000, 180_500]);
}

#[tokio::test]
async fn the_flag_falls_with_nobody_pressing_and_both_are_told() {
    let clock = Clock::manual(T0);
    let m = start(
        Store::temporary().unwrap(),
        clock.clone(),
        EngineConfig::default(),
    )
    .await;
    let (a, b) = (user("a"), user("b"));
    let v = timed_game(&m, &a, &b, "0.1+0").await;
    past_first_moves(&m, &clock, &a, &b, &v.id).await;
    assert_eq!(m.running_clocks(), 1);
    let mut events = m.subscribe();
    clock.advance_ms(5_999);
    tokio::task::yield_now().await;
    assert!(!show(&m, &a, &v.id).await.is_over());
    clock.advance_ms(1);
    let view = ended(&mut events, &v.id).await;
    assert_eq!(
        view.status,
        GameStatus::Finished {
            winner: Some(Side::Black),
            reason: FinishReason::TimedOut(Side::White)
        }
    );
    assert_eq!(left(&view)[0], 0);
    assert_eq!(m.running_clocks(), 0);
    // Durable: the game is over for anyone who looks, and a late press is refused.
    assert!(show(&m, &b, &v.id).await.is_over());
    assert!(matches!(
        play(&m, &a, &v.id, 6).await,
        Err(ActionError::GameOver)
    ));
}

/// White to move at ply 2 with `ms` left, turn started now; returns the deadline.
async fn racing_position(m: &Manager, clock: &Clock, a: &UserRef, b: &UserRef) -> (GameView, u64) {
    let v = timed_game(m, a, b, "0.1+0").await;
    past_first_moves(m, clock, a, b, &v.id).await;
    let view = show(m, a, &v.id).await;
    let deadline = view.clock.as_ref().unwrap().deadline.unwrap().at_ms;
    (view, deadline)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_press_and_the_flag_in_the_same_millisecond_exactly_one_wins() {
    let clock = Clock::manual(T0);
    let m = start(
        Store::temporary().unwrap(),
        clock.clone(),
        EngineConfig::default(),
    )
    .await;
    let (mut moved, mut flagged) = (0, 0);
    for round in 0..12 {
        let (a, b) = (user(&format!("a{round}")), user(&format!("b{round}")));
        let (v, deadline) = racing_position(&m, &clock, &a, &b).await;
        let mut events = m.subscribe();
        // The press arrives one millisecond before the deadline, racing the timer, which
        // the clock's next tick wakes.
        clock.advance_ms(deadline - 1 - clock.now_ms());
        let press = tokio::spawn({
            let (m, a, id) = (m.clone(), a.clone(), v.id.clone());
            async move { play(&m, &a, &id, 6).await }
        });
        clock.advance_ms(1);
        let pressed = press.await.unwrap();
        let now = show(&m, &b, &v.id).await;
        match pressed {
            Ok(_) => {
                moved += 1;
                assert!(!now.is_over() && now.ply == 3, "{now:?}");
            }
            Err(ActionError::GameOver) => {
                flagged += 1;
                assert_eq!(now.ply, 2);
                assert!(matches!(
                    now.status,
                    GameStatus::Finished {
                        reason: FinishReason::TimedOut(Side::White),
                        ..
                    }
                ));
                assert_eq!(ended(&mut events, &v.id).await.ply, 2);
            }
            other => panic!("unexpected answer: {other:?}"),
        }
        if !now.is_over() {
            game(
                act(
                    &m,
                    &a,
                    Action::Resign {
                        game: Some(v.id),
                        ply: None,
                    },
                )
                .await,
            );
        }
    }
    assert_eq!(moved + flagged, 12);
    // A press arriving at the very millisecond the time runs out is too late: the flag wins.
    let (a, b) = (user("late-a"), user("late-b"));
    let (v, deadline) = racing_position(&m, &clock, &a, &b).await;
    let mut events = m.subscribe();
    clock.advance_ms(deadline - clock.now_ms());
    assert!(matches!(
        play(&m, &a, &v.id, 6).await,
        Err(ActionError::GameOver)
    ));
    let view = ended(&mut events, &v.id).await;
    assert_eq!(view.ply, 2);
    // Only one end was published.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let again = std::iter::from_fn(|| events.try_recv().ok())
        .filter(|e| matches!(e, Event::Game(g) if g.id == v.id && g.is_over()))
        .count();
    assert_eq!(again, 0);
}

#[tokio::test]
async fn a_first_move_not_made_in_time_aborts_without_result() {
    let clock = Clock::manual(T0);
    let m = start(
        Store::temporary().unwrap(),
        clock.clone(),
        EngineConfig::default(),
    )
    .await;
    let (a, b) = (user("a"), user("b"));
    let mut events = m.subscribe();
    let v = timed_game(&m, &a, &b, "3+0").await;
    clock.advance(30);
    let view = ended(&mut events, &v.id).await;
    assert_eq!(
        view.status,
        GameStatus::Finished {
            winner: None,
            reason: FinishReason::FirstMoveMissed(Side::White)
        }
    );
    // Black's first move has its own limit, counted from White's.
    let v = timed_game(&m, &a, &b, "3+0").await;
    clock.advance(29);
    game(play(&m, &a, &v.id, 7).await);
    clock.advance(29);
    assert!(!show(&m, &a, &v.id).await.is_over());
    clock.advance(1);
    let view = ended(&mut events, &v.id).await;
    assert_eq!(
        view.status,
        GameStatus::Finished {
            winner: None,
            reason: FinishReason::FirstMoveMissed(Side::Black)
        }
    );
}

#[tokio::test]
async fn a_restart_resumes_the_clock_where_it_stood() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Clock::manual(T0);
    let m = start(
        reopen(dir.path()).await,
        clock.clone(),
        EngineConfig::default(),
    )
    .await;
    let (a, b) = (user("a"), user("b"));
    let v = timed_game(&m, &a, &b, "1+0").await;
    past_first_moves(&m, &clock, &a, &b, &v.id).await;
    clock.advance(10);
    m.heartbeat().await.unwrap();
    drop(m);
    // Down for an hour: not charged.
    let clock = Clock::manual(T0 + 3_600);
    let m = start(
        reopen(dir.path()).await,
        clock.clone(),
        EngineConfig::default(),
    )
    .await;
    let view = show(&m, &a, &v.id).await;
    assert!(!view.is_over());
    assert_eq!(left(&view), [50_000, 60_000]);
    assert!(m.ended_at_start().is_empty());
    // Restarted again at once: the first downtime is not charged twice.
    m.heartbeat().await.unwrap();
    drop(m);
    let clock = Clock::manual(T0 + 7_200);
    let m = start(
        reopen(dir.path()).await,
        clock.clone(),
        EngineConfig::default(),
    )
    .await;
    assert_eq!(left(&show(&m, &a, &v.id).await), [50_000, 60_000]);
    // And the timer still flags on time.
    let mut events = m.subscribe();
    clock.advance(50);
    let view = ended(&mut events, &v.id).await;
    assert!(matches!(
        view.status,
        GameStatus::Finished {
            reason: FinishReason::TimedOut(Side::White),
            ..
        }
    ));
}

#[tokio::test]
async fn a_flag_that_fell_before_the_stop_is_applied_at_start_up() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Clock::manual(T0);
    let m = start(
        reopen(dir.path()).await,
        clock.clone(),
        EngineConfig::default(),
    )
    .await;
    let (a, b) = (user("a"), user("b"));
    let v = timed_game(&m, &a, &b, "0.5+0").await;
    past_first_moves(&m, &clock, &a, &b, &v.id).await;
    let deadline = show(&m, &a, &v.id)
        .await
        .clock
        .unwrap()
        .deadline
        .unwrap()
        .at_ms;
    drop(m);
    // The process lived 5 s past White's deadline but died before its timer wrote the flag.
    let store = reopen(dir.path()).await;
    store
        .put(Tree::Meta, HEARTBEAT_KEY, &(deadline + 5_000))
        .await
        .unwrap();
    store.flush().unwrap();
    drop(store);
    let clock = Clock::manual(T0 + 3_600);
    let m = start(reopen(dir.path()).await, clock, EngineConfig::default()).await;
    let view = show(&m, &a, &v.id).await;
    assert_eq!(
        view.status,
        GameStatus::Finished {
            winner: Some(Side::Black),
            reason: FinishReason::TimedOut(Side::White)
        }
    );
    // Its event went out before anyone listened: the adapters ask for it.
    assert_eq!(m.ended_at_start(), vec![v.id]);
}

/// Plays `level` as Black against random moves at `time` through the manager; the human
/// answers at once, the bot is charged what its searches took. Returns how the game ended.
async fn bot_game(m: &Manager, who: &UserRef, level: Level, seed: u64) -> GameView {
    let play_bot = Action::PlayBot {
        level,
        variant: Variant::STANDARD,
        colour: Some(Side::White),
        time: Some(TimeControl::fischer(3, 0)),
    };
    let mut view = game(act(m, who, play_bot).await);
    let mut events = m.subscribe();
    let mut rng = seed;
    while !view.is_over() {
        if view.position.to_move() == Side::White {
            let legal: Vec<u8> = view.position.legal_moves().iter().collect();
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let pit = legal[(rng >> 33) as usize % legal.len()];
            view = game(play(m, who, &view.id, pit).await);
            continue;
        }
        let wait = async {
            loop {
                match events.recv().await {
                    Ok(Event::Game(v)) if v.id == view.id && v.ply != view.ply => return v,
                    Ok(_) => {}
                    Err(e) => panic!("events: {e}"),
                }
            }
        };
        view = tokio::time::timeout(Duration::from_secs(30), wait)
            .await
            .expect("the bot answers");
    }
    view
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_plays_on_its_clock_at_every_level_without_flagging() {
    let clock = Clock::manual(T0);
    // Short searches keep the test fast; the bot's budget is `min(level time, clock)`.
    let engine = EngineConfig {
        hard_ms: 15,
        max_ms: 30,
        max_concurrent: 2,
    };
    let m = start(Store::temporary().unwrap(), clock, engine).await;
    for (i, level) in Level::ALL.into_iter().enumerate() {
        let who = user(&format!("p{i}"));
        let view = bot_game(&m, &who, level, i as u64).await;
        let GameStatus::Finished { reason, .. } = view.status else {
            unreachable!()
        };
        assert!(
            !matches!(reason, FinishReason::TimedOut(Side::Black)),
            "{level}: the bot flagged"
        );
        // The bot was charged (its searches' time) but kept most of its three minutes.
        let bot_left = left(&view)[Side::Black.index()];
        assert!(
            bot_left > 100_000 && bot_left <= 180_000,
            "{level}: {bot_left}"
        );
    }
}

/// Twenty games at `3+0` at every level, each bot search charged its whole allowance
/// (`think_time`, the most the engine may use) plus what it really took: the bot never
/// flags, however long the game. The searches themselves are cut to 2 ms for speed; the
/// manager test above runs the real path.
#[test]
fn the_bot_never_flags_at_three_minutes_over_twenty_games_at_every_level() {
    for level in Level::ALL {
        for seed in 0..20u64 {
            let mut pos = Position::default();
            let mut clock = GameClock::new(180_000, 0, 0);
            let mut rng = seed.wrapping_add(1);
            while !pos.is_over() {
                let side = pos.to_move();
                let ply = pos.ply();
                let pit = if side == Side::Black {
                    let allowance = think_time(clock.left(side, side, ply, 0), 0);
                    let started = std::time::Instant::now();
                    let pit = level_move_within(
                        &pos,
                        level,
                        Some(Duration::from_millis(2)),
                        Duration::from_millis(allowance.min(2)),
                        seed ^ u64::from(ply),
                        None,
                    )
                    .expect("a legal move");
                    let took = started.elapsed().as_millis() as u64;
                    assert!(
                        clock.remaining_ms[1] > allowance + took || ply < 2,
                        "{level}, game {seed}: flagged at ply {ply}"
                    );
                    clock.charge(side, ply, allowance + took);
                    pit
                } else {
                    let legal: Vec<u8> = pos.legal_moves().iter().collect();
                    rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1);
                    clock.charge(side, ply, 0);
                    legal[(rng >> 33) as usize % legal.len()]
                };
                pos.play(pit).expect("legal");
            }
            assert!(clock.remaining_ms[1] > 0, "{level}, game {seed}");
        }
    }
}

/// `who` sets the time control of challenge `id` to `time`.
async fn set_time(m: &Manager, who: &UserRef, id: &str, time: &str) -> Result<Reply, ActionError> {
    let action = Action::SetChallengeTime {
        challenge: id.to_string(),
        time: TimeControl::parse(time).unwrap(),
    };
    act(m, who, action).await
}

fn challenge(reply: Result<Reply, ActionError>) -> ChallengeView {
    match reply {
        Ok(Reply::Challenge(c)) => c,
        other => panic!("expected a challenge, got {other:?}"),
    }
}

/// A challenge given without a time control takes the chat's default, and its challenger
/// (only they) may pick another until it is accepted; the change is durable (it survives a
/// restart) and the game starts at the control picked last. Once accepted, no change.
async fn the_challenger_picks_the_time_control_until_it_is_accepted(backend: Backend) {
    let (a, b, c) = (user("a"), user("b"), user("c"));
    let id = {
        let m = start(
            backend.open().await,
            Clock::manual(T0),
            EngineConfig::default(),
        )
        .await;
        // Named on the command line: fixed, no time buttons.
        let typed = challenge(
            act(
                &m,
                &a,
                Action::Challenge {
                    opponent: Some(c.clone()),
                    variant: Variant::STANDARD,
                    rated: true,
                    time: Some(TimeControl::fischer(3, 2)),
                },
            )
            .await,
        );
        assert!(!typed.time_changeable);
        let open = challenge(act(&m, &a, rated_challenge(&b, None)).await);
        assert!(open.time_changeable);
        assert_eq!(open.time_control, TimeControl::Correspondence);
        assert_eq!(open.time_changes, 0);
        // The opponent and a bystander may not change it.
        for other in [&b, &c] {
            let refused = set_time(&m, other, &open.id, "3+2").await;
            assert!(
                matches!(refused, Err(ActionError::NotYourChallenge)),
                "{refused:?}"
            );
        }
        let stored: ChallengeRecord = m
            .store()
            .get(Tree::Challenges, &open.id)
            .await
            .unwrap()
            .expect("the challenge is stored");
        assert_eq!(stored.time_control, TimeControl::Correspondence);
        // The challenger may, as often as they like.
        let blitz = challenge(set_time(&m, &a, &open.id, "3+2").await);
        assert_eq!(blitz.time_control, TimeControl::fischer(3, 2));
        let changed = challenge(set_time(&m, &a, &open.id, "5+3").await);
        assert_eq!(changed.time_control, TimeControl::fischer(5, 3));
        assert_eq!(changed.time_changes, 2);
        assert!(changed.is_open() && changed.time_changeable);
        // Picking the control it has already changes nothing.
        let same = challenge(set_time(&m, &a, &open.id, "5+3").await);
        assert_eq!(same.time_changes, 2);
        let unknown = set_time(&m, &a, "nosuch", "5+3").await;
        assert!(
            matches!(unknown, Err(ActionError::NoSuchChallenge)),
            "{unknown:?}"
        );
        open.id
    };

    // After a restart the challenge still plays at 5+3.
    let m = start(
        backend.open().await,
        Clock::manual(T0 + 60),
        EngineConfig::default(),
    )
    .await;
    let accept = Action::AcceptChallenge {
        challenge: id.clone(),
    };
    let v = game(act(&m, &b, accept).await);
    let control = v.clock.as_ref().map(|c| c.control);
    assert_eq!(control, Some(TimeControl::fischer(5, 3)));
    // Accepted: no change any more, and the game keeps its control.
    let late = set_time(&m, &a, &id, "10+5").await;
    assert!(
        matches!(late, Err(ActionError::ChallengeClosed)),
        "{late:?}"
    );
    assert_eq!(left(&show(&m, &a, &v.id).await), [300_000, 300_000]);
}

/// A challenge that expired is closed to changes too.
async fn an_expired_challenge_keeps_its_time_control(backend: Backend) {
    let (a, b) = (user("a"), user("b"));
    let clock = Clock::manual(T0);
    let m = start(backend.open().await, clock.clone(), EngineConfig::default()).await;
    let open = challenge(act(&m, &a, rated_challenge(&b, None)).await);
    clock.advance(ManagerConfig::default().limits.challenge_expiry_secs);
    let late = set_time(&m, &a, &open.id, "3+2").await;
    assert!(
        matches!(late, Err(ActionError::ChallengeClosed)),
        "{late:?}"
    );
}

const DAY: u64 = 86_400;

/// Issue 51: a game of 2 days per move between people. Each move has its 2 days (not the
/// configured `move_timeout_hours`, 72), renewed by a move, and the board shows the time
/// left; when they run out with nobody pressing, the sweep ends the game as lost on time,
/// after a restart as before it. The record writes the control as PGN does, and the game
/// counts in the correspondence category.
async fn a_game_with_days_per_move_is_lost_when_a_moves_days_run_out(backend: Backend) {
    let (a, b) = (user("a"), user("b"));
    let clock = Clock::manual(T0);
    let id = {
        let m = start(backend.open().await, clock.clone(), EngineConfig::default()).await;
        let view = timed_game(&m, &a, &b, "2 days").await;
        assert_eq!(view.time_control, TimeControl::Days(2));
        assert!(view.clock.is_none(), "no clocks");
        let started = clock.now();
        assert_eq!(view.timeout_at, Some(started + 2 * DAY));
        // White moves after a day and a half: Black has 2 days from then; Black moves an
        // hour later: White has 2 days from then.
        clock.advance(DAY + DAY / 2);
        let moved = game(play(&m, &a, &view.id, 7).await);
        assert_eq!(moved.timeout_at, Some(clock.now() + 2 * DAY));
        clock.advance(3600);
        let moved = game(play(&m, &b, &view.id, 9).await);
        assert_eq!(moved.timeout_at, Some(clock.now() + 2 * DAY));
        clock.advance(20 * 3600);
        let caption = present::caption(&show(&m, &b, &view.id).await, Lang::En);
        assert!(
            caption.contains("2 days per move: 1 day 4 h left (until "),
            "{caption}"
        );
        // A second before the 2 days end, the game goes on; a second later it ends (a day
        // before the 72 hours of plain correspondence would).
        clock.advance(2 * DAY - 20 * 3600 - 1);
        assert_eq!(m.sweep().await, 0);
        assert!(!show(&m, &b, &view.id).await.is_over());
        view.id
    };

    let m = start(backend.open().await, clock.clone(), EngineConfig::default()).await;
    clock.advance(1);
    assert_eq!(m.sweep().await, 1);
    let ended = show(&m, &a, &id).await;
    assert_eq!(
        ended.status,
        GameStatus::Finished {
            winner: Some(Side::Black),
            reason: FinishReason::TimedOut(Side::White)
        }
    );
    let caption = present::caption(&ended, Lang::En);
    assert!(caption.contains("did not move in time"), "{caption}");
    let record = m.record(&id).await.unwrap().text;
    assert!(record.contains("[TimeControl \"1/172800\"]"), "{record}");
    assert!(
        record.contains("[Termination \"time forfeit\"]"),
        "{record}"
    );
    let stats = m.stats(&a).await.unwrap().expect("stats");
    let categories: Vec<Category> = stats.categories.iter().map(|c| c.category).collect();
    assert_eq!(categories, [Category::Correspondence]);
}

on_both_backends! {
    single: [
        the_challenger_picks_the_time_control_until_it_is_accepted,
        an_expired_challenge_keeps_its_time_control,
        a_game_with_days_per_move_is_lost_when_a_moves_days_run_out,
    ],
    multi: [],
}
