//! The Telegram commands as one typed [`Command`], parsed in one place; the command menu and
//! `/help` are built from the same table, so they cannot drift from what is parsed.
//!
//! Adding a command: a variant of [`Command`], a row in [`SPECS`] (its word, menu and help
//! keys, and how its arguments parse), the two catalog keys in en, ru and kk, and its arm in
//! `commands.rs`. Nothing else matches on command words.

use crate::i18n::{tr, words, Lang};
use crate::model::notify::{parse_notify, NotifyChange, NotifyParseError};
use crate::model::{Category, Level, TimeControl, TimeControlError};
use crate::platform::present;
use crate::rules::Variant;
use crate::t;
use teloxide::types::BotCommand;

/// A command for this bot, with its arguments parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// The greeting of a private chat (`/start`, also sent by deep links with a payload:
    /// `zd<group id>` from a group's daily puzzle post).
    Start {
        payload: Option<String>,
    },
    Help,
    /// `/play [level] [time] [variant]`: no level asks with buttons (or, with a time
    /// control or a variant, plays the default level).
    Play {
        level: Option<Level>,
        time: Option<TimeControl>,
        variant: Variant,
    },
    /// `/challenge [@username] [time] [variant] [unrated]`; `named` is the words besides
    /// the time control, the variant and the unrated word. Whom they name is settled by the
    /// handler, which also sees replies and mention entities (a mention of someone without
    /// a username may be several words), and refuses any word they leave over. Rated unless
    /// an unrated word is given.
    Challenge {
        named: Option<String>,
        time: Option<TimeControl>,
        variant: Variant,
        rated: bool,
    },
    Board,
    Games,
    /// `/notify [on|off|digest 9 +05|quiet 23-08 +05|quiet off]` (issue 51): no words show
    /// the settings.
    Notify(Option<NotifyChange>),
    Resign,
    Draw,
    /// `/rematch [game]`; without a game, the board it replies to names one.
    Rematch {
        game: Option<String>,
    },
    /// `/review [game]`; without a game, the board it replies to, else the game that ended
    /// last in the chat.
    Review {
        game: Option<String>,
    },
    /// `/history [@username]`; without one, the author of the message it replies to, else
    /// the caller.
    History {
        named: Option<String>,
    },
    /// `/stats [@username]`, found as for `/history`.
    Stats {
        named: Option<String>,
    },
    /// `/leaderboard [global] [category]`: the group's players, or with `global` (and in a
    /// private chat) everyone on Telegram; every time category's top, or one category's in
    /// full (`blitz`, `rapid`, `correspondence` or their Russian and Kazakh names).
    Leaderboard {
        global: bool,
        category: Option<Category>,
    },
    /// `/record [game]`; without a game, the board it replies to, else the game that ended
    /// last in the chat.
    Record {
        game: Option<String>,
    },
    /// `/lang [en|ru|kk]`: no language shows the current one.
    Lang {
        lang: Option<Lang>,
    },
    /// `/tournament ...`: a tournament of the group (see [`TournamentCommand`]).
    Tournament(TournamentCommand),
    /// `/puzzle [daily|stats|top [global]]`.
    Puzzle(PuzzleCommand),
    /// `/opening [source] [moves]`: the opening explorer (its words are read by
    /// `present::explorer_chat::opening_ask`).
    Opening {
        args: String,
    },
    /// `/web [public on|off | profile on|off]`: whether the chat's games are listed on the
    /// site, and whether the caller's page lists all their games.
    Web(WebCommand),
}

/// What `/web` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WebCommand {
    /// `/web`: whether the chat is listed.
    Show,
    /// `/web public on|off`: list the chat's games or stop (the chat's admins).
    Public(bool),
    /// `/web profile on|off`: the caller's page lists all their games, or only those of
    /// listed chats (anyone, for themselves).
    Profile(bool),
    /// `/web login`: a one-time sign-in link to the site (issue 50), in a private chat only.
    Login,
    /// `/web logout`: ends every session of the caller on the site.
    Logout,
}

