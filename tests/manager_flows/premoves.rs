//! Issue 51: conditional premoves in correspondence games (docs/premoves.md), through the
//! manager and its store: the reply played in the same write as the move it answers, lines
//! shifted or cleared, kept to their author, across a restart and between two processes.

use super::{manager_with, next_event};
use toguz::manager::{
    Action, ActionError, Event, GameRecord, GameView, Manager, ManagerConfig, PremoveEdit,
};
use toguz::model::{TimeControl, UserRef};
use toguz::rules::Side;
use toguz::store::Tree;
use toguz::testing::manager::{act, challenge_id, game, rated_challenge, user, Backend};

/// A 2-day game between `a` and `b`: (the game, White, Black).
async fn two_day_game(m: &Manager, a: &UserRef, b: &UserRef) -> (GameView, UserRef, UserRef) {
    let time = Some(TimeControl::Days(2));
    let id = challenge_id(act(m, a, rated_challenge(b, time)).await);
    let challenge = id.clone();
    let v = game(act(m, b, Action::AcceptChallenge { challenge }).await);
    let side_of = |u: &UserRef| v.side_of(u).expect("a player");
    let (white, black) = match side_of(a) {
        Side::White => (a.clone(), b.clone()),
        Side::Black => (b.clone(), a.clone()),
    };
    assert_eq!(side_of(&white), Side::White);
    (v, white, black)
}

fn lines(list: &[&[u8]]) -> Vec<Vec<u8>> {
    list.iter().map(|l| l.to_vec()).collect()
}

async fn play(m: &Manager, who: &UserRef, id: &str, pit: u8) -> GameView {
    let action = Action::Move {
        game: id.to_string(),
        ply: None,
        pit,
    };
    game(act(m, who, action).await)
}

async fn stored(m: &Manager, id: &str) -> GameRecord {
    let rec = m.store().get::<GameRecord>(Tree::Games, id).await.unwrap();
    rec.expect("the game is stored")
}

async fn a_premove_is_played_with_the_move_it_answers_and_survives_a_restart(backend: Backend) {
    let (a, b) = (user("a"), user("b"));
    let (id, white, black) = {
        let (m, _) = manager_with(backend.open().await, ManagerConfig::default()).await;
        let (v, white, black) = two_day_game(&m, &a, &b).await;
        let set = PremoveEdit::Set(lines(&[&[3, 7, 5, 2], &[3, 7, 6, 1], &[4, 4]]));
        let mine = m.edit_premoves(&black, &v.id, None, set).await.unwrap();
        assert_eq!(mine.lines.len(), 3);
        assert!(mine.open);
        // White, to move, may not queue; reads only their own (none); a stranger nothing.
        let theirs = PremoveEdit::Set(lines(&[&[1, 1]]));
        let refused = m.edit_premoves(&white, &v.id, None, theirs).await;
        assert!(
            matches!(refused, Err(ActionError::PremovesOnTheirTurn)),
            "{refused:?}"
        );
        assert!(m.premoves(&white, &v.id).await.unwrap().lines.is_empty());
        let stranger = m.premoves(&user("c"), &v.id).await;
        assert!(
            matches!(stranger, Err(ActionError::NotYourGame)),
            "{stranger:?}"
        );
        // No view carries them: a board, a page or a record shows none.
        let view = m.game(&v.id).await.unwrap();
        assert!(!format!("{view:?}").contains("premove"), "{view:?}");
        (v.id, white, black)
    };

    // A restart keeps the lines.
    let (m, _) = manager_with(backend.open().await, ManagerConfig::default()).await;
    assert_eq!(m.premoves(&black, &id).await.unwrap().lines.len(), 3);
    let mut events = m.subscribe();
    let v = play(&m, &white, &id, 3).await;
    // The reply is in the answer and in the one write that stored White's move.
    assert_eq!((v.ply, v.position.to_move()), (2, Side::White));
    let rec = stored(&m, &id).await;
    assert_eq!(rec.moves, vec![3, 7]);
    assert_eq!(rec.premoves[1].lines, lines(&[&[5, 2], &[6, 1]]));
    // The other player's boards are told of the change once, with both moves.
    match next_event(&mut events).await {
        Event::Acted { view, actor } => assert_eq!((view.ply, actor), (2, white.clone())),
        other => panic!("expected the move, got {other:?}"),
    }
    // A move off every line clears them and plays nothing.
    let v = play(&m, &white, &id, 9).await;
    assert_eq!((v.ply, v.position.to_move()), (3, Side::Black));
    assert!(m.premoves(&black, &id).await.unwrap().lines.is_empty());
    assert!(stored(&m, &id).await.premoves[1].lines.is_empty());
}

