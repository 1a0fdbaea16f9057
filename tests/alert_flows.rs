//! Private alerts of correspondence games through the manager (issue 51), on a manual
//! clock and both backends: a move in a 2-day game tells the other player, the one-minute
//! grace, one message per 10 minutes naming every game, the warning at 80% of a move's
//! time, quiet hours, the digest, an unreachable player, a restart in between, and two
//! processes on one PostgreSQL database sending each alert exactly once (a dead one's
//! claim taken over after the lease).

use std::collections::HashMap;
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::{
    Action, ActionError, Alert, AlertKind, AlertOutcome, Clock, GameView, Manager, ManagerConfig,
    Reply,
};
use toguz::model::notify::{parse_notify, NotifyMode};
use toguz::model::{Platform, TimeControl, UserRef};
use toguz::on_both_backends;
use toguz::rules::Side;
use toguz::store::{Store, Tree};
use toguz::testing::manager::{act, challenge_id, game, rated_challenge, user, Backend, T0};
use tokio::sync::mpsc::Receiver;

const DAY: u64 = 86_400;
/// T0 is 08:00 UTC.
const HOUR: u64 = 3600;

/// A manager on `clock`; the tests play many games between the same players quickly.
async fn start(store: Store, clock: &Clock) -> Manager {
    let mut config = ManagerConfig::default();
    config.limits.rated_games_per_pair_per_day = 1_000;
    config.limits.commands_per_minute = 10_000;
    Manager::start_with_clock(
        store,
        EnginePool::new(EngineConfig::default()),
        config,
        clock.clone(),
    )
    .await
    .unwrap()
}

/// A challenges B at `time`, B accepts; the game with A as White (A moves first).
async fn new_game(m: &Manager, a: &UserRef, b: &UserRef, time: &str) -> GameView {
    loop {
        let challenge = rated_challenge(b, Some(TimeControl::parse(time).unwrap()));
        let id = challenge_id(act(m, a, challenge).await);
        let view = game(act(m, b, Action::AcceptChallenge { challenge: id }).await);
        if view.side_of(a) == Some(Side::White) {
            return view;
        }
        game(act(m, a, Action::Abort { game: view.id }).await);
    }
}

/// `who` plays the first legal pit of theirs in game `id`.
async fn play(m: &Manager, who: &UserRef, id: &str) -> GameView {
    for pit in 1..=9 {
        let action = Action::Move {
            game: id.to_string(),
            ply: None,
            pit,
        };
        match act(m, who, action).await {
            Ok(Reply::Game(view)) => return view,
            Err(ActionError::Illegal(_)) => continue,
            other => panic!("move refused: {other:?}"),
        }
    }
    panic!("no legal move")
}

/// What one tick hands to the queue (the background task may have ticked first: a tick
/// waits for one running, so what is due has been handed when it returns).
async fn tick(m: &Manager, rx: &mut Receiver<Alert>) -> Vec<Alert> {
    m.alert_tick().await;
    let mut out = Vec::new();
    while let Ok(alert) = rx.try_recv() {
        out.push(alert);
    }
    out
}

/// The one alert a tick hands over, acknowledged as sent.
async fn told(m: &Manager, rx: &mut Receiver<Alert>) -> Alert {
    let mut alerts = tick(m, rx).await;
    assert_eq!(alerts.len(), 1, "one alert: {alerts:?}");
    let alert = alerts.remove(0);
    m.alert_done(&alert.id, AlertOutcome::Sent).await;
    alert
}

async fn nothing(m: &Manager, rx: &mut Receiver<Alert>) {
    let alerts = tick(m, rx).await;
    assert!(alerts.is_empty(), "nothing due: {alerts:?}");
}

