//! What the store keeps of puzzle play: each player's puzzle record, each puzzle's rating,
//! one line per finished attempt, and a day's count per chat. Pure values and their rules.

use crate::model::{ChatRef, UserRef};
use crate::puzzle::Seen;
use crate::ratings::Rating;
use serde::{Deserialize, Serialize};

/// At most this many chats' puzzle leaderboards a player is entered in (the oldest goes).
pub const MAX_PUZZLE_SCOPES: usize = 20;

/// Why a puzzle action was refused. Every variant has catalog text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// The puzzle pressed belongs to another player.
    #[error("this puzzle is someone else's")]
    NotYours,
    /// The attempt pressed is over (solved, failed) or was never there.
    #[error("this puzzle is over")]
    Over,
    /// The board pressed is older than the attempt (a move was made since).
    #[error("this board is out of date")]
    Stale,
    /// Today's daily puzzle was tried already.
    #[error("today's puzzle is done")]
    DailyDone { solved: bool },
    /// No puzzle in the collection.
    #[error("no puzzles")]
    Empty,
}

/// One puzzle being solved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    /// The player's attempt number (their first is 1): button data names it.
    pub number: u32,
    pub puzzle: String,
    /// The solver's moves made so far.
    pub step: u8,
    /// The day (since 1970-01-01, UTC) when this is that day's puzzle.
    pub daily: Option<i64>,
    /// Where it was asked for: its leaderboard and daily count.
    pub chat: ChatRef,
    pub started_at: u64,
}

/// How a player's last daily puzzle went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DailyDone {
    pub day: i64,
    pub solved: bool,
}

/// A player's puzzle record, keyed by `platform:user id` in `Tree::PuzzlePlayers`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzlePlayer {
    /// With the display name last seen.
    pub user: UserRef,
    pub rating: Rating,
    pub solved: u32,
    pub failed: u32,
    /// Attempts started, the last one's number.
    pub started: u32,
    pub seen: Seen,
    /// At most one ordinary attempt and one daily attempt at a time.
    pub current: Vec<Attempt>,
    /// Days in a row the daily puzzle was solved, ending with the last daily solved.
    pub streak: u32,
    pub best_streak: u32,
    pub last_daily: Option<DailyDone>,
    /// The chats whose puzzle leaderboard lists the player, oldest first.
    pub scopes: Vec<String>,
    /// Unix seconds of the last finished attempt.
    pub last_at: u64,
}

impl PuzzlePlayer {
    pub fn new(user: UserRef) -> PuzzlePlayer {
        PuzzlePlayer {
            user,
            rating: Rating::default(),
            solved: 0,
            failed: 0,
            started: 0,
            seen: Seen::default(),
            current: Vec::new(),
            streak: 0,
            best_streak: 0,
            last_daily: None,
            scopes: Vec::new(),
            last_at: 0,
        }
    }

    /// The attempt of that number, if it is still on.
    pub fn attempt(&self, number: u32) -> Option<&Attempt> {
        self.current.iter().find(|a| a.number == number)
    }

    /// The ordinary (not daily) attempt on, if any.
    pub fn ordinary(&self) -> Option<&Attempt> {
        self.current.iter().find(|a| a.daily.is_none())
    }

    /// The daily attempt of `day` on, if any.
    pub fn daily_on(&self, day: i64) -> Option<&Attempt> {
        self.current.iter().find(|a| a.daily == Some(day))
    }

    /// Starts an attempt: the next number, replacing any of the same kind (an old day's).
    pub fn start(&mut self, puzzle: &str, daily: Option<i64>, chat: &ChatRef, now: u64) -> u32 {
        self.started += 1;
        self.current
            .retain(|a| a.daily.is_some() != daily.is_some());
        self.current.push(Attempt {
            number: self.started,
            puzzle: puzzle.to_string(),
            step: 0,
            daily,
            chat: chat.clone(),
            started_at: now,
        });
        self.started
    }

    /// Ends attempt `number` as solved or not, counting it; a daily one moves the streak.
    pub fn finish(&mut self, number: u32, solved: bool, now: u64) -> Option<Attempt> {
        let at = self.current.iter().position(|a| a.number == number)?;
        let attempt = self.current.remove(at);
        if solved {
            self.solved += 1;
        } else {
            self.failed += 1;
        }
        self.last_at = now;
        if let Some(day) = attempt.daily {
            self.count_daily(day, solved);
        }
        Some(attempt)
    }

