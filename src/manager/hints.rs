//! Hints (docs/review.md, *Hints*): in a casual game against the bot, the player to move may
//! ask for the engine's move up to `MAX_HINTS` times. The count is part of the stored game,
//! so it survives a restart and marks the game's record (`[Hints "2"]`).
//!
//! Like a review's positions, a hint is one short search with a fixed node budget
//! (`[review] nodes`, a cleared table: the same position always gets the same hint) on a bot
//! search slot granted only when no bot move waits (`BotQueue::review_slot`), so a hint
//! delays another game's bot move by at most that one short search. At most `AT_ONCE` hints
//! are worked on or waiting, one per game; more are refused with `HintsBusy`.

use super::*;
use crate::engine::Searcher;
use crate::review::{judge, move_text, TABLE_MB};
use crate::rules::Position;

/// Hints worked on or waiting for a search slot at once, over all games.
const AT_ONCE: usize = 16;

/// A hint given: the game as it is now (its count of hints includes this one) and the
/// engine's move for the player to move.
#[derive(Clone, Debug)]
pub struct GameHint {
    pub game: GameView,
    /// The pit to play, 1..=9 of the player's row.
    pub pit: u8,
    /// The move in move text (`76`, `43X`).
    pub text: String,
    /// Hints left in this game after this one.
    pub left: u8,
}

/// A hint that was asked for and admitted: the checks passed, the search has not run yet.
/// Getting one is quick, so an adapter can answer a refusal at once and run the search off
/// its handler with [`HintTicket::finish`].
pub struct HintTicket {
    manager: Manager,
    actor: UserRef,
    game: GameId,
    position: Position,
    /// The ply the hint is for; the game must still be there when it is counted.
    ply: u16,
}

impl Drop for HintTicket {
    fn drop(&mut self) {
        lock(&self.manager.inner.hints).remove(&self.game);
    }
}

impl HintTicket {
    /// The game the hint is for.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// Searches the position on a bot search slot, then counts the hint durably. If the
    /// game moved on meanwhile (the player moved, resigned, the clock ran out), the hint is
    /// refused as for a stale board and not counted.
    pub async fn finish(self) -> Result<GameHint, ActionError> {
        let manager = &self.manager;
        let closed = || ActionError::Storage("the hint was cut short".into());
        let permit = manager.inner.bots.review_slot().await.ok_or_else(closed)?;
        let (position, nodes) = (self.position, manager.inner.config.review.nodes);
        let started = std::time::Instant::now();
        let pit = tokio::task::spawn_blocking(move || {
            let mut searcher = Searcher::new(TABLE_MB);
            judge(&mut searcher, &position, nodes).1
        })
        .await
        .map_err(|_| closed())?;
        drop(permit);
        let text = move_text(&self.position, pit);
        if text.is_empty() {
            return Err(closed());
        }
        let (left, view) = manager
            .update_game(&self.game, |game, _| {
                check_hint(game, &self.actor, Some(self.ply))?;
                game.rec.hints += 1;
                Ok(MAX_HINTS.saturating_sub(game.rec.hints))
            })
            .await?;
        tracing::info!(
            game = self.game,
            pit,
            left,
            ms = started.elapsed().as_millis() as u64,
            "hint given"
        );
        Ok(GameHint {
            game: view,
            pit,
            text,
            left,
        })
    }
}

impl Manager {
    /// Asks for a hint in `game` (or the actor's only ongoing game in `chat`), for the board
    /// shown at `ply` (`None`: as it is now). Refused at once with `NotYourGame`, `GameOver`,
    /// `StaleBoard`, `HintsOnlyAgainstBot` (a game between people or a rated one),
    /// `NotYourTurn`, `NoHintsLeft` or `HintsBusy` (this game's hint is being worked out, or
    /// too many are at once).
    pub async fn start_hint(
        &self,
        actor: &UserRef,
        chat: &ChatRef,
        game: Option<GameId>,
        ply: Option<u16>,
    ) -> Result<HintTicket, ActionError> {
        let id = self.resolve_game(actor, chat, game, false)?;
        let (position, ply) = {
            let slot = self.game_slot(&id).await?;
            let game = self.enter(&slot).await?;
            check_hint(&game, actor, ply)?;
            (game.position, game.ply())
        };
        {
            let mut asked = lock(&self.inner.hints);
            if asked.len() >= AT_ONCE || !asked.insert(id.clone()) {
                tracing::info!(game = id, "hint refused: one is being worked out");
                return Err(ActionError::HintsBusy);
            }
        }
        Ok(HintTicket {
            manager: self.clone(),
            actor: actor.clone(),
            game: id,
            position,
            ply,
        })
    }

    /// `start_hint` and its search, waiting for the hint.
    pub async fn hint(
        &self,
        actor: &UserRef,
        chat: &ChatRef,
        game: Option<GameId>,
        ply: Option<u16>,
    ) -> Result<GameHint, ActionError> {
        self.start_hint(actor, chat, game, ply)
            .await?
            .finish()
            .await
    }
}

/// Whether `actor` may have a hint in `game` at `ply` now.
fn check_hint(game: &Game, actor: &UserRef, ply: Option<u16>) -> Result<(), ActionError> {
    let side = game.side_of(actor).ok_or(ActionError::NotYourGame)?;
    if game.is_over() {
        return Err(ActionError::GameOver);
    }
    if ply.is_some_and(|p| p != game.ply()) {
        return Err(ActionError::StaleBoard);
    }
    let against_bot = game.rec.players.iter().any(Player::is_bot);
    if !against_bot || game.rec.rated {
        return Err(ActionError::HintsOnlyAgainstBot);
    }
    if game.position.to_move() != side {
        return Err(ActionError::NotYourTurn);
    }
    if game.rec.hints >= MAX_HINTS {
        return Err(ActionError::NoHintsLeft);
    }
    Ok(())
}
