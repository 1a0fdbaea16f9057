use super::*;
use crate::manager::tournament::{Board, Format};
use crate::manager::Player;
use crate::model::{ChatRef, Level, Platform, TimeControl, UserRef};
use crate::rules::Variant;
use std::collections::BTreeMap;

const START: u64 = 1_764_954_000;

fn user(id: u32, name: &str) -> UserRef {
    UserRef::new(Platform::Telegram, format!("8800{id}"), name)
}

fn event(format: Format) -> TournamentRecord {
    let time: TimeControl = "3+2".parse().expect("a time control");
    TournamentRecord::new(
        "t1".into(),
        ChatRef::new(Platform::Telegram, "-100900"),
        user(1, "Organiser"),
        (format, time, Variant::STANDARD, true),
        (1_000, START),
    )
}

/// The page of `rec` read at `now`, every game with a key.
fn page(rec: TournamentRecord, now: u64) -> TournamentPage {
    let boards = rec.rounds.iter().flat_map(|r| r.boards.iter());
    let game_keys: BTreeMap<String, String> = boards
        .chain(rec.arena.iter())
        .filter_map(|b| b.game.clone())
        .map(|g| (g.clone(), format!("{g}-0123456789abcdef0123")))
        .collect();
    TournamentPage {
        key: "t1-00000000000000000000".into(),
        record: rec,
        game_keys,
        now,
        listed: true,
    }
}

/// Four players of a Swiss event of 3 rounds, round 1 played (1 beat 3, 2 and 4 drew),
/// round 2 paired and under way.
fn swiss() -> TournamentRecord {
    let mut t = event(Format::Swiss { rounds: 3 });
    for (id, rating) in [(11, 1800.0), (12, 1700.0), (13, 1600.0)] {
        t.join(Player::Human(user(id, &format!("P{id}"))), rating)
            .expect("joined");
    }
    t.join(Player::Bot(Level::Easy), 1500.0).expect("joined");
    t.start(START).expect("started");
    for round in 1..=2 {
        t.pair_next_round().expect("paired");
        let boards = t.rounds[round - 1].boards.len();
        for b in 0..boards {
            let id = format!("t1r{round}b{}", b + 1);
            let board = &mut t.rounds[round - 1].boards[b];
            board.game = Some(id.clone());
            board.started = true;
            if round == 1 {
                let (white, black) = (board.white, board.black);
                let result = match (white.min(black), white < black) {
                    (1, true) => BoardResult::WhiteWins,
                    (1, false) => BoardResult::BlackWins,
                    _ => BoardResult::Draw,
                };
                t.record_result(&id, result, 30).expect("recorded");
            }
        }
    }
    t
}

#[test]
fn a_swiss_page_shows_the_standings_and_every_round_newest_first() {
    let w = tournament_words(&page(swiss(), START + 600), Lang::En);
    assert_eq!(w.title, "🏆 Tournament: Swiss, 3 rounds · 3+2 · rated");
    assert_eq!(w.state, "Round 2 of 3");
    assert_eq!(w.countdown_to, None);
    assert!(w.ongoing);
    assert_eq!(w.players, "4 players");
    assert_eq!(w.columns[4], "Tie-breaks");
    let ranks: Vec<(&str, &str, &str)> = w
        .standings
        .iter()
        .map(|r| (r.rank.as_str(), r.name.as_str(), r.score.as_str()))
        .collect();
    assert_eq!(ranks[0], ("1", "P11", "1"), "{ranks:?}");
    assert_eq!(ranks[3].2, "0", "{ranks:?}");
    assert_eq!(w.sections.len(), 2);
    assert_eq!(w.sections[0].heading, "Round 2");
    assert_eq!(w.sections[1].heading, "Round 1");
    let now = &w.sections[0].games;
    assert_eq!(now.len(), 2);
    assert!(now.iter().all(|g| g.result == "being played"), "{now:?}");
    assert_eq!(now[0].key.as_deref(), Some("t1r2b1-0123456789abcdef0123"));
    let done = &w.sections[1].games;
    assert!(
        done.iter().any(|g| g.result == "1–0" || g.result == "0–1"),
        "{done:?}"
    );
    assert!(done.iter().any(|g| g.result == "½–½"), "{done:?}");
    // Names only: the bot by its level, never a platform id.
    let all = format!("{w:?}");
    assert!(all.contains("Bot (easy)") || all.contains("easy"), "{all}");
    for id in ["880011", "880012", "-100900"] {
        assert!(!all.contains(id), "a platform id: {all}");
    }
}

