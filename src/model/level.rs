//! A playing level as a value: its name in commands, the config and records. How a level
//! plays is in `engine`; its names in every language, and reading a typed name
//! (`"сильный".parse::<Level>()`, the `FromStr` impl), are in `i18n::words`.

/// A playing level, named in commands and the config.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    Random,
    Beginner,
    Easy,
    #[default]
    Medium,
    Hard,
    Max,
}

impl Level {
    pub const ALL: [Level; 6] = [
        Level::Random,
        Level::Beginner,
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Max,
    ];

    /// A nominal rating a tournament seeds the level with (its order among players; the
    /// levels are far apart in strength, and these only keep them in that order).
    pub fn seed_rating(self) -> f64 {
        match self {
            Level::Random => 600.0,
            Level::Beginner => 900.0,
            Level::Easy => 1200.0,
            Level::Medium => 1500.0,
            Level::Hard => 1800.0,
            Level::Max => 2100.0,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Beginner => "beginner",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Max => "max",
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no level's, in any language.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown level {0:?} (use random, beginner, easy, medium, hard or max, or its Russian or Kazakh name)"
)]
pub struct UnknownLevel(pub String);
