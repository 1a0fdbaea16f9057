//! What a Discord handler could not do, and the one place it is answered (issue 32, as
//! Telegram's `failure.rs`): handlers return a [`Failure`] with `?`; `handler.rs` hands it
//! to [`answer`], which tells the user privately (an ephemeral message: Discord wants every
//! interaction answered) and logs what needs logging.

use super::answer::Origin;
use crate::i18n::Lang;
use crate::manager::ActionError;
use crate::platform::present;
use crate::t;

/// What a handler returns.
pub(super) type Handled = Result<(), Failure>;

/// Why a handler did not do what the interaction asked.
#[derive(Debug, thiserror::Error)]
pub(super) enum Failure {
    /// The manager said no: `present::error_text`.
    #[error("refused: {0}")]
    Refused(#[from] ActionError),
    /// A command option Discord should not have let through (a choice we do not offer).
    #[error("bad option")]
    BadOption,
    /// Button data the bot cannot take (garbled, forged, or pressed where it does not
    /// belong); why is logged where it is found.
    #[error("bad button")]
    BadButton,
    /// A member named in an option that Discord did not resolve.
    #[error("unknown user")]
    UnknownUser,
    /// A user's lookups over their limit: told to slow down.
    #[error("over the limit")]
    Limited,
    /// What was asked cannot be done, in the handler's own words (already in the user's
    /// language): a challenge in a DM, of a bot, within the cooldown, a time not understood.
    #[error("unable: {0}")]
    Unable(String),
    /// The bot failed (a drawing, say): logged as an error, the user told
    /// `discord-internal-error`.
    #[error("internal: {0}")]
    Internal(String),
}

impl Failure {
    /// What the user is told, in `lang`.
    pub(super) fn text(&self, lang: Lang) -> String {
        match self {
            Failure::Refused(err) => present::error_text(err, lang),
            Failure::BadOption => t!(lang, "discord-bad-option"),
            Failure::BadButton => t!(lang, "discord-bad-button"),
            Failure::UnknownUser => t!(lang, "discord-unknown-user"),
            Failure::Limited => t!(lang, "discord-slow-down"),
            Failure::Unable(text) => text.clone(),
            Failure::Internal(_) => t!(lang, "discord-internal-error"),
        }
    }
}

/// The refusal of `/command` arriving without one of its subcommands, or with one we do not
/// have (a client with an outdated list of our commands): which subcommands there are, by
/// the names the user's client shows (`keys`: their catalog keys).
pub(super) fn no_subcommand(command: &str, keys: &[&str], lang: Lang) -> Failure {
    let names: Vec<String> = keys.iter().map(|k| crate::i18n::tr(lang, k)).collect();
    Failure::Unable(t!(
        lang,
        "discord-subcommand-missing",
        command = command,
        subcommands = names.join(", ")
    ))
}

/// Answers `failure` privately, in `lang`.
pub(super) async fn answer(origin: &Origin<'_>, failure: Failure, lang: Lang) {
    match &failure {
        Failure::Internal(why) => tracing::error!(why, "Discord: an interaction failed"),
        Failure::Refused(ActionError::Storage(_)) => {
            tracing::warn!(%failure, "Discord: refused for the store")
        }
        _ => tracing::debug!(%failure, "Discord: refused"),
    }
    origin.ephemeral(failure.text(lang)).await;
}

/// Answers with `text`, privately: a handler's answer that is not a failure.
pub(super) async fn said(origin: &Origin<'_>, text: String) -> Handled {
    origin.ephemeral(text).await;
    Ok(())
}

/// Discord's JSON codes for a user the bot may not write to: "Cannot send messages to this
/// user" (DMs closed, the bot blocked) and "... due to having no mutual guilds".
const CANNOT_DM: [isize; 2] = [50007, 50278];

/// The JSON code of a refusal that says the user cannot be DMed, if it is one (tournament
/// boards and private alerts).
pub(super) fn dm_refusal(error: &serenity::Error) -> Option<isize> {
    use serenity::http::HttpError;
    match error {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(resp))
            if CANNOT_DM.contains(&resp.error.code) =>
        {
            Some(resp.error.code)
        }
        _ => None,
    }
}

/// Whether a failed request may succeed later, so that a worker tries it again: Discord or
/// the network in trouble, not a refusal (a deleted message, a missing permission) that
/// would only repeat.
pub(super) fn transient(error: &serenity::Error) -> bool {
    use serenity::http::HttpError;
    match error {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(resp)) => {
            resp.status_code.is_server_error() || resp.status_code.as_u16() == 429
        }
        serenity::Error::Http(HttpError::Request(_)) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_failure_is_told_in_the_users_language() {
        let refused = Failure::from(ActionError::NotYourTurn);
        assert_eq!(
            refused.text(Lang::Ru),
            present::error_text(&ActionError::NotYourTurn, Lang::Ru)
        );
        assert_eq!(
            Failure::Limited.text(Lang::Kk),
            t!(Lang::Kk, "discord-slow-down")
        );
        assert_eq!(
            Failure::BadButton.text(Lang::En),
            t!(Lang::En, "discord-bad-button")
        );
        assert_eq!(Failure::Unable("x".into()).text(Lang::En), "x");
        let internal = Failure::Internal("a drawing failed".into()).text(Lang::Ru);
        assert_eq!(internal, t!(Lang::Ru, "discord-internal-error"));
        assert!(!internal.contains("drawing"));
    }
}
