//! Thin send/edit wrappers that respect Telegram's flood limits.
//!
//! Every post goes through a token bucket per chat (bursts, then a per-minute rate; groups
//! are stricter) and a global one. A 429 answer is honoured by waiting `retry_after`.
//! Edits are coalesced per message: only the newest wanted content is posted, so a burst of
//! moves costs one edit, and an edit that failed is retried until Telegram accepts it or a
//! newer board replaces it. A lost post never loses a move: the game is already durable, and
//! `/board` posts it again.

use super::refs::MsgRef;
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use teloxide::prelude::*;
use teloxide::types::{
    InlineKeyboardMarkup, InputFile, InputMedia, InputMediaPhoto, Message, MessageId, ParseMode,
    ReplyParameters,
};
use teloxide::{ApiError, RequestError};

/// What a message should show.
#[derive(Clone, Debug)]
pub enum Content {
    /// A photo (the PNG board) with a caption: plain text, or HTML when `html` (a caption
    /// that mentions people).
    Photo {
        png: Arc<Vec<u8>>,
        caption: String,
        keyboard: Option<InlineKeyboardMarkup>,
        html: bool,
    },
    /// A text message (challenges, inline-mode boards, the text fallback).
    Text {
        text: String,
        keyboard: Option<InlineKeyboardMarkup>,
    },
    /// Only a new keyboard (e.g. none, for a board that is no longer the live one).
    Keyboard(Option<InlineKeyboardMarkup>),
    /// A file (a game's record) with a plain-text caption; only ever sent, never edited in.
    Document {
        name: String,
        bytes: Arc<Vec<u8>>,
        caption: String,
    },
}

/// Tries of one post or edit before giving it up.
const ATTEMPTS: u32 = 6;
/// A single 429 wait longer than this is not worth holding a request for.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(120);

/// Flood limits: a bucket per chat (a burst, then a per-minute rate; groups are stricter)
/// and Telegram's overall one. Buckets of chats that went quiet are pruned (`prune`), so
/// memory follows the chats active now, not every chat ever seen.
pub struct Limiter {
    private: DefaultKeyedRateLimiter<String>,
    group: DefaultKeyedRateLimiter<String>,
    global: DefaultDirectRateLimiter,
    /// The share of the overall limit private alerts may take (issue 51): they take a token
    /// here before the overall one, so boards and replies always keep the rest.
    alerts: DefaultDirectRateLimiter,
}

/// Telegram's overall limit for a bot: about 30 messages per second.
const GLOBAL_PER_SEC: u32 = 30;
/// Private alerts about correspondence games take at most a third of it: a flood of them
/// (a tournament's round of correspondence games) never delays a board by more than the
/// two thirds left would.
const ALERTS_PER_SEC: u32 = GLOBAL_PER_SEC / 3;

/// `per_minute` with a burst of `burst` (zeros, refused by the config check, count as 1).
pub fn quota(per_minute: u32, burst: u32) -> Quota {
    let rate = NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN);
    Quota::per_minute(rate).allow_burst(NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN))
}

/// A quota that never lets more than `per_minute` through in any minute, bursts included:
/// a full bucket of `burst` followed by a token every `60 / rate` s lets up to
/// `burst + rate - 1` pass in the minute after a quiet spell (one more when the interval
/// rounds down to whole nanoseconds), so the rate is `per_minute - burst` (the plain
/// `quota(20, 4)` let 23 posts into a group's first minute, and Telegram answered the 21st
/// with a 429 and a wait of most of a minute).
pub fn quota_within(per_minute: u32, burst: u32) -> Quota {
    let per_minute = per_minute.max(1);
    let burst = burst.clamp(1, per_minute);
    quota((per_minute - burst).max(1), burst)
}

impl Limiter {
    pub fn new(private_per_minute: u32, group_per_minute: u32, burst: u32) -> Limiter {
        Limiter::with_global(private_per_minute, group_per_minute, burst, GLOBAL_PER_SEC)
    }

