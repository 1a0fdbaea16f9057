//! `review` in the terminal game: refused while the game goes on, then the bot's review of
//! the finished game (accuracy and largest mistakes per side), the same when asked again.

use super::run_play;

#[test]
fn a_finished_game_is_reviewed_and_an_ongoing_one_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--level", "random", "--colour", "white", "--lang", "en"];
    let input = "review\n7\nresign\nreview\nreview\n";
    let (out, err, ok) = run_play(dir.path(), &args, input);
    assert!(ok, "stderr: {err}");
    assert!(out.contains("The game is still going on."), "{out}");
    assert_eq!(
        out.matches("The bot is going through the game…").count(),
        1,
        "the second review is the kept one:\n{out}"
    );
    let title = "Game review: You – Bot (random). Black wins: Bot (random). You resigned.";
    assert_eq!(out.matches(title).count(), 2, "{out}");
    assert_eq!(out.matches("White, You: accuracy ").count(), 2, "{out}");
    assert_eq!(
        out.matches("Black, Bot (random): accuracy ").count(),
        2,
        "{out}"
    );
    // Both reviews say the same, line for line.
    let reviews: Vec<&str> = out.split(title).skip(1).collect();
    let summary = |s: &str| -> String {
        s.lines()
            .take_while(|l| !l.starts_with("Game saved"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(summary(reviews[0]), summary(reviews[1]));
}

#[test]
fn the_review_speaks_russian_and_takes_the_russian_word() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--level", "random", "--colour", "white", "--lang", "ru"];
    let (out, err, ok) = run_play(dir.path(), &args, "7\nсдаться\nразбор\n");
    assert!(ok, "stderr: {err}");
    assert!(out.contains("Бот разбирает партию…"), "{out}");
    assert!(
        out.contains("Разбор партии: Вы – Бот (случайный)."),
        "{out}"
    );
    assert!(out.contains("Белые, Вы: точность "), "{out}");
}
