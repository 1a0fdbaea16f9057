//! Tie-break tests on small tournaments computed by hand (values in the
//! comments are in points; the code keeps tenths and hundredths).

use super::*;
use crate::pairing::trf::{self, Color, TrfPlayer};

/// Builds a tournament from one row a player: (rating, round entries), each
/// entry `"opponent colour code"` as in TRF (`"4 w 1"`, `"0 - U"`, `""` for
/// an absence). The file is written and read back, so it is a valid TRF.
fn event(rows: &[(u32, &[&str])]) -> Tournament {
    let mut players = Vec::new();
    for (index, (rating, entries)) in rows.iter().enumerate() {
        let rounds: Vec<RoundEntry> = entries.iter().map(|e| entry(e)).collect();
        players.push(TrfPlayer {
            number: index + 1,
            name: format!("Player {}", index + 1),
            rating: *rating,
            points: rounds.iter().map(RoundEntry::points).sum(),
            rank: 0,
            rounds,
        });
    }
    let t = Tournament {
        name: None,
        players,
        total_rounds: Some(rows.iter().map(|r| r.1.len()).max().unwrap_or(1).max(1)),
        initial_color: Some(Color::White),
    };
    trf::parse(&trf::write(&t)).expect("a consistent hand-made tournament")
}

fn entry(text: &str) -> RoundEntry {
    let parts: Vec<&str> = text.split_whitespace().collect();
    if parts.is_empty() {
        return RoundEntry {
            opponent: None,
            color: None,
            code: ' ',
        };
    }
    let opponent: usize = parts[0].parse().expect("opponent");
    RoundEntry {
        opponent: (opponent > 0).then_some(opponent),
        color: match parts[1] {
            "w" => Some(Color::White),
            "b" => Some(Color::Black),
            _ => None,
        },
        code: parts[2].chars().next().expect("code"),
    }
}

/// (rank, pairing number, score in tenths) in standings order.
fn ranks(rows: &[Standing]) -> Vec<(usize, usize, u32)> {
    rows.iter().map(|r| (r.rank, r.number, r.score)).collect()
}

fn of(rows: &[Standing], number: usize) -> &Standing {
    rows.iter().find(|r| r.number == number).expect("player")
}

/// 6 players, 4 rounds, every game played.
/// R1 1-4 1-0, 5-2 ½, 3-6 0-1; R2 6-1 0-1, 2-3 1-0, 4-5 1-0;
/// R3 1-2 ½, 4-6 0-1, 5-3 0-1; R4 3-1 0-1, 2-4 1-0, 5-6 ½.
fn plain() -> Tournament {
    event(&[
        (2000, &["4 w 1", "6 b 1", "2 w =", "3 b 1"]),
        (1900, &["5 b =", "3 w 1", "1 b =", "4 w 1"]),
        (1800, &["6 w 0", "2 b 0", "5 b 1", "1 w 0"]),
        (1700, &["1 b 0", "5 w 1", "6 w 0", "2 b 0"]),
        (1600, &["2 w =", "4 b 0", "3 w 0", "6 w ="]),
        (1500, &["3 b 1", "1 w 0", "4 b 1", "5 b ="]),
    ])
}

#[test]
fn a_plain_event_is_ranked_by_score_then_buchholz_and_exact_ties_share_a_rank() {
    let rows = standings(&plain());
    // Scores 3.5, 3, 1, 1, 1, 2.5. Players 3 and 4 (1 point) have BH 10, C1 9,
    // SB 1, one win each, have not met (no DE) and the same ARO 1750: shared 4th.
    assert_eq!(
        ranks(&rows),
        vec![
            (1, 1, 35),
            (2, 2, 30),
            (3, 6, 25),
            (4, 3, 10),
            (4, 4, 10),
            (6, 5, 10)
        ]
    );
    // Player 1 met 4 (1), 6 (2.5), 2 (3), 3 (1): BH 7.5, C1 6.5, SB 1+2.5+1.5+1 = 6.
    let first = of(&rows, 1);
    assert_eq!(
        (first.buchholz, first.buchholz_cut1, first.sonneborn_berger),
        (75, 65, 600)
    );
    assert_eq!((first.won, first.aro), (3, 1725));
    // Player 2: ½·1 + 1 + ½·3.5 + 1 = 4.25.
    assert_eq!(of(&rows, 2).sonneborn_berger, 425);
    let (three, four) = (of(&rows, 3), of(&rows, 4));
    assert_eq!(
        (
            three.buchholz,
            three.buchholz_cut1,
            three.sonneborn_berger,
            three.aro
        ),
        (100, 90, 100, 1750)
    );
    assert_eq!(three.direct_encounter, None);
    assert_eq!(full_key(three), full_key(four));
    // Player 5: BH 3+1+1+2.5 = 7.5, below 3 and 4.
    assert_eq!(of(&rows, 5).buchholz, 75);
}

