//! `toguz swiss pair` as a user runs it: a reference tournament's next round, and errors.

use super::{stderr, stdout, toguz};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/swiss");

#[test]
fn pairs_a_reference_tournament_as_the_reference_engine_does() {
    let file = format!("{DATA}/1000.trf");
    let out = toguz(&["swiss", "pair", &file], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let want = std::fs::read_to_string(format!("{DATA}/1000.pairs")).expect("1000.pairs");
    assert_eq!(stdout(&out).trim_end(), want.trim_end());
}

#[test]
fn reads_standard_input_and_prints_the_bye_last() {
    // 1011 has an odd number of players: the last line is the bye, `N 0`.
    let text = std::fs::read_to_string(format!("{DATA}/1011.trf")).expect("1011.trf");
    let out = toguz(&["swiss", "pair", "-"], &text);
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = stdout(&out);
    let want = std::fs::read_to_string(format!("{DATA}/1011.pairs")).expect("1011.pairs");
    assert_eq!(printed.trim_end(), want.trim_end());
    assert!(printed.trim_end().ends_with(" 0"), "{printed}");
}

#[test]
fn a_malformed_file_is_a_one_line_error() {
    let out = toguz(&["swiss", "pair", "-"], "001    1      too short\n");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("not a valid TRF file") && err.contains("line 1"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(stdout(&out).is_empty());
}

#[test]
fn a_finished_tournament_cannot_be_paired() {
    let text = std::fs::read_to_string(format!("{DATA}/1000.trf")).expect("1000.trf");
    // 1000 has played 8 rounds; say the event had 8.
    let finished = text.replace("XXR 9", "XXR 8");
    let out = toguz(&["swiss", "pair", "-"], &finished);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("all 8 rounds have been played"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_missing_file_is_named() {
    let out = toguz(&["swiss", "pair", "/nonexistent/event.trf"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("/nonexistent/event.trf"),
        "{}",
        stderr(&out)
    );
}

/// Six players, four rounds, every game played (the plain event of the
/// tie-break unit tests): 1 wins with 3.5, players 3 and 4 share 4th place.
const SIX_PLAYERS: &str = "\
001    1 Alpha                                  2000                             3.5          4 w 1     6 b 1     2 w =     3 b 1
001    2 Bravo                                  1900                             3.0          5 b =     3 w 1     1 b =     4 w 1
001    3 Charlie                                1800                             1.0          6 w 0     2 b 0     5 b 1     1 w 0
001    4 Delta                                  1700                             1.0          1 b 0     5 w 1     6 w 0     2 b 0
001    5 Echo                                   1600                             1.0          2 w =     4 b 0     3 w 0     6 w =
001    6 Foxtrot                                1500                             2.5          3 b 1     1 w 0     4 b 1     5 b =
XXR 4
";

#[test]
fn standings_rank_by_score_and_tie_breaks_with_shared_places() {
    let out = toguz(&["swiss", "standings", "-"], SIX_PLAYERS);
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = stdout(&out);
    let rows: Vec<Vec<&str>> = printed
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows[0],
        vec!["Rank", "No", "Name", "Pts", "BH", "BH-C1", "SB", "WON", "DE", "ARO"]
    );
    assert_eq!(
        rows[1],
        vec!["1", "1", "Alpha", "3.5", "7.5", "6.5", "6.00", "3", "-", "1725"]
    );
    let order: Vec<(&str, &str)> = rows[1..].iter().map(|r| (r[0], r[2])).collect();
    assert_eq!(
        order,
        vec![
            ("1", "Alpha"),
            ("2", "Bravo"),
            ("3", "Foxtrot"),
            ("4", "Charlie"),
            ("4", "Delta"),
            ("6", "Echo")
        ]
    );
}

#[test]
fn standings_of_a_reference_tournament_list_every_player_once() {
    let file = format!("{DATA}/1000.trf");
    let out = toguz(&["swiss", "standings", &file], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&file).expect("1000.trf");
    let players = text.lines().filter(|l| l.starts_with("001")).count();
    let printed = stdout(&out);
    let rows: Vec<Vec<&str>> = printed
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), players);
    let mut numbers: Vec<usize> = rows.iter().map(|r| r[1].parse().expect("No")).collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=players).collect::<Vec<_>>());
    // Ranks never go down the table, and scores never go up.
    let ranks: Vec<usize> = rows.iter().map(|r| r[0].parse().expect("rank")).collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{printed}");
    assert_eq!(ranks[0], 1);
}

#[test]
fn standings_of_a_malformed_file_are_a_one_line_error() {
    let out = toguz(&["swiss", "standings", "-"], "001    1      too short\n");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("not a valid TRF file"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
