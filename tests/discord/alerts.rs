//! Issue 51, being told, on Discord: a move in a game of 2 days per move brings the player
//! to move a DM with a button to the game's page; the warning at 80% of the move's time;
//! `/notify` (answered privately) sets quiet hours that hold a DM back until they end; a
//! player whose DMs are closed (50007) gets nothing more, is not tried again, still has the
//! channel's ping, and is told again once they use the bot; `/games` lists their move first.
//! The real serenity client in this process, on a manager whose clock the test moves.

use serde_json::{json, Value};
use std::time::Duration;
use toguz::manager::alerts::ALERT_LEASE_MS;
use toguz::manager::{Clock, Manager};
use toguz::model::Platform;
use toguz::testing::discord::bot::{start_with_manager, Options};
use toguz::testing::discord::{id_of, to_move, Call, FakeDiscord, Place, User};
use toguz::testing::manager::{test_config, T0};

const GUILD: u64 = 930_000_000_000_000_051;
const CHANNEL: u64 = 751;
const SITE: &str = "https://toguz.example.org";
const WAIT: Duration = Duration::from_secs(15);

struct Server {
    fake: FakeDiscord,
    manager: Manager,
    /// A second process on the same store (the other shard), when there is one.
    other: Option<Manager>,
    _bots: Vec<tokio::task::JoinHandle<anyhow::Result<()>>>,
    _dir: tempfile::TempDir,
    alice: User,
    bob: User,
}

impl Server {
    /// The manager's clock starts at `T0`: 08:00 UTC. The pages are served.
    async fn start() -> Server {
        Server::start_with(Some(SITE), 1).await
    }

    /// `processes` (1 or 2) on one store and clock; two split the shards (0 and 1 of 2).
    async fn start_with(site: Option<&str>, processes: u32) -> Server {
        let fake = FakeDiscord::start().await;
        let dir = tempfile::tempdir().expect("temp dir");
        let store = toguz::store::Store::open(&dir.path().join("data")).expect("a store");
        let mut config = test_config();
        config.web_url = site.map(str::to_owned);
        let clock = Clock::manual(T0);
        let mut managers = Vec::new();
        let mut bots = Vec::new();
        for shard in 0..processes {
            let engine = toguz::engine::EnginePool::new(toguz::engine::EngineConfig::default());
            let config = config.clone();
            let manager = Manager::start_with_clock(store.clone(), engine, config, clock.clone())
                .await
                .expect("a manager");
            let mut options = Options::default();
            if processes > 1 {
                options.shards =
                    format!("{{ first = {shard}, last = {shard}, total = {processes} }}");
            }
            bots.push(start_with_manager(&fake, manager.clone(), &options));
            managers.push(manager);
        }
        fake.wait_ready(processes as usize).await;
        let manager = managers.remove(0);
        let other = managers.pop();
        fake.wait_call(0, "command registration", |c| {
            c.method == "PUT" && c.path.ends_with("/commands") && c.status == 200
        })
        .await;
        Server {
            fake,
            manager,
            other,
            _bots: bots,
            _dir: dir,
            alice: User::new(5101, "Alice"),
            bob: User::new(5102, "Bob"),
        }
    }

    fn place(&self) -> Place {
        self.fake.guild_channel(GUILD, CHANNEL)
    }

    /// `/name options` by `user` in the channel: the answer.
    async fn slash(&self, user: &User, name: &str, options: Value, resolved: &[User]) -> Call {
        let id = self.fake.slash(user, self.place(), name, options, resolved);
        self.fake.wait_callback(id).await
    }

