use super::*;
use proptest::prelude::*;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn total(p: &Position) -> u32 {
    p.ring().iter().map(|&b| b as u32).sum::<u32>()
        + p.store(Side::White) as u32
        + p.store(Side::Black) as u32
}

#[test]
fn opening_pit_2_captures_black_1() {
    let mut p = Position::default();
    let r = p.play(2).unwrap();
    assert_eq!(
        (r.landing_side, r.landing_pit, r.captured),
        (Side::Black, 1, 10)
    );
    assert_eq!(r.notation().to_string(), "21");
    assert_eq!(p.store(Side::White), 10);
    assert_eq!(p.row(Side::White), [9, 1, 10, 10, 10, 10, 10, 10, 10]);
    assert_eq!(p.row(Side::Black), [0, 9, 9, 9, 9, 9, 9, 9, 9]);
    assert_eq!(p.to_move(), Side::Black);
}

#[test]
fn opening_pit_1_is_the_only_quiet_opening() {
    for pit in 1..=9 {
        let mut p = Position::default();
        let r = p.play(pit).unwrap();
        assert_eq!(r.captured == 0, pit == 1, "pit {pit}");
    }
    let mut p = Position::default();
    assert_eq!(p.play(1).unwrap().notation().to_string(), "19");
}

#[test]
fn single_ball_moves_to_the_next_pit() {
    let mut p = pos("1,0,0,0,0,0,0,0,80/1,0,0,0,0,0,0,0,0 40/40 w 20");
    let r = p.play(1).unwrap();
    assert_eq!((r.landing_side, r.landing_pit), (Side::White, 2));
    assert_eq!(p.pit(Side::White, 1), 0);
    assert_eq!(p.pit(Side::White, 2), 1);
}

#[test]
fn forty_balls_lap_the_board_twice() {
    // 40 balls from White 1: indices 0..40 cover every pit twice and 0..4 a third time.
    let mut p = pos("40,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1 50/55 w 30");
    let r = p.play(1).unwrap();
    // The last ball lands 39 pits on: index 39 % 18 = 3 -> White 4, own side.
    assert_eq!(
        (r.landing_side, r.landing_pit, r.captured),
        (Side::White, 4, 0)
    );
    assert_eq!(p.row(Side::White), [3, 4, 4, 4, 3, 3, 3, 3, 3]);
    assert_eq!(p.row(Side::Black), [3; 9]);
    assert_eq!(total(&p), 162);
}

#[test]
fn even_count_on_the_opponent_side_is_captured() {
    let mut p = pos("0,0,0,0,0,0,0,0,2/1,9,9,9,9,9,9,9,9 47/40 w 20");
    let r = p.play(9).unwrap();
    assert_eq!(
        (r.landing_side, r.landing_pit, r.captured),
        (Side::Black, 1, 2)
    );
    assert_eq!(p.store(Side::White), 49);
}

#[test]
fn landing_on_own_side_never_captures() {
    let mut p = pos("3,1,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 14/0 w 1");
    let r = p.play(1).unwrap();
    assert_eq!(
        (r.landing_side, r.landing_pit, r.captured),
        (Side::White, 3, 0)
    );
    assert_eq!(p.pit(Side::White, 3), 10);
}

#[test]
fn three_creates_a_tuzdek() {
    // White 9 holds 3: it sows White 9, Black 1, Black 2; Black 2 goes from 2 to 3.
    let mut p = pos("9,9,9,9,9,9,9,9,3/9,2,9,9,9,9,9,9,9 13/0 w 5");
    let r = p.play(9).unwrap();
    assert!(r.tuzdek_created);
    assert_eq!(r.notation().to_string(), "92X");
    assert_eq!(p.tuzdek(Side::White), Some(2));
    assert_eq!(p.store(Side::White), 16);
    assert_eq!(p.pit(Side::Black, 2), 0);
    assert!(p.is_tuzdek(Side::Black, 2));
    // Black cannot play its tuzdek pit.
    assert_eq!(p.play(2), Err(MoveError::TuzdekPit(2)));
    assert_eq!(total(&p), 162);
}

