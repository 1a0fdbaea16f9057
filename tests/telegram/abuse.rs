//! What a modified client, an anonymous admin, a channel or another bot cannot do, and a
//! handler that panics.

use crate::load::{board_of, bot_game, group_game, press_first, to_move};
use toguz::testing::telegram::bot::{wait_board, Board, BotProcess, TOKEN, WAIT};
use toguz::testing::telegram::{FakeTelegram, TgChat, TgUser};

/// The text of the next sendMessage to `chat` from call `mark` on.
pub fn next_text(fake: &FakeTelegram, mark: usize, chat: i64) -> String {
    let (_, call) = fake
        .wait_call(mark, WAIT, |c| {
            c.method == "sendMessage" && c.ok() && c.i64("chat_id") == Some(chat)
        })
        .expect("a message");
    call.str("text").unwrap_or_default()
}

/// Waits until every update sent to `chat` so far has been handled and its posts are out:
/// a chat's updates are handled one after another and its posts go out in order, so the
/// answer to a `/help` sent now by `from` comes after all of them. The index of that answer.
fn settle(fake: &FakeTelegram, chat: &TgChat, from: &TgUser) -> usize {
    let mark = fake.mark();
    fake.send_text(chat, from, "/help");
    let (at, _) = fake
        .wait_call(mark, WAIT, |c| {
            c.method == "sendMessage"
                && c.ok()
                && c.i64("chat_id") == Some(chat.id)
                && c.str("text").is_some_and(|t| t.contains("/play"))
        })
        .expect("the answer to /help");
    at
}

/// No challenge posted since `mark`, once what was sent to `chat` has been handled.
fn no_challenge_since(fake: &FakeTelegram, mark: usize, chat: &TgChat, from: &TgUser) -> bool {
    settle(fake, chat, from);
    !fake.calls()[mark..]
        .iter()
        .any(|c| c.buttons().iter().any(|(_, d)| d.starts_with("1ca:")))
}

#[test]
fn anonymous_admins_channels_and_bots_cannot_play() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&fake, dir.path(), "", "");
    let group = TgChat::group(-5001, "Club");
    let ann = TgUser::new(5101, "Ann", "", "en");
    fake.send_text(&group, &ann, "hello");

    // An anonymous admin: from GroupAnonymousBot, on behalf of the group itself.
    let mark = fake.mark();
    fake.send_as(
        &group,
        &group,
        &TgUser::group_anonymous_bot(),
        "/challenge",
        None,
    );
    assert!(next_text(&fake, mark, group.id).contains("anonymously"));
    assert!(no_challenge_since(&fake, mark, &group, &ann));

    // A post sent as a channel: from Channel_Bot, on behalf of the channel.
    let channel = TgChat::channel(-1005002, "News");
    let mark = fake.mark();
    fake.send_as(&group, &channel, &TgUser::channel_bot(), "/challenge", None);
    assert!(next_text(&fake, mark, group.id).contains("anonymously"));
    assert!(no_challenge_since(&fake, mark, &group, &ann));

    // Another bot, and an anonymous admin's message, as the challenged "user".
    let other_bot = TgUser::bot(5102, "Helper", "helper_bot");
    let theirs = fake.send_text(&group, &other_bot, "beep");
    let mark = fake.mark();
    fake.send_reply(&group, &ann, "/challenge", theirs);
    assert!(next_text(&fake, mark, group.id).contains("Only people"));
    assert!(no_challenge_since(&fake, mark, &group, &ann));
    let anonymous = fake.send_as(&group, &group, &TgUser::group_anonymous_bot(), "hi", None);
    let mark = fake.mark();
    fake.send_reply(&group, &ann, "/challenge", anonymous);
    assert!(next_text(&fake, mark, group.id).contains("Only people"));
    assert!(no_challenge_since(&fake, mark, &group, &ann));
}

