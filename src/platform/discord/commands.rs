//! The slash commands: their definitions (names and descriptions localized for Discord's
//! locales) and the parsing of an invocation into a [`Command`].
//!
//! Discord knows `en-US`, `en-GB` and `ru` among our languages but has no Kazakh locale: a `kk`
//! key in `name_localizations` fails the whole registration (50035). Kazakh shows in messages.

use crate::i18n::{tr, words, Lang};
use crate::manager::tournament::Format;
use crate::model::{Category, Level, TimeControl, TimeControlError};
use crate::platform::present::history_text::category_name;
use crate::rules::{TuzdekRule, Variant};
use crate::t;
use serenity::all::{
    CommandDataOption, CommandDataOptionValue, CommandOptionType, CreateCommand,
    CreateCommandOption, InteractionContext, UserId,
};

/// Discord locales we translate into, with the language for each.
const LOCALES: [(&str, Lang); 3] = [("en-US", Lang::En), ("en-GB", Lang::En), ("ru", Lang::Ru)];

/// A parsed slash command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Challenge {
        opponent: Option<UserId>,
        variant: Result<Variant, BadOption>,
        time: Option<Result<TimeControl, TimeControlError>>,
        /// `rated:` (default true).
        rated: bool,
    },
    Play {
        level: Option<Result<Level, BadOption>>,
        variant: Result<Variant, BadOption>,
        time: Option<Result<TimeControl, TimeControlError>>,
    },
    Board {
        game: Option<String>,
    },
    Games,
    /// `/notify [mode:] [hour:] [quiet:] [utc:]` (issue 51).
    Notify(NotifyOptions),
    Resign {
        game: Option<String>,
    },
    Draw {
        game: Option<String>,
    },
    Rematch {
        game: Option<String>,
    },
    /// `/review [game]`: without a game, the one that ended last here.
    Review {
        game: Option<String>,
    },
    Help {
        language: Option<Result<Lang, BadOption>>,
    },
    /// `/stats [player]`: without a player, the caller's own.
    Stats {
        player: Option<UserId>,
    },
    /// `/leaderboard [scope: server|global] [category: blitz|rapid|correspondence]`:
    /// `global` true for everyone on Discord; without a category, every category's top.
    Leaderboard {
        global: Result<bool, BadOption>,
        category: Option<Result<Category, BadOption>>,
    },
    /// `/history [player]`: without a player, the caller's own.
    History {
        player: Option<UserId>,
    },
    /// `/record [game]`: without a game, the one that ended last here.
    Record {
        game: Option<String>,
    },
    /// `/tournament <subcommand>`.
    Tournament(TournamentCommand),
    /// `/puzzle <subcommand>`.
    Puzzle(PuzzleCommand),
    /// `/opening [moves] [source]`: the opening explorer.
    Opening {
        moves: Option<String>,
        source: Option<String>,
    },
    /// `/web [public: on|off] [profile: on|off]`: without either, whether the server is
    /// listed and whether the caller's page lists all their games.
    Web {
        public: Option<Result<bool, BadOption>>,
        profile: Option<Result<bool, BadOption>>,
        signin: Option<Result<web_command::SignInChoice, BadOption>>,
    },
}

/// The subcommands of `/tournament`; `id: None` is the server's newest live event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentCommand {
    /// `new format: time: [minutes:] [rounds:] [starts_in:] [rated:]`.
    New {
        format: Result<Format, BadOption>,
        /// Required by the definition: `None` only from a forged client.
        time: Option<Result<TimeControl, TimeControlError>>,
        /// Minutes until the start.
        starts_in: Result<u64, BadOption>,
        rated: bool,
        variant: Result<Variant, BadOption>,
    },
    Standings {
        id: Option<String>,
    },
    Join {
        id: Option<String>,
    },
    Leave {
        id: Option<String>,
    },
    Cancel {
        id: Option<String>,
    },
    /// The bot joins at `level`.
    Bot {
        level: Result<Level, BadOption>,
        id: Option<String>,
    },
    /// A half-point bye in a Swiss round (`None`: the next).
    Bye {
        round: Result<Option<u8>, BadOption>,
        id: Option<String>,
    },
    /// A subcommand we do not have (an outdated client).
    Unknown,
}

