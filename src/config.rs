//! The config file (TOML). Every option has a default; see config.example.toml.
//!
//! Unknown keys and bad values are errors that name the key (serde's `deny_unknown_fields`
//! and toml's located messages); [`Config::validate`] checks what types cannot.

use crate::engine::EngineConfig;
use crate::manager::{BotConfig, ClockConfig, LimitsConfig, ManagerConfig, ReviewConfig};
use crate::platform::discord::config::{DiscordConfig, DiscordConfigError};
use crate::platform::telegram::config::{TelegramConfig, TelegramConfigError};
use crate::platform::web::config::{WebConfig, WebConfigError};
use crate::store::{Location, PostgresOptions, StoreOptions};
use std::path::{Path, PathBuf};

/// Where secrets used to live; kept so `crate::config::Secret` still names it.
pub use crate::secret::Secret;

/// The whole config file.
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub storage: StorageConfig,
    pub bot: BotConfig,
    pub limits: LimitsConfig,
    pub clock: ClockConfig,
    pub engine: EngineConfig,
    pub review: ReviewConfig,
    pub log: LogConfig,
    pub telegram: TelegramConfig,
    pub discord: DiscordConfig,
    pub puzzles: PuzzlesConfig,
    pub web: WebConfig,
}

/// `[puzzles]`: which collection puzzle play uses.
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PuzzlesConfig {
    /// A collection file made by `toguz puzzle generate` (e.g. from the deployment's own
    /// archive); none: the shipped collection.
    pub collection: Option<PathBuf>,
    /// The file's text, read and checked by `Config::load`.
    #[serde(skip)]
    pub text: Option<std::sync::Arc<str>>,
}

impl PuzzlesConfig {
    /// Reads `path` and checks that it is a collection with at least one puzzle: a deployment
    /// learns of a bad file when it starts, not at a player's first `/puzzle`.
    pub fn read_collection(path: &Path) -> Result<std::sync::Arc<str>, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.display().to_string(),
            source,
        })?;
        let invalid = |message: String| ConfigError::Invalid {
            key: "puzzles.collection",
            message: format!("{}: {message}", path.display()),
        };
        let collection =
            crate::puzzle::Collection::from_text(&text).map_err(|e| invalid(e.to_string()))?;
        if collection.puzzles().is_empty() {
            return Err(invalid("the file holds no puzzle".into()));
        }
        Ok(text.into())
    }
}

/// The environment variable that names the PostgreSQL database (it wins over `url`, so the
/// password need not be written into the config file).
pub const DATABASE_URL_ENV: &str = "TOGUZ_DATABASE_URL";

/// Which store backend `[storage]` uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendKind {
    /// Embedded, in `path`: one process.
    #[default]
    Sled,
    /// A PostgreSQL (or compatible) database at `url`: shared by several processes.
    Postgres,
}

/// `[storage]`: the backend and where it keeps its data, and how long a write may wait to be
/// durable.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StorageConfig {
    pub backend: BackendKind,
    /// sled's directory.
    pub path: PathBuf,
    /// PostgreSQL's `postgres://user:password@host:port/database` (or TOGUZ_DATABASE_URL).
    pub url: Secret,
    /// PostgreSQL connections at most, per process.
    pub pool_size: usize,
    /// PostgreSQL cancels a statement running longer than this, in milliseconds.
    pub statement_timeout_ms: u64,
    /// The longest an action waits for its write to reach the disk before it is refused
    /// (and undone), in milliseconds.
    pub commit_timeout_ms: u64,
    /// PostgreSQL: the longest a read of one record (a game's revision, a player's language
    /// or handle) waits, in milliseconds.
    pub read_timeout_ms: u64,
    /// sled's page cache, in MiB.
    pub cache_capacity_mb: u64,
}

impl Default for StorageConfig {
    fn default() -> Self {
        StorageConfig {
            backend: BackendKind::Sled,
            path: PathBuf::from("toguz-data"),
            url: Secret::default(),
            pool_size: 16,
            statement_timeout_ms: 5000,
            commit_timeout_ms: 2000,
            read_timeout_ms: 1000,
            cache_capacity_mb: 64,
        }
    }
}

impl StorageConfig {
    /// How the store is opened.
    pub fn store_options(&self) -> StoreOptions {
        StoreOptions {
            commit_timeout: std::time::Duration::from_millis(self.commit_timeout_ms),
            read_timeout: std::time::Duration::from_millis(self.read_timeout_ms),
            cache_capacity: self.cache_capacity_mb.saturating_mul(1024 * 1024),
        }
    }

