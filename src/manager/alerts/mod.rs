//! Being told in private about correspondence games (issue 51): "your move", the warning
//! at 80% of a move's time, the daily digest, and the player's `/notify` settings.
//!
//! ```text
//! write_game (a move)  -> plan::schedule: the game's pending alert rows replaced in the
//!                         move's own batch (Tree::Alerts, keyed by platform|due|...)
//! scheduler tick (1 s) -> scan each served platform's due rows (a range read)
//!                      -> read one, decide (stale, off, quiet, merged, digest)
//!                      -> one compare-and-set: drop, re-key, or claim (the row moves to
//!                         its lease's end, so a dead process's claims come due again)
//!                      -> try_send to the platform's bounded queue
//! adapter              -> sends it, then alert_done(Sent | Unreachable | Later)
//! ```
//! docs/correspondence.md describes the rows, the claim protocol and its exactly-once
//! window. Files: `plan` the rows a move schedules; `scheduler` the tick and the claims;
//! `settings` the per-player record (settings, last message, unreachable).

mod plan;
mod scheduler;
mod settings;

pub use plan::{schedule_alerts, AlertRow};
pub(super) use scheduler::Alerts;
pub use scheduler::{ALERT_LATER_MS, ALERT_LEASE_MS, ALERT_QUEUE, MERGE_MS};

use super::*;
use crate::model::notify::{NotifyChange, NotifySettings};

/// The manager's errors, as the issue 51 contract names them.
pub type ManagerError = ActionError;

/// A private message the manager asks an adapter to send.
#[derive(Clone, Debug, PartialEq)]
pub struct Alert {
    /// Opaque; given back in `alert_done`.
    pub id: AlertId,
    /// Whom to tell (their platform's adapter sends it).
    pub user: UserRef,
    /// The language they read.
    pub lang: Lang,
    pub kind: AlertKind,
    /// YourMove/Digest: every game where it is their move, least time left first;
    /// Warning: the one game.
    pub games: Vec<TurnLine>,
}

/// Which alert: its text differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AlertKind {
    /// The opponent moved: it is their move (at most one per 10 minutes per player).
    YourMove,
    /// 80% of the move's time has gone.
    Warning,
    /// The daily list of games where it is their move (`/notify digest`).
    Digest,
}

impl AlertKind {
    /// The word in the alert's store key.
    fn word(self) -> &'static str {
        match self {
            AlertKind::YourMove => "move",
            AlertKind::Warning => "warn",
            AlertKind::Digest => "digest",
        }
    }
}

/// One game an alert names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnLine {
    pub game: GameId,
    /// The opponent's display name, cleaned (`model::names`).
    pub opponent: String,
    pub time_control: TimeControl,
    /// Time left for the current move.
    pub left_ms: u64,
    /// The game's page URL when the pages are served.
    pub page: Option<String>,
    /// Where the game lives.
    pub chat: ChatRef,
    /// The game's board messages, oldest first: without pages, the alert's button links
    /// the newest one the platform can link (`present::link::board_message_url`).
    pub boards: Vec<MessageRef>,
}

/// An alert handed to an adapter: opaque outside the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlertId {
    /// The claimed row's key (`platform|lease end|...`) and the revision the claim wrote.
    key: String,
    revision: u64,
}

/// What became of an alert (`Manager::alert_done`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlertOutcome {
    /// Delivered: removed for good.
    Sent,
    /// The player cannot be written to (never started the bot, blocked it, closed DMs):
    /// nothing more is sent until they write to the bot.
    Unreachable,
    /// Not now (a flood limit, the service away): sent again after a pause.
    Later,
}

impl Manager {
    /// The alerts this process is to send for `platform`: a bounded queue the adapter
    /// drains. Called once per adapter at start; from then on the scheduler claims due
    /// alerts of that platform in this process, every second (on a manual clock only when
    /// `alert_tick` is called). Calling it again replaces the queue.
    pub fn serve_alerts(&self, platform: Platform) -> tokio::sync::mpsc::Receiver<Alert> {
        self.inner.alerts.serve(platform)
    }

    /// What became of an alert: Sent (removed for good), Unreachable (the player is
    /// remembered as unreachable; nothing more is sent until they write to the bot),
    /// Later (the claim is released; sent again after a pause).
    pub async fn alert_done(&self, id: &AlertId, outcome: AlertOutcome) {
        if let Err(error) = self.finish_alert(id, outcome).await {
            // The claim runs out and another tick takes the row again: nothing is lost.
            tracing::warn!(key = id.key, ?outcome, %error, "alert outcome not stored");
        }
    }

    /// The player wrote to the bot (any command or press in a private chat, any
    /// interaction on Discord): no longer unreachable. Cheap when nothing changes.
    pub async fn reachable_again(&self, user: &UserRef) {
        if let Err(error) = self.mark_reachable(user).await {
            tracing::warn!(user = user.key(), %error, "reachable again not stored");
        }
    }

    /// Their settings (`/notify` without arguments).
    pub async fn notify_settings(&self, user: &UserRef) -> Result<NotifySettings, ManagerError> {
        Ok(self.notify_state(user).await?.value.settings)
    }

    /// Changes their settings (`/notify ...`); the settings now.
    pub async fn set_notify(
        &self,
        user: &UserRef,
        change: NotifyChange,
    ) -> Result<NotifySettings, ManagerError> {
        if self.inner.read_only {
            return Err(ActionError::Storage("this process only reads".into()));
        }
        self.change_notify(user, change).await
    }
}
