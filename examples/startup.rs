//! Start-up time and memory against the size of the archive (docs/store.md).
//!
//! `cargo run --release --example startup` builds two stores under `target/tmp`, one with
//! 100,000 finished games and one with 10,000, each with 1,000 ongoing games and 10,000
//! closed challenges, then starts a fresh process on each that measures `Store::open` and
//! `Manager::start` and the process's resident memory before and after.
//! `... --example startup -- ARCHIVED LIVE` builds and measures one size.

use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::time::Instant;
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::{
    ChallengeRecord, ChallengeStatus, FinishReason, GameRecord, GameStatus, Manager, ManagerConfig,
    Player,
};
use toguz::model::{ChatRef, Platform, UserRef};
use toguz::rules::{Position, Side, Variant};
use toguz::store::{Batch, Store, StoreOptions, Tree, CLOSED_CHALLENGE_TTL_SECS};

const CLOSED_CHALLENGES: usize = 10_000;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [cmd, dir] if cmd == "measure" => measure(Path::new(dir)),
        [archived, live] => run(archived.parse()?, live.parse()?),
        [] => {
            run(100_000, 1_000)?;
            run(10_000, 1_000)
        }
        _ => anyhow::bail!("usage: startup [ARCHIVED LIVE]"),
    }
}

/// Builds a store of this size, then measures its start-up in a fresh process.
fn run(archived: usize, live: usize) -> anyhow::Result<()> {
    let dir = PathBuf::from(format!("target/tmp/startup-{archived}-{live}"));
    if !dir.exists() {
        let started = Instant::now();
        tokio::runtime::Runtime::new()?.block_on(build(&dir, archived, live))?;
        println!(
            "built {} ({archived} finished, {live} ongoing, {CLOSED_CHALLENGES} closed challenges) in {:.1} s, {} MB on disk",
            dir.display(),
            started.elapsed().as_secs_f64(),
            dir_size(&dir) / 1_000_000
        );
    }
    let status = std::process::Command::new(std::env::current_exe()?)
        .arg("measure")
        .arg(&dir)
        .status()?;
    anyhow::ensure!(status.success(), "the measuring process failed");
    Ok(())
}

/// A random game between two people: `plies` moves, or to its end with `None`.
fn random_moves(rng: &mut impl Rng, plies: Option<usize>) -> Vec<u8> {
    let mut position = Position::start(Variant::STANDARD);
    let mut moves = Vec::new();
    while !position.is_over() && plies.is_none_or(|n| moves.len() < n) {
        let legal: Vec<u8> = position.legal_moves().iter().collect();
        let pit = legal[rng.gen_range(0..legal.len())];
        if position.play(pit).is_err() {
            break;
        }
        moves.push(pit);
    }
    moves
}

fn record(n: usize, moves: Vec<u8>, status: GameStatus, now: u64) -> GameRecord {
    let user = |side: &str| UserRef::new(Platform::Telegram, format!("{side}{n}"), side);
    GameRecord {
        id: format!("g{n:07}"),
        chat: ChatRef::new(Platform::Telegram, format!("-{}", n % 500)),
        variant: Variant::STANDARD,
        players: [Player::Human(user("w")), Player::Human(user("b"))],
        moves,
        status,
        draw_offer: None,
        created_at: now,
        last_move_at: now,
        messages: vec![],
        seed: n as u64,
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

async fn build(dir: &Path, archived: usize, live: usize) -> anyhow::Result<()> {
    let store = Store::open(dir)?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_secs();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    // Whole random games are slow to make; 1,000 distinct ones are reused under new ids.
    let finished: Vec<Vec<u8>> = (0..1000).map(|_| random_moves(&mut rng, None)).collect();
    let done = GameStatus::Finished {
        winner: Some(Side::White),
        reason: FinishReason::Resigned(Side::Black),
    };
    let mut batch = Batch::new();
    for n in 0..archived {
        let rec = record(n, finished[n % finished.len()].clone(), done, now);
        batch.put(Tree::Archive, &rec.id, &rec)?;
        flush_every(&store, &mut batch).await?;
    }
    for n in archived..archived + live {
        let rec = record(
            n,
            random_moves(&mut rng, Some(20)),
            GameStatus::Ongoing,
            now,
        );
        batch.put(Tree::Games, &rec.id, &rec)?;
        flush_every(&store, &mut batch).await?;
    }
    for n in 0..CLOSED_CHALLENGES {
        let c = closed_challenge(n, now);
        batch.put(Tree::ClosedChallenges, &c.id, &c)?;
        batch.expire_at(
            Tree::ClosedChallenges,
            &c.id,
            now + CLOSED_CHALLENGE_TTL_SECS,
        );
        flush_every(&store, &mut batch).await?;
    }
    store.apply(batch).await?;
    store.commit().await?;
    store.flush()?;
    Ok(())
}

fn closed_challenge(n: usize, now: u64) -> ChallengeRecord {
    let user = |side: &str| UserRef::new(Platform::Telegram, format!("{side}{n}"), side);
    ChallengeRecord {
        id: format!("c{n:07}"),
        challenger: user("w"),
        opponent: Some(user("b")),
        variant: Variant::STANDARD,
        chat: ChatRef::new(Platform::Telegram, "-1"),
        created_at: now,
        expires_at: now + 600,
        status: ChallengeStatus::Declined,
        challenger_side: None,
        rematch_of: None,
        messages: vec![],
        rated: true,
        time_control: Default::default(),
        time_changeable: false,
        time_changes: 0,
    }
}

async fn flush_every(store: &Store, batch: &mut Batch) -> anyhow::Result<()> {
    if batch.len() >= 1000 {
        store.apply(std::mem::take(batch)).await?;
    }
    Ok(())
}

/// In a fresh process: open the store and start the manager, timing both, with the resident
/// memory before and after.
fn measure(dir: &Path) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    let before = rss_kb();
    let started = Instant::now();
    let ((archived, live), open_ms, manager, total_ms, after) = runtime.block_on(async {
        let store = Store::open_with(dir, &StoreOptions::default())?;
        let open_ms = started.elapsed().as_secs_f64() * 1000.0;
        let engine = EnginePool::new(EngineConfig::default());
        let manager = Manager::start(store.clone(), engine, ManagerConfig::default()).await?;
        let total_ms = started.elapsed().as_secs_f64() * 1000.0;
        let after = rss_kb();
        let counts = (
            store.count(Tree::Archive).await?,
            store.count(Tree::Games).await?,
        );
        anyhow::Ok((counts, open_ms, manager, total_ms, after))
    })?;
    println!(
        "{}: {} finished, {} ongoing: Store::open {open_ms:.0} ms, + Manager::start {:.0} ms = {total_ms:.0} ms; RSS {} MB before, {} MB after (+{} MB), loaded {:?}",
        dir.display(),
        archived,
        live,
        total_ms - open_ms,
        before / 1024,
        after / 1024,
        after.saturating_sub(before) / 1024,
        manager.loaded(),
    );
    Ok(())
}

/// This process's resident set size in KiB (Linux), 0 where unknown.
fn rss_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn dir_size(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => dir_size(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}
