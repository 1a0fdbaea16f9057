//! Issue 7: `toguz play --lang kk` and `--lang ru` show the help and a whole game in that
//! language.

use super::run_play;

fn play_whole_game(lang: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    // Help, a bad command, then every pit in turn until the game is long over.
    let mut input = String::from("help\nxyz\n");
    for _ in 0..120 {
        for pit in 1..=9 {
            input.push_str(&format!("{pit}\n"));
        }
    }
    input.push_str("record\nquit\n");
    let args = ["--level", "random", "--colour", "white", "--lang", lang];
    let (out, err, ok) = run_play(dir.path(), &args, &input);
    assert!(ok, "{err}");
    // The board wraps long lines: the words, one space apart.
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// English phrases from the console and manager catalogs that must not appear.
const ENGLISH: [&str; 13] = [
    "You ",
    "Commands",
    "to move",
    "Last move",
    "played",
    "wins",
    "drawn",
    "The game is over",
    "Type new",
    "Game saved",
    "I do not know",
    "is empty",
    "New game",
];

fn assert_no_english(out: &str) {
    for phrase in ENGLISH {
        assert!(!out.contains(phrase), "English {phrase:?} in:\n{out}");
    }
}

#[test]
fn kazakh_help_and_a_whole_game() {
    let out = play_whole_game("kk");
    assert!(out.contains("Командалар:"), "{out}");
    assert!(out.contains("сіз ақтармен ойнайсыз"), "{out}");
    assert!(out.contains("«xyz» командасын білмеймін"), "{out}");
    assert!(out.contains("Ойын аяқталды."), "the game ended:\n{out}");
    assert!(
        out.contains("Сіз жеңдіңіз.")
            || out.contains("Қаралар жеңді: Бот (кездейсоқ).")
            || out.contains("Ойын тең аяқталды."),
        "a result in Kazakh:\n{out}"
    );
    assert!(
        !out.contains(": Сіз."),
        "“you” in a third-person result:\n{out}"
    );
    assert!(out.contains("Бот (кездейсоқ)"), "{out}");
    assert!(out.contains("Ойын сақталды. Сау болыңыз!"), "{out}");
    assert!(
        out.contains("Бұл ойын аяқталып қойған."),
        "moves after the end:\n{out}"
    );
    assert_no_english(&out);
}

#[test]
fn russian_help_and_a_whole_game() {
    let out = play_whole_game("ru");
    assert!(out.contains("Команды:"), "{out}");
    assert!(out.contains("вы играете белыми против бота"), "{out}");
    assert!(out.contains("Команда «xyz» мне незнакома"), "{out}");
    assert!(out.contains("Партия окончена."), "the game ended:\n{out}");
    assert!(
        out.contains("Вы победили.")
            || out.contains("Победили чёрные: Бот (случайный).")
            || out.contains("Партия закончилась вничью."),
        "a result in Russian:\n{out}"
    );
    assert!(
        !out.contains(": Вы."),
        "“you” in a third-person result:\n{out}"
    );
    assert!(out.contains("Бот (случайный)"), "{out}");
    assert!(out.contains("Партия сохранена. До встречи!"), "{out}");
    assert_no_english(&out);
}

/// The console's player is "you": a resignation says "Вы сдались" / "Сіз берілдіңіз", not
/// the third person of the chat platforms ("Вы сдаётся").
#[test]
fn resigning_speaks_to_you() {
    for (lang, resigned, winner) in [
        ("ru", "Вы сдались.", "Победили чёрные: Бот (случайный)."),
        ("kk", "Сіз берілдіңіз.", "Қаралар жеңді: Бот (кездейсоқ)."),
        ("en", "You resigned.", "Black wins: Bot (random)."),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let args = ["--level", "random", "--colour", "white", "--lang", lang];
        let (out, err, ok) = run_play(dir.path(), &args, "resign\nquit\n");
        assert!(ok, "{err}");
        // The board may wrap the result line: compare words, and see it once.
        let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
        let line = format!("{winner} {resigned}");
        assert_eq!(words.matches(&line).count(), 1, "{lang}:\n{out}");
        for wrong in ["Вы сдаётся", "Сіз жеңілгенін", "You wins"] {
            assert!(!out.contains(wrong), "{lang}: {wrong}:\n{out}");
        }
    }
}
