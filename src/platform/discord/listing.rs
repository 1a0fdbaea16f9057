//! `/web [public: on|off]` (issue 35): whether the server's games are listed on the
//! website's front page. The manager keeps the choice; in a server only those who may
//! manage it make it (as for `/puzzle post`), in a direct message the caller.
//! `/web profile:on|off`: whether the caller's own page lists all their games (issue 49,
//! finding 9), anyone's choice for themselves.

use super::commands::BadOption;
use super::commands::SignInChoice;
use super::failure::{said, Failure, Handled};
use super::messages;
use super::{answer::Origin, Bot};
use crate::i18n::Lang;
use crate::model::{ChatRef, UserRef};
use crate::platform::present::{self, web as words};
use serenity::all::Member;
use std::sync::Arc;

/// How an admin lists a server (the `{ $command }` of the answers).
const COMMAND_ON: &str = "/web public:on";
const COMMAND_OFF: &str = "/web public:off";
/// How a player shows all their games on their page, or stops.
const PROFILE_ON: &str = "/web profile:on";
const PROFILE_OFF: &str = "/web profile:off";

/// A `/web` option's value, when given.
type WebChoice = Option<Result<bool, BadOption>>;

impl Bot {
    /// `/web [public:]`, answered.
    pub(super) async fn web_command(
        self: &Arc<Self>,
        origin: &Origin<'_>,
        (user, chat, member): (&UserRef, &ChatRef, Option<&Member>),
        (public, profile): (WebChoice, WebChoice),
        lang: Lang,
    ) -> Handled {
        let site = self.manager.site_url();
        if let Some(profile) = profile {
            let profile = profile.map_err(|BadOption| Failure::BadOption)?;
            if public.is_some() {
                // One choice at a time: each has its own answer.
                return Err(Failure::BadOption);
            }
            self.manager.set_player_page_public(user, profile).await?;
            return said(origin, words::profile_set(profile, lang)).await;
        }
        let Some(public) = public else {
            let listed = self.manager.is_chat_public(chat).await?;
            let listing = words::listing_state(listed, (COMMAND_ON, COMMAND_OFF), site, lang);
            let mine = self.manager.player_page_public(user).await?;
            let profile = words::profile_state(mine, (PROFILE_ON, PROFILE_OFF), lang);
            return said(origin, format!("{listing}\n\n{profile}")).await;
        };
        let public = public.map_err(|BadOption| Failure::BadOption)?;
        if member.is_some() && !super::tournament::is_admin(member) {
            return Err(Failure::Unable(words::listing_admins_only(lang)));
        }
        self.manager.set_chat_public(chat, user, public).await?;
        tracing::info!(chat = chat.id, public, "Discord: chat listing set");
        said(origin, words::listing_set(public, site, lang)).await
    }

    /// `/web signin:login|logout` (issue 50), answered privately: the one-time sign-in link
    /// as a button (a link in the text would be unfurled, fetched by Discord), or the end of
    /// every session of the caller.
    pub(super) async fn signin_command(
        self: &Arc<Self>,
        origin: &Origin<'_>,
        user: &UserRef,
        signin: SignInChoice,
        lang: Lang,
    ) -> Handled {
        match signin {
            SignInChoice::Login => {
                let issued = self.manager.web_login_link(user).await?;
                let (text, button) = present::login_answer(&issued, lang);
                origin.private(messages::link_message(text, &button)).await;
                Ok(())
            }
            SignInChoice::Logout => {
                let ended = self.manager.end_web_sessions(user).await?;
                tracing::info!(ended, "Discord: web sessions ended");
                said(origin, present::logout_done(ended, lang)).await
            }
        }
    }
}
