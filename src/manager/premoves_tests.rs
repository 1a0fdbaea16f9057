use super::*;
use crate::model::Platform;
use crate::rules::Variant;

fn game(time: TimeControl) -> Game {
    let human = |id: &str| Player::Human(UserRef::new(Platform::Telegram, id, id));
    Game::new(GameRecord {
        id: "pm0001".into(),
        chat: ChatRef::new(Platform::Telegram, "-100"),
        variant: Variant::STANDARD,
        players: [human("1"), human("2")],
        moves: vec![],
        status: GameStatus::Ongoing,
        draw_offer: None,
        created_at: 5,
        last_move_at: 5,
        messages: vec![],
        seed: 1,
        rematch: None,
        rated: true,
        ended: None,
        time_control: time,
        clock: None,
        hints: 0,
        version: 0,
        arena: None,
        seat: None,
        watched: false,
        premoves: Default::default(),
        alerts: Vec::new(),
    })
}

/// Black (the author, White to move) sets `lines` as the page does.
fn set(game: &mut Game, lines: &[&[u8]]) -> Result<(), ActionError> {
    let lines = lines.iter().map(|l| l.to_vec()).collect();
    let edit = PremoveEdit::Set(lines);
    check_open(game, Side::Black, &edit)?;
    let mine = &game.rec.premoves[Side::Black.index()];
    let changed = edited(game, mine, &edit)?;
    game.rec.premoves[Side::Black.index()] = changed;
    Ok(())
}

/// White plays `pit` by hand, then the premoves answer (as `update_game_charged` does).
fn white_plays(game: &mut Game, pit: u8) -> Option<u8> {
    let ply = game.ply();
    game.play(pit, 10).unwrap();
    follow(ply, game, 10)
}

fn black(game: &Game) -> &Premoves {
    &game.rec.premoves[Side::Black.index()]
}

#[test]
fn a_matched_line_plays_its_reply_and_the_rest_shift_by_two() {
    let mut g = game(TimeControl::Days(2));
    set(&mut g, &[&[3, 7, 5, 2], &[3, 7, 6, 1], &[4, 4]]).unwrap();
    assert_eq!(white_plays(&mut g, 3), Some(7));
    assert_eq!(g.rec.moves, vec![3, 7]);
    assert_eq!(g.position.to_move(), Side::White);
    assert_eq!(black(&g).lines, vec![vec![5, 2], vec![6, 1]]);
    // The next move down a line is answered too; the line then ends.
    assert_eq!(white_plays(&mut g, 6), Some(1));
    assert_eq!(g.rec.moves, vec![3, 7, 6, 1]);
    assert!(black(&g).lines.is_empty());
    // With nothing queued, a move is only a move.
    assert_eq!(white_plays(&mut g, 2), None);
    assert_eq!(g.rec.moves.len(), 5);
}

#[test]
fn a_move_off_every_line_clears_the_queue() {
    let mut g = game(TimeControl::Correspondence);
    set(&mut g, &[&[3, 7], &[4, 4, 5, 5]]).unwrap();
    let edits = black(&g).edits;
    assert_eq!(white_plays(&mut g, 9), None);
    assert_eq!(g.rec.moves, vec![9]);
    assert!(black(&g).lines.is_empty());
    assert!(black(&g).edits > edits, "an open builder is stale now");
    assert_eq!(g.position.to_move(), Side::Black);
}

#[test]
fn an_illegal_reply_clears_the_queue_and_plays_nothing() {
    let mut g = game(TimeControl::Days(1));
    // Stored lines are checked when entered; one that is not (a corrupt record) is
    // refused when due.
    g.rec.premoves[1].lines = vec![vec![3, 10], vec![4, 4]];
    assert_eq!(white_plays(&mut g, 3), None);
    assert_eq!(g.rec.moves, vec![3]);
    assert!(black(&g).is_empty());
}

