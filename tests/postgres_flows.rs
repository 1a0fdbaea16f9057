//! PostgreSQL as the shared store: compare-and-set between processes (two managers on one
//! database stand for two `toguz run` processes: nothing is shared between them but the
//! database), `toguz store copy` between sled and PostgreSQL, and the database restarting
//! mid-game. Each test is skipped, saying so, without PostgreSQL (see `toguz::testing::pg`).

use std::time::Duration;
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::buttons::{self, Button};
use toguz::manager::{
    Action, ActionError, Clock, FinishReason, GameRecord, GameStatus, GameView, Manager, Player,
};
use toguz::model::TimeControl;
use toguz::model::{Platform, UserRef};
use toguz::store::{copy_all, Batch, Expect, KeyRange, Store, StoreError, StoreOptions, Tree};
use toguz::testing::manager::{act, challenge_id, game, rated_challenge, user, Backend, T0};
use toguz::testing::pg;

async fn start(store: Store) -> Manager {
    let engine = EnginePool::new(EngineConfig::default());
    Manager::start_with_clock(
        store,
        engine,
        toguz::testing::manager::test_config(),
        Clock::manual(T0),
    )
    .await
    .unwrap()
}

async fn start_game(m: &Manager, a: &UserRef, b: &UserRef) -> GameView {
    let challenge = rated_challenge(b, None);
    let id = challenge_id(act(m, a, challenge).await);
    game(act(m, b, Action::AcceptChallenge { challenge: id }).await)
}

/// Two managers on one fresh database, standing for two `toguz run` processes; `None`
/// without PostgreSQL (the test is then skipped, saying so).
async fn two_processes() -> Option<(Manager, Manager)> {
    let backend = Backend::postgres().await?;
    Some((
        start(backend.open().await).await,
        start(backend.open().await).await,
    ))
}

fn mover<'a>(v: &GameView, a: &'a UserRef, b: &'a UserRef) -> &'a UserRef {
    match v.to_move_player() {
        Some(Player::Human(u)) if u == a => a,
        _ => b,
    }
}

fn press(v: &GameView, pit: u8) -> Action {
    let data = buttons::encode(&Button::Move {
        game: v.id.clone(),
        ply: v.ply,
        pit,
    });
    buttons::decode(&data).unwrap().into_action().unwrap()
}

async fn show(m: &Manager, who: &UserRef, id: &str) -> GameView {
    game(
        act(
            m,
            who,
            Action::Show {
                game: Some(id.to_string()),
            },
        )
        .await,
    )
}

#[tokio::test]
async fn a_conditional_write_that_lost_the_race_changes_nothing() {
    let Some(backend) = Backend::postgres().await else {
        return;
    };
    let store = backend.open().await;
    let mut create = Batch::new();
    create
        .put_checked(Tree::Games, "g1", &1u32, Expect::Absent)
        .unwrap();
    store.apply(create.clone()).await.unwrap();
    let again = store.apply(create).await;
    assert!(
        matches!(again, Err(StoreError::Conflict { .. })),
        "{again:?}"
    );

    let mut first = Batch::new();
    first
        .put_checked(Tree::Games, "g1", &2u32, Expect::Revision(1))
        .unwrap();
    let mut late = Batch::new();
    late.put_checked(Tree::Games, "g1", &3u32, Expect::Revision(1))
        .unwrap();
    late.put(Tree::Settings, "side-effect", &true).unwrap();
    store.apply(first).await.unwrap();
    let lost = store.apply(late).await;
    assert!(matches!(lost, Err(StoreError::Conflict { .. })), "{lost:?}");
    let stored = store.get_versioned::<u32>(Tree::Games, "g1").await.unwrap();
    assert_eq!(stored.map(|v| (v.value, v.revision)), Some((2, 2)));
    assert!(
        !store.contains(Tree::Settings, "side-effect").await.unwrap(),
        "nothing of a batch that lost applies"
    );

    // A move to the archive checks the live record's revision.
    let mut finish = Batch::new();
    finish.delete_checked(Tree::Games, "g1", Expect::Revision(2));
    finish
        .put_checked(Tree::Archive, "g1", &4u32, Expect::Absent)
        .unwrap();
    store.apply(finish.clone()).await.unwrap();
    assert!(matches!(
        store.apply(finish).await,
        Err(StoreError::Conflict { .. })
    ));
    // The record starts again at revision 1 in its new tree.
    assert_eq!(store.revision(Tree::Archive, "g1").await.unwrap(), Some(1));
    assert!(!store.contains(Tree::Games, "g1").await.unwrap());
}

