//! Discord's rate limits, as the fake enforces them
//! (https://discord.com/developers/docs/topics/rate-limits).
//!
//! - Message creates (`POST /channels/{id}/messages`): 5 per 5 s per channel. Message edits
//!   (`PATCH /channels/{id}/messages/{id}`): 5 per 5 s per channel too, counted apart from
//!   the creates: Discord names both routes by the same bucket hash but keeps a count for
//!   each (discord-api-docs issues 1442 and 8073).
//! - In all: 50 requests a second with the bot's token. Interaction callbacks and the
//!   interaction webhooks (follow-ups, `@original`) are authorised by the interaction's
//!   token and are not bound by it, as Discord documents; the fake does not limit them.
//!
//! Each limit is a window that opens with its first request and resets `span` later, as
//! Discord's buckets do (`x-ratelimit-reset`). Every request that is answered counts, an
//! error too (Discord counts requests, not messages); a request answered 429 does not.
//!
//! Every answer of a limited route carries the bucket's headers (`x-ratelimit-limit`,
//! `-remaining`, `-reset`, `-reset-after`, `-bucket`), which serenity's ratelimiter reads.
//! Over a route's limit: 429 `{"message": "You are being rate limited.", "retry_after": s,
//! "global": false}` with those headers, `retry-after` and `x-ratelimit-scope: user`; over
//! the global one: `"global": true` with `x-ratelimit-global: true` and `x-ratelimit-scope:
//! global`. Nothing is done for a refused request.

use crate::testing::Lifted;
use axum::http::{HeaderMap, HeaderValue};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Message creates (and, apart, edits) per window in one channel.
pub const MESSAGES_PER_WINDOW: u32 = 5;
pub const MESSAGE_WINDOW: Duration = Duration::from_secs(5);
/// Requests a second with the bot's token, in all.
pub const GLOBAL_PER_SECOND: u32 = 50;
/// The bucket hash Discord names the message routes by.
pub const MESSAGE_BUCKET: &str = "80c17d2f203122d936070c88c8d10f33";

/// A limited route, by its major parameter (the channel).
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Route {
    CreateMessage(u64),
    EditMessage(u64),
}

impl Route {
    /// The limited route `method path` is (path without `/api/v10`), if any.
    pub fn of(method: &str, path: &str) -> Option<Route> {
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let channel = |c: &str| c.parse::<u64>().ok();
        match (method, parts.as_slice()) {
            ("POST", ["channels", c, "messages"]) => channel(c).map(Route::CreateMessage),
            ("PATCH", ["channels", c, "messages", _]) => channel(c).map(Route::EditMessage),
            _ => None,
        }
    }
}

/// Whether a request counts against the global limit: everything but what an
/// interaction's token authorises.
pub fn is_global(path: &str) -> bool {
    !(path.starts_with("/interactions/") || path.starts_with("/webhooks/"))
}

/// At most `limit` requests in a window that opens with the first and lasts `span`.
#[derive(Debug)]
struct Window {
    limit: u32,
    span: Duration,
    opened: Option<Instant>,
    used: u32,
}

impl Window {
    fn new(limit: u32, span: Duration) -> Window {
        Window {
            limit,
            span,
            opened: None,
            used: 0,
        }
    }

    /// Closes a window whose span is over at `now`.
    fn roll(&mut self, now: Instant) {
        if self
            .opened
            .is_some_and(|o| now.saturating_duration_since(o) >= self.span)
        {
            self.opened = None;
            self.used = 0;
        }
    }

    /// How long until the window resets (the whole span when none is open).
    fn reset_after(&self, now: Instant) -> Duration {
        match self.opened {
            Some(o) => (o + self.span).saturating_duration_since(now),
            None => self.span,
        }
    }

    /// `None` when a request fits at `now`, else how long until the window resets.
    fn wait(&mut self, now: Instant) -> Option<Duration> {
        self.roll(now);
        (self.used >= self.limit).then(|| self.reset_after(now))
    }

