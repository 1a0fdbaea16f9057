//! Days per move (issue 51) in the commands that take a time control.

use super::tests::{err, ok};
use super::*;
use crate::rules::TuzdekRule;

/// Issue 51: days per move, typed as people write them in each language, before or after
/// the other words; a number of days no game may have is refused naming those it may.
#[test]
fn days_per_move_go_with_play_challenge_and_tournaments() {
    let challenge = |named: Option<&str>, days| Command::Challenge {
        named: named.map(str::to_string),
        time: Some(TimeControl::Days(days)),
        rated: true,
        variant: Variant::STANDARD,
    };
    assert_eq!(ok("/challenge @bob 2 days"), challenge(Some("@bob"), 2));
    assert_eq!(ok("/challenge @bob 2d"), challenge(Some("@bob"), 2));
    assert_eq!(ok("/challenge 5 дней @bob"), challenge(Some("@bob"), 5));
    assert_eq!(ok("/challenge 1 день"), challenge(None, 1));
    assert_eq!(ok("/challenge @bob 2 суток"), challenge(Some("@bob"), 2));
    assert_eq!(ok("/challenge 3 күн @bob"), challenge(Some("@bob"), 3));
    assert_eq!(
        ok("/challenge @bob 14 days unrated"),
        Command::Challenge {
            named: Some("@bob".into()),
            time: Some(TimeControl::Days(14)),
            rated: false,
            variant: Variant::STANDARD,
        }
    );
    assert_eq!(
        ok("/play easy 7 дней"),
        Command::Play {
            level: Some(Level::Easy),
            time: Some(TimeControl::Days(7)),
            variant: Variant::STANDARD,
        }
    );
    assert_eq!(
        ok("/play 2 күн жаңа бастаушы"),
        Command::Play {
            level: Some(Level::Beginner),
            time: Some(TimeControl::Days(2)),
            variant: Variant::STANDARD,
        }
    );
    for (bad, typed) in [
        ("/challenge @bob 4 days", "4 days"),
        ("/play easy 30 дней", "30 дней"),
        ("/challenge 4d @bob", "4d"),
        ("/tournament new swiss 4 дня", "4 дня"),
    ] {
        let error = err(bad);
        assert_eq!(
            error,
            CommandError::Time(TimeControlError::Days(typed.into())),
            "{bad}"
        );
        for lang in Lang::ALL {
            let text = error.text(lang);
            assert!(
                text.contains(typed) && text.contains("1, 2, 3, 5, 7"),
                "{lang}: {text}"
            );
        }
    }
    let new = |text: &str| match ok(text) {
        Command::Tournament(TournamentCommand::New(new)) => new,
        other => panic!("{text}: {other:?}"),
    };
    // The number before a word for days is the time, not the rounds.
    let swiss = new("/tournament new swiss 2 days");
    assert_eq!(
        (swiss.format, swiss.time),
        (
            TournamentFormat::Swiss {
                rounds: SWISS_ROUNDS
            },
            TimeControl::Days(2)
        )
    );
    let swiss = new("/tournament new swiss 7 3 дня через 10 минут");
    assert_eq!(
        (swiss.format, swiss.time, swiss.starts_in),
        (
            TournamentFormat::Swiss { rounds: 7 },
            TimeControl::Days(3),
            10
        )
    );
    // An inline challenge (`@bot 2 дня`) takes them too.
    assert_eq!(
        inline_terms("2 дня unrated"),
        Ok((Variant::STANDARD, Some(TimeControl::Days(2)), false))
    );
    assert_eq!(
        inline_terms("5 balls 7d"),
        Ok((
            Variant::new(5, TuzdekRule::Standard).unwrap(),
            Some(TimeControl::Days(7)),
            true
        ))
    );
    // An arena races its own clock: no days per move.
    assert!(matches!(
        err("/tournament new arena 2 days"),
        CommandError::Tournament(_)
    ));
}
