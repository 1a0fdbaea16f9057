//! The real bot (`toguz run`) against the fake Bot API: a private game against the bot
//! played to the end by button presses, the command menu, a restart mid-game.

use toguz::rules::{Position, Variant};
use toguz::testing::telegram::bot::{
    assert_all_callback_data_ours, assert_all_photos_png, wait_board, Board, BotProcess, TOKEN,
    WAIT,
};
use toguz::testing::telegram::{FakeTelegram, TgChat, TgUser};
use toguz::testing::Lifted;

/// Plays the game on the latest board of `chat` to its end with the first legal pit,
/// checking every keyboard against a position tracked from the presses and the captions.
pub(crate) fn play_to_end(
    fake: &FakeTelegram,
    chat: &TgChat,
    user: &TgUser,
    pos: &mut Position,
) -> Board {
    let mut presses = 0;
    loop {
        let ply = pos.ply();
        let board = wait_board(fake, chat.id, |b| {
            b.is_over() || (!b.pits.is_empty() && b.ply >= ply)
        });
        if board.is_over() {
            if !pos.is_over() {
                // The bot made the last move.
                let pit = board.last_move_pit().expect("last move in caption");
                pos.play(pit).expect("bot's last move is legal");
            }
            assert!(
                pos.is_over(),
                "finished board but the game goes on: {}",
                pos.to_fen()
            );
            assert!(presses > 5);
            return board;
        }
        if board.ply == ply + 1 {
            let pit = board.last_move_pit().expect("bot's move in caption");
            pos.play(pit).expect("bot's move is legal");
        }
        assert_eq!(board.ply, pos.ply(), "{}", board.caption());
        board.assert_pits_match(pos);
        let score = format!(
            "Kazans: {} : {}",
            pos.store(toguz::rules::Side::White),
            pos.store(toguz::rules::Side::Black)
        );
        assert!(
            board.caption().contains(&score),
            "{}\n{score}",
            board.caption()
        );
        let (pit, _) = board.pits[0].clone();
        let data = format!("1m:{}:{}:{pit}", board.game, board.ply);
        let q = fake.press(chat, board.message.message_id, user, &data);
        pos.play(pit).expect("our move is legal");
        presses += 1;
        let answer = fake.wait_answer(&q, WAIT).expect("press answered");
        assert_eq!(
            answer.str("show_alert"),
            None,
            "a legal move raises no alert"
        );
    }
}

#[test]
fn a_game_against_the_bot_is_played_to_the_end_by_buttons() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let lifted = Lifted::because("a whole game pressed back to back: about the game on buttons, not the chat's pace of one post a second");
    let _bot = BotProcess::start_lifted(&fake, dir.path(), "", "", lifted);
    let alice = TgUser::new(501, "Alice", "alice", "en");
    let chat = TgChat::private(&alice);

    fake.send_text(&chat, &alice, "/start");
    let (_, welcome) = fake
        .wait_call(0, WAIT, |c| c.method == "sendMessage" && c.ok())
        .expect("welcome");
    assert!(welcome.str("text").unwrap().contains("toguzqumalak"));
    // The command menu is registered in every language.
    let commands = fake.commands();
    for key in ["default/", "default/ru", "default/kk"] {
        assert!(commands.contains_key(key), "{key}: {commands:?}");
    }

    // /play without a level offers the levels.
    let mark = fake.mark();
    let play = fake.send_text(&chat, &alice, "/play");
    let (_, levels) = fake
        .wait_call(mark, WAIT, |c| {
            c.method == "sendMessage" && !c.buttons().is_empty()
        })
        .expect("level buttons");
    let data: Vec<String> = levels.buttons().into_iter().map(|(_, d)| d).collect();
    assert!(data.contains(&"1b:random".to_string()), "{data:?}");
    let levels_msg = levels.response["result"]["message_id"].as_i64().unwrap();
    assert!(levels_msg > play);
    fake.press(&chat, levels_msg, &alice, "1b:random");

    let mut pos = Position::start(Variant::default());
    let end = play_to_end(&fake, &chat, &alice, &mut pos);
    assert!(
        end.caption().contains("wins") || end.caption().contains("drawn"),
        "{}",
        end.caption()
    );
    assert!(
        end.data.iter().any(|d| d.starts_with("1rm:")),
        "rematch offered"
    );

    let calls = fake.calls();
    assert!(assert_all_photos_png(&calls) > 5);
    assert_all_callback_data_ours(&calls);
    // One board message, edited in place.
    let boards: Vec<_> = calls.iter().filter(|c| c.method == "sendPhoto").collect();
    assert_eq!(boards.len(), 1, "edit in place posts one board");
    assert!(
        calls
            .iter()
            .filter(|c| c.method == "editMessageMedia")
            .count()
            > 5
    );
    // Nothing the bot sent was refused, except harmless "not modified" edits.
    for c in &calls {
        let harmless = c.response["description"]
            .as_str()
            .is_some_and(|d| d.contains("not modified"));
        assert!(c.ok() || harmless || c.method == "getUpdates", "{c:#?}");
    }
}

#[test]
fn the_bot_restarted_mid_game_keeps_its_old_buttons_working() {
    let fake = FakeTelegram::start(TOKEN);
    let dir = tempfile::tempdir().unwrap();
    let mut bot = BotProcess::start(&fake, dir.path(), "", "");
    let bob = TgUser::new(502, "Bob", "bob", "en");
    let chat = TgChat::private(&bob);
    fake.send_text(&chat, &bob, "/play random");
    let board = wait_board(&fake, chat.id, |b| !b.pits.is_empty());
    bot.kill();

    // The same data dir, a new process; the old message's button still plays.
    let _bot = BotProcess::start(&fake, dir.path(), "", "");
    let (pit, _) = board.pits[0].clone();
    let data = format!("1m:{}:{}:{pit}", board.game, board.ply);
    let q = fake.press(&chat, board.message.message_id, &bob, &data);
    let answer = fake.wait_answer(&q, WAIT).expect("answered after restart");
    assert!(answer.str("text").is_none(), "{answer:#?}");
    let after = wait_board(&fake, chat.id, |b| b.ply >= board.ply + 2 || b.is_over());
    assert_eq!(
        after.message.message_id, board.message.message_id,
        "edited in place"
    );
    // Pressing the old board again is stale: a clear answer, and nothing changes.
    let q = fake.press(&chat, board.message.message_id, &bob, &data);
    let stale = fake.wait_answer(&q, WAIT).expect("stale press answered");
    assert!(
        stale.str("text").is_some_and(|t| !t.is_empty()),
        "{stale:#?}"
    );
}