/// An arena's minutes and a Swiss event's rounds, by default and at most (the options'
/// `min_value`/`max_value`, checked again on what a client sends).
const ARENA_MINUTES: (u64, u64, u64) = (30, 5, 720);
const SWISS_ROUNDS: (u64, u64, u64) = (5, 1, 15);
/// A half-point bye's round (the default is not used: no round means the next).
const BYE_ROUND: (u64, u64, u64) = (1, 1, SWISS_ROUNDS.2);
/// Minutes until the start: by default, the fewest and the most.
const STARTS_IN: (u64, u64, u64) = (5, 1, 1440);

/// An option value that is not one of the choices (a forged or outdated client).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadOption;

/// Localized name and description of a command or option, from two catalog keys.
macro_rules! localized {
    ($builder:expr, $name:literal, $desc:literal) => {{
        let mut b = $builder;
        for (locale, lang) in LOCALES {
            b = b
                .name_localized(locale, t!(lang, $name))
                .description_localized(locale, t!(lang, $desc));
        }
        b
    }};
}

fn option(kind: CommandOptionType, name: &'static str, desc: &'static str) -> CreateCommandOption {
    CreateCommandOption::new(kind, name, tr(Lang::En, desc))
}

fn game_option() -> CreateCommandOption {
    localized!(
        option(CommandOptionType::String, "game", "discord-opt-game-desc"),
        "discord-opt-game",
        "discord-opt-game-desc"
    )
    .max_length(16)
}

fn command(name: &'static str, desc: &'static str) -> CreateCommand {
    CreateCommand::new(name).description(tr(Lang::En, desc))
}

/// The longest `time:` a client may send (`correspondence`, `по переписке`, `0.25+12.5`).
const TIME_MAX_CHARS: u16 = 20;

const EVERYWHERE: [InteractionContext; 2] = [InteractionContext::Guild, InteractionContext::BotDm];

