//! Ratings, results and the keys of the history and leaderboard indexes (issue 16): pure
//! code, no I/O. The manager (`manager::history`) reads and writes them through the store.
//!
//! Ratings are Glicko-2, computed by the `skillratings` crate: each rated game between two
//! people is one rating period for both players (`after_game`), in the game's time category
//! (blitz, rapid, correspondence: each has a rating of its own). A rating whose deviation is
//! above [`PROVISIONAL_DEVIATION`] is provisional and shown with a `?`.

pub mod dates;
pub mod keys;
pub mod stats;

pub use stats::{CategoryStats, GameResult, LeaderRow, PlayerStats, Wdl};

use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A new player's rating, deviation and volatility (Glickman's recommended start).
pub const START_RATING: f64 = 1500.0;
pub const START_DEVIATION: f64 = 350.0;
pub const START_VOLATILITY: f64 = 0.06;
/// The deviation never falls below this (a rating must stay able to move) nor rises above
/// the start's.
pub const MIN_DEVIATION: f64 = 30.0;
pub const MAX_DEVIATION: f64 = START_DEVIATION;
/// Above this deviation a rating is provisional: shown as `1512?`, as lichess does.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A Glicko-2 rating on the familiar (Glicko-1) scale.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: START_RATING,
            deviation: START_DEVIATION,
            volatility: START_VOLATILITY,
        }
    }
}

impl Rating {
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating as shown: rounded, with `?` while provisional (`1512?`).
    pub fn shown(&self) -> String {
        let mark = if self.is_provisional() { "?" } else { "" };
        format!("{}{mark}", self.rating.round() as i64)
    }

    fn to_glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    /// The crate's result, kept only if every number is finite, the deviation clamped to
    /// its bounds: a stored rating is never NaN, whatever the arithmetic did.
    fn from_glicko(new: Glicko2Rating, old: Rating) -> Rating {
        let finite =
            new.rating.is_finite() && new.deviation.is_finite() && new.volatility.is_finite();
        if !finite {
            tracing::warn!(
                ?new,
                ?old,
                "rating update gave a non-finite number; kept the old rating"
            );
            return old;
        }
        Rating {
            rating: new.rating,
            deviation: new.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: new.volatility,
        }
    }

    /// A rating as read back from the store: any non-finite or out-of-bounds number is
    /// replaced, so one corrupt record cannot spread NaN through later games.
    pub fn sane(self) -> Rating {
        let start = Rating::default();
        Rating {
            rating: if self.rating.is_finite() {
                self.rating
            } else {
                start.rating
            },
            deviation: if self.deviation.is_finite() {
                self.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION)
            } else {
                start.deviation
            },
            volatility: if self.volatility.is_finite() && self.volatility > 0.0 {
                self.volatility
            } else {
                start.volatility
            },
        }
    }
}

/// How a game ended for the first player of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    pub fn flip(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }

    fn outcome(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        }
    }
}

/// A player's rating after one rating period with these games (opponent's rating before
/// the period, the player's score), with Glickman's system constant tau = 0.5.
pub fn after_period(player: Rating, games: &[(Rating, Score)]) -> Rating {
    let player = player.sane();
    let results: Vec<(Glicko2Rating, Outcomes)> = games
        .iter()
        .map(|(opponent, score)| (opponent.sane().to_glicko(), score.outcome()))
        .collect();
    let new = glicko2_rating_period(&player.to_glicko(), &results, &Glicko2Config::new());
    Rating::from_glicko(new, player)
}

/// About how many rated games take a new player's rating off provisional: games against an
/// equal opponent just off provisional themselves, won and lost in turn. What a club is told
/// while its players are not listed yet; real opponents make it a game or two either way.
pub fn games_to_establish() -> u32 {
    let opponent = Rating {
        deviation: PROVISIONAL_DEVIATION,
        ..Rating::default()
    };
    let mut player = Rating::default();
    let mut games = 0;
    while player.is_provisional() && games < 100 {
        let score = if games % 2 == 0 {
            Score::Win
        } else {
            Score::Loss
        };
        player = after_period(player, &[(opponent, score)]);
        games += 1;
    }
    games
}

/// Both players' ratings after one rated game in which `a` scored `score` against `b`: the
/// game is one rating period for each of them.
pub fn after_game(a: Rating, b: Rating, score: Score) -> (Rating, Rating) {
    (
        after_period(a, &[(b, score)]),
        after_period(b, &[(a, score.flip())]),
    )
}

/// A player's rating before and after one game, kept in the archived game (the game-over
/// board shows `1512 (+12)`, the record `[WhiteRating "1500"]`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    pub before: Rating,
    pub after: Rating,
}

impl RatingChange {
    /// The change, rounded as shown: the difference of the two rounded ratings, so the
    /// numbers on the board always add up.
    pub fn delta(&self) -> i64 {
        self.after.rating.round() as i64 - self.before.rating.round() as i64
    }

    /// `1512 (+12)`, `1488? (-12)`.
    pub fn shown(&self) -> String {
        format!("{} ({:+})", self.after.shown(), self.delta())
    }
}

#[cfg(test)]
mod tests;
