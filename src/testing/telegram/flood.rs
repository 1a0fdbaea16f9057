//! Telegram's flood limits, as the fake enforces them: what the Bot API FAQ tells a bot it
//! may send ("My bot is hitting limits, how do I avoid this?").
//!
//! - Into one group, supergroup or channel: at most 20 messages a minute, counted over any
//!   60 s (a sliding window: the strictest reading of "20 messages per minute", and the one
//!   a bot must plan for; a burst does not buy more).
//! - Into one private chat: about one a second, with a short burst of a few (a bucket of
//!   5 refilled at one a second: the shipped bot's own bucket, 60 a minute after a burst of
//!   4, fits inside it with one to spare for the network's jitter).
//! - In all: about 30 a second (a bucket of 30 refilled at 30 a second).
//!
//! What counts: every message the bot posts (sendMessage, sendPhoto, sendDocument) and every
//! edit of one of its messages (editMessageText, -Caption, -Media, -ReplyMarkup). An edited
//! message changes in front of everyone as a new one appears, and Telegram answers edits
//! over the limit with the same 429 (a board edited on every move is what runs a group's
//! budget out). Not counted: deletions, chat actions, answers to callback and inline queries
//! (nothing new appears in the chat), and calls that failed (a 400 or a 429 posted
//! nothing). An edit of an inline message (no chat of the bot's) counts only in all.
//!
//! Over a limit the call is answered as Telegram does, `429 {"ok":false,"error_code":429,
//! "description":"Too Many Requests: retry after N","parameters":{"retry_after":N}}` with N
//! the whole seconds until the call would pass, and nothing is posted. The arithmetic is
//! pure (every function takes the time), so the tests below can walk it.

use crate::testing::Lifted;
use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

/// Messages a minute into one group, supergroup or channel.
pub const GROUP_PER_MINUTE: usize = 20;
/// Messages a second into one private chat, after a burst of `PRIVATE_BURST`.
pub const PRIVATE_PER_SECOND: f64 = 1.0;
pub const PRIVATE_BURST: f64 = 5.0;
/// Messages a second in all, after a burst of as many.
pub const GLOBAL_PER_SECOND: f64 = 30.0;

/// The Bot API methods that post into a chat and so count against its limits.
pub const COUNTED: &[&str] = &[
    "sendMessage",
    "sendPhoto",
    "sendDocument",
    "editMessageText",
    "editMessageCaption",
    "editMessageMedia",
    "editMessageReplyMarkup",
];

/// Where a counted call posts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A group, supergroup or channel (by chat id).
    Group(i64),
    /// A user's private chat with the bot.
    Private(i64),
    /// An inline message: no chat of the bot's, only the overall limit.
    Inline,
}

/// Which limit refused a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// 20 a minute in one group.
    Group,
    /// About one a second in one private chat.
    Private,
    /// About 30 a second in all.
    Global,
}

/// A call the fake answered 429 because it was over a limit.
#[derive(Clone, Debug)]
pub struct Refusal {
    pub method: String,
    /// The chat it would have posted into (`None`: an inline message).
    pub chat: Option<i64>,
    pub limit: Limit,
    /// The `retry_after` it was given, in seconds.
    pub retry_after: u64,
    pub at: Instant,
}

/// At most `limit` events in any `span`.
#[derive(Debug)]
struct Window {
    limit: usize,
    span: Duration,
    times: VecDeque<Instant>,
}

impl Window {
    fn new(limit: usize, span: Duration) -> Window {
        Window {
            limit,
            span,
            times: VecDeque::new(),
        }
    }

