//! The per-user command limit every chat adapter applies (issue 31, item 12): one policy,
//! one setting (`[limits] commands_per_minute`), so a lookup that costs the store something
//! (`/review`, `/leaderboard`, `/history`, `/board`, `/record`) is limited alike on
//! Telegram and Discord. Counted in this process's memory: a user is limited per process.

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::hash::Hash;
use std::num::NonZeroU32;

/// What to do with a user's command.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Go,
    /// Over the limit: say so, once.
    Warn,
    /// Over the limit and already told.
    Ignore,
}

/// Commands per user: a burst of `per_minute`, then `per_minute` a minute. A user over it
/// is told once a minute at most. `K` is how the adapter knows a sender (a Telegram user or
/// chat id, a Discord user id).
pub struct CommandLimit<K: Hash + Eq + Clone> {
    per_user: DefaultKeyedRateLimiter<K>,
    warned: DefaultKeyedRateLimiter<K>,
}

/// `per_minute` a minute with bursts of `burst` (both at least 1).
fn quota(per_minute: u32, burst: u32) -> Quota {
    let rate = NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN);
    let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
    Quota::per_minute(rate).allow_burst(burst)
}

impl<K: Hash + Eq + Clone> CommandLimit<K> {
    pub fn new(per_minute: u32) -> CommandLimit<K> {
        CommandLimit {
            per_user: RateLimiter::keyed(quota(per_minute, per_minute)),
            warned: RateLimiter::keyed(Quota::per_minute(NonZeroU32::MIN)),
        }
    }

    /// Counts a command of `sender`.
    pub fn check(&self, sender: &K) -> Verdict {
        if self.per_user.check_key(sender).is_ok() {
            Verdict::Go
        } else if self.warned.check_key(sender).is_ok() {
            Verdict::Warn
        } else {
            Verdict::Ignore
        }
    }

    /// Forgets users whose allowance is full again.
    pub fn prune(&self) {
        for limiter in [&self.per_user, &self.warned] {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }

    /// Users with an entry now.
    pub fn users(&self) -> usize {
        self.per_user.len().max(self.warned.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_user_over_the_limit_is_told_once_then_ignored_others_go_on() {
        let limit = CommandLimit::new(3);
        let verdicts: Vec<Verdict> = (0..6).map(|_| limit.check(&1)).collect();
        assert_eq!(
            verdicts,
            [
                Verdict::Go,
                Verdict::Go,
                Verdict::Go,
                Verdict::Warn,
                Verdict::Ignore,
                Verdict::Ignore
            ]
        );
        assert_eq!(limit.check(&2), Verdict::Go);
    }

    #[test]
    fn users_whose_allowance_is_full_again_are_forgotten() {
        let limit = CommandLimit::new(60_000);
        for user in 0..500 {
            assert_eq!(limit.check(&user), Verdict::Go);
        }
        assert_eq!(limit.users(), 500);
        std::thread::sleep(Duration::from_millis(20));
        limit.prune();
        assert_eq!(limit.users(), 0);
    }
}
