//! Trust in Telegram, end to end (issue 31): a game resigned before any move has no result
//! and says so (item 1); hostile display names are shown cleaned and capped (item 14); an
//! Accept shown before the challenger changed the time control is refused with the new
//! terms (item 3); an inline challenge's signed data is good once, on an inline message
//! (item 4). docs/security.md names each test.

use toguz::testing::telegram::bot::{wait_board, BotProcess, TOKEN, WAIT};
use toguz::testing::telegram::{Call, FakeTelegram, TgChat, TgUser};
use toguz::testing::Lifted;

const GROUP: i64 = -100_731;
/// Room for the dozens of commands below (a user's per-minute allowance).
const ROOMY: &str = "commands_per_minute = 300\n";

/// Why the flood limits are lifted here.
fn lifted() -> Lifted {
    Lifted::because("challenges, games and refusals in one chat: dozens of posts a minute; about trust, not flood limits")
}

/// The next successful call of `method` after `mark` that `pred` likes.
fn next_call(fake: &FakeTelegram, mark: usize, method: &str, pred: impl Fn(&Call) -> bool) -> Call {
    let (_, call) = fake
        .wait_call(mark, WAIT, |c| c.method == method && c.ok() && pred(c))
        .unwrap_or_else(|| panic!("no {method}"));
    call
}

/// `from` challenges `to` by replying `command` to their message: the challenge message's id,
/// text and buttons.
fn challenge(
    fake: &FakeTelegram,
    group: &TgChat,
    (from, to): (&TgUser, &TgUser),
    command: &str,
) -> (i64, String, Vec<(String, String)>) {
    let theirs = fake.send_text(group, to, "A game?");
    let mark = fake.mark();
    fake.send_reply(group, from, command, theirs);
    let call = next_call(fake, mark, "sendMessage", |c| {
        c.buttons().iter().any(|(_, d)| d.starts_with("1ca:"))
    });
    let id = call.response["result"]["message_id"].as_i64().expect("id");
    (id, call.str("text").unwrap_or_default(), call.buttons())
}

fn data_starting(buttons: &[(String, String)], prefix: &str) -> String {
    buttons
        .iter()
        .find(|(_, d)| d.starts_with(prefix))
        .map(|(_, d)| d.clone())
        .unwrap_or_else(|| panic!("no {prefix} button in {buttons:?}"))
}

/// Item 1: two new users in a group; the one to move resigns before anyone moved. The
/// board says the game was aborted and counts for nothing (in each player's language), and
/// neither has a rated game.
#[test]
fn a_game_resigned_before_any_move_is_aborted_and_changes_no_rating() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start_lifted(&fake, dir.path(), ROOMY, "", lifted());
    let group = TgChat::group(GROUP, "Toguz club");
    let asel = TgUser::new(731, "Asel", "asel_t", "ru");
    let bob = TgUser::new(732, "Bob", "bob_t", "en");
    let (msg, _, buttons) = challenge(&fake, &group, (&asel, &bob), "/challenge");
    let q = fake.press(&group, msg, &bob, &data_starting(&buttons, "1ca:"));
    fake.wait_answer(&q, WAIT).expect("accepted");
    let board = wait_board(&fake, GROUP, |b| {
        !b.pits.is_empty() && b.message.message_id > msg
    });
    // Bob resigns at once: nobody has moved.
    fake.send_text(&group, &bob, "/resign");
    let end = wait_board(&fake, GROUP, |b| b.game == board.game && b.is_over());
    let caption = end.caption().to_string();
    let (en, ru) = (
        "it has no result, and no rating changes",
        "результата нет, рейтинги не меняются",
    );
    assert!(caption.contains(en) || caption.contains(ru), "{caption}");
    assert!(
        !caption.contains("resigned") && !caption.contains("сдаётся"),
        "{caption}"
    );
    for who in [&bob, &asel] {
        let mark = fake.mark();
        fake.send_text(&group, who, "/stats");
        let text = next_call(&fake, mark, "sendMessage", |_| true)
            .str("text")
            .unwrap_or_default();
        // Today: Bob 1338 (-162), Asel 1662 (+162), one rated game each.
        assert!(!text.contains("1338") && !text.contains("1662"), "{text}");
        assert!(!text.contains(": 1 ("), "{text}");
    }
}

