//! Database URLs and errors as logs and errors may show them: without the password.

/// `url` without its password: a URL's `user:password@`, a connection string's
/// `password=...`.
pub(crate) fn redact(url: &str) -> String {
    if let Ok(mut parsed) = url::Url::parse(url) {
        if parsed.password().is_some() && parsed.set_password(Some("***")).is_err() {
            return "(a database URL)".into();
        }
        let pairs: Vec<(String, String)> = parsed
            .query_pairs()
            .map(|(k, v)| {
                let v = if k == "password" { "***".into() } else { v };
                (k.into_owned(), v.into_owned())
            })
            .collect();
        if !pairs.is_empty() {
            parsed.query_pairs_mut().clear().extend_pairs(pairs);
        }
        return parsed.to_string();
    }
    url.split_whitespace()
        .map(|part| match part.split_once('=') {
            Some((key, _)) if key.eq_ignore_ascii_case("password") => "password=***".into(),
            _ => part.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}