#[test]
fn a_pairing_bye_counts_as_a_game_against_a_dummy_with_the_players_own_score() {
    // 5 players, 3 rounds, a pairing-allocated bye each round (3, 4, 5).
    let t = event(&[
        (2000, &["4 w 1", "2 b =", "3 w 0"]),
        (1900, &["5 b 1", "1 w =", "4 w 1"]),
        (1800, &["0 - U", "5 w 1", "1 b 1"]),
        (1700, &["1 b 0", "0 - U", "2 b 0"]),
        (1600, &["2 w 0", "3 b 0", "0 - U"]),
    ]);
    let rows = standings(&t);
    assert_eq!(
        ranks(&rows),
        vec![(1, 3, 30), (2, 2, 25), (3, 1, 15), (4, 5, 10), (5, 4, 10)]
    );
    // Player 3: dummy 3 + opponents 1 and 1.5 = 5.5; no VUR, so Cut-1 drops 1;
    // SB 3·1 + 1·1 + 1.5·1 = 5.5; ARO over the two games only.
    let three = of(&rows, 3);
    assert_eq!(
        (three.buchholz, three.buchholz_cut1, three.sonneborn_berger),
        (55, 45, 550)
    );
    assert_eq!((three.won, three.aro), (2, 1800));
    // Player 1: 1 + 2.5 + 3 = 6.5, SB 1 + 1.25 = 2.25.
    assert_eq!(
        (of(&rows, 1).buchholz, of(&rows, 1).sonneborn_berger),
        (65, 225)
    );
    // 5 and 4 tie on 1 point; 5's opponents were stronger: BH 6.5 against 5.
    assert_eq!((of(&rows, 5).buchholz, of(&rows, 4).buchholz), (65, 50));
    // A bye is not a game won over the board.
    assert_eq!(of(&rows, 4).won, 0);
}

#[test]
fn a_forfeit_is_an_unplayed_round_for_both_players() {
    // R1 1-3 1-0, 2-4 +/- (forfeit); R2 1-2 ½, 3-4 1-0; R3 4-1 ½, 2-3 0-1.
    let t = event(&[
        (2000, &["3 w 1", "2 w =", "4 b ="]),
        (1900, &["4 w +", "1 b =", "3 w 0"]),
        (1800, &["1 b 0", "4 w 1", "2 b 1"]),
        (1700, &["2 b -", "3 b 0", "1 w ="]),
    ]);
    let rows = standings(&t);
    // 1 and 3 both have 2 points, BH 4, C1 3.5; SB 3 against 2 puts 1 first.
    assert_eq!(
        ranks(&rows),
        vec![(1, 1, 20), (2, 3, 20), (3, 2, 15), (4, 4, 5)]
    );
    assert_eq!(
        (of(&rows, 1).sonneborn_berger, of(&rows, 3).sonneborn_berger),
        (300, 200)
    );
    assert_eq!(of(&rows, 1).buchholz, of(&rows, 3).buchholz);
    // Player 2 won by forfeit: dummy 1.5 + 2 + 2 = 5.5, Cut-1 drops 1.5,
    // SB 1.5·1 + 2·½ = 2.5, and no game won over the board.
    let two = of(&rows, 2);
    assert_eq!(
        (
            two.buchholz,
            two.buchholz_cut1,
            two.sonneborn_berger,
            two.won
        ),
        (55, 40, 250, 0)
    );
    // Player 4 lost by forfeit (a VUR): dummy 0.5 + 2 + 2; Cut-1 drops the VUR.
    let four = of(&rows, 4);
    assert_eq!(
        (four.buchholz, four.buchholz_cut1, four.sonneborn_berger),
        (45, 40, 100)
    );
    // The forfeit is not a game for the average rating either.
    assert_eq!((two.aro, four.aro), (1900, 1900));
}

#[test]
fn a_withdrawn_opponent_counts_their_missed_rounds_as_draws() {
    // Player 4 beats 2 in round 1 and withdraws; R2 2-1 0-1, 3 bye;
    // R3 3-2 ½, 1 bye.
    let t = event(&[
        (2000, &["3 w 1", "2 b 1", "0 - U"]),
        (1900, &["4 b 0", "1 w 0", "3 b ="]),
        (1800, &["1 b 0", "0 - U", "2 w ="]),
        (1700, &["2 w 1"]),
    ]);
    let rows = standings(&t);
    assert_eq!(
        ranks(&rows),
        vec![(1, 1, 30), (2, 3, 15), (3, 4, 10), (4, 2, 5)]
    );
    // Player 2 met 4 (1 point, counted 1 + ½ + ½ = 2), 1 (3) and 3 (1.5).
    let two = of(&rows, 2);
    assert_eq!((two.buchholz, two.buchholz_cut1), (65, 50));
    assert_eq!(two.sonneborn_berger, 75);
    // Player 4: 2 (0.5) + two dummies of 1 point (VURs); Cut-1 drops a VUR
    // (1), not the lowest value (0.5).
    let four = of(&rows, 4);
    assert_eq!(
        (four.buchholz, four.buchholz_cut1, four.sonneborn_berger),
        (25, 15, 50)
    );
    // Player 1's bye: dummy 3; SB 1.5 + 0.5 + 3 = 5.
    assert_eq!(
        (of(&rows, 1).buchholz, of(&rows, 1).sonneborn_berger),
        (50, 500)
    );
}

