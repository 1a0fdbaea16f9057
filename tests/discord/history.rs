//! History and records on Discord, end to end (issue 16): a rated game's final board has a
//! Record button; it and `/record` answer (privately) with the record as a file attachment
//! that replays and the move text in the message; `/history` pages with ◀ ▶ (someone
//! else's too), an entry opens the game's final board and its record, a forged page
//! button gets a clear refusal, and unknown members and games get clear answers.

use crate::ratings::{a_whole_game, content, start, Ended};
use serde_json::{json, Value};
use toguz::rules::{parse_record, replay};
use toguz::testing::discord::{buttons, id_of, is_valid_png, Call, FakeDiscord, User};

const GUILD: u64 = 910_000_000_000_000_000;
const CHANNEL: u64 = 720;

/// `user` runs `/name` in the server channel: the private answer and its message.
async fn ask(
    fake: &FakeDiscord,
    user: &User,
    name: &str,
    options: Value,
    resolved: &[User],
) -> (Call, Value) {
    let place = fake.guild_channel(GUILD, CHANNEL);
    let id = fake.slash(user, place, name, options, resolved);
    let call = fake.wait_callback(id).await;
    assert!(call.is_ephemeral(), "/{name} answers privately");
    let message = fake.original_message(id).expect("the answer's message");
    (call, message)
}

/// `user` presses `custom_id` on `message`: the answer, and the message it made or changed.
async fn press(fake: &FakeDiscord, user: &User, message: u64, custom_id: &str) -> (Call, Value) {
    let id = fake.press(user, message, custom_id);
    let call = fake.wait_callback(id).await;
    (
        call,
        fake.original_message(id).expect("the answer's message"),
    )
}

/// The record file of an answer's message, checked to be one: its text, replayed (every
/// ply legal from the variant's start) by the crate's reader and by `toguz replay --check`.
fn record_of(fake: &FakeDiscord, message: &Value, game: &str) -> String {
    let files = fake.files_of(message);
    let (name, kind, bytes) = files
        .iter()
        .find(|(name, _, _)| name.ends_with(".pgn"))
        .unwrap_or_else(|| panic!("no record file: {files:?}"));
    assert_eq!(name, &format!("toguz-{game}.pgn"));
    assert_eq!(kind, "application/x-chess-pgn");
    let text = String::from_utf8(bytes.clone()).expect("a UTF-8 record");
    let record = parse_record(&text).expect("the record parses");
    let start = record.start_position().expect("a start position");
    let plies = replay(&record, start).expect("the record replays");
    assert_eq!(plies.len(), 4, "{text}");
    // And as an operator would check the downloaded file.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(name);
    std::fs::write(&path, &text).expect("write the record");
    let check = std::process::Command::new(env!("CARGO_BIN_EXE_toguz"))
        .args(["replay", "--check"])
        .arg(&path)
        .output()
        .expect("toguz replay --check runs");
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{said}");
    assert!(
        said.contains("1 games, 4 half-moves, 0 disagreements"),
        "{said}"
    );
    text
}

/// The custom_ids of a message's buttons labelled `label`.
fn labelled(message: &Value, label: &str) -> Vec<String> {
    buttons(message)
        .iter()
        .filter(|b| b["label"] == label)
        .filter_map(|b| b["custom_id"].as_str().map(str::to_string))
        .collect()
}

