use super::*;
use crate::engine::{is_win, Searcher, BALL};
use crate::rules::Position;
use std::collections::HashSet;

/// Small settings so that the tests run fast in a debug build.
fn quick() -> Settings {
    Settings {
        depth: 6,
        screen_depth: 3,
        ..Settings::default()
    }
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

// White's pit 9 (2 balls) puts its last ball in Black's pit 1 (19 + 1 = 20, even): a
// capture of 20; every other white move (pit 1) captures nothing.
const CAPTURE_20: &str = "1,0,0,0,0,0,0,0,2/19,1,1,1,1,1,1,1,1 60/72 w 30";
// White's pit 9 takes Black's last ball (1 + 1 = 2): Black is left without a move, and
// White's 41 balls on the board go to White's store (42 + 41 = 83).
const ATSYRAU: &str = "5,5,5,5,5,5,5,5,2/1,0,0,0,0,0,0,0,0 40/79 w 30";
// White's pit 9 makes Black's pit 1 a tuzdek (2 + 1 = 3).
const TUZDEK: &str = "0,0,0,0,0,0,0,0,2/2,9,9,9,9,9,9,9,9 43/43 w 30";

// The first puzzle of the championship file (game 1, Black's 5th move just played): White's
// pit 9 is the only move, about 12 balls better than any other at depth 6.
const ONLY_NINE: &str = "3,2,15,2,16,x,3,15,14/14,2,1,14,2,3,2,1,4 38/11 w 6";

#[test]
fn a_known_only_move_is_found_and_every_other_move_is_worse_by_the_margin() {
    let settings = quick();
    let mut searcher = Searcher::new(4);
    let p = pos(ONLY_NINE);
    let scores = scores_at(&mut searcher, &p, settings.depth);
    assert_eq!(scores.len(), 8, "{scores:?}");
    let (best, first, second) = only_move(&scores, settings.margin).expect("an only move");
    assert_eq!(best, 9);
    assert!(first - second >= settings.margin, "{scores:?}");
    // The same position and depth always give the same scores (a cleared table).
    assert_eq!(scores_at(&mut searcher, &p, settings.depth), scores);
}

#[test]
fn only_move_rules() {
    let m = 4 * BALL;
    assert_eq!(only_move(&[(3, 500), (1, 100)], m), Some((3, 500, 100)));
    assert_eq!(
        only_move(&[(3, 500), (1, 101)], m),
        None,
        "short of the margin"
    );
    assert_eq!(
        only_move(&[(3, 500)], m),
        None,
        "one legal move is no puzzle"
    );
    let win = crate::engine::WIN - 7;
    assert_eq!(only_move(&[(2, win), (5, 300)], m), Some((2, win, 300)));
    assert_eq!(
        only_move(&[(2, win), (5, win - 4)], m),
        None,
        "two moves win"
    );
    assert_eq!(
        only_move(&[(2, -win), (5, -win)], m),
        None,
        "every move loses"
    );
}

#[test]
fn themes_are_read_from_what_the_solution_does() {
    let win = crate::engine::WIN - 1;
    let atsyrau = pos(ATSYRAU);
    let mut after = atsyrau;
    after.play(9).unwrap();
    assert!(after.is_over());
    let themes = detect_themes(&atsyrau, &[9], win);
    assert!(themes.contains(&Theme::Capture), "{themes:?}");
    assert!(themes.contains(&Theme::Atsyrau), "{themes:?}");
    assert!(!themes.contains(&Theme::Defence), "{themes:?}");

    let tuzdek = detect_themes(&pos(TUZDEK), &[9], 2 * BALL);
    assert!(tuzdek.contains(&Theme::Tuzdek), "{tuzdek:?}");
    assert!(!tuzdek.contains(&Theme::Capture), "{tuzdek:?}");
    assert!(!tuzdek.contains(&Theme::Endgame), "{tuzdek:?}");

    // Pit 1 of the capture position captures nothing: a quiet only move is a defence; 27
    // balls on the board is an endgame.
    let quiet = detect_themes(&pos(CAPTURE_20), &[1], 0);
    assert_eq!(quiet, vec![Theme::Defence, Theme::Endgame]);

    // A capture that reaches 82 races there.
    let race = pos("1,0,0,0,0,0,0,0,2/19,1,1,1,1,1,1,1,1 70/62 w 30");
    let themes = detect_themes(&race, &[9], win);
    assert!(themes.contains(&Theme::Race), "{themes:?}");
    assert!(themes.contains(&Theme::Capture), "{themes:?}");
}

#[test]
fn ratings_grow_with_effort_and_length() {
    assert_eq!(start_rating(1, 1), 600.0);
    assert!(start_rating(100_000, 1) > start_rating(1_000, 1));
    assert!(start_rating(1_000, 3) > start_rating(1_000, 1));
    assert_eq!(start_rating(u64::MAX, 5), 2500.0);
}

/// The first games of the championship file, mined with quick settings.
fn mined_sample() -> (Vec<Game>, Vec<GameMined>) {
    let text = include_str!("../../tests/data/championships-kz-2018.pgn");
    let (games, skipped) = read_games("championships-kz-2018.pgn", text);
    assert_eq!(skipped, 0);
    assert_eq!(games.len(), 742);
    let games: Vec<Game> = games.into_iter().take(3).collect();
    let mut searcher = Searcher::new(4);
    let mined = games
        .iter()
        .map(|g| mine_game(g, &quick(), &mut searcher))
        .collect();
    (games, mined)
}

#[test]
fn mined_puzzles_hold_what_the_collection_promises() {
    let settings = quick();
    let (games, mined) = mined_sample();
    let puzzles: Vec<&Puzzle> = mined.iter().flat_map(|m| &m.puzzles).collect();
    assert!(!puzzles.is_empty(), "three games gave no puzzle");
    let mut searcher = Searcher::new(4);
    for m in &mined {
        // No two puzzles of a game share a position (across games, the writer of
        // `toguz puzzle generate` drops the later one: games 1 and 3 share an opening).
        let mut keys = HashSet::new();
        for p in &m.puzzles {
            for key in p.solver_keys() {
                assert!(keys.insert(key), "{p:?}");
            }
        }
    }
    for p in &puzzles {
        let start = Position::from_fen(&p.position).unwrap();
        assert!(start.ply() >= settings.min_ply, "{p:?}");
        // Every alternative first move is at least the margin worse, on a fresh searcher.
        let scores = scores_at(&mut searcher, &start, settings.depth);
        let (best, first, _) = only_move(&scores, settings.margin).expect("verified");
        assert_eq!(best, p.pits()[0], "{p:?}");
        assert_eq!(first, p.score);
        for &(pit, score) in &scores[1..] {
            assert!(
                is_win(first) || first - score >= settings.margin,
                "{pit}: {p:?}"
            );
        }
        // The solution plays, ends with a solver's move, has 1 to 5 of them; and every
        // move of the solver in it is an only move too.
        let pits = p.pits();
        assert!(
            pits.len() % 2 == 1 && (1..=5).contains(&p.solver_moves()),
            "{p:?}"
        );
        let mut at = start;
        for (i, &pit) in pits.iter().enumerate() {
            if i % 2 == 0 {
                let s = scores_at(&mut searcher, &at, settings.depth);
                assert_eq!(only_move(&s, settings.margin).map(|o| o.0), Some(pit));
            }
            at.play(pit).unwrap();
        }
        assert!(p.themes.windows(2).all(|w| w[0] < w[1]));
        assert!((600.0..=2500.0).contains(&p.rating));
        assert!(p.game.starts_with("championships-kz-2018.pgn#"));
    }
    // Mining is deterministic, whichever searcher did it before.
    let mut fresh = Searcher::new(4);
    assert_eq!(mine_game(&games[0], &settings, &mut fresh), mined[0]);
    let m = &mined[0];
    assert!(m.positions >= m.candidates && m.candidates >= m.puzzles.len());
}

#[test]
fn the_collection_file_round_trips() {
    let (_, mined) = mined_sample();
    let puzzles: Vec<Puzzle> = mined.into_iter().flat_map(|m| m.puzzles).collect();
    let text: String = puzzles.iter().map(|p| puzzle_line(p) + "\n").collect();
    assert_eq!(parse_puzzles(&text).unwrap(), puzzles);
    // The fields the issue asks for, as JSON.
    let json: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    for field in ["id", "position", "solution", "themes", "rating"] {
        assert!(json.get(field).is_some(), "{field} missing: {json}");
    }
    assert!(json["solution"]
        .as_str()
        .unwrap()
        .bytes()
        .all(|b| (b'1'..=b'9').contains(&b)));
    // A solution that does not play is refused, naming the line.
    let mut bad = puzzles[0].clone();
    bad.solution = "0".into();
    let text = format!("{}\n{}\n", puzzle_line(&puzzles[0]), puzzle_line(&bad));
    let err = parse_puzzles(&text).unwrap_err();
    assert!(err.to_string().starts_with("line 2:"), "{err}");
    assert!(parse_puzzles("{not json").is_err());
    assert_eq!(parse_puzzles("\n").unwrap(), vec![]);
}

/// Issue 49, finding 16: a solution that is empty or ends with the opponent's reply can
/// never be finished; the file is refused at load, naming the line and the puzzle.
#[test]
fn empty_and_even_length_solutions_are_refused_at_load() {
    let (_, mined) = mined_sample();
    let good = mined
        .into_iter()
        .flat_map(|m| m.puzzles)
        .next()
        .expect("a puzzle");
    let mut pos = crate::rules::Position::from_fen(&good.position).expect("its position");
    let first = good.pits()[0];
    pos.play(first).expect("its first move");
    let reply = pos.legal_moves().iter().next().expect("a reply");
    for solution in [String::new(), format!("{first}{reply}")] {
        let mut bad = good.clone();
        bad.id = "pbad".into();
        bad.solution = solution.clone();
        let text = format!("{}\n{}\n", puzzle_line(&good), puzzle_line(&bad));
        let err = parse_puzzles(&text).expect_err(&solution).to_string();
        assert!(
            err.starts_with("line 2:") && err.contains("puzzle pbad") && err.contains("odd"),
            "{solution:?}: {err}"
        );
        assert!(crate::puzzle::Collection::from_text(&text).is_err());
    }
}

#[test]
fn resuming_skips_the_games_already_mined() {
    let text = include_str!("../../tests/data/championships-kz-2018.pgn");
    let (games, _) = read_games("a.pgn", text);
    let games: Vec<Game> = games.into_iter().take(10).collect();
    let done: String = games[..4].iter().map(|g| game_key(g) + "\n").collect();
    let done = read_done(&done);
    let mut twice = games.clone();
    twice.extend(games.clone());
    let pending = pending_games(twice, &done);
    assert_eq!(
        pending,
        games[4..].to_vec(),
        "each game once, the mined ones left out"
    );
    // The key is the game's, not the file's.
    let (same, _) = read_games("b.pgn", text);
    assert_eq!(game_key(&same[0]), game_key(&games[0]));
    assert_ne!(game_key(&games[0]), game_key(&games[1]));
}

#[test]
fn position_keys_ignore_the_move_number() {
    let a = pos("1,0,0,0,0,0,0,0,2/19,1,1,1,1,1,1,1,1 60/72 w 30");
    let b = pos("1,0,0,0,0,0,0,0,2/19,1,1,1,1,1,1,1,1 60/72 w 31");
    assert_eq!(position_key(&a), position_key(&b));
    assert_eq!(
        position_key(&a),
        "1,0,0,0,0,0,0,0,2/19,1,1,1,1,1,1,1,1 60/72 w"
    );
}

#[test]
fn json_lines_games_are_read_too() {
    let text = include_str!("../../tests/data/random-games.jsonl");
    let (games, skipped) = read_games("random-games.jsonl", text);
    assert_eq!((games.len(), skipped), (100, 0));
    assert!(games[0].pits.len() > 10);
}

/// A small collection: three puzzles of the championship file, rated 900, 1200 and 1500.
fn small_collection() -> Collection {
    let lines: Vec<String> = [("pa", 900.0), ("pb", 1200.0), ("pc", 1500.0)]
        .iter()
        .map(|(id, rating)| {
            let p = Puzzle {
                id: id.to_string(),
                position: ONLY_NINE.to_string(),
                solution: "9".into(),
                themes: vec![Theme::Capture],
                rating: *rating,
                score: 100,
                gap: 1200,
                depth: 6,
                effort: 10,
                game: "test".into(),
            };
            puzzle_line(&p)
        })
        .collect();
    Collection::from_text(&lines.join("\n")).unwrap()
}

#[test]
fn a_choice_is_the_nearest_unseen_puzzle_and_none_once_all_are_seen() {
    let c = small_collection();
    let by = ByRating::new(c.puzzles().iter().map(|p| p.rating).collect());
    let mut seen = Seen::default();
    // Pool of the nearest unseen: every pick among them is near 1250 first.
    let first = by.choose(&c, &seen, 1250.0, 0).unwrap();
    assert!(["pb", "pc", "pa"].contains(&c.get(first).unwrap().id.as_str()));
    let mut given = HashSet::new();
    for pick in 0..3 {
        let i = by.choose(&c, &seen, 1250.0, pick).unwrap();
        assert!(given.insert(i), "a puzzle given twice");
        seen.insert(&c, i);
    }
    assert_eq!(seen.count(&c), 3);
    assert_eq!(by.choose(&c, &seen, 1250.0, 0), None);
    seen.clear(&c);
    assert!(by.choose(&c, &seen, 1250.0, 0).is_some());
}

#[test]
fn the_nearest_puzzle_comes_first_and_a_new_rating_moves_a_puzzle() {
    let c = small_collection();
    let mut by = ByRating::new(c.puzzles().iter().map(|p| p.rating).collect());
    let seen = Seen::default();
    // With a pool of twelve and three puzzles, pick 0 is the nearest.
    assert_eq!(
        c.get(by.choose(&c, &seen, 1480.0, 0).unwrap()).unwrap().id,
        "pc"
    );
    assert_eq!(
        c.get(by.choose(&c, &seen, 880.0, 0).unwrap()).unwrap().id,
        "pa"
    );
    let pa = c.index_of("pa").unwrap();
    by.set(pa, 1490.0);
    assert_eq!(by.rating(pa), Some(1490.0));
    assert_eq!(
        c.get(by.choose(&c, &seen, 1488.0, 0).unwrap()).unwrap().id,
        "pa"
    );
    assert_eq!(
        c.get(by.choose(&c, &seen, 880.0, 0).unwrap()).unwrap().id,
        "pb"
    );
}

#[test]
fn seen_sets_keep_in_hex_and_start_afresh_for_another_collection() {
    let c = small_collection();
    let mut seen = Seen::default();
    seen.insert(&c, 2);
    let json = serde_json::to_string(&seen).unwrap();
    assert!(json.contains("\"0000000000000004\""), "{json}");
    let back: Seen = serde_json::from_str(&json).unwrap();
    assert!(back.has(&c, 2) && !back.has(&c, 1));
    let bad = json.replace("0000000000000004", "zz");
    assert!(serde_json::from_str::<Seen>(&bad).is_err());
    let other = Collection::from_text(&puzzle_line(c.get(0).unwrap())).unwrap();
    assert!(!back.has(&other, 0));
    assert_eq!(back.count(&other), 0);
}

#[test]
fn a_move_is_judged_against_the_line() {
    let p = Puzzle {
        solution: "927".into(),
        ..small_collection().get(0).unwrap().clone()
    };
    assert_eq!(
        p.judge(0, 9),
        Some(Verdict::Right {
            reply: Some(2),
            solved: false
        })
    );
    assert_eq!(p.judge(0, 3), Some(Verdict::Wrong { solution: 9 }));
    assert_eq!(
        p.judge(1, 7),
        Some(Verdict::Right {
            reply: None,
            solved: true
        })
    );
    assert_eq!(p.judge(2, 7), None);
}

#[test]
fn the_daily_puzzle_is_one_puzzle_a_day() {
    let c = small_collection();
    let day = 20_000;
    assert_eq!(c.daily(day), c.daily(day));
    // Only the 1200 puzzle is in the daily band.
    assert_eq!(c.get(c.daily(day).unwrap()).unwrap().id, "pb");
    let shipped = Collection::shipped().unwrap();
    let days: HashSet<usize> = (0..30).filter_map(|d| shipped.daily(day + d)).collect();
    assert!(days.len() > 20, "30 days gave {} puzzles", days.len());
}
