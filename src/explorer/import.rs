//! Games into the explorer: a record is checked and turned into its counted steps
//! (`prepare`, pure), then a chunk of games is merged into the store in one durable write
//! (`import_games`): the rows it touches are read at once, added to, and written back
//! under compare-and-set together with each new game's row (written only if absent), so a
//! game is counted exactly once however many importers run, and a lost race is retried.

use super::keys::{chat_game, game_id, player_game, player_id, position_key, source_row, MAX_PLY};
use super::{category_code, Band, Entry, GameInfo, Result3, Row, Source};
use crate::rules::{replay, variant_text, Position, Record, RecordResult, Side, Variant};
use crate::store::{Batch, Expect, Store, StoreError, Tree};
use std::collections::{BTreeMap, HashSet};

/// Why a record is not counted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("does not parse: {0}")]
    Parse(String),
    #[error("bad start position: {0}")]
    Start(String),
    #[error("breaks the rules: {0}")]
    Replay(String),
    #[error("has no moves")]
    NoMoves,
    #[error("has no result (unfinished or `*`)")]
    NoResult,
}

impl Refusal {
    /// A short name of the reason, for totals.
    pub fn kind(&self) -> &'static str {
        match self {
            Refusal::Parse(_) => "does not parse",
            Refusal::Start(_) => "bad start position",
            Refusal::Replay(_) => "breaks the rules",
            Refusal::NoMoves => "no moves",
            Refusal::NoResult => "no result",
        }
    }
}

/// One pit played from a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub position: String,
    pub pit: u8,
    pub mover: Side,
}

/// A checked game, ready to count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prepared {
    pub id: String,
    pub source: Source,
    pub category: u8,
    pub band: Band,
    pub info: GameInfo,
    /// The first `MAX_PLY` half-moves.
    pub steps: Vec<Step>,
}

impl Prepared {
    /// A game played through the bot: counted as the club's, in its chat's index, and
    /// linked to its page.
    pub fn into_club(mut self, game: &str, chat_key: &str) -> Prepared {
        self.source = Source::Club;
        self.info.game = Some(game.to_string());
        self.info.chat = Some(chat_key.to_string());
        self
    }
}

/// A side's rating in a record: `WhiteElo` (the federation's and PlayOK's records) or
/// `WhiteRating` (this bot's own records, before the game).
fn elo(record: &Record, side: &str) -> Option<u32> {
    [format!("{side}Elo"), format!("{side}Rating")]
        .iter()
        .find_map(|h| record.header(h))
        .and_then(|v| v.trim().parse().ok())
        .filter(|r| *r > 0)
}

/// Checks a record by replaying it and turns it into its steps.
pub fn prepare(record: &Record, source: Source) -> Result<Prepared, Refusal> {
    let start = record
        .start_position()
        .map_err(|e| Refusal::Start(e.to_string()))?;
    let plies =
        replay(record, start).map_err(|d| Refusal::Replay(format!("{}: {d}", record.title())))?;
    if plies.is_empty() {
        return Err(Refusal::NoMoves);
    }
    let end = plies.last().map_or(start, |p| p.position);
    let written = match end.outcome() {
        Some(o) => RecordResult::from_winner(o.winner),
        None => record.written_result().unwrap_or(RecordResult::Unknown),
    };
    let result = match written {
        RecordResult::WhiteWins => Result3::White,
        RecordResult::BlackWins => Result3::Black,
        RecordResult::Draw => Result3::Draw,
        RecordResult::Unknown => return Err(Refusal::NoResult),
    };
    let mut steps = Vec::with_capacity(plies.len().min(MAX_PLY));
    let mut before = start;
    for ply in plies.iter().take(MAX_PLY) {
        steps.push(Step {
            position: position_key(&before),
            pit: ply.report.pit,
            mover: ply.report.side,
        });
        before = ply.position;
    }
    let pits: Vec<u8> = plies.iter().map(|p| p.report.pit).collect();
    let name = |h: &str| record.header(h).unwrap_or("?").trim().to_string();
    let (white, black) = (name("White"), name("Black"));
    let start_text = format!("{}|{}", variant_text(start.variant()), start.to_fen());
    let info = GameInfo {
        white: white.clone(),
        black: black.clone(),
        result,
        date: record.header("Date").map(str::to_string),
        event: record.header("Event").map(str::to_string),
        white_elo: elo(record, "White"),
        black_elo: elo(record, "Black"),
        category: category_code(record.time_control().map(|c| c.category())),
        moves: pits
            .iter()
            .take(MAX_PLY)
            .map(|p| char::from(b'0' + p))
            .collect(),
        start: (start != Position::start(Variant::STANDARD)).then(|| start.to_fen()),
        game: None,
        chat: None,
    };
    Ok(Prepared {
        id: game_id(&start_text, &pits, &white, &black),
        source,
        category: info.category,
        band: Band::of([info.white_elo, info.black_elo]),
        info,
        steps,
    })
}

/// What one `import_games` did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Imported {
    /// Games counted now.
    pub added: usize,
    /// Games the store had already (or given twice).
    pub already: usize,
}

