//! `toguz tournament`: a tournament of the bot's levels, played here and now, to see one
//! run. A Swiss event (`--format swiss`, the default) pairs each round by the FIDE Dutch
//! system, plays its games on `--jobs` threads, and prints the round's results and the
//! standings with FIDE tie-breaks after it; `--trf FILE` writes the finished event in
//! FIDE's Tournament Report File format. An arena (`--format arena`) runs for `--minutes`:
//! a player whose game ends is paired again at once among those waiting (lichess's scoring:
//! 2 a win, 1 a draw, double on fire), and the standings are printed every quarter and at
//! the end. A progress bar shows on a terminal; elsewhere, a line per finished game.

use crate::cli::engine::engine_config;
use crate::cli::matchup::{play_game, Pairing as Match, Score};
use crate::engine::EngineConfig;
use crate::model::Level;
use crate::pairing::arena::{self, GameResult, Played, Sheet, Waiting};
use crate::pairing::tiebreak::format_table;
use crate::pairing::trf::{Color, RoundEntry, TrfPlayer};
use crate::pairing::{pair, standings, Tournament};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Swiss,
    Arena,
}

/// `toguz tournament [OPTIONS]` plays one here; `toguz tournament export ID` writes one of
/// the store as a TRF file.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct TournamentCommand {
    #[command(subcommand)]
    pub command: Option<TournamentSub>,
    #[command(flatten)]
    pub local: TournamentArgs,
}

#[derive(clap::Subcommand, Debug)]
pub enum TournamentSub {
    /// Write a tournament of the store as a FIDE Tournament Report File.
    Export(crate::cli::tournament_export::ExportArgs),
}

/// Plays a local tournament, or exports one.
pub fn main(command: TournamentCommand) -> anyhow::Result<ExitCode> {
    match command.command {
        Some(TournamentSub::Export(args)) => crate::cli::tournament_export::run(args),
        None => run(command.local),
    }
}

#[derive(clap::Args, Debug)]
pub struct TournamentArgs {
    /// Swiss (rounds paired by the FIDE Dutch system) or arena (for a time, paired as
    /// games end).
    #[arg(long, value_enum, default_value_t = Format::Swiss)]
    pub format: Format,
    /// The players: levels, separated by commas; a level may come more than once.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "random,beginner,easy,medium"
    )]
    pub players: Vec<Level>,
    /// Rounds of a Swiss event (default: enough for a clear winner, at most players - 1).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=99))]
    pub rounds: Option<u32>,
    /// How long an arena runs, in minutes (a fraction is fine: 0.5).
    #[arg(long, default_value_t = 2.0)]
    pub minutes: f64,
    /// Thinking time per move of the time-limited levels, in milliseconds.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub movetime: Option<u64>,
    /// Games played at once.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub jobs: u64,
    /// Seed of the openings (two random half-moves, then the levels play).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the finished Swiss event here (FIDE TRF).
    #[arg(long)]
    pub trf: Option<PathBuf>,
    /// Read the level budgets (`[engine]`) from this config file.
    #[arg(long)]
    pub config: Option<PathBuf>,
}

/// A level's seeding rating, for the pairing order and the tie-breaks' rating average.
fn seed_rating(level: Level) -> u32 {
    level.seed_rating() as u32
}

/// The players' names: a level's name, numbered when it comes more than once.
fn names(levels: &[Level]) -> Vec<String> {
    levels
        .iter()
        .enumerate()
        .map(|(i, level)| {
            let same = levels.iter().filter(|l| *l == level).count();
            let nth = levels[..=i].iter().filter(|l| *l == level).count();
            if same > 1 {
                format!("{level} {nth}")
            } else {
                level.to_string()
            }
        })
        .collect()
}

