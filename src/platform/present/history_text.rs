//! Texts of `/history`, `/stats`, `/leaderboard` and `/record`, shared by every adapter
//! (as `present` is for boards): each adapter adds its own buttons and files.

use super::names::player_name;
use super::LabeledButton;
use crate::i18n::{words, Lang};
use crate::manager::buttons::Button;
use crate::manager::history::{score_of, HistoryEntry, HistoryPage, Leaderboard, RecordFile};
use crate::manager::GameStatus;
use crate::model::{Category, Level, Platform, UserRef};
use crate::ratings::keys::Scope;
use crate::ratings::{PlayerStats, Score, Wdl};
use crate::t;

/// Whose history or stats: the reader's own, or someone else's with their name.
pub struct Whose {
    pub user: UserRef,
    pub own: bool,
}

impl Whose {
    /// The name a title shows (`present::user_name`): `None` for the reader's own.
    pub fn name(&self) -> Option<String> {
        (!self.own).then(|| super::user_name(&self.user))
    }
}

/// The name `user` had in the newest game of a page (a page button carries only the id).
pub fn name_in(page: &HistoryPage, user: &UserRef) -> String {
    page.entries
        .first()
        .and_then(|e| e.players[e.side.index()].user())
        .map(|u| u.name.clone())
        .unwrap_or_else(|| user.name.clone())
}

/// A history entry's button: the game's final board and its record.
pub fn entry_button(entry: &HistoryEntry) -> LabeledButton {
    LabeledButton {
        button: Button::Record {
            game: entry.game.clone(),
        },
        label: format!("📄 {}", entry.game),
        enabled: true,
    }
}

/// A finished board's Record button: the game's record as a file.
pub fn record_button(game: &str, lang: Lang) -> LabeledButton {
    LabeledButton {
        button: Button::Record {
            game: game.to_string(),
        },
        label: t!(lang, "record-button"),
        enabled: true,
    }
}

/// `W/D/L` as numbers, `3/1/2`.
fn wdl(w: &Wdl) -> String {
    format!("{}/{}/{}", w.wins, w.draws, w.losses)
}

/// One line of a history: `2026-12-01 ab12cd: Alice – Bob (easy), won, 1512 (+12)`.
pub fn history_line(entry: &HistoryEntry, lang: Lang) -> String {
    let outcome = match (&entry.status, score_of(&entry.status, entry.side)) {
        (_, Some(Score::Win)) => t!(lang, "history-won"),
        (_, Some(Score::Draw)) => t!(lang, "history-drawn"),
        (_, Some(Score::Loss)) => t!(lang, "history-lost"),
        (GameStatus::Finished { .. }, None) | (GameStatus::Ongoing, None) => {
            t!(lang, "history-aborted")
        }
    };
    let mut line = format!(
        "{} {}: {} – {}, {outcome}",
        crate::ratings::dates::iso_date(entry.ended_at),
        entry.game,
        player_name(&entry.players[0], lang),
        player_name(&entry.players[1], lang),
    );
    if let Some(change) = entry.change {
        line.push_str(&format!(", {}", change.shown()));
    }
    line
}

/// A page of someone's history (`name` `None`: the reader's own): a title and one line per
/// game.
pub fn history_text(name: Option<&str>, page: &HistoryPage, lang: Lang) -> String {
    if page.entries.is_empty() && page.page == 0 {
        return none_yet(name, lang);
    }
    let number = page.page + 1;
    let title = match name {
        Some(name) => t!(lang, "history-title", name = name, page = number),
        None => t!(lang, "history-title-you", page = number),
    };
    let mut lines = vec![title];
    lines.extend(page.entries.iter().map(|e| history_line(e, lang)));
    lines.join("\n")
}

fn none_yet(name: Option<&str>, lang: Lang) -> String {
    match name {
        Some(name) => t!(lang, "history-none", name = name),
        None => t!(lang, "history-none-you"),
    }
}

/// A time category's name as a label (`Blitz`, `Блиц`).
pub fn category_name(category: Category, lang: Lang) -> String {
    match category {
        Category::Blitz => t!(lang, "category-blitz"),
        Category::Rapid => t!(lang, "category-rapid"),
        Category::Correspondence => t!(lang, "category-correspondence"),
    }
}

