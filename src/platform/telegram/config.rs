//! `[telegram]` in the config file.

use crate::secret::{self, Secret};
use std::net::SocketAddr;

/// Telegram's own Bot API server.
pub const DEFAULT_API_URL: &str = "https://api.telegram.org";

/// `[telegram]` settings.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TelegramConfig {
    /// Whether `toguz run` starts this platform.
    pub enabled: bool,
    /// The bot token from @BotFather; empty means "take it from TELEGRAM_TOKEN".
    pub token: Secret,
    /// The Bot API server: Telegram's, or a self-hosted one (tests point it at a fake).
    pub api_url: String,
    /// Edit the board message after every move (true), or post a new one (false).
    pub edit_in_place: bool,
    /// Send a short message to the player whose turn it is (edits do not notify).
    pub notify_turn: bool,
    /// Long-polling timeout in seconds.
    pub poll_timeout_secs: u64,
    /// Board posts (sends and edits) allowed per chat per minute, in private chats.
    pub private_posts_per_minute: u32,
    /// Board posts allowed per chat per minute in groups (Telegram allows about 20).
    pub group_posts_per_minute: u32,
    /// Posts a chat may make at once before the per-minute rate applies.
    pub burst: u32,
    /// Commands one user may give per minute here, instead of `[limits]
    /// commands_per_minute` (which every platform shares); kept for older config files.
    pub commands_per_minute: Option<u32>,
    /// Key that signs the inline challenge buttons; empty: a random key made once and kept
    /// in the store.
    pub button_key: Secret,
    /// Webhook mode; long polling when absent.
    pub webhook: Option<WebhookConfig>,
    /// The Mini App's short name, as made with @BotFather's /newapp (its URL: the pages'
    /// `<public_url>/tg`). With it, a group's board links its game page through the Mini
    /// App (`https://t.me/<bot>/<mini_app>?startapp=<page key>`): groups take no Web App
    /// button. Without it, a plain link.
    pub mini_app: Option<String>,
    /// Seconds a Mini App's launch data is good for signing in on the pages, counted from
    /// when Telegram signed it (`auth_date`).
    pub init_data_max_age: u64,
}

impl Default for TelegramConfig {
    fn default() -> Self {
        TelegramConfig {
            enabled: false,
            token: Secret::default(),
            api_url: DEFAULT_API_URL.to_string(),
            edit_in_place: true,
            notify_turn: true,
            poll_timeout_secs: 10,
            private_posts_per_minute: 60,
            group_posts_per_minute: 20,
            burst: 4,
            commands_per_minute: None,
            button_key: Secret::default(),
            webhook: None,
            mini_app: None,
            init_data_max_age: DEFAULT_INIT_DATA_MAX_AGE,
        }
    }
}

/// `init_data_max_age`'s default: a day.
pub const DEFAULT_INIT_DATA_MAX_AGE: u64 = 86_400;

/// `[telegram.webhook]`: Telegram posts updates to `public_url`; we listen on `listen`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebhookConfig {
    /// The local address the HTTP server binds, e.g. `0.0.0.0:8443`.
    pub listen: String,
    /// The HTTPS URL Telegram posts to (a reverse proxy may forward it to `listen`).
    pub public_url: String,
    /// Telegram sends it in `X-Telegram-Bot-Api-Secret-Token` on every request; requests
    /// without it are refused. 1..256 characters `A-Z a-z 0-9 _ -`.
    pub secret_token: Secret,
    /// Updates received and not yet handled, at most; past it a delivery is refused (503)
    /// and Telegram sends it again later.
    #[serde(default = "default_queue")]
    pub queue: usize,
}

fn default_queue() -> usize {
    1024
}

