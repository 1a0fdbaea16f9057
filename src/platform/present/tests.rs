//! Tests of the shared presentation policy.
use super::*;
use crate::manager::puzzles::PuzzleError;
use crate::manager::tournament::TournamentError;
use crate::model::{ChatRef, Level, Platform};
use crate::rules::Position;

fn user(id: &str) -> UserRef {
    UserRef::new(Platform::Telegram, id, id.to_uppercase())
}

fn view() -> GameView {
    let mut position = Position::default();
    let report = position.play(7).ok();
    let players = [Player::Human(user("a")), Player::Bot(Level::Easy)];
    let chat = ChatRef::new(Platform::Telegram, "c");
    GameView {
        position,
        ply: 1,
        last_move: report,
        moves: "1. 76".into(),
        timeout_at: Some(72 * 3600),
        bot_busy: None,
        ..GameView::sample("abc123", chat, players)
    }
}

#[test]
fn a_board_is_drawn_for_and_speaks_the_language_of_the_person_to_move() {
    // The manager puts each player's language into the view: "a" speaks Russian, "b"
    // Kazakh, the bot English.
    let lang = board_lang;
    let bot_game = GameView {
        langs: [Lang::Ru, Lang::En],
        ..view()
    };
    // Against the bot, the person plays whoever is to move (the bot is, after 1. 76).
    assert_eq!(viewer(&bot_game), Some(&user("a")));
    assert_eq!(lang(&bot_game), Lang::Ru);
    // Between people, the one to move, whoever pressed last.
    let chat = ChatRef::new(Platform::Telegram, "c");
    let mut people = GameView::sample(
        "p1",
        chat,
        [Player::Human(user("a")), Player::Human(user("b"))],
    );
    people.langs = [Lang::Ru, Lang::Kk];
    assert_eq!(viewer(&people), Some(&user("a")));
    assert_eq!(lang(&people), Lang::Ru);
    people.position.play(1).unwrap();
    assert_eq!(viewer(&people), Some(&user("b")));
    assert_eq!(lang(&people), Lang::Kk);
    // No person plays: White's side, in English.
    let bots = GameView {
        players: [Player::Bot(Level::Easy), Player::Bot(Level::Hard)],
        langs: [Lang::Ru, Lang::Kk],
        ..view()
    };
    assert_eq!(viewer(&bots), None);
    assert_eq!(lang(&bots), Lang::En);
}

#[test]
fn only_refusals_about_the_presser_and_an_unknown_outcome_are_alerts() {
    let alerts: Vec<ActionError> = every_error().into_iter().filter(is_alert).collect();
    assert_eq!(alerts.len(), 6, "{alerts:?}");
    assert!(alerts.iter().all(|e| matches!(
        e,
        ActionError::NotYourTurn
            | ActionError::NotYourGame
            | ActionError::NotForYou
            | ActionError::NotYourChallenge
            | ActionError::Puzzle(PuzzleError::NotYours)
            | ActionError::OutcomeUnknown(_)
    )));
}

#[test]
fn a_challenge_counts_its_time_left_on_the_managers_clock() {
    let rec = crate::manager::ChallengeRecord {
        id: "ch0001".into(),
        challenger: user("a"),
        opponent: None,
        variant: Variant::STANDARD,
        chat: ChatRef::new(Platform::Telegram, "-1"),
        created_at: 1_000,
        expires_at: 1_600,
        status: ChallengeStatus::Open,
        challenger_side: None,
        rematch_of: None,
        messages: vec![],
        rated: true,
        time_control: Default::default(),
        time_changeable: false,
        time_changes: 0,
    };
    // A manual clock far from the system's: the text follows it.
    let text = challenge_text(&rec.view(1_000), Lang::En);
    assert!(text.contains("Open for 10 minutes"), "{text}");
    let text = challenge_text(&rec.view(1_590), Lang::En);
    assert!(text.contains("Open for 1 minute"), "{text}");
    assert!(!challenge_text(&rec.view(1_600), Lang::En).contains("Open for"));
}

#[test]
fn a_game_between_people_shows_its_move_deadline() {
    let mut v = view();
    assert!(
        !caption(&v, Lang::En).contains("hours"),
        "not against the bot"
    );
    v.players[1] = Player::Human(user("b"));
    v.last_move_at = 0;
    let en = caption(&v, Lang::En);
    assert!(en.contains("Move within 72 hours"), "{en}");
    let ru = caption(&v, Lang::Ru);
    assert!(ru.contains("72 часов"), "{ru}");
}

