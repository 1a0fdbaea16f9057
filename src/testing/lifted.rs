//! Lifting a platform's flood limits in a test, which takes a reason.
//!
//! The fakes (`telegram`, `discord`) and the test bots keep Telegram's and Discord's real
//! limits and the shipped defaults: 20 messages a minute into a Telegram group, about one a
//! second into a private chat, about 30 a second in all; 5 message creates per 5 s in a
//! Discord channel, 50 requests a second in all. A test that is not about those limits and
//! would take minutes under them may lift them, saying why where it asks
//! (`Lifted::because("...")`); a soak never does (tests/architecture.rs checks it).

/// Permission to lift the flood limits, with its reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lifted {
    reason: String,
}

impl Lifted {
    /// The shortest reason taken: a word or two does not say why.
    const SHORTEST: usize = 12;

    /// Lifts the limits for `reason`, which says why the test needs it. Panics on a reason
    /// shorter than a few words (a test bug: the rule is that a lift says why).
    pub fn because(reason: &str) -> Lifted {
        let reason = reason.trim();
        assert!(
            reason.chars().count() >= Self::SHORTEST,
            "a test that lifts the flood limits says why (got {reason:?})"
        );
        Lifted {
            reason: reason.to_string(),
        }
    }

    /// Why the limits are lifted.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

#[cfg(test)]
mod tests {
    use super::Lifted;

    #[test]
    fn a_lift_keeps_its_reason() {
        let lifted = Lifted::because("  forty boards in one group, not about limits ");
        assert_eq!(
            lifted.reason(),
            "forty boards in one group, not about limits"
        );
    }

    #[test]
    #[should_panic(expected = "says why")]
    fn a_lift_without_a_reason_is_refused() {
        Lifted::because("   ");
    }
}
