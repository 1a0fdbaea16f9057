//! Game history, ratings and leaderboards through the manager (issue 16): the rating change
//! lands with the game's end exactly once, bot games are counted per level, aborts change
//! nothing, history pages, leaderboards by scope, inactivity, records that replay.

use std::time::Duration;
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::history::PageAt;
use toguz::manager::history::{Leaderboard, INACTIVE_SECS};
use toguz::manager::{Action, ActionError, Clock, FinishReason, GameStatus, GameView, Manager};
use toguz::model::{Category, Level, Platform, TimeControl, UserRef};
use toguz::on_both_backends;
use toguz::ratings::keys::{board_key, Scope};
use toguz::ratings::{CategoryStats, LeaderRow, PlayerStats, Rating, Score};
use toguz::rules::{parse_record, replay, Side, Variant};
use toguz::store::{Store, StoreOptions, Tree};
use toguz::testing::manager::{
    act, challenge_id, chat, game, rated_challenge, reopen, user, Backend, T0,
};

async fn start(store: Store) -> (Manager, Clock) {
    let clock = Clock::manual(T0);
    let engine = EnginePool::new(EngineConfig::default());
    let m = Manager::start_with_clock(
        store,
        engine,
        toguz::testing::manager::test_config(),
        clock.clone(),
    )
    .await
    .unwrap();
    (m, clock)
}

async fn start_game(m: &Manager, a: &UserRef, b: &UserRef, rated: bool) -> GameView {
    let action = Action::Challenge {
        opponent: Some(b.clone()),
        variant: Variant::STANDARD,
        rated,
        time: None,
    };
    let id = challenge_id(act(m, a, action).await);
    game(act(m, b, Action::AcceptChallenge { challenge: id }).await)
}

/// Both players make one move each (so the game cannot be aborted), then `loser` resigns.
async fn play_and_resign(
    m: &Manager,
    v: &GameView,
    loser: &UserRef,
) -> Result<GameView, ActionError> {
    one_move_each(m, v, loser).await;
    resign(m, v, loser).await
}

/// Both players make one move each, whoever starts.
async fn one_move_each(m: &Manager, v: &GameView, viewer: &UserRef) {
    for _ in 0..2 {
        let show = Action::Show {
            game: Some(v.id.clone()),
        };
        let shown = game(act(m, viewer, show).await);
        let mover = shown
            .to_move_player()
            .and_then(|p| p.user())
            .unwrap()
            .clone();
        let pit = shown.position.legal_moves().iter().next().unwrap();
        let action = Action::Move {
            game: v.id.clone(),
            ply: None,
            pit,
        };
        game(act(m, &mover, action).await);
    }
}

async fn resign(m: &Manager, v: &GameView, loser: &UserRef) -> Result<GameView, ActionError> {
    let resign = Action::Resign {
        game: Some(v.id.clone()),
        ply: None,
    };
    act(m, loser, resign).await.map(|r| game(Ok(r)))
}

/// Games started without a time control are correspondence games (the chat's default).
const CORR: Category = Category::Correspondence;

fn corr(stats: &PlayerStats) -> &CategoryStats {
    stats.category(CORR).expect("a correspondence rating")
}

/// `who`'s correspondence results, read from the store.
async fn corr_results(m: &Manager, who: &UserRef) -> toguz::ratings::Wdl {
    let stats = m.stats(who).await.unwrap().expect("stats");
    corr(&stats).results
}

fn chat_scope() -> Scope {
    Scope::Chat(chat())
}

on_both_backends! {
    single: [
        a_rated_game_moves_both_ratings_and_shows_everywhere,
        bot_games_are_unrated_and_counted_per_level,
        an_aborted_game_changes_nothing_and_a_casual_one_no_rating,
        players_inactive_for_90_days_leave_the_leaderboard,
        history_pages_run_newest_first,
        ratings_are_kept_per_time_category,
        ratings_stored_before_categories_read_as_correspondence,
        an_end_before_both_sides_moved_has_no_result,
        a_first_move_missed_or_a_move_time_run_out_at_the_start_has_no_result,
        provisional_players_stay_off_the_leaderboards,
        turning_provisional_players_on_lists_those_who_played_before,
    ],
    multi: [],
}