/// Item 14: a name with a right-to-left override, zero-width characters and a line break,
/// and a 500-character name, as a challenge and a board show them.
#[test]
fn hostile_display_names_are_shown_cleaned_and_capped() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start_lifted(&fake, dir.path(), ROOMY, "", lifted());
    let group = TgChat::group(GROUP, "Toguz club");
    let mallory = TgUser::new(
        741,
        "Mal\u{202E}lory\u{200D}\u{200B}\n2. Fake",
        "mallory_t",
        "en",
    );
    let long = TgUser::new(742, &"L".repeat(500), "long_t", "en");
    let (msg, text, buttons) = challenge(&fake, &group, (&mallory, &long), "/challenge");
    let q = fake.press(&group, msg, &long, &data_starting(&buttons, "1ca:"));
    fake.wait_answer(&q, WAIT).expect("accepted");
    let board = wait_board(&fake, GROUP, |b| {
        !b.pits.is_empty() && b.message.message_id > msg
    });
    let capped = format!("{}…", "L".repeat(31));
    let caption = board.caption().to_string();
    for shown in [&text, &caption] {
        for hidden in ['\u{202E}', '\u{200D}', '\u{200B}'] {
            assert!(!shown.contains(hidden), "{hidden:?} in {shown}");
        }
        assert!(!shown.contains("Mallory\n2. Fake"), "{shown}");
        assert!(!shown.contains(&"L".repeat(32)), "{shown}");
        // The caption names the player to move, one or the other.
        assert!(
            shown.contains("Mallory 2. Fake") || shown.contains(&capped),
            "{shown}"
        );
    }
    // The challenge names both.
    assert!(
        text.contains("Mallory 2. Fake") && text.contains(&capped),
        "{text}"
    );
}

/// Item 3: Bob sees a correspondence challenge; Alice makes it blitz 3+2. Bob's press of the
/// Accept he saw starts nothing and is answered with the new terms; the Accept of the new
/// terms starts a 3+2 game.
#[test]
fn an_accept_of_terms_changed_since_is_refused_with_the_new_terms() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start_lifted(&fake, dir.path(), ROOMY, "", lifted());
    let group = TgChat::group(GROUP, "Toguz club");
    let alice = TgUser::new(751, "Alice", "alice_t", "en");
    let bob = TgUser::new(752, "Bob", "bob_t", "en");
    let (msg, _, buttons) = challenge(&fake, &group, (&alice, &bob), "/challenge");
    let old_accept = data_starting(&buttons, "1ca:");
    let id = old_accept.split(':').nth(1).expect("an id").to_string();
    let q = fake.press(&group, msg, &alice, &format!("1ct:{id}:3+2"));
    fake.wait_answer(&q, WAIT).expect("time changed");
    let q = fake.press(&group, msg, &bob, &old_accept);
    let answer = fake.wait_answer(&q, WAIT).expect("answered");
    let text = answer.str("text").unwrap_or_default();
    assert!(text.contains("changed after you saw it"), "{text}");
    assert!(
        text.contains("blitz 3+2") && text.contains("rated"),
        "{text}"
    );
    // Nothing started: no board in the group.
    assert!(fake
        .bot_messages(GROUP)
        .iter()
        .all(|m| toguz::testing::telegram::bot::Board::of(m).is_none()));
    // The challenge message is redrawn with the new terms and their Accept.
    let accept_now = |m: &toguz::testing::telegram::StoredMessage| {
        m.buttons()
            .into_iter()
            .find(|(_, d)| d.starts_with("1ca:"))
            .map(|(_, d)| d)
    };
    let redrawn = fake.wait_until(WAIT, |v| {
        v.message(GROUP, msg)
            .and_then(accept_now)
            .is_some_and(|d| d != old_accept)
    });
    assert!(redrawn, "{:#?}", fake.message(GROUP, msg));
    let stored = fake.message(GROUP, msg).expect("the challenge");
    assert!(
        stored.text.as_deref().unwrap_or_default().contains("3+2"),
        "{stored:#?}"
    );
    let new_accept = accept_now(&stored).expect("an Accept of the new terms");
    let q = fake.press(&group, msg, &bob, &new_accept);
    fake.wait_answer(&q, WAIT).expect("accepted");
    let board = wait_board(&fake, GROUP, |b| !b.pits.is_empty());
    assert!(board.caption().contains("3+2"), "{}", board.caption());
}

