//! What a player's web page shows (issue 35): their ratings, the rating after each rated
//! game as a graph's points, and their last games, in the page's language. Pure: the web
//! adapter turns this into HTML and the graph's SVG. No platform user id is ever put in
//! these words: names only.

use super::history_text::{category_name, platform_name};
use crate::i18n::Lang;
use crate::manager::history::score_of;
use crate::manager::player_pages::{PlayerPage, RecentGame};
use crate::manager::GameStatus;
use crate::model::{Category, Platform};
use crate::ratings::Score;
use crate::t;

/// The page's words.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerWords {
    pub lang: &'static str,
    /// The window's title.
    pub title: String,
    /// The player's name (cleaned).
    pub name: String,
    /// Where they play.
    pub platform: String,
    pub ratings_heading: String,
    /// The ratings table's column headings: category, rating, games, results.
    pub columns: [String; 4],
    pub ratings: Vec<RatingRow>,
    pub no_ratings: String,
    pub graph_heading: String,
    pub graph_about: String,
    /// One line per time category, its points in the order they were played.
    pub graph: Vec<Series>,
    pub recent_heading: String,
    pub recent: Vec<RecentRow>,
    pub no_recent: String,
    /// The links to the front page and to the leaderboards.
    pub all_games: String,
    pub leaderboards: String,
}

/// A category's rating and results.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub category: String,
    /// `1512`, `1500?` while provisional.
    pub rating: String,
    pub games: u32,
    /// Wins/draws/losses, `3/1/2`.
    pub results: String,
}

/// One category's line of the graph.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub category: String,
    /// A name for the style sheet: `blitz`, `rapid`, `correspondence`.
    pub class: &'static str,
    pub points: Vec<GraphPoint>,
}

/// A rating after a game.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphPoint {
    /// Its place among all the graph's points (every category), oldest first.
    pub x: usize,
    pub rating: f64,
    /// The game's page key.
    pub key: String,
    /// The point's tooltip: date, category, rating.
    pub label: String,
}

/// One of the recent games.
#[derive(Clone, Debug, PartialEq)]
pub struct RecentRow {
    /// The game's page key.
    pub key: String,
    pub date: String,
    /// `vs Bolat`.
    pub opponent: String,
    /// `won`, `drawn`, `lost`, `aborted`.
    pub outcome: String,
    /// A rated game's rating after it and its change: `1512 (+12)`.
    pub change: Option<String>,
    /// Its time category, when known.
    pub detail: String,
}

/// The page of `page`'s player in `lang`.
pub fn player_words(page: &PlayerPage, lang: Lang) -> PlayerWords {
    let name = crate::model::names::clean_name(&page.name);
    let platform = match page.platform {
        Platform::Console => t!(lang, "web-player-console"),
        p => t!(lang, "web-player-platform", platform = platform_name(p)),
    };
    let ratings = page
        .stats
        .iter()
        .flat_map(|s| s.categories.iter())
        .filter(|c| c.results.games() > 0)
        .map(|c| RatingRow {
            category: category_name(c.category, lang),
            rating: c.rating.shown(),
            games: c.results.games(),
            results: format!(
                "{}/{}/{}",
                c.results.wins, c.results.draws, c.results.losses
            ),
        })
        .collect();
    PlayerWords {
        lang: lang.code(),
        title: t!(lang, "web-player-title", name = name.clone()),
        name,
        platform,
        ratings_heading: t!(lang, "web-player-ratings"),
        columns: [
            t!(lang, "web-player-category"),
            t!(lang, "web-leaderboard-rating"),
            t!(lang, "web-leaderboard-games"),
            t!(lang, "web-player-results"),
        ],
        ratings,
        no_ratings: t!(lang, "web-player-no-ratings"),
        graph_heading: t!(lang, "web-player-graph"),
        graph_about: t!(lang, "web-player-graph-about"),
        graph: graph(page, lang),
        recent_heading: t!(lang, "web-player-recent"),
        recent: page.recent.iter().map(|g| recent_row(g, lang)).collect(),
        no_recent: t!(lang, "web-player-no-recent"),
        all_games: t!(lang, "web-all-games"),
        leaderboards: t!(lang, "web-leaderboards"),
    }
}