/// A move in a 2-day game brings the other player a private "your move" naming the game,
/// its opponent and the time left; sent once. A timed game schedules nothing.
async fn a_move_in_a_two_day_game_tells_the_other_player(backend: Backend) {
    let (a, b) = (user("a"), user("b"));
    let clock = Clock::manual(T0);
    let m = start(backend.open().await, &clock).await;
    let mut rx = m.serve_alerts(Platform::Telegram);
    let view = new_game(&m, &a, &b, "2 days").await;
    nothing(&m, &mut rx).await;
    clock.advance(HOUR);
    play(&m, &a, &view.id).await;
    let alert = told(&m, &mut rx).await;
    assert_eq!(
        (alert.user.clone(), alert.kind),
        (b.clone(), AlertKind::YourMove)
    );
    assert_eq!(alert.games.len(), 1);
    let line = &alert.games[0];
    assert_eq!(
        (line.game.as_str(), line.opponent.as_str()),
        (view.id.as_str(), "User a")
    );
    assert_eq!(line.time_control, TimeControl::Days(2));
    assert_eq!(line.left_ms, 2 * DAY * 1000);
    assert_eq!(line.chat, view.chat);
    nothing(&m, &mut rx).await;
    // Left: B's warning, which B's move deletes with the move (A's two come instead).
    assert_eq!(m.store().count(Tree::Alerts).await.unwrap(), 1);
    clock.advance(HOUR);
    play(&m, &b, &view.id).await;
    assert_eq!(m.store().count(Tree::Alerts).await.unwrap(), 2);
    let alert = told(&m, &mut rx).await;
    assert_eq!((alert.user, alert.kind), (a.clone(), AlertKind::YourMove));
    // The end deletes the game's rows in its own write.
    game(
        act(
            &m,
            &a,
            Action::Resign {
                game: Some(view.id.clone()),
                ply: None,
            },
        )
        .await,
    );
    assert_eq!(m.store().count(Tree::Alerts).await.unwrap(), 0);

    let timed = new_game(&m, &a, &b, "5+0").await;
    play(&m, &a, &timed.id).await;
    assert_eq!(m.store().count(Tree::Alerts).await.unwrap(), 0);
    nothing(&m, &mut rx).await;
}

/// A player who moved less than a minute ago is taken to be looking: told only if they do
/// not answer within that minute.
async fn a_player_looking_at_the_game_is_told_only_after_a_minute(backend: Backend) {
    let (a, b) = (user("a"), user("b"));
    let clock = Clock::manual(T0);
    let m = start(backend.open().await, &clock).await;
    let mut rx = m.serve_alerts(Platform::Telegram);
    let view = new_game(&m, &a, &b, "1 day").await;
    play(&m, &a, &view.id).await; // B is to be told at once (no tick yet).
    clock.advance(10);
    play(&m, &b, &view.id).await; // A moved 10 s ago: A is told at +60 s at the earliest.
    nothing(&m, &mut rx).await;
    clock.advance(20);
    play(&m, &a, &view.id).await; // A answered within the minute: A is never told.
    clock.advance(20);
    nothing(&m, &mut rx).await; // B moved 40 s ago.
    clock.advance(20);
    let alert = told(&m, &mut rx).await; // B's minute is over: B did not answer.
    assert_eq!((alert.user, alert.kind), (b.clone(), AlertKind::YourMove));
    clock.advance(3600);
    nothing(&m, &mut rx).await;
}

/// At most one message per player per 10 minutes, naming every game where it is their
/// move, least time left first; a game's alert made before the last message is dropped.
async fn one_message_in_ten_minutes_names_every_game(backend: Backend) {
    let (a, b, c) = (user("a"), user("b"), user("c"));
    let clock = Clock::manual(T0);
    let m = start(backend.open().await, &clock).await;
    let mut rx = m.serve_alerts(Platform::Telegram);
    let one = new_game(&m, &a, &b, "1 day").await;
    let two = new_game(&m, &c, &b, "3 days").await;
    let three = new_game(&m, &a, &b, "2 days").await;
    // Two moves at once: one message names both.
    play(&m, &a, &one.id).await;
    play(&m, &c, &two.id).await;
    let alert = told(&m, &mut rx).await;
    let games: Vec<_> = alert.games.iter().map(|g| g.game.clone()).collect();
    assert_eq!(
        games,
        vec![one.id.clone(), two.id.clone()],
        "least time left first"
    );
    // Two minutes later another move: told 10 minutes after the last message, with all three.
    clock.advance(120);
    play(&m, &a, &three.id).await;
    nothing(&m, &mut rx).await;
    clock.advance(479);
    nothing(&m, &mut rx).await;
    clock.advance(1);
    let alert = told(&m, &mut rx).await;
    let games: Vec<_> = alert.games.iter().map(|g| g.game.clone()).collect();
    assert_eq!(
        games,
        vec![one.id.clone(), three.id.clone(), two.id.clone()]
    );
    assert!(alert.games.windows(2).all(|w| w[0].left_ms <= w[1].left_ms));
    clock.advance(DAY / 2);
    // The games' warnings are all that is left to come.
    let rows = m.store().count(Tree::Alerts).await.unwrap();
    assert_eq!(rows, 3);
    nothing(&m, &mut rx).await;
}