    fn with_global(
        private_per_minute: u32,
        group_per_minute: u32,
        burst: u32,
        global: u32,
    ) -> Limiter {
        let alerts = NonZeroU32::new(ALERTS_PER_SEC.min(global)).unwrap_or(NonZeroU32::MIN);
        let global = NonZeroU32::new(global).unwrap_or(NonZeroU32::MIN);
        Limiter {
            private: RateLimiter::keyed(quota_within(private_per_minute, burst)),
            group: RateLimiter::keyed(quota_within(group_per_minute, burst)),
            global: RateLimiter::direct(Quota::per_second(global)),
            alerts: RateLimiter::direct(Quota::per_second(alerts)),
        }
    }

    /// Waits until a private alert may go (its share of the overall limit); `acquire` is
    /// still taken for each try.
    pub async fn acquire_alert(&self) {
        self.alerts.until_ready().await;
    }

    /// Waits until `chat` may post once more, and takes the token.
    pub async fn acquire(&self, chat: &str, group: bool) {
        let keyed = if group { &self.group } else { &self.private };
        keyed.until_key_ready(&chat.to_string()).await;
        self.global.until_ready().await;
    }

    /// Forgets the buckets that are full again (their chats posted nothing for a while).
    pub fn prune(&self) {
        for keyed in [&self.private, &self.group] {
            keyed.retain_recent();
            keyed.shrink_to_fit();
        }
    }

    /// How many chats have a bucket now.
    pub fn chats(&self) -> usize {
        self.private.len() + self.group.len()
    }
}

#[derive(Default)]
struct Pending {
    latest: Option<Content>,
    running: bool,
}

/// The board last posted as a new message for a game in a chat.
#[derive(Default)]
pub struct Posted {
    /// Its version (see `boards::version`).
    pub version: u64,
    pub message: Option<MsgRef>,
}

type PostedSlot = Arc<tokio::sync::Mutex<Posted>>;

/// Versions kept at most before the map is cleared (it only orders racing edits).
const VERSIONS_MAX: usize = 100_000;

/// Sends and edits messages within the limits.
pub struct Poster {
    bot: Bot,
    limiter: Limiter,
    pending: Mutex<HashMap<MsgRef, Pending>>,
    /// The newest version asked for per message: an older board never replaces a newer one.
    versions: Mutex<HashMap<MsgRef, u64>>,
    /// The newest board posted as a new message, per game and chat.
    posted: Mutex<HashMap<(String, i64), PostedSlot>>,
    /// The bot token, to scrub from error texts (reqwest puts the URL into them).
    token: String,
}

impl Poster {
    pub fn new(bot: Bot, limiter: Limiter, token: String) -> Arc<Poster> {
        Arc::new(Poster {
            bot,
            limiter,
            pending: Mutex::new(HashMap::new()),
            versions: Mutex::new(HashMap::new()),
            posted: Mutex::new(HashMap::new()),
            token,
        })
    }

    /// Forgets the flood buckets of quiet chats.
    pub fn prune(&self) {
        self.limiter.prune();
    }

    /// Chats with a flood bucket now.
    pub fn chats(&self) -> usize {
        self.limiter.chats()
    }

    /// An error's text with the token removed.
    pub fn describe(&self, err: &RequestError) -> String {
        self.scrubbed(&err.to_string())
    }

    /// `text` with the token removed.
    pub fn scrubbed(&self, text: &str) -> String {
        scrub(text, &self.token)
    }

    /// Makes `target` show `content`, in the background. A newer call for the same message
    /// replaces a post that has not gone out yet; a call with a lower `version` than one
    /// already asked for (a board older than the one shown) is dropped.
    pub fn edit(self: &Arc<Self>, target: MsgRef, content: Content, version: u64) {
        {
            let mut versions = self.versions.lock().unwrap_or_else(|e| e.into_inner());
            if versions.len() > VERSIONS_MAX {
                versions.clear();
            }
            let newest = versions.entry(target.clone()).or_insert(version);
            if version < *newest {
                return;
            }
            *newest = version;
        }
        let start = {
            let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            let slot = pending.entry(target.clone()).or_default();
            slot.latest = Some(content);
            !std::mem::replace(&mut slot.running, true)
        };
        if start {
            let me = self.clone();
            tokio::spawn(async move { me.run_edits(target).await });
        }
    }

