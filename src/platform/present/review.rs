//! A game review as every adapter shows it (docs/review.md): the summary in words and the
//! evaluation graph, in the reader's language, with the players named as on the board.

use crate::i18n::Lang;
use crate::manager::buttons::Button;
use crate::manager::explorer::BookLine;
use crate::manager::{GameHint, GameReview, GameView};
use crate::platform::present::{self, LabeledButton};
use crate::render::{BoardView, MoveHint};
use crate::rules::{RecordResult, Side};
use crate::t;
use std::sync::Arc;

/// What a chat gets for a review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewPost {
    /// The summary: title, then each player's accuracy and largest mistakes.
    pub text: String,
    /// The evaluation graph; `None` if it could not be drawn (the text still goes out).
    pub png: Option<Arc<Vec<u8>>>,
}

/// The players as the board image names them (the bot with its level; no markup).
pub fn review_names(view: &GameView, lang: Lang) -> [String; 2] {
    Side::BOTH.map(|side| present::plain_player_name(view.player(side), lang))
}

/// The result in words: who won and why, as under the final board; an aborted game (which
/// has no result) says so too.
pub fn review_result(view: &GameView, lang: Lang) -> String {
    present::result_text(view, lang)
        .unwrap_or_else(|| crate::review::result_words(lang, RecordResult::Unknown))
}

/// The summary and the graph of `reviewed`, in `lang`. The graph is drawn once per language
/// while the review is kept (`GameReview::drawings`); call it through `render::draw`.
pub fn review_post(reviewed: &GameReview, lang: Lang) -> ReviewPost {
    let view = &reviewed.game;
    // The text names players as texts do (escaped on Discord); the graph is an image.
    let text_names = Side::BOTH.map(|side| present::player_name(view.player(side), lang));
    let result = review_result(view, lang);
    let mut text = crate::review::summary_text(&reviewed.review, &text_names, &result, lang);
    if let Some(book) = reviewed.book.as_ref().and_then(|b| book_line_text(b, lang)) {
        text = format!("{text}\n{book}");
    }
    if let Some(page) = super::link::page_line(view.page_url.as_deref(), lang) {
        text = format!("{text}\n{page}");
    }
    let name = graph_name(lang);
    let png = match reviewed.drawings.get(&name) {
        Some(png) => Some(png),
        None => draw_graph(reviewed, result, lang).map(|png| reviewed.drawings.keep(&name, png)),
    };
    ReviewPost { text, png }
}

/// How long a game followed the explorer's games and its first new move, in words (the
/// review's line and the game page's): `None` for a game without moves.
pub fn book_line_text(book: &BookLine, lang: Lang) -> Option<String> {
    if book.moves.is_empty() {
        return None;
    }
    let plies = book.followed;
    Some(match book.novelty {
        Some((ply, pit)) => {
            let number = ply / 2 + 1;
            let moveno = match ply % 2 {
                0 => format!("{number}."),
                _ => format!("{number}..."),
            };
            let novelty = t!(lang, "review-book-move", moveno = moveno, pit = pit);
            t!(
                lang,
                "review-book-novelty",
                plies = plies,
                novelty = novelty
            )
        }
        // Every move had been played, or the explorer counts no deeper.
        None if plies >= book.moves.len() => t!(lang, "review-book-known", plies = plies),
        None => t!(lang, "review-book-deeper", plies = plies),
    })
}

/// The name a review's graph in `lang` is kept under among its drawings.
pub fn graph_name(lang: Lang) -> String {
    format!("graph:{}", lang.code())
}

/// The graph of `reviewed` in `lang`, drawn now; `None` (logged) if it could not be.
fn draw_graph(reviewed: &GameReview, result: String, lang: Lang) -> Option<Vec<u8>> {
    let view = &reviewed.game;
    let plain_result = present::result_text_plain(view, lang).unwrap_or(result);
    let graph = crate::render::GraphView::new(
        &reviewed.review,
        review_names(view, lang),
        plain_result,
        lang,
    );
    match crate::render::review_graph(&graph) {
        Ok(png) => Some(png),
        Err(error) => {
            tracing::error!(game = view.id, %error, "review graph failed; sending the text only");
            None
        }
    }
}

