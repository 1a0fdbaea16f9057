//! The message catalog: every word the bot shows, in English, Russian and Kazakh.
//!
//! Catalogs are Fluent files under `locales/<lang>/<area>.ftl`, embedded in the binary. Code
//! names a message by its key, always as a string literal (a test checks that every key is
//! used and that every language has every English key):
//!
//! ```
//! use toguz::{i18n::Lang, t};
//! assert_eq!(t!(Lang::Ru, "balls", count = 5), "5 шаров");
//! ```

pub mod words;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};
use std::sync::LazyLock;

pub use fluent_bundle::FluentValue;

/// A language the bot speaks.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Ru,
    Kk,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Ru, Lang::Kk];

    /// The ISO 639-1 code: `en`, `ru`, `kk`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
            Lang::Kk => "kk",
        }
    }

    /// The language of a platform locale (`ru`, `ru-RU`, `kk_KZ`, `en-GB`), if we speak it.
    pub fn from_code(code: &str) -> Option<Lang> {
        let primary = code
            .split(['-', '_'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "ru" => Some(Lang::Ru),
            "kk" | "kz" => Some(Lang::Kk),
            _ => None,
        }
    }

    /// The language for a platform locale, English when unknown or absent.
    pub fn from_locale(code: Option<&str>) -> Lang {
        code.and_then(Lang::from_code).unwrap_or_default()
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl std::str::FromStr for Lang {
    type Err = UnknownLang;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Lang::from_code(s).ok_or_else(|| UnknownLang(s.to_string()))
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown language {0:?} (use en, ru or kk)")]
pub struct UnknownLang(pub String);

/// Lists one language's catalog files; add an area here and in all three languages.
macro_rules! catalog_files {
    ($lang:literal) => {
        [
            (
                "common",
                include_str!(concat!("../../locales/", $lang, "/common.ftl")),
            ),
            (
                "board",
                include_str!(concat!("../../locales/", $lang, "/board.ftl")),
            ),
            (
                "manager",
                include_str!(concat!("../../locales/", $lang, "/manager.ftl")),
            ),
            (
                "history",
                include_str!(concat!("../../locales/", $lang, "/history.ftl")),
            ),
            (
                "console",
                include_str!(concat!("../../locales/", $lang, "/console.ftl")),
            ),
            (
                "telegram",
                include_str!(concat!("../../locales/", $lang, "/telegram.ftl")),
            ),
            (
                "discord",
                include_str!(concat!("../../locales/", $lang, "/discord.ftl")),
            ),
            (
                "review",
                include_str!(concat!("../../locales/", $lang, "/review.ftl")),
            ),
            (
                "tournament",
                include_str!(concat!("../../locales/", $lang, "/tournament.ftl")),
            ),
            (
                "puzzle",
                include_str!(concat!("../../locales/", $lang, "/puzzle.ftl")),
            ),
            (
                "web",
                include_str!(concat!("../../locales/", $lang, "/web.ftl")),
            ),
            (
                "explorer",
                include_str!(concat!("../../locales/", $lang, "/explorer.ftl")),
            ),
        ]
    };
}

/// The catalog files of each language, in `Lang::ALL` order.
const SOURCES: [(&str, &[(&str, &str)]); 3] = [
    ("en", &catalog_files!("en")),
    ("ru", &catalog_files!("ru")),
    ("kk", &catalog_files!("kk")),
];

static BUNDLES: LazyLock<[FluentBundle<FluentResource>; 3]> =
    LazyLock::new(|| SOURCES.map(|(code, files)| build_bundle(code, files)));

fn build_bundle(code: &str, files: &[(&str, &str)]) -> FluentBundle<FluentResource> {
    let langid: unic_langid::LanguageIdentifier = code.parse().unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![langid]);
    // Chat clients show Unicode isolation marks as stray characters.
    bundle.set_use_isolating(false);
    for (area, text) in files {
        // The catalogs are part of the binary and tested; a broken one is a build defect.
        let resource = FluentResource::try_new(text.to_string())
            .unwrap_or_else(|(_, errors)| panic!("locales/{code}/{area}.ftl: {errors:?}"));
        if let Err(errors) = bundle.add_resource(resource) {
            panic!("locales/{code}/{area}.ftl: {errors:?}");
        }
    }
    bundle
}

/// The message `key` in `lang`, falling back to English, then to the key itself.
pub fn tr(lang: Lang, key: &str) -> String {
    tr_args(lang, key, None)
}

/// The message `key` with arguments.
pub fn tr_args(lang: Lang, key: &str, args: Option<&FluentArgs>) -> String {
    for l in [lang, Lang::En] {
        let bundle = &BUNDLES[l.index()];
        if let Some(pattern) = bundle.get_message(key).and_then(|m| m.value()) {
            let mut errors = vec![];
            let text = bundle.format_pattern(pattern, args, &mut errors);
            if !errors.is_empty() {
                tracing::warn!(key, lang = l.code(), ?errors, "message formatting errors");
            }
            return text.into_owned();
        }
    }
    tracing::warn!(key, lang = lang.code(), "missing message");
    key.to_string()
}

/// Builds an argument list for `tr_args`.
pub fn args<'a>(pairs: impl IntoIterator<Item = (&'a str, FluentValue<'a>)>) -> FluentArgs<'a> {
    let mut args = FluentArgs::new();
    for (name, value) in pairs {
        args.set(name, value);
    }
    args
}

/// `t!(lang, "key")` or `t!(lang, "key", name = value, ...)`: a message from the catalog.
/// Values may be numbers (plural rules apply) or strings.
#[macro_export]
macro_rules! t {
    ($lang:expr, $key:literal) => {
        $crate::i18n::tr($lang, $key)
    };
    ($lang:expr, $key:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::tr_args(
            $lang,
            $key,
            Some(&$crate::i18n::args([
                $((stringify!($name), $crate::i18n::FluentValue::from($value))),+
            ])),
        )
    };
}

#[cfg(test)]
mod tests;
