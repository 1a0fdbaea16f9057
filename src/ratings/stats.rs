//! A player's results (the `Ratings` tree) and their row on a leaderboard.
//!
//! Rated games are rated per time category (blitz, rapid, correspondence): each category has
//! its own rating, results, last rated game and leaderboard scopes, as on lichess, because
//! a player's strength at 3+2 says little about their strength at three days a move.

use super::{Rating, Score};
use crate::model::{Category, Level, UserRef};
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
    /// A rated game against a person, in its time category.
    Rated(Category, Score),
    /// An unrated game against a person.
    Casual(Score),
    /// A game against the bot at this level (never rated).
    Bot(Level, Score),
}

impl GameResult {
    pub fn score(self) -> Score {
        match self {
            GameResult::Rated(_, s) | GameResult::Casual(s) | GameResult::Bot(_, s) => s,
        }
    }
}

/// At most this many leaderboard scopes (chats) per player and category; the oldest goes
/// first.
pub const MAX_SCOPES: usize = 20;

/// A player's rating in one time category and the rated games behind it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CategoryStats {
    pub category: Category,
    pub rating: Rating,
    /// These make the leaderboard's games, wins, draws, losses.
    pub results: Wdl,
    /// Unix seconds of the last rated game of this category (the leaderboard drops players
    /// whose last one is older than 90 days).
    pub last_rated: u64,
    /// The leaderboard scope keys this player is entered in for this category, oldest
    /// first.
    pub scopes: Vec<String>,
}

impl CategoryStats {
    pub fn new(category: Category) -> CategoryStats {
        CategoryStats {
            category,
            rating: Rating::default(),
            results: Wdl::default(),
            last_rated: 0,
            scopes: Vec::new(),
        }
    }

    /// Enters the player in `scope` (moved to the newest place if already there); returns
    /// the scope that fell out to make room, if any.
    pub fn enter_scope(&mut self, scope: &str) -> Option<String> {
        self.scopes.retain(|s| s != scope);
        self.scopes.push(scope.to_string());
        (self.scopes.len() > MAX_SCOPES).then(|| self.scopes.remove(0))
    }
}

/// A player's ratings and results, keyed by `platform:id` in the `Ratings` tree.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "StoredStats")]
pub struct PlayerStats {
    /// With the display name of their latest game.
    pub user: UserRef,
    /// One entry per category with a rated game, in `Category`'s order (blitz first).
    pub categories: Vec<CategoryStats>,
    /// Unrated games between people.
    pub casual: Wdl,
    /// Games against the bot, per level.
    pub bots: Vec<(Level, Wdl)>,
    /// Wins in a row now, and the longest run, over every game with a result.
    pub streak: u32,
    pub best_streak: u32,
    /// Unix seconds of the last finished game.
    pub last_played: u64,
}

/// A `PlayerStats` as stored: today's shape, or the one before ratings were split per
/// category, whose single rating (with its results and scopes) is read as the
/// correspondence rating: games without a clock were the only kind when it was written.
#[derive(Deserialize)]
struct StoredStats {
    user: UserRef,
    #[serde(default)]
    categories: Option<Vec<CategoryStats>>,
    #[serde(default)]
    rating: Option<Rating>,
    #[serde(default)]
    rated: Wdl,
    #[serde(default)]
    last_rated: u64,
    #[serde(default)]
    scopes: Vec<String>,
    #[serde(default)]
    casual: Wdl,
    #[serde(default)]
    bots: Vec<(Level, Wdl)>,
    #[serde(default)]
    streak: u32,
    #[serde(default)]
    best_streak: u32,
    #[serde(default)]
    last_played: u64,
}

impl From<StoredStats> for PlayerStats {
    fn from(s: StoredStats) -> PlayerStats {
        let mut categories = match s.categories {
            Some(categories) => categories,
            None if s.rated.games() > 0 => vec![CategoryStats {
                category: Category::Correspondence,
                rating: s.rating.unwrap_or_default(),
                results: s.rated,
                last_rated: s.last_rated,
                scopes: s.scopes,
            }],
            None => Vec::new(),
        };
        // Sorted and one per category, whatever a damaged record held.
        categories.sort_by_key(|c| c.category);
        categories.dedup_by_key(|c| c.category);
        PlayerStats {
            user: s.user,
            categories,
            casual: s.casual,
            bots: s.bots,
            streak: s.streak,
            best_streak: s.best_streak,
            last_played: s.last_played,
        }
    }
}

impl PlayerStats {
    pub fn new(user: UserRef) -> PlayerStats {
        PlayerStats {
            user,
            categories: Vec::new(),
            casual: Wdl::default(),
            bots: Vec::new(),
            streak: 0,
            best_streak: 0,
            last_played: 0,
        }
    }

    /// The player's rating and rated games in `category`, if they played one.
    pub fn category(&self, category: Category) -> Option<&CategoryStats> {
        self.categories.iter().find(|c| c.category == category)
    }

    /// The entry of `category`, made (at the start rating) if it is the first of its kind.
    pub fn category_mut(&mut self, category: Category) -> &mut CategoryStats {
        let at = match self
            .categories
            .binary_search_by_key(&category, |c| c.category)
        {
            Ok(at) => at,
            Err(at) => {
                self.categories.insert(at, CategoryStats::new(category));
                at
            }
        };
        &mut self.categories[at]
    }

