//! Tests of the slash-command definitions and of parsing invocations.
use super::*;
use serde_json::{json, Value};

fn options(v: Value) -> Vec<CommandDataOption> {
    serde_json::from_value(v).unwrap()
}

#[test]
fn definitions_are_valid_for_discord() {
    let defs: Vec<Value> = definitions()
        .iter()
        .map(|c| serde_json::to_value(c).unwrap())
        .collect();
    assert_eq!(defs.len(), 18);
    // Issue 51: `/notify` with its four options, localized, answered privately.
    let notify = defs
        .iter()
        .find(|c| c["name"] == "notify")
        .expect("/notify");
    assert_eq!(notify["name_localizations"]["ru"], "уведомления");
    let names: Vec<&str> = notify["options"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|o| o["name"].as_str())
        .collect();
    assert_eq!(names, ["mode", "hour", "quiet", "utc"]);
    assert!(answers_privately("notify", &[]));
    let valid_name = |s: &str| {
        (1..=32).contains(&s.chars().count())
            && s.chars()
                .all(|c| c == '-' || c == '_' || c.is_alphanumeric())
            && s.to_lowercase() == s
    };
    let check = |v: &Value| {
        assert!(valid_name(v["name"].as_str().unwrap()), "{v}");
        let d = v["description"].as_str().unwrap().chars().count();
        assert!((1..=100).contains(&d), "{v}");
        for key in ["name_localizations", "description_localizations"] {
            let map = v[key].as_object().unwrap();
            let locales: Vec<&str> = map.keys().map(String::as_str).collect();
            assert_eq!(locales.len(), 3, "{v}");
            assert!(!locales.contains(&"kk"));
            for text in map.values() {
                let text = text.as_str().unwrap();
                if key == "name_localizations" {
                    assert!(valid_name(text), "bad localized name {text}");
                } else {
                    assert!((1..=100).contains(&text.chars().count()), "{text}");
                }
            }
        }
    };
    fn options(v: &Value) -> Vec<Value> {
        let mut all = Vec::new();
        for o in v["options"].as_array().into_iter().flatten() {
            all.push(o.clone());
            all.extend(options(o));
        }
        all
    }
    for c in &defs {
        check(c);
        for o in options(c) {
            check(&o);
            for choice in o["choices"].as_array().into_iter().flatten() {
                assert!((1..=100).contains(&choice["name"].as_str().unwrap().chars().count()));
            }
        }
    }
    assert_eq!(defs[0]["name_localizations"]["ru"], "вызов");
    // `time:` is typed, with suggestions (autocomplete), wherever it is taken.
    let times: Vec<Value> = defs
        .iter()
        .flat_map(options)
        .filter(|o| o["name"] == "time")
        .collect();
    assert_eq!(times.len(), 3, "/challenge, /play, /tournament new");
    for time in times {
        assert_eq!(time["autocomplete"], true, "{time}");
        assert!(
            time["choices"].as_array().is_none_or(Vec::is_empty),
            "{time}"
        );
    }
}

