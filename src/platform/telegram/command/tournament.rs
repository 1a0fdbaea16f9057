//! The arguments of `/tournament`: its subcommands and the terms of a new event.

use super::{
    is_one_of, level, split_time, take_word, variant, CommandError, NewEvent, TournamentCommand,
    TournamentFormat, ARENA_MINUTES, ARENA_MINUTES_RANGE, STARTS_IN_MAX, STARTS_IN_MINUTES,
    SWISS_ROUNDS, SWISS_ROUNDS_RANGE, UNRATED_PHRASES, UNRATED_WORDS,
};
use crate::model::{TimeControl, TimeControlError};
use crate::rules::Variant;

/// The words of `/tournament`'s subcommands, in each language.
const NEW_WORDS: [&str; 4] = ["new", "create", "новый", "жаңа"];
const JOIN_WORDS: [&str; 3] = ["join", "войти", "қосылу"];
const LEAVE_WORDS: [&str; 3] = ["leave", "выйти", "шығу"];
const STANDINGS_WORDS: [&str; 4] = ["standings", "table", "таблица", "кесте"];
const CANCEL_WORDS: [&str; 3] = ["cancel", "отменить", "болдырмау"];
const BOT_WORDS: [&str; 2] = ["bot", "бот"];
const BYE_WORDS: [&str; 3] = ["bye", "пропуск", "өткізу"];
const ARENA_WORDS: [&str; 2] = ["arena", "арена"];
const SWISS_WORDS: [&str; 4] = ["swiss", "швейцарка", "швейцарская", "швейцар"];
/// `in 10 minutes`: the word before the number, and the minute words after it.
const IN_WORDS: [&str; 3] = ["in", "через", "after"];
/// `10 минуттан кейін`: the word after the number and its minute word.
const LATER_WORDS: [&str; 2] = ["кейін", "соң"];
const MINUTE_WORDS: [&str; 10] = [
    "m",
    "min",
    "mins",
    "minute",
    "minutes",
    "мин",
    "минут",
    "минуты",
    "минуту",
    "минуттан",
];

/// `/tournament`'s arguments.
pub(super) fn tournament(args: &str) -> Result<TournamentCommand, CommandError> {
    let mut words = args.split_whitespace();
    let Some(sub) = words.next() else {
        return Ok(TournamentCommand::Usage);
    };
    let rest: Vec<&str> = words.collect();
    let how = || CommandError::Tournament(args.to_string());
    if is_one_of(sub, &NEW_WORDS) {
        let (terms, variant) = variant::take(&rest.join(" "))?;
        let terms: Vec<&str> = terms.split_whitespace().collect();
        if let Some(error) = refused_days(&terms) {
            return Err(CommandError::Time(error));
        }
        return match new_event(&terms, variant) {
            Ok(event) => Ok(event),
            Err(Some(word)) => Err(CommandError::Word {
                word,
                command: "tournament",
            }),
            Err(None) => Err(how()),
        };
    }
    let only = |cmd: TournamentCommand| match rest.is_empty() {
        true => Ok(cmd),
        false => Err(how()),
    };
    if is_one_of(sub, &JOIN_WORDS) {
        return only(TournamentCommand::Join);
    }
    if is_one_of(sub, &LEAVE_WORDS) {
        return only(TournamentCommand::Leave);
    }
    if is_one_of(sub, &CANCEL_WORDS) {
        return only(TournamentCommand::Cancel);
    }
    if is_one_of(sub, &STANDINGS_WORDS) {
        let id = match rest.as_slice() {
            [] => None,
            [id] if id.len() <= 32 && id.chars().all(|c| c.is_ascii_alphanumeric()) => {
                Some(id.to_ascii_lowercase())
            }
            _ => return Err(how()),
        };
        return Ok(TournamentCommand::Standings { id });
    }
    if is_one_of(sub, &BYE_WORDS) {
        return match rest.as_slice() {
            [] => Ok(TournamentCommand::Bye { round: None }),
            [n] => match n.parse::<u8>() {
                Ok(round) if round > 0 => Ok(TournamentCommand::Bye { round: Some(round) }),
                _ => Err(how()),
            },
            _ => Err(how()),
        };
    }
    if is_one_of(sub, &BOT_WORDS) {
        return match level(&rest.join(" "), "tournament")? {
            Some(level) => Ok(TournamentCommand::Bot { level }),
            None => Err(how()),
        };
    }
    Err(how())
}