    /// Alice challenges Bob to `days` per move, Bob accepts: the board message.
    async fn game(&self, days: &str) -> u64 {
        let options = json!([
            { "name": "opponent", "type": 6, "value": self.bob.id.to_string() },
            { "name": "time", "type": 3, "value": days },
        ]);
        let id = self.fake.slash(
            &self.alice,
            self.place(),
            "challenge",
            options,
            std::slice::from_ref(&self.bob),
        );
        self.fake.wait_callback(id).await;
        let message = id_of(&self.fake.original_message(id).expect("the challenge"));
        let challenge = self.fake.message(message).expect("the challenge");
        let accept = custom_id(&challenge, "1ca:");
        let pressed = self.fake.press(&self.bob, message, &accept);
        let call = self.fake.wait_callback(pressed).await;
        assert_eq!(
            call.callback_type(),
            Some(7),
            "the challenge becomes the board"
        );
        message
    }

    /// The player to move on `board`, and the other.
    fn sides(&self, board: u64) -> (User, User) {
        let message = self.fake.message(board).expect("the board");
        let mover = to_move(&message, [&self.alice, &self.bob]).expect("someone to move");
        match mover.id == self.alice.id {
            true => (self.alice.clone(), self.bob.clone()),
            false => (self.bob.clone(), self.alice.clone()),
        }
    }

    /// The player to move presses the first legal pit.
    async fn first_pit(&self, board: u64) {
        let call = self
            .fake
            .press_first_pit(board, [&self.alice, &self.bob])
            .await;
        assert_eq!(call.callback_type(), Some(7), "{call:?}");
    }

    /// Moves the clock on by `secs` and runs the alerts' tick once in every process.
    async fn advance(&self, secs: u64) -> usize {
        self.manager.clock().advance(secs);
        let mut handed = self.manager.alert_tick().await;
        if let Some(other) = &self.other {
            handed += other.alert_tick().await;
        }
        handed
    }

    /// The messages the bot posted in `user`'s DM after call `from`, waiting for `n`.
    async fn dms(&self, from: usize, user: &User, n: usize) -> Vec<Value> {
        let found = self
            .fake
            .try_wait_for(WAIT, |f| {
                let posts = dm_posts(f, from, user);
                (posts.len() >= n).then_some(posts)
            })
            .await;
        found.unwrap_or_else(|| {
            panic!(
                "{} got no DM; calls:\n{}",
                user.name,
                self.fake.describe_calls()
            )
        })
    }

    /// Waits until the alerts of `user` handed to the adapter are done (a claimed row's key
    /// is its lease's end: none due by then is left): a clock moved on before would find
    /// the claim still out and past its lease, and the alert would be taken again.
    async fn settled(&self, user: &User) {
        let mine = format!("|discord:{}|", user.id);
        let lease_end = self.manager.clock().now_ms() + ALERT_LEASE_MS;
        for _ in 0..500 {
            let keys = self
                .manager
                .due_alerts(Platform::Discord, lease_end)
                .await
                .expect("the store answers");
            if !keys.iter().any(|k| k.contains(&mine)) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("{}'s alert still out", user.name);
    }

    /// Messages the bot tried to post in `user`'s DM after call `from`, whatever came of it.
    fn dm_tries(&self, from: usize, user: &User) -> usize {
        let Some(channel) = self.fake.dm_channel_of(user) else {
            return 0;
        };
        let path = format!("/channels/{channel}/messages");
        self.fake.calls()[from..]
            .iter()
            .filter(|c| c.method == "POST" && c.path == path)
            .count()
    }
}

/// The bodies of the messages posted in `user`'s DM since call `from`.
fn dm_posts(fake: &FakeDiscord, from: usize, user: &User) -> Vec<Value> {
    let Some(channel) = fake.dm_channel_of(user) else {
        return vec![];
    };
    let path = format!("/channels/{channel}/messages");
    fake.calls()[from..]
        .iter()
        .filter(|c| c.method == "POST" && c.path == path && c.status == 200)
        .filter_map(|c| c.json.clone())
        .collect()
}

fn custom_id(message: &Value, prefix: &str) -> String {
    toguz::testing::discord::buttons(message)
        .iter()
        .filter_map(|b| b["custom_id"].as_str())
        .find(|c| c.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix} button on {message}"))
        .to_string()
}

/// The link buttons of a message body: (label, url).
fn links(body: &Value) -> Vec<(String, String)> {
    toguz::testing::discord::buttons(body)
        .iter()
        .filter(|b| b["style"] == 5)
        .map(|b| {
            let label = b["label"].as_str().unwrap_or_default().to_string();
            (label, b["url"].as_str().unwrap_or_default().to_string())
        })
        .collect()
}

fn text(call: &Call) -> String {
    call.message_data()
        .and_then(|d| d["content"].as_str())
        .unwrap_or_default()
        .to_string()
}

/// Without the pages served, the DM's button links the board's message in the server's
/// channel (`discord.com/channels/<guild>/<channel>/<message>`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_pages_the_dm_links_the_board_in_its_channel() {
    let s = Server::start_with(None, 1).await;
    let board = s.game("2d").await;
    let (mover, other) = s.sides(board);
    let from = s.fake.calls().len();
    s.first_pit(board).await;
    s.advance(0).await;
    let told = s.dms(from, &other, 1).await;
    assert_eq!(
        links(&told[0]),
        [(
            format!("Board: {}", mover.name),
            format!("https://discord.com/channels/{GUILD}/{CHANNEL}/{board}")
        )]
    );
}

