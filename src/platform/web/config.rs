//! `[web]`: the game pages' server (docs/web.md).

use std::net::SocketAddr;

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
        ] {
            if value == 0 {
                return Err(WebConfigError::Zero(key));
            }
        }
        Ok(())
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

    /// The public address without a trailing slash.
    pub fn base(&self) -> &str {
        self.public_url.trim_end_matches('/')
    }
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
}