/// Two processes, one game: the same press delivered to both at once is applied once; the
/// loser is answered as stale; presses delivered alternately to either process all apply.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_one_database_apply_each_press_once() {
    let Some((one, two)) = two_processes().await else {
        return;
    };
    let (a, b) = (user("a"), user("b"));
    let v = start_game(&one, &a, &b).await;
    // The other process learns of the game from the database, at the first press.
    let mut view = v.clone();
    for ply in 0..6u16 {
        let who = mover(&view, &a, &b).clone();
        let (here, there) = if ply % 2 == 0 {
            (&one, &two)
        } else {
            (&two, &one)
        };
        let legal = view.position.legal_moves();
        let pit = (1..=9).find(|&p| legal.contains(p)).unwrap();
        let action = press(&view, pit);
        let (x, y) = tokio::join!(act(here, &who, action.clone()), act(there, &who, action));
        let applied = usize::from(x.is_ok()) + usize::from(y.is_ok());
        assert_eq!(applied, 1, "exactly one applies: {x:?} / {y:?}");
        for r in [&x, &y] {
            if let Err(error) = r {
                assert!(matches!(error, ActionError::StaleBoard), "{error:?}");
            }
        }
        view = game(if x.is_ok() { x } else { y });
        assert_eq!(view.ply, ply + 1);
        // Both processes show the same board afterwards.
        assert_eq!(show(&one, &a, &v.id).await.ply, ply + 1);
        assert_eq!(show(&two, &b, &v.id).await.ply, ply + 1);
    }
    // A press on a board that is one move old is stale in either process.
    let who = mover(&view, &a, &b).clone();
    let mut old = view.clone();
    old.ply -= 1;
    let stale = act(&two, &who, press(&old, 1)).await;
    assert!(matches!(stale, Err(ActionError::StaleBoard)), "{stale:?}");
}

/// A resign in one process and a move in the other, at once: one of them wins, the game
/// ends up consistent in both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resign_and_a_move_in_two_processes_do_not_both_apply() {
    let Some((one, two)) = two_processes().await else {
        return;
    };
    let (a, b) = (user("a"), user("b"));
    let v = start_game(&one, &a, &b).await;
    let _ = show(&two, &a, &v.id).await;
    let who = mover(&v, &a, &b).clone();
    let other = if who == a { b.clone() } else { a.clone() };
    let resign = Action::Resign {
        game: Some(v.id.clone()),
        ply: Some(0),
    };
    let (moved, resigned) = tokio::join!(act(&one, &who, press(&v, 1)), act(&two, &other, resign));
    assert!(
        moved.is_ok() != resigned.is_ok(),
        "one wins: {moved:?} / {resigned:?}"
    );
    let (x, y) = (show(&one, &a, &v.id).await, show(&two, &a, &v.id).await);
    assert_eq!((x.ply, x.status), (y.ply, y.status));
}