/// `from` offers an inline challenge and sends it without feedback: the inline message's id
/// and the signed data of its button.
fn inline_offer(fake: &FakeTelegram, from: &TgUser) -> (String, String) {
    let mark = fake.mark();
    let query = fake.inline_query(from, "");
    let offered = next_call(fake, mark, "answerInlineQuery", |_| true);
    let result = offered.params["results"][0]["id"].as_str().expect("id");
    let inline = fake.send_inline_result(&query, result, false);
    let (_, data) = fake
        .inline_message(&inline)
        .expect("sent")
        .buttons()
        .first()
        .cloned()
        .expect("the placeholder button");
    assert!(data.starts_with("tgi:"), "{data}");
    (inline, data)
}

fn assert_refused(fake: &FakeTelegram, q: &str) {
    let answer = fake.wait_answer(q, WAIT).expect("answered");
    let text = answer.str("text").unwrap_or_default();
    assert!(text.contains("no longer valid"), "{answer:#?}");
}

/// Item 4: Alice's inline offer, pressed first in a group, opens nothing; pressed by Bob on
/// its own message, it starts a game; the same data pressed again by Carol, on her own inline
/// message or on Alice's again, opens nothing and is refused.
#[test]
fn an_inline_offer_is_good_once_on_an_inline_message() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start_lifted(&fake, dir.path(), ROOMY, "", lifted());
    let group = TgChat::group(GROUP, "Toguz club");
    let alice = TgUser::new(761, "Alice", "alice_i", "en");
    let bob = TgUser::new(762, "Bob", "bob_i", "en");
    let carol = TgUser::new(763, "Carol", "carol_i", "en");
    let (inline, data) = inline_offer(&fake, &alice);
    // In a group, on a message that is not inline: refused (and not used up).
    let msg = fake.send_text(&group, &carol, "look");
    assert_refused(&fake, &fake.press(&group, msg, &carol, &data));
    // On its own message: Bob accepts, a game starts there.
    let q = fake.press_inline(&inline, &bob, &data);
    let answer = fake.wait_answer(&q, WAIT).expect("answered");
    assert_eq!(answer.str("text"), None, "{answer:#?}");
    let started = fake.wait_until(WAIT, |v| {
        v.inline_message(&inline)
            .is_some_and(|m| m.buttons().iter().any(|(_, d)| d.starts_with("1m:")))
    });
    assert!(started, "{:#?}", fake.inline_message(&inline));
    // Replayed by Carol on another inline message, and on the first one again.
    let (other, _) = inline_offer(&fake, &carol);
    let before = fake.inline_message(&other).expect("sent");
    assert_refused(&fake, &fake.press_inline(&other, &carol, &data));
    assert_refused(&fake, &fake.press_inline(&inline, &carol, &data));
    std::thread::sleep(std::time::Duration::from_millis(300));
    let after = fake.inline_message(&other).expect("still there");
    assert_eq!(after.text, before.text, "nothing opened in Alice's name");
    assert_eq!(after.reply_markup, before.reply_markup);
}
