//! Every game in tests/data replays through the rules with no disagreement.

use std::path::PathBuf;
use toguz::cli::replay::{check_text, CheckSummary, PlyJson};
use toguz::rules::{parse_record, replay, Position};

fn data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_recorded_game_replays_without_disagreement() {
    let mut summary = CheckSummary::default();
    for file in ["playok-2024-2025.pgn", "championships-kz-2018.pgn"] {
        check_text(file, &data(file), &mut summary);
    }
    assert_eq!(summary.disagreements, Vec::<String>::new());
    assert_eq!(summary.games, 3140);
    assert_eq!(summary.half_moves, 273_025);
}

#[test]
fn every_random_game_matches_position_by_position() {
    let mut games = 0;
    for line in data("random-games.jsonl").lines() {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        let record = parse_record(game["moves"].as_str().unwrap()).unwrap();
        let plies = replay(&record, Position::default()).unwrap();
        let expected = game["plies"].as_array().unwrap();
        assert_eq!(plies.len(), expected.len());
        for (i, (ply, want)) in plies.iter().zip(expected).enumerate() {
            let got = serde_json::to_value(PlyJson::new(i + 1, ply)).unwrap();
            assert_eq!(&got, want, "game {games} ply {}", i + 1);
        }
        games += 1;
    }
    assert_eq!(games, 100);
}