/// At 80% of a move's time the player to move is warned, once; their move deletes it.
async fn the_warning_comes_at_eighty_percent_once(backend: Backend) {
    let (a, b) = (user("a"), user("b"));
    let clock = Clock::manual(T0);
    let m = start(backend.open().await, &clock).await;
    let mut rx = m.serve_alerts(Platform::Telegram);
    let view = new_game(&m, &a, &b, "1 day").await;
    play(&m, &a, &view.id).await;
    told(&m, &mut rx).await;
    clock.advance(DAY * 8 / 10 - 1);
    nothing(&m, &mut rx).await;
    clock.advance(1);
    let alert = told(&m, &mut rx).await;
    assert_eq!(
        (alert.user.clone(), alert.kind),
        (b.clone(), AlertKind::Warning)
    );
    assert_eq!(alert.games.len(), 1);
    assert_eq!(alert.games[0].left_ms, DAY * 2 / 10 * 1000);
    clock.advance(HOUR);
    nothing(&m, &mut rx).await;
    play(&m, &b, &view.id).await;
    let alert = told(&m, &mut rx).await;
    assert_eq!((alert.user, alert.kind), (a.clone(), AlertKind::YourMove));
    game(
        act(
            &m,
            &a,
            Action::Resign {
                game: Some(view.id.clone()),
                ply: None,
            },
        )
        .await,
    );
    // Plain correspondence: 80% of `move_timeout_hours` (72 h by default).
    let plain = new_game(&m, &a, &b, "correspondence").await;
    play(&m, &a, &plain.id).await;
    clock.advance(11 * 60);
    assert_eq!(told(&m, &mut rx).await.kind, AlertKind::YourMove);
    clock.advance(72 * HOUR * 8 / 10 - 11 * 60);
    let alert = told(&m, &mut rx).await;
    assert_eq!(
        (alert.kind, alert.games[0].game.clone()),
        (AlertKind::Warning, plain.id)
    );
}

/// A message due in the player's quiet hours waits for their end; `/notify off` sends
/// nothing.
async fn quiet_hours_defer_and_off_silences(backend: Backend) {
    let (a, b) = (user("a"), user("b"));
    let clock = Clock::manual(T0);
    let m = start(backend.open().await, &clock).await;
    let mut rx = m.serve_alerts(Platform::Telegram);
    // T0 is 08:00 UTC: 13:00 at +05, in 12-14 at +05.
    let change = parse_notify("quiet 12-14 +05").unwrap();
    let settings = m.set_notify(&b, change).await.unwrap();
    assert_eq!(m.notify_settings(&b).await.unwrap(), settings);
    let view = new_game(&m, &a, &b, "2 days").await;
    play(&m, &a, &view.id).await;
    nothing(&m, &mut rx).await;
    clock.advance(HOUR - 1);
    nothing(&m, &mut rx).await;
    clock.advance(1);
    let alert = told(&m, &mut rx).await;
    assert_eq!((alert.user, alert.kind), (b.clone(), AlertKind::YourMove));

    m.set_notify(&a, parse_notify("off").unwrap())
        .await
        .unwrap();
    play(&m, &b, &view.id).await;
    clock.advance(DAY * 2 - 60);
    nothing(&m, &mut rx).await;
    assert_eq!(m.store().count(Tree::Alerts).await.unwrap(), 0, "dropped");
}

