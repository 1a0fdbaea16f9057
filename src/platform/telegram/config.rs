//! `[telegram]` in the config file.

/// `[telegram]` settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TelegramConfig {
    /// Whether `toguz run` starts this platform.
    pub enabled: bool,
}
