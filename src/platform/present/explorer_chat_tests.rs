use super::*;
use crate::explorer::{Answer, MoveStats};
use crate::manager::buttons::{decode, encode, MAX_LEN};
use crate::model::Platform;

fn chat() -> ChatRef {
    ChatRef::new(Platform::Telegram, "-100123")
}

fn stats(pit: u8, games: u64, [white, draws, black]: [u64; 3]) -> MoveStats {
    let mut m = MoveStats::default();
    (m.pit, m.games, m.white, m.draws, m.black) = (pit, games, white, draws, black);
    m.rating = Some(1700);
    m
}

fn view(ask: ExplorerAsk, moves: Vec<MoveStats>) -> ExplorerView {
    let position = ask.position().expect("a legal line");
    ExplorerView {
        ask,
        position,
        answer: Answer {
            games: moves.iter().map(|m| m.games).sum(),
            moves,
            last: Vec::new(),
        },
        last: Vec::new(),
    }
}

#[test]
fn opening_takes_a_source_then_the_moves() {
    let ask = opening_ask("", &chat()).expect("the start");
    assert_eq!(ask, ExplorerAsk::start());
    let ask = opening_ask(" 7 7 2 ", &chat()).expect("a line");
    assert_eq!(
        (ask.moves, ask.source),
        (vec![7, 7, 2], ExplorerSource::All)
    );
    let ask = opening_ask("masters 772", &chat()).expect("masters");
    assert_eq!(
        (ask.moves, ask.source),
        (vec![7, 7, 2], ExplorerSource::Masters)
    );
    let ask = opening_ask("Чат 7", &chat()).expect("this chat, in Russian");
    assert_eq!(ask.source, ExplorerSource::Chat(chat()));
    let ask = opening_ask("player:Aigerim 7 7", &chat()).expect("a player");
    assert_eq!(ask.source, ExplorerSource::Player("Aigerim".into()));
    assert_eq!(ask.moves, vec![7, 7]);
    assert!(matches!(
        opening_ask("7 x", &chat()),
        Err(ActionError::ExplorerMoves { step: 2, .. })
    ));
    assert!(opening_ask("player: 7", &chat()).is_err());
    let long = "1".repeat(EXPLORER_BUTTON_MOVES + 1);
    assert!(matches!(
        opening_ask(&long, &chat()),
        Err(ActionError::ExplorerTooDeep {
            max: EXPLORER_BUTTON_MOVES
        })
    ));
}

#[test]
fn a_button_keeps_the_ask() {
    let ask = ExplorerAsk {
        moves: vec![7, 7, 2],
        source: ExplorerSource::Chat(chat()),
        filter: Filter {
            categories: vec![2],
            bands: vec![Band::From1600],
        },
        ..ExplorerAsk::start()
    };
    assert_eq!(ask_of(&at_of(&ask), &chat()), ask);
    let player = ExplorerAsk {
        source: ExplorerSource::Player("Aigerim".into()),
        ..ExplorerAsk::start()
    };
    let kept = ask_of(&at_of(&player), &chat());
    assert!(
        matches!(kept.source, ExplorerSource::PlayerKey { ref key, name: None } if key.len() == 8)
    );
}

#[test]
fn the_buttons_step_back_and_cycle() {
    let owner = UserRef::new(Platform::Discord, u64::MAX.to_string(), "Asker");
    let ask = opening_ask("7", &chat()).expect("a line");
    let shown = view(ask, vec![stats(2, 3, [1, 1, 1]), stats(9, 1, [0, 0, 1])]);
    let rows = explorer_buttons(&shown, &owner, Lang::En);
    let ats: Vec<ExplorerAt> = rows
        .iter()
        .flatten()
        .map(|b| {
            let data = encode(&b.button);
            assert!(data.len() <= MAX_LEN, "{data}");
            match decode(&data) {
                Ok(Button::Explorer { owner: o, at }) if o == owner.id => at,
                other => panic!("{data}: {other:?}"),
            }
        })
        .collect();
    let moves: Vec<&[u8]> = ats.iter().map(|a| a.moves.as_slice()).collect();
    // 2 and 9 step in, Back goes to the start, source, time and rating stay at 7.
    assert_eq!(moves, [&[7, 2][..], &[7, 9], &[], &[7], &[7], &[7]]);
    assert_eq!(ats[3].from, ExplorerFrom::Masters);
    assert_eq!(ats[4].category, Some(1));
    assert_eq!(ats[5].band, Some(Band::Below1200));
    let labels: Vec<&str> = rows.iter().flatten().map(|b| b.label.as_str()).collect();
    assert_eq!(labels[3], "All games");

    // Every source and filter comes round again; the start has no Back.
    let mut at = at_of(&ExplorerAsk::start());
    for _ in 0..4 {
        at.from = next_source(&at.from);
    }
    assert_eq!(at.from, ExplorerFrom::All);
    let mut category = None;
    let mut band = None;
    for _ in 0..=CATEGORIES.len() {
        category = next_category(category);
    }
    for _ in 0..=BANDS.len() {
        band = next_band(band);
    }
    assert_eq!((category, band), (None, None));
    let start = view(ExplorerAsk::start(), Vec::new());
    let rows = explorer_buttons(&start, &owner, Lang::En);
    assert_eq!(
        rows.len(),
        1,
        "no moves, no Back: only the source and filters"
    );
    assert_eq!(rows[0].len(), 3);
}

#[test]
fn the_picture_and_caption_say_the_line_and_no_games() {
    let ask = opening_ask("masters 7 7", &chat()).expect("a line");
    let empty = view(ask.clone(), Vec::new());
    let caption = explorer_caption(&empty, Lang::En);
    assert!(caption.contains("After 7 7"), "{caption}");
    assert!(caption.contains("Masters"), "{caption}");
    assert!(caption.contains(&no_games_text(Lang::En)), "{caption}");
    let picture = explorer_picture(&empty, Lang::En);
    assert!(picture.rows.is_empty() && picture.total.is_none());
    let full = view(ask, vec![stats(3, 2, [2, 0, 0]), stats(5, 2, [0, 1, 1])]);
    let picture = explorer_picture(&full, Lang::Ru);
    assert_eq!(picture.rows.len(), 2);
    assert_eq!(picture.rows[1].results, [0, 50, 50]);
    assert_eq!(
        picture.total.as_ref().map(|t| t.results),
        Some([50, 25, 25])
    );
    // The mover's row is at the bottom (the table's pits are hers).
    assert_eq!(picture.board.perspective, full.position.to_move());
    assert!(!explorer_caption(&full, Lang::Kk).contains(&no_games_text(Lang::Kk)));
}