#[test]
fn the_end_of_the_game_clears_everyones_premoves() {
    let mut g = game(TimeControl::Days(3));
    set(&mut g, &[&[3, 7]]).unwrap();
    g.rec.premoves[1].draft = vec![5];
    g.finish(Some(Side::Black), FinishReason::Resigned(Side::White));
    clear_at_end(&mut g.rec);
    assert!(none_queued(&g.rec.premoves));
    // And the stored form leaves them out.
    let text = serde_json::to_string(&g.rec).unwrap();
    assert!(!text.contains("premoves"), "{text}");
}

#[test]
fn premoves_are_for_correspondence_between_people_on_the_opponents_turn() {
    let mut timed = game(TimeControl::fischer(3, 2));
    assert!(matches!(
        set(&mut timed, &[&[3, 7]]),
        Err(ActionError::PremovesNotHere)
    ));
    let mut bot = game(TimeControl::Days(2));
    bot.rec.players[0] = Player::Bot(crate::model::Level::Easy);
    assert!(matches!(
        set(&mut bot, &[&[3, 7]]),
        Err(ActionError::PremovesNotHere)
    ));
    // White is to move: White's own lines are refused, Black's taken.
    let g = game(TimeControl::Days(2));
    let edit = PremoveEdit::Set(vec![vec![3, 7]]);
    assert!(matches!(
        check_open(&g, Side::White, &edit),
        Err(ActionError::PremovesOnTheirTurn)
    ));
    assert!(check_open(&g, Side::Black, &edit).is_ok());
    // Clearing is never refused in an ongoing game.
    assert!(check_open(&g, Side::White, &PremoveEdit::ClearAll).is_ok());
}

/// `n` distinct lines of four moves that agree with each other: Black's reply to each
/// move is the first legal one.
fn agreeing_lines(g: &Game, n: usize) -> Vec<Vec<u8>> {
    let first = |p: &crate::rules::Position| p.legal_moves().iter().next();
    let mut out = Vec::new();
    for a in 1..=9u8 {
        let mut p = g.position;
        p.play(a).unwrap();
        let r = first(&p).unwrap();
        p.play(r).unwrap();
        for c in p.legal_moves().iter() {
            let mut q = p;
            q.play(c).unwrap();
            if let Some(d) = first(&q).filter(|_| !q.is_over()) {
                out.push(vec![a, r, c, d]);
            }
        }
    }
    out.truncate(n);
    out
}

#[test]
fn too_many_lines_long_lines_and_bad_pits_are_refused_naming_the_line() {
    let mut g = game(TimeControl::Days(2));
    let many = agreeing_lines(&g, 31);
    assert_eq!(many.len(), 31);
    let many: Vec<&[u8]> = many.iter().map(Vec::as_slice).collect();
    assert!(matches!(
        set(&mut g, &many),
        Err(ActionError::TooManyPremoves)
    ));
    assert!(matches!(set(&mut g, &many[..30]), Ok(())));
    let long = [1u8; 32];
    assert!(matches!(
        set(&mut g, &[&long]),
        Err(ActionError::TooManyPremoves)
    ));
    assert!(matches!(
        set(&mut g, &[&[3, 7], &[4, 0]]),
        Err(ActionError::PremoveIllegal {
            line: 2,
            step: 2,
            pit: 0
        })
    ));
    assert!(matches!(
        set(&mut g, &[&[3, 7, 5]]),
        Err(ActionError::PremoveLineUnfinished)
    ));
    assert!(matches!(
        set(&mut g, &[&[3, 7], &[3, 8]]),
        Err(ActionError::PremovesDisagree { line: 2 })
    ));
    // What was refused changed nothing.
    assert_eq!(black(&g).lines.len(), 30);
}

#[test]
fn a_line_into_an_empty_pit_is_refused() {
    let mut g = game(TimeControl::Days(2));
    // Find a line whose third move is from a pit that the first two emptied.
    let mut found = None;
    'search: for a in 1..=9u8 {
        for b in 1..=9u8 {
            let mut p = g.position;
            if p.play(a).is_err() || p.play(b).is_err() {
                continue;
            }
            if let Some(c) = (1..=9u8).find(|&c| !p.is_legal(c)) {
                found = Some([a, b, c, 1]);
                break 'search;
            }
        }
    }
    let line = found.expect("some pit is empty after two moves");
    assert!(matches!(
        set(&mut g, &[&line]),
        Err(ActionError::PremoveIllegal {
            line: 1,
            step: 3,
            ..
        })
    ));
}

