//! A game review as every adapter shows it (docs/review.md): the summary in words and the
//! evaluation graph, in the reader's language, with the players named as on the board.

use crate::i18n::Lang;
use crate::manager::{GameReview, GameView};
use crate::platform::present;
use crate::rules::{RecordResult, Side};

/// What a chat gets for a review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewPost {
    /// The summary: title, then each player's accuracy and largest mistakes.
    pub text: String,
    /// The evaluation graph; `None` if it could not be drawn (the text still goes out).
    pub png: Option<Vec<u8>>,
}

/// The players as the board names them (the bot with its level).
pub fn review_names(view: &GameView, lang: Lang) -> [String; 2] {
    Side::BOTH.map(|side| present::player_name(view.player(side), lang))
}

/// The result in words: who won and why, as under the final board; an aborted game (which
/// has no result) says so too.
pub fn review_result(view: &GameView, lang: Lang) -> String {
    present::result_text(view, lang)
        .unwrap_or_else(|| crate::review::result_words(lang, RecordResult::Unknown))
}

/// The summary and the graph of `reviewed`, in `lang`.
pub fn review_post(reviewed: &GameReview, lang: Lang) -> ReviewPost {
    let view = &reviewed.game;
    let names = review_names(view, lang);
    let result = review_result(view, lang);
    let text = crate::review::summary_text(&reviewed.review, &names, &result, lang);
    let graph = crate::render::GraphView::new(&reviewed.review, names, result, lang);
    let png = match crate::render::review_graph(&graph) {
        Ok(png) => Some(png),
        Err(error) => {
            tracing::error!(game = view.id, %error, "review graph failed; sending the text only");
            None
        }
    };
    ReviewPost { text, png }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Level;
    use crate::manager::{ChatRef, FinishReason, GameStatus, Platform, Player, UserRef};
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
        }
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
}
