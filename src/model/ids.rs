//! The ids of games and challenges.

/// A short unique id, 6 characters `[a-z0-9]`.
pub type GameId = String;
pub type ChallengeId = String;
