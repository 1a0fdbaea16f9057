//! What a handler could not do, and the one place each kind of update answers it (issue 14,
//! as poise's `on_error`): handlers return a [`Failure`] with `?`, and each endpoint in
//! dispatch.rs hands it to [`message_failed`], [`press_failed`] or [`inline_failed`], which
//! tell the user as suits that update and log what needs logging. A panicking handler comes
//! here too, as [`Failure::Panicked`].

use super::boards::html;
use super::command::CommandError;
use super::refs::Place;
use super::toast::answer;
use super::{user_ref, Ctx};
use crate::i18n::Lang;
use crate::manager::ActionError;
use crate::platform::present;
use crate::t;
use std::sync::Arc;
use teloxide::types::{CallbackQuery, Message};

/// What a handler returns.
pub type HandlerResult = Result<(), Failure>;

/// Why a handler did not do what the update asked.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// The manager said no: `present::error_text`. On a press, an alert when `alert` (by
    /// default when the refusal is about the presser: `present::is_alert`; see
    /// [`Failure::alert`]), else a passing notice.
    #[error("refused: {err}")]
    Refused { err: ActionError, alert: bool },
    /// A command that does not parse: answered in a private chat, in a group only when
    /// `CommandError::answer_in_group` (groups are full of other bots' commands).
    #[error("malformed command: {0}")]
    Command(CommandError),
    /// What was asked cannot be done here, said in the handler's own words (already in the
    /// user's language): nobody named to challenge, a record asked for on an inline message.
    /// On a press, an alert.
    #[error("unable: {0}")]
    Unable(String),
    /// Button data the bot cannot take (garbled, forged, or pressed where it does not
    /// belong): `tg-bad-button` as an alert, and why logged.
    #[error("bad button: {0}")]
    BadButton(String),
    /// A user's commands over their limit: told to slow down (`guard::CommandLimit` says
    /// when to tell them and when to stay silent).
    #[error("commands over the limit")]
    Limited,
    /// The bot or Telegram failed: logged (without the token), the user told
    /// `tg-error-internal`.
    #[error(transparent)]
    Internal(anyhow::Error),
    /// The handler panicked (the panic's message): logged as an error, the user told
    /// `tg-error-internal`.
    #[error("panicked: {0}")]
    Panicked(String),
}

impl From<ActionError> for Failure {
    fn from(err: ActionError) -> Failure {
        Failure::Refused {
            alert: present::is_alert(&err),
            err,
        }
    }
}

impl From<CommandError> for Failure {
    fn from(err: CommandError) -> Failure {
        Failure::Command(err)
    }
}

impl Failure {
    /// A refusal shown as an alert whatever it is about (accepting an inline challenge,
    /// turning a history page: nothing else on the message tells what happened).
    pub fn alert(err: ActionError) -> Failure {
        Failure::Refused { err, alert: true }
    }

    /// Button data refused for `why` (logged, not shown).
    pub fn bad_button(why: impl Into<String>) -> Failure {
        Failure::BadButton(why.into())
    }

    /// What the user is told, as plain text in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Failure::Refused { err, .. } => present::error_text(err, lang),
            Failure::Command(err) => err.text(lang),
            Failure::Unable(text) => text.clone(),
            Failure::BadButton(_) => t!(lang, "tg-bad-button"),
            Failure::Limited => t!(lang, "tg-slow-down"),
            Failure::Internal(_) | Failure::Panicked(_) => t!(lang, "tg-error-internal"),
        }
    }

    /// Whether a press is answered with an alert the user must close rather than a passing
    /// notice: all but a refusal about the game rather than the presser (a stale board).
    pub fn is_alert(&self) -> bool {
        match self {
            Failure::Refused { alert, .. } => *alert,
            _ => true,
        }
    }

    /// Whether a command's chat hears of it: a group does not hear of another bot's command.
    pub fn told_in(&self, private: bool) -> bool {
        match self {
            Failure::Command(err) => private || err.answer_in_group(),
            _ => true,
        }
    }
}

/// A message's handler failed: the command is answered in its chat (through the outbox,
/// as every reply) and the failure logged.
pub async fn message_failed(ctx: &Arc<Ctx>, msg: &Message, failure: Failure) {
    let chat = msg.chat.id.0;
    let from = msg.from.as_ref();
    log(ctx, "message", &failure, from.map(|u| u.id.0), Some(chat));
    let private = msg.chat.is_private();
    if !failure.told_in(private) {
        return;
    }
    let lang = match from {
        Some(from) => ctx.lang_of(&user_ref(from)).await,
        None => Lang::default(),
    };
    let at = Place {
        chat,
        reply_to: Some(msg.id.0),
    };
    reply(ctx, at, private, &failure, lang);
}

