//! The store under real load, through the manager: slow and failing disks, writes undone,
//! one copy of every game, finished games leaving memory, expiry, and the upgrade of a
//! layout-1 data directory.

use std::path::Path;
use std::time::{Duration, Instant};
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::buttons;
use toguz::manager::{
    Action, ActionError, ChallengeRecord, ChallengeStatus, Clock, FinishReason, GameRecord,
    GameStatus, GameView, Manager, ManagerConfig, Player, Reply,
};
use toguz::model::{Platform, UserRef};
use toguz::on_both_backends;
use toguz::rules::{Side, Variant};
use toguz::store::{FaultyFlusher, Store, StoreOptions, Tree};
use toguz::testing::manager::{
    act, challenge_id, chat, game, rated_challenge, reopen, user, Backend, T0,
};

const DAY: u64 = 24 * 3600;

async fn start(store: Store, now: u64) -> (Manager, Clock) {
    let clock = Clock::manual(now);
    let engine = EnginePool::new(EngineConfig::default());
    let m = Manager::start_with_clock(store, engine, ManagerConfig::default(), clock.clone())
        .await
        .unwrap();
    (m, clock)
}

/// A manager on a temporary store whose flushes can be slowed down or made to fail.
async fn faulty(timeout_ms: u64) -> (Manager, std::sync::Arc<FaultyFlusher>, Store) {
    let options = StoreOptions {
        commit_timeout: Duration::from_millis(timeout_ms),
        ..StoreOptions::default()
    };
    let (store, disk) = Store::faulty(None, &options).unwrap();
    let (m, _) = start(store.clone(), T0).await;
    (m, disk, store)
}

async fn challenge(m: &Manager, a: &UserRef, b: &UserRef) -> String {
    let action = rated_challenge(b, None);
    challenge_id(act(m, a, action).await)
}

async fn accept(m: &Manager, who: &UserRef, id: &str) -> Result<Reply, ActionError> {
    let challenge = id.to_string();
    act(m, who, Action::AcceptChallenge { challenge }).await
}

async fn start_game(m: &Manager, a: &UserRef, b: &UserRef) -> GameView {
    let id = challenge(m, a, b).await;
    game(accept(m, b, &id).await)
}

fn mover<'a>(v: &GameView, a: &'a UserRef, b: &'a UserRef) -> &'a UserRef {
    match v.to_move_player() {
        Some(Player::Human(u)) if u == a => a,
        _ => b,
    }
}

async fn play(m: &Manager, v: &GameView, who: &UserRef, pit: u8) -> Result<Reply, ActionError> {
    let action = Action::Move {
        game: v.id.clone(),
        ply: Some(v.ply),
        pit,
    };
    act(m, who, action).await
}

/// A game against the bot at `level` in which the person plays White (and so moves first).
fn play_white_against(level: toguz::model::Level) -> Action {
    Action::PlayBot {
        level,
        variant: Variant::STANDARD,
        colour: Some(Side::White),
        time: None,
    }
}

async fn show(m: &Manager, who: &UserRef, id: &str) -> Result<Reply, ActionError> {
    act(
        m,
        who,
        Action::Show {
            game: Some(id.to_string()),
        },
    )
    .await
}

/// Item 5: a refused action on a finished game (a stranger's Rematch, a move) must not leave
/// the game loaded.
async fn refused_actions_on_a_finished_game_leave_it_unloaded(backend: Backend) {
    let (m, _) = start(backend.open().await, T0).await;
    let (a, b, c) = (user("a"), user("b"), user("c"));
    let finished = start_game(&m, &a, &b).await;
    let live = start_game(&m, &a, &b).await;
    let resign = Action::Resign {
        game: Some(finished.id.clone()),
        ply: None,
    };
    game(act(&m, &a, resign).await);
    assert_eq!(m.loaded(), (1, 0), "only the live game is loaded");

    let stranger = act(
        &m,
        &c,
        Action::Rematch {
            game: finished.id.clone(),
        },
    )
    .await;
    assert!(
        matches!(stranger, Err(ActionError::NotYourGame)),
        "{stranger:?}"
    );
    assert_eq!(m.loaded(), (1, 0), "after a stranger's rematch");

    let moved = play(&m, &finished, mover(&finished, &a, &b), 1).await;
    assert!(matches!(moved, Err(ActionError::GameOver)), "{moved:?}");
    assert_eq!(m.loaded(), (1, 0), "after a move on the finished game");

    let early = act(&m, &a, Action::Rematch { game: live.id }).await;
    assert!(matches!(early, Err(ActionError::GameNotOver)), "{early:?}");
    assert_eq!(m.loaded(), (1, 0));
}

