//! Chats listed on the web's front page: the choice is kept in the store, so it survives a
//! restart, and the listed games come back with it.

use super::manager_with;
use toguz::manager::{Action, Request};
use toguz::model::{ChatRef, Platform};
use toguz::testing::manager::{challenge_id, game, rated_challenge, test_config, user, Backend};

async fn a_chat_stays_listed_after_a_restart(backend: Backend) {
    let chat = ChatRef::new(Platform::Telegram, "-100777");
    let other = ChatRef::new(Platform::Telegram, "-100888");
    let (m, _) = manager_with(backend.open().await, test_config()).await;
    let (admin, a, b) = (user("admin"), user("a"), user("b"));
    m.set_chat_public(&chat, &admin, true).await.unwrap();
    m.set_chat_public(&other, &admin, true).await.unwrap();
    m.set_chat_public(&other, &admin, false).await.unwrap();
    let ask = |who: &toguz::model::UserRef, action| Request {
        actor: who.clone(),
        chat: chat.clone(),
        action,
    };
    let challenge = challenge_id(m.act(ask(&a, rated_challenge(&b, None))).await);
    let view = game(m.act(ask(&b, Action::AcceptChallenge { challenge })).await);
    let listed = m.public_games(20).await.unwrap();
    assert_eq!(listed.live.len(), 1);
    assert_eq!(listed.live[0].view.id, view.id);
    assert_eq!(listed.live[0].key, m.page_key(&view.id).await.unwrap());
    assert!(listed.recent.is_empty());

    // Two games end: the listed chat's is among the recent ones, the other chat's never.
    let ask_in = |chat: &ChatRef, who: &toguz::model::UserRef, action| Request {
        actor: who.clone(),
        chat: chat.clone(),
        action,
    };
    let (c, d) = (user("c"), user("d"));
    let hidden = challenge_id(m.act(ask_in(&other, &c, rated_challenge(&d, None))).await);
    let hidden = game(
        m.act(ask_in(
            &other,
            &d,
            Action::AcceptChallenge { challenge: hidden },
        ))
        .await,
    );
    for (place, who, id) in [(&other, &c, &hidden.id), (&chat, &a, &view.id)] {
        let resign = Action::Resign {
            game: Some(id.clone()),
            ply: None,
        };
        game(m.act(ask_in(place, who, resign)).await);
    }
    let listed = m.public_games(20).await.unwrap();
    assert!(listed.live.is_empty());
    let recent: Vec<_> = listed.recent.iter().map(|g| g.view.id.clone()).collect();
    assert_eq!(recent, vec![view.id.clone()]);
    assert!(listed.recent[0].view.is_over());
    drop(m);

    let (m, _) = manager_with(backend.open().await, test_config()).await;
    assert!(m.is_chat_public(&chat).await.unwrap());
    assert!(
        !m.is_chat_public(&other).await.unwrap(),
        "turned off stays off"
    );
    let listed = m.public_games(20).await.unwrap();
    assert!(listed.live.is_empty());
    let recent: Vec<_> = listed.recent.iter().map(|g| g.view.id.clone()).collect();
    assert_eq!(
        recent,
        vec![view.id.clone()],
        "the ended game is listed again"
    );
}

async fn an_ongoing_game_is_listed_again_after_a_restart(backend: Backend) {
    let chat = ChatRef::new(Platform::Telegram, "-100777");
    let (m, _) = manager_with(backend.open().await, test_config()).await;
    let (admin, a, b) = (user("admin"), user("a"), user("b"));
    m.set_chat_public(&chat, &admin, true).await.unwrap();
    let ask = |who: &toguz::model::UserRef, action| Request {
        actor: who.clone(),
        chat: chat.clone(),
        action,
    };
    let challenge = challenge_id(m.act(ask(&a, rated_challenge(&b, None))).await);
    let view = game(m.act(ask(&b, Action::AcceptChallenge { challenge })).await);
    drop(m);
    let (m, _) = manager_with(backend.open().await, test_config()).await;
    let listed = m.public_games(20).await.unwrap();
    let live: Vec<_> = listed.live.iter().map(|g| g.view.id.clone()).collect();
    assert_eq!(
        live,
        vec![view.id.clone()],
        "the ongoing game is listed again"
    );
}

/// Two processes on one PostgreSQL database: a listed game that ends in one is among the
/// recent games of the other's front page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_ended_in_another_process_is_listed_here() {
    let Some(backend) = Backend::postgres().await else {
        return;
    };
    let chat = ChatRef::new(Platform::Telegram, "-100777");
    let (there, _) = manager_with(backend.open().await, test_config()).await;
    let (admin, a, b) = (user("admin"), user("a"), user("b"));
    there.set_chat_public(&chat, &admin, true).await.unwrap();
    let (here, _) = manager_with(backend.open().await, test_config()).await;
    let ask = |who: &toguz::model::UserRef, action| Request {
        actor: who.clone(),
        chat: chat.clone(),
        action,
    };
    let challenge = challenge_id(there.act(ask(&a, rated_challenge(&b, None))).await);
    let view = game(
        there
            .act(ask(&b, Action::AcceptChallenge { challenge }))
            .await,
    );
    let resign = Action::Resign {
        game: Some(view.id.clone()),
        ply: None,
    };
    game(there.act(ask(&a, resign)).await);
    let listed = here.public_games(20).await.unwrap();
    let recent: Vec<_> = listed.recent.iter().map(|g| g.view.id.clone()).collect();
    assert_eq!(recent, vec![view.id.clone()]);
    assert_eq!(listed.recent[0].key, here.page_key(&view.id).await.unwrap());
}

toguz::on_both_backends! {
    single: [
        a_chat_stays_listed_after_a_restart,
        an_ongoing_game_is_listed_again_after_a_restart
    ],
    multi: [],
}
