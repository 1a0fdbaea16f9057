//! Fair use on Discord (issue 31, item 12): the lookups `/review`, `/leaderboard`,
//! `/history`, `/board` and `/record` are limited per user by the policy Telegram applies to
//! its commands (`[limits] commands_per_minute`); one user over it slows nobody else.

use super::ratings::{content, GUILD};
use serde_json::json;
use toguz::testing::discord::bot::{BotProcess, Options};
use toguz::testing::discord::{FakeDiscord, User};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lookups_over_the_per_user_limit_are_told_to_slow_down_others_are_answered() {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let opts = Options {
        commands_per_minute: 3,
        ..Options::default()
    };
    let _bot = BotProcess::start(&fake, dir.path(), &opts);
    fake.wait_ready(1).await;
    fake.wait_call(0, "command registration", |c| {
        c.method == "PUT" && c.path.ends_with("/commands")
    })
    .await;
    let place = fake.guild_channel(GUILD, 720);
    let (mallory, alice) = (User::new(1401, "Mallory"), User::new(1402, "Alice"));
    let ask = |user: &User, name: &str| fake.slash(user, place, name, json!([]), &[]);
    // Three lookups go through, whichever they are...
    for name in ["leaderboard", "history", "leaderboard"] {
        let answer = content(&fake.wait_callback(ask(&mallory, name)).await);
        assert!(!answer.contains("Too many requests"), "/{name}: {answer}");
    }
    // ...then every lookup of that user is told to slow down, at once and privately.
    for name in ["leaderboard", "history", "board", "record", "review"] {
        let call = fake.wait_callback(ask(&mallory, name)).await;
        assert!(call.is_ephemeral(), "/{name}");
        let answer = content(&call);
        assert!(
            answer.contains("Too many requests at once"),
            "/{name}: {answer}"
        );
    }
    // Someone else is answered as usual.
    let answer = content(&fake.wait_callback(ask(&alice, "leaderboard")).await);
    assert!(!answer.contains("Too many requests"), "{answer}");
}
