//! Showing a tournament's changes in its group (`Event::Tournament`): one worker per event
//! with news (`platform/worker.rs`, as for the games' boards), so the shared event loop never
//! waits for a post or a flood limit. A worker keeps one piece of waiting news, merged:
//! the games paired and the end are kept until shown, the state shown is read fresh (the
//! latest wins), and a burst of changes costs one redraw.
//!
//! What a change shows: every announcement message edited (`poster.edit`: coalesced, flood
//! limits and 429s waited out in the background); the standings picture posted once the
//! event has started (`sendPhoto`, attached with `table`) and redrawn with a fresh PNG as
//! results come in; a message per new game, its pairing line (both players mentioned) over
//! the game's usual board and buttons, attached to the game like any board; the podium (or
//! the news that it was cancelled) once, when it ends.

use super::boards::{self, html, mention};
use super::guard::caught;
use super::markup;
use super::poster::Content;
use super::refs::MsgRef;
use super::Ctx;
use crate::i18n::Lang;
use crate::manager::tournament::{Status, TournamentId, TournamentNews, TournamentRecord};
use crate::model::{Platform, UserRef};
use crate::platform::present::tournament as show;
use crate::platform::present::{self, ClockStyle};
use crate::platform::worker::Workers;
use crate::render::table::TableView;
use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// A worker whose event had no news for this long ends.
const IDLE: Duration = Duration::from_secs(60);

/// The workers (`platform/worker.rs`), each with its event's waiting news.
pub struct TournamentWorkers {
    workers: Workers<Option<TournamentNews>>,
    /// Events whose standings picture is being posted (not attached yet): posted once.
    tables_posting: Arc<Mutex<HashSet<TournamentId>>>,
}

