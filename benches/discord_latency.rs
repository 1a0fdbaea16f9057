//! Latency of a human move through the Discord adapter: from the fake Discord sending
//! INTERACTION_CREATE (a pit button press) to the bot's interaction callback arriving
//! (UPDATE_MESSAGE with the new board PNG and buttons). The adapter runs in this process
//! against the fake on 127.0.0.1, through the whole path: gateway, serenity, manager (durable
//! write), board rendering, REST gate.
//!
//! `cargo bench --bench discord_latency` (prints criterion's figures, then the median and the
//! 95th percentile of every press it made).

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::json;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use toguz::testing::discord::bot::{start_in_process, Options};
use toguz::testing::discord::{buttons, id_of, FakeDiscord, User};

const GUILD: u64 = 900_000_000_000_000_000;

struct Table {
    fake: FakeDiscord,
    players: [User; 2],
    message: Option<u64>,
    next_user: u64,
}

impl Table {
    /// A fresh game between two new members: challenge, accept.
    async fn new_game(&mut self) {
        self.next_user += 2;
        let a = User::new(self.next_user, "Alice");
        let b = User::new(self.next_user + 1, "Bob");
        let place = self.fake.guild_channel(GUILD, 700);
        let options = json!([{ "name": "opponent", "type": 6, "value": b.id.to_string() }]);
        let id = self
            .fake
            .slash(&a, place, "challenge", options, std::slice::from_ref(&b));
        self.fake.wait_callback(id).await;
        let message = id_of(&self.fake.original_message(id).expect("challenge message"));
        let accept = buttons(&self.fake.message(message).expect("message"))[0]["custom_id"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let press = self.fake.press(&b, message, &accept);
        self.fake.wait_callback(press).await;
        self.players = [a, b];
        self.message = Some(message);
    }

    /// One move by the player to move; the time from the event to the callback.
    async fn one_move(&mut self) -> Duration {
        loop {
            let Some(message) = self.message else {
                self.new_game().await;
                continue;
            };
            let board = self.fake.message(message).expect("board");
            let content = board["content"].as_str().unwrap_or_default().to_string();
            let pit = buttons(&board).into_iter().find(|b| {
                b["custom_id"]
                    .as_str()
                    .is_some_and(|s| s.starts_with("1m:"))
                    && b["disabled"] != true
            });
            let Some(pit) = pit else {
                self.message = None; // the game is over
                continue;
            };
            let mover = if content.contains(&self.players[0].mention()) {
                self.players[0].clone()
            } else {
                self.players[1].clone()
            };
            let custom_id = pit["custom_id"].as_str().unwrap_or_default().to_string();
            let sent = Instant::now();
            let id = self.fake.press(&mover, message, &custom_id);
            let call = self.fake.wait_callback(id).await;
            assert_eq!(call.callback_type(), Some(7), "a move is answered in place");
            return call.at.duration_since(sent);
        }
    }
}

fn latency(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut table = runtime.block_on(async {
        let fake = FakeDiscord::start().await;
        let opts = Options {
            cooldown_secs: 0,
            ..Options::default()
        };
        std::mem::forget(start_in_process(&fake, dir.path(), &opts).await);
        fake.wait_ready(1).await;
        fake.wait_call(0, "command registration", |c| c.path.ends_with("/commands"))
            .await;
        Table {
            fake,
            players: [User::new(1, "A"), User::new(2, "B")],
            message: None,
            next_user: 10_000,
        }
    });
    let samples = Mutex::new(Vec::new());
    let mut group = c.benchmark_group("discord");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(8));
    group.bench_function("human move: INTERACTION_CREATE to callback", |b| {
        b.iter_custom(|iters| {
            runtime.block_on(async {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let d = table.one_move().await;
                    samples.lock().unwrap_or_else(|e| e.into_inner()).push(d);
                    total += d;
                }
                total
            })
        })
    });
    group.finish();
    let mut all = samples.into_inner().unwrap_or_else(|e| e.into_inner());
    all.sort();
    if !all.is_empty() {
        let pct = |p: usize| all[(all.len() * p / 100).min(all.len() - 1)];
        println!(
            "discord human move latency over {} presses: median {:.2} ms, p95 {:.2} ms, max {:.2} ms",
            all.len(),
            pct(50).as_secs_f64() * 1e3,
            pct(95).as_secs_f64() * 1e3,
            all[all.len() - 1].as_secs_f64() * 1e3
        );
    }
}

criterion_group!(benches, latency);
criterion_main!(benches);