    /// The rating `category` starts a game with: the start rating for a first game.
    pub fn rating_in(&self, category: Category) -> Rating {
        self.category(category)
            .map(|c| c.rating)
            .unwrap_or_default()
    }

    /// Rated games in every category.
    pub fn rated_games(&self) -> u32 {
        self.categories
            .iter()
            .fold(0u32, |n, c| n.saturating_add(c.results.games()))
    }

    /// Every game with a result, against people and the bot.
    pub fn games(&self) -> u32 {
        let bots: u32 = self.bots.iter().map(|(_, w)| w.games()).sum();
        self.rated_games()
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
            GameResult::Rated(category, s) => {
                let c = self.category_mut(category);
                c.results.add(s);
                c.last_rated = c.last_rated.max(at);
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

    /// The player's row on a leaderboard of `category`, if they played a rated game of it.
    pub fn row(&self, category: Category) -> Option<LeaderRow> {
        let c = self.category(category)?;
        Some(LeaderRow {
            user: self.user.clone(),
            rating: c.rating,
            games: c.results.games(),
            wins: c.results.wins,
            draws: c.results.draws,
            losses: c.results.losses,
            last_rated: c.last_rated,
        })
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
    use crate::model::Platform;

    #[test]
    fn results_count_where_they_belong_with_streaks() {
        let mut s = PlayerStats::new(UserRef::new(Platform::Console, "a", "A"));
        s.count(GameResult::Rated(Category::Rapid, Score::Win), 10);
        s.count(GameResult::Bot(Level::Hard, Score::Win), 20);
        s.count(GameResult::Bot(Level::Easy, Score::Win), 30);
        s.count(GameResult::Casual(Score::Draw), 40);
        s.count(GameResult::Rated(Category::Blitz, Score::Win), 50);
        s.count(GameResult::Bot(Level::Hard, Score::Loss), 60);
        let blitz = s.category(Category::Blitz).unwrap();
        assert_eq!((blitz.results.wins, blitz.last_rated), (1, 50));
        assert_eq!(s.category(Category::Rapid).unwrap().last_rated, 10);
        assert!(s.category(Category::Correspondence).is_none());
        // Categories are kept in their own order, blitz first.
        assert_eq!(s.categories[0].category, Category::Blitz);
        assert_eq!(s.rated_games(), 2);
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
        assert_eq!((s.games(), s.last_played), (6, 60));
        assert_eq!(s.row(Category::Blitz).map(|r| r.games), Some(1));
        assert_eq!(s.row(Category::Correspondence), None);
    }

    #[test]
    fn scopes_are_bounded_oldest_out() {
        let mut c = CategoryStats::new(Category::Blitz);
        for i in 0..MAX_SCOPES {
            assert_eq!(c.enter_scope(&format!("telegram:{i}")), None);
        }
        assert_eq!(c.enter_scope("telegram:0"), None);
        assert_eq!(
            c.enter_scope("telegram:new"),
            Some("telegram:1".to_string())
        );
        assert_eq!(c.scopes.len(), MAX_SCOPES);
    }

    #[test]
    fn stats_stored_before_categories_read_as_correspondence() {
        let user = UserRef::new(Platform::Telegram, "1", "A");
        let old = serde_json::json!({
            "user": user,
            "rating": {"rating": 1612.5, "deviation": 80.0, "volatility": 0.06},
            "rated": {"wins": 3, "draws": 1, "losses": 0},
            "casual": {"wins": 1, "draws": 0, "losses": 0},
            "bots": [],
            "streak": 2, "best_streak": 3,
            "last_played": 500, "last_rated": 400,
            "scopes": ["telegram", "telegram:-100"]
        });
        let s: PlayerStats = serde_json::from_value(old).unwrap();
        assert_eq!(s.categories.len(), 1);
        let c = s.category(Category::Correspondence).unwrap();
        assert_eq!(
            (c.rating.rating, c.results.wins, c.last_rated),
            (1612.5, 3, 400)
        );
        assert_eq!(c.scopes, ["telegram", "telegram:-100"]);
        assert_eq!((s.casual.wins, s.best_streak, s.last_played), (1, 3, 500));
        // Without rated games the old default rating makes no category.
        let bots_only = serde_json::json!({
            "user": user,
            "rating": {"rating": 1500.0, "deviation": 350.0, "volatility": 0.06},
            "rated": {"wins": 0, "draws": 0, "losses": 0},
            "last_played": 5
        });
        let s: PlayerStats = serde_json::from_value(bots_only).unwrap();
        assert!(s.categories.is_empty());
        // Today's shape reads back as written.
        let mut now = PlayerStats::new(user);
        now.count(GameResult::Rated(Category::Blitz, Score::Loss), 9);
        now.category_mut(Category::Blitz).enter_scope("telegram");
        let text = serde_json::to_string(&now).unwrap();
        assert_eq!(serde_json::from_str::<PlayerStats>(&text).unwrap(), now);
    }
}
