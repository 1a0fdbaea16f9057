//! The words for clocks, shared by every adapter: both clocks under a board, when the flag
//! falls, a time control in a challenge, and why a typed time control was refused.
//!
//! Boards are edited once per move, never every second (flood limits allow no more), so a
//! board shows the time each side had at the last move and the moment the side to move's
//! time runs out: on Discord a `<t:UNIX:R>` timestamp the client counts down by itself, on
//! Telegram and the console the time of day in UTC.

use crate::i18n::Lang;
use crate::manager::{FinishReason, GameStatus, GameView};
use crate::model::{clock_text, Category, TimeControl, TimeControlError};
use crate::rules::Side;
use crate::t;
use crate::timecontrol::ClockEvent;

/// How the moment a clock runs out is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockStyle {
    /// A Discord timestamp (`<t:UNIX:R>`): the client shows a live countdown.
    Live,
    /// The time of day in UTC (`21:47:05`), for Telegram and the console.
    TimeOfDay,
}

/// The clock lines of a timed game: both sides' time at the last move, and (while the game
/// goes on) when the side to move's time runs out or its first move is due.
pub fn clock_lines(view: &GameView, lang: Lang, style: ClockStyle) -> Vec<String> {
    let Some(clock) = &view.clock else {
        return Vec::new();
    };
    let mut lines = vec![t!(
        lang,
        "manager-clock",
        control = time_control_text(clock.control, lang),
        white = clock_text(clock.at_last_move_ms[Side::White.index()]),
        black = clock_text(clock.at_last_move_ms[Side::Black.index()])
    )];
    if let Some(deadline) = clock.deadline.filter(|_| !view.is_over()) {
        let when = moment(deadline.at_ms, style);
        let line = match (deadline.event, style) {
            (ClockEvent::Flag(side), ClockStyle::Live) => {
                t!(
                    lang,
                    "manager-clock-runs-out-live",
                    side = side.name(),
                    when = when
                )
            }
            (ClockEvent::Flag(side), ClockStyle::TimeOfDay) => {
                t!(
                    lang,
                    "manager-clock-runs-out",
                    side = side.name(),
                    time = when
                )
            }
            (ClockEvent::Abort(side), ClockStyle::Live) => t!(
                lang,
                "manager-first-move-by-live",
                name = name(view, side, lang),
                when = when
            ),
            (ClockEvent::Abort(side), ClockStyle::TimeOfDay) => t!(
                lang,
                "manager-first-move-by",
                name = name(view, side, lang),
                time = when
            ),
        };
        lines.push(line);
    }
    lines
}

fn name(view: &GameView, side: Side, lang: Lang) -> String {
    super::names::player_name(view.player(side), lang)
}

/// Whether a game ended on time, with nobody pressing: a flag, a first move not made, a
/// move time run out. Board edits notify nobody, so adapters tell the players then.
pub fn ended_on_time(view: &GameView) -> bool {
    matches!(
        view.status,
        GameStatus::Finished {
            reason: FinishReason::TimedOut(_) | FinishReason::FirstMoveMissed(_),
            ..
        }
    )
}

/// `<t:1764539225:R>` or `21:47:05` (UTC), for a unix time in milliseconds. A timestamp is
/// rounded up: Discord counts whole seconds and must not say "now" before the flag falls.
fn moment(at_ms: u64, style: ClockStyle) -> String {
    match style {
        ClockStyle::Live => format!("<t:{}:R>", at_ms.div_ceil(1000)),
        ClockStyle::TimeOfDay => {
            let secs = at_ms.div_ceil(1000) % 86_400;
            format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
        }
    }
}

/// A time control as a challenge names it: "blitz 3+2", "rapid 10+5"; nothing for
/// correspondence (every game was correspondence before clocks, and texts stay as they were).
pub fn time_control_text(control: TimeControl, lang: Lang) -> String {
    let shown = control.to_string();
    match control.category() {
        Category::Blitz => t!(lang, "manager-time-blitz", control = shown),
        Category::Rapid => t!(lang, "manager-time-rapid", control = shown),
        Category::Correspondence => String::new(),
    }
}