/// How often a chunk is tried again after another writer changed its rows.
const ATTEMPTS: usize = 8;

/// Counts `games` into the store in one durable write (a chunk: a few hundred games keeps
/// a write and its reads short).
pub async fn import_games(store: &Store, games: &[Prepared]) -> Result<Imported, StoreError> {
    let mut last_conflict = None;
    for _ in 0..ATTEMPTS {
        match try_import(store, games).await {
            Err(e @ StoreError::Conflict { .. }) => last_conflict = Some(e),
            other => return other,
        }
    }
    Err(last_conflict.unwrap_or(StoreError::Conflict {
        tree: Tree::ExplorerPositions.name(),
        key: String::new(),
    }))
}

async fn try_import(store: &Store, games: &[Prepared]) -> Result<Imported, StoreError> {
    let mut ids: Vec<String> = Vec::new();
    let mut unique: Vec<&Prepared> = Vec::new();
    let mut given = HashSet::new();
    for game in games {
        if given.insert(game.id.as_str()) {
            ids.push(game.id.clone());
            unique.push(game);
        }
    }
    let seen = store.revisions_of(Tree::ExplorerGames, &ids).await?;
    let fresh: Vec<&Prepared> = unique
        .into_iter()
        .zip(&seen)
        .filter(|(_, s)| s.is_none())
        .map(|(g, _)| g)
        .collect();
    let imported = Imported {
        added: fresh.len(),
        already: games.len() - fresh.len(),
    };
    if fresh.is_empty() {
        return Ok(imported);
    }
    let deltas = count(&fresh);
    let keys: Vec<String> = deltas.keys().cloned().collect();
    let current = store
        .get_many::<Row>(Tree::ExplorerPositions, &keys)
        .await?;
    let mut batch = Batch::new();
    for ((key, delta), stored) in deltas.into_iter().zip(current) {
        // A row that does not decode reads as absent (and is logged): the write then
        // conflicts every time, and the import stops naming it rather than lose its counts.
        let (mut row, expect) = match stored {
            Some(s) => (s.value, Expect::Revision(s.revision)),
            None => (Row::default(), Expect::Absent),
        };
        row.merge(&delta);
        batch.put_checked(Tree::ExplorerPositions, &key, &row, expect)?;
    }
    for game in &fresh {
        batch.put_checked(Tree::ExplorerGames, &game.id, &game.info, Expect::Absent)?;
        // The game is new (its row is written only if absent): its index keys are too.
        for player in players(&game.info) {
            batch.put(
                Tree::ExplorerPositions,
                &player_game(&player, &game.id),
                &(),
            )?;
        }
        // A club game joins its chat's index (`Scope::Chat`).
        if let Some(chat) = &game.info.chat {
            batch.put(Tree::ExplorerPositions, &chat_game(chat, &game.id), &())?;
        }
    }
    store.write(batch).await?;
    Ok(imported)
}

/// The players of a game (one when a player played herself).
fn players(info: &GameInfo) -> Vec<String> {
    let mut ids = vec![player_id(&info.white), player_id(&info.black)];
    ids.dedup();
    ids
}

/// The rows `games` add to: each step counted in its source's row (a player's counts are
/// made from her games when asked for, `query`).
fn count(games: &[&Prepared]) -> BTreeMap<String, Row> {
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    for game in games {
        // A game passes a position once (a position repeats only after a capture, which
        // changes the kazans), but a repeat must not count it twice.
        let mut counted = HashSet::new();
        for step in &game.steps {
            if !counted.insert(&step.position) {
                continue;
            }
            let entry = entry_of(&game.info, step);
            rows.entry(source_row(&step.position, game.source))
                .or_default()
                .merge(&Row {
                    e: vec![entry],
                    l: vec![(step.pit, game.id.clone())],
                });
        }
    }
    rows
}

/// The counter one game adds for one of its steps.
pub(super) fn entry_of(info: &GameInfo, step: &Step) -> Entry {
    let rating = [info.white_elo, info.black_elo][step.mover.index()];
    let (w, d, b) = match info.result {
        Result3::White => (1, 0, 0),
        Result3::Draw => (0, 1, 0),
        Result3::Black => (0, 0, 1),
    };
    Entry(
        info.category,
        Band::of([info.white_elo, info.black_elo]).code(),
        step.pit,
        1,
        w,
        d,
        b,
        u64::from(rating.unwrap_or(0)),
        u64::from(rating.is_some()),
    )
}

/// A stored game's counted steps, replayed from its start and moves (`None`: the row does
/// not replay, which a row this code wrote never does).
pub(super) fn steps_of(info: &GameInfo) -> Option<Vec<Step>> {
    let mut position = match &info.start {
        Some(fen) => Position::from_fen(fen).ok()?,
        None => Position::start(Variant::STANDARD),
    };
    let mut steps = Vec::with_capacity(info.moves.len());
    for digit in info.moves.bytes() {
        let pit = digit.checked_sub(b'0').filter(|p| (1..=9).contains(p))?;
        let before = position;
        position.play(pit).ok()?;
        steps.push(Step {
            position: position_key(&before),
            pit,
            mover: before.to_move(),
        });
    }
    Some(steps)
}
