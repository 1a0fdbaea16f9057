//! `[discord]` in the config file, and its check at start-up.
//!
//! The raw section is what serde reads; [`DiscordConfig::resolve`] turns it into [`DiscordSettings`]
//! (token taken from `DISCORD_TOKEN` when the file has none, every value checked), with errors
//! that name the key and never show the token.

use crate::secret::{self, Secret};
use std::time::Duration;

/// The Activity's application as `[discord]` names it, checked: what `toguz run` makes the
/// pages' Discord sign-in of (`platform::web::signin::discord::DiscordSignIn`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActivityApp {
    /// The application's id, Discord's OAuth2 client id.
    pub client_id: u64,
    pub client_secret: Secret,
    /// `https://discord.com`, or `proxy_url`; without a trailing slash.
    pub api_base: String,
    /// How long each call to Discord may take (`request_timeout_secs`).
    pub timeout: Duration,
}

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
    /// The game page as a Discord Activity (issue 50, docs/web.md): `/activity` launches it,
    /// and the web server signs players in through Discord's OAuth2. Needs
    /// `application_id`, `client_secret` and `[web]` on at the URL mapping's address.
    pub activity: bool,
    /// The application's OAuth2 client secret (Developer Portal, OAuth2); when absent,
    /// `DISCORD_CLIENT_SECRET` is used.
    pub client_secret: Option<Secret>,
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
            activity: false,
            client_secret: None,
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
    /// Whether the Activity is set up: `/activity` answers with LAUNCH_ACTIVITY.
    pub activity: bool,
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
    #[error("discord.activity needs discord.application_id (the Activity's OAuth2 client id)")]
    ActivityApplication,
    #[error("discord.activity needs discord.client_secret: put it in [discord] or in the DISCORD_CLIENT_SECRET environment variable")]
    MissingClientSecret,
}

impl DiscordConfig {
    /// Checks the section; `env_token` is the value of `DISCORD_TOKEN`, used when the file has
    /// no token.
    pub fn resolve(
        &self,
        env_token: Option<String>,
    ) -> Result<DiscordSettings, DiscordConfigError> {
        self.resolve_with(env_token, None)
    }

    /// [`DiscordConfig::resolve`], with `env_secret` the value of `DISCORD_CLIENT_SECRET`
    /// (the Activity's sign-in is checked too when `activity` is on).
    pub fn resolve_with(
        &self,
        env_token: Option<String>,
        env_secret: Option<String>,
    ) -> Result<DiscordSettings, DiscordConfigError> {
        self.activity_sign_in(env_secret)?;
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
            activity: self.activity,
        })
    }

    /// What the web server needs to sign players in from the Activity (`None` when
    /// `activity` is off): the application's id and secret (`env_secret`: the value of
    /// `DISCORD_CLIENT_SECRET`, used when the file has none) and Discord's address. The
    /// bot token is not needed for it.
    pub fn activity_sign_in(
        &self,
        env_secret: Option<String>,
    ) -> Result<Option<ActivityApp>, DiscordConfigError> {
        if !self.activity {
            return Ok(None);
        }
        let client_id = match self.application_id {
            Some(0) => return Err(DiscordConfigError::ApplicationId),
            Some(id) => id,
            None => return Err(DiscordConfigError::ActivityApplication),
        };
        let client_secret = secret::resolve_token(self.client_secret.as_ref(), env_secret)
            .ok_or(DiscordConfigError::MissingClientSecret)?;
        if !(1..=120).contains(&self.request_timeout_secs) {
            return Err(DiscordConfigError::Timeout);
        }
        let api_base = match &self.proxy_url {
            Some(url) => check_proxy(url)?,
            None => "https://discord.com".to_string(),
        };
        Ok(Some(ActivityApp {
            client_id,
            client_secret,
            api_base,
            timeout: Duration::from_secs(self.request_timeout_secs),
        }))
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
    fn the_activity_needs_the_application_id_and_the_client_secret() {
        let section = |extra: &str| parse(&format!("token = \"{TOKEN}\"\n{extra}")).unwrap();
        let off = section("");
        assert_eq!(off.activity_sign_in(Some("s".into())).unwrap(), None);
        assert!(!off.resolve(None).unwrap().activity);

        let no_app = section("activity = true\nclient_secret = \"s3cret-value\"");
        let err = no_app.resolve(None).unwrap_err();
        assert_eq!(err, DiscordConfigError::ActivityApplication);
        assert!(err.to_string().contains("discord.application_id"));

        let no_secret = section("activity = true\napplication_id = 42");
        let err = no_secret.resolve_with(None, None).unwrap_err();
        assert_eq!(err, DiscordConfigError::MissingClientSecret);
        assert!(err.to_string().contains("DISCORD_CLIENT_SECRET"));
        assert_eq!(
            no_secret.resolve_with(None, Some("  ".into())).unwrap_err(),
            DiscordConfigError::MissingClientSecret
        );

        // From the environment, or the file's (which wins); the API base is the proxy's.
        let from_env = no_secret
            .activity_sign_in(Some("env-secret-123".into()))
            .unwrap()
            .unwrap();
        assert_eq!(from_env.client_id, 42);
        assert_eq!(from_env.client_secret.expose(), "env-secret-123");
        assert_eq!(from_env.api_base, "https://discord.com");
        assert_eq!(from_env.timeout, Duration::from_secs(10));
        let full = section(
            "activity = true\napplication_id = 42\nclient_secret = \"file-secret-456\"\n\
             proxy_url = \"http://127.0.0.1:9000/\"",
        );
        let signin = full.activity_sign_in(Some("env".into())).unwrap().unwrap();
        assert_eq!(signin.client_secret.expose(), "file-secret-456");
        assert_eq!(signin.api_base, "http://127.0.0.1:9000");
        assert!(full.resolve(None).unwrap().activity);
        // Never shown.
        assert!(!format!("{full:?} {signin:?}").contains("file-secret-456"));
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