/// Someone's ratings (one per time category played rated) and results (`name` `None`: the
/// reader's own).
pub fn stats_text(name: Option<&str>, stats: Option<&PlayerStats>, lang: Lang) -> String {
    let Some(s) = stats else {
        return none_yet(name, lang);
    };
    let mut lines = vec![match name {
        Some(name) => t!(lang, "stats-title", name = name),
        None => t!(lang, "stats-title-you"),
    }];
    for c in &s.categories {
        lines.push(t!(
            lang,
            "stats-category",
            category = category_name(c.category, lang),
            rating = c.rating.shown(),
            deviation = c.rating.deviation.round() as i64,
            count = c.results.games(),
            results = wdl(&c.results)
        ));
    }
    if s.categories.is_empty() {
        lines.push(t!(lang, "stats-no-rated"));
    }
    if s.categories.iter().any(|c| c.rating.is_provisional()) {
        lines.push(t!(lang, "stats-provisional"));
    }
    if s.casual.games() > 0 {
        lines.push(t!(
            lang,
            "stats-casual",
            count = s.casual.games(),
            results = wdl(&s.casual)
        ));
    }
    for level in Level::ALL {
        let w = s.against(level);
        if w.games() > 0 {
            let level = words::level_name(lang, level);
            lines.push(t!(lang, "stats-bot", level = level, results = wdl(&w)));
        }
    }
    lines.push(t!(lang, "stats-streak", count = s.best_streak));
    lines.join("\n")
}

/// How a leaderboard is asked for: one category in full, or every category's top
/// (`more` then shows how to ask for one in full, in the adapter's own command syntax).
pub enum BoardsShown {
    One,
    Overview { more: String },
}

/// Leaderboards of one scope: the scope's title, then for each category its name, top rows
/// and the caller's place. The overview leaves out categories nobody played.
pub fn leaderboard_text(boards: &[Leaderboard], shown: BoardsShown, lang: Lang) -> String {
    let Some(first) = boards.first() else {
        return String::new();
    };
    let title = match &first.scope {
        Scope::Platform(p) => t!(lang, "leaderboard-global", platform = platform_name(*p)),
        Scope::Chat(chat) if chat.platform == Platform::Discord => {
            t!(lang, "leaderboard-server")
        }
        Scope::Chat(_) => t!(lang, "leaderboard-chat"),
    };
    // A category is shown if someone is listed on it or on their way (provisional).
    let played: Vec<&Leaderboard> = boards
        .iter()
        .filter(|b| !b.top.is_empty() || b.pending > 0)
        .collect();
    let mut lines = vec![title];
    match shown {
        BoardsShown::One => {
            lines.push(format!("{}:", category_name(first.category, lang)));
            if first.top.is_empty() {
                lines.push(match first.pending {
                    0 => t!(lang, "leaderboard-empty"),
                    _ => pending_line(first, lang),
                });
                if first.caller_provisional {
                    lines.push(t!(lang, "leaderboard-you-provisional"));
                }
                return lines.join("\n");
            }
            lines.push(t!(lang, "leaderboard-columns"));
            board_lines(first, &mut lines);
            if first.pending > 0 {
                lines.push(pending_line(first, lang));
            }
            lines.push(match &first.caller {
                Some((place, _)) => t!(lang, "leaderboard-you", place = *place),
                None if first.caller_provisional => t!(lang, "leaderboard-you-provisional"),
                None => t!(lang, "leaderboard-you-absent"),
            });
        }
        BoardsShown::Overview { more } => {
            let provisional = boards.iter().any(|b| b.caller_provisional);
            if played.is_empty() {
                lines.push(t!(lang, "leaderboard-empty"));
                if provisional {
                    lines.push(t!(lang, "leaderboard-you-provisional"));
                }
                return lines.join("\n");
            }
            lines.push(t!(lang, "leaderboard-columns"));
            for board in &played {
                lines.push(format!("{}:", category_name(board.category, lang)));
                board_lines(board, &mut lines);
                if board.pending > 0 {
                    lines.push(pending_line(board, lang));
                }
                if let Some((place, _)) = &board.caller {
                    lines.push(t!(lang, "leaderboard-you", place = *place));
                }
            }
            if played.iter().all(|b| b.caller.is_none()) {
                lines.push(if provisional {
                    t!(lang, "leaderboard-you-provisional")
                } else {
                    t!(lang, "leaderboard-you-absent")
                });
            }
            lines.push(t!(lang, "leaderboard-more", command = more.as_str()));
        }
    }
    lines.join("\n")
}

