//! The chaos run (issue 31): two processes on one PostgreSQL database play 200 games with
//! clocks while one process is SIGKILLed and started again, the database is killed and
//! started again, and the two hosts' clocks differ by 5 s. Afterwards every acknowledged
//! move is in the store, every finished rated game changed its two players' ratings exactly
//! once, and every flag fell within 1 s of the shared clock's deadline (those due while the
//! database was down are counted apart: nobody can write then).
//!
//! `cargo test --release --test chaos -- --ignored --nocapture` (a few minutes; the figures
//! are in docs/load.md). The second process is this test binary itself, started again as
//! `chaos_worker` with `TOGUZ_CHAOS_WORKER_URL` set: a manager that plays the moves it reads
//! on stdin and says `ACK` for each one acknowledged.

use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::{
    Action, Clock, Event, FinishReason, GameRecord, GameStatus, Manager, ManagerConfig,
};
use toguz::model::{TimeControl, UserRef};
use toguz::rules::{Position, Side};
use toguz::store::{Location, PostgresOptions, Store, StoreOptions, Tree};
use toguz::testing::manager::{act, challenge_id, game, rated_challenge, user};
use toguz::testing::pg::Cluster;

const WORKER_ENV: &str = "TOGUZ_CHAOS_WORKER_URL";
const GAMES: usize = 200;
const ROUNDS: usize = 14;
/// Games `i % 4 == 0` get this clock and stop moving after `FLAG_AFTER_ROUND`: their flags
/// fall during the chaos.
const SHORT: TimeControl = TimeControl::Fischer {
    base_ms: 8_000,
    increment_ms: 0,
};
const LONG: TimeControl = TimeControl::Fischer {
    base_ms: 600_000,
    increment_ms: 2_000,
};
const FLAG_AFTER_ROUND: usize = 2;
const KILL_WORKER_AT: usize = 4;
const RESTART_DB_AT: usize = 8;

fn config() -> ManagerConfig {
    let mut config = ManagerConfig::default();
    config.limits.games_per_chat = 10_000;
    config
}

async fn start(url: &str, skew_ms: i64) -> Manager {
    let options = PostgresOptions::new(url);
    let store = Store::open_at(&Location::Postgres(options), &StoreOptions::default())
        .await
        .expect("open the database");
    let engine = EnginePool::new(EngineConfig::default());
    Manager::start_with_clock(store, engine, config(), Clock::system_skewed(skew_ms))
        .await
        .expect("the manager starts")
}

/// Prints a line for every flag this manager itself made fall: `FLAG <game> <now_ms>`.
fn report_flags(m: &Manager, out: mpsc::Sender<(String, u64)>) {
    let mut events = m.subscribe();
    let clock = m.clock().clone();
    tokio::spawn(async move {
        while let Ok(event) = events.recv().await {
            let view = match event {
                Event::Game(view) | Event::Acted { view, .. } => view,
                Event::Challenge(_) | Event::Tournament(_) | Event::DailyPuzzle(_) => continue,
            };
            if matches!(
                view.status,
                GameStatus::Finished {
                    reason: FinishReason::TimedOut(_),
                    ..
                }
            ) && out.send((view.id.clone(), clock.now_ms())).is_err()
            {
                return;
            }
        }
    });
}

/// The second process: moves from stdin (`move <game> <user> <ply> <pit>`), answers
/// `ACK <game> <ply>` once a move is acknowledged, `ERR <game> <ply>` otherwise, and
/// `FLAG <game> <now_ms>` for each flag it made fall. Does nothing in a normal test run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "the chaos run's second process; started by the chaos run itself"]
async fn chaos_worker() {
    let Ok(url) = std::env::var(WORKER_ENV) else {
        return;
    };
    let m = start(&url, 0).await;
    let (flags, flagged) = mpsc::channel();
    report_flags(&m, flags);
    let (lines_tx, mut lines) = tokio::sync::mpsc::channel::<String>(64);
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines().map_while(Result::ok) {
            if lines_tx.blocking_send(line).is_err() {
                return;
            }
        }
    });
    println!("READY");
    loop {
        let line = tokio::select! {
            line = lines.recv() => line,
            () = tokio::time::sleep(Duration::from_millis(50)) => {
                for (id, at) in flagged.try_iter() {
                    println!("FLAG {id} {at}");
                }
                continue;
            }
        };
        let Some(line) = line else { return };
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [_, id, who, ply, pit] = parts[..] else {
            continue;
        };
        let (Ok(ply), Ok(pit)) = (ply.parse::<u16>(), pit.parse::<u8>()) else {
            continue;
        };
        let action = Action::Move {
            game: id.to_string(),
            ply: Some(ply),
            pit,
        };
        match act(&m, &user(who), action).await {
            Ok(_) => println!("ACK {id} {ply}"),
            Err(_) => println!("ERR {id} {ply}"),
        }
    }
}