/// Every command, as registered with Discord.
pub fn definitions() -> Vec<CreateCommand> {
    let opponent = localized!(
        option(CommandOptionType::User, "opponent", "discord-opt-user-desc"),
        "discord-opt-user",
        "discord-opt-user-desc"
    )
    .required(true);
    let mut balls = localized!(
        option(
            CommandOptionType::Integer,
            "balls",
            "discord-opt-balls-desc"
        ),
        "discord-opt-balls",
        "discord-opt-balls-desc"
    );
    for n in Variant::BALLS_PER_PIT {
        balls = balls.add_int_choice(n.to_string(), i32::from(n));
    }
    let tuzdek = localized!(
        option(
            CommandOptionType::String,
            "tuzdek",
            "discord-opt-tuzdek-desc"
        ),
        "discord-opt-tuzdek",
        "discord-opt-tuzdek-desc"
    )
    .add_string_choice_localized(
        t!(Lang::En, "discord-choice-tuzdek-standard"),
        "standard",
        choice_names(|l| t!(l, "discord-choice-tuzdek-standard")),
    )
    .add_string_choice_localized(
        t!(Lang::En, "discord-choice-tuzdek-off"),
        "off",
        choice_names(|l| t!(l, "discord-choice-tuzdek-off")),
    )
    .add_string_choice_localized(
        t!(Lang::En, "discord-choice-tuzdek-ninth"),
        "ninth",
        choice_names(|l| t!(l, "discord-choice-tuzdek-ninth")),
    );
    let level = level_option();
    // Typed, with suggestions: any `M+S` is allowed, and a refused one is answered with
    // examples.
    let time = time_option::time_option();
    let mut language = localized!(
        option(
            CommandOptionType::String,
            "language",
            "discord-opt-language-desc"
        ),
        "discord-opt-language",
        "discord-opt-language-desc"
    );
    for lang in Lang::ALL {
        // Each language is named in itself: readers look for their own.
        language = language.add_string_choice(words::lang_name(lang), lang.code());
    }
    let rated = localized!(
        option(
            CommandOptionType::Boolean,
            "rated",
            "discord-opt-rated-desc"
        ),
        "discord-opt-rated",
        "discord-opt-rated-desc"
    );
    let player = localized!(
        option(CommandOptionType::User, "player", "discord-opt-player-desc"),
        "discord-opt-player",
        "discord-opt-player-desc"
    );
    let history_player = localized!(
        option(
            CommandOptionType::User,
            "player",
            "discord-opt-history-player-desc"
        ),
        "discord-opt-player",
        "discord-opt-history-player-desc"
    );
    let record_game = localized!(
        option(
            CommandOptionType::String,
            "game",
            "discord-opt-record-game-desc"
        ),
        "discord-opt-game",
        "discord-opt-record-game-desc"
    )
    .max_length(16);
    let scope = localized!(
        option(CommandOptionType::String, "scope", "discord-opt-scope-desc"),
        "discord-opt-scope",
        "discord-opt-scope-desc"
    )
    .add_string_choice_localized(
        t!(Lang::En, "discord-choice-scope-server"),
        "server",
        choice_names(|l| t!(l, "discord-choice-scope-server")),
    )
    .add_string_choice_localized(
        t!(Lang::En, "discord-choice-scope-global"),
        "global",
        choice_names(|l| t!(l, "discord-choice-scope-global")),
    );
    let mut category = localized!(
        option(
            CommandOptionType::String,
            "category",
            "discord-opt-category-desc"
        ),
        "discord-opt-category",
        "discord-opt-category-desc"
    );
    for c in Category::ALL {
        category = category.add_string_choice_localized(
            category_name(c, Lang::En),
            c.name(),
            choice_names(|l| category_name(c, l)),
        );
    }
    let variant_options = (balls.clone(), tuzdek.clone());
    vec![
        localized!(
            command("challenge", "discord-cmd-challenge-desc"),
            "discord-cmd-challenge",
            "discord-cmd-challenge-desc"
        )
        .contexts(vec![InteractionContext::Guild])
        .add_option(opponent)
        .add_option(balls.clone())
        .add_option(tuzdek.clone())
        .add_option(time.clone())
        .add_option(rated),
        localized!(
            command("play", "discord-cmd-play-desc"),
            "discord-cmd-play",
            "discord-cmd-play-desc"
        )
        .contexts(EVERYWHERE.to_vec())
        .add_option(level)
        .add_option(balls)
        .add_option(tuzdek)
        .add_option(time.clone()),
        localized!(
            command("board", "discord-cmd-board-desc"),
            "discord-cmd-board",
            "discord-cmd-board-desc"
        )
        .contexts(EVERYWHERE.to_vec())
        .add_option(game_option()),
        localized!(
            command("games", "discord-cmd-games-desc"),
            "discord-cmd-games",
            "discord-cmd-games-desc"
        )
        .contexts(EVERYWHERE.to_vec()),
        localized!(
            command("resign", "discord-cmd-resign-desc"),
            "discord-cmd-resign",
            "discord-cmd-resign-desc"
        )
        .contexts(EVERYWHERE.to_vec())
        .add_option(game_option()),
        localized!(
            command("draw", "discord-cmd-draw-desc"),
            "discord-cmd-draw",
            "discord-cmd-draw-desc"
        )
        .contexts(EVERYWHERE.to_vec())
        .add_option(game_option()),
        localized!(
            command("rematch", "discord-cmd-rematch-desc"),
            "discord-cmd-rematch",
            "discord-cmd-rematch-desc"
        )
        .contexts(EVERYWHERE.to_vec())
        .add_option(game_option().required(true)),
        localized!(
            command("review", "discord-cmd-review-desc"),
            "discord-cmd-review",
            "discord-cmd-review-desc"
        )
        .contexts(EVERYWHERE.to_vec())
        .add_option(game_option()),
        localized!(
            command("stats", "discord-cmd-stats-desc"),
            "discord-cmd-stats",
            "discord-cmd-stats-desc"
        )
        .contexts(EVERYWHERE.to_vec())
        .add_option(player),
        localized!(
            command("leaderboard", "discord-cmd-leaderboard-desc"),
            "discord-cmd-leaderboard",
            "discord-cmd-leaderboard-desc"
        )
        .contexts(EVERYWHERE.to_vec())
        .add_option(scope)
        .add_option(category),
        localized!(
            command("history", "discord-cmd-history-desc"),
            "discord-cmd-history",
            "discord-cmd-history-desc"
        )
        .contexts(EVERYWHERE.to_vec())
        .add_option(history_player),
        localized!(
            command("record", "discord-cmd-record-desc"),
            "discord-cmd-record",
            "discord-cmd-record-desc"
        )
        .contexts(EVERYWHERE.to_vec())
        .add_option(record_game),
        tournament_definition(time, variant_options),
        puzzle_command::puzzle_definition(),
        opening_command::opening_definition(),
        web_command::web_definition(),
        notify_command::notify_definition(),
        localized!(
            command("help", "discord-cmd-help-desc"),
            "discord-cmd-help",
            "discord-cmd-help-desc"
        )
        .contexts(EVERYWHERE.to_vec())
        .add_option(language),
    ]
}

