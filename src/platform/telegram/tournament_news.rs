//! A tournament in its Telegram group, as `platform/flow/tournament.rs` decides for every
//! adapter: this file is the Telegram outlet of that flow, which only sends and edits.
//!
//! The group carries the event: the announcement (edited as it moves on, through
//! `poster.edit`: coalesced, flood limits and 429s waited out in the background), one
//! pairings message per round or arena wave (the waves still waiting for the group's
//! allowance go out as one message), the standings picture (`sendPhoto`, attached with
//! `table`, then edited) and the podium. Each player's board goes to their private chat
//! with the bot; one who never started the bot (Telegram answers 403) has the game's board
//! posted in the group instead, with its pairing line over it.

use super::boards::{self, html, mention};
use super::markup::Where;
use super::poster::Content;
use super::refs::MsgRef;
use super::Ctx;
use crate::i18n::Lang;
use crate::manager::tournament::TournamentRecord;
use crate::manager::{GameView, Target};
use crate::model::{GameId, Platform, UserRef};
use crate::platform::flow::tournament::{ChatBudget, Delivery, Flow, Outlet};
use crate::platform::flow::Posted;
use crate::platform::present::tournament as show;
use crate::platform::present::{self, ClockStyle};
use crate::render::table::TableView;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use teloxide::RequestError;

/// The Telegram tournaments: the shared flow over this outlet.
pub type TournamentWorkers = Flow<TelegramOutlet>;

/// Sends and edits an event's messages for the flow.
pub struct TelegramOutlet {
    ctx: Weak<Ctx>,
    /// The group's flood budget (`[telegram] group_posts_per_minute`).
    budget: ChatBudget,
    /// Events whose standings picture is being posted (not attached yet): posted once.
    tables_posting: Mutex<HashSet<String>>,
    /// Per event, games whose pairings wait for the group's next pairings message.
    pairings: Mutex<HashMap<String, Vec<GameId>>>,
}

impl TelegramOutlet {
    pub fn new(ctx: Weak<Ctx>, group_posts_per_minute: u32) -> Self {
        TelegramOutlet {
            ctx,
            budget: ChatBudget {
                posts_per_minute: group_posts_per_minute,
            },
            tables_posting: Mutex::default(),
            pairings: Mutex::default(),
        }
    }