/// A `[telegram]` setting that cannot work, named by its key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TelegramConfigError {
    #[error("telegram.token is empty and TELEGRAM_TOKEN is not set")]
    MissingToken,
    #[error("telegram.token does not look like a bot token (<digits>:<secret>)")]
    MalformedToken,
    #[error("telegram.api_url {0:?} is not an http(s) URL")]
    ApiUrl(String),
    #[error("telegram.webhook.listen {0:?} is not an address like 0.0.0.0:8443")]
    Listen(String),
    #[error("telegram.webhook.public_url {0:?} is not an http(s) URL")]
    PublicUrl(String),
    #[error("telegram.webhook.secret_token must be 1 to 256 characters A-Z, a-z, 0-9, _ or -")]
    SecretToken,
    #[error("telegram.{0} must be at least 1")]
    Zero(&'static str),
    #[error("telegram.mini_app {0:?} is not a Mini App short name (3 to 30 characters A-Z, a-z, 0-9 or _)")]
    MiniApp(String),
}

/// The settings `serve` runs with, checked.
#[derive(Clone, Debug)]
pub struct Checked {
    pub token: Secret,
    pub api_url: url::Url,
    pub webhook: Option<CheckedWebhook>,
}

#[derive(Clone, Debug)]
pub struct CheckedWebhook {
    pub listen: SocketAddr,
    pub public_url: url::Url,
    pub secret_token: Secret,
    pub queue: usize,
}

impl TelegramConfig {
    /// Checks every setting; the token comes from the config or, when empty there, from
    /// `env_token` (the TELEGRAM_TOKEN variable).
    pub fn check(&self, env_token: Option<String>) -> Result<Checked, TelegramConfigError> {
        let token = secret::resolve_token(Some(&self.token), env_token)
            .ok_or(TelegramConfigError::MissingToken)?;
        let well_formed = token.expose().split_once(':').is_some_and(|(id, secret)| {
            !id.is_empty()
                && id.bytes().all(|b| b.is_ascii_digit())
                && !secret.is_empty()
                && !secret.contains(['/', '?', '#', ' '])
        });
        if !well_formed {
            return Err(TelegramConfigError::MalformedToken);
        }
        let api_url = http_url(self.api_url.trim_end_matches('/'))
            .ok_or_else(|| TelegramConfigError::ApiUrl(self.api_url.clone()))?;
        for (key, value) in [
            ("poll_timeout_secs", self.poll_timeout_secs as u32),
            ("private_posts_per_minute", self.private_posts_per_minute),
            ("group_posts_per_minute", self.group_posts_per_minute),
            ("burst", self.burst),
            ("commands_per_minute", self.commands_per_minute.unwrap_or(1)),
            (
                "init_data_max_age",
                self.init_data_max_age.min(u64::from(u32::MAX)) as u32,
            ),
        ] {
            if value == 0 {
                return Err(TelegramConfigError::Zero(key));
            }
        }
        if let Some(name) = &self.mini_app {
            if !is_mini_app_name(name) {
                return Err(TelegramConfigError::MiniApp(name.clone()));
            }
        }
        let webhook = self
            .webhook
            .as_ref()
            .map(WebhookConfig::check)
            .transpose()?;
        Ok(Checked {
            token,
            api_url,
            webhook,
        })
    }
}

impl WebhookConfig {
    fn check(&self) -> Result<CheckedWebhook, TelegramConfigError> {
        let listen = self
            .listen
            .parse()
            .map_err(|_| TelegramConfigError::Listen(self.listen.clone()))?;
        let public_url = http_url(&self.public_url)
            .ok_or_else(|| TelegramConfigError::PublicUrl(self.public_url.clone()))?;
        let s = self.secret_token.expose();
        let ok = (1..=256).contains(&s.len())
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if !ok {
            return Err(TelegramConfigError::SecretToken);
        }
        if self.queue == 0 {
            return Err(TelegramConfigError::Zero("webhook.queue"));
        }
        Ok(CheckedWebhook {
            listen,
            public_url,
            secret_token: self.secret_token.clone(),
            queue: self.queue,
        })
    }
}

