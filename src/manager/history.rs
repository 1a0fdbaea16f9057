//! Finished games in the history and ratings (issue 16): what a game's end adds to its
//! durable write, and the reads behind `/history`, `/stats`, `/leaderboard` and `/record`.
//!
//! A game that ends moves from `Games` to `Archive` in one `Batch` (slots.rs); `count_end`
//! adds to that same batch the players' new stats and ratings, their history lines and their
//! leaderboard rows (the store undoes all of it if the write does not become durable). The rating change is therefore
//! applied exactly once: with the game's end, or (the write failed or timed out, and was
//! undone) not at all, in which case the game is still ongoing and its later end counts it.
//! Each player's stats are read and rewritten under that player's lock stripe, held until
//! the write is durable, so two games ending at once for one player both count.

use super::ended::Ended;
pub use super::pages::{Cursor, PageAt};
use super::*;
use crate::model::{Category, ChatRef, GameId, UserRef};
use crate::ratings::keys::{
    board_key, board_prefix, board_scope, history_key, history_prefix, provisional_board, Scope,
};
use crate::ratings::{after_game, GameResult, LeaderRow, PlayerStats, RatingChange, Score};
use crate::store::{Batch, Expect, KeyRange, StoreError};
use serde::{Deserialize, Serialize};

/// A player whose last rated game is older than this leaves the leaderboards.
pub const INACTIVE_SECS: u64 = 90 * 24 * 3600;
/// Entries of one page of `/history`.
pub const HISTORY_PAGE: usize = 8;
/// Rows at the top of one category's leaderboard.
pub const LEADERBOARD_TOP: usize = 10;
/// Rows of each category when a leaderboard shows them all at once.
pub const OVERVIEW_TOP: usize = 3;
/// Lock stripes for players' stats: bounded memory, and two players rarely share one.
pub(super) const RATING_STRIPES: usize = 64;

/// One line of a player's history (a value of the `History` tree).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryEntry {
    pub game: GameId,
    pub ended_at: u64,
    pub variant: Variant,
    /// White, Black, with their names at the time.
    pub players: [Player; 2],
    pub status: GameStatus,
    pub rated: bool,
    /// The player's side in this game.
    pub side: Side,
    /// The player's rating change, for a rated game.
    pub change: Option<RatingChange>,
    /// The game's time category, the rating `change` is in (entries written before it was
    /// kept have none: the player page reads it from the archived game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<Category>,
    /// The game's chat (entries written before it was kept have none: the player page reads
    /// it from the archived game), so a player page lists only the games of listed chats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat: Option<ChatRef>,
}

/// One page of a player's history, newest first.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryPage {
    pub entries: Vec<HistoryEntry>,
    /// 0-based.
    pub page: usize,
    /// Older games follow (`older` says where).
    pub more: bool,
    /// Where the page before starts (its games are newer), if there is one.
    pub newer: Option<Cursor>,
    /// Where the next page starts (its games are older), if there is one.
    pub older: Option<Cursor>,
}

/// A leaderboard as shown: one category's top rows in a scope with their places (1-based),
/// and the caller's own place when they are on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaderboard {
    pub scope: Scope,
    pub category: Category,
    pub top: Vec<(usize, LeaderRow)>,
    pub caller: Option<(usize, LeaderRow)>,
    /// The caller is not on it because their rating in this category is still provisional.
    pub caller_provisional: bool,
    /// Players of the scope whose rating in this category is still provisional and who are
    /// therefore not listed (0 when the operator lists them): a new club's board is not
    /// "empty" while its players play their first games.
    pub pending: usize,
}

/// The points `side` scored in a finished game; `None` for one without result (aborted, a
/// first move missed, a tournament game forfeited before both sides moved) or an ongoing one.
pub fn score_of(status: &GameStatus, side: Side) -> Option<Score> {
    match status {
        GameStatus::Finished {
            reason:
                FinishReason::Aborted | FinishReason::FirstMoveMissed(_) | FinishReason::Forfeited(_),
            ..
        }
        | GameStatus::Ongoing => None,
        GameStatus::Finished { winner: None, .. } => Some(Score::Draw),
        GameStatus::Finished {
            winner: Some(w), ..
        } => Some(if *w == side { Score::Win } else { Score::Loss }),
    }
}

/// Whether `before` -> `after` is the game's end.
pub(super) fn ends(before: &GameRecord, after: &GameRecord) -> bool {
    matches!(before.status, GameStatus::Ongoing)
        && matches!(after.status, GameStatus::Finished { .. })
}