    /// Forgets the events that left the window by `now`.
    fn slide(&mut self, now: Instant) {
        while self
            .times
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= self.span)
        {
            self.times.pop_front();
        }
    }

    /// `None` when one more event fits at `now`, else how long until one does (the oldest
    /// counted event leaves the window).
    fn wait(&mut self, now: Instant) -> Option<Duration> {
        self.slide(now);
        if self.times.len() < self.limit {
            return None;
        }
        let oldest = *self.times.front()?;
        Some((oldest + self.span).saturating_duration_since(now))
    }

    fn record(&mut self, now: Instant) {
        self.slide(now);
        self.times.push_back(now);
    }

    fn idle(&mut self, now: Instant) -> bool {
        self.slide(now);
        self.times.is_empty()
    }
}

/// A bucket of `capacity` tokens refilled at `per_second`; an event takes one.
#[derive(Debug)]
struct Bucket {
    capacity: f64,
    per_second: f64,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn full(capacity: f64, per_second: f64, now: Instant) -> Bucket {
        Bucket {
            capacity,
            per_second,
            tokens: capacity,
            at: now,
        }
    }

    fn refill(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.capacity);
        self.at = self.at.max(now);
    }

    /// `None` when a token is there at `now`, else how long until one is.
    fn wait(&mut self, now: Instant) -> Option<Duration> {
        self.refill(now);
        (self.tokens < 1.0).then(|| Duration::from_secs_f64((1.0 - self.tokens) / self.per_second))
    }

    fn take(&mut self, now: Instant) {
        self.refill(now);
        self.tokens -= 1.0;
    }

    fn is_full(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.tokens >= self.capacity
    }
}

/// `retry_after` as Telegram gives it: whole seconds, at least one.
pub fn retry_after(wait: Duration) -> u64 {
    wait.as_secs_f64().ceil().max(1.0) as u64
}

/// Counted posts since this many, the windows of quiet chats are dropped.
const PRUNE_EVERY: u64 = 4096;

/// The fake's flood control: a window per group, a bucket per private chat, one in all.
#[derive(Debug)]
pub struct FloodControl {
    groups: HashMap<i64, Window>,
    private: HashMap<i64, Bucket>,
    global: Bucket,
    /// Set only with a reason (`Lifted`): then nothing is counted or refused.
    lifted: Option<Lifted>,
    refusals: Vec<Refusal>,
    recorded: u64,
}

impl FloodControl {
    pub fn new(now: Instant) -> FloodControl {
        FloodControl {
            groups: HashMap::new(),
            private: HashMap::new(),
            global: Bucket::full(GLOBAL_PER_SECOND, GLOBAL_PER_SECOND, now),
            lifted: None,
            refusals: Vec::new(),
            recorded: 0,
        }
    }

    /// Stops enforcing the limits, for `lifted`'s reason.
    pub fn lift(&mut self, lifted: Lifted) {
        self.lifted = Some(lifted);
    }

    /// Why the limits are lifted, if they are.
    pub fn lifted(&self) -> Option<&Lifted> {
        self.lifted.as_ref()
    }

    /// Checks a call of `method` posting into `target` at `now`: `Err` with the limit and
    /// `retry_after` when it is over one (the refusal is kept for `refusals`).
    pub fn check(
        &mut self,
        method: &str,
        target: Target,
        now: Instant,
    ) -> Result<(), (Limit, u64)> {
        if self.lifted.is_some() {
            return Ok(());
        }
        let chat_wait = match target {
            Target::Group(chat) => self
                .groups
                .get_mut(&chat)
                .and_then(|w| w.wait(now))
                .map(|w| (Limit::Group, w)),
            Target::Private(chat) => self
                .private
                .get_mut(&chat)
                .and_then(|b| b.wait(now))
                .map(|w| (Limit::Private, w)),
            Target::Inline => None,
        };
        let over = chat_wait.or_else(|| self.global.wait(now).map(|w| (Limit::Global, w)));
        let Some((limit, wait)) = over else {
            return Ok(());
        };
        let retry_after = retry_after(wait);
        self.refusals.push(Refusal {
            method: method.to_string(),
            chat: match target {
                Target::Group(c) | Target::Private(c) => Some(c),
                Target::Inline => None,
            },
            limit,
            retry_after,
            at: now,
        });
        Err((limit, retry_after))
    }

