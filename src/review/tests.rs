use super::*;
use crate::rules::{parse_record, replay, EndReason};

/// A small budget keeps the unit tests quick; every claim below holds at it.
const NODES: u64 = 20_000;

fn options() -> ReviewOptions {
    ReviewOptions { nodes: NODES }
}

/// The pits of a record's moves, and how its game ended on the board (if it did).
fn pits_of(text: &str) -> (Vec<u8>, Position) {
    let record = parse_record(text).expect("a record");
    let start = record.start_position().expect("a start");
    let plies = replay(&record, start).expect("a legal record");
    let end = plies.last().map(|p| p.position).expect("moves");
    (plies.iter().map(|p| p.report.pit).collect(), end)
}

/// The most balls the side to move in `pos` can capture with one move.
fn biggest_capture(pos: &Position) -> u8 {
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut p = *pos;
            p.play(m).map(|r| r.captured).unwrap_or(0)
        })
        .max()
        .unwrap_or(0)
}

/// A move in `pos` that captures nothing and lets the opponent capture at least 20 balls,
/// if there is one and another move gives away fewer than 10.
fn blunder_in(pos: &Position) -> Option<u8> {
    let mut blunder = None;
    let mut safe = false;
    for m in pos.legal_moves().iter() {
        let mut after = *pos;
        let Ok(report) = after.play(m) else { continue };
        if report.outcome.is_some() {
            continue;
        }
        let given = biggest_capture(&after);
        if given >= 20 && report.captured == 0 {
            blunder = Some(m);
        }
        safe |= given < 10;
    }
    blunder.filter(|_| safe)
}

#[test]
fn a_planted_blunder_is_the_largest_mistake_with_the_right_better_move() {
    // The engine plays both sides (at the review's own budget, so none of its moves is a
    // mistake) until a move that hands the opponent 20 balls turns up; that blunder is
    // planted, the opponent takes the balls, and the engine plays on for a few moves.
    let mut searcher = Searcher::new(TABLE_MB);
    let mut pos = Position::default();
    let mut pits = Vec::new();
    let blunder = loop {
        assert!(
            pos.ply() < 150 && !pos.is_over(),
            "no blunder chance came up"
        );
        if let Some(m) = blunder_in(&pos) {
            break m;
        }
        let (_, best) = judge(&mut searcher, &pos, NODES);
        pos.play(best).expect("the engine's move is legal");
        pits.push(best);
    };
    let before_blunder = pos;
    let blunder_ply = pits.len() + 1;
    let side = pos.to_move();
    pos.play(blunder).expect("legal");
    pits.push(blunder);
    let taken = biggest_capture(&pos);
    for _ in 0..6 {
        if pos.is_over() {
            break;
        }
        let (_, best) = judge(&mut searcher, &pos, NODES);
        pos.play(best).expect("legal");
        pits.push(best);
    }

    let review = review_game(Position::default(), &pits, options()).expect("review");
    let mistakes = review.largest_mistakes(side);
    let largest = mistakes.first().expect("a mistake");
    assert_eq!(largest.ply, blunder_ply, "{taken} balls handed over");
    assert!(largest.loss >= 15 * BALL, "loss {}", largest.loss);
    assert_ne!(largest.best_pit, blunder);
    // The better move gives nothing of the kind away.
    let mut better = before_blunder;
    better
        .play(largest.best_pit)
        .expect("the better move is legal");
    assert!(biggest_capture(&better) < 10);
    assert_eq!(largest.best, move_text(&before_blunder, largest.best_pit));
    assert_eq!(
        review.marked_mistakes().first().map(|m| m.index + 1),
        Some(blunder_ply)
    );
    assert!(review.accuracy(side) < review.accuracy(side.other()));
}

/// PlayOK 9251732 (2025-01-20): Black wins by atsyrau on the 23rd move.
const ATSYRAU_GAME: &str = "1. 65(10) 65(10) 2. 99 89(12) 3. 56 78(24) 4. 46X 35X 5. \
14(28) 14(32) 6. 72 83(48) 7. 92(46) 59 8. 14 13 9. 81(49) 23 10. 78 38 11. 89 73(50) \
12. 92 82(70) 13. 62(52) 78 14. 78 34 15. 91 13 16. 81(54) 47 17. 67 78 18. 78 81(74) \
19. 45 23 20. 89 45 21. 89 34 22. 93(57) 12 23. 91 12 0-1 {zero}";

/// Kazakhstan Cup 2018, Исаханов - Шораев: Black resigned after White's 13th move.
const RESIGNED_GAME: &str = "1. 76 98 2. 66 87 3. 12 76 4. 25 78 5. 48 36x 6. 94 16 7. 84 82 \
8. 91x 89 9. 17 26 10. 91 23 11. 49 63 12. 23 73 13. 91 51 1-0";