/// The leaderboards a rated game in `chat` counts on: the platform's, and the chat's own
/// unless the game has no chat anyone can ask in (issue 31, item 4): a Telegram inline
/// message (`inline:<id>`, see `MessageRef`) may be in any chat, and a board of one message
/// is one nobody could see.
fn scopes_of(chat: &ChatRef) -> Vec<String> {
    let mut scopes = vec![Scope::Platform(chat.platform).key()];
    if !chat.id.starts_with("inline:") {
        scopes.push(Scope::Chat(chat.clone()).key());
    }
    scopes
}

/// The players' stats before and after one game.
struct Counted {
    user: UserRef,
    side: Side,
    /// What the stats' compare-and-set expects to find stored.
    expect: Expect,
    before: Option<PlayerStats>,
    after: Option<PlayerStats>,
}

impl Manager {
    /// Adds to `batch` what the end of `after` changes besides the game itself, and records
    /// the end (time, rating changes) in `after`. The returned guards must be held until the
    /// write is durable or undone.
    pub(super) async fn count_end(
        &self,
        after: &mut GameRecord,
        batch: &mut Batch,
    ) -> Result<Vec<tokio::sync::MutexGuard<'_, ()>>, ActionError> {
        let now_ms = self.now_ms();
        let now = now_ms / 1000;
        let humans: Vec<(Side, UserRef)> = Side::BOTH
            .into_iter()
            .filter_map(|s| after.players[s.index()].user().map(|u| (s, u.clone())))
            .collect();
        let guards = self.lock_stripes(humans.iter().map(|(_, u)| u)).await;
        let mut counted = Vec::with_capacity(humans.len());
        for (side, user) in humans {
            let read = self
                .inner
                .store
                .get_versioned::<PlayerStats>(Tree::Ratings, &user.key())
                .await;
            let (before, expect) = match read {
                Ok(Some(found)) => (Some(found.value), Expect::Revision(found.revision)),
                Ok(None) => (None, Expect::Absent),
                Err(error @ StoreError::Decode { .. }) => {
                    // A corrupt record must not keep the game from ending: start afresh.
                    tracing::error!(user = user.key(), %error, "unreadable player stats");
                    (None, Expect::Any)
                }
                Err(error) => return Err(error.into()),
            };
            counted.push(Counted {
                user,
                side,
                expect,
                before,
                after: None,
            });
        }
        let mut ended = Ended {
            at: now,
            ratings: [None, None],
        };
        let rated = after.rated && counted.len() == 2;
        let category = after.time_control.category();
        if let Some(white_score) = score_of(&after.status, Side::White) {
            if rated {
                let old = |c: &Counted| {
                    c.before
                        .as_ref()
                        .map(|s| s.rating_in(category))
                        .unwrap_or_default()
                };
                let (w, b) = (old(&counted[0]), old(&counted[1]));
                let (nw, nb) = after_game(w, b, white_score);
                ended.ratings = [
                    Some(RatingChange {
                        before: w,
                        after: nw,
                    }),
                    Some(RatingChange {
                        before: b,
                        after: nb,
                    }),
                ];
            }
            for c in &mut counted {
                let score = if c.side == Side::White {
                    white_score
                } else {
                    white_score.flip()
                };
                let result = match &after.players[c.side.other().index()] {
                    Player::Bot(level) => GameResult::Bot(*level, score),
                    Player::Human(_) if rated => GameResult::Rated(category, score),
                    Player::Human(_) => GameResult::Casual(score),
                };
                let mut stats = c
                    .before
                    .clone()
                    .unwrap_or_else(|| PlayerStats::new(c.user.clone()));
                stats.user = c.user.clone();
                stats.count(result, now);
                if let Some(change) = ended.ratings[c.side.index()] {
                    stats.category_mut(category).rating = change.after;
                }
                c.after = Some(stats);
            }
        }
        after.ended = Some(ended);
        for c in &mut counted {
            let entry = HistoryEntry {
                game: after.id.clone(),
                ended_at: now,
                variant: after.variant,
                players: after.players.clone(),
                status: after.status,
                rated,
                side: c.side,
                change: ended.ratings[c.side.index()],
                category: Some(category),
                chat: Some(after.chat.clone()),
            };
            let key = history_key(&c.user.key(), now_ms, &after.id);
            batch.put(Tree::History, &key, &entry)?;
            if c.expect == Expect::Absent {
                // Their first game: their page's key is written with it, so that no page
                // view has to write it (`player_pages`).
                self.note_player_page(&c.user, now, batch).await;
            }
            if let Some(stats) = c.after.as_mut() {
                if rated {
                    let before = c.before.as_ref();
                    rewrite_rows(before, stats, (category, &after.chat), batch)?;
                }
                batch.put_checked(Tree::Ratings, &c.user.key(), &*stats, c.expect)?;
            }
        }
        Ok(guards)
    }

    /// Puts every active provisional rating on its board's provisional side, once per store
    /// (issue 49): before, such a rating got a row only while the operator listed provisional
    /// players, and on the board itself, so turning the listing on showed only those who
    /// played afterwards, and off left the others listed. A player whose record changed
    /// since it was read (a game ended meanwhile, in another process) is skipped: that end
    /// wrote their rows. Not done (and tried again at the next start) if the store fails.
    pub(super) async fn move_provisional_rows(&self) {
        const DONE: &str = "layout:provisional-rows";
        let store = &self.inner.store;
        match store.get::<bool>(Tree::Claims, DONE).await {
            Ok(None) => {}
            Ok(Some(_)) => return,
            Err(error) => {
                tracing::warn!(%error, "provisional leaderboard rows not checked");
                return;
            }
        }
        let all = match store.load_all_versioned::<PlayerStats>(Tree::Ratings).await {
            Ok(all) => all,
            Err(error) => {
                tracing::warn!(%error, "provisional leaderboard rows not moved");
                return;
            }
        };
        let now = self.now();
        let mut moved = 0;
        for (key, read) in all {
            let Some(batch) = provisional_rows_of(&read.value, now) else {
                continue;
            };
            let _guards = self.lock_stripes(std::iter::once(&read.value.user)).await;
            let mut batch = batch;
            let expect = Expect::Revision(read.revision);
            let written = match batch.put_checked(Tree::Ratings, &key, &read.value, expect) {
                Ok(_) => store.write(batch).await,
                Err(error) => Err(error),
            };
            match written {
                Ok(_) => moved += 1,
                Err(StoreError::Conflict { .. }) => {}
                Err(error) => {
                    tracing::warn!(%error, "provisional leaderboard rows not moved");
                    return;
                }
            }
        }
        let marked = match store.put_new(Tree::Claims, DONE, &true, None).await {
            Ok(_) => store.commit().await,
            Err(error) => Err(error),
        };
        if let Err(error) = marked {
            tracing::warn!(%error, "provisional leaderboard rows: done, not marked");
        }
        tracing::info!(players = moved, "provisional leaderboard rows in place");
    }

    /// Locks the stripes of these users, in stripe order (so two games never wait on each
    /// other crosswise).
    async fn lock_stripes<'a>(
        &self,
        users: impl Iterator<Item = &'a UserRef>,
    ) -> Vec<tokio::sync::MutexGuard<'_, ()>> {
        use std::hash::{Hash, Hasher};
        let mut stripes: Vec<usize> = users
            .map(|u| {
                let mut h = std::collections::hash_map::DefaultHasher::new();
                u.key().hash(&mut h);
                (h.finish() % RATING_STRIPES as u64) as usize
            })
            .collect();
        stripes.sort_unstable();
        stripes.dedup();
        let mut guards = Vec::with_capacity(stripes.len());
        for i in stripes {
            guards.push(self.inner.rating_locks[i].lock().await);
        }
        guards
    }
}