pub fn run(args: TournamentArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        args.players.len() >= 2,
        "a tournament needs at least two players (--players)"
    );
    anyhow::ensure!(
        args.minutes.is_finite() && args.minutes > 0.0 && args.minutes <= 24.0 * 60.0,
        "--minutes must be more than 0 and at most a day"
    );
    let config = engine_config(args.config.as_deref())?;
    let table = Setup {
        levels: args.players.clone(),
        names: names(&args.players),
        config,
        movetime: args.movetime,
        jobs: args.jobs as usize,
        seed: args.seed,
    };
    match args.format {
        Format::Swiss => swiss(&table, &args),
        Format::Arena => arena_run(&table, Duration::from_secs_f64(args.minutes * 60.0)),
    }
}

struct Setup {
    levels: Vec<Level>,
    names: Vec<String>,
    config: EngineConfig,
    movetime: Option<u64>,
    jobs: usize,
    seed: u64,
}

impl Setup {
    /// The match of one board: `white` and `black` by index, from opening `number`.
    fn board(&self, white: usize, black: usize, number: u64) -> Match {
        let mut m = Match::new(
            self.levels[white],
            self.levels[black],
            &self.config,
            self.movetime,
        );
        m.openings = 2;
        m.balance = Some(3);
        m.seed = self.seed.wrapping_mul(1_000_003).wrapping_add(number);
        m
    }
}

/// A bar over `len` games on a terminal; hidden elsewhere (lines are printed instead).
fn bar(len: u64, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let style = ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {msg} (eta {eta})")
        .map(|s| s.progress_chars("=> "));
    if let Ok(style) = style {
        bar.set_style(style);
    }
    bar.set_prefix(what.to_string());
    bar
}

/// How a game ended: the White player's score and the half-moves.
fn white_score(m: &Match) -> (Score, u16) {
    let r = play_game(m, 0);
    (r.score, r.plies)
}

