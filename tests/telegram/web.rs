//! `/web public on|off` in a group (issue 35): a group's admin lists its games on the
//! website's front page, and stops; a member who is not an admin is refused. `/web profile
//! on|off` (issue 49, finding 9): anyone's choice for their own page.

use toguz::model::{ChatRef, Platform};
use toguz::testing::manager::test_config;
use toguz::testing::telegram::bot::{TOKEN, WAIT};
use toguz::testing::telegram::inproc::InProcessBot;
use toguz::testing::telegram::{FakeTelegram, TgChat, TgUser};

const GROUP: i64 = -100_735;
const LISTED: &str =
    "This chat's games are now listed on the website's front page, for anyone to watch.";
const UNLISTED: &str = "This chat's games are no longer listed on the website's front page. \
                        Links to them still work.";
const ADMINS: &str =
    "Only the chat's admins can choose whether its games are listed on the website.";
const STATE_OFF: &str = "This chat's games are not listed on the website's front page. \
                         Admins can list them with /web public on.\n\n\
                         Your page on the website lists only your games in chats whose games \
                         are on the front page. To list all of them: /web profile on";
const PROFILE_ON: &str = "Your page on the website now lists all your games, those of private \
                          chats included, and search engines may show it.";

/// `who` writes `text` in `group`: the text of the bot's reply.
fn ask(fake: &FakeTelegram, group: &TgChat, who: &TgUser, text: &str) -> String {
    let asked = fake.send_text(group, who, text);
    let found = fake.wait_until(WAIT, |v| {
        v.bot_messages(GROUP)
            .iter()
            .any(|m| m.reply_to == Some(asked) && m.text.is_some())
    });
    assert!(found, "no answer to {text}");
    let messages = fake.bot_messages(GROUP);
    let answer = messages.iter().find(|m| m.reply_to == Some(asked));
    answer.and_then(|m| m.text.clone()).expect("a text")
}

#[test]
fn an_admin_lists_the_groups_games_and_a_member_is_refused() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().expect("temp dir");
    let bot = InProcessBot::start_with(&fake, test_config(), dir.path());
    let group = TgChat::group(GROUP, "Web club");
    let alice = TgUser::new(911, "Alice", "alice_w", "en");
    let bob = TgUser::new(912, "Bob", "bob_w", "en");
    fake.set_member_status(&group, &alice, "administrator");
    fake.set_member_status(&group, &bob, "member");
    let chat = ChatRef::new(Platform::Telegram, GROUP.to_string());
    let public = || {
        let (manager, chat) = (bot.manager.clone(), chat.clone());
        bot.block_on(async move { manager.is_chat_public(&chat).await })
            .expect("the store answers")
    };

    assert_eq!(ask(&fake, &group, &bob, "/web"), STATE_OFF);
    assert_eq!(ask(&fake, &group, &bob, "/web public on"), ADMINS);
    assert!(!public(), "a member's ask changes nothing");
    let mark = fake.mark();
    assert_eq!(ask(&fake, &group, &alice, "/web public on"), LISTED);
    let asked = fake.calls()[mark..]
        .iter()
        .any(|c| c.ok() && c.method == "getChatMember" && c.i64("user_id") == Some(alice.id));
    assert!(asked, "the bot asked Telegram whether Alice is an admin");
    assert!(public());
    assert_eq!(ask(&fake, &group, &bob, "/web public off"), ADMINS);
    assert!(public(), "still listed");
    assert_eq!(ask(&fake, &group, &alice, "/web public off"), UNLISTED);
    assert!(!public());
    let how = ask(&fake, &group, &alice, "/web public maybe");
    assert!(how.contains("/web public on"), "{how}");

    // Issue 49, finding 9: anyone chooses for their own page; it is kept in the store.
    let bob_ref = toguz::model::UserRef::new(Platform::Telegram, bob.id.to_string(), "Bob");
    let shows_all = || {
        let (manager, bob) = (bot.manager.clone(), bob_ref.clone());
        bot.block_on(async move { manager.player_page_public(&bob).await })
            .expect("the store answers")
    };
    assert!(!shows_all());
    assert_eq!(ask(&fake, &group, &bob, "/web profile on"), PROFILE_ON);
    assert!(shows_all());
    let state = ask(&fake, &group, &bob, "/web");
    assert!(state.ends_with("/web profile off"), "{state}");
    ask(&fake, &group, &bob, "/web profile off");
    assert!(!shows_all());
}

const SITE: &str = "https://pages.example.org";

/// Issue 50: `/web login` gives a one-time sign-in link, only in the private chat and only
/// as a button (the text holds no address a preview could fetch); `/web logout` ends every
/// session of the user.
#[test]
fn web_login_gives_a_private_one_time_link_and_logout_ends_the_sessions() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = test_config();
    config.web_url = Some(SITE.to_owned());
    let bot = InProcessBot::start_with(&fake, config, dir.path());
    let group = TgChat::group(GROUP, "Web club");
    let alice = TgUser::new(921, "Alice", "alice_l", "en");
    assert_eq!(
        ask(&fake, &group, &alice, "/web login"),
        "I send sign-in links only in our private chat. Write /web login to me there."
    );
    assert!(fake
        .bot_messages(GROUP)
        .iter()
        .all(|m| m.reply_markup.is_none()));

    let private = TgChat::private(&alice);
    let asked = fake.send_text(&private, &alice, "/web login");
    let found = fake.wait_until(WAIT, |v| {
        v.bot_messages(alice.id)
            .iter()
            .any(|m| m.reply_to == Some(asked))
    });
    assert!(found, "no answer to /web login");
    let answer = fake
        .bot_messages(alice.id)
        .into_iter()
        .find(|m| m.reply_to == Some(asked))
        .expect("the answer");
    let text = answer.text.clone().expect("a text");
    assert!(
        text.contains("works once, within the next 10 minutes"),
        "{text}"
    );
    assert!(!text.contains(SITE), "{text}");
    let markup = answer.reply_markup.clone().expect("a button");
    let button = &markup["inline_keyboard"][0][0];
    assert_eq!(button["text"], "🔑 Sign in on the website");
    let url = button["url"]
        .as_str()
        .expect("a URL button, not a web_app one");
    let token = url
        .strip_prefix(&format!("{SITE}/login/"))
        .expect("a link to the site's /login/")
        .to_owned();

    let manager = bot.manager.clone();
    let (session, again) = bot.block_on(async move {
        let session = manager.redeem_web_login(&token).await;
        (session, manager.redeem_web_login(&token).await)
    });
    let session = session.expect("the link signs Alice in");
    assert_eq!(session.user.id, alice.id.to_string());
    assert!(again.is_err(), "the link works once");

    let asked = fake.send_text(&private, &alice, "/web logout");
    let found = fake.wait_until(WAIT, |v| {
        v.bot_messages(alice.id)
            .iter()
            .any(|m| m.reply_to == Some(asked) && m.text.is_some())
    });
    assert!(found, "no answer to /web logout");
    let said = fake
        .bot_messages(alice.id)
        .into_iter()
        .find(|m| m.reply_to == Some(asked))
        .and_then(|m| m.text);
    assert_eq!(
        said.as_deref(),
        Some("Signed out: your session on the website has ended.")
    );
    let manager = bot.manager.clone();
    let token = session.token.expose().to_owned();
    let ended = bot.block_on(async move { manager.web_session(&token).await });
    assert!(ended.is_err(), "the session ended");
}
