//! History, ratings, leaderboards and records in Telegram, end to end (issue 16): two people
//! play a rated game to the end in a group; the final board shows the result and both
//! rating changes and has a Record button; `/leaderboard` and `/stats` show them; `/record`
//! uploads a file (sendDocument) whose text replays; `/history` pages with signed ◀ ▶
//! buttons, a forged page button is refused, and unknown users and games get clear answers.

use toguz::rules::{parse_record, replay};
use toguz::testing::telegram::bot::{wait_board, Board, BotProcess, TOKEN, WAIT};
use toguz::testing::telegram::{Call, FakeTelegram, TgChat, TgUser};
use toguz::testing::Lifted;

const GROUP: i64 = -100_616;
/// Room for the dozens of commands below (a user's per-minute allowance).
const ROOMY: &str = "commands_per_minute = 300\n";

/// Why the flood limits are lifted here.
fn lifted() -> Lifted {
    Lifted::because("a rated game, stats, leaderboards and history pages in one group: dozens of posts a minute; about records, not flood limits")
}

/// The next successful call of `method` after `mark`.
fn next_call(fake: &FakeTelegram, mark: usize, method: &str) -> Call {
    let (_, call) = fake
        .wait_call(mark, WAIT, |c| c.method == method && c.ok())
        .unwrap_or_else(|| panic!("no {method}"));
    call
}

/// The text of the next message the bot sends after `mark`.
fn next_text(fake: &FakeTelegram, mark: usize) -> String {
    next_call(fake, mark, "sendMessage")
        .str("text")
        .unwrap_or_default()
}

/// The uploaded document of a sendDocument call: (file name, text).
fn document_of(fake: &FakeTelegram, call: &Call) -> (String, String) {
    let chat = call.i64("chat_id").expect("chat");
    let id = call.response["result"]["message_id"].as_i64().expect("id");
    let stored = fake.message(chat, id).expect("stored");
    let (name, bytes) = stored.document.expect("a document");
    (name, String::from_utf8(bytes).expect("UTF-8 record"))
}

/// Alice challenges Bob by reply with `command` (rated by default), Bob accepts, they play
/// some plies and Alice resigns: the final board.
fn a_rated_game(
    fake: &FakeTelegram,
    group: &TgChat,
    (alice, bob): (&TgUser, &TgUser),
    command: &str,
) -> Board {
    let theirs = fake.send_text(group, bob, "A game?");
    let mark = fake.mark();
    fake.send_reply(group, alice, command, theirs);
    let (_, call) = fake
        .wait_call(mark, WAIT, |c| {
            c.method == "sendMessage"
                && c.ok()
                && c.buttons().iter().any(|(_, d)| d.starts_with("1ca:"))
        })
        .expect("challenge posted");
    let msg = call.response["result"]["message_id"].as_i64().expect("id");
    let accept = call
        .buttons()
        .into_iter()
        .find(|(_, d)| d.starts_with("1ca:"))
        .map(|(_, d)| d)
        .expect("accept");
    let q = fake.press(group, msg, bob, &accept);
    fake.wait_answer(&q, WAIT).expect("accepted");
    let mut board = wait_board(fake, GROUP, |b| {
        !b.pits.is_empty() && b.message.message_id > msg
    });
    for _ in 0..4 {
        let caption = board.caption().to_string();
        let mover = if caption.contains("to move: Alice") {
            alice
        } else {
            bob
        };
        let (pit, _) = board.pits[0].clone();
        let data = format!("1m:{}:{}:{pit}", board.game, board.ply);
        let q = fake.press(group, board.message.message_id, mover, &data);
        fake.wait_answer(&q, WAIT).expect("move answered");
        let ply = board.ply + 1;
        board = wait_board(fake, GROUP, |b| b.ply == ply && !b.pits.is_empty());
    }
    // Alice resigns by command: Bob wins.
    fake.send_text(group, alice, "/resign");
    wait_board(fake, GROUP, |b| b.game == board.game && b.is_over())
}

