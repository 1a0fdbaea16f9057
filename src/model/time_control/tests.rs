use super::*;
use proptest::prelude::*;

#[test]
fn fischer_controls_parse_and_print() {
    let tc = TimeControl::parse("3+2").unwrap();
    assert_eq!(tc, TimeControl::fischer(3, 2));
    assert_eq!(tc.to_string(), "3+2");
    assert_eq!(tc.pgn(0), "180+2");
    let half = TimeControl::parse(" 0.5+2 ").unwrap();
    assert_eq!(
        half,
        TimeControl::Fischer {
            base_ms: 30_000,
            increment_ms: 2_000
        }
    );
    assert_eq!(half.to_string(), "0.5+2");
    assert_eq!(TimeControl::parse("0,5+2"), Ok(half));
    assert_eq!(TimeControl::parse("5").unwrap().to_string(), "5+0");
    assert_eq!(TimeControl::parse("0.1+0").unwrap().pgn(0), "6+0");
    assert_eq!(TimeControl::parse("0.25+1").unwrap().to_string(), "0.25+1");
}

#[test]
fn correspondence_is_the_default_and_has_names_in_every_language() {
    assert_eq!(TimeControl::default(), TimeControl::Correspondence);
    for word in ["correspondence", "Corr", "заочная", "сырттай"] {
        assert_eq!(
            TimeControl::parse(word),
            Ok(TimeControl::Correspondence),
            "{word}"
        );
    }
    assert_eq!(TimeControl::Correspondence.to_string(), "correspondence");
    assert_eq!(TimeControl::Correspondence.pgn(100_800), "1/100800");
    assert_eq!(
        TimeControl::from_pgn("1/100800"),
        Some(TimeControl::Correspondence)
    );
    assert_eq!(
        TimeControl::from_pgn("-"),
        Some(TimeControl::Correspondence)
    );
}

#[test]
fn days_per_move_are_typed_in_every_language() {
    let days = |n| Ok(TimeControl::Days(n));
    for (typed, expected) in [
        ("2 days", days(2)),
        ("1 day", days(1)),
        ("2d", days(2)),
        (" 14 Days ", days(14)),
        ("7 d", days(7)),
        ("3days", days(3)),
        ("1 день", days(1)),
        ("2 дня", days(2)),
        ("3 дня", days(3)),
        ("5 дней", days(5)),
        ("14 дней", days(14)),
        ("2 суток", days(2)),
        ("1 сутки", days(1)),
        ("7 сут.", days(7)),
        ("3 дн.", days(3)),
        ("2д", days(2)),
        ("2 ДНЯ", days(2)),
        ("2 күн", days(2)),
        ("1 күн", days(1)),
        ("7 тәулік", days(7)),
        ("3 күндік", days(3)),
    ] {
        assert_eq!(TimeControl::parse(typed), expected, "{typed:?}");
    }
    for n in DAYS_PER_MOVE {
        let control = TimeControl::Days(n);
        assert_eq!(TimeControl::parse(&control.to_string()), Ok(control));
        assert_eq!(control.category(), Category::Correspondence);
        assert!(!control.is_timed());
        assert_eq!(control.move_secs(), Some(u64::from(n) * 86_400));
    }
    assert_eq!(TimeControl::Days(2).to_string(), "2d");
    assert_eq!(TimeControl::Correspondence.move_secs(), None);
    assert_eq!(TimeControl::fischer(3, 2).move_secs(), None);
}

#[test]
fn other_numbers_of_days_are_refused_naming_the_allowed_ones() {
    for bad in [
        "4 days",
        "0d",
        "1.5 days",
        "2,5 дня",
        "30 дней",
        "15 күн",
        "1000 days",
    ] {
        assert_eq!(
            TimeControl::parse(bad),
            Err(TimeControlError::Days(bad.trim().into())),
            "{bad:?}"
        );
    }
    let error = TimeControl::parse("4 days").unwrap_err().to_string();
    assert!(error.contains("1, 2, 3, 5, 7 or 14"), "{error}");
    // A unit alone, or another word after a number, is no number of days.
    for other in ["days", "день", "2 dayz", "2 hours"] {
        assert!(
            matches!(TimeControl::parse(other), Err(TimeControlError::Format(_))),
            "{other:?}"
        );
    }
}

#[test]
fn a_record_writes_days_per_move_as_one_move_per_period() {
    assert_eq!(TimeControl::Days(2).pgn(259_200), "1/172800");
    assert_eq!(TimeControl::Days(14).pgn(0), "1/1209600");
    for n in DAYS_PER_MOVE {
        let control = TimeControl::Days(n);
        assert_eq!(TimeControl::from_pgn(&control.pgn(0)), Some(control));
    }
    // One move in 3 days is a 3-day game, whoever wrote it; 4 days is no choice a game has.
    assert_eq!(
        TimeControl::from_pgn("1/259200"),
        Some(TimeControl::Days(3))
    );
    assert_eq!(
        TimeControl::from_pgn("1/345600"),
        Some(TimeControl::Correspondence)
    );
}