#[test]
fn a_forged_inline_button_makes_no_challenge_in_another_users_name() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&fake, dir.path(), "", "");
    let alice = TgUser::new(5201, "Alice", "", "en");
    let mallory = TgUser::new(5202, "Mallory", "", "en");
    let eve = TgUser::new(5203, "Eve", "", "en");
    let query = fake.inline_query(&mallory, "");
    let (_, offered) = fake
        .wait_call(0, WAIT, |c| c.method == "answerInlineQuery" && c.ok())
        .expect("answered");
    let result = offered.params["results"][0]["id"].as_str().expect("id");
    let inline = fake.send_inline_result(&query, result, false);
    let before = fake.inline_message(&inline).expect("sent");
    // Data naming Alice, unsigned or with Mallory's signature, pressed by Eve.
    let (_, genuine) = before.buttons().first().cloned().expect("a button");
    let tag = genuine.rsplit(':').next().unwrap_or_default().to_string();
    for forged in [
        format!("tgi:{}", alice.id),
        format!("tgi:{}:{tag}", alice.id),
    ] {
        let q = fake.press_inline(&inline, &eve, &forged);
        let answer = fake.wait_answer(&q, WAIT).expect("answered");
        assert!(
            answer.str("text").is_some_and(|t| t.contains("not valid")),
            "{answer:#?}"
        );
    }
    let untouched = fake.inline_message(&inline).expect("still there");
    assert_eq!(untouched.text, before.text, "nothing changed");
    assert_eq!(untouched.reply_markup, before.reply_markup);
    // The genuine button still works: Eve takes Mallory's challenge, and the message
    // becomes their board. That edit is the sign the presses before it were dealt with;
    // then the message was edited once, into Mallory's game, and Alice is in nothing sent.
    let q = fake.press_inline(&inline, &eve, &genuine);
    assert_eq!(
        fake.wait_answer(&q, WAIT).expect("answered").str("text"),
        None
    );
    let started = fake.wait_until(WAIT, |v| {
        v.inline_message(&inline)
            .and_then(Board::of)
            .is_some_and(|b| !b.pits.is_empty())
    });
    assert!(started, "{:#?}", fake.inline_message(&inline));
    let board = Board::of(&fake.inline_message(&inline).expect("there")).expect("a board");
    let calls = fake.calls();
    // Every edit of the message shows this one game: no forged press started another.
    let games: std::collections::BTreeSet<String> = calls
        .iter()
        .filter(|c| {
            c.method.starts_with("editMessage")
                && c.str("inline_message_id") == Some(inline.clone())
        })
        .flat_map(|c| c.buttons())
        .filter_map(|(_, data)| Some(data.strip_prefix("1m:")?.split(':').next()?.to_string()))
        .collect();
    assert_eq!(
        games,
        std::collections::BTreeSet::from([board.game.clone()])
    );
    let alice_named = calls
        .iter()
        .filter(|c| c.method != "answerCallbackQuery")
        .find(|c| c.params.to_string().contains("Alice"));
    assert!(alice_named.is_none(), "{alice_named:#?}");
}

#[test]
fn a_forged_button_on_another_games_board_is_refused_and_changes_nothing() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&fake, dir.path(), "", "");
    let group = TgChat::group(-5003, "Club");
    let ann = TgUser::new(5301, "Ann", "", "en");
    let ben = TgUser::new(5302, "Ben", "", "en");
    let theirs = group_game(&fake, &group, &ann, &ben);
    let cat = TgUser::new(5303, "Cat", "", "en");
    let (cat_chat, mine) = bot_game(&fake, &cat, "easy");
    // Cat presses her own game's move on the board of Ann and Ben's game.
    let (pit, _) = mine.pits[0].clone();
    let forged = format!("1m:{}:{}:{pit}", mine.game, mine.ply);
    let q = fake.press(&group, theirs.message.message_id, &cat, &forged);
    let answer = fake.wait_answer(&q, WAIT).expect("answered");
    assert!(
        answer.str("text").is_some_and(|t| t.contains("not valid")),
        "{answer:#?}"
    );
    let board = Board::of(&fake.message(group.id, theirs.message.message_id).unwrap())
        .expect("still a board");
    assert_eq!(board.game, theirs.game, "not taken over");
    assert_eq!(board.data, theirs.data);
    // Signs that the forged press was dealt with before anything after it. In the group,
    // whose updates are handled in order: the player to move makes a move, and the board
    // shows that move alone, still of their game.
    let players = [ann.clone(), ben.clone()];
    let mover = to_move(&theirs, &players).expect("someone to move");
    let q = press_first(&fake, &group, mover, &theirs);
    assert_eq!(
        fake.wait_answer(&q, WAIT).expect("answered").str("text"),
        None
    );
    let moved = wait_board(&fake, group.id, |b| b.ply > theirs.ply);
    assert_eq!(moved.game, theirs.game, "not taken over");
    assert_eq!(moved.ply, theirs.ply + 1);
    let shown = fake.bot_messages(group.id);
    assert!(
        board_of(&shown, &mine.game).is_none(),
        "Cat's game in the group"
    );
    // Cat's own game: the move she forged is taken on her board, so it was not played.
    let q = press_first(&fake, &cat_chat, &cat, &mine);
    assert_eq!(
        fake.wait_answer(&q, WAIT).expect("answered").str("text"),
        None,
        "Cat's game did not move before"
    );
    wait_board(&fake, cat_chat.id, |b| b.ply > mine.ply);
}

