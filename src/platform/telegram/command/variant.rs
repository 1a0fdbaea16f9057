//! The rules variant typed with a command that starts a game or a tournament: `5 balls`,
//! `no tuzdek`, `ninth pit` and their Russian and Kazakh words (`по 5 шаров`, `без
//! туздыков`, `девятая лунка`; `5 құмалақтан`, `тұздықсыз`, `тоғызыншы отау`). Any language
//! is understood in any chat, and the words may stand anywhere among the others.

use crate::rules::{TuzdekRule, Variant, VariantError};

/// Why the variant words of a command cannot be read. Each has a localized answer
/// (`CommandError::text`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantWordsError {
    /// A starting count no variant has (`4 balls`), the words as typed.
    #[error("{0:?} is not a starting count of a variant")]
    Balls(String),
    /// A ball, tuzdek or ninth-pit word that says nothing clear (`balls` without a count,
    /// `tuzdek` alone).
    #[error("{0:?} names no variant")]
    Unclear(String),
    /// Two terms that cannot both hold (`5 balls 3 balls`, `no tuzdek ninth pit`).
    #[error("{0:?} and {1:?} contradict each other")]
    Clash(String, String),
}

/// The words of the starting count, after the number: `5 balls`, `5 stones`, `5 шаров`,
/// `5 камней` (`камешков`), `5 кумалаков`, `5 құмалақ`.
const BALL_STEMS: [&str; 8] = [
    "ball",
    "stone",
    "шар",
    "камн",
    "камеш",
    "камуш",
    "кумалак",
    "құмалақ",
];
/// Words before the number that say "each" (`по 5 шаров`, `әр отауда 5 құмалақтан`).
const BALL_PREFIXES: [&[&str]; 2] = [&["по"], &["әр", "отауда"]];
/// Words after the ball word that say "in each pit".
const BALL_SUFFIXES: [&[&str]; 5] = [
    &["per", "pit"],
    &["in", "each", "pit"],
    &["each"],
    &["в", "лунке"],
    &["в", "каждой", "лунке"],
];
/// The tuzdek's name (`tuzdek`, `tuzdyk`, `туздык`, `тұздық` and their endings).
const TUZDEK_STEMS: [&str; 3] = ["tuzd", "тузд", "тұзд"];
/// "without": `no tuzdek`, `без туздыков`.
const WITHOUT_WORDS: [&str; 3] = ["no", "without", "без"];
/// One Kazakh word for "without tuzdeks".
const TUZDEKLESS_STEM: &str = "тұздықсыз";
/// The variant's words in records and `toguz play --variant` (`5 no-tuzdek`).
const RECORD_OFF: [&str; 2] = ["no-tuzdek", "no-tuzdeks"];
const RECORD_NINTH: &str = "ninth-tuzdek";
/// "ninth" and "pit": `ninth pit`, `девятая лунка`, `тоғызыншы отау`, or `pit 9`; with
/// the number as a figure, `9th pit`, `9-я лунка` (`в 9-й лунке`), `9-шы отау`, and the
/// one Kazakh word `9-отау`.
const NINTH_STEMS: [&str; 4] = ["ninth", "9th", "девят", "тоғызыншы"];
/// A figure 9 with an ending (`9-я`, `9-й`, `9-ой`, `9-шы`), or before a pit word in one
/// word (`9-отау`).
const NINTH_FIGURE: &str = "9-";
const PIT_STEMS: [&str; 3] = ["pit", "лунк", "отау"];
/// A preposition before the ninth pit (`tuzdek on the ninth pit`, `в девятой лунке`).
const ON_WORDS: [&str; 4] = ["on", "in", "the", "в"];

/// One term of the variant: which part it sets, and the words it was typed with.
enum Term {
    Balls(u8),
    Tuzdek(TuzdekRule),
}

fn starts_with_any(word: &str, stems: &[&str]) -> bool {
    stems.iter().any(|s| word.starts_with(s))
}

/// Whether the lowercased `words` at `at` read `phrase`.
fn reads(words: &[String], at: usize, phrase: &[&str]) -> bool {
    words
        .get(at..at + phrase.len())
        .is_some_and(|w| w == phrase)
}

