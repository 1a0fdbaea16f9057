//! Signing in on the pages (issue 50): one-time links and sessions, on both backends, across
//! a restart and between two processes sharing one database.

use super::manager_with;
use toguz::manager::{ActionError, Manager, ManagerConfig, SignIn, WebSession};
use toguz::on_both_backends;
use toguz::testing::manager::{user, Backend};

const SITE: &str = "https://toguz.example";

fn served() -> ManagerConfig {
    let mut config = toguz::testing::manager::test_config();
    config.web_url = Some(SITE.to_owned());
    config
}

/// The token at the end of a link's address.
fn token_of(url: &str) -> &str {
    url.strip_prefix(SITE)
        .and_then(|rest| rest.strip_prefix("/login/"))
        .expect("a link to this site's /login/")
}

async fn link_token(m: &Manager, who: &str) -> String {
    let link = m.web_login_link(&user(who)).await.unwrap();
    token_of(link.url.expose()).to_owned()
}

fn refused<T: std::fmt::Debug>(result: Result<T, ActionError>) {
    assert!(
        matches!(result, Err(ActionError::SignInRefused)),
        "{result:?}"
    );
}

async fn a_link_signs_its_user_in_once_and_only_for_ten_minutes(backend: Backend) {
    let (m, clock) = manager_with(backend.open().await, served()).await;
    let token = link_token(&m, "alice").await;
    let session = m.redeem_web_login(&token).await.unwrap();
    assert_eq!(session.user, user("alice"));
    assert_eq!(session.via, SignIn::Link);
    assert_eq!(session.csrf.len(), 32);
    let again = m.web_session(session.token.expose()).await.unwrap();
    assert_eq!((again.user, again.csrf), (user("alice"), session.csrf));
    refused(m.redeem_web_login(&token).await);

    let late = link_token(&m, "alice").await;
    clock.advance(10 * 60);
    refused(m.redeem_web_login(&late).await);
    let forged = "0".repeat(64);
    refused(m.redeem_web_login(&forged).await);
    refused(m.redeem_web_login("../../etc").await);

    // A session lasts thirty days.
    clock.advance(30 * 24 * 3600);
    refused(m.web_session(session.token.expose()).await);
}

async fn a_token_cannot_be_bent_to_another_user(backend: Backend) {
    let (m, _) = manager_with(backend.open().await, served()).await;
    let alice = m
        .open_web_session(&user("alice"), SignIn::TelegramMiniApp)
        .await
        .unwrap();
    let (_, random) = alice.token.expose().split_once('.').unwrap();
    let bob_hex: String = user("bob")
        .key()
        .bytes()
        .map(|b| format!("{b:02x}"))
        .collect();
    refused(m.web_session(&format!("{bob_hex}.{random}")).await);
    refused(m.web_session("").await);
    refused(m.web_session("not a token").await);
    // The token is a secret: it never prints.
    assert!(!format!("{alice:?}").contains(random));
}

async fn logout_ends_every_session_of_the_user_and_no_other(backend: Backend) {
    let (m, _) = manager_with(backend.open().await, served()).await;
    let token = link_token(&m, "alice").await;
    let mut alice: Vec<WebSession> = vec![m.redeem_web_login(&token).await.unwrap()];
    for via in [SignIn::TelegramMiniApp, SignIn::DiscordActivity] {
        alice.push(m.open_web_session(&user("alice"), via).await.unwrap());
    }
    let bob = m
        .open_web_session(&user("bob"), SignIn::Link)
        .await
        .unwrap();
    assert_eq!(m.end_web_sessions(&user("alice")).await.unwrap(), 3);
    for session in &alice {
        refused(m.web_session(session.token.expose()).await);
    }
    assert_eq!(
        m.web_session(bob.token.expose()).await.unwrap().user,
        user("bob")
    );
    assert_eq!(m.end_web_sessions(&user("alice")).await.unwrap(), 0);
}

async fn links_and_sessions_survive_a_restart(backend: Backend) {
    let (token, session) = {
        let (m, _) = manager_with(backend.open().await, served()).await;
        let token = link_token(&m, "alice").await;
        let session = m
            .open_web_session(&user("alice"), SignIn::Link)
            .await
            .unwrap();
        (token, session)
    };
    let (m, _) = manager_with(backend.open().await, served()).await;
    assert_eq!(
        m.web_session(session.token.expose()).await.unwrap().user,
        user("alice")
    );
    assert_eq!(
        m.redeem_web_login(&token).await.unwrap().user,
        user("alice")
    );
}

async fn two_redeem_one_link_at_once_and_one_wins(backend: Backend) {
    let (m, _) = manager_with(backend.open().await, served()).await;
    // On PostgreSQL the second is another process sharing the database; sled is one
    // process's store, so there it is another task.
    let other = match &backend {
        Backend::Postgres(_) => manager_with(backend.open().await, served()).await.0,
        Backend::Sled(_) => m.clone(),
    };
    for _ in 0..10 {
        let token = link_token(&m, "alice").await;
        let (a, b) = tokio::join!(m.redeem_web_login(&token), other.redeem_web_login(&token));
        let won = [&a, &b].iter().filter(|r| r.is_ok()).count();
        assert_eq!(won, 1, "{a:?} {b:?}");
        for result in [a, b] {
            if let Err(error) = result {
                assert!(matches!(error, ActionError::SignInRefused), "{error:?}");
            }
        }
    }
}

async fn no_link_without_a_site(backend: Backend) {
    let (m, _) = manager_with(backend.open().await, ManagerConfig::default()).await;
    assert!(matches!(
        m.web_login_link(&user("alice")).await,
        Err(ActionError::WebNotServed)
    ));
}

on_both_backends! {
    single: [
        a_link_signs_its_user_in_once_and_only_for_ten_minutes,
        a_token_cannot_be_bent_to_another_user,
        logout_ends_every_session_of_the_user_and_no_other,
        links_and_sessions_survive_a_restart,
        no_link_without_a_site,
    ],
    multi: [two_redeem_one_link_at_once_and_one_wins],
}