/// Two processes on one store, each serving one of the two shards: both run the alerts'
/// scheduler (each every second, and the test's ticks besides), and every alert reaches
/// its player's DM exactly once, whichever process claims it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_send_each_alert_exactly_once() {
    let s = Server::start_with(Some(SITE), 2).await;
    assert_eq!(s.fake.connected_shards(), [[0, 2], [1, 2]]);
    let board = s.game("2d").await;
    let from = s.fake.calls().len();
    let told = |user: &User| {
        dm_posts(&s.fake, from, user)
            .iter()
            .filter(|b| {
                b["content"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("Your move against "))
            })
            .count()
    };
    for round in 1..=6 {
        let (_, other) = s.sides(board);
        let before = told(&other);
        s.first_pit(board).await;
        s.advance(0).await;
        let came = s
            .fake
            .try_wait_for(WAIT, |_| (told(&other) > before).then_some(()))
            .await;
        assert!(came.is_some(), "move {round}: nobody told");
        s.settled(&other).await;
        // Past the ten minutes between two messages to one player.
        s.manager.clock().advance(11 * 60);
    }
    // Both schedulers go on ticking: nothing more comes.
    s.advance(0).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!((told(&s.alice), told(&s.bob)), (3, 3));
}

/// A move in a 2-day game: a DM to the player to move with the page's button; at 80% of
/// the move's time, the warning, once. `/games` puts their move first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_day_game_tells_the_player_to_move_in_a_dm_and_warns_them_once() {
    let s = Server::start().await;
    let board = s.game("2d").await;
    let (mover, other) = s.sides(board);
    let from = s.fake.calls().len();
    s.first_pit(board).await;
    s.advance(0).await;
    let told = s.dms(from, &other, 1).await;
    assert_eq!(
        told[0]["content"],
        format!(
            "Your move against {} (2 days per move: 2 days left).",
            mover.name
        )
    );
    let buttons = links(&told[0]);
    assert_eq!(buttons.len(), 1, "{}", told[0]);
    assert_eq!(buttons[0].0, format!("Board: {}", mover.name));
    assert!(
        buttons[0].1.starts_with(&format!("{SITE}/g/")),
        "{buttons:?}"
    );
    assert!(
        dm_posts(&s.fake, from, &mover).is_empty(),
        "the mover is told nothing"
    );
    s.settled(&other).await;

    // `/games` for the player to move: their move, and the time left.
    let call = s.slash(&other, "games", json!([]), &[]).await;
    assert!(call.is_ephemeral());
    let listed = text(&call);
    assert!(
        listed
            .lines()
            .nth(1)
            .is_some_and(|l| l.ends_with("(your move, 2 days left)")),
        "{listed}"
    );

    let from = s.fake.calls().len();
    s.advance(38 * 3600 + 24 * 60).await;
    let warned = s.dms(from, &other, 1).await;
    assert_eq!(
        warned[0]["content"],
        format!("Time is running out against {}: 9 h left.", mover.name)
    );
    s.settled(&other).await;
    let from = s.fake.calls().len();
    s.advance(3600).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(s.dm_tries(from, &other), 0, "one warning per move");
}