/// What `/puzzle` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleCommand {
    /// `/puzzle`: the puzzle on, or the next one.
    Next,
    /// `/puzzle daily`: today's puzzle.
    Daily,
    /// `/puzzle stats`: the caller's puzzle numbers.
    Stats,
    /// `/puzzle top [global]`: the chat's (or Telegram's) best solvers.
    Top { global: bool },
    /// `/puzzle post HOUR|off`: the daily puzzle posted in the chat at HOUR (UTC), or no
    /// more (the chat's admins).
    Post { hour: Option<u8> },
}

/// What `/tournament` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentCommand {
    /// `/tournament` alone: how to use it.
    Usage,
    /// `/tournament new arena [minutes] [time] [variant] [in N minutes] [unrated]`, or
    /// `swiss [rounds] ...`.
    New(NewEvent),
    Join,
    Leave,
    /// `/tournament standings [id]`: the group's newest live event, or the one named.
    Standings {
        id: Option<String>,
    },
    Cancel,
    /// `/tournament bot <level>`: the bot joins at that level.
    Bot {
        level: Level,
    },
    /// `/tournament bye [round]`: a half-point bye in a Swiss round (the next by default).
    Bye {
        round: Option<u8>,
    },
}

/// The terms of a new tournament as typed (the defaults filled in).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewEvent {
    pub format: TournamentFormat,
    pub time: TimeControl,
    /// The rules every game of the event is played with.
    pub variant: Variant,
    /// Minutes from now until the start.
    pub starts_in: u16,
    pub rated: bool,
}

/// The format as typed: an arena's minutes, a Swiss event's rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentFormat {
    Arena { minutes: u16 },
    Swiss { rounds: u8 },
}

/// Defaults of `/tournament new`.
pub const ARENA_MINUTES: u16 = 30;
pub const SWISS_ROUNDS: u8 = 5;
pub const STARTS_IN_MINUTES: u16 = 5;
/// Bounds of what `/tournament new` takes.
pub const ARENA_MINUTES_RANGE: std::ops::RangeInclusive<u16> = 5..=240;
pub const SWISS_ROUNDS_RANGE: std::ops::RangeInclusive<u8> = 1..=15;
pub const STARTS_IN_MAX: u16 = 7 * 24 * 60;

impl Command {
    /// The word it is typed with.
    pub fn word(&self) -> &'static str {
        match self {
            Command::Start { .. } => "start",
            Command::Help => "help",
            Command::Play { .. } => "play",
            Command::Challenge { .. } => "challenge",
            Command::Board => "board",
            Command::Games => "games",
            Command::Notify(_) => "notify",
            Command::Resign => "resign",
            Command::Draw => "draw",
            Command::Rematch { .. } => "rematch",
            Command::Review { .. } => "review",
            Command::History { .. } => "history",
            Command::Stats { .. } => "stats",
            Command::Leaderboard { .. } => "leaderboard",
            Command::Record { .. } => "record",
            Command::Lang { .. } => "lang",
            Command::Tournament(_) => "tournament",
            Command::Puzzle(_) => "puzzle",
            Command::Opening { .. } => "opening",
            Command::Web(_) => "web",
        }
    }
}

