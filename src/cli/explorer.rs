//! `toguz explorer import FILE...`: record files counted into the opening explorer as
//! masters' games, in chunks (a stopped run resumes: games already in are skipped), with a
//! progress bar on a terminal and a count of what was taken and refused, with reasons.
//! `toguz explorer [--moves "P P P"] [--source ...] [--json]`: the moves played from the
//! position those pits reach, best-played first (docs/explorer.md).

use super::export::StoreArgs;
use crate::explorer::{
    category_code, import_pipelined, query, record_chunks, Answer, Band, Filter, Refusal, Scope,
    Source,
};
use crate::model::Category;
use crate::rules::{Position, Variant};
use crate::store::Tree;
use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ExplorerArgs {
    #[command(subcommand)]
    pub command: Option<ExplorerCommand>,
    #[command(flatten)]
    pub show: ShowArgs,
}

#[derive(clap::Subcommand, Debug)]
pub enum ExplorerCommand {
    /// Count record files (the formats `toguz replay` reads) into the explorer as masters'
    /// games; games already in are skipped.
    Import(ImportArgs),
}

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// Record files; `-` reads standard input.
    #[arg(required = true)]
    pub files: Vec<String>,
    /// Games written at once (one durable write each).
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub chunk: u64,
    /// After the import, print the explorer trees' logical bytes (keys and values), the
    /// store directory's size (with --data-dir) and the record files' gzip size.
    #[arg(long)]
    pub sizes: bool,
}

#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// The pits played from the start, each in the mover's own numbering (1-9): "7 7 2".
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Whose games: masters, club or player:NAME (default: every game in the store).
    #[arg(long, value_parser = parse_scope)]
    pub source: Option<Scope>,
    /// Only games of this time category (may be given more than once).
    #[arg(long, value_enum)]
    pub category: Vec<CategoryArg>,
    /// Only games of this rating band: unrated, 1200 (below), 1200-1600, 1600-2000, 2000
    /// (and above); may be given more than once.
    #[arg(long, value_parser = parse_band)]
    pub band: Vec<Band>,
    /// The variant whose games count ("9", "5", "3 no-tuzdek", ... as records name
    /// them); the standard game unless given.
    #[arg(long, value_parser = parse_variant_arg)]
    pub variant: Option<Variant>,
    /// How many of the last games through the position to list.
    #[arg(long, default_value_t = 3)]
    pub last: usize,
    /// Print JSON: {"games": N, "moves": [{"pit", "games", "white", "draws", "black", ...}]}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum CategoryArg {
    Blitz,
    Rapid,
    Correspondence,
    /// Records that name no time control.
    Unknown,
}

fn parse_scope(text: &str) -> Result<Scope, String> {
    match text {
        "masters" => Ok(Scope::Source(Source::Masters)),
        "club" => Ok(Scope::Source(Source::Club)),
        "all" => Ok(Scope::All),
        _ => match text.strip_prefix("player:") {
            Some(name) if !name.trim().is_empty() => Ok(Scope::Player(name.to_string())),
            _ => Err(format!(
                "{text:?} is not a source (write masters, club or player:NAME)"
            )),
        },
    }
}

fn parse_variant_arg(text: &str) -> Result<Variant, String> {
    crate::rules::parse_variant(text).ok_or_else(|| format!("{text:?} is not a variant"))
}

fn parse_band(text: &str) -> Result<Band, String> {
    Band::parse(text).ok_or_else(|| {
        format!("{text:?} is not a rating band (write unrated, 1200, 1200-1600, 1600-2000 or 2000)")
    })
}

/// The position `moves` reach from the start of `variant`.
pub fn position_after(variant: Variant, moves: &str) -> anyhow::Result<Position> {
    let mut position = Position::start(variant);
    for (i, word) in moves.split_whitespace().enumerate() {
        let pit: u8 = match word.parse() {
            Ok(p @ 1..=9) => p,
            _ => bail!("move {}: {word:?} is not a pit (1-9)", i + 1),
        };
        position
            .play(pit)
            .map_err(|e| anyhow::anyhow!("move {} ({pit}): {e}", i + 1))?;
    }
    Ok(position)
}

pub fn run(args: ExplorerArgs) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    match args.command {
        Some(ExplorerCommand::Import(import)) => runtime.block_on(run_import(import)),
        None => runtime.block_on(show(args.show)),
    }
}

async fn show(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let position = position_after(args.variant.unwrap_or(Variant::STANDARD), &args.moves)?;
    let store = args.store.open().await?;
    let filter = Filter {
        categories: args
            .category
            .iter()
            .map(|c| {
                category_code(match c {
                    CategoryArg::Blitz => Some(Category::Blitz),
                    CategoryArg::Rapid => Some(Category::Rapid),
                    CategoryArg::Correspondence => Some(Category::Correspondence),
                    CategoryArg::Unknown => None,
                })
            })
            .collect(),
        bands: args.band.clone(),
    };
    let scope = args.source.clone().unwrap_or(Scope::All);
    let answer = query(&store, &position, &scope, &filter, args.last)
        .await
        .context("cannot read the explorer")?;
    if args.json {
        println!("{}", serde_json::to_string(&answer)?);
    } else {
        print_table(&answer);
    }
    Ok(ExitCode::SUCCESS)
}