#[test]
fn the_stored_form_of_older_controls_still_reads() {
    // As games and challenges stored before days per move hold them.
    let old: Vec<TimeControl> = serde_json::from_str(
        r#"["correspondence", {"fischer": {"base_ms": 180000, "increment_ms": 2000}}]"#,
    )
    .unwrap();
    assert_eq!(
        old,
        [TimeControl::Correspondence, TimeControl::fischer(3, 2)]
    );
    let days = serde_json::to_string(&TimeControl::Days(2)).unwrap();
    assert_eq!(days, r#"{"days":2}"#);
    assert_eq!(
        serde_json::from_str::<TimeControl>(&days).unwrap(),
        TimeControl::Days(2)
    );
}

#[test]
fn bad_controls_are_refused_with_the_reason() {
    use TimeControlError::*;
    assert_eq!(TimeControl::parse("abc"), Err(Format("abc".into())));
    assert_eq!(TimeControl::parse("-1+0"), Err(Format("-1+0".into())));
    assert_eq!(TimeControl::parse("1000+0"), Err(TooLong("1000+0".into())));
    assert_eq!(TimeControl::parse("0+0"), Err(TooShort("0+0".into())));
    assert_eq!(
        TimeControl::parse("3+61"),
        Err(IncrementTooLong("3+61".into()))
    );
    for bad in [
        "",
        "+",
        "3+",
        "+2",
        "3+2+1",
        "1e3",
        "3 + x",
        "٣+٢",
        "99999999999999999999",
    ] {
        assert!(TimeControl::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn categories_follow_the_expected_time_per_side() {
    assert_eq!(TimeControl::fischer(3, 2).category(), Category::Blitz);
    assert_eq!(TimeControl::fischer(5, 0).category(), Category::Blitz);
    // 5 minutes + 40 × 5 s = 8 min 20 s.
    assert_eq!(TimeControl::fischer(5, 5).category(), Category::Rapid);
    assert_eq!(TimeControl::fischer(10, 0).category(), Category::Rapid);
    assert_eq!(
        TimeControl::Correspondence.category(),
        Category::Correspondence
    );
    for c in Category::ALL {
        assert_eq!(Category::parse(c.name()), Some(c));
    }
    for (word, c) in [
        (" Блиц ", Category::Blitz),
        ("RAPID", Category::Rapid),
        ("рапид", Category::Rapid),
        ("заочные", Category::Correspondence),
        ("сырттай", Category::Correspondence),
    ] {
        assert_eq!(Category::parse(word), Some(c), "{word:?}");
    }
    assert_eq!(Category::parse("bullet"), None);
}

#[test]
fn clocks_read_as_players_and_records_write_them() {
    assert_eq!(clock_text(161_000), "2:41");
    assert_eq!(clock_text(7_345), "0:07.3");
    assert_eq!(clock_text(3_725_000), "1:02:05");
    assert_eq!(pgn_clock(161_900), "0:02:41");
    assert_eq!(parse_pgn_clock("0:02:41"), Some(161_000));
    assert_eq!(parse_pgn_clock("2:41.5"), Some(161_500));
    assert_eq!(parse_pgn_clock("1:00:00"), Some(3_600_000));
    assert_eq!(parse_pgn_clock("x:00"), None);
    assert_eq!(parse_pgn_clock("12"), None);
}

proptest! {
    /// Every control a player can type (minutes with up to two decimals, whole seconds)
    /// prints as text that parses back to it; any whole number of seconds survives a
    /// record's `TimeControl` header.
    #[test]
    fn printing_parses_back(
        hundredths in 10u64..=18_000, secs in 6u64..=10_800, inc in 0u64..=60,
    ) {
        let typed = TimeControl::Fischer { base_ms: hundredths * 600, increment_ms: inc * 1000 };
        prop_assert_eq!(TimeControl::parse(&typed.to_string()), Ok(typed));
        let any = TimeControl::Fischer { base_ms: secs * 1000, increment_ms: inc * 1000 };
        prop_assert_eq!(TimeControl::from_pgn(&any.pgn(0)), Some(any));
    }

    /// Nothing a player types makes the parser panic, and whatever it accepts is in bounds.
    #[test]
    fn any_text_parses_or_is_refused(text in "\\PC{0,12}") {
        if let Ok(TimeControl::Fischer { base_ms, increment_ms }) = TimeControl::parse(&text) {
            prop_assert!((MIN_BASE_MS..=MAX_BASE_MS).contains(&base_ms));
            prop_assert!(increment_ms <= MAX_INCREMENT_MS);
        }
    }
}
