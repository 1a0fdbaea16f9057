//! Crash safety: `toguz play` is killed with SIGKILL at random moments; every move it had
//! acknowledged must be in the record after a restart, and the game must go on.

use rand::{Rng, SeedableRng};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;
use toguz::rules::Position;

struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Whether the console said it resumed a game (rather than starting a new one).
    resumed: bool,
}

fn start(dir: &std::path::Path) -> Session {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toguz"))
        .args([
            "play", "--level", "random", "--colour", "white", "--lang", "en",
        ])
        .arg("--data-dir")
        .arg(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("toguz starts");
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    Session {
        child,
        stdin,
        lines,
        resumed: false,
    }
}

impl Session {
    fn send(&mut self, line: &str) {
        // The process may already be gone when we kill it mid-write; that is the point.
        let _ = writeln!(self.stdin, "{line}");
        let _ = self.stdin.flush();
    }

    /// Asks for the record and returns it (empty before the first move). `None` if the game
    /// is over.
    fn record(&mut self) -> String {
        self.send("record");
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .expect("an answer to `record`");
            if line.starts_with("Resuming your unfinished game") {
                self.resumed = true;
            }
            if line == "No moves yet." {
                return String::new();
            }
            if line.starts_with("1. ") {
                return line;
            }
        }
    }

    fn kill(mut self) {
        self.child.kill().expect("SIGKILL");
        let _ = self.child.wait();
    }
}

/// The position after a record's moves (the pit is the first digit of each move; move
/// numbers and the result of a finished game, `1-0`, `0-1`, `1/2-1/2` or `*`, are skipped).
fn position_after(record: &str) -> Position {
    let is_move = |t: &&str| !t.ends_with('.') && !t.contains('-') && *t != "*";
    let mut pos = Position::default();
    for token in record.split_whitespace().filter(is_move) {
        let pit = token.as_bytes()[0] - b'0';
        pos.play(pit).expect("the record replays");
    }
    pos
}

/// Whether the move in flight (and at most one bot reply) could have ended the game.
fn could_end(acknowledged: &str, in_flight: Option<u8>) -> bool {
    let mut pos = position_after(acknowledged);
    let Some(pit) = in_flight else {
        return pos.is_over();
    };
    if pos.play(pit).is_err() || pos.is_over() {
        return true;
    }
    pos.legal_moves().iter().any(|reply| {
        let mut p = pos;
        p.play(reply).is_ok() && p.is_over()
    })
}

#[test]
fn acknowledged_moves_survive_sigkill() {
    // TOGUZ_CRASH_SEED replays the run of a failure's printed seed.
    let seed: u64 = std::env::var("TOGUZ_CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| rand::thread_rng().gen());
    eprintln!("crash test seed {seed}");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let dir = tempfile::tempdir().unwrap();
    let mut acknowledged = String::new();
    let mut in_flight: Option<u8> = None;
    let mut kills = 0;
    let mut ended = false;
    'rounds: for round in 0..8 {
        let mut session = start(dir.path());
        let record = session.record();
        if round > 0 && !session.resumed {
            // A new game: the old one must have ended, by the move in flight or the reply.
            assert!(
                could_end(&acknowledged, in_flight),
                "seed {seed}: the game {acknowledged:?} was not resumed"
            );
            session.kill();
            ended = true;
            break;
        }
        assert!(
            record.starts_with(&acknowledged),
            "seed {seed}: acknowledged {acknowledged:?} but the record after restart is {record:?}"
        );
        acknowledged = record;
        in_flight = None;
        // A few acknowledged moves, then a move in flight when the kill comes.
        for _ in 0..rng.gen_range(0..4) {
            let legal: Vec<u8> = position_after(&acknowledged).legal_moves().iter().collect();
            let pit = legal[rng.gen_range(0..legal.len())];
            session.send(&pit.to_string());
            let record = session.record();
            assert!(record.starts_with(&acknowledged), "seed {seed}");
            assert!(
                record.len() > acknowledged.len(),
                "seed {seed}: the move was applied"
            );
            acknowledged = record;
            if position_after(&acknowledged).is_over() {
                session.kill();
                ended = true;
                break 'rounds;
            }
        }
        let legal: Vec<u8> = position_after(&acknowledged).legal_moves().iter().collect();
        let pit = legal[rng.gen_range(0..legal.len())];
        session.send(&pit.to_string());
        in_flight = Some(pit);
        std::thread::sleep(Duration::from_millis(rng.gen_range(0..40)));
        session.kill();
        kills += 1;
    }
    assert!(kills >= 1 || ended);
    if ended {
        return;
    }
    // The game goes on after the last kill.
    let mut session = start(dir.path());
    let record = session.record();
    if !session.resumed {
        assert!(could_end(&acknowledged, in_flight), "seed {seed}");
        return;
    }
    assert!(record.starts_with(&acknowledged), "seed {seed}");
    let legal: Vec<u8> = position_after(&record).legal_moves().iter().collect();
    session.send(&legal[0].to_string());
    let after = session.record();
    assert!(
        after.starts_with(&record) && after.len() > record.len(),
        "seed {seed}"
    );
    session.send("quit");
    let _ = session.child.wait();
}

/// A finished game's record ends with its result, which is no move: the test once read
/// `1-0` as pit 1 and failed on a game the bot's reply had ended.
#[test]
fn a_records_result_is_not_read_as_a_move() {
    for result in ["1-0", "0-1", "1/2-1/2", "*"] {
        assert_eq!(
            position_after(&format!("1. 1 2 {result}")),
            position_after("1. 1 2"),
            "{result}"
        );
    }
}
