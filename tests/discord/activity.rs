//! The Discord Activity launched from chat (issue 50), end to end through the real serenity
//! client: with `[discord] activity` on, `/activity` is registered (named in Russian for
//! Russian clients) and answered with LAUNCH_ACTIVITY (interaction response type 12); the
//! fake Discord takes type 12 only from an application with Activities enabled, as Discord
//! does, and the bot then tells the user privately. Without `activity`, no such command is
//! registered, and a client that still sends it is told the Activity is not set up.

use crate::ratings::content;
use serde_json::{json, Value};
use toguz::testing::discord::bot::{BotProcess, Options};
use toguz::testing::discord::{buttons, id_of, FakeDiscord, User, APP_ID, CLIENT_SECRET};

const GUILD: u64 = 930_000_000_000_000_050;
const CHANNEL: u64 = 750;

/// The lines `[discord]` gets for the Activity.
fn activity_lines() -> String {
    format!("activity = true\napplication_id = {APP_ID}\nclient_secret = \"{CLIENT_SECRET}\"\n")
}

async fn start(fake: &FakeDiscord, extra: String) -> (tempfile::TempDir, BotProcess) {
    let dir = tempfile::tempdir().expect("temp dir");
    let opts = Options {
        extra,
        ..Options::default()
    };
    let bot = BotProcess::start(fake, dir.path(), &opts);
    fake.wait_ready(1).await;
    fake.wait_call(0, "command registration", |c| {
        c.method == "PUT" && c.path.ends_with("/commands") && c.status == 200
    })
    .await;
    (dir, bot)
}

/// `user`'s `/play random` in the server channel: the board's message.
async fn a_board(fake: &FakeDiscord, user: &User) -> Value {
    let place = fake.guild_channel(GUILD, CHANNEL);
    let level = json!([{ "name": "level", "type": 3, "value": "random" }]);
    let id = fake.slash(user, place, "play", level, &[]);
    fake.wait_callback(id).await;
    fake.original_message(id).expect("the board")
}

/// The board's buttons that open the Activity.
fn launch_buttons(board: &Value) -> Vec<Value> {
    let all = buttons(board);
    all.into_iter()
        .filter(|b| b["custom_id"] == "1ac")
        .collect()
}

fn registered<'a>(commands: &'a [Value], name: &str) -> Option<&'a Value> {
    commands.iter().find(|c| c["name"] == name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn activity_launches_the_activity_in_the_channel() {
    let fake = FakeDiscord::start().await;
    fake.enable_activities();
    let (_dir, _bot) = start(&fake, activity_lines()).await;
    let commands = fake.global_commands();
    let command = registered(&commands, "activity").expect("/activity is registered");
    assert_eq!(
        command["name_localizations"]["ru"], "активность",
        "{command}"
    );
    assert!(command["name_localizations"].get("kk").is_none());

    let user = User::new(1501, "Saule");
    let place = fake.guild_channel(GUILD, CHANNEL);
    let id = fake.slash(&user, place, "activity", json!([]), &[]);
    let call = fake.wait_callback(id).await;
    assert_eq!(call.status, 204);
    assert_eq!(call.callback_type(), Some(12), "{:?}", call.json);
    // In the bot's DM too.
    let id = fake.slash(&user, fake.dm_channel(751), "activity", json!([]), &[]);
    assert_eq!(fake.wait_callback(id).await.callback_type(), Some(12));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_launch_discord_refuses_is_told_privately() {
    // The bot is set up for the Activity, the application in Discord is not.
    let fake = FakeDiscord::start().await;
    let (_dir, _bot) = start(&fake, activity_lines()).await;
    let user = User::new(1502, "Timur");
    let place = fake.guild_channel(GUILD, CHANNEL);
    let id = fake.slash(&user, place, "activity", json!([]), &[]);
    let call = fake.wait_callback(id).await;
    assert_eq!(call.callback_type(), Some(4), "{:?}", call.json);
    assert!(call.is_ephemeral());
    assert_eq!(
        content(&call),
        toguz::i18n::tr(toguz::i18n::Lang::En, "web-activity-unavailable")
    );
    let launches: Vec<_> = fake
        .calls()
        .into_iter()
        .filter(|c| c.path.ends_with("/callback") && c.callback_type() == Some(12))
        .map(|c| c.status)
        .collect();
    assert_eq!(launches, [400], "Discord refused the launch once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_activity_no_command_launches_it() {
    let fake = FakeDiscord::start().await;
    fake.enable_activities();
    let (_dir, _bot) = start(&fake, String::new()).await;
    assert!(registered(&fake.global_commands(), "activity").is_none());
    // A client that still lists the command from before.
    let user = User::new(1503, "Ulan");
    let place = fake.guild_channel(GUILD, CHANNEL);
    let id = fake.slash_outdated(&user, place, "activity", json!([]));
    let call = fake.wait_callback(id).await;
    assert_eq!(call.callback_type(), Some(4));
    assert!(call.is_ephemeral());
    assert_eq!(
        content(&call),
        toguz::i18n::tr(toguz::i18n::Lang::En, "discord-activity-off")
    );
}

/// Issue 50: with the Activity set up, a game's board carries a button that opens it in the
/// board's channel; pressed, Discord is answered with LAUNCH_ACTIVITY. Without it, no such
/// button.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_opens_the_activity_from_its_button() {
    let fake = FakeDiscord::start().await;
    fake.enable_activities();
    let (_dir, _bot) = start(&fake, activity_lines()).await;
    let user = User::new(1504, "Dana");
    let board = a_board(&fake, &user).await;
    let launch = launch_buttons(&board);
    assert_eq!(launch.len(), 1, "{board}");
    assert_eq!(launch[0]["label"], "🎮 Play on the board", "{board}");
    assert!(board["components"].as_array().unwrap().len() <= 5);
    let press = fake.press(&user, id_of(&board), "1ac");
    let call = fake.wait_callback(press).await;
    assert_eq!(call.callback_type(), Some(12), "{:?}", call.json);

    let fake = FakeDiscord::start().await;
    let (_dir, _bot) = start(&fake, String::new()).await;
    let board = a_board(&fake, &user).await;
    assert!(launch_buttons(&board).is_empty(), "{board}");
}
