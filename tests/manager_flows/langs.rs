//! Issue 32: the languages a game's messages speak come with its views, so no adapter
//! looks them up: each player's (the one they chose, else their app's as their platform
//! last reported it, English for the bot), and a challenge's challenger's.

use super::{manager_with, next_event};
use std::time::Duration;
use toguz::i18n::Lang;
use toguz::manager::{Action, Event, GameView, Reply};
use toguz::model::{Level, UserRef};
use toguz::rules::{Side, Variant};
use toguz::testing::manager::{act, game, rated_challenge, test_config, user, Backend};

/// The language `view` gives `who`'s side.
fn lang_of(view: &GameView, who: &UserRef) -> Lang {
    let side = view.side_of(who).expect("a player of the game");
    view.langs[side.index()]
}

async fn views_carry_the_languages_their_messages_speak(backend: Backend) {
    let (m, _) = manager_with(backend.open().await, test_config()).await;
    let (a, b) = (user("a"), user("b"));
    // "a" chose nothing and uses a Kazakh app; "b" chose Russian.
    assert_eq!(m.speaker(&a, Some(Lang::Kk)).await, Lang::Kk);
    m.set_user_lang(&b, Lang::Ru).await.unwrap();
    assert_eq!(
        m.speaker(&b, Some(Lang::En)).await,
        Lang::Ru,
        "a choice wins"
    );

    let Ok(Reply::Challenge(challenge)) = act(&m, &a, rated_challenge(&b, None)).await else {
        panic!("a challenge");
    };
    assert_eq!(
        challenge.lang,
        Lang::Kk,
        "a challenge speaks its challenger's language"
    );
    let accept = Action::AcceptChallenge {
        challenge: challenge.id.clone(),
    };
    let v = game(act(&m, &b, accept).await);
    assert_eq!((lang_of(&v, &a), lang_of(&v, &b)), (Lang::Kk, Lang::Ru));

    // A language chosen now speaks on the next view at once.
    m.set_user_lang(&a, Lang::En).await.unwrap();
    let show = Action::Show {
        game: Some(v.id.clone()),
    };
    let v = game(act(&m, &b, show.clone()).await);
    assert_eq!((lang_of(&v, &a), lang_of(&v, &b)), (Lang::En, Lang::Ru));

    // After a restart the choices are read from the store.
    drop(m);
    let (m, _) = manager_with(backend.open().await, test_config()).await;
    let v = game(act(&m, &b, show).await);
    assert_eq!((lang_of(&v, &a), lang_of(&v, &b)), (Lang::En, Lang::Ru));
}

async fn the_bots_moves_come_with_the_players_languages(backend: Backend) {
    let (m, _) = manager_with(backend.open().await, test_config()).await;
    let mut events = m.subscribe();
    let c = user("c");
    m.speaker(&c, Some(Lang::Kk)).await;
    let play = Action::PlayBot {
        level: Level::Random,
        variant: Variant::STANDARD,
        colour: Some(Side::Black),
        time: None,
    };
    let v = game(act(&m, &c, play).await);
    assert_eq!(
        v.langs,
        [Lang::En, Lang::Kk],
        "the bot plays White, in English"
    );
    // The bot's move is published with the same languages (no adapter asks again).
    let moved = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            if let Event::Game(view) = next_event(&mut events).await {
                if view.id == v.id && view.ply == 1 {
                    return view;
                }
            }
        }
    })
    .await
    .expect("the bot moves");
    assert_eq!(moved.langs, [Lang::En, Lang::Kk]);
}

/// A language chosen through another process (sharing the store) is not waited for: this
/// process answers with what it knew, reads it again in the background once what it knew is
/// 10 s old, and speaks it from then on.
async fn a_language_chosen_elsewhere_shows_after_a_read_in_the_background(backend: Backend) {
    let store = backend.open().await;
    let (here, clock) = manager_with(store.clone(), test_config()).await;
    let (there, _) = manager_with(store.clone(), test_config()).await;
    let b = user("b");
    assert_eq!(here.user_lang(&b).await, None);
    there.set_user_lang(&b, Lang::Kk).await.unwrap();
    assert_eq!(here.user_lang(&b).await, None, "trusted for 10 s");
    clock.advance(11);
    let reads = store.reads();
    assert_eq!(
        here.user_lang(&b).await,
        None,
        "answered at once, read again behind"
    );
    assert_eq!(store.reads(), reads, "the answer waited on no read");
    for _ in 0..1000 {
        if here.lang_refreshes() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    assert_eq!(here.lang_rereads(), 1);
    assert_eq!(here.user_lang(&b).await, Some(Lang::Kk));
    // A choice made here is known here at once, whatever a background read brings back.
    clock.advance(11);
    assert_eq!(here.user_lang(&b).await, Some(Lang::Kk));
    here.set_user_lang(&b, Lang::Ru).await.unwrap();
    while here.lang_refreshes() > 0 {
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    assert_eq!(here.user_lang(&b).await, Some(Lang::Ru));
}

toguz::on_both_backends! {
    single: [
        views_carry_the_languages_their_messages_speak,
        the_bots_moves_come_with_the_players_languages,
        a_language_chosen_elsewhere_shows_after_a_read_in_the_background,
    ],
    multi: [],
}