/// A digest at the player's hour lists their games where it is their move, every day;
/// no "your move" comes meanwhile.
async fn the_digest_comes_at_its_hour_every_day(backend: Backend) {
    let (a, b) = (user("a"), user("b"));
    let clock = Clock::manual(T0);
    let m = start(backend.open().await, &clock).await;
    let mut rx = m.serve_alerts(Platform::Telegram);
    let settings = m
        .set_notify(&b, parse_notify("digest 10 +00").unwrap())
        .await
        .unwrap();
    assert_eq!(settings.mode, NotifyMode::Digest { hour: 10 });
    let view = new_game(&m, &a, &b, "3 days").await;
    play(&m, &a, &view.id).await;
    nothing(&m, &mut rx).await;
    clock.advance(2 * HOUR - 1);
    nothing(&m, &mut rx).await;
    clock.advance(1);
    let alert = told(&m, &mut rx).await;
    assert_eq!(
        (alert.user.clone(), alert.kind),
        (b.clone(), AlertKind::Digest)
    );
    assert_eq!(alert.games[0].game, view.id);
    clock.advance(DAY);
    let alert = told(&m, &mut rx).await;
    assert_eq!(alert.kind, AlertKind::Digest);
    // Back to each move: the digest stops.
    m.set_notify(&b, parse_notify("on").unwrap()).await.unwrap();
    clock.advance(DAY);
    let alerts = tick(&m, &mut rx).await;
    assert!(
        alerts.iter().all(|a| a.kind != AlertKind::Digest),
        "{alerts:?}"
    );
}

/// A player who cannot be written to gets nothing until they write to the bot again.
async fn an_unreachable_player_is_left_alone_until_they_write(backend: Backend) {
    let (a, b) = (user("a"), user("b"));
    let clock = Clock::manual(T0);
    let m = start(backend.open().await, &clock).await;
    let mut rx = m.serve_alerts(Platform::Telegram);
    let view = new_game(&m, &a, &b, "2 days").await;
    let other = new_game(&m, &a, &b, "2 days").await;
    play(&m, &a, &view.id).await;
    let mut alerts = tick(&m, &mut rx).await;
    assert_eq!(alerts.len(), 1);
    m.alert_done(&alerts.remove(0).id, AlertOutcome::Unreachable)
        .await;
    clock.advance(HOUR);
    play(&m, &a, &other.id).await;
    nothing(&m, &mut rx).await;
    m.reachable_again(&b).await;
    play(&m, &b, &view.id).await;
    told(&m, &mut rx).await; // A
    play(&m, &a, &view.id).await;
    clock.advance(HOUR);
    let alert = told(&m, &mut rx).await;
    assert_eq!(alert.user, b);
    // Later: the claim is released and the alert comes again after a pause.
    play(&m, &b, &view.id).await;
    clock.advance(HOUR);
    let mut alerts = tick(&m, &mut rx).await;
    assert_eq!(alerts.len(), 1);
    m.alert_done(&alerts.remove(0).id, AlertOutcome::Later)
        .await;
    nothing(&m, &mut rx).await;
    clock.advance(60);
    assert_eq!(told(&m, &mut rx).await.user, a);
}

/// A scheduled alert survives a restart.
async fn an_alert_survives_a_restart(backend: Backend) {
    let (a, b) = (user("a"), user("b"));
    let clock = Clock::manual(T0);
    let id = {
        let m = start(backend.open().await, &clock).await;
        let view = new_game(&m, &a, &b, "2 days").await;
        play(&m, &a, &view.id).await;
        m.flush().unwrap();
        view.id
    };
    let m = start(backend.open().await, &clock).await;
    let mut rx = m.serve_alerts(Platform::Telegram);
    let alert = told(&m, &mut rx).await;
    assert_eq!((alert.user, alert.games[0].game.clone()), (b, id));
}