/// The second process, seen from the chaos run.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    flags: mpsc::Sender<(String, u64)>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Worker {
    fn spawn(url: &str, flags: mpsc::Sender<(String, u64)>) -> Worker {
        let exe = std::env::current_exe().expect("the test binary");
        let mut child = Command::new(exe)
            .args(["chaos_worker", "--exact", "--ignored", "--nocapture"])
            .env(WORKER_ENV, url)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the worker starts");
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = mpsc::channel();
        let flag_tx = flags.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(rest) = line.strip_prefix("FLAG ") {
                    let mut parts = rest.split_whitespace();
                    if let (Some(id), Some(Ok(at))) = (parts.next(), parts.next().map(str::parse)) {
                        let _ = flag_tx.send((id.to_string(), at));
                    }
                } else if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let worker = Worker {
            child,
            stdin,
            lines,
            flags,
        };
        worker.wait_for("READY", Duration::from_secs(30));
        worker
    }

    fn wait_for(&self, prefix: &str, within: Duration) -> Option<String> {
        let until = Instant::now() + within;
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return Some(line),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
        None
    }

    /// Sends a move; true once the worker acknowledged it.
    fn play(&mut self, id: &str, who: &UserRef, ply: u16, pit: u8) -> bool {
        let line = format!("move {id} {} {ply} {pit}\n", who.id);
        if self.stdin.write_all(line.as_bytes()).is_err() {
            return false;
        }
        let _ = self.stdin.flush();
        let ack = format!("ACK {id} {ply}");
        let err = format!("ERR {id} {ply}");
        let until = Instant::now() + Duration::from_secs(15);
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) if line == ack => return true,
                Ok(line) if line == err => return false,
                Ok(_) => {}
                Err(_) => return false,
            }
        }
        false
    }

    /// SIGKILL, with a move on its way.
    fn kill_mid_move(&mut self, id: &str, who: &UserRef, ply: u16, pit: u8) {
        let line = format!("move {id} {} {ply} {pit}\n", who.id);
        let _ = self.stdin.write_all(line.as_bytes());
        let _ = self.stdin.flush();
        std::thread::sleep(Duration::from_millis(2));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn restart(&mut self, url: &str) {
        // The old one is killed as it is dropped.
        *self = Worker::spawn(url, self.flags.clone());
    }
}

/// One game as the run knows it: its players and the moves acknowledged to it.
struct Tracked {
    id: String,
    players: [UserRef; 2],
    position: Position,
    /// (ply, pit) of each acknowledged move.
    acked: Vec<(u16, u8)>,
    short: bool,
}

impl Tracked {
    fn mover(&self) -> &UserRef {
        &self.players[self.position.to_move().index()]
    }
}

/// Reads a game's stored record (live or archived).
async fn stored(m: &Manager, id: &str) -> Option<GameRecord> {
    for tree in [Tree::Games, Tree::Archive] {
        if let Ok(Some(rec)) = m.store().get::<GameRecord>(tree, id).await {
            return Some(rec);
        }
    }
    None
}

