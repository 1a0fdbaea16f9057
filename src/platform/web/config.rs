//! `[web]`: the game pages' server (docs/web.md).

pub use crate::platform::http::limits::TrustedProxy;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// `[web]` settings.
#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WebConfig {
    /// `toguz run` serves the pages next to the bots.
    pub enabled: bool,
    /// Where the server listens (behind a reverse proxy that adds HTTPS).
    pub listen: SocketAddr,
    /// The pages' address as players reach it (`https://toguz.example.org`): links in chat
    /// and link previews are made with it.
    pub public_url: String,
    /// Connections open at once, at most; more wait to be accepted.
    pub max_connections: usize,
    /// Connections from one address at once, at most; more are closed at once.
    pub max_per_address: usize,
    /// Live pages (server-sent events) open at once, at most; more get the page without
    /// live moves.
    pub max_live: usize,
    /// Seconds a client has to send a request's whole head, counted from the connection's
    /// start or the end of its previous answer (so it is also how long an idle kept-alive
    /// connection stays open).
    pub header_read_timeout_secs: u64,
    /// Seconds a connection may go without a byte read or written (a client that stops
    /// reading an answer, a stalled live page) before it is closed.
    pub idle_timeout_secs: u64,
    /// Reverse proxies whose forwarding headers (`Forwarded`, `X-Forwarded-For`) are
    /// believed: addresses or blocks (`"127.0.0.1"`, `"10.0.0.0/8"`, `"::1"`). Their own
    /// connections are counted only in `max_connections`; the client each request is
    /// forwarded for counts against `max_per_address`. Anyone else's forwarding headers
    /// are ignored.
    pub trusted_proxies: Vec<TrustedProxy>,
    /// The platforms' keys for signing players in (issue 50): set by `toguz run` from
    /// `[telegram]` (the bot's token), never from `[web]`.
    #[serde(skip)]
    pub sign_in: super::signin::SignIns,
    /// Sites besides the site itself whose pages may send a signed-in player's actions
    /// (issue 50): origins, `https://<host>[:port]` and nothing more. The Discord
    /// Activity's `https://<application id>.discordsays.com` needs no line here: it is
    /// allowed while the Activity signs players in (`allowed_origins`). A state-changing
    /// request whose `Origin` is none of these is refused.
    pub embed_origins: Vec<String>,
}

impl Default for WebConfig {
    fn default() -> Self {
        WebConfig {
            enabled: false,
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            public_url: "http://127.0.0.1:8080".into(),
            max_connections: 2048,
            max_per_address: 64,
            max_live: 1024,
            header_read_timeout_secs: 10,
            idle_timeout_secs: 60,
            trusted_proxies: Vec::new(),
            sign_in: Default::default(),
            embed_origins: Vec::new(),
        }
    }
}

/// A `[web]` value that makes no sense.
#[derive(Debug, thiserror::Error)]
pub enum WebConfigError {
    #[error("web.public_url: {0:?} is not an http(s) address")]
    PublicUrl(String),
    #[error("web.{0}: must be at least 1")]
    Zero(&'static str),
    #[error("web.embed_origins: {0:?} is not an origin (https://host or https://host:port)")]
    EmbedOrigin(String),
}

impl WebConfig {
    /// Checks the values; the public address without its trailing slash.
    pub fn validate(&self) -> Result<(), WebConfigError> {
        let url = url::Url::parse(&self.public_url)
            .map_err(|_| WebConfigError::PublicUrl(self.public_url.clone()))?;
        if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
            return Err(WebConfigError::PublicUrl(self.public_url.clone()));
        }
        for (key, value) in [
            ("max_connections", self.max_connections),
            ("max_per_address", self.max_per_address),
            ("max_live", self.max_live),
            (
                "header_read_timeout_secs",
                self.header_read_timeout_secs as usize,
            ),
            ("idle_timeout_secs", self.idle_timeout_secs as usize),
        ] {
            if value == 0 {
                return Err(WebConfigError::Zero(key));
            }
        }
        for origin in &self.embed_origins {
            if origin_of(origin).as_deref() != Some(origin.as_str()) {
                return Err(WebConfigError::EmbedOrigin(origin.clone()));
            }
        }
        Ok(())
    }

    /// The origins a signed-in player's actions may come from: the site's own
    /// (`public_url`'s), `embed_origins` and the Discord Activity's when it signs players in.
    pub fn allowed_origins(&self) -> Vec<String> {
        let mut origins: Vec<String> = origin_of(&self.public_url).into_iter().collect();
        origins.extend(self.embed_origins.iter().cloned());
        // The Discord Activity's pages are served to Discord's clients from its proxy.
        if let Some(discord) = &self.sign_in.discord {
            let activity = format!("https://{}.discordsays.com", discord.client_id);
            if !origins.contains(&activity) {
                origins.push(activity);
            }
        }
        origins
    }

    /// Whether the session cookie is sent only over https (`public_url` is https).
    pub fn secure_cookie(&self) -> bool {
        self.public_url.starts_with("https://")
    }

    /// Whether players elsewhere cannot reach `public_url` (a loopback or private-network
    /// host): link buttons would lead nowhere, and Telegram may refuse them.
    pub fn is_local_only(&self) -> bool {
        let Ok(url) = url::Url::parse(&self.public_url) else {
            return false;
        };
        match url.host() {
            Some(url::Host::Domain(name)) => name == "localhost" || name.ends_with(".local"),
            Some(url::Host::Ipv4(ip)) => ip.is_loopback() || ip.is_private() || ip.is_link_local(),
            Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
            None => false,
        }
    }

