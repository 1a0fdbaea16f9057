//! The fake Bot API server itself, driven by the real teloxide client: it must accept what
//! Telegram accepts and refuse, with Telegram's own errors, what Telegram refuses.

use std::time::Duration;
use teloxide::payloads::*;
use teloxide::prelude::*;
use teloxide::types::{
    CallbackQueryId, InlineKeyboardButton, InlineKeyboardMarkup, InlineQueryId, InputFile,
    InputMedia, InputMediaPhoto,
};
use teloxide::{ApiError, RequestError};
use toguz::testing::telegram::{FakeTelegram, Limit, TgChat, TgUser};
use toguz::testing::Lifted;

const TOKEN: &str = "123456:TEST-token";

fn png_bytes(w: u32, h: u32, shade: u8) -> Vec<u8> {
    let mut out = vec![];
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Grayscale);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().unwrap();
    writer
        .write_image_data(&vec![shade; (w * h) as usize])
        .unwrap();
    writer.finish().unwrap();
    out
}

fn bot(fake: &FakeTelegram, token: &str) -> Bot {
    Bot::new(token).set_api_url(reqwest::Url::parse(&fake.url).unwrap())
}

fn keyboard(data: &str) -> InlineKeyboardMarkup {
    InlineKeyboardMarkup::new([[InlineKeyboardButton::callback("7", data)]])
}

fn api_error(r: Result<impl std::fmt::Debug, RequestError>) -> ApiError {
    match r {
        Err(RequestError::Api(e)) => e,
        other => panic!("expected an API error, got {other:?}"),
    }
}

#[tokio::test]
async fn get_me_and_bad_token() {
    let fake = FakeTelegram::start(TOKEN);
    let me = bot(&fake, TOKEN).get_me().await.unwrap();
    assert_eq!(me.username(), toguz::testing::telegram::BOT_USERNAME);
    assert!(me.supports_inline_queries);
    let err = api_error(bot(&fake, "123456:WRONG").get_me().await);
    assert_eq!(err, ApiError::InvalidToken);
    let last = fake.calls().pop().unwrap();
    assert_eq!((last.method.as_str(), last.status), ("getMe", 401));
}

#[tokio::test]
async fn messages_keyboards_and_edits_are_validated() {
    let fake = FakeTelegram::start(TOKEN);
    let bot = bot(&fake, TOKEN);
    let alice = TgUser::new(11, "Alice", "alice", "en");
    let chat = TgChat::private(&alice);
    // Nobody wrote to the bot yet: it cannot start the conversation.
    let err = bot.send_message(ChatId(11), "hi").await.unwrap_err();
    assert!(err.to_string().contains("can't initiate"), "{err}");
    fake.send_text(&chat, &alice, "/start");

    let err = api_error(bot.send_message(ChatId(11), " ").await);
    assert_eq!(err, ApiError::MessageTextIsEmpty);
    let err = api_error(
        bot.send_message(ChatId(11), "x")
            .reply_markup(keyboard(&"a".repeat(65)))
            .await,
    );
    assert_eq!(err, ApiError::ButtonDataInvalid);
    let err = api_error(
        bot.send_message(ChatId(11), "<b>x")
            .parse_mode(teloxide::types::ParseMode::Html)
            .await,
    );
    assert!(matches!(err, ApiError::CantParseEntities(_)), "{err:?}");

    let msg = bot
        .send_message(ChatId(11), "board")
        .reply_markup(keyboard("m:1"))
        .await
        .unwrap();
    let err = api_error(
        bot.edit_message_text(ChatId(11), msg.id, "board")
            .reply_markup(keyboard("m:1"))
            .await,
    );
    assert_eq!(err, ApiError::MessageNotModified);
    bot.edit_message_text(ChatId(11), msg.id, "board 2")
        .reply_markup(keyboard("m:2"))
        .await
        .unwrap();
    let stored = fake.message(11, msg.id.0 as i64).unwrap();
    assert_eq!(stored.text.as_deref(), Some("board 2"));
    assert_eq!(stored.buttons(), vec![("7".into(), "m:2".into())]);
    let err = api_error(
        bot.edit_message_text(ChatId(11), teloxide::types::MessageId(999), "x")
            .await,
    );
    assert_eq!(err, ApiError::MessageToEditNotFound);
}

