//! `toguz replay`: replay one record and check it, or `--check` every record in many files.

use crate::model::pgn_clock;
use crate::render::{self, BoardView, Charset};
use crate::rules::{
    parse_record, parse_records, replay, Disagreement, Position, Record, RecordResult, ReplayedPly,
    Side,
};
use anyhow::{bail, Context};
use serde::Serialize;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// Print one JSON object per half-move instead of the final board.
    #[arg(long, conflicts_with = "check")]
    pub json: bool,
    /// Check every game in multi-game record files and print a summary.
    #[arg(long)]
    pub check: bool,
    /// Record files; `-` (the default) reads standard input.
    #[arg(default_value = "-")]
    pub files: Vec<String>,
}

pub fn run(args: ReplayArgs) -> anyhow::Result<ExitCode> {
    if args.check {
        return check_files(&args.files);
    }
    let [file] = args.files.as_slice() else {
        bail!("replay takes one record file (use --check for several)");
    };
    let text = super::read_input(file)?;
    let record = parse_record(&text).with_context(|| file.to_string())?;
    let start = record.start_position().with_context(|| file.to_string())?;
    let plies = match replay(&record, start) {
        Ok(plies) => plies,
        Err(d) => {
            eprintln!("toguz: {file}: {d}");
            return Ok(ExitCode::from(1));
        }
    };
    if args.json {
        for (i, ply) in plies.iter().enumerate() {
            let mut json = PlyJson::new(i + 1, ply);
            json.clock = record.moves.get(i).and_then(|m| m.clock_ms).map(pgn_clock);
            println!("{}", serde_json::to_string(&json)?);
        }
    } else {
        print_final(&record, start, &plies);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_final(record: &Record, start: Position, plies: &[ReplayedPly]) {
    let end = plies.last().map_or(start, |p| p.position);
    let view = BoardView {
        position: end,
        last_move: plies.last().map(|p| p.report),
        names: [
            record.header("White").unwrap_or("White").to_string(),
            record.header("Black").unwrap_or("Black").to_string(),
        ],
        perspective: Side::White,
        lang: crate::i18n::Lang::En,
        result_line: None,
        hint: None,
    };
    println!("{}", render::text(&view, Charset::Unicode));
    let result = match end.outcome() {
        Some(o) => RecordResult::from_winner(o.winner),
        None => record.written_result().unwrap_or(RecordResult::Unknown),
    };
    println!("{} half-moves, result {}", plies.len(), result.as_str());
    print_clocks(record);
}

/// The time control and each side's last `%clk`, for a record of a game on a clock.
fn print_clocks(record: &Record) {
    if let Some(control) = record.time_control().filter(|c| c.is_timed()) {
        println!("time control {control} ({})", control.category().name());
    }
    let last = |side: usize| {
        record
            .moves
            .iter()
            .skip(side)
            .step_by(2)
            .filter_map(|m| m.clock_ms)
            .next_back()
    };
    let (white, black) = (last(0), last(1));
    if white.is_some() || black.is_some() {
        let shown = |ms: Option<u64>| ms.map_or_else(|| "-".to_string(), pgn_clock);
        println!(
            "clocks after the last moves: White {}, Black {}",
            shown(white),
            shown(black)
        );
    }
}

/// One half-move in the format of tests/data/README.md.
#[derive(Serialize, Debug, PartialEq)]
pub struct PlyJson {
    pub ply: usize,
    #[serde(rename = "move")]
    pub mv: String,
    pub pits: [[u8; 9]; 2],
    pub kazans: [u8; 2],
    pub tuzdeks: [Option<u8>; 2],
    pub to_move: Side,
    pub result: Option<&'static str>,
    /// The mover's time left after the move, from the record's `%clk` comment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<String>,
}

impl PlyJson {
    pub fn new(index: usize, ply: &ReplayedPly) -> PlyJson {
        let p = &ply.position;
        PlyJson {
            ply: index,
            mv: ply.report.notation().to_string(),
            pits: [p.row(Side::White), p.row(Side::Black)],
            kazans: [p.store(Side::White), p.store(Side::Black)],
            tuzdeks: [p.tuzdek(Side::White), p.tuzdek(Side::Black)],
            to_move: p.to_move(),
            result: p.outcome().map(|o| match o.winner {
                Some(Side::White) => "white",
                Some(Side::Black) => "black",
                None => "draw",
            }),
            clock: None,
        }
    }
}

/// Totals of a `--check` run.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct CheckSummary {
    pub games: usize,
    pub half_moves: usize,
    pub disagreements: Vec<String>,
}

/// Replays every record of `text`; a record that does not parse counts as a disagreement.
pub fn check_text(name: &str, text: &str, summary: &mut CheckSummary) {
    for parsed in parse_records(text) {
        summary.games += 1;
        let record = match parsed {
            Ok(r) => r,
            Err(e) => {
                summary.disagreements.push(format!("{name}: {e}"));
                continue;
            }
        };
        let outcome = record
            .start_position()
            .map_err(|e| e.to_string())
            .and_then(|start| replay(&record, start).map_err(|d| describe(&record, &d)));
        match outcome {
            Ok(plies) => summary.half_moves += plies.len(),
            Err(msg) => summary.disagreements.push(format!("{name}: {msg}")),
        }
    }
}

fn describe(record: &Record, d: &Disagreement) -> String {
    format!("{}: {d}", record.title())
}

fn check_files(files: &[String]) -> anyhow::Result<ExitCode> {
    let mut summary = CheckSummary::default();
    for file in files {
        let text = super::read_input(file)?;
        check_text(file, &text, &mut summary);
    }
    println!(
        "{} games, {} half-moves, {} disagreements",
        summary.games,
        summary.half_moves,
        summary.disagreements.len()
    );
    for d in summary.disagreements.iter().take(10) {
        println!("  {d}");
    }
    Ok(if summary.disagreements.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
