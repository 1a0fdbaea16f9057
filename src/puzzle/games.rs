//! The games puzzles are mined from: every record of a PGN-style file (docs/rules.md), or
//! the `moves` of every line of a JSON-lines file (tests/data/random-games.jsonl).

use crate::rules::{parse_record, parse_records, replay, Position, Record};

/// One game to mine: where it comes from, its start and the pits played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// `file#N title`: the file's name, the game's number in it (from 1), its players.
    pub label: String,
    pub start: Position,
    pub pits: Vec<u8>,
}

/// The games of one file's `text` (`name` labels them), and how many records were skipped
/// because they do not parse or do not replay by the rules.
pub fn read_games(name: &str, text: &str) -> (Vec<Game>, usize) {
    let json = text.trim_start().starts_with('{');
    let records: Vec<Option<Record>> = if json {
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|line| {
                let value: serde_json::Value = serde_json::from_str(line).ok()?;
                parse_record(value.get("moves")?.as_str()?).ok()
            })
            .collect()
    } else {
        parse_records(text).into_iter().map(Result::ok).collect()
    };
    let mut games = Vec::with_capacity(records.len());
    let mut skipped = 0;
    for (i, record) in records.into_iter().enumerate() {
        let Some(game) = record.and_then(|r| to_game(name, i + 1, &r)) else {
            skipped += 1;
            continue;
        };
        games.push(game);
    }
    (games, skipped)
}

fn to_game(name: &str, number: usize, record: &Record) -> Option<Game> {
    let start = record.start_position().ok()?;
    let plies = replay(record, start).ok()?;
    let title = if record.headers.is_empty() {
        String::new()
    } else {
        format!(" {}", record.title())
    };
    Some(Game {
        label: format!("{name}#{number}{title}"),
        start,
        pits: plies.iter().map(|p| p.report.pit).collect(),
    })
}
