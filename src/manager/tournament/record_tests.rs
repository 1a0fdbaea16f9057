use super::*;
use crate::model::{Level, Platform};

fn user(id: u32) -> UserRef {
    UserRef::new(Platform::Discord, id.to_string(), format!("Player {id}"))
}

fn human(id: u32) -> Player {
    Player::Human(user(id))
}

fn event(format: Format) -> TournamentRecord {
    TournamentRecord::new(
        "t1".into(),
        ChatRef::new(Platform::Discord, "guild:chan"),
        user(1),
        (format, TimeControl::Correspondence, Variant::STANDARD, true),
        (1_000, 2_000),
    )
}

/// Plays every open board of the last Swiss round: the better seeded player (lower
/// number) wins, except that board `draw` is drawn.
fn finish_round(t: &mut TournamentRecord, draw: Option<usize>) {
    let round = t.rounds.len();
    let boards: Vec<(u32, u32)> = t.rounds[round - 1]
        .boards
        .iter()
        .map(|b| (b.white, b.black))
        .collect();
    for (i, (white, black)) in boards.into_iter().enumerate() {
        let id = format!("r{round}b{i}");
        t.rounds[round - 1].boards[i].game = Some(id.clone());
        let result = if draw == Some(i) {
            BoardResult::Draw
        } else if white < black {
            BoardResult::WhiteWins
        } else {
            BoardResult::BlackWins
        };
        t.record_result(&id, result, 40).unwrap();
    }
}

#[test]
fn joining_twice_leaving_and_cancelling_say_why_not() {
    let mut t = event(Format::Swiss { rounds: 3 });
    assert_eq!(t.join(human(2), 1500.0), Ok(1));
    // The same person under another name is the same player.
    let renamed = Player::Human(UserRef::new(Platform::Discord, "2", "New name"));
    assert_eq!(
        t.join(renamed.clone(), 1500.0),
        Err(TournamentError::AlreadyIn)
    );
    assert_eq!(t.leave(&human(3)), Err(TournamentError::NotIn));
    t.leave(&renamed).unwrap();
    assert!(
        t.entrants.is_empty(),
        "before the start, leaving is leaving"
    );
    assert_eq!(t.cancel(&user(9), false), Err(TournamentError::NotAllowed));
    t.cancel(&user(9), true).unwrap();
    assert_eq!(t.status, Status::Cancelled);
    assert_eq!(t.join(human(4), 1500.0), Err(TournamentError::Closed));
    assert_eq!(t.cancel(&user(1), false), Err(TournamentError::Closed));
}

#[test]
fn a_start_with_one_player_cancels_the_event() {
    let mut t = event(Format::Arena { minutes: 30 });
    t.join(human(2), 1500.0).unwrap();
    assert_eq!(t.start(2_000), Err(TournamentError::TooFew));
    assert_eq!(t.status, Status::Cancelled);
}

#[test]
fn a_swiss_event_is_paired_round_by_round_without_repeats() {
    let mut t = event(Format::Swiss { rounds: 4 });
    for id in 2..=7 {
        t.join(human(id), 1400.0 + f64::from(id) * 10.0).unwrap();
    }
    t.join(Player::Bot(Level::Medium), 1450.0).unwrap();
    t.start(2_000).unwrap();
    // Seeded by rating: player 7 (1470) is number 1.
    assert_eq!(t.entrants[0].player, human(7));
    for round in 1..=4 {
        let paired = t.pair_next_round().unwrap();
        assert_eq!(paired.boards.len(), 3, "round {round}");
        assert!(paired.bye.is_some(), "seven players: a bye");
        assert_eq!(
            t.pair_next_round().unwrap_err(),
            TournamentError::RoundRunning
        );
        finish_round(&mut t, Some(0));
    }
    assert_eq!(t.pair_next_round().unwrap_err(), TournamentError::Closed);
    let mut met = std::collections::HashSet::new();
    for r in &t.rounds {
        for b in &r.boards {
            assert!(
                met.insert((b.white.min(b.black), b.white.max(b.black))),
                "{b:?}"
            );
        }
    }
    let byes: Vec<u32> = t.rounds.iter().filter_map(|r| r.bye).collect();
    let mut unique = byes.clone();
    unique.dedup();
    assert_eq!(byes.len(), unique.len(), "one bye a player at most");
    let table = t.swiss_standings();
    assert_eq!(table.len(), 7);
    // Four rounds: three games and a bye or four games; 3 boards x 4 rounds = 12 points,
    // plus four byes.
    let total: u32 = table.iter().map(|s| s.score).sum();
    assert_eq!(total, 12 * 10 + 4 * 10);
    // The event as a TRF file reads back as what it is.
    let text = crate::pairing::trf::write(&t.to_trf());
    let back = crate::pairing::parse(&text).unwrap();
    assert_eq!(back.players.len(), 7);
    assert_eq!(back.total_rounds, Some(4));
    assert_eq!(crate::pairing::standings(&back), table);
}

