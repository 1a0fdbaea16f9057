//! Limits that hold across processes (issue 31, item 6): ongoing games per user and per
//! chat, open challenges per user and per chat.
//!
//! Each process's index counts what it holds in memory, which on a shared database is not
//! everything: two processes could each allow the limit. So the limits are also kept in the
//! store, as seats: a user with a limit of 10 games has 10 numbered seats
//! (`seat:game:user:<user>|003` in `Claims`), and a new game takes a free one of each of its
//! players and of its chat, written compare-and-set (`Expect::Absent`) in the same batch as
//! the game. Two processes taking the last seat at once cannot both land: one write is a
//! conflict and changes nothing. A game that ends gives its seats back in the write that
//! archives it; a challenge when it closes.
//!
//! A seat whose holder is no longer live (its record was lost, or written by a version
//! that did not give seats back) is found when a limit seems reached, and freed then.
//!
//! A tournament's games take no seats (issue 49, finding 1): a round or an arena wave is
//! created whole, and one entrant's games against the bot, or a chat's other games, must
//! not refuse one of its boards (the boards before it would stand unannounced and the
//! round would stall). The event's own limits bound them instead: `MAX_ENTRANTS`, and the
//! tournaments a chat or a user may run at once (`tournament_limits.rs`).

use super::tournament::TournamentRecord;
use super::*;
use crate::store::{Batch, Expect, KeyRange, StoreError};

/// What a seat is for, and whose.
struct Scope {
    prefix: String,
    limit: usize,
    kind: LimitKind,
}

fn seat_key(prefix: &str, n: usize) -> String {
    format!("{prefix}{n:04}")
}

fn game_scopes(rec: &GameRecord, limits: &LimitsConfig) -> Vec<Scope> {
    let mut scopes: Vec<Scope> = rec
        .players
        .iter()
        .filter_map(Player::user)
        .map(|user| Scope {
            prefix: format!("seat:game:user:{}|", user.key()),
            limit: limits.games_per_user,
            kind: LimitKind::UserGames(limits.games_per_user),
        })
        .collect();
    scopes.push(Scope {
        prefix: format!("seat:game:chat:{}|", rec.chat.key()),
        limit: limits.games_per_chat,
        kind: LimitKind::ChatGames(limits.games_per_chat),
    });
    scopes
}

fn challenge_scopes(rec: &ChallengeRecord, limits: &LimitsConfig) -> Vec<Scope> {
    vec![
        Scope {
            prefix: format!("seat:challenge:user:{}|", rec.challenger.key()),
            limit: limits.challenges_per_user,
            kind: LimitKind::UserChallenges(limits.challenges_per_user),
        },
        Scope {
            prefix: format!("seat:challenge:chat:{}|", rec.chat.key()),
            limit: limits.challenges_per_chat,
            kind: LimitKind::ChatChallenges(limits.challenges_per_chat),
        },
    ]
}

/// A tournament's seats: one of its creator's and one of its chat's (the caps of live
/// events, `tournament/live.rs`).
fn tournament_scopes(rec: &TournamentRecord, limits: &LimitsConfig) -> Vec<Scope> {
    vec![
        Scope {
            prefix: format!("seat:tournament:user:{}|", rec.creator.key()),
            limit: limits.tournaments_per_user,
            kind: LimitKind::UserTournaments(limits.tournaments_per_user),
        },
        Scope {
            prefix: format!("seat:tournament:chat:{}|", rec.chat.key()),
            limit: limits.tournaments_per_chat,
            kind: LimitKind::ChatTournaments(limits.tournaments_per_chat),
        },
    ]
}

/// How many times a write that takes seats is made anew after another write took the same
/// seat first (people challenging in one channel at the same moment pick the same free seat).
pub(super) const SEAT_ATTEMPTS: u32 = 16;

/// Whether a write failed only because another write took one of its seats first: then it
/// is made again with the seats read anew, instead of refusing the player.
pub(super) fn lost_a_seat<T>(result: &Result<T, StoreError>, attempt: u32) -> bool {
    attempt < SEAT_ATTEMPTS
        && matches!(result, Err(StoreError::Conflict { tree, key })
            if *tree == Tree::Claims.name() && key.starts_with("seat:"))
}

/// Among how many free seats (at most) a new holder picks one.
const SEAT_SPREAD: usize = 16;

