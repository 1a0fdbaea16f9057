//! The arguments of `/puzzle` and `/web`.

use super::{is_one_of, take_word, CommandError, PuzzleCommand, WebCommand, GLOBAL_WORDS};

/// Words of `/puzzle`'s parts, in English, Russian and Kazakh.
const DAILY_WORDS: [&str; 6] = ["daily", "today", "день", "дня", "күн", "бүгін"];
const STATS_WORDS: [&str; 3] = ["stats", "статистика", "стат"];
const POST_WORDS: [&str; 4] = ["post", "schedule", "публиковать", "жариялау"];
const OFF_WORDS: [&str; 4] = ["off", "stop", "выкл", "өшіру"];
const TOP_WORDS: [&str; 6] = [
    "top",
    "leaderboard",
    "лучшие",
    "рейтинг",
    "үздіктер",
    "кесте",
];

/// `/puzzle`'s arguments.
pub(super) fn puzzle(args: &str) -> Result<PuzzleCommand, CommandError> {
    let how = || CommandError::Puzzle(args.to_string());
    let (rest, global) = take_word(args, &GLOBAL_WORDS);
    let words: Vec<&str> = rest.split_whitespace().collect();
    let cmd = match words.as_slice() {
        [] => PuzzleCommand::Next,
        [w] if is_one_of(w, &DAILY_WORDS) => PuzzleCommand::Daily,
        [w] if is_one_of(w, &STATS_WORDS) => PuzzleCommand::Stats,
        [w] if is_one_of(w, &TOP_WORDS) => PuzzleCommand::Top { global },
        [w, when] if is_one_of(w, &POST_WORDS) => PuzzleCommand::Post {
            hour: post_hour(when).ok_or_else(how)?,
        },
        _ => return Err(how()),
    };
    match (global, cmd) {
        (true, PuzzleCommand::Top { .. }) | (false, _) => Ok(cmd),
        (true, _) => Err(how()),
    }
}

/// `off` (no more posts), or an hour of the day: `9`, `09`, `9:00`, `21:00` (UTC).
fn post_hour(word: &str) -> Option<Option<u8>> {
    if is_one_of(word, &OFF_WORDS) {
        return Some(None);
    }
    let hour = word.strip_suffix(":00").unwrap_or(word);
    let hour: u8 = hour.parse().ok().filter(|h| *h < 24)?;
    Some(Some(hour))
}

/// Words of `/web`'s parts, in English, Russian and Kazakh.
const PUBLIC_WORDS: [&str; 4] = ["public", "публично", "открыто", "ашық"];
const PROFILE_WORDS: [&str; 3] = ["profile", "профиль", "бет"];
/// `/web login` and `/web logout` (issue 50), in each language.
const LOGIN_WORDS: [&str; 5] = ["login", "signin", "войти", "вход", "кіру"];
const LOGOUT_WORDS: [&str; 5] = ["logout", "signout", "выйти", "выход", "шығу"];
const ON_WORDS: [&str; 4] = ["on", "yes", "вкл", "қосу"];

/// `/web`'s arguments: nothing, `public on|off` or `profile on|off`.
pub(super) fn web(args: &str) -> Result<WebCommand, CommandError> {
    let words: Vec<&str> = args.split_whitespace().collect();
    match words.as_slice() {
        [] => Ok(WebCommand::Show),
        [w] if is_one_of(w, &LOGIN_WORDS) => Ok(WebCommand::Login),
        [w] if is_one_of(w, &LOGOUT_WORDS) => Ok(WebCommand::Logout),
        [w, on] if is_one_of(w, &PUBLIC_WORDS) && is_one_of(on, &ON_WORDS) => {
            Ok(WebCommand::Public(true))
        }
        [w, off] if is_one_of(w, &PUBLIC_WORDS) && is_one_of(off, &OFF_WORDS) => {
            Ok(WebCommand::Public(false))
        }
        [w, on] if is_one_of(w, &PROFILE_WORDS) && is_one_of(on, &ON_WORDS) => {
            Ok(WebCommand::Profile(true))
        }
        [w, off] if is_one_of(w, &PROFILE_WORDS) && is_one_of(off, &OFF_WORDS) => {
            Ok(WebCommand::Profile(false))
        }
        _ => Err(CommandError::Web(args.to_string())),
    }
}