async fn a_rated_game_moves_both_ratings_and_shows_everywhere(backend: Backend) {
    let (a, b) = (user("a"), user("b"));
    let id = {
        let (m, _) = start(backend.open().await).await;
        let v = start_game(&m, &a, &b, true).await;
        assert!(v.rated);
        let end = play_and_resign(&m, &v, &b).await.unwrap();
        let (sa, sb) = (end.side_of(&a).unwrap(), end.side_of(&b).unwrap());
        let ca = end.ratings[sa.index()].expect("a's change on the final board");
        let cb = end.ratings[sb.index()].expect("b's change");
        assert_eq!(
            (ca.after.rating.round(), cb.after.rating.round()),
            (1662.0, 1338.0)
        );
        assert_eq!(ca.delta(), 162);
        let caption = toguz::platform::present::caption(&end, toguz::i18n::Lang::En);
        assert!(
            caption.contains("Ratings: User a 1662? (+162), User b 1338? (-162)")
                || caption.contains("Ratings: User b 1338? (-162), User a 1662? (+162)"),
            "{caption}"
        );
        v.id
    };
    // Everything is durable: read it back after a restart.
    let (m, _) = start(backend.open().await).await;
    let stats = m.stats(&a).await.unwrap().unwrap();
    assert_eq!(
        (
            corr(&stats).results.wins,
            stats.rated_games(),
            stats.best_streak
        ),
        (1, 1, 1)
    );
    assert_eq!(corr(&stats).rating.rating.round(), 1662.0);
    let lost = m.stats(&b).await.unwrap().unwrap();
    assert_eq!((corr(&lost).results.losses, lost.streak), (1, 0));
    for scope in [chat_scope(), Scope::Platform(Platform::Telegram)] {
        let board = m.leaderboard(scope.clone(), CORR, Some(&b)).await.unwrap();
        let names: Vec<&str> = board
            .top
            .iter()
            .map(|(_, r)| r.user.name.as_str())
            .collect();
        assert_eq!(names, ["User a", "User b"], "{scope:?}");
        assert_eq!(board.caller.as_ref().map(|(place, _)| *place), Some(2));
    }
    assert!(m
        .leaderboard(Scope::Platform(Platform::Discord), CORR, None)
        .await
        .unwrap()
        .top
        .is_empty());
    let other_chat = Scope::Chat(toguz::model::ChatRef::new(Platform::Telegram, "-200"));
    assert!(m
        .leaderboard(other_chat, CORR, Some(&a))
        .await
        .unwrap()
        .caller
        .is_none());
    // History of each player, and a record that replays with its headers.
    for who in [&a, &b] {
        let page = m.history(who, &PageAt::Newest, 0).await.unwrap();
        assert_eq!(page.entries.len(), 1);
        assert_eq!(page.entries[0].game, id);
        assert!(page.entries[0].rated && !page.more);
    }
    let file = m.record(&id).await.unwrap();
    assert!(
        file.text.contains("[Termination \"resignation\"]"),
        "{}",
        file.text
    );
    assert!(
        file.text.contains("[WhiteRating \"1500\"]"),
        "{}",
        file.text
    );
    let record = parse_record(&file.text).unwrap();
    assert_eq!(
        replay(&record, record.start_position().unwrap())
            .unwrap()
            .len(),
        2
    );
    assert!(matches!(
        m.record("nosuch").await,
        Err(ActionError::NoSuchGame)
    ));
}

async fn bot_games_are_unrated_and_counted_per_level(backend: Backend) {
    let (m, clock) = start(backend.open().await).await;
    let a = user("a");
    for level in [Level::Easy, Level::Easy, Level::Hard] {
        let play = Action::PlayBot {
            level,
            variant: Variant::STANDARD,
            colour: Some(Side::White),
            time: None,
        };
        let v = game(act(&m, &a, play).await);
        assert!(!v.rated);
        let end = game(
            act(
                &m,
                &a,
                Action::Resign {
                    game: Some(v.id),
                    ply: None,
                },
            )
            .await,
        );
        assert_eq!(*end.ratings, [None, None]);
        clock.advance(1);
    }
    let stats = m.stats(&a).await.unwrap().unwrap();
    assert_eq!(stats.against(Level::Easy).losses, 2);
    assert_eq!(stats.against(Level::Hard).losses, 1);
    assert_eq!((stats.rated_games(), stats.games()), (0, 3));
    assert!(stats.categories.is_empty());
    assert!(m
        .leaderboard(chat_scope(), CORR, Some(&a))
        .await
        .unwrap()
        .top
        .is_empty());
    assert_eq!(
        m.history(&a, &PageAt::Newest, 0)
            .await
            .unwrap()
            .entries
            .len(),
        3
    );
}

