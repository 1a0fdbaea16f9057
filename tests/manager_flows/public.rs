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
    drop(m);

    let (m, _) = manager_with(backend.open().await, test_config()).await;
    assert!(m.is_chat_public(&chat).await.unwrap());
    assert!(
        !m.is_chat_public(&other).await.unwrap(),
        "turned off stays off"
    );
    let listed = m.public_games(20).await.unwrap();
    let live: Vec<_> = listed.live.iter().map(|g| g.view.id.clone()).collect();
    assert_eq!(
        live,
        vec![view.id.clone()],
        "the ongoing game is listed again"
    );
}

toguz::on_both_backends! {
    single: [a_chat_stays_listed_after_a_restart],
    multi: [],
}
