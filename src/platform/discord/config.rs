//! `[discord]` in the config file, and its check at start-up.
//!
//! The raw section is what serde reads; [`DiscordConfig::resolve`] turns it into [`DiscordSettings`]
//! (token taken from `DISCORD_TOKEN` when the file has none, every value checked), with errors
//! that name the key and never show the token.

use crate::secret::{self, Secret};
use std::time::Duration;

/// `[discord]` settings as written in the config file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DiscordConfig {
    /// Whether `toguz run` starts this platform.
    pub enabled: bool,
    /// The bot token; when absent, `DISCORD_TOKEN` is used.
    pub token: Option<Secret>,
    /// The application id; normally learned from READY, set it to skip the wait.
    pub application_id: Option<u64>,
    /// Register the slash commands in this guild only (instant updates while developing)
    /// instead of globally.
    pub dev_guild_id: Option<u64>,
    /// Base URL that replaces `https://discord.com` for REST calls (an API proxy).
    pub proxy_url: Option<String>,
    /// How the player to move is told: `mention` in the game message, a short separate
    /// `message`, or `none`.
    pub mention: MentionStyle,
    /// `"auto"` (Discord's recommended count) or a fixed range `{ first, last, total }`.
    pub shards: ShardsSetting,
    /// Seconds a REST call may take before it is retried.
    pub request_timeout_secs: u64,
    /// How often a failed REST call (429, 5xx, time-out) is retried.
    pub max_retries: u32,
    /// Seconds a member waits between two challenges (against spam; the per-member and
    /// per-guild limits on open challenges are `[limits]`).
    pub challenge_cooldown_secs: u64,
}

impl Default for DiscordConfig {
    fn default() -> Self {
        DiscordConfig {
            enabled: false,
            token: None,
            application_id: None,
            dev_guild_id: None,
            proxy_url: None,
            mention: MentionStyle::Mention,
            shards: ShardsSetting::default(),
            request_timeout_secs: 10,
            max_retries: 3,
            challenge_cooldown_secs: 30,
        }
    }
}

/// How the player to move is told it is their turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MentionStyle {
    /// The game message's content mentions the player.
    #[default]
    Mention,
    /// A short separate message mentions the player (a ping every move).
    Message,
    /// Nobody is pinged; the embed still says whose turn it is.
    None,
}

/// `shards = "auto"` or `shards = { first = 0, last = 3, total = 8 }`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(untagged)]
pub enum ShardsSetting {
    Named(String),
    Range { first: u32, last: u32, total: u32 },
}

impl Default for ShardsSetting {
    fn default() -> Self {
        ShardsSetting::Named("auto".into())
    }
}

/// Which shards this process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shards {
    /// As many as Discord recommends (GET /gateway/bot).
    Auto,
    /// Shards `first..=last` of `total`.
    Range { first: u32, last: u32, total: u32 },
}

/// The checked `[discord]` section, ready to start the client.
#[derive(Clone, Debug)]
pub struct DiscordSettings {
    pub token: Secret,
    pub application_id: Option<u64>,
    pub dev_guild_id: Option<u64>,
    /// Without a trailing slash.
    pub proxy_url: Option<String>,
    pub mention: MentionStyle,
    pub shards: Shards,
    pub request_timeout: Duration,
    pub max_retries: u32,
    pub challenge_cooldown: Duration,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiscordConfigError {
    #[error("discord.token is not set: put it in [discord] or in the DISCORD_TOKEN environment variable")]
    MissingToken,
    #[error("discord.token (or DISCORD_TOKEN) is not a Discord bot token: expected three parts separated by dots")]
    MalformedToken,
    #[error("discord.application_id must be a Discord id (a positive number)")]
    ApplicationId,
    #[error("discord.dev_guild_id must be a Discord id (a positive number)")]
    DevGuildId,
    #[error("discord.proxy_url must be an http:// or https:// URL without a query, got {0:?}")]
    ProxyUrl(String),
    #[error("discord.shards must be \"auto\" or {{ first, last, total }}, got {0:?}")]
    ShardsName(String),
    #[error(
        "discord.shards: need first <= last < total, got first={first}, last={last}, total={total}"
    )]
    ShardsRange { first: u32, last: u32, total: u32 },
    #[error("discord.request_timeout_secs must be between 1 and 120")]
    Timeout,
    #[error("discord.max_retries must be at most 10")]
    Retries,
}

impl DiscordConfig {
    /// Checks the section; `env_token` is the value of `DISCORD_TOKEN`, used when the file has
    /// no token.
    pub fn resolve(
        &self,
        env_token: Option<String>,
    ) -> Result<DiscordSettings, DiscordConfigError> {
        let token = secret::resolve_token(self.token.as_ref(), env_token)
            .ok_or(DiscordConfigError::MissingToken)?;
        let token = Secret::new(token.expose().trim_start_matches("Bot ").trim());
        serenity::utils::token::validate(token.expose())
            .map_err(|_| DiscordConfigError::MalformedToken)?;
        if self.application_id == Some(0) {
            return Err(DiscordConfigError::ApplicationId);
        }
        if self.dev_guild_id == Some(0) {
            return Err(DiscordConfigError::DevGuildId);
        }
        if !(1..=120).contains(&self.request_timeout_secs) {
            return Err(DiscordConfigError::Timeout);
        }
        if self.max_retries > 10 {
            return Err(DiscordConfigError::Retries);
        }
        Ok(DiscordSettings {
            token,
            application_id: self.application_id,
            dev_guild_id: self.dev_guild_id,
            proxy_url: self.proxy_url.as_deref().map(check_proxy).transpose()?,
            mention: self.mention,
            shards: check_shards(&self.shards)?,
            request_timeout: Duration::from_secs(self.request_timeout_secs),
            max_retries: self.max_retries,
            challenge_cooldown: Duration::from_secs(self.challenge_cooldown_secs),
        })
    }
}