/// `/games` lists the games where it is the player's move first, least time left first,
/// then the others.
async fn games_list_their_move_first_least_time_left(backend: Backend) {
    let (a, b) = (user("a"), user("b"));
    let clock = Clock::manual(T0);
    let m = start(backend.open().await, &clock).await;
    let waiting = new_game(&m, &a, &b, "1 day").await; // A to move.
    let long = new_game(&m, &a, &b, "3 days").await;
    let short = new_game(&m, &b, &a, "1 day").await; // B is White: B to move.
    clock.advance(HOUR);
    play(&m, &a, &long.id).await;
    clock.advance(HOUR);
    let listed = m.ongoing_games(&b).await.unwrap();
    let ids: Vec<_> = listed.iter().map(|v| v.id.clone()).collect();
    assert_eq!(
        ids,
        vec![short.id.clone(), long.id.clone(), waiting.id.clone()]
    );
    assert_eq!(listed[0].left_ms(), Some((DAY - 2 * HOUR) * 1000));
    assert_eq!(listed[1].left_ms(), Some((3 * DAY - HOUR) * 1000));
    assert!(listed[0].is_turn_of(&b) && !listed[2].is_turn_of(&b));
    let ids: Vec<_> = m
        .ongoing_games(&a)
        .await
        .unwrap()
        .into_iter()
        .map(|v| v.id)
        .collect();
    assert_eq!(ids, vec![waiting.id, long.id, short.id]);
}

on_both_backends!(
    single: [
        a_move_in_a_two_day_game_tells_the_other_player,
        a_player_looking_at_the_game_is_told_only_after_a_minute,
        one_message_in_ten_minutes_names_every_game,
        the_warning_comes_at_eighty_percent_once,
        quiet_hours_defer_and_off_silences,
        the_digest_comes_at_its_hour_every_day,
        an_unreachable_player_is_left_alone_until_they_write,
        an_alert_survives_a_restart,
        games_list_their_move_first_least_time_left,
    ],
    multi: [],
);

/// Two processes on one PostgreSQL database, both serving Telegram: every alert reaches
/// exactly one of them, and a claim held by a process that died is sent by the other once
/// its lease has run out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_send_each_alert_once_and_take_over_a_dead_ones_claim() {
    let Some(backend) = Backend::postgres().await else {
        return;
    };
    let clock = Clock::manual(T0);
    let one = start(backend.open().await, &clock).await;
    let players: Vec<(UserRef, UserRef)> = (0..12)
        .map(|i| (user(&format!("w{i}")), user(&format!("b{i}"))))
        .collect();
    let mut games = Vec::new();
    for (w, b) in &players {
        games.push(new_game(&one, w, b, "2 days").await.id);
    }
    let two = start(backend.open().await, &clock).await;
    let mut rx_one = one.serve_alerts(Platform::Telegram);
    let mut rx_two = two.serve_alerts(Platform::Telegram);
    for ((w, _), id) in players.iter().zip(&games) {
        play(&one, w, id).await;
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    for _ in 0..3 {
        let (_, _) = tokio::join!(one.alert_tick(), two.alert_tick());
        for (m, rx) in [(&one, &mut rx_one), (&two, &mut rx_two)] {
            while let Ok(alert) = rx.try_recv() {
                *seen.entry(alert.user.key()).or_default() += 1;
                m.alert_done(&alert.id, AlertOutcome::Sent).await;
            }
        }
    }
    assert_eq!(seen.len(), players.len(), "{seen:?}");
    assert!(seen.values().all(|n| *n == 1), "each once: {seen:?}");

    // One process claims an alert and dies before it is done.
    drop(rx_two);
    let (w, b) = &players[0];
    play(&one, b, &games[0]).await;
    clock.advance(HOUR);
    let held = tick(&one, &mut rx_one).await;
    assert_eq!(held.len(), 1);
    assert_eq!(held[0].user, *w);
    drop(rx_one);
    drop(one);
    let three = start(backend.open().await, &clock).await;
    let mut rx_three = three.serve_alerts(Platform::Telegram);
    nothing(&three, &mut rx_three).await;
    clock.advance(21);
    let alert = told(&three, &mut rx_three).await;
    assert_eq!(alert.user, *w);
    assert_eq!(alert.games[0].game, games[0]);
    nothing(&three, &mut rx_three).await;
}
