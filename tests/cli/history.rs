//! `toguz export` and `toguz leaderboard` on a store with finished games (issue 16).

use super::{stderr, stdout, toguz};
use toguz::engine::{EngineConfig, EnginePool};
use toguz::manager::{Action, Manager, Reply, Request};
use toguz::model::{ChatRef, Level, Platform, UserRef};
use toguz::rules::{Side, Variant};
use toguz::store::Store;

async fn act(m: &Manager, who: &UserRef, action: Action) -> Reply {
    let req = Request {
        actor: who.clone(),
        chat: ChatRef::new(Platform::Telegram, "-100"),
        action,
    };
    m.act(req).await.expect("the action succeeds")
}

fn game_id(reply: Reply) -> String {
    match reply {
        Reply::Game(v) => v.id,
        Reply::Challenge(c) => c.id,
        other => panic!("unexpected {other:?}"),
    }
}

/// A store with rated games (a beats b twice, c beats b once), a bot game and an aborted one;
/// the runtime is dropped at the end so the store's lock is free for the binary.
fn build_store(dir: &std::path::Path) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let store = Store::open(dir).unwrap();
        let engine = EnginePool::new(EngineConfig::default());
        let m = Manager::start(store, engine, toguz::testing::manager::test_config())
            .await
            .unwrap();
        let user = |id: &str| UserRef::new(Platform::Telegram, id, format!("Player {id}"));
        let (a, b, c) = (user("1"), user("2"), user("3"));
        for (winner, loser) in [(&a, &b), (&a, &b), (&c, &b)] {
            let challenge = Action::Challenge {
                opponent: Some(loser.clone()),
                variant: Variant::STANDARD,
                rated: true,
                time: None,
            };
            let id = game_id(act(&m, winner, challenge).await);
            let id = game_id(act(&m, loser, Action::AcceptChallenge { challenge: id }).await);
            for _ in 0..2 {
                let Reply::Game(v) = act(
                    &m,
                    winner,
                    Action::Show {
                        game: Some(id.clone()),
                    },
                )
                .await
                else {
                    panic!("a game")
                };
                let mover = v.to_move_player().and_then(|p| p.user()).unwrap().clone();
                let pit = v.position.legal_moves().iter().next().unwrap();
                act(
                    &m,
                    &mover,
                    Action::Move {
                        game: id.clone(),
                        ply: None,
                        pit,
                    },
                )
                .await;
            }
            act(
                &m,
                loser,
                Action::Resign {
                    game: Some(id),
                    ply: None,
                },
            )
            .await;
        }
        let bot = Action::PlayBot {
            level: Level::Easy,
            variant: Variant::STANDARD,
            colour: Some(Side::White),
            time: None,
        };
        let id = game_id(act(&m, &a, bot).await);
        act(
            &m,
            &a,
            Action::Resign {
                game: Some(id),
                ply: None,
            },
        )
        .await;
        let challenge = Action::Challenge {
            opponent: Some(c.clone()),
            variant: Variant::STANDARD,
            rated: true,
            time: None,
        };
        let id = game_id(act(&m, &a, challenge).await);
        let id = game_id(act(&m, &c, Action::AcceptChallenge { challenge: id }).await);
        act(&m, &a, Action::Abort { game: id }).await;
        m.flush().unwrap();
    });
    drop(runtime);
}