/// `/notify quiet:12-14 utc:+05` (13:00 there now): the DM waits until 14:00 their time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notify_sets_quiet_hours_that_hold_a_dm_until_they_end() {
    let s = Server::start().await;
    let board = s.game("3d").await;
    let (_, other) = s.sides(board);
    let options = json!([
        { "name": "quiet", "type": 3, "value": "12-14" },
        { "name": "utc", "type": 3, "value": "+05" },
    ]);
    let call = s.slash(&other, "notify", options, &[]).await;
    assert!(call.is_ephemeral());
    let said = text(&call);
    assert!(said.starts_with("Saved.\n"), "{said}");
    assert!(
        said.contains("Quiet hours: 12:00–14:00 (UTC+05:00)"),
        "{said}"
    );
    let call = s.slash(&other, "notify", json!([]), &[]).await;
    assert!(
        text(&call).contains("each time it is your move"),
        "{}",
        text(&call)
    );
    let bad = json!([{ "name": "mode", "type": 3, "value": "digest" }]);
    let call = s.slash(&other, "notify", bad, &[]).await;
    assert!(text(&call).starts_with("Give the hour"), "{}", text(&call));

    let from = s.fake.calls().len();
    s.first_pit(board).await;
    assert_eq!(s.advance(0).await, 0, "quiet now");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(s.dm_tries(from, &other), 0, "nothing in quiet hours");
    s.advance(3600).await;
    let told = s.dms(from, &other, 1).await;
    let said = told[0]["content"].as_str().unwrap_or_default();
    assert!(said.starts_with("Your move against "), "{said}");
}

/// Closed DMs: Discord refuses (50007); nothing more is tried, the channel still pings
/// them; any command of theirs makes them reachable again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_with_closed_dms_is_remembered_until_they_use_the_bot() {
    let s = Server::start().await;
    let board = s.game("2d").await;
    let (_, other) = s.sides(board);
    s.fake.close_dms(&other);
    let from = s.fake.calls().len();
    s.first_pit(board).await;
    s.advance(0).await;
    let refused = s
        .fake
        .wait_call(from, "the refused DM", |c| {
            c.method == "POST" && c.path.ends_with("/messages") && c.status == 403
        })
        .await;
    assert_eq!(refused.status, 403);
    s.settled(&other).await;
    // The board in the channel names them (the ping of every game).
    let shown = s.fake.message(board).expect("the board");
    let content = shown["content"].as_str().unwrap_or_default();
    assert!(content.contains(&other.mention()), "{shown}");

    // Remembered: after their reply and the next move, nothing is tried.
    s.advance(11 * 60).await;
    s.first_pit(board).await;
    s.advance(11 * 60).await;
    let from = s.fake.calls().len();
    s.first_pit(board).await;
    s.advance(0).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(s.dm_tries(from, &other), 0, "not tried again");

    // They open their DMs and use the bot: told of the next move.
    s.fake.open_dms(&other);
    s.slash(&other, "notify", json!([]), &[]).await;
    s.advance(11 * 60).await;
    s.first_pit(board).await;
    s.advance(11 * 60).await;
    let from = s.fake.calls().len();
    s.first_pit(board).await;
    s.advance(0).await;
    let told = s.dms(from, &other, 1).await;
    let said = told[0]["content"].as_str().unwrap_or_default();
    assert!(said.starts_with("Your move against "), "{said}");
}