#[test]
fn one_tuzdek_per_player() {
    // White already owns Black 5; another 3 on Black 2 stays.
    let mut p = pos("9,9,9,9,9,9,9,9,3/9,2,9,9,x,9,9,9,9 22/0 w 5");
    let r = p.play(9).unwrap();
    assert!(!r.tuzdek_created);
    assert_eq!(p.pit(Side::Black, 2), 3);
    assert_eq!(p.tuzdek(Side::White), Some(5));
}

#[test]
fn no_tuzdek_on_the_opponents_ninth_pit() {
    // 10 balls from White 9: White 9, Black 1..9; Black 9 goes from 2 to 3.
    let mut p = pos("9,9,9,9,9,9,9,9,10/9,9,9,9,9,9,9,9,2 6/0 w 3");
    let r = p.play(9).unwrap();
    assert_eq!((r.landing_side, r.landing_pit), (Side::Black, 9));
    assert!(!r.tuzdek_created);
    assert_eq!(p.pit(Side::Black, 9), 3);
    assert_eq!(p.tuzdek(Side::White), None);
}

#[test]
fn ninth_pit_variant_allows_it() {
    let mut p = pos("9,9,9,9,9,9,9,9,10/9,9,9,9,9,9,9,9,2 6/0 w 3 ninth-tuzdek");
    let r = p.play(9).unwrap();
    assert!(r.tuzdek_created);
    assert_eq!(p.tuzdek(Side::White), Some(9));
}

#[test]
fn no_tuzdek_variant_never_creates_one() {
    let mut p = pos("9,9,9,9,9,9,9,9,3/9,2,9,9,9,9,9,9,9 13/0 w 5 no-tuzdek");
    let r = p.play(9).unwrap();
    assert!(!r.tuzdek_created);
    assert_eq!(p.pit(Side::Black, 2), 3);
}

#[test]
fn mirror_ban() {
    // Black owns White 2; White may not make Black 2 a tuzdek.
    let mut p = pos("9,x,9,9,9,9,9,9,3/9,2,9,9,9,9,9,9,9 10/12 w 5");
    let r = p.play(9).unwrap();
    assert!(!r.tuzdek_created);
    assert_eq!(p.pit(Side::Black, 2), 3);
}

#[test]
fn balls_sown_into_a_tuzdek_go_to_its_owner() {
    // Black owns White 3. White plays 1 with 5 balls: White 1..5, one ball into White 3.
    let mut p = pos("5,9,x,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 5/8 w 5");
    p.play(1).unwrap();
    assert_eq!(p.store(Side::Black), 9);
    assert_eq!(p.pit(Side::White, 3), 0);
    assert_eq!(total(&p), 162);
}

#[test]
fn reaching_82_wins_at_once() {
    let mut p = pos("0,0,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0,0 80/79 w 60");
    let r = p.play(9).unwrap();
    assert_eq!(r.captured, 2);
    let o = r.outcome.unwrap();
    assert_eq!((o.winner, o.reason), (Some(Side::White), EndReason::Kazan));
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.play(1), Err(MoveError::GameOver));
}

#[test]
fn eighty_one_each_is_a_draw() {
    let mut p = pos("0,0,0,0,0,0,0,0,2/0,0,0,0,0,0,0,0,0 79/81 w 60");
    // White 9 (2 balls): White 9 and Black 1 (0 -> 1): odd, nothing. Not a draw yet.
    let r = p.play(9).unwrap();
    assert_eq!(r.outcome.map(|o| o.reason), None);
    let mut p = pos("0,0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,0,0 79/81 w 60");
    let r = p.play(9).unwrap();
    let o = r.outcome.unwrap();
    assert_eq!((o.winner, o.reason), (None, EndReason::EqualKazans));
}

#[test]
fn atsyrau_sends_the_rest_to_the_row_owner() {
    let mut p = pos("0,0,0,0,0,0,0,1,5/0,0,0,0,0,0,0,0,0 76/80 w 60");
    let r = p.play(8).unwrap(); // White 8 -> White 9: Black is to move with an empty row
    let o = r.outcome.unwrap();
    assert_eq!(o.reason, EndReason::Atsyrau);
    assert_eq!(p.store(Side::White), 82);
    assert_eq!(p.store(Side::Black), 80);
    assert_eq!(o.winner, Some(Side::White));
    assert_eq!(p.ring(), &[0; 18]);
}