/// Item 3 and 9: a slow disk gets the action refused within the bound, the game unlocked and
/// the change undone in memory and in the store; another game is not held up beyond it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_disk_refuses_within_the_bound_and_undoes_the_change() {
    let (m, disk, store) = faulty(300).await;
    let (a, b, c, d) = (user("a"), user("b"), user("c"), user("d"));
    let v = start_game(&m, &a, &b).await;
    let other = start_game(&m, &c, &d).await;
    let before: GameRecord = store.get(Tree::Games, &v.id).await.unwrap().unwrap();

    disk.set_delay(Duration::from_millis(3000));
    let started = Instant::now();
    let (first, second) = tokio::join!(
        play(&m, &v, mover(&v, &a, &b), 9),
        play(&m, &other, mover(&other, &c, &d), 9),
    );
    let took = started.elapsed();
    assert!(matches!(first, Err(ActionError::StoreAway(_))), "{first:?}");
    assert!(
        matches!(second, Err(ActionError::StoreAway(_))),
        "{second:?}"
    );
    assert!(
        took < Duration::from_millis(1500),
        "both answered in {took:?}"
    );

    // The lock is free at once, and memory and store both still hold the game as it was.
    let started = Instant::now();
    let now = game(show(&m, &a, &v.id).await);
    assert!(started.elapsed() < Duration::from_millis(200));
    assert_eq!(now.ply, 0);
    let stored: GameRecord = store.get(Tree::Games, &v.id).await.unwrap().unwrap();
    assert_eq!(stored, before, "the store holds the game as it was");

    // Once the disk is fast again the same move is accepted.
    disk.set_delay(Duration::ZERO);
    tokio::time::sleep(Duration::from_millis(3200)).await;
    let after = game(play(&m, &v, mover(&v, &a, &b), 9).await);
    assert_eq!(after.ply, 1);
    let stored: GameRecord = store.get(Tree::Games, &v.id).await.unwrap().unwrap();
    assert_eq!(stored.moves, vec![9]);
}

