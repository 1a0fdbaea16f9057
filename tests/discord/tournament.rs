//! Tournaments on Discord (issue 33), end to end: the real serenity client (the adapter in
//! this process, on a manager whose clock the test moves) against the fake Discord.
//! `/tournament new` answers with the announcement; Join presses are answered privately and
//! the announcement lists the players; only the creator or a Manage Server member may
//! cancel; at the start each game is posted with its pairing line over its board, played
//! like any board; the standings picture is posted and redrawn as games end; the podium is
//! posted at the end; `/tournament standings` answers with text and a PNG. A Swiss event
//! with the bot entered at a level.

use serde_json::{json, Value};
use std::time::Duration;
use toguz::i18n::Lang;
use toguz::manager::tournament::TournamentError;
use toguz::manager::{ActionError, Clock, Manager, ManagerConfig};
use toguz::platform::present;
use toguz::testing::discord::bot::{start_with_manager, Options};
use toguz::testing::discord::{buttons, first_legal_pit, id_of, is_valid_png, Call, FakeDiscord};
use toguz::testing::discord::{Place, User};

pub(super) const GUILD: u64 = 930_000_000_000_000_000;
pub(super) const CHANNEL: u64 = 760;
/// Discord's MANAGE_GUILD permission bit.
const MANAGE_GUILD: u64 = 1 << 5;
pub(super) const WAIT: Duration = Duration::from_secs(15);

/// The adapter in this process against the fake, on a manager with a manual clock.
pub(super) struct Server {
    pub(super) fake: FakeDiscord,
    pub(super) manager: Manager,
    _bot: tokio::task::JoinHandle<anyhow::Result<()>>,
    _dir: tempfile::TempDir,
}

impl Server {
    pub(super) async fn start() -> Server {
        let fake = FakeDiscord::start().await;
        let dir = tempfile::tempdir().expect("temp dir");
        let store = toguz::store::Store::open(&dir.path().join("data")).expect("a store");
        let engine = toguz::engine::EnginePool::new(toguz::engine::EngineConfig::default());
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_secs();
        let manager =
            Manager::start_with_clock(store, engine, ManagerConfig::default(), Clock::manual(now))
                .await
                .expect("a manager");
        let bot = start_with_manager(&fake, manager.clone(), &Options::default());
        fake.wait_ready(1).await;
        fake.wait_call(0, "command registration", |c| {
            c.method == "PUT" && c.path.ends_with("/commands") && c.status == 200
        })
        .await;
        Server {
            fake,
            manager,
            _bot: bot,
            _dir: dir,
        }
    }

    pub(super) fn place(&self) -> Place {
        self.fake.guild_channel(GUILD, CHANNEL)
    }

    /// `/tournament <sub> <options>` by `user`: the answer.
    pub(super) async fn tournament(&self, user: &User, sub: &str, options: Value) -> Call {
        let options = json!([{ "name": sub, "type": 1, "options": options }]);
        let id = self
            .fake
            .slash(user, self.place(), "tournament", options, &[]);
        self.fake.wait_callback(id).await
    }

    /// `/tournament new`: the announcement message and the event's id.
    pub(super) async fn new_event(&self, user: &User, options: Value) -> (Value, String) {
        let options = json!([{ "name": "new", "type": 1, "options": options }]);
        let id = self
            .fake
            .slash(user, self.place(), "tournament", options, &[]);
        let call = self.fake.wait_callback(id).await;
        assert_eq!(call.callback_type(), Some(4), "{}", text(&call));
        assert!(!call.is_ephemeral(), "the announcement is for the channel");
        let message = self.fake.original_message(id).expect("the announcement");
        let join = custom_id(&message, "1tj:").expect("a Join button");
        let event = join.trim_start_matches("1tj:").to_string();
        assert!(
            custom_id(&message, "1tl:").is_some(),
            "a Leave button: {message}"
        );
        (message, event)
    }

    /// `user` presses `custom_id` on `message`: the answer.
    pub(super) async fn press(&self, user: &User, message: u64, custom_id: &str) -> Call {
        let id = self.fake.press(user, message, custom_id);
        self.fake.wait_callback(id).await
    }

