//! `/web`: whether the group's games are listed on the website's front page (issue 35).
//! The manager keeps the choice; only the group's admins make it (getChatMember, as for
//! `/puzzle post`). `/web profile on|off`: whether the caller's own page lists all their
//! games (issue 49, finding 9), anyone's choice for themselves.

use super::boards::html;
use super::command::WebCommand;
use super::failure::{Failure, HandlerResult};
use super::poster::Content;
use super::Ctx;
use crate::i18n::Lang;
use crate::model::{ChatRef, Platform, UserRef};
use crate::platform::present::{self, web as words};
use crate::t;
use std::sync::Arc;
use teloxide::types::Message;

/// How an admin lists a group (the `{ $command }` of the answers).
const COMMAND_ON: &str = "/web public on";
const COMMAND_OFF: &str = "/web public off";
/// How a player shows all their games on their page, or stops.
const PROFILE_ON: &str = "/web profile on";
const PROFILE_OFF: &str = "/web profile off";

/// `/web [public on|off | profile on|off | login | logout]`.
pub async fn command(
    ctx: &Arc<Ctx>,
    msg: &Message,
    actor: &UserRef,
    cmd: WebCommand,
    lang: Lang,
) -> HandlerResult {
    let chat_id = msg.chat.id.0;
    let chat = ChatRef::new(Platform::Telegram, chat_id.to_string());
    let site = ctx.manager.site_url();
    let text = match cmd {
        WebCommand::Show => {
            let public = ctx.manager.is_chat_public(&chat).await?;
            let listing = words::listing_state(public, (COMMAND_ON, COMMAND_OFF), site, lang);
            let mine = ctx.manager.player_page_public(actor).await?;
            let profile = words::profile_state(mine, (PROFILE_ON, PROFILE_OFF), lang);
            format!("{listing}\n\n{profile}")
        }
        WebCommand::Profile(public) => {
            ctx.manager.set_player_page_public(actor, public).await?;
            words::profile_set(public, lang)
        }
        WebCommand::Login => return login(ctx, msg, actor, lang).await,
        WebCommand::Logout => {
            let ended = ctx.manager.end_web_sessions(actor).await?;
            tracing::info!(ended, "telegram: web sessions ended");
            present::logout_done(ended, lang)
        }
        WebCommand::Public(public) => {
            if !msg.chat.is_private() && !super::tournaments::is_chat_admin(ctx, msg).await? {
                return Err(Failure::Unable(words::listing_admins_only(lang)));
            }
            ctx.manager.set_chat_public(&chat, actor, public).await?;
            tracing::info!(chat = chat_id, public, "telegram: chat listing set");
            words::listing_set(public, site, lang)
        }
    };
    ctx.reply(chat_id, Some(msg.id.0), html(&text));
    Ok(())
}

/// `/web login`: the link goes only to the user's private chat with the bot, as a button (a
/// link in the text would get a preview, fetched by Telegram).
async fn login(ctx: &Arc<Ctx>, msg: &Message, actor: &UserRef, lang: Lang) -> HandlerResult {
    if !msg.chat.is_private() {
        return Err(Failure::Unable(present::login_private_only(lang)));
    }
    let issued = ctx.manager.web_login_link(actor).await?;
    let (text, button) = present::login_answer(&issued, lang);
    let Some(keyboard) = super::markup::link_keyboard(&button) else {
        return Err(Failure::Unable(t!(lang, "manager-error-web-not-served")));
    };
    let content = Content::Text {
        text: html(&text),
        keyboard: Some(keyboard),
    };
    ctx.send_later(msg.chat.id.0, Some(msg.id.0), content, None);
    Ok(())
}