/// `toguz store copy` from sled to PostgreSQL and back: an ongoing game goes on after each
/// switch, its old buttons still act, and the button-signing secret comes along.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deployment_moves_from_sled_to_postgres_and_back() {
    let Some(pg) = Backend::postgres().await else {
        return;
    };
    let (sled_a, sled_b) = (Backend::sled(), Backend::sled());
    let (a, b) = (user("a"), user("b"));
    let (v, secret) = {
        let m = start(sled_a.open().await).await;
        m.set_user_lang(&a, toguz::i18n::Lang::Kk).await.unwrap();
        m.remember_handle("@Bee", &b).await.unwrap();
        assert!(m.claim_once(Platform::Telegram, "inline:1").await.unwrap());
        let secret = m.durable_secret(Platform::Telegram, "key").await.unwrap();
        let v = start_game(&m, &a, &b).await;
        let who = mover(&v, &a, &b).clone();
        let v = game(act(&m, &who, press(&v, 3)).await);
        (v, secret)
    };
    let copied = copy_all(&sled_a.open().await, &pg.open().await)
        .await
        .unwrap();
    assert!(copied.total() >= 6, "{copied:?}");
    let v = {
        let m = start(pg.open().await).await;
        assert_eq!(m.user_lang(&a).await, Some(toguz::i18n::Lang::Kk));
        assert_eq!(
            m.user_by_handle(Platform::Telegram, "bee").await,
            Some(b.clone())
        );
        assert!(!m.claim_once(Platform::Telegram, "inline:1").await.unwrap());
        assert_eq!(
            m.durable_secret(Platform::Telegram, "key").await.unwrap(),
            secret
        );
        // The board sent before the switch: its button still acts.
        let who = mover(&v, &a, &b).clone();
        let v = game(act(&m, &who, press(&v, 4)).await);
        assert_eq!(v.ply, 2);
        v
    };
    copy_all(&pg.open().await, &sled_b.open().await)
        .await
        .unwrap();
    let m = start(sled_b.open().await).await;
    assert_eq!(
        m.durable_secret(Platform::Telegram, "key").await.unwrap(),
        secret
    );
    let who = mover(&v, &a, &b).clone();
    assert_eq!(game(act(&m, &who, press(&v, 5)).await).ply, 3);
    assert_eq!(m.loaded().0, 1, "the ongoing game was loaded at start");
}