/// Item 7 on a slow disk: a bot move whose write timed out (and was undone) is tried again
/// within seconds, not left to the next sweep (30 s away here), and is played once the disk
/// is quick again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_move_whose_write_timed_out_is_tried_again_soon() {
    let (m, disk, _store) = faulty(300).await;
    let a = user("a");
    let against_bot = play_white_against(toguz::model::Level::Hard);
    let v = game(act(&m, &a, against_bot).await);
    let moved = game(play(&m, &v, &a, 9).await);
    assert_eq!(moved.ply, 1);
    // Every write from now on takes a second, over the 300 ms bound: the bot's move (it
    // thinks 300 ms) is refused and undone, and so is its first try again.
    disk.set_delay(Duration::from_millis(1000));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        game(show(&m, &a, &v.id).await).ply,
        1,
        "no write got through"
    );
    disk.set_delay(Duration::ZERO);
    let started = Instant::now();
    loop {
        let now = game(show(&m, &a, &v.id).await);
        if now.ply == 2 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the bot never moved again: {now:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Item 7 on a slow disk: a search slot is for thinking, not for waiting on the disk. With
/// one slot and every commit taking 400 ms, four bot replies come in about one or two
/// commits' time (each search is quick, and the writes share flushes), not one commit
/// after another (1.6 s) as when the slot was held until the move was durable.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_slot_is_not_held_while_the_move_is_written() {
    let options = StoreOptions {
        commit_timeout: Duration::from_secs(5),
        ..StoreOptions::default()
    };
    let (store, disk) = Store::faulty(None, &options).unwrap();
    let engine = EnginePool::new(EngineConfig {
        max_concurrent: 1,
        ..EngineConfig::default()
    });
    let clock = Clock::manual(T0);
    let m = Manager::start_with_clock(store, engine, ManagerConfig::default(), clock)
        .await
        .unwrap();
    let mut games = Vec::new();
    for i in 0..4 {
        let who = user(&format!("p{i}"));
        let against_bot = play_white_against(toguz::model::Level::Random);
        games.push((game(act(&m, &who, against_bot).await), who));
    }
    disk.set_delay(Duration::from_millis(400));
    let moves = games.iter().map(|(v, who)| play(&m, v, who, 9));
    for moved in futures::future::join_all(moves).await {
        assert_eq!(game(moved).ply, 1);
    }
    let started = Instant::now();
    for (v, who) in &games {
        loop {
            if game(show(&m, who, &v.id).await).ply == 2 {
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(10), "no reply");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    let took = started.elapsed();
    assert!(
        took < Duration::from_millis(1300),
        "four replies took {took:?}: the slot waited for the disk"
    );
}

/// Item 7: a sweep that comes by while a move against the bot is being written (the game's
/// lock held for the commit) finds the bot thinking once the move is in, and starts nothing:
/// it used to see "not thinking" from before the write and warn of a lost turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sweep_during_a_slow_write_finds_no_lost_bot_turn() {
    let (m, disk, _store) = faulty(5000).await;
    let a = user("a");
    let against_bot = play_white_against(toguz::model::Level::Random);
    let v = game(act(&m, &a, against_bot).await);
    disk.set_delay(Duration::from_millis(500));
    let (moved, _) = tokio::join!(play(&m, &v, &a, 9), async {
        // The move has its lock and waits for the disk.
        tokio::time::sleep(Duration::from_millis(150)).await;
        m.sweep().await
    });
    assert_eq!(game(moved).ply, 1);
    assert_eq!(m.bot_restarts(), 0, "no bot turn was lost");
}

/// Item 3: after a flush I/O error every later action fails at once, nothing is left half
/// written, and the failure is announced for the process to exit.
#[tokio::test]
async fn a_failed_flush_refuses_every_later_action_and_is_announced() {
    let (m, disk, store) = faulty(5000).await;
    let (a, b) = (user("a"), user("b"));
    let v = start_game(&m, &a, &b).await;
    let failed = tokio::spawn(m.store_failed());
    disk.set_failing(true);
    let refused = play(&m, &v, mover(&v, &a, &b), 9).await;
    assert!(
        matches!(refused, Err(ActionError::Storage(_))),
        "{refused:?}"
    );
    let cause = tokio::time::timeout(Duration::from_secs(5), failed)
        .await
        .expect("the failure is announced")
        .unwrap();
    assert!(cause.contains("no space left"), "{cause}");

    disk.set_failing(false);
    let started = Instant::now();
    let again = play(&m, &v, mover(&v, &a, &b), 9).await;
    assert!(matches!(again, Err(ActionError::Storage(_))), "{again:?}");
    assert!(started.elapsed() < Duration::from_millis(200), "fails fast");
    assert_eq!(game(show(&m, &a, &v.id).await).ply, 0);
    let stored: GameRecord = store.get(Tree::Games, &v.id).await.unwrap().unwrap();
    assert!(stored.moves.is_empty());
}

/// Item 9: a resign that finds a game while it is being created waits for the one copy;
/// it never acts on a second copy read from the store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resign_racing_the_creation_acts_on_the_one_copy() {
    let (m, disk, store) = faulty(5000).await;
    let (a, b) = (user("a"), user("b"));
    let id = challenge(&m, &a, &b).await;
    disk.set_delay(Duration::from_millis(400));
    let accepting = {
        let (m, b, id) = (m.clone(), b.clone(), id.clone());
        tokio::spawn(async move { accept(&m, &b, &id).await })
    };
    let resigned = loop {
        let resign = Action::Resign {
            game: None,
            ply: None,
        };
        match act(&m, &a, resign).await {
            Err(ActionError::NoGameHere | ActionError::NoSuchGame) => {
                tokio::time::sleep(Duration::from_millis(1)).await
            }
            other => break game(other),
        }
    };
    let created = game(accepting.await.unwrap());
    assert_eq!(created.id, resigned.id);
    assert!(resigned.is_over());
    disk.set_delay(Duration::ZERO);
    assert_eq!(
        m.loaded(),
        (0, 0),
        "the finished game and the closed challenge left memory"
    );
    // The one copy, in memory and in the store, is the resigned game.
    let shown = game(show(&m, &b, &created.id).await);
    let GameStatus::Finished { reason, .. } = shown.status else {
        panic!("the game shows as {:?}", shown.status);
    };
    // Resigned before any move: an abort (issue 31, item 1).
    assert!(matches!(reason, FinishReason::Aborted), "{reason:?}");
    assert!(!store.contains(Tree::Games, &created.id).await.unwrap());
    assert!(store.contains(Tree::Archive, &created.id).await.unwrap());
    assert_eq!(m.loaded(), (0, 0));
}

/// Item 9: a creation whose write times out leaves no game anywhere, a racing resign is told
/// there is none, and the challenge is open again (in memory and in the store).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_creation_leaves_no_copy_and_the_challenge_open() {
    let (m, disk, store) = faulty(300).await;
    let (a, b) = (user("a"), user("b"));
    let id = challenge(&m, &a, &b).await;
    disk.set_delay(Duration::from_millis(1500));
    let accepting = {
        let (m, b, id) = (m.clone(), b.clone(), id.clone());
        tokio::spawn(async move { accept(&m, &b, &id).await })
    };
    let mut refusals = 0;
    while !accepting.is_finished() {
        let resign = Action::Resign {
            game: None,
            ply: None,
        };
        match act(&m, &a, resign).await {
            Err(ActionError::NoGameHere | ActionError::NoSuchGame) => refusals += 1,
            other => panic!("a resign acted on a game that was never created: {other:?}"),
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    assert!(refusals > 0);
    let accepted = accepting.await.unwrap();
    assert!(
        matches!(accepted, Err(ActionError::StoreAway(_))),
        "{accepted:?}"
    );
    assert_eq!(
        store.count(Tree::Games).await.unwrap(),
        0,
        "no game in the store"
    );
    assert_eq!(store.count(Tree::ClosedChallenges).await.unwrap(), 0);
    let open: ChallengeRecord = store.get(Tree::Challenges, &id).await.unwrap().unwrap();
    assert!(open.is_open());
    assert_eq!(m.loaded(), (0, 1));
    disk.set_delay(Duration::ZERO);
    tokio::time::sleep(Duration::from_millis(1700)).await;
    game(accept(&m, &b, &id).await);
}

/// Item 4: a finished game moves from the live tree to the archive, an accepted challenge to
/// the closed tree; start-up reads only the live trees and the rest is found on demand.
async fn finished_games_are_archived_and_read_back_on_demand(backend: Backend) {
    let (a, b) = (user("a"), user("b"));
    let (done, live, chl) = {
        let store = backend.open().await;
        let (m, _) = start(store.clone(), T0).await;
        let id = challenge(&m, &a, &b).await;
        let done = game(accept(&m, &b, &id).await);
        assert!(!store.contains(Tree::Challenges, &id).await.unwrap());
        assert!(store.contains(Tree::ClosedChallenges, &id).await.unwrap());
        assert!(store.contains(Tree::Games, &done.id).await.unwrap());
        let resign = Action::Resign {
            game: Some(done.id.clone()),
            ply: None,
        };
        game(act(&m, &a, resign).await);
        assert!(!store.contains(Tree::Games, &done.id).await.unwrap());
        assert!(store.contains(Tree::Archive, &done.id).await.unwrap());
        (done, start_game(&m, &a, &b).await, id)
    };
    let store = backend.open().await;
    let (m, _) = start(store.clone(), T0).await;
    assert_eq!(m.loaded(), (1, 0), "start-up loads the live game only");
    assert_eq!(store.count(Tree::Games).await.unwrap(), 1);
    assert!(game(show(&m, &b, &done.id).await).is_over());
    let rematch = act(&m, &b, Action::Rematch { game: done.id }).await;
    assert!(matches!(rematch, Ok(Reply::Challenge(_))), "{rematch:?}");
    assert!(!game(show(&m, &b, &live.id).await).is_over());
    let closed = accept(&m, &b, &chl).await;
    assert!(
        matches!(closed, Err(ActionError::ChallengeClosed)),
        "{closed:?}"
    );
}

/// Item 4: closed challenges and claims expire through the sweeper (7 and 2 days).
async fn closed_challenges_and_claims_expire(backend: Backend) {
    let (m, clock) = start(backend.open().await, T0).await;
    let (a, b) = (user("a"), user("b"));
    let id = challenge(&m, &a, &b).await;
    let declined = act(
        &m,
        &b,
        Action::DeclineChallenge {
            challenge: id.clone(),
        },
    )
    .await;
    assert!(matches!(declined, Ok(Reply::Challenge(_))), "{declined:?}");
    assert!(m.claim_once(Platform::Telegram, "inline:1").await.unwrap());

    clock.advance(DAY);
    m.sweep().await;
    assert!(!m.claim_once(Platform::Telegram, "inline:1").await.unwrap());
    let closed = accept(&m, &b, &id).await;
    assert!(
        matches!(closed, Err(ActionError::ChallengeClosed)),
        "{closed:?}"
    );

    clock.advance(2 * DAY);
    m.sweep().await;
    assert!(
        m.claim_once(Platform::Telegram, "inline:1").await.unwrap(),
        "the claim expired after 2 days"
    );
    let closed = accept(&m, &b, &id).await;
    assert!(
        matches!(closed, Err(ActionError::ChallengeClosed)),
        "{closed:?}"
    );

    clock.advance(5 * DAY);
    m.sweep().await;
    let gone = accept(&m, &b, &id).await;
    assert!(
        matches!(gone, Err(ActionError::NoSuchChallenge)),
        "{gone:?}"
    );
}

fn envelope<T: serde::Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({ "schema": 1, "data": value })).unwrap()
}