#[test]
fn a_blitz_game_is_rated_in_its_own_category() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let shown = "[limits]\nprovisional_on_leaderboards = true";
    let _bot = BotProcess::start_lifted(&fake, dir.path(), ROOMY, shown, lifted());
    let group = TgChat::group(GROUP, "Toguz club");
    let alice = TgUser::new(621, "Alice", "alice_b", "en");
    let bob = TgUser::new(622, "Bob", "bob_b", "en");
    let end = a_rated_game(&fake, &group, (&alice, &bob), "/challenge 3+2");
    assert!(
        end.caption().contains("Bob 1662? (+162)"),
        "{}",
        end.caption()
    );
    let mark = fake.mark();
    fake.send_text(&group, &bob, "/stats");
    let own = next_text(&fake, mark);
    assert!(own.contains("Blitz: rating 1662?"), "{own}");
    assert!(!own.contains("Correspondence"), "{own}");
    let mark = fake.mark();
    fake.send_text(&group, &alice, "/leaderboard");
    let board = next_text(&fake, mark);
    assert!(board.contains("Blitz:\n1. Bob — 1662?"), "{board}");
    assert!(!board.contains("Correspondence:"), "{board}");
    let mark = fake.mark();
    fake.send_text(&group, &alice, "/leaderboard correspondence");
    let corr = next_text(&fake, mark);
    assert!(corr.contains("Nobody here has played"), "{corr}");
}