/// The database stops (as in a crash) mid-game: actions are refused within the bound while
/// it is away, nothing acknowledged is lost, and the same manager carries on once it is back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_restarting_mid_game_loses_no_acknowledged_move() {
    // Its own cluster: the other tests of this process keep using the shared one.
    if pg::server().is_none() {
        return;
    }
    let Ok(Some(cluster)) = pg::Cluster::start(false) else {
        eprintln!("SKIPPED: the restart test needs PostgreSQL's binaries for its own cluster");
        return;
    };
    let backend = Backend::Postgres(toguz::store::PostgresOptions::new(&cluster.url()));
    let options = StoreOptions {
        commit_timeout: Duration::from_millis(1500),
        ..StoreOptions::default()
    };
    let m = start(backend.open_with(&options).await).await;
    let (a, b) = (user("a"), user("b"));
    let v = start_game(&m, &a, &b).await;
    let who = mover(&v, &a, &b).clone();
    let v = game(act(&m, &who, press(&v, 1)).await);
    cluster.kill().unwrap();
    let who = mover(&v, &a, &b).clone();
    let started = std::time::Instant::now();
    let refused = act(&m, &who, press(&v, 2)).await;
    assert!(
        matches!(refused, Err(ActionError::StoreAway(_))),
        "{refused:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "refused within the bound"
    );
    cluster.restart().unwrap();
    let mut applied = None;
    for _ in 0..50 {
        match act(&m, &who, press(&v, 2)).await {
            Ok(reply) => {
                applied = Some(game(Ok(reply)));
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    let v = applied.expect("the move applies once the database is back");
    assert_eq!(v.ply, 2);
    let fresh = start(backend.open().await).await;
    assert_eq!(
        show(&fresh, &a, &v.id).await.ply,
        2,
        "both moves are stored"
    );
}

/// Two moves (one each, so the game counts), then `loser` resigns: the action to run.
async fn ready_to_resign(m: &Manager, v: &GameView, a: &UserRef, b: &UserRef) -> Action {
    let mut view = v.clone();
    for _ in 0..2 {
        let who = mover(&view, a, b).clone();
        let legal = view.position.legal_moves();
        let pit = (1..=9).find(|&p| legal.contains(p)).unwrap();
        view = game(act(m, &who, press(&view, pit)).await);
    }
    Action::Resign {
        game: Some(view.id.clone()),
        ply: Some(view.ply),
    }
}

/// One player's rated games end at the same moment in two processes: each end is counted
/// on top of the other (the stats are written compare-and-set, and counted again when
/// another process wrote them first), none is lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_players_games_ending_at_once_in_two_processes_both_count() {
    let Some((one, two)) = two_processes().await else {
        return;
    };
    let (a, b, c) = (user("a"), user("b"), user("c"));
    // Within the rated games the same two people get a day (three by default).
    const ROUNDS: u32 = 3;
    for _ in 0..ROUNDS {
        let (g1, g2) = (
            start_game(&one, &a, &b).await,
            start_game(&two, &a, &c).await,
        );
        let r1 = ready_to_resign(&one, &g1, &a, &b).await;
        let r2 = ready_to_resign(&two, &g2, &a, &c).await;
        let (x, y) = tokio::join!(act(&one, &b, r1), act(&two, &c, r2));
        assert!(x.is_ok() && y.is_ok(), "{x:?} / {y:?}");
    }
    for m in [&one, &two] {
        let stats = m.stats(&a).await.unwrap().expect("a's stats");
        assert_eq!(
            (stats.categories[0].results.wins, stats.rated_games()),
            (2 * ROUNDS, 2 * ROUNDS)
        );
        assert_eq!(
            m.history(&a, &toguz::manager::history::PageAt::Newest, 0)
                .await
                .unwrap()
                .entries
                .len(),
            2 * ROUNDS as usize
        );
    }
    let board = one
        .leaderboard(
            toguz::ratings::keys::Scope::Platform(Platform::Telegram),
            toguz::model::Category::Correspondence,
            None,
        )
        .await
        .unwrap();
    // One row per player, whatever order the ends were counted in.
    let names: Vec<String> = board.top.iter().map(|(_, r)| r.user.key()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert_eq!(board.top[0].1.user, a);
}

/// `Store::scan` on PostgreSQL: a prefix in byte order, from a point, below a key, up to a
/// limit; a key whose last character is the prefix's separator's successor stays out.
#[tokio::test]
async fn scan_reads_a_prefix_in_byte_order() {
    let Some(backend) = Backend::postgres().await else {
        return;
    };
    let store = backend.open().await;
    let keys = ["a|3", "a|1", "a|Z", "a|é", "a|2", "a}", "b|0", "a", "a|"];
    for key in keys {
        store
            .put(Tree::History, key, &key.to_string())
            .await
            .unwrap();
    }
    store
        .put(Tree::Leaderboard, "a|0", &"other tree".to_string())
        .await
        .unwrap();
    let scan = async |range: KeyRange<'_>, limit: usize| -> Vec<String> {
        let rows: Vec<(String, String)> = store.scan(Tree::History, range, limit).await.unwrap();
        rows.into_iter()
            .map(|(k, v)| {
                assert_eq!(k, v);
                k
            })
            .collect()
    };
    // Byte order: digits, then capitals, then two-byte UTF-8.
    let all = ["a|", "a|1", "a|2", "a|3", "a|Z", "a|é"];
    assert_eq!(scan(KeyRange::prefix("a|"), 100).await, all);
    assert_eq!(scan(KeyRange::prefix("a|"), 2).await, ["a|", "a|1"]);
    let after = KeyRange {
        prefix: "a|",
        after: Some("a|2"),
        before: None,
    };
    assert_eq!(scan(after, 100).await, ["a|3", "a|Z", "a|é"]);
    let below = KeyRange {
        prefix: "a|",
        after: Some("a|1"),
        before: Some("a|Z"),
    };
    assert_eq!(scan(below, 100).await, ["a|2", "a|3"]);
    assert_eq!(scan(KeyRange::prefix("é"), 100).await, Vec::<String>::new());
    assert_eq!(scan(KeyRange::prefix(""), 3).await, ["a", "a|", "a|1"]);
    // Counts agree with the reads.
    let count = async |range| store.count_range(Tree::History, range).await.unwrap();
    assert_eq!(count(KeyRange::prefix("a|")).await, 6);
    assert_eq!(count(after).await, 3);
    assert_eq!(count(below).await, 2);
    assert_eq!(count(KeyRange::prefix("")).await, 9);
    assert_eq!(count(KeyRange::prefix("c")).await, 0);
}

/// Every process runs the sweeper: two sweeping the same expired records at once delete
/// each exactly once between them, neither fails, and what has not expired stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_sweeping_at_once_delete_each_record_once() {
    let Some(backend) = Backend::postgres().await else {
        return;
    };
    let (one, two) = (backend.open().await, backend.open().await);
    const DUE: usize = 300;
    let mut batch = Batch::new();
    for i in 0..DUE + 10 {
        let key = format!("c{i:04}");
        batch.put(Tree::Claims, &key, &i).unwrap();
        // The last ten expire later than the sweeps' "now".
        let at = if i < DUE { T0 - 1 } else { T0 + 3_600 };
        batch.expire_at(Tree::Claims, &key, at);
    }
    one.apply(batch).await.unwrap();
    let (mut deleted, mut rounds) = (0, 0);
    // Small steps, so that the two sweeps overlap on the same rows many times.
    while deleted < DUE && rounds < 100 {
        let (x, y) = tokio::join!(one.expire_due(T0, 7), two.expire_due(T0, 7));
        deleted += x.unwrap() + y.unwrap();
        rounds += 1;
    }
    assert_eq!(deleted, DUE, "each expired record deleted once");
    assert_eq!(one.expire_due(T0, 1_000).await.unwrap(), 0);
    assert_eq!(two.count(Tree::Claims).await.unwrap(), 10);
}

