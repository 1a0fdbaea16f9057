//! Webhook mode with several processes in mind (issue 31, item 10): a process that stops
//! leaves the webhook the others share in place, and what Telegram could not deliver while
//! nobody answered is taken by the next process that does.

use std::time::Duration;
use toguz::testing::telegram::bot::{BotProcess, TOKEN, WAIT};
use toguz::testing::telegram::{Call, FakeTelegram, TgChat, TgUser};

const SECRET: &str = "shared_Hook-7";

/// A loopback port nobody listens on.
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("addr").port()
}

/// Waits for the bot's answer to `/games` in `chat` after `mark`.
fn answered_games(fake: &FakeTelegram, chat: i64, mark: usize) -> bool {
    fake.wait_call(mark, WAIT, |c: &Call| {
        c.method == "sendMessage"
            && c.i64("chat_id") == Some(chat)
            && c.str("text").is_some_and(|t| t.contains("ongoing games"))
    })
    .is_some()
}

fn deleted_webhook(fake: &FakeTelegram) -> bool {
    fake.calls().iter().any(|c| c.method == "deleteWebhook")
}

#[test]
fn stopping_a_process_leaves_the_shared_webhook_and_loses_no_update() {
    let fake = FakeTelegram::start(TOKEN);
    fake.allow_http_webhook();
    let dir = tempfile::tempdir().expect("temp dir");
    let port = free_port();
    let webhook = format!(
        "[telegram.webhook]\nlisten = \"127.0.0.1:{port}\"\n\
         public_url = \"http://127.0.0.1:{port}/hook\"\nsecret_token = {SECRET:?}"
    );
    let alice = TgUser::new(611, "Alice", "alice_w", "en");
    let chat = TgChat::private(&alice);

    for signal in ["INT", "TERM"] {
        let mut bot = BotProcess::start(&fake, dir.path(), &webhook, "");
        let mark = fake.mark();
        fake.send_text(&chat, &alice, "/games");
        assert!(
            answered_games(&fake, chat.id, mark),
            "served before SIG{signal}"
        );
        bot.signal(signal);
        assert_eq!(bot.wait_exit(WAIT), Some(0), "a clean stop on SIG{signal}");
        assert!(
            !deleted_webhook(&fake),
            "SIG{signal} deleted the shared webhook"
        );
        assert!(fake.webhook().is_some(), "the webhook stays registered");
    }

    // Sent while no process answers: Telegram keeps it and the next process gets it.
    let mark = fake.mark();
    fake.send_text(&chat, &alice, "/games");
    std::thread::sleep(Duration::from_millis(300));
    let _bot = BotProcess::start(&fake, dir.path(), &webhook, "");
    assert!(
        answered_games(&fake, chat.id, mark),
        "the update sent while down"
    );
    assert!(fake.deliveries().iter().any(|(_, status)| *status != 200));
}