/// The bot's level, a choice of every level.
fn level_option() -> CreateCommandOption {
    let mut level = localized!(
        option(CommandOptionType::String, "level", "discord-opt-level-desc"),
        "discord-opt-level",
        "discord-opt-level-desc"
    );
    for l in Level::ALL {
        level = level.add_string_choice_localized(
            words::level_name(Lang::En, l),
            l.name(),
            choice_names(|lang| words::level_name(lang, l)),
        );
    }
    level
}

/// A localized choice whose English text is `key`'s.
fn choice(
    option: CreateCommandOption,
    key: &'static str,
    value: &'static str,
) -> CreateCommandOption {
    option.add_string_choice_localized(tr(Lang::En, key), value, choice_names(|l| tr(l, key)))
}

/// An option's name and description in each of Discord's locales we speak.
fn localize_option(
    mut option: CreateCommandOption,
    name: &'static str,
    desc: &'static str,
) -> CreateCommandOption {
    for (locale, lang) in LOCALES {
        option = option
            .name_localized(locale, tr(lang, name))
            .description_localized(locale, tr(lang, desc));
    }
    option
}

fn integer_option(
    name: &'static str,
    key: &'static str,
    desc: &'static str,
    (_, least, most): (u64, u64, u64),
) -> CreateCommandOption {
    localize_option(option(CommandOptionType::Integer, name, desc), key, desc)
        .min_int_value(least)
        .max_int_value(most)
}

