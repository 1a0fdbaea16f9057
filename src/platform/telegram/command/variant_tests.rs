use super::*;

fn variant(balls: u8, tuzdek: TuzdekRule) -> Variant {
    Variant::new(balls, tuzdek).expect("a variant")
}

fn ok(args: &str) -> (String, Variant) {
    take(args).unwrap_or_else(|e| panic!("{args}: {e:?}"))
}

#[test]
fn no_variant_words_leave_the_standard_game_and_every_word() {
    assert_eq!(ok(""), (String::new(), Variant::STANDARD));
    assert_eq!(
        ok("easy 5+3 @bob без рейтинга"),
        ("easy 5+3 @bob без рейтинга".into(), Variant::STANDARD)
    );
    // Numbers without a ball word are someone else's: a time control, a count of rounds.
    assert_eq!(ok("swiss 7 5 in 10 minutes").0, "swiss 7 5 in 10 minutes");
}

#[test]
fn english_words_anywhere_among_the_others() {
    let five = variant(5, TuzdekRule::Standard);
    assert_eq!(ok("easy 5 balls"), ("easy".into(), five));
    assert_eq!(ok("5 Balls easy 3+2"), ("easy 3+2".into(), five));
    assert_eq!(ok("@bob 5 balls per pit"), ("@bob".into(), five));
    assert_eq!(
        ok("3 balls each unrated"),
        ("unrated".into(), variant(3, TuzdekRule::Standard))
    );
    assert_eq!(ok("9 balls"), (String::new(), Variant::STANDARD));
    let off = variant(9, TuzdekRule::Off);
    assert_eq!(ok("no tuzdek"), (String::new(), off));
    assert_eq!(ok("hard No Tuzdeks 10+5"), ("hard 10+5".into(), off));
    assert_eq!(ok("without tuzdyk"), (String::new(), off));
    // As records and `toguz play --variant` write it.
    assert_eq!(
        ok("5 balls No-Tuzdek"),
        (String::new(), variant(5, TuzdekRule::Off))
    );
    assert_eq!(
        ok("ninth-tuzdek"),
        (String::new(), variant(9, TuzdekRule::NinthAllowed))
    );
    let ninth = variant(9, TuzdekRule::NinthAllowed);
    assert_eq!(ok("ninth pit"), (String::new(), ninth));
    assert_eq!(ok("easy tuzdek on the ninth pit"), ("easy".into(), ninth));
    assert_eq!(ok("pit 9 @bob"), ("@bob".into(), ninth));
    assert_eq!(
        ok("3 balls no tuzdek 1+0"),
        ("1+0".into(), variant(3, TuzdekRule::Off))
    );
    assert_eq!(
        ok("arena 60 5 balls ninth pit in 10 minutes"),
        (
            "arena 60 in 10 minutes".into(),
            variant(5, TuzdekRule::NinthAllowed)
        )
    );
}

#[test]
fn russian_words_with_their_endings() {
    let five = variant(5, TuzdekRule::Standard);
    assert_eq!(ok("лёгкий 5 шаров"), ("лёгкий".into(), five));
    assert_eq!(ok("по 5 шаров в лунке"), (String::new(), five));
    assert_eq!(
        ok("3 шара"),
        (String::new(), variant(3, TuzdekRule::Standard))
    );
    assert_eq!(ok("по 3 шара в каждой лунке 3+2").0, "3+2");
    let off = variant(9, TuzdekRule::Off);
    assert_eq!(ok("без туздыков"), (String::new(), off));
    assert_eq!(ok("Без туздыка товарищеская"), ("товарищеская".into(), off));
    let ninth = variant(9, TuzdekRule::NinthAllowed);
    assert_eq!(ok("девятая лунка"), (String::new(), ninth));
    assert_eq!(ok("туздык в девятой лунке @bob"), ("@bob".into(), ninth));
    // "Without a rating" is no tuzdek rule.
    assert_eq!(ok("5 шаров без рейтинга"), ("без рейтинга".into(), five));
    // Stones and kumalaks are balls too, and the ninth pit may be written with a figure.
    assert_eq!(ok("5 камней"), (String::new(), five));
    assert_eq!(ok("по 5 камешков в лунке"), (String::new(), five));
    assert_eq!(ok("5 кумалаков лёгкий"), ("лёгкий".into(), five));
    assert_eq!(ok("9-я лунка"), (String::new(), ninth));
    assert_eq!(ok("туздык в 9-й лунке 5+3"), ("5+3".into(), ninth));
    assert_eq!(ok("5 stones"), (String::new(), five));
    assert_eq!(ok("9th pit"), (String::new(), ninth));
}

#[test]
fn kazakh_words_with_their_endings() {
    let five = variant(5, TuzdekRule::Standard);
    assert_eq!(ok("жеңіл 5 құмалақ"), ("жеңіл".into(), five));
    assert_eq!(ok("әр отауда 5 құмалақтан"), (String::new(), five));
    assert_eq!(ok("3 құмалақтан рейтингсіз").0, "рейтингсіз");
    let off = variant(9, TuzdekRule::Off);
    assert_eq!(ok("тұздықсыз"), (String::new(), off));
    let ninth = variant(9, TuzdekRule::NinthAllowed);
    assert_eq!(ok("тоғызыншы отау"), (String::new(), ninth));
    assert_eq!(ok("тоғызыншы отаудан тұздық 5+3"), ("5+3".into(), ninth));
    // The figure with its ending, or in one word with the pit.
    assert_eq!(ok("9-шы отау"), (String::new(), ninth));
    assert_eq!(ok("9-отау жеңіл"), ("жеңіл".into(), ninth));
    assert_eq!(ok("9-отаудан тұздық"), (String::new(), ninth));
    assert_eq!(
        ok("5 құмалақ тұздықсыз"),
        (String::new(), variant(5, TuzdekRule::Off))
    );
}

#[test]
fn bad_counts_loose_words_and_contradictions_are_errors() {
    let err = |args: &str| take(args).expect_err(args);
    assert_eq!(err("4 balls"), VariantWordsError::Balls("4 balls".into()));
    assert_eq!(
        err("по 10 шаров"),
        VariantWordsError::Balls("10 шаров".into())
    );
    assert_eq!(
        err("300 құмалақ"),
        VariantWordsError::Balls("300 құмалақ".into())
    );
    assert_eq!(
        err("easy balls"),
        VariantWordsError::Unclear("balls".into())
    );
    assert_eq!(
        err("five balls"),
        VariantWordsError::Unclear("balls".into())
    );
    assert_eq!(err("tuzdek"), VariantWordsError::Unclear("tuzdek".into()));
    assert_eq!(
        err("с туздыком"),
        VariantWordsError::Unclear("туздыком".into())
    );
    assert_eq!(err("ninth"), VariantWordsError::Unclear("ninth".into()));
    assert_eq!(err("девятая"), VariantWordsError::Unclear("девятая".into()));
    assert_eq!(err("9-я"), VariantWordsError::Unclear("9-я".into()));
    assert_eq!(
        err("5 balls 3 balls"),
        VariantWordsError::Clash("5 balls".into(), "3 balls".into())
    );
    assert_eq!(
        err("no tuzdek ninth pit"),
        VariantWordsError::Clash("no tuzdek".into(), "ninth pit".into())
    );
    assert_eq!(
        err("тұздықсыз тоғызыншы отау"),
        VariantWordsError::Clash("тұздықсыз".into(), "тоғызыншы отау".into())
    );
    // The same term twice says nothing new.
    assert_eq!(ok("5 balls 5 шаров").1, variant(5, TuzdekRule::Standard));
}
