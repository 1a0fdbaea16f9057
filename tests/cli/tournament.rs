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

/// A store holding a finished Swiss event of three players and two rounds; its id. The
/// runtime is dropped at the end so the store's lock is free for the binary.
fn store_with_a_finished_event(dir: &std::path::Path) -> String {
    use toguz::engine::{EngineConfig, EnginePool};
    use toguz::manager::tournament::{Format, NewTournament, Status};
    use toguz::manager::{Action, Clock, Manager, Player, Request};
    use toguz::model::{ChatRef, Platform, TimeControl, UserRef};
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let store = toguz::store::Store::open(dir).expect("a store");
        let clock = Clock::manual(1_700_000_000);
        let engine = EnginePool::new(EngineConfig::default());
        let config = toguz::manager::ManagerConfig::default();
        let m = Manager::start_with_clock(store, engine, config, clock.clone())
            .await
            .expect("a manager");
        let chat = ChatRef::new(Platform::Telegram, "-100");
        let user = |id: &str| UserRef::new(Platform::Telegram, id, format!("Player {id}"));
        let new = NewTournament {
            format: Format::Swiss { rounds: 2 },
            time: TimeControl::Correspondence,
            variant: toguz::rules::Variant::STANDARD,
            rated: false,
            starts_at: clock.now() + 10,
        };
        let t = m
            .create_tournament(chat.clone(), &user("1"), new)
            .await
            .expect("made");
        for id in ["1", "2", "3"] {
            m.join_tournament(&t.id, &user(id)).await.expect("joined");
        }
        clock.advance(11);
        for _ in 0..8 {
            m.tick_tournaments().await;
            let now = m.tournament(&t.id).await.expect("the event");
            if now.status == Status::Finished {
                break;
            }
            // Each open board: one move each, then Black resigns.
            for b in now
                .rounds
                .iter()
                .flat_map(|r| &r.boards)
                .filter(|b| b.result.is_none())
            {
                let Some(game) = b.game.clone() else { continue };
                let person = |n: u32| match &now.entrants[n as usize - 1].player {
                    Player::Human(u) => u.clone(),
                    Player::Bot(_) => panic!("a person"),
                };
                let moves = [(person(b.white), 1u8), (person(b.black), 1u8)];
                for (who, pit) in moves {
                    let action = Action::Move {
                        game: game.clone(),
                        ply: None,
                        pit,
                    };
                    let req = Request {
                        actor: who,
                        chat: chat.clone(),
                        action,
                    };
                    let _ = m.act(req).await;
                }
                let action = Action::Resign {
                    game: Some(game.clone()),
                    ply: None,
                };
                let req = Request {
                    actor: person(b.black),
                    chat: chat.clone(),
                    action,
                };
                let _ = m.act(req).await;
            }
        }
        let done = m.tournament(&t.id).await.expect("the event");
        assert_eq!(done.status, Status::Finished, "{done:?}");
        t.id
    })
}

#[test]
fn a_finished_event_of_the_store_is_exported_as_a_trf_file() {
    let dir = tempfile::tempdir().expect("a directory");
    let id = store_with_a_finished_event(dir.path());
    let file = dir.path().join("event.trf");
    let data = dir.path().to_str().expect("a path");
    let out_arg = file.to_str().expect("a path");
    let mut out = toguz(
        &[
            "tournament",
            "export",
            &id,
            "--data-dir",
            data,
            "-o",
            out_arg,
        ],
        "",
    );
    for _ in 0..50 {
        // The store's lock is let go within a second of the manager's end.
        if out.status.success() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        out = toguz(
            &[
                "tournament",
                "export",
                &id,
                "--data-dir",
                data,
                "-o",
                out_arg,
            ],
            "",
        );
    }
    assert!(out.status.success(), "{}", stderr(&out));
    let event = parse(&std::fs::read_to_string(&file).expect("the file")).expect("valid TRF");
    assert_eq!(event.players.len(), 3);
    assert_eq!(event.total_rounds, Some(2));
    assert!(event.players.iter().all(|p| p.rounds.len() == 2));
    let total: u32 = event.players.iter().map(|p| p.points).sum();
    assert_eq!(total, 2 * 10 + 2 * 10, "two games and two byes");
    let missing = toguz(&["tournament", "export", "nosuch", "--data-dir", data], "");
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        stderr(&missing).contains("no tournament nosuch"),
        "{}",
        stderr(&missing)
    );
}