/// Whether `name` can be a Mini App's short name: BotFather takes 3 to 30 characters of
/// letters, digits and underscores (the last part of `t.me/<bot>/<name>`).
pub fn is_mini_app_name(name: &str) -> bool {
    (3..=30).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

fn http_url(text: &str) -> Option<url::Url> {
    let url = url::Url::parse(text).ok()?;
    (matches!(url.scheme(), "http" | "https") && url.host().is_some()).then_some(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<TelegramConfig, toml::de::Error> {
        toml::from_str(text)
    }

    #[test]
    fn defaults_poll_telegram_and_edit_in_place() {
        let c = parse("").unwrap();
        assert!(!c.enabled && c.edit_in_place && c.webhook.is_none());
        assert_eq!(c.api_url, DEFAULT_API_URL);
    }

    #[test]
    fn token_comes_from_config_or_environment() {
        let c = parse("token = '123:abc'").unwrap();
        assert_eq!(c.check(None).unwrap().token.expose(), "123:abc");
        let c = parse("").unwrap();
        assert_eq!(
            c.check(Some("9:xyz".into())).unwrap().token.expose(),
            "9:xyz"
        );
        assert_eq!(
            c.check(None).unwrap_err(),
            TelegramConfigError::MissingToken
        );
        let err = parse("token = 'nonsense-secret'")
            .unwrap()
            .check(None)
            .unwrap_err();
        assert_eq!(err, TelegramConfigError::MalformedToken);
        // The error names the key, never the value.
        assert!(!err.to_string().contains("nonsense"));
    }

    #[test]
    fn webhook_settings_are_checked_by_key() {
        let c = parse(
            "token = '1:a'\n[webhook]\nlisten = '127.0.0.1:8443'\n\
             public_url = 'https://bot.example.org/tg'\nsecret_token = 'abc_DEF-1'",
        )
        .unwrap();
        let w = c.check(None).unwrap().webhook.unwrap();
        assert_eq!(w.listen.port(), 8443);
        let bad = parse(
            "token = '1:a'\n[webhook]\nlisten = 'here'\npublic_url = 'https://x.org'\n\
             secret_token = 's'",
        )
        .unwrap();
        assert!(bad
            .check(None)
            .unwrap_err()
            .to_string()
            .contains("telegram.webhook.listen"));
        let bad = parse(
            "token = '1:a'\n[webhook]\nlisten = '0.0.0.0:1'\npublic_url = 'https://x.org'\n\
             secret_token = 'no spaces allowed'",
        )
        .unwrap();
        assert_eq!(
            bad.check(None).unwrap_err(),
            TelegramConfigError::SecretToken
        );
    }

    #[test]
    fn unknown_keys_and_bad_urls_are_refused() {
        assert!(parse("edit_inplace = true").is_err());
        let c = parse("token = '1:a'\napi_url = 'ftp://x'").unwrap();
        assert!(c.check(None).unwrap_err().to_string().contains("api_url"));
        let c = parse("token = '1:a'\nburst = 0").unwrap();
        assert!(c.check(None).unwrap_err().to_string().contains("burst"));
    }

    #[test]
    fn the_mini_app_and_its_launch_datas_age_are_checked() {
        let c = parse("token = '1:a'").unwrap();
        assert_eq!(c.mini_app, None);
        assert_eq!(c.init_data_max_age, 86_400);
        assert!(c.check(None).is_ok());
        let c = parse("token = '1:a'\nmini_app = 'play_toguz'\ninit_data_max_age = 3600").unwrap();
        assert!(c.check(None).is_ok());
        assert_eq!(c.mini_app.as_deref(), Some("play_toguz"));
        assert_eq!(c.init_data_max_age, 3600);
        for bad in ["", "ab", "has space", "toguz/app", "a-b-c", &"x".repeat(31)] {
            let c = TelegramConfig {
                token: Secret::new("1:a"),
                mini_app: Some(bad.to_string()),
                ..TelegramConfig::default()
            };
            assert_eq!(
                c.check(None).unwrap_err(),
                TelegramConfigError::MiniApp(bad.to_string()),
                "{bad:?}"
            );
        }
        let c = parse("token = '1:a'\ninit_data_max_age = 0").unwrap();
        assert!(c
            .check(None)
            .unwrap_err()
            .to_string()
            .contains("init_data_max_age"));
    }
}
