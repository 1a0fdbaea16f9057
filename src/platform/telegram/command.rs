//! The Telegram commands as one typed [`Command`], parsed in one place; the command menu and
//! `/help` are built from the same table, so they cannot drift from what is parsed.
//!
//! Adding a command: a variant of [`Command`], a row in [`SPECS`] (its word, menu and help
//! keys, and how its arguments parse), the two catalog keys in en, ru and kk, and its arm in
//! `commands.rs`. Nothing else matches on command words.

use crate::engine::Level;
use crate::i18n::{tr, words, Lang};
use crate::platform::present;
use crate::t;
use crate::timecontrol::{TimeControl, TimeControlError};
use teloxide::types::BotCommand;

/// A command for this bot, with its arguments parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// The greeting of a private chat (`/start`, also sent by deep links with a payload).
    Start,
    Help,
    /// `/play [level] [time]`: no level asks with buttons (or, with a time control, plays
    /// the default level).
    Play {
        level: Option<Level>,
        time: Option<TimeControl>,
    },
    /// `/challenge [@username] [time] [unrated]`; `named` is the first word besides the
    /// time control and the unrated word. Whom it names is settled by the handler, which
    /// also sees replies and mention entities. Rated unless an unrated word is given.
    Challenge {
        named: Option<String>,
        time: Option<TimeControl>,
        rated: bool,
    },
    Board,
    Games,
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
    /// `/leaderboard [global]`: the group's players, or with `global` (and in a private
    /// chat) everyone on Telegram.
    Leaderboard {
        global: bool,
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
}

