//! A player's results (the `Ratings` tree) and their row on a leaderboard.

use super::{Rating, Score};
use crate::engine::Level;
use crate::manager::UserRef;
use serde::{Deserialize, Serialize};

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub fn add(&mut self, score: Score) {
        let n = match score {
            Score::Win => &mut self.wins,
            Score::Draw => &mut self.draws,
            Score::Loss => &mut self.losses,
        };
        *n = n.saturating_add(1);
    }

    pub fn games(&self) -> u32 {
        self.wins
            .saturating_add(self.draws)
            .saturating_add(self.losses)
    }
}

/// How one finished game counts for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// A rated game against a person.
    Rated(Score),
    /// An unrated game against a person.
    Casual(Score),
    /// A game against the bot at this level (never rated).
    Bot(Level, Score),
}

impl GameResult {
    pub fn score(self) -> Score {
        match self {
            GameResult::Rated(s) | GameResult::Casual(s) | GameResult::Bot(_, s) => s,
        }
    }
}

/// At most this many leaderboard scopes (chats) per player; the oldest goes first.
pub const MAX_SCOPES: usize = 20;

/// A player's rating and results, keyed by `platform:id` in the `Ratings` tree.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerStats {
    /// With the display name of their latest game.
    pub user: UserRef,
    pub rating: Rating,
    /// Rated games between people: these make the leaderboard's games, wins, draws, losses.
    pub rated: Wdl,
    /// Unrated games between people.
    #[serde(default)]
    pub casual: Wdl,
    /// Games against the bot, per level.
    #[serde(default)]
    pub bots: Vec<(Level, Wdl)>,
    /// Wins in a row now, and the longest run, over every game with a result.
    #[serde(default)]
    pub streak: u32,
    #[serde(default)]
    pub best_streak: u32,
    /// Unix seconds of the last finished game and of the last rated one (the leaderboard
    /// drops players whose last rated game is older than 90 days).
    pub last_played: u64,
    #[serde(default)]
    pub last_rated: u64,
    /// The leaderboard scope keys this player is entered in, oldest first.
    #[serde(default)]
    pub scopes: Vec<String>,
}

impl PlayerStats {
    pub fn new(user: UserRef) -> PlayerStats {
        PlayerStats {
            user,
            rating: Rating::default(),
            rated: Wdl::default(),
            casual: Wdl::default(),
            bots: Vec::new(),
            streak: 0,
            best_streak: 0,
            last_played: 0,
            last_rated: 0,
            scopes: Vec::new(),
        }
    }

    /// Every game with a result, against people and the bot.
    pub fn games(&self) -> u32 {
        let bots: u32 = self.bots.iter().map(|(_, w)| w.games()).sum();
        self.rated
            .games()
            .saturating_add(self.casual.games())
            .saturating_add(bots)
    }

    pub fn against(&self, level: Level) -> Wdl {
        self.bots
            .iter()
            .find(|(l, _)| *l == level)
            .map_or_else(Wdl::default, |(_, w)| *w)
    }

    /// Counts one finished game (the rating itself is set by the caller).
    pub fn count(&mut self, result: GameResult, at: u64) {
        match result {
            GameResult::Rated(s) => {
                self.rated.add(s);
                self.last_rated = self.last_rated.max(at);
            }
            GameResult::Casual(s) => self.casual.add(s),
            GameResult::Bot(level, s) => match self.bots.iter_mut().find(|(l, _)| *l == level) {
                Some((_, w)) => w.add(s),
                None => {
                    let mut w = Wdl::default();
                    w.add(s);
                    self.bots.push((level, w));
                    self.bots
                        .sort_by_key(|(l, _)| Level::ALL.iter().position(|x| x == l));
                }
            },
        }
        if result.score() == Score::Win {
            self.streak = self.streak.saturating_add(1);
            self.best_streak = self.best_streak.max(self.streak);
        } else {
            self.streak = 0;
        }
        self.last_played = self.last_played.max(at);
    }

    /// Enters the player in `scope` (moved to the newest place if already there); returns
    /// the scope that fell out to make room, if any.
    pub fn enter_scope(&mut self, scope: &str) -> Option<String> {
        self.scopes.retain(|s| s != scope);
        self.scopes.push(scope.to_string());
        (self.scopes.len() > MAX_SCOPES).then(|| self.scopes.remove(0))
    }

    /// The player's row on a leaderboard.
    pub fn row(&self) -> LeaderRow {
        LeaderRow {
            user: self.user.clone(),
            rating: self.rating,
            games: self.rated.games(),
            wins: self.rated.wins,
            draws: self.rated.draws,
            losses: self.rated.losses,
            last_rated: self.last_rated,
        }
    }
}

/// One player's row on a leaderboard (a value of the `Leaderboard` tree).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeaderRow {
    pub user: UserRef,
    pub rating: Rating,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub last_rated: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manager::Platform;

    #[test]
    fn results_count_where_they_belong_with_streaks() {
        let mut s = PlayerStats::new(UserRef::new(Platform::Console, "a", "A"));
        s.count(GameResult::Rated(Score::Win), 10);
        s.count(GameResult::Bot(Level::Hard, Score::Win), 20);
        s.count(GameResult::Bot(Level::Easy, Score::Win), 30);
        s.count(GameResult::Casual(Score::Draw), 40);
        s.count(GameResult::Rated(Score::Win), 50);
        s.count(GameResult::Bot(Level::Hard, Score::Loss), 60);
        assert_eq!((s.rated.wins, s.rated.games()), (2, 2));
        assert_eq!(s.casual.draws, 1);
        assert_eq!(
            s.against(Level::Hard),
            Wdl {
                wins: 1,
                draws: 0,
                losses: 1
            }
        );
        assert_eq!(s.against(Level::Max), Wdl::default());
        // Levels are kept in their own order, easiest first.
        assert_eq!(s.bots[0].0, Level::Easy);
        assert_eq!((s.streak, s.best_streak), (0, 3));
        assert_eq!((s.games(), s.last_played, s.last_rated), (6, 60, 50));
        assert_eq!(s.row().games, 2);
    }

    #[test]
    fn scopes_are_bounded_oldest_out() {
        let mut s = PlayerStats::new(UserRef::new(Platform::Telegram, "1", "A"));
        for i in 0..MAX_SCOPES {
            assert_eq!(s.enter_scope(&format!("telegram:{i}")), None);
        }
        assert_eq!(s.enter_scope("telegram:0"), None);
        assert_eq!(
            s.enter_scope("telegram:new"),
            Some("telegram:1".to_string())
        );
        assert_eq!(s.scopes.len(), MAX_SCOPES);
    }
}
