//! The monospace board, at most `WIDTH` columns so it never wraps in a phone's chat.
//!
//! ```text
//! » Aibek (Black) · Store 0
//!     9   8   7   6   5   4   3   2   1
//!    10  10  10 (0)  10  10  10  10  10
//!  ═════════════════════════════════════
//!    10  10  10  10  10  10 [1]  10  10
//!     1   2   3   4   5   6   7   8   9
//!   Asel (White) · Store 10
//! Last move: [7] → (6), captured 10
//! Black to move
//! ```
//! Each pit is a 4-column cell whose count ends in its third column, so the marks of the last
//! move (`[` `]` the pit played, `(` `)` where the last ball landed) fit around it. A tuzdek
//! reads `X`.

use super::{
    clean_name, has_tuzdek, last_move_line, pit_marks, pit_state, side_name, status_line,
    BoardView, Charset, PitMarks, PitState,
};
use crate::rules::Side;
use crate::t;

/// The widest line, in characters.
pub const WIDTH: usize = 40;
/// Columns of one pit.
const CELL: usize = 4;
/// The indent before the first pit column.
const INDENT: &str = " ";

/// The characters that differ between the Unicode board and the ASCII one.
struct Glyphs {
    rule: char,
    arrow: &'static str,
    separator: &'static str,
    turn: &'static str,
    ellipsis: &'static str,
}

impl Glyphs {
    fn of(charset: Charset) -> Glyphs {
        match charset {
            Charset::Unicode => Glyphs {
                rule: '═',
                arrow: "→",
                separator: " · ",
                turn: "» ",
                ellipsis: "…",
            },
            Charset::Ascii => Glyphs {
                rule: '=',
                arrow: "->",
                separator: " - ",
                turn: "> ",
                ellipsis: "~",
            },
        }
    }
}

pub(super) fn render(view: &BoardView, charset: Charset) -> String {
    let g = Glyphs::of(charset);
    let top = view.perspective.other();
    let bottom = view.perspective;
    let top_pits: Vec<u8> = (1..=9).rev().collect();
    let bottom_pits: Vec<u8> = (1..=9).collect();

    let mut lines = vec![
        player_line(view, top, charset, &g),
        numbers_row(&top_pits),
        counts_row(view, top, &top_pits),
        rule_line(view, &g),
        counts_row(view, bottom, &bottom_pits),
        numbers_row(&bottom_pits),
        player_line(view, bottom, charset, &g),
    ];
    if let Some(m) = view.last_move {
        let notation = format!("[{}] {} ({})", m.pit, g.arrow, m.landing_pit);
        if let Some(line) = last_move_line(view, &notation) {
            lines.extend(wrap(&line, WIDTH));
        }
    }
    lines.extend(wrap(&status_line(view, g.separator), WIDTH));
    if charset == Charset::Ascii {
        lines = lines.iter().map(|l| to_ascii(l)).collect();
    }
    lines.join("\n")
}

/// "» Aibek (Black) · Store 12", the name shortened to keep the line within `WIDTH`.
fn player_line(view: &BoardView, side: Side, charset: Charset, g: &Glyphs) -> String {
    let p = &view.position;
    let marker = if !p.is_over() && p.to_move() == side {
        g.turn
    } else {
        "  "
    };
    let name = clean_name(view, side, |c| charset == Charset::Unicode || c.is_ascii());
    let side_label = side_name(view.lang, side);
    // A player without a name is shown by side alone, not "Black (Black)".
    let side_part = if name.to_lowercase() == side_label.to_lowercase() {
        String::new()
    } else {
        format!(" ({side_label})")
    };
    let suffix = format!(
        "{side_part}{}{} {}",
        g.separator,
        t!(view.lang, "board-store"),
        p.store(side)
    );
    let room = WIDTH.saturating_sub(marker.chars().count() + suffix.chars().count());
    format!("{marker}{}{suffix}", shorten(&name, room, g.ellipsis))
}

fn numbers_row(pits: &[u8]) -> String {
    let cells: String = pits.iter().map(|pit| format!("{pit:>3} ")).collect();
    format!("{INDENT}{cells}").trim_end().to_string()
}

fn counts_row(view: &BoardView, side: Side, pits: &[u8]) -> String {
    let cells: String = pits
        .iter()
        .map(|&pit| {
            cell(
                pit_state(&view.position, side, pit),
                pit_marks(view, side, pit),
            )
        })
        .collect();
    format!("{INDENT}{cells}").trim_end().to_string()
}

