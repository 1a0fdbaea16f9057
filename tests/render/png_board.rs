//! The PNG board: it decodes, has the documented size, stays small, is the same bytes every
//! time (the samples in docs/ are the golden copies), and shows the last move and the
//! tuzdeks where they belong.
//!
//! After an intended change to the drawing, rewrite the samples with
//! `TOGUZ_BLESS=1 cargo test --test render` and look at them.

use std::path::PathBuf;
use toguz::i18n::Lang;
use toguz::render::{layout, png, BoardView, LANDED_COLOR, PLAYED_COLOR, TUZDEK_COLOR};
use toguz::rules::{parse_records, replay, MoveReport, Position, Side};

const MAX_BYTES: usize = 60 * 1024;
/// White's tuzdek on Black's 4, Black's on White's 7.
const TUZDEKS: &str = "5,0,12,3,8,1,x,20,4/7,2,0,x,15,6,9,1,11 30/28 b 23";

struct Decoded {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl Decoded {
    fn at(&self, (x, y): (u32, u32)) -> [u8; 3] {
        let i = ((y * self.width + x) * 3) as usize;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
}

fn decode(bytes: &[u8]) -> Decoded {
    let mut decoder = ::png::Decoder::new(bytes);
    decoder.set_transformations(::png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("image data");
    assert_eq!(info.color_type, ::png::ColorType::Rgb);
    buf.truncate(info.buffer_size());
    Decoded {
        width: info.width,
        height: info.height,
        rgb: buf,
    }
}

fn view(position: Position, last_move: Option<MoveReport>, perspective: Side) -> BoardView {
    BoardView {
        position,
        last_move,
        names: ["Асель".into(), "Aibek 🐎".into()],
        perspective,
        lang: Lang::En,
        result_line: None,
        hint: None,
    }
}

/// The first position of the Kazakh championship games with both tuzdeks on the board after
/// a capture, from move 20 on: a busy, real board.
fn real_midgame() -> (BoardView, [String; 2]) {
    let data = include_str!("../data/championships-kz-2018.pgn");
    for record in parse_records(data).into_iter().flatten() {
        let Some(plies) = record
            .start_position()
            .ok()
            .and_then(|s| replay(&record, s).ok())
        else {
            continue;
        };
        let names = [
            record.header("White").unwrap_or("White").to_string(),
            record.header("Black").unwrap_or("Black").to_string(),
        ];
        for ply in plies.iter().skip(40) {
            let p = ply.position;
            if p.tuzdek(Side::White).is_some()
                && p.tuzdek(Side::Black).is_some()
                && ply.report.captured > 0
                && !p.is_over()
            {
                let v = BoardView {
                    position: p,
                    last_move: Some(ply.report),
                    names: names.clone(),
                    perspective: Side::White,
                    lang: Lang::En,
                    result_line: None,
                    hint: None,
                };
                return (v, names);
            }
        }
    }
    panic!("no game in the data has both tuzdeks");
}

fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(&x, y)| x.abs_diff(y) <= 6)
}

#[test]
fn decodes_at_the_documented_size_and_stays_small() {
    let (mid, _) = real_midgame();
    let mut finished = view(
        Position::from_fen("2,0,0,1,0,0,0,0,0/0,0,3,0,0,0,2,0,0 84/70 b 40").expect("fen"),
        None,
        Side::Black,
    );
    finished.lang = Lang::Kk;
    let full_stores = Position::from_fen("0,0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,0,0 80/80 w 60");
    let mut boards = vec![
        view(Position::default(), None, Side::White),
        mid,
        finished,
        view(full_stores.expect("fen"), None, Side::White),
    ];
    // A pile of 40 balls and a long Russian name.
    let mut pile = Position::default();
    let mut last = None;
    for pit in [1, 1, 2, 1, 3, 1] {
        last = pile.play(pit).ok().or(last);
    }
    let mut busy = view(pile, last, Side::Black);
    busy.lang = Lang::Ru;
    busy.names[0] = "Александр Константинович Преображенский".into();
    boards.push(busy);
    for board in &boards {
        let bytes = png(board).expect("renders");
        assert!(bytes.len() <= MAX_BYTES, "{} bytes", bytes.len());
        let img = decode(&bytes);
        assert_eq!((img.width, img.height), (layout::WIDTH, layout::HEIGHT));
    }
}

#[test]
fn the_same_board_gives_the_same_bytes() {
    let (mid, _) = real_midgame();
    let first = png(&mid).expect("renders");
    let again = std::thread::spawn(move || png(&mid).expect("renders"))
        .join()
        .expect("thread");
    assert_eq!(first, again);
}

#[test]
fn rings_mark_the_last_move_for_either_viewer() {
    // White plays 7: played from White 7, the last ball lands in Black 6.
    let mut position = Position::default();
    let report = position.play(7).expect("legal");
    for perspective in Side::BOTH {
        let img = decode(&png(&view(position, Some(report), perspective)).expect("renders"));
        let ring = |side, pit| img.at(layout::ring_probe(layout::pit_rect(perspective, side, pit)));
        assert!(
            close(ring(Side::White, 7), PLAYED_COLOR),
            "{:?}",
            ring(Side::White, 7)
        );
        assert!(
            close(ring(Side::Black, 6), LANDED_COLOR),
            "{:?}",
            ring(Side::Black, 6)
        );
        for (side, pit) in [(Side::White, 6), (Side::Black, 7), (Side::Black, 3)] {
            let c = ring(side, pit);
            assert!(!close(c, PLAYED_COLOR) && !close(c, LANDED_COLOR), "{c:?}");
        }
    }
    // No last move, no rings.
    let img = decode(&png(&view(Position::default(), None, Side::White)).expect("renders"));
    let c = img.at(layout::ring_probe(layout::pit_rect(
        Side::White,
        Side::White,
        7,
    )));
    assert!(!close(c, PLAYED_COLOR));
}

#[test]
fn tuzdeks_are_filled_red_on_the_right_pits() {
    let position = Position::from_fen(TUZDEKS).expect("fen");
    for perspective in Side::BOTH {
        let img = decode(&png(&view(position, None, perspective)).expect("renders"));
        for side in Side::BOTH {
            for pit in 1..=9 {
                let probe = layout::fill_probe(layout::pit_rect(perspective, side, pit));
                let red = close(img.at(probe), TUZDEK_COLOR);
                assert_eq!(red, position.is_tuzdek(side, pit), "{side:?} {pit}");
            }
        }
    }
}

/// The samples in docs/ are what the renderer draws today, byte for byte.
#[test]
fn docs_samples_are_current() {
    let (mut mid, _) = real_midgame();
    let mut samples = vec![("board.png", mid.clone())];
    mid.perspective = Side::Black;
    mid.lang = Lang::Kk;
    samples.push(("board-kk.png", mid.clone()));
    let mut finished = view(
        Position::from_fen("2,0,0,1,0,0,0,0,0/0,0,3,0,0,0,2,0,0 84/70 b 40").expect("fen"),
        None,
        Side::White,
    );
    finished.lang = Lang::Ru;
    samples.push(("board-finished-ru.png", finished));
    samples.push((
        "board-start.png",
        view(Position::default(), None, Side::White),
    ));

    let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs");
    let bless = std::env::var_os("TOGUZ_BLESS").is_some();
    for (file, v) in samples {
        let bytes = png(&v).expect("renders");
        let path = docs.join(file);
        if bless {
            std::fs::write(&path, &bytes).expect("write sample");
            continue;
        }
        let stored = std::fs::read(&path).unwrap_or_default();
        assert!(
            stored == bytes,
            "{} differs from the renderer's output; if the change is intended, run \
             TOGUZ_BLESS=1 cargo test --test render",
            path.display()
        );
    }
}