fn game_record(id: &str, moves: Vec<u8>, status: GameStatus, now: u64) -> GameRecord {
    GameRecord {
        id: id.into(),
        chat: chat(),
        variant: Variant::STANDARD,
        players: [Player::Human(user("a")), Player::Human(user("b"))],
        moves,
        status,
        draw_offer: None,
        created_at: now,
        last_move_at: now,
        messages: vec![],
        seed: 1,
        rematch: None,
        rated: false,
        ended: None,
        time_control: Default::default(),
        clock: None,
        hints: 0,
        version: 0,
        arena: None,
        seat: None,
        watched: false,
        alerts: Vec::new(),
        premoves: Default::default(),
    }
}

fn challenge_record(id: &str, status: ChallengeStatus, now: u64) -> ChallengeRecord {
    ChallengeRecord {
        id: id.into(),
        challenger: user("a"),
        opponent: Some(user("b")),
        variant: Variant::STANDARD,
        chat: chat(),
        created_at: now,
        expires_at: now + 600,
        status,
        challenger_side: None,
        rematch_of: None,
        messages: vec![],
        rated: true,
        time_control: Default::default(),
        time_changeable: false,
        time_changes: 0,
    }
}

/// Writes a data directory the way the code before layout 2 did: three trees, finished
/// games among the live ones, handles and claims among the settings.
fn write_layout_1(dir: &Path, now: u64) {
    let db = sled::open(dir).unwrap();
    let games = db.open_tree("games").unwrap();
    let live = game_record("live01", vec![7], GameStatus::Ongoing, now);
    let finished = GameStatus::Finished {
        winner: Some(Side::White),
        reason: FinishReason::Resigned(Side::Black),
    };
    let done = game_record("done01", vec![7, 9], finished, now);
    games.insert("live01", envelope(&live)).unwrap();
    games.insert("done01", envelope(&done)).unwrap();
    let challenges = db.open_tree("challenges").unwrap();
    let open = challenge_record("open01", ChallengeStatus::Open, now);
    let shut = challenge_record("shut01", ChallengeStatus::Declined, now);
    challenges.insert("open01", envelope(&open)).unwrap();
    challenges.insert("shut01", envelope(&shut)).unwrap();
    let users = db.open_tree("users").unwrap();
    let lang = serde_json::json!({ "lang": "kk" });
    users.insert("telegram:a", envelope(&lang)).unwrap();
    users.insert("@telegram:bob", envelope(&user("b"))).unwrap();
    users
        .insert("claim:telegram:inline:abc", envelope(&true))
        .unwrap();
    db.flush().unwrap();
}

