//! The game manager end to end, called directly the way the chat adapters call it.

use std::time::Duration;
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::buttons::{self, Button};
use toguz::manager::{
    Action, ActionError, ChallengeRecord, ChallengeStatus, Clock, Event, FinishReason, GameRecord,
    GameStatus, GameView, LimitKind, Manager, ManagerConfig, MessageRef, Player, Reply, Target,
};
use toguz::model::{Level, Platform, UserRef};
use toguz::on_both_backends;
use toguz::rules::{Side, Variant};
use toguz::store::{Store, Tree};
use toguz::testing::manager::{act, challenge_id, chat, game, rated_challenge, user, Backend, T0};

#[path = "manager_flows/tournaments.rs"]
mod tournaments;

#[path = "manager_flows/puzzles.rs"]
mod puzzles;

#[path = "manager_flows/public.rs"]
mod public;

#[path = "manager_flows/langs.rs"]
mod langs;

#[path = "manager_flows/web_sessions.rs"]
mod web_sessions;

#[path = "manager_flows/premoves.rs"]
mod premoves;

#[path = "manager_flows/explorer.rs"]
mod explorer;

async fn manager_with(store: Store, config: ManagerConfig) -> (Manager, Clock) {
    let clock = Clock::manual(T0);
    let engine = EnginePool::new(EngineConfig::default());
    let m = Manager::start_with_clock(store, engine, config, clock.clone())
        .await
        .unwrap();
    (m, clock)
}

async fn manager(backend: &Backend) -> (Manager, Clock) {
    manager_with(backend.open().await, ManagerConfig::default()).await
}

/// `who` accepts, declines or cancels the challenge `id`.
async fn accept(m: &Manager, who: &UserRef, id: &str) -> Result<Reply, ActionError> {
    let challenge = id.to_string();
    act(m, who, Action::AcceptChallenge { challenge }).await
}

async fn decline(m: &Manager, who: &UserRef, id: &str) -> Result<Reply, ActionError> {
    let challenge = id.to_string();
    act(m, who, Action::DeclineChallenge { challenge }).await
}

async fn cancel(m: &Manager, who: &UserRef, id: &str) -> Result<Reply, ActionError> {
    let challenge = id.to_string();
    act(m, who, Action::CancelChallenge { challenge }).await
}
/// `who` resigns `game` (or the one game they play here, with `None`).
async fn resign(m: &Manager, who: &UserRef, game: Option<String>) -> Result<Reply, ActionError> {
    act(m, who, Action::Resign { game, ply: None }).await
}

/// A challenges B, B accepts: the game with its players as [a or b, the other].
async fn start_game(m: &Manager, a: &UserRef, b: &UserRef) -> GameView {
    let id = challenge_id(act(m, a, rated_challenge(b, None)).await);
    game(accept(m, b, &id).await)
}

/// Both players of `v` make one move each (a game ended before that has no result).
async fn one_move_each(m: &Manager, v: &GameView, a: &UserRef, b: &UserRef) {
    for _ in 0..2 {
        let shown = game(
            act(
                m,
                a,
                Action::Show {
                    game: Some(v.id.clone()),
                },
            )
            .await,
        );
        let mover = player_to_move(&shown, a, b);
        let pit = shown.position.legal_moves().iter().next().unwrap();
        let action = Action::Move {
            game: v.id.clone(),
            ply: None,
            pit,
        };
        game(act(m, mover, action).await);
    }
}

fn player_to_move<'a>(v: &GameView, a: &'a UserRef, b: &'a UserRef) -> &'a UserRef {
    match v.to_move_player() {
        Some(Player::Human(u)) if u == a => a,
        Some(Player::Human(u)) if u == b => b,
        other => panic!("unexpected player to move: {other:?}"),
    }
}

async fn next_event(rx: &mut tokio::sync::broadcast::Receiver<Event>) -> Event {
    tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("an event within 10 s")
        .expect("the channel is open")
}

async fn a_challenge_is_accepted_and_played_to_the_end(backend: Backend) {
    let (m, _) = manager(&backend).await;
    let (a, b) = (user("a"), user("b"));
    let mut v = start_game(&m, &a, &b).await;
    assert_eq!(v.status, GameStatus::Ongoing);
    assert!(v.side_of(&a).is_some() && v.side_of(&b).is_some());
    while !v.is_over() {
        let mover = player_to_move(&v, &a, &b);
        let pit = v.position.legal_moves().iter().last().unwrap();
        v = game(
            act(
                &m,
                mover,
                Action::Move {
                    game: v.id.clone(),
                    ply: Some(v.ply),
                    pit,
                },
            )
            .await,
        );
        assert!(v.ply < 1000, "the game should end");
    }
    let GameStatus::Finished { reason, .. } = v.status else {
        unreachable!()
    };
    assert!(matches!(reason, FinishReason::Board(_)), "{reason:?}");
    assert!(v.moves.starts_with("1. "));
    let again = act(
        &m,
        &a,
        Action::Move {
            game: v.id.clone(),
            ply: None,
            pit: 1,
        },
    )
    .await;
    assert!(matches!(again, Err(ActionError::GameOver)), "{again:?}");
    // A finished game is still shown, and no longer listed as ongoing.
    let shown = game(
        act(
            &m,
            &b,
            Action::Show {
                game: Some(v.id.clone()),
            },
        )
        .await,
    );
    assert_eq!(shown.moves, v.moves);
    assert!(matches!(act(&m, &a, Action::ListGames).await, Ok(Reply::Games(g)) if g.is_empty()));
}

