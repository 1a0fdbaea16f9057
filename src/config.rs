//! The config file (TOML). Every option has a default; see config.example.toml.

use crate::engine::EngineConfig;
use crate::platform::discord::config::DiscordConfig;
use crate::platform::telegram::config::TelegramConfig;

/// The whole config file.
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub engine: EngineConfig,
    pub telegram: TelegramConfig,
    pub discord: DiscordConfig,
}
