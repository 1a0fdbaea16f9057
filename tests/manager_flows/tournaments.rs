//! Tournaments through the manager (issue 33): a Swiss event runs its rounds to the end
//! across a restart, two managers on one store pair each round once, and an arena pairs
//! players again as their games end and stops pairing at its end. On both backends.

use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::tournament::{
    BoardResult, Format, NewTournament, Status, TournamentError, TournamentNews, TournamentRecord,
};
use toguz::manager::{
    Action, ActionError, Clock, Event, FinishReason, GameStatus, LimitKind, Manager, ManagerConfig,
    MessageRef, Player, Target,
};
use toguz::model::{Level, Platform, TimeControl, UserRef};
use toguz::rules::{Side, Variant};
use toguz::store::{Store, Tree};
use toguz::testing::manager::{act, chat, game, user, Backend, T0};
use tokio::sync::broadcast::error::TryRecvError;
use tokio::sync::broadcast::Receiver;

async fn start(store: Store, clock: &Clock) -> Manager {
    start_with(store, clock, ManagerConfig::default()).await
}

async fn start_with(store: Store, clock: &Clock, config: ManagerConfig) -> Manager {
    let engine = EnginePool::new(EngineConfig::default());
    Manager::start_with_clock(store, engine, config, clock.clone())
        .await
        .unwrap()
}