async fn an_aborted_game_changes_nothing_and_a_casual_one_no_rating(backend: Backend) {
    let (m, _) = start(backend.open().await).await;
    let (a, b) = (user("a"), user("b"));
    let v = start_game(&m, &a, &b, true).await;
    let end = game(act(&m, &a, Action::Abort { game: v.id.clone() }).await);
    assert_eq!(*end.ratings, [None, None]);
    assert!(m.stats(&a).await.unwrap().is_none() && m.stats(&b).await.unwrap().is_none());
    let page = m.history(&a, &PageAt::Newest, 0).await.unwrap();
    assert!(matches!(
        page.entries[0].status,
        GameStatus::Finished { .. }
    ));
    assert!(m
        .record(&v.id)
        .await
        .unwrap()
        .text
        .contains("[Termination \"aborted\"]"));

    let casual = start_game(&m, &a, &b, false).await;
    assert!(!casual.rated);
    let end = play_and_resign(&m, &casual, &a).await.unwrap();
    assert_eq!(*end.ratings, [None, None]);
    let stats = m.stats(&b).await.unwrap().unwrap();
    assert_eq!((stats.casual.wins, stats.rated_games()), (1, 0));
    assert!(stats.categories.is_empty());
    assert!(m
        .leaderboard(chat_scope(), CORR, None)
        .await
        .unwrap()
        .top
        .is_empty());
}

/// A game's end whose write times out is undone whole: the game goes on and no rating
/// moved; ending it again counts it exactly once.
#[tokio::test]
async fn a_failed_end_write_counts_nothing_and_the_retry_counts_once() {
    let options = StoreOptions {
        commit_timeout: Duration::from_millis(300),
        ..StoreOptions::default()
    };
    let (store, disk) = Store::faulty(None, &options).unwrap();
    let (m, _) = start(store.clone()).await;
    let (a, b) = (user("a"), user("b"));
    let v = start_game(&m, &a, &b, true).await;
    disk.set_delay(Duration::from_millis(1000));
    let err = play_and_resign_slow(&m, &v, &b, &disk).await;
    assert!(matches!(err, Err(ActionError::StoreAway(_))), "{err:?}");
    assert!(m.stats(&a).await.unwrap().is_none());
    assert_eq!(store.count(Tree::Leaderboard).await.unwrap(), 0);
    assert_eq!(store.count(Tree::History).await.unwrap(), 0);
    assert!(store.contains(Tree::Games, &v.id).await.unwrap());
    disk.set_delay(Duration::ZERO);
    // Let the slow flush finish before the retry.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let end = resign(&m, &v, &b).await.unwrap();
    assert!(end.ratings.iter().all(Option::is_some));
    assert_eq!(m.stats(&a).await.unwrap().unwrap().rated_games(), 1);
    assert_eq!(m.stats(&b).await.unwrap().unwrap().rated_games(), 1);
    assert_eq!(store.count(Tree::History).await.unwrap(), 2);
    // One row per player in the chat's board and the platform's.
    assert_eq!(store.count(Tree::Leaderboard).await.unwrap(), 4);
}

/// As `play_and_resign`, with a quick disk for the moves and a slow one (1 s a flush) for
/// the resignation.
async fn play_and_resign_slow(
    m: &Manager,
    v: &GameView,
    loser: &UserRef,
    disk: &toguz::store::FaultyFlusher,
) -> Result<GameView, ActionError> {
    disk.set_delay(Duration::ZERO);
    one_move_each(m, v, loser).await;
    disk.set_delay(Duration::from_millis(1000));
    resign(m, v, loser).await
}

