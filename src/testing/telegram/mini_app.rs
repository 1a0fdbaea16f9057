//! The fake's Mini Apps: what Telegram does when a player opens one (issue 50). A Mini App
//! is made with @BotFather's /newapp (here `FakeTelegram::add_mini_app`): a short name and
//! the URL it opens. Opening a direct link `https://t.me/<bot>/<app>?startapp=<param>` opens
//! that URL with the launch data in the fragment, `tgWebAppData` signed with the bot's token
//! exactly as Telegram documents it (written here independently of the bot's own check),
//! `start_param` and the chat's type among its fields.

use super::{TgChat, TgUser, BOT_USERNAME};
use hmac::{Hmac, Mac};
use serde_json::json;
use sha2::Sha256;
use std::collections::HashMap;
use url::form_urlencoded::byte_serialize;

type HmacSha256 = Hmac<Sha256>;

/// The colours a Telegram client passes (`tgWebAppThemeParams`): a dark theme with a blue
/// button, as Telegram Desktop's night mode has it.
pub const THEME: &str = r##"{"bg_color":"#17212b","text_color":"#f5f5f5","hint_color":"#708499","link_color":"#6ab3f3","button_color":"#5288c1","button_text_color":"#ffffff","secondary_bg_color":"#232e3c"}"##;

/// The launch data Telegram signs for `user` opening a Mini App at `auth_date` (Unix
/// seconds), with `start_param` from a direct link and `chat` the chat it was opened from.
pub fn init_data(
    token: &str,
    user: &TgUser,
    start_param: Option<&str>,
    chat: Option<&TgChat>,
    auth_date: u64,
) -> String {
    let mut who = json!({
        "id": user.id,
        "first_name": user.first_name,
        "allows_write_to_pm": true,
    });
    if let Some(name) = &user.username {
        who["username"] = json!(name);
    }
    if let Some(code) = &user.language_code {
        who["language_code"] = json!(code);
    }
    let mut fields: Vec<(String, String)> = vec![
        ("user".into(), who.to_string()),
        ("auth_date".into(), auth_date.to_string()),
        // Telegram's Ed25519 signature for third parties; the bot's hash covers it.
        ("signature".into(), format!("fake_{}_{auth_date}", user.id)),
    ];
    if let Some(chat) = chat {
        let kind = chat.json["type"].as_str().unwrap_or("private").to_string();
        fields.push(("chat_type".into(), kind));
        fields.push(("chat_instance".into(), chat.id.wrapping_mul(31).to_string()));
    }
    if let Some(start) = start_param {
        fields.push(("start_param".into(), start.to_string()));
    }
    sign(token, &fields)
}

/// `fields` with their `hash`: HMAC-SHA256 under HMAC-SHA256("WebAppData", token) of the
/// sorted `key=value` lines; each value percent-encoded.
pub fn sign(token: &str, fields: &[(String, String)]) -> String {
    let mut sorted: Vec<&(String, String)> = fields.iter().collect();
    sorted.sort();
    let lines: Vec<String> = sorted.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let mut secret = HmacSha256::new_from_slice(b"WebAppData").expect("any key length");
    secret.update(token.as_bytes());
    let secret = secret.finalize().into_bytes();
    let mut mac = HmacSha256::new_from_slice(&secret).expect("any key length");
    mac.update(lines.join("\n").as_bytes());
    let hash: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let mut pairs: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(v)))
        .collect();
    pairs.push(format!("hash={hash}"));
    pairs.join("&")
}

fn encode(text: &str) -> String {
    byte_serialize(text.as_bytes()).collect()
}

/// The fragment a client opens a Mini App's URL with: the launch data, the client's
/// version and platform, and its colours.
pub fn launch_fragment(init_data: &str, theme: &str) -> String {
    format!(
        "tgWebAppData={}&tgWebAppVersion=8.0&tgWebAppPlatform=web&tgWebAppThemeParams={}",
        encode(init_data),
        encode(theme),
    )
}

/// What a client does with a direct link `link` that `user` pressed in `chat`: the Mini
/// App's URL with the launch fragment, or why Telegram would not open it (another bot, an
/// app the bot has not, a `startapp` Telegram does not pass on).
pub(super) fn open_link(
    token: &str,
    apps: &HashMap<String, String>,
    link: &str,
    user: &TgUser,
    chat: &TgChat,
    now: u64,
) -> Result<String, String> {
    let (bot, app, start) = parse_link(link)?;
    if !bot.eq_ignore_ascii_case(BOT_USERNAME) {
        return Err(format!("{link}: not this bot's app"));
    }
    let url = apps
        .get(&app)
        .ok_or_else(|| format!("{link}: the bot has no Mini App {app:?}"))?;
    let data = init_data(token, user, start.as_deref(), Some(chat), now);
    Ok(format!("{url}#{}", launch_fragment(&data, THEME)))
}

