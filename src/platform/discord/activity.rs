//! The Discord Activity (issue 50, docs/web.md "Discord Activity"): `/activity` and a game
//! board's "Play on the board" button answer with
//! LAUNCH_ACTIVITY (interaction response type 12), and Discord opens the game page as the
//! application's Activity in that channel, where it signs the player in through Discord's
//! OAuth2 (`platform::web`'s `/activity`). The command is registered only when `[discord]
//! activity` is on (Discord refuses type 12 for an application without Activities).
//!
//! `/play` stays the game against the bot it has always been: the Activity has a command
//! of its own.

use super::answer::Origin;
use super::failure::{Failure, Handled};
use super::messages::{self, Outgoing};
use super::Bot;
use crate::i18n::{tr, Lang};
use crate::manager::GameView;
use crate::model::UserRef;
use crate::t;
use serenity::all::{CreateCommand, InteractionContext};

/// The command's name (its English one; Russian clients show `активность`).
pub(super) const COMMAND: &str = "activity";

/// `/activity`, for servers and the bot's DMs.
pub(super) fn definition() -> CreateCommand {
    let mut command = CreateCommand::new(COMMAND)
        .description(tr(Lang::En, "discord-cmd-activity-desc"))
        .contexts(vec![InteractionContext::Guild, InteractionContext::BotDm]);
    // Discord's locales we speak (no Kazakh: Discord has none, see commands.rs).
    for (locale, lang) in [("en-US", Lang::En), ("en-GB", Lang::En), ("ru", Lang::Ru)] {
        command = command
            .name_localized(locale, tr(lang, "discord-cmd-activity"))
            .description_localized(locale, tr(lang, "discord-cmd-activity-desc"));
    }
    command
}

impl Bot {
    /// A game's board as this bot posts it: `messages::game_for`, and the button that opens
    /// the Activity when it is set up.
    pub(super) async fn board_for(
        &self,
        view: &GameView,
        lang: Lang,
        owner: Option<&UserRef>,
    ) -> Outgoing {
        let out = messages::game_for(view, lang, self.settings.mention, owner).await;
        if self.settings.activity {
            messages::with_activity(out, view, lang)
        } else {
            out
        }
    }

    /// `/activity`: LAUNCH_ACTIVITY when the Activity is set up; else (a client that still
    /// lists the command from before) a private word saying it is not.
    pub(super) async fn launch_activity(&self, origin: &Origin<'_>, lang: Lang) -> Handled {
        if !self.settings.activity {
            return Err(Failure::Unable(t!(lang, "discord-activity-off")));
        }
        if origin.launch_activity().await {
            Ok(())
        } else {
            Err(Failure::Unable(t!(lang, "web-activity-unavailable")))
        }
    }
}