/// A crash while the end is being written (the disk fails, the process goes): after the
/// restart the game has either ended with its ratings or not ended with none, never one
/// without the other; ending it then counts it once.
#[tokio::test]
async fn a_crash_during_the_end_write_never_splits_game_and_rating() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (user("a"), user("b"));
    let id = {
        let (store, disk) = Store::faulty(Some(dir.path()), &StoreOptions::default()).unwrap();
        let (m, _) = start(store).await;
        let v = start_game(&m, &a, &b, true).await;
        disk.set_delay(Duration::ZERO);
        for _ in 0..2 {
            let shown = game(
                act(
                    &m,
                    &a,
                    Action::Show {
                        game: Some(v.id.clone()),
                    },
                )
                .await,
            );
            let mover = shown
                .to_move_player()
                .and_then(|p| p.user())
                .unwrap()
                .clone();
            let pit = shown.position.legal_moves().iter().next().unwrap();
            game(
                act(
                    &m,
                    &mover,
                    Action::Move {
                        game: v.id.clone(),
                        ply: None,
                        pit,
                    },
                )
                .await,
            );
        }
        disk.set_failing(true);
        let resign = Action::Resign {
            game: Some(v.id.clone()),
            ply: None,
        };
        assert!(act(&m, &b, resign).await.is_err());
        v.id
    };
    let store = reopen(dir.path()).await;
    let archived = store.contains(Tree::Archive, &id).await.unwrap();
    let counted = store.contains(Tree::Ratings, &a.key()).await.unwrap();
    assert_eq!(
        archived, counted,
        "the game's end and its rating land together"
    );
    assert_eq!(
        store.count(Tree::History).await.unwrap(),
        if archived { 2 } else { 0 }
    );
    let (m, _) = start(store.clone()).await;
    if !archived {
        let resign = Action::Resign {
            game: Some(id.clone()),
            ply: None,
        };
        game(act(&m, &b, resign).await);
    }
    assert_eq!(corr_results(&m, &a).await.wins, 1);
    assert_eq!(corr_results(&m, &b).await.losses, 1);
    assert_eq!(store.count(Tree::History).await.unwrap(), 2);
}

async fn players_inactive_for_90_days_leave_the_leaderboard(backend: Backend) {
    let (m, clock) = start(backend.open().await).await;
    let (a, b, c) = (user("a"), user("b"), user("c"));
    let v = start_game(&m, &a, &b, true).await;
    play_and_resign(&m, &v, &b).await.unwrap();
    clock.advance(INACTIVE_SECS / 2);
    let v = start_game(&m, &c, &b, true).await;
    play_and_resign(&m, &v, &c).await.unwrap();
    let board = m.leaderboard(chat_scope(), CORR, Some(&c)).await.unwrap();
    assert_eq!(board.top.len(), 3);
    assert_eq!(board.caller.as_ref().map(|(p, _)| *p), Some(3));
    // a's last rated game is now 90 days old; b and c played 45 days ago.
    clock.advance(INACTIVE_SECS / 2);
    let board = m.leaderboard(chat_scope(), CORR, Some(&a)).await.unwrap();
    let names: Vec<&str> = board
        .top
        .iter()
        .map(|(_, r)| r.user.name.as_str())
        .collect();
    assert_eq!(names.len(), 2);
    assert!(
        !names.contains(&"User a") && board.caller.is_none(),
        "{names:?}"
    );
    // The sweep deletes the expired rows from the index itself.
    m.sweep().await;
    let rows: Vec<(String, toguz::ratings::LeaderRow)> = Store::scan(
        &m_store(&m),
        Tree::Leaderboard,
        toguz::store::KeyRange::prefix(""),
        100,
    )
    .await
    .unwrap();
    assert!(rows.iter().all(|(_, r)| r.user != a), "{rows:?}");
    // Stats stay.
    assert_eq!(corr_results(&m, &a).await.wins, 1);
}

fn m_store(m: &Manager) -> Store {
    m.store().clone()
}

async fn history_pages_run_newest_first(backend: Backend) {
    let (m, clock) = start(backend.open().await).await;
    let a = user("a");
    let mut ids = Vec::new();
    for _ in 0..11 {
        let play = Action::PlayBot {
            level: Level::Random,
            variant: Variant::STANDARD,
            colour: Some(Side::White),
            time: None,
        };
        let v = game(act(&m, &a, play).await);
        game(
            act(
                &m,
                &a,
                Action::Resign {
                    game: Some(v.id.clone()),
                    ply: None,
                },
            )
            .await,
        );
        ids.push(v.id);
        // Within one second: the order must come from the end time, not the random ids.
        clock.advance_ms(40);
    }
    ids.reverse();
    // Pages are read by key (issue 31, item 12): the next page starts after the last game
    // shown, the page before ends before the first.
    let first = m.history(&a, &PageAt::Newest, 0).await.unwrap();
    assert!(first.more && first.newer.is_none());
    let older = PageAt::OlderThan(first.older.clone().expect("a next page"));
    let second = m.history(&a, &older, 1).await.unwrap();
    assert!(!second.more && second.older.is_none());
    let shown: Vec<String> = first
        .entries
        .iter()
        .chain(&second.entries)
        .map(|e| e.game.clone())
        .collect();
    assert_eq!(shown, ids);
    let newer = PageAt::NewerThan(second.newer.clone().expect("a page before"));
    let back = m.history(&a, &newer, 0).await.unwrap();
    assert_eq!(back.entries, first.entries, "back to the first page");
    assert!(back.newer.is_none() && back.older == first.older);
    assert!(m
        .history(&user("nobody"), &PageAt::Newest, 0)
        .await
        .unwrap()
        .entries
        .is_empty());
    assert_eq!(
        toguz::manager::history::score_of(&first.entries[0].status, first.entries[0].side),
        Some(Score::Loss)
    );
}