    /// Counts a post that went through at `now`.
    pub fn record(&mut self, target: Target, now: Instant) {
        if self.lifted.is_some() {
            return;
        }
        match target {
            Target::Group(chat) => self
                .groups
                .entry(chat)
                .or_insert_with(|| Window::new(GROUP_PER_MINUTE, Duration::from_secs(60)))
                .record(now),
            Target::Private(chat) => self
                .private
                .entry(chat)
                .or_insert_with(|| Bucket::full(PRIVATE_BURST, PRIVATE_PER_SECOND, now))
                .take(now),
            Target::Inline => {}
        }
        self.global.take(now);
        self.recorded += 1;
        if self.recorded % PRUNE_EVERY == 0 {
            self.groups.retain(|_, w| !w.idle(now));
            self.private.retain(|_, b| !b.is_full(now));
        }
    }

    /// Every call refused so far, oldest first.
    pub fn refusals(&self) -> &[Refusal] {
        &self.refusals
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    /// Posts into `target` at `now` if it may; the refusal's retry_after otherwise.
    fn post(f: &mut FloodControl, target: Target, now: Instant) -> Result<(), (Limit, u64)> {
        f.check("sendMessage", target, now)?;
        f.record(target, now);
        Ok(())
    }

    #[test]
    fn a_group_takes_twenty_in_any_minute_and_says_when_the_oldest_leaves() {
        let t0 = Instant::now();
        let mut f = FloodControl::new(t0);
        let group = Target::Group(-1);
        // One every half second: 20 in the first 9.5 s.
        for i in 0..20 {
            post(&mut f, group, t0 + secs(0.5 * i as f64)).expect("within the budget");
        }
        // The 21st, at 10 s, waits until the first (at 0 s) is a minute old: 50 s.
        let at = t0 + secs(10.0);
        assert_eq!(post(&mut f, group, at), Err((Limit::Group, 50)));
        // A fraction rounds up: at 10.2 s it is 49.8 s, so retry after 50.
        assert_eq!(
            post(&mut f, group, t0 + secs(10.2)),
            Err((Limit::Group, 50))
        );
        // Just before the minute it is still one second; at the minute the first left.
        assert_eq!(post(&mut f, group, t0 + secs(59.9)), Err((Limit::Group, 1)));
        post(&mut f, group, t0 + secs(60.0)).expect("the first post left the window");
        // Only one left: the next waits for the post made at 0.5 s.
        assert_eq!(post(&mut f, group, t0 + secs(60.1)), Err((Limit::Group, 1)));
        post(&mut f, group, t0 + secs(60.5)).expect("the second left too");
        // Refusals are kept, with their chat and limit.
        let refused = f.refusals();
        assert_eq!(refused.len(), 4);
        assert!(refused
            .iter()
            .all(|r| r.chat == Some(-1) && r.limit == Limit::Group));
        assert_eq!(refused[0].retry_after, 50);
    }

    #[test]
    fn a_burst_does_not_buy_a_group_more_than_twenty_a_minute() {
        // A bot's bucket of 20 a minute after a burst of 4 sends 23 in its first minute (4
        // at once, then one every 3 s): the 21st is refused.
        let t0 = Instant::now();
        let mut f = FloodControl::new(t0);
        let group = Target::Group(-7);
        let mut times: Vec<f64> = vec![0.0; 4];
        times.extend((1..=19).map(|k| 3.0 * k as f64));
        let refused: Vec<f64> = times
            .iter()
            .filter(|&&t| post(&mut f, group, t0 + secs(t)).is_err())
            .copied()
            .collect();
        assert_eq!(refused, vec![51.0, 54.0, 57.0]);
    }

    #[test]
    fn groups_count_apart_and_other_methods_are_not_counted_here() {
        let t0 = Instant::now();
        let mut f = FloodControl::new(t0);
        for i in 0..20 {
            post(&mut f, Target::Group(-1), t0 + secs(0.1 * i as f64)).expect("first group");
        }
        post(&mut f, Target::Group(-2), t0 + secs(2.5)).expect("another group has its own");
        assert!(post(&mut f, Target::Group(-1), t0 + secs(2.6)).is_err());
        assert!(!COUNTED.contains(&"deleteMessage"));
        assert!(!COUNTED.contains(&"answerCallbackQuery"));
        assert!(COUNTED.contains(&"editMessageMedia"));
    }

    #[test]
    fn a_private_chat_bursts_five_then_takes_one_a_second() {
        let t0 = Instant::now();
        let mut f = FloodControl::new(t0);
        let chat = Target::Private(42);
        for _ in 0..5 {
            post(&mut f, chat, t0).expect("the burst");
        }
        assert_eq!(post(&mut f, chat, t0), Err((Limit::Private, 1)));
        assert_eq!(post(&mut f, chat, t0 + secs(0.6)), Err((Limit::Private, 1)));
        post(&mut f, chat, t0 + secs(1.0)).expect("a token a second");
        assert!(post(&mut f, chat, t0 + secs(1.5)).is_err());
        // The shipped bot's pace (a burst of 4, then one a second) is never refused.
        let mut f = FloodControl::new(t0);
        let paced = (0..4).map(|_| 0.0).chain((1..=30).map(|k| k as f64));
        for t in paced {
            post(&mut f, chat, t0 + secs(t)).expect("the bot's own pace fits");
        }
    }

    #[test]
    fn all_chats_together_take_about_thirty_a_second() {
        let t0 = Instant::now();
        let mut f = FloodControl::new(t0);
        // 30 private chats, one post each, at once: the overall burst.
        for chat in 1..=30 {
            post(&mut f, Target::Private(chat), t0).expect("within 30");
        }
        assert_eq!(
            post(&mut f, Target::Private(31), t0),
            Err((Limit::Global, 1))
        );
        assert_eq!(post(&mut f, Target::Inline, t0), Err((Limit::Global, 1)));
        // A twentieth of a second later there is a token again (one every 33 ms).
        post(&mut f, Target::Inline, t0 + secs(0.05)).expect("refilled");
        assert!(post(&mut f, Target::Inline, t0 + secs(0.06)).is_err());
    }

    #[test]
    fn lifted_limits_count_and_refuse_nothing() {
        let t0 = Instant::now();
        let mut f = FloodControl::new(t0);
        f.lift(Lifted::because("a test that floods on purpose"));
        for _ in 0..1000 {
            post(&mut f, Target::Group(-1), t0).expect("lifted");
        }
        assert!(f.refusals().is_empty());
        assert_eq!(
            f.lifted().map(Lifted::reason),
            Some("a test that floods on purpose")
        );
    }

    #[test]
    fn retry_after_is_whole_seconds_and_at_least_one() {
        assert_eq!(retry_after(Duration::ZERO), 1);
        assert_eq!(retry_after(secs(0.01)), 1);
        assert_eq!(retry_after(secs(1.0)), 1);
        assert_eq!(retry_after(secs(1.001)), 2);
        assert_eq!(retry_after(secs(57.5)), 58);
    }

    #[test]
    fn quiet_chats_are_forgotten() {
        let t0 = Instant::now();
        let mut f = FloodControl::new(t0);
        for chat in 0..PRUNE_EVERY as i64 - 1 {
            f.record(Target::Group(-1 - chat), t0);
        }
        assert_eq!(f.groups.len(), PRUNE_EVERY as usize - 1);
        // A minute later every window is empty: the next count drops them.
        f.record(Target::Private(5), t0 + secs(61.0));
        assert!(f.groups.is_empty());
        assert!(f.private.len() <= 1);
    }
}
