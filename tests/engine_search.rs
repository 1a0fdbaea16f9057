//! The engine as the bot uses it: legal moves everywhere, wins taken, losses avoided,
//! deadlines kept, cancellation honoured, results reproducible.

use proptest::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use toguz::engine::{
    choose_move, level_move, plies_to_end, EngineConfig, EngineError, EnginePool, Limits, Searcher,
};
use toguz::model::Level;
use toguz::rules::{Position, Side, TuzdekRule, Variant};

/// Every level, with hard and max given a few milliseconds so the test stays quick.
fn quick_moves(pos: &Position, seed: u64) -> Vec<(Level, Option<u8>)> {
    Level::ALL
        .into_iter()
        .map(|level| {
            let budget = level
                .budget(&EngineConfig::default())
                .map(|_| Duration::from_millis(3));
            (level, level_move(pos, level, budget, seed, None))
        })
        .collect()
}

/// A position `plies` random half-moves into a game of `variant`.
fn random_position(variant: Variant, seed: u64, plies: u32) -> Position {
    use rand::{seq::IteratorRandom, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::start(variant);
    for _ in 0..plies {
        let Some(pit) = pos.legal_moves().iter().choose(&mut rng) else {
            break;
        };
        pos.play(pit).unwrap();
    }
    pos
}

fn variants() -> impl Strategy<Value = Variant> {
    (
        prop::sample::select(vec![9u8, 5, 3]),
        prop::sample::select(vec![
            TuzdekRule::Standard,
            TuzdekRule::Off,
            TuzdekRule::NinthAllowed,
        ]),
    )
        .prop_map(|(balls, rule)| Variant::new(balls, rule).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Whatever the variant and the position, every level and every kind of search limit
    /// answers a legal move, and only a finished game has none.
    #[test]
    fn never_an_illegal_move(variant in variants(), seed in any::<u64>(), plies in 0u32..160) {
        let pos = random_position(variant, seed, plies);
        for (level, chosen) in quick_moves(&pos, seed) {
            match chosen {
                Some(pit) => prop_assert!(pos.is_legal(pit), "{level} chose {pit} in {pos:?}"),
                None => prop_assert!(pos.is_over(), "{level} found no move in {pos:?}"),
            }
        }
        for limits in [
            Limits { depth: Some(1 + (seed % 7) as u32), ..Limits::default() },
            Limits { nodes: Some(500), ..Limits::default() },
        ] {
            let result = Searcher::new(1).search(&pos, limits, |_| {});
            match result.best_move {
                Some(pit) => {
                    prop_assert!(pos.is_legal(pit));
                    // The principal variation is a playable line starting with the move.
                    prop_assert_eq!(result.info.pv.first().copied().unwrap_or(pit), pit);
                    let mut p = pos;
                    for &m in &result.info.pv {
                        prop_assert!(p.play(m).is_ok(), "pv {:?} in {:?}", result.info.pv, pos);
                    }
                }
                None => prop_assert!(pos.is_over()),
            }
        }
    }
}

/// White to move, store 78: pit 9's single ball turns Black's pit 1 from 3 into 4, a capture
/// reaching 82. Pit 1 captures nothing.
const CAPTURE_TO_82: &str = "2,0,0,0,0,0,0,0,1/3,5,5,5,5,5,5,5,5 78/38 w 30";
/// White to move, store 79: pit 9's ball makes Black's pit 1 a 3, which becomes White's
/// tuzdek, and its 3 balls take White to 82.
const TUZDEK_TO_82: &str = "2,0,0,0,0,0,0,0,1/2,5,5,5,5,5,5,5,5 79/38 w 30";

fn assert_every_level_plays(fen: &str, expected: u8) {
    let pos = Position::from_fen(fen).unwrap();
    let mut after = pos;
    let report = after.play(expected).unwrap();
    assert_eq!(report.outcome.and_then(|o| o.winner), Some(Side::White));
    for (level, chosen) in quick_moves(&pos, 11) {
        if level != Level::Random {
            assert_eq!(chosen, Some(expected), "{level} in {fen}");
        }
    }
    let result = Searcher::new(1).search(
        &pos,
        Limits {
            depth: Some(6),
            ..Limits::default()
        },
        |_| {},
    );
    assert_eq!(result.best_move, Some(expected));
    assert_eq!(
        plies_to_end(result.info.score),
        Some(1),
        "an exact win in one ply"
    );
}

#[test]
fn takes_a_capture_that_reaches_82() {
    assert_every_level_plays(CAPTURE_TO_82, 9);
}

#[test]
fn takes_a_tuzdek_that_decides_the_game() {
    assert_every_level_plays(TUZDEK_TO_82, 9);
    // Without tuzdeks the same 3 is just odd: no win there.
    let no_tuzdek = Position::from_fen(&format!("{TUZDEK_TO_82} no-tuzdek")).unwrap();
    let mut p = no_tuzdek;
    assert!(p.play(9).unwrap().outcome.is_none());
}

/// Whether the side to move after `mv` can win at once.
fn allows_a_win_in_one(pos: &Position, mv: u8) -> bool {
    let mut after = *pos;
    after.play(mv).unwrap();
    after.legal_moves().iter().any(|reply| {
        let mut p = after;
        let r = p.play(reply).unwrap();
        r.outcome.and_then(|o| o.winner) == Some(r.side)
    })
}

#[test]
fn avoids_a_move_that_loses_at_once() {
    // Black (store 78) threatens pit 9 -> White's pit 1 (3 -> 4): a capture to 82. Only
    // White's pit 1 move breaks the threat; pit 2 leaves it.
    let pos = Position::from_fen("3,2,0,0,0,0,0,0,0/2,0,0,0,0,0,0,0,1 76/78 w 60").unwrap();
    assert!(allows_a_win_in_one(&pos, 2));
    assert!(!allows_a_win_in_one(&pos, 1));
    for (level, chosen) in quick_moves(&pos, 5) {
        if level != Level::Random {
            assert_eq!(chosen, Some(1), "{level}");
        }
    }
}

#[test]
fn prefers_the_faster_win() {
    // White wins at once with pit 9; the search must report a win in exactly one ply even
    // with deeper wins around.
    let pos = Position::from_fen(CAPTURE_TO_82).unwrap();
    let mut searcher = Searcher::new(1);
    for depth in 1..=9 {
        let r = searcher.search(
            &pos,
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            |_| {},
        );
        assert_eq!(
            (r.best_move, plies_to_end(r.info.score)),
            (Some(9), Some(1))
        );
    }
}

#[test]
fn fixed_depth_searches_and_levels_are_reproducible() {
    let pos = random_position(Variant::STANDARD, 3, 20);
    let limits = Limits {
        depth: Some(8),
        ..Limits::default()
    };
    let a = Searcher::new(4).search(&pos, limits, |_| {});
    let b = Searcher::new(4).search(&pos, limits, |_| {});
    assert_eq!(
        (a.best_move, a.info.score, a.info.nodes, &a.info.pv),
        (b.best_move, b.info.score, b.info.nodes, &b.info.pv)
    );
    let config = EngineConfig::default();
    for level in [Level::Random, Level::Beginner, Level::Easy, Level::Medium] {
        for seed in 0..5 {
            assert_eq!(
                choose_move(&pos, level, &config, seed),
                choose_move(&pos, level, &config, seed),
                "{level}"
            );
        }
    }
}

#[test]
fn a_timed_search_answers_within_its_budget() {
    let config = EngineConfig {
        hard_ms: 100,
        ..EngineConfig::default()
    };
    let started = Instant::now();
    let pit = choose_move(&Position::default(), Level::Hard, &config, 1);
    // Safety bound only (timing figures are measured in benches/engine.rs).
    assert!(started.elapsed() < Duration::from_millis(1000));
    assert!(Position::default().is_legal(pit.unwrap()));
}

#[test]
fn a_stop_flag_ends_a_long_search_with_a_legal_move() {
    let mut searcher = Searcher::new(4);
    let flag = Arc::new(AtomicBool::new(false));
    searcher.set_stop_flag(flag.clone());
    let pos = random_position(Variant::STANDARD, 9, 10);
    let worker = std::thread::spawn(move || {
        let limits = Limits {
            movetime: Some(Duration::from_secs(600)),
            ..Limits::default()
        };
        searcher.search(&pos, limits, |_| {}).best_move
    });
    std::thread::sleep(Duration::from_millis(50));
    flag.store(true, Ordering::Relaxed);
    let started = Instant::now();
    let best = worker.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(pos.is_legal(best.unwrap()));
}

#[test]
fn the_pool_answers_many_games_and_cancels_dropped_searches() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let pool = EnginePool::new(EngineConfig {
        hard_ms: 20,
        max_ms: 600_000,
        max_concurrent: 2,
    });
    rt.block_on(async {
        let games: Vec<Position> = (0..6)
            .map(|s| random_position(Variant::STANDARD, s, 8))
            .collect();
        let answers = futures_join(&pool, &games).await;
        for (pos, answer) in games.iter().zip(answers) {
            assert!(pos.is_legal(answer.unwrap()));
        }
        let finished =
            Position::from_fen("0,0,0,0,0,0,0,0,0/10,10,10,10,10,10,10,10,0 82/0 b 40").unwrap();
        assert_eq!(
            pool.choose_move(finished, Level::Hard, 1).await,
            Err(EngineError::NoMove)
        );
        // A ten-minute search, abandoned after 50 ms.
        let slow = pool.choose_move(Position::default(), Level::Max, 1);
        assert!(tokio::time::timeout(Duration::from_millis(50), slow)
            .await
            .is_err());
    });
    // Shutting down waits for blocking tasks: quick only if the abandoned search stopped.
    let started = Instant::now();
    rt.shutdown_timeout(Duration::from_secs(120));
    assert!(started.elapsed() < Duration::from_secs(30));
}

async fn futures_join(pool: &EnginePool, games: &[Position]) -> Vec<Result<u8, EngineError>> {
    let tasks: Vec<_> = games
        .iter()
        .enumerate()
        .map(|(i, &pos)| {
            let pool = pool.clone();
            tokio::spawn(async move { pool.choose_move(pos, Level::Hard, i as u64).await })
        })
        .collect();
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.unwrap_or(Err(EngineError::TaskFailed)));
    }
    out
}
