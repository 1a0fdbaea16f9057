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

/// A secret from the config or the environment (a bot token, a webhook secret). Its `Debug`
/// and `Display` never show the value, so it cannot leak into logs, errors or panics.
#[derive(Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(value.into())
    }
    /// The value, for the one place that must send it (the platform client).
    pub fn expose(&self) -> &str {
        &self.0
    }
    pub fn is_empty(&self) -> bool {
        self.0.trim().is_empty()
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

impl std::fmt::Display for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("***")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_never_print() {
        let s = Secret::new("123456:ABC-token");
        assert_eq!(format!("{s:?} {s}"), "Secret(***) ***");
        assert_eq!(s.expose(), "123456:ABC-token");
    }
}
