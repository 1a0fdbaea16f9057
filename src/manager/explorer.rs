//! The opening explorer as players ask it (issue 52): a position reached by pits played
//! from a start, whose games count (`ExplorerSource`) and which (`Filter`), answered as an
//! `ExplorerView` every front end shows through `present`. The club's finished games are
//! queued in the write that ends them (`queue_club_game`) and counted by `drain_explorer`
//! (after the end, and on every sweep), exactly once (docs/explorer.md).

use super::*;
use crate::explorer::{self, Answer, Filter, LastGame, Prepared, Scope, Source, MAX_PLY};
use crate::rules::{parse_record, Position, Variant};
use crate::store::{Batch, KeyRange};
use serde::{Deserialize, Serialize};

/// How many queued club games one drain counts (one durable write).
const DRAIN_CHUNK: usize = 200;

/// How many of the last games through a position a view lists.
pub const EXPLORER_LAST: usize = 3;

/// The most pits an explorer position may be asked by (the explorer counts the first
/// `MAX_PLY`; deeper positions are asked for, and have no games).
pub const EXPLORER_MAX_MOVES: usize = 2 * MAX_PLY;

/// Whose games the explorer counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExplorerSource {
    /// Masters and club together.
    All,
    /// Imported records.
    Masters,
    /// Games played through the bot on this deployment, in every chat.
    Club,
    /// The club games of one chat.
    Chat(ChatRef),
    /// One player's games, as White or Black (by name).
    Player(String),
    /// One player's games by her key (`explorer::player_id` of her name, 8 characters):
    /// what a chat button keeps of a player source. `name` is shown when known.
    PlayerKey { key: String, name: Option<String> },
}

impl ExplorerSource {
    /// The player source as a button keeps it (other sources as they are).
    pub fn compact(&self) -> ExplorerSource {
        match self {
            ExplorerSource::Player(name) => ExplorerSource::PlayerKey {
                key: explorer::player_id(name),
                name: Some(name.clone()),
            },
            other => other.clone(),
        }
    }
}

/// A position asked of the explorer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerAsk {
    pub variant: Variant,
    /// The pits played from the start, each in the mover's own numbering.
    pub moves: Vec<u8>,
    pub source: ExplorerSource,
    pub filter: Filter,
}

impl ExplorerAsk {
    /// The standard start, every game.
    pub fn start() -> ExplorerAsk {
        ExplorerAsk {
            variant: Variant::STANDARD,
            moves: Vec::new(),
            source: ExplorerSource::All,
            filter: Filter::default(),
        }
    }

    /// The pits of a typed line: "7 7 2", "7,7,2" or "772" (digits 1-9).
    pub fn parse_moves(text: &str) -> Result<Vec<u8>, ActionError> {
        let mut pits = Vec::new();
        for (i, c) in text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != ',')
            .enumerate()
        {
            match c.to_digit(10) {
                Some(d @ 1..=9) => pits.push(d as u8),
                _ => {
                    return Err(ActionError::ExplorerMoves {
                        step: i + 1,
                        pit: c.to_string(),
                    })
                }
            }
        }
        if pits.len() > EXPLORER_MAX_MOVES {
            return Err(ActionError::ExplorerTooDeep {
                max: EXPLORER_MAX_MOVES,
            });
        }
        Ok(pits)
    }

    /// The position the moves reach (refused naming the first pit that cannot be played).
    pub fn position(&self) -> Result<Position, ActionError> {
        let mut position = Position::start(self.variant);
        for (i, &pit) in self.moves.iter().enumerate() {
            // A pit that is empty, a tuzdek, or played after the game ended.
            position.play(pit).map_err(|_| ActionError::ExplorerMoves {
                step: i + 1,
                pit: pit.to_string(),
            })?;
        }
        Ok(position)
    }
}

/// One of the last games through a position, as a viewer may see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerGame {
    pub game: LastGame,
    /// Its page on this deployment (a club game, pages served).
    pub page_url: Option<String>,
}

/// What the explorer answers.
#[derive(Clone, Debug, PartialEq)]
pub struct ExplorerView {
    pub ask: ExplorerAsk,
    /// The position asked for.
    pub position: Position,
    /// Each pit played from it, best-played first.
    pub answer: Answer,
    /// The last games through it that the asker may see (a club game of a chat that is
    /// not public is listed only in its own chat; it is counted everywhere).
    pub last: Vec<ExplorerGame>,
}

