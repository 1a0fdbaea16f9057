//! `/tournament`'s options read into a [`TournamentCommand`] (a child of `commands`, whose
//! helpers it shares).

use super::{
    boolean, bounded, integer, string, time, variant, BadOption, TournamentCommand, ARENA_MINUTES,
    BYE_ROUND, STARTS_IN, SWISS_ROUNDS,
};
use crate::manager::tournament::Format;
use serenity::all::{CommandDataOption, CommandDataOptionValue};

/// `/tournament`'s subcommand: Discord sends it as the one option, holding its own options.
pub(super) fn tournament(options: &[CommandDataOption]) -> TournamentCommand {
    let Some((name, sub)) = options.first().and_then(|o| match &o.value {
        CommandDataOptionValue::SubCommand(sub) => Some((o.name.as_str(), sub.as_slice())),
        _ => None,
    }) else {
        return TournamentCommand::Unknown;
    };
    let id = || {
        string(sub, "id")
            .map(|g| g.trim().to_ascii_lowercase())
            .filter(|g| !g.is_empty())
    };
    match name {
        "new" => TournamentCommand::New {
            format: match string(sub, "format") {
                Some("arena") => bounded(sub, "minutes", ARENA_MINUTES)
                    .and_then(|m| u16::try_from(m).map_err(|_| BadOption))
                    .map(|minutes| Format::Arena { minutes }),
                Some("swiss") => bounded(sub, "rounds", SWISS_ROUNDS)
                    .and_then(|r| u8::try_from(r).map_err(|_| BadOption))
                    .map(|rounds| Format::Swiss { rounds }),
                _ => Err(BadOption),
            },
            time: time(sub),
            starts_in: bounded(sub, "starts_in", STARTS_IN),
            rated: boolean(sub, "rated").unwrap_or(true),
            variant: variant(sub),
        },
        "standings" => TournamentCommand::Standings { id: id() },
        "join" => TournamentCommand::Join { id: id() },
        "leave" => TournamentCommand::Leave { id: id() },
        "cancel" => TournamentCommand::Cancel { id: id() },
        "bot" => TournamentCommand::Bot {
            level: string(sub, "level")
                .ok_or(BadOption)
                .and_then(|l| l.parse().map_err(|_| BadOption)),
            id: id(),
        },
        "bye" => TournamentCommand::Bye {
            round: match integer(sub, "round") {
                None => Ok(None),
                Some(_) => bounded(sub, "round", BYE_ROUND)
                    .and_then(|r| u8::try_from(r).map_err(|_| BadOption))
                    .map(Some),
            },
            id: id(),
        },
        _ => TournamentCommand::Unknown,
    }
}
