//! `toguz analyze [--moves TEXT | --position STR] [--movetime MS | --depth N | --nodes N] [--json]`:
//! one line per finished iteration, then the best move, score, depth, nodes, nodes per
//! second and principal variation. With `--json` the last line is one JSON object with keys
//! `bestmove`, `score`, `depth`, `nodes`, `nps`, `pv` (and `mate`, `bestmove_text`, `time_ms`,
//! and the search thread's CPU time `cpu_ms` with `nps_cpu`, nodes per CPU-second).

use crate::engine::protocol::play_moves;
use crate::engine::{plies_to_end, Limits, SearchInfo, Searcher, BALL};
use crate::rules::{parse_variant, Position};
use anyhow::{anyhow, Context};
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// Moves played from the start: `76 98 66`, `1. 76 98`, or bare pits `7 9 6`.
    #[arg(long, conflicts_with = "position")]
    pub moves: Option<String>,
    /// A position string (see `toguz render --help` or docs/rules.md).
    #[arg(long)]
    pub position: Option<String>,
    /// The variant the moves start from, e.g. `5 no-tuzdek` (default: standard).
    #[arg(long, conflicts_with = "position")]
    pub variant: Option<String>,
    /// Think this long (milliseconds). The default is 1000 unless --depth or --nodes is given.
    #[arg(long, conflicts_with = "depth", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub movetime: Option<u64>,
    /// Search exactly this deep (plies).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Stop after about this many nodes (no clock: the same answer on every machine, as
    /// `toguz review` searches each position).
    #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
    /// End with one JSON object.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: AnalyzeArgs) -> anyhow::Result<ExitCode> {
    let pos = start_position(&args)?;
    if pos.is_over() {
        anyhow::bail!("the game is over in this position: there is nothing to analyze");
    }
    let limits = Limits {
        depth: args.depth,
        movetime: match args.movetime {
            Some(ms) => Some(Duration::from_millis(ms)),
            None if args.depth.is_some() || args.nodes.is_some() => None,
            None => Some(Duration::from_millis(1000)),
        },
        nodes: args.nodes,
    };
    let mut searcher = Searcher::new(args.hash as usize);
    let cpu_before = thread_cpu_time();
    let result = searcher.search(&pos, limits, |info| {
        if !args.json {
            println!("{}", iteration_line(&pos, info));
        }
    });
    let best = result
        .best_move
        .ok_or_else(|| anyhow!("no legal move in this position"))?;
    let info = &result.info;
    let pv = pv_text(&pos, &info.pv);
    // On a busy machine the wall clock undercounts speed; CPU time shows what one core does.
    let cpu = thread_cpu_time()
        .zip(cpu_before)
        .map(|(after, before)| after.saturating_sub(before));
    let nps_cpu = cpu
        .filter(|t| !t.is_zero())
        .map(|t| (info.nodes as f64 / t.as_secs_f64()) as u64);
    if args.json {
        let json = serde_json::json!({
            "bestmove": best,
            "bestmove_text": pv.first(),
            "score": info.score,
            "mate": plies_to_end(info.score),
            "depth": info.depth,
            "nodes": info.nodes,
            "nps": info.nps(),
            "time_ms": info.elapsed.as_millis() as u64,
            "cpu_ms": cpu.map(|t| t.as_millis() as u64),
            "nps_cpu": nps_cpu,
            "pv": pv,
        });
        println!("{json}");
    } else {
        println!(
            "bestmove {} score {} depth {} nodes {} nps {} time {:.3}s pv {}",
            pv.first().map_or(best.to_string(), Clone::clone),
            score_words(info.score),
            info.depth,
            info.nodes,
            info.nps(),
            info.elapsed.as_secs_f64(),
            pv.join(" ")
        );
        if let (Some(cpu), Some(nps_cpu)) = (cpu, nps_cpu) {
            println!("cpu {:.3}s nps per cpu-second {nps_cpu}", cpu.as_secs_f64());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// CPU time of the calling thread so far (Linux: `/proc/thread-self/schedstat`, whose first
/// field is nanoseconds on the CPU, updated at scheduler ticks); `None` elsewhere.
fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

fn start_position(args: &AnalyzeArgs) -> anyhow::Result<Position> {
    if let Some(fen) = &args.position {
        return Position::from_fen(fen).context("bad --position");
    }
    let variant = match &args.variant {
        Some(v) => parse_variant(v).ok_or_else(|| anyhow!("unknown variant {v:?}"))?,
        None => Default::default(),
    };
    let moves = args.moves.as_deref().unwrap_or("");
    play_moves(Position::start(variant), moves).map_err(|e| anyhow!("bad --moves: {e}"))
}

fn iteration_line(pos: &Position, info: &SearchInfo) -> String {
    format!(
        "depth {:>2} score {:>9} nodes {:>11} nps {:>9} time {:>7.3}s pv {}",
        info.depth,
        score_words(info.score),
        info.nodes,
        info.nps(),
        info.elapsed.as_secs_f64(),
        pv_text(pos, &info.pv).join(" ")
    )
}

/// `+1.25` (balls, for the side to move), or `win in 5` / `loss in 4` (plies).
pub fn score_words(score: i32) -> String {
    match plies_to_end(score) {
        Some(p) if p > 0 => format!("win in {p}"),
        Some(p) => format!("loss in {}", -p),
        None => format!("{:+.2}", score as f64 / BALL as f64),
    }
}

/// The principal variation in move text (`76 98X ...`), stopping at anything unplayable.
pub fn pv_text(pos: &Position, pv: &[u8]) -> Vec<String> {
    let mut p = *pos;
    let mut out = Vec::with_capacity(pv.len());
    for &pit in pv {
        match p.play(pit) {
            Ok(report) => out.push(report.notation().to_string()),
            Err(_) => break,
        }
    }
    out
}