/// The delta of `who`'s rating in a finished game.
fn delta_of(end: &GameView, who: &UserRef) -> i64 {
    let side = end.side_of(who).unwrap();
    end.ratings[side.index()].expect("a rated game").delta()
}

fn names(board: &Leaderboard) -> Vec<String> {
    board.top.iter().map(|(_, r)| r.user.name.clone()).collect()
}

async fn ratings_are_kept_per_time_category(backend: Backend) {
    let (m, _) = start(backend.open().await).await;
    let (a, b) = (user("a"), user("b"));
    // a wins a blitz game (3+2), then loses a correspondence one: each starts from 1500.
    let blitz = Some(TimeControl::fischer(3, 2));
    let id = challenge_id(act(&m, &a, rated_challenge(&b, blitz)).await);
    let v = game(act(&m, &b, Action::AcceptChallenge { challenge: id }).await);
    let end = play_and_resign(&m, &v, &b).await.unwrap();
    assert_eq!(delta_of(&end, &a), 162);
    let v = start_game(&m, &a, &b, true).await;
    let end = play_and_resign(&m, &v, &a).await.unwrap();
    assert_eq!(delta_of(&end, &a), -162, "not from a's blitz rating");
    let stats = m.stats(&a).await.unwrap().unwrap();
    let shown: Vec<(Category, i64, u32)> = stats
        .categories
        .iter()
        .map(|c| {
            (
                c.category,
                c.rating.rating.round() as i64,
                c.results.games(),
            )
        })
        .collect();
    assert_eq!(shown, [(Category::Blitz, 1662, 1), (CORR, 1338, 1)]);
    for scope in [chat_scope(), Scope::Platform(Platform::Telegram)] {
        let blitz = m.leaderboard(scope.clone(), Category::Blitz, Some(&a));
        let blitz = blitz.await.unwrap();
        assert_eq!(names(&blitz), ["User a", "User b"], "{scope:?}");
        assert_eq!(blitz.top[0].1.rating.rating.round(), 1662.0);
        let corr = m.leaderboard(scope.clone(), CORR, Some(&a)).await.unwrap();
        assert_eq!(names(&corr), ["User b", "User a"], "{scope:?}");
        assert_eq!(corr.caller.as_ref().map(|(p, _)| *p), Some(2));
        let rapid = m.leaderboard(scope.clone(), Category::Rapid, Some(&a));
        let rapid = rapid.await.unwrap();
        assert!(rapid.top.is_empty() && rapid.caller.is_none());
        let all = m.leaderboards(scope, Some(&a)).await.unwrap();
        let tops: Vec<(Category, usize)> = all.iter().map(|b| (b.category, b.top.len())).collect();
        assert_eq!(
            tops,
            [(Category::Blitz, 2), (Category::Rapid, 0), (CORR, 2)]
        );
    }
    // A rapid game (10+0) adds a third rating; every player has one row per category and
    // scope, however many games moved it.
    let rapid = Some(TimeControl::fischer(10, 0));
    let id = challenge_id(act(&m, &b, rated_challenge(&a, rapid)).await);
    let v = game(act(&m, &a, Action::AcceptChallenge { challenge: id }).await);
    play_and_resign(&m, &v, &b).await.unwrap();
    let stats = m.stats(&b).await.unwrap().unwrap();
    assert_eq!(stats.rated_games(), 3);
    assert_eq!(stats.category(Category::Rapid).unwrap().results.losses, 1);
    let rows = m.store().count(Tree::Leaderboard).await.unwrap();
    assert_eq!(rows, 2 * 3 * 2, "2 players, 3 categories, 2 scopes");
}

