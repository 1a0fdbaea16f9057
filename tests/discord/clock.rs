//! Timed games (issue 17) on the real bot against the fake Discord: the `time:` option of
//! `/challenge` and `/play` (registered, parsed, a refused one answered with examples, its
//! suggestions while typed), a `0.1+0` game whose flag falls with nobody pressing, and a
//! game of 2 days per move (issue 51).

use serde_json::{json, Value};
use std::time::Duration;
use toguz::testing::discord::bot::{BotProcess, Options};
use toguz::testing::discord::{buttons, id_of, Call, FakeDiscord, Place, User};

const GUILD: u64 = 900_000_000_000_000_100;

/// The real bot against the fake, up once its commands are registered.
struct Server {
    // Declared first so the bot is stopped before the fake server.
    _bot: BotProcess,
    fake: FakeDiscord,
    _dir: tempfile::TempDir,
}

impl Server {
    async fn start() -> Server {
        let (fake, dir, bot) = crate::ratings::start().await;
        Server {
            _bot: bot,
            fake,
            _dir: dir,
        }
    }

    fn channel(&self) -> Place {
        self.fake.guild_channel(GUILD, 710)
    }

    async fn slash(
        &self,
        user: &User,
        place: Place,
        name: &str,
        options: Value,
        resolved: &[User],
    ) -> (u64, Call) {
        let id = self.fake.slash(user, place, name, options, resolved);
        (id, self.fake.wait_callback(id).await)
    }

    /// `a` challenges `b` at `time`, `b` accepts: the board message.
    async fn timed_game(&self, a: &User, b: &User, time: &str) -> u64 {
        let options = json!([
            { "name": "opponent", "type": 6, "value": b.id.to_string() },
            { "name": "time", "type": 3, "value": time },
        ]);
        let (id, call) = self
            .slash(
                a,
                self.channel(),
                "challenge",
                options,
                std::slice::from_ref(b),
            )
            .await;
        assert!(!call.is_ephemeral(), "{}", content(&call));
        assert!(content(&call).contains(time), "{}", content(&call));
        let message = id_of(&self.fake.original_message(id).expect("the challenge"));
        let accept = custom_id(&self.fake.message(message).expect("the challenge"), "1ca:");
        let id = self.fake.press(b, message, &accept);
        let call = self.fake.wait_callback(id).await;
        assert_eq!(
            call.callback_type(),
            Some(7),
            "the challenge becomes the board"
        );
        message
    }

    /// After a flag fell (call `from` on): the board says who ran out of time and who won,
    /// has no pits left, and both players are pinged by a message answering the board.
    async fn flag_shown_and_told(
        &self,
        board: u64,
        from: usize,
        players: [&User; 2],
        flagged: &str,
        winner: &str,
    ) {
        let end = self
            .fake
            .wait_for("the flag", Duration::from_secs(15), |f| {
                let m = f.message(board)?;
                embed(&m).contains("ran out of time").then_some(m)
            })
            .await;
        let text = embed(&end);
        assert!(
            text.contains(&format!("{flagged} ran out of time")),
            "{text}"
        );
        assert!(text.contains(winner), "{text}");
        assert!(
            buttons(&end).iter().all(|b| b["custom_id"]
                .as_str()
                .is_some_and(|c| !c.starts_with("1m:"))),
            "no pit buttons after the flag: {end}"
        );
        // An edit pings nobody: both players are told by a message answering the board.
        let told = self
            .fake
            .wait_call(from, "the players told", |c| {
                c.method == "POST" && c.path == "/channels/710/messages" && c.status == 200
            })
            .await;
        let body = told.json.clone().unwrap_or_default();
        let said = body["content"].as_str().unwrap_or_default();
        assert!(
            said.contains(&players[0].mention()) && said.contains(&players[1].mention()),
            "{said}"
        );
        assert!(
            said.contains(&format!("{flagged} ran out of time")),
            "{said}"
        );
        let pinged = body["allowed_mentions"]["users"].to_string();
        assert!(
            pinged.contains(&players[0].id.to_string())
                && pinged.contains(&players[1].id.to_string()),
            "{body}"
        );
        assert_eq!(
            body["message_reference"]["message_id"].as_str(),
            Some(board.to_string().as_str()),
            "{body}"
        );
    }

    /// The player to move presses the first legal pit (the board mentions whose move it is).
    async fn first_pit(&self, message: u64, players: [&User; 2]) {
        let call = self.fake.press_first_pit(message, players).await;
        assert_eq!(call.callback_type(), Some(7), "{}", content(&call));
    }
}

fn content(call: &Call) -> String {
    call.message_data()
        .and_then(|d| d["content"].as_str())
        .unwrap_or_default()
        .to_string()
}

