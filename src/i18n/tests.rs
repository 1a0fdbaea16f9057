use super::*;
use std::collections::BTreeSet;
use std::path::Path;

/// Message keys defined in one catalog file (top-level messages, not terms or attributes).
fn keys(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|line| {
            let (name, _) = line.split_once('=')?;
            let name = name.trim_end();
            let ok = !name.is_empty()
                && !line.starts_with([' ', '\t', '#', '-', '.', '*', '['])
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            ok.then(|| name.to_string())
        })
        .collect()
}

fn all_keys(lang: usize) -> BTreeSet<String> {
    SOURCES[lang]
        .1
        .iter()
        .flat_map(|(_, text)| keys(text))
        .collect()
}

#[test]
fn every_catalog_has_exactly_the_english_keys() {
    let english = all_keys(0);
    assert!(!english.is_empty());
    for (i, (code, files)) in SOURCES.iter().enumerate().skip(1) {
        for (area, text) in files.iter() {
            let en_area = SOURCES[0]
                .1
                .iter()
                .find(|(a, _)| a == area)
                .map(|(_, t)| keys(t));
            let missing: Vec<_> = en_area
                .unwrap_or_default()
                .difference(&keys(text))
                .cloned()
                .collect();
            assert!(
                missing.is_empty(),
                "locales/{code}/{area}.ftl lacks {missing:?}"
            );
        }
        let extra: Vec<_> = all_keys(i).difference(&english).cloned().collect();
        assert!(
            extra.is_empty(),
            "locales/{code} has keys English lacks: {extra:?}"
        );
    }
}

#[test]
fn every_message_formats_in_every_language() {
    for lang in Lang::ALL {
        let bundle = &BUNDLES[lang.index()];
        for key in all_keys(0) {
            let msg = bundle
                .get_message(&key)
                .unwrap_or_else(|| panic!("{lang}: {key}"));
            if let Some(pattern) = msg.value() {
                let mut errors = vec![];
                let _ = bundle.format_pattern(pattern, None, &mut errors);
            }
        }
    }
}

/// Every key appears as a string literal somewhere in src/ (tests excluded).
#[test]
fn every_key_is_used() {
    let mut sources = String::new();
    collect_sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut sources,
    );
    let unused: Vec<_> = all_keys(0)
        .into_iter()
        .filter(|k| !sources.contains(&format!("\"{k}\"")))
        .collect();
    assert!(unused.is_empty(), "keys nobody uses: {unused:?}");
}

fn collect_sources(dir: &Path, out: &mut String) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("tests.rs") {
            out.push_str(&std::fs::read_to_string(&path).unwrap());
        }
    }
}

#[test]
fn plurals_follow_each_language() {
    let cases = [
        (
            Lang::En,
            [
                (1, "1 ball"),
                (2, "2 balls"),
                (5, "5 balls"),
                (21, "21 balls"),
            ],
        ),
        (
            Lang::Ru,
            [(1, "1 шар"), (2, "2 шара"), (5, "5 шаров"), (21, "21 шар")],
        ),
        (
            Lang::Kk,
            [
                (1, "1 құмалақ"),
                (2, "2 құмалақ"),
                (5, "5 құмалақ"),
                (21, "21 құмалақ"),
            ],
        ),
    ];
    for (lang, expected) in cases {
        for (n, text) in expected {
            assert_eq!(crate::t!(lang, "balls", count = n), text, "{lang} {n}");
        }
    }
}

#[test]
fn locales_map_to_languages() {
    assert_eq!(Lang::from_code("ru-RU"), Some(Lang::Ru));
    assert_eq!(Lang::from_code("kk_KZ"), Some(Lang::Kk));
    assert_eq!(Lang::from_code("en-GB"), Some(Lang::En));
    assert_eq!(Lang::from_code("de"), None);
    assert_eq!(Lang::from_locale(None), Lang::En);
    assert_eq!(Lang::from_locale(Some("uk")), Lang::En);
}

#[test]
fn missing_keys_fall_back_to_the_key() {
    assert_eq!(tr(Lang::Kk, "no-such-key"), "no-such-key");
}