/// Why a command for this bot cannot be carried out as typed. Each has a localized answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// A command word we do not know. `addressed` when written `/word@this_bot`: in a
    /// group, only those are answered (groups are full of other bots' commands).
    #[error("unknown command /{word}")]
    Unknown { word: String, addressed: bool },
    #[error("unknown level {0:?}")]
    Level(String),
    #[error("unknown language {0:?}")]
    Lang(String),
    /// `/challenge` with words that name nobody (neither `@username` nor a mention).
    #[error("{0:?} names no one to challenge")]
    Opponent(String),
    /// `/leaderboard` with a word that is neither a scope nor a time category.
    #[error("unknown leaderboard scope {0:?}")]
    Scope(String),
    /// A word that looks like a time control (a number, or with `+`) but is none.
    #[error(transparent)]
    Time(TimeControlError),
    /// `/tournament` with words it does not take (the words, clipped).
    #[error("unknown tournament words {0:?}")]
    Tournament(String),
    /// `/puzzle` with words it does not take.
    #[error("unknown puzzle words {0:?}")]
    Puzzle(String),
    /// `/web` with words it does not take.
    #[error("unknown web words {0:?}")]
    Web(String),
    /// `/notify` with words it does not take.
    #[error(transparent)]
    Notify(NotifyParseError),
    /// A word `/{command}` does not take, left over once the rest was read (`/challenge
    /// @bob 2 days`: `days`). Refused, never read as something else.
    #[error("/{command} does not take {word:?}")]
    Word { word: String, command: &'static str },
    /// Words of a rules variant that name none, or two at once.
    #[error(transparent)]
    Variant(#[from] VariantWordsError),
}

impl CommandError {
    /// The answer to show, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            CommandError::Unknown { word, .. } => t!(
                lang,
                "tg-unknown-command",
                command = clip(word),
                commands = menu_words()
            ),
            CommandError::Level(given) => {
                let levels = Level::ALL.map(|l| words::level_name(lang, l)).join(", ");
                t!(
                    lang,
                    "tg-unknown-level",
                    level = clip(given),
                    levels = levels
                )
            }
            CommandError::Lang(given) => t!(lang, "tg-unknown-lang", given = clip(given)),
            CommandError::Opponent(given) => t!(lang, "tg-challenge-how", given = clip(given)),
            CommandError::Scope(given) => t!(lang, "tg-leaderboard-how", given = clip(given)),
            CommandError::Time(error) => present::time_control_error(error, lang),
            CommandError::Tournament(given) => t!(
                lang,
                "tg-tournament-how",
                given = clip(given),
                minutes = ARENA_MINUTES_RANGE.end(),
                rounds = SWISS_ROUNDS_RANGE.end()
            ),
            CommandError::Puzzle(given) => t!(lang, "tg-puzzle-how", given = clip(given)),
            CommandError::Web(given) => t!(lang, "tg-web-how", given = clip(given)),
            CommandError::Notify(error) => format!(
                "{}\n{}",
                present::alerts::notify_error(error, lang),
                t!(lang, "tg-notify-usage")
            ),
            CommandError::Word { word, command } => {
                t!(lang, "tg-extra-word", word = clip(word), command = *command)
            }
            CommandError::Variant(error) => variant_error(error, lang),
        }
    }

    /// Whether a group should hear about it: an unknown command is answered only when it was
    /// addressed to this bot by name (or in a private chat).
    pub fn answer_in_group(&self) -> bool {
        !matches!(
            self,
            CommandError::Unknown {
                addressed: false,
                ..
            }
        )
    }
}

/// What is wrong with the variant words, and the words that work.
fn variant_error(error: &VariantWordsError, lang: Lang) -> String {
    match error {
        VariantWordsError::Balls(given) => t!(
            lang,
            "tg-variant-balls",
            given = clip(given),
            counts = Variant::BALLS_PER_PIT.map(|n| n.to_string()).join(", ")
        ),
        VariantWordsError::Unclear(given) => t!(lang, "tg-variant-how", given = clip(given)),
        VariantWordsError::Clash(first, second) => t!(
            lang,
            "tg-variant-clash",
            first = clip(first),
            second = clip(second)
        ),
    }
}

/// Echoed input is cut short: a reply never repeats a wall of text back.
fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

/// One command: its word, its catalog keys and how its arguments parse.
struct Spec {
    word: &'static str,
    /// Its line in Telegram's command menu; `None` keeps it out of the menu.
    menu: Option<&'static str>,
    /// Its line in `/help`; `None` leaves it out.
    help: Option<&'static str>,
    parse: fn(&str) -> Result<Command, CommandError>,
}

