//! A tournament in its Discord channel, as `platform/flow/tournament.rs` decides for every
//! adapter: this file is the Discord outlet of that flow, which only sends and edits (the
//! flow keeps the news merged, what was shown, and the retries).
//!
//! The announcement's channel carries the event: the announcement (edited as it moves on),
//! the standings picture (posted once the event runs, then edited) and the podium. The
//! boards: a channel takes 5 messages per 5 s from a bot (`DISCORD_CHANNEL`), so an event
//! of up to 11 players keeps them in the channel (the pairing line over each game's board,
//! both players pinged); a larger one sends each player their board in a DM (drawn from
//! their side, in their language, pits only on their turn) and posts one pairings message
//! per round or wave in the channel. A player Discord will not let the bot DM (403, 50007
//! or 50278) has their game's board posted in the channel instead.

use super::failure::{dm_refusal, transient};
use super::messages::{self, Stamp};
use super::tournament_view::*;
use super::{dm_message_ref, dm_owner, lock, message_ref, parse_message_ref, Bot, Drawn};
use crate::i18n::Lang;
use crate::manager::tournament::TournamentRecord;
use crate::manager::{GameView, MessageRef, Player, Target};
use crate::model::{GameId, Platform, UserRef};
use crate::platform::flow::tournament::{ChatBudget, Delivery, Flow, Outlet, DISCORD_CHANNEL};
use crate::platform::flow::Posted;
use crate::platform::present::{self, tournament as show, ClockStyle};
use crate::render::table::TableView;
use serenity::all::{ChannelId, Http, MessageId, UserId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

/// The Discord tournaments: the shared flow over this outlet.
pub type TournamentFlow = Flow<DiscordOutlet>;

/// Past this many users the map of known DM channels is cleared (a convenience: a DM
/// channel is asked for again at the cost of one request).
const MAX_DMS: usize = 100_000;

/// Sends and edits an event's messages for the flow.
pub struct DiscordOutlet {
    bot: Weak<Bot>,
    /// Set once the client runs (`events::run`); nothing is sent before.
    http: OnceLock<Arc<Http>>,
    /// Each user's DM channel with the bot (Discord answers the same one every time).
    dms: Mutex<HashMap<u64, u64>>,
}

impl DiscordOutlet {
    pub(super) fn new(bot: Weak<Bot>) -> Self {
        DiscordOutlet {
            bot,
            http: OnceLock::new(),
            dms: Mutex::default(),
        }
    }

    /// The REST client the outlet sends with.
    pub(super) fn set_http(&self, http: Arc<Http>) {
        let _ = self.http.set(http);
    }

    fn parts(&self) -> Option<(Arc<Bot>, Arc<Http>)> {
        Some((self.bot.upgrade()?, self.http.get()?.clone()))
    }

    /// `user`'s DM channel with the bot, opened if need be (also for private alerts).
    pub(super) async fn dm_channel(&self, http: &Http, user: UserId) -> serenity::Result<u64> {
        if let Some(channel) = lock(&self.dms).get(&user.get()) {
            return Ok(*channel);
        }
        let channel = user.create_dm_channel(http).await?.id.get();
        let mut dms = lock(&self.dms);
        if dms.len() >= MAX_DMS {
            dms.clear();
        }
        dms.insert(user.get(), channel);
        Ok(channel)
    }
}

impl Outlet for DiscordOutlet {
    fn platform(&self) -> Platform {
        Platform::Discord
    }

    fn chat_budget(&self) -> ChatBudget {
        DISCORD_CHANNEL
    }

    fn clock_style(&self) -> ClockStyle {
        ClockStyle::Live
    }

    /// A channel of the event's announcements: a server's tournament lives in the channel
    /// it was announced in (the event's chat is the server); a DM board is never there.
    fn in_event_chat(&self, rec: &TournamentRecord, msg: &MessageRef) -> bool {
        let Some((channel, _)) = parse_message_ref(msg).filter(|_| dm_owner(msg).is_none()) else {
            return false;
        };
        rec.messages
            .iter()
            .filter_map(parse_message_ref)
            .any(|(c, _)| c == channel)
    }

    async fn redraw_announcements(&self, rec: &TournamentRecord, lang: Lang) -> Posted {
        let Some((bot, http)) = self.parts() else {
            return Posted::Later;
        };
        let page = bot.manager.tournament_page_url(&rec.id);
        let mut done = Posted::Done;
        for (channel, message) in rec.messages.iter().filter_map(parse_message_ref) {
            let edit = announcement(rec, lang, page.clone()).into_edit();
            let sent = ChannelId::new(channel)
                .edit_message(&http, MessageId::new(message), edit)
                .await;
            if posted(sent.map(|_| ()), "an announcement", &rec.id).later() {
                done = Posted::Later;
            }
        }
        done
    }

    async fn post_table(&self, rec: &TournamentRecord, table: &TableView, _lang: Lang) -> Posted {
        let (Some((bot, http)), Some((channel, _))) = (self.parts(), home(rec)) else {
            return Posted::Done;
        };
        let Some(out) = table_message(rec, table).await else {
            return Posted::Done;
        };
        let sent = ChannelId::new(channel)
            .send_message(&http, out.into_message())
            .await;
        let message = match sent {
            Ok(message) => message.id.get(),
            Err(error) => return posted(Err(error), "the standings picture", &rec.id),
        };
        let r = message_ref(channel, message);
        if let Err(error) = bot
            .manager
            .attach_tournament_message(&rec.id, r, true)
            .await
        {
            tracing::warn!(tournament = rec.id, message, %error, "Discord: standings picture not attached");
        }
        Posted::Done
    }

    async fn edit_tables(&self, rec: &TournamentRecord, table: &TableView) -> Posted {
        let Some((_, http)) = self.parts() else {
            return Posted::Later;
        };
        let Some(out) = table_message(rec, table).await else {
            return Posted::Done;
        };
        let mut done = Posted::Done;
        for (channel, message) in rec.tables.iter().filter_map(parse_message_ref) {
            let sent = ChannelId::new(channel)
                .edit_message(&http, MessageId::new(message), out.clone().into_edit())
                .await;
            if posted(sent.map(|_| ()), "the standings picture", &rec.id).later() {
                done = Posted::Later;
            }
        }
        done
    }

    async fn post_pairings(&self, rec: &TournamentRecord, games: &[GameId], lang: Lang) -> Posted {
        let (Some((_, http)), Some(home)) = (self.parts(), home(rec)) else {
            return Posted::Done;
        };
        let text = within(show::pairings_text(rec, games, lang, &mention), MAX_CONTENT);
        let mut out = messages::text(text);
        out.ping = mentioned(rec, &out.content);
        let (channel, announcement) = home;
        let message = out
            .into_message()
            .reference_message((ChannelId::new(channel), MessageId::new(announcement)));
        let sent = ChannelId::new(channel).send_message(&http, message).await;
        if sent.is_ok() {
            tracing::info!(
                tournament = rec.id,
                games = games.len(),
                "Discord: pairings posted"
            );
        }
        posted(sent.map(|_| ()), "the pairings", &rec.id)
    }

    async fn post_board_in_chat(&self, rec: &TournamentRecord, view: &GameView) -> Posted {
        let (Some((bot, http)), Some((channel, _))) = (self.parts(), home(rec)) else {
            return Posted::Done;
        };
        // The game as it is now (a player may have moved on their DM board meanwhile).
        let view = match bot.manager.game(&view.id).await {
            Ok(view) => view,
            Err(error) => {
                tracing::warn!(tournament = rec.id, game = view.id, %error, "Discord: cannot load a tournament game");
                return Posted::Done;
            }
        };
        if view.messages.iter().any(|m| self.in_event_chat(rec, m)) {
            // Posted already (by an earlier try whose answer was lost, say).
            return Posted::Done;
        }
        let lang = present::board_lang(&view);
        let mut out = bot.board_for(&view, lang, None).await;
        let line = show::pairing_line(rec, &view.id, lang, &mention).unwrap_or_default();
        out.content = within(over(line, out.content), MAX_CONTENT);
        // Both players are pinged, but one who has the board in their DM is told there.
        out.ping = humans(&view)
            .filter(|u| messages::dm_board_of(&view, u).is_none())
            .filter_map(messages::user_id)
            .collect();
        let sent = ChannelId::new(channel)
            .send_message(&http, out.into_message())
            .await;
        let message = match sent {
            Ok(message) => message.id.get(),
            Err(error) => return posted(Err(error), "a board", &rec.id),
        };
        bot.set_posted(message, Drawn::Game(Stamp::of(&view)));
        let r = message_ref(channel, message);
        // The channel is not the game's chat (the server is) as the manager sees it: the
        // board is attached for each player, whom it reaches.
        let players: Vec<&UserRef> = humans(&view).collect();
        for player in &players {
            present::attach(&bot.manager, target(&view), r.clone(), Some(player)).await;
        }
        if players.is_empty() {
            present::attach(&bot.manager, target(&view), r, None).await;
        }
        tracing::info!(
            tournament = rec.id,
            game = view.id,
            message,
            "Discord: tournament board posted in the channel"
        );
        // The game may have moved on while the board was on its way.
        super::events::nudge_game(&bot, &http, &view.id);
        Posted::Done
    }

    async fn send_board_to(
        &self,
        rec: &TournamentRecord,
        view: &GameView,
        player: &UserRef,
    ) -> Delivery {
        let Some((bot, http)) = self.parts() else {
            return Delivery::Later;
        };
        let Some(user) = messages::user_id(player) else {
            return Delivery::Unreachable;
        };
        let channel = match self.dm_channel(&http, user).await {
            Ok(channel) => channel,
            Err(error) => return refused(rec, view, player, &error),
        };
        let view = match bot.manager.game(&view.id).await {
            Ok(view) => view,
            Err(error) => {
                tracing::warn!(tournament = rec.id, game = view.id, %error, "Discord: cannot load a tournament game");
                return Delivery::Later;
            }
        };
        let lang = super::events::owner_lang(&view, player);
        let mut out = bot.board_for(&view, lang, Some(player)).await;
        if let Some(line) = show::pairing_line(rec, &view.id, lang, &mention) {
            out.content = within(over(line, out.content), MAX_CONTENT);
        }
        out.ping = vec![user];
        let sent = ChannelId::new(channel)
            .send_message(&http, out.into_message())
            .await;
        let message = match sent {
            Ok(message) => message.id.get(),
            Err(error) => return refused(rec, &view, player, &error),
        };
        bot.set_posted(message, Drawn::Game(Stamp::of(&view)));
        let r = dm_message_ref(user.get(), channel, message);
        present::attach(&bot.manager, target(&view), r, Some(player)).await;
        tracing::info!(
            tournament = rec.id,
            game = view.id,
            user = player.id,
            "Discord: board sent in a DM"
        );
        // The game may have moved on while the board was on its way.
        super::events::nudge_game(&bot, &http, &view.id);
        Delivery::Sent
    }

    async fn post_ending(&self, rec: &TournamentRecord, lang: Lang) -> Posted {
        let (Some((_, http)), Some(home)) = (self.parts(), home(rec)) else {
            tracing::warn!(
                tournament = rec.id,
                "Discord: a tournament without an announcement: its end is not shown"
            );
            return Posted::Done;
        };
        post_ending(&http, rec, lang, home).await
    }
}

fn target(view: &GameView) -> Target {
    Target::Game(view.id.clone())
}

fn humans(view: &GameView) -> impl Iterator<Item = &UserRef> {
    view.players
        .iter()
        .filter_map(Player::user)
        .filter(|u| u.platform == Platform::Discord)
}

/// `line` over `content` (a board's own text, if any).
fn over(line: String, content: String) -> String {
    match content.is_empty() {
        true => line,
        false => format!("{line}\n{content}"),
    }
}

/// The standings picture of `table` as a message (`None` when drawing failed: logged).
async fn table_message(rec: &TournamentRecord, table: &TableView) -> Option<messages::Outgoing> {
    match crate::render::pool::table_png(table.clone()).await {
        Ok(png) => Some(standings_picture(&table.title, png)),
        Err(error) => {
            tracing::error!(tournament = rec.id, %error, "Discord: the standings picture failed");
            None
        }
    }
}

/// How a write of the event's went: a failure that may pass is tried again.
fn posted(result: serenity::Result<()>, what: &str, tournament: &str) -> Posted {
    match result {
        Ok(()) => Posted::Done,
        Err(error) => {
            tracing::warn!(tournament, what, %error, "Discord: cannot post");
            match transient(&error) {
                true => Posted::Later,
                false => Posted::Done,
            }
        }
    }
}

/// A board Discord would not take in `player`'s DM: they cannot be written to (the board
/// goes to the channel), or a failure that may pass (tried again).
fn refused(
    rec: &TournamentRecord,
    view: &GameView,
    player: &UserRef,
    error: &serenity::Error,
) -> Delivery {
    // Closed DMs (`dm_refusal`) and any other refusal (a missing permission, say) would
    // only repeat: the channel has the board then.
    let delivery = match transient(error) {
        true => Delivery::Later,
        false => Delivery::Unreachable,
    };
    tracing::info!(
        tournament = rec.id,
        game = view.id,
        user = player.id,
        code = dm_refusal(error),
        %error,
        ?delivery,
        "Discord: board not sent in a DM"
    );
    delivery
}

/// The podium (or the cancellation), once, answering the announcement and pinging those on
/// the podium.
pub(super) async fn post_ending(
    http: &Http,
    rec: &TournamentRecord,
    lang: Lang,
    (channel, announcement): (u64, u64),
) -> Posted {
    let text = within(show::ending_text(rec, lang, &mention), MAX_CONTENT);
    let mut out = messages::text(text);
    out.ping = mentioned(rec, &out.content);
    let message = out
        .into_message()
        .reference_message((ChannelId::new(channel), MessageId::new(announcement)));
    let sent = ChannelId::new(channel).send_message(http, message).await;
    if sent.is_ok() {
        tracing::info!(tournament = rec.id, status = ?rec.status, "Discord: tournament's end posted");
    }
    posted(sent.map(|_| ()), "the podium", &rec.id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manager::tournament::{Format, Status};
    use crate::model::{ChatRef, TimeControl};
    use crate::rules::Variant;
    use serenity::http::{ErrorResponse, HttpError};

    /// Discord's answer `status` with the JSON code `code`, as serenity reads it.
    async fn refusal(status: u16, code: isize) -> serenity::Error {
        let body = format!(r#"{{"message": "refused", "code": {code}}}"#);
        let answer = axum::http::Response::builder()
            .status(status)
            .body(body)
            .expect("a response");
        let response =
            ErrorResponse::from_response(reqwest::Response::from(answer), reqwest::Method::POST)
                .await;
        assert_eq!(response.error.code, code);
        serenity::Error::Http(HttpError::UnsuccessfulRequest(response))
    }

    fn record(announcements: &[MessageRef]) -> TournamentRecord {
        let time: TimeControl = "3+2".parse().expect("a time control");
        let mut rec = TournamentRecord::new(
            "t1".into(),
            ChatRef::new(Platform::Discord, "930"),
            UserRef::new(Platform::Discord, "11", "Alice"),
            (Format::Arena { minutes: 20 }, time, Variant::STANDARD, true),
            (1_000, 1_764_954_000),
        );
        rec.status = Status::Running;
        rec.messages = announcements.to_vec();
        rec
    }

    #[tokio::test(flavor = "current_thread")]
    async fn closed_dms_send_the_board_to_the_channel_and_trouble_tries_again() {
        let rec = record(&[]);
        let view = GameView::sample(
            "g1",
            rec.chat.clone(),
            [
                Player::Human(UserRef::new(Platform::Discord, "11", "Alice")),
                Player::Human(UserRef::new(Platform::Discord, "22", "Bob")),
            ],
        );
        let bob = UserRef::new(Platform::Discord, "22", "Bob");
        let closed = refused(&rec, &view, &bob, &refusal(403, 50007).await);
        assert_eq!(closed, Delivery::Unreachable);
        let no_mutual_server = refused(&rec, &view, &bob, &refusal(403, 50278).await);
        assert_eq!(no_mutual_server, Delivery::Unreachable);
        // Missing access, say: it would only repeat, so the channel has the board.
        assert_eq!(
            refused(&rec, &view, &bob, &refusal(403, 50001).await),
            Delivery::Unreachable
        );
        assert_eq!(
            refused(&rec, &view, &bob, &refusal(503, 0).await),
            Delivery::Later
        );
        assert_eq!(
            refused(&rec, &view, &bob, &refusal(429, 0).await),
            Delivery::Later
        );
    }

    #[test]
    fn a_board_is_in_the_events_chat_in_an_announcement_channel_never_in_a_dm() {
        let outlet = DiscordOutlet::new(Weak::new());
        let rec = record(&[message_ref(760, 1), message_ref(761, 2)]);
        assert!(outlet.in_event_chat(&rec, &message_ref(760, 50)));
        assert!(outlet.in_event_chat(&rec, &message_ref(761, 51)));
        assert!(!outlet.in_event_chat(&rec, &message_ref(999, 52)));
        assert!(!outlet.in_event_chat(&rec, &dm_message_ref(22, 760, 53)));
        let telegram = MessageRef {
            platform: Platform::Telegram,
            id: "760:54".into(),
        };
        assert!(!outlet.in_event_chat(&rec, &telegram));
        // The place of a Discord board is never the server, which the event's chat is:
        // the flow's default would take none of them for the chat's.
        assert_ne!(message_ref(760, 50).place(), rec.chat.id);
    }
}
