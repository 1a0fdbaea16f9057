//! Puzzles at the terminal (a child of `console`): `puzzle`, `puzzle daily`, `puzzle
//! stats`, `puzzle top`; while a puzzle is on, a pit number plays in it and `board` shows it.

use super::{console_chat, Console};
use crate::manager::puzzles::{PuzzleKind, PuzzleView};
use crate::model::Platform;
use crate::platform::present::{self, puzzle as show};
use crate::ratings::keys::Scope;
use crate::render::{self, Charset};
use std::io::Write;

/// What `puzzle` asks for at the terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PuzzleAsk {
    Next,
    Daily,
    Stats,
    Top,
}

/// `puzzle [daily|stats|top]` (and the Russian and Kazakh words); `None`: other words.
pub(super) fn parse_puzzle(rest: Option<&str>) -> Option<PuzzleAsk> {
    let word = rest.map(|r| r.trim().to_lowercase()).unwrap_or_default();
    Some(match word.as_str() {
        "" | "next" | "следующая" | "келесі" => PuzzleAsk::Next,
        "daily" | "today" | "дня" | "день" | "күн" => PuzzleAsk::Daily,
        "stats" | "статистика" => PuzzleAsk::Stats,
        "top" | "лучшие" | "үздіктер" => PuzzleAsk::Top,
        _ => return None,
    })
}

/// Whether a typed word asks for puzzles.
pub(super) fn is_puzzle_word(word: &str) -> bool {
    matches!(word, "puzzle" | "p" | "задача" | "есеп")
}

impl<W: Write> Console<W> {
    /// Whether a puzzle is on (pit numbers go to it).
    pub(super) fn solving(&self) -> bool {
        self.puzzle.as_ref().is_some_and(|p| !p.is_over())
    }

    pub(super) async fn puzzle_command(&mut self, ask: PuzzleAsk) -> anyhow::Result<()> {
        let lang = self.lang();
        let user = self.actor();
        let text = match ask {
            PuzzleAsk::Next | PuzzleAsk::Daily => {
                let kind = match ask {
                    PuzzleAsk::Daily => PuzzleKind::Daily,
                    _ => PuzzleKind::Next,
                };
                match self.manager.puzzle(&user, &console_chat(), kind).await {
                    Ok(view) => return self.show_puzzle(view),
                    Err(e) => present::error_text(&e, lang),
                }
            }
            PuzzleAsk::Stats => match self.manager.puzzle_stats(&user).await {
                Ok(stats) => show::puzzle_stats_text(&stats, lang),
                Err(e) => present::error_text(&e, lang),
            },
            PuzzleAsk::Top => {
                let scope = Scope::Platform(Platform::Console);
                match self.manager.puzzle_leaderboard(scope, Some(&user)).await {
                    Ok(board) => show::puzzle_leaderboard_text(&board, lang),
                    Err(e) => present::error_text(&e, lang),
                }
            }
        };
        Ok(self.say(&text)?)
    }

    /// A pit played in the puzzle on.
    pub(super) async fn puzzle_pit(&mut self, pit: u8) -> anyhow::Result<()> {
        let Some(on) = self.puzzle.clone() else {
            return Ok(());
        };
        let user = self.actor();
        let pressed = (on.attempt, on.step, pit);
        match self.manager.puzzle_move(&user, &on.owner.id, pressed).await {
            Ok(view) => self.show_puzzle(view),
            Err(e) => {
                let text = present::error_text(&e, self.lang());
                Ok(self.say(&text)?)
            }
        }
    }

    /// Prints the puzzle's board and caption, and keeps it as the one on.
    pub(super) fn show_puzzle(&mut self, view: PuzzleView) -> anyhow::Result<()> {
        let lang = self.lang();
        let board = show::puzzle_board_view(&view, lang);
        let text = render::text(&board, Charset::Unicode);
        self.say(text.trim_end())?;
        self.say(&show::puzzle_caption(&view, lang))?;
        self.puzzle = Some(view);
        Ok(())
    }
}