    /// The newest board of `game` posted as a new message in `chat`, locked: posts of one
    /// game go out one at a time, so a board never lands after a newer one, and each new
    /// board knows the one it replaces (even one the manager has not attached yet).
    pub async fn posted(&self, game: &str, chat: i64) -> tokio::sync::OwnedMutexGuard<Posted> {
        let slot = {
            let mut posted = self.posted.lock().unwrap_or_else(|e| e.into_inner());
            if posted.len() > VERSIONS_MAX {
                posted.clear();
            }
            posted.entry((game.to_string(), chat)).or_default().clone()
        };
        slot.lock_owned().await
    }

    /// Whether a newer content is waiting for `target`.
    fn superseded(&self, target: &MsgRef) -> bool {
        let pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        pending.get(target).is_some_and(|p| p.latest.is_some())
    }

    async fn run_edits(self: Arc<Self>, target: MsgRef) {
        loop {
            let content = {
                let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
                let Some(slot) = pending.get_mut(&target) else {
                    return;
                };
                match slot.latest.take() {
                    Some(c) => c,
                    None => {
                        pending.remove(&target);
                        return;
                    }
                }
            };
            self.edit_until_done(&target, &content).await;
        }
    }

    async fn edit_until_done(&self, target: &MsgRef, content: &Content) {
        let (chat, group) = target.chat_key();
        let mut failures = 0;
        loop {
            self.limiter.acquire(&chat, group).await;
            tracing::debug!(?target, failures, "edit sent");
            let attempt = self.apply_edit(target, content);
            let err = match tokio::time::timeout(edit_timeout(failures), attempt).await {
                Ok(Ok(()) | Err(RequestError::Api(ApiError::MessageNotModified))) => return,
                Ok(Err(e)) => Some(e),
                Err(_) => None,
            };
            failures += 1;
            let wait = match &err {
                Some(err) => retry_wait(err, failures),
                // Timed out: most likely teloxide sitting out its 10 s after a 5xx.
                None => (failures < ATTEMPTS).then_some(Duration::from_millis(50)),
            };
            let Some(wait) = wait else {
                let error = err.map_or_else(|| "timed out".to_string(), |e| self.describe(&e));
                tracing::warn!(?target, error, "edit failed");
                return;
            };
            tracing::info!(?target, wait_ms = wait.as_millis() as u64, "edit postponed");
            tokio::time::sleep(wait).await;
            if self.superseded(target) {
                tracing::debug!(?target, "edit superseded");
                return;
            }
        }
    }

