//! The real bot binary (`toguz run`) as a child process, pointed at a fake Bot API server,
//! and helpers to follow a game on the fake's messages.

use super::{keyboard_buttons, Call, FakeTelegram, StoredMessage};
use crate::rules::Position;
use crate::testing::Lifted;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub const TOKEN: &str = "4242:TEST_token-abc";
/// Long enough for a slow CI machine, short enough to fail fast.
pub const WAIT: Duration = Duration::from_secs(15);

/// A running `toguz run`. Killed when dropped.
pub struct BotProcess {
    child: Child,
    pub log: PathBuf,
}

impl BotProcess {
    /// Starts the bot with its data in `data` and extra config lines under `[telegram]`
    /// (`telegram_extra`) and at top level (`extra`, e.g. `[limits]`). The bot keeps the
    /// shipped flood limits, and the fake Telegram's own (20 posts a minute per group...).
    pub fn start(fake: &FakeTelegram, data: &Path, telegram_extra: &str, extra: &str) -> Self {
        Self::start_with_env(fake, data, telegram_extra, extra, &[])
    }

    /// `start` with extra environment variables.
    pub fn start_with_env(
        fake: &FakeTelegram,
        data: &Path,
        telegram_extra: &str,
        extra: &str,
        env: &[(&str, &str)],
    ) -> Self {
        Self::launch(fake, data, telegram_extra, extra, env, None)
    }

    /// `start` with the flood limits lifted, the bot's (unless `telegram_extra` sets them)
    /// and the fake's, for the reason `lifted` gives: a test that is not about them and
    /// would take minutes under them.
    pub fn start_lifted(
        fake: &FakeTelegram,
        data: &Path,
        telegram_extra: &str,
        extra: &str,
        lifted: Lifted,
    ) -> Self {
        Self::launch(fake, data, telegram_extra, extra, &[], Some(lifted))
    }

    fn launch(
        fake: &FakeTelegram,
        data: &Path,
        telegram_extra: &str,
        extra: &str,
        env: &[(&str, &str)],
        lifted: Option<Lifted>,
    ) -> Self {
        std::fs::create_dir_all(data).expect("data dir");
        let config = data.join("toguz.toml");
        let store = data.join("db");
        let lines = match lifted {
            Some(lifted) => {
                fake.lift_limits(lifted);
                lifted_lines(telegram_extra)
            }
            None => String::new(),
        };
        let text = format!(
            "[storage]\npath = {store:?}\n\n{extra}\n\n[telegram]\nenabled = true\n\
             token = {TOKEN:?}\napi_url = {url:?}\n{lines}{telegram_extra}\n",
            url = fake.url,
        );
        std::fs::write(&config, text).expect("config");
        let log = data.join(format!("bot-{}.log", std::process::id()));
        let log_file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .expect("log");
        let child = Command::new(crate::testing::toguz_exe())
            .args(["run", "--config"])
            .arg(&config)
            .env("RUST_LOG", "toguz=debug,info")
            .envs(env.iter().copied())
            .env_remove("TELEGRAM_TOKEN")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log_file)
            .spawn()
            .expect("start toguz");
        BotProcess { child, log }
    }

    /// The config lines of the shipped flood limits (what `start` keeps anyway: for a test
    /// that says so in its config).
    pub fn default_limits() -> &'static str {
        "private_posts_per_minute = 60\ngroup_posts_per_minute = 20\nburst = 4\n"
    }

    /// The process's resident memory in KiB (VmRSS in /proc), if it can be read.
    pub fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Kills the process at once (no clean shutdown), like a crash.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends the process a signal by name (`INT` for Ctrl-C, `TERM`), as an operator or a
    /// supervisor stopping it would.
    pub fn signal(&self, name: &str) {
        let sent = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(self.child.id().to_string())
            .status()
            .expect("run kill");
        assert!(sent.success(), "kill -{name} failed");
    }

    /// Waits for the process to exit on its own; its status code.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<i32> {
        let deadline = std::time::Instant::now() + timeout;
        while std::time::Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
        if std::thread::panicking() {
            eprintln!("---- bot log ----\n{}", self.log_text());
        }
    }
}

/// The bot's flood limits lifted: the lines `telegram_extra` does not set itself.
fn lifted_lines(telegram_extra: &str) -> String {
    [
        "private_posts_per_minute = 100000",
        "group_posts_per_minute = 100000",
        "burst = 1000",
    ]
    .iter()
    .filter(|line| {
        let key = line.split(' ').next().unwrap_or("");
        !telegram_extra.contains(&format!("{key} ="))
    })
    .map(|line| format!("{line}\n"))
    .collect()
}