#[test]
fn atsyrau_is_rescued_by_the_opponents_reply() {
    // White empties its own row; Black's reply refills it, so the game goes on.
    let mut p = pos("0,0,0,0,0,0,0,0,1/9,9,9,9,9,9,9,9,9 40/40 w 30");
    let r = p.play(9).unwrap(); // the single ball goes to Black 1
    assert!(r.outcome.is_none());
    assert_eq!(p.balls_in_row(Side::White), 0);
    // Black 9 (9 balls): Black 9, White 1..8.
    let r = p.play(9).unwrap();
    assert!(r.outcome.is_none());
    assert_eq!(p.balls_in_row(Side::White), 8);
}

#[test]
fn illegal_moves_are_typed_errors() {
    let mut p = Position::default();
    assert_eq!(p.play(0), Err(MoveError::NoSuchPit(0)));
    assert_eq!(p.play(10), Err(MoveError::NoSuchPit(10)));
    assert_eq!(p.play(255), Err(MoveError::NoSuchPit(255)));
    let mut p = pos("0,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 9/0 w 2");
    assert_eq!(p.play(1), Err(MoveError::EmptyPit(1)));
}

#[test]
fn small_variants_have_their_own_thresholds() {
    let v = Variant::new(5, TuzdekRule::Standard).unwrap();
    assert_eq!(
        (v.total(), v.winning_store(), v.drawing_store()),
        (90, 46, 45)
    );
    let v = Variant::new(3, TuzdekRule::Off).unwrap();
    assert_eq!(
        (v.total(), v.winning_store(), v.drawing_store()),
        (54, 28, 27)
    );
    assert!(Variant::new(4, TuzdekRule::Standard).is_err());
    let p = Position::start(v);
    assert_eq!(Position::from_fen(&p.to_fen()).unwrap(), p);
}