    async fn apply_edit(&self, target: &MsgRef, content: &Content) -> Result<(), RequestError> {
        let bot = &self.bot;
        match (target, content) {
            (
                MsgRef::Chat { chat, message },
                Content::Photo {
                    png,
                    caption,
                    keyboard,
                    html,
                },
            ) => {
                let media = photo_media(png, caption, *html);
                let req = bot.edit_message_media(ChatId(*chat), MessageId(*message), media);
                match keyboard {
                    Some(k) => req.reply_markup(k.clone()).await,
                    None => req.await,
                }
                .map(drop)
            }
            (MsgRef::Chat { chat, message }, Content::Text { text, keyboard }) => {
                let req = bot
                    .edit_message_text(ChatId(*chat), MessageId(*message), text)
                    .parse_mode(ParseMode::Html);
                match keyboard {
                    Some(k) => req.reply_markup(k.clone()).await,
                    None => req.await,
                }
                .map(drop)
            }
            (MsgRef::Inline(id), Content::Text { text, keyboard }) => {
                let req = bot
                    .edit_message_text_inline(id, text)
                    .parse_mode(ParseMode::Html);
                match keyboard {
                    Some(k) => req.reply_markup(k.clone()).await,
                    None => req.await,
                }
                .map(drop)
            }
            (MsgRef::Chat { chat, message }, Content::Keyboard(k)) => bot
                .edit_message_reply_markup(ChatId(*chat), MessageId(*message))
                .reply_markup(k.clone().unwrap_or_else(empty_keyboard))
                .await
                .map(drop),
            (MsgRef::Inline(id), Content::Keyboard(k)) => bot
                .edit_message_reply_markup_inline(id)
                .reply_markup(k.clone().unwrap_or_else(empty_keyboard))
                .await
                .map(drop),
            (_, Content::Document { .. }) => {
                tracing::warn!(?target, "document edits are not made");
                Ok(())
            }
            (MsgRef::Inline(_), Content::Photo { .. }) => {
                // Telegram cannot put an uploaded photo into an inline message; callers
                // render inline boards as text.
                tracing::warn!(?target, "photo edit of an inline message skipped");
                Ok(())
            }
        }
    }

    /// Sends a new message to `chat` and returns it, waiting out flood limits (a bounded
    /// number of times).
    pub async fn send(
        &self,
        chat: i64,
        content: &Content,
        reply_to: Option<i32>,
    ) -> Result<Message, RequestError> {
        self.send_holding(chat, content, reply_to, None)
            .await
            .map(|(sent, _)| sent)
    }

    /// `send` at the alerts' lower priority: within their share of the overall limit
    /// (`ALERTS_PER_SEC`), then as any post. Only a chat's outbox task waits here.
    pub async fn send_alert(&self, chat: i64, content: &Content) -> Result<Message, RequestError> {
        self.limiter.acquire_alert().await;
        self.send(chat, content, None).await
    }

    /// `send`, holding `posting` (once the flood allowance is there) around each try, and
    /// still holding it when it returns the sent message: the caller lets it go once the
    /// message is attached.
    pub async fn send_holding(
        &self,
        chat: i64,
        content: &Content,
        reply_to: Option<i32>,
        posting: Option<Arc<tokio::sync::Mutex<()>>>,
    ) -> Result<(Message, Option<tokio::sync::OwnedMutexGuard<()>>), RequestError> {
        let key = chat.to_string();
        let mut failures = 0;
        loop {
            self.limiter.acquire(&key, chat < 0).await;
            let guard = match &posting {
                Some(lock) => Some(lock.clone().lock_owned().await),
                None => None,
            };
            let err = match self.send_once(chat, content, reply_to).await {
                Ok(sent) => return Ok((sent, guard)),
                Err(err) => err,
            };
            drop(guard);
            failures += 1;
            match retry_wait(&err, failures) {
                Some(wait) => tokio::time::sleep(wait).await,
                None => return Err(err),
            }
        }
    }

    async fn send_once(
        &self,
        chat: i64,
        content: &Content,
        reply_to: Option<i32>,
    ) -> Result<Message, RequestError> {
        let reply =
            reply_to.map(|m| ReplyParameters::new(MessageId(m)).allow_sending_without_reply());
        match content {
            Content::Photo {
                png,
                caption,
                keyboard,
                html,
            } => {
                let mut req = self
                    .bot
                    .send_photo(ChatId(chat), board_file(png))
                    .caption(caption);
                if *html {
                    req = req.parse_mode(ParseMode::Html);
                }
                if let Some(k) = keyboard {
                    req = req.reply_markup(k.clone());
                }
                if let Some(r) = reply {
                    req = req.reply_parameters(r);
                }
                req.await
            }
            Content::Text { text, keyboard } => {
                let mut req = self
                    .bot
                    .send_message(ChatId(chat), text)
                    .parse_mode(ParseMode::Html);
                if let Some(k) = keyboard {
                    req = req.reply_markup(k.clone());
                }
                if let Some(r) = reply {
                    req = req.reply_parameters(r);
                }
                req.await
            }
            Content::Document {
                name,
                bytes,
                caption,
            } => {
                let file = InputFile::memory(bytes.as_ref().clone()).file_name(name.clone());
                let mut req = self.bot.send_document(ChatId(chat), file);
                if !caption.is_empty() {
                    req = req.caption(caption);
                }
                if let Some(r) = reply {
                    req = req.reply_parameters(r);
                }
                req.await
            }
            Content::Keyboard(_) => Err(RequestError::Api(ApiError::MessageTextIsEmpty)),
        }
    }
}

