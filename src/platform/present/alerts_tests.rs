use super::*;
use crate::model::{ChatRef, Platform};

const HOUR: u64 = 3_600_000;

fn line(opponent: &str, control: TimeControl, left_ms: u64, page: Option<&str>) -> TurnLine {
    TurnLine {
        game: format!("g{}", opponent.to_lowercase()),
        opponent: opponent.into(),
        time_control: control,
        left_ms,
        page: page.map(str::to_string),
        chat: ChatRef::new(Platform::Telegram, "-100"),
        boards: Vec::new(),
    }
}

#[test]
fn one_game_names_the_opponent_the_control_and_the_time_left() {
    let bob = line(
        "Bob",
        TimeControl::Days(2),
        28 * HOUR,
        Some("https://t.example/g/k1"),
    );
    let m = message(AlertKind::YourMove, &[bob], Lang::En);
    assert_eq!(
        m.text,
        "Your move against Bob (2 days per move: 1 day 4 h left)."
    );
    assert_eq!(
        m.buttons,
        [LinkButton {
            label: "Board: Bob".into(),
            url: "https://t.example/g/k1".into()
        }]
    );
    let ru = message(
        AlertKind::YourMove,
        &[line("Боб", TimeControl::Days(2), 28 * HOUR, None)],
        Lang::Ru,
    );
    assert_eq!(
        ru.text,
        "Ваш ход в партии с игроком Боб (2 дня на ход: осталось 1 день 4 ч)."
    );
    assert!(ru.buttons.is_empty(), "no page served, no button");
}

#[test]
fn several_games_are_listed_in_the_order_given_with_a_button_each() {
    let games = [
        line(
            "Bob",
            TimeControl::Days(1),
            5 * HOUR,
            Some("https://t.example/g/b"),
        ),
        line(
            "Ann",
            TimeControl::Correspondence,
            20 * HOUR,
            Some("https://t.example/g/a"),
        ),
        line("Cid", TimeControl::Days(7), 100 * HOUR, None),
    ];
    let m = message(AlertKind::YourMove, &games, Lang::En);
    assert_eq!(
        m.text,
        "Your move in 3 games:\n\
         • Bob (1 day per move: 5 h left)\n\
         • Ann (20 h left)\n\
         • Cid (7 days per move: 4 days 4 h left)"
    );
    let labels: Vec<_> = m.buttons.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, ["Board: Bob", "Board: Ann"]);
    let ru = message(AlertKind::YourMove, &games[..2], Lang::Ru);
    assert!(ru.text.starts_with("Ваш ход в 2 партиях:\n"), "{}", ru.text);
    let kk = message(AlertKind::YourMove, &games[..2], Lang::Kk);
    assert!(
        kk.text.starts_with("2 ойында кезек сізде:\n"),
        "{}",
        kk.text
    );
}

#[test]
fn the_warning_says_how_little_is_left() {
    let bob = line("Bob", TimeControl::Days(2), 9 * HOUR, None);
    let m = message(AlertKind::Warning, std::slice::from_ref(&bob), Lang::En);
    assert_eq!(m.text, "Time is running out against Bob: 9 h left.");
    let ru = message(AlertKind::Warning, &[bob], Lang::Ru);
    assert_eq!(
        ru.text,
        "Время на исходе в партии с игроком Bob: осталось 9 ч."
    );
    let soon = line("Bob", TimeControl::Days(1), 30 * 60_000, None);
    let m = message(AlertKind::Warning, &[soon], Lang::En);
    assert_eq!(m.text, "Time is running out against Bob: 30 min left.");
}

#[test]
fn the_digest_lists_even_one_game() {
    let bob = line("Bob", TimeControl::Days(3), 50 * HOUR, None);
    let m = message(AlertKind::Digest, std::slice::from_ref(&bob), Lang::En);
    assert_eq!(
        m.text,
        "Your daily summary: it is your move in one game:\n• Bob (3 days per move: 2 days 2 h left)"
    );
    let ru = message(AlertKind::Digest, &vec![bob.clone(); 21], Lang::Ru);
    assert!(
        ru.text
            .starts_with("Ежедневная сводка: ваш ход в 21 партии:"),
        "{}",
        ru.text
    );
}

