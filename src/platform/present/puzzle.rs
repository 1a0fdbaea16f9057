//! What players see of puzzles, on every platform: the caption under a puzzle's board (your
//! move; then solved or not, the themes, the rating's change), the board drawn from the
//! solver's side, the buttons, `/puzzle stats`, the puzzle leaderboard and the daily post.

use super::names::{name_on, user_name};
use super::{pit_label, LabeledButton};
use crate::i18n::Lang;
use crate::manager::buttons::Button;
use crate::manager::puzzles::{DailyView, PuzzleBoard, PuzzleState, PuzzleStats, PuzzleView};
use crate::puzzle::Theme;
use crate::ratings::dates::iso_date;
use crate::ratings::keys::Scope;
use crate::ratings::Rating;
use crate::render::{BoardView, MoveHint};
use crate::rules::Side;
use crate::t;

/// A theme as players name it (docs/glossary.md).
pub fn theme_name(theme: Theme, lang: Lang) -> String {
    match theme {
        Theme::Capture => t!(lang, "puzzle-theme-capture"),
        Theme::Tuzdek => t!(lang, "puzzle-theme-tuzdek"),
        Theme::Atsyrau => t!(lang, "puzzle-theme-atsyrau"),
        Theme::Defence => t!(lang, "puzzle-theme-defence"),
        Theme::Endgame => t!(lang, "puzzle-theme-endgame"),
        Theme::Race => t!(lang, "puzzle-theme-race"),
    }
}

/// A rating and its change: `1512 (+12)`.
fn rating_change(after: Rating, before: Rating) -> String {
    let delta = (after.rating.round() - before.rating.round()) as i64;
    format!("{} ({delta:+})", after.shown())
}

/// The caption of a puzzle's board.
pub fn puzzle_caption(view: &PuzzleView, lang: Lang) -> String {
    let mut lines = vec![title(view, lang)];
    match &view.state {
        PuzzleState::Solving { reply } => {
            if let Some(reply) = reply {
                let side = super::side_name(reply.side, lang);
                lines.push(t!(lang, "puzzle-reply", side = side, pit = reply.pit));
            }
            let side = super::side_name(view.solver, lang);
            lines.push(t!(lang, "puzzle-your-move", side = side));
        }
        PuzzleState::Solved => lines.push(t!(lang, "puzzle-solved")),
        PuzzleState::Failed {
            played,
            solution,
            captures,
            makes_tuzdek,
            gap,
        } => {
            lines.push(t!(lang, "puzzle-failed", played = *played, pit = *solution));
            lines.push(gain_text((*captures, *makes_tuzdek, *gap), lang));
        }
    }
    if view.is_over() {
        lines.extend(over_lines(view, lang));
    }
    lines.join("\n")
}

/// "Puzzle · rated 1432" or "Daily puzzle, 2026-12-05".
fn title(view: &PuzzleView, lang: Lang) -> String {
    match view.daily {
        Some(day) => t!(
            lang,
            "puzzle-daily-title",
            date = iso_date(day as u64 * 86_400)
        ),
        None => t!(lang, "puzzle-title", name = user_name(&view.owner)),
    }
}

/// What the solution does, in words: what it captures, the tuzdek, or what every other
/// move gives away.
fn gain_text((captures, makes_tuzdek, gap): (u8, bool, i32), lang: Lang) -> String {
    if makes_tuzdek {
        return t!(lang, "puzzle-gain-tuzdek");
    }
    if captures > 0 {
        return t!(lang, "puzzle-gain-captures", count = captures);
    }
    let balls = (gap / crate::engine::BALL).max(1);
    t!(lang, "puzzle-gain-gap", count = balls)
}

/// The lines under an attempt that is over: the puzzle's rating and themes, the player's
/// rating with its change, the streak of a daily one.
fn over_lines(view: &PuzzleView, lang: Lang) -> Vec<String> {
    let mut lines = Vec::new();
    let themes: Vec<String> = view.themes().iter().map(|&t| theme_name(t, lang)).collect();
    let themes = if themes.is_empty() {
        t!(lang, "puzzle-theme-none")
    } else {
        themes.join(", ")
    };
    lines.push(t!(
        lang,
        "puzzle-about",
        rating = view.puzzle_rating.rating.round() as i64,
        themes = themes
    ));
    if let Some(before) = view.rating_before {
        let rating = rating_change(view.rating, before);
        lines.push(t!(lang, "puzzle-your-rating", rating = rating));
    }
    if view.daily.is_some() && view.streak > 0 {
        lines.push(t!(lang, "puzzle-streak", count = view.streak));
    }
    lines
}

/// The board as the solver sees it: their row at the bottom; a failed attempt marks the
/// move played and the solution.
pub fn puzzle_board_view(view: &PuzzleView, lang: Lang) -> BoardView {
    let owner = user_name(&view.owner);
    let other = t!(lang, "puzzle-opponent");
    let names = match view.solver {
        Side::White => [owner, other],
        Side::Black => [other, owner],
    };
    let hint = match view.state {
        PuzzleState::Failed {
            played, solution, ..
        } => Some(MoveHint {
            side: view.solver,
            played: Some(played),
            better: solution,
        }),
        _ => None,
    };
    BoardView {
        position: view.position,
        last_move: if hint.is_some() { None } else { view.last_move },
        names,
        perspective: view.solver,
        lang,
        result_line: None,
        hint,
    }
}

