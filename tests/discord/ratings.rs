//! Ratings on Discord, end to end (issue 16): two members play a rated challenge (the small
//! three-ball variant) until one resigns; the final board shows the result and both exact
//! rating changes; `/leaderboard` (the server's and `scope: global`) and `/stats` (one's own
//! and a member's) show them; a challenge with `rated: false` changes no rating.

use serde_json::{json, Value};
use toguz::testing::discord::bot::{BotProcess, Options};
use toguz::testing::discord::{buttons, first_legal_pit, id_of, Call, FakeDiscord, User};

pub const GUILD: u64 = 910_000_000_000_000_000;

/// The real bot against a fake Discord, up once its commands are registered.
pub async fn start() -> (FakeDiscord, tempfile::TempDir, BotProcess) {
    let fake = FakeDiscord::start().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let bot = BotProcess::start(&fake, dir.path(), &Options::default());
    fake.wait_ready(1).await;
    fake.wait_call(0, "command registration", |c| {
        c.method == "PUT" && c.path.ends_with("/commands")
    })
    .await;
    (fake, dir, bot)
}

/// The text of an answer (a callback's message data).
pub fn content(call: &Call) -> String {
    call.message_data()
        .and_then(|d| d["content"].as_str())
        .unwrap_or_default()
        .to_string()
}

/// A finished game: its final board, and who won and lost.
pub struct Ended {
    pub board: Value,
    pub winner: User,
    pub loser: User,
}

/// `a` challenges `b` (three balls a pit, `extra` options) in `channel`, `b` accepts, they
/// play the first legal pit four times, and the player to move then resigns with the
/// board's button: a decisive end, always.
pub async fn a_whole_game(
    fake: &FakeDiscord,
    (a, b): (&User, &User),
    channel: u64,
    extra: Value,
) -> Ended {
    let place = fake.guild_channel(GUILD, channel);
    let mut options = json!([
        { "name": "opponent", "type": 6, "value": b.id.to_string() },
        { "name": "balls", "type": 4, "value": 3 }
    ]);
    options
        .as_array_mut()
        .unwrap()
        .extend(extra.as_array().cloned().unwrap_or_default());
    let id = fake.slash(a, place, "challenge", options, std::slice::from_ref(b));
    fake.wait_callback(id).await;
    let message = id_of(&fake.original_message(id).expect("the challenge"));
    let accept = buttons(&fake.message(message).expect("message"))[0]["custom_id"]
        .as_str()
        .expect("accept")
        .to_string();
    let press = fake.press(b, message, &accept);
    fake.wait_callback(press).await;
    let mover = |board: &Value| {
        let text = board["content"].as_str().unwrap_or_default();
        if text.contains(&a.mention()) {
            a
        } else {
            b
        }
    };
    for _ in 0..4 {
        let board = fake.message(message).expect("the board");
        let pit = first_legal_pit(&board).expect("the game goes on for four plies");
        let press = fake.press(mover(&board), message, &pit);
        fake.wait_callback(press).await;
    }
    let board = fake.message(message).expect("the board");
    let loser = mover(&board);
    let resign = buttons(&board)
        .into_iter()
        .find_map(|b| {
            let id = b["custom_id"].as_str()?;
            id.starts_with("1r:").then(|| id.to_string())
        })
        .expect("a Resign button");
    let press = fake.press(loser, message, &resign);
    fake.wait_callback(press).await;
    let winner = if loser.id == a.id { b } else { a };
    Ended {
        board: fake.message(message).expect("the final board"),
        winner: winner.clone(),
        loser: loser.clone(),
    }
}