fn swiss(setup: &Setup, args: &TournamentArgs) -> anyhow::Result<ExitCode> {
    let n = setup.levels.len();
    let default_rounds = (usize::BITS - (n - 1).leading_zeros()) as usize + 1;
    let rounds = args
        .rounds
        .map_or(default_rounds, |r| r as usize)
        .min(n - 1 + usize::from(n % 2 == 1))
        .max(1);
    let mut event = Tournament {
        name: Some(format!("toguz levels, {n} players")),
        players: (0..n)
            .map(|i| TrfPlayer {
                number: i + 1,
                name: setup.names[i].clone(),
                rating: seed_rating(setup.levels[i]),
                points: 0,
                rank: 0,
                rounds: Vec::new(),
            })
            .collect(),
        total_rounds: Some(rounds),
        initial_color: Some(Color::White),
    };
    // Pairing numbers by seeding: strongest first, as FIDE orders them.
    event
        .players
        .sort_by(|a, b| b.rating.cmp(&a.rating).then(a.number.cmp(&b.number)));
    let order: Vec<usize> = event.players.iter().map(|p| p.number - 1).collect();
    for (i, p) in event.players.iter_mut().enumerate() {
        p.number = i + 1;
    }
    println!("Swiss, {n} players, {rounds} rounds");
    for round in 1..=rounds {
        let pairing = pair(&event).with_context(|| format!("cannot pair round {round}"))?;
        let boards: Vec<(usize, usize)> = pairing.boards.clone();
        let results = play_round(setup, &order, &boards, round)?;
        println!("Round {round}");
        for ((white, black), (score, plies)) in boards.iter().zip(&results) {
            let (w, b) = match score {
                Score::Win => ('1', '0'),
                Score::Draw => ('=', '='),
                Score::Loss => ('0', '1'),
            };
            record(&mut event, *white, *black, Color::White, w);
            record(&mut event, *black, *white, Color::Black, b);
            println!(
                "  {:<12} {}-{} {:<12} ({plies} half-moves)",
                event.players[white - 1].name,
                result_text(w),
                result_text(b),
                event.players[black - 1].name
            );
        }
        if let Some(bye) = pairing.bye {
            if let Some(p) = event.players.get_mut(bye - 1) {
                p.rounds.push(RoundEntry {
                    opponent: None,
                    color: None,
                    code: 'U',
                });
                p.points += 10;
                println!("  {:<12} bye (1 point)", p.name);
            }
        }
        let table = standings(&event);
        for row in &table {
            if let Some(p) = event.players.get_mut(row.number - 1) {
                p.rank = row.rank;
            }
        }
        println!("Standings after round {round}");
        print!("{}", format_table(&event, &table));
    }
    if let Some(path) = &args.trf {
        std::fs::write(path, crate::pairing::trf::write(&event))
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("written to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn result_text(code: char) -> &'static str {
    match code {
        '1' => "1",
        '0' => "0",
        _ => "½",
    }
}

/// One round entry for pairing number `player`, and its points.
fn record(event: &mut Tournament, player: usize, opponent: usize, color: Color, code: char) {
    if let Some(p) = event.players.get_mut(player - 1) {
        let entry = RoundEntry {
            opponent: Some(opponent),
            color: Some(color),
            code,
        };
        p.points += entry.points();
        p.rounds.push(entry);
    }
}

/// Plays a round's boards (pairing numbers; `order` maps them to players) on the threads.
fn play_round(
    setup: &Setup,
    order: &[usize],
    boards: &[(usize, usize)],
    round: usize,
) -> anyhow::Result<Vec<(Score, u16)>> {
    let bar = bar(boards.len() as u64, &format!("round {round}"));
    let mut results = vec![None; boards.len()];
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|s| {
        for _ in 0..setup.jobs.clamp(1, boards.len().max(1)) {
            let (tx, next) = (tx.clone(), &next);
            s.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&(white, black)) = boards.get(i) else {
                    break;
                };
                let number = (round * 1000 + i) as u64;
                let m = setup.board(order[white - 1], order[black - 1], number);
                if tx.send((i, white_score(&m))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (i, result) in rx {
            results[i] = Some(result);
            bar.inc(1);
            if bar.is_hidden() {
                println!("  game {} of round {round} finished", i + 1);
            }
        }
    });
    bar.finish_and_clear();
    results
        .into_iter()
        .map(|r| r.context("a game of the round did not finish"))
        .collect()
}

/// One arena player's state.
struct Entrant {
    sheet: Sheet,
    last_opponent: Option<u32>,
    colour_balance: i32,
    last_white: Option<bool>,
}

fn arena_run(setup: &Setup, length: Duration) -> anyhow::Result<ExitCode> {
    let n = setup.levels.len();
    println!(
        "Arena, {n} players, {:.1} minutes",
        length.as_secs_f64() / 60.0
    );
    let mut players: Vec<Entrant> = (0..n)
        .map(|_| Entrant {
            sheet: Sheet::default(),
            last_opponent: None,
            colour_balance: 0,
            last_white: None,
        })
        .collect();
    let started = Instant::now();
    let bar = bar(length.as_secs().max(1), "arena (s)");
    let (tx, rx) = mpsc::channel::<(usize, usize, Score, u16)>();
    let mut waiting: Vec<usize> = (0..n).collect();
    let (mut running, mut played, mut quarter) = (0usize, 0u64, 1u32);
    std::thread::scope(|s| -> anyhow::Result<()> {
        loop {
            let open = started.elapsed() < length;
            if open {
                for (white, black) in pair_waiting(&players, &mut waiting, setup) {
                    if running >= setup.jobs {
                        // No thread free: they wait for the next wave.
                        waiting.extend([white, black]);
                        continue;
                    }
                    let m = setup.board(white, black, played * 31 + running as u64);
                    let tx = tx.clone();
                    running += 1;
                    s.spawn(move || {
                        let (score, plies) = white_score(&m);
                        let _ = tx.send((white, black, score, plies));
                    });
                }
            }
            if running == 0 && !open {
                break;
            }
            // Games still running at the end count; none starts after it.
            match rx.recv_timeout(Duration::from_millis(200)) {
                Ok((white, black, score, plies)) => {
                    running -= 1;
                    played += 1;
                    finish(&mut players, white, black, score, plies);
                    if open {
                        waiting.extend([white, black]);
                    }
                    if bar.is_hidden() {
                        println!(
                            "  {} - {}: {}",
                            setup.names[white],
                            setup.names[black],
                            match score {
                                Score::Win => "1-0",
                                Score::Draw => "½-½",
                                Score::Loss => "0-1",
                            }
                        );
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            bar.set_position(started.elapsed().as_secs().min(length.as_secs()));
            if quarter < 4 && started.elapsed() >= length.mul_f64(f64::from(quarter) / 4.0) {
                bar.suspend(|| {
                    println!(
                        "Standings after {} of the time",
                        ["", "a quarter", "half", "three quarters"][quarter as usize]
                    );
                    print!("{}", arena_table(setup, &players));
                });
                quarter += 1;
            }
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    println!("Final standings ({played} games)");
    print!("{}", arena_table(setup, &players));
    Ok(ExitCode::SUCCESS)
}

/// A wave among the players waiting; those it leaves unpaired go on waiting.
fn pair_waiting(
    players: &[Entrant],
    waiting: &mut Vec<usize>,
    setup: &Setup,
) -> Vec<(usize, usize)> {
    let list: Vec<Waiting> = waiting
        .iter()
        .map(|&i| Waiting {
            player: i as u32,
            points: players[i].sheet.points,
            rating: f64::from(seed_rating(setup.levels[i])),
            last_opponent: players[i].last_opponent,
            colour_balance: players[i].colour_balance,
            last_white: players[i].last_white,
        })
        .collect();
    let pairs: Vec<(usize, usize)> = arena::wave(&list)
        .into_iter()
        .map(|(w, b)| (w as usize, b as usize))
        .collect();
    waiting.retain(|i| !pairs.iter().any(|&(w, b)| w == *i || b == *i));
    pairs
}

/// Scores a finished arena game for both players.
fn finish(players: &mut [Entrant], white: usize, black: usize, score: Score, plies: u16) {
    let (w, b) = match score {
        Score::Win => (GameResult::Win, GameResult::Loss),
        Score::Draw => (GameResult::Draw, GameResult::Draw),
        Score::Loss => (GameResult::Loss, GameResult::Win),
    };
    for (me, other, result, white_side) in [(white, black, w, true), (black, white, b, false)] {
        let p = &mut players[me];
        p.sheet.score(Played {
            result,
            plies,
            moves: arena::own_moves(plies, white_side),
            berserk: false,
        });
        p.last_opponent = Some(other as u32);
        p.colour_balance += if white_side { 1 } else { -1 };
        p.last_white = Some(white_side);
    }
}

/// The arena's standings: rank, name, points, games, and each game's points (fire marked).
fn arena_table(setup: &Setup, players: &[Entrant]) -> String {
    let mut entries: Vec<arena::Entry<'_>> = players
        .iter()
        .enumerate()
        .map(|(i, p)| arena::Entry {
            player: i as u32,
            rating: f64::from(seed_rating(setup.levels[i])),
            sheet: &p.sheet,
        })
        .collect();
    arena::rank(&mut entries);
    let width = setup
        .names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = format!(
        "{:>4}  {:<width$}  {:>4} {:>5}  games\n",
        "Rank", "Name", "Pts", "Games"
    );
    for (rank, e) in entries.iter().enumerate() {
        let marks: Vec<String> = e.sheet.marks.iter().map(u8::to_string).collect();
        let fire = if e.sheet.on_fire() { " (on fire)" } else { "" };
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:>4} {:>5}  {}{fire}\n",
            rank + 1,
            setup.names[e.player as usize],
            e.sheet.points,
            e.sheet.games,
            marks.join(" ")
        ));
    }
    out
}