/// Every command, in menu and help order.
const SPECS: [Spec; 20] = [
    Spec {
        word: "start",
        menu: None,
        help: None,
        parse: |args| {
            let payload = first_word(args);
            Ok(Command::Start { payload })
        },
    },
    Spec {
        word: "play",
        menu: Some("tg-cmd-play"),
        help: Some("tg-help-play"),
        parse: |args| {
            let (args, variant) = variant::take(args)?;
            let (args, time) = split_time(&args)?;
            Ok(Command::Play {
                level: level(&args, "play")?,
                time,
                variant,
            })
        },
    },
    Spec {
        word: "challenge",
        menu: Some("tg-cmd-challenge"),
        help: Some("tg-help-challenge"),
        parse: |args| {
            let (args, variant) = variant::take(args)?;
            let (args, time) = split_time(&args)?;
            let (args, unrated) = take_word(&args, &UNRATED_WORDS);
            let named = Some(args).filter(|a| !a.is_empty());
            Ok(Command::Challenge {
                named,
                time,
                variant,
                rated: !unrated,
            })
        },
    },
    Spec {
        word: "board",
        menu: Some("tg-cmd-board"),
        help: Some("tg-help-board"),
        parse: |_| Ok(Command::Board),
    },
    Spec {
        word: "games",
        menu: Some("tg-cmd-games"),
        help: Some("tg-help-games"),
        parse: |_| Ok(Command::Games),
    },
    Spec {
        word: "notify",
        menu: Some("tg-cmd-notify"),
        // The help texts have no room left (4096 characters, Kazakh's nearly full): the
        // menu names it, and `/notify` alone explains itself.
        help: None,
        parse: |args| match args.trim() {
            "" => Ok(Command::Notify(None)),
            typed => parse_notify(typed)
                .map(|change| Command::Notify(Some(change)))
                .map_err(CommandError::Notify),
        },
    },
    Spec {
        word: "resign",
        menu: Some("tg-cmd-resign"),
        help: Some("tg-help-resign"),
        parse: |_| Ok(Command::Resign),
    },
    Spec {
        word: "draw",
        menu: Some("tg-cmd-draw"),
        help: Some("tg-help-draw"),
        parse: |_| Ok(Command::Draw),
    },
    Spec {
        word: "rematch",
        menu: Some("tg-cmd-rematch"),
        help: Some("tg-help-rematch"),
        parse: |args| {
            let game = first_word(args);
            Ok(Command::Rematch { game })
        },
    },
    Spec {
        word: "review",
        menu: Some("tg-cmd-review"),
        help: Some("tg-help-review"),
        parse: |args| {
            let game = first_word(args).map(|g| g.to_ascii_lowercase());
            Ok(Command::Review { game })
        },
    },
    Spec {
        word: "history",
        menu: Some("tg-cmd-history"),
        help: Some("tg-help-history"),
        parse: |args| {
            let named = first_word(args);
            Ok(Command::History { named })
        },
    },
    Spec {
        word: "stats",
        menu: Some("tg-cmd-stats"),
        help: Some("tg-help-stats"),
        parse: |args| {
            let named = first_word(args);
            Ok(Command::Stats { named })
        },
    },
    Spec {
        word: "leaderboard",
        menu: Some("tg-cmd-leaderboard"),
        help: Some("tg-help-leaderboard"),
        parse: |args| {
            let (rest, global) = take_word(args, &GLOBAL_WORDS);
            let mut words = rest.split_whitespace();
            let category = match words.next() {
                None => None,
                Some(word) => Some(Category::parse(word).ok_or_else(|| bad_scope(word))?),
            };
            match words.next() {
                None => Ok(Command::Leaderboard { global, category }),
                Some(other) => Err(bad_scope(other)),
            }
        },
    },
    Spec {
        word: "record",
        menu: Some("tg-cmd-record"),
        help: Some("tg-help-record"),
        parse: |args| {
            let game = first_word(args).map(|g| g.to_ascii_lowercase());
            Ok(Command::Record { game })
        },
    },
    Spec {
        word: "tournament",
        menu: Some("tg-cmd-tournament"),
        help: Some("tg-help-tournament"),
        parse: |args| tournament::tournament(args).map(Command::Tournament),
    },
    Spec {
        word: "puzzle",
        menu: Some("tg-cmd-puzzle"),
        help: Some("tg-help-puzzle"),
        parse: |args| parts::puzzle(args).map(Command::Puzzle),
    },
    Spec {
        word: "opening",
        menu: Some("tg-cmd-opening"),
        help: Some("tg-help-opening"),
        parse: |args| {
            Ok(Command::Opening {
                args: args.to_string(),
            })
        },
    },
    Spec {
        word: "web",
        menu: Some("tg-cmd-web"),
        help: Some("tg-help-web"),
        parse: |args| parts::web(args).map(Command::Web),
    },
    Spec {
        word: "lang",
        menu: Some("tg-cmd-lang"),
        help: Some("tg-help-lang"),
        parse: |args| {
            let lang = match first_word(args) {
                None => None,
                Some(w) => Some(w.parse().map_err(|_| CommandError::Lang(w))?),
            };
            Ok(Command::Lang { lang })
        },
    },
    Spec {
        word: "help",
        menu: Some("tg-cmd-help"),
        help: None,
        parse: |_| Ok(Command::Help),
    },
];