    /// Waits until message `id` satisfies `check`.
    pub(super) async fn until(&self, what: &str, id: u64, check: impl Fn(&Value) -> bool) -> Value {
        self.fake
            .wait_for(what, WAIT, |f| f.message(id).filter(|m| check(m)))
            .await
    }

    /// Moves the clock on by `secs` and runs the tournament tick until `what` appears in
    /// the channel (the tick also runs by itself every 2 s; this does not wait for it).
    pub(super) async fn advance_until(
        &self,
        secs: u64,
        what: &str,
        found: impl Fn(&Value) -> bool,
    ) -> Value {
        self.manager.clock().advance(secs);
        for _ in 0..10 {
            self.manager.tick_tournaments().await;
            let seen = self
                .fake
                .try_wait_for(Duration::from_secs(2), |f| {
                    f.newest_in_channel(CHANNEL, &found)
                })
                .await;
            if let Some(message) = seen {
                return message;
            }
        }
        panic!(
            "{what} never appeared; calls:\n{}",
            self.fake.describe_calls()
        );
    }

    /// Runs the tick until `what` appears in the channel, the clock left as it is.
    pub(super) async fn tick_until(&self, what: &str, found: impl Fn(&Value) -> bool) -> Value {
        self.advance_until(0, what, found).await
    }
}

pub(super) fn text(call: &Call) -> String {
    call.message_data()
        .and_then(|d| d["content"].as_str())
        .unwrap_or_default()
        .to_string()
}

pub(super) fn content(message: &Value) -> &str {
    message["content"].as_str().unwrap_or_default()
}

pub(super) fn description(message: &Value) -> &str {
    message["embeds"][0]["description"]
        .as_str()
        .unwrap_or_default()
}

pub(super) fn custom_id(message: &Value, prefix: &str) -> Option<String> {
    buttons(message).into_iter().find_map(|b| {
        let id = b["custom_id"].as_str()?;
        id.starts_with(prefix).then(|| id.to_string())
    })
}

fn files(message: &Value) -> Vec<String> {
    message["attachments"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["filename"].as_str().map(str::to_string))
        .collect()
}

fn is_standings(message: &Value) -> bool {
    files(message).iter().any(|f| f == "standings.png")
}

/// The attachment id of a standings picture (a new one after each redraw).
fn picture_id(message: &Value) -> String {
    message["attachments"][0]["id"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Who is to move on a board whose content ends with "<@id>, your move ...".
pub(super) fn mover<'a>(board: &Value, players: &[&'a User]) -> Option<&'a User> {
    let last = content(board).lines().last().unwrap_or_default();
    players
        .iter()
        .copied()
        .find(|u| last.contains(&u.mention()) && last.contains("your move"))
}

/// The user ids a message body lets ping.
fn pinged(body: &Value) -> Vec<String> {
    let mut users: Vec<String> = body["allowed_mentions"]["users"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|u| {
            u.as_str()
                .map(str::to_string)
                .or(u.as_u64().map(|n| n.to_string()))
        })
        .collect();
    users.sort();
    users
}