/// The buttons under a puzzle: the solver's pits while it is on; Next and Today's puzzle
/// once it is over.
pub fn puzzle_buttons(view: &PuzzleView, lang: Lang) -> Vec<LabeledButton> {
    if view.is_over() {
        return next_buttons(lang);
    }
    let legal = view.pits();
    (1..=9u8)
        .map(|pit| LabeledButton {
            button: Button::PuzzleMove {
                owner: view.owner.id.clone(),
                attempt: view.attempt,
                step: view.step,
                pit,
            },
            label: pit_label(pit, view.position.pit(view.solver, pit)),
            enabled: legal.contains(&pit),
        })
        .collect()
}

/// The answer to `/puzzle post`: when the chat's daily puzzle comes, or that it stopped.
pub fn daily_post_set_text(hour: Option<u8>, lang: Lang) -> String {
    match hour {
        Some(hour) => t!(lang, "puzzle-post-set", hour = format!("{hour:02}:00")),
        None => t!(lang, "puzzle-post-off"),
    }
}

/// Next puzzle, and today's puzzle.
pub fn next_buttons(lang: Lang) -> Vec<LabeledButton> {
    vec![
        LabeledButton {
            button: Button::PuzzleNext,
            label: t!(lang, "puzzle-button-next"),
            enabled: true,
        },
        LabeledButton {
            button: Button::PuzzleDaily,
            label: t!(lang, "puzzle-button-daily"),
            enabled: true,
        },
    ]
}

/// `/puzzle stats`.
pub fn puzzle_stats_text(stats: &PuzzleStats, lang: Lang) -> String {
    let p = &stats.player;
    let mut lines = vec![t!(lang, "puzzle-stats-title", name = user_name(&p.user))];
    lines.push(t!(lang, "puzzle-stats-rating", rating = p.rating.shown()));
    lines.push(t!(
        lang,
        "puzzle-stats-counts",
        solved = p.solved,
        failed = p.failed
    ));
    lines.push(t!(
        lang,
        "puzzle-stats-streak",
        count = stats.streak,
        best = p.best_streak
    ));
    lines.push(match stats.daily_today {
        Some(true) => t!(lang, "puzzle-stats-daily-solved"),
        Some(false) => t!(lang, "puzzle-stats-daily-failed"),
        None => t!(lang, "puzzle-stats-daily-open"),
    });
    if !stats.recent.is_empty() {
        let marks: String = stats
            .recent
            .iter()
            .map(|&ok| if ok { '✅' } else { '❌' })
            .collect();
        lines.push(t!(lang, "puzzle-stats-recent", marks = marks));
    }
    lines.push(t!(
        lang,
        "puzzle-stats-seen",
        seen = stats.seen,
        total = stats.collection
    ));
    lines.join("\n")
}

/// A puzzle leaderboard as text: places, names, ratings, solved of tried.
pub fn puzzle_leaderboard_text(board: &PuzzleBoard, lang: Lang) -> String {
    let title = match &board.scope {
        Scope::Platform(_) => t!(lang, "puzzle-board-platform"),
        Scope::Chat(_) => t!(lang, "puzzle-board-chat"),
    };
    let mut lines = vec![title];
    if board.top.is_empty() {
        lines.push(t!(lang, "puzzle-board-empty"));
    }
    let row = |(place, r): &(usize, crate::ratings::LeaderRow)| {
        t!(
            lang,
            "puzzle-board-row",
            place = *place,
            name = user_name(&r.user),
            rating = r.rating.shown(),
            solved = r.wins,
            tried = r.games
        )
    };
    lines.extend(board.top.iter().map(row));
    match &board.caller {
        Some(found) if !board.top.contains(found) => {
            lines.push(t!(lang, "puzzle-board-you", row = row(found)));
        }
        None if board.caller_provisional => lines.push(t!(lang, "puzzle-board-provisional")),
        _ => {}
    }
    lines.join("\n")
}

/// The daily post's board: the puzzle's position from the solver's side.
pub fn daily_board_view(daily: &DailyView, lang: Lang) -> Option<BoardView> {
    let position = crate::rules::Position::from_fen(&daily.puzzle.position).ok()?;
    let solver = position.to_move();
    let (me, other) = (t!(lang, "puzzle-you"), t!(lang, "puzzle-opponent"));
    let names = match solver {
        Side::White => [me, other],
        Side::Black => [other, me],
    };
    Some(BoardView {
        position,
        last_move: None,
        names,
        perspective: solver,
        lang,
        result_line: None,
        hint: None,
    })
}

/// The daily post of a chat: the day's puzzle, who solved it there.
pub fn daily_post_text(daily: &DailyView, lang: Lang) -> String {
    let mut lines = vec![t!(
        lang,
        "puzzle-daily-title",
        date = iso_date(daily.day as u64 * 86_400)
    )];
    lines.push(match daily.puzzle.solver() {
        Some(Side::Black) => t!(lang, "puzzle-daily-black"),
        _ => t!(lang, "puzzle-daily-white"),
    });
    let c = &daily.count;
    lines.push(t!(
        lang,
        "puzzle-daily-count",
        solved = c.solved,
        tried = c.tried
    ));
    if !c.names.is_empty() {
        // Names are their owners' words: on Discord `[x](https://evil)` must not become a
        // link in the post (issue 49, finding 7).
        let names: Vec<String> = c.names.iter().map(|n| name_on(daily.platform, n)).collect();
        lines.push(t!(lang, "puzzle-daily-names", names = names.join(", ")));
    }
    lines.join("\n")
}