/// Takes the time control out of `args`, wherever it stands (`easy 5+3`, `@bob 3+2`,
/// `3+2 @bob`, `easy 3 + 2`, `по переписке`, `@bob 2 days`, `5 дней @bob`). A word that looks
/// like one (a number, or with `+`) must be one, so a typo is answered rather than ignored;
/// so must a number before a word for days (`4 days`: no game has 4 days per move). An
/// `@username` with digits is no time control. The other words are given back in order.
pub(super) fn split_time(args: &str) -> Result<(String, Option<TimeControl>), CommandError> {
    // `3 + 2` is read as `3+2`.
    let joined = args.split('+').map(str::trim).collect::<Vec<_>>().join("+");
    let words: Vec<&str> = joined.split_whitespace().collect();
    let mut time = None;
    let mut rest = Vec::with_capacity(words.len());
    let mut at = 0;
    while let Some(&word) = words.get(at) {
        at += 1;
        if time.is_some() {
            rest.push(word);
            continue;
        }
        // Two words first: `по переписке`, `2 days`, `5 дней`.
        if let Some(pair) = words.get(at - 1..=at) {
            match TimeControl::parse(&pair.join(" ")) {
                Ok(parsed) => {
                    time = Some(parsed);
                    at += 1;
                    continue;
                }
                Err(error @ TimeControlError::Days(_)) => return Err(CommandError::Time(error)),
                Err(_) => {}
            }
        }
        match TimeControl::parse(word) {
            Ok(parsed) => time = Some(parsed),
            Err(error) if looks_timed(word) => return Err(CommandError::Time(error)),
            Err(_) => rest.push(word),
        }
    }
    Ok((rest.join(" "), time))
}

/// The terms typed after the bot's name in inline mode (`@bot 5 balls 3+2 unrated`): the
/// rules variant, a time control, and whether the game is rated. Other words are left
/// alone: an inline query is typed live, and its words are the user's own.
pub fn inline_terms(query: &str) -> Result<(Variant, Option<TimeControl>, bool), CommandError> {
    let (args, variant) = variant::take(query)?;
    let (args, time) = split_time(&args)?;
    let (_, unrated) = take_word(&args, &UNRATED_WORDS);
    Ok((variant, time, !unrated))
}

/// Whether a word was meant as a time control: it starts like a number or has a `+`.
fn looks_timed(word: &str) -> bool {
    !word.starts_with('@')
        && (word.contains('+')
            || word.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '.' | ',' | '-')))
}

/// The words that make a challenge unrated, in each language (any is understood in any
/// chat): a friendly game, as players call it.
pub(super) const UNRATED_WORDS: [&str; 7] = [
    "unrated",
    "casual",
    "товарищеская",
    "товарищеский",
    "нерейтинговая",
    "нерейтинговый",
    "рейтингсіз",
];
/// Two words that say the same (`без рейтинга`).
pub(super) const UNRATED_PHRASES: [[&str; 2]; 1] = [["без", "рейтинга"]];
/// The words of `/leaderboard global`.
pub(super) const GLOBAL_WORDS: [&str; 4] = ["global", "все", "общий", "жалпы"];

