//! Rules variants typed with Telegram commands (issue 33), through the real bot (`toguz
//! run`) against the fake Bot API: a 5-ball game against the bot started by `/play` and
//! played to its end, an open challenge with 3 balls and no tuzdeks announced and accepted,
//! and variant words the bot cannot take answered without a game; an inline challenge
//! (`@bot 5 balls 3+2` in any chat) offered and played on the terms typed.

use crate::bot_game::play_to_end;
use toguz::rules::{Position, TuzdekRule, Variant};
use toguz::testing::telegram::bot::{wait_board, Board, BotProcess, TOKEN, WAIT};
use toguz::testing::telegram::{Call, FakeTelegram, TgChat, TgUser};
use toguz::testing::Lifted;

const GROUP: i64 = -100_955;

fn variant(balls: u8, tuzdek: TuzdekRule) -> Variant {
    Variant::new(balls, tuzdek).expect("a variant")
}

/// The first message the bot sent to `chat` after `mark` whose text contains `part`.
fn said_after(fake: &FakeTelegram, mark: usize, chat: i64, part: &str) -> Call {
    let found = fake.wait_call(mark, WAIT, |c| {
        c.method == "sendMessage"
            && c.ok()
            && c.i64("chat_id") == Some(chat)
            && c.str("text").is_some_and(|t| t.contains(part))
    });
    match found {
        Some((_, call)) => call,
        None => panic!("nothing saying {part:?}"),
    }
}

#[test]
fn a_five_ball_game_against_the_bot_is_started_by_play_and_played_to_its_end() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let lifted = Lifted::because("a whole game pressed back to back: about the variant's rules, not the chat's pace of one post a second");
    let _bot = BotProcess::start_lifted(&fake, dir.path(), "", "", lifted);
    let aigul = TgUser::new(951, "Aigul", "aigul", "en");
    let chat = TgChat::private(&aigul);

    // A variant without a level plays the default level at once: no level buttons.
    fake.send_text(&chat, &aigul, "/play random 5 balls");
    // The bot may move first: the board after its move, labelled from 5 balls a pit.
    let first = wait_board(&fake, chat.id, |b| !b.pits.is_empty());
    let five = variant(5, TuzdekRule::Standard);
    let labels: Vec<u8> = first
        .pits
        .iter()
        .filter_map(|(_, label)| label.rsplit(" · ").next()?.parse().ok())
        .collect();
    assert!(
        labels.iter().all(|n| (5..=6).contains(n)),
        "{:?}",
        first.pits
    );
    let mut pos = Position::start(five);
    let end = play_to_end(&fake, &chat, &aigul, &mut pos);
    assert!(pos.is_over());
    // 90 balls in all: 46 in a kazan win, 45 each is a draw.
    let stores = [
        pos.store(toguz::rules::Side::White),
        pos.store(toguz::rules::Side::Black),
    ];
    assert!(stores.iter().all(|s| *s <= 90), "{stores:?}");
    assert!(
        end.caption().contains("wins") || end.caption().contains("drawn"),
        "{}",
        end.caption()
    );
}

#[test]
fn an_open_challenge_with_a_variant_says_it_and_its_game_plays_it() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&fake, dir.path(), "", "");
    let group = TgChat::group(GROUP, "Toguz school");
    let (aibek, dana) = (
        TgUser::new(952, "Aibek", "aibek_v", "en"),
        TgUser::new(953, "Dana", "dana_v", "ru"),
    );

    let mark = fake.mark();
    fake.send_text(&group, &aibek, "/challenge 3 balls no tuzdek 5+3");
    let call = said_after(&fake, mark, GROUP, "looking for an opponent");
    let text = call.str("text").unwrap_or_default();
    assert!(text.contains("3 per pit, no tuzdeks"), "{text}");
    let challenge = call
        .buttons()
        .iter()
        .find_map(|(_, d)| d.strip_prefix("1ca:").map(str::to_string))
        .expect("an Accept button");
    let msg = call.response["result"]["message_id"]
        .as_i64()
        .expect("message id");

    let q = fake.press(&group, msg, &dana, &format!("1ca:{challenge}"));
    let answer = fake.wait_answer(&q, WAIT).expect("accept answered");
    assert_eq!(answer.str("text"), None, "{answer:#?}");
    let board = wait_board(&fake, GROUP, |b| {
        b.ply == 0 && !b.pits.is_empty() && b.message.message_id > msg
    });
    board.assert_pits_match(&Position::start(variant(3, TuzdekRule::Off)));
    assert!(
        board.pits.iter().all(|(_, label)| label.ends_with(" · 3")),
        "{:?}",
        board.pits
    );
}