/// Item 4: a layout-1 directory keeps every game, challenge, setting, handle and claim after
/// the upgrade, and old button data still acts on the migrated games.
#[tokio::test]
async fn a_layout_1_directory_is_upgraded_with_everything_in_it() {
    let dir = tempfile::tempdir().unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    write_layout_1(dir.path(), now);
    let store = reopen(dir.path()).await;
    assert_eq!(store.count(Tree::Games).await.unwrap(), 1);
    assert_eq!(store.count(Tree::Archive).await.unwrap(), 1);
    assert_eq!(store.count(Tree::Challenges).await.unwrap(), 1);
    assert_eq!(store.count(Tree::ClosedChallenges).await.unwrap(), 1);
    assert_eq!(store.count(Tree::Settings).await.unwrap(), 1);
    assert_eq!(store.count(Tree::Handles).await.unwrap(), 1);
    assert_eq!(store.count(Tree::Claims).await.unwrap(), 1);

    let (m, _) = start(store, now).await;
    let (a, b) = (user("a"), user("b"));
    assert_eq!(m.loaded(), (1, 1), "the live game and the open challenge");
    assert_eq!(m.user_lang(&a).await, Some(toguz::i18n::Lang::Kk));
    assert_eq!(
        m.user_by_handle(Platform::Telegram, "@Bob").await,
        Some(b.clone())
    );
    assert!(!m
        .claim_once(Platform::Telegram, "inline:abc")
        .await
        .unwrap());

    // Buttons of old board messages: a move on the live game, a rematch of the finished one.
    let press = |data: &str| buttons::decode(data).unwrap().into_action().unwrap();
    let moved = game(act(&m, &b, press("1m:live01:1:5")).await);
    assert_eq!(moved.ply, 2);
    let rematch = act(&m, &a, press("1rm:done01")).await;
    assert!(matches!(rematch, Ok(Reply::Challenge(_))), "{rematch:?}");
    let shut = act(&m, &b, press("1ca:shut01")).await;
    assert!(
        matches!(shut, Err(ActionError::ChallengeClosed)),
        "{shut:?}"
    );
    game(act(&m, &b, press("1ca:open01")).await);

    // The upgrade is recorded: a second start finds the same records and does not redo it.
    drop(m);
    let store = reopen(dir.path()).await;
    assert_eq!(store.count(Tree::Archive).await.unwrap(), 1);
    assert_eq!(store.count(Tree::Games).await.unwrap(), 2);
    let stored: GameRecord = store.get(Tree::Games, "live01").await.unwrap().unwrap();
    assert_eq!(stored.moves, vec![7, 5]);
}

on_both_backends! {
    single: [
        refused_actions_on_a_finished_game_leave_it_unloaded,
        finished_games_are_archived_and_read_back_on_demand,
        closed_challenges_and_claims_expire,
    ],
    multi: [],
}
