//! A chat's daily puzzle post, the same on every platform (issue 49). The manager's tick
//! claims the day's post (`Manager::tick_daily_posts`) and publishes it as fresh
//! `DailyNews`; a solve or a miss from the chat publishes a redraw of it with the new
//! count. Here one worker per chat (`platform/worker.rs`) makes the post through the
//! adapter's [`DailyOutlet`], attaches it (`Manager::attach_daily_post`, so that the
//! redraws find it, in this process or another), and redraws it.
//!
//! The news of a chat whose worker is busy folds into one waiting value ([`merge`]): a post
//! still to make stays to make, a newer count replaces an older one not shown yet, and an
//! older count or day never replaces a newer one. The worker remembers what it showed
//! ([`Shown`]) and skips a redraw that would show nothing new. What failed in a way that
//! may pass (the service away, the store away for the attaching) is done again after a
//! pause ([`BACKOFF`]), or sooner when news comes; a post made and not attached is
//! attached then, not made twice, and a post whose claim was taken again meanwhile (by
//! another process, after `RECLAIM_SECS`) or turned off is left to that claim.

use super::Posted;
use crate::manager::puzzles::DailyNews;
use crate::manager::{Manager, MessageRef};
use crate::model::Platform;
use crate::platform::worker::Workers;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// How the making of a day's post went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Made {
    /// It is in the chat: this message (attached by the flow).
    Posted(MessageRef),
    /// Not made and never to be (a refusal that would only repeat, a place that is no chat
    /// of the platform, a puzzle that cannot be drawn).
    Never,
    /// Failed in a way that may pass: tried again later.
    Later,
}

/// What an adapter does for a chat's daily post: each call sends or edits one message in
/// its platform's words (the board from the solver's side, the day's count, the Solve
/// button), waiting out its own limits (the calls come from the chat's worker, never from
/// a shared loop).
pub trait DailyOutlet: Send + Sync + 'static {
    /// The platform whose chats this outlet serves.
    fn platform(&self) -> Platform;
    /// Posts the day's puzzle of `news` in its place (`news.post.place`), in `news.lang`;
    /// the message it made.
    fn post(&self, news: &DailyNews) -> impl Future<Output = Made> + Send;
    /// Draws `message`, the day's post, again with the count of `news`.
    fn redraw(&self, news: &DailyNews, message: &MessageRef)
        -> impl Future<Output = Posted> + Send;
}

/// Folds `new` into the news waiting for a chat's worker; whether it changed anything. A
/// post to make stays to make (with the newest count of its day); a newer count replaces
/// an older one; an older day's news, or an older count of the same day, is no news.
pub fn merge(waiting: &mut Option<DailyNews>, new: DailyNews) -> bool {
    let Some(old) = waiting.as_mut() else {
        *waiting = Some(new);
        return true;
    };
    if new.daily.day < old.daily.day {
        return false;
    }
    let same_day = new.daily.day == old.daily.day;
    let fresh = new.fresh || (same_day && old.fresh);
    if same_day && new.daily.count.tried < old.daily.count.tried {
        // A count read before the waiting one: kept out. A claim is the newest word on
        // where the post goes.
        if !new.fresh {
            return false;
        }
        old.post = new.post;
        old.fresh = true;
        return true;
    }
    *old = DailyNews { fresh, ..new };
    true
}

/// What a chat's worker last showed: the post it made or drew, and the count on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    pub message: MessageRef,
    pub day: i64,
    /// The attempts counted on it (a day's count only grows: its version).
    pub tried: u32,
    pub lang: crate::i18n::Lang,
    /// Kept by the manager (`Manager::attach_daily_post`); a post made and not attached
    /// is attached on the next try, not made again.
    pub attached: bool,
}

impl Shown {
    fn of(news: &DailyNews, message: MessageRef, attached: bool) -> Shown {
        Shown {
            message,
            day: news.daily.day,
            tried: news.daily.count.tried,
            lang: news.lang,
            attached,
        }
    }

    /// Whether `message` shows `news` already, or a newer count of its day: a redraw
    /// would show nothing new.
    pub fn covers(&self, news: &DailyNews, message: &MessageRef) -> bool {
        self.message == *message
            && self.day == news.daily.day
            && self.lang == news.lang
            && news.daily.count.tried <= self.tried
    }

    /// The post of `news`'s day this worker made and could not attach, if any.
    fn unattached(&self, news: &DailyNews) -> Option<&MessageRef> {
        (!self.attached && self.day == news.daily.day).then_some(&self.message)
    }
}

/// Pauses before each new attempt at what failed in a way that may pass (after the
/// adapter's own retries); news cuts a pause short. A post still not made after them is
/// left to the manager's next claim (`RECLAIM_SECS`).
const BACKOFF: [Duration; 4] = [
    Duration::from_secs(2),
    Duration::from_secs(10),
    Duration::from_secs(60),
    Duration::from_secs(300),
];

/// A chat's worker with no news for this long ends (and forgets what it showed).
const LINGER: Duration = Duration::from_secs(60);

/// The daily posts of one adapter: a worker per chat with news.
pub struct Flow<O: DailyOutlet> {
    outlet: Arc<O>,
    manager: Manager,
    workers: Workers<Option<DailyNews>>,
    pauses: &'static [Duration],
}

impl<O: DailyOutlet> Clone for Flow<O> {
    fn clone(&self) -> Self {
        Flow {
            outlet: self.outlet.clone(),
            manager: self.manager.clone(),
            workers: self.workers.clone(),
            pauses: self.pauses,
        }
    }
}