    fn take(&mut self, now: Instant) {
        self.roll(now);
        self.opened.get_or_insert(now);
        self.used += 1;
    }

    fn headers(&self, now: Instant) -> Bucket {
        Bucket {
            limit: self.limit,
            remaining: self.limit.saturating_sub(self.used),
            reset_after: self.reset_after(now),
        }
    }

    fn idle(&mut self, now: Instant) -> bool {
        self.roll(now);
        self.opened.is_none()
    }
}

/// A route's bucket as its headers tell it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bucket {
    pub limit: u32,
    pub remaining: u32,
    pub reset_after: Duration,
}

impl Bucket {
    /// Writes the `x-ratelimit-*` headers of this bucket.
    pub fn write(&self, headers: &mut HeaderMap) {
        let reset_at = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            + self.reset_after;
        set(headers, "x-ratelimit-limit", self.limit.to_string());
        set(headers, "x-ratelimit-remaining", self.remaining.to_string());
        set(
            headers,
            "x-ratelimit-reset",
            format!("{:.3}", reset_at.as_secs_f64()),
        );
        set(
            headers,
            "x-ratelimit-reset-after",
            format!("{:.3}", self.reset_after.as_secs_f64()),
        );
        set(headers, "x-ratelimit-bucket", MESSAGE_BUCKET.to_string());
    }
}

fn set(headers: &mut HeaderMap, name: &'static str, value: String) {
    if let Ok(v) = HeaderValue::from_str(&value) {
        headers.insert(name, v);
    }
}

/// A request the fake answered 429 because it was over a limit.
#[derive(Clone, Debug)]
pub struct Refusal {
    pub method: String,
    pub path: String,
    /// The route whose limit it was over (`None`: the global limit, or a route the fake
    /// does not limit that a test scripted a 429 for).
    pub route: Option<Route>,
    pub global: bool,
    pub retry_after: Duration,
    pub at: Instant,
}

impl Refusal {
    /// A 429 a test scripted (`FakeDiscord::fail_next`, random failures), answered as
    /// Discord's own.
    pub fn scripted(retry_after: f64, global: bool) -> Refusal {
        Refusal {
            method: String::new(),
            path: String::new(),
            route: None,
            global,
            retry_after: Duration::from_secs_f64(retry_after.clamp(0.0, 3600.0)),
            at: Instant::now(),
        }
    }

    pub fn global(&self) -> bool {
        self.global
    }

    /// The 429's body, as Discord sends it.
    pub fn body(&self) -> Value {
        json!({
            "message": "You are being rate limited.",
            "retry_after": (self.retry_after.as_secs_f64() * 1000.0).ceil() / 1000.0,
            "global": self.global(),
        })
    }

    /// The 429's headers, as Discord sends them.
    pub fn write_headers(&self, headers: &mut HeaderMap) {
        let secs = self.retry_after.as_secs_f64().ceil().max(1.0) as u64;
        set(headers, "retry-after", secs.to_string());
        if self.global() {
            set(headers, "x-ratelimit-global", "true".into());
            set(headers, "x-ratelimit-scope", "global".into());
        } else {
            let bucket = Bucket {
                limit: MESSAGES_PER_WINDOW,
                remaining: 0,
                reset_after: self.retry_after,
            };
            bucket.write(headers);
            set(headers, "x-ratelimit-scope", "user".into());
        }
    }
}

/// What a request gets from the limits: on with its route's bucket (for the headers), or
/// refused.
#[derive(Debug)]
pub enum Verdict {
    Go(Option<Bucket>),
    Refused(Refusal),
}

/// Routes whose windows are kept at most before the idle ones are dropped.
const PRUNE_AT: usize = 4096;