/// How long one try of an edit may take: 1 s for the first two, then doubling. teloxide
/// waits 10 s after any 5xx answer before it returns the error; an edit is idempotent (a
/// repeat is at worst "not modified"), so it is cheaper to give up on that try and send the
/// edit again. (New messages are not cut short: a send cut off after Telegram took it would
/// post twice.)
fn edit_timeout(failures: u32) -> Duration {
    Duration::from_secs(1) * (1 << failures.saturating_sub(1).min(5))
}

/// How long to wait before trying a failed request again, or `None` to give up: 429s are
/// waited out (`retry_after`, capped), network errors and Telegram's 5xx answers retried
/// with a growing pause; anything else is final. A post is tried `ATTEMPTS` times at most:
/// a chat under constant 429 must not keep a request (and its memory) forever, and a lost
/// post never loses a move (the game is durable; the next change or /board shows it).
fn retry_wait(err: &RequestError, failures: u32) -> Option<Duration> {
    if failures >= ATTEMPTS {
        return None;
    }
    match err {
        RequestError::RetryAfter(s) => Some(s.duration().min(MAX_RETRY_AFTER)),
        _ if may_pass(err) => Some(Duration::from_millis(100 << failures.min(6))),
        _ => None,
    }
}

/// Whether a failed request may succeed later: a 429, the network, or Telegram's 5xx
/// answers, not a refusal that would only repeat. A worker gives what failed so another
/// try after a pause, once the poster's own tries are spent.
pub fn may_pass(err: &RequestError) -> bool {
    match err {
        RequestError::RetryAfter(_)
        | RequestError::Network(_)
        | RequestError::Io(_)
        | RequestError::InvalidJson { .. } => true,
        RequestError::Api(ApiError::Unknown(text)) => is_server_error(text),
        _ => false,
    }
}

/// Whether Telegram refused a message because the user cannot be written to: they never
/// started the bot, blocked it, or are gone. Trying again would only be refused again.
pub fn cannot_reach(err: &RequestError) -> bool {
    match err {
        RequestError::Api(
            ApiError::BotBlocked
            | ApiError::CantInitiateConversation
            | ApiError::UserDeactivated
            | ApiError::ChatNotFound
            | ApiError::CantTalkWithBots,
        ) => true,
        // Telegram now words "can't initiate conversation" as a 403 "Forbidden: ...", which
        // teloxide knows only as "Unauthorized: ...".
        RequestError::Api(ApiError::Unknown(text)) => text.starts_with("Forbidden"),
        _ => false,
    }
}

/// Telegram's 5xx answers ("Internal Server Error", "Bad Gateway", ...) reach teloxide as
/// unknown API errors with that description.
fn is_server_error(description: &str) -> bool {
    [
        "Internal Server Error",
        "Bad Gateway",
        "Service Unavailable",
        "Gateway Timeout",
    ]
    .iter()
    .any(|s| description.contains(s))
}

fn board_file(png: &Arc<Vec<u8>>) -> InputFile {
    InputFile::memory(png.as_ref().clone()).file_name("board.png")
}

fn photo_media(png: &Arc<Vec<u8>>, caption: &str, html: bool) -> InputMedia {
    let photo = InputMediaPhoto::new(board_file(png)).caption(caption);
    InputMedia::Photo(match html {
        true => photo.parse_mode(ParseMode::Html),
        false => photo,
    })
}