// ----- one truth across processes (issue 31 items 5 and 7) -----

/// A process on the system clock (kept to the database's), its host `skew_ms` off.
async fn start_on_host(backend: &Backend, skew_ms: i64) -> Manager {
    let engine = EnginePool::new(EngineConfig::default());
    let clock = Clock::system_skewed(skew_ms);
    Manager::start_with_clock(
        backend.open().await,
        engine,
        toguz::testing::manager::test_config(),
        clock,
    )
    .await
    .unwrap()
}

/// A timed game between `a` and `b` at `base_ms` per side, no increment, made in `m`.
async fn timed_game(m: &Manager, other: &Manager, base_ms: u64) -> (GameView, UserRef, UserRef) {
    let (a, b) = (user("a"), user("b"));
    let time = TimeControl::Fischer {
        base_ms,
        increment_ms: 0,
    };
    let id = challenge_id(act(m, &a, rated_challenge(&b, Some(time))).await);
    let v = game(act(other, &b, Action::AcceptChallenge { challenge: id }).await);
    (v, a, b)
}

/// A one-minute game in `m` past both free first moves (the clock runs), and a heartbeat
/// written.
async fn clock_running(m: &Manager) -> (GameView, UserRef, UserRef) {
    let (v, a, b) = timed_game(m, m, 60_000).await;
    let v = game(act(m, mover(&v, &a, &b), press(&v, 9)).await);
    let v = game(act(m, mover(&v, &a, &b), press(&v, 9)).await);
    m.heartbeat().await.unwrap();
    (v, a, b)
}

