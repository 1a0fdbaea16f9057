//! Tournaments in a Discord server (issue 33): `/tournament` and its subcommands, the Join
//! and Leave buttons of an announcement, and the messages that follow an event.
//!
//! ```text
//! /tournament new -> Manager::create_tournament -> the announcement (Join / Leave), attached
//! Event::Tournament -> the event's worker (one per tournament, `latest.rs`):
//!   new games: one message each in the announcement's channel, the pairing line over the
//!              game's own board (attached to the game: moves redraw it like any board)
//!   always:    every announcement edited, the standings picture posted once the event runs
//!              and redrawn when the standings change
//!   the end:   the podium (or the cancellation) posted once
//! ```
//!
//! The worker reads the record when it draws, so events that pile up behind a rate limit
//! cost one edit; the games to announce and the end are kept until done (merged, not
//! replaced). The event loop only hands over: no REST call is made there.

use super::commands::TournamentCommand;
use super::failure::{said, Failure, Handled};
use super::latest::{spawn_worker, transient, Latest};
use super::messages::{self, Attachment, Outgoing, Stamp};
use super::{answer::Origin, lock, message_ref, parse_message_ref, Bot, Drawn};
use crate::i18n::Lang;
use crate::manager::buttons::{encode, Button};
use crate::manager::tournament::{NewTournament, Status, TournamentNews, TournamentRecord};
use crate::manager::{ActionError, Player, Target};
use crate::model::{ChatRef, GameId, Platform, UserRef};
use crate::platform::present::{self, tournament as show, ClockStyle};
use crate::t;
use serenity::all::{
    ButtonStyle, ChannelId, CreateActionRow, CreateButton, CreateEmbed, CreateEmbedFooter, Http,
    Member, MessageId, Permissions, UserId,
};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// The standings picture's file name.
pub const STANDINGS_FILE: &str = "standings.png";
/// Past this many entries the map of what tournament messages show is cleared (a safety
/// net: entries leave when their event ends).
const MAX_SHOWN: usize = 100_000;
/// Discord's longest message content and embed description.
const MAX_CONTENT: usize = 2000;
const MAX_DESCRIPTION: usize = 4096;

/// The tournament side of the bot's state: the workers, and what each tournament message
/// shows (a digest of what was drawn on it), which only saves needless edits.
#[derive(Default)]
pub(super) struct Tournaments {
    workers: Latest<Pending>,
    shown: Mutex<HashMap<u64, u64>>,
}

/// What a tournament's worker has to do besides bringing its messages up to date.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Pending {
    /// Games created and not yet announced.
    paired: Vec<GameId>,
    /// The event ended (or was cancelled): its podium is to be posted.
    ended: bool,
}

impl Pending {
    fn absorb(&mut self, more: Pending) {
        for game in more.paired {
            if !self.paired.contains(&game) {
                self.paired.push(game);
            }
        }
        self.ended |= more.ended;
    }

    fn is_empty(&self) -> bool {
        self.paired.is_empty() && !self.ended
    }
}

impl Tournaments {
    fn shows(&self, message: u64, digest: u64) -> bool {
        lock(&self.shown).get(&message) == Some(&digest)
    }

    fn set_shown(&self, message: u64, digest: Option<u64>) {
        let mut shown = lock(&self.shown);
        if shown.len() >= MAX_SHOWN {
            shown.clear();
        }
        match digest {
            Some(digest) => shown.insert(message, digest),
            None => shown.remove(&message),
        };
    }

    fn forget(&self, rec: &TournamentRecord) {
        let mut shown = lock(&self.shown);
        for (_, message) in rec
            .messages
            .iter()
            .chain(&rec.tables)
            .filter_map(parse_message_ref)
        {
            shown.remove(&message);
        }
    }
}

fn digest(value: &impl Hash) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

fn mention(user: &UserRef) -> String {
    format!("<@{}>", user.id)
}