impl Command {
    /// The word it is typed with.
    pub fn word(&self) -> &'static str {
        match self {
            Command::Start => "start",
            Command::Help => "help",
            Command::Play { .. } => "play",
            Command::Challenge { .. } => "challenge",
            Command::Board => "board",
            Command::Games => "games",
            Command::Resign => "resign",
            Command::Draw => "draw",
            Command::Rematch { .. } => "rematch",
            Command::Review { .. } => "review",
            Command::History { .. } => "history",
            Command::Stats { .. } => "stats",
            Command::Leaderboard { .. } => "leaderboard",
            Command::Record { .. } => "record",
            Command::Lang { .. } => "lang",
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
    /// `/leaderboard` with a word that is no scope.
    #[error("unknown leaderboard scope {0:?}")]
    Scope(String),
    /// A word that looks like a time control (a number, or with `+`) but is none.
    #[error(transparent)]
    Time(TimeControlError),
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
const SPECS: [Spec; 15] = [
    Spec {
        word: "start",
        menu: None,
        help: None,
        parse: |_| Ok(Command::Start),
    },
    Spec {
        word: "play",
        menu: Some("tg-cmd-play"),
        help: Some("tg-help-play"),
        parse: |args| {
            let (args, time) = split_time(args)?;
            Ok(Command::Play {
                level: level(&args)?,
                time,
            })
        },
    },
    Spec {
        word: "challenge",
        menu: Some("tg-cmd-challenge"),
        help: Some("tg-help-challenge"),
        parse: |args| {
            let (args, time) = split_time(args)?;
            let (args, unrated) = take_word(&args, &UNRATED_WORDS);
            let named = first_word(&args);
            Ok(Command::Challenge {
                named,
                time,
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
            match first_word(&rest) {
                None => Ok(Command::Leaderboard { global }),
                Some(other) => Err(CommandError::Scope(other)),
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
/// `3+2 @bob`, `easy 3 + 2`, `по переписке`). A word that looks like one (a number, or with
/// `+`) must be one, so a typo is answered rather than ignored; an `@username` with digits
/// is no time control. The other words are given back in their order.
fn split_time(args: &str) -> Result<(String, Option<TimeControl>), CommandError> {
    // `3 + 2` is read as `3+2`.
    let joined = args.split('+').map(str::trim).collect::<Vec<_>>().join("+");
    let words: Vec<&str> = joined.split_whitespace().collect();
    // A correspondence word may be two (`по переписке`), at the end.
    if let Some(tail) = words.len().checked_sub(2).map(|at| words.split_at(at)) {
        if let Ok(time) = TimeControl::parse(&tail.1.join(" ")) {
            return Ok((tail.0.join(" "), Some(time)));
        }
    }
    let mut time = None;
    let mut rest = Vec::with_capacity(words.len());
    for word in words {
        if time.is_none() {
            match TimeControl::parse(word) {
                Ok(parsed) => {
                    time = Some(parsed);
                    continue;
                }
                Err(error) if looks_timed(word) => return Err(CommandError::Time(error)),
                Err(_) => {}
            }
        }
        rest.push(word);
    }
    Ok((rest.join(" "), time))
}

/// Whether a word was meant as a time control: it starts like a number or has a `+`.
fn looks_timed(word: &str) -> bool {
    !word.starts_with('@')
        && (word.contains('+')
            || word.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '.' | ',' | '-')))
}

/// The words that make a challenge unrated, in each language (any is understood in any
/// chat): a friendly game, as players call it.
const UNRATED_WORDS: [&str; 4] = ["unrated", "товарищеская", "рейтингсіз", "casual"];
/// The words of `/leaderboard global`.
const GLOBAL_WORDS: [&str; 4] = ["global", "все", "общий", "жалпы"];

/// Takes the first of `words` (any case) out of `args`: the other words, and whether it was
/// there.
fn take_word(args: &str, words: &[&str]) -> (String, bool) {
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

fn first_word(args: &str) -> Option<String> {
    args.split_whitespace().next().map(str::to_string)
}

/// The level named at the start of `args`, in any language: a level's name may be two words
/// (`/play жаңа бастаушы`), and words after it are ignored (`/play easy please`).
fn level(args: &str) -> Result<Option<Level>, CommandError> {
    let words: Vec<&str> = args.split_whitespace().collect();
    if words.is_empty() {
        return Ok(None);
    }
    (1..=words.len().min(2))
        .rev()
        .find_map(|n| words[..n].join(" ").parse::<Level>().ok())
        .map(Some)
        .ok_or_else(|| CommandError::Level(args.trim().to_string()))
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

/// `/help`: a line for every command, then how inline mode works.
pub fn help(lang: Lang) -> String {
    let mut text = t!(lang, "tg-help");
    for key in SPECS.iter().filter_map(|s| s.help) {
        text.push('\n');
        text.push_str(&tr(lang, key));
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    const ME: &str = "toguz_bot";

    fn ok(text: &str) -> Command {
        match parse(text, ME) {
            Some(Ok(c)) => c,
            other => panic!("{text}: {other:?}"),
        }
    }

    fn err(text: &str) -> CommandError {
        match parse(text, ME) {
            Some(Err(e)) => e,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn commands_are_parsed_for_this_bot_only() {
        assert_eq!(
            ok("/play easy"),
            Command::Play {
                level: Some(Level::Easy),
                time: None
            }
        );
        assert_eq!(
            ok("/Challenge@Toguz_Bot  @bob "),
            Command::Challenge {
                named: Some("@bob".into()),
                time: None,
                rated: true,
            }
        );
        assert_eq!(parse("/board@other_bot", ME), None);
        assert_eq!(parse("hello /play", ME), None);
        assert_eq!(parse("/", ME), None);
        assert_eq!(parse("/@toguz_bot", ME), None);
        assert_eq!(ok("/start deep-link-payload"), Command::Start);
        assert_eq!(ok("/board"), Command::Board);
        assert_eq!(ok("/games@toguz_bot"), Command::Games);
        assert_eq!(ok("/resign"), Command::Resign);
        assert_eq!(ok("/draw please"), Command::Draw);
        assert_eq!(ok("/help"), Command::Help);
        assert_eq!(ok("/rematch"), Command::Rematch { game: None });
        assert_eq!(
            ok("/rematch g12 now"),
            Command::Rematch {
                game: Some("g12".into())
            }
        );
        assert_eq!(
            ok("/challenge"),
            Command::Challenge {
                named: None,
                time: None,
                rated: true,
            }
        );
        assert_eq!(ok("/review"), Command::Review { game: None });
        assert_eq!(
            ok("/review@toguz_bot AB12CD"),
            Command::Review {
                game: Some("ab12cd".into())
            }
        );
    }

    #[test]
    fn history_stats_leaderboard_record_and_unrated_challenges_parse() {
        assert_eq!(ok("/history"), Command::History { named: None });
        assert_eq!(
            ok("/history @bob"),
            Command::History {
                named: Some("@bob".into())
            }
        );
        assert_eq!(
            ok("/stats@toguz_bot @Bob"),
            Command::Stats {
                named: Some("@Bob".into())
            }
        );
        assert_eq!(ok("/leaderboard"), Command::Leaderboard { global: false });
        for global in ["global", "GLOBAL", "общий", "жалпы"] {
            assert_eq!(
                ok(&format!("/leaderboard {global}")),
                Command::Leaderboard { global: true }
            );
        }
        assert_eq!(
            err("/leaderboard weekly"),
            CommandError::Scope("weekly".into())
        );
        assert_eq!(ok("/record"), Command::Record { game: None });
        assert_eq!(
            ok("/record AB12cd"),
            Command::Record {
                game: Some("ab12cd".into())
            }
        );
        for unrated in ["unrated", "Товарищеская", "рейтингсіз"] {
            assert_eq!(
                ok(&format!("/challenge @bob {unrated} 3+2")),
                Command::Challenge {
                    named: Some("@bob".into()),
                    time: Some(TimeControl::fischer(3, 2)),
                    rated: false
                },
                "{unrated}"
            );
        }
        assert_eq!(
            ok("/challenge unrated"),
            Command::Challenge {
                named: None,
                time: None,
                rated: false
            }
        );
        for lang in Lang::ALL {
            let text = err("/leaderboard weekly").text(lang);
            assert!(text.contains("weekly") && !text.contains("tg-"), "{text}");
        }
    }

    #[test]
    fn levels_parse_in_every_language_and_in_two_words() {
        assert_eq!(
            ok("/play"),
            Command::Play {
                level: None,
                time: None
            }
        );
        for (text, level) in [
            ("/play лёгкий", Level::Easy),
            ("/play ЛЁГКИЙ", Level::Easy),
            ("/play жаңа бастаушы", Level::Beginner),
            ("/play easy please", Level::Easy),
            ("/play max", Level::Max),
        ] {
            assert_eq!(
                ok(text),
                Command::Play {
                    level: Some(level),
                    time: None
                },
                "{text}"
            );
        }
        assert_eq!(
            err("/play grandmaster now"),
            CommandError::Level("grandmaster now".into())
        );
    }

    #[test]
    fn languages_parse_and_a_bad_one_is_an_error() {
        assert_eq!(ok("/lang"), Command::Lang { lang: None });
        assert_eq!(
            ok("/lang KK"),
            Command::Lang {
                lang: Some(Lang::Kk)
            }
        );
        assert_eq!(err("/lang de"), CommandError::Lang("de".into()));
    }

    #[test]
    fn unknown_commands_are_answered_in_groups_only_when_addressed() {
        let plain = err("/frobnicate");
        assert_eq!(
            plain,
            CommandError::Unknown {
                word: "frobnicate".into(),
                addressed: false
            }
        );
        assert!(!plain.answer_in_group());
        assert!(err("/Frobnicate@toguz_bot").answer_in_group());
        assert!(err("/lang de").answer_in_group());
    }

    #[test]
    fn every_error_reads_in_every_language_with_what_was_typed() {
        let long = "x".repeat(500);
        for e in [
            err("/frobnicate"),
            err("/play grandmaster"),
            err("/lang de"),
            CommandError::Opponent("bob".into()),
            err(&format!("/play {long}")),
        ] {
            for lang in Lang::ALL {
                let text = e.text(lang);
                assert!(!text.contains("tg-"), "{lang}: {text}");
                assert!(text.chars().count() < 400, "{lang}: {text}");
            }
        }
        let unknown = err("/frobnicate").text(Lang::Ru);
        assert!(unknown.contains("frobnicate") && unknown.contains("/play"));
        assert!(err("/play grandmaster").text(Lang::Kk).contains("жеңіл"));
        assert!(err("/lang de").text(Lang::En).contains("de"));
    }

    #[test]
    fn every_language_has_the_same_valid_command_menu() {
        for lang in Lang::ALL {
            let m = menu(lang);
            assert_eq!(m.len(), SPECS.len() - 1);
            for cmd in &m {
                assert!(cmd.command.chars().all(|ch| ch.is_ascii_lowercase()));
                let n = cmd.description.chars().count();
                assert!((3..=256).contains(&n), "{lang}: {}", cmd.description);
            }
        }
        assert_ne!(menu(Lang::Kk)[0].description, menu(Lang::En)[0].description);
    }

    #[test]
    fn every_command_parses_by_its_word_and_help_names_each_of_them() {
        for (i, spec) in SPECS.iter().enumerate() {
            assert!(
                SPECS[..i].iter().all(|s| s.word != spec.word),
                "{} twice",
                spec.word
            );
            match parse(&format!("/{}", spec.word), ME) {
                Some(Ok(c)) => assert_eq!(c.word(), spec.word),
                other => panic!("/{}: {other:?}", spec.word),
            }
        }
        for lang in Lang::ALL {
            let help = help(lang);
            for spec in SPECS.iter().filter(|s| s.help.is_some()) {
                assert!(help.contains(&format!("/{}", spec.word)), "{lang}: {help}");
            }
        }
    }

    #[test]
    fn a_time_control_goes_with_play_and_challenge_anywhere() {
        let blitz = Some(TimeControl::fischer(3, 2));
        assert_eq!(
            ok("/challenge 3+2"),
            Command::Challenge {
                named: None,
                time: blitz,
                rated: true,
            }
        );
        assert_eq!(
            ok("/challenge @bob 3+2"),
            Command::Challenge {
                named: Some("@bob".into()),
                time: blitz,
                rated: true,
            }
        );
        assert_eq!(
            ok("/play easy 5+3"),
            Command::Play {
                level: Some(Level::Easy),
                time: Some(TimeControl::fischer(5, 3))
            }
        );
        assert_eq!(
            ok("/play жаңа бастаушы 0.5+2"),
            Command::Play {
                level: Some(Level::Beginner),
                time: TimeControl::parse("0.5+2").ok()
            }
        );
        assert_eq!(
            ok("/play easy заочная"),
            Command::Play {
                level: Some(Level::Easy),
                time: Some(TimeControl::Correspondence)
            }
        );
        assert_eq!(
            ok("/challenge @bob2024 3 + 2"),
            Command::Challenge {
                named: Some("@bob2024".into()),
                time: blitz,
                rated: true,
            }
        );
        assert_eq!(
            ok("/challenge @bob2024"),
            Command::Challenge {
                named: Some("@bob2024".into()),
                time: None,
                rated: true,
            }
        );
        assert_eq!(
            ok("/play по переписке"),
            Command::Play {
                level: None,
                time: Some(TimeControl::Correspondence)
            }
        );
        assert_eq!(
            ok("/play 0,5+2"),
            Command::Play {
                level: None,
                time: TimeControl::parse("0.5+2").ok()
            }
        );
        assert_eq!(
            ok("/challenge 3+2 @bob"),
            Command::Challenge {
                named: Some("@bob".into()),
                time: blitz,
                rated: true,
            }
        );
        assert_eq!(
            ok("/play 5+3 жаңа бастаушы"),
            Command::Play {
                level: Some(Level::Beginner),
                time: Some(TimeControl::fischer(5, 3))
            }
        );
        for bad in [
            "/play easy 1000+0",
            "/challenge 3+x @bob",
            "/challenge -1+0",
            "/play 0+0",
            "/challenge @bob 3+x",
            "/play easy 5+",
        ] {
            let error = err(bad);
            assert!(matches!(error, CommandError::Time(_)), "{bad}: {error:?}");
            let typed = bad.split(' ').find(|w| w.contains('+')).unwrap_or_default();
            for lang in Lang::ALL {
                let text = error.text(lang);
                assert!(text.contains(typed) && text.contains('+'), "{lang}: {text}");
            }
        }
    }
}