/// Polls the store until game `id` is archived; the time `m`'s clock read then.
async fn archived_at(m: &Manager, id: &str, within: Duration) -> Option<(GameRecord, u64)> {
    let until = std::time::Instant::now() + within;
    while std::time::Instant::now() < until {
        if let Ok(Some(rec)) = m.store().get::<GameRecord>(Tree::Archive, id).await {
            return Some((rec, m.clock().now_ms()));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    None
}

/// Item 5: two processes whose hosts' clocks differ by 5 s time one game with one clock,
/// the database's. The game's last move is made in the honest process and both hold the
/// game with a flag timer: before, the other process's timer read its own clock, 5 s ahead,
/// and the flag fell about 5 s early.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hosts_five_seconds_apart_flag_on_the_shared_clock() {
    let Some(backend) = Backend::postgres().await else {
        return;
    };
    let honest = start_on_host(&backend, 0).await;
    let ahead = start_on_host(&backend, 5_000).await;
    let (v, a, b) = timed_game(&honest, &ahead, 3_000).await;
    // The first moves are free; the third move's side then has its 3 s running.
    let v = game(act(&ahead, mover(&v, &a, &b), press(&v, 9)).await);
    let v = game(act(&honest, mover(&v, &a, &b), press(&v, 9)).await);
    let v = game(act(&ahead, mover(&v, &a, &b), press(&v, 1)).await);
    let v = game(act(&honest, mover(&v, &a, &b), press(&v, 1)).await);
    let deadline = v
        .clock
        .as_ref()
        .and_then(|c| c.deadline)
        .expect("a running clock");
    assert!(ahead.running_clocks() == 1 && honest.running_clocks() == 1);
    let (rec, at) = archived_at(&honest, &v.id, Duration::from_secs(10))
        .await
        .expect("the flag fell");
    assert!(
        matches!(
            rec.status,
            GameStatus::Finished {
                reason: FinishReason::TimedOut(_),
                ..
            }
        ),
        "{:?}",
        rec.status
    );
    let off = i128::from(at) - i128::from(deadline.at_ms);
    assert!(
        (-100..1_000).contains(&off),
        "the flag fell {off} ms off the shared clock's deadline"
    );
    let apart = honest.clock().now_ms().abs_diff(ahead.clock().now_ms());
    assert!(apart < 200, "the two processes read {apart} ms apart");
}

/// Item 5: a process that starts while another is alive leaves the clocks of the ongoing
/// games as they are (before, it rewrote every one, crediting the players the time since
/// the last heartbeat).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_starting_beside_a_live_one_rewrites_no_clock() {
    let Some(backend) = Backend::postgres().await else {
        return;
    };
    let first = start_on_host(&backend, 0).await;
    let (v, a, _) = clock_running(&first).await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    first.heartbeat().await.unwrap();
    let revision = first.store().revision(Tree::Games, &v.id).await.unwrap();
    let second = start_on_host(&backend, 0).await;
    assert_eq!(
        first.store().revision(Tree::Games, &v.id).await.unwrap(),
        revision,
        "the second process rewrote the game's clock"
    );
    assert_eq!(second.running_clocks(), 1, "it still times the game");
    let seen = show(&second, &a, &v.id).await;
    let left = seen.clock.as_ref().map(|c| c.at_last_move_ms);
    assert_eq!(left, v.clock.as_ref().map(|c| c.at_last_move_ms));
}

/// Item 5: the only process restarting at once (its own heartbeat under 3 s old) is not
/// mistaken for another live process: it waits to see whether the heartbeat moves on, and
/// as nobody writes it, it resumes the clocks, crediting the players its downtime.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quick_restart_of_the_only_process_still_resumes_the_clocks() {
    let Some(backend) = Backend::postgres().await else {
        return;
    };
    let first = start_on_host(&backend, 0).await;
    let (v, _, _) = clock_running(&first).await;
    let store = first.store().clone();
    let revision = store.revision(Tree::Games, &v.id).await.unwrap();
    drop(first);
    let second = start_on_host(&backend, 0).await;
    assert_ne!(
        store.revision(Tree::Games, &v.id).await.unwrap(),
        revision,
        "the clock was not resumed"
    );
    assert_eq!(second.running_clocks(), 1);
}