/// A database written before ratings were split per category: a player's one rating (and
/// its leaderboard rows under the bare scope keys) reads as their correspondence rating, and
/// their next correspondence game moves those same rows.
async fn ratings_stored_before_categories_read_as_correspondence(backend: Backend) {
    let store = backend.open().await;
    let (a, b) = (user("a"), user("b"));
    let old = Rating {
        rating: 1700.0,
        deviation: 80.0,
        volatility: 0.06,
    };
    let scopes = ["telegram", "telegram:-100"];
    let legacy = serde_json::json!({
        "user": a,
        "rating": old,
        "rated": {"wins": 5, "draws": 0, "losses": 1},
        "casual": {"wins": 0, "draws": 0, "losses": 0},
        "bots": [],
        "streak": 0,
        "best_streak": 2,
        "last_played": T0,
        "last_rated": T0,
        "scopes": scopes,
    });
    store.put(Tree::Ratings, &a.key(), &legacy).await.unwrap();
    let row = LeaderRow {
        user: a.clone(),
        rating: old,
        games: 6,
        wins: 5,
        draws: 0,
        losses: 1,
        last_rated: T0,
    };
    for scope in scopes {
        let key = board_key(scope, old.rating, &a.key());
        store.put(Tree::Leaderboard, &key, &row).await.unwrap();
    }
    let (m, _) = start(store).await;
    let board = m.leaderboard(chat_scope(), CORR, Some(&a)).await.unwrap();
    assert_eq!(names(&board), ["User a"]);
    assert_eq!(board.caller.as_ref().map(|(p, _)| *p), Some(1));
    assert_eq!(corr(&m.stats(&a).await.unwrap().unwrap()).results.wins, 5);
    // a loses a correspondence game to b: the old rows move, none is left behind.
    let v = start_game(&m, &a, &b, true).await;
    let end = play_and_resign(&m, &v, &a).await.unwrap();
    assert!(delta_of(&end, &a) < 0);
    let board = m.leaderboard(chat_scope(), CORR, Some(&a)).await.unwrap();
    assert_eq!(board.top.len(), 2, "{:?}", names(&board));
    let (_, row) = board.caller.as_ref().expect("a is on the board");
    assert!(row.rating.rating < 1700.0 && row.losses == 2, "{row:?}");
    let rows = m.store().count(Tree::Leaderboard).await.unwrap();
    assert_eq!(rows, 4, "one row per player and scope");
}

/// Neither a rating nor stats, and a record with result `*`: what a game without result
/// (issue 31, item 1) leaves behind.
async fn assert_no_result(m: &Manager, v: &GameView, players: [&UserRef; 2]) {
    let end = game(
        act(
            m,
            players[0],
            Action::Show {
                game: Some(v.id.clone()),
            },
        )
        .await,
    );
    assert!(
        matches!(
            end.status,
            GameStatus::Finished {
                winner: None,
                reason: FinishReason::Aborted | FinishReason::FirstMoveMissed(_)
            }
        ),
        "{:?}",
        end.status
    );
    assert_eq!(*end.ratings, [None, None]);
    for who in players {
        assert_eq!(m.stats(who).await.unwrap(), None, "{}", who.id);
    }
    let record = m.record(&v.id).await.unwrap().text;
    assert!(record.contains("[Result \"*\"]"), "{record}");
    assert!(record.contains("[Termination \"aborted\"]"), "{record}");
    for category in Category::ALL {
        let board = m.leaderboard(chat_scope(), category, None).await.unwrap();
        assert!(board.top.is_empty(), "{board:?}");
    }
}

/// The side to move in `v` now, and its user.
async fn mover(m: &Manager, v: &GameView, viewer: &UserRef) -> (GameView, UserRef) {
    let show = Action::Show {
        game: Some(v.id.clone()),
    };
    let shown = game(act(m, viewer, show).await);
    let user = shown
        .to_move_player()
        .and_then(|p| p.user())
        .unwrap()
        .clone();
    (shown, user)
}

