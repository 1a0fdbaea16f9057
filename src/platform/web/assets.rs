//! The page's script and style sheet, embedded in the binary (no CDN: the pages work
//! offline on a LAN), served gzip-compressed when the browser takes it, and cached for a
//! year under an address that changes with their content.

use std::io::Write;
use std::sync::LazyLock;

/// One embedded file.
pub struct Asset {
    pub name: &'static str,
    pub content_type: &'static str,
    pub body: &'static str,
    pub gzip: Vec<u8>,
    /// A hash of the content, in its address (`/assets/game.js?v=...`).
    pub version: String,
}

fn asset(name: &'static str, content_type: &'static str, body: &'static str) -> Asset {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail; an empty gzip body would only cost the compression.
    let gzip = encoder
        .write_all(body.as_bytes())
        .and_then(|()| encoder.finish())
        .unwrap_or_default();
    use sha2::Digest;
    let digest = sha2::Sha256::digest(body.as_bytes());
    let version = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    Asset {
        name,
        content_type,
        body,
        gzip,
        version,
    }
}

pub static SCRIPT: LazyLock<Asset> = LazyLock::new(|| {
    asset(
        "game.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/game.js"),
    )
});

/// The play controls of a signed-in player (issue 50): loaded by the game page and `/me`.
pub static PLAY_SCRIPT: LazyLock<Asset> = LazyLock::new(|| {
    asset(
        "play.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/play.js"),
    )
});

pub static STYLE: LazyLock<Asset> = LazyLock::new(|| {
    asset(
        "game.css",
        "text/css; charset=utf-8",
        include_str!("assets/game.css"),
    )
});

pub static TOURNAMENT_SCRIPT: LazyLock<Asset> = LazyLock::new(|| {
    asset(
        "tournament.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/tournament.js"),
    )
});

/// The Telegram Mini App's script (`/tg` and the game page: `mini_app`).
pub static TELEGRAM_SCRIPT: LazyLock<Asset> = LazyLock::new(|| {
    asset(
        "telegram.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/telegram.js"),
    )
});

/// The Discord Activity's script: web/activity/activity.js with the Embedded App SDK,
/// built by web/activity/build.mjs (docs/web.md "Discord Activity").
pub static ACTIVITY_SCRIPT: LazyLock<Asset> = LazyLock::new(|| {
    asset(
        "activity.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/activity.js"),
    )
});

pub static ICON: LazyLock<Asset> =
    LazyLock::new(|| asset("icon.svg", "image/svg+xml", include_str!("assets/icon.svg")));

/// The asset named `name`.
pub fn find(name: &str) -> Option<&'static Asset> {
    [
        &*SCRIPT,
        &*PLAY_SCRIPT,
        &*STYLE,
        &*ICON,
        &*TOURNAMENT_SCRIPT,
        &*TELEGRAM_SCRIPT,
        &*ACTIVITY_SCRIPT,
    ]
    .into_iter()
    .find(|a| a.name == name)
}

impl Asset {
    /// Its address, with the version that busts caches.
    pub fn href(&self) -> String {
        format!("/assets/{}?v={}", self.name, self.version)
    }
}