/// The event once round `round` is paired and its games are made. The manager's own ticker
/// (every 2 s) may be doing that very work when the test's tick runs, and then the test's
/// tick finds nothing to do: it ticks again until the round stands, 5 s at the most.
async fn started_round(m: &Manager, id: &str, round: usize) -> TournamentRecord {
    for _ in 0..250 {
        let t = m.tournament(id).await.unwrap();
        let paired = t.rounds.get(round - 1);
        if paired.is_some_and(|r| r.boards.iter().all(|b| b.started)) {
            return t;
        }
        m.tick_tournaments().await;
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    m.tournament(id).await.unwrap()
}

/// The arena once its first wave is paired and its games are made (as `started_round`:
/// the manager's own ticker may be doing that very work when the test's tick runs).
async fn started_wave(m: &Manager, id: &str) -> TournamentRecord {
    for _ in 0..250 {
        let t = m.tournament(id).await.unwrap();
        if !t.arena.is_empty() && t.arena.iter().all(|b| b.started) {
            return t;
        }
        m.tick_tournaments().await;
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    m.tournament(id).await.unwrap()
}

/// A 30-minute 3+2 arena starting a minute after `T0`.
fn blitz_arena() -> NewTournament {
    NewTournament {
        format: Format::Arena { minutes: 30 },
        time: TimeControl::fischer(3, 2),
        ..swiss(1)
    }
}

fn swiss(rounds: u8) -> NewTournament {
    NewTournament {
        format: Format::Swiss { rounds },
        time: TimeControl::Correspondence,
        variant: Variant::STANDARD,
        rated: true,
        starts_at: T0 + 60,
    }
}

/// An event `new` in the test chat, created by the first of `n` people named `<prefix>1`,
/// `<prefix>2`, ..., all of whom have joined it; the event as it then is, and the people.
async fn event_of(
    m: &Manager,
    new: NewTournament,
    prefix: &str,
    n: u32,
) -> (TournamentRecord, Vec<UserRef>) {
    let people: Vec<UserRef> = (1..=n).map(|i| user(&format!("{prefix}{i}"))).collect();
    let t = m.create_tournament(chat(), &people[0], new).await.unwrap();
    for p in &people {
        m.join_tournament(&t.id, p).await.unwrap();
    }
    let t = m.tournament(&t.id).await.unwrap();
    (t, people)
}

/// The human playing pairing number `n`.
fn player(t: &TournamentRecord, n: u32) -> UserRef {
    match &t.entrants[n as usize - 1].player {
        Player::Human(u) => u.clone(),
        Player::Bot(level) => panic!("a bot ({level}) where a person was expected"),
    }
}

/// Every board of the current round or arena wave that is still being played ends: one
/// move each, then Black resigns (White wins).
async fn play_open_boards(m: &Manager, t: &TournamentRecord) -> usize {
    let boards = t.rounds.iter().flat_map(|r| &r.boards).chain(&t.arena);
    let mut played = 0;
    for b in boards.filter(|b| b.result.is_none()) {
        let game = b.game.clone().expect("a game id");
        let (white, black) = (player(t, b.white), player(t, b.black));
        for who in [&white, &black] {
            let action = Action::Move {
                game: game.clone(),
                ply: None,
                pit: 1,
            };
            act(m, who, action).await.expect("a move");
        }
        let resign = Action::Resign {
            game: Some(game.clone()),
            ply: None,
        };
        act(m, &black, resign).await.expect("resigned");
        played += 1;
    }
    played
}

async fn swiss_event_runs_to_the_end_across_a_restart(backend: Backend) {
    let clock = Clock::manual(T0);
    let m = start(backend.open().await, &clock).await;
    // Its chat is listed on the web's front page.
    m.set_chat_public(&chat(), &user("admin"), true)
        .await
        .unwrap();
    let (t, people) = event_of(&m, swiss(3), "p", 5).await;
    let twice = m.join_tournament(&t.id, &people[1]).await;
    assert!(matches!(
        twice,
        Err(ActionError::Tournament(TournamentError::AlreadyIn))
    ));
    let stranger = user("stranger");
    let refused = m.cancel_tournament(&t.id, &stranger, false).await;
    assert!(matches!(
        refused,
        Err(ActionError::Tournament(TournamentError::NotAllowed))
    ));
    // Not before its start time.
    m.tick_tournaments().await;
    assert_eq!(m.tournament(&t.id).await.unwrap().status, Status::Open);
    clock.advance(61);
    m.tick_tournaments().await;
    m.tick_tournaments().await;
    let mut m = m;
    for round in 1..=3usize {
        let t = started_round(&m, &t.id, round).await;
        assert_eq!(t.rounds.len(), round, "round {round} paired");
        let paired = &t.rounds[round - 1];
        assert_eq!(paired.boards.len(), 2);
        assert!(paired.bye.is_some());
        assert!(paired.boards.iter().all(|b| b.started), "{paired:?}");
        assert_eq!(play_open_boards(&m, &t).await, 2);
        if round == 2 {
            // A restart between the games' ends and the next pairing loses nothing.
            drop(m);
            m = start(backend.open().await, &clock).await;
        }
        m.tick_tournaments().await;
        m.tick_tournaments().await;
    }
    let done = m.tournament(&t.id).await.unwrap();
    assert_eq!(done.status, Status::Finished);
    let results: Vec<Option<BoardResult>> = done
        .rounds
        .iter()
        .flat_map(|r| r.boards.iter().map(|b| b.result))
        .collect();
    assert_eq!(results, vec![Some(BoardResult::WhiteWins); 6]);
    let table = done.swiss_standings();
    assert_eq!(table.len(), 5);
    let total: u32 = table.iter().map(|s| s.score).sum();
    assert_eq!(total, 6 * 10 + 3 * 10, "six games and three byes");
    let late = m.join_tournament(&t.id, &user("late")).await;
    assert!(matches!(
        late,
        Err(ActionError::Tournament(TournamentError::Closed))
    ));
    // Finished: in the archive, no longer among the live ones.
    let live = m.store().get::<TournamentRecord>(Tree::Tournaments, &t.id);
    assert!(live.await.unwrap().is_none());
    // Among the listed chat's tournaments that ended, on the front page, and so after a
    // restart (written with the end).
    for again in [false, true] {
        if again {
            drop(m);
            m = start(backend.open().await, &clock).await;
        }
        let (running, ended) = m.public_tournaments(10).await.unwrap();
        assert!(running.is_empty());
        let ids: Vec<_> = ended.iter().map(|l| l.record.id.clone()).collect();
        assert_eq!(ids, vec![t.id.clone()], "after a restart: {again}");
        assert_eq!(ended[0].key, m.tournament_page_key(&t.id).await.unwrap());
    }
}

async fn two_managers_pair_each_round_once(backend: Backend) {
    let clock = Clock::manual(T0);
    let first = start(backend.open().await, &clock).await;
    let second = match &backend {
        Backend::Postgres(_) => start(backend.open().await, &clock).await,
        Backend::Sled(_) => start(first.store().clone(), &clock).await,
    };
    let people: Vec<UserRef> = (1..=6).map(|i| user(&format!("q{i}"))).collect();
    let t = first
        .create_tournament(chat(), &people[0], swiss(2))
        .await
        .unwrap();
    for p in &people {
        second.join_tournament(&t.id, p).await.unwrap();
    }
    clock.advance(61);
    for _ in 0..3 {
        tokio::join!(first.tick_tournaments(), second.tick_tournaments());
    }
    let t = first.tournament(&t.id).await.unwrap();
    assert_eq!(t.rounds.len(), 1, "one round, paired once");
    assert_eq!(t.rounds[0].boards.len(), 3);
    let store = first.store();
    for b in &t.rounds[0].boards {
        let id = b.game.as_ref().expect("a game id");
        assert!(
            store.contains(Tree::Games, id).await.unwrap(),
            "game {id} made"
        );
    }
    let games = store.revisions(Tree::Games).await.unwrap();
    assert_eq!(games.len(), 3, "{games:?}");
}

async fn an_arena_pairs_again_as_games_end_and_stops_at_its_end(backend: Backend) {
    let clock = Clock::manual(T0);
    let m = start(backend.open().await, &clock).await;
    let new = NewTournament {
        format: Format::Arena { minutes: 10 },
        ..swiss(1)
    };
    let (t, _) = event_of(&m, new, "r", 3).await;
    clock.advance(61);
    m.tick_tournaments().await;
    m.tick_tournaments().await;
    let t1 = m.tournament(&t.id).await.unwrap();
    assert_eq!(t1.arena.len(), 1, "three players: one game, one waits");
    assert_eq!(play_open_boards(&m, &t1).await, 1);
    m.tick_tournaments().await;
    let t2 = m.tournament(&t.id).await.unwrap();
    assert_eq!(t2.arena.len(), 2, "paired again at once");
    let (first, second) = (&t2.arena[0], &t2.arena[1]);
    let same = |a: u32, b: u32| {
        (first.white, first.black) == (a, b) || (first.black, first.white) == (a, b)
    };
    assert!(
        !same(second.white, second.black),
        "never the last opponent again"
    );
    let winner = &t2.entrants[first.white as usize - 1];
    assert_eq!(winner.sheet.points, 2);
    // The end comes while a game runs: it counts, and no one is paired after it.
    clock.advance(10 * 60);
    m.tick_tournaments().await;
    let t3 = m.tournament(&t.id).await.unwrap();
    assert_eq!(t3.status, Status::Running, "a game still runs");
    assert_eq!(play_open_boards(&m, &t3).await, 1);
    m.tick_tournaments().await;
    let done = m.tournament(&t.id).await.unwrap();
    assert_eq!(done.status, Status::Finished);
    assert_eq!(done.arena.len(), 2);
    let points: u32 = done.entrants.iter().map(|e| e.sheet.points).sum();
    assert_eq!(points, 4, "two wins");
}

/// The tournament news waiting on `events`, in order.
fn drain_news(events: &mut Receiver<Event>) -> Vec<TournamentNews> {
    let mut news = Vec::new();
    loop {
        match events.try_recv() {
            Ok(Event::Tournament(n)) => news.push(n),
            Ok(_) => {}
            Err(TryRecvError::Lagged(_)) => {}
            Err(_) => return news,
        }
    }
}

/// The news of the ticks that make `done` true of it, 5 s at the most: the manager's own
/// ticker (every 2 s) may be part way through that very work when the test's tick runs, and
/// then it, not the test's tick, publishes the news a moment later.
async fn news_until(
    m: &Manager,
    events: &mut Receiver<Event>,
    done: impl Fn(&[TournamentNews]) -> bool,
) -> Vec<TournamentNews> {
    let mut news = Vec::new();
    for _ in 0..250 {
        m.tick_tournaments().await;
        news.extend(drain_news(events));
        if done(&news) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    news
}

/// What the adapters follow: every change that players see is news (entries, the start
/// with the games it made, results, the end once); attaching a message is not.
async fn every_change_players_see_is_news(backend: Backend) {
    let clock = Clock::manual(T0);
    let m = start(backend.open().await, &clock).await;
    let mut events = m.subscribe();
    let new = NewTournament {
        format: Format::Arena { minutes: 10 },
        ..swiss(1)
    };
    let (t, _) = event_of(&m, new, "n", 2).await;
    let news = drain_news(&mut events);
    assert_eq!(news.len(), 3, "created, two entries");
    assert_eq!(news[2].record.entrants.len(), 2);
    assert!(news.iter().all(|n| n.paired.is_empty() && !n.ended));
    let message = MessageRef {
        platform: Platform::Discord,
        id: "77:1001".into(),
    };
    m.attach_tournament_message(&t.id, message.clone(), false)
        .await
        .unwrap();
    assert!(drain_news(&mut events).is_empty(), "a message is no news");
    assert_eq!(m.tournament(&t.id).await.unwrap().messages, vec![message]);
    clock.advance(61);
    let news = news_until(&m, &mut events, |n| n.iter().any(|n| !n.paired.is_empty())).await;
    let paired: Vec<String> = news.iter().flat_map(|n| n.paired.clone()).collect();
    let started = m.tournament(&t.id).await.unwrap();
    assert_eq!(paired, vec![started.arena[0].game.clone().unwrap()]);
    assert_eq!(play_open_boards(&m, &started).await, 1);
    clock.advance(10 * 60);
    let news = news_until(&m, &mut events, |n| n.iter().any(|n| n.ended)).await;
    let ended: Vec<&TournamentNews> = news.iter().filter(|n| n.ended).collect();
    assert_eq!(ended.len(), 1, "{news:?}");
    assert_eq!(ended[0].record.status, Status::Finished);
    assert!(news.iter().any(|n| n.record.arena[0].result.is_some()));
}

/// A process that stops between creating an event's games and posting them leaves them to
/// the next start-up: the games know their round and board, and until a message shows them
/// they are news for the adapters of their platform (only theirs) once more.
async fn games_not_yet_posted_are_announced_after_a_restart(backend: Backend) {
    let clock = Clock::manual(T0);
    let m = start(backend.open().await, &clock).await;
    let (t, _) = event_of(&m, swiss(2), "u", 4).await;
    clock.advance(61);
    m.tick_tournaments().await;
    m.tick_tournaments().await;
    let t = m.tournament(&t.id).await.unwrap();
    let games: Vec<String> = t.rounds[0]
        .boards
        .iter()
        .filter_map(|b| b.game.clone())
        .collect();
    assert_eq!(games.len(), 2);
    for (n, game) in games.iter().enumerate() {
        let seat = m.game(game).await.unwrap().seat.expect("a tournament game");
        assert_eq!(
            (seat.tournament.as_str(), seat.round, seat.board),
            (t.id.as_str(), 1, n as u32 + 1)
        );
    }
    // The first board was posted before the stop, the second was not.
    let posted = MessageRef {
        platform: Platform::Telegram,
        id: "-100:5".into(),
    };
    m.attach_message(Target::Game(games[0].clone()), posted, None)
        .await
        .unwrap();
    drop(m);
    let m = start(backend.open().await, &clock).await;
    let news = m.unannounced_tournament_games(Platform::Telegram).await;
    assert_eq!(news.len(), 1, "{news:?}");
    assert_eq!(news[0].record.id, t.id);
    assert_eq!(news[0].paired, vec![games[1].clone()]);
    assert!(!news[0].ended);
    assert!(m
        .unannounced_tournament_games(Platform::Discord)
        .await
        .is_empty());
    // Posted now: no longer news.
    let posted = MessageRef {
        platform: Platform::Telegram,
        id: "-100:6".into(),
    };
    m.attach_message(Target::Game(games[1].clone()), posted, None)
        .await
        .unwrap();
    assert!(m
        .unannounced_tournament_games(Platform::Telegram)
        .await
        .is_empty());
}

/// Berserk in an arena: half the time before one's first move, not after it, not outside an
/// arena; a berserk win scores one point more.
async fn a_berserk_win_scores_three(backend: Backend) {
    let clock = Clock::manual(T0);
    let m = start(backend.open().await, &clock).await;
    let new = blitz_arena();
    // Three: the third meets the first game's winner in the next wave.
    let (t, _) = event_of(&m, new, "b", 3).await;
    clock.advance(61);
    let t = started_wave(&m, &t.id).await;
    let board = &t.arena[0];
    let id = board.game.clone().unwrap();
    let (white, black) = (player(&t, board.white), player(&t, board.black));
    let berserk = || Action::Berserk { game: id.clone() };
    let view = m.game(&id).await.unwrap();
    assert!(
        view.actions_for(Some(&white)).berserk,
        "offered before the first move"
    );
    act(&m, &white, berserk()).await.expect("berserk");
    let view = m.game(&id).await.unwrap();
    let clocks = view.clock.as_ref().expect("a timed game");
    assert_eq!(clocks.at_last_move_ms, [90_000, 180_000]);
    assert!(!view.actions_for(Some(&white)).berserk, "once");
    let mv = |pit| Action::Move {
        game: id.clone(),
        ply: None,
        pit,
    };
    act(&m, &white, mv(1)).await.unwrap();
    act(&m, &black, mv(1)).await.unwrap();
    let late = act(&m, &black, berserk()).await;
    assert!(
        matches!(late, Err(ActionError::TooLateToBerserk)),
        "{late:?}"
    );
    let resign = |id: &String| Action::Resign {
        game: Some(id.clone()),
        ply: None,
    };
    act(&m, &black, resign(&id)).await.unwrap();
    m.tick_tournaments().await;
    let t = m.tournament(&t.id).await.unwrap();
    assert_eq!(t.arena[0].berserk, [true, false]);
    let winner = &t.entrants[t.arena[0].white as usize - 1];
    // Issue 49, finding 18: one move of the berserker's is not the seven a berserk point
    // needs.
    assert_eq!(
        winner.sheet.points, 2,
        "a win, no berserk point after one move"
    );
    assert_eq!(winner.sheet.berserks, 0);
    // The next wave: a berserk win after seven moves of the berserker's scores one more.
    m.tick_tournaments().await;
    let t = m.tournament(&t.id).await.unwrap();
    let board = t.arena.get(1).expect("paired again");
    let id = board.game.clone().unwrap();
    let (white, black) = (player(&t, board.white), player(&t, board.black));
    act(&m, &white, Action::Berserk { game: id.clone() })
        .await
        .expect("berserk");
    for _ in 0..7 {
        for who in [&white, &black] {
            let view = m.game(&id).await.unwrap();
            let pit = view.position.legal_moves().iter().next().expect("a move");
            let mv = Action::Move {
                game: id.clone(),
                ply: None,
                pit,
            };
            act(&m, who, mv).await.unwrap();
        }
    }
    act(&m, &black, resign(&id)).await.unwrap();
    m.tick_tournaments().await;
    let t = m.tournament(&t.id).await.unwrap();
    let sheet = &t.entrants[t.arena[1].white as usize - 1].sheet;
    assert_eq!(
        sheet.marks.last(),
        Some(&3),
        "a win, and one for berserk: {sheet:?}"
    );
    // Not in a game outside an arena.
    let casual = game(
        act(
            &m,
            &white,
            Action::PlayBot {
                level: toguz::model::Level::Random,
                variant: Variant::STANDARD,
                colour: Some(toguz::rules::Side::White),
                time: Some(TimeControl::fischer(3, 2)),
            },
        )
        .await,
    );
    let refused = act(&m, &white, Action::Berserk { game: casual.id }).await;
    assert!(
        matches!(refused, Err(ActionError::NoBerserkHere)),
        "{refused:?}"
    );
}

/// Issue 49, finding 1: a round is made whole whatever the seat limits say. One entrant
/// holds their only seat with a game against the bot, and the chat has fewer seats than the
/// round has boards: every board is still made, started and announced; outside the event
/// the limits still hold.
async fn a_round_is_made_whole_whatever_the_seat_limits(backend: Backend) {
    let clock = Clock::manual(T0);
    let mut config = ManagerConfig::default();
    config.limits.games_per_user = 1;
    config.limits.games_per_chat = 2;
    let m = start_with(backend.open().await, &clock, config).await;
    let (t, people) = event_of(&m, swiss(3), "w", 6).await;
    let against_the_bot = || Action::PlayBot {
        level: Level::Random,
        variant: Variant::STANDARD,
        colour: Some(Side::White),
        time: None,
    };
    game(act(&m, &people[1], against_the_bot()).await);
    clock.advance(61);
    let t = started_round(&m, &t.id, 1).await;
    let boards = &t.rounds.first().expect("round 1 paired").boards;
    assert_eq!(boards.len(), 3);
    assert!(boards.iter().all(|b| b.started), "{boards:?}");
    for b in boards {
        let view = m.game(b.game.as_ref().unwrap()).await.expect("its game");
        assert!(!view.is_over(), "{:?}", view.status);
    }
    let refused = act(&m, &people[1], against_the_bot()).await;
    assert!(
        matches!(refused, Err(ActionError::Limit(LimitKind::UserGames(1)))),
        "{refused:?}"
    );
}

/// Issue 49, finding 2: in a tournament game, a side that aborts or resigns before both
/// sides moved forfeits it alone (the opponent wins by forfeit, no rating changes); Abort is
/// not offered once the opponent has moved. Swiss boards score "+" and "-"; in an arena the
/// opponent scores a win and only the one who gave up is paused.
async fn giving_up_before_both_moved_loses_only_ones_own_game(backend: Backend) {
    let clock = Clock::manual(T0);
    let m = start(backend.open().await, &clock).await;
    let (t, _) = event_of(&m, swiss(3), "g", 4).await;
    clock.advance(61);
    let t = started_round(&m, &t.id, 1).await;
    let boards = &t.rounds[0].boards;
    let ids: Vec<String> = boards.iter().map(|b| b.game.clone().unwrap()).collect();
    // Board 1: White aborts before any move.
    let white = player(&t, boards[0].white);
    let view = m.game(&ids[0]).await.unwrap();
    assert!(view.actions_for(Some(&white)).abort, "before any move");
    act(
        &m,
        &white,
        Action::Abort {
            game: ids[0].clone(),
        },
    )
    .await
    .expect("aborted");
    let view = m.game(&ids[0]).await.unwrap();
    assert_eq!(
        view.status,
        GameStatus::Finished {
            winner: Some(Side::Black),
            reason: FinishReason::Forfeited(Side::White),
        }
    );
    assert_eq!(*view.ratings, [None, None], "no rating changes");
    // Board 2: White moves; Black may no longer abort, and resigns.
    let (white, black) = (player(&t, boards[1].white), player(&t, boards[1].black));
    let mv = Action::Move {
        game: ids[1].clone(),
        ply: None,
        pit: 1,
    };
    act(&m, &white, mv).await.unwrap();
    let view = m.game(&ids[1]).await.unwrap();
    assert!(
        !view.actions_for(Some(&black)).abort,
        "the opponent has moved"
    );
    assert!(
        view.actions_for(Some(&white)).abort,
        "White may still give up their own game: Black has not moved"
    );
    let late = act(
        &m,
        &black,
        Action::Abort {
            game: ids[1].clone(),
        },
    )
    .await;
    assert!(matches!(late, Err(ActionError::TooLateToAbort)), "{late:?}");
    let resign = Action::Resign {
        game: Some(ids[1].clone()),
        ply: None,
    };
    act(&m, &black, resign).await.unwrap();
    m.tick_tournaments().await;
    let t = m.tournament(&t.id).await.unwrap();
    let results: Vec<_> = t.rounds[0].boards.iter().map(|b| b.result).collect();
    assert_eq!(
        results,
        [
            Some(BoardResult::WhiteForfeits),
            Some(BoardResult::BlackForfeits)
        ]
    );
    let trf = t.to_trf();
    let code = |n: u32| trf.players[n as usize - 1].rounds[0].code;
    let b = &t.rounds[0].boards;
    assert_eq!(
        [
            code(b[0].white),
            code(b[0].black),
            code(b[1].white),
            code(b[1].black)
        ],
        ['-', '+', '+', '-']
    );

    // An arena: the opponent of the one who resigned scores a win; only the resigner is
    // paused.
    let new = blitz_arena();
    let (a, _) = event_of(&m, new, "h", 2).await;
    clock.advance(61);
    m.tick_tournaments().await;
    m.tick_tournaments().await;
    let a = m.tournament(&a.id).await.unwrap();
    let board = a.arena[0].clone();
    let id = board.game.clone().unwrap();
    let resign = Action::Resign {
        game: Some(id),
        ply: None,
    };
    act(&m, &player(&a, board.white), resign).await.unwrap();
    m.tick_tournaments().await;
    let a = m.tournament(&a.id).await.unwrap();
    assert_eq!(a.arena[0].result, Some(BoardResult::WhiteForfeits));
    let (w, b) = (
        &a.entrants[board.white as usize - 1],
        &a.entrants[board.black as usize - 1],
    );
    assert_eq!((w.sheet.points, b.sheet.points), (0, 2));
    assert_eq!(b.sheet.streak, 1, "the opponent's streak goes on");
    assert!(w.paused && !b.paused);
}

/// Issue 49, finding 6: live events are capped per chat and per creator across processes
/// (two managers on one store, creating at the same moment), a cancelled event gives its
/// places back, and `/tournament` and the front page read a chat's events from the index
/// by chat: an event the index does not hold is not read until a start-up indexes it.
async fn live_events_are_capped_and_read_by_chat(backend: Backend) {
    let clock = Clock::manual(T0);
    let mut config = ManagerConfig::default();
    config.limits.tournaments_per_user = 1;
    config.limits.tournaments_per_chat = 2;
    let first = start_with(backend.open().await, &clock, config.clone()).await;
    let second = match &backend {
        Backend::Postgres(_) => start_with(backend.open().await, &clock, config.clone()).await,
        Backend::Sled(_) => start_with(first.store().clone(), &clock, config.clone()).await,
    };
    let (ann, bob, cat) = (user("cap-a"), user("cap-b"), user("cap-c"));
    let (one, two) = tokio::join!(
        first.create_tournament(chat(), &ann, swiss(3)),
        second.create_tournament(chat(), &ann, swiss(3)),
    );
    let refused = |r: &Result<TournamentRecord, ActionError>, kind: LimitKind| matches!(r, Err(ActionError::Limit(k)) if *k == kind);
    let user_cap = LimitKind::UserTournaments(1);
    assert!(
        one.is_ok() != two.is_ok() && (refused(&one, user_cap) || refused(&two, user_cap)),
        "one of two at once: {one:?} {two:?}"
    );
    let anns = one.or(two).unwrap();
    clock.advance(1);
    let bobs = second
        .create_tournament(chat(), &bob, swiss(3))
        .await
        .unwrap();
    let full = first.create_tournament(chat(), &cat, swiss(3)).await;
    assert!(refused(&full, LimitKind::ChatTournaments(2)), "{full:?}");
    let elsewhere = toguz::model::ChatRef::new(Platform::Telegram, "-200");
    let cats = first
        .create_tournament(elsewhere.clone(), &cat, swiss(3))
        .await
        .unwrap();
    let ids =
        |list: Vec<TournamentRecord>| -> Vec<String> { list.into_iter().map(|t| t.id).collect() };
    assert_eq!(
        ids(second.chat_tournaments(&chat()).await.unwrap()),
        [bobs.id.clone(), anns.id.clone()],
        "this chat's two, the newest first"
    );
    assert_eq!(
        ids(first.chat_tournaments(&elsewhere).await.unwrap()),
        [cats.id.as_str()]
    );
    // A cancelled event gives its creator's and its chat's places back.
    second
        .cancel_tournament(&anns.id, &ann, false)
        .await
        .unwrap();
    clock.advance(1);
    let again = first
        .create_tournament(chat(), &ann, swiss(3))
        .await
        .unwrap();
    assert_eq!(
        ids(first.chat_tournaments(&chat()).await.unwrap()),
        [again.id.clone(), bobs.id.clone()]
    );
    // The front page lists a listed chat's live events from the same index.
    first
        .set_chat_public(&elsewhere, &user("admin"), true)
        .await
        .unwrap();
    let (live, _) = first.public_tournaments(10).await.unwrap();
    let live: Vec<String> = live.into_iter().map(|t| t.record.id).collect();
    assert_eq!(live, [cats.id.as_str()]);
    // An event written by a version without the index is not read by `/tournament`
    // until a start-up indexes it.
    let mut old = cats.clone();
    old.id = "old1".into();
    let mut batch = toguz::store::Batch::new();
    batch.put(Tree::Tournaments, &old.id, &old).unwrap();
    first.store().write(batch).await.unwrap();
    assert_eq!(
        ids(first.chat_tournaments(&elsewhere).await.unwrap()),
        [cats.id.as_str()]
    );
    let third = start_with(first.store().clone(), &clock, config).await;
    let indexed = ids(third.chat_tournaments(&elsewhere).await.unwrap());
    assert!(
        indexed.contains(&old.id) && indexed.contains(&cats.id),
        "{indexed:?}"
    );
}

/// A tournament game's first move waits for its board to reach both players (issue 49):
/// its time starts when the board is in the game's chat (both see it) or in each player's
/// private chat, never at its creation; a restart keeps the wait; a board that reaches
/// nobody holds the game ten minutes at most. Until then the game is owed to the adapters.
async fn a_first_move_waits_for_the_board_to_reach_both_players(backend: Backend) {
    let clock = Clock::manual(T0);
    let m = start(backend.open().await, &clock).await;
    let new = blitz_arena();
    let (t, _) = event_of(&m, new, "w", 2).await;
    clock.advance(61);
    let t = started_wave(&m, &t.id).await;
    let id = t.arena[0].game.clone().unwrap();
    let (white, black) = (player(&t, t.arena[0].white), player(&t, t.arena[0].black));
    assert_eq!(m.game(&id).await.unwrap().awaiting, [true, true]);
    // Five minutes with the boards on their way: nothing is due, across a restart too.
    clock.advance(5 * 60);
    drop(m);
    let m = start(backend.open().await, &clock).await;
    settle().await;
    let view = m.game(&id).await.unwrap();
    assert!(!view.is_over(), "{:?}", view.status);
    // White's private board: White has it, Black does not; still nothing runs.
    let private = MessageRef {
        platform: Platform::Telegram,
        id: format!("{}:7", white.id),
    };
    m.attach_message(Target::Game(id.clone()), private, Some(&white))
        .await
        .unwrap();
    assert_eq!(m.game(&id).await.unwrap().awaiting, [false, true]);
    let news = m.unannounced_tournament_games(Platform::Telegram).await;
    assert_eq!(news.len(), 1, "still owed to Black: {news:?}");
    clock.advance(4 * 60);
    settle().await;
    assert!(!m.game(&id).await.unwrap().is_over());
    // Black's board arrives: from now on White has the first move's 30 seconds.
    let theirs = MessageRef {
        platform: Platform::Telegram,
        id: format!("{}:8", black.id),
    };
    m.attach_message(Target::Game(id.clone()), theirs, Some(&black))
        .await
        .unwrap();
    assert_eq!(m.game(&id).await.unwrap().awaiting, [false, false]);
    assert!(m
        .unannounced_tournament_games(Platform::Telegram)
        .await
        .is_empty());
    clock.advance(29);
    settle().await;
    assert!(
        !m.game(&id).await.unwrap().is_over(),
        "29 s after the board"
    );
    clock.advance(2);
    let mut status = m.game(&id).await.unwrap().status;
    for _ in 0..100 {
        if status != toguz::manager::GameStatus::Ongoing {
            break;
        }
        settle().await;
        status = m.game(&id).await.unwrap().status;
    }
    assert!(
        matches!(
            status,
            toguz::manager::GameStatus::Finished {
                reason: toguz::manager::FinishReason::FirstMoveMissed(toguz::rules::Side::White),
                ..
            }
        ),
        "{status:?}"
    );

    // A board that reaches nobody: the first move's time starts ten minutes after the
    // game's creation all the same, so the event cannot hang on it.
    let (t2, _) = event_of(
        &m,
        NewTournament {
            starts_at: clock.now() + 60,
            ..blitz_arena()
        },
        "n",
        2,
    )
    .await;
    clock.advance(61);
    let t2 = started_wave(&m, &t2.id).await;
    let lost = t2.arena[0].game.clone().unwrap();
    clock.advance(10 * 60 + 29);
    settle().await;
    assert!(!m.game(&lost).await.unwrap().is_over());
    clock.advance(2);
    let mut over = false;
    for _ in 0..100 {
        over = m.game(&lost).await.unwrap().is_over();
        if over {
            break;
        }
        settle().await;
    }
    assert!(over, "ten minutes and the first move's time after creation");
}

/// Lets the manager's timers that a clock move woke do their work.
async fn settle() {
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
}

toguz::on_both_backends! {
    single: [
        a_first_move_waits_for_the_board_to_reach_both_players,
        swiss_event_runs_to_the_end_across_a_restart,
        an_arena_pairs_again_as_games_end_and_stops_at_its_end,
        every_change_players_see_is_news,
        a_berserk_win_scores_three,
        games_not_yet_posted_are_announced_after_a_restart,
        a_round_is_made_whole_whatever_the_seat_limits,
        giving_up_before_both_moved_loses_only_ones_own_game,
    ],
    multi: [
        two_managers_pair_each_round_once,
        live_events_are_capped_and_read_by_chat,
    ],
}
