//! The indexes of puzzle play in the store: a player's finished attempts, the day's count
//! per chat, and the puzzle leaderboards (rows in `Tree::Leaderboard` under boards of their
//! own, `<scope>%puzzles`, read the way the game boards are).

use super::record::{AttemptLine, PuzzlePlayer};
use super::view::PuzzleBoard;
use super::Attempt;
use crate::manager::history::{INACTIVE_SECS, LEADERBOARD_TOP};
use crate::model::{ChatRef, UserRef};
use crate::ratings::keys::{board_key, board_prefix, escape, history_key, Scope};
use crate::ratings::LeaderRow;
use crate::store::{Batch, KeyRange, Store, StoreError, Tree};

/// How many finished attempts `/puzzle stats` shows.
pub const RECENT: usize = 10;

/// The key of a day's count in a chat: `day|chat`.
pub(super) fn daily_key(day: i64, chat: &ChatRef) -> String {
    format!("{day}|{}", escape(&chat.key()))
}

/// A scope's puzzle board: `telegram%puzzles`, `telegram:-100%puzzles`. No game category
/// is called `puzzles`, so no board reads into another.
pub fn puzzle_board(scope_key: &str) -> String {
    format!("{scope_key}%puzzles")
}

/// The scopes an attempt in `chat` counts in: the platform, and the chat (not an inline
/// message, which is in no chat).
fn scopes_of(chat: &ChatRef) -> Vec<String> {
    let mut scopes = vec![Scope::Platform(chat.platform).key()];
    if !chat.id.starts_with("inline:") {
        scopes.push(Scope::Chat(chat.clone()).key());
    }
    scopes
}

/// Adds the finished attempt to the player's lines (`user|inverted time|number`).
pub(super) fn attempt_line(
    batch: &mut Batch,
    player: &PuzzlePlayer,
    attempt: &Attempt,
    solved: bool,
    now: u64,
) -> Result<(), StoreError> {
    let line = AttemptLine {
        puzzle: attempt.puzzle.clone(),
        solved,
        daily: attempt.daily.is_some(),
        rating: player.rating.rating,
        at: now,
    };
    let key = history_key(
        &player.user.key(),
        now.saturating_mul(1000),
        &attempt.number.to_string(),
    );
    batch.put(Tree::PuzzleAttempts, &key, &line)?;
    Ok(())
}

/// The player's row on a board.
fn row(player: &PuzzlePlayer) -> LeaderRow {
    LeaderRow {
        user: player.user.clone(),
        rating: player.rating,
        games: player.solved + player.failed,
        wins: player.solved,
        draws: 0,
        losses: player.failed,
        last_rated: player.last_at,
    }
}

/// Moves the player's rows from their old rating to the new one, in every board they are
/// on plus those of this attempt's chat. A provisional rating gets no row unless the
/// operator says so, as on the game boards; rows expire after 90 days without a puzzle.
pub(super) fn rewrite_rows(
    before: &PuzzlePlayer,
    after: &mut PuzzlePlayer,
    chat: &ChatRef,
    provisional_ok: bool,
    batch: &mut Batch,
) -> Result<(), StoreError> {
    let user = after.user.key();
    for scope in &before.scopes {
        let key = board_key(&puzzle_board(scope), before.rating.rating, &user);
        batch.delete(Tree::Leaderboard, &key);
    }
    for scope in scopes_of(chat) {
        after.enter_scope(&scope);
    }
    if after.rating.is_provisional() && !provisional_ok {
        return Ok(());
    }
    let row = row(after);
    for scope in &after.scopes {
        let key = board_key(&puzzle_board(scope), after.rating.rating, &user);
        batch.put(Tree::Leaderboard, &key, &row)?;
        batch.expire_at(
            Tree::Leaderboard,
            &key,
            after.last_at.saturating_add(INACTIVE_SECS),
        );
    }
    Ok(())
}

/// The player's last finished attempts, newest first: solved or not.
pub(super) async fn recent(store: &Store, user_key: &str) -> Result<Vec<bool>, StoreError> {
    let prefix = crate::ratings::keys::history_prefix(user_key);
    let lines: Vec<(String, AttemptLine)> = store
        .scan(Tree::PuzzleAttempts, KeyRange::prefix(&prefix), RECENT)
        .await?;
    Ok(lines.into_iter().map(|(_, l)| l.solved).collect())
}

/// A scope's puzzle board at `now`: the top players still active, and the caller's place
/// (counted from the rows before theirs, not read).
pub(super) async fn leaderboard(
    store: &Store,
    scope: Scope,
    caller: Option<&UserRef>,
    now: u64,
) -> Result<PuzzleBoard, StoreError> {
    let scope_key = scope.key();
    let board = puzzle_board(&scope_key);
    let prefix = board_prefix(&board);
    let active = |r: &LeaderRow| r.last_rated.saturating_add(INACTIVE_SECS) > now;
    let rows: Vec<(String, LeaderRow)> = store
        .scan(
            Tree::Leaderboard,
            KeyRange::prefix(&prefix),
            LEADERBOARD_TOP * 2,
        )
        .await?;
    let top: Vec<(usize, LeaderRow)> = rows
        .into_iter()
        .map(|(_, r)| r)
        .filter(active)
        .take(LEADERBOARD_TOP)
        .enumerate()
        .map(|(i, r)| (i + 1, r))
        .collect();
    let mut out = PuzzleBoard {
        scope,
        caller: None,
        caller_provisional: false,
        top,
    };
    let Some(user) = caller else {
        return Ok(out);
    };
    if let Some(found) = out.top.iter().find(|(_, r)| r.user == *user) {
        out.caller = Some(found.clone());
        return Ok(out);
    }
    let player = store
        .get::<PuzzlePlayer>(Tree::PuzzlePlayers, &user.key())
        .await?;
    let Some(player) = player.filter(|p| p.scopes.contains(&scope_key)) else {
        return Ok(out);
    };
    let key = board_key(&board, player.rating.rating, &user.key());
    if !store.contains(Tree::Leaderboard, &key).await? {
        out.caller_provisional = player.rating.is_provisional();
        return Ok(out);
    }
    let place = store.count_before(Tree::Leaderboard, &prefix, &key).await? + 1;
    out.caller = Some((place, row(&player)));
    Ok(out)
}