async fn wrong_users_are_refused_and_nothing_changes(backend: Backend) {
    let (m, _) = manager(&backend).await;
    let (a, b, c) = (user("a"), user("b"), user("c"));
    let to_self = act(&m, &a, rated_challenge(&a, None)).await;
    assert!(matches!(to_self, Err(ActionError::ChallengeSelf)));
    let bot = user("bot");
    m.register_bot_user(&bot);
    let to_bot = act(
        &m,
        &a,
        Action::Challenge {
            opponent: Some(bot),
            variant: Variant::STANDARD,
            rated: true,
            time: None,
        },
    )
    .await;
    assert!(matches!(to_bot, Err(ActionError::ChallengeBot)));

    let id = challenge_id(act(&m, &a, rated_challenge(&b, None)).await);
    let by_c = accept(&m, &c, &id).await;
    assert!(matches!(by_c, Err(ActionError::NotForYou)));
    let by_a = accept(&m, &a, &id).await;
    assert!(matches!(by_a, Err(ActionError::ChallengeSelf)));
    let decline_by_c = decline(&m, &c, &id).await;
    assert!(matches!(decline_by_c, Err(ActionError::NotForYou)));
    let cancel_by_b = cancel(&m, &b, &id).await;
    assert!(matches!(cancel_by_b, Err(ActionError::NotForYou)));

    let v = game(accept(&m, &b, &id).await);
    let waiting = if player_to_move(&v, &a, &b) == &a {
        &b
    } else {
        &a
    };
    let not_turn = act(
        &m,
        waiting,
        Action::Move {
            game: v.id.clone(),
            ply: Some(0),
            pit: 1,
        },
    )
    .await;
    assert!(
        matches!(not_turn, Err(ActionError::NotYourTurn)),
        "{not_turn:?}"
    );
    let stranger = act(
        &m,
        &c,
        Action::Move {
            game: v.id.clone(),
            ply: Some(0),
            pit: 1,
        },
    )
    .await;
    assert!(matches!(stranger, Err(ActionError::NotYourGame)));
    let resign_stranger = resign(&m, &c, Some(v.id.clone())).await;
    assert!(matches!(resign_stranger, Err(ActionError::NotYourGame)));
    let nothing = act(
        &m,
        &a,
        Action::Show {
            game: Some("zzzzzz".into()),
        },
    )
    .await;
    assert!(matches!(nothing, Err(ActionError::NoSuchGame)));
    let after = game(
        act(
            &m,
            &a,
            Action::Show {
                game: Some(v.id.clone()),
            },
        )
        .await,
    );
    assert_eq!(after.ply, 0);
    assert_eq!(after.status, GameStatus::Ongoing);
}

async fn challenges_are_declined_cancelled_and_expire(backend: Backend) {
    let (m, clock) = manager(&backend).await;
    let (a, b, c) = (user("a"), user("b"), user("c"));
    let challenge = |opponent: Option<UserRef>| Action::Challenge {
        opponent,
        variant: Variant::STANDARD,
        rated: true,
        time: None,
    };
    let declined = challenge_id(act(&m, &a, challenge(Some(b.clone()))).await);
    match decline(&m, &b, &declined).await {
        Ok(Reply::Challenge(v)) => assert_eq!(v.status, ChallengeStatus::Declined),
        other => panic!("{other:?}"),
    }
    let late = accept(&m, &b, &declined).await;
    assert!(matches!(late, Err(ActionError::ChallengeClosed)));

    let cancelled = challenge_id(act(&m, &a, challenge(Some(b.clone()))).await);
    match cancel(&m, &a, &cancelled).await {
        Ok(Reply::Challenge(v)) => assert_eq!(v.status, ChallengeStatus::Cancelled),
        other => panic!("{other:?}"),
    }

    // An open challenge: anyone but the challenger may accept.
    let open = challenge_id(act(&m, &a, challenge(None)).await);
    let v = game(accept(&m, &c, &open).await);
    assert!(v.side_of(&c).is_some());

    let mut events = m.subscribe();
    let expiring = challenge_id(act(&m, &a, challenge(Some(b.clone()))).await);
    clock.advance(599);
    assert_eq!(m.sweep().await, 0);
    clock.advance(2);
    assert_eq!(m.sweep().await, 1);
    match next_event(&mut events).await {
        Event::Challenge(v) => {
            assert_eq!(v.id, expiring);
            assert_eq!(v.status, ChallengeStatus::Expired);
        }
        other => panic!("{other:?}"),
    }
    let too_late = accept(&m, &b, &expiring).await;
    assert!(matches!(too_late, Err(ActionError::ChallengeClosed)));
}