#[test]
fn a_game_ending_by_atsyrau_is_reviewed() {
    let (pits, end) = pits_of(ATSYRAU_GAME);
    assert_eq!(end.outcome().map(|o| o.reason), Some(EndReason::Atsyrau));
    let review = review_game(Position::default(), &pits, options()).expect("review");
    assert_eq!(review.plies.len(), pits.len());
    let last = review.plies.last().expect("plies");
    // Black won: the last position is a decided game for Black.
    assert_eq!(last.after, Eval(-WIN));
    assert_eq!(last.after.balls(), -(CLIP_BALLS as f64));
    assert!(review.plies.iter().all(|p| p.loss >= 0));
    assert!(review.accuracy(Side::White).is_some());
}

#[test]
fn a_resigned_game_is_reviewed() {
    let (pits, end) = pits_of(RESIGNED_GAME);
    assert!(end.outcome().is_none());
    let review = review_game(Position::default(), &pits, options()).expect("review");
    assert_eq!(review.plies.len(), 26);
    let last = review.plies.last().expect("plies");
    assert_eq!(last.after.plies_to_end(), None);
    // Every half-move names a legal better move.
    for p in &review.plies {
        assert!(p.position_before.is_legal(p.best_pit), "ply {}", p.ply);
        assert!(!p.best.is_empty());
    }
}

#[test]
fn the_same_game_reviewed_twice_gives_the_same_review() {
    let (pits, _) = pits_of(RESIGNED_GAME);
    let a = review_game(Position::default(), &pits, options()).expect("review");
    let b = review_game(Position::default(), &pits, options()).expect("review");
    assert_eq!(a, b);
    let json = |r: &Review| {
        r.plies
            .iter()
            .map(|p| serde_json::to_string(&PlyJson::from(p)).expect("json"))
            .collect::<Vec<_>>()
    };
    assert_eq!(json(&a), json(&b));
}

#[test]
fn evaluations_are_from_whites_side() {
    // White's first move 99 lets Black capture nothing; after Black's reply the engine's
    // sign flips with the side to move, but the review's stays White's.
    let mut searcher = Searcher::new(TABLE_MB);
    let mut pos = Position::default();
    pos.play(1).expect("legal");
    let (eval, best) = judge(&mut searcher, &pos, NODES);
    searcher.clear();
    let raw = searcher
        .search(
            &pos,
            Limits {
                nodes: Some(NODES),
                ..Limits::default()
            },
            |_| {},
        )
        .info
        .score;
    assert_eq!(
        eval,
        Eval(-raw),
        "Black to move: White's side is the negation"
    );
    assert!(pos.is_legal(best));
}

#[test]
fn bad_games_and_budgets_are_refused() {
    let start = Position::default();
    assert_eq!(
        review_game(start, &[], options()),
        Err(ReviewError::NoMoves)
    );
    assert!(matches!(
        review_game(start, &[1, 0], options()),
        Err(ReviewError::Illegal { ply: 2, .. })
    ));
    assert_eq!(
        review_game(start, &[1], ReviewOptions { nodes: 1 }),
        Err(ReviewError::Budget)
    );
}

#[test]
fn accuracy_follows_the_loss() {
    assert!((move_accuracy(300, 300) - 100.0).abs() < 0.01);
    assert!(move_accuracy(0, -2000) < move_accuracy(0, -500));
    assert!(move_accuracy(0, -500) < 100.0);
    // Gains are not rewarded beyond a perfect move.
    assert!((move_accuracy(0, 500) - move_accuracy(0, 0)).abs() < 1e-9);
    assert!((win_chance(0) - 0.5).abs() < 1e-12);
}

#[test]
fn a_stored_review_rebuilds_the_same_review_and_only_for_its_game() {
    let (pits, _) = pits_of(RESIGNED_GAME);
    let review = review_game(Position::default(), &pits, options()).expect("review");
    let stored = review.stored();
    assert_eq!(stored.judged.len(), pits.len() + 1);
    let text = serde_json::to_string(&stored).expect("json");
    let back: StoredReview = serde_json::from_str(&text).expect("json");
    let rebuilt = Review::from_stored(Position::default(), &pits, &back).expect("rebuilt");
    assert_eq!(rebuilt, review);
    // Another game's moves: refused, never a wrong review.
    assert_eq!(
        Review::from_stored(Position::default(), &pits[..pits.len() - 1], &back),
        Err(ReviewError::Mismatch)
    );
}
