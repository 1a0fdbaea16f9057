//! Telegram's checks of what a bot sends: text and caption lengths, HTML and MarkdownV2
//! entities, inline keyboards (button kinds, `callback_data` of 1..64 bytes, URL buttons'
//! addresses, Web App buttons only in private chats and only to https), and photos.

use super::params::{bad, opt_str, ApiError, Params};
use serde_json::Value;

pub(super) fn check_parse_mode(p: &Params, text: &str) -> Result<(), ApiError> {
    match opt_str(p, "parse_mode").as_deref() {
        None | Some("") => Ok(()),
        Some("HTML") | Some("html") => check_html(text),
        Some("MarkdownV2") => check_markdown_v2(text),
        Some("Markdown") => Ok(()),
        Some(_) => Err(bad("unsupported parse_mode")),
    }
}

/// Telegram's HTML: only known tags, properly nested; `<`, `>` and `&` escaped elsewhere.
fn check_html(text: &str) -> Result<(), ApiError> {
    const TAGS: &[&str] = &[
        "b",
        "strong",
        "i",
        "em",
        "u",
        "ins",
        "s",
        "strike",
        "del",
        "span",
        "tg-spoiler",
        "a",
        "code",
        "pre",
        "blockquote",
        "tg-emoji",
    ];
    let mut stack: Vec<String> = vec![];
    let mut rest = text;
    while let Some(i) = rest.find(['<', '&']) {
        let after = &rest[i..];
        if after.starts_with('&') {
            let end = after.find(';').ok_or_else(|| {
                bad("can't parse entities: Unsupported start tag \"&\" at byte offset")
            })?;
            let name = &after[1..end];
            let ok = matches!(name, "lt" | "gt" | "amp" | "quot")
                || name.starts_with('#') && name.len() > 1;
            if !ok {
                return Err(bad(&format!(
                    "can't parse entities: Unsupported HTML entity \"&{name};\""
                )));
            }
            rest = &after[end + 1..];
            continue;
        }
        let end = after
            .find('>')
            .ok_or_else(|| bad("can't parse entities: Unclosed start tag"))?;
        let inner = &after[1..end];
        if let Some(name) = inner.strip_prefix('/') {
            let name = name.trim().to_ascii_lowercase();
            if stack.pop().as_deref() != Some(name.as_str()) {
                return Err(bad(&format!(
                    "can't parse entities: Unmatched end tag \"{name}\""
                )));
            }
        } else {
            let name = inner
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            if !TAGS.contains(&name.as_str()) {
                return Err(bad(&format!(
                    "can't parse entities: Unsupported start tag \"{name}\""
                )));
            }
            stack.push(name);
        }
        rest = &after[end + 1..];
    }
    if let Some(open) = stack.pop() {
        return Err(bad(&format!(
            "can't parse entities: Can't find end tag corresponding to start tag \"{open}\""
        )));
    }
    Ok(())
}

fn check_markdown_v2(text: &str) -> Result<(), ApiError> {
    let mut escaped = false;
    for c in text.chars() {
        if escaped {
            escaped = false;
            continue;
        }
        if c == '\\' {
            escaped = true;
        } else if ".!-=+#|{}>()".contains(c) {
            return Err(bad(&format!(
                "can't parse entities: Character '{c}' is reserved and must be escaped with the preceding '\\'"
            )));
        }
    }
    Ok(())
}

/// Validates an inline keyboard the way Telegram does; `private`: it goes to a user's
/// private chat with the bot, the only place Web App buttons may be.
pub(super) fn check_markup(
    markup: Option<&Value>,
    inline_only: bool,
    private: bool,
) -> Result<Option<Value>, ApiError> {
    let Some(m) = markup else { return Ok(None) };
    if m.is_null() {
        return Ok(None);
    }
    let Some(rows) = m.get("inline_keyboard") else {
        if inline_only {
            return Err(bad("inline keyboard expected"));
        }
        return Ok(Some(m.clone()));
    };
    let rows = rows
        .as_array()
        .ok_or_else(|| bad("can't parse inline keyboard"))?;
    let mut total = 0;
    for row in rows {
        let row = row
            .as_array()
            .ok_or_else(|| bad("can't parse inline keyboard"))?;
        if row.len() > 8 {
            return Err(bad("BUTTON_TYPE_INVALID"));
        }
        for b in row {
            total += 1;
            let text = b.get("text").and_then(Value::as_str).unwrap_or("");
            if text.trim().is_empty() {
                return Err(bad("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"));
            }
            let kinds = [
                "url",
                "callback_data",
                "switch_inline_query",
                "switch_inline_query_current_chat",
                "switch_inline_query_chosen_chat",
                "web_app",
                "login_url",
                "copy_text",
                "pay",
                "callback_game",
            ];
            let n = kinds.iter().filter(|k| b.get(**k).is_some()).count();
            if n != 1 {
                return Err(bad("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"));
            }
            check_link(b, private)?;
            if let Some(d) = b.get("callback_data") {
                let d = d.as_str().ok_or_else(|| bad("BUTTON_DATA_INVALID"))?;
                if d.is_empty() || d.len() > 64 {
                    return Err(bad("BUTTON_DATA_INVALID"));
                }
            }
        }
    }
    if total > 100 {
        return Err(bad("reply markup is too long"));
    }
    Ok(Some(m.clone()))
}