/// Tells `failure` in a chat (through its outbox), unless a chat like this one (private or
/// not) does not hear of it.
pub fn reply(ctx: &Arc<Ctx>, at: Place, private: bool, failure: &Failure, lang: Lang) {
    if failure.told_in(private) {
        ctx.reply(at.chat, at.reply_to, html(&failure.text(lang)));
    }
}

/// A button press's handler failed: the press is answered (a notice or an alert) and the
/// failure logged.
pub async fn press_failed(ctx: &Arc<Ctx>, q: &CallbackQuery, failure: Failure) {
    let chat = q.message.as_ref().map(|m| m.chat().id.0);
    log(ctx, "callback", &failure, Some(q.from.id.0), chat);
    let lang = ctx.lang_of(&user_ref(&q.from)).await;
    answer(ctx, q, failure.text(lang), failure.is_alert()).await;
}

/// An inline query's or a chosen inline result's handler failed: the failure is logged.
/// Nothing is shown: an inline query left unanswered offers nothing, and a chosen result's
/// message shows what became of the challenge.
pub fn inline_failed(ctx: &Ctx, update: &'static str, user: u64, failure: Failure) {
    log(ctx, update, &failure, Some(user), None);
}

/// Logs what needs logging, with the update's kind, user and chat. Refusals and what the
/// handler said in its own words are answers, not news.
fn log(ctx: &Ctx, update: &'static str, failure: &Failure, user: Option<u64>, chat: Option<i64>) {
    match failure {
        Failure::Refused { .. } | Failure::Unable(_) => {}
        Failure::Command(err) => {
            tracing::debug!(update, user, chat, %err, "telegram: malformed command");
        }
        Failure::BadButton(why) => {
            tracing::info!(update, user, chat, why, "telegram: bad button");
        }
        Failure::Limited => tracing::info!(update, user, chat, "telegram: commands over the limit"),
        Failure::Internal(err) => {
            let error = ctx.poster.scrubbed(&format!("{err:#}"));
            tracing::warn!(update, user, chat, error, "telegram: update failed");
        }
        Failure::Panicked(panic) => {
            tracing::error!(update, user, chat, panic, "telegram: a handler panicked");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn told(failure: &Failure, private: bool) -> Option<String> {
        failure.told_in(private).then(|| failure.text(Lang::En))
    }

    #[test]
    fn a_refusal_is_its_error_text_and_an_alert_only_when_about_the_presser() {
        let not_yours: Failure = ActionError::NotYourTurn.into();
        assert_eq!(not_yours.text(Lang::En), "It is not your turn.");
        assert!(not_yours.is_alert());
        let stale: Failure = ActionError::StaleBoard.into();
        assert_eq!(
            stale.text(Lang::Ru),
            present::error_text(&ActionError::StaleBoard, Lang::Ru)
        );
        assert!(!stale.is_alert(), "a stale board passes as a notice");
        let closed = Failure::alert(ActionError::ChallengeClosed);
        assert!(closed.is_alert(), "an alert whatever it is about");
        assert_eq!(closed.text(Lang::En), "This challenge is no longer open.");
        for private in [true, false] {
            assert_eq!(told(&stale, private), Some(stale.text(Lang::En)));
        }
    }

    #[test]
    fn a_malformed_command_is_told_in_private_and_in_a_group_only_when_addressed() {
        let other_bots = Failure::Command(CommandError::Unknown {
            word: "weather".into(),
            addressed: false,
        });
        let text = told(&other_bots, true).expect("told in private");
        assert!(
            text.contains("/weather") && text.contains("/play"),
            "{text}"
        );
        assert_eq!(told(&other_bots, false), None, "another bot's command");
        let addressed = Failure::Command(CommandError::Unknown {
            word: "weather".into(),
            addressed: true,
        });
        assert_eq!(told(&addressed, false), Some(text));
        let lang: Failure = CommandError::Lang("de".into()).into();
        assert_eq!(
            told(&lang, false),
            Some(CommandError::Lang("de".into()).text(Lang::En))
        );
    }

    #[test]
    fn the_rest_is_told_everywhere_and_alerts_a_presser() {
        let internal = Failure::Internal(anyhow::anyhow!("answerInlineQuery: timed out"));
        let cases = [
            (Failure::Unable("Say who.".into()), "Say who.".to_string()),
            (Failure::bad_button("forged"), t!(Lang::En, "tg-bad-button")),
            (Failure::Limited, t!(Lang::En, "tg-slow-down")),
            (internal, t!(Lang::En, "tg-error-internal")),
            (
                Failure::Panicked("boom".into()),
                t!(Lang::En, "tg-error-internal"),
            ),
        ];
        for (failure, text) in cases {
            assert!(failure.is_alert(), "{failure}");
            assert_eq!(told(&failure, true).as_ref(), Some(&text), "{failure}");
            assert_eq!(told(&failure, false).as_ref(), Some(&text), "{failure}");
        }
        assert!(t!(Lang::En, "tg-error-internal").contains("went wrong"));
    }
}