    fn ctx(&self) -> Option<Arc<Ctx>> {
        self.ctx.upgrade()
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

/// The group of an event, unless it is no Telegram group.
fn chat_of(rec: &TournamentRecord) -> Option<i64> {
    rec.chat.id.parse().ok()
}

/// The language of an event's messages: its creator's.
pub async fn event_lang(ctx: &Ctx, rec: &TournamentRecord) -> Lang {
    ctx.lang_of(&rec.creator).await
}

impl Outlet for TelegramOutlet {
    fn platform(&self) -> Platform {
        Platform::Telegram
    }

    fn chat_budget(&self) -> ChatBudget {
        self.budget
    }

    fn clock_style(&self) -> ClockStyle {
        ClockStyle::TimeOfDay
    }

    async fn redraw_announcements(&self, rec: &TournamentRecord, lang: Lang) -> Posted {
        let Some(ctx) = self.ctx() else {
            return Posted::Done;
        };
        let page = ctx.manager.tournament_page_url(&rec.id);
        let content = announcement_content(rec, lang, page);
        for target in rec.messages.iter().filter_map(MsgRef::parse) {
            ctx.poster.edit(target, content.clone(), next_version());
        }
        Posted::Done
    }

    async fn post_table(&self, rec: &TournamentRecord, _table: &TableView, lang: Lang) -> Posted {
        let (Some(ctx), Some(chat)) = (self.ctx(), chat_of(rec)) else {
            return Posted::Done;
        };
        match self.queue_table(&ctx, rec, chat, lang) {
            true => Posted::Done,
            false => Posted::Later,
        }
    }

    async fn edit_tables(&self, rec: &TournamentRecord, table: &TableView) -> Posted {
        let Some(ctx) = self.ctx() else {
            return Posted::Done;
        };
        let Some(content) = table_content(rec, table.clone()).await else {
            return Posted::Done;
        };
        for target in rec.tables.iter().filter_map(MsgRef::parse) {
            ctx.poster.edit(target, content.clone(), next_version());
        }
        Posted::Done
    }

    async fn post_pairings(&self, rec: &TournamentRecord, games: &[GameId], lang: Lang) -> Posted {
        let (Some(ctx), Some(chat)) = (self.ctx(), chat_of(rec)) else {
            return Posted::Done;
        };
        lock(&self.pairings)
            .entry(rec.id.clone())
            .or_default()
            .extend(games.iter().cloned());
        // One job per event in the group's outbox: a newer one replaces one still waiting,
        // and whichever runs posts every pairing gathered by then, in one message.
        let id = rec.id.clone();
        let worker = ctx.clone();
        let job = async move {
            let ctx = worker;
            let games = lock(&ctx.tournaments_outlet().pairings)
                .remove(&id)
                .unwrap_or_default();
            if games.is_empty() {
                return;
            }
            let Ok(rec) = ctx.manager.tournament(&id).await else {
                return;
            };
            let text = with_mentions(|m| show::pairings_text(&rec, &games, lang, m));
            let content = Content::Text {
                text,
                keyboard: None,
            };
            let reply_to = announcement_in(&rec, chat);
            if let Err(err) = ctx.poster.send(chat, &content, reply_to).await {
                let error = ctx.poster.describe(&err);
                tracing::warn!(
                    tournament = id,
                    chat,
                    error,
                    "telegram: pairings not posted"
                );
            }
        };
        let key = Some(format!("pairings:{}", rec.id));
        match ctx.outbox.push(chat, key, Box::pin(job)) {
            true => Posted::Done,
            false => Posted::Later,
        }
    }

    async fn post_board_in_chat(&self, rec: &TournamentRecord, view: &GameView) -> Posted {
        let (Some(ctx), Some(chat)) = (self.ctx(), chat_of(rec)) else {
            return Posted::Done;
        };
        let lang = present::board_lang(view);
        let Some(line) = with_mentions_opt(|m| show::pairing_line(rec, &view.id, lang, m)) else {
            tracing::warn!(
                tournament = rec.id,
                game = view.id,
                "telegram: game not in its tournament"
            );
            return Posted::Done;
        };
        tracing::info!(
            tournament = rec.id,
            game = view.id,
            chat,
            "telegram: board posted in the group"
        );
        boards::post_board_with_lead(&ctx, view, chat, lang, line).await;
        Posted::Done
    }

    async fn send_board_to(
        &self,
        rec: &TournamentRecord,
        view: &GameView,
        player: &UserRef,
    ) -> Delivery {
        let Some(ctx) = self.ctx() else {
            return Delivery::Later;
        };
        // A Telegram user's private chat with the bot has the user's id.
        let Ok(chat) = player.id.parse::<i64>() else {
            return Delivery::Unreachable;
        };
        let msg = MsgRef::Chat { chat, message: 0 };
        let Some((owner, lang)) = boards::private_owner(view, &msg) else {
            return Delivery::Unreachable;
        };
        let mini_app = ctx.mini_app.as_ref();
        let mut content =
            boards::board_content_for(view, lang, Where::Private, Some(owner), mini_app).await;
        if let Some(line) = with_mentions_opt(|m| show::pairing_line(rec, &view.id, lang, m)) {
            content = boards::with_lead(content, &line);
        }
        let posting = ctx.outbox.posting(chat);
        let (sent, _attaching) = match ctx.poster.send_holding(chat, &content, None, posting).await
        {
            Ok(sent) => sent,
            Err(err) => return refused(&ctx, rec, view, chat, &err),
        };
        let message = MsgRef::Chat {
            chat,
            message: sent.id.0,
        };
        let target = Target::Game(view.id.clone());
        present::attach(&ctx.manager, target, message.to_ref(), Some(player)).await;
        tracing::info!(
            tournament = rec.id,
            game = view.id,
            chat,
            "telegram: board sent privately"
        );
        // The game may have moved on while the board was on its way.
        boards::catch_up(&ctx, view).await;
        Delivery::Sent
    }

    async fn post_ending(&self, rec: &TournamentRecord, lang: Lang) -> Posted {
        let (Some(ctx), Some(chat)) = (self.ctx(), chat_of(rec)) else {
            return Posted::Done;
        };
        let text = with_mentions(|m| show::ending_text(rec, lang, m));
        let reply_to = announcement_in(rec, chat);
        let content = Content::Text {
            text,
            keyboard: None,
        };
        tracing::info!(tournament = rec.id, chat, status = ?rec.status, "telegram: tournament ended");
        ctx.send_later(chat, reply_to, content, None);
        Posted::Done
    }
}

/// A private board Telegram refused: the player never started the bot, blocked it or is
/// gone (the board goes to the group), or something that may pass (tried again).
fn refused(
    ctx: &Ctx,
    rec: &TournamentRecord,
    view: &GameView,
    chat: i64,
    err: &RequestError,
) -> Delivery {
    let error = ctx.poster.describe(err);
    let unreachable = super::poster::cannot_reach(err);
    tracing::info!(
        tournament = rec.id,
        game = view.id,
        chat,
        error,
        unreachable,
        "telegram: board not sent privately"
    );
    match unreachable {
        true => Delivery::Unreachable,
        false => Delivery::Later,
    }
}

impl TelegramOutlet {
    /// Posts the standings picture through the group's outbox and attaches it (with
    /// `table`); once attached, draws it again if the event moved on meanwhile. False if
    /// it could not be queued.
    fn queue_table(&self, ctx: &Arc<Ctx>, rec: &TournamentRecord, chat: i64, lang: Lang) -> bool {
        let id = rec.id.clone();
        if !lock(&self.tables_posting).insert(id.clone()) {
            return true;
        }
        let ctx2 = ctx.clone();
        let job = async move {
            let ctx = ctx2;
            post_table_now(&ctx, &id, chat, lang).await;
            lock(&ctx.tournaments_outlet().tables_posting).remove(&id);
        };
        let key = Some(format!("table:{}", rec.id));
        let queued = ctx.outbox.push(chat, key, Box::pin(job));
        if !queued {
            // The group's outbox is full: the next change tries again.
            lock(&self.tables_posting).remove(&rec.id);
        }
        queued
    }
}

/// The announcement's message and keyboard; under Join and Leave, the link to the event's
/// page when the pages are served (`page`: `Manager::tournament_page_url`).
pub fn announcement_content(rec: &TournamentRecord, lang: Lang, page: Option<String>) -> Content {
    let a = show::announcement(rec, lang, ClockStyle::TimeOfDay);
    let link = crate::platform::present::web_tournament::page_button(page, lang);
    Content::Text {
        text: html(&a.text),
        keyboard: super::markup::tournament_keyboard(&a.buttons, link.as_ref()),
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
