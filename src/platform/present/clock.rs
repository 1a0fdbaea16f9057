//! The words for clocks, shared by every adapter: both clocks under a board, when the flag
//! falls, the time left in a game with days per move, a time control in a challenge, and
//! why a typed time control was refused.
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

/// A time control as a challenge names it: "blitz 3+2", "rapid 10+5", "2 days per move";
/// nothing for plain correspondence (every game was correspondence before clocks, and
/// texts stay as they were).
pub fn time_control_text(control: TimeControl, lang: Lang) -> String {
    let shown = control.to_string();
    match (control, control.category()) {
        (TimeControl::Days(days), _) => t!(lang, "manager-time-days", days = days),
        (_, Category::Blitz) => t!(lang, "manager-time-blitz", control = shown),
        (_, Category::Rapid) => t!(lang, "manager-time-rapid", control = shown),
        (_, Category::Correspondence) => String::new(),
    }
}

/// A time control named even when it is plain correspondence (a page, a list of games).
pub fn time_control_name(control: TimeControl, lang: Lang) -> String {
    match control {
        TimeControl::Correspondence => t!(lang, "category-correspondence"),
        named => time_control_text(named, lang),
    }
}

/// The line of a game with days per move while a person is to move: the control, the
/// time left for this move when the view was made, and when it runs out ("2 days per move:
/// 1 day 4 h left (until 03.12.2026 21:47 UTC)."). `None` for other games.
pub fn days_left_line(view: &GameView, lang: Lang, style: ClockStyle) -> Option<String> {
    let TimeControl::Days(_) = view.time_control else {
        return None;
    };
    let deadline = view.timeout_at.filter(|_| !view.is_over())?;
    Some(t!(
        lang,
        "manager-days-left",
        control = time_control_text(view.time_control, lang),
        span = span_text(deadline.saturating_sub(view.shown_at), lang),
        when = date_moment(deadline, style)
    ))
}

/// A span of time as a player reads it: "1 day 4 h", "2 days", "5 h", "45 min". Days and
/// hours are whole ones gone down to (a clock does the same); under an hour, minutes up.
pub fn span_text(secs: u64, lang: Lang) -> String {
    let (days, hours) = (secs / 86_400, secs % 86_400 / 3600);
    let mut parts = Vec::with_capacity(2);
    if days > 0 {
        parts.push(t!(lang, "manager-span-days", days = days));
    }
    if hours > 0 {
        parts.push(t!(lang, "manager-span-hours", hours = hours));
    }
    if parts.is_empty() {
        parts.push(t!(
            lang,
            "manager-span-minutes",
            minutes = secs.div_ceil(60)
        ));
    }
    parts.join(" ")
}

/// A unix time as `03.12.2026 21:47 UTC`: how every text without a live timestamp writes
/// a moment.
pub fn utc_date_time(unix: u64) -> String {
    let (year, month, day) = crate::ratings::dates::civil(unix);
    let minutes = unix % 86_400 / 60;
    format!(
        "{day:02}.{month:02}.{year} {:02}:{:02} UTC",
        minutes / 60,
        minutes % 60
    )
}