/// Moves a player's leaderboard rows of `category` from their old rating to the new one, in
/// every scope they are entered in for it plus this game's chat's. Rows expire when the
/// player has played no rated game of the category for `INACTIVE_SECS`. A provisional
/// rating (deviation over `PROVISIONAL_DEVIATION`) is kept on the board's provisional side
/// (`keys::provisional_board`), which a board lists only if the operator says so
/// (`limits.provisional_on_leaderboards`): a fresh account that won two games does not top
/// the board, as on lichess, yet the club sees how many are on their way.
pub(super) fn rewrite_rows(
    before: Option<&PlayerStats>,
    stats: &mut PlayerStats,
    (category, chat): (Category, &ChatRef),
    batch: &mut Batch,
) -> Result<(), StoreError> {
    let user = stats.user.key();
    let entry = stats.category_mut(category);
    for scope in scopes_of(chat) {
        // A scope that falls out of the list has its old row deleted below and gets no
        // new one.
        entry.enter_scope(&scope);
    }
    let old = before.and_then(|o| Some((o.category(category)?, o.row(category)?)));
    if let Some((old, _)) = old {
        for scope in &old.scopes {
            // On whichever side it was: deleting a key that is not there changes nothing.
            let board = board_scope(scope, category);
            for side in [provisional_board(&board), board] {
                batch.delete(
                    Tree::Leaderboard,
                    &board_key(&side, old.rating.rating, &user),
                );
            }
        }
    }
    let (Some(new), Some(row)) = (stats.category(category), stats.row(category)) else {
        return Ok(());
    };
    for scope in &new.scopes {
        let board = board_of(scope, category, new.rating.is_provisional());
        let key = board_key(&board, new.rating.rating, &user);
        batch.put(Tree::Leaderboard, &key, &row)?;
        batch.expire_at(
            Tree::Leaderboard,
            &key,
            new.last_rated.saturating_add(INACTIVE_SECS),
        );
    }
    Ok(())
}

