//! `/puzzle` and its subcommands: their definition and their parsing (a child of
//! `commands`, whose helpers it shares).

use super::{command, localize_option, option, EVERYWHERE, LOCALES};
use crate::t;
use serenity::all::{CommandDataOption, CommandDataOptionValue, CommandOptionType, CreateCommand};

/// What `/puzzle` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleCommand {
    /// `play`: the puzzle on, or the next one near the caller's rating.
    Play,
    /// `daily`: today's puzzle, the same for everyone.
    Daily,
    /// `stats`: the caller's puzzle numbers.
    Stats,
    /// `top [global:]`: the server's (or Discord's) best solvers.
    Top { global: bool },
    /// `post [hour:]`: the daily puzzle posted in this channel at `hour` UTC; without an
    /// hour, no more (a server's admins). `Err`: an hour out of range (a forged client).
    Post { hour: Result<Option<u8>, ()> },
    /// A subcommand we do not have (an outdated client).
    Unknown,
}

/// `/puzzle` and its subcommands, in servers and direct messages.
pub(super) fn puzzle_definition() -> CreateCommand {
    let sub = |name: &'static str, key: &'static str, desc: &'static str| {
        localize_option(option(CommandOptionType::SubCommand, name, desc), key, desc)
    };
    let global = localized!(
        option(
            CommandOptionType::Boolean,
            "global",
            "discord-opt-puzzle-global-desc"
        ),
        "discord-opt-puzzle-global",
        "discord-opt-puzzle-global-desc"
    );
    localized!(
        command("puzzle", "discord-cmd-puzzle-desc"),
        "discord-cmd-puzzle",
        "discord-cmd-puzzle-desc"
    )
    .contexts(EVERYWHERE.to_vec())
    .add_option(sub(
        "play",
        "discord-sub-puzzle-play",
        "discord-sub-puzzle-play-desc",
    ))
    .add_option(sub(
        "daily",
        "discord-sub-puzzle-daily",
        "discord-sub-puzzle-daily-desc",
    ))
    .add_option(sub(
        "stats",
        "discord-sub-puzzle-stats",
        "discord-sub-puzzle-stats-desc",
    ))
    .add_option(
        sub(
            "top",
            "discord-sub-puzzle-top",
            "discord-sub-puzzle-top-desc",
        )
        .add_sub_option(global),
    )
    .add_option(
        sub(
            "post",
            "discord-sub-puzzle-post",
            "discord-sub-puzzle-post-desc",
        )
        .add_sub_option(
            localize_option(
                option(
                    CommandOptionType::Integer,
                    "hour",
                    "discord-opt-puzzle-hour-desc",
                ),
                "discord-opt-puzzle-hour",
                "discord-opt-puzzle-hour-desc",
            )
            .min_int_value(0)
            .max_int_value(23),
        ),
    )
}

/// `/puzzle`'s subcommand: Discord sends it as the one option, holding its own options.
pub(super) fn parse_puzzle(options: &[CommandDataOption]) -> PuzzleCommand {
    let Some((name, sub)) = options.first().and_then(|o| match &o.value {
        CommandDataOptionValue::SubCommand(sub) => Some((o.name.as_str(), sub.as_slice())),
        _ => None,
    }) else {
        return PuzzleCommand::Unknown;
    };
    match name {
        "play" => PuzzleCommand::Play,
        "daily" => PuzzleCommand::Daily,
        "stats" => PuzzleCommand::Stats,
        "top" => PuzzleCommand::Top {
            global: sub
                .iter()
                .find(|o| o.name == "global")
                .and_then(|o| o.value.as_bool())
                .unwrap_or(false),
        },
        "post" => PuzzleCommand::Post {
            hour: match sub.iter().find(|o| o.name == "hour") {
                None => Ok(None),
                Some(o) => o
                    .value
                    .as_i64()
                    .and_then(|h| u8::try_from(h).ok())
                    .filter(|h| *h < 24)
                    .map(Some)
                    .ok_or(()),
            },
        },
        _ => PuzzleCommand::Unknown,
    }
}
