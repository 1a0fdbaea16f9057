//! The `toguz engine` line protocol, in the style of chess engines' UCI (documented in
//! docs/engine-protocol.md). `Session::handle` takes one input line and writes the answer
//! lines; the CLI only moves lines between it and stdin/stdout, so tests drive it directly.

use super::score::plies_to_end;
use super::search::{Limits, SearchInfo, Searcher};
use super::{level_move, EngineConfig};
use crate::model::{Level, UnknownLevel};
use crate::rules::{parse_record, replay, Position};
use std::time::Duration;

/// Transposition table of a protocol session, in MiB.
const SESSION_TABLE_MB: usize = 64;
/// Longest `go movetime` accepted: one hour.
const MAX_MOVETIME_MS: u64 = 3_600_000;

/// Whether the session goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Why a line was refused; written back as `error <reason>`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    #[error("unknown command {0:?} (isready, newgame, position, go, level, quit)")]
    UnknownCommand(String),
    #[error("position: {0}")]
    Position(String),
    #[error("go: {0}")]
    Go(String),
    #[error("level: {0}")]
    Level(String),
}

/// Plays `moves` (a record's move text: `76 98 66`, `1. 76 98`, or bare pits `7 9 6`) from
/// `start`, checking any written landing pits and marks.
pub fn play_moves(start: Position, moves: &str) -> Result<Position, String> {
    if moves.trim().is_empty() {
        return Ok(start);
    }
    let record = parse_record(moves).map_err(|e| e.to_string())?;
    let plies = replay(&record, start).map_err(|e| e.to_string())?;
    Ok(plies.last().map_or(start, |p| p.position))
}

/// The score as the protocol writes it: `cp <hundredths of a ball>` or `mate <plies>`
/// (negative when the side to move loses).
pub fn score_text(score: i32) -> String {
    match plies_to_end(score) {
        Some(plies) => format!("mate {plies}"),
        None => format!("cp {score}"),
    }
}

/// One `info` line.
pub fn info_line(info: &SearchInfo) -> String {
    let pv: Vec<String> = info.pv.iter().map(|p| p.to_string()).collect();
    format!(
        "info depth {} score {} nodes {} nps {} time {} pv {}",
        info.depth,
        score_text(info.score),
        info.nodes,
        info.nps(),
        info.elapsed.as_millis(),
        pv.join(" ")
    )
}

/// One engine conversation: the current position, level and search tables.
pub struct Session {
    position: Position,
    level: Level,
    config: EngineConfig,
    searcher: Searcher,
    /// Seed of the next level move; advances so that games vary but replay identically.
    seed: u64,
}

impl Session {
    pub fn new(config: EngineConfig) -> Session {
        Session {
            position: Position::default(),
            level: Level::Max,
            config,
            searcher: Searcher::new(SESSION_TABLE_MB),
            seed: 0,
        }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Handles one line, writing answer lines to `out`. Malformed lines answer
    /// `error <reason>` and change nothing.
    pub fn handle(&mut self, line: &str, out: &mut dyn FnMut(String)) -> Flow {
        match self.dispatch(line, out) {
            Ok(flow) => flow,
            Err(e) => {
                out(format!("error {e}"));
                Flow::Continue
            }
        }
    }

    fn dispatch(&mut self, line: &str, out: &mut dyn FnMut(String)) -> Result<Flow, ProtocolError> {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "" => {}
            "isready" => out("readyok".to_string()),
            "newgame" => {
                self.position = Position::default();
                self.searcher.clear();
            }
            "position" => self.position = parse_position(rest)?,
            "go" => self.go(rest, out)?,
            "level" => {
                self.level = rest
                    .parse()
                    .map_err(|e: UnknownLevel| ProtocolError::Level(e.to_string()))?
            }
            "quit" => return Ok(Flow::Quit),
            other => return Err(ProtocolError::UnknownCommand(other.to_string())),
        }
        Ok(Flow::Continue)
    }

    fn go(&mut self, args: &str, out: &mut dyn FnMut(String)) -> Result<(), ProtocolError> {
        let limits = parse_go(args)?;
        if self.position.legal_moves().is_empty() {
            out("bestmove none".to_string());
            return Ok(());
        }
        let best = if limits == Limits::default() {
            // A bare `go`: the move of the current level, as the bot would play it.
            self.seed = self.seed.wrapping_add(1);
            let budget = self.level.budget(&self.config);
            level_move(&self.position, self.level, budget, self.seed, None)
        } else {
            self.searcher
                .search(&self.position, limits, |info| out(info_line(info)))
                .best_move
        };
        match best {
            Some(pit) => out(format!("bestmove {pit}")),
            None => out("bestmove none".to_string()),
        }
        Ok(())
    }
}