/// The rows a player's active provisional ratings need on their boards' provisional sides
/// (and none on the boards themselves); `None` if they have no such rating.
fn provisional_rows_of(stats: &PlayerStats, now: u64) -> Option<Batch> {
    let user = stats.user.key();
    let mut batch = Batch::new();
    for entry in &stats.categories {
        let active = entry.last_rated.saturating_add(INACTIVE_SECS) > now;
        let Some(row) = stats.row(entry.category).filter(|_| active) else {
            continue;
        };
        if !entry.rating.is_provisional() {
            continue;
        }
        for scope in &entry.scopes {
            let board = board_scope(scope, entry.category);
            let rating = entry.rating.rating;
            batch.delete(Tree::Leaderboard, &board_key(&board, rating, &user));
            let key = board_key(&provisional_board(&board), rating, &user);
            batch.put(Tree::Leaderboard, &key, &row).ok()?;
            let expires = entry.last_rated.saturating_add(INACTIVE_SECS);
            batch.expire_at(Tree::Leaderboard, &key, expires);
        }
    }
    (!batch.is_empty()).then_some(batch)
}

/// The board of `scope` and `category` a rating is kept on: its provisional side while
/// `provisional`.
fn board_of(scope_key: &str, category: Category, provisional: bool) -> String {
    let board = board_scope(scope_key, category);
    match provisional {
        true => provisional_board(&board),
        false => board,
    }
}

/// One page of `user_key`'s history, newest first, from `at`: one ordered read of at most a
/// page and one more entry of the `History` index, whatever the page. `number` (0-based) is
/// only what the page is called.
pub async fn history_page(
    store: &Store,
    user_key: &str,
    at: &PageAt,
    number: usize,
) -> Result<HistoryPage, StoreError> {
    let prefix = history_prefix(user_key);
    let from = match at {
        PageAt::Newest => None,
        PageAt::OlderThan(c) | PageAt::NewerThan(c) => Some(c.key(user_key)),
    };
    let mut range = KeyRange::prefix(&prefix);
    if let PageAt::NewerThan(_) = at {
        // Read from the cursor towards the newest: one more means newer ones remain.
        range.before = from.as_deref();
        let mut rows = store
            .scan_back(Tree::History, range, HISTORY_PAGE + 1)
            .await?;
        let newer = rows.len() > HISTORY_PAGE;
        rows.truncate(HISTORY_PAGE);
        rows.reverse();
        return Ok(page_of(user_key, rows, number, (newer, true)));
    }
    range.after = from.as_deref();
    let mut rows: Vec<(String, HistoryEntry)> =
        store.scan(Tree::History, range, HISTORY_PAGE + 1).await?;
    let older = rows.len() > HISTORY_PAGE;
    rows.truncate(HISTORY_PAGE);
    Ok(page_of(user_key, rows, number, (from.is_some(), older)))
}

/// A page of `rows` (newest first), with cursors to the pages on either side that have
/// games: `(newer, older)`.
fn page_of(
    user_key: &str,
    rows: Vec<(String, HistoryEntry)>,
    number: usize,
    (newer, older): (bool, bool),
) -> HistoryPage {
    let cursor = |row: Option<&(String, HistoryEntry)>| {
        row.and_then(|(key, _)| Cursor::of_key(user_key, key))
    };
    let newer = if newer { cursor(rows.first()) } else { None };
    let older = if older { cursor(rows.last()) } else { None };
    HistoryPage {
        more: older.is_some(),
        entries: rows.into_iter().map(|(_, e)| e).collect(),
        page: number,
        newer,
        older,
    }
}