/// A button per marked mistake, in the graph's numbering: each shows the board before it.
pub fn mistake_buttons(reviewed: &GameReview, lang: Lang) -> Vec<LabeledButton> {
    reviewed
        .review
        .marked_mistakes()
        .into_iter()
        .filter_map(|m| {
            let mark = u8::try_from(m.mark).ok()?;
            Some(LabeledButton {
                button: Button::ReviewBoard {
                    game: reviewed.game.id.clone(),
                    mark,
                },
                label: t!(lang, "review-button-mistake", mark = mark),
                enabled: true,
            })
        })
        .collect()
}

/// The board before marked mistake `mark`, seen by the player who made it, with the move
/// played and the better one marked: its caption and its PNG. `None` for a mark the review
/// does not have (an old or forged button).
pub fn mistake_board(reviewed: &GameReview, mark: u8, lang: Lang) -> Option<(String, Vec<u8>)> {
    let marked = reviewed
        .review
        .marked_mistakes()
        .into_iter()
        .find(|m| m.mark == usize::from(mark))?;
    let ply = reviewed.review.plies.get(marked.index)?;
    let caption = crate::review::mistake_caption(lang, marked.mark, ply);
    let view = BoardView {
        position: ply.position_before,
        last_move: None,
        names: review_names(&reviewed.game, lang),
        perspective: ply.side(),
        lang,
        result_line: Some(caption.clone()),
        hint: Some(MoveHint {
            side: ply.side(),
            played: Some(ply.report.pit),
            better: ply.best_pit,
        }),
    };
    match crate::render::png(&view) {
        Ok(png) => Some((caption, png)),
        Err(error) => {
            tracing::error!(game = reviewed.game.id, %error, "mistake board failed");
            None
        }
    }
}

/// A hint as every adapter shows it: what to play and how many hints are left.
pub fn hint_caption(hint: &GameHint, lang: Lang) -> String {
    let what = t!(
        lang,
        "hint-caption",
        pit = hint.pit,
        move = hint.text.as_str()
    );
    format!("{what}\n{}", t!(lang, "hint-left", left = hint.left))
}

/// The hint's caption and board (`hint_board`), drawn off the async workers so other chats
/// go on meanwhile; the caption alone if drawing fails. What both adapters post.
pub async fn hint_drawn(hint: &GameHint, lang: Lang) -> (String, Option<Vec<u8>>) {
    let drawn = crate::render::draw({
        let hint = hint.clone();
        move || hint_board(&hint, lang)
    })
    .await;
    drawn.unwrap_or_else(|error| {
        tracing::error!(game = hint.game.id, %error, "hint board failed");
        (hint_caption(hint, lang), None)
    })
}