#[test]
fn a_busy_bot_is_announced_in_each_language() {
    let mut v = view();
    assert!(!caption(&v, Lang::En).contains("busy"));
    v.bot_busy = Some(3);
    let en = caption(&v, Lang::En);
    assert!(
        en.ends_with("busy with other games (3 are ahead of yours); it will move shortly."),
        "{en}"
    );
    v.bot_busy = Some(0);
    let en = caption(&v, Lang::En);
    assert!(
        en.ends_with("busy with other games; it will move shortly."),
        "{en}"
    );
    v.bot_busy = Some(2);
    let ru = caption(&v, Lang::Ru);
    assert!(
        ru.contains("занят другими партиями (в очереди перед вашей ещё 2) и скоро"),
        "{ru}"
    );
    let kk = caption(&v, Lang::Kk);
    assert!(kk.contains("тағы 2 ойын бар), көп ұзамай жүреді."), "{kk}");
}

#[test]
fn captions_name_the_turn_and_the_last_move_in_each_language() {
    let v = view();
    let en = caption(&v, Lang::En);
    assert!(en.contains("Black to move: Bot (easy)"), "{en}");
    assert!(en.contains("Last move: A, 76"), "{en}");
    let ru = caption(&v, Lang::Ru);
    assert!(ru.contains("\nХод чёрных: Бот (лёгкий)"), "{ru}");
    let kk = caption(&v, Lang::Kk);
    assert!(kk.contains("\nҚаралардың жүрісі: Бот (жеңіл)"), "{kk}");
    assert!(kk.contains("Қазандар"), "{kk}");
}

#[test]
fn results_say_who_won_and_why() {
    let mut v = view();
    v.status = GameStatus::Finished {
        winner: Some(Side::Black),
        reason: FinishReason::Resigned(Side::White),
    };
    let text = result_text(&v, Lang::En).unwrap();
    assert_eq!(text, "Black wins: Bot (easy). A resigned.");
    assert!(caption(&v, Lang::Ru).contains("Победили чёрные: Бот (лёгкий). A сдаётся."));
    assert_eq!(
        result_text(&v, Lang::Kk).unwrap(),
        "Қаралар жеңді: Бот (жеңіл). A берілді."
    );
    v.status = GameStatus::Finished {
        winner: Some(Side::White),
        reason: FinishReason::TimedOut(Side::Black),
    };
    assert_eq!(
        result_text(&v, Lang::Ru).unwrap(),
        "Победили белые: A. Бот (лёгкий): время на ход истекло."
    );
    v.status = GameStatus::Finished {
        winner: None,
        reason: FinishReason::Board(EndReason::EqualKazans),
    };
    assert_eq!(
        result_text(&v, Lang::Ru).unwrap(),
        "Партия закончилась вничью. В каждом казане — 81 шар."
    );
    assert!(board_view(&v, None, Lang::En).result_line.is_some());
}