fn embed(message: &Value) -> String {
    message["embeds"][0]["description"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn custom_id(message: &Value, prefix: &str) -> String {
    buttons(message)
        .iter()
        .filter_map(|b| b["custom_id"].as_str())
        .find(|c| c.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix} button on {message}"))
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_time_option_is_registered_and_puts_games_on_a_clock() {
    let s = Server::start().await;
    for command in s.fake.global_commands() {
        let name = command["name"].as_str().unwrap_or_default();
        let time = command["options"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|o| o["name"] == "time");
        if matches!(name, "challenge" | "play") {
            let time = time.unwrap_or_else(|| panic!("/{name} has no time option"));
            assert_eq!(time["type"], 3, "a string");
            assert_eq!(time["name_localizations"]["ru"], "время");
            assert_ne!(time["required"], true);
        } else {
            assert!(time.is_none(), "/{name}");
        }
    }
    let (alice, bob) = (User::new(1001, "Alice"), User::new(1002, "Bob"));
    let board = s.timed_game(&alice, &bob, "3+2").await;
    let text = embed(&s.fake.message(board).expect("the board"));
    assert!(text.contains("Clock blitz 3+2: 3:00 : 3:00"), "{text}");
    // The first move's limit counts down in the client: a relative timestamp.
    assert!(
        text.contains("make your first move, or the game will be aborted <t:"),
        "{text}"
    );

    let dm = s.fake.dm_channel(811);
    let options = json!([
        { "name": "level", "type": 3, "value": "easy" },
        { "name": "time", "type": 3, "value": "5+3" },
    ]);
    let (id, call) = s.slash(&alice, dm, "play", options, &[]).await;
    assert!(!call.is_ephemeral(), "{}", content(&call));
    let message = id_of(&s.fake.original_message(id).expect("the board"));
    let text = embed(&s.fake.message(message).expect("the board"));
    assert!(text.contains("Clock blitz 5+3: 5:00 : 5:00"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_time_option_that_is_no_time_control_is_refused_with_examples() {
    let s = Server::start().await;
    let (alice, bob) = (User::new(1001, "Alice"), User::new(1002, "Bob"));
    let opponent = json!({ "name": "opponent", "type": 6, "value": bob.id.to_string() });
    for (name, time, example) in [
        ("challenge", "abc", "3+2"),
        ("challenge", "-1+0", "3+2"),
        ("challenge", "1000+0", "60+30"),
        ("play", "0+0", "0.1+0"),
        ("play", "5+61", "10+5"),
    ] {
        let mut options = vec![json!({ "name": "time", "type": 3, "value": time })];
        if name == "challenge" {
            options.insert(0, opponent.clone());
        }
        let (_, call) = s
            .slash(
                &alice,
                s.channel(),
                name,
                Value::Array(options),
                std::slice::from_ref(&bob),
            )
            .await;
        let said = content(&call);
        assert!(call.is_ephemeral(), "/{name} time:{time}: {said}");
        assert!(
            said.contains(time) && said.contains(example),
            "/{name} time:{time}: {said}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tenth_of_a_minute_game_flags_and_the_board_shows_it() {
    let s = Server::start().await;
    let (alice, bob) = (User::new(1001, "Alice"), User::new(1002, "Bob"));
    let board = s.timed_game(&alice, &bob, "0.1+0").await;
    // Both first moves (under their own limit); then White's six seconds run.
    s.first_pit(board, [&alice, &bob]).await;
    s.first_pit(board, [&alice, &bob]).await;
    let before = s.fake.message(board).expect("the board");
    let text = embed(&before);
    assert!(
        text.contains("Clock blitz 0.1+0: 0:06.0 : 0:06.0"),
        "{text}"
    );
    assert!(text.contains("White's time runs out <t:"), "{text}");
    let (flagged, winner) = flagged_and_winner(&before, [&alice, &bob]);
    // Nobody presses: the flag falls on its own and the board says so, for both to see.
    let from = s.fake.call_count();
    s.flag_shown_and_told(board, from, [&alice, &bob], flagged, winner)
        .await;
}

/// The names of the player to move on `board` (who would flag) and of the other.
fn flagged_and_winner<'a>(board: &Value, players: [&'a User; 2]) -> (&'a str, &'a str) {
    let to_move = board["content"].as_str().unwrap_or_default();
    if to_move.contains(&players[0].mention()) {
        (&players[0].name, &players[1].name)
    } else {
        (&players[1].name, &players[0].name)
    }
}

/// The process stopped after a flag fell but before its timer wrote it: at start-up the
/// game ends at once, and since no event reached the adapter then, it redraws the board and
/// pings both players itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_that_fell_before_a_crash_is_shown_and_told_after_the_restart() {
    let mut s = Server::start().await;
    let (alice, bob) = (User::new(1001, "Alice"), User::new(1002, "Bob"));
    let board = s.timed_game(&alice, &bob, "1+0").await;
    s.first_pit(board, [&alice, &bob]).await;
    s.first_pit(board, [&alice, &bob]).await;
    let before = s.fake.message(board).expect("the board");
    let (flagged, winner) = flagged_and_winner(&before, [&alice, &bob]);
    let text = embed(&before);
    let deadline: u64 = text
        .split_once("time runs out <t:")
        .and_then(|(_, rest)| rest.split_once(':'))
        .and_then(|(secs, _)| secs.parse().ok())
        .unwrap_or_else(|| panic!("no deadline on {text}"));
    s._bot.kill();
    // The process was alive 5 s past the deadline, but its timer never wrote the flag.
    toguz::testing::manager::write_heartbeat_offline(
        &s._dir.path().join("data"),
        (deadline + 5) * 1000,
    )
    .expect("the heartbeat written");
    let from = s.fake.call_count();
    s._bot = BotProcess::start(&s.fake, s._dir.path(), &Options::default());
    s.flag_shown_and_told(board, from, [&alice, &bob], flagged, winner)
        .await;
}

/// The choices the bot answered an autocomplete interaction with: (name, value).
async fn suggested(s: &Server, id: u64) -> Vec<(String, String)> {
    let call = s.fake.wait_callback(id).await;
    assert_eq!(call.callback_type(), Some(8), "{:?}", call.json);
    let data = call.json.as_ref().map(|j| j["data"].clone());
    let choices = data.and_then(|d| d["choices"].as_array().cloned());
    choices
        .unwrap_or_else(|| panic!("no choices in {:?}", call.json))
        .iter()
        .map(|c| {
            let text = |k: &str| c[k].as_str().unwrap_or_default().to_string();
            (text("name"), text("value"))
        })
        .collect()
}

/// Issue 51: typing into `time:` brings suggestions (Discord's autocomplete) in the player's
/// language, days per move among them, in `/challenge` and `/tournament new` alike; the
/// suggestion picked makes a game of 2 days per move whose board says so and shows the time
/// left for the move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_time_option_suggests_days_per_move_and_makes_a_two_day_game() {
    let s = Server::start().await;
    let (alice, bob) = (User::new(1001, "Alice"), User::new(1002, "Bob"));
    let opponent = json!({ "name": "opponent", "type": 6, "value": bob.id.to_string() });
    let typing = |typed: &str| json!([opponent, { "name": "time", "type": 3, "value": typed, "focused": true }]);
    let id = s
        .fake
        .autocomplete(&alice, s.channel(), "challenge", typing("2"));
    let choices = suggested(&s, id).await;
    assert!(
        choices.contains(&("2 days per move".into(), "2d".into())),
        "{choices:?}"
    );
    // Carol's client speaks Russian.
    let carol = User::new(1003, "Carol");
    s.fake.set_locale(&carol, "ru");
    let id = s
        .fake
        .autocomplete(&carol, s.channel(), "challenge", typing("дн"));
    let choices = suggested(&s, id).await;
    assert!(
        choices.contains(&("5 дней на ход".into(), "5d".into())),
        "{choices:?}"
    );
    // Inside a subcommand, nothing typed yet: every control offered.
    let new = json!([{ "name": "new", "type": 1, "options": [
        { "name": "format", "type": 3, "value": "swiss" },
        { "name": "time", "type": 3, "value": "", "focused": true },
    ]}]);
    let id = s.fake.autocomplete(&alice, s.channel(), "tournament", new);
    let choices = suggested(&s, id).await;
    assert!(
        choices.iter().any(|(_, value)| value == "14d") && choices.len() > 6,
        "{choices:?}"
    );

    // Alice picks "2 days per move": its value is what the command sends.
    let options = json!([opponent, { "name": "time", "type": 3, "value": "2d" }]);
    let (id, call) = s
        .slash(
            &alice,
            s.channel(),
            "challenge",
            options,
            std::slice::from_ref(&bob),
        )
        .await;
    assert!(!call.is_ephemeral(), "{}", content(&call));
    assert!(
        content(&call).contains("2 days per move"),
        "{}",
        content(&call)
    );
    let message = id_of(&s.fake.original_message(id).expect("the challenge"));
    let accept = custom_id(&s.fake.message(message).expect("the challenge"), "1ca:");
    let pressed = s.fake.press(&bob, message, &accept);
    let call = s.fake.wait_callback(pressed).await;
    assert_eq!(
        call.callback_type(),
        Some(7),
        "the challenge becomes the board"
    );
    let text = embed(&s.fake.message(message).expect("the board"));
    assert!(
        text.contains("2 days per move: 2 days left (until <t:"),
        "{text}"
    );
    assert!(!text.contains("Clock"), "no clocks: {text}");
    // After a move, the other player has their own 2 days.
    s.first_pit(message, [&alice, &bob]).await;
    let text = embed(&s.fake.message(message).expect("the board"));
    assert!(
        text.contains("2 days per move: 2 days left (until <t:"),
        "{text}"
    );
}