/// How far a game followed the explorer's games (the review's and the game page's line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookLine {
    pub variant: Variant,
    /// Every pit of the game, from its start.
    pub moves: Vec<u8>,
    /// How many half-moves other games had played too (the explorer's depth at most).
    pub followed: usize,
    /// The first half-move nobody else had played, when it is within the explorer's depth:
    /// its 0-based ply (`== followed`) and pit.
    pub novelty: Option<(usize, u8)>,
}

impl BookLine {
    /// The explorer at the position where the game left the others' games.
    pub fn ask(&self) -> ExplorerAsk {
        ExplorerAsk {
            variant: self.variant,
            moves: self.moves[..self.followed.min(self.moves.len())].to_vec(),
            ..ExplorerAsk::start()
        }
    }
}

/// A club game waiting to be counted (`Tree::ExplorerQueue`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct QueuedGame {
    /// The game's record, as `/record` gives it.
    record: String,
    /// Its chat (`ChatRef::key`).
    chat: String,
}

fn scope_of(source: &ExplorerSource) -> Scope {
    match source {
        ExplorerSource::All => Scope::All,
        ExplorerSource::Masters => Scope::Source(Source::Masters),
        ExplorerSource::Club => Scope::Source(Source::Club),
        ExplorerSource::Chat(chat) => Scope::Chat(chat.key()),
        ExplorerSource::Player(name) => Scope::Player(name.clone()),
        ExplorerSource::PlayerKey { key, .. } => Scope::PlayerKey(key.clone()),
    }
}

/// Puts a game that just ended into the explorer's queue, in the batch that ends it. A
/// game against the bot is not the club's play (the bot's moves are the engine's), and an
/// aborted one has no result: neither is queued.
pub(super) fn queue_club_game(after: &GameRecord, batch: &mut Batch) -> Result<(), ActionError> {
    if after.players.iter().any(|p| p.user().is_none()) || after.moves.is_empty() {
        return Ok(());
    }
    let record = match record::record_text(after) {
        Ok(text) => text,
        Err(error) => {
            tracing::error!(
                game = after.id,
                error,
                "an ended game does not replay; not queued"
            );
            return Ok(());
        }
    };
    let queued = QueuedGame {
        record,
        chat: after.chat.key(),
    };
    batch.put(Tree::ExplorerQueue, &after.id, &queued)?;
    Ok(())
}

impl Manager {
    /// The moves played from the position `ask` reaches, with the last games through it
    /// that `viewer_chat` may see (`None`: a web page, which sees only public chats').
    pub async fn explore(
        &self,
        ask: ExplorerAsk,
        viewer_chat: Option<&ChatRef>,
    ) -> Result<ExplorerView, ActionError> {
        let position = ask.position()?;
        let store = &self.inner.store;
        let scope = scope_of(&ask.source);
        let answer = explorer::query(store, &position, &scope, &ask.filter, 3 * EXPLORER_LAST);
        let mut answer = answer.await?;
        self.refresh_public_chats().await;
        let viewer = viewer_chat.map(ChatRef::key);
        let visible = |game: &LastGame| match &game.info.chat {
            None => true,
            Some(chat) => {
                viewer.as_deref() == Some(chat) || lock(&self.inner.index).is_public(chat)
            }
        };
        let last: Vec<ExplorerGame> = std::mem::take(&mut answer.last)
            .into_iter()
            .filter(visible)
            .take(EXPLORER_LAST)
            .map(|game| ExplorerGame {
                page_url: game.info.game.as_deref().and_then(|id| self.page_url(id)),
                game,
            })
            .collect();
        Ok(ExplorerView {
            ask,
            position,
            answer,
            last,
        })
    }