#[test]
fn direct_encounter_applies_when_all_tied_players_met_and_a_cycle_goes_to_aro() {
    // A round robin of 4: 1 beats 2, 2 beats 3, 3 beats 1, all beat 4. Three
    // players on 2 points, BH 4, C1 4, SB 2, two wins, DE 1 each: ARO decides.
    let t = event(&[
        (1800, &["2 w 1", "3 b 0", "4 w 1"]),
        (2000, &["1 b 0", "4 w 1", "3 w 1"]),
        (1900, &["4 b 1", "1 w 1", "2 b 0"]),
        (1500, &["3 w 0", "2 b 0", "1 b 0"]),
    ]);
    let rows = standings(&t);
    let top: Vec<&Standing> = rows.iter().take(3).collect();
    for row in &top {
        assert_eq!(
            (
                row.score,
                row.buchholz,
                row.buchholz_cut1,
                row.sonneborn_berger
            ),
            (20, 40, 40, 200)
        );
        assert_eq!((row.won, row.direct_encounter), (2, Some(10)));
    }
    // ARO: 1 met 2000, 1900, 1500 = 1800; 2: 1733.3 = 1733; 3: 1766.7 = 1767.
    assert_eq!(
        ranks(&rows),
        vec![(1, 1, 20), (2, 3, 20), (3, 2, 20), (4, 4, 0)]
    );
    assert_eq!(
        (of(&rows, 1).aro, of(&rows, 2).aro, of(&rows, 3).aro),
        (1800, 1733, 1767)
    );
    assert_eq!(of(&rows, 4).direct_encounter, None);
}

fn row(number: usize, values: (u32, u32, u32, u32, u32, u32)) -> Standing {
    Standing {
        rank: 0,
        number,
        score: values.0,
        buchholz: values.1,
        buchholz_cut1: values.2,
        sonneborn_berger: values.3,
        won: values.4,
        direct_encounter: None,
        aro: values.5,
    }
}

#[test]
fn each_tie_break_decides_only_when_all_before_it_are_equal() {
    // Pairs of players equal up to one tie-break, the better one listed second
    // (higher pairing number) so that only that tie-break can put it first.
    let rows = vec![
        row(1, (30, 80, 70, 900, 2, 1500)),
        row(2, (30, 90, 60, 100, 0, 1000)), // BH beats 1's better C1, SB, WON, ARO
        row(3, (25, 80, 60, 900, 2, 1500)),
        row(4, (25, 80, 70, 100, 0, 1000)), // C1
        row(5, (20, 80, 70, 800, 2, 1500)),
        row(6, (20, 80, 70, 900, 0, 1000)), // SB
        row(7, (15, 80, 70, 900, 1, 1500)),
        row(8, (15, 80, 70, 900, 2, 1000)), // WON
        row(9, (10, 80, 70, 900, 2, 1500)),
        row(10, (10, 80, 70, 900, 2, 1000)), // DE: 10 beat 9
        row(11, (5, 80, 70, 900, 2, 1500)),
        row(12, (5, 80, 70, 900, 2, 1600)), // ARO (never met)
        row(13, (0, 0, 0, 0, 0, 0)),
        row(14, (0, 0, 0, 0, 0, 0)), // all equal: shared rank
    ];
    let encounter = |a: usize, b: usize| match (a + 1, b + 1) {
        (10, 9) => Some(10),
        (9, 10) => Some(0),
        _ => None,
    };
    let ranked = rank(rows, encounter);
    let order: Vec<usize> = ranked.iter().map(|r| r.number).collect();
    assert_eq!(order, vec![2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11, 13, 14]);
    let places: Vec<usize> = ranked.iter().map(|r| r.rank).collect();
    assert_eq!(places, vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 13]);
    assert_eq!(ranked[8].direct_encounter, Some(10));
    assert_eq!(ranked[10].direct_encounter, None);
}

#[test]
fn the_table_shows_every_tie_break_and_shared_ranks() {
    let t = plain();
    let table = format_table(&t, &standings(&t));
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 7);
    let header: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(
        header,
        vec!["Rank", "No", "Name", "Pts", "BH", "BH-C1", "SB", "WON", "DE", "ARO"]
    );
    let first: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(
        first,
        vec!["1", "1", "Player", "1", "3.5", "7.5", "6.5", "6.00", "3", "-", "1725"]
    );
    assert!(lines[4].trim_start().starts_with("4    3"), "{table}");
    assert!(lines[5].trim_start().starts_with("4    4"), "{table}");
}

#[test]
fn a_tournament_before_its_first_round_lists_everyone_on_a_shared_first_place() {
    let t = event(&[(2000, &[]), (1900, &[])]);
    let rows = standings(&t);
    assert_eq!(ranks(&rows), vec![(1, 1, 0), (1, 2, 0)]);
}