/// Issue 31, item 1: a resignation at ply 0, a draw agreed at ply 1 and a resignation at
/// ply 1 in rated games between people end them without result.
async fn an_end_before_both_sides_moved_has_no_result(backend: Backend) {
    let (m, _) = start(backend.open().await).await;
    let (a, b) = (user("a"), user("b"));
    // Resigned before any move (today: a rated loss).
    let v = start_game(&m, &a, &b, true).await;
    let (_, white) = mover(&m, &v, &a).await;
    resign(&m, &v, &white).await.unwrap();
    assert_no_result(&m, &v, [&a, &b]).await;
    // One move, then a draw offered and accepted.
    let v = start_game(&m, &a, &b, true).await;
    let (shown, white) = mover(&m, &v, &a).await;
    let pit = shown.position.legal_moves().iter().next().unwrap();
    let action = Action::Move {
        game: v.id.clone(),
        ply: None,
        pit,
    };
    game(act(&m, &white, action).await);
    let black = if white == a { b.clone() } else { a.clone() };
    let offer = Action::OfferDraw {
        game: Some(v.id.clone()),
        ply: None,
    };
    game(act(&m, &white, offer).await);
    game(act(&m, &black, Action::AcceptDraw { game: v.id.clone() }).await);
    assert_no_result(&m, &v, [&a, &b]).await;
    // One move, then the side that has not moved resigns.
    let v = start_game(&m, &a, &b, true).await;
    let (shown, white) = mover(&m, &v, &a).await;
    let pit = shown.position.legal_moves().iter().next().unwrap();
    let action = Action::Move {
        game: v.id.clone(),
        ply: None,
        pit,
    };
    game(act(&m, &white, action).await);
    let black = if white == a { b.clone() } else { a.clone() };
    resign(&m, &v, &black).await.unwrap();
    assert_no_result(&m, &v, [&a, &b]).await;
    // Once both have moved, a resignation counts as before (another pair: a and b have
    // had their three rated games of the day).
    let c = user("c");
    let v = start_game(&m, &a, &c, true).await;
    play_and_resign(&m, &v, &a).await.unwrap();
    assert_eq!(corr_results(&m, &c).await.wins, 1);
}

/// Issue 31, item 1: a timed game whose first move is not made in time, and a
/// correspondence game whose move time runs out at ply 0 or 1, end without result (today:
/// a rated draw, and a rated loss).
async fn a_first_move_missed_or_a_move_time_run_out_at_the_start_has_no_result(backend: Backend) {
    let (m, clock) = start(backend.open().await).await;
    let (a, b) = (user("a"), user("b"));
    let mut events = m.subscribe();
    let time = Some(TimeControl::parse("3+0").unwrap());
    let id = challenge_id(act(&m, &a, rated_challenge(&b, time)).await);
    let v = game(act(&m, &b, Action::AcceptChallenge { challenge: id }).await);
    clock.advance(toguz::testing::manager::test_config().clock.first_move_secs + 1);
    let wait = async {
        loop {
            if let Ok(toguz::manager::Event::Game(g)) = events.recv().await {
                if g.id == v.id && g.is_over() {
                    return g;
                }
            }
        }
    };
    let ended = tokio::time::timeout(Duration::from_secs(10), wait)
        .await
        .expect("the first move's limit ends the game");
    assert!(matches!(
        ended.status,
        GameStatus::Finished {
            reason: FinishReason::FirstMoveMissed(_),
            ..
        }
    ));
    assert_no_result(&m, &v, [&a, &b]).await;
    // Correspondence: the move time runs out before any move, then after one move.
    let timeout = toguz::testing::manager::test_config()
        .limits
        .move_timeout_secs();
    for moves in 0..2 {
        let v = start_game(&m, &a, &b, true).await;
        if moves == 1 {
            let (shown, white) = mover(&m, &v, &a).await;
            let pit = shown.position.legal_moves().iter().next().unwrap();
            let action = Action::Move {
                game: v.id.clone(),
                ply: None,
                pit,
            };
            game(act(&m, &white, action).await);
        }
        clock.advance(timeout + 1);
        m.sweep().await;
        assert_no_result(&m, &v, [&a, &b]).await;
    }
}