    /// Where the store is: sled's `path`, or the database named by TOGUZ_DATABASE_URL or
    /// `url` (`env_url` is the variable's value, passed in so tests need not set it).
    pub fn location(&self, env_url: Option<String>) -> Result<Location, ConfigError> {
        match self.backend {
            BackendKind::Sled => Ok(Location::Sled(self.path.clone())),
            BackendKind::Postgres => {
                let url = env_url
                    .filter(|u| !u.trim().is_empty())
                    .unwrap_or_else(|| self.url.expose().to_string());
                if url.trim().is_empty() {
                    return Err(ConfigError::Invalid {
                        key: "storage.url",
                        message: format!(
                            "backend \"postgres\" needs a database URL here or in {DATABASE_URL_ENV}"
                        ),
                    });
                }
                let mut pg = PostgresOptions::new(url.trim());
                pg.pool_size = self.pool_size;
                pg.statement_timeout = std::time::Duration::from_millis(self.statement_timeout_ms);
                Ok(Location::Postgres(pg))
            }
        }
    }

    /// `location` with TOGUZ_DATABASE_URL read from the environment.
    pub fn location_from_env(&self) -> Result<Location, ConfigError> {
        self.location(std::env::var(DATABASE_URL_ENV).ok())
    }
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// Human-readable lines.
    #[default]
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

/// `[log]` settings.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LogConfig {
    pub format: LogFormat,
    /// A tracing env-filter (`info`, `toguz=debug,warn`); `RUST_LOG` overrides it.
    pub filter: String,
}

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig {
            format: LogFormat::Text,
            filter: "info".into(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Parse { path: String, message: String },
    #[error("{key}: {message}")]
    Invalid { key: &'static str, message: String },
    #[error(transparent)]
    Telegram(#[from] TelegramConfigError),
    #[error(transparent)]
    Discord(#[from] DiscordConfigError),
    #[error(transparent)]
    Web(#[from] WebConfigError),
}

impl Config {
    /// Reads and checks a config file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.display().to_string(),
            source,
        })?;
        let mut config = Config::parse(&text, &path.display().to_string())?;
        if let Some(file) = &config.puzzles.collection {
            config.puzzles.text = Some(PuzzlesConfig::read_collection(file)?);
        }
        Ok(config)
    }

    /// Parses and checks config text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Config, ConfigError> {
        let config: Config = toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: origin.to_string(),
            message: e.to_string(),
        })?;
        config.validate()?;
        Ok(config)
    }

    /// Checks values that parse but make no sense.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let positive = [
            (
                "limits.challenges_per_user",
                self.limits.challenges_per_user as u64,
            ),
            (
                "limits.challenges_per_chat",
                self.limits.challenges_per_chat as u64,
            ),
            ("limits.games_per_user", self.limits.games_per_user as u64),
            ("limits.games_per_chat", self.limits.games_per_chat as u64),
            (
                "limits.tournaments_per_user",
                self.limits.tournaments_per_user as u64,
            ),
            (
                "limits.tournaments_per_chat",
                self.limits.tournaments_per_chat as u64,
            ),
            (
                "limits.challenge_expiry_secs",
                self.limits.challenge_expiry_secs,
            ),
            ("limits.move_timeout_hours", self.limits.move_timeout_hours),
            (
                "limits.sweep_interval_secs",
                self.limits.sweep_interval_secs,
            ),
            ("engine.max_concurrent", self.engine.max_concurrent as u64),
            ("clock.first_move_secs", self.clock.first_move_secs),
            ("review.running", self.review.running as u64),
            ("storage.commit_timeout_ms", self.storage.commit_timeout_ms),
            ("storage.read_timeout_ms", self.storage.read_timeout_ms),
            ("storage.cache_capacity_mb", self.storage.cache_capacity_mb),
            ("storage.pool_size", self.storage.pool_size as u64),
            (
                "storage.statement_timeout_ms",
                self.storage.statement_timeout_ms,
            ),
        ];
        for (key, value) in positive {
            if value == 0 {
                return Err(ConfigError::Invalid {
                    key,
                    message: "must be at least 1".into(),
                });
            }
        }
        if let Err(e) = self.clock.validate() {
            return Err(ConfigError::Invalid {
                key: "clock",
                message: e.to_string(),
            });
        }
        let nodes = crate::review::MIN_NODES..=crate::review::MAX_NODES;
        if !nodes.contains(&self.review.nodes) {
            return Err(ConfigError::Invalid {
                key: "review.nodes",
                message: format!("must be between {} and {}", nodes.start(), nodes.end()),
            });
        }
        if self.storage.path.as_os_str().is_empty() {
            return Err(ConfigError::Invalid {
                key: "storage.path",
                message: "must not be empty".into(),
            });
        }
        if let Err(e) = tracing_subscriber::EnvFilter::try_new(&self.log.filter) {
            return Err(ConfigError::Invalid {
                key: "log.filter",
                message: e.to_string(),
            });
        }
        self.validate_platforms(
            std::env::var("TELEGRAM_TOKEN").ok(),
            std::env::var("DISCORD_TOKEN").ok(),
        )
    }

    /// Checks the sections of the enabled platforms, tokens included (from the file, else
    /// the environment's values given here). Done with the rest of the config, before the
    /// store is opened: a bad section fails at start-up without touching the data directory.
    fn validate_platforms(
        &self,
        telegram_token: Option<String>,
        discord_token: Option<String>,
    ) -> Result<(), ConfigError> {
        if self.telegram.enabled {
            self.telegram.check(telegram_token)?;
        }
        let discord_secret = std::env::var("DISCORD_CLIENT_SECRET").ok();
        if self.discord.enabled {
            self.discord
                .resolve_with(discord_token, discord_secret.clone())?;
        }
        if self.web.enabled {
            self.web.validate()?;
            // The pages sign Activity players in: the Discord section's OAuth2 settings
            // hold even where this process runs no bot.
            self.discord.activity_sign_in(discord_secret)?;
        }
        Ok(())
    }

    /// What the game manager needs.
    pub fn manager_config(&self) -> ManagerConfig {
        ManagerConfig {
            bot: self.bot.clone(),
            limits: self.limits.clone(),
            clock: self.clock.clone(),
            review: self.review.clone(),
            puzzles: self.puzzles.text.clone(),
            web_url: self.web.enabled.then(|| self.web.base().to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_config_is_all_defaults() {
        let config = Config::parse("", "test").unwrap();
        assert_eq!(config, Config::default());
        assert_eq!(config.limits.move_timeout_hours, 72);
        assert_eq!(config.limits.challenge_expiry_secs, 600);
        assert_eq!(config.storage.path, PathBuf::from("toguz-data"));
        assert_eq!(config.storage.commit_timeout_ms, 2000);
        assert_eq!(config.storage.read_timeout_ms, 1000);
        assert_eq!(config.storage.cache_capacity_mb, 64);
    }

    #[test]
    fn the_postgres_backend_takes_its_url_from_the_environment_first_and_never_shows_it() {
        let text =
            "[storage]\nbackend = \"postgres\"\nurl = \"postgres://toguz:file-pw@db/toguz\"\n\
                    pool_size = 4\nstatement_timeout_ms = 750\n";
        let config = Config::parse(text, "x.toml").unwrap();
        assert!(
            !format!("{config:?}").contains("file-pw"),
            "Debug shows no password"
        );
        let Location::Postgres(pg) = config.storage.location(None).unwrap() else {
            panic!("a database");
        };
        assert_eq!(pg.url, "postgres://toguz:file-pw@db/toguz");
        assert_eq!(pg.pool_size, 4);
        assert_eq!(pg.statement_timeout, std::time::Duration::from_millis(750));
        assert!(!format!("{pg:?}").contains("file-pw"));
        let env = Some("postgres://toguz:env-pw@db2/toguz".to_string());
        let Location::Postgres(pg) = config.storage.location(env).unwrap() else {
            panic!("a database");
        };
        assert_eq!(pg.url, "postgres://toguz:env-pw@db2/toguz");
        assert_eq!(pg.redacted_url(), "postgres://toguz:***@db2/toguz");

        let bare = Config::parse("[storage]\nbackend = \"postgres\"\n", "x.toml").unwrap();
        let err = bare.storage.location(None).unwrap_err().to_string();
        assert!(
            err.contains("storage.url") && err.contains(DATABASE_URL_ENV),
            "{err}"
        );
        let sled = Config::parse("[storage]\npath = \"here\"\n", "x.toml").unwrap();
        assert_eq!(
            sled.storage.location(None).unwrap(),
            Location::Sled(PathBuf::from("here"))
        );
        assert!(Config::parse("[storage]\nbackend = \"mysql\"\n", "x.toml").is_err());
    }

    #[test]
    fn storage_keys_reach_the_store_options() {
        let text = "[storage]\ncommit_timeout_ms = 250\ncache_capacity_mb = 8\n";
        let options = Config::parse(text, "x.toml")
            .unwrap()
            .storage
            .store_options();
        assert_eq!(
            options.commit_timeout,
            std::time::Duration::from_millis(250)
        );
        assert_eq!(options.cache_capacity, 8 * 1024 * 1024);
        let err = Config::parse("[storage]\ncommit_timeout_ms = 0\n", "x.toml").unwrap_err();
        assert!(
            err.to_string().contains("storage.commit_timeout_ms"),
            "{err}"
        );
    }

    #[test]
    fn the_example_config_parses() {
        let text = include_str!("../config.example.toml");
        let config = Config::parse(text, "config.example.toml").unwrap();
        assert_eq!(config.bot, BotConfig::default());
        assert_eq!(config.limits, LimitsConfig::default());
        assert_eq!(config.storage, StorageConfig::default());
    }

    #[test]
    fn the_compose_example_configs_parse_with_the_shared_store() {
        for text in [
            include_str!("../docs/compose-bot1.toml"),
            include_str!("../docs/compose-bot2.toml"),
        ] {
            // The tokens come from the environment there, so only the keys are checked here.
            let config: Config = toml::from_str(text).unwrap();
            assert_eq!(config.storage.backend, BackendKind::Postgres);
            let env = Some("postgres://toguz:pw@db:5432/toguz".to_string());
            assert!(matches!(
                config.storage.location(env),
                Ok(Location::Postgres(_))
            ));
        }
    }

    #[test]
    fn enabled_platform_sections_are_checked_with_the_config() {
        let parse = |text: &str| toml::from_str::<Config>(text).unwrap();
        let bad_url =
            parse("[telegram]\nenabled = true\ntoken = \"1:abc\"\napi_url = \"ftp://x\"\n");
        let err = bad_url.validate_platforms(None, None).unwrap_err();
        assert!(err.to_string().contains("telegram.api_url"), "{err}");
        let no_token = parse("[discord]\nenabled = true\n");
        let err = no_token.validate_platforms(None, None).unwrap_err();
        assert!(err.to_string().contains("discord.token"), "{err}");
        let err = no_token
            .validate_platforms(None, Some("not a token".into()))
            .unwrap_err();
        assert!(err.to_string().contains("discord.token"), "{err}");
        // The environment's token counts, and a section that is off is not checked.
        let env_token = parse("[telegram]\nenabled = true\n");
        assert!(env_token
            .validate_platforms(Some("123:secret".into()), None)
            .is_ok());
        let off = parse("[telegram]\napi_url = \"ftp://x\"\n[discord]\nmax_retries = 11\n");
        assert!(off.validate_platforms(None, None).is_ok());
    }

    #[test]
    fn errors_name_the_key() {
        let err = Config::parse("[limits]\ngames_per_usr = 3\n", "x.toml").unwrap_err();
        assert!(err.to_string().contains("games_per_usr"), "{err}");
        let err = Config::parse("[bot]\ndefault_level = \"grandmaster\"\n", "x.toml").unwrap_err();
        assert!(err.to_string().contains("grandmaster"), "{err}");
        assert!(err.to_string().contains("default_level"), "{err}");
        let err = Config::parse("[limits]\ngames_per_user = 0\n", "x.toml").unwrap_err();
        assert!(err.to_string().contains("limits.games_per_user"), "{err}");
        for key in ["tournaments_per_user", "tournaments_per_chat"] {
            let text = format!("[limits]\n{key} = 0\n");
            let err = Config::parse(&text, "x.toml").unwrap_err();
            assert!(err.to_string().contains(key), "{err}");
        }
        let err = Config::parse("[limits]\nmove_timeout_hours = -1\n", "x.toml").unwrap_err();
        assert!(err.to_string().contains("move_timeout_hours"), "{err}");
    }

    #[test]
    fn a_puzzle_collection_file_is_read_and_checked_when_the_config_loads() {
        let dir = tempfile::tempdir().unwrap();
        let config_at = |collection: &str| {
            let path = dir.path().join("toguz.toml");
            let line = format!("[puzzles]\ncollection = {collection:?}\n");
            std::fs::write(&path, line).unwrap();
            Config::load(&path)
        };
        let good = dir.path().join("good.jsonl");
        let first = crate::puzzle::SHIPPED.lines().next().unwrap();
        std::fs::write(&good, format!("{first}\n")).unwrap();
        let config = config_at(good.to_str().unwrap()).unwrap();
        let text = config.manager_config().puzzles.expect("the file's text");
        assert_eq!(text.trim(), first);
        // Without the table, the shipped collection.
        assert_eq!(Config::default().manager_config().puzzles, None);

        let bad = dir.path().join("bad.jsonl");
        std::fs::write(&bad, "{\"id\": 3}\n").unwrap();
        let err = config_at(bad.to_str().unwrap()).unwrap_err();
        assert!(err.to_string().contains("puzzles.collection"), "{err}");
        let empty = dir.path().join("empty.jsonl");
        std::fs::write(&empty, "\n").unwrap();
        let err = config_at(empty.to_str().unwrap()).unwrap_err();
        assert!(err.to_string().contains("no puzzle"), "{err}");
        let err = config_at("/nonexistent/p.jsonl").unwrap_err();
        assert!(err.to_string().contains("/nonexistent/p.jsonl"), "{err}");
    }
}
