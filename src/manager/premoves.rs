//! Conditional premoves (issue 51; docs/premoves.md): in a correspondence game between two
//! people, while the opponent is to move, a player queues lines for the opponent's replies
//! ("if they play 3, I play 7; then if 5, I play 2"). A line alternates the opponent's pit
//! and the author's, each 1..=9 of the mover's own row.
//!
//! The queue is part of the stored game (`GameRecord::premoves`, one per side), so it is as
//! durable as the game, survives restarts and is shared by every process on the store. When
//! the opponent's move matches a line, the reply is played in the same change of the game,
//! so the opponent's move and the reply are one durable write: neither is ever stored
//! without the other, nor played twice. A move off every line clears the queue, and so does
//! the end of the game. Only the author reads their lines (`Manager::premoves`); no view,
//! page or record shows them.

use super::*;
use crate::rules::Position;
use serde::{Deserialize, Serialize};

/// Lines a player may queue in one game.
pub const MAX_LINES: usize = 30;
/// Pits in one line (the opponent's and the author's together).
pub const MAX_LINE_MOVES: usize = 30;

/// One player's premoves in a game, as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Premoves {
    /// Lines of pits: the opponent's move, the author's reply, the opponent's next, ...
    /// (each of even length, at least 2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<Vec<u8>>,
    /// The line being entered with the chat's buttons, pit by pit (kept in the store so a
    /// builder survives a restart and works from any process).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub draft: Vec<u8>,
    /// Changes so far: a builder's buttons carry it, so a press on a builder shown before
    /// the last change (another builder's, or a move that shifted the lines) is refused as
    /// stale rather than applied to lines its author no longer sees.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub edits: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Premoves {
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty() && self.draft.is_empty()
    }

    /// Empties lines and draft (a change: `edits` counts it).
    fn clear(&mut self) {
        if !self.is_empty() {
            self.lines.clear();
            self.draft.clear();
            self.edits = self.edits.wrapping_add(1);
        }
    }
}

/// Whether a game's premoves are all empty (then the record leaves them out).
pub(super) fn none_queued(both: &[Premoves; 2]) -> bool {
    both.iter().all(|p| p == &Premoves::default())
}

/// One change of a player's premoves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PremoveEdit {
    /// Replace every line (the page's panel). An empty list clears them.
    Set(Vec<Vec<u8>>),
    /// Append a pit to the draft (the chat's builder).
    Pit(u8),
    /// The draft becomes a line.
    AddLine,
    /// Take back the draft's last pit, or with an empty draft the last line.
    Undo,
    /// Clear lines and draft.
    ClearAll,
}

/// What the author sees of their premoves in a game.
#[derive(Clone, Debug, PartialEq)]
pub struct PremovesView {
    /// The game as it is now (for the opponent's name, the ply, the language).
    pub game: GameView,
    /// The author's side.
    pub side: Side,
    pub lines: Vec<Vec<u8>>,
    pub draft: Vec<u8>,
    pub edits: u32,
    /// Lines may be entered now: the game is ongoing and the opponent is to move.
    pub open: bool,
}

impl Manager {
    /// The actor's own premoves in `game`: only a player of it reads them.
    pub async fn premoves(&self, actor: &UserRef, game: &str) -> Result<PremovesView, ActionError> {
        let slot = self.game_slot(game).await?;
        let held = self.enter(&slot).await?;
        let side = held.side_of(actor).ok_or(ActionError::NotYourGame)?;
        let view = self.view_of(&held).await;
        Ok(premoves_view(&held, side, view))
    }

    /// Changes the actor's premoves in `game`, durably. `edits`: the count the builder
    /// pressed was shown at (`None` from the page, which sends whole lists). Refused with
    /// `NotYourGame`, `GameOver`, `PremovesNotHere` (not a correspondence game between two
    /// people), `PremovesOnTheirTurn` (the actor is to move), `StaleBoard`, `TooManyPremoves`,
    /// `PremoveIllegal` (naming the line and its move), `PremovesDisagree` or
    /// `PremoveLineUnfinished`.
    pub async fn edit_premoves(
        &self,
        actor: &UserRef,
        game: &str,
        edits: Option<u32>,
        edit: PremoveEdit,
    ) -> Result<PremovesView, ActionError> {
        let (side, view) = self
            .update_game(game, |game, _| apply(game, actor, edits, &edit))
            .await?;
        tracing::info!(game, ?edit, "premoves changed");
        // The lines as stored now (read again: the view carries none).
        let mut out = self.premoves(actor, game).await?;
        out.game = view;
        out.side = side;
        Ok(out)
    }
}