/// `/tournament` and its subcommands (servers only: a tournament is a server's).
fn tournament_definition(
    time: CreateCommandOption,
    (balls, tuzdek): (CreateCommandOption, CreateCommandOption),
) -> CreateCommand {
    let sub = |name: &'static str, key: &'static str, desc: &'static str| {
        localize_option(option(CommandOptionType::SubCommand, name, desc), key, desc)
    };
    let id = || {
        localized!(
            option(
                CommandOptionType::String,
                "id",
                "discord-opt-tournament-id-desc"
            ),
            "discord-opt-tournament-id",
            "discord-opt-tournament-id-desc"
        )
        .max_length(16)
    };
    let format = localized!(
        option(
            CommandOptionType::String,
            "format",
            "discord-opt-format-desc"
        ),
        "discord-opt-format",
        "discord-opt-format-desc"
    )
    .required(true);
    let format = choice(format, "discord-choice-format-arena", "arena");
    let format = choice(format, "discord-choice-format-swiss", "swiss");
    let rated = localized!(
        option(
            CommandOptionType::Boolean,
            "rated",
            "discord-opt-tournament-rated-desc"
        ),
        "discord-opt-rated",
        "discord-opt-tournament-rated-desc"
    );
    let new = sub("new", "discord-sub-new", "discord-sub-new-desc")
        .add_sub_option(format)
        .add_sub_option(time.required(true))
        .add_sub_option(integer_option(
            "minutes",
            "discord-opt-minutes",
            "discord-opt-minutes-desc",
            ARENA_MINUTES,
        ))
        .add_sub_option(integer_option(
            "rounds",
            "discord-opt-rounds",
            "discord-opt-rounds-desc",
            SWISS_ROUNDS,
        ))
        .add_sub_option(integer_option(
            "starts_in",
            "discord-opt-starts-in",
            "discord-opt-starts-in-desc",
            STARTS_IN,
        ))
        .add_sub_option(rated)
        .add_sub_option(balls)
        .add_sub_option(tuzdek);
    let bye = sub("bye", "discord-sub-bye", "discord-sub-bye-desc")
        .add_sub_option(integer_option(
            "round",
            "discord-opt-bye-round",
            "discord-opt-bye-round-desc",
            BYE_ROUND,
        ))
        .add_sub_option(id());
    localized!(
        command("tournament", "discord-cmd-tournament-desc"),
        "discord-cmd-tournament",
        "discord-cmd-tournament-desc"
    )
    .contexts(vec![InteractionContext::Guild])
    .add_option(new)
    .add_option(
        sub(
            "standings",
            "discord-sub-standings",
            "discord-sub-standings-desc",
        )
        .add_sub_option(id()),
    )
    .add_option(sub("join", "discord-sub-join", "discord-sub-join-desc").add_sub_option(id()))
    .add_option(sub("leave", "discord-sub-leave", "discord-sub-leave-desc").add_sub_option(id()))
    .add_option(sub("cancel", "discord-sub-cancel", "discord-sub-cancel-desc").add_sub_option(id()))
    .add_option(
        sub("bot", "discord-sub-bot", "discord-sub-bot-desc")
            .add_sub_option(level_option().required(true))
            .add_sub_option(id()),
    )
    .add_option(bye)
}

fn choice_names(name: impl Fn(Lang) -> String) -> Vec<(&'static str, String)> {
    LOCALES
        .iter()
        .map(|&(locale, lang)| (locale, name(lang)))
        .collect()
}

fn string<'a>(options: &'a [CommandDataOption], name: &str) -> Option<&'a str> {
    options
        .iter()
        .find(|o| o.name == name)
        .and_then(|o| o.value.as_str())
}

fn integer(options: &[CommandDataOption], name: &str) -> Option<i64> {
    options
        .iter()
        .find(|o| o.name == name)
        .and_then(|o| o.value.as_i64())
}

fn user(options: &[CommandDataOption], name: &str) -> Option<UserId> {
    options
        .iter()
        .find(|o| o.name == name)
        .and_then(|o| match o.value {
            CommandDataOptionValue::User(id) => Some(id),
            _ => None,
        })
}

fn game(options: &[CommandDataOption]) -> Option<String> {
    string(options, "game")
        .map(|g| g.trim().to_ascii_lowercase())
        .filter(|g| !g.is_empty())
}

/// Whether a command's answer is for the caller's eyes only (ephemeral), so that its
/// deferral, when the answer is late, is ephemeral too. The others post a public message
/// (a board, a challenge); their refusals are ephemeral all the same.
pub fn answers_privately(name: &str, options: &[CommandDataOption]) -> bool {
    match name {
        // A new event's announcement and the standings are for the channel.
        "tournament" => !matches!(
            options.first().map(|o| o.name.as_str()),
            Some("new" | "standings")
        ),
        // A puzzle's board is posted for the channel; stats and the top are the caller's.
        "puzzle" => !matches!(
            options.first().map(|o| o.name.as_str()),
            Some("play" | "daily")
        ),
        _ => matches!(
            name,
            "games"
                | "resign"
                | "draw"
                | "help"
                | "stats"
                | "leaderboard"
                | "history"
                | "record"
                | "web"
                | "notify"
        ),
    }
}