/// Item 7: a process that made a timed game and is then killed (SIGKILL) leaves it to the
/// others: a live process takes it in (within `TAKEOVER_EVERY`, 10 s) and its flag falls
/// on time with nobody pressing. Before, the game waited for a press forever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_processs_timed_game_is_flagged_by_a_live_process() {
    let Some(options) = pg::fresh().await else {
        return;
    };
    let backend = Backend::Postgres(options.clone());
    let survivor = start_on_host(&backend, 0).await;
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("toguz.toml");
    std::fs::write(&config, "[storage]\nbackend = \"postgres\"\n").unwrap();
    let mut child = std::process::Command::new(toguz::testing::toguz_exe())
        .args(["play", "--white", "A", "--black", "B", "--clock", "0.25+0"])
        .args(["--lang", "en", "--config"])
        .arg(&config)
        .env("TOGUZ_DATABASE_URL", &options.url)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("toguz play starts");
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, b"7\n9\n").unwrap();
    // Both first moves are in the store: White's 15 s are running.
    let store = survivor.store().clone();
    let mut found = None;
    for _ in 0..300 {
        let live = store.revisions(Tree::Games).await.unwrap();
        if let Some((id, _)) = live.first() {
            let rec: GameRecord = store.get(Tree::Games, id).await.unwrap().unwrap();
            if rec.moves.len() == 2 {
                found = Some(rec);
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let rec = found.expect("the console played both first moves");
    child.kill().unwrap();
    child.wait().unwrap();
    let clock = rec.clock.as_ref().expect("a timed game");
    let deadline = clock.deadline(toguz::rules::Side::White, 2, 0).at_ms;
    let (ended, at) = archived_at(&survivor, &rec.id, Duration::from_secs(30))
        .await
        .expect("the game was taken over and flagged");
    assert_eq!(
        ended.status,
        GameStatus::Finished {
            winner: Some(toguz::rules::Side::Black),
            reason: FinishReason::TimedOut(toguz::rules::Side::White),
        }
    );
    let off = i128::from(at) - i128::from(deadline);
    assert!(
        (-100..1_000).contains(&off),
        "the flag fell {off} ms off the deadline"
    );
}

/// Item 7: a challenge and a correspondence game made by a process that then stopped are
/// taken in by another process started before them, which expires the one and times out
/// the other (before, only the process that made them ever did).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_process_expires_and_times_out_what_a_dead_one_made() {
    let Some(backend) = Backend::postgres().await else {
        return;
    };
    let clock = Clock::manual(T0);
    let start_at = |store| {
        let engine = EnginePool::new(EngineConfig::default());
        Manager::start_with_clock(
            store,
            engine,
            toguz::testing::manager::test_config(),
            clock.clone(),
        )
    };
    let survivor = start_at(backend.open().await).await.unwrap();
    let dead = start_at(backend.open().await).await.unwrap();
    let (a, b, c) = (user("a"), user("b"), user("c"));
    let challenge = challenge_id(act(&dead, &a, rated_challenge(&c, None)).await);
    let v = start_game(&dead, &a, &b).await;
    let v = game(act(&dead, mover(&v, &a, &b), press(&v, 9)).await);
    let v = game(act(&dead, mover(&v, &a, &b), press(&v, 9)).await);
    drop(dead);
    assert_eq!(survivor.take_over().await, 2, "the game and the challenge");
    let timeout = toguz::testing::manager::test_config()
        .limits
        .move_timeout_secs();
    clock.advance(timeout + 1);
    assert_eq!(survivor.sweep().await, 2);
    let store = survivor.store();
    assert!(store
        .contains(Tree::ClosedChallenges, &challenge)
        .await
        .unwrap());
    let rec: GameRecord = store.get(Tree::Archive, &v.id).await.unwrap().unwrap();
    let side = rec.status;
    assert!(
        matches!(
            side,
            GameStatus::Finished {
                reason: FinishReason::TimedOut(_),
                ..
            }
        ),
        "{side:?}"
    );
}

/// A manager on a fresh schema reached through a proxy the test controls (`None`: skipped).
async fn behind_a_proxy() -> Option<(Manager, pg_proxy::Proxy)> {
    let mut options = pg::fresh().await?;
    let (proxy, url) = pg_proxy::Proxy::in_front_of(&options.url);
    options.url = url;
    let store = Backend::Postgres(options).open().await;
    Some((start(store).await, proxy))
}

use toguz::testing::proxy as pg_proxy;

/// The database away (the network stalls, then refuses): every action is refused as "away"
/// well within 3 s, the language lookup every press makes is cut short (only the first one
/// waits its read bound; the next ones know the database is away), and once it is back the
/// same press applies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn actions_while_the_database_is_away_are_refused_fast_and_say_try_again() {
    let Some((m, proxy)) = behind_a_proxy().await else {
        return;
    };
    let (a, b) = (user("a"), user("b"));
    let v = start_game(&m, &a, &b).await;
    let who = mover(&v, &a, &b).clone();
    for mode in [pg_proxy::Mode::Stall, pg_proxy::Mode::Cut] {
        proxy.set(mode);
        let started = std::time::Instant::now();
        assert_eq!(m.user_lang(&who).await, None);
        let first = started.elapsed();
        let refused = act(&m, &who, press(&v, 1)).await;
        assert!(
            matches!(refused, Err(ActionError::StoreAway(_))),
            "{mode:?}: {refused:?}"
        );
        let next = std::time::Instant::now();
        assert_eq!(m.user_lang(&who).await, None);
        let later = next.elapsed();
        assert!(
            first < Duration::from_millis(1500) && later < Duration::from_millis(500),
            "{mode:?}: lookups took {first:?}, then {later:?}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{mode:?}: {:?}",
            started.elapsed()
        );
    }
    proxy.set(pg_proxy::Mode::Pass);
    let mut applied = None;
    for _ in 0..50 {
        match act(&m, &who, press(&v, 1)).await {
            Ok(reply) => {
                applied = Some(game(Ok(reply)));
                break;
            }
            Err(error) => {
                assert!(matches!(error, ActionError::StoreAway(_)), "{error:?}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    assert_eq!(applied.expect("applies once the database is back").ply, 1);
}

/// COMMIT reaches the server and its answer never comes back: the action is refused as
/// "outcome unknown", never as "nothing changed"; the game is read again once the database
/// answers and published as stored (here: resigned, since the server did commit).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_commit_left_unanswered_is_unknown_and_the_stored_game_is_published_once_back() {
    let Some((m, proxy)) = behind_a_proxy().await else {
        return;
    };
    let (a, b) = (user("a"), user("b"));
    let v = start_game(&m, &a, &b).await;
    let mut events = m.subscribe();
    proxy.hold_replies_after(b"COMMIT");
    let started = std::time::Instant::now();
    let resign = Action::Resign {
        game: Some(v.id.clone()),
        ply: Some(0),
    };
    let unsure = act(&m, &a, resign).await;
    assert!(
        matches!(unsure, Err(ActionError::OutcomeUnknown(_))),
        "{unsure:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(proxy.mode(), pg_proxy::Mode::HoldReplies);
    // Nothing is published while the database says nothing.
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert!(
        events.try_recv().is_err(),
        "published before the database answered"
    );
    proxy.set(pg_proxy::Mode::Pass);
    let published = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match events.recv().await {
                Ok(toguz::manager::Event::Game(view)) if view.id == v.id => return view,
                Ok(_) => {}
                Err(error) => panic!("events: {error}"),
            }
        }
    })
    .await
    .expect("the game is published once the database answers");
    assert!(published.is_over(), "{:?}", published.status);
    // The next action acts on the stored game, not on what memory had.
    let late = act(&m, &b, press(&v, 1)).await;
    assert!(
        matches!(late, Err(ActionError::GameOver | ActionError::StaleBoard)),
        "{late:?}"
    );
}

/// Issue 31, item 8: an accept whose COMMIT goes unanswered is "being checked"; once the
/// database answers, the game it did create is on the challenge's message (the game's board
/// now) and published, so the adapters draw it there. Before, the game was forgotten in
/// memory and shown nowhere until someone asked for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accept_left_unanswered_shows_its_game_on_the_challenge_once_back() {
    let Some((m, proxy)) = behind_a_proxy().await else {
        return;
    };
    let (a, b) = (user("a"), user("b"));
    let id = challenge_id(act(&m, &a, rated_challenge(&b, None)).await);
    let shown = toguz::manager::MessageRef {
        platform: Platform::Telegram,
        id: "-100:40".into(),
    };
    let target = toguz::manager::Target::Challenge(id.clone());
    m.attach_message(target, shown.clone(), None).await.unwrap();
    let mut events = m.subscribe();
    proxy.hold_replies_after(b"COMMIT");
    let unsure = act(&m, &b, Action::AcceptChallenge { challenge: id }).await;
    assert!(
        matches!(unsure, Err(ActionError::OutcomeUnknown(_))),
        "{unsure:?}"
    );
    proxy.set(pg_proxy::Mode::Pass);
    let published = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match events.recv().await {
                Ok(toguz::manager::Event::Game(view)) => return view,
                Ok(_) => {}
                Err(error) => panic!("events: {error}"),
            }
        }
    })
    .await
    .expect("the game is published once the database answers");
    assert_eq!(published.messages, [shown]);
    assert_eq!((published.ply, published.status), (0, GameStatus::Ongoing));
    // It is the game's board: a move on it works.
    let moved = game(act(&m, mover(&published, &a, &b), press(&published, 9)).await);
    assert_eq!(moved.ply, 1);
}