/// Issue 31, item 2: with the default settings a player whose rating is still provisional
/// (deviation over 110) is on no leaderboard and has no place there, while /stats shows the
/// rating with its `?`; once enough rated games bring the deviation down, the player is on.
/// Before, a fresh account that had won one game was listed (and could top the board).
async fn provisional_players_stay_off_the_leaderboards(backend: Backend) {
    let clock = Clock::manual(T0);
    let engine = EnginePool::new(EngineConfig::default());
    let config = toguz::manager::ManagerConfig::default();
    assert!(!config.limits.provisional_on_leaderboards);
    let m = Manager::start_with_clock(backend.open().await, engine, config, clock)
        .await
        .unwrap();
    let a = user("steady");
    let scope = Scope::Platform(Platform::Telegram);
    let mut games = 0;
    loop {
        let fresh = user(&format!("fresh{games}"));
        let v = start_game(&m, &a, &fresh, true).await;
        // Half won, half lost: each game against an equal tells the most.
        let loser = if games % 2 == 0 { &fresh } else { &a };
        play_and_resign(&m, &v, loser).await.unwrap();
        games += 1;
        let stats = m.stats(&a).await.unwrap().expect("a's stats");
        let rating = stats.category(CORR).expect("rated").rating;
        let board = m.leaderboard(scope.clone(), CORR, Some(&a)).await.unwrap();
        // The fresh accounts (one game each) are never listed.
        assert!(
            board.top.iter().all(|(_, r)| r.user == a),
            "a provisional player is listed: {:?}",
            board.top
        );
        if rating.is_provisional() {
            assert!(board.top.is_empty(), "game {games}: {:?}", board.top);
            // Not listed, but counted: every fresh account, and a.
            assert_eq!(board.pending, games + 1, "game {games}");
            assert_eq!(
                board.caller, None,
                "game {games}: a place while provisional"
            );
            assert!(board.caller_provisional, "game {games}");
            let shown = toguz::platform::present::history_text::leaderboard_text(
                std::slice::from_ref(&board),
                toguz::platform::present::history_text::BoardsShown::One,
                toguz::i18n::Lang::En,
            );
            assert!(shown.contains("still provisional"), "{shown}");
            assert!(!shown.contains("Nobody here"), "{shown}");
            let players = format!(": {} players.", games + 1);
            assert!(shown.contains(&players), "{shown}");
            let text = toguz::platform::present::history_text::stats_text(
                None,
                Some(&stats),
                toguz::i18n::Lang::En,
            );
            assert!(text.contains('?'), "{text}");
        } else {
            assert_eq!(board.top.len(), 1, "game {games}");
            assert_eq!(board.pending, games, "the fresh accounts");
            assert_eq!(board.caller.map(|(place, _)| place), Some(1));
            assert!(!board.caller_provisional);
            break;
        }
        assert!(games < 40, "the deviation never came down: {rating:?}");
    }
}

/// Issue 49: ratings stored while provisional players got no rows (the option off, as by
/// default) are listed once the option is on, without anyone playing again; with it off they
/// are counted, and the board says so rather than "nobody played".
async fn turning_provisional_players_on_lists_those_who_played_before(backend: Backend) {
    let store = backend.open().await;
    let (a, b) = (user("a"), user("b"));
    for (who, rating) in [(&a, 1620.0), (&b, 1480.0)] {
        let mut stats = PlayerStats::new(who.clone());
        let entry = stats.category_mut(CORR);
        entry.rating = Rating {
            rating,
            deviation: 200.0,
            volatility: 0.06,
        };
        entry.results.wins = 1;
        entry.last_rated = T0;
        for scope in [Scope::Platform(Platform::Telegram), chat_scope()] {
            entry.enter_scope(&scope.key());
        }
        store.put(Tree::Ratings, &who.key(), &stats).await.unwrap();
    }
    // Started with the option on (`test_config`): both are listed, best first.
    let (m, _) = start(store).await;
    let board = m.leaderboard(chat_scope(), CORR, Some(&b)).await.unwrap();
    assert_eq!(names(&board), ["User a", "User b"]);
    assert_eq!(board.caller.as_ref().map(|(p, _)| *p), Some(2));
    assert_eq!(board.pending, 0);
    // With it off: nobody listed, both counted, and the board says so.
    let board = toguz::manager::history::leaderboard(
        m.store(),
        chat_scope(),
        CORR,
        Some(&b),
        (T0, 10),
        false,
    )
    .await
    .unwrap();
    assert!(board.top.is_empty(), "{:?}", names(&board));
    assert_eq!(board.pending, 2);
    assert!(board.caller_provisional);
    let shown = toguz::platform::present::history_text::leaderboard_text(
        std::slice::from_ref(&board),
        toguz::platform::present::history_text::BoardsShown::One,
        toguz::i18n::Lang::En,
    );
    assert!(shown.contains(": 2 players."), "{shown}");
    assert!(!shown.contains("Nobody here"), "{shown}");
}
