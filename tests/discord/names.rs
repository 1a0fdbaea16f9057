//! Hostile display names on Discord (issue 31, item 14): markdown, a masked link, a
//! right-to-left override, zero-width joiners and a 500-character name are shown as plain,
//! capped names on the board and in the leaderboard, never as formatting or a link.

use super::ratings::{a_whole_game, content, start};
use serde_json::json;
use toguz::testing::discord::User;

/// What `**x** [click](http://evil)` must read as in Discord's markdown: every markup
/// character escaped.
const SHOWN: &str = "\\*\\*x\\*\\* \\[click\\]\\(http\\://evil\\)";

/// Nothing of the raw name's markup or hidden characters, and no name over 32 characters.
fn assert_safe(text: &str) {
    assert!(text.contains(SHOWN), "{text}");
    assert!(
        !text.contains("**x**") && !text.contains("](http"),
        "{text}"
    );
    for hidden in ['\u{202E}', '\u{200D}', '\u{200B}'] {
        assert!(!text.contains(hidden), "{hidden:?} in {text}");
    }
    assert!(!text.contains(&"L".repeat(32)), "{text}");
    assert!(text.contains(&format!("{}…", "L".repeat(31))), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_display_names_are_shown_as_plain_capped_names() {
    let (fake, _dir, _bot) = start().await;
    let mallory = User::new(1301, "**x**\u{200D} [click](http://evil)\u{202E}\u{200B}");
    let long = User::new(1302, &"L".repeat(500));
    let end = a_whole_game(&fake, (&mallory, &long), 710, json!([])).await;
    let embed = &end.board["embeds"][0];
    let mut shown = embed["description"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    for field in embed["fields"].as_array().cloned().unwrap_or_default() {
        shown.push('\n');
        shown.push_str(field["value"].as_str().unwrap_or_default());
    }
    assert_safe(&shown);
    let place = fake.guild_channel(super::ratings::GUILD, 710);
    let id = fake.slash(&long, place, "leaderboard", json!([]), &[]);
    let board = content(&fake.wait_callback(id).await);
    assert_safe(&board);
}