/// A board as the fake shows it: the message, its game and ply, its pit buttons.
#[derive(Clone, Debug)]
pub struct Board {
    pub message: StoredMessage,
    pub game: String,
    pub ply: u16,
    /// (pit, label) of each move button.
    pub pits: Vec<(u8, String)>,
    pub data: Vec<String>,
}

impl Board {
    pub fn of(message: &StoredMessage) -> Option<Board> {
        let buttons = message.buttons();
        let mut game = None;
        let mut ply = None;
        let mut pits = vec![];
        for (label, data) in &buttons {
            let parts: Vec<&str> = data.split(':').collect();
            match parts.as_slice() {
                ["1m", g, p, pit] => {
                    game = Some(g.to_string());
                    ply = p.parse().ok();
                    pits.push((pit.parse().ok()?, label.clone()));
                }
                ["1r" | "1d", g, p] => {
                    game = Some(g.to_string());
                    ply = ply.or(p.parse().ok());
                }
                ["1rm" | "1rv" | "1da" | "1dd" | "1x", g] => game = Some(g.to_string()),
                _ => {}
            }
        }
        Some(Board {
            message: message.clone(),
            game: game?,
            ply: ply.unwrap_or(0),
            pits,
            data: buttons.into_iter().map(|(_, d)| d).collect(),
        })
    }

    pub fn caption(&self) -> &str {
        self.message
            .caption
            .as_deref()
            .or(self.message.text.as_deref())
            .unwrap_or("")
    }

    pub fn is_over(&self) -> bool {
        self.data.iter().any(|d| d.starts_with("1rm:"))
            || !self.data.iter().any(|d| d.starts_with("1r:"))
    }

    /// The pit of the last move named in an English caption ("Last move: X, 76, took 10").
    pub fn last_move_pit(&self) -> Option<u8> {
        let line = self
            .caption()
            .lines()
            .find(|l| l.starts_with("Last move:"))?;
        let parts: Vec<&str> = line.split(", ").collect();
        let notation = parts.get(1)?;
        notation.chars().next()?.to_digit(10).map(|d| d as u8)
    }

    /// Checks that the pit buttons are exactly the legal moves of `pos`, labelled with the pit
    /// first and its ball count.
    pub fn assert_pits_match(&self, pos: &Position) {
        let legal: Vec<u8> = pos.legal_moves().iter().collect();
        let shown: Vec<u8> = self.pits.iter().map(|(p, _)| *p).collect();
        assert_eq!(
            shown,
            legal,
            "keyboard pits vs legal moves of {}",
            pos.to_fen()
        );
        for (pit, label) in &self.pits {
            let side = pos.to_move();
            let expected = format!("{pit} · {}", pos.pit(side, *pit));
            assert_eq!(label, &expected, "label of pit {pit}");
        }
    }
}

/// Waits for the newest board in `chat` that satisfies `pred`.
pub fn wait_board(fake: &FakeTelegram, chat: i64, pred: impl Fn(&Board) -> bool) -> Board {
    let found = fake.wait_until(WAIT, |v| {
        latest_board(v.bot_messages(chat)).is_some_and(|b| pred(&b))
    });
    let board = latest_board(fake.bot_messages(chat));
    assert!(found, "no such board; latest: {board:#?}");
    board.expect("board")
}

/// The newest board among `messages`.
pub fn latest_board(messages: Vec<StoredMessage>) -> Option<Board> {
    messages.iter().rev().find_map(Board::of)
}

/// Every photo upload the bot made is a valid PNG of sensible size; returns how many.
pub fn assert_all_photos_png(calls: &[Call]) -> usize {
    let mut n = 0;
    for c in calls {
        if matches!(c.method.as_str(), "sendPhoto" | "editMessageMedia") {
            let bytes = c
                .photo_bytes()
                .unwrap_or_else(|| panic!("{} without a photo", c.method));
            let (w, h) = super::check_png(bytes).expect("valid PNG");
            assert!(w >= 200 && h >= 100, "board image {w}x{h}");
            n += 1;
        }
    }
    n
}

/// Every keyboard the bot sent has valid callback data (the fake enforces 1..64 bytes; this
/// also checks the shared codec's version prefix, or one of the Telegram-only prefixes: the
/// inline placeholder `tgi:` and the level keyboard's time row `tgt:`).
pub fn assert_all_callback_data_ours(calls: &[Call]) {
    for c in calls.iter().filter(|c| c.ok()) {
        if let Some(m) = c.reply_markup() {
            for (_, d) in keyboard_buttons(&m) {
                let ours = d.starts_with('1') || d.starts_with("tgi:") || d.starts_with("tgt:");
                assert!(ours, "data {d:?}");
            }
        }
    }
}
