use super::*;
use crate::manager::tournament::BoardResult;
use crate::model::{ChatRef, Level, Platform, TimeControl};
use crate::rules::Variant;

fn user(id: u32, name: &str) -> UserRef {
    UserRef::new(Platform::Discord, id.to_string(), name)
}

fn event(format: Format) -> TournamentRecord {
    let time: TimeControl = "3+2".parse().expect("a time control");
    TournamentRecord::new(
        "t1".into(),
        ChatRef::new(Platform::Discord, "900"),
        user(1, "Organiser"),
        (format, time, Variant::STANDARD, true),
        (1_000, 1_764_954_000),
    )
}

fn mention(user: &UserRef) -> String {
    format!("<@{}>", user.id)
}

/// A Swiss event of four players with its first round played: 1 beat 3, 2 and 4 drew.
fn swiss_after_one_round() -> TournamentRecord {
    let mut t = event(Format::Swiss { rounds: 3 });
    for (id, rating) in [(11, 1800.0), (12, 1700.0), (13, 1600.0), (14, 1500.0)] {
        t.join(Player::Human(user(id, &format!("P{id}"))), rating)
            .expect("joined");
    }
    t.start(1_764_954_000).expect("started");
    t.pair_next_round().expect("paired");
    let boards: Vec<(u32, u32)> = t.rounds[0]
        .boards
        .iter()
        .map(|b| (b.white, b.black))
        .collect();
    for (i, (white, black)) in boards.into_iter().enumerate() {
        let id = format!("t1r1b{}", i + 1);
        t.rounds[0].boards[i].game = Some(id.clone());
        let result = match (white.min(black), white < black) {
            (1, true) => BoardResult::WhiteWins,
            (1, false) => BoardResult::BlackWins,
            _ => BoardResult::Draw,
        };
        t.record_result(&id, result, 30).expect("recorded");
    }
    t
}

#[test]
fn an_open_event_counts_down_and_offers_join_and_leave() {
    let mut t = event(Format::Arena { minutes: 60 });
    t.join(Player::Human(user(11, "Aigerim")), 1523.4)
        .expect("joined");
    t.join(Player::Bot(Level::Easy), 1200.0).expect("joined");
    let post = announcement(&t, Lang::En, ClockStyle::Live);
    assert!(
        post.text.contains("60-minute arena · 3+2 · rated"),
        "{}",
        post.text
    );
    assert!(post.text.contains("<t:1764954000:R>"), "{}", post.text);
    assert!(
        post.text.contains("2 players: Aigerim (1523)"),
        "{}",
        post.text
    );
    let kinds: Vec<Button> = post.buttons.iter().map(|(b, _)| b.clone()).collect();
    assert_eq!(
        kinds,
        vec![
            Button::JoinTournament {
                tournament: "t1".into()
            },
            Button::LeaveTournament {
                tournament: "t1".into()
            }
        ]
    );
    let utc = announcement(&t, Lang::Ru, ClockStyle::TimeOfDay);
    assert!(utc.text.contains("05.12.2025 17:00 UTC"), "{}", utc.text);
    assert!(utc.text.contains("арена на 60 минут"), "{}", utc.text);
}

#[test]
fn a_cancelled_or_finished_event_has_no_buttons() {
    let mut t = event(Format::Swiss { rounds: 3 });
    t.cancel(&user(1, "Organiser"), false).expect("cancelled");
    let post = announcement(&t, Lang::Kk, ClockStyle::Live);
    assert!(post.buttons.is_empty());
    assert!(post.text.contains("Турнир болдырылмады."), "{}", post.text);
    let news = ending_text(&t, Lang::En, &mention);
    assert!(news.contains("was cancelled"), "{news}");
}

#[test]
fn swiss_standings_show_half_points_and_tiebreaks() {
    let t = swiss_after_one_round();
    let text = standings_text(&t, Lang::En);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Standings:");
    assert!(
        lines[1].starts_with("1. P11 (1800) — 1 · Buchholz"),
        "{text}"
    );
    assert!(text.contains("(1700) — ½"), "{text}");
    assert!(text.contains("(1600) — 0"), "{text}");
    let table = standings_table(&t, Lang::Ru);
    assert_eq!(table.rows.len(), 4);
    assert_eq!(table.rows[0].name, "P11");
    assert_eq!(table.columns[3], "Очки");
    // Round 1 is over and round 2 not paired: the announcement shows the standings too.
    let post = announcement(&t, Lang::En, ClockStyle::Live);
    assert!(post.text.contains("Round 1 of 3"), "{}", post.text);
    assert!(post.text.contains("Standings:"), "{}", post.text);
}

#[test]
fn a_pairing_mentions_both_players_and_the_podium_the_first_three() {
    let t = swiss_after_one_round();
    let line = pairing_line(&t, "t1r1b1", Lang::En, &mention).expect("a board of the event");
    assert!(line.starts_with("Round 1, board 1: <@"), "{line}");
    assert!(line.contains("(White) vs <@"), "{line}");
    assert_eq!(pairing_line(&t, "nosuch", Lang::En, &mention), None);
    let mut done = t.clone();
    done.status = Status::Finished;
    let podium = ending_text(&done, Lang::En, &mention);
    let lines: Vec<&str> = podium.lines().collect();
    assert_eq!(lines.len(), 4, "{podium}");
    assert_eq!(lines[1], "🥇 <@11>: 1");
}

#[test]
fn arena_rows_carry_the_fire_streak_and_the_marks() {
    let mut t = event(Format::Arena { minutes: 30 });
    for id in [11, 12] {
        t.join(Player::Human(user(id, &format!("P{id}"))), 1500.0)
            .expect("joined");
    }
    t.start(1_764_954_000).expect("started");
    // P11 won twice (as the arena scores games: `pairing::arena`).
    let win = crate::pairing::arena::Played {
        result: crate::pairing::arena::GameResult::Win,
        plies: 40,
        moves: 20,
        berserk: false,
    };
    for _ in 0..2 {
        t.entrants[0].sheet.score(win);
    }
    let table = standings_table(&t, Lang::En);
    assert_eq!(table.rows[0].name, "P11");
    assert_eq!(table.rows[0].score, "4");
    assert_eq!(table.rows[0].detail, "2 2");
    assert!(table.rows[0].on_fire, "two wins in a row");
    assert!(standings_text(&t, Lang::En).contains("— 4 🔥 · 2 2"));
}

#[test]
fn half_points_are_written_as_players_write_them() {
    assert_eq!(tenths(0), "0");
    assert_eq!(tenths(5), "½");
    assert_eq!(tenths(35), "3½");
    assert_eq!(tenths(40), "4");
    assert_eq!(hundredths(625), "6.25");
    assert_eq!(hundredths(650), "6.5");
    assert_eq!(hundredths(600), "6");
}