#[test]
fn late_entries_half_byes_and_withdrawals_shape_the_next_round() {
    let mut t = event(Format::Swiss { rounds: 3 });
    for id in 2..=5 {
        t.join(human(id), 1500.0 + f64::from(id)).unwrap();
    }
    t.start(2_000).unwrap();
    t.pair_next_round().unwrap();
    finish_round(&mut t, None);
    // A late entry plays from round 2, with nothing for round 1.
    assert_eq!(t.join(human(6), 1600.0), Ok(5));
    assert_eq!(t.entrants[4].from_round, 2);
    // Number 1 asks for a half-point bye in round 2; number 4 leaves.
    let first = t.entrants[0].player.clone();
    assert_eq!(t.ask_half_bye(&first, None), Ok(2), "the next round");
    assert_eq!(
        t.ask_half_bye(&first, Some(2)),
        Ok(2),
        "asked twice, one bye"
    );
    assert_eq!(t.entrants[0].half_byes, vec![2]);
    assert_eq!(
        t.ask_half_bye(&first, Some(1)),
        Err(TournamentError::RoundRunning)
    );
    assert_eq!(
        t.ask_half_bye(&first, Some(3)),
        Err(TournamentError::ByeRound { last: 3 }),
        "not in the last round"
    );
    let fourth = t.entrants[3].player.clone();
    t.leave(&fourth).unwrap();
    assert_eq!(t.leave(&fourth), Err(TournamentError::NotIn));
    let round = t.pair_next_round().unwrap().clone();
    let in_round: Vec<u32> = round
        .boards
        .iter()
        .flat_map(|b| [b.white, b.black])
        .chain(round.bye)
        .collect();
    assert!(
        !in_round.contains(&1) && !in_round.contains(&4),
        "{round:?}"
    );
    assert!(
        in_round.contains(&5),
        "the late entrant is paired: {round:?}"
    );
    assert_eq!(in_round.len(), 3);
    finish_round(&mut t, None);
    let trf = t.to_trf();
    assert_eq!(trf.players[0].rounds[1].code, 'H');
    assert_eq!(trf.players[3].rounds[1].code, 'Z');
    assert_eq!(trf.players[4].rounds[0].code, 'Z');
    // The one who left stays out for good; a Swiss withdrawal is final.
    assert_eq!(t.join(fourth, 1500.0), Err(TournamentError::AlreadyIn));
    let last = t.pair_next_round().unwrap();
    assert!(last.boards.iter().all(|b| b.white != 4 && b.black != 4));
    // No late entry after the last round was paired.
    assert_eq!(t.join(human(7), 1500.0), Err(TournamentError::Started));
}

#[test]
fn an_arena_scores_waves_of_games_and_pairs_the_free_players_again() {
    let mut t = event(Format::Arena { minutes: 30 });
    for id in 2..=6 {
        t.join(human(id), 1500.0 + f64::from(id)).unwrap();
    }
    t.start(2_000).unwrap();
    assert_eq!(t.pair_arena_wave(), Ok(2));
    let first: Vec<Board> = t.arena.clone();
    for (i, b) in first.iter().enumerate() {
        t.arena[i].game = Some(format!("a{i}"));
        assert!(b.white != b.black);
    }
    // One game ends: its players and the one who waited are free, two of them paired.
    t.record_result(&"a0".to_string(), BoardResult::WhiteWins, 30)
        .unwrap();
    assert_eq!(t.pair_arena_wave(), Ok(1));
    let new = t.arena.last().unwrap().clone();
    assert!(
        !((new.white == first[0].white && new.black == first[0].black)
            || (new.white == first[0].black && new.black == first[0].white)),
        "not the same two again at once"
    );
    let winner = &t.entrants[index(first[0].white)];
    assert_eq!(winner.sheet.points, 2);
    // A quick draw scores nothing; recording a result twice scores once.
    t.record_result(&"a1".to_string(), BoardResult::Draw, 10)
        .unwrap();
    t.record_result(&"a1".to_string(), BoardResult::Draw, 10)
        .unwrap();
    assert_eq!(t.entrants[index(first[1].white)].sheet.points, 0);
    assert_eq!(t.entrants[index(first[1].white)].sheet.games, 1);
    assert_eq!(
        t.record_result(&"nope".to_string(), BoardResult::Draw, 10),
        Err(TournamentError::UnknownGame)
    );
    // Paused and departed players are not paired.
    for e in &mut t.entrants {
        e.paused = true;
    }
    assert_eq!(t.pair_arena_wave(), Ok(0));
    let standings = t.arena_standings();
    assert_eq!(standings[0].player, first[0].white);
}

#[test]
fn the_record_round_trips_through_json() {
    let mut t = event(Format::Swiss { rounds: 2 });
    t.join(human(2), 1500.0).unwrap();
    t.join(Player::Bot(Level::Easy), 1200.0).unwrap();
    t.start(2_000).unwrap();
    t.pair_next_round().unwrap();
    let json = serde_json::to_string(&t).unwrap();
    let back: TournamentRecord = serde_json::from_str(&json).unwrap();
    assert_eq!(back, t);
}

#[test]
fn half_point_byes_are_swiss_only_limited_and_never_in_the_last_round() {
    let mut arena = event(Format::Arena { minutes: 30 });
    arena.join(human(2), 1500.0).unwrap();
    let second = arena.entrants[0].player.clone();
    assert_eq!(
        arena.ask_half_bye(&second, None),
        Err(TournamentError::ByeSwissOnly)
    );
    let mut t = event(Format::Swiss { rounds: 5 });
    t.join(human(2), 1500.0).unwrap();
    let second = t.entrants[0].player.clone();
    assert_eq!(t.ask_half_bye(&human(9), None), Err(TournamentError::NotIn));
    assert_eq!(
        t.ask_half_bye(&second, None),
        Ok(1),
        "before the start: round 1"
    );
    assert_eq!(t.ask_half_bye(&second, Some(3)), Ok(3));
    assert_eq!(
        t.ask_half_bye(&second, Some(4)),
        Err(TournamentError::TooManyByes)
    );
    assert_eq!(
        t.ask_half_bye(&second, Some(5)),
        Err(TournamentError::ByeRound { last: 5 })
    );
    assert_eq!(
        t.ask_half_bye(&second, Some(9)),
        Err(TournamentError::NoSuchRound { rounds: 5 })
    );
    assert_eq!(t.entrants[0].half_byes, vec![1, 3]);
}
