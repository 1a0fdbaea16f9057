//! The text board: snapshots of typical boards, and the 40-column limit on real games.

use toguz::i18n::Lang;
use toguz::render::{text, BoardView, Charset};
use toguz::rules::{parse_records, replay, Position, Side};

/// White's tuzdek on Black's 4, Black's on White's 7.
const TUZDEKS: &str = "5,0,12,3,8,1,x,20,4/7,2,0,x,15,6,9,1,11 30/28 b 23";
/// White has 84: the game is over.
const FINISHED: &str = "2,0,0,1,0,0,0,0,0/0,0,3,0,0,0,2,0,0 84/70 b 40";

fn view(position: Position, perspective: Side, lang: Lang) -> BoardView {
    BoardView {
        position,
        last_move: None,
        names: ["Асель".into(), "Aibek".into()],
        perspective,
        lang,
        result_line: None,
        hint: None,
    }
}

fn fen(s: &str) -> Position {
    Position::from_fen(s).expect("valid position")
}

fn after(moves: &[u8], perspective: Side, lang: Lang) -> BoardView {
    let mut position = Position::default();
    let mut v = view(position, perspective, lang);
    for &pit in moves {
        v.last_move = Some(position.play(pit).expect("legal"));
    }
    v.position = position;
    v
}

#[track_caller]
fn assert_board(actual: &str, expected: &str) {
    assert_eq!(
        actual, expected,
        "\n--- actual ---\n{actual}\n--- expected ---\n{expected}"
    );
}

#[test]
fn start_position() {
    let v = view(Position::default(), Side::White, Lang::En);
    assert_board(
        &text(&v, Charset::Unicode),
        "  Aibek (Black) · Store 0
   9   8   7   6   5   4   3   2   1
   9   9   9   9   9   9   9   9   9
 ═════════════════════════════════════
   9   9   9   9   9   9   9   9   9
   1   2   3   4   5   6   7   8   9
» Асель (White) · Store 0
White to move",
    );
}

#[test]
fn last_move_from_both_perspectives() {
    // White plays 7: one ball back in 7, the last lands in Black 6 (10, even: captured).
    let white = after(&[7], Side::White, Lang::En);
    assert_board(
        &text(&white, Charset::Unicode),
        "» Aibek (Black) · Store 0
   9   8   7   6   5   4   3   2   1
   9   9   9  (0) 10  10  10  10  10
 ═════════════════════════════════════
   9   9   9   9   9   9  [1] 10  10
   1   2   3   4   5   6   7   8   9
  Асель (White) · Store 10
Last move: [7] → (6), captured 10
Black to move",
    );
    let black = after(&[7], Side::Black, Lang::En);
    assert_board(
        &text(&black, Charset::Unicode),
        "  Асель (White) · Store 10
   9   8   7   6   5   4   3   2   1
  10  10  [1]  9   9   9   9   9   9
 ═════════════════════════════════════
  10  10  10  10  10  (0)  9   9   9
   1   2   3   4   5   6   7   8   9
» Aibek (Black) · Store 0
Last move: [7] → (6), captured 10
Black to move",
    );
}

#[test]
fn tuzdeks_on_both_sides() {
    let v = view(fen(TUZDEKS), Side::White, Lang::En);
    assert_board(
        &text(&v, Charset::Unicode),
        "» Aibek (Black) · Store 28
   9   8   7   6   5   4   3   2   1
  11   1   9   6  15   X   0   2   7
 ════════════ X = tuzdek ═════════════
   5   0  12   3   8   1   X  20   4
   1   2   3   4   5   6   7   8   9
  Асель (White) · Store 30
Black to move",
    );
    let kk = view(fen(TUZDEKS), Side::Black, Lang::Kk);
    assert_board(
        &text(&kk, Charset::Unicode),
        "  Асель (Ақ) · Қазан 30
   9   8   7   6   5   4   3   2   1
   4  20   X   1   8   3  12   0   5
 ════════════ X = тұздық ═════════════
   7   2   0   X  15   6   9   1  11
   1   2   3   4   5   6   7   8   9
» Aibek (Қара) · Қазан 28
Қаралардың жүрісі",
    );
}