#[test]
fn a_rated_game_shows_in_ratings_leaderboards_stats_records_and_history() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    // One game each: provisional ratings, listed only when the operator says so.
    let shown = "[limits]\nprovisional_on_leaderboards = true";
    let _bot = BotProcess::start_lifted(&fake, dir.path(), ROOMY, shown, lifted());
    let group = TgChat::group(GROUP, "Toguz club");
    let alice = TgUser::new(611, "Alice", "alice_h", "en");
    let bob = TgUser::new(612, "Bob", "bob_h", "en");

    let end = a_rated_game(&fake, &group, (&alice, &bob), "/challenge");
    let caption = end.caption();
    assert!(caption.contains("Alice resigned"), "{caption}");
    assert!(caption.contains("wins: Bob."), "{caption}");
    // Both start at 1500 (provisional): Bob goes up, Alice down by as much.
    assert!(caption.contains("Bob 1662? (+162)"), "{caption}");
    assert!(caption.contains("Alice 1338? (-162)"), "{caption}");
    let record_button = format!("1rc:{}", end.game);
    assert!(end.data.contains(&record_button), "{:?}", end.data);

    // The group's leaderboard: each category played (this game had no clock:
    // correspondence), Bob first, Alice second, the caller's own place.
    let mark = fake.mark();
    fake.send_text(&group, &alice, "/leaderboard");
    let board = next_text(&fake, mark);
    assert!(board.contains("Leaderboard of this chat"), "{board}");
    assert!(board.contains("Correspondence:"), "{board}");
    assert!(
        !board.contains("Blitz:") && !board.contains("Rapid:"),
        "{board}"
    );
    let bob_at = board.find("1. Bob — ").expect("Bob first");
    let alice_at = board.find("2. Alice — ").expect("Alice second");
    assert!(bob_at < alice_at && board.contains("· 1/0/0") && board.contains("· 0/0/1"));
    assert!(board.contains("Your place: 2"), "{board}");
    assert!(board.ends_with("/leaderboard blitz"), "{board}");
    // One category in full, by its name in any language.
    let mark = fake.mark();
    fake.send_text(&group, &alice, "/leaderboard заочные");
    let full = next_text(&fake, mark);
    assert!(full.contains("Correspondence:\nRating"), "{full}");
    assert!(
        full.contains("1. Bob — ") && full.contains("Your place: 2"),
        "{full}"
    );
    let mark = fake.mark();
    fake.send_text(&group, &alice, "/leaderboard blitz");
    let blitz = next_text(&fake, mark);
    assert!(blitz.contains("Blitz:\nNobody here has played"), "{blitz}");
    let mark = fake.mark();
    fake.send_text(&group, &alice, "/leaderboard bullet");
    let unknown = next_text(&fake, mark);
    assert!(unknown.contains("“bullet” is no leaderboard"), "{unknown}");
    // Global (everyone on Telegram): the same two.
    let mark = fake.mark();
    fake.send_text(&group, &bob, "/leaderboard global");
    let global = next_text(&fake, mark);
    assert!(global.contains("everyone on Telegram"), "{global}");
    assert!(global.contains("Your place: 1"), "{global}");

    // Stats: one's own, and someone else's by @username.
    let mark = fake.mark();
    fake.send_text(&group, &bob, "/stats");
    let own = next_text(&fake, mark);
    assert!(own.starts_with("Your results:"), "{own}");
    assert!(
        own.contains("Correspondence: rating 1662?, deviation 290; rated games: 1 (wins/draws/losses: 1/0/0)"),
        "{own}"
    );
    let mark = fake.mark();
    fake.send_text(&group, &bob, "/stats @alice_h");
    let hers = next_text(&fake, mark);
    assert!(hers.starts_with("Results of Alice:"), "{hers}");
    assert!(hers.contains("Correspondence: rating 1338?"), "{hers}");
    assert!(hers.contains("0/0/1"), "{hers}");
    let mark = fake.mark();
    fake.send_text(&group, &bob, "/stats @nobody_here");
    let unknown = next_text(&fake, mark);
    assert!(unknown.contains("haven't seen @nobody_here"), "{unknown}");

    // /record without an id: the chat's last finished game, as a document that replays,
    // with the move text in the message.
    let mark = fake.mark();
    fake.send_text(&group, &alice, "/record");
    let call = next_call(&fake, mark, "sendDocument");
    let (name, record_text) = document_of(&fake, &call);
    assert_eq!(name, format!("toguz-{}.pgn", end.game));
    let text = &record_text;
    assert!(
        text.contains("[White \"Alice\"]") || text.contains("[Black \"Alice\"]"),
        "{text}"
    );
    assert!(text.contains("[WhiteRating"), "{text}");
    let record = parse_record(text).expect("the record parses");
    let plies = replay(&record, record.start_position().expect("start")).expect("replays");
    assert_eq!(plies.len(), 4);
    let caption = call.caption().expect("the move text");
    assert!(
        caption.starts_with(&format!("Record of game {}", end.game)),
        "{caption}"
    );
    assert!(caption.contains("1."), "{caption}");
    // The Record button of the final board sends the same file.
    let mark = fake.mark();
    let q = fake.press(&group, end.message.message_id, &bob, &record_button);
    let answer = fake.wait_answer(&q, WAIT).expect("answered");
    assert_eq!(answer.str("show_alert"), None, "{answer:#?}");
    let again = next_call(&fake, mark, "sendDocument");
    assert_eq!(&document_of(&fake, &again).1, text);
    // An unknown game is answered plainly.
    let mark = fake.mark();
    fake.send_text(&group, &alice, "/record zz99zz");
    let unknown = next_text(&fake, mark);
    assert!(unknown.contains("no such game"), "{unknown}");

    // Alice plays the bot eight more times in private: nine games, two pages.
    let private = TgChat::private(&alice);
    for _ in 0..8 {
        fake.send_text(&private, &alice, "/play random");
        let board = wait_board(&fake, private.id, |b| !b.is_over());
        fake.send_text(&private, &alice, "/resign");
        wait_board(&fake, private.id, |b| b.game == board.game && b.is_over());
    }
    let mark = fake.mark();
    fake.send_text(&group, &bob, "/history @alice_h");
    let first = next_call(&fake, mark, "sendMessage");
    let text = first.str("text").unwrap_or_default();
    assert!(text.starts_with("Games of Alice, page 1:"), "{text}");
    assert_eq!(text.lines().count(), 9, "{text}");
    let buttons = first.buttons();
    assert_eq!(
        buttons
            .iter()
            .filter(|(_, d)| d.starts_with("1rc:"))
            .count(),
        8
    );
    let next = buttons
        .iter()
        .find(|(label, _)| label == "▶")
        .map(|(_, d)| d.clone())
        .expect("a next page");
    assert!(!buttons.iter().any(|(label, _)| label == "◀"));
    let page_msg = first.response["result"]["message_id"].as_i64().expect("id");
    let q = fake.press(&group, page_msg, &bob, &next);
    fake.wait_answer(&q, WAIT).expect("answered");
    let turned = fake.wait_until(WAIT, |v| {
        v.message(GROUP, page_msg)
            .and_then(|m| m.text.clone())
            .is_some_and(|t| t.starts_with("Games of Alice, page 2:"))
    });
    assert!(turned, "page 2 not shown");
    let page2 = fake.message(GROUP, page_msg).expect("page");
    let text2 = page2.text.clone().unwrap_or_default();
    // Nine games: eight on page 1, one on page 2. (Games that end within the same millisecond
    // are ordered by id, so which one is last here is not fixed.) The rated game is on one
    // of them with Alice's rating change.
    assert_eq!(text2.lines().count(), 2, "{text2}");
    let both = format!("{text}\n{text2}");
    let rated = both
        .lines()
        .find(|l| l.contains(&end.game))
        .expect("the rated game is in the history");
    assert!(rated.ends_with("lost, 1338? (-162)"), "{rated}");
    assert!(page2.buttons().iter().any(|(label, _)| label == "◀"));
    assert!(!page2.buttons().iter().any(|(label, _)| label == "▶"));

    // A forged page button (another page, the same tag) is refused; nothing changes.
    let forged = next.replacen(":1:", ":0:", 1);
    assert_ne!(forged, next);
    let mark = fake.mark();
    let q = fake.press(&group, page_msg, &bob, &forged);
    let answer = fake.wait_answer(&q, WAIT).expect("answered");
    assert_eq!(
        answer.str("show_alert").as_deref(),
        Some("true"),
        "{answer:#?}"
    );
    assert!(fake.calls()[mark..]
        .iter()
        .all(|c| !c.method.starts_with("edit")));

    // An entry's button: the game's final board and its record, posted here.
    let entry = format!("1rc:{}", end.game);
    let mark = fake.mark();
    let q = fake.press(&group, page_msg, &bob, &entry);
    fake.wait_answer(&q, WAIT).expect("answered");
    let board = next_call(&fake, mark, "sendPhoto");
    assert!(board
        .caption()
        .is_some_and(|c| c.contains("Alice resigned")));
    let doc = next_call(&fake, mark, "sendDocument");
    assert_eq!(document_of(&fake, &doc).1, record_text);
}