#[test]
fn variant_words_it_cannot_take_are_answered_and_start_nothing() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&fake, dir.path(), "", "");
    let group = TgChat::group(GROUP, "Toguz school");
    let dana = TgUser::new(953, "Dana", "dana_v", "ru");
    let kairat = TgUser::new(954, "Kairat", "kairat_v", "kk");

    let mark = fake.mark();
    fake.send_text(&group, &dana, "/challenge 7 шаров");
    said_after(&fake, mark, GROUP, "по 9, 5 или 3 шара");
    let mark = fake.mark();
    fake.send_text(&group, &kairat, "/challenge тұздықсыз тоғызыншы отау");
    said_after(&fake, mark, GROUP, "бірге болмайды");
    let mark = fake.mark();
    fake.send_text(&group, &kairat, "/tournament new arena 4 құмалақ");
    said_after(&fake, mark, GROUP, "9, 5 не 3 құмалақтан");
    // Nothing was created: no challenge, board or announcement.
    let made = fake.calls().iter().any(|c| {
        c.method == "sendPhoto"
            || c.buttons()
                .iter()
                .any(|(_, d)| d.starts_with("1ca:") || d.starts_with("1tj:"))
    });
    assert!(!made, "something was started");
}

/// The answer to the inline query made after `mark`.
fn inline_answer(fake: &FakeTelegram, mark: usize) -> Call {
    let found = fake.wait_call(mark, WAIT, |c| c.method == "answerInlineQuery" && c.ok());
    found.expect("the inline query answered").1
}

/// The start position of `variant`, once the inline message `inline` shows it as a board.
fn inline_board_starts(fake: &FakeTelegram, inline: &str, variant: Variant) {
    let started = fake.wait_until(WAIT, |v| {
        v.inline_message(inline)
            .and_then(Board::of)
            .is_some_and(|b| !b.pits.is_empty())
    });
    let message = fake.inline_message(inline).expect("sent");
    assert!(started, "{message:#?}");
    let board = Board::of(&message).expect("a board");
    board.assert_pits_match(&Position::start(variant));
}

#[test]
fn an_inline_challenge_is_offered_and_played_on_the_terms_typed_after_the_bots_name() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&fake, dir.path(), "", "");
    let aigerim = TgUser::new(961, "Aigerim", "aigerim_i", "en");
    let bolat = TgUser::new(962, "Bolat", "bolat_i", "en");
    let dana = TgUser::new(963, "Dana", "dana_i", "ru");

    // With inline feedback: the offer names its terms, and the challenge it becomes too.
    let mark = fake.mark();
    let query = fake.inline_query(&aigerim, "5 balls no tuzdek 3+2 unrated");
    let answer = inline_answer(&fake, mark);
    let result = &answer.params["results"][0];
    let terms = "5 per pit, no tuzdeks, blitz 3+2, unrated";
    let description = result["description"].as_str().unwrap_or_default();
    assert!(description.contains(terms), "{description}");
    let sent = result.pointer("/input_message_content/message_text");
    let sent = sent.and_then(|t| t.as_str()).unwrap_or_default();
    assert!(sent.contains(terms), "{sent}");
    let inline = fake.choose_inline_result(&query, result["id"].as_str().expect("id"));
    let challenge = fake.wait_until(WAIT, |v| {
        v.inline_message(&inline).is_some_and(|m| {
            m.text
                .as_deref()
                .is_some_and(|t| t.contains("5 per pit, no tuzdeks, blitz 3+2"))
                && m.buttons().iter().any(|(_, d)| d.starts_with("1ca:"))
        })
    });
    assert!(challenge, "{:#?}", fake.inline_message(&inline));
    let buttons = fake.inline_message(&inline).expect("sent").buttons();
    let (_, accept) = buttons
        .iter()
        .find(|(_, d)| d.starts_with("1ca:"))
        .expect("Accept");
    let q = fake.press_inline(&inline, &bolat, accept);
    assert_eq!(
        fake.wait_answer(&q, WAIT).expect("answered").str("text"),
        None
    );
    inline_board_starts(&fake, &inline, variant(5, TuzdekRule::Off));

    // Without feedback, in Russian: the placeholder's signed data carries the terms.
    let mark = fake.mark();
    let query = fake.inline_query(&dana, "3 шара 1+0");
    let result = inline_answer(&fake, mark).params["results"][0].clone();
    let description = result["description"].as_str().unwrap_or_default();
    assert!(
        description.contains("по 3 шара в лунке, блиц 1+0, на рейтинг"),
        "{description}"
    );
    let inline = fake.send_inline_result(&query, result["id"].as_str().expect("id"), false);
    let (_, data) = fake.inline_message(&inline).expect("sent").buttons()[0].clone();
    let q = fake.press_inline(&inline, &bolat, &data);
    assert_eq!(
        fake.wait_answer(&q, WAIT).expect("answered").str("text"),
        None
    );
    inline_board_starts(&fake, &inline, variant(3, TuzdekRule::Standard));

    // Terms it cannot take offer nothing; the button above the results says why and
    // opens the help.
    let mark = fake.mark();
    fake.inline_query(&aigerim, "4 balls");
    let answer = inline_answer(&fake, mark);
    assert_eq!(answer.params["results"], serde_json::json!([]));
    let button = &answer.params["button"];
    let why = button["text"].as_str().unwrap_or_default();
    assert!(why.starts_with("“4 balls” is not a variant"), "{why}");
    assert_eq!(button["start_parameter"], "help");
    let chat = TgChat::private(&aigerim);
    let mark = fake.mark();
    fake.send_text(&chat, &aigerim, "/start help");
    said_after(&fake, mark, chat.id, "type my name with @");
}