/// `startpos [moves ...]` or `fen <position string> [moves ...]`.
fn parse_position(args: &str) -> Result<Position, ProtocolError> {
    let bad = |e: String| ProtocolError::Position(e);
    let (base, moves) = match args.split_once("moves") {
        Some((base, moves)) => (base.trim(), moves),
        None => (args.trim(), ""),
    };
    let start = if base == "startpos" {
        Position::default()
    } else if let Some(fen) = base.strip_prefix("fen") {
        Position::from_fen(fen.trim()).map_err(|e| bad(e.to_string()))?
    } else {
        return Err(bad(format!(
            "expected `startpos` or `fen <position string>`, found {base:?}"
        )));
    };
    play_moves(start, moves).map_err(bad)
}

/// `movetime <ms>`, `depth <n>`, `nodes <n>`, in any combination, or nothing.
fn parse_go(args: &str) -> Result<Limits, ProtocolError> {
    let mut limits = Limits::default();
    let mut words = args.split_whitespace();
    while let Some(word) = words.next() {
        let value = words
            .next()
            .ok_or_else(|| ProtocolError::Go(format!("{word} needs a number")))?;
        let number: u64 = value
            .parse()
            .map_err(|_| ProtocolError::Go(format!("{value:?} is not a number")))?;
        match word {
            "movetime" if (1..=MAX_MOVETIME_MS).contains(&number) => {
                limits.movetime = Some(Duration::from_millis(number))
            }
            "depth" if (1..super::MAX_PLY as u64).contains(&number) => {
                limits.depth = Some(number as u32)
            }
            "nodes" if number > 0 => limits.nodes = Some(number),
            "movetime" | "depth" | "nodes" => {
                return Err(ProtocolError::Go(format!(
                    "{word} {number} is out of range"
                )))
            }
            _ => {
                return Err(ProtocolError::Go(format!(
                    "unknown limit {word:?} (movetime, depth, nodes)"
                )))
            }
        }
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(session: &mut Session, line: &str) -> Vec<String> {
        let mut lines = Vec::new();
        session.handle(line, &mut |l| lines.push(l));
        lines
    }

    #[test]
    fn answers_isready_and_quits() {
        let mut s = Session::new(EngineConfig::default());
        assert_eq!(run(&mut s, "isready"), vec!["readyok"]);
        assert_eq!(s.handle("quit", &mut |_| {}), Flow::Quit);
    }

    #[test]
    fn positions_from_moves_and_fen() {
        let mut s = Session::new(EngineConfig::default());
        assert!(run(&mut s, "position startpos moves 21 7").is_empty());
        let mut expected = Position::default();
        expected.play(2).unwrap();
        expected.play(7).unwrap();
        assert_eq!(s.position(), &expected);
        let fen = expected.to_fen();
        run(&mut s, "newgame");
        assert_eq!(s.position(), &Position::default());
        assert!(run(&mut s, &format!("position fen {fen}")).is_empty());
        assert_eq!(s.position(), &expected);
    }

    #[test]
    fn malformed_lines_get_errors_and_change_nothing() {
        let mut s = Session::new(EngineConfig::default());
        run(&mut s, "position startpos moves 21");
        let before = *s.position();
        for line in [
            "position startpos moves 25",
            "position startpos moves 0",
            "position fen 1,2,3",
            "position somewhere",
            "go depth x",
            "go movetime",
            "go depth 0",
            "go sideways 3",
            "level grandmaster",
            "fly",
        ] {
            let out = run(&mut s, line);
            assert_eq!(out.len(), 1, "{line}: {out:?}");
            assert!(out[0].starts_with("error "), "{line}: {out:?}");
        }
        assert_eq!(s.position(), &before);
    }

    #[test]
    fn go_depth_prints_info_then_a_legal_bestmove() {
        let mut s = Session::new(EngineConfig::default());
        let out = run(&mut s, "go depth 4");
        assert_eq!(out.len(), 5, "{out:?}");
        for (i, line) in out[..4].iter().enumerate() {
            assert!(
                line.starts_with(&format!("info depth {} score ", i + 1)),
                "{line}"
            );
        }
        let pit: u8 = out[4].strip_prefix("bestmove ").unwrap().parse().unwrap();
        assert!(Position::default().is_legal(pit));
    }

    #[test]
    fn a_bare_go_plays_the_level_and_a_finished_game_has_no_move() {
        let mut s = Session::new(EngineConfig::default());
        assert!(run(&mut s, "level easy").is_empty());
        let out = run(&mut s, "go");
        assert_eq!(out.len(), 1);
        let pit: u8 = out[0].strip_prefix("bestmove ").unwrap().parse().unwrap();
        assert!(Position::default().is_legal(pit));
        // White has won: 82 in store.
        run(
            &mut s,
            "position fen 0,0,0,0,0,0,0,0,0/10,10,10,10,10,10,10,10,0 82/0 b 40",
        );
        assert_eq!(run(&mut s, "go depth 3"), vec!["bestmove none"]);
    }
}
