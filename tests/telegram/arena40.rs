//! A new club's first arena at Telegram's real limits (issue 49): 40 players in one group,
//! everyone joining with the announcement's button and pressing a pit the moment their
//! board appears, the adapter at its shipped defaults (20 posts a minute in a group) and
//! the manager's clock running with real time. Before the fix most boards waited behind
//! the group's budget while their games' first-move time ran, and most games were lost.
//! Now the boards go to the players' private chats (the group gets one pairings message),
//! a player who never started the bot has the game's board in the group, and no game's
//! first move is due before its board has reached both players.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use toguz::manager::tournament::TournamentRecord;
use toguz::manager::{FinishReason, GameStatus, Player};
use toguz::testing::telegram::bot::{Board, TOKEN, WAIT};
use toguz::testing::telegram::inproc::InProcessBot;
use toguz::testing::telegram::{FakeTelegram, StoredMessage, TgChat, TgUser};

const GROUP: i64 = -100_940;
/// Players who never started the bot: their games' boards go to the group.
const NEVER_STARTED: usize = 4;
/// How long the first wave may take to get every first move in, in real time.
const FIRST_MOVES_WITHIN: Duration = Duration::from_secs(150);

struct Arena {
    bot: InProcessBot,
    fake: FakeTelegram,
    group: TgChat,
    players: Vec<TgUser>,
}

impl Arena {
    fn event(&self, id: &str) -> TournamentRecord {
        let (manager, id) = (self.bot.manager.clone(), id.to_string());
        self.bot
            .block_on(async move { manager.tournament(&id).await })
            .expect("the event")
    }

    fn player(&self, user: &toguz::model::UserRef) -> &TgUser {
        self.players
            .iter()
            .find(|p| p.id.to_string() == user.id)
            .expect("a player of the club")
    }

    /// The newest board of `game` that `who` can press at `ply`: in their private chat,
    /// else in the group.
    fn board_for(&self, who: &TgUser, game: &str, ply: u16) -> Option<(TgChat, StoredMessage)> {
        let private = TgChat::private(who);
        for chat in [private, self.group.clone()] {
            let found = self.fake.bot_messages(chat.id).into_iter().rev().find(|m| {
                Board::of(m).is_some_and(|b| b.game == game && b.ply == ply && !b.pits.is_empty())
            });
            if let Some(m) = found {
                return Some((chat, m));
            }
        }
        None
    }
}

/// Moves the manager's clock on with real time, a second a second, until dropped: the
/// first-move limits run as they would for a real club.
struct RealTime(Arc<AtomicBool>);

impl RealTime {
    fn start(clock: toguz::manager::Clock) -> RealTime {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        std::thread::spawn(move || {
            while !stopped.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(250));
                clock.advance_ms(250);
            }
        });
        RealTime(stop)
    }
}