    /// The server's timeouts.
    pub fn timeouts(&self) -> crate::platform::http::server::Timeouts {
        crate::platform::http::server::Timeouts {
            header_read: Duration::from_secs(self.header_read_timeout_secs),
            idle: Duration::from_secs(self.idle_timeout_secs),
        }
    }

    /// Whether `ip` is one of `trusted_proxies`.
    pub fn is_trusted_proxy(&self, ip: IpAddr) -> bool {
        self.trusted_proxies.iter().any(|p| p.contains(ip))
    }

    /// The public address without a trailing slash.
    pub fn base(&self) -> &str {
        self.public_url.trim_end_matches('/')
    }
}

/// The origin of `url` as a browser writes it in an `Origin` header (`https://host[:port]`,
/// the default port left out), when it is an http(s) address with a host and no path,
/// query or fragment beyond `/`.
pub fn origin_of(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    let plain = matches!(parsed.scheme(), "http" | "https")
        && parsed.host().is_some()
        && parsed.username().is_empty()
        && parsed.password().is_none()
        && parsed.query().is_none()
        && parsed.fragment().is_none();
    plain.then(|| parsed.origin().ascii_serialization())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_public_address_must_be_http() {
        let mut config = WebConfig::default();
        assert!(config.validate().is_ok());
        config.public_url = "https://toguz.example.org/".into();
        assert!(config.validate().is_ok());
        assert_eq!(config.base(), "https://toguz.example.org");
        config.public_url = "toguz.example.org".into();
        assert!(config.validate().is_err());
        config.public_url = "ftp://x.org".into();
        assert!(config.validate().is_err());
        config.public_url = "http://x.org".into();
        assert!(!config.is_local_only());
        config.public_url = "http://192.168.1.5:8080".into();
        assert!(config.is_local_only());
        assert!(WebConfig::default().is_local_only());
        config.public_url = "http://x.org".into();
        config.max_live = 0;
        assert!(config
            .validate()
            .unwrap_err()
            .to_string()
            .contains("max_live"));
    }

    #[test]
    fn trusted_proxies_are_addresses_or_blocks_checked_when_read() {
        let config: WebConfig =
            toml::from_str("trusted_proxies = [\"127.0.0.1\", \"10.1.2.3/8\", \"2001:db8::/48\"]")
                .expect("valid");
        assert!(config.is_trusted_proxy("127.0.0.1".parse().unwrap()));
        assert!(config.is_trusted_proxy("10.200.0.1".parse().unwrap()));
        assert!(config.is_trusted_proxy("::ffff:10.0.0.9".parse().unwrap()));
        assert!(config.is_trusted_proxy("2001:db8:0:ffff::1".parse().unwrap()));
        assert!(!config.is_trusted_proxy("127.0.0.2".parse().unwrap()));
        assert!(!config.is_trusted_proxy("2001:db9::1".parse().unwrap()));
        assert!(!WebConfig::default().is_trusted_proxy("127.0.0.1".parse().unwrap()));
        let wrong = toml::from_str::<WebConfig>("trusted_proxies = [\"nginx\"]").unwrap_err();
        assert!(wrong.to_string().contains("web.trusted_proxies"), "{wrong}");
        let embeds: WebConfig =
            toml::from_str("embed_origins = [\"https://123456.discordsays.com\"]").expect("valid");
        assert!(embeds.validate().is_ok());
        assert_eq!(
            embeds.allowed_origins(),
            ["http://127.0.0.1:8080", "https://123456.discordsays.com"]
        );
        for wrong in [
            "https://x.discordsays.com/",
            "discordsays.com",
            "https://a.b/c",
        ] {
            let config = WebConfig {
                embed_origins: vec![wrong.into()],
                ..WebConfig::default()
            };
            assert!(config.validate().is_err(), "{wrong}");
        }
        let zero = WebConfig {
            header_read_timeout_secs: 0,
            ..WebConfig::default()
        };
        assert!(zero
            .validate()
            .unwrap_err()
            .to_string()
            .contains("header_read_timeout_secs"));
    }

    #[test]
    fn the_discord_activity_may_act_from_its_own_origin() {
        let mut config = WebConfig::default();
        config.sign_in.discord = Some(crate::platform::web::signin::discord::DiscordSignIn {
            client_id: 42,
            client_secret: crate::secret::Secret::new("s"),
            api_base: "https://discord.com".into(),
            timeout: std::time::Duration::from_secs(5),
        });
        assert_eq!(
            config.allowed_origins(),
            ["http://127.0.0.1:8080", "https://42.discordsays.com"]
        );
        config.embed_origins = vec!["https://42.discordsays.com".into()];
        assert_eq!(config.allowed_origins().len(), 2, "named once");
        // Another application's Activity, another scheme, a sandboxed page: not ours.
        config.public_url = "https://toguz.example.org".into();
        let origins = config.allowed_origins();
        for other in [
            "https://43.discordsays.com",
            "http://toguz.example.org",
            "https://evil.example",
            "null",
        ] {
            assert!(!origins.iter().any(|o| o == other), "{other}");
        }
        assert!(origins.iter().any(|o| o == "https://toguz.example.org"));
    }
}