/// Why a typed time control was refused, with valid examples.
pub fn time_control_error(error: &TimeControlError, lang: Lang) -> String {
    match error {
        TimeControlError::Format(text) => {
            t!(lang, "manager-time-error-format", text = text.as_str())
        }
        TimeControlError::TooShort(text) => {
            t!(lang, "manager-time-error-too-short", text = text.as_str())
        }
        TimeControlError::TooLong(text) => {
            t!(lang, "manager-time-error-too-long", text = text.as_str())
        }
        TimeControlError::IncrementTooLong(text) => {
            t!(lang, "manager-time-error-increment", text = text.as_str())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manager::{ClockView, Player};
    use crate::model::{ChatRef, Platform, UserRef};
    use crate::timecontrol::Deadline;

    fn timed_view() -> GameView {
        let user = |id: &str| Player::Human(UserRef::new(Platform::Telegram, id, id));
        let mut view = GameView::sample(
            "g1",
            ChatRef::new(Platform::Telegram, "c"),
            [user("Asel"), user("Aibek")],
        );
        view.clock = Some(ClockView {
            control: TimeControl::fischer(3, 2),
            left_ms: [150_000, 161_000],
            at_last_move_ms: [161_000, 172_400],
            deadline: Some(Deadline {
                at_ms: 1_764_539_224_500,
                event: ClockEvent::Flag(Side::White),
            }),
            shown_at_ms: 1_764_539_213_500,
            after_move_ms: vec![],
            berserk: [false; 2],
        });
        view
    }

    #[test]
    fn a_board_shows_both_clocks_and_when_the_flag_falls() {
        let view = timed_view();
        let text = clock_lines(&view, Lang::En, ClockStyle::TimeOfDay);
        assert_eq!(
            text,
            [
                "Clock blitz 3+2: 2:41 : 2:52",
                "White's time runs out at 21:47:05 UTC."
            ]
        );
        let live = clock_lines(&view, Lang::Ru, ClockStyle::Live);
        assert_eq!(live[1], "Время белых истечёт <t:1764539225:R>.");
        let kk = clock_lines(&view, Lang::Kk, ClockStyle::TimeOfDay);
        assert_eq!(
            kk[1],
            "Ақтардың уақыты UTC бойынша сағат 21:47:05 болғанда бітеді."
        );
        let mut first = view.clone();
        if let Some(clock) = first.clock.as_mut() {
            clock.deadline = clock.deadline.map(|d| Deadline {
                event: ClockEvent::Abort(Side::Black),
                ..d
            });
        }
        let line = &clock_lines(&first, Lang::En, ClockStyle::Live)[1];
        assert_eq!(
            line,
            "Aibek: make your first move, or the game will be aborted <t:1764539225:R>."
        );
        let kk = &clock_lines(&first, Lang::Kk, ClockStyle::TimeOfDay)[1];
        assert_eq!(
            kk,
            "Aibek: алғашқы жүрісті UTC бойынша сағат 21:47:05 болғанша жасаңыз, әйтпесе ойын тоқтатылады."
        );
    }

    #[test]
    fn a_correspondence_game_has_no_clock_lines() {
        let mut view = timed_view();
        view.clock = None;
        assert!(clock_lines(&view, Lang::En, ClockStyle::Live).is_empty());
        assert_eq!(time_control_text(TimeControl::Correspondence, Lang::En), "");
    }

    #[test]
    fn a_refused_time_control_lists_examples_in_every_language() {
        for bad in ["abc", "-1+0", "1000+0", "0+0"] {
            let Err(error) = TimeControl::parse(bad) else {
                panic!("{bad} was accepted");
            };
            for lang in Lang::ALL {
                let text = time_control_error(&error, lang);
                assert!(text.contains(bad), "{lang}: {text}");
                assert!(text.contains("+0") || text.contains("+2"), "{lang}: {text}");
            }
        }
    }
}