fn empty_keyboard() -> InlineKeyboardMarkup {
    InlineKeyboardMarkup::new(Vec::<Vec<_>>::new())
}

/// `text` with every occurrence of the token replaced.
pub fn scrub(text: &str, token: &str) -> String {
    if token.is_empty() {
        text.to_string()
    } else {
        text.replace(token, "***")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn no_minute_holds_more_posts_than_the_limit_bursts_included() {
        for (per_minute, burst) in [(20, 4), (20, 1), (60, 4), (3, 10), (1, 1)] {
            let q = quota_within(per_minute, burst);
            let burst = q.burst_size().get();
            // One token every `replenish` after the full bucket: those that fall within
            // the minute after a quiet spell, plus the bucket.
            let replenish = q.replenish_interval().as_nanos();
            let later = (60_000_000_000u128 - 1) / replenish;
            assert!(
                u128::from(burst) + later <= u128::from(per_minute),
                "{per_minute}/min with a burst of {burst}: {} in a minute",
                u128::from(burst) + later
            );
        }
        // Telegram's group: 4 at once, then 16 a minute.
        let q = quota_within(20, 4);
        assert_eq!(q.burst_size().get(), 4);
        assert_eq!(q.replenish_interval(), Duration::from_secs(60) / 16);
    }

    #[tokio::test]
    async fn buckets_of_quiet_chats_are_pruned() {
        // 60 000 a minute: a used bucket is full again after a millisecond.
        let limiter = Limiter::with_global(60_000, 60_000, 1, 1_000_000);
        for chat in 0..1000 {
            limiter.acquire(&chat.to_string(), chat % 2 == 0).await;
        }
        assert_eq!(limiter.chats(), 1000);
        tokio::time::sleep(Duration::from_millis(20)).await;
        limiter.prune();
        assert_eq!(limiter.chats(), 0, "every bucket is full again");
        // A chat that has just posted at a slow rate keeps its bucket: it still owes time.
        let slow = Limiter::new(1, 1, 1);
        slow.acquire("-7", true).await;
        slow.prune();
        assert_eq!(slow.chats(), 1);
    }

    #[tokio::test]
    async fn a_chat_bursts_then_waits_for_its_rate() {
        // 600 a minute: a token every 100 ms; groups 200 a minute: every 300 ms.
        let limiter = Limiter::new(600, 200, 2);
        let start = Instant::now();
        limiter.acquire("1", false).await;
        limiter.acquire("1", false).await;
        assert!(start.elapsed() < Duration::from_millis(50));
        limiter.acquire("1", false).await;
        let waited = start.elapsed();
        assert!(waited >= Duration::from_millis(90), "{waited:?}");
        // Another chat has its own bucket; groups earn tokens slower.
        let t = Instant::now();
        limiter.acquire("-5", true).await;
        limiter.acquire("-5", true).await;
        assert!(t.elapsed() < Duration::from_millis(50));
        limiter.acquire("-5", true).await;
        assert!(
            t.elapsed() >= Duration::from_millis(280),
            "{:?}",
            t.elapsed()
        );
    }

    #[test]
    fn tokens_are_scrubbed_from_errors() {
        let text = "error sending request for url (https://api.telegram.org/bot12:SECRET/GetMe)";
        assert_eq!(
            scrub(text, "12:SECRET"),
            "error sending request for url (https://api.telegram.org/bot***/GetMe)"
        );
    }

    #[test]
    fn only_failures_that_may_pass_are_tried_again() {
        let away = RequestError::Api(ApiError::Unknown("Bad Gateway".into()));
        assert!(may_pass(&away));
        assert_eq!(retry_wait(&away, 1), Some(Duration::from_millis(200)));
        assert_eq!(
            retry_wait(&away, ATTEMPTS),
            None,
            "the poster's tries spent"
        );
        let refused = RequestError::Api(ApiError::BotKicked);
        assert!(!may_pass(&refused));
        assert_eq!(retry_wait(&refused, 1), None);
    }
}