/// One refusal of every kind the manager gives (each nested rule and limit too).
fn every_error() -> Vec<ActionError> {
    vec![
        ActionError::NotYourTurn,
        ActionError::NotYourGame,
        ActionError::NotForYou,
        ActionError::StaleBoard,
        ActionError::Illegal(MoveError::NoSuchPit(10)),
        ActionError::Illegal(MoveError::EmptyPit(3)),
        ActionError::Illegal(MoveError::TuzdekPit(7)),
        ActionError::Illegal(MoveError::GameOver),
        ActionError::NoSuchGame,
        ActionError::NoSuchChallenge,
        ActionError::ChallengeClosed,
        ActionError::TermsChanged {
            variant: Variant::STANDARD,
            time: crate::model::TimeControl::fischer(3, 2),
            rated: true,
        },
        ActionError::ChallengeSelf,
        ActionError::ChallengeBot,
        ActionError::NotYourChallenge,
        ActionError::Limit(LimitKind::UserChallenges(3)),
        ActionError::Limit(LimitKind::ChatChallenges(21)),
        ActionError::Limit(LimitKind::UserGames(5)),
        ActionError::Limit(LimitKind::ChatGames(2)),
        ActionError::Limit(LimitKind::UserTournaments(2)),
        ActionError::Limit(LimitKind::ChatTournaments(3)),
        ActionError::GameOver,
        ActionError::GameNotOver,
        ActionError::NoGameHere,
        ActionError::AmbiguousGame,
        ActionError::TooLateToAbort,
        ActionError::NoBerserkHere,
        ActionError::TooLateToBerserk,
        ActionError::DrawAlreadyOffered,
        ActionError::NoDrawOffer,
        ActionError::BotDeclinesDraw,
        ActionError::RematchExists,
        ActionError::NothingToReview,
        ActionError::NoFinishedGameHere,
        ActionError::ReviewsBusy,
        ActionError::ReviewPending,
        ActionError::HintsOnlyAgainstBot,
        ActionError::NoHintsLeft,
        ActionError::HintsBusy,
        ActionError::PremovesNotHere,
        ActionError::PremovesOnTheirTurn,
        ActionError::TooManyPremoves,
        ActionError::PremoveIllegal {
            line: 2,
            step: 3,
            pit: 7,
        },
        ActionError::PremovesDisagree { line: 4 },
        ActionError::PremoveLineUnfinished,
        ActionError::Storage("disk /var/lib/toguz full".into()),
        ActionError::StoreAway("connection refused".into()),
        ActionError::OutcomeUnknown("no answer to COMMIT".into()),
        ActionError::NoSuchTournament,
        ActionError::SignInRefused,
        ActionError::WebNotServed,
        ActionError::Tournament(TournamentError::AlreadyIn),
        ActionError::Tournament(TournamentError::NotIn),
        ActionError::Tournament(TournamentError::Started),
        ActionError::Tournament(TournamentError::Closed),
        ActionError::Tournament(TournamentError::Full),
        ActionError::Tournament(TournamentError::NotAllowed),
        ActionError::Tournament(TournamentError::RoundRunning),
        ActionError::Tournament(TournamentError::UnknownGame),
        ActionError::Tournament(TournamentError::TooFew),
        ActionError::Tournament(TournamentError::Pairing("disk: no pairing".into())),
        ActionError::Tournament(TournamentError::ByeSwissOnly),
        ActionError::Tournament(TournamentError::ByeRound { last: 5 }),
        ActionError::Tournament(TournamentError::TooManyByes),
        ActionError::Tournament(TournamentError::NoSuchRound { rounds: 5 }),
        ActionError::Puzzle(PuzzleError::NotYours),
        ActionError::Puzzle(PuzzleError::Over),
        ActionError::Puzzle(PuzzleError::Stale),
        ActionError::Puzzle(PuzzleError::DailyDone { solved: true }),
        ActionError::Puzzle(PuzzleError::DailyDone { solved: false }),
        ActionError::Puzzle(PuzzleError::Empty),
        ActionError::ExplorerMoves {
            step: 3,
            pit: "x".into(),
        },
        ActionError::ExplorerTooDeep { max: 60 },
    ]
}

