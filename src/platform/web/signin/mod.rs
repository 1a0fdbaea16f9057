//! Signing in on the pages (issue 50): each platform proves who a player is its own way,
//! then the manager opens a web session for them (`Manager::open_web_session`).

pub mod discord;
pub mod telegram;

/// What the sign-in paths check with, per platform; set by `toguz run` from the platforms'
/// sections (never read from `[web]`). A platform left out signs nobody in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SignIns {
    /// The Telegram Mini App's (`telegram`): when the Telegram bot runs beside the pages.
    pub telegram: Option<telegram::TelegramSignIn>,
    /// The Discord Activity's (`discord`): when `[discord] activity` is set up.
    pub discord: Option<discord::DiscordSignIn>,
}
