use super::*;
use proptest::prelude::*;

fn r(rating: f64, deviation: f64) -> Rating {
    Rating {
        rating,
        deviation,
        volatility: 0.06,
    }
}

#[test]
fn glickmans_worked_example() {
    // Glickman, "Example of the Glicko-2 system" (2013): 1500/200 beats 1400/30 and loses to
    // 1550/100 and 1700/300 in one period.
    let games = [
        (r(1400.0, 30.0), Score::Win),
        (r(1550.0, 100.0), Score::Loss),
        (r(1700.0, 300.0), Score::Loss),
    ];
    let new = after_period(r(1500.0, 200.0), &games);
    assert!((new.rating - 1464.06).abs() < 0.01, "{new:?}");
    assert!((new.deviation - 151.52).abs() < 0.01, "{new:?}");
    assert!((new.volatility - 0.05999).abs() < 0.0001, "{new:?}");
}

#[test]
fn one_game_moves_both_ratings_by_mirror_amounts_between_equals() {
    let (w, l) = after_game(Rating::default(), Rating::default(), Score::Win);
    assert!(w.rating > 1500.0 && l.rating < 1500.0);
    assert!((w.rating - 1500.0 - (1500.0 - l.rating)).abs() < 1e-9);
    // The crate's own doc example: 1500/350 beating 1500/350 gives about 1662/290.
    assert_eq!(w.rating.round(), 1662.0);
    assert_eq!(w.deviation.round(), 290.0);
    let (d1, d2) = after_game(Rating::default(), Rating::default(), Score::Draw);
    assert!((d1.rating - 1500.0).abs() < 1e-9 && (d2.rating - 1500.0).abs() < 1e-9);
    assert!(d1.deviation < 350.0);
}

#[test]
fn an_upset_moves_more_than_an_expected_win() {
    let strong = r(1800.0, 60.0);
    let weak = r(1400.0, 60.0);
    let (s1, _) = after_game(strong, weak, Score::Win);
    let (_, w2) = after_game(strong, weak, Score::Loss);
    assert!(s1.rating - strong.rating < w2.rating - weak.rating);
}

#[test]
fn provisional_ratings_are_marked() {
    assert_eq!(Rating::default().shown(), "1500?");
    assert_eq!(r(1511.6, 80.0).shown(), "1512");
    let change = RatingChange {
        before: r(1500.4, 80.0),
        after: r(1511.6, 78.0),
    };
    assert_eq!(change.shown(), "1512 (+12)");
    let down = RatingChange {
        before: r(1500.0, 200.0),
        after: r(1488.2, 190.0),
    };
    assert_eq!(down.shown(), "1488? (-12)");
}

#[test]
fn a_corrupt_stored_rating_is_repaired_not_spread() {
    let bad = Rating {
        rating: f64::NAN,
        deviation: f64::INFINITY,
        volatility: -1.0,
    };
    let (a, b) = after_game(bad, Rating::default(), Score::Win);
    for x in [a, b] {
        assert!(x.rating.is_finite() && x.deviation.is_finite() && x.volatility.is_finite());
    }
}

fn rating() -> impl Strategy<Value = Rating> {
    (0.0..4000.0f64, MIN_DEVIATION..=MAX_DEVIATION, 0.01..0.2f64).prop_map(
        |(rating, deviation, volatility)| Rating {
            rating,
            deviation,
            volatility,
        },
    )
}

fn score() -> impl Strategy<Value = Score> {
    prop_oneof![Just(Score::Win), Just(Score::Draw), Just(Score::Loss)]
}

proptest! {
    #[test]
    fn ratings_never_nan_and_deviation_stays_in_bounds(
        a in rating(),
        b in rating(),
        games in proptest::collection::vec(score(), 1..40),
    ) {
        let (mut a, mut b) = (a, b);
        for s in games {
            let (na, nb) = after_game(a, b, s);
            for x in [na, nb] {
                prop_assert!(x.rating.is_finite() && x.volatility.is_finite());
                prop_assert!((MIN_DEVIATION..=MAX_DEVIATION).contains(&x.deviation), "{:?}", x);
            }
            // A winner never loses points, a loser never gains.
            match s {
                Score::Win => prop_assert!(na.rating >= a.rating && nb.rating <= b.rating),
                Score::Loss => prop_assert!(na.rating <= a.rating && nb.rating >= b.rating),
                Score::Draw => {}
            }
            (a, b) = (na, nb);
        }
    }
}

#[test]
fn a_new_player_is_established_after_a_handful_of_games() {
    let games = super::games_to_establish();
    assert!((5..=30).contains(&games), "{games}");
}