/// A unix time with its date: a Discord timestamp shown in the reader's own time zone and
/// format (`<t:UNIX:f>`), elsewhere `03.12.2026 21:47 UTC`.
fn date_moment(unix: u64, style: ClockStyle) -> String {
    match style {
        ClockStyle::Live => format!("<t:{unix}:f>"),
        ClockStyle::TimeOfDay => utc_date_time(unix),
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
        TimeControlError::Days(text) => {
            t!(lang, "manager-time-error-days", text = text.as_str())
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
        view.clock = Some(Box::new(ClockView {
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
        }));
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

    /// A game of 2 days per move between people, White to move, its move made at T and
    /// shown `shown` seconds later.
    fn day_view(shown: u64) -> GameView {
        const T: u64 = 1_764_460_800; // 30.11.2025 00:00 UTC
        let mut view = timed_view();
        view.clock = None;
        view.time_control = TimeControl::Days(2);
        view.last_move_at = T;
        view.timeout_at = Some(T + 2 * 86_400);
        view.shown_at = T + shown;
        view
    }

    #[test]
    fn a_day_game_shows_the_time_left_for_the_move_in_every_language() {
        let later = day_view(86_400 - 4 * 3600);
        let en = days_left_line(&later, Lang::En, ClockStyle::TimeOfDay);
        assert_eq!(
            en.as_deref(),
            Some("2 days per move: 1 day 4 h left (until 02.12.2025 00:00 UTC).")
        );
        let ru = days_left_line(&later, Lang::Ru, ClockStyle::TimeOfDay);
        assert_eq!(
            ru.as_deref(),
            Some("2 дня на ход: осталось 1 день 4 ч (до 02.12.2025 00:00 UTC).")
        );
        let kk = days_left_line(&later, Lang::Kk, ClockStyle::TimeOfDay);
        assert_eq!(
            kk.as_deref(),
            Some("Уақыт: әр жүріске 2 күн, 1 күн 4 сағ қалды (мерзімі: 02.12.2025 00:00 UTC).")
        );
        // Discord writes the moment in the reader's own time zone.
        let live = days_left_line(&day_view(0), Lang::En, ClockStyle::Live);
        assert_eq!(
            live.as_deref(),
            Some("2 days per move: 2 days left (until <t:1764633600:f>).")
        );
        // No line once the game is over, nor for other games.
        let mut over = day_view(0);
        over.status = GameStatus::Finished {
            winner: None,
            reason: FinishReason::Agreed,
        };
        assert_eq!(days_left_line(&over, Lang::En, ClockStyle::Live), None);
        assert_eq!(
            days_left_line(&timed_view(), Lang::En, ClockStyle::Live),
            None
        );
    }

    #[test]
    fn spans_are_said_in_days_and_hours_or_minutes() {
        let cases: [(u64, [&str; 3]); 7] = [
            (2 * 86_400, ["2 days", "2 дня", "2 күн"]),
            (
                86_400 + 4 * 3600 + 59,
                ["1 day 4 h", "1 день 4 ч", "1 күн 4 сағ"],
            ),
            (5 * 86_400, ["5 days", "5 дней", "5 күн"]),
            (
                14 * 86_400 - 1,
                ["13 days 23 h", "13 дней 23 ч", "13 күн 23 сағ"],
            ),
            (21 * 3600, ["21 h", "21 ч", "21 сағ"]),
            (45 * 60 - 30, ["45 min", "45 мин", "45 мин"]),
            (0, ["0 min", "0 мин", "0 мин"]),
        ];
        for (secs, texts) in cases {
            for (lang, text) in Lang::ALL.into_iter().zip(texts) {
                assert_eq!(span_text(secs, lang), text, "{secs} s in {lang}");
            }
        }
    }

    #[test]
    fn days_per_move_are_named_in_every_language() {
        let named = |days, lang| time_control_text(TimeControl::Days(days), lang);
        assert_eq!(named(1, Lang::En), "1 day per move");
        assert_eq!(named(14, Lang::En), "14 days per move");
        assert_eq!(named(1, Lang::Ru), "1 день на ход");
        assert_eq!(named(3, Lang::Ru), "3 дня на ход");
        assert_eq!(named(7, Lang::Ru), "7 дней на ход");
        assert_eq!(named(5, Lang::Kk), "әр жүріске 5 күн");
        assert_eq!(
            time_control_name(TimeControl::Correspondence, Lang::Ru),
            "Заочные"
        );
        assert_eq!(
            time_control_name(TimeControl::Days(2), Lang::En),
            "2 days per move"
        );
    }

    #[test]
    fn a_refused_number_of_days_names_the_allowed_ones() {
        let Err(error) = TimeControl::parse("4 дня") else {
            panic!("4 days were accepted");
        };
        for lang in Lang::ALL {
            let text = time_control_error(&error, lang);
            assert!(
                text.contains("4 дня") && text.contains("1, 2, 3, 5, 7"),
                "{lang}: {text}"
            );
            assert!(text.contains("14"), "{lang}: {text}");
        }
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