#[test]
fn finished_game_and_result_line() {
    let mut v = view(fen(FINISHED), Side::White, Lang::Ru);
    assert_board(
        &text(&v, Charset::Unicode),
        "  Aibek (Чёрные) · Казан 70
   9   8   7   6   5   4   3   2   1
   0   0   2   0   0   0   3   0   0
 ═════════════════════════════════════
   2   0   0   1   0   0   0   0   0
   1   2   3   4   5   6   7   8   9
  Асель (Белые) · Казан 84
Белые победили, 84:70",
    );
    v.result_line = Some("Чёрные сдались".into());
    assert!(text(&v, Charset::Unicode).ends_with("\nЧёрные сдались"));
}

#[test]
fn ascii_fallback() {
    let v = after(&[7], Side::White, Lang::En);
    let board = text(&v, Charset::Ascii);
    assert_board(
        &board,
        "> Aibek (Black) - Store 0
   9   8   7   6   5   4   3   2   1
   9   9   9  (0) 10  10  10  10  10
 =====================================
   9   9   9   9   9   9  [1] 10  10
   1   2   3   4   5   6   7   8   9
  White - Store 10
Last move: [7] -> (6), captured 10
Black to move",
    );
    assert!(board.is_ascii());
    let tuzdeks = text(&view(fen(TUZDEKS), Side::White, Lang::En), Charset::Ascii);
    assert!(tuzdeks.is_ascii());
    assert!(tuzdeks.contains("\n ============ X = tuzdek =============\n"));
}

/// Every board of real games (Kazakh names), in every language, charset and perspective,
/// fits 40 columns.
#[test]
fn real_games_fit_forty_columns() {
    let data = include_str!("../data/championships-kz-2018.pgn");
    let mut boards = 0;
    for record in parse_records(data).into_iter().flatten().take(60) {
        let Ok(start) = record.start_position() else {
            continue;
        };
        let Ok(plies) = replay(&record, start) else {
            continue;
        };
        let names = [
            record.header("White").unwrap_or("").to_string(),
            record.header("Black").unwrap_or("").to_string(),
        ];
        for ply in plies.iter().step_by(7) {
            for lang in Lang::ALL {
                for perspective in Side::BOTH {
                    for charset in [Charset::Unicode, Charset::Ascii] {
                        let v = BoardView {
                            position: ply.position,
                            last_move: Some(ply.report),
                            names: names.clone(),
                            perspective,
                            lang,
                            result_line: None,
                            hint: None,
                        };
                        let board = text(&v, charset);
                        for line in board.lines() {
                            assert!(line.chars().count() <= 40, "too wide: {line:?}\n{board}");
                        }
                        boards += 1;
                    }
                }
            }
        }
    }
    assert!(boards > 1000, "only {boards} boards checked");
}

#[test]
fn long_and_strange_names_are_shortened_not_wrapped() {
    let mut v = view(Position::default(), Side::White, Lang::Kk);
    v.names = [
        "Айгерім Нұрсұлтанқызы Төлеуова-Бекмұхамбетова".into(),
        "\u{7}🙂\n".into(),
    ];
    let board = text(&v, Charset::Unicode);
    let lines: Vec<&str> = board.lines().collect();
    assert_eq!(lines.len(), 8);
    assert!(
        lines[6].starts_with("» Айгерім Нұрсұлтанқызы"),
        "{}",
        lines[6]
    );
    assert!(lines[6].contains('…'));
    assert_eq!(lines[6].chars().count(), 40);
    // Control characters go; the emoji stays (chats show it).
    assert_eq!(lines[0], "  🙂 (Қара) · Қазан 0");
    // The ASCII board drops what it cannot show, and then falls back to the side.
    let ascii = text(&v, Charset::Ascii);
    assert!(ascii
        .lines()
        .next()
        .is_some_and(|l| l == "  Қара - Қазан 0"));
}