#[test]
fn the_builder_enters_a_line_pit_by_pit() {
    let g = game(TimeControl::Days(2));
    let mut mine = Premoves::default();
    for edit in [PremoveEdit::Pit(3), PremoveEdit::Pit(7)] {
        mine = edited(&g, &mine, &edit).unwrap();
    }
    assert_eq!(mine.draft, vec![3, 7]);
    mine = edited(&g, &mine, &PremoveEdit::AddLine).unwrap();
    assert_eq!(
        (mine.lines.clone(), mine.draft.clone()),
        (vec![vec![3, 7]], vec![])
    );
    mine = edited(&g, &mine, &PremoveEdit::Pit(3)).unwrap();
    // Their move 3 has a reply already: another is refused.
    assert!(matches!(
        edited(&g, &mine, &PremoveEdit::Pit(8)),
        Err(ActionError::PremovesDisagree { line: 2 })
    ));
    assert!(matches!(
        edited(&g, &mine, &PremoveEdit::AddLine),
        Err(ActionError::PremoveLineUnfinished)
    ));
    mine = edited(&g, &mine, &PremoveEdit::Undo).unwrap();
    assert!(mine.draft.is_empty());
    mine = edited(&g, &mine, &PremoveEdit::Undo).unwrap();
    assert!(mine.lines.is_empty());
    mine = edited(&g, &mine, &PremoveEdit::Pit(12)).map_or(mine, |_| panic!("pit 12"));
    assert!(mine.is_empty());
}

#[test]
fn a_pit_from_a_stale_builder_or_an_illegal_pit_is_refused_and_changes_nothing() {
    let mut g = game(TimeControl::Days(2));
    let black = UserRef::new(Platform::Telegram, "2", "2");
    let white = UserRef::new(Platform::Telegram, "1", "1");
    for (edits, pit) in [(0, 3), (1, 7), (2, 5)] {
        apply(&mut g, &black, Some(edits), &PremoveEdit::Pit(pit)).unwrap();
    }
    let shown = g.rec.premoves[1].clone();
    assert_eq!((shown.draft.clone(), shown.edits), (vec![3, 7, 5], 3));
    // Shown before the last pit (another builder, or the page open twice): refused.
    let stale = apply(&mut g, &black, Some(2), &PremoveEdit::Pit(4));
    assert!(matches!(stale, Err(ActionError::StaleBoard)), "{stale:?}");
    assert_eq!(g.rec.premoves[1], shown);
    // A pit the position after the draft cannot play: White's 3 emptied Black's 2.
    let mut first = game(TimeControl::Days(2));
    apply(&mut first, &black, Some(0), &PremoveEdit::Pit(3)).unwrap();
    let illegal = apply(&mut first, &black, Some(1), &PremoveEdit::Pit(2));
    assert!(
        matches!(
            illegal,
            Err(ActionError::PremoveIllegal {
                line: 1,
                step: 2,
                pit: 2
            })
        ),
        "{illegal:?}"
    );
    assert_eq!(first.rec.premoves[1].draft, vec![3]);
    // The player to move and a stranger enter nothing.
    let theirs = apply(&mut g, &white, None, &PremoveEdit::Pit(3));
    assert!(
        matches!(theirs, Err(ActionError::PremovesOnTheirTurn)),
        "{theirs:?}"
    );
    let stranger = UserRef::new(Platform::Telegram, "9", "9");
    let refused = apply(&mut g, &stranger, None, &PremoveEdit::Pit(3));
    assert!(
        matches!(refused, Err(ActionError::NotYourGame)),
        "{refused:?}"
    );
    assert_eq!(g.rec.premoves, [Premoves::default(), shown]);
}