impl Drop for RealTime {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[test]
fn forty_players_in_an_arena_at_real_limits_all_get_their_first_moves() {
    let fake = FakeTelegram::start(TOKEN);
    let bot = InProcessBot::start(&fake);
    let players: Vec<TgUser> = (0..40)
        .map(|i| TgUser::new(40_000 + i, &format!("P{i}"), &format!("p{i}_arena"), "en"))
        .collect();
    let club = Arena {
        bot,
        fake,
        group: TgChat::group(GROUP, "Arena club"),
        players,
    };
    // Most players have a private chat with the bot; the last few never started it.
    let started = club.players.len() - NEVER_STARTED;
    for p in &club.players[..started] {
        let chat = TgChat::private(p);
        let mark = club.fake.mark();
        club.fake.send_text(&chat, p, "/start");
        club.fake
            .wait_call(mark, WAIT, |c| {
                c.method == "sendMessage" && c.i64("chat_id") == Some(p.id)
            })
            .expect("the bot greets");
    }

    // The organiser announces a 10-minute 3+2 arena; everyone joins with the button.
    let mark = club.fake.mark();
    let organiser = &club.players[0];
    club.fake.send_text(
        &club.group,
        organiser,
        "/tournament new arena 10 3+2 in 1 minute",
    );
    let (_, call) = club
        .fake
        .wait_call(mark, WAIT, |c| {
            c.ok()
                && c.method == "sendMessage"
                && c.buttons().iter().any(|(_, d)| d.starts_with("1tj:"))
        })
        .expect("the announcement");
    let announcement = call.response["result"]["message_id"].as_i64().expect("id");
    let id = call
        .buttons()
        .iter()
        .find_map(|(_, d)| d.strip_prefix("1tj:").map(str::to_string))
        .expect("a Join button");
    let join = format!("1tj:{id}");
    let joined_at = club.fake.mark();
    for p in &club.players {
        let q = club.fake.press(&club.group, announcement, p, &join);
        let answer = club.fake.wait_answer(&q, WAIT).expect("press answered");
        let text = answer.str("text").unwrap_or_default();
        assert!(text.starts_with("You have joined."), "{text}");
        // Who has no private chat yet is sent there, where the boards will come.
        let link = answer.str("url");
        let never = !club.fake.chat_known(p.id);
        assert_eq!(link.is_some(), never, "{answer:#?}");
    }
    // Forty entries cost the group no message: the announcement's edit answers them.
    let replies = club.fake.calls()[joined_at..]
        .iter()
        .filter(|c| c.method == "sendMessage" && c.i64("chat_id") == Some(GROUP))
        .count();
    assert_eq!(replies, 0, "no group message per entry");
    assert_eq!(club.event(&id).entrants.len(), 40);

    // The start, with the clock running as for real from here on.
    let started_at = club.fake.mark();
    let _time = RealTime::start(club.bot.clock.clone());
    club.bot.advance(60);
    // The start and the first wave's pairing take a tick each (the manager's own ticker,
    // every 2 s, may be doing the same).
    let mut rec = club.event(&id);
    for _ in 0..100 {
        if rec.arena.len() == 20 && rec.arena.iter().all(|b| b.started) {
            break;
        }
        club.bot.advance(0);
        std::thread::sleep(Duration::from_millis(50));
        rec = club.event(&id);
    }
    let games: Vec<(String, [toguz::model::UserRef; 2])> = rec
        .arena
        .iter()
        .map(|b| {
            let person = |n: u32| match &rec.entrants[n as usize - 1].player {
                Player::Human(u) => u.clone(),
                other => panic!("{other:?} in a people's arena"),
            };
            (
                b.game.clone().expect("a game"),
                [person(b.white), person(b.black)],
            )
        })
        .collect();
    assert_eq!(games.len(), 20, "everyone paired in the first wave");

    // Every player presses a pit the moment their board appears: White, then Black.
    let begun = Instant::now();
    let mut pressed: HashSet<(String, u16)> = HashSet::new();
    let mut first_seen: HashMap<String, Duration> = HashMap::new();
    while pressed.len() < 2 * games.len() && begun.elapsed() < FIRST_MOVES_WITHIN {
        for (game, [white, black]) in &games {
            for (ply, who) in [(0u16, white), (1, black)] {
                if pressed.contains(&(game.clone(), ply)) {
                    continue;
                }
                let who = club.player(who);
                let Some((chat, message)) = club.board_for(who, game, ply) else {
                    continue;
                };
                first_seen.entry(game.clone()).or_insert(begun.elapsed());
                let board = Board::of(&message).expect("a board");
                let pit = board.pits[0].0;
                let data = format!("1m:{game}:{ply}:{pit}");
                let q = club.fake.press(&chat, message.message_id, who, &data);
                club.fake.wait_answer(&q, WAIT).expect("press answered");
                pressed.insert((game.clone(), ply));
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }

    // Every game got both first moves; none was lost to a board that came late.
    for (game, _) in &games {
        let view = {
            let (manager, game) = (club.bot.manager.clone(), game.clone());
            club.bot
                .block_on(async move { manager.game(&game).await })
                .expect("the game")
        };
        let missed = matches!(
            view.status,
            GameStatus::Finished {
                reason: FinishReason::FirstMoveMissed(_),
                ..
            }
        );
        assert!(
            !missed,
            "{game} lost to a missed first move: {:?}",
            view.status
        );
        if view.ply < 2 {
            let calls: Vec<String> = club
                .fake
                .calls()
                .iter()
                .filter(|c| {
                    let chat = c.i64("chat_id");
                    let theirs = view
                        .players
                        .iter()
                        .filter_map(Player::user)
                        .any(|u| chat.is_some_and(|id| id.to_string() == u.id));
                    theirs || chat == Some(GROUP)
                })
                .map(|c| {
                    let text = c.str("text").or_else(|| c.caption()).unwrap_or_default();
                    format!(
                        "{} {} {:?} {text:.80}",
                        c.method,
                        c.status,
                        c.i64("chat_id")
                    )
                })
                .collect();
            panic!(
                "{game} stopped at ply {}: {:?}, awaiting {:?}, messages {:?}\n{calls:#?}",
                view.ply, view.status, view.awaiting, view.messages
            );
        }
    }

    // Where the boards went: each reachable player's in their private chat; the group got
    // the boards of games with a player who never started the bot, and one pairings
    // message for the wave.
    let calls = club.fake.calls();
    let wave = &calls[started_at..];
    let group_boards = wave
        .iter()
        .filter(|c| c.ok() && c.method == "sendPhoto" && c.i64("chat_id") == Some(GROUP))
        .filter(|c| c.reply_markup().is_some())
        .count();
    assert!(
        (1..=NEVER_STARTED).contains(&group_boards),
        "boards in the group: {group_boards}"
    );
    let private_boards = wave
        .iter()
        .filter(|c| c.ok() && c.method == "sendPhoto")
        .filter(|c| c.i64("chat_id").is_some_and(|chat| chat > 0))
        .count();
    assert!(
        private_boards >= started,
        "private boards: {private_boards}"
    );
    // The pairings message waits its turn in the group's allowance (behind the boards of
    // the games played there): a minute at most.
    let is_pairings = |c: &toguz::testing::telegram::Call| {
        c.ok()
            && c.method == "sendMessage"
            && c.i64("chat_id") == Some(GROUP)
            && c.str("text")
                .is_some_and(|t| t.contains("private message from the bot"))
    };
    club.fake
        .wait_call(started_at, Duration::from_secs(60), is_pairings)
        .expect("the wave's pairings message");
    let pairings: Vec<String> = club.fake.calls()[started_at..]
        .iter()
        .filter(|c| is_pairings(c))
        .filter_map(|c| c.str("text"))
        .collect();
    assert_eq!(pairings.len(), 1, "one pairings message: {pairings:#?}");
    let listed = pairings[0].matches("Arena game: ").count();
    assert!(
        listed >= 16,
        "the games played privately are listed: {}",
        pairings[0]
    );
    let slowest = first_seen.values().max().copied().unwrap_or_default();
    println!(
        "40 players: {} boards privately, {group_boards} in the group; the last game's \
         first board seen after {slowest:?}",
        private_boards
    );
}
