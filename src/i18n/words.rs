//! The game's own words, shared by every adapter and the boards.

use super::Lang;
use crate::engine::Level;
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
}