#[test]
fn notify_settings_read_as_set() {
    let mut s = NotifySettings::default();
    assert_eq!(
        notify_text(&s, Lang::En),
        "Private messages about your correspondence games: each time it is your move, and a \
         warning when a move's time is running out.\nNo quiet hours."
    );
    s.mode = NotifyMode::Digest { hour: 9 };
    s.utc_offset_min = 300;
    s.quiet = Some(QuietHours {
        from: 23,
        to: 8,
        utc_offset_min: -210,
    });
    let text = notify_saved(&s, Lang::En);
    assert!(text.starts_with("Saved.\n"), "{text}");
    assert!(
        text.contains("a daily summary at 09:00 (UTC+05:00)"),
        "{text}"
    );
    assert!(
        text.contains("Quiet hours: 23:00–08:00 (UTC-03:30)"),
        "{text}"
    );
    s.mode = NotifyMode::Off;
    assert!(notify_text(&s, Lang::Ru).contains("отключены"));
}

#[test]
fn refused_settings_name_the_word() {
    let cases = [
        (
            NotifyParseError::Word("loud".into()),
            "“loud” is not a setting of /notify.",
        ),
        (NotifyParseError::Hours("25".into()), "“25” is not an hour"),
        (NotifyParseError::Hours(String::new()), "Give the hour"),
        (
            NotifyParseError::Offset("05".into()),
            "“05” is not an offset from UTC",
        ),
        (
            NotifyParseError::Extra("please".into()),
            "“please” is one word too many.",
        ),
    ];
    for (error, start) in cases {
        let text = notify_error(&error, Lang::En);
        assert!(text.starts_with(start), "{text}");
    }
}

#[test]
fn a_long_list_is_cut_and_counted() {
    let games: Vec<_> = (0..23)
        .map(|i| {
            line(
                &format!("P{i}"),
                TimeControl::Days(1),
                HOUR,
                Some("https://t.example/g/x"),
            )
        })
        .collect();
    let m = message(AlertKind::YourMove, &games, Lang::En);
    assert_eq!(m.buttons.len(), MAX_LISTED);
    assert_eq!(m.text.lines().count(), 1 + MAX_LISTED + 1);
    assert!(m.text.ends_with("\n…and 3 more"), "{}", m.text);
}

/// Without pages, the button links the newest board message the platform can link (a
/// supergroup's, not a basic group's); the page wins when it is served.
#[test]
fn without_pages_the_button_links_the_board_message() {
    let at = |id: &str| crate::manager::MessageRef {
        platform: Platform::Telegram,
        id: id.into(),
    };
    let mut bob = line("Bob", TimeControl::Days(2), 28 * HOUR, None);
    bob.chat = ChatRef::new(Platform::Telegram, "-1001234567890");
    bob.boards = vec![at("-1001234567890:7"), at("-1001234567890:9"), at("952:3")];
    let m = message(AlertKind::YourMove, std::slice::from_ref(&bob), Lang::En);
    assert!(!m.pages);
    assert_eq!(
        m.buttons,
        [LinkButton {
            label: "Board: Bob".into(),
            url: "https://t.me/c/1234567890/9".into()
        }]
    );
    let mut basic = bob.clone();
    basic.chat = ChatRef::new(Platform::Telegram, "-100951");
    basic.boards = vec![at("-100951:9")];
    assert!(message(AlertKind::YourMove, &[basic], Lang::En)
        .buttons
        .is_empty());
    bob.page = Some("https://t.example/g/k1".into());
    let m = message(AlertKind::YourMove, &[bob], Lang::En);
    assert!(m.pages);
    assert_eq!(m.buttons[0].url, "https://t.example/g/k1");
}
