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
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::manager::puzzles::record::DailyCount;
    use crate::manager::puzzles::{DailyPost, DailyView};
    use crate::manager::{Clock, Event, ManagerConfig};
    use crate::model::{ChatRef, UserRef};
    use crate::puzzle::Puzzle;
    use std::collections::VecDeque;
    use std::sync::Mutex;

    fn chat() -> ChatRef {
        ChatRef::new(Platform::Telegram, "-100")
    }

    fn message(n: u32) -> MessageRef {
        MessageRef {
            platform: Platform::Telegram,
            id: format!("-100:{n}"),
        }
    }

    /// The news of `day` with `tried` attempts counted: a post to make, or a redraw of
    /// `message(1)`.
    fn news(day: i64, tried: u32, fresh: bool) -> DailyNews {
        DailyNews {
            post: DailyPost {
                chat: chat(),
                place: "-100".into(),
                hour: 9,
                set_by: UserRef::new(Platform::Telegram, "1", "Admin"),
                last_day: Some(day),
                claimed_at: 0,
                message: (!fresh).then(|| message(1)),
            },
            daily: DailyView {
                day,
                platform: Platform::Telegram,
                puzzle: Puzzle {
                    id: format!("p{day}"),
                    position: String::new(),
                    solution: "9".into(),
                    themes: Vec::new(),
                    rating: 1200.0,
                    score: 0,
                    gap: 0,
                    depth: 10,
                    effort: 0,
                    game: String::new(),
                },
                count: DailyCount {
                    solved: 0,
                    tried,
                    names: Vec::new(),
                },
            },
            fresh,
            lang: Lang::En,
        }
    }

    fn seen(waiting: &Option<DailyNews>) -> Option<(i64, u32, bool)> {
        waiting
            .as_ref()
            .map(|n| (n.daily.day, n.daily.count.tried, n.fresh))
    }

    #[test]
    fn a_post_to_make_stays_to_make_with_the_newest_count_of_its_day() {
        let mut waiting = None;
        assert!(merge(&mut waiting, news(7, 0, true)));
        assert!(merge(&mut waiting, news(7, 1, false)));
        assert_eq!(seen(&waiting), Some((7, 1, true)));
        // A claim made again (read with an older count) keeps the count, takes its record.
        let mut again = news(7, 0, true);
        again.post.claimed_at = 99;
        assert!(merge(&mut waiting, again));
        assert_eq!(seen(&waiting), Some((7, 1, true)));
        assert_eq!(waiting.as_ref().map(|n| n.post.claimed_at), Some(99));
    }

    #[test]
    fn a_newer_count_replaces_one_not_shown_and_an_older_one_is_no_news() {
        let mut waiting = Some(news(7, 2, false));
        assert!(merge(&mut waiting, news(7, 3, false)));
        assert_eq!(seen(&waiting), Some((7, 3, false)));
        assert!(
            !merge(&mut waiting, news(7, 1, false)),
            "read before the waiting one"
        );
        assert_eq!(seen(&waiting), Some((7, 3, false)));
        assert!(
            merge(&mut waiting, news(7, 3, false)),
            "the same count, read later"
        );
    }

    #[test]
    fn a_new_day_replaces_the_last_and_an_older_day_is_no_news() {
        let mut waiting = Some(news(7, 5, false));
        assert!(merge(&mut waiting, news(8, 0, true)));
        assert_eq!(seen(&waiting), Some((8, 0, true)));
        assert!(!merge(&mut waiting, news(7, 6, false)), "yesterday's count");
        assert_eq!(seen(&waiting), Some((8, 0, true)));
        // Yesterday's post never made: today's is the one that counts.
        let mut waiting = Some(news(7, 0, true));
        assert!(merge(&mut waiting, news(8, 1, false)));
        assert_eq!(seen(&waiting), Some((8, 1, false)));
    }

    #[test]
    fn a_redraw_that_shows_nothing_new_is_skipped() {
        let shown = Shown::of(&news(7, 3, false), message(1), true);
        assert!(
            shown.covers(&news(7, 3, false), &message(1)),
            "the same count"
        );
        assert!(
            shown.covers(&news(7, 2, false), &message(1)),
            "an older count"
        );
        assert!(
            !shown.covers(&news(7, 4, false), &message(1)),
            "a newer count"
        );
        assert!(
            !shown.covers(&news(7, 3, false), &message(2)),
            "another message"
        );
        assert!(
            !shown.covers(&news(8, 0, false), &message(1)),
            "another day"
        );
        let mut other_lang = news(7, 3, false);
        other_lang.lang = Lang::Ru;
        assert!(!shown.covers(&other_lang, &message(1)), "another language");
    }

    /// An outlet that answers as told and notes every call.
    #[derive(Default)]
    struct Script {
        posts: Mutex<VecDeque<Made>>,
        redraws: Mutex<VecDeque<Posted>>,
        calls: Mutex<Vec<String>>,
    }

    impl Script {
        fn calls(&self) -> Vec<String> {
            self.calls.lock().unwrap().clone()
        }
    }

    impl DailyOutlet for Script {
        fn platform(&self) -> Platform {
            Platform::Telegram
        }

        async fn post(&self, news: &DailyNews) -> Made {
            let mut calls = self.calls.lock().unwrap();
            calls.push(format!(
                "post {} {}",
                news.daily.day, news.daily.count.tried
            ));
            let made = calls.iter().filter(|c| c.starts_with("post")).count();
            let answer = self.posts.lock().unwrap().pop_front();
            answer.unwrap_or(Made::Posted(message(made as u32)))
        }

        async fn redraw(&self, news: &DailyNews, message: &MessageRef) -> Posted {
            let call = format!("redraw {} {}", message.id, news.daily.count.tried);
            self.calls.lock().unwrap().push(call);
            self.redraws
                .lock()
                .unwrap()
                .pop_front()
                .unwrap_or(Posted::Done)
        }
    }

    /// 08:00 UTC of day 20,000.
    const T0: u64 = 20_000 * 86_400 + 8 * 3600;

    /// A manager whose chat has its daily post claimed at 09:00, and the news of that claim.
    async fn claimed(dir: &std::path::Path, clock: &Clock) -> (Manager, DailyNews) {
        let store = crate::store::Store::open(dir).expect("a store");
        let engine = crate::engine::EnginePool::new(crate::engine::EngineConfig::default());
        let manager =
            Manager::start_with_clock(store, engine, ManagerConfig::default(), clock.clone())
                .await
                .expect("a manager");
        let admin = UserRef::new(Platform::Telegram, "1", "Admin");
        manager
            .set_daily_post((&chat(), "-100"), &admin, Some(9))
            .await
            .expect("the post set");
        let mut events = manager.subscribe();
        clock.advance(3600);
        assert_eq!(manager.tick_daily_posts().await, 1);
        loop {
            match events.try_recv() {
                Ok(Event::DailyPuzzle(news)) => return (manager, news),
                Ok(_) => continue,
                Err(error) => panic!("no daily news: {error}"),
            }
        }
    }

    fn flow(script: &Arc<Script>, manager: &Manager) -> Flow<Script> {
        const QUICK: [Duration; 2] = [Duration::from_millis(10), Duration::from_millis(10)];
        Flow {
            pauses: &QUICK,
            ..Flow::new(script.clone(), manager.clone(), "test daily")
        }
    }

    /// Waits (at most 30 s, for a loaded machine) until `done` holds.
    async fn until(what: &str, mut done: impl AsyncFnMut() -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        while !done().await {
            assert!(tokio::time::Instant::now() < deadline, "never: {what}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    #[tokio::test]
    async fn a_post_that_failed_is_made_once_attached_and_redrawn_only_with_news() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let clock = Clock::manual(T0);
        let (manager, fresh) = claimed(dir.path(), &clock).await;
        let script = Arc::new(Script::default());
        script.posts.lock().unwrap().push_back(Made::Later);
        let flow = flow(&script, &manager);
        let day = fresh.daily.day;

        flow.push(fresh.clone());
        until("the post attached", async || {
            let post = manager.daily_post(&chat()).await.expect("read");
            post.and_then(|p| p.message) == Some(message(2))
        })
        .await;
        assert_eq!(
            script.calls(),
            [format!("post {day} 0"), format!("post {day} 0")]
        );

        // A redraw with the count it was posted with shows nothing new; a newer count does.
        let mut redraw = fresh.clone();
        redraw.fresh = false;
        redraw.post.message = Some(message(2));
        flow.push(redraw.clone());
        tokio::time::sleep(Duration::from_millis(50)).await;
        redraw.daily.count.tried = 1;
        flow.push(redraw.clone());
        until("the redraw", async || script.calls().len() == 3).await;
        // A redraw that failed in a way that may pass is made again.
        script.redraws.lock().unwrap().push_back(Posted::Later);
        redraw.daily.count.tried = 2;
        flow.push(redraw);
        until("the redraw made again", async || script.calls().len() == 5).await;
        assert_eq!(
            script.calls()[2..],
            ["redraw -100:2 1", "redraw -100:2 2", "redraw -100:2 2"].map(String::from)
        );
        assert_eq!(flow.chats(), 1, "the chat's worker lingers for news");
    }

    #[tokio::test]
    async fn a_post_made_and_not_attached_is_attached_not_made_again() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let clock = Clock::manual(T0);
        let (manager, fresh) = claimed(dir.path(), &clock).await;
        let script = Arc::new(Script::default());
        let flow = flow(&script, &manager);
        let mut shown = Some(Shown::of(&fresh, message(5), false));
        assert_eq!(flow.make(&fresh, &mut shown).await, Posted::Done);
        assert!(script.calls().is_empty(), "{:?}", script.calls());
        let post = manager.daily_post(&chat()).await.expect("read");
        assert_eq!(post.and_then(|p| p.message), Some(message(5)));
        assert!(shown.is_some_and(|s| s.attached));
    }

    #[tokio::test]
    async fn a_claim_taken_again_or_turned_off_is_not_posted() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let clock = Clock::manual(T0);
        let (manager, first) = claimed(dir.path(), &clock).await;
        let script = Arc::new(Script::default());
        let flow = flow(&script, &manager);
        assert_eq!(flow.claim_lost(&first).await, None, "the claim stands");

        // Not posted in time: claimed again, and the first claim's news is stale.
        let mut events = manager.subscribe();
        clock.advance(crate::manager::puzzles::RECLAIM_SECS);
        assert_eq!(manager.tick_daily_posts().await, 1);
        let again = loop {
            match events.try_recv() {
                Ok(Event::DailyPuzzle(news)) => break news,
                Ok(_) => continue,
                Err(error) => panic!("no daily news: {error}"),
            }
        };
        assert_eq!(flow.claim_lost(&first).await, Some(Posted::Done));
        assert_eq!(flow.claim_lost(&again).await, None);

        // Turned off: nothing to post.
        let admin = UserRef::new(Platform::Telegram, "1", "Admin");
        manager
            .set_daily_post((&chat(), "-100"), &admin, None)
            .await
            .expect("turned off");
        let mut shown = None;
        assert_eq!(flow.make(&again, &mut shown).await, Posted::Done);
        assert!(script.calls().is_empty(), "{:?}", script.calls());
    }
}
