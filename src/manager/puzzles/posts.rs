//! The daily puzzle posted in a chat every day at an hour its admins chose. Each chat's
//! wish is a record in `Tree::PuzzlePosts`; a tick (every `POST_TICK`) claims each post
//! that is due with one conditional write, so exactly one process posts it, and publishes
//! `Event::DailyPuzzle` for the adapter, which posts and attaches its message. A claim
//! whose message never came (the process stopped in between) is claimed again after
//! `RECLAIM_SECS`. When someone solves or misses the day's puzzle from a chat, the post
//! is redrawn with the new count.

use super::record::PuzzleError;
use super::view::DailyView;
use super::{day_of, DAY_SECS};
use crate::i18n::Lang;
use crate::manager::{ActionError, Event, Manager, MessageRef};
use crate::model::{ChatRef, UserRef};
use crate::store::{Batch, Expect, StoreError, Tree};
use serde::{Deserialize, Serialize};

/// How often due posts are looked for.
pub const POST_TICK: std::time::Duration = std::time::Duration::from_secs(30);
/// A claimed post with no message after this long is claimed again.
pub const RECLAIM_SECS: u64 = 120;

/// A chat's daily post: when, who asked, and the last one made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DailyPost {
    pub chat: ChatRef,
    /// Where in the chat the adapter posts (opaque here: a Telegram chat id, a Discord
    /// channel id).
    pub place: String,
    /// The hour (UTC, 0-23) the puzzle is posted at.
    pub hour: u8,
    pub set_by: UserRef,
    /// The last day claimed for posting, and when.
    pub last_day: Option<i64>,
    pub claimed_at: u64,
    /// The message of `last_day`'s post, once the adapter has posted it.
    pub message: Option<MessageRef>,
}

impl DailyPost {
    /// Whether the post of `now`'s day is due: its hour has come and it was not claimed
    /// today, or its claim is old and left no message.
    pub fn is_due(&self, now: u64) -> bool {
        let today = day_of(now);
        let hour_come = now % DAY_SECS >= u64::from(self.hour) * 3600;
        match self.last_day {
            Some(day) if day == today => {
                self.message.is_none() && now >= self.claimed_at + RECLAIM_SECS
            }
            _ => hour_come,
        }
    }
}

/// A daily post to make or redraw: the chat's post record and the day's puzzle with its
/// count there. `fresh`: a new post is wanted (else the one in `post.message` is redrawn).
#[derive(Clone, Debug, PartialEq)]
pub struct DailyNews {
    pub post: DailyPost,
    pub daily: DailyView,
    pub fresh: bool,
    /// The language of whoever set the post up (as `GameView::langs`): the post speaks it.
    pub lang: Lang,
}

impl Manager {
    /// Sets (or with `None` stops) the chat's daily post at `hour` UTC. Whether `by` may is
    /// the adapter's question (a chat's admins).
    pub async fn set_daily_post(
        &self,
        (chat, place): (&ChatRef, &str),
        by: &UserRef,
        hour: Option<u8>,
    ) -> Result<Option<DailyPost>, ActionError> {
        let key = chat.key();
        let store = &self.inner.store;
        let mut batch = Batch::new();
        let Some(hour) = hour.filter(|h| *h < 24) else {
            batch.delete(Tree::PuzzlePosts, &key);
            store.write(batch).await?;
            return Ok(None);
        };
        // A chat that was posted today keeps that day: the new hour counts from tomorrow.
        let old = store.get::<DailyPost>(Tree::PuzzlePosts, &key).await?;
        let post = DailyPost {
            chat: chat.clone(),
            place: place.to_string(),
            hour,
            set_by: by.clone(),
            last_day: old.as_ref().and_then(|p| p.last_day),
            claimed_at: old.as_ref().map_or(0, |p| p.claimed_at),
            message: old.and_then(|p| p.message),
        };
        batch.put(Tree::PuzzlePosts, &key, &post)?;
        store.write(batch).await?;
        tracing::info!(chat = key, hour, "daily puzzle post set");
        Ok(Some(post))
    }

    /// The chat's daily post, if it has one.
    pub async fn daily_post(&self, chat: &ChatRef) -> Result<Option<DailyPost>, ActionError> {
        let store = &self.inner.store;
        Ok(store.get(Tree::PuzzlePosts, &chat.key()).await?)
    }

    /// Claims every post that is due and publishes it; how many were claimed here.
    pub async fn tick_daily_posts(&self) -> usize {
        let store = &self.inner.store;
        let posts = match store
            .load_all_versioned::<DailyPost>(Tree::PuzzlePosts)
            .await
        {
            Ok(posts) => posts,
            Err(error) => {
                tracing::error!(%error, "cannot read the daily puzzle posts");
                return 0;
            }
        };
        let now = self.now();
        let mut claimed = 0;
        for (key, read) in posts {
            if !read.value.is_due(now) {
                continue;
            }
            match self.claim(&key, read.value, read.revision, now).await {
                Ok(true) => claimed += 1,
                Ok(false) => {}
                Err(error) => tracing::warn!(chat = key, %error, "daily post not claimed"),
            }
        }
        claimed
    }