/// Brings the run's copy of a game to the stored record after a refused or unanswered move
/// (it may have landed: its outcome was unknown to us).
async fn resync(m: &Manager, g: &mut Tracked) -> bool {
    let Some(rec) = stored(m, &g.id).await else {
        return false;
    };
    let mut position = Position::start(rec.variant);
    for &pit in &rec.moves {
        if position.play(pit).is_err() {
            return false;
        }
    }
    g.position = position;
    rec.status == GameStatus::Ongoing
}

/// Waits (at most 30 s) until every short game has ended.
async fn wait_for_flags(m: &Manager, games: &[Tracked]) {
    let until = Instant::now() + Duration::from_secs(30);
    for g in games.iter().filter(|g| g.short) {
        while Instant::now() < until {
            match stored(m, &g.id).await {
                Some(rec) if rec.status != GameStatus::Ongoing => break,
                _ => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }
}

#[derive(Default, Debug)]
struct Figures {
    sent: usize,
    acked: usize,
    refused: usize,
    db_down_ms: u128,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "the chaos run: a few minutes; figures in docs/load.md"]
async fn chaos_run() {
    let Ok(Some(cluster)) = Cluster::start(true) else {
        eprintln!("SKIPPED the chaos run: no PostgreSQL");
        return;
    };
    let url = cluster.url();
    let honest_url = url.clone();
    // This process's host is 5 s ahead of the worker's.
    let here = start(&url, 5_000).await;
    let (flag_tx, flag_rx) = mpsc::channel();
    report_flags(&here, flag_tx.clone());
    let mut worker = Worker::spawn(&honest_url, flag_tx);
    let mut rng = rand::rngs::StdRng::seed_from_u64(31);
    let mut games = Vec::with_capacity(GAMES);
    for i in 0..GAMES {
        let (a, b) = (user(&format!("p{i}a")), user(&format!("p{i}b")));
        let short = i % 4 == 0;
        let time = if short { SHORT } else { LONG };
        let id = challenge_id(act(&here, &a, rated_challenge(&b, Some(time))).await);
        let v = game(act(&here, &b, Action::AcceptChallenge { challenge: id }).await);
        let white_is_a =
            matches!(v.player(Side::White), toguz::manager::Player::Human(u) if *u == a);
        let players = if white_is_a { [a, b] } else { [b, a] };
        games.push(Tracked {
            id: v.id.clone(),
            players,
            position: Position::start(v.variant),
            acked: Vec::new(),
            short,
        });
    }
    let mut figures = Figures::default();
    let mut db_down: Vec<(u64, u64)> = Vec::new();
    let started = Instant::now();
    for round in 0..ROUNDS {
        if round == RESTART_DB_AT {
            // The short games' flags fall before the outage, so that they are measured.
            wait_for_flags(&here, &games).await;
        }
        let outage = (round == RESTART_DB_AT).then(|| {
            // Killed under the moves of this round, and started again 3 s later.
            let from = here.clock().now_ms();
            cluster.kill().expect("kill the database");
            let restart = cluster.restart_after(Duration::from_secs(3));
            (from, Instant::now(), restart)
        });
        for (n, g) in games.iter_mut().enumerate() {
            if g.short && round > FLAG_AFTER_ROUND {
                continue;
            }
            if g.position.is_over() {
                continue;
            }
            let pits: Vec<u8> = g.position.legal_moves().iter().collect();
            let pit = pits[rng.gen_range(0..pits.len())];
            let ply = g.position.ply();
            let who = g.mover().clone();
            figures.sent += 1;
            if round == KILL_WORKER_AT && n == GAMES / 2 + 1 {
                worker.kill_mid_move(&g.id, &who, ply, pit);
                resync(&here, g).await;
                worker.restart(&honest_url);
                continue;
            }
            let acked = if rng.gen_bool(0.5) {
                worker.play(&g.id, &who, ply, pit)
            } else {
                let action = Action::Move {
                    game: g.id.clone(),
                    ply: Some(ply),
                    pit,
                };
                act(&here, &who, action).await.is_ok()
            };
            if acked {
                figures.acked += 1;
                g.acked.push((ply, pit));
                let _ = g.position.play(pit);
            } else {
                figures.refused += 1;
                resync(&here, g).await;
            }
        }
        if let Some((from, t, restart)) = outage {
            restart
                .join()
                .expect("the restart")
                .expect("start the database again");
            figures.db_down_ms = t.elapsed().as_millis();
            // Until every pool has reconnected, count the window as down.
            db_down.push((from, here.clock().now_ms() + 2_000));
        }
    }
    // Half the long games end by resignation, rated; the short ones flag (8 s).
    for (i, g) in games.iter_mut().enumerate() {
        if g.short || i % 2 == 0 || g.position.is_over() {
            continue;
        }
        let who = g.mover().clone();
        let ply = Some(g.position.ply());
        let resign = Action::Resign {
            game: Some(g.id.clone()),
            ply,
        };
        if act(&here, &who, resign).await.is_err() {
            resync(&here, g).await;
        }
    }
    tokio::time::sleep(Duration::from_secs(12)).await;
    let elapsed = started.elapsed();
    let flags: HashMap<String, u64> = flag_rx.try_iter().collect();

    // Every acknowledged move is in the store.
    let mut finished_rated: HashMap<String, u32> = HashMap::new();
    let (mut flagged, mut flag_late_max, mut flag_early_max, mut during_outage) =
        (0, 0i128, 0i128, 0);
    for g in &games {
        let rec = stored(&here, &g.id).await.expect("every game is stored");
        for &(ply, pit) in &g.acked {
            assert_eq!(
                rec.moves.get(usize::from(ply)),
                Some(&pit),
                "game {}: the move acknowledged at ply {ply} is not stored: {:?}",
                g.id,
                rec.moves
            );
        }
        let GameStatus::Finished { reason, .. } = rec.status else {
            continue;
        };
        let has_result = !matches!(
            reason,
            FinishReason::Aborted | FinishReason::FirstMoveMissed(_)
        );
        if rec.rated && has_result {
            for p in &g.players {
                *finished_rated.entry(p.key()).or_default() += 1;
            }
        }
        if let FinishReason::TimedOut(side) = reason {
            flagged += 1;
            let clock = rec.clock.as_ref().expect("a timed game");
            let first_move_ms = ManagerConfig::default().clock.first_move_ms();
            let deadline = clock
                .deadline(
                    side,
                    u16::try_from(rec.moves.len()).unwrap_or(0),
                    first_move_ms,
                )
                .at_ms;
            if db_down
                .iter()
                .any(|&(from, to)| (from..=to).contains(&deadline))
            {
                during_outage += 1;
                continue;
            }
            let at = *flags
                .get(&g.id)
                .unwrap_or_else(|| panic!("game {}: nobody reported its flag", g.id));
            let off = i128::from(at) - i128::from(deadline);
            flag_late_max = flag_late_max.max(off);
            flag_early_max = flag_early_max.min(off);
            assert!(
                (-1_000..=1_000).contains(&off),
                "game {}: the flag fell {off} ms off the shared deadline",
                g.id
            );
        }
    }
    // Every finished rated game changed the two ratings exactly once.
    let mut rated_checked = 0;
    for g in &games {
        for p in &g.players {
            let stats = here
                .stats(p)
                .await
                .expect("stats")
                .unwrap_or_else(|| toguz::ratings::PlayerStats::new(p.clone()));
            let expected = finished_rated.get(&p.key()).copied().unwrap_or(0);
            assert_eq!(
                stats.rated_games(),
                expected,
                "{}: rated games counted",
                p.key()
            );
            rated_checked += usize::from(expected > 0);
        }
    }
    println!(
        "chaos run: {GAMES} games, {elapsed:.1?}; moves sent {}, acknowledged {} (all kept), \
         refused {}; database down {} ms; flags {flagged} ({during_outage} due while the \
         database was down), the others {flag_early_max}..{flag_late_max} ms off the shared \
         deadline; {rated_checked} players' ratings counted each rated game once",
        figures.sent, figures.acked, figures.refused, figures.db_down_ms
    );
    assert!(
        flagged >= GAMES / 4 / 2,
        "the short games flagged: {flagged}"
    );
    assert!(figures.acked > GAMES * 4, "moves were played: {figures:?}");
    drop(worker);
}
