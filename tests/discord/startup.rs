//! Start-up of the real bot against the fake Discord: a bad token is a clear error that never
//! shows the token; shards (automatic and a fixed range); commands in a development guild.

use std::time::Duration;
use toguz::testing::discord::bot::{write_config, BotProcess, Options};
use toguz::testing::discord::FakeDiscord;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_token_is_a_clear_error_without_the_token() {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let token = "MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs";
    let mut bot = BotProcess::start(
        &fake,
        dir.path(),
        &Options {
            token: token.into(),
            ..Options::default()
        },
    );
    let (status, log) = bot
        .wait_exit(Duration::from_secs(30))
        .expect("the bot gives up");
    assert!(!status.success());
    assert!(log.contains("rejected the bot token"), "{log}");
    assert!(log.contains("discord.token"), "{log}");
    assert!(
        !log.contains(token) && !log.contains("ZnCjm1XVW7vRze4b7Cq4se7kKWs"),
        "the token leaked: {log}"
    );
    assert!(
        fake.connected_shards().is_empty(),
        "no gateway session with a bad token"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_or_missing_token_names_the_key() {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let mut bot = BotProcess::start(
        &fake,
        dir.path(),
        &Options {
            token: "".into(),
            ..Options::default()
        },
    );
    let (status, log) = bot
        .wait_exit(Duration::from_secs(30))
        .expect("the bot gives up");
    assert!(!status.success());
    assert!(
        log.contains("discord.token") && log.contains("DISCORD_TOKEN"),
        "{log}"
    );
    assert_eq!(fake.call_count(), 0, "nothing was sent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn automatic_sharding_follows_discord_and_a_fixed_range_is_respected() {
    // Automatic: Discord recommends 2 shards; this process runs both.
    let fake = FakeDiscord::start().await;
    fake.set_recommended_shards(2);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&fake, dir.path(), &Options::default());
    fake.wait_ready(2).await;
    assert_eq!(fake.connected_shards(), [[0, 2], [1, 2]]);
    assert!(fake.calls().iter().any(|c| c.path == "/gateway/bot"));

    // A fixed range: shards 1 and 2 of 4, whatever Discord recommends.
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(
        &fake,
        dir.path(),
        &Options {
            shards: "{ first = 1, last = 2, total = 4 }".into(),
            ..Options::default()
        },
    );
    fake.wait_ready(2).await;
    assert_eq!(fake.connected_shards(), [[1, 4], [2, 4]]);
    // No privileged intents were asked for.
    for identify in fake.identifies() {
        let intents = identify["intents"].as_u64().unwrap();
        assert_eq!(intents & ((1 << 1) | (1 << 8) | (1 << 15)), 0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dev_guild_gets_the_commands_instead_of_the_world() {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(&fake, dir.path(), &Options::default());
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str("dev_guild_id = 424242\n");
    std::fs::write(&config, text).unwrap();
    let _bot = BotProcess::start_with_config(dir.path(), &config);
    fake.wait_call(0, "guild registration", |c| {
        c.method == "PUT" && c.path.contains("/guilds/424242/commands")
    })
    .await;
    // Every command the bot has (18 since `/opening`), in the guild only.
    assert_eq!(fake.guild_commands(424242).len(), 18);
    assert!(fake.global_commands().is_empty());
}