/// One pit: the count (or `X`) ending in the third column, with the last move's marks.
fn cell(state: PitState, marks: PitMarks) -> String {
    let value = match state {
        PitState::Balls(n) => n.to_string(),
        PitState::Tuzdek => "X".to_string(),
    };
    let (open, close) = match (marks.played, marks.landed) {
        _ if marks.better => ("{", "}"),
        (true, true) => ("[", ")"),
        (true, false) => ("[", "]"),
        (false, true) => ("(", ")"),
        (false, false) => ("", " "),
    };
    let mut head = format!("{open}{value}");
    if head.len() > CELL - 1 {
        // A three-digit count leaves no room for the opening mark.
        head = value;
    }
    format!("{head:>width$}{close}", width = CELL - 1)
}

/// The line between the rows; it names the tuzdek mark once a tuzdek exists.
fn rule_line(view: &BoardView, g: &Glyphs) -> String {
    let width = 9 * CELL + 1;
    let rule = |n: usize| g.rule.to_string().repeat(n);
    if !has_tuzdek(&view.position) {
        return format!("{INDENT}{}", rule(width));
    }
    let legend = format!(" {} ", t!(view.lang, "board-tuzdek-legend"));
    let left = width.saturating_sub(legend.chars().count()) / 2;
    let right = width.saturating_sub(left + legend.chars().count());
    format!("{INDENT}{}{legend}{}", rule(left), rule(right))
}

/// `text` cut to `max` characters, ending in `ellipsis` when cut: the one way a text is
/// shortened for display (a board's names, a Discord message, a Telegram button).
pub fn shorten(text: &str, max: usize, ellipsis: &str) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let keep = max.saturating_sub(ellipsis.chars().count());
    let mut cut: String = text.chars().take(keep).collect();
    cut.push_str(ellipsis);
    cut
}

/// Greedy word wrap to `width` characters; a longer word is split.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        while word.len() > width {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            lines.push(word.drain(..width).collect());
        }
        let word: String = word.into_iter().collect();
        let needed = line.chars().count() + usize::from(!line.is_empty()) + word.chars().count();
        if needed > width && !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The ASCII board keeps labels in the view's language; anything else non-ASCII (a name
/// the caller did not clean, a stray symbol) becomes `?` so the frame stays aligned.
fn to_ascii(line: &str) -> String {
    line.chars()
        .map(|c| {
            if c.is_ascii() || c.is_alphabetic() {
                c
            } else {
                '?'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_keep_the_count_in_the_third_column() {
        let none = PitMarks::default();
        let played = PitMarks {
            played: true,
            ..none
        };
        let landed = PitMarks {
            landed: true,
            ..none
        };
        let better = PitMarks {
            better: true,
            ..none
        };
        assert_eq!(cell(PitState::Balls(9), none), "  9 ");
        assert_eq!(cell(PitState::Balls(10), none), " 10 ");
        assert_eq!(cell(PitState::Balls(1), played), " [1]");
        assert_eq!(cell(PitState::Balls(12), landed), "(12)");
        assert_eq!(cell(PitState::Tuzdek, landed), " (X)");
        assert_eq!(cell(PitState::Balls(120), landed), "120)");
        let both = PitMarks {
            played: true,
            landed: true,
            better: false,
        };
        assert_eq!(cell(PitState::Balls(5), both), " [5)");
        assert_eq!(cell(PitState::Balls(5), better), " {5}");
    }

    #[test]
    fn wrap_keeps_every_word_within_the_width() {
        let text = "Қаралардың жүрісі · Соңғы жүріс: [7] → (6), 10 құмалақ алынды";
        let lines = wrap(text, 20);
        assert!(lines.iter().all(|l| l.chars().count() <= 20), "{lines:?}");
        assert_eq!(lines.join(" "), text);
        assert_eq!(wrap("", 10), vec![String::new()]);
        assert_eq!(wrap(&"x".repeat(25), 10).len(), 3);
    }

    #[test]
    fn shorten_marks_a_cut() {
        assert_eq!(shorten("Айгерім", 10, "…"), "Айгерім");
        assert_eq!(shorten("Айгерім", 5, "…"), "Айге…");
        assert_eq!(shorten("abcdef", 4, "~"), "abc~");
    }
}