/// One of the free seats, chosen by the holder: people asking at the same moment read the
/// same free seats, and taking the first would make all but one of them lose it and try again.
fn pick_seat(mut free: Vec<String>, holder: &str) -> Option<String> {
    use std::hash::{Hash, Hasher};
    if free.is_empty() {
        return None;
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    holder.hash(&mut hasher);
    let at = usize::try_from(hasher.finish() % free.len() as u64).unwrap_or(0);
    Some(free.swap_remove(at))
}

impl Manager {
    /// Takes a free seat for a new game in each of its scopes, into `batch`; refused with
    /// the limit reached when a scope has none.
    pub(super) async fn seat_game(
        &self,
        rec: &GameRecord,
        batch: &mut Batch,
    ) -> Result<(), ActionError> {
        if rec.seat.is_some() {
            // A tournament's board (see the top).
            return Ok(());
        }
        for scope in game_scopes(rec, &self.inner.config.limits) {
            self.take_seat(&scope, &rec.id, Tree::Games, batch).await?;
        }
        Ok(())
    }

    /// `seat_game` for a new challenge.
    pub(super) async fn seat_challenge(
        &self,
        rec: &ChallengeRecord,
        batch: &mut Batch,
    ) -> Result<(), ActionError> {
        for scope in challenge_scopes(rec, &self.inner.config.limits) {
            self.take_seat(&scope, &rec.id, Tree::Challenges, batch)
                .await?;
        }
        Ok(())
    }

    /// Gives back, in `batch`, the seats a game that ends holds (a tournament game of an
    /// older version may hold some too).
    pub(super) async fn unseat_game(
        &self,
        rec: &GameRecord,
        batch: &mut Batch,
    ) -> Result<(), ActionError> {
        for scope in game_scopes(rec, &self.inner.config.limits) {
            self.give_back(&scope, &rec.id, batch).await?;
        }
        Ok(())
    }

    /// The seats a challenge's change from `before` (`None`: new) to `after` takes or gives
    /// back, into `batch`.
    pub(super) async fn reseat_challenge(
        &self,
        before: Option<&ChallengeRecord>,
        after: Option<&ChallengeRecord>,
        batch: &mut Batch,
    ) -> Result<(), ActionError> {
        let was_open = before.is_some_and(ChallengeRecord::is_open);
        match after {
            Some(c) if before.is_none() && c.is_open() => self.seat_challenge(c, batch).await,
            Some(c) if was_open && !c.is_open() => self.unseat_challenge(c, batch).await,
            None => match before.filter(|b| b.is_open()) {
                Some(b) => self.unseat_challenge(b, batch).await,
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// `seat_game` for a new tournament.
    pub(super) async fn seat_tournament(
        &self,
        rec: &TournamentRecord,
        batch: &mut Batch,
    ) -> Result<(), ActionError> {
        for scope in tournament_scopes(rec, &self.inner.config.limits) {
            self.take_seat(&scope, &rec.id, Tree::Tournaments, batch)
                .await?;
        }
        Ok(())
    }

    /// Gives back, in `batch`, the seats of a tournament that ends.
    pub(super) async fn unseat_tournament(
        &self,
        rec: &TournamentRecord,
        batch: &mut Batch,
    ) -> Result<(), ActionError> {
        for scope in tournament_scopes(rec, &self.inner.config.limits) {
            self.give_back(&scope, &rec.id, batch).await?;
        }
        Ok(())
    }

    /// Gives back, in `batch`, the seats a challenge that closes holds.
    pub(super) async fn unseat_challenge(
        &self,
        rec: &ChallengeRecord,
        batch: &mut Batch,
    ) -> Result<(), ActionError> {
        for scope in challenge_scopes(rec, &self.inner.config.limits) {
            self.give_back(&scope, &rec.id, batch).await?;
        }
        Ok(())
    }

    /// The seats of `scope` as stored: (key, holder).
    async fn seats(&self, scope: &Scope) -> Result<Vec<(String, String)>, ActionError> {
        // A seat past the limit (the limit was lowered) still counts and is still given back.
        let most = scope.limit.saturating_mul(2).max(16);
        Ok(self
            .inner
            .store
            .scan::<String>(Tree::Claims, KeyRange::prefix(&scope.prefix), most)
            .await?)
    }

    async fn take_seat(
        &self,
        scope: &Scope,
        holder: &str,
        live: Tree,
        batch: &mut Batch,
    ) -> Result<(), ActionError> {
        let taken = self.seats(scope).await?;
        // The first few free seats: the limit may be huge (unlimited), the seats are not.
        let window = scope.limit.min(taken.len().saturating_add(SEAT_SPREAD));
        let free: Vec<String> = (0..window)
            .map(|n| seat_key(&scope.prefix, n))
            .filter(|key| !taken.iter().any(|(k, _)| k == key))
            .collect();
        let key = match pick_seat(free, holder) {
            Some(key) if taken.len() < scope.limit => key,
            _ => self.free_dead_seat(&taken, live, scope).await?,
        };
        batch.put_checked(Tree::Claims, &key, &holder.to_string(), Expect::Absent)?;
        Ok(())
    }

    /// With every seat of `scope` taken: frees one whose holder is no longer live and
    /// returns it, else the limit is reached.
    async fn free_dead_seat(
        &self,
        taken: &[(String, String)],
        live: Tree,
        scope: &Scope,
    ) -> Result<String, ActionError> {
        let reached = || ActionError::Limit(scope.kind);
        let store = &self.inner.store;
        for (key, holder) in taken {
            if store.contains(live, holder).await? {
                continue;
            }
            tracing::warn!(key, holder, "a seat held by nothing live; freed");
            let Some(revision) = store.revision(Tree::Claims, key).await? else {
                continue;
            };
            let mut batch = Batch::new();
            batch.delete_checked(Tree::Claims, key, Expect::Revision(revision));
            self.write(batch).await?;
            let free = (0..scope.limit)
                .map(|n| seat_key(&scope.prefix, n))
                .find(|k| k == key || !taken.iter().any(|(t, _)| t == k));
            return free.ok_or_else(reached);
        }
        Err(reached())
    }

    async fn give_back(
        &self,
        scope: &Scope,
        holder: &str,
        batch: &mut Batch,
    ) -> Result<(), ActionError> {
        for (key, held_by) in self.seats(scope).await? {
            if held_by == holder {
                batch.delete_checked(Tree::Claims, &key, Expect::Any);
            }
        }
        Ok(())
    }
}