fn percent(part: u64, whole: u64) -> String {
    format!("{:>3}%", (part * 100 + whole / 2) / whole.max(1))
}

fn print_table(answer: &Answer) {
    println!("{} games", answer.games);
    if answer.moves.is_empty() {
        return;
    }
    println!("pit   games  white  draws  black  rating");
    for m in &answer.moves {
        let rating = m.rating.map_or_else(|| "-".to_string(), |r| r.to_string());
        println!(
            "{:>3}  {:>6}  {}   {}   {}   {:>6}",
            m.pit,
            m.games,
            percent(m.white, m.games),
            percent(m.draws, m.games),
            percent(m.black, m.games),
            rating
        );
    }
    if !answer.last.is_empty() {
        println!("last games:");
    }
    for g in &answer.last {
        let i = &g.info;
        let result = serde_json::to_value(i.result)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let date = i.date.as_deref().unwrap_or("");
        println!("  pit {}: {} - {} {result} {date}", g.pit, i.white, i.black);
    }
}

/// What an import took and refused.
#[derive(Debug, Default)]
struct Totals {
    added: usize,
    already: usize,
    refused: BTreeMap<&'static str, usize>,
    examples: Vec<String>,
}

impl Totals {
    fn refuse(&mut self, file: &str, line: usize, refusal: &Refusal) {
        *self.refused.entry(refusal.kind()).or_default() += 1;
        if self.examples.len() < 10 {
            self.examples.push(format!("{file}:{line}: {refusal}"));
        }
    }
}

async fn run_import(args: ImportArgs) -> anyhow::Result<ExitCode> {
    // An import may start a store of its own.
    if let Some(dir) = &args.store.data_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let store = args.store.open().await?;
    let mut totals = Totals::default();
    let texts: Vec<(String, String)> = args
        .files
        .iter()
        .map(|f| super::read_input(f).map(|t| (f.clone(), t)))
        .collect::<anyhow::Result<_>>()?;
    let records: usize = texts
        .iter()
        .map(|(_, t)| t.matches("\n\n[").count() + 1)
        .sum();
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(records as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let chunk = usize::try_from(args.chunk).unwrap_or(500);
    let chunks = record_chunks(&texts, chunk);
    let counted = import_pipelined(&store, chunks, |file, line, game| {
        bar.inc(1);
        if let Err(refusal) = game {
            totals.refuse(file, line, refusal);
        }
    })
    .await
    .context("cannot write to the explorer (the games counted so far are kept)")?;
    totals.added += counted.added;
    totals.already += counted.already;
    bar.finish_and_clear();
    report(&totals);
    if args.sizes {
        print_sizes(store, args.store.data_dir.as_deref(), &texts).await?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The store's size three ways beside the records' gzip size (docs/explorer.md "Figures":
/// the issue allows the store 3 times the records' gzip size).
async fn print_sizes(
    store: crate::store::Store,
    dir: Option<&std::path::Path>,
    texts: &[(String, String)],
) -> anyhow::Result<()> {
    let mut logical = 0;
    for tree in [Tree::ExplorerPositions, Tree::ExplorerGames] {
        let size = store
            .logical_size(tree)
            .await
            .context("cannot measure the explorer's trees")?;
        eprintln!(
            "  {}: {} records, {} bytes of keys and values",
            tree.name(),
            size.records,
            size.bytes
        );
        logical += size.bytes;
    }
    // sled writes its last pages when closed: measure the directory after.
    drop(store);
    let mut gzip = 0;
    for (_, text) in texts {
        gzip += gzip_size(text.as_bytes()).context("cannot gzip the records")?;
    }
    eprintln!("  records: {gzip} bytes gzip-compressed (level 6)");
    let times = |bytes: u64| bytes as f64 / gzip.max(1) as f64;
    eprintln!(
        "  explorer trees: {logical} bytes ({:.1}x the records' gzip size)",
        times(logical)
    );
    if let Some(dir) = dir {
        let on_disk = dir_size(dir);
        eprintln!(
            "  store directory: {on_disk} bytes ({:.1}x)",
            times(on_disk)
        );
    }
    Ok(())
}

fn gzip_size(bytes: &[u8]) -> std::io::Result<u64> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?.len() as u64)
}

/// The bytes of every file under `path`.
fn dir_size(path: &std::path::Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(path) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => dir_size(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}

fn report(totals: &Totals) {
    let refused: usize = totals.refused.values().sum();
    eprintln!(
        "toguz: took {} games, skipped {} already in, refused {refused}",
        totals.added, totals.already
    );
    for (kind, n) in &totals.refused {
        eprintln!("  {n} refused: {kind}");
    }
    for example in &totals.examples {
        eprintln!("  {example}");
    }
}
