//! `toguz tournament` as a user runs it: a Swiss event of the bot's levels played round by
//! round with the standings after each, written as a TRF file FIDE's tools (and `toguz
//! swiss`) read; an arena that pairs players as their games end; and usage errors.

use super::{stderr, stdout, toguz};
use toguz::pairing::{parse, standings};

#[test]
fn a_swiss_event_of_levels_is_played_round_by_round() {
    let dir = tempfile::tempdir().expect("a directory");
    let trf = dir.path().join("event.trf");
    let trf_arg = trf.to_str().expect("a path");
    let args = [
        "tournament",
        "--players",
        "random,beginner,random,easy,beginner",
        "--rounds",
        "4",
        "--trf",
        trf_arg,
    ];
    let out = toguz(&args, "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for round in 1..=4 {
        assert!(
            text.contains(&format!("Standings after round {round}\n")),
            "{text}"
        );
    }
    assert!(
        text.contains("random 2") && text.contains("beginner 1"),
        "{text}"
    );
    // The file holds every round: four entries a player, one bye each for three of them
    // (five players), nobody met twice, and the standings of the file are those printed.
    let event = parse(&std::fs::read_to_string(&trf).expect("the TRF")).expect("valid TRF");
    assert_eq!(event.players.len(), 5);
    let mut byes = 0;
    for p in &event.players {
        assert_eq!(p.rounds.len(), 4, "{p:?}");
        byes += p.rounds.iter().filter(|r| r.opponent.is_none()).count();
        let mut met: Vec<usize> = p.rounds.iter().filter_map(|r| r.opponent).collect();
        met.sort_unstable();
        let before = met.len();
        met.dedup();
        assert_eq!(met.len(), before, "{} met someone twice", p.name);
    }
    assert_eq!(byes, 4);
    let total: u32 = event.players.iter().map(|p| p.points).sum();
    assert_eq!(
        total,
        8 * 10 + 4 * 10,
        "eight games and four byes, a point each"
    );
    let top = &standings(&event)[0];
    let leader = &event.players[top.number - 1];
    let last_table = text
        .rsplit("Standings after round 4\n")
        .next()
        .expect("a table");
    let first_row = last_table.lines().nth(1).expect("a first row");
    assert!(first_row.contains(leader.name.trim()), "{first_row}");
    let again = toguz(&["swiss", "standings", trf_arg], "");
    assert!(again.status.success(), "{}", stderr(&again));
}

#[test]
fn an_arena_pairs_players_again_as_their_games_end() {
    let args = [
        "tournament",
        "--format",
        "arena",
        "--players",
        "random,random,beginner,random",
        "--minutes",
        "0.04",
    ];
    let out = toguz(&args, "");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let table = text
        .rsplit("Final standings")
        .next()
        .expect("final standings");
    let rows: Vec<&str> = table.lines().skip(2).filter(|l| !l.is_empty()).collect();
    assert_eq!(rows.len(), 4, "{table}");
    let games: Vec<u32> = rows
        .iter()
        .map(|r| {
            r.split_whitespace()
                .nth(4)
                .and_then(|g| g.parse().ok())
                .expect("games")
        })
        .collect();
    assert!(
        games.iter().all(|&g| g >= 2),
        "everyone played again: {games:?}\n{text}"
    );
    // A line per game as it ends (standard output is not a terminal): nobody met the same
    // opponent twice in a row.
    let mut last: std::collections::HashMap<String, String> = Default::default();
    let mut seen = 0;
    for line in text.lines() {
        let Some((pair, _)) = line.trim().split_once(": ") else {
            continue;
        };
        let Some((white, black)) = pair.split_once(" - ") else {
            continue;
        };
        seen += 1;
        for (me, other) in [(white, black), (black, white)] {
            let before = last.insert(me.to_string(), other.to_string());
            assert_ne!(
                before.as_deref(),
                Some(other),
                "{me} met {other} twice in a row"
            );
        }
    }
    assert!(seen >= 4, "{text}");
}

#[test]
fn a_tournament_of_one_is_refused_in_one_line() {
    let out = toguz(&["tournament", "--players", "easy"], "");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("at least two players"), "{err}");
    let out = toguz(&["tournament", "--players", "easy,grandmaster"], "");
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown level is a usage error"
    );
}