/// A URL button's address: an http(s) address with a host (a name with a dot in it, or an
/// IP address: Telegram refuses `localhost`), or a `tg://` link. A Web App button: only in
/// a private chat, and only to an https address.
fn check_link(b: &Value, private: bool) -> Result<(), ApiError> {
    if let Some(url) = b.get("url") {
        let url = url.as_str().unwrap_or("");
        let parsed = url::Url::parse(url).ok();
        let ok = parsed.is_some_and(|u| match u.scheme() {
            "http" | "https" => match u.host() {
                Some(url::Host::Domain(name)) => name.trim_end_matches('.').contains('.'),
                Some(_) => true,
                None => false,
            },
            "tg" => true,
            _ => false,
        });
        if !ok {
            return Err(bad("BUTTON_URL_INVALID"));
        }
        // A Mini App's direct link (`t.me/<bot>/<app>?startapp=..`): Telegram takes the
        // button, but its clients open no app for a malformed name and drop a start
        // parameter it does not pass on (more than 64 characters, or one outside
        // A-Z a-z 0-9 _ -), so the player lands on the wrong page. Refused here, so a test
        // sees such a link at once.
        if let Some(url) = url::Url::parse(url)
            .ok()
            .filter(super::mini_app::is_app_link)
        {
            if super::mini_app::parse_link(url.as_str()).is_err() {
                return Err(bad("BUTTON_URL_INVALID"));
            }
        }
    }
    if let Some(app) = b.get("web_app") {
        if !private {
            return Err(bad("BUTTON_TYPE_INVALID"));
        }
        let url = app.get("url").and_then(Value::as_str).unwrap_or("");
        let https = url::Url::parse(url)
            .is_ok_and(|u| u.scheme() == "https" && u.host_str().is_some_and(|h| !h.is_empty()));
        if !https {
            return Err(bad(&format!(
                "inline keyboard button Web App URL '{url}' is invalid: Only HTTPS links are allowed"
            )));
        }
    }
    Ok(())
}

pub(super) fn check_text(text: &str, edit: bool) -> Result<(), ApiError> {
    if text.trim().is_empty() {
        return Err(bad("message text is empty"));
    }
    if text.encode_utf16().count() > 4096 {
        return Err(bad(if edit {
            "MESSAGE_TOO_LONG"
        } else {
            "message is too long"
        }));
    }
    Ok(())
}

pub(super) fn check_caption(caption: &Option<String>) -> Result<(), ApiError> {
    if caption
        .as_ref()
        .is_some_and(|c| c.encode_utf16().count() > 1024)
    {
        return Err(bad("message caption is too long"));
    }
    Ok(())
}

/// Decodes a PNG fully and applies Telegram's photo limits; returns (width, height).
pub fn check_png(bytes: &[u8]) -> Result<(u32, u32), String> {
    if bytes.len() > 10 << 20 {
        return Err("photo over 10 MB".into());
    }
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
    let (w, h) = (info.width, info.height);
    if w == 0 || h == 0 || w + h > 10_000 || w.max(h) > 20 * w.min(h) {
        return Err(format!("bad dimensions {w}x{h}"));
    }
    Ok((w, h))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn url_buttons_need_a_host_telegram_takes() {
        let url = |u: &str| check_link(&json!({ "text": "x", "url": u }), false).is_ok();
        assert!(url("https://pages.example.org/g/a"));
        assert!(url("http://192.168.1.5:8080/g/a"));
        assert!(url("tg://resolve?domain=toguz_bot"));
        for refused in [
            "http://localhost:8080/g/a",
            "https://toguzbox/",
            "ftp://x.org",
            "",
        ] {
            assert!(!url(refused), "{refused}");
        }
        // Mini App links as Telegram's clients read them.
        assert!(url(
            "https://t.me/toguz_bot/play?startapp=ab12cd-0123456789abcdef0123"
        ));
        assert!(url("https://t.me/toguz_bot/play"));
        assert!(url("https://t.me/toguz_bot?start=x"));
        assert!(url("https://t.me/toguz_news/123"));
        for refused in [
            "https://t.me/toguz_bot/play?startapp=a%2Fb",
            "https://t.me/toguz_bot/play?startapp=",
            "https://t.me/bot/play?startapp=x",
            "https://t.me/toguz_bot/p?startapp=x",
        ] {
            assert!(!url(refused), "{refused}");
        }
        let long = format!("https://t.me/toguz_bot/play?startapp={}", "a".repeat(65));
        assert!(!url(&long));
        let app = |u: &str, private| {
            check_link(&json!({ "text": "x", "web_app": { "url": u } }), private).is_ok()
        };
        assert!(app("https://pages.example.org/g/a", true));
        assert!(!app("https://pages.example.org/g/a", false));
        assert!(!app("http://pages.example.org/g/a", true));
    }
}