/// `user` runs `/name` with `options` in the guild: the (ephemeral) answer's text.
async fn ask(
    fake: &FakeDiscord,
    user: &User,
    name: &str,
    options: Value,
    resolved: &[User],
) -> String {
    let place = fake.guild_channel(GUILD, 710);
    let id = fake.slash(user, place, name, options, resolved);
    let call = fake.wait_callback(id).await;
    assert!(call.is_ephemeral(), "/{name} answers privately");
    content(&call)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_shows_on_the_board_the_leaderboard_and_stats() {
    let (fake, _dir, _bot) = start().await;
    let (alice, bob) = (User::new(1101, "Alice"), User::new(1102, "Bob"));
    let end = a_whole_game(&fake, (&alice, &bob), 710, json!([])).await;
    let embed = end.board["embeds"][0]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(embed.contains("Ratings: "), "{embed}");
    assert!(
        embed.contains(&format!("{} resigned", end.loser.name)),
        "{embed}"
    );
    // Both start at 1500 (provisional): the Glicko-2 change of a first game is ±162.
    let (won, lost) = (&end.winner.name, &end.loser.name);
    assert!(embed.contains(&format!("{won} 1662? (+162)")), "{embed}");
    assert!(embed.contains(&format!("{lost} 1338? (-162)")), "{embed}");

    let board = ask(&fake, &alice, "leaderboard", json!([]), &[]).await;
    assert!(board.contains("Leaderboard of this server"), "{board}");
    assert!(board.contains("Correspondence:"), "{board}");
    assert!(board.contains("1. ") && board.contains("2. "), "{board}");
    assert!(board.contains("Alice") && board.contains("Bob"), "{board}");
    assert!(board.contains("Your place: "), "{board}");
    assert!(board.ends_with("/leaderboard category:"), "{board}");
    let category = |value: &str| json!([{ "name": "category", "type": 3, "value": value }]);
    let full = ask(
        &fake,
        &alice,
        "leaderboard",
        category("correspondence"),
        &[],
    )
    .await;
    assert!(full.contains("Correspondence:\nRating"), "{full}");
    assert!(
        full.contains("2. ") && full.contains("Your place: "),
        "{full}"
    );
    let blitz = ask(&fake, &alice, "leaderboard", category("blitz"), &[]).await;
    assert!(blitz.contains("Blitz:\nNobody here has played"), "{blitz}");
    let forged = ask(&fake, &alice, "leaderboard", category("bullet"), &[]).await;
    assert!(
        forged.contains("option value is not one I know"),
        "{forged}"
    );
    let global = ask(
        &fake,
        &bob,
        "leaderboard",
        json!([{ "name": "scope", "type": 3, "value": "global" }]),
        &[],
    )
    .await;
    assert!(global.contains("everyone on Discord"), "{global}");

    let own = ask(&fake, &alice, "stats", json!([]), &[]).await;
    assert!(own.starts_with("Your results:"), "{own}");
    assert!(own.contains("Correspondence: rating "), "{own}");
    assert!(own.contains("rated games: 1 "), "{own}");
    let his = ask(
        &fake,
        &alice,
        "stats",
        json!([{ "name": "player", "type": 6, "value": bob.id.to_string() }]),
        std::slice::from_ref(&bob),
    )
    .await;
    assert!(his.starts_with("Results of Bob:"), "{his}");
    assert!(his.contains("rated games: 1 "), "{his}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unrated_challenge_changes_no_rating() {
    let (fake, _dir, _bot) = start().await;
    let (asel, aibek) = (User::new(1201, "Asel"), User::new(1202, "Aibek"));
    let unrated = json!([{ "name": "rated", "type": 5, "value": false }]);
    let end = a_whole_game(&fake, (&asel, &aibek), 710, unrated).await;
    let embed = end.board["embeds"][0]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(!embed.contains("Ratings: "), "{embed}");
    let board = ask(&fake, &asel, "leaderboard", json!([]), &[]).await;
    assert!(
        board.contains("Nobody here has played a rated game"),
        "{board}"
    );
    let stats = ask(&fake, &asel, "stats", json!([]), &[]).await;
    assert!(
        stats.contains("No rated games yet.") && stats.contains("Unrated games: 1"),
        "{stats}"
    );
}