/// Parses an invocation; `None` for a command we do not have.
pub fn parse(name: &str, options: &[CommandDataOption]) -> Option<Command> {
    Some(match name {
        "challenge" => Command::Challenge {
            opponent: user(options, "opponent"),
            variant: variant(options),
            time: time(options),
            rated: options
                .iter()
                .find(|o| o.name == "rated")
                .and_then(|o| o.value.as_bool())
                .unwrap_or(true),
        },
        "play" => Command::Play {
            level: string(options, "level").map(|l| l.parse().map_err(|_| BadOption)),
            variant: variant(options),
            time: time(options),
        },
        "board" => Command::Board {
            game: game(options),
        },
        "games" => Command::Games,
        "notify" => Command::Notify(NotifyOptions::parse(options)),
        "resign" => Command::Resign {
            game: game(options),
        },
        "draw" => Command::Draw {
            game: game(options),
        },
        "rematch" => Command::Rematch {
            game: game(options),
        },
        "review" => Command::Review {
            game: game(options),
        },
        "help" => Command::Help {
            language: string(options, "language").map(|l| Lang::from_code(l).ok_or(BadOption)),
        },
        "stats" => Command::Stats {
            player: user(options, "player"),
        },
        "history" => Command::History {
            player: user(options, "player"),
        },
        "record" => Command::Record {
            game: game(options),
        },
        "tournament" => Command::Tournament(tournament_command::tournament(options)),
        "puzzle" => Command::Puzzle(puzzle_command::parse_puzzle(options)),
        "opening" => Command::Opening {
            moves: string(options, "moves").map(str::to_string),
            source: string(options, "source").map(str::to_string),
        },
        "web" => Command::Web {
            public: web_command::parse_web(options, "public"),
            profile: web_command::parse_web(options, "profile"),
            signin: web_command::parse_signin(options),
        },
        "leaderboard" => Command::Leaderboard {
            global: match string(options, "scope") {
                None | Some("server") => Ok(false),
                Some("global") => Ok(true),
                Some(_) => Err(BadOption),
            },
            // A choice's value is its English name; anything else is a forged option.
            category: string(options, "category").map(|v| {
                Category::ALL
                    .into_iter()
                    .find(|c| c.name() == v)
                    .ok_or(BadOption)
            }),
        },
        _ => return None,
    })
}

fn boolean(options: &[CommandDataOption], name: &str) -> Option<bool> {
    options
        .iter()
        .find(|o| o.name == name)
        .and_then(|o| o.value.as_bool())
}

/// An integer option within `(default, least, most)`.
fn bounded(
    options: &[CommandDataOption],
    name: &str,
    (default, least, most): (u64, u64, u64),
) -> Result<u64, BadOption> {
    match integer(options, name) {
        None => Ok(default),
        Some(n) => u64::try_from(n)
            .ok()
            .filter(|n| (least..=most).contains(n))
            .ok_or(BadOption),
    }
}

fn variant(options: &[CommandDataOption]) -> Result<Variant, BadOption> {
    let balls = match integer(options, "balls") {
        None => Variant::STANDARD.balls_per_pit(),
        Some(n) => u8::try_from(n).map_err(|_| BadOption)?,
    };
    let tuzdek = match string(options, "tuzdek") {
        None | Some("standard") => TuzdekRule::Standard,
        Some("off") => TuzdekRule::Off,
        Some("ninth") => TuzdekRule::NinthAllowed,
        Some(_) => return Err(BadOption),
    };
    Variant::new(balls, tuzdek).map_err(|_| BadOption)
}

#[path = "puzzle_command.rs"]
mod puzzle_command;
pub use puzzle_command::PuzzleCommand;

#[path = "notify_command.rs"]
mod notify_command;
#[path = "opening_command.rs"]
mod opening_command;
#[path = "tournament_command.rs"]
mod tournament_command;
#[path = "web_command.rs"]
mod web_command;
pub use notify_command::NotifyOptions;
pub use web_command::SignInChoice;

#[path = "time_option.rs"]
mod time_option;
pub use time_option::suggestions as time_suggestions;
use time_option::time;

#[cfg(test)]
#[path = "commands_tests.rs"]
mod tests;
