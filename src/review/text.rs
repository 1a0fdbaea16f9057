//! A review in words, in the reader's language: the short text a chat gets with the graph.

use super::{PlyReview, Review};
use crate::i18n::{words::side_name, Lang};
use crate::rules::{RecordResult, Side};
use crate::t;
use std::fmt::Write;

/// "White won", "Draw", ... for a result as records write it.
pub fn result_words(lang: Lang, result: RecordResult) -> String {
    match result {
        RecordResult::WhiteWins => t!(lang, "review-result-white"),
        RecordResult::BlackWins => t!(lang, "review-result-black"),
        RecordResult::Draw => t!(lang, "review-result-draw"),
        RecordResult::Unknown => t!(lang, "review-result-unknown"),
    }
}

/// The summary: a title, then per player the accuracy and the largest mistakes, each with
/// its mark on the graph. `names` are White's and Black's; an empty one (a record without
/// names) is left out, and the side alone names that player.
pub fn summary_text(review: &Review, names: &[String; 2], result: &str, lang: Lang) -> String {
    let named = |side: Side| Some(names[side.index()].trim()).filter(|n| !n.is_empty());
    let shown = |side: Side| named(side).map_or_else(|| side_name(lang, side), str::to_string);
    let mut out = t!(
        lang,
        "review-title",
        white = shown(Side::White),
        black = shown(Side::Black),
        result = result
    );
    out.push('\n');
    let marks = review.marked_mistakes();
    for side in Side::BOTH {
        let accuracy = review
            .accuracy(side)
            .map_or_else(|| "–".to_string(), |a| decimal(lang, a));
        out.push('\n');
        out.push_str(&match named(side) {
            Some(name) => t!(
                lang,
                "review-accuracy",
                side = side_name(lang, side),
                name = name,
                accuracy = accuracy
            ),
            None => t!(
                lang,
                "review-accuracy-side",
                side = side_name(lang, side),
                accuracy = accuracy
            ),
        });
        out.push('\n');
        let mistakes = review.largest_mistakes(side);
        if mistakes.is_empty() {
            let _ = writeln!(out, "  {}", t!(lang, "review-no-mistakes"));
        }
        for p in mistakes {
            let mark = marks
                .iter()
                .find(|m| m.index + 1 == p.ply)
                .map_or(0, |m| m.mark);
            let _ = writeln!(out, "  {}", mistake_line(lang, mark, p));
        }
    }
    out
}

/// "2) 14... 66 lost 20 balls; 98 was better".
pub fn mistake_line(lang: Lang, mark: usize, p: &PlyReview) -> String {
    t!(
        lang,
        "review-mistake",
        mark = mark,
        moveno = move_number(p),
        move = p.played.as_str(),
        best = p.best.as_str(),
        cost = t!(lang, "balls", count = whole_balls(p.loss))
    )
}

/// The caption of the board before a marked mistake.
pub fn mistake_caption(lang: Lang, mark: usize, p: &PlyReview) -> String {
    t!(
        lang,
        "review-board-caption",
        mark = mark,
        moveno = move_number(p),
        played = p.played.as_str(),
        best = p.best.as_str()
    )
}

/// `14.` for White's half of move 14, `14...` for Black's, as records number them.
pub fn move_number(p: &PlyReview) -> String {
    match p.side() {
        Side::White => format!("{}.", p.move_number),
        Side::Black => format!("{}...", p.move_number),
    }
}

/// A loss in whole balls, at least one (a mistake costs at least a ball).
fn whole_balls(loss: i32) -> i64 {
    ((loss as i64 + 50) / 100).max(1)
}

/// One decimal, with the language's decimal sign (`87.5`, `87,5`).
fn decimal(lang: Lang, value: f64) -> String {
    let text = format!("{value:.1}");
    match lang {
        Lang::En => text,
        Lang::Ru | Lang::Kk => text.replace('.', ","),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_follow_the_language() {
        assert_eq!(decimal(Lang::En, 87.54), "87.5");
        assert_eq!(decimal(Lang::Ru, 87.54), "87,5");
        assert_eq!(decimal(Lang::Kk, 100.0), "100,0");
        assert_eq!(whole_balls(149), 1);
        assert_eq!(whole_balls(2050), 21);
    }

    #[test]
    fn a_record_without_names_is_named_by_its_sides_in_the_readers_language() {
        let start = crate::rules::Position::default();
        let options = super::super::ReviewOptions { nodes: 2_000 };
        let review = super::super::review_game(start, &[7, 9, 6, 8], options).expect("review");
        let none = [String::new(), " ".to_string()];
        let ru = summary_text(&review, &none, "Ничья", Lang::Ru);
        assert!(
            ru.starts_with("Разбор партии: Белые – Чёрные. Ничья"),
            "{ru}"
        );
        assert!(ru.contains("\nБелые: точность "), "{ru}");
        assert!(ru.contains("\nЧёрные: точность "), "{ru}");
        assert!(
            !ru.contains("Белые, Белые") && !ru.contains("White"),
            "{ru}"
        );
        let named = ["Asel".to_string(), "Dana".to_string()];
        let en = summary_text(&review, &named, "Draw", Lang::En);
        assert!(en.contains("\nWhite, Asel: accuracy "), "{en}");
    }
}