async fn stale_double_and_forged_presses_change_nothing(backend: Backend) {
    let (m, _) = manager(&backend).await;
    let (a, b) = (user("a"), user("b"));
    let v = start_game(&m, &a, &b).await;
    let mover = player_to_move(&v, &a, &b).clone();
    let press = buttons::encode(&Button::Move {
        game: v.id.clone(),
        ply: 0,
        pit: 7,
    });
    let action = buttons::decode(&press).unwrap().into_action().unwrap();
    let first = game(act(&m, &mover, action.clone()).await);
    assert_eq!(first.ply, 1);
    let double = act(&m, &mover, action).await;
    assert!(matches!(double, Err(ActionError::StaleBoard)), "{double:?}");
    let other = if mover == a { &b } else { &a };
    let stale = act(
        &m,
        other,
        Action::Resign {
            game: Some(v.id.clone()),
            ply: Some(0),
        },
    )
    .await;
    assert!(matches!(stale, Err(ActionError::StaleBoard)), "{stale:?}");
    for forged in [
        "1m:../etc:0:7",
        "1m:abc:0:12",
        "9m:abc:0:1",
        "",
        "1m:abc:0:1:extra",
    ] {
        assert!(buttons::decode(forged).is_err(), "{forged}");
    }
    // A well-formed press for a game that does not exist.
    let ghost = buttons::decode("1m:zzzzzz:0:1")
        .unwrap()
        .into_action()
        .unwrap();
    assert!(matches!(
        act(&m, &mover, ghost).await,
        Err(ActionError::NoSuchGame)
    ));
    let now = game(act(&m, &a, Action::Show { game: Some(v.id) }).await);
    assert_eq!(now.ply, 1);
    assert_eq!(now.status, GameStatus::Ongoing);
}

async fn resign_draws_and_abort(backend: Backend) {
    let (m, _) = manager(&backend).await;
    let (a, b) = (user("a"), user("b"));

    // Abort before both sides moved; too late after.
    let v = start_game(&m, &a, &b).await;
    let aborted = game(act(&m, &a, Action::Abort { game: v.id.clone() }).await);
    assert_eq!(
        aborted.status,
        GameStatus::Finished {
            winner: None,
            reason: FinishReason::Aborted
        }
    );
    let mut v = start_game(&m, &a, &b).await;
    for _ in 0..2 {
        let mover = player_to_move(&v, &a, &b);
        let pit = v.position.legal_moves().iter().next().unwrap();
        v = game(
            act(
                &m,
                mover,
                Action::Move {
                    game: v.id.clone(),
                    ply: None,
                    pit,
                },
            )
            .await,
        );
    }
    let late = act(&m, &b, Action::Abort { game: v.id.clone() }).await;
    assert!(matches!(late, Err(ActionError::TooLateToAbort)));

    // Draw: offer, decline, offer again, accept.
    let id = v.id.clone();
    let offered = game(
        act(
            &m,
            &a,
            Action::OfferDraw {
                game: Some(id.clone()),
                ply: None,
            },
        )
        .await,
    );
    let a_side = offered.side_of(&a).unwrap();
    assert_eq!(offered.draw_offer, Some(a_side));
    assert!(offered.actions_for(Some(&b)).accept_draw);
    let twice = act(
        &m,
        &a,
        Action::OfferDraw {
            game: Some(id.clone()),
            ply: None,
        },
    )
    .await;
    assert!(matches!(twice, Err(ActionError::DrawAlreadyOffered)));
    let own = act(&m, &a, Action::AcceptDraw { game: id.clone() }).await;
    assert!(matches!(own, Err(ActionError::NoDrawOffer)));
    let declined = game(act(&m, &b, Action::DeclineDraw { game: id.clone() }).await);
    assert_eq!(declined.draw_offer, None);
    act(
        &m,
        &a,
        Action::OfferDraw {
            game: None,
            ply: None,
        },
    )
    .await
    .unwrap();
    let drawn = game(act(&m, &b, Action::AcceptDraw { game: id.clone() }).await);
    assert_eq!(
        drawn.status,
        GameStatus::Finished {
            winner: None,
            reason: FinishReason::Agreed
        }
    );

    // Resign, by the game this chat has (no id given), once both have moved.
    let v = start_game(&m, &a, &b).await;
    one_move_each(&m, &v, &a, &b).await;
    let resigned = game(resign(&m, &b, None).await);
    let b_side = v.side_of(&b).unwrap();
    assert_eq!(
        resigned.status,
        GameStatus::Finished {
            winner: Some(b_side.other()),
            reason: FinishReason::Resigned(b_side)
        }
    );
    let none_left = resign(&m, &b, None).await;
    assert!(matches!(none_left, Err(ActionError::NoGameHere)));
}