#[test]
fn perft_from_the_start() {
    let p = Position::default();
    let expected = [9, 73, 613, 5199, 43184, 360035];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&p, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn fen_round_trips_and_rejects_garbage() {
    let p = Position::default();
    assert_eq!(p.to_fen(), "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 w 1");
    let f = "9,x,9,9,9,9,9,9,3/9,2,9,9,9,9,9,9,9 10/12 b 5";
    assert_eq!(pos(f).to_fen(), f);
    for bad in [
        "",
        "9,9,9/9 0/0 w 1",
        "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 w",
        "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 q 1",
        "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/1 w 1",
        "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 w 0",
        "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 w 1 wat",
        "9,9,9,9,9,9,9,9,x/9,9,9,9,9,9,9,9,18 0/0 w 1",
        "9,9,9,9,9,9,9,9,999/9,9,9,9,9,9,9,9,9 0/0 w 1",
        "x,x,9,9,9,9,9,9,18/9,9,9,9,9,9,9,9,9 0/0 w 1",
    ] {
        assert!(Position::from_fen(bad).is_err(), "{bad:?}");
    }
}

/// A random legal game from a seed, as a list of positions.
fn random_game(variant: Variant, picks: &[u8]) -> Vec<Position> {
    let mut p = Position::start(variant);
    let mut seen = vec![p];
    for &pick in picks {
        let moves: Vec<u8> = p.legal_moves().iter().collect();
        if moves.is_empty() {
            break;
        }
        p.play(moves[pick as usize % moves.len()]).unwrap();
        seen.push(p);
    }
    seen
}

fn any_variant() -> impl Strategy<Value = Variant> {
    (
        prop::sample::select(vec![9u8, 5, 3]),
        prop::sample::select(vec![
            TuzdekRule::Standard,
            TuzdekRule::Off,
            TuzdekRule::NinthAllowed,
        ]),
    )
        .prop_map(|(b, r)| Variant::new(b, r).unwrap())
}

proptest! {
    #[test]
    fn invariants_hold_in_every_game(variant in any_variant(),
                                     picks in prop::collection::vec(any::<u8>(), 0..300)) {
        for p in random_game(variant, &picks) {
            prop_assert_eq!(total(&p), variant.total() as u32);
            for side in Side::BOTH {
                if let Some(t) = p.tuzdek(side) {
                    prop_assert_eq!(p.pit(side.other(), t), 0);
                    if variant.tuzdek_rule() == TuzdekRule::Standard {
                        prop_assert!(t != 9);
                    }
                }
            }
            if let (Some(a), Some(b)) = (p.tuzdek(Side::White), p.tuzdek(Side::Black)) {
                prop_assert!(a != b);
            }
            if variant.tuzdek_rule() == TuzdekRule::Off {
                prop_assert_eq!(p.tuzdek(Side::White), None);
                prop_assert_eq!(p.tuzdek(Side::Black), None);
            }
            prop_assert_eq!(p.is_over(), p.legal_moves().is_empty());
            // The string carries the board, not how a finished game ended.
            let back = Position::from_fen(&p.to_fen()).unwrap();
            prop_assert_eq!(back.to_fen(), p.to_fen());
            prop_assert_eq!(back.outcome().map(|o| o.winner), p.outcome().map(|o| o.winner));
        }
    }

    #[test]
    fn a_tuzdek_once_made_stays(picks in prop::collection::vec(any::<u8>(), 0..300)) {
        let game = random_game(Variant::STANDARD, &picks);
        for w in game.windows(2) {
            for side in Side::BOTH {
                if let Some(t) = w[0].tuzdek(side) {
                    prop_assert_eq!(w[1].tuzdek(side), Some(t));
                }
            }
        }
    }

    #[test]
    fn play_never_panics(fen_picks in prop::collection::vec(any::<u8>(), 0..120), pit in any::<u8>()) {
        let game = random_game(Variant::STANDARD, &fen_picks);
        let mut p = *game.last().unwrap();
        let legal = p.is_legal(pit);
        prop_assert_eq!(p.play(pit).is_ok(), legal);
    }

    #[test]
    fn fen_parser_never_panics(s in "\\PC{0,80}") {
        let _ = Position::from_fen(&s);
    }

    #[test]
    fn record_parser_never_panics(s in "\\PC{0,200}") {
        let _ = parse_records(&s);
    }
}

#[test]
fn records_round_trip_through_text() {
    let picks: Vec<u8> = (0..400u32).map(|i| (i * 7 + 3) as u8).collect();
    let game = random_game(Variant::STANDARD, &picks);
    let mut pos = Position::default();
    let mut reports = Vec::new();
    for next in &game[1..] {
        let pit = pos
            .legal_moves()
            .iter()
            .find(|&pit| {
                let mut p = pos;
                p.play(pit).is_ok() && p == *next
            })
            .unwrap();
        reports.push(pos.play(pit).unwrap());
    }
    assert!(pos.is_over());
    let headers = vec![("White".to_string(), "Ақ \"A\"".to_string())];
    for playok in [false, true] {
        let text = write_record(&headers, Position::default(), &reports, None, playok);
        let record = parse_record(&text).unwrap();
        assert_eq!(record.header("White"), Some("Ақ 'A'"));
        let replayed = replay(&record, record.start_position().unwrap()).unwrap();
        assert_eq!(replayed.last().unwrap().position, pos);
        assert_eq!(
            record.zero,
            pos.outcome().unwrap().reason == EndReason::Atsyrau
        );
    }
}

#[test]
fn records_keep_variants_and_start_positions() {
    let variant = Variant::new(5, TuzdekRule::NinthAllowed).unwrap();
    let mut pos = Position::start(variant);
    let r1 = pos.play(3).unwrap();
    let text = write_record(&[], Position::start(variant), &[r1], None, false);
    let record = parse_record(&text).unwrap();
    assert_eq!(record.start_position().unwrap().variant(), variant);
    // A record that starts from a position.
    let text = write_record(&[], pos, &[], None, false);
    let record = parse_record(&text).unwrap();
    assert_eq!(record.start_position().unwrap(), pos);
}

#[test]
fn move_text_numbers_pairs() {
    let mut p = Position::default();
    let a = p.play(7).unwrap();
    let b = p.play(9).unwrap();
    let c = p.play(6).unwrap();
    assert_eq!(
        move_text(Position::default(), &[a, b, c], false),
        "1. 76 98 2. 66"
    );
    let mut q = Position::default();
    q.play(7).unwrap();
    assert_eq!(move_text(q, &[b], false), "1... 98");
}