/// How many of the board's players are not listed while their rating is provisional, and
/// after about how many rated games a rating is listed.
fn pending_line(board: &Leaderboard, lang: Lang) -> String {
    t!(
        lang,
        "leaderboard-pending",
        count = board.pending,
        games = crate::ratings::games_to_establish()
    )
}

fn board_lines(board: &Leaderboard, lines: &mut Vec<String>) {
    for (place, row) in &board.top {
        lines.push(format!(
            "{place}. {} — {} · {}/{}/{}",
            super::user_name(&row.user),
            row.rating.shown(),
            row.wins,
            row.draws,
            row.losses
        ));
    }
}

/// A platform's name as texts show it.
pub fn platform_name(p: Platform) -> &'static str {
    match p {
        Platform::Telegram => "Telegram",
        Platform::Discord => "Discord",
        Platform::Console => "toguz",
    }
}

/// The message sent with a record file: its title (`record_title`) and the move text.
pub fn record_caption(file: &RecordFile, lang: Lang) -> String {
    let title = record_title(file, lang);
    if file.moves.is_empty() {
        format!("{title}\n{}", t!(lang, "record-no-moves"))
    } else {
        format!("{title}\n{}", file.moves)
    }
}

/// A record's title, and under it the game's page when the pages are served: what a
/// record's message keeps when its move text goes elsewhere.
pub fn record_title(file: &RecordFile, lang: Lang) -> String {
    let title = t!(lang, "record-title", game = file.game.as_str());
    match super::link::page_line(file.page_url.as_deref(), lang) {
        Some(page) => format!("{title}\n{page}"),
        None => title,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manager::{FinishReason, Player};
    use crate::model::{ChatRef, UserRef};
    use crate::ratings::{LeaderRow, Rating, RatingChange};
    use crate::rules::{Side, Variant};

    fn alice() -> UserRef {
        UserRef::new(Platform::Telegram, "1", "Alice")
    }

    #[test]
    fn a_history_line_names_players_outcome_and_rating() {
        let entry = HistoryEntry {
            game: "ab12cd".into(),
            ended_at: 1_796_083_200,
            variant: Variant::STANDARD,
            players: [Player::Human(alice()), Player::Bot(Level::Easy)],
            status: GameStatus::Finished {
                winner: Some(Side::White),
                reason: FinishReason::Resigned(Side::Black),
            },
            rated: false,
            side: Side::White,
            change: Some(RatingChange {
                before: Rating {
                    rating: 1500.0,
                    deviation: 80.0,
                    volatility: 0.06,
                },
                after: Rating {
                    rating: 1512.0,
                    deviation: 79.0,
                    volatility: 0.06,
                },
            }),
            category: None,
            chat: None,
        };
        let en = history_line(&entry, Lang::En);
        assert_eq!(en, "2026-12-01 ab12cd: Alice – Bot (easy), won, 1512 (+12)");
        assert!(
            history_line(&entry, Lang::Ru).contains("победа"),
            "{}",
            history_line(&entry, Lang::Ru)
        );
        assert!(history_line(&entry, Lang::Kk).contains("жеңіс"));
    }

    fn row(user: UserRef, rating: f64) -> LeaderRow {
        LeaderRow {
            user,
            rating: Rating {
                rating,
                deviation: 60.0,
                volatility: 0.06,
            },
            games: 3,
            wins: 2,
            draws: 1,
            losses: 0,
            last_rated: 5,
        }
    }

    fn board(category: Category, top: Vec<(usize, LeaderRow)>) -> Leaderboard {
        let caller = top.first().cloned();
        Leaderboard {
            caller_provisional: false,
            pending: 0,
            scope: Scope::Chat(ChatRef::new(Platform::Telegram, "-100")),
            category,
            top,
            caller,
        }
    }

    #[test]
    fn stats_show_each_categorys_rating_in_each_language() {
        let mut s = PlayerStats::new(alice());
        s.count(crate::ratings::GameResult::Bot(Level::Hard, Score::Win), 5);
        for lang in Lang::ALL {
            let text = stats_text(Some("Alice"), Some(&s), lang);
            assert!(text.contains("1/0/0"), "{text}");
            assert!(text.contains(&t!(lang, "stats-no-rated")), "{text}");
            assert!(
                text.contains(&words::level_name(lang, Level::Hard)),
                "{text}"
            );
            assert!(stats_text(Some("Bob"), None, lang).contains("Bob"));
            assert_ne!(
                stats_text(None, None, lang),
                stats_text(Some("Bob"), None, lang)
            );
        }
        use crate::ratings::GameResult::Rated;
        s.count(Rated(Category::Blitz, Score::Win), 6);
        s.count(Rated(Category::Correspondence, Score::Loss), 7);
        s.category_mut(Category::Blitz).rating.rating = 1612.4;
        let text = stats_text(None, Some(&s), Lang::En);
        let blitz = text.find("Blitz: rating 1612?").expect(&text);
        let corr = text.find("Correspondence: rating 1500?").expect(&text);
        assert!(blitz < corr, "fastest first: {text}");
        assert!(!text.contains("Rapid"), "{text}");
        assert!(!text.contains(&t!(Lang::En, "stats-no-rated")), "{text}");
        for lang in Lang::ALL {
            let text = stats_text(None, Some(&s), lang);
            for c in [Category::Blitz, Category::Correspondence] {
                assert!(text.contains(&category_name(c, lang)), "{text}");
            }
        }
    }

    #[test]
    fn a_leaderboard_shows_one_category_or_every_played_one() {
        let alice_row = row(alice(), 1612.4);
        let one = board(Category::Blitz, vec![(1, alice_row.clone())]);
        let text = leaderboard_text(&[one], BoardsShown::One, Lang::Ru);
        assert!(text.contains("Блиц:"), "{text}");
        assert!(text.contains("1. Alice — 1612 · 2/1/0"), "{text}");
        let empty = board(Category::Rapid, vec![]);
        let text = leaderboard_text(std::slice::from_ref(&empty), BoardsShown::One, Lang::En);
        assert!(text.contains("Rapid:") && text.contains(&t!(Lang::En, "leaderboard-empty")));
        let corr = board(Category::Correspondence, vec![(1, row(alice(), 1490.0))]);
        let blitz = board(Category::Blitz, vec![(1, alice_row)]);
        let boards = [blitz, empty.clone(), corr];
        let shown = BoardsShown::Overview {
            more: "/leaderboard blitz".into(),
        };
        for lang in Lang::ALL {
            let text = leaderboard_text(&boards, BoardsShown::Overview { more: "/x".into() }, lang);
            assert!(
                !text.contains(&category_name(Category::Rapid, lang)),
                "{text}"
            );
            assert!(
                text.contains(&category_name(Category::Blitz, lang)),
                "{text}"
            );
            assert!(text.contains("/x"), "{text}");
        }
        let text = leaderboard_text(&boards, shown, Lang::En);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], t!(Lang::En, "leaderboard-chat"));
        assert!(lines.contains(&"1. Alice — 1490 · 2/1/0"), "{text}");
        assert!(text.ends_with("/leaderboard blitz"), "{text}");
        let nobody = leaderboard_text(
            &[empty],
            BoardsShown::Overview { more: "/x".into() },
            Lang::Kk,
        );
        assert!(
            nobody.contains(&t!(Lang::Kk, "leaderboard-empty")),
            "{nobody}"
        );
    }

    #[test]
    fn a_records_title_names_the_games_page_when_the_pages_are_served() {
        let mut file = RecordFile {
            game: "ab12cd".into(),
            file_name: "toguz-ab12cd.pgn".into(),
            text: String::new(),
            moves: "1. 76 98".into(),
            page_url: None,
        };
        assert_eq!(
            record_caption(&file, Lang::En),
            "Record of game ab12cd\n1. 76 98"
        );
        let url = "https://pages.example.org/g/ab12cd-0123456789abcdef0123";
        file.page_url = Some(url.into());
        let title = record_title(&file, Lang::Kk);
        assert_eq!(
            title,
            format!("ab12cd ойынының жазбасы\n🌐 Ойын беті: {url}")
        );
        assert_eq!(
            record_caption(&file, Lang::Kk),
            format!("{title}\n1. 76 98")
        );
    }
}