async fn rematch_swaps_colours(backend: Backend) {
    let (m, _) = manager(&backend).await;
    let (a, b) = (user("a"), user("b"));
    let v = start_game(&m, &a, &b).await;
    let early = act(&m, &a, Action::Rematch { game: v.id.clone() }).await;
    assert!(matches!(early, Err(ActionError::GameNotOver)));
    resign(&m, &a, Some(v.id.clone())).await.unwrap();
    let asked = match act(&m, &a, Action::Rematch { game: v.id.clone() }).await {
        Ok(Reply::Challenge(c)) => c,
        other => panic!("{other:?}"),
    };
    assert_eq!(asked.opponent.as_ref(), Some(&b));
    assert_eq!(asked.rematch_of.as_deref(), Some(v.id.as_str()));
    let again = act(&m, &a, Action::Rematch { game: v.id.clone() }).await;
    assert!(
        matches!(again, Err(ActionError::RematchExists)),
        "{again:?}"
    );
    // B pressing rematch on the same game accepts it.
    let rematch = game(act(&m, &b, Action::Rematch { game: v.id.clone() }).await);
    assert_eq!(rematch.side_of(&a), v.side_of(&b));
    assert_eq!(rematch.side_of(&b), v.side_of(&a));

    // Against the bot, a rematch is a new game at once.
    let bot_game = game(
        act(
            &m,
            &a,
            Action::PlayBot {
                level: Level::Random,
                variant: Variant::STANDARD,
                colour: Some(Side::White),
                time: None,
            },
        )
        .await,
    );
    resign(&m, &a, Some(bot_game.id.clone())).await.unwrap();
    let next = game(act(&m, &a, Action::Rematch { game: bot_game.id }).await);
    assert_eq!(next.side_of(&a), Some(Side::Black));
    assert_eq!(next.players[0], Player::Bot(Level::Random));
}

async fn limits_stop_spam(backend: Backend) {
    let mut config = ManagerConfig::default();
    config.limits.games_per_user = 2;
    config.limits.challenges_per_user = 1;
    let (m, _) = manager_with(backend.open().await, config).await;
    let a = user("a");
    let bot_game = || Action::PlayBot {
        level: Level::Random,
        variant: Variant::STANDARD,
        colour: Some(Side::White),
        time: None,
    };
    game(act(&m, &a, bot_game()).await);
    game(act(&m, &a, bot_game()).await);
    let third = act(&m, &a, bot_game()).await;
    assert!(
        matches!(third, Err(ActionError::Limit(LimitKind::UserGames(2)))),
        "{third:?}"
    );
    let challenge = || Action::Challenge {
        opponent: None,
        variant: Variant::STANDARD,
        rated: true,
        time: None,
    };
    challenge_id(act(&m, &a, challenge()).await);
    let second = act(&m, &a, challenge()).await;
    assert!(matches!(
        second,
        Err(ActionError::Limit(LimitKind::UserChallenges(1)))
    ));
    // Several games here: an action without a game id must name one.
    let ambiguous = resign(&m, &a, None).await;
    assert!(matches!(ambiguous, Err(ActionError::AmbiguousGame)));
}

async fn a_lapsed_game_is_lost_on_time_and_both_are_told(backend: Backend) {
    let (m, clock) = manager(&backend).await;
    let (a, b) = (user("a"), user("b"));
    let v = start_game(&m, &a, &b).await;
    // Both move first: a move time that runs out before that is no loss (issue 31, item 1).
    one_move_each(&m, &v, &a, &b).await;
    let mut events = m.subscribe();
    clock.advance(72 * 3600 - 1);
    assert_eq!(m.sweep().await, 0);
    clock.advance(1);
    assert_eq!(m.sweep().await, 1);
    let ended = loop {
        if let Event::Game(view) = next_event(&mut events).await {
            break view;
        }
    };
    assert_eq!(ended.id, v.id);
    assert_eq!(
        ended.status,
        GameStatus::Finished {
            winner: Some(Side::Black),
            reason: FinishReason::TimedOut(Side::White)
        }
    );
}