/// The terms in `lower` (the words lowercased) and the span of words each took, in order.
/// A word that belongs to a variant but says nothing clear is an error.
fn terms(lower: &[String], shown: &[&str]) -> Result<Vec<(Term, usize, usize)>, VariantWordsError> {
    let typed = |from: usize, to: usize| shown[from..to].join(" ");
    let mut found = Vec::new();
    let mut i = 0;
    while i < lower.len() {
        let word = lower[i].as_str();
        if starts_with_any(word, &BALL_STEMS) {
            let count = i.checked_sub(1).filter(|at| {
                found.iter().all(|&(_, _, end)| end <= *at)
                    && lower[*at].chars().all(|c| c.is_ascii_digit())
            });
            let Some(at) = count else {
                return Err(VariantWordsError::Unclear(typed(i, i + 1)));
            };
            let mut from = at;
            for prefix in BALL_PREFIXES {
                let free = found.iter().all(|&(_, _, end)| end + prefix.len() <= from);
                if free && from >= prefix.len() && reads(lower, from - prefix.len(), prefix) {
                    from -= prefix.len();
                    break;
                }
            }
            let mut to = i + 1;
            if let Some(suffix) = BALL_SUFFIXES.iter().find(|s| reads(lower, to, s)) {
                to += suffix.len();
            }
            let balls = lower[at]
                .parse::<u8>()
                .ok()
                .filter(|n| Variant::BALLS_PER_PIT.contains(n))
                .ok_or_else(|| VariantWordsError::Balls(typed(at, i + 1)))?;
            found.push((Term::Balls(balls), from, to));
            i = to;
        } else if RECORD_OFF.contains(&word) || word == RECORD_NINTH {
            let rule = match word == RECORD_NINTH {
                true => TuzdekRule::NinthAllowed,
                false => TuzdekRule::Off,
            };
            found.push((Term::Tuzdek(rule), i, i + 1));
            i += 1;
        } else if word.starts_with(TUZDEKLESS_STEM)
            || (WITHOUT_WORDS.contains(&word)
                && lower
                    .get(i + 1)
                    .is_some_and(|w| starts_with_any(w, &TUZDEK_STEMS)))
        {
            let to = if word.starts_with(TUZDEKLESS_STEM) {
                i + 1
            } else {
                i + 2
            };
            found.push((Term::Tuzdek(TuzdekRule::Off), i, to));
            i = to;
        } else if let Some(to) = ninth_pit(lower, i) {
            // A tuzdek word and prepositions just before it belong to it (`tuzdek on the
            // ninth pit`, `туздык в девятой лунке`).
            let free = found.last().map_or(0, |&(_, _, end)| end);
            let mut from = i;
            while from > free && ON_WORDS.contains(&lower[from - 1].as_str()) {
                from -= 1;
            }
            if from > free && starts_with_any(&lower[from - 1], &TUZDEK_STEMS) {
                from -= 1;
            }
            found.push((Term::Tuzdek(TuzdekRule::NinthAllowed), from, to));
            i = to;
        } else if starts_with_any(word, &TUZDEK_STEMS) && ninth_ahead(lower, i + 1) {
            // Taken with the ninth pit it names.
            i += 1;
        } else if starts_with_any(word, &TUZDEK_STEMS) || is_ninth(word) {
            return Err(VariantWordsError::Unclear(typed(i, i + 1)));
        } else {
            i += 1;
        }
    }
    Ok(found)
}

/// The ninth pit named from `at` (`ninth pit` or `pit 9`), with a tuzdek word after it
/// taken along (`тоғызыншы отаудан тұздық`): where its words end.
fn ninth_pit(lower: &[String], at: usize) -> Option<usize> {
    let word = lower[at].as_str();
    let one_word = word
        .strip_prefix(NINTH_FIGURE)
        .is_some_and(|rest| starts_with_any(rest, &PIT_STEMS));
    let end = if one_word {
        at + 1
    } else {
        let next = lower.get(at + 1)?;
        let named = (is_ninth(word) && starts_with_any(next, &PIT_STEMS))
            || (starts_with_any(word, &PIT_STEMS) && next == "9");
        if !named {
            return None;
        }
        at + 2
    };
    let after = lower
        .get(end)
        .is_some_and(|w| starts_with_any(w, &TUZDEK_STEMS));
    Some(end + usize::from(after))
}

/// Whether `word` says "ninth" (`ninth`, `девятой`, `9-я`).
fn is_ninth(word: &str) -> bool {
    starts_with_any(word, &NINTH_STEMS) || word.starts_with(NINTH_FIGURE)
}

/// Whether a ninth pit is named from `at`, after any prepositions.
fn ninth_ahead(lower: &[String], mut at: usize) -> bool {
    while lower
        .get(at)
        .is_some_and(|w| ON_WORDS.contains(&w.as_str()))
    {
        at += 1;
    }
    at < lower.len() && ninth_pit(lower, at).is_some()
}

/// Takes the variant's words out of `args`: the other words in their order, and the
/// variant (the standard game when none is named). Words that start to name a variant
/// but do not, or name two different ones, are an error.
pub fn take(args: &str) -> Result<(String, Variant), VariantWordsError> {
    let shown: Vec<&str> = args.split_whitespace().collect();
    let lower: Vec<String> = shown.iter().map(|w| w.to_lowercase()).collect();
    let found = terms(&lower, &shown)?;
    let mut balls: Option<(u8, String)> = None;
    let mut tuzdek: Option<(TuzdekRule, String)> = None;
    let mut taken = vec![false; shown.len()];
    for (term, from, to) in &found {
        let typed = shown[*from..*to].join(" ");
        taken[*from..*to].iter_mut().for_each(|t| *t = true);
        match *term {
            Term::Balls(n) => settle(&mut balls, n, typed)?,
            Term::Tuzdek(rule) => settle(&mut tuzdek, rule, typed)?,
        }
    }
    let rest: Vec<&str> = shown
        .iter()
        .zip(&taken)
        .filter(|(_, taken)| !**taken)
        .map(|(w, _)| *w)
        .collect();
    let balls = balls.map_or(Variant::STANDARD.balls_per_pit(), |(n, _)| n);
    let tuzdek = tuzdek.map_or(TuzdekRule::Standard, |(rule, _)| rule);
    let variant = Variant::new(balls, tuzdek)
        .map_err(|VariantError::BallsPerPit(n)| VariantWordsError::Balls(n.to_string()))?;
    Ok((rest.join(" "), variant))
}

/// Records one part of the variant; the same part named again differently is a clash.
fn settle<T: PartialEq>(
    part: &mut Option<(T, String)>,
    value: T,
    typed: String,
) -> Result<(), VariantWordsError> {
    match part {
        Some((before, first)) if *before != value => {
            Err(VariantWordsError::Clash(first.clone(), typed))
        }
        Some(_) => Ok(()),
        None => {
            *part = Some((value, typed));
            Ok(())
        }
    }
}

#[cfg(test)]
#[path = "variant_tests.rs"]
mod tests;