#[test]
fn an_unrated_challenge_changes_no_rating() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start_lifted(&fake, dir.path(), ROOMY, "", lifted());
    let group = TgChat::group(GROUP, "Toguz club");
    let asan = TgUser::new(621, "Asan", "asan_h", "ru");
    let bota = TgUser::new(622, "Bota", "bota_h", "kk");
    fake.send_text(&group, &bota, "Сәлем");
    let mark = fake.mark();
    fake.send_text(&group, &asan, "/challenge @bota_h товарищеская");
    let (_, call) = fake
        .wait_call(mark, WAIT, |c| {
            c.method == "sendMessage"
                && c.ok()
                && c.buttons().iter().any(|(_, d)| d.starts_with("1ca:"))
        })
        .expect("challenge posted");
    let text = call.str("text").unwrap_or_default();
    assert!(text.contains("Партия без рейтинга"), "{text}");
    let msg = call.response["result"]["message_id"].as_i64().expect("id");
    let accept = call
        .buttons()
        .into_iter()
        .find(|(_, d)| d.starts_with("1ca:"))
        .map(|(_, d)| d)
        .expect("accept");
    let q = fake.press(&group, msg, &bota, &accept);
    fake.wait_answer(&q, WAIT).expect("accepted");
    let board = wait_board(&fake, GROUP, |b| !b.pits.is_empty());
    fake.send_text(&group, &asan, "/resign");
    let end = wait_board(&fake, GROUP, |b| b.game == board.game && b.is_over());
    assert!(!end.caption().contains("1500"), "{}", end.caption());
    // Nobody is on the leaderboard; the answer is in Asan's language.
    let mark = fake.mark();
    fake.send_text(&group, &asan, "/leaderboard");
    let empty = next_text(&fake, mark);
    assert!(
        empty.contains("никто не играл рейтинговых партий"),
        "{empty}"
    );
}