/// The graph's lines: one per category, in `Category::ALL`'s order; points whose category
/// is unknown are left out.
fn graph(page: &PlayerPage, lang: Lang) -> Vec<Series> {
    let known = page.points.iter().filter_map(|p| Some((p.category?, p)));
    let mut series: Vec<Series> = Category::ALL
        .iter()
        .map(|&c| Series {
            category: category_name(c, lang),
            class: c.name(),
            points: Vec::new(),
        })
        .collect();
    for (x, (category, point)) in known.enumerate() {
        let Some(at) = Category::ALL.iter().position(|&c| c == category) else {
            continue;
        };
        let line = &mut series[at];
        let label = t!(
            lang,
            "web-player-point",
            date = crate::ratings::dates::iso_date(point.ended_at),
            category = line.category.clone(),
            rating = point.rating.shown()
        );
        line.points.push(GraphPoint {
            x,
            rating: point.rating.rating,
            key: point.key.clone(),
            label,
        });
    }
    series.retain(|s| !s.points.is_empty());
    series
}

fn recent_row(game: &RecentGame, lang: Lang) -> RecentRow {
    let entry = &game.entry;
    let opponent = super::plain_player_name(&entry.players[entry.side.other().index()], lang);
    let outcome = match (&entry.status, score_of(&entry.status, entry.side)) {
        (_, Some(Score::Win)) => t!(lang, "history-won"),
        (_, Some(Score::Draw)) => t!(lang, "history-drawn"),
        (_, Some(Score::Loss)) => t!(lang, "history-lost"),
        (GameStatus::Finished { .. } | GameStatus::Ongoing, None) => t!(lang, "history-aborted"),
    };
    RecentRow {
        key: game.key.clone(),
        date: crate::ratings::dates::iso_date(entry.ended_at),
        opponent: t!(lang, "web-player-against", opponent = opponent),
        outcome,
        change: entry.change.map(|c| c.shown()),
        detail: entry
            .category
            .map(|c| category_name(c, lang))
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manager::player_pages::RatingPoint;
    use crate::manager::{FinishReason, HistoryEntry, Player};
    use crate::model::UserRef;
    use crate::ratings::{Rating, RatingChange};
    use crate::rules::{Side, Variant};

    fn rating(r: f64) -> Rating {
        Rating {
            rating: r,
            deviation: 60.0,
            volatility: 0.06,
        }
    }

    fn page() -> PlayerPage {
        let me = UserRef::new(Platform::Telegram, "81234567", "Асель");
        let them = UserRef::new(Platform::Telegram, "92345678", "Bolat");
        let point = |key: &str, category, r| RatingPoint {
            key: key.into(),
            ended_at: 1_796_083_200,
            category,
            rating: rating(r),
        };
        PlayerPage {
            key: "0123456789abcdef0123".into(),
            name: "Асель".into(),
            platform: Platform::Telegram,
            stats: None,
            points: vec![
                point("a-1", Some(Category::Blitz), 1512.0),
                point("b-2", None, 1490.0),
                point("c-3", Some(Category::Rapid), 1488.4),
                point("d-4", Some(Category::Blitz), 1524.6),
            ],
            recent: vec![RecentGame {
                key: "d-4".into(),
                entry: HistoryEntry {
                    game: "d".into(),
                    ended_at: 1_796_083_200,
                    variant: Variant::STANDARD,
                    players: [Player::Human(them), Player::Human(me)],
                    status: GameStatus::Finished {
                        winner: Some(Side::Black),
                        reason: FinishReason::Resigned(Side::White),
                    },
                    rated: true,
                    side: Side::Black,
                    change: Some(RatingChange {
                        before: rating(1512.0),
                        after: rating(1524.6),
                    }),
                    category: Some(Category::Blitz),
                    chat: None,
                },
            }],
            public: false,
        }
    }

    #[test]
    fn the_graph_has_a_line_per_category_with_every_known_point_in_order() {
        let words = player_words(&page(), Lang::En);
        assert_eq!(words.graph.len(), 2);
        let blitz = &words.graph[0];
        assert_eq!(blitz.class, "blitz");
        let xs: Vec<usize> = blitz.points.iter().map(|p| p.x).collect();
        assert_eq!(xs, [0, 2], "the unknown one is left out");
        assert_eq!(blitz.points[1].label, "2026-12-01 · Blitz · 1525");
        assert_eq!(words.graph[1].points[0].key, "c-3");
        assert_eq!(words.title, "Асель · Toguzqumalak");
        assert_eq!(words.platform, "Plays on Telegram");
    }

    #[test]
    fn a_recent_game_names_the_opponent_the_outcome_and_the_change_never_an_id() {
        for lang in Lang::ALL {
            let words = player_words(&page(), lang);
            let row = &words.recent[0];
            assert!(row.opponent.contains("Bolat"), "{row:?}");
            assert_eq!(row.change.as_deref(), Some("1525 (+13)"));
            assert_eq!(row.outcome, t!(lang, "history-won"));
            let all = format!("{words:?}");
            assert!(
                !all.contains("81234567") && !all.contains("92345678"),
                "{all}"
            );
        }
    }
}
