//! A 40-player arena in one Discord channel (issue 49): more boards than a channel's 5
//! messages per 5 s could carry, so each player gets their board in a DM and the channel one
//! pairings message for the wave. Every player presses a pit the moment their board shows
//! one, with the manager's clock running in real time meanwhile: every game gets its first
//! moves (none is aborted for a missed first move). A player whose DMs are closed (403,
//! 50007) has their game's board in the channel and plays there. The test bot keeps
//! Discord's limits as they are: nothing in its config lifts them.

use super::tournament::{content, description, mover, text, Server, CHANNEL, WAIT};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};
use toguz::testing::discord::{first_legal_pit, id_of, User};

const PLAYERS: u64 = 40;
/// The pairings message's last line (its boards went to the players privately).
const PRIVATE: &str = "Each player gets their board in a private message from the bot.";

fn has_board(message: &Value) -> bool {
    message["embeds"][0]["image"]["url"]
        .as_str()
        .is_some_and(|u| u.ends_with("board.png"))
}

/// The board `user` may press a pit on now, and the pit: the newest board in their DM with
/// a pit to press (a DM board has pits only on its owner's turn), else a board in the
/// channel that says it is their move.
fn pressable(server: &Server, user: &User, players: &[&User]) -> Option<(u64, String)> {
    let fake = &server.fake;
    let in_dm = fake
        .dm_channel_of(user)
        .and_then(|dm| fake.newest_in_channel(dm, has_board))
        .filter(|m| first_legal_pit(m).is_some());
    let board = in_dm.or_else(|| {
        fake.newest_in_channel(CHANNEL, |m| {
            has_board(m)
                && first_legal_pit(m).is_some()
                && mover(m, players).is_some_and(|u| u.id == user.id)
        })
    })?;
    let pit = first_legal_pit(&board)?;
    Some((id_of(&board), pit))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forty_player_arena_plays_from_dms_and_every_game_gets_its_first_moves() {
    let server = Server::start().await;
    let fake = &server.fake;
    let players: Vec<User> = (0..PLAYERS)
        .map(|n| User::new(4100 + n, &format!("P{n:02}")))
        .collect();
    let all: Vec<&User> = players.iter().collect();
    let closed = &players[7];
    fake.close_dms(closed);

    let options = json!([
        { "name": "format", "type": 3, "value": "arena" },
        { "name": "time", "type": 3, "value": "3+2" },
        { "name": "minutes", "type": 4, "value": 20 },
    ]);
    let (announcement, event) = server.new_event(&players[0], options).await;
    let announcement = id_of(&announcement);

    // Everyone joins with the button: each is answered privately, and the channel gets no
    // message per player (the announcement lists them).
    let before_joins = fake.call_count();
    let join = format!("1tj:{event}");
    for user in &players {
        let call = server.press(user, announcement, &join).await;
        assert!(call.is_ephemeral(), "{}", text(&call));
        assert!(
            text(&call).starts_with("You have joined."),
            "{}",
            text(&call)
        );
    }
    server
        .until("all forty listed", announcement, |m| {
            description(m).contains(&format!("{PLAYERS} players"))
        })
        .await;
    let posted_for_joins = fake.calls()[before_joins..]
        .iter()
        .filter(|c| c.method == "POST" && c.path == format!("/channels/{CHANNEL}/messages"))
        .count();
    assert_eq!(posted_for_joins, 0, "joins post nothing in the channel");

    // The start, and from then on the manager's clock runs as the real one does: a first
    // move not made within 30 s of its board reaching both players aborts its game. The
    // boards go out while it runs.
    server.manager.clock().advance(5 * 60 + 1);
    let clock = server.manager.clock().clone();
    let running = tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_millis(250)).await;
            clock.advance_ms(250);
        }
    });
    server.manager.tick_tournaments().await;

    // Each player presses a pit as soon as a board shows them one (White at once, Black
    // after White's move).
    let started = Instant::now();
    let mut pressed: HashMap<u64, u64> = HashMap::new();
    while pressed.len() < all.len() {
        for user in &all {
            if pressed.contains_key(&user.id) {
                continue;
            }
            if let Some((board, pit)) = pressable(&server, user, &all) {
                pressed.insert(user.id, fake.press(user, board, &pit));
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{} of {PLAYERS} players had a board to press; calls:\n{}",
            pressed.len(),
            fake.describe_calls()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for (user, interaction) in &pressed {
        let call = fake.wait_callback(*interaction).await;
        assert_eq!(
            call.callback_type(),
            Some(7),
            "player {user}'s press: {}",
            text(&call)
        );
    }
    running.abort();

    // Every game of the wave has its first moves, and none ended.
    let rec = server.manager.tournament(&event).await.expect("the event");
    let games: Vec<String> = rec.arena.iter().filter_map(|b| b.game.clone()).collect();
    assert_eq!(games.len(), (PLAYERS / 2) as usize, "one wave of 20 games");
    for game in &games {
        let view = server.manager.game(game).await.expect("a game");
        assert!(!view.is_over(), "game {game} ended: {:?}", view.status);
        assert!(view.ply >= 2, "game {game} has {} moves", view.ply);
    }

    // The boards: in each open player's DM, one, theirs; the closed player's game in the
    // channel, its only board there; one pairings message.
    let calls = fake.calls();
    for user in players.iter().filter(|u| u.id != closed.id) {
        let dm = fake.dm_channel_of(user).expect("a DM channel");
        let posted = calls
            .iter()
            .find(|c| c.method == "POST" && c.path == format!("/channels/{dm}/messages"))
            .and_then(|c| c.json.as_ref())
            .expect("the board's post");
        let line = posted["content"].as_str().unwrap_or_default();
        assert!(line.starts_with("Arena game:"), "the pairing line: {line}");
        let boards: Vec<Value> = fake
            .channel_messages(dm)
            .into_iter()
            .filter(has_board)
            .collect();
        assert_eq!(boards.len(), 1, "one board in {}'s DM", user.name);
        // Posted with the pairing line over it, redrawn as the game goes on: the game's
        // title still says which event it is in.
        assert!(
            description(&boards[0]).contains("· arena"),
            "an arena board: {}",
            boards[0]
        );
    }
    let refused = fake
        .dm_channel_of(closed)
        .map(|dm| fake.channel_messages(dm))
        .unwrap_or_default();
    assert!(refused.is_empty(), "nothing reached the closed DMs");
    let in_channel: Vec<Value> = fake
        .channel_messages(CHANNEL)
        .into_iter()
        .filter(has_board)
        .collect();
    assert_eq!(in_channel.len(), 1, "only the closed player's board");
    // Redrawn as it is played: its fields name the players.
    let fields = in_channel[0]["embeds"][0]["fields"].to_string();
    assert!(fields.contains(&closed.name), "{}", in_channel[0]);
    fake.wait_for("the pairings", WAIT, |f| {
        f.newest_in_channel(CHANNEL, |m| content(m).ends_with(PRIVATE))
    })
    .await;
    let waves = fake
        .channel_messages(CHANNEL)
        .into_iter()
        .filter(|m| content(m).ends_with(PRIVATE))
        .count();
    assert_eq!(waves, 1, "one pairings message for the wave");
    let pairings = fake
        .newest_in_channel(CHANNEL, |m| content(m).ends_with(PRIVATE))
        .expect("the pairings");
    assert!(content(&pairings).starts_with("Arena game:"), "{pairings}");
    // The closed player's game is not listed: its board, its pairing line over it, is in
    // the channel already. The other 19 are.
    assert!(
        !content(&pairings).contains(&closed.mention()),
        "{pairings}"
    );
    assert_eq!(content(&pairings).lines().count(), 19 + 1, "{pairings}");
    let players_pressed: HashSet<u64> = pressed.keys().copied().collect();
    assert!(
        players_pressed.contains(&closed.id),
        "the closed player played"
    );
}