#[test]
fn an_open_event_counts_down_to_its_start_in_every_language() {
    let mut t = event(Format::Arena { minutes: 30 });
    t.join(Player::Human(user(11, "Асель")), 1512.0)
        .expect("joined");
    let w = tournament_words(&page(t.clone(), START - 300), Lang::Ru);
    assert_eq!(w.countdown_to, Some(START));
    assert!(w.state.starts_with("Начало: "), "{}", w.state);
    assert_eq!(w.players, "1 участник");
    assert_eq!(w.standings_heading, "Турнирная таблица");
    assert!(w.sections.is_empty());
    assert_eq!(w.no_games, "Пары ещё не составлены.");
    let kk = tournament_words(&page(t.clone(), START - 300), Lang::Kk);
    assert_eq!(kk.players, "1 қатысушы");
    assert_eq!(kk.columns[4], "Ойындар");
    // Past its start time (the tick has not started it yet): no countdown below zero.
    let late = tournament_words(&page(t, START + 1), Lang::En);
    assert_eq!(late.countdown_to, None);
}

#[test]
fn an_arena_page_lists_the_games_being_played_then_the_finished_newest_first() {
    let mut t = event(Format::Arena { minutes: 30 });
    for (id, rating) in [(11, 1800.0), (12, 1700.0), (13, 1600.0), (14, 1500.0)] {
        t.join(Player::Human(user(id, &format!("P{id}"))), rating)
            .expect("joined");
    }
    t.start(START).expect("started");
    let board = |white, black, n: usize| Board {
        white,
        black,
        game: Some(format!("t1a{n}")),
        started: true,
        result: None,
        plies: 0,
        berserk: [false; 2],
    };
    t.arena = vec![board(1, 2, 1), board(3, 4, 2), board(2, 1, 3)];
    t.record_result(&"t1a1".to_string(), BoardResult::WhiteWins, 40)
        .expect("recorded");
    t.record_result(&"t1a2".to_string(), BoardResult::BlackForfeits, 0)
        .expect("recorded");
    let w = tournament_words(&page(t, START + 60), Lang::En);
    assert_eq!(w.countdown_to, Some(START + 30 * 60));
    assert_eq!(w.columns[4], "Games");
    assert_eq!(w.sections.len(), 2);
    assert_eq!(w.sections[0].heading, "Playing now");
    assert_eq!(w.sections[0].games.len(), 1);
    assert_eq!(w.sections[0].games[0].number, 3);
    assert_eq!(w.sections[0].games[0].players, "P12 – P11");
    let finished: Vec<(usize, &str)> = w.sections[1]
        .games
        .iter()
        .map(|g| (g.number, g.result.as_str()))
        .collect();
    assert_eq!(finished, vec![(2, "+/−"), (1, "1–0")]);
    assert_eq!(w.standings[0].name, "P11");
    assert_eq!(w.standings[0].score, "2");
}

#[test]
fn the_front_page_lists_live_tournaments_first_and_links_each() {
    let mut running = event(Format::Swiss { rounds: 5 });
    running.id = "run1".into();
    running.status = Status::Running;
    let mut done = event(Format::Arena { minutes: 60 });
    done.id = "done1".into();
    done.status = Status::Finished;
    let listed = |rec: TournamentRecord| ListedTournament {
        key: format!("{}-0123456789abcdef0123", rec.id),
        record: rec,
    };
    let list = tournament_list(&[listed(running)], &[listed(done)], Lang::Kk);
    assert_eq!(list.heading, "Турнирлер");
    assert_eq!(list.rows.len(), 2);
    assert!(list.rows[0].key.starts_with("run1-"));
    assert!(
        list.rows[1].detail.starts_with("Турнир аяқталды."),
        "{:?}",
        list.rows[1]
    );
    let empty = tournament_list(&[], &[], Lang::En);
    assert!(empty.rows.is_empty());
    assert!(empty.none.starts_with("No listed tournament"));
}

#[test]
fn an_announcement_links_the_page_only_when_pages_are_served() {
    assert_eq!(page_button(None, Lang::En), None);
    let url = "https://toguz.example.org/t/ab12cd-0123456789abcdef0123".to_string();
    let button = page_button(Some(url.clone()), Lang::Ru).expect("a button");
    assert_eq!(button.label, "🏆 Страница турнира");
    assert_eq!(button.url, url);
}
