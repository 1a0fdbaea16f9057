//! Following a tournament in Discord (issue 33): `Event::Tournament` -> the event's worker
//! (one per tournament, `platform/worker.rs`), which posts the new games (the pairing line over the
//! game's own board, attached to the game), edits every announcement, posts and redraws the
//! standings picture, and posts the podium once. It reads the record when it draws, so news
//! that piles up behind a rate limit costs one edit; the event loop only hands over.

use super::failure::transient;
use super::messages::{self, Stamp};
use super::{lock, message_ref, parse_message_ref, Bot, Drawn};
use crate::i18n::Lang;
use crate::manager::tournament::{Status, TournamentNews, TournamentRecord};
use crate::manager::{Player, Target};
use crate::model::{GameId, Platform};
use crate::platform::present::{self, tournament as show};
use crate::platform::worker::Workers;
use serenity::all::{ChannelId, Http, MessageId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

use super::tournament_view::*;

/// The tournament side of the bot's state: the workers, and what each tournament message
/// shows (a digest of what was drawn on it), which only saves needless edits.
pub(super) struct Tournaments {
    workers: Workers<Pending>,
    shown: Mutex<HashMap<u64, u64>>,
}

impl Default for Tournaments {
    fn default() -> Self {
        Tournaments {
            workers: Workers::new("Discord tournament"),
            shown: Mutex::default(),
        }
    }
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

    pub(super) fn set_shown(&self, message: u64, digest: Option<u64>) {
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

pub(super) fn follow(bot: &Arc<Bot>, http: &Arc<Http>, id: &str, pending: Pending) {
    let absorb = |waiting: &mut Pending, more| {
        waiting.absorb(more);
        true
    };
    if let Some(rx) = bot.tournaments.workers.merge(id, pending, absorb) {
        let work = worker(bot.clone(), http.clone(), id.to_string(), rx);
        bot.tournaments.workers.spawn(id.to_string(), work);
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
    let lang = bot.manager.speaker(&rec.creator, None).await;
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
pub(super) enum Posted {
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
    let lang = present::board_lang(&view);
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
        let page = bot.manager.tournament_page_url(&rec.id);
        let edit = announcement(rec, lang, page).into_edit();
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
}