    /// How far `game` followed the explorer's games (masters and club, the game itself not
    /// counted), and its novelty: one range read per half-move, `MAX_PLY` at most.
    pub async fn book_line(&self, game: &str) -> Result<BookLine, ActionError> {
        let record = self.record(game).await?;
        let parsed = parse_record(&record.text).map_err(|_| ActionError::NoSuchGame)?;
        let start = parsed
            .start_position()
            .map_err(|_| ActionError::NoSuchGame)?;
        let moves: Vec<u8> = crate::rules::replay(&parsed, start)
            .map_err(|_| ActionError::NoSuchGame)?
            .iter()
            .map(|p| p.report.pit)
            .collect();
        // The game itself is counted once it ended (as the club's): not by others.
        let counted = self.counted_in_explorer(&parsed).await?;
        let (mut position, mut followed, mut novelty) = (start, 0, None);
        let (scope, every) = (Scope::All, Filter::default());
        for (ply, &pit) in moves.iter().enumerate().take(MAX_PLY) {
            let answer = explorer::query(&self.inner.store, &position, &scope, &every, 0);
            let answer = answer.await?;
            let games = answer
                .moves
                .iter()
                .find(|m| m.pit == pit)
                .map_or(0, |m| m.games);
            if games <= u64::from(counted) {
                novelty = Some((ply, pit));
                break;
            }
            followed += 1;
            if position.play(pit).is_err() {
                break;
            }
        }
        Ok(BookLine {
            variant: start.variant(),
            moves,
            followed,
            novelty,
        })
    }

    /// Whether the explorer has counted this game (its key is its moves and players).
    async fn counted_in_explorer(
        &self,
        record: &crate::rules::Record,
    ) -> Result<bool, ActionError> {
        let Ok(prepared) = explorer::prepare(record, Source::Club) else {
            return Ok(false);
        };
        let found = self
            .inner
            .store
            .revisions_of(Tree::ExplorerGames, std::slice::from_ref(&prepared.id))
            .await?;
        Ok(found.first().is_some_and(Option::is_some))
    }

    /// Counts queued club games into the explorer, a chunk at a time, until the queue is
    /// empty; one drain runs at a time in a process (a call waits for the one running).
    /// Another process may drain the same games: the explorer counts each once.
    pub async fn drain_explorer(&self) -> Result<usize, ActionError> {
        let _one = self.inner.explorer_drain.lock().await;
        let mut counted = 0;
        loop {
            match self.drain_explorer_chunk().await? {
                0 => return Ok(counted),
                n => counted += n,
            }
        }
    }

    /// Starts a drain in the background (after a game ended), unless one runs: it reads
    /// the queue again after each chunk, so it finds this game too.
    pub(super) fn kick_explorer(&self) {
        if self.inner.explorer_drain.try_lock().is_err() {
            return;
        }
        let manager = self.clone();
        tokio::spawn(async move {
            if let Err(error) = manager.drain_explorer().await {
                tracing::warn!(%error, "the explorer's queue is not drained; the sweep tries again");
            }
        });
    }

    /// One chunk of the queue: counted (one durable write), then removed (a second; a
    /// crash between the two leaves entries the next drain finds already counted).
    async fn drain_explorer_chunk(&self) -> Result<usize, ActionError> {
        let store = &self.inner.store;
        let queued: Vec<(String, QueuedGame)> = store
            .scan(Tree::ExplorerQueue, KeyRange::prefix(""), DRAIN_CHUNK)
            .await?;
        if queued.is_empty() {
            return Ok(0);
        }
        let prepared: Vec<Prepared> = queued
            .iter()
            .filter_map(|(id, q)| club_game(id, q))
            .collect();
        explorer::import_games(store, &prepared).await?;
        let mut batch = Batch::new();
        for (id, _) in &queued {
            batch.delete(Tree::ExplorerQueue, id);
        }
        store.write(batch).await?;
        Ok(queued.len())
    }
}

/// A queued game as the explorer counts it (`None`, logged: a record that does not check,
/// which a record this code wrote never is; it is dropped from the queue, the game itself
/// stays in the archive).
fn club_game(id: &str, queued: &QueuedGame) -> Option<Prepared> {
    let checked = parse_record(&queued.record)
        .map_err(|e| e.to_string())
        .and_then(|r| explorer::prepare(&r, Source::Club).map_err(|e| e.to_string()));
    match checked {
        Ok(prepared) => Some(prepared.into_club(id, &queued.chat)),
        Err(error) => {
            tracing::error!(
                game = id,
                error,
                "a queued game is not counted in the explorer"
            );
            None
        }
    }
}