fn check_proxy(url: &str) -> Result<String, DiscordConfigError> {
    let trimmed = url.trim().trim_end_matches('/');
    let ok = (trimmed.starts_with("http://") || trimmed.starts_with("https://"))
        && !trimmed.contains(['?', '#', ' '])
        && trimmed
            .split("://")
            .nth(1)
            .is_some_and(|rest| !rest.is_empty());
    if ok {
        Ok(trimmed.to_string())
    } else {
        Err(DiscordConfigError::ProxyUrl(url.to_string()))
    }
}

fn check_shards(setting: &ShardsSetting) -> Result<Shards, DiscordConfigError> {
    match setting {
        ShardsSetting::Named(name) if name.eq_ignore_ascii_case("auto") => Ok(Shards::Auto),
        ShardsSetting::Named(name) => Err(DiscordConfigError::ShardsName(name.clone())),
        &ShardsSetting::Range { first, last, total } => {
            if first <= last && last < total {
                Ok(Shards::Range { first, last, total })
            } else {
                Err(DiscordConfigError::ShardsRange { first, last, total })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB";

    fn parse(text: &str) -> Result<DiscordConfig, toml::de::Error> {
        toml::from_str(text)
    }

    #[test]
    fn defaults_are_safe() {
        let c = parse("").unwrap();
        assert!(!c.enabled);
        assert_eq!(c.mention, MentionStyle::Mention);
        let s = c.resolve(Some(TOKEN.into())).unwrap();
        assert_eq!(s.shards, Shards::Auto);
        assert_eq!(s.token.expose(), TOKEN);
        assert_eq!(s.request_timeout, Duration::from_secs(10));
        assert!(s.proxy_url.is_none());
    }

    #[test]
    fn file_token_wins_over_the_environment_and_bot_prefix_is_dropped() {
        let c = parse(&format!("token = \"Bot {TOKEN}\"")).unwrap();
        let s = c.resolve(Some("other.token.value".into())).unwrap();
        assert_eq!(s.token.expose(), TOKEN);
    }

    #[test]
    fn missing_or_malformed_tokens_are_clear_errors_without_the_token() {
        let c = parse("").unwrap();
        assert_eq!(
            c.resolve(None).unwrap_err(),
            DiscordConfigError::MissingToken
        );
        assert_eq!(
            c.resolve(Some("  ".into())).unwrap_err(),
            DiscordConfigError::MissingToken
        );
        let err = c.resolve(Some("not-a-token-secret".into())).unwrap_err();
        assert_eq!(err, DiscordConfigError::MalformedToken);
        let text = err.to_string();
        assert!(text.contains("discord.token") && !text.contains("not-a-token-secret"));
    }

    #[test]
    fn every_option_parses() {
        let c = parse(&format!(
            r#"
            enabled = true
            token = "{TOKEN}"
            application_id = 42
            dev_guild_id = 7
            proxy_url = "http://127.0.0.1:9000/"
            mention = "message"
            shards = {{ first = 2, last = 3, total = 8 }}
            request_timeout_secs = 5
            max_retries = 2
            challenge_cooldown_secs = 0
            "#
        ))
        .unwrap();
        let s = c.resolve(None).unwrap();
        assert_eq!(s.application_id, Some(42));
        assert_eq!(s.dev_guild_id, Some(7));
        assert_eq!(s.proxy_url.as_deref(), Some("http://127.0.0.1:9000"));
        assert_eq!(s.mention, MentionStyle::Message);
        assert_eq!(
            s.shards,
            Shards::Range {
                first: 2,
                last: 3,
                total: 8
            }
        );
        assert_eq!(s.max_retries, 2);
        assert_eq!(s.challenge_cooldown, Duration::ZERO);
    }

    #[test]
    fn bad_values_name_their_key() {
        let with = |extra: &str| {
            parse(&format!("token = \"{TOKEN}\"\n{extra}"))
                .unwrap()
                .resolve(None)
                .unwrap_err()
                .to_string()
        };
        assert!(with("proxy_url = \"ftp://x\"").contains("discord.proxy_url"));
        assert!(with("proxy_url = \"http://x/?a=1\"").contains("discord.proxy_url"));
        assert!(with("shards = \"many\"").contains("discord.shards"));
        assert!(with("shards = { first = 3, last = 2, total = 4 }").contains("discord.shards"));
        assert!(with("shards = { first = 0, last = 4, total = 4 }").contains("discord.shards"));
        assert!(with("application_id = 0").contains("discord.application_id"));
        assert!(with("request_timeout_secs = 0").contains("discord.request_timeout_secs"));
        assert!(parse("mention = \"loud\"").is_err());
        assert!(parse("no_such_key = 1").is_err());
    }

    #[test]
    fn the_token_never_shows_in_debug() {
        let c = parse(&format!("token = \"{TOKEN}\"")).unwrap();
        assert!(!format!("{c:?}").contains(TOKEN));
        let s = c.resolve(None).unwrap();
        assert!(!format!("{s:?}").contains(TOKEN));
    }
}

#[cfg(test)]
mod example_tests {
    use super::*;

    /// config.example.toml documents the defaults: its [discord] section must parse to them.
    #[test]
    fn the_example_section_is_the_default() {
        let text = include_str!("../../../config.example.toml");
        let all: toml::Table = toml::from_str(text).unwrap();
        let section = all["discord"].clone();
        let parsed: DiscordConfig = section.try_into().unwrap();
        assert_eq!(parsed, DiscordConfig::default());
    }
}