/// `edit` by `actor` in `game`, for a builder shown at `edits` (`None`: no builder): the
/// lines checked against the position, `edits` counting the change. A refusal changes
/// nothing. Returns the actor's side.
fn apply(
    game: &mut Game,
    actor: &UserRef,
    edits: Option<u32>,
    edit: &PremoveEdit,
) -> Result<Side, ActionError> {
    let side = game.side_of(actor).ok_or(ActionError::NotYourGame)?;
    check_open(game, side, edit)?;
    let mine = &game.rec.premoves[side.index()];
    if edits.is_some_and(|e| e != mine.edits) {
        return Err(ActionError::StaleBoard);
    }
    let changed = edited(game, mine, edit)?;
    if changed != *mine {
        let mut changed = changed;
        changed.edits = mine.edits.wrapping_add(1);
        game.rec.premoves[side.index()] = changed;
    }
    Ok(side)
}

fn premoves_view(game: &Game, side: Side, view: GameView) -> PremovesView {
    let mine = &game.rec.premoves[side.index()];
    PremovesView {
        game: view,
        side,
        lines: mine.lines.clone(),
        draft: mine.draft.clone(),
        edits: mine.edits,
        open: check_open(game, side, &PremoveEdit::AddLine).is_ok(),
    }
}

/// Whether premoves may be in this game at all: correspondence between two people.
pub fn allowed(time: TimeControl, players: &[Player; 2]) -> bool {
    let correspondence = matches!(time, TimeControl::Days(_) | TimeControl::Correspondence);
    correspondence && players.iter().all(|p| !p.is_bot())
}

/// Whether `side` may make `edit` now. Clearing is always allowed in an ongoing game.
fn check_open(game: &Game, side: Side, edit: &PremoveEdit) -> Result<(), ActionError> {
    if game.is_over() {
        return Err(ActionError::GameOver);
    }
    if !allowed(game.rec.time_control, &game.rec.players) {
        return Err(ActionError::PremovesNotHere);
    }
    let clearing = matches!(edit, PremoveEdit::ClearAll | PremoveEdit::Undo)
        || *edit == PremoveEdit::Set(Vec::new());
    if game.position.to_move() == side && !clearing {
        return Err(ActionError::PremovesOnTheirTurn);
    }
    Ok(())
}

/// `mine` after `edit`, checked against the game's position.
fn edited(game: &Game, mine: &Premoves, edit: &PremoveEdit) -> Result<Premoves, ActionError> {
    let mut out = mine.clone();
    match edit {
        PremoveEdit::Set(lines) => {
            let mut kept: Vec<Vec<u8>> = Vec::with_capacity(lines.len());
            for line in lines {
                if !kept.contains(line) {
                    kept.push(line.clone());
                }
            }
            out.lines = kept;
            out.draft.clear();
        }
        PremoveEdit::Pit(pit) => out.draft.push(*pit),
        PremoveEdit::AddLine => {
            if out.draft.is_empty() || out.draft.len() % 2 == 1 {
                return Err(ActionError::PremoveLineUnfinished);
            }
            let line = std::mem::take(&mut out.draft);
            if !out.lines.contains(&line) {
                out.lines.push(line);
            }
        }
        PremoveEdit::Undo => {
            if out.draft.pop().is_none() {
                out.lines.pop();
            }
        }
        PremoveEdit::ClearAll => {
            out.lines.clear();
            out.draft.clear();
        }
    }
    check_lines(&game.position, &out)?;
    Ok(out)
}