/// A scope's leaderboard at `now`: the top `top` active players and the caller's place.
/// Reads the `Leaderboard` index in order, never the players' records. Players whose rating
/// is still provisional are listed with the others when `provisional` (the operator's
/// `limits.provisional_on_leaderboards`), else only counted (`Leaderboard::pending`).
pub async fn leaderboard(
    store: &Store,
    scope: Scope,
    category: Category,
    caller: Option<&UserRef>,
    (now, top): (u64, usize),
    provisional: bool,
) -> Result<Leaderboard, StoreError> {
    let scope_key = scope.key();
    let board = board_scope(&scope_key, category);
    let waiting = provisional_board(&board);
    let mut rows = top_rows(store, &board, now, top).await?;
    let pending = match provisional {
        true => {
            rows.extend(top_rows(store, &waiting, now, top).await?);
            // Both sides' keys after their board are `inverted rating|user`: best first.
            rows.sort_by(|a, b| a.0.cmp(&b.0));
            0
        }
        false => count_rows(store, &waiting).await?,
    };
    rows.truncate(top);
    let top_rows: Vec<(usize, LeaderRow)> = rows
        .into_iter()
        .enumerate()
        .map(|(i, (_, r))| (i + 1, r))
        .collect();
    let (caller, caller_provisional) = match caller {
        Some(user) => {
            let asked = (scope_key.as_str(), category, provisional);
            caller_place(store, asked, user, now, &top_rows).await?
        }
        None => (None, false),
    };
    Ok(Leaderboard {
        scope,
        category,
        top: top_rows,
        caller,
        caller_provisional,
        pending,
    })
}

/// The first `top` active rows of `board`, each with its key after the board's prefix.
async fn top_rows(
    store: &Store,
    board: &str,
    now: u64,
    top: usize,
) -> Result<Vec<(String, LeaderRow)>, StoreError> {
    let prefix = board_prefix(board);
    let active = |row: &LeaderRow| row.last_rated.saturating_add(INACTIVE_SECS) > now;
    let mut rows = Vec::new();
    let mut after: Option<String> = None;
    // Rows not yet swept away by expiry are skipped; read on in chunks until `top` are found.
    while rows.len() < top {
        let range = KeyRange {
            prefix: &prefix,
            after: after.as_deref(),
            before: None,
        };
        let chunk: Vec<(String, LeaderRow)> = store.scan(Tree::Leaderboard, range, top * 2).await?;
        let Some((last, _)) = chunk.last() else { break };
        after = Some(last.clone());
        let done = chunk.len() < top * 2;
        rows.extend(chunk.into_iter().filter(|(_, r)| active(r)));
        if done {
            break;
        }
    }
    rows.truncate(top);
    let at = prefix.len();
    Ok(rows
        .into_iter()
        .map(|(key, row)| (key.get(at..).unwrap_or_default().to_string(), row))
        .collect())
}

/// How many rows `board` holds, from its band counts (rows of players who have just become
/// inactive count until the sweeper deletes them).
async fn count_rows(store: &Store, board: &str) -> Result<usize, StoreError> {
    // Past every row: the lowest rating, and a user key after every user's.
    let end = board_key(board, 0.0, "~");
    store
        .count_before(Tree::Leaderboard, &board_prefix(board), &end)
        .await
}

