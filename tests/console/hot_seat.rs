//! `toguz play --white A --black B`: two people at one keyboard, a rated game between the
//! two names, and the console's `history` and `stats` (issue 16).

use super::run_play;

#[test]
fn a_hot_seat_game_is_rated_and_shows_in_history_and_stats() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--white", "Aigerim", "--black", "Daulet", "--lang", "en"];
    // White moves, Black moves, White resigns (the player to move resigns).
    let input = "7\n9\nresign\nhistory\nstats Daulet\nstats Nobody\nquit\n";
    let (out, err, ok) = run_play(dir.path(), &args, input);
    assert!(ok, "stderr: {err}");
    assert!(
        out.contains("Aigerim plays White, Daulet plays Black. The game is rated."),
        "{out}"
    );
    let words = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("Black wins: Daulet. Aigerim resigned."),
        "{out}"
    );
    assert!(
        words.contains("Ratings: Aigerim 1338? (-162), Daulet 1662? (+162)"),
        "{out}"
    );
    // `history` at the end of the game is White's (the player at the keyboard).
    assert!(out.contains("Games of Aigerim, page 1:"), "{out}");
    assert!(
        out.contains(": Aigerim – Daulet, lost, 1338? (-162)"),
        "{out}"
    );
    assert!(out.contains("Results of Daulet:"), "{out}");
    assert!(
        out.contains("Correspondence: rating 1662?, deviation 290; rated games: 1 (wins/draws/losses: 1/0/0)"),
        "{out}"
    );
    assert!(out.contains("Nobody has no finished games yet."), "{out}");

    // The ratings are kept: the next session's stats read them back.
    let (out2, err2, ok2) = run_play(dir.path(), &args, "stats\nquit\n");
    assert!(ok2, "stderr: {err2}");
    assert!(out2.contains("Correspondence: rating 1338?"), "{out2}");
}

#[test]
fn the_bot_players_history_is_their_own_and_names_must_differ() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--level", "random", "--colour", "white", "--lang", "ru"];
    let (out, err, ok) = run_play(
        dir.path(),
        &args,
        "история\nresign\nистория\nстатистика\nquit\n",
    );
    assert!(ok, "stderr: {err}");
    assert!(out.contains("У вас пока нет завершённых партий."), "{out}");
    assert!(out.contains("Ваши партии, страница 1:"), "{out}");
    assert!(out.contains("Партии с ботом (случайный): 0/0/1"), "{out}");
    let (_, err, ok) = run_play(dir.path(), &["--white", "A", "--black", " A "], "");
    assert!(!ok && err.contains("two different players"), "{err}");
}
