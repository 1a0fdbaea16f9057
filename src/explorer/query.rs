//! One position asked for: its rows read with one range read (all sources), one record
//! (one source) or one player's row, the counters filtered and added up per pit.

use super::import::{entry_of, steps_of};
use super::keys::{chat_games, player_games, player_id, position_key, source_row};
use super::{Band, GameInfo, Row, Source};
use crate::rules::Position;
use crate::store::{KeyRange, Store, StoreError, Tree};
use serde::Serialize;
use std::collections::BTreeMap;

/// Whose games count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every game in the store: masters and club together.
    All,
    Source(Source),
    /// One player's games, as White or as Black (by name, any case).
    Player(String),
    /// One player's games by her key (`keys::player_id` of her name): what a button keeps.
    PlayerKey(String),
    /// The club games of one chat (by its key, `ChatRef::key`).
    Chat(String),
}

/// Which games of the scope count: empty lists take every category or band.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Time category codes (`super::category_code`).
    pub categories: Vec<u8>,
    pub bands: Vec<Band>,
}

impl Filter {
    fn admits(&self, category: u8, band: u8) -> bool {
        (self.categories.is_empty() || self.categories.contains(&category))
            && (self.bands.is_empty() || self.bands.iter().any(|b| b.code() == band))
    }
}

/// One pit played from the position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MoveStats {
    pub pit: u8,
    pub games: u64,
    pub white: u64,
    pub draws: u64,
    pub black: u64,
    /// The average rating of the players who chose it (of those whose rating is known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<u64>,
    #[serde(skip)]
    rating_sum: u64,
    #[serde(skip)]
    rating_count: u64,
}

/// A game that went through the position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LastGame {
    pub pit: u8,
    pub id: String,
    #[serde(flatten)]
    pub info: GameInfo,
}

/// What the explorer says about a position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Answer {
    /// Games that went on from the position.
    pub games: u64,
    /// Best-played first (ties by pit).
    pub moves: Vec<MoveStats>,
    /// The last games through it (newest imported first), when asked for.
    pub last: Vec<LastGame>,
}

/// The rows of `position` in `scope`: one read.
async fn rows(store: &Store, position: &Position, scope: &Scope) -> Result<Vec<Row>, StoreError> {
    let key = position_key(position);
    let prefix = match scope {
        Scope::All => key,
        Scope::Source(source) => source_row(&key, *source),
        Scope::Player(name) => {
            return indexed_rows(store, &player_games(&player_id(name)), &key).await
        }
        Scope::PlayerKey(id) => return indexed_rows(store, &player_games(id), &key).await,
        Scope::Chat(chat) => return indexed_rows(store, &chat_games(chat), &key).await,
    };
    // At most one row per source under a position's prefix.
    let found: Vec<(String, Row)> = store
        .scan(Tree::ExplorerPositions, KeyRange::prefix(&prefix), 8)
        .await?;
    Ok(found.into_iter().map(|(_, r)| r).collect())
}

/// The most games of one player (or chat) a query counts.
const PLAYER_GAMES: usize = 100_000;

/// One player's (or chat's) row of the position `key`, made from the games of its index
/// under `prefix`: their keys (one range read), their rows (one `get_many`), each replayed
/// for its first `MAX_PLY` half-moves and counted where it passes the position.
async fn indexed_rows(store: &Store, prefix: &str, key: &str) -> Result<Vec<Row>, StoreError> {
    let index: Vec<(String, ())> = store
        .scan(
            Tree::ExplorerPositions,
            KeyRange::prefix(prefix),
            PLAYER_GAMES,
        )
        .await?;
    let ids: Vec<String> = index
        .into_iter()
        .filter_map(|(k, ())| k.strip_prefix(prefix).map(str::to_string))
        .collect();
    let games = store
        .get_many::<GameInfo>(Tree::ExplorerGames, &ids)
        .await?;
    let mut row = Row::default();
    for (id, game) in ids.iter().zip(games) {
        let Some(game) = game else { continue };
        let Some(steps) = steps_of(&game.value) else {
            tracing::error!(
                game = id.as_str(),
                "an explorer game does not replay; skipped"
            );
            continue;
        };
        // Counted once, where it first passes the position (as the import counts).
        if let Some(step) = steps.iter().find(|s| s.position == key) {
            row.merge(&Row {
                e: vec![entry_of(&game.value, step)],
                l: vec![(step.pit, id.clone())],
            });
        }
    }
    Ok(vec![row])
}

/// The moves played from `position`, with `last` of the last games through it (a second
/// read, only when `last > 0`).
pub async fn query(
    store: &Store,
    position: &Position,
    scope: &Scope,
    filter: &Filter,
    last: usize,
) -> Result<Answer, StoreError> {
    let rows = rows(store, position, scope).await?;
    let mut pits: BTreeMap<u8, MoveStats> = BTreeMap::new();
    for entry in rows.iter().flat_map(|r| &r.e) {
        if !filter.admits(entry.0, entry.1) {
            continue;
        }
        let stats = pits.entry(entry.2).or_insert_with(|| MoveStats {
            pit: entry.2,
            ..MoveStats::default()
        });
        stats.games += entry.3;
        stats.white += entry.4;
        stats.draws += entry.5;
        stats.black += entry.6;
        stats.rating_sum += entry.7;
        stats.rating_count += entry.8;
    }
    let mut moves: Vec<MoveStats> = pits.into_values().collect();
    for m in &mut moves {
        m.rating = (m.rating_count > 0).then(|| m.rating_sum / m.rating_count);
    }
    moves.sort_by(|a, b| b.games.cmp(&a.games).then(a.pit.cmp(&b.pit)));
    let mut answer = Answer {
        games: moves.iter().map(|m| m.games).sum(),
        moves,
        last: Vec::new(),
    };
    if last > 0 && filter == &Filter::default() {
        answer.last = last_games(store, &rows, last).await?;
    }
    Ok(answer)
}

/// The last games of `rows` (each row keeps its own newest few; they are merged by row
/// order, which is no date order: "last" is the last imported).
async fn last_games(store: &Store, rows: &[Row], n: usize) -> Result<Vec<LastGame>, StoreError> {
    let mut picked: Vec<(u8, String)> = Vec::new();
    for (pit, id) in rows.iter().flat_map(|r| &r.l) {
        if picked.len() < n && !picked.iter().any(|(_, i)| i == id) {
            picked.push((*pit, id.clone()));
        }
    }
    let ids: Vec<String> = picked.iter().map(|(_, id)| id.clone()).collect();
    let infos = store
        .get_many::<GameInfo>(Tree::ExplorerGames, &ids)
        .await?;
    Ok(picked
        .into_iter()
        .zip(infos)
        .filter_map(|((pit, id), info)| {
            info.map(|i| LastGame {
                pit,
                id,
                info: i.value,
            })
        })
        .collect())
}