#[test]
fn tournament_subcommands_parse_with_defaults_and_bounds() {
    let sub = |name: &str, o: Value| {
        parse(
            "tournament",
            &options(json!([{ "name": name, "type": 1, "options": o }])),
        )
    };
    assert_eq!(
        sub(
            "new",
            json!([
                { "name": "format", "type": 3, "value": "arena" },
                { "name": "time", "type": 3, "value": "3+2" }
            ])
        ),
        Some(Command::Tournament(TournamentCommand::New {
            format: Ok(Format::Arena { minutes: 30 }),
            time: Some(Ok(TimeControl::fischer(3, 2))),
            starts_in: Ok(5),
            rated: true,
            variant: Ok(Variant::STANDARD),
        }))
    );
    assert_eq!(
        sub(
            "new",
            json!([
                { "name": "format", "type": 3, "value": "swiss" },
                { "name": "time", "type": 3, "value": "5+3" },
                { "name": "rounds", "type": 4, "value": 7 },
                { "name": "minutes", "type": 4, "value": 45 },
                { "name": "starts_in", "type": 4, "value": 10 },
                { "name": "rated", "type": 5, "value": false },
                { "name": "balls", "type": 4, "value": 5 },
                { "name": "tuzdek", "type": 3, "value": "off" }
            ])
        ),
        Some(Command::Tournament(TournamentCommand::New {
            format: Ok(Format::Swiss { rounds: 7 }),
            time: Some(Ok(TimeControl::fischer(5, 3))),
            starts_in: Ok(10),
            rated: false,
            variant: Ok(Variant::new(5, TuzdekRule::Off).unwrap()),
        }))
    );
    // Forged values: outside the registered bounds, or not a choice.
    for forged in [
        json!([{ "name": "format", "type": 3, "value": "knockout" }]),
        json!([{ "name": "format", "type": 3, "value": "swiss" },
               { "name": "rounds", "type": 4, "value": 300 }]),
        json!([{ "name": "format", "type": 3, "value": "arena" },
               { "name": "minutes", "type": 4, "value": -5 }]),
    ] {
        assert!(matches!(
            sub("new", forged),
            Some(Command::Tournament(TournamentCommand::New {
                format: Err(BadOption),
                ..
            }))
        ));
    }
    assert!(matches!(
        sub(
            "new",
            json!([{ "name": "starts_in", "type": 4, "value": 0 }])
        ),
        Some(Command::Tournament(TournamentCommand::New {
            starts_in: Err(BadOption),
            time: None,
            ..
        }))
    ));
    assert_eq!(
        sub(
            "standings",
            json!([{ "name": "id", "type": 3, "value": " Ab12Cd " }])
        ),
        Some(Command::Tournament(TournamentCommand::Standings {
            id: Some("ab12cd".into())
        }))
    );
    assert_eq!(
        sub(
            "bot",
            json!([{ "name": "level", "type": 3, "value": "hard" }])
        ),
        Some(Command::Tournament(TournamentCommand::Bot {
            level: Ok(Level::Hard),
            id: None
        }))
    );
    assert_eq!(
        sub("leave", json!([])),
        Some(Command::Tournament(TournamentCommand::Leave { id: None }))
    );
    assert_eq!(
        sub("bye", json!([])),
        Some(Command::Tournament(TournamentCommand::Bye {
            round: Ok(None),
            id: None
        }))
    );
    assert_eq!(
        sub("bye", json!([{ "name": "round", "type": 4, "value": 3 }])),
        Some(Command::Tournament(TournamentCommand::Bye {
            round: Ok(Some(3)),
            id: None
        }))
    );
    for forged in [0, 16, -1] {
        assert_eq!(
            sub(
                "bye",
                json!([{ "name": "round", "type": 4, "value": forged }])
            ),
            Some(Command::Tournament(TournamentCommand::Bye {
                round: Err(BadOption),
                id: None
            })),
            "{forged}"
        );
    }
    assert!(matches!(
        sub("new", json!([{ "name": "balls", "type": 4, "value": 7 }])),
        Some(Command::Tournament(TournamentCommand::New {
            variant: Err(BadOption),
            ..
        }))
    ));
    assert_eq!(
        sub("shuffle", json!([])),
        Some(Command::Tournament(TournamentCommand::Unknown))
    );
    assert_eq!(
        parse("tournament", &[]),
        Some(Command::Tournament(TournamentCommand::Unknown))
    );
    // Only the new event's announcement and the standings are public.
    let first = |name: &str| options(json!([{ "name": name, "type": 1, "options": [] }]));
    assert!(!answers_privately("tournament", &first("new")));
    assert!(!answers_privately("tournament", &first("standings")));
    assert!(answers_privately("tournament", &first("cancel")));
    assert!(answers_privately("tournament", &first("join")));
}

/// `/help language:` answers with the "language set" line and the help in one message,
/// which Discord caps at 2000 characters.
#[test]
fn the_help_fits_one_message_in_every_language() {
    for lang in Lang::ALL {
        let text = format!(
            "{}\n\n{}",
            t!(lang, "discord-lang-set"),
            t!(lang, "discord-help")
        );
        let length = text.chars().count();
        assert!(length <= 2000, "{lang:?}: {length} characters");
    }
}