    /// Claims one post for today; false when another process was first.
    async fn claim(
        &self,
        key: &str,
        mut post: DailyPost,
        revision: u64,
        now: u64,
    ) -> Result<bool, ActionError> {
        post.last_day = Some(day_of(now));
        post.claimed_at = now;
        post.message = None;
        let mut batch = Batch::new();
        batch.put_checked(Tree::PuzzlePosts, key, &post, Expect::Revision(revision))?;
        match self.inner.store.write(batch).await {
            Ok(_) => {}
            Err(StoreError::Conflict { .. }) => return Ok(false),
            Err(e) => return Err(e.into()),
        }
        let daily = self.daily_puzzle(&post.chat).await?;
        tracing::info!(
            chat = key,
            puzzle = daily.puzzle.id,
            "daily puzzle post claimed"
        );
        self.publish_daily(post, daily, true).await;
        Ok(true)
    }

    /// Tells the adapters to make (`fresh`) or redraw a chat's daily post, in the language
    /// of whoever set it up.
    async fn publish_daily(&self, post: DailyPost, daily: DailyView, fresh: bool) {
        let lang = self.lang_of(&post.set_by).await;
        self.publish(Event::DailyPuzzle(DailyNews {
            post,
            daily,
            fresh,
            lang,
        }));
    }

    /// Keeps the message of the chat's post of `day` (its count is redrawn there).
    pub async fn attach_daily_post(
        &self,
        chat: &ChatRef,
        day: i64,
        message: MessageRef,
    ) -> Result<(), ActionError> {
        let store = &self.inner.store;
        let key = chat.key();
        for _ in 0..super::ATTEMPTS {
            let Some(read) = store
                .get_versioned::<DailyPost>(Tree::PuzzlePosts, &key)
                .await?
            else {
                return Err(PuzzleError::Over.into());
            };
            let mut post = read.value;
            if post.last_day != Some(day) {
                return Ok(());
            }
            post.message = Some(message.clone());
            let mut batch = Batch::new();
            let expect = Expect::Revision(read.revision);
            batch.put_checked(Tree::PuzzlePosts, &key, &post, expect)?;
            match store.write(batch).await {
                Ok(_) => return Ok(()),
                Err(StoreError::Conflict { .. }) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(ActionError::StoreAway("daily post kept changing".into()))
    }

    /// After a daily attempt ended in `chat`: the chat's post of `day`, redrawn with the
    /// new count (when there is one).
    pub(super) async fn redraw_daily_post(&self, chat: &ChatRef, day: i64) {
        let post = match self.daily_post(chat).await {
            Ok(Some(post)) if post.last_day == Some(day) && post.message.is_some() => post,
            Ok(_) => return,
            Err(error) => {
                tracing::warn!(%error, "daily post not read for its count");
                return;
            }
        };
        match self.daily_puzzle(chat).await {
            Ok(daily) if daily.day == day => self.publish_daily(post, daily, false).await,
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, "daily count not read"),
        }
    }

    /// The tick every `POST_TICK`, the first one `POST_TICK` after the start: an event
    /// published before the adapters have subscribed would be lost, and its post made only
    /// when the claim is taken again (`RECLAIM_SECS` later).
    pub(crate) fn spawn_daily_poster(&self) {
        let weak = std::sync::Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let first = tokio::time::Instant::now() + POST_TICK;
            let mut ticks = tokio::time::interval_at(first, POST_TICK);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                ticks.tick().await;
                let Some(inner) = weak.upgrade() else { return };
                Manager { inner }.tick_daily_posts().await;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Platform;

    fn post(hour: u8) -> DailyPost {
        DailyPost {
            chat: ChatRef::new(Platform::Telegram, "-1"),
            place: "-1".into(),
            hour,
            set_by: UserRef::new(Platform::Telegram, "1", "A"),
            last_day: None,
            claimed_at: 0,
            message: None,
        }
    }

    #[test]
    fn a_post_is_due_once_a_day_from_its_hour_and_again_if_its_claim_left_nothing() {
        let day = 20_000u64;
        let at = |h: u64, m: u64| day * DAY_SECS + h * 3600 + m * 60;
        let mut p = post(9);
        assert!(!p.is_due(at(8, 59)));
        assert!(p.is_due(at(9, 0)));
        p.last_day = Some(day as i64);
        p.claimed_at = at(9, 0);
        assert!(!p.is_due(at(9, 1)), "just claimed");
        assert!(p.is_due(at(9, 3)), "claimed, never posted: again");
        p.message = Some(MessageRef {
            platform: Platform::Telegram,
            id: "-1:5".into(),
        });
        assert!(!p.is_due(at(23, 0)), "posted today");
        assert!(!p.is_due(at(24, 0) + 3600 * 8), "tomorrow before the hour");
        assert!(p.is_due(at(24, 0) + 3600 * 9));
    }
}