#[test]
fn a_panicking_handler_is_answered_and_the_bot_goes_on() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot =
        BotProcess::start_with_env(&fake, dir.path(), "", "", &[("TOGUZ_TEST_PANIC", "boom")]);
    let dan = TgUser::new(5401, "Dan", "", "en");
    let chat = TgChat::private(&dan);
    let mark = fake.mark();
    fake.send_text(&chat, &dan, "/boom");
    assert!(next_text(&fake, mark, chat.id).contains("went wrong"));
    let (_, board) = bot_game(&fake, &dan, "easy");
    let q = fake.press(&chat, board.message.message_id, &dan, "boom");
    let answer = fake.wait_answer(&q, WAIT).expect("answered");
    assert!(answer.str("text").is_some_and(|t| t.contains("went wrong")));
    let mark = fake.mark();
    fake.send_text(&chat, &dan, "/help");
    assert!(next_text(&fake, mark, chat.id).contains("/play"));
}

/// No sendMessage to `chat` since `mark` but the answer to the `/help` that shows all
/// that was sent before has been handled.
fn silent_since(fake: &FakeTelegram, mark: usize, chat: &TgChat, from: &TgUser) -> bool {
    let help = settle(fake, chat, from);
    !fake.calls()[mark..help]
        .iter()
        .any(|c| c.method == "sendMessage" && c.i64("chat_id") == Some(chat.id))
}

#[test]
fn malformed_commands_get_a_clear_answer_and_other_bots_commands_none() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&fake, dir.path(), "", "");
    let eva = TgUser::new(5501, "Eva", "", "ru");
    let private = TgChat::private(&eva);

    let mark = fake.mark();
    fake.send_text(&private, &eva, "/frobnicate");
    let text = next_text(&fake, mark, private.id);
    assert!(
        text.contains("/frobnicate") && text.contains("/play"),
        "{text}"
    );
    let mark = fake.mark();
    fake.send_text(&private, &eva, "/lang de");
    let text = next_text(&fake, mark, private.id);
    assert!(text.contains("«de»") && text.contains("/lang kk"), "{text}");
    let mark = fake.mark();
    fake.send_text(&private, &eva, "/play гроссмейстер");
    let text = next_text(&fake, mark, private.id);
    assert!(
        text.contains("гроссмейстер") && text.contains("лёгкий"),
        "{text}"
    );
    // A level named in Russian starts a game.
    let mark = fake.mark();
    fake.send_text(&private, &eva, "/play лёгкий");
    let board = wait_board(&fake, private.id, |_| true);
    assert!(board.message.message_id > 0);
    assert!(fake.calls()[mark..].iter().any(|c| c.method == "sendPhoto"));

    // In a group, an unknown command is another bot's unless addressed to this one.
    let group = TgChat::group(-5501, "Club");
    let mark = fake.mark();
    fake.send_text(&group, &eva, "/weather");
    assert!(silent_since(&fake, mark, &group, &eva));
    let mark = fake.mark();
    fake.send_text(&group, &eva, "/weather@toguz_test_bot");
    assert!(next_text(&fake, mark, group.id).contains("/weather"));
    let mark = fake.mark();
    fake.send_text(&group, &eva, "/challenge bob");
    let text = next_text(&fake, mark, group.id);
    assert!(
        text.contains("«bob»") && text.contains("/challenge @username"),
        "{text}"
    );
    assert!(no_challenge_since(&fake, mark, &group, &eva));
}