impl Default for TournamentWorkers {
    fn default() -> Self {
        TournamentWorkers {
            workers: Workers::new("Telegram tournament"),
            tables_posting: Arc::default(),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Edits of tournament messages are ordered by this counter (the poster drops an edit older
/// than one asked for already); one process's workers show each event in order.
static VERSION: AtomicU64 = AtomicU64::new(1);

fn next_version() -> u64 {
    VERSION.fetch_add(1, Ordering::Relaxed)
}

impl TournamentWorkers {
    /// Hands the workers what a stop may have left unshown: the games created but never
    /// posted (`Manager::unannounced_tournament_games`). Run once the events are followed.
    pub async fn catch_up(&self, ctx: &Arc<Ctx>) {
        let unposted = ctx.manager.unannounced_tournament_games(Platform::Telegram);
        for news in unposted.await {
            tracing::info!(
                tournament = news.record.id,
                games = news.paired.len(),
                "telegram: posting tournament games left unposted"
            );
            self.push(ctx, news);
        }
    }

    /// Hands `news` to its event's worker (started if there is none).
    pub fn push(&self, ctx: &Arc<Ctx>, news: TournamentNews) {
        let id = news.record.id.clone();
        let fold = |waiting: &mut Option<TournamentNews>, news: Option<TournamentNews>| {
            match (waiting.as_mut(), news) {
                (Some(waiting), Some(news)) => merge(waiting, news),
                (None, news) => *waiting = news,
                (Some(_), None) => {}
            }
            true
        };
        if let Some(rx) = self.workers.merge(&id, Some(news), fold) {
            let work = work(ctx.clone(), self.workers.clone(), id.clone(), rx);
            self.workers.spawn(id, work);
        }
    }

    /// Events with a worker now.
    pub fn events(&self) -> usize {
        self.workers.len()
    }
}

/// Puts `new` in place of `waiting`, keeping the games paired and the end still to show.
fn merge(waiting: &mut TournamentNews, new: TournamentNews) {
    let mut paired = std::mem::take(&mut waiting.paired);
    for game in new.paired {
        if !paired.contains(&game) {
            paired.push(game);
        }
    }
    let ended = waiting.ended || new.ended;
    *waiting = TournamentNews {
        record: new.record,
        paired,
        ended,
    };
}

/// What a worker remembers of what it showed, to skip redraws that change nothing.
#[derive(Default)]
struct Shown {
    announcement: Option<String>,
    table: Option<TableView>,
    /// Games whose boards this worker queued: the same game named again (by the start-up
    /// catch-up and a tick at once) is posted once.
    announced: HashSet<String>,
}

async fn work(
    ctx: Arc<Ctx>,
    workers: Workers<Option<TournamentNews>>,
    id: TournamentId,
    mut rx: watch::Receiver<Option<TournamentNews>>,
) {
    let mut shown = Shown::default();
    while workers.next(&id, &mut rx, IDLE).await {
        if let Some(news) = workers.take(&id, &mut rx) {
            caught("tournament", show_news(&ctx, news, &mut shown)).await;
        }
    }
}

/// The group of an event, unless it is no Telegram group.
fn chat_of(rec: &TournamentRecord) -> Option<i64> {
    rec.chat.id.parse().ok()
}

/// The language of an event's messages: its creator's.
pub async fn event_lang(ctx: &Ctx, rec: &TournamentRecord) -> Lang {
    ctx.lang_of(&rec.creator).await
}

async fn show_news(ctx: &Arc<Ctx>, news: TournamentNews, shown: &mut Shown) {
    // The event as it is now: news may arrive out of order, the store does not.
    let rec = match ctx.manager.tournament(&news.record.id).await {
        Ok(rec) => rec,
        Err(error) => {
            tracing::warn!(tournament = news.record.id, %error, "telegram: tournament not read");
            news.record
        }
    };
    let Some(chat) = chat_of(&rec) else { return };
    let lang = event_lang(ctx, &rec).await;
    tracing::debug!(
        tournament = rec.id,
        chat,
        paired = news.paired.len(),
        ended = news.ended,
        "telegram: tournament news"
    );
    edit_announcements(ctx, &rec, lang, shown);
    for game in &news.paired {
        if shown.announced.insert(game.clone()) {
            announce_pairing(ctx, &rec, game, chat).await;
        }
    }
    redraw_table(ctx, &rec, chat, lang, shown).await;
    if news.ended {
        let text = with_mentions(|m| show::ending_text(&rec, lang, m));
        let reply_to = announcement_in(&rec, chat);
        let content = Content::Text {
            text,
            keyboard: None,
        };
        tracing::info!(tournament = rec.id, chat, status = ?rec.status, "telegram: tournament ended");
        ctx.send_later(chat, reply_to, content, None);
    }
}

/// The announcement's message and keyboard; under Join and Leave, the link to the event's
/// page when the pages are served (`page`: `Manager::tournament_page_url`).
pub fn announcement_content(rec: &TournamentRecord, lang: Lang, page: Option<String>) -> Content {
    let a = show::announcement(rec, lang, ClockStyle::TimeOfDay);
    let link = crate::platform::present::web_tournament::page_button(page, lang);
    Content::Text {
        text: html(&a.text),
        keyboard: markup::tournament_keyboard(&a.buttons, link.as_ref()),
    }
}

fn edit_announcements(ctx: &Arc<Ctx>, rec: &TournamentRecord, lang: Lang, shown: &mut Shown) {
    let page = ctx.manager.tournament_page_url(&rec.id);
    let content = announcement_content(rec, lang, page);
    let Content::Text { text, .. } = &content else {
        return;
    };
    if shown.announcement.as_ref() == Some(text) {
        return;
    }
    shown.announcement = Some(text.clone());
    for target in rec.messages.iter().filter_map(MsgRef::parse) {
        ctx.poster.edit(target, content.clone(), next_version());
    }
}

/// The first announcement of the event in `chat`, which its podium replies to.
fn announcement_in(rec: &TournamentRecord, chat: i64) -> Option<i32> {
    rec.messages
        .iter()
        .filter_map(MsgRef::parse)
        .find_map(|m| match m {
            MsgRef::Chat { chat: c, message } if c == chat => Some(message),
            _ => None,
        })
}

/// Posts game `game` of the event: its pairing line over its board, attached to the game.
async fn announce_pairing(ctx: &Arc<Ctx>, rec: &TournamentRecord, game: &str, chat: i64) {
    let view = match ctx.manager.game(game).await {
        Ok(view) => view,
        Err(error) => {
            tracing::warn!(tournament = rec.id, game, %error, "telegram: paired game not read");
            return;
        }
    };
    if view
        .messages
        .iter()
        .any(|m| m.platform == Platform::Telegram)
    {
        // Shown already (posted before a restart, or by another process).
        return;
    }
    let lang = present::board_lang(&view);
    let Some(line) = with_mentions_opt(|m| show::pairing_line(rec, game, lang, m)) else {
        tracing::warn!(
            tournament = rec.id,
            game,
            "telegram: game not in its tournament"
        );
        return;
    };
    tracing::info!(
        tournament = rec.id,
        game,
        chat,
        "telegram: pairing announced"
    );
    boards::post_board_with_lead(ctx, &view, chat, lang, line).await;
}

/// Keeps the standings picture current: posted once the event has started, redrawn when
/// the standings changed.
async fn redraw_table(
    ctx: &Arc<Ctx>,
    rec: &TournamentRecord,
    chat: i64,
    lang: Lang,
    shown: &mut Shown,
) {
    if rec.started_at.is_none() || rec.status == Status::Open {
        return;
    }
    let view = show::standings_table(rec, lang);
    if shown.table.as_ref() == Some(&view) {
        return;
    }
    let tables: Vec<MsgRef> = rec.tables.iter().filter_map(MsgRef::parse).collect();
    if tables.is_empty() {
        if rec.status == Status::Running && post_table(ctx, rec, chat, lang) {
            shown.table = Some(view);
        }
        return;
    }
    let Some(content) = table_content(rec, view.clone()).await else {
        return;
    };
    shown.table = Some(view);
    for target in tables {
        ctx.poster.edit(target, content.clone(), next_version());
    }
}

/// The standings picture of `rec` as a message: the PNG (drawn off the async workers),
/// captioned with the event's title.
pub async fn table_content(rec: &TournamentRecord, view: TableView) -> Option<Content> {
    let caption = view.title.clone();
    match crate::render::pool::table_png(view).await {
        Ok(png) => Some(Content::Photo {
            png: Arc::new(png),
            caption,
            keyboard: None,
            html: false,
        }),
        Err(error) => {
            tracing::warn!(tournament = rec.id, %error, "telegram: standings PNG failed");
            None
        }
    }
}

/// Posts the standings picture through the chat's outbox and attaches it (with `table`);
/// once attached, draws it again if the event moved on meanwhile (its news found no
/// picture to edit). False if it could not be queued.
fn post_table(ctx: &Arc<Ctx>, rec: &TournamentRecord, chat: i64, lang: Lang) -> bool {
    let id = rec.id.clone();
    if !lock(&ctx.tournaments.tables_posting).insert(id.clone()) {
        return true;
    }
    let ctx2 = ctx.clone();
    let job = async move {
        let ctx = ctx2;
        post_table_now(&ctx, &id, chat, lang).await;
        lock(&ctx.tournaments.tables_posting).remove(&id);
    };
    let key = Some(format!("table:{}", rec.id));
    let queued = ctx.outbox.push(chat, key, Box::pin(job));
    if !queued {
        // The chat's outbox is full: the next change tries again.
        lock(&ctx.tournaments.tables_posting).remove(&rec.id);
    }
    queued
}

async fn post_table_now(ctx: &Arc<Ctx>, id: &str, chat: i64, lang: Lang) {
    let Ok(rec) = ctx.manager.tournament(id).await else {
        return;
    };
    if !rec.tables.iter().all(|t| MsgRef::parse(t).is_none()) {
        return;
    }
    let drawn = show::standings_table(&rec, lang);
    let Some(content) = table_content(&rec, drawn.clone()).await else {
        return;
    };
    let posting = ctx.outbox.posting(chat);
    let reply_to = announcement_in(&rec, chat);
    let (sent, _attaching) = match ctx
        .poster
        .send_holding(chat, &content, reply_to, posting)
        .await
    {
        Ok(sent) => sent,
        Err(err) => {
            let error = ctx.poster.describe(&err);
            tracing::warn!(
                tournament = id,
                chat,
                error,
                "telegram: standings not posted"
            );
            return;
        }
    };
    let message = MsgRef::Chat {
        chat,
        message: sent.id.0,
    };
    if let Err(error) = ctx
        .manager
        .attach_tournament_message(id, message.to_ref(), true)
        .await
    {
        tracing::warn!(tournament = id, %error, "telegram: standings not attached");
        return;
    }
    tracing::info!(tournament = id, chat, "telegram: standings posted");
    // Results that came in before it was attached found nothing to redraw.
    if let Ok(now) = ctx.manager.tournament(id).await {
        let view = show::standings_table(&now, lang);
        if view != drawn {
            if let Some(content) = table_content(&now, view).await {
                ctx.poster.edit(message, content, next_version());
            }
        }
    }
}

/// Posts the announcement of a new event in `chat` (through its outbox) as a reply to
/// `reply_to`, attaches it to the event, and edits it once more if the event changed before
/// it was attached.
pub fn post_announcement(
    ctx: &Arc<Ctx>,
    rec: &TournamentRecord,
    chat: i64,
    reply_to: Option<i32>,
    lang: Lang,
) {
    let ctx2 = ctx.clone();
    let rec = rec.clone();
    let job = async move {
        let ctx = ctx2;
        let page = ctx.manager.tournament_page_url(&rec.id);
        let content = announcement_content(&rec, lang, page.clone());
        let posting = ctx.outbox.posting(chat);
        let sent = ctx.poster.send_holding(chat, &content, reply_to, posting);
        let (sent, _attaching) = match sent.await {
            Ok(sent) => sent,
            Err(err) => {
                let error = ctx.poster.describe(&err);
                tracing::warn!(
                    tournament = rec.id,
                    chat,
                    error,
                    "telegram: announcement not sent"
                );
                return;
            }
        };
        let message = MsgRef::Chat {
            chat,
            message: sent.id.0,
        };
        if let Err(error) = ctx
            .manager
            .attach_tournament_message(&rec.id, message.to_ref(), false)
            .await
        {
            tracing::warn!(tournament = rec.id, %error, "telegram: announcement not attached");
            return;
        }
        tracing::info!(tournament = rec.id, chat, "telegram: tournament announced");
        if let Ok(now) = ctx.manager.tournament(&rec.id).await {
            let fresh = announcement_content(&now, lang, page);
            if text_of(&fresh) != text_of(&content) {
                ctx.poster.edit(message, fresh, next_version());
            }
        }
    };
    ctx.outbox.push(chat, None, Box::pin(job));
}

fn text_of(content: &Content) -> Option<&str> {
    match content {
        Content::Text { text, .. } => Some(text),
        _ => None,
    }
}

/// Private-use characters that stand for a mention in a plain text until it is escaped.
const MARK_OPEN: char = '\u{E000}';
const MARK_CLOSE: char = '\u{E001}';

/// A plain text from `present` with people mentioned, as Telegram HTML: the text is escaped
/// as a whole, then each mention becomes a `tg://user` link (which notifies them).
pub fn with_mentions(build: impl FnOnce(show::Mention<'_>) -> String) -> String {
    with_mentions_opt(|m| Some(build(m))).unwrap_or_default()
}

fn with_mentions_opt(build: impl FnOnce(show::Mention<'_>) -> Option<String>) -> Option<String> {
    let users: RefCell<Vec<UserRef>> = RefCell::new(Vec::new());
    let mark = |user: &UserRef| {
        let mut users = users.borrow_mut();
        users.push(user.clone());
        format!("{MARK_OPEN}{}{MARK_CLOSE}", users.len() - 1)
    };
    let text = build(&mark)?;
    let escaped = html(&text);
    let users = users.into_inner();
    let mut out = String::with_capacity(escaped.len());
    let mut rest = escaped.as_str();
    while let Some(at) = rest.find(MARK_OPEN) {
        out.push_str(&rest[..at]);
        let after = &rest[at + MARK_OPEN.len_utf8()..];
        let Some(end) = after.find(MARK_CLOSE) else {
            rest = after;
            continue;
        };
        if let Some(user) = after[..end]
            .parse::<usize>()
            .ok()
            .and_then(|n| users.get(n))
        {
            out.push_str(&mention(user));
        }
        rest = &after[end + MARK_CLOSE.len_utf8()..];
    }
    out.push_str(rest);
    Some(out.replace([MARK_OPEN, MARK_CLOSE], ""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ChatRef, Platform};

    fn news(paired: &[&str], ended: bool) -> TournamentNews {
        let rec = TournamentRecord::new(
            "t1".into(),
            ChatRef::new(Platform::Telegram, "-5"),
            UserRef::new(Platform::Telegram, "1", "A"),
            (
                crate::manager::tournament::Format::Arena { minutes: 30 },
                crate::model::TimeControl::fischer(3, 2),
                crate::rules::Variant::STANDARD,
                true,
            ),
            (0, 300),
        );
        TournamentNews {
            record: rec,
            paired: paired.iter().map(|g| g.to_string()).collect(),
            ended,
        }
    }

    #[test]
    fn merged_news_keeps_every_pairing_and_the_end() {
        let mut waiting = news(&["t1a1"], false);
        merge(&mut waiting, news(&["t1a2", "t1a1"], true));
        merge(&mut waiting, news(&["t1a3"], false));
        assert_eq!(waiting.paired, ["t1a1", "t1a2", "t1a3"]);
        assert!(waiting.ended, "an end is never merged away");
    }

    #[test]
    fn mentions_survive_the_escaping_of_the_text() {
        let alice = UserRef::new(Platform::Telegram, "11", "Alice <&>");
        let text = with_mentions(|m| format!("<b> {} & {}", m(&alice), "x"));
        assert_eq!(
            text,
            "&lt;b&gt; <a href=\"tg://user?id=11\">Alice &lt;&amp;&gt;</a> &amp; x"
        );
        // A name that tries to pass for a mark is only text.
        let forged = with_mentions(|_| format!("{MARK_OPEN}0{MARK_CLOSE} hi"));
        assert_eq!(forged, " hi");
    }
}