/// A Mini App's direct link, `https://t.me/<bot>/<app>[?startapp=<param>]`, as Telegram
/// reads it: (bot, app, start). A username is 5 to 32 of A-Z a-z 0-9 _, an app's short name
/// 3 to 30 of them, a start parameter 1 to 64 of them or `-`; anything else is an error
/// naming the link.
pub fn parse_link(link: &str) -> Result<(String, String, Option<String>), String> {
    let url = url::Url::parse(link).map_err(|e| format!("{link}: {e}"))?;
    let segments: Vec<&str> = url.path_segments().map(|s| s.collect()).unwrap_or_default();
    let [bot, app] = segments.as_slice() else {
        return Err(format!("{link}: not a Mini App link"));
    };
    let word = |s: &str, range: std::ops::RangeInclusive<usize>, dash: bool| {
        range.contains(&s.len())
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || (dash && b == b'-'))
    };
    if !word(bot, 5..=32, false) || !word(app, 3..=30, false) {
        return Err(format!("{link}: not a Mini App link"));
    }
    let mut start = None;
    for (key, value) in url.query_pairs() {
        if key == "startapp" {
            if start.is_some() || !word(&value, 1..=64, true) {
                return Err(format!("{link}: a startapp Telegram does not pass on"));
            }
            start = Some(value.into_owned());
        }
    }
    Ok((bot.to_string(), app.to_string(), start))
}

/// Whether `url` is a link to a Mini App (`t.me/<x>/<y>`, any query): the links the fake
/// checks as Telegram reads them.
pub(super) fn is_app_link(url: &url::Url) -> bool {
    matches!(url.host_str(), Some("t.me" | "telegram.me"))
        && url.path_segments().is_some_and(|s| s.count() == 2)
        && url.path_segments().is_some_and(|mut s| {
            // `t.me/c/<chat>/<message>` and `t.me/<channel>/<post>` are messages, not apps.
            let first = s.next().unwrap_or_default();
            let second = s.next().unwrap_or_default();
            first != "c" && !second.bytes().all(|b| b.is_ascii_digit())
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::web::signin::telegram::check;
    use crate::secret::Secret;

    const TOKEN: &str = "7000000001:AAfake";

    #[test]
    fn the_fakes_launch_data_passes_the_bots_check_and_names_the_start() {
        let user = TgUser::new(741, "Asel", "asel_l", "kk");
        let group = TgChat::group(-1005, "Club");
        let data = init_data(TOKEN, &user, Some("ab12cd-0123"), Some(&group), 1_000);
        let checked = check(&data, &Secret::new(TOKEN), 60, 1_030).expect("accepted");
        assert_eq!(checked.user.id, 741);
        assert_eq!(checked.user.language_code.as_deref(), Some("kk"));
        assert_eq!(checked.start_param.as_deref(), Some("ab12cd-0123"));
        assert!(check(&data, &Secret::new("7000000001:AAother"), 60, 1_030).is_err());
    }

    #[test]
    fn a_direct_link_opens_the_bots_app_with_its_start_or_nothing() {
        let mut apps = HashMap::new();
        apps.insert(
            "play".to_string(),
            "https://pages.example.org/tg".to_string(),
        );
        let user = TgUser::new(741, "Asel", "asel_l", "en");
        let group = TgChat::group(-1005, "Club");
        let link = format!("https://t.me/{BOT_USERNAME}/play?startapp=ab12cd-0123");
        let opened = open_link(TOKEN, &apps, &link, &user, &group, 5).unwrap();
        let fragment = opened
            .strip_prefix("https://pages.example.org/tg#tgWebAppData=")
            .expect("the app's URL");
        assert!(fragment.contains("start_param%3Dab12cd-0123"), "{fragment}");
        assert!(fragment.contains("chat_type%3Dsupergroup"), "{fragment}");
        for refused in [
            format!("https://t.me/{BOT_USERNAME}/game?startapp=x"),
            "https://t.me/another_bot/play?startapp=x".to_string(),
            format!("https://t.me/{BOT_USERNAME}/play?startapp=a%2Fb"),
            format!(
                "https://t.me/{BOT_USERNAME}/play?startapp={}",
                "a".repeat(65)
            ),
            format!("https://t.me/{BOT_USERNAME}/pl?startapp=x"),
        ] {
            assert!(
                open_link(TOKEN, &apps, &refused, &user, &group, 5).is_err(),
                "{refused}"
            );
        }
    }
}