/// Takes the first of `words` (any case) out of `args`: the other words, and whether it was
/// there.
pub(super) fn take_word(args: &str, words: &[&str]) -> (String, bool) {
    let mut found = false;
    let rest: Vec<&str> = args
        .split_whitespace()
        .filter(|w| {
            let hit = !found && words.iter().any(|x| w.to_lowercase() == *x);
            found |= hit;
            !hit
        })
        .collect();
    (rest.join(" "), found)
}

fn bad_scope(word: &str) -> CommandError {
    CommandError::Scope(word.to_string())
}

fn first_word(args: &str) -> Option<String> {
    args.split_whitespace().next().map(str::to_string)
}

/// The level named by `args` of `/{command}`, in any language: a level's name may be two
/// words (`/play жаңа бастаушы`). A word after it is refused (`/play easy 2 days`: the time
/// was read as `2`, and `days` must not be dropped as if it meant nothing).
pub(super) fn level(args: &str, command: &'static str) -> Result<Option<Level>, CommandError> {
    let words: Vec<&str> = args.split_whitespace().collect();
    if words.is_empty() {
        return Ok(None);
    }
    let (taken, level) = (1..=words.len().min(2))
        .rev()
        .find_map(|n| Some((n, words[..n].join(" ").parse::<Level>().ok()?)))
        .ok_or_else(|| CommandError::Level(args.trim().to_string()))?;
    match words.get(taken) {
        Some(word) => Err(CommandError::Word {
            word: word.to_string(),
            command,
        }),
        None => Ok(Some(level)),
    }
}

pub(super) fn is_one_of(word: &str, words: &[&str]) -> bool {
    let lower = word.to_lowercase();
    words.contains(&lower.as_str())
}

/// Parses `text` if it is a command for the bot `username`: `None` for plain text and for
/// another bot's command (`/play@other_bot`).
pub fn parse(text: &str, username: &str) -> Option<Result<Command, CommandError>> {
    let rest = text.trim_start().strip_prefix('/')?;
    let (head, args) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let (word, to) = match head.split_once('@') {
        Some((w, to)) => (w, Some(to)),
        None => (head, None),
    };
    if to.is_some_and(|to| !to.eq_ignore_ascii_case(username)) || word.is_empty() {
        return None;
    }
    let word = word.to_ascii_lowercase();
    let parsed = match SPECS.iter().find(|s| s.word == word) {
        Some(spec) => (spec.parse)(args.trim()),
        None => Err(CommandError::Unknown {
            word,
            addressed: to.is_some(),
        }),
    };
    Some(parsed)
}

/// The command menu, in `lang`.
pub fn menu(lang: Lang) -> Vec<BotCommand> {
    SPECS
        .iter()
        .filter_map(|s| Some(BotCommand::new(s.word, tr(lang, s.menu?))))
        .collect()
}

/// `/help`: a line for every command, the words of the rules variants, then how inline
/// mode works.
pub fn help(lang: Lang) -> String {
    let mut text = t!(lang, "tg-help");
    for key in SPECS.iter().filter_map(|s| s.help) {
        text.push('\n');
        text.push_str(&tr(lang, key));
    }
    text.push('\n');
    text.push_str(&t!(lang, "tg-help-variant"));
    text.push('\n');
    text.push_str(&t!(lang, "tg-help-inline"));
    text
}

/// The commands of the menu, as `/play, /challenge, ...`.
fn menu_words() -> String {
    SPECS
        .iter()
        .filter(|s| s.menu.is_some())
        .map(|s| format!("/{}", s.word))
        .collect::<Vec<_>>()
        .join(", ")
}

mod parts;
mod tournament;
mod variant;
pub use variant::VariantWordsError;
#[cfg(test)]
mod days_tests;
#[cfg(test)]
mod tests;