/// The caller's place on a scope's board of a category: their row, and how many active rows
/// come before it; and whether they are off it because their rating is provisional (and
/// `provisional` ones are not listed).
async fn caller_place(
    store: &Store,
    (scope_key, category, provisional): (&str, Category, bool),
    user: &UserRef,
    now: u64,
    top: &[(usize, LeaderRow)],
) -> Result<(Option<(usize, LeaderRow)>, bool), StoreError> {
    if let Some(found) = top.iter().find(|(_, r)| r.user == *user) {
        return Ok((Some(found.clone()), false));
    }
    let Some(stats) = store.get::<PlayerStats>(Tree::Ratings, &user.key()).await? else {
        return Ok((None, false));
    };
    let (Some(entry), Some(row)) = (stats.category(category), stats.row(category)) else {
        return Ok((None, false));
    };
    let is_provisional = entry.rating.is_provisional();
    let active = row.last_rated.saturating_add(INACTIVE_SECS) > now;
    if !entry.scopes.iter().any(|s| s == scope_key) || !active {
        return Ok((None, false));
    }
    if is_provisional && !provisional {
        return Ok((None, true));
    }
    let own = board_of(scope_key, category, is_provisional);
    if !store
        .contains(
            Tree::Leaderboard,
            &board_key(&own, entry.rating.rating, &user.key()),
        )
        .await?
    {
        // Not written yet (a rating from before rows were kept for every player).
        return Ok((None, is_provisional));
    }
    // The counts of the rating bands above and the rows of the player's own band: the rows
    // ahead are not read (`store/bands.rs`); with provisional players listed, those of both
    // sides. A row of a player who has just become inactive counts until the sweeper
    // deletes it (every `sweep_interval_secs`).
    let board = board_scope(scope_key, category);
    let mut sides = vec![board.clone()];
    if provisional {
        sides.push(provisional_board(&board));
    }
    let mut place = 1;
    for side in sides {
        let key = board_key(&side, entry.rating.rating, &user.key());
        place += store
            .count_before(Tree::Leaderboard, &board_prefix(&side), &key)
            .await?;
    }
    Ok((Some((place, row)), false))
}

/// A game's record, for `/record`: a file name, the record, and the bare move text.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordFile {
    pub game: GameId,
    pub file_name: String,
    pub text: String,
    pub moves: String,
    /// The game's page on the web, when the pages are served.
    pub page_url: Option<String>,
}

impl Manager {
    /// One page of a player's finished games, newest first, from `at` (called page
    /// `number`, 0-based). Public: anyone may look at anyone's history.
    pub async fn history(
        &self,
        user: &UserRef,
        at: &PageAt,
        number: usize,
    ) -> Result<HistoryPage, ActionError> {
        Ok(history_page(&self.inner.store, &user.key(), at, number).await?)
    }

    /// A player's rating and results; `None` for someone who has finished no game.
    pub async fn stats(&self, user: &UserRef) -> Result<Option<PlayerStats>, ActionError> {
        Ok(self
            .inner
            .store
            .get::<PlayerStats>(Tree::Ratings, &user.key())
            .await?)
    }

    /// The leaderboard of one category in `scope` with `caller`'s place.
    pub async fn leaderboard(
        &self,
        scope: Scope,
        category: Category,
        caller: Option<&UserRef>,
    ) -> Result<Leaderboard, ActionError> {
        let store = &self.inner.store;
        let at = (self.now(), LEADERBOARD_TOP);
        let provisional = self.inner.config.limits.provisional_on_leaderboards;
        Ok(leaderboard(store, scope, category, caller, at, provisional).await?)
    }

    /// Every category's leaderboard in `scope`, the top `OVERVIEW_TOP` of each (what
    /// `/leaderboard` without a category shows), with `caller`'s places.
    pub async fn leaderboards(
        &self,
        scope: Scope,
        caller: Option<&UserRef>,
    ) -> Result<Vec<Leaderboard>, ActionError> {
        let (store, at) = (&self.inner.store, (self.now(), OVERVIEW_TOP));
        let provisional = self.inner.config.limits.provisional_on_leaderboards;
        let mut boards = Vec::with_capacity(Category::ALL.len());
        for category in Category::ALL {
            let board = leaderboard(store, scope.clone(), category, caller, at, provisional);
            boards.push(board.await?);
        }
        Ok(boards)
    }

    /// The record of `game`, or without one of the game that ended last in `chat`
    /// (`NoFinishedGameHere` if none did since the start).
    pub async fn record_in(
        &self,
        chat: &ChatRef,
        game: Option<GameId>,
    ) -> Result<RecordFile, ActionError> {
        let id = match game {
            Some(id) => id,
            None => lock(&self.inner.index)
                .last_finished(&chat.key())
                .ok_or(ActionError::NoFinishedGameHere)?,
        };
        self.record(&id).await
    }

    /// The record of a game, finished or not (public, like the game itself).
    pub async fn record(&self, game: &str) -> Result<RecordFile, ActionError> {
        let slot = self.game_slot(game).await?;
        let game = self.enter(&slot).await?;
        let text = super::record::record_text(&game.rec).map_err(|error| {
            tracing::error!(game = game.id(), error, "game record does not replay");
            ActionError::NoSuchGame
        })?;
        Ok(RecordFile {
            game: game.id().clone(),
            file_name: format!("toguz-{}.pgn", game.id()),
            text,
            moves: game.moves_text().to_string(),
            page_url: self.page_url(game.id()),
        })
    }
}