/// The catalog key of each kind of refusal. No wildcard: a new variant breaks the build
/// here, and `every_error_has_text_in_every_language` then wants it in `every_error`.
fn error_key(err: &ActionError) -> &'static str {
    match err {
        ActionError::NotYourTurn => "manager-error-not-your-turn",
        ActionError::NotYourGame => "manager-error-not-your-game",
        ActionError::NotForYou => "manager-error-not-for-you",
        ActionError::StaleBoard => "manager-error-stale",
        ActionError::TermsChanged { .. } => "manager-error-terms-changed",
        ActionError::Illegal(m) => match m {
            MoveError::NoSuchPit(_) => "manager-error-no-such-pit",
            MoveError::EmptyPit(_) => "manager-error-empty-pit",
            MoveError::TuzdekPit(_) => "manager-error-tuzdek-pit",
            MoveError::GameOver => "manager-error-game-over",
        },
        ActionError::NoSuchGame => "manager-error-no-such-game",
        ActionError::NoSuchChallenge => "manager-error-no-such-challenge",
        ActionError::ChallengeClosed => "manager-error-challenge-closed",
        ActionError::ChallengeSelf => "manager-error-challenge-self",
        ActionError::ChallengeBot => "manager-error-challenge-bot",
        ActionError::NotYourChallenge => "manager-error-not-your-challenge",
        ActionError::Limit(l) => match l {
            LimitKind::UserChallenges(_) => "manager-error-limit-user-challenges",
            LimitKind::ChatChallenges(_) => "manager-error-limit-chat-challenges",
            LimitKind::UserGames(_) => "manager-error-limit-user-games",
            LimitKind::ChatGames(_) => "manager-error-limit-chat-games",
            LimitKind::UserTournaments(_) => "manager-error-limit-user-tournaments",
            LimitKind::ChatTournaments(_) => "manager-error-limit-chat-tournaments",
        },
        ActionError::GameOver => "manager-error-game-over",
        ActionError::GameNotOver => "manager-error-game-not-over",
        ActionError::NoGameHere => "manager-error-no-game-here",
        ActionError::AmbiguousGame => "manager-error-ambiguous",
        ActionError::TooLateToAbort => "manager-error-too-late-to-abort",
        ActionError::NoBerserkHere => "manager-error-no-berserk-here",
        ActionError::TooLateToBerserk => "manager-error-too-late-to-berserk",
        ActionError::DrawAlreadyOffered => "manager-error-draw-already-offered",
        ActionError::NoDrawOffer => "manager-error-no-draw-offer",
        ActionError::BotDeclinesDraw => "manager-error-bot-declines-draw",
        ActionError::RematchExists => "manager-error-rematch-exists",
        ActionError::NothingToReview => "manager-error-nothing-to-review",
        ActionError::NoFinishedGameHere => "manager-error-no-finished-game-here",
        ActionError::ReviewsBusy => "manager-error-reviews-busy",
        ActionError::ReviewPending => "manager-error-review-pending",
        ActionError::HintsOnlyAgainstBot => "manager-error-hints-only-against-bot",
        ActionError::NoHintsLeft => "manager-error-no-hints-left",
        ActionError::HintsBusy => "manager-error-hints-busy",
        ActionError::PremovesNotHere => "manager-error-premoves-not-here",
        ActionError::PremovesOnTheirTurn => "manager-error-premoves-on-their-turn",
        ActionError::TooManyPremoves => "manager-error-too-many-premoves",
        ActionError::PremoveIllegal { .. } => "manager-error-premove-illegal",
        ActionError::PremovesDisagree { .. } => "manager-error-premoves-disagree",
        ActionError::PremoveLineUnfinished => "manager-error-premove-line-unfinished",
        ActionError::ExplorerMoves { .. } => "manager-error-explorer-moves",
        ActionError::ExplorerTooDeep { .. } => "manager-error-explorer-too-deep",
        ActionError::Storage(_) => "manager-error-storage",
        ActionError::StoreAway(_) => "manager-error-store-away",
        ActionError::OutcomeUnknown(_) => "manager-error-outcome-unknown",
        ActionError::NoSuchTournament => "tournament-error-no-such",
        ActionError::SignInRefused => "manager-error-sign-in-refused",
        ActionError::WebNotServed => "manager-error-web-not-served",
        ActionError::Puzzle(p) => match p {
            PuzzleError::NotYours => "puzzle-error-not-yours",
            PuzzleError::Over => "puzzle-error-over",
            PuzzleError::Stale => "puzzle-error-stale",
            PuzzleError::DailyDone { solved: true } => "puzzle-error-daily-solved",
            PuzzleError::DailyDone { solved: false } => "puzzle-error-daily-failed",
            PuzzleError::Empty => "puzzle-error-empty",
        },
        ActionError::Tournament(t) => match t {
            TournamentError::AlreadyIn => "tournament-error-already-in",
            TournamentError::NotIn => "tournament-error-not-in",
            TournamentError::Started => "tournament-error-started",
            TournamentError::Closed => "tournament-error-closed",
            TournamentError::Full => "tournament-error-full",
            TournamentError::NotAllowed => "tournament-error-not-allowed",
            TournamentError::RoundRunning => "tournament-error-round-paired",
            TournamentError::UnknownGame => "tournament-error-unknown-game",
            TournamentError::TooFew => "tournament-error-too-few",
            TournamentError::Pairing(_) => "tournament-error-pairing",
            TournamentError::ByeSwissOnly => "tournament-error-bye-swiss-only",
            TournamentError::ByeRound { .. } => "tournament-error-bye-round",
            TournamentError::TooManyByes => "tournament-error-too-many-byes",
            TournamentError::NoSuchRound { .. } => "tournament-error-no-such-round",
        },
    }
}