/// `user` plays the bot in a DM and resigns at once, `n` times.
async fn lose_to_the_bot(fake: &FakeDiscord, user: &User, n: usize) {
    let dm = fake.dm_channel(730);
    for _ in 0..n {
        let level = json!([{ "name": "level", "type": 3, "value": "random" }]);
        let id = fake.slash(user, dm, "play", level, &[]);
        fake.wait_callback(id).await;
        let id = fake.slash(user, dm, "resign", json!([]), &[]);
        let call = fake.wait_callback(id).await;
        assert!(content(&call).contains("You resigned"), "{call:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_and_history_pages_with_boards() {
    let (fake, _dir, _bot) = start().await;
    let (alice, bob) = (User::new(1301, "Alice"), User::new(1302, "Bob"));
    let Ended {
        board,
        winner,
        loser,
    } = a_whole_game(&fake, (&alice, &bob), CHANNEL, json!([])).await;
    let game = buttons(&board)
        .iter()
        .find_map(|b| {
            let id = b["custom_id"].as_str()?;
            id.strip_prefix("1rc:").map(String::from)
        })
        .expect("the final board has a Record button");
    assert_eq!(labelled(&board, "Record"), [format!("1rc:{game}")]);

    // The board's Record button: the record, privately, without another copy of the board.
    let (call, sent) = press(&fake, &bob, id_of(&board), &format!("1rc:{game}")).await;
    assert!(call.is_ephemeral(), "{call:?}");
    let text = content(&call);
    assert!(
        text.starts_with(&format!("Record of game {game}\n1.")),
        "{text}"
    );
    let record = record_of(&fake, &sent, &game);
    assert!(record.contains("[Termination"), "{record}");
    assert!(record.contains("[WhiteRating"), "{record}");
    assert_eq!(
        fake.files_of(&sent).len(),
        1,
        "no board on a board's own record"
    );

    // /record without a game: the last game that ended here, the same file.
    let (_, sent) = ask(&fake, &alice, "record", json!([]), &[]).await;
    assert_eq!(record_of(&fake, &sent, &game), record);
    let unknown = json!([{ "name": "game", "type": 3, "value": "zz99zz" }]);
    let (call, _) = ask(&fake, &alice, "record", unknown, &[]).await;
    assert!(content(&call).contains("no such game"), "{call:?}");

    // Eight more games for Alice: nine, two pages. Bob looks at them.
    lose_to_the_bot(&fake, &alice, 8).await;
    let player = json!([{ "name": "player", "type": 6, "value": alice.id.to_string() }]);
    let (call, page) = ask(&fake, &bob, "history", player, std::slice::from_ref(&alice)).await;
    let first = content(&call);
    assert!(first.starts_with("Games of Alice, page 1:"), "{first}");
    assert_eq!(first.lines().count(), 9, "{first}");
    let entries: Vec<String> = buttons(&page)
        .iter()
        .filter_map(|b| b["custom_id"].as_str().map(str::to_string))
        .filter(|id| id.starts_with("1rc:"))
        .collect();
    assert_eq!(entries.len(), 8);
    // The ▶ button carries the key the next page starts from (issue 31, item 12).
    let next = labelled(&page, "▶");
    assert_eq!(next.len(), 1);
    assert!(
        next[0].starts_with(&format!("1hp:{}:1:o", alice.id)),
        "{next:?}"
    );
    assert!(labelled(&page, "◀").is_empty());
    let page_msg = id_of(&page);
    let (call, turned) = press(&fake, &bob, page_msg, &next[0]).await;
    assert_eq!(call.callback_type(), Some(7), "the page is turned in place");
    assert_eq!(id_of(&turned), page_msg);
    let second = turned["content"].as_str().unwrap_or_default().to_string();
    assert!(second.starts_with("Games of Alice, page 2:"), "{second}");
    assert_eq!(second.lines().count(), 2, "{second}");
    let back = labelled(&turned, "◀");
    assert_eq!(back.len(), 1);
    assert!(
        back[0].starts_with(&format!("1hp:{}:0:n", alice.id)),
        "{back:?}"
    );
    assert!(labelled(&turned, "▶").is_empty());
    // The rated game is on one of the pages, with Alice's rating change.
    let both = format!("{first}\n{second}");
    let line = both
        .lines()
        .find(|l| l.contains(&game))
        .expect("the rated game is in the history");
    let change = if winner.id == alice.id {
        "won, 1662? (+162)"
    } else {
        "lost, 1338? (-162)"
    };
    assert!(line.ends_with(change), "{line} (winner {})", winner.name);

    // A forged page (no games there) and malformed page data: refused, the page unchanged.
    let calls = fake.call_count();
    let forged = format!("1hp:{}:7:o1.zzzzzz", alice.id);
    let forged = fake.press_forged(&bob, page_msg, &forged);
    let call = fake.wait_callback(forged).await;
    assert!(call.is_ephemeral() && content(&call).contains("page of the history is empty"));
    let garbled = fake.press_forged(&bob, page_msg, "1hp:alice:1");
    let call = fake.wait_callback(garbled).await;
    assert!(call.is_ephemeral(), "{call:?}");
    assert!(content(&call).contains("does not belong"), "{call:?}");
    // (Another message may be redrawn meanwhile: a game board's worker runs on its own.)
    let page_path = format!("/messages/{page_msg}");
    let patches: Vec<String> = fake.calls()[calls..]
        .iter()
        .filter(|c| c.method == "PATCH" && c.path.ends_with(&page_path))
        .map(|c| c.path.clone())
        .collect();
    assert!(patches.is_empty(), "the page was edited: {patches:?}");
    assert_eq!(
        fake.message(page_msg).expect("the page")["content"],
        json!(second)
    );

    // An entry's button: the game's final board and its record, privately.
    let entry = format!("1rc:{game}");
    if !buttons(&turned).iter().any(|b| b["custom_id"] == entry) {
        let (back, _) = press(&fake, &bob, page_msg, &format!("1hp:{}:0", alice.id)).await;
        assert_eq!(back.callback_type(), Some(7));
    }
    let (call, sent) = press(&fake, &bob, page_msg, &entry).await;
    assert!(call.is_ephemeral(), "{call:?}");
    assert!(content(&call).starts_with(&format!("Record of game {game}")));
    let files = fake.files_of(&sent);
    let (name, kind, png) = &files[0];
    assert_eq!((name.as_str(), kind.as_str()), ("board.png", "image/png"));
    assert!(is_valid_png(png), "the final board is an image");
    let embed = sent["embeds"][0]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(
        embed.contains(&format!("{} resigned", loser.name)),
        "{embed}"
    );
    assert_eq!(record_of(&fake, &sent, &game), record);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_of_oneself_nobody_and_an_unknown_member() {
    let (fake, _dir, _bot) = start().await;
    let (dana, erlan) = (User::new(1401, "Dana"), User::new(1402, "Erlan"));
    let (call, page) = ask(&fake, &dana, "history", json!([]), &[]).await;
    assert_eq!(content(&call), "You have no finished games yet.");
    assert!(buttons(&page).is_empty());
    lose_to_the_bot(&fake, &dana, 1).await;
    let (call, page) = ask(&fake, &dana, "history", json!([]), &[]).await;
    let text = content(&call);
    assert!(text.starts_with("Your games, page 1:"), "{text}");
    assert_eq!(text.lines().count(), 2, "{text}");
    assert_eq!(buttons(&page).len(), 1, "one game, no other pages");
    // Someone who never played, and someone Discord did not resolve (a forged client).
    let erlan_opt = json!([{ "name": "player", "type": 6, "value": erlan.id.to_string() }]);
    let (call, _) = ask(
        &fake,
        &dana,
        "history",
        erlan_opt.clone(),
        std::slice::from_ref(&erlan),
    )
    .await;
    assert_eq!(content(&call), "Erlan has no finished games yet.");
    let (call, _) = ask(&fake, &dana, "history", erlan_opt, &[]).await;
    assert!(
        content(&call).contains("could not find that member"),
        "{call:?}"
    );
    // No game has ended in this channel: /record says so, with no file.
    let (call, sent) = ask(&fake, &erlan, "record", json!([]), &[]).await;
    assert!(
        content(&call).starts_with("No game has ended here"),
        "{call:?}"
    );
    assert!(fake.files_of(&sent).is_empty());
}