    /// A streak goes on when yesterday's daily was solved too, and breaks on a miss.
    fn count_daily(&mut self, day: i64, solved: bool) {
        let yesterday = self
            .last_daily
            .is_some_and(|d| d.solved && d.day == day - 1);
        self.streak = match (solved, yesterday) {
            (false, _) => 0,
            (true, true) => self.streak + 1,
            (true, false) => 1,
        };
        self.best_streak = self.best_streak.max(self.streak);
        self.last_daily = Some(DailyDone { day, solved });
    }

    /// The streak as it stands on `day`: a streak whose last solve was before yesterday is
    /// broken even though no miss was counted.
    pub fn streak_on(&self, day: i64) -> u32 {
        match self.last_daily {
            Some(d) if d.solved && d.day >= day - 1 => self.streak,
            _ => 0,
        }
    }

    /// Enters the player on a chat's board (moved to the newest place if there); returns the
    /// scope that fell out to make room.
    pub fn enter_scope(&mut self, scope: &str) -> Option<String> {
        self.scopes.retain(|s| s != scope);
        self.scopes.push(scope.to_string());
        (self.scopes.len() > MAX_PUZZLE_SCOPES).then(|| self.scopes.remove(0))
    }
}

/// A puzzle's rating and results, keyed by puzzle id in `Tree::PuzzleRatings`; a puzzle
/// nobody tried has none and keeps its starting rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleRating {
    pub rating: Rating,
    pub solved: u32,
    pub failed: u32,
}

/// One finished attempt, in `Tree::PuzzleAttempts` under `user|inverted time|number`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AttemptLine {
    pub puzzle: String,
    pub solved: bool,
    pub daily: bool,
    /// The player's puzzle rating after it.
    pub rating: f64,
    pub at: u64,
}

/// A day's daily puzzle in one chat, in `Tree::PuzzleDaily` under `day|chat`: who solved it
/// there, and who tried.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DailyCount {
    pub solved: u32,
    pub tried: u32,
    /// The first solvers' names, for the post (at most `DAILY_NAMES`).
    pub names: Vec<String>,
}

/// How many solvers' names a daily post lists.
pub const DAILY_NAMES: usize = 10;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Platform;

    fn player() -> PuzzlePlayer {
        PuzzlePlayer::new(UserRef::new(Platform::Console, "a", "A"))
    }

    fn chat() -> ChatRef {
        ChatRef::new(Platform::Console, "c")
    }

    #[test]
    fn streaks_count_days_in_a_row_and_break_on_a_miss_or_a_gap() {
        let mut p = player();
        for day in 100..103 {
            let n = p.start("p1", Some(day), &chat(), 0);
            p.finish(n, true, 0);
        }
        assert_eq!((p.streak, p.best_streak), (3, 3));
        assert_eq!(p.streak_on(103), 3);
        assert_eq!(p.streak_on(104), 0, "a day left out breaks it");
        let n = p.start("p1", Some(104), &chat(), 0);
        p.finish(n, true, 0);
        assert_eq!((p.streak, p.best_streak), (1, 3));
        let n = p.start("p1", Some(105), &chat(), 0);
        p.finish(n, false, 0);
        assert_eq!((p.streak, p.best_streak, p.failed, p.solved), (0, 3, 1, 4));
    }

    #[test]
    fn one_ordinary_and_one_daily_attempt_at_a_time() {
        let mut p = player();
        let a = p.start("p1", None, &chat(), 0);
        let d = p.start("p2", Some(7), &chat(), 0);
        let b = p.start("p3", None, &chat(), 0);
        assert_eq!(p.current.len(), 2);
        assert!(p.attempt(a).is_none());
        assert_eq!(p.attempt(d).map(|x| x.puzzle.as_str()), Some("p2"));
        assert_eq!(p.ordinary().map(|x| x.number), Some(b));
        assert!(
            p.finish(a, true, 0).is_none(),
            "a replaced attempt counts nothing"
        );
        assert_eq!(p.solved, 0);
    }
}