/// Every line (and the draft, which may end on the opponent's move) is legal from
/// `position`, within the limits, and no two lines answer the same moves differently.
/// Lines are named 1, 2, ... as shown; the draft is the one after the last.
fn check_lines(position: &Position, p: &Premoves) -> Result<(), ActionError> {
    let too_many = p.lines.len() > MAX_LINES || (p.lines.len() == MAX_LINES && !p.draft.is_empty());
    if too_many {
        return Err(ActionError::TooManyPremoves);
    }
    let mut replies: HashMap<&[u8], u8> = HashMap::new();
    let all = p.lines.iter().chain(std::iter::once(&p.draft));
    for (n, line) in all.enumerate() {
        let is_draft = n == p.lines.len();
        if line.len() > MAX_LINE_MOVES {
            return Err(ActionError::TooManyPremoves);
        }
        if !is_draft && (line.is_empty() || line.len() % 2 == 1) {
            return Err(ActionError::PremoveLineUnfinished);
        }
        let mut at = *position;
        for (i, &pit) in line.iter().enumerate() {
            let illegal = ActionError::PremoveIllegal {
                line: n + 1,
                step: i + 1,
                pit,
            };
            if !(1..=9).contains(&pit) || at.play(pit).is_err() {
                return Err(illegal);
            }
            // The game must go on to the line's next move.
            if at.is_over() && i + 1 < line.len() {
                return Err(ActionError::PremoveIllegal {
                    line: n + 1,
                    step: i + 2,
                    pit: line[i + 1],
                });
            }
            if i % 2 == 1 {
                let asked = &line[..i];
                match replies.get(asked) {
                    Some(&reply) if reply != pit => {
                        return Err(ActionError::PremovesDisagree { line: n + 1 });
                    }
                    _ => {
                        replies.insert(asked, pit);
                    }
                }
            }
        }
    }
    Ok(())
}

/// After a change of `game` from ply `before_ply` (called by `update_game_charged` before
/// the write, so a reply played here is in the same durable write as the move it answers):
/// a move by one side is answered from the other side's premoves when a line starts with
/// it, the lines shifted past both moves; a move off every line clears them. An ended game
/// keeps none. Returns the reply played.
pub(super) fn follow(before_ply: u16, game: &mut Game, now: u64) -> Option<u8> {
    if game.ply() == before_ply || none_queued(&game.rec.premoves) {
        return None;
    }
    if game.is_over() {
        clear_all(&mut game.rec);
        return None;
    }
    let author = game.position.to_move();
    // The mover's own lines (none can be queued on one's own turn) and drafts were for the
    // position before the move.
    game.rec.premoves[author.other().index()].clear();
    let mine = &mut game.rec.premoves[author.index()];
    if mine.is_empty() {
        return None;
    }
    // Whatever happens next, a builder shown before this move is stale.
    mine.edits = mine.edits.wrapping_add(1);
    mine.draft.clear();
    let &played = game.rec.moves.last()?;
    let Some(reply) = mine
        .lines
        .iter()
        .find(|l| l.first() == Some(&played))
        .and_then(|l| l.get(1).copied())
    else {
        if !mine.lines.is_empty() {
            tracing::info!(
                game = game.rec.id,
                played,
                "premoves cleared: a move off every line"
            );
        }
        mine.lines.clear();
        return None;
    };
    let rest: Vec<Vec<u8>> = mine
        .lines
        .iter()
        .filter(|l| l.len() > 2 && l[0] == played && l[1] == reply)
        .map(|l| l[2..].to_vec())
        .collect();
    mine.lines = rest;
    if let Err(error) = game.play(reply, now) {
        // Checked when entered, so not expected; an illegal reply clears the queue.
        tracing::warn!(game = game.rec.id, reply, %error, "premove illegal; queue cleared");
        game.rec.premoves[author.index()].clear();
        return None;
    }
    tracing::info!(game = game.rec.id, played, reply, "premove played");
    if game.is_over() {
        clear_all(&mut game.rec);
    }
    Some(reply)
}

/// A game that ended keeps no premoves (`write_game` calls it on every change).
pub(super) fn clear_at_end(rec: &mut GameRecord) {
    if rec.status != GameStatus::Ongoing {
        clear_all(rec);
    }
}

fn clear_all(rec: &mut GameRecord) {
    if !none_queued(&rec.premoves) {
        rec.premoves = Default::default();
    }
}

#[cfg(test)]
#[path = "premoves_tests.rs"]
mod tests;
