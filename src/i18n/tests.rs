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

/// The source of message `key` in catalog `lang`: its first line and its indented or `}`
/// continuation lines.
fn message_source(lang: usize, key: &str) -> String {
    let mut out = String::new();
    for (_, text) in SOURCES[lang].1.iter() {
        let mut inside = false;
        for line in text.lines() {
            if inside && (line.starts_with([' ', '\t', '}']) || line.is_empty()) {
                out.push_str(line);
                out.push('\n');
                continue;
            }
            inside = line
                .split_once('=')
                .is_some_and(|(name, _)| name.trim_end() == key);
            if inside {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// The variables a message refers to (`$name`).
fn variables(source: &str) -> BTreeSet<String> {
    let mut vars = BTreeSet::new();
    let mut rest = source;
    while let Some(at) = rest.find('$') {
        rest = &rest[at + 1..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        if !name.is_empty() {
            vars.insert(name);
        }
    }
    vars
}

/// Values a variable takes in real use, the first being the usual one; numbers cover every
/// plural category of en, ru and kk (1, 2..4, 5..20, 11, 21, 22, 0).
fn realistic(lang: Lang, key: &str, var: &str, selector: bool) -> Vec<FluentValue<'static>> {
    use crate::model::Level;
    use crate::rules::Side;
    let numbers = |n: &[i64]| n.iter().map(|&n| FluentValue::from(n)).collect::<Vec<_>>();
    let text = |s: &[String]| {
        s.iter()
            .map(|s| FluentValue::from(s.clone()))
            .collect::<Vec<_>>()
    };
    let plural = [1, 2, 3, 5, 11, 21, 22, 25, 0];
    match var {
        "count" | "hours" | "minutes" | "seconds" | "days" => numbers(&plural),
        // A span of time left, as `present::span_text` writes it.
        "span" => text(&["1 day 4 h".into(), "45 min".into()]),
        "rounds" | "round" | "board" => numbers(&plural),
        // Puzzles: counts of attempts and puzzles, a day, the themes, the last results.
        "solved" | "failed" | "tried" | "seen" | "total" => numbers(&[0, 1, 3, 8000]),
        "date" => text(&["2026-12-05".into()]),
        "hour" => text(&["09:00".into(), "21:00".into()]),
        "themes" => text(&["capture, tuzdek".into()]),
        "marks" => text(&["✅✅❌".into()]),
        "row" => text(&["12. Асель 1512 (40 of 52)".into()]),
        "buchholz" | "sb" | "score" => text(&["0".into(), "3½".into(), "12".into(), "6.25".into()]),
        "medal" => text(&["🥇".into(), "🥉".into()]),
        "names" => text(&["Асель (1512), Aibek (1488)".into()]),
        "title" => text(&["🏆 Tournament: 30-minute arena · 3+2 · rated".into()]),
        "ahead" => numbers(&[0, 1, 2, 5, 21]),
        "page" => numbers(&[1, 2, 12]),
        "pit" => numbers(&[3, 9, 10]),
        // Premoves: a line and its move named in a refusal, the limits, a line as read.
        "line" | "step" => numbers(&[1, 2, 30]),
        "lines" => numbers(&[30]),
        "moves" if key == "manager-error-too-many-premoves" => numbers(&[30]),
        "moves" => text(&["3 → 7; 5 → …".into()]),
        "link" => text(&["https://t.me/toguz_bot?start=pmab12cd34".into()]),
        "number" => numbers(&[1, 12, 40]),
        // Names in the list of games, kazans elsewhere.
        "white" | "black" if key == "manager-games-line" || key == "console-new-local-game" => {
            text(&["Асель".into(), words::level_name(lang, Level::Easy)])
        }
        "white" | "black" if key.starts_with("web-") => {
            text(&["Асель".into(), words::level_name(lang, Level::Easy)])
        }
        "white" | "black" if key == "manager-clock" => text(&["2:41".into(), "0:07.3".into()]),
        // Tournament pairings name (or mention) the players.
        "white" | "black" if key.starts_with("tournament-") => {
            text(&["<@123456789>".into(), words::level_name(lang, Level::Easy)])
        }
        "white" | "black" => numbers(&[0, 10, 81, 84]),
        "time" => text(&["21:47:05".into()]),
        "when" => text(&["<t:1764539225:R>".into()]),
        "control" => text(&["3+2".into(), "0.5+2".into()]),
        "text" => text(&["abc".into(), "1000+0".into()]),
        "balls" => text(&[
            words::balls(lang, 10),
            words::balls(lang, 1),
            words::balls(lang, 81),
        ]),
        "name" | "challenger" => text(&["Асель".into(), "Bot (easy)".into()]),
        "opponent" => text(&["Aibek".into()]),
        // A private alert's time left, with its control or alone (`present::alerts`).
        "remaining" => text(&["1 day 4 h left".into(), "45 min".into()]),
        "status" => text(&["2 days per move: 1 day 4 h left".into()]),
        // `/notify`: hours of the player's day and their offset from UTC.
        "from" | "to" => text(&["23:00".into(), "08:00".into()]),
        "offset" => text(&["+05:00".into(), "-03:30".into()]),
        "username" => text(&["@aibek".into()]),
        "mention" => text(&["<@123456789>".into()]),
        "mentions" => text(&["<@123456789> <@987654321>".into()]),
        "id" | "game" => text(&["ab12cd".into()]),
        "url" => text(&["https://toguz.example.org/g/ab12cd-0123456789abcdef0123".into()]),
        "move" | "notation" | "best" | "played" => {
            text(&["76".into(), "87(10)".into(), "43X".into()])
        }
        "accuracy" => text(&["87.5".into(), "100,0".into(), "–".into()]),
        "mark" => numbers(&[1, 6]),
        "left" => numbers(&[0, 1, 2, 3]),
        "moveno" => text(&["12.".into(), "12...".into()]),
        // How long a game followed the explorer's games, and its novelty (issue 52).
        "plies" => numbers(&[0, 1, 2, 5, 21, 30]),
        "novelty" => text(&["move 3. (pit 7)".into(), "ход 1... (лунка 2)".into()]),
        "cost" => text(&[words::balls(lang, 1), words::balls(lang, 21)]),
        "result" => text(&[crate::t!(lang, "review-result-black")]),
        "level" => text(&[words::level_name(lang, Level::Hard), "grandmaster".into()]),
        "levels" => text(&[Level::ALL.map(|l| words::level_name(lang, l)).join(", ")]),
        "current" => text(&[words::lang_name(lang)]),
        "command" => text(&["xyz".into()]),
        "changes" => text(&["Асель 1512 (+12), Aibek 1488? (-12)".into()]),
        "rating" => text(&["1512".into(), "1500?".into()]),
        "deviation" | "place" => numbers(&[1, 52, 350]),
        "results" => text(&["3/1/2".into()]),
        "platform" => text(&["Telegram".into(), "Discord".into()]),
        "category" => text(&[
            crate::t!(lang, "category-blitz"),
            crate::t!(lang, "category-correspondence"),
        ]),
        "commands" => text(&["/play, /challenge, /board".into()]),
        "subcommands" => text(&["new, join, leave".into()]),
        "games" => numbers(&[1, 12, 21]),
        // The explorer's share of a move (percent).
        "share" => numbers(&[0, 7, 52, 100]),
        // The longest line the explorer takes (a chat button's, the explorer's).
        "max" => numbers(&[34, 60]),
        "word" => text(&["days".into(), "ертең".into()]),
        "given" => text(&["bob".into(), "de".into(), "гроссмейстер".into()]),
        "variant" => text(&[crate::t!(lang, "manager-variant-standard")]),
        // Two terms of a rules variant typed with a command.
        "first" | "second" => text(&["5 balls".into(), "без туздыков".into()]),
        "terms" => text(&[format!(
            "{}, {}",
            crate::t!(lang, "manager-variant-standard"),
            crate::t!(lang, "manager-terms-rated")
        )]),
        // A side is a selector (`white`/`black`) or a word to print.
        "side" if selector => text(&["white".into(), "black".into()]),
        "side" => text(&[
            words::side_name(lang, Side::White),
            words::side_name(lang, Side::Black),
        ]),
        other => panic!("{key} uses ${other}: give it realistic values in i18n/tests.rs"),
    }
}

/// Every message of every catalog formats without a Fluent error, with each of its
/// variables set to each realistic value in turn (so every plural and selector branch a
/// real call reaches is formatted), and leaves no placeholder or isolation mark behind.
#[test]
fn every_message_formats_in_every_language() {
    let mut checked = 0;
    for lang in Lang::ALL {
        let bundle = &BUNDLES[lang.index()];
        for key in all_keys(0) {
            let msg = bundle
                .get_message(&key)
                .unwrap_or_else(|| panic!("{lang}: {key}"));
            let pattern = msg
                .value()
                .unwrap_or_else(|| panic!("{lang}: {key} has no value"));
            // The variables of every language, so a translation using one English does
            // not is still given it.
            let mut vars = BTreeSet::new();
            let mut sources = String::new();
            for i in 0..SOURCES.len() {
                let source = message_source(i, &key);
                vars.extend(variables(&source));
                sources.push_str(&source);
            }
            let values: Vec<(String, Vec<FluentValue>)> = vars
                .iter()
                .map(|v| {
                    let selector = sources.contains(&format!("${v} ->"));
                    (v.clone(), realistic(lang, &key, v, selector))
                })
                .collect();
            // The usual values, then each variable through its other values.
            let mut cases = vec![(usize::MAX, 0)];
            for (i, (_, vs)) in values.iter().enumerate() {
                cases.extend((1..vs.len()).map(|j| (i, j)));
            }
            for (varied, choice) in cases {
                let mut args = FluentArgs::new();
                for (i, (name, vs)) in values.iter().enumerate() {
                    let pick = if i == varied { choice } else { 0 };
                    args.set(name.clone(), vs[pick].clone());
                }
                let mut errors = vec![];
                let text = bundle.format_pattern(pattern, Some(&args), &mut errors);
                assert!(errors.is_empty(), "{lang}: {key} with {args:?}: {errors:?}");
                assert!(!text.trim().is_empty(), "{lang}: {key} is empty");
                assert!(
                    !text.contains(['{', '}', '\u{2068}', '\u{2069}']),
                    "{lang}: {key} left a placeholder: {text}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 3 * all_keys(0).len(), "{checked}");
}

/// Button labels fit three to a row on a phone: game and challenge buttons, the level
/// keyboard, the inline challenge's button, the puzzles' buttons, the premove builder's
/// keys (its Premoves button sits in a board's rows).
#[test]
fn every_button_label_fits_a_phone() {
    use crate::platform::present::MAX_BUTTON_LABEL;
    let buttons: Vec<String> = all_keys(0)
        .into_iter()
        .filter(|k| {
            ["manager-button-", "level-", "puzzle-button-"]
                .iter()
                .any(|p| k.starts_with(p))
        })
        .chain(["tg-inline-accept".to_string()])
        .chain(["button", "add", "undo", "clear", "done"].map(|k| format!("premoves-{k}")))
        .collect();
    assert!(buttons.len() > 10, "{buttons:?}");
    for lang in Lang::ALL {
        for key in &buttons {
            let label = tr(lang, key);
            let length = label.chars().count();
            assert!(
                length <= MAX_BUTTON_LABEL,
                "{lang}: {key} “{label}” has {length} characters, more than {MAX_BUTTON_LABEL}"
            );
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

/// A user name does not decline, so Russian puts it after a noun that carries the case
/// («для игрока Асет», not «для Асет»); Kazakh names a UTC time «UTC бойынша сағат 07:00-де»
/// (issue 49, a native-level read).
#[test]
fn names_and_utc_times_read_as_a_native_speaker_writes_them() {
    assert_eq!(
        t!(Lang::Ru, "puzzle-title", name = "Асет"),
        "🧩 Задача для игрока Асет"
    );
    assert_eq!(
        t!(
            Lang::Ru,
            "manager-challenge-to",
            challenger = "Асель",
            opponent = "Асет",
            variant = "обычная партия"
        ),
        "Асель вызывает игрока Асет на партию: обычная партия."
    );
    assert_eq!(
        t!(
            Lang::Ru,
            "manager-challenge-rematch",
            challenger = "Асель",
            opponent = "Асет"
        ),
        "Асель предлагает игроку Асет реванш."
    );
    assert_eq!(
        t!(Lang::Ru, "web-player-against", opponent = "Асет"),
        "соперник: Асет"
    );
    assert_eq!(
        t!(Lang::Kk, "puzzle-post-set", hour = "07:00"),
        "Күн есебі мұнда күн сайын UTC бойынша сағат 07:00-де шығады."
    );
    assert!(t!(Lang::Kk, "puzzle-error-daily-solved").contains("UTC бойынша сағат 00:00-де"));
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