#[test]
fn invocations_parse_and_bad_values_are_flagged() {
    let c = parse(
        "challenge",
        &options(json!([
            {"name": "opponent", "type": 6, "value": "22"},
            {"name": "balls", "type": 4, "value": 5},
            {"name": "tuzdek", "type": 3, "value": "off"},
            {"name": "time", "type": 3, "value": "3+2"},
            {"name": "rated", "type": 5, "value": false}
        ])),
    );
    assert_eq!(
        c,
        Some(Command::Challenge {
            opponent: Some(UserId::new(22)),
            variant: Ok(Variant::new(5, TuzdekRule::Off).unwrap()),
            time: Some(Ok(TimeControl::fischer(3, 2))),
            rated: false,
        })
    );
    assert!(matches!(
        parse(
            "challenge",
            &options(json!([{"name": "opponent", "type": 6, "value": "22"}]))
        ),
        Some(Command::Challenge { rated: true, .. })
    ));
    assert_eq!(
        parse(
            "stats",
            &options(json!([{"name": "player", "type": 6, "value": "23"}]))
        ),
        Some(Command::Stats {
            player: Some(UserId::new(23))
        })
    );
    assert_eq!(parse("stats", &[]), Some(Command::Stats { player: None }));
    assert_eq!(
        parse("leaderboard", &[]),
        Some(Command::Leaderboard {
            global: Ok(false),
            category: None
        })
    );
    for (scope, global) in [
        ("global", Ok(true)),
        ("server", Ok(false)),
        ("x", Err(BadOption)),
    ] {
        let o = json!([{"name": "scope", "type": 3, "value": scope}]);
        assert_eq!(
            parse("leaderboard", &options(o)),
            Some(Command::Leaderboard {
                global,
                category: None
            })
        );
    }
    for (value, category) in [
        ("blitz", Ok(Category::Blitz)),
        ("correspondence", Ok(Category::Correspondence)),
        ("блиц", Err(BadOption)),
    ] {
        let o = json!([{"name": "category", "type": 3, "value": value}]);
        assert_eq!(
            parse("leaderboard", &options(o)),
            Some(Command::Leaderboard {
                global: Ok(false),
                category: Some(category)
            })
        );
    }
    let forged = parse(
        "challenge",
        &options(
            json!([{"name": "opponent", "type": 6, "value": "22"}, {"name": "balls", "type": 4, "value": 7}]),
        ),
    );
    assert!(matches!(
        forged,
        Some(Command::Challenge {
            variant: Err(BadOption),
            ..
        })
    ));
    assert_eq!(
        parse(
            "play",
            &options(json!([{"name": "level", "type": 3, "value": "random"}]))
        ),
        Some(Command::Play {
            level: Some(Ok(Level::Random)),
            variant: Ok(Variant::STANDARD),
            time: None,
        })
    );
    assert_eq!(
        parse(
            "play",
            &options(json!([{"name": "level", "type": 3, "value": "godlike"}]))
        ),
        Some(Command::Play {
            level: Some(Err(BadOption)),
            variant: Ok(Variant::STANDARD),
            time: None,
        })
    );
    for (typed, expected) in [
        ("5+3", Ok(TimeControl::fischer(5, 3))),
        (" заочная ", Ok(TimeControl::Correspondence)),
        ("abc", Err(TimeControlError::Format("abc".into()))),
        ("0+0", Err(TimeControlError::TooShort("0+0".into()))),
        ("2d", Ok(TimeControl::Days(2))),
        ("5 дней", Ok(TimeControl::Days(5))),
        ("4 days", Err(TimeControlError::Days("4 days".into()))),
    ] {
        let time = json!([{"name": "time", "type": 3, "value": typed}]);
        assert!(
            matches!(
                parse("play", &options(time)),
                Some(Command::Play { time: Some(t), .. }) if t == expected
            ),
            "{typed}"
        );
    }
    assert_eq!(
        parse(
            "help",
            &options(json!([{"name": "language", "type": 3, "value": "kk"}]))
        ),
        Some(Command::Help {
            language: Some(Ok(Lang::Kk))
        })
    );
    assert_eq!(
        parse(
            "board",
            &options(json!([{"name": "game", "type": 3, "value": " AB12CD "}]))
        ),
        Some(Command::Board {
            game: Some("ab12cd".into())
        })
    );
    assert_eq!(parse("review", &[]), Some(Command::Review { game: None }));
    assert_eq!(
        parse(
            "history",
            &options(json!([{"name": "player", "type": 6, "value": "24"}]))
        ),
        Some(Command::History {
            player: Some(UserId::new(24))
        })
    );
    assert_eq!(
        parse("history", &[]),
        Some(Command::History { player: None })
    );
    assert_eq!(
        parse(
            "record",
            &options(json!([{"name": "game", "type": 3, "value": "Zz99zz"}]))
        ),
        Some(Command::Record {
            game: Some("zz99zz".into())
        })
    );
    assert!(answers_privately("history", &[]) && answers_privately("record", &[]));
    assert_eq!(parse("nope", &[]), None);
}

#[test]
fn puzzle_subcommands_parse_and_an_unknown_one_is_refused() {
    let sub =
        |name: &str, opts: Value| options(json!([{"name": name, "type": 1, "options": opts}]));
    let parsed = |o: Vec<CommandDataOption>| parse("puzzle", &o);
    assert_eq!(
        parsed(sub("play", json!([]))),
        Some(Command::Puzzle(PuzzleCommand::Play))
    );
    assert_eq!(
        parsed(sub("daily", json!([]))),
        Some(Command::Puzzle(PuzzleCommand::Daily))
    );
    assert_eq!(
        parsed(sub(
            "top",
            json!([{"name": "global", "type": 5, "value": true}])
        )),
        Some(Command::Puzzle(PuzzleCommand::Top { global: true }))
    );
    assert_eq!(
        parsed(sub("top", json!([]))),
        Some(Command::Puzzle(PuzzleCommand::Top { global: false }))
    );
    assert_eq!(
        parsed(sub("solve-for-me", json!([]))),
        Some(Command::Puzzle(PuzzleCommand::Unknown))
    );
    assert_eq!(
        parsed(Vec::new()),
        Some(Command::Puzzle(PuzzleCommand::Unknown))
    );
    // The board is the channel's; stats and the top are the caller's.
    assert!(!answers_privately("puzzle", &sub("play", json!([]))));
    assert!(answers_privately("puzzle", &sub("stats", json!([]))));
}
