//! Secrets from the config or the environment (bot tokens, webhook secrets), and the one rule
//! for where a platform's token comes from. A module of its own so that the platform config
//! sections and `config.rs` both use it without importing each other.

/// A secret. Its `Debug` and `Display` never show the value, so it cannot leak into logs,
/// errors or panics.
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

/// A platform's token: the config file's when it holds one, else the environment variable's
/// value `env`, trimmed; `None` when neither holds one.
pub fn resolve_token(file: Option<&Secret>, env: Option<String>) -> Option<Secret> {
    file.filter(|t| !t.is_empty())
        .map(|t| Secret::new(t.expose().trim()))
        .or_else(|| {
            env.filter(|t| !t.trim().is_empty())
                .map(|t| Secret::new(t.trim()))
        })
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

    #[test]
    fn the_files_token_wins_and_blank_ones_do_not_count() {
        let file = Secret::new(" 1:file ");
        let env = || Some(" 2:env\n".to_string());
        assert_eq!(
            resolve_token(Some(&file), env()),
            Some(Secret::new("1:file"))
        );
        assert_eq!(resolve_token(None, env()), Some(Secret::new("2:env")));
        let blank = Secret::new("  ");
        assert_eq!(
            resolve_token(Some(&blank), env()),
            Some(Secret::new("2:env"))
        );
        assert_eq!(resolve_token(Some(&blank), Some(" ".into())), None);
        assert_eq!(resolve_token(None, None), None);
    }
}