#[test]
fn export_writes_every_archived_game_for_replay_check() {
    let dir = tempfile::tempdir().unwrap();
    build_store(dir.path());
    let file = dir.path().join("all.pgn");
    let data_dir = dir.path().to_str().unwrap();
    let out = toguz(
        &[
            "export",
            "--data-dir",
            data_dir,
            "-o",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("exported 5 games"),
        "{}",
        stderr(&out)
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        text.matches("[Termination \"resignation\"]").count(),
        4,
        "{text}"
    );
    assert_eq!(
        text.matches("[Termination \"aborted\"]").count(),
        1,
        "{text}"
    );
    assert_eq!(text.matches("[WhiteRating ").count(), 3, "{text}");
    let check = toguz(&["replay", "--check", file.to_str().unwrap()], "");
    assert!(check.status.success(), "{}", stdout(&check));
    assert!(
        stdout(&check).contains("5 games, 6 half-moves, 0 disagreements"),
        "{}",
        stdout(&check)
    );
    // --since after today: nothing; a bad date is refused with a clear message.
    let later = toguz(
        &["export", "--data-dir", data_dir, "--since", "2999-01-01"],
        "",
    );
    assert!(
        later.status.success() && stdout(&later).is_empty(),
        "{}",
        stderr(&later)
    );
    let bad = toguz(
        &["export", "--data-dir", data_dir, "--since", "yesterday"],
        "",
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("not a date"), "{}", stderr(&bad));
}

#[test]
fn leaderboard_prints_rows_best_first_as_json_and_text() {
    let dir = tempfile::tempdir().unwrap();
    build_store(dir.path());
    let data_dir = dir.path().to_str().unwrap();
    let out = toguz(
        &[
            "leaderboard",
            "--data-dir",
            data_dir,
            "--platform",
            "telegram",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: Vec<serde_json::Value> = serde_json::from_str(&stdout(&out)).unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Player 1", "Player 3", "Player 2"]);
    assert_eq!(rows[0]["games"], 2);
    assert_eq!(rows[0]["wins"], 2);
    assert_eq!(rows[2]["losses"], 3);
    for key in ["rating", "deviation", "draws"] {
        assert!(rows[0][key].is_number(), "{key}: {}", rows[0]);
    }
    // A chat without --platform is looked up on every platform; only Telegram has it.
    let chat = toguz(
        &["leaderboard", "--data-dir", data_dir, "--chat", "-100"],
        "",
    );
    assert!(
        stdout(&chat).starts_with("telegram:\n  1. Player 1"),
        "{}",
        stdout(&chat)
    );
    let other = toguz(
        &[
            "leaderboard",
            "--data-dir",
            data_dir,
            "--platform",
            "discord",
            "--json",
        ],
        "",
    );
    assert_eq!(stdout(&other).trim(), "[]");
    let missing = toguz(&["leaderboard", "--data-dir", "/nonexistent/toguz"], "");
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        stderr(&missing).contains("no store at"),
        "{}",
        stderr(&missing)
    );
}

/// The case players met: rated hot-seat games at the console, then `toguz leaderboard`
/// without `--platform` listed nobody (it ranked Telegram only). Now every platform that has
/// rated players gets a section, and one named with `--platform` is printed alone.
#[test]
fn leaderboard_without_platform_shows_every_platform_with_rated_players() {
    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().to_str().unwrap();
    let leaderboard = |extra: &[&str]| {
        let mut args = vec!["leaderboard", "--data-dir", data_dir];
        args.extend_from_slice(extra);
        let out = toguz(&args, "");
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let empty = leaderboard(&[]);
    assert!(
        empty.starts_with("No rated correspondence players"),
        "{empty}"
    );

    // White moves, Black moves, White resigns: Daulet beats Aigerim in a rated game.
    // One game each: provisional ratings, shown on the board only when the config says so.
    let config = dir.path().join("toguz.toml");
    std::fs::write(&config, "[limits]\nprovisional_on_leaderboards = true\n").unwrap();
    let args = [
        "play",
        "--data-dir",
        data_dir,
        "--config",
        config.to_str().unwrap(),
        "--white",
        "Aigerim",
        "--black",
        "Daulet",
        "--lang",
        "en",
    ];
    let played = toguz(&args, "7\n9\nresign\nquit\n");
    assert!(played.status.success(), "{}", stderr(&played));
    let console_only = leaderboard(&[]);
    assert!(
        console_only.starts_with("console:\n  1. Daulet") && console_only.contains("  2. Aigerim"),
        "{console_only}"
    );
    assert!(!console_only.contains("telegram:"), "{console_only}");

    build_store(dir.path());
    let both = leaderboard(&[]);
    let telegram = both.find("telegram:\n  1. Player 1").expect(&both);
    let console = both.find("\n\nconsole:\n  1. Daulet").expect(&both);
    assert!(telegram < console, "{both}");
    assert!(!both.contains("discord:"), "{both}");
    assert_eq!(both.matches(" games  +").count(), 5, "{both}");

    let json: Vec<serde_json::Value> = serde_json::from_str(&leaderboard(&["--json"])).unwrap();
    let rows: Vec<(&str, u64, &str)> = json
        .iter()
        .map(|r| {
            let field = |k: &str| r[k].as_str().unwrap();
            (
                field("platform"),
                r["place"].as_u64().unwrap(),
                field("name"),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("telegram", 1, "Player 1"),
            ("telegram", 2, "Player 3"),
            ("telegram", 3, "Player 2"),
            ("console", 1, "Daulet"),
            ("console", 2, "Aigerim"),
        ]
    );

    let named = leaderboard(&["--platform", "console"]);
    assert!(named.starts_with("  1. Daulet"), "{named}");
    assert_eq!(named.lines().count(), 2, "{named}");
}