async fn the_bot_replies_off_the_runtime_and_publishes_its_move(backend: Backend) {
    let (m, _) = manager(&backend).await;
    let a = user("a");
    let mut events = m.subscribe();
    let v = game(
        act(
            &m,
            &a,
            Action::PlayBot {
                level: Level::Easy,
                variant: Variant::STANDARD,
                colour: Some(Side::Black),
                time: None,
            },
        )
        .await,
    );
    assert_eq!(v.ply, 0, "the answer comes before the bot's move");
    let moved = loop {
        if let Event::Game(view) = next_event(&mut events).await {
            break view;
        }
    };
    assert_eq!(moved.id, v.id);
    assert_eq!(moved.ply, 1);
    assert_eq!(moved.position.to_move(), Side::Black);
    assert!(moved.actions_for(Some(&a)).pits.iter().any(|p| p.enabled));
    // Offering a draw to a bot that is not behind: it declines, nothing changes.
    let draw = act(
        &m,
        &a,
        Action::OfferDraw {
            game: Some(v.id.clone()),
            ply: None,
        },
    )
    .await;
    if moved.position.store(Side::White) >= moved.position.store(Side::Black) {
        assert!(
            matches!(draw, Err(ActionError::BotDeclinesDraw)),
            "{draw:?}"
        );
    }
}

async fn a_hundred_identical_presses_apply_one_move(backend: Backend) {
    let (m, _) = manager(&backend).await;
    let (a, b) = (user("a"), user("b"));
    let v = start_game(&m, &a, &b).await;
    let mover = player_to_move(&v, &a, &b).clone();
    let mut tasks = Vec::new();
    for _ in 0..100 {
        let m = m.clone();
        let mover = mover.clone();
        let id = v.id.clone();
        tasks.push(tokio::spawn(async move {
            act(
                &m,
                &mover,
                Action::Move {
                    game: id,
                    ply: Some(0),
                    pit: 5,
                },
            )
            .await
        }));
    }
    let mut ok = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => ok += 1,
            Err(ActionError::StaleBoard) => {}
            Err(e) => panic!("unexpected refusal {e:?}"),
        }
    }
    assert_eq!(ok, 1);
    let now = game(act(&m, &a, Action::Show { game: Some(v.id) }).await);
    assert_eq!(now.ply, 1);
    assert!(now.moves.starts_with("1. 5"), "{}", now.moves);
}

/// The version orders boards on every platform: each durable change of what a board shows
/// adds one (a move, a draw offer), attaching one more message does not, and a restart
/// keeps it.
async fn a_games_version_counts_what_its_boards_show(backend: Backend) {
    let (a, b) = (user("a"), user("b"));
    let id = {
        let (m, _) = manager(&backend).await;
        let v = start_game(&m, &a, &b).await;
        assert_eq!(v.version, 0);
        let mover = player_to_move(&v, &a, &b);
        let action = Action::Move {
            game: v.id.clone(),
            ply: Some(0),
            pit: 9,
        };
        assert_eq!(game(act(&m, mover, action).await).version, 1);
        let place = MessageRef {
            platform: Platform::Telegram,
            id: "-100:56".into(),
        };
        m.attach_message(Target::Game(v.id.clone()), place, None)
            .await
            .unwrap();
        let shown = m.game(&v.id).await.unwrap();
        assert_eq!(
            (shown.version, shown.messages.len()),
            (1, v.messages.len() + 1)
        );
        let offer = Action::OfferDraw {
            game: Some(v.id.clone()),
            ply: None,
        };
        assert_eq!(game(act(&m, &a, offer).await).version, 2);
        v.id
    };
    let (m, _) = manager(&backend).await;
    assert_eq!(m.game(&id).await.unwrap().version, 2);
}