#[test]
fn every_error_has_text_in_every_language() {
    let errors = every_error();
    // Every kind is listed: the keys reached are every refusal key of the catalog.
    let reached: std::collections::BTreeSet<&str> = errors.iter().map(error_key).collect();
    let catalog: std::collections::BTreeSet<&str> = include_str!("../../../locales/en/manager.ftl")
        .lines()
        .chain(include_str!("../../../locales/en/puzzle.ftl").lines())
        .filter_map(|l| l.split_once(" = ").map(|(k, _)| k))
        .filter(|k| {
            ["manager-error-", "tournament-error-", "puzzle-error-"]
                .iter()
                .any(|p| k.starts_with(p))
        })
        .collect();
    assert_eq!(reached, catalog, "every_error() misses a kind of refusal");
    for e in &errors {
        let english = error_text(e, Lang::En);
        for lang in Lang::ALL {
            let text = error_text(e, lang);
            let key = error_key(e);
            assert!(!text.trim().is_empty(), "{lang}: {key} is empty");
            assert_ne!(text, key, "{lang}: {key} has no text");
            assert!(!text.contains("manager-"), "{lang}: {text}");
            assert!(!text.contains("disk"), "internal detail leaked: {text}");
            assert!(!text.contains(['{', '}', '$']), "{lang}: {key}: {text}");
            if lang != Lang::En {
                assert_ne!(text, english, "{lang}: {key} is not translated");
            }
        }
    }
    assert_eq!(
        error_text(&ActionError::Limit(LimitKind::UserGames(5)), Lang::Ru),
        "Вы уже играете 5 партий одновременно. Сначала закончите одну из них."
    );
    assert_eq!(
        error_text(&ActionError::Limit(LimitKind::ChatChallenges(21)), Lang::Ru),
        "В этом чате уже 21 открытый вызов. Попробуйте позже."
    );
    assert_eq!(
        error_text(&ActionError::Illegal(MoveError::EmptyPit(3)), Lang::Kk),
        "3-отау бос."
    );
}

#[test]
fn buttons_carry_game_and_ply() {
    let v = view();
    let pits = pit_buttons(&v, None);
    assert_eq!(pits.len(), 9);
    assert!(pits.iter().all(|b| !b.enabled), "a spectator cannot move");
    let mine = action_buttons(&v, Some(&user("a")), Lang::En);
    assert!(mine.iter().any(|b| b.button
        == Button::Resign {
            game: "abc123".into(),
            ply: 1
        }));
    assert_eq!(pit_label(7, 12), "7 · 12");
    assert_eq!(
        variant_text(Variant::new(5, TuzdekRule::Off).unwrap(), Lang::En),
        "5 per pit, no tuzdeks"
    );
}

#[test]
fn the_hint_button_shows_only_when_a_hint_may_be_had() {
    let hint_of = |v: &GameView, viewer: Option<&UserRef>, lang: Lang| {
        action_buttons(v, viewer, lang)
            .into_iter()
            .find(|b| matches!(b.button, Button::Hint { .. }))
    };
    // After 1. 76 the bot is to move: no hint.
    let mut v = view();
    assert_eq!(hint_of(&v, None, Lang::En), None);
    // The person to move gets one, carrying the ply shown, with the hints left counted.
    v.position.play(9).unwrap();
    v.ply = 2;
    let b = hint_of(&v, None, Lang::En).expect("a hint button");
    assert_eq!(
        b.button,
        Button::Hint {
            game: "abc123".into(),
            ply: 2
        }
    );
    assert_eq!(b.label, "Hint (3 left)");
    for lang in Lang::ALL {
        for hints in 0..crate::manager::MAX_HINTS {
            v.hints = hints;
            let label = hint_of(&v, Some(&user("a")), lang).unwrap().label;
            assert!(label.chars().count() <= MAX_BUTTON_LABEL, "{label}");
        }
    }
    v.hints = 1;
    assert_eq!(hint_of(&v, None, Lang::Ru).unwrap().label, "Подсказка (2)");
    // None left, none in a rated game, none between people, none for a spectator.
    v.hints = crate::manager::MAX_HINTS;
    assert_eq!(hint_of(&v, None, Lang::En), None);
    v.hints = 0;
    assert_eq!(hint_of(&v, Some(&user("x")), Lang::En), None);
    let rated = GameView {
        rated: true,
        ..v.clone()
    };
    assert_eq!(hint_of(&rated, None, Lang::En), None);
    let people = GameView {
        players: [Player::Human(user("a")), Player::Human(user("b"))],
        ..v
    };
    assert_eq!(hint_of(&people, None, Lang::En), None);
}

