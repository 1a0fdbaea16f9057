//! `toguz review (--moves TEXT | FILE | -) [--json] [-o graph.png] [--nodes N] [--lang L]`:
//! the engine goes through a game (docs/review.md). Without `--json` it prints one line per
//! half-move and then the summary a chat gets; with `--json`, one JSON object per half-move.

use crate::i18n::Lang;
use crate::review::{review_game, PlyJson, Review, ReviewOptions, DEFAULT_NODES};
use crate::rules::{parse_record, replay, Record, RecordResult, Side};
use anyhow::{anyhow, bail, Context};
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct ReviewArgs {
    /// The game's moves: `1. 76 98 2. 66 87`, or bare pits `7 9 6 8`.
    #[arg(long, conflicts_with = "file")]
    pub moves: Option<String>,
    /// A record file (PGN-style headers name the players); `-` reads standard input.
    pub file: Option<String>,
    /// One JSON object per half-move: ply, move, eval_before, eval_after, best, loss.
    #[arg(long)]
    pub json: bool,
    /// Also draw the evaluation graph into this PNG file.
    #[arg(short = 'o', long = "output")]
    pub output: Option<String>,
    /// Nodes searched per position (the same game gives the same review on every machine).
    #[arg(long, default_value_t = DEFAULT_NODES,
          value_parser = clap::value_parser!(u64).range(crate::review::MIN_NODES..=crate::review::MAX_NODES))]
    pub nodes: u64,
    /// Language of the summary and the graph: en, ru or kk.
    #[arg(long, default_value = "en")]
    pub lang: Lang,
}

pub fn run(args: ReviewArgs) -> anyhow::Result<ExitCode> {
    let text = match (&args.moves, &args.file) {
        (Some(moves), _) => moves.clone(),
        (None, Some(file)) => super::read_input(file)?,
        (None, None) => {
            bail!("give the game: --moves TEXT, a record file, or - for standard input")
        }
    };
    let record = parse_record(&text).context("bad record")?;
    let start = record.start_position()?;
    let plies = replay(&record, start).map_err(|d| anyhow!("{d}"))?;
    if plies.is_empty() {
        bail!("the record has no moves to review");
    }
    let pits: Vec<u8> = plies.iter().map(|p| p.report.pit).collect();
    let review = review_game(start, &pits, ReviewOptions { nodes: args.nodes })?;
    let game = GameFacts::of(&record, &review);
    if let Some(path) = &args.output {
        let png = crate::render::review_graph(&game.graph(&review, args.lang))?;
        std::fs::write(path, png).with_context(|| format!("cannot write {path}"))?;
    }
    if args.json {
        for ply in &review.plies {
            println!("{}", serde_json::to_string(&PlyJson::from(ply))?);
        }
    } else {
        for ply in &review.plies {
            println!("{}", ply_line(ply));
        }
        println!();
        print!(
            "{}",
            crate::review::summary_text(
                &review,
                &game.names,
                &game.result_line(args.lang),
                args.lang
            )
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `12... 76   +3.10 -> -16.90  best 98X  loss 20.00`
fn ply_line(p: &crate::review::PlyReview) -> String {
    let number = match p.side() {
        Side::White => format!("{}.", p.move_number),
        Side::Black => format!("{}...", p.move_number),
    };
    format!(
        "{number:<7} {:<6} {:>+8.2} -> {:>+8.2}  best {:<6} loss {:.2}",
        p.played,
        p.before.balls(),
        p.after.balls(),
        p.best,
        p.loss_balls()
    )
}

/// What a record says about its game beyond the moves: names and result.
struct GameFacts {
    names: [String; 2],
    result: RecordResult,
}

impl GameFacts {
    fn of(record: &Record, review: &Review) -> GameFacts {
        // A record without names leaves them empty: the summary and the graph then name
        // the side alone, in the reader's language.
        let name = |header: &str| record.header(header).unwrap_or_default().to_string();
        let end = review.plies.last().map(|p| p.report.outcome);
        let result = match end.flatten() {
            Some(outcome) => RecordResult::from_winner(outcome.winner),
            None => record.written_result().unwrap_or(RecordResult::Unknown),
        };
        GameFacts {
            names: [name("White"), name("Black")],
            result,
        }
    }

    fn result_line(&self, lang: Lang) -> String {
        crate::review::result_words(lang, self.result)
    }

    fn graph(&self, review: &Review, lang: Lang) -> crate::render::GraphView {
        crate::render::GraphView::new(review, self.names.clone(), self.result_line(lang), lang)
    }
}
