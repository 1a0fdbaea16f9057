use super::*;
use crate::rules::{Position, Variant};

fn view_after(moves: &[u8]) -> BoardView {
    let mut position = Position::start(Variant::STANDARD);
    let mut last_move = None;
    for &pit in moves {
        last_move = Some(position.play(pit).expect("legal move"));
    }
    BoardView {
        position,
        last_move,
        names: ["Асель".into(), "Aibek".into()],
        perspective: Side::White,
        lang: Lang::En,
        result_line: None,
        hint: None,
    }
}

#[test]
fn marks_follow_the_last_move() {
    // 7 from the start: one ball back in White 7, the last in Black 6, which is captured.
    let view = view_after(&[7]);
    assert!(pit_marks(&view, Side::White, 7).played);
    assert!(pit_marks(&view, Side::Black, 6).landed);
    assert_eq!(pit_marks(&view, Side::Black, 7), PitMarks::default());
    assert_eq!(
        pit_state(&view.position, Side::Black, 6),
        PitState::Balls(0)
    );
}

#[test]
fn status_names_the_side_to_move_or_the_result() {
    let mut view = view_after(&[7]);
    assert_eq!(status_line(&view, " · "), "Black to move");
    view.lang = Lang::Kk;
    assert_eq!(status_line(&view, " · "), "Қаралардың жүрісі");
    view.result_line = Some("Black resigned".into());
    assert_eq!(status_line(&view, " · "), "Black resigned");
}

#[test]
fn names_fall_back_to_the_side_when_nothing_printable_is_left() {
    let mut view = view_after(&[]);
    view.names = ["  Асель\t🙂 \u{7}".into(), "🙂🙂".into()];
    assert_eq!(clean_name(&view, Side::White, |c| c != '🙂'), "Асель");
    assert_eq!(clean_name(&view, Side::Black, |c| c != '🙂'), "Black");
}
