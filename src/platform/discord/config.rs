//! `[discord]` in the config file.

/// `[discord]` settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DiscordConfig {
    /// Whether `toguz run` starts this platform.
    pub enabled: bool,
}