/// The player to move presses the first legal pit of `board` (its message id).
async fn play_one(server: &Server, board: u64, players: &[&User]) -> User {
    let message = server
        .until("a player to move", board, |m| {
            mover(m, players).is_some() && first_legal_pit(m).is_some()
        })
        .await;
    let who = mover(&message, players).expect("a mover").clone();
    let pit = first_legal_pit(&message).expect("a legal pit");
    let call = server.press(&who, board, &pit).await;
    assert_eq!(call.callback_type(), Some(7), "{}", text(&call));
    who
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_runs_in_a_server_from_announcement_to_podium() {
    let server = Server::start().await;
    let fake = &server.fake;
    let alice = User::new(3101, "Alice");
    let bob = User::new(3102, "Bob");
    let carol = User::new(3103, "Carol");
    let erin = User::new(3104, "Erin");

    // The announcement: the terms, a countdown, Join and Leave.
    let options = json!([
        { "name": "format", "type": 3, "value": "arena" },
        { "name": "time", "type": 3, "value": "3+2" },
        { "name": "minutes", "type": 4, "value": 20 },
    ]);
    let (announcement, event) = server.new_event(&alice, options).await;
    let shown = description(&announcement);
    assert!(shown.contains("20-minute arena"), "{shown}");
    assert!(shown.contains("3+2") && shown.contains("rated"), "{shown}");
    assert!(shown.contains("Nobody has joined yet."), "{shown}");
    assert!(shown.contains(":R>"), "a live countdown: {shown}");
    let footer = announcement["embeds"][0]["footer"]["text"].as_str();
    assert!(footer.is_some_and(|f| f.contains(&event)), "{announcement}");
    let announcement = id_of(&announcement);

    // Two players join with the button: each is answered privately, and the
    // announcement lists them.
    let join = format!("1tj:{event}");
    for user in [&alice, &bob] {
        let call = server.press(user, announcement, &join).await;
        assert!(call.is_ephemeral(), "{}", text(&call));
        assert!(
            text(&call).starts_with("You have joined."),
            "{}",
            text(&call)
        );
    }
    let listed = server
        .until("both players listed", announcement, |m| {
            description(m).contains("2 players")
        })
        .await;
    let shown = description(&listed);
    assert!(shown.contains("Alice") && shown.contains("Bob"), "{shown}");
    // Joining twice is refused, in the presser's language.
    fake.set_locale(&bob, "ru");
    let again = server.press(&bob, announcement, &join).await;
    assert!(again.is_ephemeral());
    let refusal = present::error_text(
        &ActionError::Tournament(TournamentError::AlreadyIn),
        Lang::Ru,
    );
    assert_eq!(text(&again), refusal);
    fake.set_locale(&bob, "en-US");

    // Neither the creator nor a server manager: refused (in Russian, Carol's language),
    // and the event goes on.
    fake.set_locale(&carol, "ru");
    let id_option = json!([{ "name": "id", "type": 3, "value": event }]);
    let refused = server.tournament(&carol, "cancel", id_option).await;
    assert!(refused.is_ephemeral());
    let not_allowed = present::error_text(
        &ActionError::Tournament(TournamentError::NotAllowed),
        Lang::Ru,
    );
    assert_eq!(text(&refused), not_allowed);
    let still = fake.message(announcement).expect("the announcement");
    assert!(custom_id(&still, "1tj:").is_some(), "still open: {still}");

    // A member who can manage the server cancels another event (Bob's Swiss).
    let options = json!([
        { "name": "format", "type": 3, "value": "swiss" },
        { "name": "time", "type": 3, "value": "5+3" },
    ]);
    let (other, other_event) = server.new_event(&bob, options).await;
    assert!(description(&other).contains("Swiss, 5 rounds"), "{other}");
    fake.set_permissions(&erin, MANAGE_GUILD);
    let id_option = json!([{ "name": "id", "type": 3, "value": other_event }]);
    let cancelled = server.tournament(&erin, "cancel", id_option).await;
    assert!(cancelled.is_ephemeral());
    assert!(
        text(&cancelled).starts_with("You have cancelled the tournament."),
        "{}",
        text(&cancelled)
    );
    let other = server
        .until("the cancelled announcement", id_of(&other), |m| {
            description(m).contains("The tournament was cancelled.")
        })
        .await;
    assert!(
        buttons(&other).is_empty(),
        "no Join after a cancel: {other}"
    );
    let news = fake
        .wait_for("the cancellation news", WAIT, |f| {
            f.newest_in_channel(CHANNEL, |m| content(m).ends_with("was cancelled."))
        })
        .await;
    assert!(content(&news).contains("Swiss, 5 rounds"), "{news}");

    // The start: one game, posted with the pairing line over its board, both players
    // pinged and nobody else.
    let calls_before = fake.call_count();
    let paired = server
        .advance_until(5 * 60 + 1, "the pairing", |m| {
            content(m).starts_with("Arena game:")
        })
        .await;
    let line = content(&paired).lines().next().unwrap_or_default();
    assert!(
        line.contains(&alice.mention()) && line.contains(&bob.mention()),
        "{line}"
    );
    assert!(
        paired["embeds"][0]["image"]["url"]
            .as_str()
            .is_some_and(|u| u.ends_with("board.png")),
        "the board: {paired}"
    );
    assert!(first_legal_pit(&paired).is_some(), "pit buttons: {paired}");
    let post = fake
        .wait_call(calls_before, "the pairing's post", |c| {
            c.method == "POST"
                && c.path == format!("/channels/{CHANNEL}/messages")
                && c.json.as_ref().is_some_and(|j| {
                    j["content"]
                        .as_str()
                        .unwrap_or("")
                        .starts_with("Arena game:")
                })
        })
        .await;
    let mut both = vec![alice.id.to_string(), bob.id.to_string()];
    both.sort();
    assert_eq!(pinged(post.json.as_ref().expect("a body")), both);

    // The announcement says it is under way; the standings picture is posted.
    server
        .until("the announcement under way", announcement, |m| {
            description(m).contains("Under way")
        })
        .await;
    let picture = fake
        .wait_for("the standings picture", WAIT, |f| {
            f.newest_in_channel(CHANNEL, is_standings)
        })
        .await;
    let picture_at_start = picture_id(&picture);
    let table = id_of(&picture);
    let bytes = fake.files_of(&picture);
    assert!(is_valid_png(&bytes[0].2), "a PNG");

    // Black goes berserk with the button an arena's board carries: half of Black's three
    // minutes. A second press is refused, to the presser alone.
    let board = id_of(&paired);
    let players = [&alice, &bob];
    let white = mover(&paired, &players).expect("White to move").clone();
    let black = if white.id == alice.id { &bob } else { &alice };
    let berserk = custom_id(&paired, "1bz:").unwrap_or_else(|| panic!("Berserk: {paired}"));
    let label = buttons(&paired)
        .into_iter()
        .find(|b| b["custom_id"] == berserk.as_str())
        .map(|b| b["label"].clone());
    assert_eq!(label, Some(json!("Berserk")), "{paired}");
    let call = server.press(black, board, &berserk).await;
    assert_eq!(call.callback_type(), Some(7), "{}", text(&call));
    server
        .until("Black's clock halved", board, |m| {
            m.to_string().contains("3:00 : 1:30")
        })
        .await;
    let again = server.press(black, board, &berserk).await;
    assert!(again.is_ephemeral(), "{}", text(&again));
    assert!(
        text(&again).starts_with("Too late for berserk"),
        "{}",
        text(&again)
    );

    // The game is played on that message like any board, then the player to move resigns:
    // seven moves each, the fewest that earn the berserker's extra point (as on lichess).
    for _ in 0..14 {
        play_one(&server, board, &players).await;
    }
    let last = fake.message(board).expect("the board");
    let loser = mover(&last, &players).expect("someone to move").clone();
    let winner = if loser.id == alice.id { &bob } else { &alice };
    assert_eq!(
        winner.id, black.id,
        "White was to move after fourteen moves and resigned"
    );
    let resign = custom_id(&last, "1r:").expect("a Resign button");
    let call = server.press(&loser, board, &resign).await;
    assert_eq!(call.callback_type(), Some(7));
    server
        .until("the game over", board, |m| first_legal_pit(m).is_none())
        .await;

    // The result reaches the standings: the picture is drawn again.
    server.manager.tick_tournaments().await;
    let redrawn = server
        .until("the standings redrawn", table, |m| {
            is_standings(m) && picture_id(m) != picture_at_start
        })
        .await;
    let picture_after_game = picture_id(&redrawn);
    let announced = server
        .until("the standings on the announcement", announcement, |m| {
            description(m).contains("Standings:")
        })
        .await;
    assert!(
        description(&announced).contains(&winner.name),
        "{announced}"
    );
    // A berserk win: two points and one more.
    let record = server.manager.tournament(&event).await.expect("the event");
    assert_eq!(record.arena[0].berserk, [false, true], "Black went berserk");
    let sheet = |user: &User| {
        let entrant = record
            .entrants
            .iter()
            .find(|e| e.player.user().is_some_and(|u| u.id == user.id.to_string()));
        entrant.expect("an entrant").sheet.points
    };
    assert_eq!((sheet(winner), sheet(&loser)), (3, 0));

    // Time is up: the podium, answering the announcement, and the final picture.
    let podium = server
        .advance_until(20 * 60, "the podium", |m| content(m).contains("is over!"))
        .await;
    let said = content(&podium);
    assert!(said.contains(&format!("🥇 {}", winner.mention())), "{said}");
    assert!(said.contains(&format!("🥈 {}", loser.mention())), "{said}");
    assert_eq!(
        podium["message_reference"]["message_id"].as_str(),
        Some(announcement.to_string().as_str()),
        "{podium}"
    );
    server
        .until("the final picture", table, |m| {
            picture_id(m) != picture_after_game
        })
        .await;
    let over = server
        .until("the announcement over", announcement, |m| {
            description(m).contains("The tournament is over.")
        })
        .await;
    assert!(buttons(&over).is_empty(), "{over}");

    // The standings of the finished event, by its id: text and the table as a PNG.
    let id_option = json!([{ "name": "id", "type": 3, "value": event }]);
    let standings = server.tournament(&carol, "standings", id_option).await;
    assert_eq!(standings.callback_type(), Some(4));
    assert!(!standings.is_ephemeral());
    let said = text(&standings);
    // Carol's client is Russian.
    assert!(said.contains("Alice") && said.contains("Bob"), "{said}");
    assert!(said.lines().count() >= 3, "{said}");
    let png = standings
        .files
        .iter()
        .find(|f| f.filename == "standings.png")
        .expect("the table as a file");
    assert_eq!(png.content_type, "image/png");
    assert!(is_valid_png(&png.bytes));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_event_with_the_bot_entered_at_a_level() {
    let server = Server::start().await;
    let fake = &server.fake;
    let alice = User::new(3201, "Alice");
    let bob = User::new(3202, "Bob");
    let options = json!([
        { "name": "format", "type": 3, "value": "swiss" },
        { "name": "time", "type": 3, "value": "5+3" },
        { "name": "rounds", "type": 4, "value": 1 },
        { "name": "starts_in", "type": 4, "value": 1 },
        { "name": "rated", "type": 5, "value": false },
    ]);
    let (announcement, _) = server.new_event(&alice, options).await;
    assert!(
        description(&announcement).contains("Swiss, 1 round"),
        "{announcement}"
    );
    assert!(description(&announcement).contains("unrated"));
    let announcement = id_of(&announcement);

    // Only the creator (or a server manager) enters the bot.
    let level = json!([{ "name": "level", "type": 3, "value": "random" }]);
    let refused = server.tournament(&bob, "bot", level.clone()).await;
    let not_allowed = present::error_text(
        &ActionError::Tournament(TournamentError::NotAllowed),
        Lang::En,
    );
    assert_eq!(text(&refused), not_allowed);
    let entered = server.tournament(&alice, "bot", level).await;
    assert!(entered.is_ephemeral());
    assert!(
        text(&entered).starts_with("Bot (random) has joined."),
        "{}",
        text(&entered)
    );
    // Alice joins by command (the newest event here is meant).
    let joined = server.tournament(&alice, "join", json!([])).await;
    assert!(
        text(&joined).starts_with("You have joined."),
        "{}",
        text(&joined)
    );
    server
        .until("the bot and Alice listed", announcement, |m| {
            let d = description(m);
            d.contains("2 players") && d.contains("Bot (random)") && d.contains("Alice")
        })
        .await;

    let calls_before = fake.call_count();
    let paired = server
        .advance_until(61, "the round's pairing", |m| {
            content(m).starts_with("Round 1, board 1:")
        })
        .await;
    let line = content(&paired).lines().next().unwrap_or_default();
    assert!(line.contains(&alice.mention()), "{line}");
    assert!(line.contains("Bot (random)"), "{line}");
    let post = fake
        .wait_call(calls_before, "the pairing's post", |c| {
            c.method == "POST"
                && c.json
                    .as_ref()
                    .is_some_and(|j| j["content"].as_str().unwrap_or("").starts_with("Round 1"))
        })
        .await;
    assert_eq!(
        pinged(post.json.as_ref().expect("a body")),
        vec![alice.id.to_string()]
    );
    fake.wait_for("the standings picture", WAIT, |f| {
        f.newest_in_channel(CHANNEL, is_standings)
    })
    .await;

    // Alice moves once (after the bot, if it has White), then resigns.
    let board = id_of(&paired);
    play_one(&server, board, &[&alice]).await;
    let ready = server
        .until("Alice to move again", board, |m| {
            mover(m, &[&alice]).is_some() && custom_id(m, "1r:").is_some()
        })
        .await;
    // Redrawn after the moves, the board still says which round and board it is.
    let shown = description(&ready);
    let title = shown.lines().next().unwrap_or_default();
    assert!(
        title.starts_with("Game ") && title.ends_with("r1b1 · round 1, board 1"),
        "{shown}"
    );
    let resign = custom_id(&ready, "1r:").expect("a Resign button");
    server.press(&alice, board, &resign).await;

    // The only round is over: the event ends with the bot on top.
    let podium = server
        .tick_until("the podium", |m| content(m).contains("is over!"))
        .await;
    let said = content(&podium);
    assert!(said.contains("🥇 Bot (random)"), "{said}");
    assert!(said.contains(&format!("🥈 {}", alice.mention())), "{said}");
}

/// A 429 on the announcement's edit holds up only that tournament's worker: presses are
/// answered meanwhile, and the joins that came in while it waited cost one more edit, which
/// shows them all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn joins_during_a_rate_limit_cost_one_edit() {
    let server = Server::start().await;
    let fake = &server.fake;
    let alice = User::new(3301, "Alice");
    let options = json!([
        { "name": "format", "type": 3, "value": "arena" },
        { "name": "time", "type": 3, "value": "1+0" },
    ]);
    let (announcement, event) = server.new_event(&alice, options).await;
    let announcement = id_of(&announcement);
    let path = format!("/channels/{CHANNEL}/messages/{announcement}");
    let limit = toguz::testing::discord::Failure::RateLimit {
        retry_after: 1.5,
        global: false,
    };
    fake.fail_next("PATCH", &path, limit, 1);
    let join = format!("1tj:{event}");
    let players: Vec<User> = (0..4)
        .map(|n| User::new(3310 + n, &format!("Player{n}")))
        .collect();
    let started = std::time::Instant::now();
    for user in &players {
        let call = server.press(user, announcement, &join).await;
        assert!(
            text(&call).starts_with("You have joined."),
            "{}",
            text(&call)
        );
    }
    assert!(
        started.elapsed() < Duration::from_millis(1400),
        "the presses did not wait for the rate limit: {:?}",
        started.elapsed()
    );
    let shown = server
        .until("all four listed", announcement, |m| {
            description(m).contains("4 players")
        })
        .await;
    for user in &players {
        assert!(description(&shown).contains(&user.name), "{shown}");
    }
    let edits: Vec<u16> = fake
        .calls()
        .iter()
        .filter(|c| c.method == "PATCH" && c.path == path)
        .map(|c| c.status)
        .collect();
    // The limited edit, its retry (the first join), and one edit for the other three.
    assert_eq!(edits, vec![429, 200, 200], "{edits:?}");
}

/// Issue 49, finding 20: a command of subcommands that arrives without one (a client with
/// an outdated list of commands) is answered, privately, in the user's language, like any
/// other interaction; so is one with a subcommand we do not have.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_without_its_subcommand_is_answered() {
    let server = Server::start().await;
    let alice = User::new(940, "Alice");
    for (name, options) in [
        ("tournament", json!([])),
        ("puzzle", json!([])),
        (
            "tournament",
            json!([{ "name": "rename", "type": 1, "options": [] }]),
        ),
        (
            "puzzle",
            json!([{ "name": "hint", "type": 1, "options": [] }]),
        ),
    ] {
        let id = server
            .fake
            .slash_outdated(&alice, server.place(), name, options.clone());
        let call = tokio::time::timeout(WAIT, server.fake.wait_callback(id))
            .await
            .unwrap_or_else(|_| panic!("/{name} {options} was never answered"));
        assert!(call.is_ephemeral(), "/{name} {options}");
        let text = call
            .message_data()
            .and_then(|d| d["content"].as_str())
            .unwrap_or("");
        assert!(
            text.contains(&format!("/{name}")),
            "/{name} {options}: {text}"
        );
    }
    server.fake.set_locale(&alice, "ru");
    let id = server
        .fake
        .slash_outdated(&alice, server.place(), "tournament", json!([]));
    let call = server.fake.wait_callback(id).await;
    let text = call
        .message_data()
        .and_then(|d| d["content"].as_str())
        .unwrap_or("");
    assert!(
        text.contains("/tournament") && !text.contains("subcommand"),
        "{text}"
    );
}
