//! `toguz render`: draw any position as the text board or the PNG image.
//!
//! ```text
//! toguz render --moves "1. 76 98 2. 66 87" --perspective black
//! toguz render --position "10,10,1,10,10,10,10,10,10/0,10,10,10,10,10,10,10,10 10/0 b 1" \
//!     --format png -o board.png
//! ```

use crate::i18n::Lang;
use crate::render::{self, BoardView, Charset};
use crate::rules::{parse_record, replay, MoveReport, Position, Side};
use anyhow::{bail, Context};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// Moves from the start (`76 98 66`, `1. 76 98 2. 66 87`, or a whole record); `-` reads
    /// them from standard input. The board shows the position after the last move.
    #[arg(long, conflicts_with = "position")]
    pub moves: Option<String>,
    /// A position string, e.g. `9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 w 1`.
    #[arg(long)]
    pub position: Option<String>,
    /// Whose row is drawn at the bottom.
    #[arg(long, value_enum, default_value = "white")]
    pub perspective: PerspectiveArg,
    #[arg(long, value_enum, default_value = "text")]
    pub format: FormatArg,
    /// Language of the labels: en, ru or kk.
    #[arg(long, default_value = "en")]
    pub lang: Lang,
    /// Plain-ASCII text board (for terminals without Unicode).
    #[arg(long)]
    pub ascii: bool,
    /// White's display name (default: the record's White header, else "White").
    #[arg(long)]
    pub white: Option<String>,
    /// Black's display name.
    #[arg(long)]
    pub black: Option<String>,
    /// Write to this file instead of standard output.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerspectiveArg {
    White,
    Black,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatArg {
    Text,
    Png,
}

pub fn run(args: RenderArgs) -> anyhow::Result<ExitCode> {
    let view = build_view(&args)?;
    let bytes = match args.format {
        FormatArg::Text => {
            let charset = if args.ascii {
                Charset::Ascii
            } else {
                Charset::Unicode
            };
            let mut text = render::text(&view, charset);
            text.push('\n');
            text.into_bytes()
        }
        FormatArg::Png => render::png(&view)?,
    };
    match &args.output {
        Some(path) => std::fs::write(path, &bytes)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => write_stdout(&bytes, args.format)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The position, last move and names the arguments describe.
pub fn build_view(args: &RenderArgs) -> anyhow::Result<BoardView> {
    let mut names = [None, None];
    let (position, last_move) = match (&args.moves, &args.position) {
        (Some(moves), _) => {
            let text = if moves == "-" {
                super::read_input("-")?
            } else {
                moves.clone()
            };
            let (position, last, headers) = play_moves(&text)?;
            names = headers;
            (position, last)
        }
        (None, Some(fen)) => (
            Position::from_fen(fen).with_context(|| format!("bad position {fen:?}"))?,
            None,
        ),
        (None, None) => (Position::default(), None),
    };
    let lang = args.lang;
    let name = |given: &Option<String>, header: Option<String>, side: Side| {
        given
            .clone()
            .or(header)
            .unwrap_or_else(|| crate::i18n::words::side_name(lang, side))
    };
    let [white, black] = names;
    Ok(BoardView {
        position,
        last_move,
        names: [
            name(&args.white, white, Side::White),
            name(&args.black, black, Side::Black),
        ],
        perspective: match args.perspective {
            PerspectiveArg::White => Side::White,
            PerspectiveArg::Black => Side::Black,
        },
        lang,
        result_line: None,
        hint: None,
    })
}

type Played = (Position, Option<MoveReport>, [Option<String>; 2]);

/// Replays a move list or record; returns the final position, the last move and the names
/// from the record's headers.
fn play_moves(text: &str) -> anyhow::Result<Played> {
    let record = parse_record(text).context("cannot read the moves")?;
    let start = record.start_position()?;
    let plies = replay(&record, start).map_err(|d| anyhow::anyhow!("{d}"))?;
    let end = plies.last().map_or(start, |p| p.position);
    let header = |h: &str| record.header(h).map(str::to_string);
    Ok((
        end,
        plies.last().map(|p| p.report),
        [header("White"), header("Black")],
    ))
}

fn write_stdout(bytes: &[u8], format: FormatArg) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if format == FormatArg::Png && out.is_terminal() {
        bail!("refusing to write a PNG image to the terminal: use -o FILE or redirect the output");
    }
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .context("cannot write to standard output")
}