/// `text` cut to `max` characters (an ellipsis marks the cut).
fn within(text: String, max: usize) -> String {
    if text.chars().count() <= max {
        return text;
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// The Discord users of the event whose mention `text` holds (to be pinged by it).
fn mentioned(rec: &TournamentRecord, text: &str) -> Vec<UserId> {
    rec.entrants
        .iter()
        .filter_map(|e| e.player.user())
        .filter(|u| text.contains(&mention(u)))
        .filter_map(messages::user_id)
        .collect()
}

/// Whether `member` may run any event of the server: Manage Server (or Administrator) as
/// the interaction's member permissions say.
pub(super) fn is_admin(member: Option<&Member>) -> bool {
    member
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.intersects(Permissions::MANAGE_GUILD | Permissions::ADMINISTRATOR))
}

/// The announcement: its text in an embed (a countdown Discord keeps current), the event's
/// id in the footer, Join and Leave while it takes players.
pub(super) fn announcement(rec: &TournamentRecord, lang: Lang) -> Outgoing {
    let shown = show::announcement(rec, lang, ClockStyle::Live);
    let colour = match rec.status {
        Status::Open => 0x2E8B57,
        Status::Running => 0x3B82F6,
        Status::Finished => 0xC9A227,
        Status::Cancelled => 0x808080,
    };
    let embed = CreateEmbed::new()
        .description(within(shown.text, MAX_DESCRIPTION))
        .footer(CreateEmbedFooter::new(t!(
            lang,
            "discord-tournament-footer",
            id = rec.id.as_str()
        )))
        .colour(colour);
    let buttons: Vec<CreateButton> = shown
        .buttons
        .iter()
        .map(|(button, label)| {
            let style = match button {
                Button::JoinTournament { .. } => ButtonStyle::Success,
                _ => ButtonStyle::Secondary,
            };
            CreateButton::new(encode(button))
                .label(label.clone())
                .style(style)
        })
        .collect();
    Outgoing {
        embed: Some(embed),
        components: match buttons.is_empty() {
            true => Vec::new(),
            false => vec![CreateActionRow::Buttons(buttons)],
        },
        ..Outgoing::default()
    }
}

/// A digest of what the announcement shows.
fn announcement_digest(rec: &TournamentRecord, lang: Lang) -> u64 {
    let shown = show::announcement(rec, lang, ClockStyle::Live);
    let buttons: Vec<String> = shown.buttons.iter().map(|(b, l)| encode(b) + l).collect();
    digest(&(shown.text, buttons, rec.id.as_str()))
}

/// The standings picture, drawn off the async workers (`None` when drawing failed: logged).
async fn standings_png(rec: &TournamentRecord, lang: Lang) -> Option<Vec<u8>> {
    match crate::render::pool::table_png(show::standings_table(rec, lang)).await {
        Ok(png) => Some(png),
        Err(error) => {
            tracing::error!(tournament = rec.id, %error, "Discord: the standings picture failed");
            None
        }
    }
}

/// The standings picture's message: the title over the picture.
fn standings_picture(rec: &TournamentRecord, lang: Lang, png: Vec<u8>) -> Outgoing {
    let embed = CreateEmbed::new()
        .description(show::title(rec, lang))
        .image(format!("attachment://{STANDINGS_FILE}"))
        .colour(0xC9A227);
    Outgoing {
        embed: Some(embed),
        files: vec![Attachment::new(STANDINGS_FILE, png)],
        ..Outgoing::default()
    }
}

/// A digest of what the standings picture shows (its table, not its bytes).
fn table_digest(rec: &TournamentRecord, lang: Lang) -> u64 {
    digest(&format!("{:?}", show::standings_table(rec, lang)))
}

fn is_over(rec: &TournamentRecord) -> bool {
    matches!(rec.status, Status::Finished | Status::Cancelled)
}

/// The event's newest announcement channel: where its news goes.
fn home(rec: &TournamentRecord) -> Option<(u64, u64)> {
    rec.messages.iter().rev().find_map(parse_message_ref)
}

// ----- commands and buttons -----

impl Bot {
    /// `/tournament <subcommand>`, answered (a failure by the caller, in one place).
    pub(super) async fn tournament_command(
        self: &Arc<Self>,
        http: &Arc<Http>,
        origin: &Origin<'_>,
        (user, chat, member): (&UserRef, Option<ChatRef>, Option<&Member>),
        command: TournamentCommand,
        lang: Lang,
    ) -> Handled {
        // A tournament belongs to a server; the command is registered for servers only.
        let Some(chat) = chat else {
            return Err(Failure::Unable(t!(lang, "discord-tournament-in-dm")));
        };
        let admin = is_admin(member);
        match command {
            TournamentCommand::New {
                format,
                time,
                starts_in,
                rated,
                variant,
            } => {
                let (Ok(format), Ok(starts_in), Ok(variant)) = (format, starts_in, variant) else {
                    return Err(Failure::BadOption);
                };
                let time = match time {
                    Some(Ok(time)) => time,
                    Some(Err(error)) => {
                        return Err(Failure::Unable(present::time_control_error(&error, lang)))
                    }
                    None => return Err(Failure::BadOption),
                };
                let starts_at = self.manager.clock().now().saturating_add(starts_in * 60);
                let new = NewTournament {
                    format,
                    time,
                    variant,
                    rated,
                    starts_at,
                };
                let rec = self.manager.create_tournament(chat, user, new).await?;
                tracing::info!(
                    tournament = rec.id,
                    creator = user.id,
                    ?format,
                    "Discord: tournament created"
                );
                self.post_announcement(http, origin, &rec, lang).await;
                Ok(())
            }
            TournamentCommand::Standings { id } => {
                let rec = self.chat_tournament(&chat, id).await?;
                self.answer_standings(origin, &rec, lang).await
            }
            TournamentCommand::Join { id } => {
                let rec = self.chat_tournament(&chat, id).await?;
                let rec = self.manager.join_tournament(&rec.id, user).await?;
                said(origin, show::entry_answer(&rec, true, lang)).await
            }
            TournamentCommand::Leave { id } => {
                let rec = self.chat_tournament(&chat, id).await?;
                let rec = self.manager.leave_tournament(&rec.id, user).await?;
                said(origin, show::entry_answer(&rec, false, lang)).await
            }
            TournamentCommand::Cancel { id } => {
                let rec = self.chat_tournament(&chat, id).await?;
                let rec = self.manager.cancel_tournament(&rec.id, user, admin).await?;
                tracing::info!(
                    tournament = rec.id,
                    by = user.id,
                    admin,
                    "Discord: tournament cancelled"
                );
                let title = show::title(&rec, lang);
                said(
                    origin,
                    t!(lang, "discord-tournament-cancel-done", title = title),
                )
                .await
            }
            TournamentCommand::Bot { level, id } => {
                let Ok(level) = level else {
                    return Err(Failure::BadOption);
                };
                let rec = self.chat_tournament(&chat, id).await?;
                let rec = self
                    .manager
                    .add_bot_to_tournament(&rec.id, user, admin, level)
                    .await?;
                let text = t!(
                    lang,
                    "discord-tournament-bot-joined",
                    name = present::player_name(&Player::Bot(level), lang),
                    title = show::title(&rec, lang)
                );
                said(origin, text).await
            }
            TournamentCommand::Bye { round, id } => {
                let Ok(round) = round else {
                    return Err(Failure::BadOption);
                };
                let rec = self.chat_tournament(&chat, id).await?;
                let (rec, round) = self.manager.ask_half_bye(&rec.id, user, round).await?;
                said(origin, show::bye_answer(&rec, round, lang)).await
            }
            TournamentCommand::Unknown => Err(Failure::BadOption),
        }
    }

    /// The Join and Leave buttons: answered privately; the announcement follows the event.
    pub(super) async fn tournament_entry(
        &self,
        origin: &Origin<'_>,
        (user, chat): (&UserRef, &ChatRef),
        (id, join): (&str, bool),
        lang: Lang,
    ) -> Handled {
        let rec = match self.manager.tournament(id).await {
            Ok(rec) if rec.chat == *chat => rec,
            Ok(rec) => {
                tracing::info!(
                    tournament = rec.id,
                    chat = chat.id,
                    "Discord: a tournament button of another server"
                );
                return Err(Failure::BadButton);
            }
            Err(error) => return Err(error.into()),
        };
        let rec = match join {
            true => self.manager.join_tournament(&rec.id, user).await?,
            false => self.manager.leave_tournament(&rec.id, user).await?,
        };
        said(origin, show::entry_answer(&rec, join, lang)).await
    }

    /// The event `id` of this server, or its newest live one.
    async fn chat_tournament(
        &self,
        chat: &ChatRef,
        id: Option<String>,
    ) -> Result<TournamentRecord, ActionError> {
        match id {
            Some(id) => match self.manager.tournament(&id).await? {
                rec if rec.chat == *chat => Ok(rec),
                _ => Err(ActionError::NoSuchTournament),
            },
            None => self
                .manager
                .chat_tournaments(chat)
                .await?
                .into_iter()
                .next()
                .ok_or(ActionError::NoSuchTournament),
        }
    }

    /// Posts a new event's announcement as the answer and attaches it.
    async fn post_announcement(
        self: &Arc<Self>,
        http: &Arc<Http>,
        origin: &Origin<'_>,
        rec: &TournamentRecord,
        lang: Lang,
    ) {
        let Some(message) = origin.post(announcement(rec, lang)).await else {
            return;
        };
        self.tournaments
            .set_shown(message, Some(announcement_digest(rec, lang)));
        let channel = origin.channel().get();
        let r = message_ref(channel, message);
        match self
            .manager
            .attach_tournament_message(&rec.id, r, false)
            .await
        {
            // Someone may have joined by command while the announcement was on its way.
            Ok(()) => follow(self, http, &rec.id, Pending::default()),
            Err(error) => {
                tracing::warn!(tournament = rec.id, message, %error, "Discord: announcement not attached");
                self.ended_unannounced(http, &rec.id, (channel, message), lang)
                    .await;
            }
        }
    }

    /// An event cancelled before its announcement could be attached (cancelled at once):
    /// its worker found no message to show the end on, so this one shows it.
    async fn ended_unannounced(
        &self,
        http: &Http,
        id: &str,
        (channel, message): (u64, u64),
        lang: Lang,
    ) {
        let rec = match self.manager.tournament(id).await {
            Ok(rec) if is_over(&rec) => rec,
            _ => return,
        };
        let edit = announcement(&rec, lang).into_edit();
        if let Err(error) = ChannelId::new(channel)
            .edit_message(http, MessageId::new(message), edit)
            .await
        {
            tracing::warn!(tournament = id, message, %error, "Discord: cannot update an announcement");
        }
        self.tournaments.set_shown(message, None);
        post_ending(http, &rec, lang, (channel, message)).await;
    }

    /// `/tournament standings`: the standings as text, with the table as a picture.
    async fn answer_standings(
        &self,
        origin: &Origin<'_>,
        rec: &TournamentRecord,
        lang: Lang,
    ) -> Handled {
        let text = format!(
            "{}\n{}",
            show::title(rec, lang),
            show::standings_text(rec, lang)
        );
        let png = standings_png(rec, lang).await;
        let out = Outgoing {
            content: within(text, MAX_CONTENT),
            embed: png.as_ref().map(|_| {
                CreateEmbed::new()
                    .image(format!("attachment://{STANDINGS_FILE}"))
                    .colour(0xC9A227)
            }),
            files: png
                .map(|png| Attachment::new(STANDINGS_FILE, png))
                .into_iter()
                .collect(),
            ..Outgoing::default()
        };
        origin.post(out).await;
        Ok(())
    }
}

// ----- following an event -----

/// Hands a tournament's news to its worker, starting it if there is none.
pub(super) fn news(bot: &Arc<Bot>, http: &Arc<Http>, news: TournamentNews) {
    let rec = &news.record;
    let ours = rec.chat.platform == Platform::Discord
        || rec
            .messages
            .iter()
            .chain(&rec.tables)
            .any(|m| m.platform == Platform::Discord);
    if !ours {
        return;
    }
    let pending = Pending {
        paired: news.paired,
        ended: news.ended,
    };
    follow(bot, http, &news.record.id, pending);
}

/// Posts what a stop may have left unshown: the games created but never posted
/// (`Manager::unannounced_tournament_games`). Run once the events are followed; a game
/// named again by a tick meanwhile is posted once (`post_pairing` looks under its lock).
pub(super) async fn catch_up(bot: Arc<Bot>, http: Arc<Http>) {
    for news in bot
        .manager
        .unannounced_tournament_games(Platform::Discord)
        .await
    {
        tracing::info!(
            tournament = news.record.id,
            games = news.paired.len(),
            "Discord: posting tournament games left unposted"
        );
        self::news(&bot, &http, news);
    }
}

fn follow(bot: &Arc<Bot>, http: &Arc<Http>, id: &str, pending: Pending) {
    if let Some(rx) = bot.tournaments.workers.merge(id, pending, Pending::absorb) {
        let work = worker(bot.clone(), http.clone(), id.to_string(), rx);
        spawn_worker(bot.clone(), id.to_string(), work, |bot, id| {
            bot.tournaments.workers.forget_dead(id)
        });
    }
}

/// Pauses before each new attempt at what failed in a way that may pass (Discord down for
/// a while, after the REST gate's own retries); a new event cuts a pause short.
const BACKOFF: [Duration; 4] = [
    Duration::from_secs(2),
    Duration::from_secs(10),
    Duration::from_secs(60),
    Duration::from_secs(300),
];

async fn worker(bot: Arc<Bot>, http: Arc<Http>, id: String, mut rx: watch::Receiver<Pending>) {
    let mut pauses = BACKOFF.iter();
    let mut left = Pending::default();
    loop {
        let mut pending = std::mem::take(&mut left);
        pending.absorb(bot.tournaments.workers.take(&id, &mut rx));
        let pass = bring_up_to_date(&bot, &http, &id, pending).await;
        if pass.failed {
            match pauses.next() {
                Some(pause) => {
                    left = pass.left;
                    tracing::info!(
                        tournament = id,
                        after_secs = pause.as_secs(),
                        "Discord: will show the tournament again"
                    );
                    tokio::select! {
                        () = tokio::time::sleep(*pause) => {}
                        changed = rx.changed() => if changed.is_err() { return; }
                    }
                    continue;
                }
                None => {
                    tracing::warn!(
                        tournament = id,
                        "Discord: gave up on a tournament's messages"
                    );
                    pauses = BACKOFF.iter();
                }
            }
        } else {
            pauses = BACKOFF.iter();
        }
        if bot.tournaments.workers.retire(&id, &rx) {
            if let Some(rec) = pass.record.filter(is_over) {
                // Its messages change no more.
                bot.tournaments.forget(&rec);
            }
            tracing::debug!(tournament = id, "Discord: tournament up to date");
            return;
        }
    }
}

/// What one pass over an event did.
struct Pass {
    /// The record as drawn.
    record: Option<TournamentRecord>,
    /// Something failed in a way that may pass.
    failed: bool,
    /// The work to try again.
    left: Pending,
}

/// One pass: announces new games, redraws the announcements and the standings picture,
/// tells the end, all from the record as it is now.
async fn bring_up_to_date(bot: &Arc<Bot>, http: &Arc<Http>, id: &str, pending: Pending) -> Pass {
    let rec = match bot.manager.tournament(id).await {
        Ok(rec) => rec,
        Err(error) => {
            // Gone or unreadable: trying again would not help.
            tracing::warn!(tournament = id, %error, "Discord: cannot load a tournament to show");
            return Pass {
                record: None,
                failed: false,
                left: Pending::default(),
            };
        }
    };
    let lang = bot.lang_of(&rec.creator).await;
    let mut left = Pending::default();
    let home = home(&rec);
    if !pending.is_empty() && home.is_none() {
        tracing::warn!(
            tournament = id,
            "Discord: a tournament without an announcement: its news is not shown"
        );
    }
    if let Some((channel, _)) = home {
        for game in &pending.paired {
            if post_pairing(bot, http, &rec, game, channel).await == Posted::Later {
                left.paired.push(game.clone());
            }
        }
    }
    let mut failed = redraw_announcements(bot, http, &rec, lang).await;
    failed |= redraw_table(bot, http, &rec, lang).await;
    if let Some(home) = home.filter(|_| pending.ended) {
        left.ended = post_ending(http, &rec, lang, home).await == Posted::Later;
    }
    Pass {
        record: Some(rec),
        failed: failed || !left.is_empty(),
        left,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Posted {
    /// Posted, or never to be (a refusal that would only repeat).
    Done,
    /// Failed in a way that may pass: tried again later.
    Later,
}

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

/// A new game of the event: its pairing line over its board, in the announcement's
/// channel, pinging both players; attached to the game, whose moves then redraw it.
async fn post_pairing(
    bot: &Bot,
    http: &Http,
    rec: &TournamentRecord,
    game: &str,
    channel: u64,
) -> Posted {
    // Under the game's lock until the message is attached: a move meanwhile (the bot's,
    // if it has White) has its redraw wait for the lock, and then finds this message.
    let _guard = bot.hold_patiently(format!("g:{game}")).await;
    let view = match bot.manager.game(game).await {
        Ok(view) => view,
        Err(error) => {
            tracing::warn!(tournament = rec.id, game, %error, "Discord: cannot load a tournament game");
            return Posted::Done;
        }
    };
    if view
        .messages
        .iter()
        .any(|m| m.platform == Platform::Discord)
    {
        // Posted already (by an earlier try whose answer was lost, say).
        return Posted::Done;
    }
    let lang = bot.board_lang(&view).await;
    let mut out = messages::game(&view, lang, bot.settings.mention).await;
    let line = show::pairing_line(rec, game, lang, &mention).unwrap_or_default();
    let content = match out.content.is_empty() {
        true => line,
        false => format!("{line}\n{}", out.content),
    };
    out.content = within(content, MAX_CONTENT);
    out.ping = view
        .players
        .iter()
        .filter_map(Player::user)
        .filter_map(messages::user_id)
        .collect();
    let sent = ChannelId::new(channel)
        .send_message(http, out.into_message())
        .await;
    let message = match sent {
        Ok(message) => message.id.get(),
        Err(error) => return posted(Err(error), "a pairing", &rec.id),
    };
    bot.set_posted(message, Drawn::Game(Stamp::of(&view)));
    let r = message_ref(channel, message);
    present::attach(&bot.manager, Target::Game(view.id.clone()), r, None).await;
    tracing::info!(
        tournament = rec.id,
        game,
        message,
        "Discord: tournament game posted"
    );
    Posted::Done
}

/// Edits every announcement that does not show the event as it is. True when an edit
/// failed in a way that may pass.
async fn redraw_announcements(bot: &Bot, http: &Http, rec: &TournamentRecord, lang: Lang) -> bool {
    let shown = announcement_digest(rec, lang);
    let mut failed = false;
    for (channel, message) in rec.messages.iter().filter_map(parse_message_ref) {
        if bot.tournaments.shows(message, shown) {
            continue;
        }
        let edit = announcement(rec, lang).into_edit();
        match ChannelId::new(channel)
            .edit_message(http, MessageId::new(message), edit)
            .await
        {
            Ok(_) => bot.tournaments.set_shown(message, Some(shown)),
            Err(error) => {
                bot.tournaments.set_shown(message, None);
                failed |= transient(&error);
                tracing::warn!(tournament = rec.id, message, %error, "Discord: cannot update an announcement");
            }
        }
    }
    failed
}

/// Posts the standings picture once the event runs (in the announcement's channel), and
/// redraws it when the standings change. True when a write failed in a way that may pass.
async fn redraw_table(bot: &Bot, http: &Http, rec: &TournamentRecord, lang: Lang) -> bool {
    let tables: Vec<(u64, u64)> = rec.tables.iter().filter_map(parse_message_ref).collect();
    let shown = table_digest(rec, lang);
    let stale: Vec<(u64, u64)> = tables
        .iter()
        .copied()
        .filter(|&(_, m)| !bot.tournaments.shows(m, shown))
        .collect();
    let to_post = tables.is_empty() && matches!(rec.status, Status::Running | Status::Finished);
    if stale.is_empty() && !to_post {
        return false;
    }
    let Some(png) = standings_png(rec, lang).await else {
        return false;
    };
    let out = standings_picture(rec, lang, png);
    let mut failed = false;
    if to_post {
        let Some((channel, _)) = home(rec) else {
            return false;
        };
        match ChannelId::new(channel)
            .send_message(http, out.clone().into_message())
            .await
        {
            Ok(message) => {
                let message = message.id.get();
                bot.tournaments.set_shown(message, Some(shown));
                let r = message_ref(channel, message);
                if let Err(error) = bot
                    .manager
                    .attach_tournament_message(&rec.id, r, true)
                    .await
                {
                    tracing::warn!(tournament = rec.id, message, %error, "Discord: standings picture not attached");
                }
            }
            Err(error) => {
                failed |= transient(&error);
                tracing::warn!(tournament = rec.id, %error, "Discord: cannot post the standings picture");
            }
        }
    }
    for (channel, message) in stale {
        match ChannelId::new(channel)
            .edit_message(http, MessageId::new(message), out.clone().into_edit())
            .await
        {
            Ok(_) => bot.tournaments.set_shown(message, Some(shown)),
            Err(error) => {
                bot.tournaments.set_shown(message, None);
                failed |= transient(&error);
                tracing::warn!(tournament = rec.id, message, %error, "Discord: cannot update the standings picture");
            }
        }
    }
    failed
}

/// The podium (or the cancellation), once, answering the announcement and pinging those on
/// the podium.
async fn post_ending(
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

    #[test]
    fn pending_work_piles_up_without_repeats() {
        let mut pending = Pending {
            paired: vec!["a1".into()],
            ended: false,
        };
        pending.absorb(Pending {
            paired: vec!["a1".into(), "a2".into()],
            ended: true,
        });
        assert_eq!(pending.paired, vec!["a1".to_string(), "a2".to_string()]);
        assert!(pending.ended && !pending.is_empty());
        assert!(Pending::default().is_empty());
    }

    #[test]
    fn long_texts_are_cut_to_discords_limits() {
        let cut = within("x".repeat(2500), MAX_CONTENT);
        assert_eq!(cut.chars().count(), MAX_CONTENT);
        assert!(cut.ends_with('…'));
        assert_eq!(within("short".into(), MAX_CONTENT), "short");
    }
}
