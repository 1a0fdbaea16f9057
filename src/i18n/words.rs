//! The game's own words, shared by every adapter and the boards.

use super::Lang;
use crate::model::{Level, UnknownLevel};
use crate::rules::Side;
use crate::t;

/// "White" / "Black" in `lang`.
pub fn side_name(lang: Lang, side: Side) -> String {
    match side {
        Side::White => t!(lang, "side-white"),
        Side::Black => t!(lang, "side-black"),
    }
}

/// A level's name as players read it.
pub fn level_name(lang: Lang, level: Level) -> String {
    match level {
        Level::Random => t!(lang, "level-random"),
        Level::Beginner => t!(lang, "level-beginner"),
        Level::Easy => t!(lang, "level-easy"),
        Level::Medium => t!(lang, "level-medium"),
        Level::Hard => t!(lang, "level-hard"),
        Level::Max => t!(lang, "level-max"),
    }
}

/// Names players type for a level besides the catalogs' own: the noun forms and the name a
/// level had before (`бастауыш`).
const LEVEL_ALIASES: [(&str, Level); 6] = [
    ("maximum", Level::Max),
    ("максимум", Level::Max),
    ("макс", Level::Max),
    ("начинающий", Level::Beginner),
    ("бастаушы", Level::Beginner),
    ("бастауыш", Level::Beginner),
];

/// A short form must have at least this many letters.
const LEVEL_MIN_PREFIX: usize = 3;

/// A level's name as typed, folded for comparison: lower case, `ё` as `е`, the Kazakh
/// letters as the Russian ones people type on a Russian keyboard (`қ` as `к`, `ң` as `н`,
/// `і` as `и`...), and `-`, `_` or runs of spaces as one space.
fn fold_level_name(s: &str) -> String {
    let folded: String = s
        .to_lowercase()
        .chars()
        .map(|c| match c {
            'ё' => 'е',
            'ә' => 'а',
            'ғ' => 'г',
            'қ' => 'к',
            'ң' => 'н',
            'ө' => 'о',
            'ұ' | 'ү' => 'у',
            'һ' => 'х',
            'і' => 'и',
            '-' | '_' => ' ',
            c => c,
        })
        .collect();
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The level a player named, in any language: a level's name in English, Russian or
/// Kazakh as the catalogs write it or one of [`LEVEL_ALIASES`], or the start of such a name
/// (three letters at least) when it fits one level only: `лёгкий`, `легкий`, `ЖЕҢІЛ`,
/// `жаңа бастаушы`, `макс`, `сред`, `med`.
pub fn parse_level(name: &str) -> Option<Level> {
    let typed = fold_level_name(name);
    if typed.is_empty() {
        return None;
    }
    let names: Vec<(String, Level)> = Level::ALL
        .into_iter()
        .flat_map(|level| {
            std::iter::once(level.name().to_string())
                .chain(Lang::ALL.map(|lang| level_name(lang, level)))
                .map(move |n| (n, level))
        })
        .chain(LEVEL_ALIASES.map(|(n, level)| (n.to_string(), level)))
        .map(|(n, level)| (fold_level_name(&n), level))
        .collect();
    if let Some((_, level)) = names.iter().find(|(n, _)| *n == typed) {
        return Some(*level);
    }
    if typed.chars().count() < LEVEL_MIN_PREFIX {
        return None;
    }
    let mut found = names
        .iter()
        .filter(|(n, _)| n.starts_with(&typed))
        .map(|(_, level)| *level);
    let first = found.next()?;
    found.all(|l| l == first).then_some(first)
}

/// A level by any name a player may type: English, Russian or Kazakh as the catalogs name
/// it, a short form (`макс`, `бастаушы`, `med`), whatever the case, `ё` or `е`, and Kazakh
/// letters typed as their Russian look-alikes (`кездейсок`): see [`parse_level`]. Here, not
/// beside `Level` in `model`, because the names come from the catalogs.
impl std::str::FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_level(s).ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

/// "5 balls", "5 шаров", "5 құмалақ": with the language's plural forms.
pub fn balls(lang: Lang, count: u32) -> String {
    t!(lang, "balls", count = count)
}

/// The language's own name, for language pickers: English, Русский, Қазақша.
pub fn lang_name(lang: Lang) -> String {
    t!(lang, "lang-name")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_in_every_language() {
        assert_eq!(side_name(Lang::Kk, Side::White), "Ақ");
        assert_eq!(level_name(Lang::Ru, Level::Hard), "сильный");
        assert_eq!(balls(Lang::Ru, 21), "21 шар");
        assert_eq!(lang_name(Lang::Kk), "Қазақша");
    }

    #[test]
    fn levels_are_named_in_every_language() {
        // Every catalog name, in any case, gives its level back.
        for lang in Lang::ALL {
            for level in Level::ALL {
                let name = level_name(lang, level);
                assert_eq!(parse_level(&name), Some(level), "{lang} {name}");
                assert_eq!(parse_level(&name.to_uppercase()), Some(level), "{name}");
                assert_eq!(parse_level(&format!("  {name} ")), Some(level), "{name}");
            }
        }
        for (typed, level) in [
            ("random", Level::Random),
            ("MAX", Level::Max),
            ("лёгкий", Level::Easy),
            ("легкий", Level::Easy),
            ("Средний", Level::Medium),
            ("максимальный", Level::Max),
            ("максимум", Level::Max),
            ("макс", Level::Max),
            ("новичок", Level::Beginner),
            ("жаңа бастаушы", Level::Beginner),
            ("жаңа-бастаушы", Level::Beginner),
            ("бастаушы", Level::Beginner),
            ("бастауыш", Level::Beginner),
            ("ең күшті", Level::Max),
            ("ЕҢ  КҮШТІ", Level::Max),
            ("күшті", Level::Hard),
            ("кушти", Level::Hard),
            ("кездейсок", Level::Random),
            ("жеңіл", Level::Easy),
            ("орташа", Level::Medium),
            // Short forms: the start of one level's names.
            ("med", Level::Medium),
            ("сред", Level::Medium),
            ("лёг", Level::Easy),
            ("сил", Level::Hard),
            ("жаңа", Level::Beginner),
            ("орта", Level::Medium),
        ] {
            assert_eq!(parse_level(typed), Some(level), "{typed:?}");
            assert_eq!(typed.parse::<Level>().ok(), Some(level), "{typed:?}");
        }
        for typed in ["", "  ", "ма", "grandmaster", "hardest", "тяжёлый", "7"] {
            assert_eq!(parse_level(typed), None, "{typed:?}");
        }
        // The refusal still lists the names to use.
        let err = "grandmaster".parse::<Level>().unwrap_err().to_string();
        assert!(
            err.contains("random, beginner, easy, medium, hard or max"),
            "{err}"
        );
    }

    #[test]
    fn level_names_are_unambiguous() {
        // No name of one level is a name of another, once folded.
        for a in Level::ALL {
            for b in Level::ALL.into_iter().filter(|&b| b != a) {
                for la in Lang::ALL {
                    for lb in Lang::ALL {
                        let (x, y) = (level_name(la, a), level_name(lb, b));
                        assert_ne!(fold_level_name(&x), fold_level_name(&y), "{x} / {y}");
                    }
                }
            }
        }
    }
}