#[tokio::test]
async fn photos_must_be_png_and_media_edits_replace_them() {
    let fake = FakeTelegram::start(TOKEN);
    let bot = bot(&fake, TOKEN);
    let group = TgChat::group(-1001, "Players");
    let bob = TgUser::new(12, "Bob", "bob", "ru");
    fake.send_text(&group, &bob, "hello");

    let err = api_error(
        bot.send_photo(ChatId(-1001), InputFile::memory(b"not a png".to_vec()))
            .await,
    );
    assert_eq!(err, ApiError::ImageProcessFailed);
    let msg = bot
        .send_photo(
            ChatId(-1001),
            InputFile::memory(png_bytes(96, 40, 10)).file_name("b.png"),
        )
        .caption("White to move")
        .reply_markup(keyboard("m:1"))
        .await
        .unwrap();
    assert!(msg.photo().is_some());
    let call = fake.calls().pop().unwrap();
    assert_eq!(call.method, "sendPhoto");
    assert_eq!(
        toguz::testing::telegram::check_png(call.photo_bytes().unwrap()),
        Ok((96, 40))
    );

    let media = |shade| {
        InputMedia::Photo(
            InputMediaPhoto::new(InputFile::memory(png_bytes(96, 40, shade)).file_name("b.png"))
                .caption("Black to move"),
        )
    };
    bot.edit_message_media(ChatId(-1001), msg.id, media(20))
        .reply_markup(keyboard("m:2"))
        .await
        .unwrap();
    let call = fake.calls().pop().unwrap();
    assert_eq!(call.method, "editMessageMedia");
    assert_eq!(call.caption().as_deref(), Some("Black to move"));
    assert!(call.photo_bytes().is_some());
    let err = api_error(
        bot.edit_message_media(ChatId(-1001), msg.id, media(20))
            .reply_markup(keyboard("m:2"))
            .await,
    );
    assert_eq!(err, ApiError::MessageNotModified);
    let stored = fake.message(-1001, msg.id.0 as i64).unwrap();
    assert_eq!(stored.caption.as_deref(), Some("Black to move"));
    assert_eq!(stored.edits, 1);
}