/// The fake's rate limits: a window per limited route and channel, one for all.
#[derive(Debug)]
pub struct RateLimits {
    routes: HashMap<Route, Window>,
    global: Window,
    /// Set only with a reason: then nothing is counted, refused or told in headers.
    lifted: Option<Lifted>,
    refusals: Vec<Refusal>,
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits {
            routes: HashMap::new(),
            global: Window::new(GLOBAL_PER_SECOND, Duration::from_secs(1)),
            lifted: None,
            refusals: Vec::new(),
        }
    }
}

impl RateLimits {
    pub fn lift(&mut self, lifted: Lifted) {
        self.lifted = Some(lifted);
    }

    pub fn lifted(&self) -> Option<&Lifted> {
        self.lifted.as_ref()
    }

    /// Checks and counts `method path` at `now`.
    pub fn take(&mut self, method: &str, path: &str, now: Instant) -> Verdict {
        if self.lifted.is_some() {
            return Verdict::Go(None);
        }
        let route = Route::of(method, path);
        let global = is_global(path);
        if global {
            if let Some(wait) = self.global.wait(now) {
                return self.refuse(method, path, None, wait, now);
            }
        }
        if let Some(r) = route {
            if self.routes.len() >= PRUNE_AT {
                self.routes.retain(|_, w| !w.idle(now));
            }
            let window = self
                .routes
                .entry(r)
                .or_insert_with(|| Window::new(MESSAGES_PER_WINDOW, MESSAGE_WINDOW));
            if let Some(wait) = window.wait(now) {
                return self.refuse(method, path, Some(r), wait, now);
            }
            window.take(now);
        }
        if global {
            self.global.take(now);
        }
        Verdict::Go(
            route
                .and_then(|r| self.routes.get(&r))
                .map(|w| w.headers(now)),
        )
    }

    fn refuse(
        &mut self,
        method: &str,
        path: &str,
        route: Option<Route>,
        wait: Duration,
        now: Instant,
    ) -> Verdict {
        let refusal = Refusal {
            method: method.to_string(),
            path: path.to_string(),
            route,
            global: route.is_none(),
            retry_after: wait,
            at: now,
        };
        self.refusals.push(refusal.clone());
        Verdict::Refused(refusal)
    }