async fn the_builder_keeps_its_draft_refuses_stale_keys_and_the_end_clears(backend: Backend) {
    let (m, _) = manager_with(backend.open().await, ManagerConfig::default()).await;
    let (v, white, black) = two_day_game(&m, &user("a"), &user("b")).await;
    let mut shown = m.premoves(&black, &v.id).await.unwrap();
    for edit in [PremoveEdit::Pit(3), PremoveEdit::Pit(7)] {
        shown = m
            .edit_premoves(&black, &v.id, Some(shown.edits), edit)
            .await
            .unwrap();
    }
    assert_eq!(shown.draft, vec![3, 7]);
    // A key of a builder shown before the last change is stale.
    let old = m
        .edit_premoves(&black, &v.id, Some(shown.edits - 1), PremoveEdit::AddLine)
        .await;
    assert!(matches!(old, Err(ActionError::StaleBoard)), "{old:?}");
    let added = m
        .edit_premoves(&black, &v.id, Some(shown.edits), PremoveEdit::AddLine)
        .await
        .unwrap();
    assert_eq!((added.lines, added.draft), (lines(&[&[3, 7]]), vec![]));
    // An illegal pit names its line and move.
    let bad = m
        .edit_premoves(
            &black,
            &v.id,
            None,
            PremoveEdit::Set(lines(&[&[3, 7], &[4, 0]])),
        )
        .await;
    assert!(
        matches!(
            bad,
            Err(ActionError::PremoveIllegal {
                line: 2,
                step: 2,
                pit: 0
            })
        ),
        "{bad:?}"
    );
    let too_many: Vec<Vec<u8>> = (0..31u8).map(|i| vec![i % 9 + 1, i / 9 + 1]).collect();
    let refused = m
        .edit_premoves(&black, &v.id, None, PremoveEdit::Set(too_many))
        .await;
    assert!(
        matches!(refused, Err(ActionError::TooManyPremoves)),
        "{refused:?}"
    );
    // The game ends: nothing stays queued.
    act(
        &m,
        &white,
        Action::Resign {
            game: Some(v.id.clone()),
            ply: None,
        },
    )
    .await
    .unwrap();
    let archived = m
        .store()
        .get::<GameRecord>(Tree::Archive, &v.id)
        .await
        .unwrap();
    assert!(archived
        .expect("archived")
        .premoves
        .iter()
        .all(|p| p.is_empty()));
    let over = m
        .edit_premoves(&black, &v.id, None, PremoveEdit::Pit(3))
        .await;
    assert!(matches!(over, Err(ActionError::GameOver)), "{over:?}");
}

async fn timed_games_have_no_premoves(backend: Backend) {
    let (m, _) = manager_with(backend.open().await, ManagerConfig::default()).await;
    let (a, b) = (user("a"), user("b"));
    let time = Some(TimeControl::fischer(5, 3));
    let id = challenge_id(act(&m, &a, rated_challenge(&b, time)).await);
    let v = game(act(&m, &b, Action::AcceptChallenge { challenge: id }).await);
    let waiting = if v.side_of(&a) == Some(Side::Black) {
        a
    } else {
        b
    };
    let refused = m
        .edit_premoves(&waiting, &v.id, None, PremoveEdit::Set(lines(&[&[3, 7]])))
        .await;
    assert!(
        matches!(refused, Err(ActionError::PremovesNotHere)),
        "{refused:?}"
    );
    assert!(!v.actions_for(Some(&waiting)).premoves);
}

/// Two processes on one database: lines set through one are played by a move made through
/// the other, in one write.
#[tokio::test]
async fn premoves_set_in_one_process_are_played_by_another() {
    let Some(backend) = Backend::postgres().await else {
        return;
    };
    let (one, _) = manager_with(backend.open().await, ManagerConfig::default()).await;
    let (two, _) = manager_with(backend.open().await, ManagerConfig::default()).await;
    let (v, white, black) = two_day_game(&one, &user("a"), &user("b")).await;
    let set = PremoveEdit::Set(lines(&[&[5, 5]]));
    one.edit_premoves(&black, &v.id, None, set).await.unwrap();
    let after = play(&two, &white, &v.id, 5).await;
    assert_eq!(after.ply, 2);
    assert_eq!(stored(&one, &v.id).await.moves, vec![5, 5]);
    assert_eq!(one.game(&v.id).await.unwrap().ply, 2);
}

toguz::on_both_backends! {
    single: [
        a_premove_is_played_with_the_move_it_answers_and_survives_a_restart,
        the_builder_keeps_its_draft_refuses_stale_keys_and_the_end_clears,
        timed_games_have_no_premoves,
    ],
    multi: [],
}