impl<O: DailyOutlet> Flow<O> {
    pub fn new(outlet: Arc<O>, manager: Manager, label: &'static str) -> Self {
        Flow {
            outlet,
            manager,
            workers: Workers::new(label),
            pauses: &BACKOFF,
        }
    }

    /// Hands a chat's news to its worker (started if there is none). Chats of other
    /// platforms are not this outlet's.
    pub fn push(&self, news: DailyNews) {
        if news.post.chat.platform != self.outlet.platform() {
            return;
        }
        let key = news.post.chat.key();
        let fold = |waiting: &mut Option<DailyNews>, new: Option<DailyNews>| match new {
            Some(new) => merge(waiting, new),
            None => false,
        };
        if let Some(rx) = self.workers.merge(&key, Some(news), fold) {
            let work = self.clone().work(key.clone(), rx);
            self.workers.spawn(key, work);
        }
    }

    /// Chats with a worker now.
    pub fn chats(&self) -> usize {
        self.workers.len()
    }

    async fn work(self, key: String, mut rx: watch::Receiver<Option<DailyNews>>) {
        let mut shown: Option<Shown> = None;
        let mut pauses = self.pauses.iter();
        let mut left: Option<DailyNews> = None;
        loop {
            let mut news = left.take();
            if let Some(new) = self.workers.take(&key, &mut rx) {
                merge(&mut news, new);
            }
            if let Some(news) = news {
                if self.show(&news, &mut shown).await.later() {
                    if let Some(pause) = pauses.next() {
                        tracing::info!(
                            chat = key,
                            after_secs = pause.as_secs(),
                            "will show the daily post again"
                        );
                        left = Some(news);
                        tokio::select! {
                            () = tokio::time::sleep(*pause) => {}
                            changed = rx.changed() => if changed.is_err() { return; }
                        }
                        continue;
                    }
                    tracing::warn!(chat = key, "gave up on a daily post");
                }
            }
            pauses = self.pauses.iter();
            if !self.workers.next(&key, &mut rx, LINGER).await {
                tracing::debug!(chat = key, "daily post up to date");
                return;
            }
        }
    }

    /// Makes the day's post or redraws it; `Later` when that is to be tried again.
    async fn show(&self, news: &DailyNews, shown: &mut Option<Shown>) -> Posted {
        match news.fresh {
            true => self.make(news, shown).await,
            false => self.redraw(news, shown).await,
        }
    }

    /// Posts the day's puzzle (unless this worker posted it already) and attaches it.
    async fn make(&self, news: &DailyNews, shown: &mut Option<Shown>) -> Posted {
        let made = shown.as_ref().and_then(|s| s.unattached(news)).cloned();
        let message = match made {
            Some(message) => message,
            None => {
                if let Some(verdict) = self.claim_lost(news).await {
                    return verdict;
                }
                match self.outlet.post(news).await {
                    Made::Posted(message) => {
                        *shown = Some(Shown::of(news, message.clone(), false));
                        message
                    }
                    Made::Never => return Posted::Done,
                    Made::Later => return Posted::Later,
                }
            }
        };
        let chat = news.post.chat.key();
        let day = news.daily.day;
        match self
            .manager
            .attach_daily_post(&news.post.chat, day, message)
            .await
        {
            Ok(()) => {
                if let Some(s) = shown.as_mut() {
                    s.attached = true;
                }
                tracing::info!(chat, puzzle = news.daily.puzzle.id, "daily puzzle posted");
                Posted::Done
            }
            Err(error) if error.is_storage() => {
                tracing::warn!(chat, %error, "daily post not attached yet");
                Posted::Later
            }
            Err(error) => {
                tracing::warn!(chat, %error, "daily post not attached");
                Posted::Done
            }
        }
    }

    /// `Some` when the claim `news` was made for no longer stands (the post turned off,
    /// posted, or claimed again since): nothing to post (`Done`), or the store could not
    /// say (`Later`).
    async fn claim_lost(&self, news: &DailyNews) -> Option<Posted> {
        let chat = news.post.chat.key();
        let stored = match self.manager.daily_post(&news.post.chat).await {
            Ok(stored) => stored,
            Err(error) if error.is_storage() => {
                tracing::warn!(chat, %error, "daily post not read before posting");
                return Some(Posted::Later);
            }
            Err(error) => {
                tracing::warn!(chat, %error, "daily post not read before posting");
                return Some(Posted::Done);
            }
        };
        let stands = stored.is_some_and(|p| {
            p.last_day == Some(news.daily.day)
                && p.claimed_at == news.post.claimed_at
                && p.message.is_none()
        });
        if stands {
            return None;
        }
        tracing::info!(
            chat,
            "daily post claimed again or turned off: not posted here"
        );
        Some(Posted::Done)
    }

    /// Redraws the post's count, unless it shows that count (or a newer one) already.
    async fn redraw(&self, news: &DailyNews, shown: &mut Option<Shown>) -> Posted {
        let Some(message) = news.post.message.as_ref() else {
            return Posted::Done;
        };
        if shown.as_ref().is_some_and(|s| s.covers(news, message)) {
            tracing::debug!(chat = news.post.chat.key(), "daily post shows its count");
            return Posted::Done;
        }
        let drawn = self.outlet.redraw(news, message).await;
        if drawn == Posted::Done {
            *shown = Some(Shown::of(news, message.clone(), true));
        }
        drawn
    }
}

#[cfg(test)]
#[path = "daily_tests.rs"]
mod tests;
