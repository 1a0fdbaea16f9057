//! Private alerts about correspondence games (issue 51) on Telegram: the manager hands this
//! process the alerts it claimed (`Manager::serve_alerts`); each goes to the user's private
//! chat with the bot (its id is the user's), then the manager is told what became of it.
//!
//! The draining loop only queues: each alert is a job in its chat's outbox, which waits
//! there for the chat's flood allowance and the alerts' share of the overall limit
//! (`Poster::send_alert`: a third of Telegram's 30 messages a second, the rest kept for
//! boards). At most `IN_FLIGHT` alerts are queued at once, so the manager's bounded queue,
//! not this process's memory, holds a flood. A user who never started the bot (Telegram's
//! 403), blocked it or is gone is reported `Unreachable`: the manager sends them nothing
//! more until they write to the bot (`reachable_again`, on every private message and press).

use super::boards::html;
use super::poster::{cannot_reach, may_pass, Content};
use super::{markup, Ctx};
use crate::manager::alerts::{Alert, AlertId, AlertOutcome};
use crate::platform::present::alerts::alert_message;
use std::sync::Arc;
use tokio::sync::{mpsc, Semaphore};

/// Alerts queued in outboxes at once.
const IN_FLIGHT: usize = 64;

/// Drains the manager's alerts for Telegram until it stops handing them out.
pub async fn serve(ctx: Arc<Ctx>, mut alerts: mpsc::Receiver<Alert>) {
    let permits = Arc::new(Semaphore::new(IN_FLIGHT));
    while let Some(alert) = alerts.recv().await {
        let Ok(permit) = permits.clone().acquire_owned().await else {
            return;
        };
        // A Telegram user's private chat with the bot has the user's id.
        let Ok(chat) = alert.user.id.parse::<i64>() else {
            tracing::warn!(
                user = alert.user.key(),
                "telegram: an alert for no Telegram user"
            );
            done(&ctx, alert.id, AlertOutcome::Unreachable);
            continue;
        };
        let id = alert.id.clone();
        let worker = ctx.clone();
        let job = async move {
            let outcome = send(&worker, chat, &alert).await;
            worker.manager.alert_done(&alert.id, outcome).await;
            drop(permit);
        };
        if !ctx.outbox.push(chat, None, Box::pin(job)) {
            // The chat's outbox is full: the manager offers it again after a pause.
            done(&ctx, id, AlertOutcome::Later);
        }
    }
    tracing::info!("telegram: alerts no longer served");
}

/// Tells the manager in the background: the draining loop never waits for the store.
fn done(ctx: &Arc<Ctx>, id: AlertId, outcome: AlertOutcome) {
    let manager = ctx.manager.clone();
    tokio::spawn(async move { manager.alert_done(&id, outcome).await });
}

/// Sends one alert (from its chat's outbox task) and says what became of it.
async fn send(ctx: &Ctx, chat: i64, alert: &Alert) -> AlertOutcome {
    let shown = alert_message(alert);
    let content = Content::Text {
        text: html(&shown.text),
        keyboard: markup::alert_keyboard(&shown.buttons, shown.pages, ctx.mini_app.as_ref()),
    };
    let err = match ctx.poster.send_alert(chat, &content).await {
        Ok(_) => {
            ctx.people.note_private(chat.unsigned_abs());
            tracing::info!(chat, kind = ?alert.kind, games = alert.games.len(), "telegram: alert sent");
            return AlertOutcome::Sent;
        }
        Err(err) => err,
    };
    let error = ctx.poster.describe(&err);
    if cannot_reach(&err) {
        tracing::info!(
            chat,
            error,
            "telegram: alert refused, the user is unreachable"
        );
        AlertOutcome::Unreachable
    } else if may_pass(&err) {
        tracing::info!(chat, error, "telegram: alert not sent now");
        AlertOutcome::Later
    } else {
        // A refusal of the message itself would only repeat: dropped, and said so.
        tracing::warn!(chat, error, "telegram: alert refused, dropped");
        AlertOutcome::Sent
    }
}