#[test]
fn a_game_between_people_aborted_at_the_start_says_it_counts_for_nothing() {
    let chat = ChatRef::new(Platform::Telegram, "c");
    let people = [Player::Human(user("a")), Player::Human(user("b"))];
    let aborted = GameView {
        status: GameStatus::Finished {
            winner: None,
            reason: FinishReason::Aborted,
        },
        ..GameView::sample("p2", chat, people)
    };
    let en = result_text(&aborted, Lang::En).unwrap();
    assert_eq!(
        en,
        "The game was aborted. The game ended before both sides had moved: it has no result, and no rating changes."
    );
    assert!(result_text(&aborted, Lang::Ru)
        .unwrap()
        .contains("результата нет, рейтинги не меняются"));
    assert!(result_text(&aborted, Lang::Kk)
        .unwrap()
        .contains("нәтижесі жоқ, рейтинг өзгермейді"));
    // Against the bot an abort is only an abort.
    let bot = GameView {
        status: aborted.status,
        ..view()
    };
    assert_eq!(
        result_text(&bot, Lang::En).unwrap(),
        "The game was aborted."
    );
}

#[test]
fn a_tournament_board_says_its_round_and_board_on_every_redraw() {
    let mut v = view();
    assert!(caption(&v, Lang::En).starts_with("Game abc123\n"));
    v.seat = Some(crate::manager::Seat {
        tournament: "t1".into(),
        round: 3,
        board: 2,
    });
    let first = |v: &GameView, lang| caption(v, lang).lines().next().map(str::to_owned);
    assert_eq!(
        first(&v, Lang::En).as_deref(),
        Some("Game abc123 · round 3, board 2")
    );
    assert_eq!(
        first(&v, Lang::Ru).as_deref(),
        Some("Партия abc123 · тур 3, доска 2")
    );
    assert_eq!(
        first(&v, Lang::Kk).as_deref(),
        Some("abc123 ойыны · 3-тур, 2-үстел")
    );
    if let Some(seat) = &mut v.seat {
        seat.round = 0;
    }
    assert_eq!(first(&v, Lang::En).as_deref(), Some("Game abc123 · arena"));
}

/// Issue 51: `/games` marks the reader's move and gives every correspondence game's time
/// left for its move, in the order the manager gave.
#[test]
fn the_list_of_games_marks_the_readers_move_and_the_time_left() {
    let (a, b) = (user("a"), user("b"));
    let mut theirs = view();
    theirs.players = [Player::Human(b.clone()), Player::Human(a.clone())];
    theirs.time_control = TimeControl::Days(2);
    theirs.shown_at = 3600;
    theirs.timeout_at = Some(3600 + 28 * 3600);
    let mut waiting = view();
    waiting.id = "def456".into();
    waiting.players = [Player::Human(a.clone()), Player::Human(b.clone())];
    waiting.time_control = TimeControl::Days(3);
    let text = games_text(&[theirs.clone(), waiting], Some(&a), Lang::En);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Your ongoing games:");
    assert!(lines[1].starts_with("abc123: B vs A, move 1"), "{text}");
    assert!(lines[1].ends_with("(your move, 1 day 4 h left)"), "{text}");
    assert!(lines[2].ends_with("(3 days left)"), "{text}");
    // Timed and bot games have no such words; nor has the list of nobody in particular.
    let ru = games_text(std::slice::from_ref(&theirs), Some(&a), Lang::Ru);
    assert!(ru.ends_with("(ваш ход, осталось 1 день 4 ч)"), "{ru}");
    let plain = games_text(&[view()], None, Lang::En);
    assert!(!plain.contains("your move"), "{plain}");
}