#[tokio::test]
async fn updates_callbacks_and_scripted_429() {
    let fake = FakeTelegram::start(TOKEN);
    let bot = bot(&fake, TOKEN);
    let alice = TgUser::new(11, "Alice", "alice", "kk");
    let chat = TgChat::private(&alice);
    fake.send_text(&chat, &alice, "/play random");
    let updates = bot.get_updates().timeout(1).await.unwrap();
    assert_eq!(updates.len(), 1);
    let first = updates[0].id.0 as i32;
    let msg = bot
        .send_message(ChatId(11), "board")
        .reply_markup(keyboard("m:1"))
        .await
        .unwrap();
    let q = fake.press(&chat, msg.id.0 as i64, &alice, "m:1");
    // Offset confirms the first update; the press is delivered next.
    let updates = bot
        .get_updates()
        .offset(first + 1)
        .timeout(1)
        .await
        .unwrap();
    assert_eq!(updates.len(), 1);
    bot.answer_callback_query(CallbackQueryId(q.clone()))
        .text("ok")
        .await
        .unwrap();
    let err = api_error(bot.answer_callback_query(CallbackQueryId(q.clone())).await);
    assert_eq!(err, ApiError::InvalidQueryId);
    assert!(fake.wait_answer(&q, Duration::from_secs(1)).is_some());

    fake.fail_next_with_429("editmessagetext", 3);
    let err = bot
        .edit_message_text(ChatId(11), msg.id, "new")
        .await
        .unwrap_err();
    assert!(
        matches!(err, RequestError::RetryAfter(s) if s.seconds() == 3),
        "{err:?}"
    );
    bot.edit_message_text(ChatId(11), msg.id, "new")
        .await
        .unwrap();
    // Long polling returns when an update arrives.
    let start = std::time::Instant::now();
    let poll = tokio::spawn({
        let bot = bot.clone();
        async move { bot.get_updates().offset(first + 2).timeout(10).await }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    fake.send_text(&chat, &alice, "/board");
    let updates = poll.await.unwrap().unwrap();
    assert_eq!(updates.len(), 1);
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[tokio::test]
async fn commands_and_inline_queries_are_validated() {
    use teloxide::types::{
        BotCommand, InlineQueryResult, InlineQueryResultArticle, InlineQueryResultsButton,
        InlineQueryResultsButtonKind, InputMessageContent, InputMessageContentText,
    };
    let fake = FakeTelegram::start(TOKEN);
    let bot = bot(&fake, TOKEN);
    let err = api_error(
        bot.set_my_commands([BotCommand::new("Play", "Start a game")])
            .await,
    );
    assert!(matches!(err, ApiError::Unknown(ref s) if s.contains("BOT_COMMAND_INVALID")));
    bot.set_my_commands([BotCommand::new("play", "Бастау")])
        .language_code("kk")
        .await
        .unwrap();
    assert!(fake.commands().contains_key("default/kk"));

    let carol = TgUser::new(13, "Carol", "carol", "en");
    // The button above inline results takes a start parameter of A-Z a-z 0-9 _ - only.
    let iq = fake.inline_query(&carol, "4 balls");
    let button = |start: &str| InlineQueryResultsButton {
        text: "Why".into(),
        kind: InlineQueryResultsButtonKind::StartParameter(start.into()),
    };
    let refused = bot
        .answer_inline_query(InlineQueryId(iq.clone()), Vec::<InlineQueryResult>::new())
        .button(button("no spaces"))
        .await;
    assert!(
        matches!(api_error(refused), ApiError::Unknown(ref s) if s.contains("START_PARAM_INVALID"))
    );
    bot.answer_inline_query(InlineQueryId(iq), Vec::<InlineQueryResult>::new())
        .button(button("help"))
        .await
        .unwrap();
    let iq = fake.inline_query(&carol, "");
    let article = InlineQueryResultArticle::new(
        "challenge",
        "Challenge",
        InputMessageContent::Text(InputMessageContentText::new("Carol challenges you")),
    )
    .reply_markup(keyboard("a:1"));
    bot.answer_inline_query(
        InlineQueryId(iq.clone()),
        [InlineQueryResult::Article(article)],
    )
    .await
    .unwrap();
    let inline_id = fake.choose_inline_result(&iq, "challenge");
    bot.edit_message_text_inline(&inline_id, "Accepted")
        .await
        .unwrap();
    assert_eq!(
        fake.inline_message(&inline_id).unwrap().text.as_deref(),
        Some("Accepted")
    );
    // Inline messages cannot receive uploaded photos.
    let media = InputMedia::Photo(InputMediaPhoto::new(
        InputFile::memory(png_bytes(8, 8, 1)).file_name("b.png"),
    ));
    assert!(bot
        .edit_message_media_inline(&inline_id, media)
        .await
        .is_err());
}

#[tokio::test]
async fn chat_members_have_the_statuses_telegram_reports() {
    use teloxide::types::{ChatMemberKind, UserId};
    let fake = FakeTelegram::start(TOKEN);
    let bot = bot(&fake, TOKEN);
    let group = TgChat::group(-1002, "Club");
    let (owner, admin, member) = (
        TgUser::new(21, "Olga", "olga", "ru"),
        TgUser::new(22, "Arman", "arman", "kk"),
        TgUser::new(23, "Mia", "mia", "en"),
    );
    fake.set_member_status(&group, &owner, "creator");
    fake.set_member_status(&group, &admin, "administrator");
    fake.send_text(&group, &member, "hello");
    let status = |id: u64| {
        let bot = bot.clone();
        async move { bot.get_chat_member(ChatId(-1002), UserId(id)).await }
    };
    assert!(matches!(
        status(21).await.unwrap().kind,
        ChatMemberKind::Owner(_)
    ));
    assert!(matches!(
        status(22).await.unwrap().kind,
        ChatMemberKind::Administrator(_)
    ));
    let mia = status(23).await.unwrap();
    assert!(matches!(mia.kind, ChatMemberKind::Member(_)));
    assert_eq!(mia.user.first_name, "Mia");
    // Known to Telegram but never in this group: left. Unknown: refused.
    let private = TgChat::private(&TgUser::new(24, "Sam", "sam", "en"));
    fake.send_text(&private, &TgUser::new(24, "Sam", "sam", "en"), "/start");
    assert!(matches!(
        status(24).await.unwrap().kind,
        ChatMemberKind::Left
    ));
    let err = api_error(status(99).await);
    assert!(
        matches!(err, ApiError::Unknown(ref s) if s.contains("PARTICIPANT_ID_INVALID")),
        "{err:?}"
    );
    let err = api_error(bot.get_chat_member(ChatId(-4040), UserId(21)).await);
    assert_eq!(err, ApiError::ChatNotFound);
}

/// Links on buttons (issue 35): a URL button must go to an http(s) (or tg://) address; a
/// Web App button may be sent only to a user's private chat with the bot, only to an https
/// address, and never in an inline message.
#[tokio::test]
async fn url_and_web_app_buttons_are_checked_as_telegram_does() {
    use teloxide::types::WebAppInfo;
    let fake = FakeTelegram::start(TOKEN);
    let bot = bot(&fake, TOKEN);
    let alice = TgUser::new(14, "Alice", "alice_l", "en");
    fake.send_text(&TgChat::private(&alice), &alice, "/start");
    let group = TgChat::group(-1003, "Club");
    fake.send_text(&group, &alice, "hi");
    let page = reqwest::Url::parse("https://pages.example.org/g/ab12cd-0123").unwrap();
    let link = |url: &reqwest::Url| {
        InlineKeyboardMarkup::new([[InlineKeyboardButton::url("🌐 Page", url.clone())]])
    };
    let app = |url: &reqwest::Url| {
        let info = WebAppInfo { url: url.clone() };
        InlineKeyboardMarkup::new([[InlineKeyboardButton::web_app("🌐 Page", info)]])
    };
    // A URL button anywhere; a Web App button in the private chat.
    for chat in [ChatId(14), ChatId(-1003)] {
        bot.send_message(chat, "board")
            .reply_markup(link(&page))
            .await
            .unwrap();
    }
    let private = bot
        .send_message(ChatId(14), "board")
        .reply_markup(app(&page))
        .await
        .unwrap();
    let stored = fake.message(14, private.id.0 as i64).unwrap();
    let markup = stored.reply_markup.expect("kept");
    assert_eq!(
        markup["inline_keyboard"][0][0]["web_app"]["url"],
        page.as_str()
    );
    // Not in a group, and its edit neither.
    let err = api_error(
        bot.send_message(ChatId(-1003), "board")
            .reply_markup(app(&page))
            .await,
    );
    assert!(err.to_string().contains("BUTTON_TYPE_INVALID"), "{err}");
    let posted = bot.send_message(ChatId(-1003), "board").await.unwrap();
    let err = api_error(
        bot.edit_message_reply_markup(ChatId(-1003), posted.id)
            .reply_markup(app(&page))
            .await,
    );
    assert!(err.to_string().contains("BUTTON_TYPE_INVALID"), "{err}");
    // A Web App only over https.
    let plain = reqwest::Url::parse("http://192.168.1.5:8080/g/ab12cd-0123").unwrap();
    let err = api_error(
        bot.send_message(ChatId(14), "board")
            .reply_markup(app(&plain))
            .await,
    );
    assert!(err.to_string().contains("Only HTTPS links"), "{err}");
    bot.send_message(ChatId(14), "board")
        .reply_markup(link(&plain))
        .await
        .unwrap();
    // A URL button to something that is no web address.
    for bad in [
        "ftp://pages.example.org/g/x",
        "file:///etc/passwd",
        "javascript:alert(1)",
    ] {
        let bad = reqwest::Url::parse(bad).unwrap();
        let err = api_error(
            bot.send_message(ChatId(14), "board")
                .reply_markup(link(&bad))
                .await,
        );
        assert!(
            err.to_string().contains("BUTTON_URL_INVALID"),
            "{bad}: {err}"
        );
    }
}

/// Telegram's flood limit for a group, through the HTTP API: 20 posts a minute (an edit is
/// one), the 21st answered 429 with Telegram's own body and nothing posted; a deletion is
/// not counted, and another chat is not held by it.
#[tokio::test]
async fn a_group_over_twenty_posts_a_minute_gets_telegrams_429_and_nothing_is_posted() {
    let fake = FakeTelegram::start(TOKEN);
    let bot = bot(&fake, TOKEN);
    let alice = TgUser::new(21, "Alice", "alice", "en");
    let group = TgChat::group(-2100, "Club");
    let private = TgChat::private(&alice);
    fake.send_text(&group, &alice, "hello");
    fake.send_text(&private, &alice, "/start");
    // 18 messages and an edit, then a 20th message deleted: the group's minute is spent.
    let first = bot.send_message(ChatId(group.id), "0").await.unwrap();
    for i in 1..18 {
        bot.send_message(ChatId(group.id), i.to_string())
            .await
            .unwrap();
    }
    bot.edit_message_text(ChatId(group.id), first.id, "edited")
        .await
        .unwrap();
    let last = bot.send_message(ChatId(group.id), "gone").await.unwrap();
    bot.delete_message(ChatId(group.id), last.id).await.unwrap();
    let shown = fake.bot_messages(group.id).len();
    let err = bot.send_message(ChatId(group.id), "21").await.unwrap_err();
    assert!(matches!(err, RequestError::RetryAfter(_)), "{err:?}");
    assert_eq!(fake.bot_messages(group.id).len(), shown, "nothing posted");
    let refused = fake.calls().pop().unwrap();
    assert_eq!(refused.status, 429);
    let n = refused.response["parameters"]["retry_after"]
        .as_u64()
        .unwrap();
    assert!(
        (59..=60).contains(&n),
        "the first post leaves in a minute: {n}"
    );
    assert_eq!(
        refused.response,
        serde_json::json!({"ok": false, "error_code": 429,
            "description": format!("Too Many Requests: retry after {n}"),
            "parameters": {"retry_after": n}})
    );
    // An edit is refused too; the private chat is not held.
    let err = bot
        .edit_message_text(ChatId(group.id), first.id, "again")
        .await
        .unwrap_err();
    assert!(matches!(err, RequestError::RetryAfter(_)), "{err:?}");
    bot.send_message(ChatId(private.id), "still here")
        .await
        .unwrap();
    let refusals = fake.flood_refusals();
    assert_eq!(refusals.len(), 2);
    assert!(refusals
        .iter()
        .all(|r| r.limit == Limit::Group && r.chat == Some(group.id)));
    assert_eq!(fake.limits_lifted(), None);
}

/// A private chat takes a burst of 5 and then about one a second; lifted (with a reason),
/// nothing is held.
#[tokio::test]
async fn a_private_chat_is_held_to_about_one_a_second_unless_lifted_with_a_reason() {
    let fake = FakeTelegram::start(TOKEN);
    let bot = bot(&fake, TOKEN);
    let alice = TgUser::new(22, "Alice", "alice", "en");
    let private = TgChat::private(&alice);
    fake.send_text(&private, &alice, "/start");
    for i in 0..5 {
        bot.send_message(ChatId(private.id), i.to_string())
            .await
            .unwrap();
    }
    let err = bot.send_message(ChatId(private.id), "6").await.unwrap_err();
    assert!(matches!(err, RequestError::RetryAfter(_)), "{err:?}");
    assert_eq!(fake.flood_refusals()[0].limit, Limit::Private);
    fake.lift_limits(Lifted::because(
        "this test checks that a lift lets all through",
    ));
    for i in 0..20 {
        bot.send_message(ChatId(private.id), i.to_string())
            .await
            .unwrap();
    }
    assert_eq!(fake.flood_refusals().len(), 1);
}
