//! The explorer buttons' codec: every field round-trips within `MAX_LEN` bytes at its
//! longest, and forged or malformed data is refused (never a panic).

use super::*;
use crate::explorer::Band;

fn at(from: ExplorerFrom, moves: &[u8]) -> ExplorerAt {
    ExplorerAt {
        from,
        category: None,
        band: None,
        moves: moves.to_vec(),
    }
}

#[test]
fn explorer_buttons_round_trip_at_their_longest() {
    let longest = vec![9; EXPLORER_BUTTON_MOVES];
    let buttons = [
        Button::Explorer {
            owner: u64::MAX.to_string(),
            at: ExplorerAt {
                from: ExplorerFrom::Player("Ab-_9zZ0".into()),
                category: Some(3),
                band: Some(Band::From2000),
                moves: longest,
            },
        },
        Button::Explorer {
            owner: "0".into(),
            at: at(ExplorerFrom::All, &[]),
        },
        Button::Explorer {
            owner: "123456789".into(),
            at: ExplorerAt {
                category: Some(0),
                band: Some(Band::Unrated),
                ..at(ExplorerFrom::Chat, &[7, 7, 2])
            },
        },
        Button::Explorer {
            owner: "36".into(),
            at: at(ExplorerFrom::Masters, &[1]),
        },
        Button::Explorer {
            owner: "35".into(),
            at: at(ExplorerFrom::Club, &[1, 2, 3, 4, 5, 6, 7, 8, 9]),
        },
        Button::Opening {
            game: "z".repeat(16),
        },
    ];
    for button in buttons {
        let data = encode(&button);
        assert!(data.len() <= MAX_LEN, "{data} is {} bytes", data.len());
        assert_eq!(decode(&data), Ok(button.clone()), "{data}");
        assert_eq!(button.clone().into_action(), None);
    }
    // The owner in base 36: 36 is "10".
    let button = Button::Explorer {
        owner: "36".into(),
        at: ExplorerAt {
            band: Some(Band::From1200),
            ..at(ExplorerFrom::Masters, &[7, 7, 2])
        },
    };
    assert_eq!(encode(&button), "1o:10:m-2:772");
}

#[test]
fn forged_explorer_data_is_refused() {
    let too_long = format!("1o:1:a--:{}", "1".repeat(EXPLORER_BUTTON_MOVES + 1));
    let bad = [
        "1o",
        "1o:",
        "1o:1",
        "1o:1:a--",
        "1o:1:a--:7:7",
        "1o::a--:7",
        "1o:01:a--:7",
        "1o:A:a--:7",
        "1o:-1:a--:7",
        "1o:zzzzzzzzzzzzz:a--:7",
        "1o:1:a-:7",
        "1o:1:--:7",
        "1o:1:x--:7",
        "1o:1:a4-:7",
        "1o:1:a-5:7",
        "1o:1:a-x:7",
        "1o:1:a--:0",
        "1o:1:a--:7a",
        "1o:1:a--:٣",
        "1o:1:aé-:7",
        "1o:1:é--:7",
        "1o:1:p1234567--:7",
        "1o:1:p123456789--:7",
        "1o:1:p1234567:--:7",
        "1o:1:p1234.678--:7",
        "1op",
        "1op:",
        "1op:AB",
        "1op:ab:1",
        &too_long,
    ];
    for data in bad {
        assert!(decode(data).is_err(), "{data:?} was accepted");
    }
}
