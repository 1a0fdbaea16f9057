//! The computer opponent: a search (`search`), its evaluation (`eval`), hashing (`zobrist`,
//! `tt`), the playing levels (`levels`) and the `toguz engine` line protocol (`protocol`).
//!
//! `choose_move` blocks; `EnginePool` runs searches on tokio's blocking pool, a bounded number
//! at once, so bot moves never stall message handling.

pub mod eval;
mod levels;
pub mod protocol;
mod score;
mod search;
mod tt;
mod zobrist;

pub use levels::{level_move, level_move_within, Style};
pub use score::{is_loss, is_win, plies_to_end, BALL, MAX_PLY, WIN};
pub use search::{Limits, SearchInfo, SearchResult, Searcher};

use crate::model::Level;
use crate::rules::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::Semaphore;

/// `[engine]` in the config.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EngineConfig {
    /// Thinking time of `hard`, per move.
    pub hard_ms: u64,
    /// Thinking time of `max`, per move.
    pub max_ms: u64,
    /// Searches that may run at once; more wait their turn.
    pub max_concurrent: usize,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            hard_ms: 300,
            max_ms: 2000,
            max_concurrent: 2,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error("the game is over: there is no move to choose")]
    NoMove,
    #[error("the engine task failed")]
    TaskFailed,
}

/// Chooses a move for the side to move, blocking the calling thread for the level's time
/// (`hard` and `max` think for their budget from `config`; the others search a fixed depth).
/// Deterministic for a fixed seed at the depth-limited levels. `None` when the game is over.
pub fn choose_move(pos: &Position, level: Level, config: &EngineConfig, seed: u64) -> Option<u8> {
    level_move(pos, level, level.budget(config), seed, None)
}

/// Sets a search's stop flag when dropped: a cancelled `EnginePool::choose_move` future
/// stops its search instead of letting it run out its budget.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs searches on tokio's blocking pool, at most `max_concurrent` at once.
#[derive(Clone)]
pub struct EnginePool {
    config: Arc<EngineConfig>,
    permits: Arc<Semaphore>,
}

impl EnginePool {
    pub fn new(config: EngineConfig) -> EnginePool {
        let permits = Arc::new(Semaphore::new(config.max_concurrent.max(1)));
        EnginePool {
            config: Arc::new(config),
            permits,
        }
    }

    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The engine's move for `pos`, computed off the async runtime. Dropping the future
    /// cancels the search.
    pub async fn choose_move(
        &self,
        pos: Position,
        level: Level,
        seed: u64,
    ) -> Result<u8, EngineError> {
        self.choose_move_within(pos, level, seed, None).await
    }

    /// `choose_move` on a clock: the search answers within `think` (at the level's strength
    /// when that leaves it time, see `level_move_within`); `None` thinks as the level does.
    pub async fn choose_move_within(
        &self,
        pos: Position,
        level: Level,
        seed: u64,
        think: Option<std::time::Duration>,
    ) -> Result<u8, EngineError> {
        if pos.legal_moves().is_empty() {
            return Err(EngineError::NoMove);
        }
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| EngineError::TaskFailed)?;
        let budget = level.budget(&self.config);
        let stop = StopOnDrop(Arc::new(AtomicBool::new(false)));
        let flag = stop.0.clone();
        let chosen = tokio::task::spawn_blocking(move || match think {
            Some(think) => level_move_within(&pos, level, budget, think, seed, Some(flag)),
            None => level_move(&pos, level, budget, seed, Some(flag)),
        })
        .await;
        drop(stop);
        chosen
            .map_err(|_| EngineError::TaskFailed)?
            .ok_or(EngineError::NoMove)
    }
}