async fn games_survive_a_restart_and_pending_work_resumes(backend: Backend) {
    let (a, b) = (user("a"), user("b"));
    let (id, moves) = {
        let (m, _) = manager_with(backend.open().await, ManagerConfig::default()).await;
        let v = start_game(&m, &a, &b).await;
        let mover = player_to_move(&v, &a, &b);
        let after = game(
            act(
                &m,
                mover,
                Action::Move {
                    game: v.id.clone(),
                    ply: Some(0),
                    pit: 9,
                },
            )
            .await,
        );
        m.attach_message(
            Target::Game(v.id.clone()),
            MessageRef {
                platform: Platform::Telegram,
                id: "-100:55".into(),
            },
            None,
        )
        .await
        .unwrap();
        m.set_user_lang(&a, toguz::i18n::Lang::Kk).await.unwrap();
        (v.id, after.moves)
    };

    // Plant what a crash could leave: a bot game with the bot to move, a challenge that
    // expired while we were down, and a record that does not decode.
    {
        let store = backend.open().await;
        let bot_game = GameRecord {
            id: "botdue".into(),
            chat: chat(),
            variant: Variant::STANDARD,
            players: [Player::Human(user("c")), Player::Bot(Level::Random)],
            moves: vec![7],
            status: GameStatus::Ongoing,
            draw_offer: None,
            created_at: T0,
            last_move_at: T0,
            messages: vec![],
            seed: 3,
            rematch: None,
            rated: false,
            ended: None,
            time_control: Default::default(),
            clock: None,
            hints: 0,
            version: 0,
            arena: None,
            seat: None,
            watched: false,
            alerts: Vec::new(),
            premoves: Default::default(),
        };
        store.put(Tree::Games, "botdue", &bot_game).await.unwrap();
        let stale = ChallengeRecord {
            id: "oldchl".into(),
            challenger: user("c"),
            opponent: None,
            variant: Variant::STANDARD,
            chat: chat(),
            created_at: T0 - 2000,
            expires_at: T0 - 1000,
            status: ChallengeStatus::Open,
            challenger_side: None,
            rematch_of: None,
            messages: vec![],
            rated: true,
            time_control: Default::default(),
            time_changeable: false,
            time_changes: 0,
        };
        store.put(Tree::Challenges, "oldchl", &stale).await.unwrap();
        store
            .put_raw(Tree::Games, "broken", b"{\"schema\":1,\"data\":42}")
            .await
            .unwrap();
        store.commit().await.unwrap();
    }

    let (m, _) = manager_with(backend.open().await, ManagerConfig::default()).await;
    let v = game(
        act(
            &m,
            &a,
            Action::Show {
                game: Some(id.clone()),
            },
        )
        .await,
    );
    assert_eq!(v.moves, moves);
    assert_eq!(v.messages.len(), 1);
    assert_eq!(m.user_lang(&a).await, Some(toguz::i18n::Lang::Kk));
    assert_eq!(m.user_lang(&b).await, None);
    // Attaching the same message again keeps one copy.
    m.attach_message(Target::Game(id.clone()), v.messages[0].clone(), None)
        .await
        .unwrap();
    let v = game(act(&m, &a, Action::Show { game: Some(id) }).await);
    assert_eq!(v.messages.len(), 1);

    let expired = accept(&m, &user("d"), "oldchl").await;
    assert!(
        matches!(expired, Err(ActionError::ChallengeClosed)),
        "{expired:?}"
    );
    let mut ply = 1;
    for _ in 0..200 {
        let v = game(
            act(
                &m,
                &user("c"),
                Action::Show {
                    game: Some("botdue".into()),
                },
            )
            .await,
        );
        ply = v.ply;
        if ply == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(ply, 2, "the bot's pending move was resumed");
    let broken = act(
        &m,
        &a,
        Action::Show {
            game: Some("broken".into()),
        },
    )
    .await;
    assert!(matches!(broken, Err(ActionError::NoSuchGame)));
}

async fn finished_games_and_closed_challenges_leave_memory_but_not_the_store(backend: Backend) {
    let (m, _) = manager(&backend).await;
    let (a, b) = (user("a"), user("b"));
    let v = start_game(&m, &a, &b).await;
    assert_eq!(m.loaded(), (1, 0), "the accepted challenge is released");
    resign(&m, &a, Some(v.id.clone())).await.unwrap();
    assert_eq!(m.loaded(), (0, 0));
    let shown = game(
        act(
            &m,
            &b,
            Action::Show {
                game: Some(v.id.clone()),
            },
        )
        .await,
    );
    assert!(shown.is_over());
    assert_eq!(shown.moves, v.moves);
    assert_eq!(
        m.loaded(),
        (0, 0),
        "a finished game read back is released again"
    );
    let rematch = act(&m, &b, Action::Rematch { game: v.id.clone() }).await;
    assert!(matches!(rematch, Ok(Reply::Challenge(_))), "{rematch:?}");
    assert_eq!(m.loaded(), (0, 1), "the open rematch challenge stays");
}

/// A one-time platform event (a Telegram inline message becoming a challenge) is claimed
/// once, and stays claimed after a restart, when the platform may deliver it again.
async fn a_claim_holds_once_and_across_a_restart(backend: Backend) {
    {
        let (m, _) = manager_with(backend.open().await, ManagerConfig::default()).await;
        assert!(m
            .claim_once(Platform::Telegram, "inline:abc")
            .await
            .unwrap());
        assert!(!m
            .claim_once(Platform::Telegram, "inline:abc")
            .await
            .unwrap());
        // Another key, or the same key on another platform, is its own claim.
        assert!(m
            .claim_once(Platform::Telegram, "inline:xyz")
            .await
            .unwrap());
        assert!(m.claim_once(Platform::Discord, "inline:abc").await.unwrap());
    }
    let (m, _) = manager_with(backend.open().await, ManagerConfig::default()).await;
    assert!(!m
        .claim_once(Platform::Telegram, "inline:abc")
        .await
        .unwrap());
    assert!(m
        .claim_once(Platform::Telegram, "inline:new")
        .await
        .unwrap());
}

/// A manager whose bot searches one game at a time, `hard` for `hard_ms`.
async fn one_slot_manager(backend: &Backend, hard_ms: u64) -> Manager {
    let engine = EnginePool::new(EngineConfig {
        hard_ms,
        max_ms: hard_ms,
        max_concurrent: 1,
    });
    Manager::start_with_clock(
        backend.open().await,
        engine,
        ManagerConfig::default(),
        Clock::manual(T0),
    )
    .await
    .unwrap()
}

/// Waits until the bot's queue holds (searching, waiting): games' bot turns join the queue
/// from their own tasks, in no fixed order.
async fn until_bot_load(m: &Manager, load: (usize, usize)) {
    for _ in 0..500 {
        if m.bot_load() == load {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the bot's queue never reached {load:?}: {:?}", m.bot_load());
}

/// A game against the bot where the bot plays White, so it moves first.
async fn bot_moves_first(m: &Manager, who: &UserRef, level: Level) -> String {
    let reply = act(
        m,
        who,
        Action::PlayBot {
            level,
            variant: Variant::STANDARD,
            colour: Some(Side::Black),
            time: None,
        },
    )
    .await;
    game(reply).id
}

async fn one_users_many_bot_games_do_not_starve_another_users_game(backend: Backend) {
    // Long enough that Alice's first search is still running when her other games queue.
    let m = one_slot_manager(&backend, 400).await;
    let mut rx = m.subscribe();
    let (alice, bob) = (user("alice"), user("bob"));
    let mut alices = Vec::new();
    for _ in 0..5 {
        alices.push(bot_moves_first(&m, &alice, Level::Hard).await);
    }
    until_bot_load(&m, (1, 4)).await;
    let bobs = bot_moves_first(&m, &bob, Level::Easy).await;
    let mut order = Vec::new();
    while order.len() < 6 {
        if let Event::Game(v) = next_event(&mut rx).await {
            if v.ply == 1 {
                order.push(v.id);
            }
        }
    }
    let place = order.iter().position(|id| *id == bobs).unwrap();
    // Alice's first game was searching already and her second was queued first; users then
    // take turns, so Bob's comes third at the latest, not after all five of hers.
    assert!(place <= 2, "Bob's bot move came {}th: {order:?}", place + 1);
    assert_eq!(m.bot_searches(), 6);
    assert_eq!(m.bot_load(), (0, 0));
}

async fn a_player_waiting_for_a_busy_bot_is_told(backend: Backend) {
    // `hard` may stop well before its budget (it starts no iteration it cannot finish), so
    // the budget is long enough that Alice's search surely outlasts the 1 s notice delay.
    let m = one_slot_manager(&backend, 3000).await;
    let mut rx = m.subscribe();
    let (alice, bob) = (user("alice"), user("bob"));
    bot_moves_first(&m, &alice, Level::Hard).await;
    until_bot_load(&m, (1, 0)).await;
    let bobs = bot_moves_first(&m, &bob, Level::Easy).await;
    let busy = loop {
        if let Event::Game(v) = next_event(&mut rx).await {
            if v.id == bobs {
                break v;
            }
        }
    };
    assert_eq!(busy.ply, 0, "the busy notice comes before the bot's move");
    assert_eq!(busy.bot_busy, Some(0));
    // A board read now (a redraw, /board) says so too.
    let shown = game(
        act(
            &m,
            &bob,
            Action::Show {
                game: Some(bobs.clone()),
            },
        )
        .await,
    );
    assert_eq!((shown.ply, shown.bot_busy), (0, Some(0)));
    let moved = loop {
        if let Event::Game(v) = next_event(&mut rx).await {
            if v.id == bobs {
                break v;
            }
        }
    };
    assert_eq!((moved.ply, moved.bot_busy), (1, None));
}

async fn a_due_bot_move_is_searched_once_after_a_restart_and_a_sweep(backend: Backend) {
    {
        let store = backend.open().await;
        let late = GameRecord {
            id: "late01".into(),
            chat: chat(),
            variant: Variant::STANDARD,
            players: [Player::Human(user("c")), Player::Bot(Level::Hard)],
            moves: vec![7],
            status: GameStatus::Ongoing,
            draw_offer: None,
            created_at: T0 - 7200,
            // The bot has been due for an hour: the process was down.
            last_move_at: T0 - 3600,
            messages: vec![],
            seed: 3,
            rematch: None,
            rated: false,
            ended: None,
            time_control: Default::default(),
            clock: None,
            hints: 0,
            version: 0,
            arena: None,
            seat: None,
            watched: false,
            alerts: Vec::new(),
            premoves: Default::default(),
        };
        store.put(Tree::Games, "late01", &late).await.unwrap();
        store.commit().await.unwrap();
    }
    let store = backend.open().await;
    let engine = EnginePool::new(EngineConfig {
        hard_ms: 400,
        ..EngineConfig::default()
    });
    let m = Manager::start_with_clock(store, engine, ManagerConfig::default(), Clock::manual(T0))
        .await
        .unwrap();
    let mut rx = m.subscribe();
    // A sweep while the search runs starts no second one.
    m.sweep().await;
    loop {
        if let Event::Game(v) = next_event(&mut rx).await {
            if v.id == "late01" && v.ply == 2 {
                break;
            }
        }
    }
    m.sweep().await;
    assert_eq!(m.bot_searches(), 1);
}

on_both_backends! {
    single: [
        a_challenge_is_accepted_and_played_to_the_end,
        wrong_users_are_refused_and_nothing_changes,
        challenges_are_declined_cancelled_and_expire,
        stale_double_and_forged_presses_change_nothing,
        resign_draws_and_abort,
        rematch_swaps_colours,
        limits_stop_spam,
        a_lapsed_game_is_lost_on_time_and_both_are_told,
        the_bot_replies_off_the_runtime_and_publishes_its_move,
        games_survive_a_restart_and_pending_work_resumes,
        finished_games_and_closed_challenges_leave_memory_but_not_the_store,
        a_claim_holds_once_and_across_a_restart,
        a_games_version_counts_what_its_boards_show,
        a_press_reads_the_store_once,
    ],
    multi: [
        a_hundred_identical_presses_apply_one_move,
        one_users_many_bot_games_do_not_starve_another_users_game,
        a_player_waiting_for_a_busy_bot_is_told,
        a_due_bot_move_is_searched_once_after_a_restart_and_a_sweep,
    ],
}

/// Waits for the background reads of languages to end (a few store reads each).
async fn settle_langs(m: &Manager) {
    for _ in 0..1000 {
        if m.lang_refreshes() == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    panic!("the languages' background reads do not end");
}

/// Issue 32: a press costs one store read (the game's revision), not three or four: the
/// presser's language, the players' languages for the board and the presser's handle are
/// what this process read or wrote of them lately. Here a press as both adapters make it:
/// the handle noted, the presser's language asked once (with their app's), the action;
/// the board's languages come with the view.
async fn a_press_reads_the_store_once(backend: Backend) {
    use toguz::i18n::Lang;
    let store = backend.open().await;
    let (m, clock) = manager_with(store.clone(), ManagerConfig::default()).await;
    let (a, b) = (user("a"), user("b"));
    // "a" chose nothing and their app speaks Russian; "b" chose Kazakh in an English app.
    m.set_user_lang(&b, Lang::Kk).await.unwrap();
    let app = |u: &UserRef| if *u == a { Lang::Ru } else { Lang::En };
    let mut v = start_game(&m, &a, &b).await;
    let mut costs = Vec::new();
    for ply in 0..6u16 {
        if ply == 4 {
            // A spectator's board marks the game watched: from then on a change reads the
            // spectators' list too, at most once in 5 s.
            let board = toguz::manager::MessageRef {
                platform: Platform::Telegram,
                id: "-300:1".into(),
            };
            let target = toguz::manager::Target::Game(v.id.clone());
            m.attach_message(target, board, Some(&user("w")))
                .await
                .unwrap();
        }
        // Moves a real game's minutes apart: no read is saved by coming soon after another.
        // The languages are then read again, but in the background: the press does not
        // wait for those reads (left out of its count).
        clock.advance(60);
        let mover = player_to_move(&v, &a, &b).clone();
        let (before, rereads) = (store.reads(), m.lang_rereads());
        m.remember_handle(&format!("{}_handle", mover.id), &mover)
            .await
            .unwrap();
        let lang = m.speaker(&mover, Some(app(&mover))).await;
        let pit = (1..=9)
            .find(|&p| v.position.is_legal(p))
            .expect("a legal pit");
        let action = Action::Move {
            game: v.id.clone(),
            ply: Some(ply),
            pit,
        };
        v = game(act(&m, &mover, action).await);
        settle_langs(&m).await;
        costs.push(store.reads() - before - (m.lang_rereads() - rereads));
        let side = v.side_of(&mover).expect("a player");
        assert_eq!(
            lang,
            v.langs[side.index()],
            "the presser is told what they read"
        );
        if ply > 0 {
            // Both have pressed: the view knows both languages.
            let white = v.side_of(&a).expect("a plays").index();
            assert_eq!(v.langs[white], Lang::Ru);
            assert_eq!(v.langs[1 - white], Lang::Kk);
        }
    }
    // Each player's first press reads their handle once; from then on a press reads the
    // game's revision alone (and, in a watched game, the spectators' list).
    assert_eq!(&costs[2..], [1, 1, 2, 2], "{costs:?}");
    assert!(
        m.lang_rereads() > 0,
        "the languages were read again, off the presses"
    );
}
