//! The explorer against a naive count (every game replayed, counted by position) on both
//! backends; transpositions; filters; players; refusals; a re-import counted once.

use super::*;
use crate::rules::{parse_records, replay, Position, Side, Variant};
use crate::store::{Store, Tree};
use crate::testing::manager::Backend;
use std::collections::{HashMap, HashSet};

const CHAMPIONSHIPS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/championships-kz-2018.pgn"
);
const PLAYOK: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/playok-2024-2025.pgn"
);

/// A test data file (tests/data: test data, never shipped).
fn data(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// What a position is, written out (no hash): the naive count's key.
type Plain = ([u8; 18], [u8; 2], [Option<u8>; 2], Side);

fn plain(p: &Position) -> Plain {
    (
        *p.ring(),
        [p.store(Side::White), p.store(Side::Black)],
        [p.tuzdek(Side::White), p.tuzdek(Side::Black)],
        p.to_move(),
    )
}

/// Per position, per pit: games, White wins, draws, Black wins.
type Naive = HashMap<Plain, HashMap<u8, [u64; 4]>>;

/// Replays every record that has a result and counts its first `MAX_PLY` half-moves by
/// position, each position once per game and each game once; returns the count and the positions by plain key.
fn naive(texts: &[&str]) -> (Naive, HashMap<Plain, Position>) {
    let mut counts: Naive = HashMap::new();
    let mut positions = HashMap::new();
    let mut games = HashSet::new();
    for text in texts {
        for record in parse_records(text).into_iter().flatten() {
            let Ok(start) = record.start_position() else {
                continue;
            };
            let Ok(plies) = replay(&record, start) else {
                continue;
            };
            let end = plies.last().map_or(start, |p| p.position);
            let winner = match end.outcome() {
                Some(o) => Some(o.winner),
                None => match record.header("Result") {
                    Some("1-0") => Some(Some(Side::White)),
                    Some("0-1") => Some(Some(Side::Black)),
                    Some("1/2-1/2") => Some(None),
                    _ => None,
                },
            };
            let Some(winner) = winner else { continue };
            // The same game twice (its moves and players) is one game.
            let pits: Vec<u8> = plies.iter().map(|p| p.report.pit).collect();
            let name = |h: &str| record.header(h).unwrap_or("?").trim().to_lowercase();
            if !games.insert((pits, name("White"), name("Black"))) {
                continue;
            }
            let mut seen = HashSet::new();
            let mut before = start;
            for ply in plies.iter().take(MAX_PLY) {
                let key = plain(&before);
                if seen.insert(key) {
                    positions.insert(key, before);
                    let c = counts
                        .entry(key)
                        .or_default()
                        .entry(ply.report.pit)
                        .or_default();
                    c[0] += 1;
                    match winner {
                        Some(Side::White) => c[1] += 1,
                        None => c[2] += 1,
                        Some(Side::Black) => c[3] += 1,
                    }
                }
                before = ply.position;
            }
        }
    }
    (counts, positions)
}

/// Prepares every record of `text` that is accepted, refusing the others.
fn prepared(text: &str) -> (Vec<Prepared>, Vec<Refusal>) {
    let mut ok = Vec::new();
    let mut refused = Vec::new();
    for parsed in parse_records(text) {
        match parsed
            .map_err(|e| Refusal::Parse(e.to_string()))
            .and_then(|r| prepare(&r, Source::Masters))
        {
            Ok(p) => ok.push(p),
            Err(r) => refused.push(r),
        }
    }
    (ok, refused)
}

async fn import_all(store: &Store, games: &[Prepared]) -> Imported {
    let mut total = Imported::default();
    for chunk in games.chunks(250) {
        let got = import_games(store, chunk).await.unwrap();
        total.added += got.added;
        total.already += got.already;
    }
    total
}

async fn assert_agrees(store: &Store, counts: &Naive, positions: &HashMap<Plain, Position>) {
    for (key, pits) in counts {
        let answer = query(store, &positions[key], &Scope::All, &Filter::default(), 0)
            .await
            .unwrap();
        let mut got: HashMap<u8, [u64; 4]> = HashMap::new();
        for m in &answer.moves {
            got.insert(m.pit, [m.games, m.white, m.draws, m.black]);
        }
        assert_eq!(&got, pits, "{:?}", positions[key]);
        assert_eq!(answer.games, pits.values().map(|c| c[0]).sum::<u64>());
    }
}

/// The first `games` records of a file.
fn head(text: &str, games: usize) -> String {
    let cut = text
        .match_indices("\n[Event ")
        .nth(games)
        .map_or(text.len(), |(i, _)| i);
    text[..cut].to_string()
}

async fn counts_agree_with_a_naive_count(backend: Backend, games: usize) {
    let (champs, playok) = (data(CHAMPIONSHIPS), data(PLAYOK));
    let (champs, playok) = (head(&champs, games), head(&playok, games));
    let store = backend.open().await;
    let (mut games, refused) = prepared(&champs);
    let (more, refused_more) = prepared(&playok);
    games.extend(more);
    // PlayOK publishes games abandoned before the first move: the only refusals.
    let all_refused = refused.iter().chain(&refused_more);
    assert!(
        all_refused.clone().all(|r| *r == Refusal::NoMoves),
        "{refused:?} {refused_more:?}"
    );
    let first = import_all(&store, &games).await;
    assert_eq!(first.added, games.len() - first.already);
    let stored = store.logical_size(Tree::ExplorerGames).await.unwrap();
    assert_eq!(stored.records, first.added as u64);
    assert!(stored.bytes > stored.records * 16, "{stored:?}");
    let (counts, positions) = naive(&[&champs, &playok]);
    assert_agrees(&store, &counts, &positions).await;
    // A player's games (made from her games' moves): each of them passes the start once.
    let name = games[0].info.white.clone();
    let hers: HashSet<&str> = games
        .iter()
        .filter(|g| {
            [&g.info.white, &g.info.black]
                .iter()
                .any(|n| keys::normalize_name(n) == keys::normalize_name(&name))
        })
        .map(|g| g.id.as_str())
        .collect();
    let start = Position::start(Variant::STANDARD);
    let answer = query(&store, &start, &Scope::Player(name), &Filter::default(), 0)
        .await
        .unwrap();
    assert_eq!(answer.games, hers.len() as u64);
    // Again (a resumed run): nothing counted twice.
    let again = import_all(&store, &games).await;
    assert_eq!(again.added, 0);
    // After a restart too.
    drop(store);
    let store = backend.open().await;
    assert_agrees(&store, &counts, &positions).await;
}

#[tokio::test]
async fn counts_agree_with_a_naive_count_on_sled() {
    counts_agree_with_a_naive_count(Backend::sled(), 400).await;
}

#[tokio::test]
async fn counts_agree_with_a_naive_count_on_postgres() {
    let Some(backend) = Backend::postgres().await else {
        return;
    };
    counts_agree_with_a_naive_count(backend, 60).await;
}

/// Two importers at once, with the same games in other orders and chunks: each game is
/// counted once, and no count is lost to the other's write.
async fn importers_at_once_count_each_game_once(backend: Backend) {
    let text = head(&data(CHAMPIONSHIPS), 90);
    let (games, _) = prepared(&text);
    let store = backend.open().await;
    let mut reversed = games.clone();
    reversed.reverse();
    let tasks = [(games, 20), (reversed, 35)].map(|(games, chunk)| {
        let store = store.clone();
        tokio::spawn(async move {
            let mut added = 0;
            for part in games.chunks(chunk) {
                added += import_games(&store, part).await.unwrap().added;
            }
            added
        })
    });
    let mut added = 0;
    for task in tasks {
        added += task.await.unwrap();
    }
    let (counts, positions) = naive(&[&text]);
    let (unique, _) = prepared(&text);
    let ids: HashSet<String> = unique.into_iter().map(|g| g.id).collect();
    assert_eq!(added, ids.len());
    assert_agrees(&store, &counts, &positions).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn importers_at_once_count_each_game_once_on_sled() {
    importers_at_once_count_each_game_once(Backend::sled()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn importers_at_once_count_each_game_once_on_postgres() {
    let Some(backend) = Backend::postgres().await else {
        return;
    };
    importers_at_once_count_each_game_once(backend).await;
}

/// Two different move orders that reach one position: the first such pair among the
/// openings of the test records (tests/data), else among every six half-moves from the
/// start.
fn transposition() -> (Vec<u8>, Vec<u8>) {
    let mut reached: HashMap<Plain, Vec<u8>> = HashMap::new();
    let mut found = None;
    let text = format!("{}{}", data(CHAMPIONSHIPS), data(PLAYOK));
    for record in parse_records(&text).into_iter().flatten() {
        let mut p = Position::start(Variant::STANDARD);
        let mut moves = Vec::new();
        for written in record.moves.iter().take(MAX_PLY) {
            let pit = written.token.pit;
            if p.play(pit).is_err() {
                break;
            }
            moves.push(pit);
            match reached.get(&plain(&p)) {
                Some(other) if *other != moves => {
                    found = found.or(Some((other.clone(), moves.clone())))
                }
                Some(_) => {}
                None => drop(reached.insert(plain(&p), moves.clone())),
            }
        }
    }
    if let Some(pair) = found {
        return pair;
    }
    for n in 0..9u32.pow(6) {
        let pits: Vec<u8> = (0..6).map(|i| (n / 9u32.pow(i) % 9) as u8 + 1).collect();
        let mut p = Position::start(Variant::STANDARD);
        if pits.iter().any(|&pit| p.play(pit).is_err()) {
            continue;
        }
        if let Some(other) = reached.insert(plain(&p), pits.clone()) {
            if other != pits {
                return (other, pits);
            }
        }
    }
    panic!("no transposition found");
}

fn record(moves: &[u8], headers: &str, result: &str) -> String {
    let text: Vec<String> = moves
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            let pits: Vec<String> = pair.iter().map(u8::to_string).collect();
            format!("{}. {}", i + 1, pits.join(" "))
        })
        .collect();
    format!(
        "{headers}[Result \"{result}\"]\n\n{} {result}\n\n",
        text.join(" ")
    )
}

fn one(text: &str) -> Prepared {
    let (mut games, refused) = prepared(text);
    assert!(refused.is_empty(), "{refused:?}");
    games.remove(0)
}

fn after(moves: &[u8]) -> Position {
    let mut p = Position::start(Variant::STANDARD);
    for &pit in moves {
        p.play(pit).unwrap();
    }
    p
}

#[tokio::test]
async fn transpositions_count_together() {
    let (a, b) = transposition();
    assert_ne!(a, b);
    let store = Store::temporary().unwrap();
    let legal: Vec<u8> = after(&a).legal_moves().iter().collect();
    let (x, y) = (legal[0], legal[legal.len() - 1]);
    assert_ne!(x, y);
    let mut first = a.clone();
    first.push(x);
    let mut second = b.clone();
    second.push(y);
    let games = [
        one(&record(&first, "[White \"A\"]\n[Black \"B\"]\n", "1-0")),
        one(&record(&second, "[White \"C\"]\n[Black \"D\"]\n", "0-1")),
    ];
    assert_eq!(import_games(&store, &games).await.unwrap().added, 2);
    assert_eq!(position_key(&after(&a)), position_key(&after(&b)));
    let answer = query(&store, &after(&a), &Scope::All, &Filter::default(), 5)
        .await
        .unwrap();
    assert_eq!(answer.games, 2);
    let pits: Vec<(u8, u64, u64, u64)> = answer
        .moves
        .iter()
        .map(|m| (m.pit, m.games, m.white, m.black))
        .collect();
    assert_eq!(pits, [(x, 1, 1, 0), (y, 1, 0, 1)]);
    assert_eq!(answer.last.len(), 2);
}

#[tokio::test]
async fn filters_sources_and_players() {
    let store = Store::temporary().unwrap();
    let game = |white: &str, black: &str, tc: &str, elos: (u32, u32), result: &str| {
        let headers = format!(
            "[White \"{white}\"]\n[Black \"{black}\"]\n[TimeControl \"{tc}\"]\n\
             [WhiteElo \"{}\"]\n[BlackElo \"{}\"]\n",
            elos.0, elos.1
        );
        one(&record(&[7, 7, 2], &headers, result))
    };
    let games = [
        game("Aigerim", "Bolat", "180", (1100, 1150), "1-0"),
        game("Bolat", "Aigerim", "600", (1500, 1700), "0-1"),
        game("Dana", "Erlan", "600", (2100, 2050), "1/2-1/2"),
    ];
    import_games(&store, &games).await.unwrap();
    let start = Position::start(Variant::STANDARD);
    let ask = |scope: Scope, filter: Filter| {
        let store = store.clone();
        async move { query(&store, &start, &scope, &filter, 0).await.unwrap() }
    };
    assert_eq!(ask(Scope::All, Filter::default()).await.games, 3);
    assert_eq!(
        ask(Scope::Source(Source::Masters), Filter::default())
            .await
            .games,
        3
    );
    assert_eq!(
        ask(Scope::Source(Source::Club), Filter::default())
            .await
            .games,
        0
    );
    let blitz = Filter {
        categories: vec![category_code(Some(crate::model::Category::Blitz))],
        bands: vec![],
    };
    let answer = ask(Scope::All, blitz).await;
    assert_eq!((answer.games, answer.moves[0].white), (1, 1));
    let strong = Filter {
        categories: vec![],
        bands: vec![Band::From2000],
    };
    let answer = ask(Scope::All, strong).await;
    assert_eq!((answer.games, answer.moves[0].draws), (1, 1));
    assert_eq!(answer.moves[0].rating, Some(2100));
    let middle = Filter {
        categories: vec![],
        bands: vec![Band::From1200, Band::From1600],
    };
    assert_eq!(ask(Scope::All, middle).await.games, 1);
    // One player's games, as White or as Black, her name in any case.
    let aigerim = ask(Scope::Player("aigerim ".into()), Filter::default()).await;
    assert_eq!(
        (
            aigerim.games,
            aigerim.moves[0].white,
            aigerim.moves[0].black
        ),
        (2, 1, 1)
    );
    assert_eq!(
        ask(Scope::Player("Nobody".into()), Filter::default())
            .await
            .games,
        0
    );
    // The rating is the mover's: White moves first.
    let all = ask(Scope::All, Filter::default()).await;
    assert_eq!(all.moves[0].rating, Some((1100 + 1500 + 2100) / 3));
}

#[test]
fn corrupt_records_are_refused_with_their_reason() {
    let wrong_landing = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. 71 98 1-0\n\n";
    let (ok, refused) = prepared(wrong_landing);
    assert!(ok.is_empty());
    assert_eq!(refused[0].kind(), "breaks the rules");
    assert!(refused[0].to_string().contains("A - B"), "{}", refused[0]);
    let unfinished = record(&[7, 7], "[White \"A\"]\n[Black \"B\"]\n", "*");
    assert_eq!(prepared(&unfinished).1, [Refusal::NoResult]);
    let bad_variant = record(&[7], "[Variant \"banana\"]\n", "1-0");
    assert_eq!(prepared(&bad_variant).1[0].kind(), "bad start position");
    let illegal = record(&[7, 7, 10], "", "1-0");
    assert!(!prepared(&illegal).1.is_empty());
}

#[test]
fn keys_are_compact_and_stable() {
    let start = Position::start(Variant::STANDARD);
    let key = position_key(&start);
    assert_eq!(key.len(), 12);
    assert!(key
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
    // Another variant's start is another position.
    let five = Position::start(Variant::new(5, crate::rules::TuzdekRule::Standard).unwrap());
    assert_ne!(position_key(&five), key);
    assert_eq!(player_id("Aigerim"), player_id(" aigerim"));
    assert_eq!(player_id("x").len(), 8);
}

#[test]
fn a_games_pits_are_packed_in_the_store_and_digits_in_json() {
    let info = GameInfo {
        white: "A".into(),
        black: "B".into(),
        result: Result3::Draw,
        date: None,
        event: Some("Cup".into()),
        white_elo: Some(1500),
        black_elo: None,
        category: 2,
        moves: "7729135".into(),
        start: None,
        game: None,
        chat: None,
    };
    let stored = postcard::to_allocvec(&info).unwrap();
    assert_eq!(postcard::from_bytes::<GameInfo>(&stored).unwrap(), info);
    let json = serde_json::to_value(&info).unwrap();
    assert_eq!(json["m"], "7729135");
    assert!(stored.len() < 25, "{} bytes", stored.len());
}

#[test]
fn rows_merge_counts_and_keep_the_newest_games() {
    let mut row = Row {
        e: vec![Entry(1, 2, 7, 1, 1, 0, 0, 1500, 1)],
        l: vec![(7, "old".into())],
    };
    row.merge(&Row {
        e: vec![
            Entry(1, 2, 7, 2, 0, 1, 1, 0, 0),
            Entry(0, 0, 3, 1, 0, 0, 1, 0, 0),
        ],
        l: vec![(7, "a".into()), (3, "b".into()), (7, "c".into())],
    });
    assert_eq!(
        row.e,
        [
            Entry(1, 2, 7, 3, 1, 1, 1, 1500, 1),
            Entry(0, 0, 3, 1, 0, 0, 1, 0, 0)
        ]
    );
    assert_eq!(row.l.len(), LAST_GAMES);
    assert_eq!(row.l[0].1, "a");
}

#[test]
fn rows_round_trip_in_bytes_and_refuse_garbage() {
    let row = Row {
        e: vec![
            Entry(3, 4, 9, 300, 100, 50, 150, 1_800_000, 1000),
            Entry(0, 0, 1, 1, 0, 0, 1, 0, 0),
        ],
        l: vec![
            (9, game_id("s", &[7, 7], "A", "B")),
            (1, game_id("t", &[1], "C", "D")),
        ],
    };
    let bytes = codec::encode(&row).unwrap();
    assert_eq!(codec::decode(&bytes).unwrap(), row);
    let stored = postcard::to_allocvec(&row).unwrap();
    assert_eq!(postcard::from_bytes::<Row>(&stored).unwrap(), row);
    assert_eq!(
        stored.len(),
        bytes.len() + 1,
        "the bytes and their length, nothing more"
    );
    // A game key that is not one (the import makes only base64 of 12 bytes) is refused.
    let odd = Row {
        e: vec![],
        l: vec![(1, "x".into())],
    };
    assert!(codec::encode(&odd).is_none());
    // One game's row: a version, a cell and its counts, a game's key.
    let one = Row {
        e: vec![Entry(1, 2, 7, 1, 1, 0, 0, 1500, 1)],
        l: vec![(7, game_id("s", &[7], "A", "B"))],
    };
    assert!(codec::encode(&one).unwrap().len() <= 26);
    assert!(codec::decode(&bytes[..bytes.len() - 1]).is_err());
    assert!(codec::decode(&[1, 0, 0]).is_err(), "another version");
    assert!(codec::decode(&[2, 1, 200, 0, 0, 0, 0, 0, 0, 0]).is_err());
    assert!(codec::encode(&Row {
        e: vec![Entry(4, 0, 1, 1, 0, 0, 0, 0, 0)],
        l: vec![]
    })
    .is_none());
}
