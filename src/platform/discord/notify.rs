//! `/notify` (issue 51): what a player is told in DMs about their correspondence games,
//! answered privately; and telling the manager DMs may reach a user again when they write
//! to the bot.

use super::answer::Origin;
use super::commands::NotifyOptions;
use super::failure::{said, Failure, Handled};
use super::Bot;
use crate::i18n::Lang;
use crate::model::UserRef;
use crate::platform::present::alerts;
use crate::t;
use std::sync::Arc;

impl Bot {
    /// `/notify [mode:] [hour:] [quiet:] [utc:]`: without options the settings, else each
    /// change made and the settings after them.
    pub(super) async fn notify_command(
        self: &Arc<Self>,
        origin: &Origin<'_>,
        user: &UserRef,
        options: NotifyOptions,
        lang: Lang,
    ) -> Handled {
        let usage = t!(lang, "discord-notify-usage");
        let changes = options.changes().map_err(|error| {
            Failure::Unable(format!("{}\n{usage}", alerts::notify_error(&error, lang)))
        })?;
        let mut settings = None;
        for change in changes {
            settings = Some(self.manager.set_notify(user, change).await?);
        }
        let text = match settings {
            Some(settings) => alerts::notify_saved(&settings, lang),
            None => {
                let settings = self.manager.notify_settings(user).await?;
                format!("{}\n\n{usage}", alerts::notify_text(&settings, lang))
            }
        };
        said(origin, text).await
    }

    /// `user` wrote to the bot (a command anywhere, a press in a DM): DMs may reach them
    /// again (they were remembered as unreachable after a refused DM). A press on a board
    /// in a server does not count: each of their moves would cost another refused DM. In
    /// the background: an answer never waits for it.
    pub(super) fn reachable_again(self: &Arc<Self>, user: &UserRef) {
        let manager = self.manager.clone();
        let user = user.clone();
        tokio::spawn(async move { manager.reachable_again(&user).await });
    }
}