/// The board of a hint, from the side of the player it is for, with the engine's move
/// marked, and its caption; the PNG is `None` if it could not be drawn (the text still goes
/// out).
pub fn hint_board(hint: &GameHint, lang: Lang) -> (String, Option<Vec<u8>>) {
    let caption = hint_caption(hint, lang);
    let view = &hint.game;
    let side = view.position.to_move();
    let board = BoardView {
        position: view.position,
        last_move: view.last_move,
        names: review_names(view, lang),
        perspective: side,
        lang,
        result_line: None,
        hint: Some(MoveHint {
            side,
            played: None,
            better: hint.pit,
        }),
    };
    match crate::render::png(&board) {
        Ok(png) => (caption, Some(png)),
        Err(error) => {
            tracing::error!(game = view.id, %error, "hint board failed");
            (caption, None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manager::{FinishReason, GameStatus, Player};
    use crate::model::{ChatRef, Level, Platform, UserRef};
    use crate::review::{review_game, ReviewOptions};
    use crate::rules::{Position, Variant};
    use std::sync::Arc;

    fn reviewed() -> GameReview {
        let pits = [7, 9, 6, 8, 5, 1];
        let mut game = GameView::sample(
            "abc123",
            ChatRef::new(Platform::Telegram, "1"),
            [
                Player::Human(UserRef::new(Platform::Telegram, "1", "Asel")),
                Player::Bot(Level::Easy),
            ],
        );
        game.status = GameStatus::Finished {
            winner: Some(Side::Black),
            reason: FinishReason::Resigned(Side::White),
        };
        game.ply = pits.len() as u16;
        let start = Position::start(Variant::STANDARD);
        let review = review_game(start, &pits, ReviewOptions { nodes: 2_000 }).expect("review");
        GameReview {
            game,
            review: Arc::new(review),
            drawings: Arc::default(),
            book: Some(BookLine {
                variant: Variant::STANDARD,
                moves: pits.to_vec(),
                followed: 3,
                novelty: Some((3, 8)),
            }),
        }
    }

    #[test]
    fn the_review_says_how_long_the_game_followed_the_explorer_and_its_novelty() {
        let r = reviewed();
        let text = review_post(&r, Lang::En).text;
        assert!(
            text.contains(
                "The game followed the explorer's games for 3 half-moves; the novelty was move 2... (pit 8)."
            ),
            "{text}"
        );
        let book = |followed, novelty| BookLine {
            variant: Variant::STANDARD,
            moves: vec![7, 9, 6, 8],
            followed,
            novelty,
        };
        for lang in Lang::ALL {
            let first = book_line_text(&book(0, Some((0, 7))), lang).unwrap();
            let known = book_line_text(&book(4, None), lang).unwrap();
            let deeper = book_line_text(
                &BookLine {
                    moves: vec![1; 40],
                    ..book(30, None)
                },
                lang,
            )
            .unwrap();
            assert!(first.contains("1. "), "{lang:?}: {first}");
            assert!(
                known.contains('4') && deeper.contains("30"),
                "{known} / {deeper}"
            );
            assert_ne!(known, deeper);
        }
        assert_eq!(
            book_line_text(
                &BookLine {
                    moves: vec![],
                    ..book(0, None)
                },
                Lang::En
            ),
            None
        );
        let ru = book_line_text(&book(2, Some((2, 5))), Lang::Ru).unwrap();
        assert!(ru.contains("2. ") && ru.contains('5'), "{ru}");
    }

    #[test]
    fn a_kept_reviews_graph_is_drawn_once_per_language_and_reused() {
        let r = reviewed();
        let first = review_post(&r, Lang::En).png.expect("drawn");
        assert_eq!(r.drawings.len(), 1);
        // Asked again (by anyone holding the kept review): the same picture, not a new one.
        let again = review_post(&r, Lang::En).png.expect("kept");
        assert!(Arc::ptr_eq(&first, &again));
        // A picture planted under the graph's name is what is sent: nothing is redrawn.
        let other = reviewed();
        other.drawings.keep(&graph_name(Lang::Ru), b"kept".to_vec());
        let post = review_post(&other, Lang::Ru);
        assert_eq!(post.png.as_deref().map(Vec::as_slice), Some(&b"kept"[..]));
        review_post(&r, Lang::Kk);
        assert_eq!(r.drawings.len(), 2, "one graph per language");
    }

    #[test]
    fn the_post_ends_with_the_games_page_when_the_pages_are_served() {
        let mut r = reviewed();
        assert!(!review_post(&r, Lang::En).text.contains("Game page"));
        let url = "https://pages.example.org/g/abc123-0123456789abcdef0123";
        r.game.page_url = Some(url.into());
        let text = review_post(&r, Lang::Ru).text;
        assert!(
            text.ends_with(&format!("\n🌐 Страница партии: {url}")),
            "{text}"
        );
    }

    #[test]
    fn the_post_names_the_players_as_the_board_does_in_every_language() {
        let r = reviewed();
        for lang in Lang::ALL {
            let post = review_post(&r, lang);
            let bot = present::player_name(&Player::Bot(Level::Easy), lang);
            assert!(post.text.contains("Asel"), "{lang}: {}", post.text);
            assert!(post.text.contains(&bot), "{lang}: {}", post.text);
            let result = present::result_text(&r.game, lang).expect("over");
            assert!(post.text.contains(&result), "{lang}: {}", post.text);
            let png = post.png.expect("the graph draws");
            assert!(png.starts_with(b"\x89PNG"));
        }
        assert_ne!(
            review_post(&r, Lang::Ru).text,
            review_post(&r, Lang::Kk).text
        );
    }

    #[test]
    fn every_marked_mistake_has_a_button_and_a_board_marking_both_moves() {
        let r = reviewed();
        let marks = r.review.marked_mistakes();
        assert!(!marks.is_empty(), "the sample game has a mistake");
        let buttons = mistake_buttons(&r, Lang::En);
        assert_eq!(buttons.len(), marks.len());
        for (b, m) in buttons.iter().zip(&marks) {
            let mark = m.mark as u8;
            let game = "abc123".to_string();
            assert_eq!(b.button, Button::ReviewBoard { game, mark });
            assert!(b.label.chars().count() <= present::MAX_BUTTON_LABEL);
        }
        let first = &r.review.plies[marks[0].index];
        let (caption, png) = mistake_board(&r, 1, Lang::En).expect("the first mistake");
        assert!(caption.starts_with("Before mistake 1:"), "{caption}");
        assert!(caption.contains(&first.played) && caption.contains(&first.best));
        assert!(png.starts_with(b"\x89PNG"));
        // The marks change the picture: the same position without them differs.
        let plain = BoardView {
            position: first.position_before,
            last_move: None,
            names: review_names(&r.game, Lang::En),
            perspective: first.side(),
            lang: Lang::En,
            result_line: Some(caption),
            hint: None,
        };
        assert_ne!(crate::render::png(&plain).expect("png"), png);
        assert_eq!(mistake_board(&r, 7, Lang::En), None);
    }
}

#[cfg(test)]
mod hint_tests {
    use super::*;
    use crate::manager::Player;
    use crate::model::{ChatRef, Level, Platform, UserRef};

    fn hint(left: u8) -> GameHint {
        let mut game = GameView::sample(
            "abc123",
            ChatRef::new(Platform::Telegram, "1"),
            [
                Player::Bot(Level::Easy),
                Player::Human(UserRef::new(Platform::Telegram, "1", "Asel")),
            ],
        );
        game.last_move = game.position.play(7).ok();
        game.ply = 1;
        game.hints = crate::manager::MAX_HINTS - left;
        GameHint {
            game,
            pit: 9,
            text: "98X".into(),
            left,
        }
    }

    #[test]
    fn a_hint_names_the_move_and_marks_its_pit_for_the_player_to_move() {
        let h = hint(2);
        let (caption, png) = hint_board(&h, Lang::En);
        assert_eq!(
            caption,
            "Hint: play pit 9 (98X); it is marked on the board.\n\
             You have 2 hints left in this game."
        );
        let png = png.expect("the board draws");
        assert!(png.starts_with(b"\x89PNG"));
        // The mark changes the picture: the same board without it differs.
        let plain = BoardView {
            position: h.game.position,
            last_move: h.game.last_move,
            names: review_names(&h.game, Lang::En),
            perspective: Side::Black,
            lang: Lang::En,
            result_line: None,
            hint: None,
        };
        assert_ne!(crate::render::png(&plain).expect("png"), png);
        let (ru, _) = hint_board(&hint(0), Lang::Ru);
        assert!(
            ru.starts_with("Подсказка: сделайте ход из лунки 9 (98X)"),
            "{ru}"
        );
        assert!(
            ru.ends_with("Это была последняя подсказка в этой партии."),
            "{ru}"
        );
        let (kk, _) = hint_board(&hint(1), Lang::Kk);
        assert!(kk.starts_with("Кеңес: 9-отаудан жүріңіз (98X)"), "{kk}");
    }
}
