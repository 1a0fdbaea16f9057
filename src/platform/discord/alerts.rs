//! Private alerts about correspondence games (issue 51) on Discord: the manager hands this
//! process the alerts it claimed (`Manager::serve_alerts`); each goes to the user's DM with
//! the bot (the channel opened once and kept, as for tournament boards), then the manager
//! is told what became of it.
//!
//! The draining loop only starts work: each alert is sent by a task of its own, at most
//! `IN_FLIGHT` at once (the manager's bounded queue holds the rest), after waiting for the
//! alerts' share of the requests (`ALERTS_PER_SEC`, out of Discord's 50 a second: boards
//! and answers keep the rest; serenity's limiter still waits out each route's bucket). A
//! user whose DMs are closed (Discord's 403, code 50007, or 50278: no server in common) is
//! reported `Unreachable`: nothing more is sent until they use the bot again
//! (`reachable_again`, on every interaction).

use super::failure::{dm_refusal, transient};
use super::messages;
use super::Bot;
use crate::manager::alerts::{Alert, AlertOutcome};
use crate::platform::present::alerts::alert_message;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use serenity::all::{ChannelId, Http};
use std::num::NonZeroU32;
use std::sync::Arc;
use tokio::sync::{mpsc, Semaphore};

/// Alerts being sent at once.
const IN_FLIGHT: usize = 32;
/// Alerts started per second: each costs a request, two when the DM channel is new.
const ALERTS_PER_SEC: u32 = 10;

/// Drains the manager's alerts for Discord until it stops handing them out.
pub(super) async fn serve(bot: Arc<Bot>, http: Arc<Http>, mut alerts: mpsc::Receiver<Alert>) {
    let permits = Arc::new(Semaphore::new(IN_FLIGHT));
    let rate = NonZeroU32::new(ALERTS_PER_SEC).unwrap_or(NonZeroU32::MIN);
    let allowance: Arc<DefaultDirectRateLimiter> =
        Arc::new(RateLimiter::direct(Quota::per_second(rate)));
    while let Some(alert) = alerts.recv().await {
        let Ok(permit) = permits.clone().acquire_owned().await else {
            return;
        };
        let (bot, http, allowance) = (bot.clone(), http.clone(), allowance.clone());
        tokio::spawn(async move {
            allowance.until_ready().await;
            let outcome = send(&bot, &http, &alert).await;
            bot.manager.alert_done(&alert.id, outcome).await;
            drop(permit);
        });
    }
    tracing::info!("Discord: alerts no longer served");
}

/// Sends one alert to its user's DM and says what became of it.
async fn send(bot: &Bot, http: &Http, alert: &Alert) -> AlertOutcome {
    let Some(user) = messages::user_id(&alert.user) else {
        tracing::warn!(
            user = alert.user.key(),
            "Discord: an alert for no Discord user"
        );
        return AlertOutcome::Unreachable;
    };
    let shown = alert_message(alert);
    let sent = match bot.tournaments.outlet().dm_channel(http, user).await {
        Ok(channel) => {
            let out = messages::links_message(shown.text, &shown.buttons);
            ChannelId::new(channel)
                .send_message(http, out.into_message())
                .await
                .map(drop)
        }
        Err(error) => Err(error),
    };
    let Err(error) = sent else {
        tracing::info!(user = alert.user.id, kind = ?alert.kind, games = alert.games.len(), "Discord: alert sent");
        return AlertOutcome::Sent;
    };
    if let Some(code) = dm_refusal(&error) {
        tracing::info!(
            user = alert.user.id,
            code,
            "Discord: alert refused, DMs closed"
        );
        AlertOutcome::Unreachable
    } else if transient(&error) {
        tracing::info!(user = alert.user.id, %error, "Discord: alert not sent now");
        AlertOutcome::Later
    } else {
        // A refusal of the message itself would only repeat: dropped, and said so.
        tracing::warn!(user = alert.user.id, %error, "Discord: alert refused, dropped");
        AlertOutcome::Sent
    }
}