    /// Every refused request so far, oldest first.
    pub fn refusals(&self) -> &[Refusal] {
        &self.refusals
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(t0: Instant, secs: f64) -> Instant {
        t0 + Duration::from_secs_f64(secs)
    }

    fn bucket(v: &Verdict) -> Bucket {
        match v {
            Verdict::Go(Some(b)) => *b,
            other => panic!("not a limited route that went on: {other:?}"),
        }
    }

    #[test]
    fn routes_are_named_by_their_channel() {
        assert_eq!(
            Route::of("POST", "/channels/12/messages"),
            Some(Route::CreateMessage(12))
        );
        assert_eq!(
            Route::of("PATCH", "/channels/12/messages/99"),
            Some(Route::EditMessage(12))
        );
        assert_eq!(Route::of("GET", "/channels/12/messages/99"), None);
        assert_eq!(Route::of("POST", "/interactions/1/tok/callback"), None);
        assert!(!is_global("/interactions/1/tok/callback"));
        assert!(!is_global("/webhooks/1/tok/messages/@original"));
        assert!(is_global("/channels/12/messages"));
    }

    #[test]
    fn a_channel_takes_five_creates_then_waits_for_its_window() {
        let t0 = Instant::now();
        let mut limits = RateLimits::default();
        let path = "/channels/7/messages";
        for k in 0..5u32 {
            let v = limits.take("POST", path, at(t0, 0.5 * f64::from(k)));
            let b = bucket(&v);
            assert_eq!((b.limit, b.remaining), (5, 4 - k));
            // The window opened with the first request: it resets 5 s after it.
            let left = 5.0 - 0.5 * f64::from(k);
            assert!((b.reset_after.as_secs_f64() - left).abs() < 1e-6);
        }
        let Verdict::Refused(r) = limits.take("POST", path, at(t0, 3.0)) else {
            panic!("the sixth create in 5 s is refused");
        };
        assert!(!r.global());
        assert!((r.retry_after.as_secs_f64() - 2.0).abs() < 1e-6);
        assert_eq!(r.body()["global"], false);
        assert_eq!(r.body()["retry_after"], 2.0);
        // Another channel, and the edits of this one, count apart.
        assert!(matches!(
            limits.take("POST", "/channels/8/messages", at(t0, 3.0)),
            Verdict::Go(Some(_))
        ));
        assert!(matches!(
            limits.take("PATCH", "/channels/7/messages/1", at(t0, 3.0)),
            Verdict::Go(Some(_))
        ));
        // At 5 s the window resets: five more.
        let b = bucket(&limits.take("POST", path, at(t0, 5.0)));
        assert_eq!(b.remaining, 4);
        assert_eq!(limits.refusals().len(), 1);
    }

    #[test]
    fn fifty_requests_a_second_in_all_and_interactions_are_free() {
        let t0 = Instant::now();
        let mut limits = RateLimits::default();
        for k in 0..50 {
            let v = limits.take("GET", &format!("/channels/{k}/messages/1"), at(t0, 0.01));
            assert!(matches!(v, Verdict::Go(None)), "{v:?}");
        }
        let Verdict::Refused(r) = limits.take("GET", "/users/@me", at(t0, 0.4)) else {
            panic!("the 51st request in a second is refused");
        };
        assert!(r.global());
        assert_eq!(r.body()["global"], true);
        assert!((r.retry_after.as_secs_f64() - 0.61).abs() < 1e-6);
        let mut h = HeaderMap::new();
        r.write_headers(&mut h);
        assert_eq!(h["x-ratelimit-global"], "true");
        assert_eq!(h["retry-after"], "1");
        // An interaction's answer is not held by it.
        let v = limits.take("POST", "/interactions/1/tok/callback", at(t0, 0.5));
        assert!(matches!(v, Verdict::Go(None)));
        // The next second has its 50.
        assert!(matches!(
            limits.take("GET", "/users/@me", at(t0, 1.05)),
            Verdict::Go(None)
        ));
    }

    #[test]
    fn a_refused_request_is_not_counted_and_headers_say_the_bucket() {
        let t0 = Instant::now();
        let mut limits = RateLimits::default();
        for _ in 0..5 {
            limits.take("PATCH", "/channels/3/messages/9", t0);
        }
        for _ in 0..10 {
            assert!(matches!(
                limits.take("PATCH", "/channels/3/messages/9", at(t0, 1.0)),
                Verdict::Refused(_)
            ));
        }
        let b = bucket(&limits.take("PATCH", "/channels/3/messages/9", at(t0, 5.0)));
        assert_eq!(b.remaining, 4, "the refused ones did not count");
        let mut h = HeaderMap::new();
        b.write(&mut h);
        assert_eq!(h["x-ratelimit-limit"], "5");
        assert_eq!(h["x-ratelimit-remaining"], "4");
        assert_eq!(h["x-ratelimit-reset-after"], "5.000");
        assert_eq!(h["x-ratelimit-bucket"], MESSAGE_BUCKET);
        let reset: f64 = h["x-ratelimit-reset"].to_str().unwrap().parse().unwrap();
        assert!(reset > 1.7e9, "an epoch time in seconds");
        let refused = &limits.refusals()[0];
        let mut h = HeaderMap::new();
        refused.write_headers(&mut h);
        assert_eq!(h["x-ratelimit-remaining"], "0");
        assert_eq!(h["x-ratelimit-scope"], "user");
        assert_eq!(h["retry-after"], "4");
    }

    #[test]
    fn lifted_limits_let_everything_through_without_headers() {
        let t0 = Instant::now();
        let mut limits = RateLimits::default();
        limits.lift(Lifted::because("a test that posts on purpose"));
        for _ in 0..100 {
            assert!(matches!(
                limits.take("POST", "/channels/1/messages", t0),
                Verdict::Go(None)
            ));
        }
        assert!(limits.refusals().is_empty());
    }
}
