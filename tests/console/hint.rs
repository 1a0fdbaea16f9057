//! `hint` in the terminal game: the bot's move for the player, three per game, then a
//! refusal; in Kazakh too; refused at a hot seat (a game between people).

use super::run_play;

#[test]
fn three_hints_then_none_and_the_count_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--level", "random", "--colour", "white", "--lang", "en"];
    let (out, err, ok) = run_play(dir.path(), &args, "hint\nhint\nquit\n");
    assert!(ok, "stderr: {err}");
    assert_eq!(out.matches("Hint: play pit ").count(), 2, "{out}");
    assert!(out.contains("You have 2 hints left in this game."), "{out}");
    assert!(
        out.contains("You have one hint left in this game."),
        "{out}"
    );
    // The same position, the same hint.
    let pits: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("Hint: play pit "))
        .collect();
    assert_eq!(pits[0], pits[1], "{out}");
    // Resumed after a restart: one hint left, then none.
    let (out, err, ok) = run_play(dir.path(), &args, "hint\nhint\n");
    assert!(ok, "stderr: {err}");
    assert!(out.contains("Resuming your unfinished game"), "{out}");
    assert!(
        out.contains("That was your last hint in this game."),
        "{out}"
    );
    assert!(
        out.contains("You have used all your hints in this game (3 per game)."),
        "{out}"
    );
}

#[test]
fn a_hint_speaks_kazakh_and_is_refused_at_a_hot_seat() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--level", "random", "--colour", "white", "--lang", "kk"];
    let (out, err, ok) = run_play(dir.path(), &args, "кеңес\n");
    assert!(ok, "stderr: {err}");
    assert!(out.contains("Кеңес: "), "{out}");
    assert!(out.contains("-отаудан жүріңіз"), "{out}");
    assert!(
        out.contains("Бұл ойында тағы 2 рет кеңес алуға болады."),
        "{out}"
    );

    let dir = tempfile::tempdir().unwrap();
    let args = ["--white", "Aigerim", "--black", "Daulet", "--lang", "en"];
    let (out, err, ok) = run_play(dir.path(), &args, "hint\n");
    assert!(ok, "stderr: {err}");
    assert!(
        out.contains("Hints are only given in casual games against the bot."),
        "{out}"
    );
}