/// Takes the start time out of `words`, wherever it stands: `in N [minutes]`, `через N
/// минут`, `N минуттан кейін`. `Some(None)` when there is none; `None` when it is started
/// but not a number.
fn take_starts_in(words: &mut Vec<&str>) -> Option<Option<u16>> {
    if let Some(at) = words.iter().position(|w| is_one_of(w, &IN_WORDS)) {
        let n: u16 = words.get(at + 1)?.parse().ok()?;
        let unit = words
            .get(at + 2)
            .is_some_and(|w| is_one_of(w, &MINUTE_WORDS));
        words.drain(at..at + 2 + usize::from(unit));
        return Some(Some(n));
    }
    let Some(later) = words.iter().position(|w| is_one_of(w, &LATER_WORDS)) else {
        return Some(None);
    };
    let at = later.checked_sub(2)?;
    if !is_one_of(words[at + 1], &MINUTE_WORDS) {
        return None;
    }
    let n: u16 = words[at].parse().ok()?;
    words.drain(at..=later);
    Some(Some(n))
}

/// Takes the first of `phrases` (any case) out of `words`; whether it was there.
fn take_phrase(words: &mut Vec<&str>, phrases: &[[&str; 2]]) -> bool {
    for phrase in phrases {
        let found = words
            .windows(2)
            .position(|w| is_one_of(w[0], &phrase[..1]) && is_one_of(w[1], &phrase[1..]));
        if let Some(at) = found {
            words.drain(at..at + 2);
            return true;
        }
    }
    false
}

/// `new arena|swiss [count] [time] [in N minutes] [unrated]` (the variant's words taken
/// out already). `Err(Some(word))` for a word left over once the terms were read (`2 dayz`:
/// the time was read as `2`, and `dayz` is refused, not dropped); `Err(None)` if the terms
/// are not understood or a number is out of bounds.
fn new_event(words: &[&str], variant: Variant) -> Result<TournamentCommand, Option<String>> {
    terms_of(words, variant)
        .ok_or(None)
        .and_then(|(event, leftover)| match leftover {
            Some(word) => Err(Some(word)),
            None => Ok(event),
        })
}

/// The first number of days no game may have among `words` (`4 days`, `4d`): refused
/// naming those it may, wherever it stands.
fn refused_days(words: &[&str]) -> Option<TimeControlError> {
    let pairs = words.windows(2).map(|pair| pair.join(" "));
    let singles = words.iter().map(|word| word.to_string());
    pairs
        .chain(singles)
        .find_map(|text| match TimeControl::parse(&text) {
            Err(error @ TimeControlError::Days(_)) => Some(error),
            _ => None,
        })
}

/// Whether `words` begin with a number of days (`2 days`, `4 дня`: a time control, allowed
/// or not), rather than a bare number.
fn names_days(words: &[&str]) -> bool {
    words.get(..2).is_some_and(|pair| {
        matches!(
            TimeControl::parse(&pair.join(" ")),
            Ok(TimeControl::Days(_)) | Err(TimeControlError::Days(_))
        )
    })
}

/// What `new_event` reads: the event, and the first word left over.
fn terms_of(words: &[&str], variant: Variant) -> Option<(TournamentCommand, Option<String>)> {
    let (format, rest) = words.split_first()?;
    let arena = is_one_of(format, &ARENA_WORDS);
    if !arena && !is_one_of(format, &SWISS_WORDS) {
        return None;
    }
    let mut rest: Vec<&str> = rest.to_vec();
    let starts_in = take_starts_in(&mut rest)?.unwrap_or(STARTS_IN_MINUTES);
    if starts_in > STARTS_IN_MAX {
        return None;
    }
    let phrase = take_phrase(&mut rest, &UNRATED_PHRASES);
    let (unrated_rest, unrated) = take_word(&rest.join(" "), &UNRATED_WORDS);
    let unrated = unrated || phrase;
    let mut rest: Vec<&str> = unrated_rest.split_whitespace().collect();
    // A bare number first is the length: an arena's minutes, a Swiss event's rounds; unless
    // a word for days follows it (`swiss 2 days`: the time control).
    let count: Option<u16> = match rest.first() {
        Some(w) if w.chars().all(|c| c.is_ascii_digit()) && !names_days(&rest) => {
            let n = w.parse().ok()?;
            rest.remove(0);
            Some(n)
        }
        _ => None,
    };
    let (leftover, time) = split_time(&rest.join(" ")).ok()?;
    let leftover = leftover.split_whitespace().next().map(str::to_string);
    let time = time.unwrap_or(TimeControl::fischer(3, 2));
    let format = if arena {
        let minutes = count.unwrap_or(ARENA_MINUTES);
        // An arena is a race against its clock: no correspondence games.
        if !ARENA_MINUTES_RANGE.contains(&minutes) || !time.is_timed() {
            return None;
        }
        TournamentFormat::Arena { minutes }
    } else {
        let rounds = u8::try_from(count.unwrap_or(u16::from(SWISS_ROUNDS))).ok()?;
        if !SWISS_ROUNDS_RANGE.contains(&rounds) {
            return None;
        }
        TournamentFormat::Swiss { rounds }
    };
    let event = TournamentCommand::New(NewEvent {
        format,
        time,
        variant,
        starts_in,
        rated: !unrated,
    });
    Some((event, leftover))
}
