//! What a tournament's Discord messages show (issue 33): the announcement (embed, countdown,
//! Join and Leave), the standings picture, mentions and Discord's length limits. Pure
//! drawing: the commands (`tournament.rs`) and the outlet of the shared tournament flow
//! (`tournament_outlet.rs`) both use it.

use super::messages::{self, Attachment, Outgoing};
use super::parse_message_ref;
use crate::i18n::Lang;
use crate::manager::buttons::{encode, Button};
use crate::manager::tournament::{Status, TournamentRecord};
use crate::model::UserRef;
use crate::platform::present::{tournament as show, ClockStyle};
use crate::t;
use serenity::all::{
    ButtonStyle, CreateActionRow, CreateButton, CreateEmbed, CreateEmbedFooter, UserId,
};

/// The standings picture's file name.
pub const STANDINGS_FILE: &str = "standings.png";
/// Discord's longest message content and embed description.
pub(super) const MAX_CONTENT: usize = 2000;
pub(super) const MAX_DESCRIPTION: usize = 4096;

pub(super) fn mention(user: &UserRef) -> String {
    format!("<@{}>", user.id)
}

/// `text` cut to `max` characters (an ellipsis marks the cut).
pub(super) fn within(text: String, max: usize) -> String {
    crate::render::shorten(&text, max, "…")
}

/// The Discord users of the event whose mention `text` holds (to be pinged by it).
pub(super) fn mentioned(rec: &TournamentRecord, text: &str) -> Vec<UserId> {
    rec.entrants
        .iter()
        .filter_map(|e| e.player.user())
        .filter(|u| text.contains(&mention(u)))
        .filter_map(messages::user_id)
        .collect()
}

/// The announcement: its text in an embed (a countdown Discord keeps current), the event's
/// id in the footer, Join and Leave while it takes players.
pub(super) fn announcement(rec: &TournamentRecord, lang: Lang, page: Option<String>) -> Outgoing {
    let shown = show::announcement(rec, lang, ClockStyle::Live);
    let colour = match rec.status {
        Status::Open => 0x2E8B57,
        Status::Running => 0x3B82F6,
        Status::Finished => 0xC9A227,
        Status::Cancelled => 0x808080,
    };
    let embed = CreateEmbed::new()
        .description(within(shown.text, MAX_DESCRIPTION))
        .footer(CreateEmbedFooter::new(t!(
            lang,
            "discord-tournament-footer",
            id = rec.id.as_str()
        )))
        .colour(colour);
    let buttons: Vec<CreateButton> = shown
        .buttons
        .iter()
        .map(|(button, label)| {
            let style = match button {
                Button::JoinTournament { .. } => ButtonStyle::Success,
                _ => ButtonStyle::Secondary,
            };
            CreateButton::new(encode(button))
                .label(label.clone())
                .style(style)
        })
        .collect();
    let mut components = Vec::new();
    if !buttons.is_empty() {
        components.push(CreateActionRow::Buttons(buttons));
    }
    // The event's page, in a row of its own, when the pages are served.
    if let Some(link) = crate::platform::present::web_tournament::page_button(page, lang) {
        let button = CreateButton::new_link(link.url).label(link.label);
        components.push(CreateActionRow::Buttons(vec![button]));
    }
    Outgoing {
        embed: Some(embed),
        components,
        ..Outgoing::default()
    }
}

/// The standings picture, drawn off the async workers (`None` when drawing failed: logged).
pub(super) async fn standings_png(rec: &TournamentRecord, lang: Lang) -> Option<Vec<u8>> {
    match crate::render::pool::table_png(show::standings_table(rec, lang)).await {
        Ok(png) => Some(png),
        Err(error) => {
            tracing::error!(tournament = rec.id, %error, "Discord: the standings picture failed");
            None
        }
    }
}

/// The standings picture's message: the title over the picture.
pub(super) fn standings_picture(title: &str, png: Vec<u8>) -> Outgoing {
    let embed = CreateEmbed::new()
        .description(title)
        .image(format!("attachment://{STANDINGS_FILE}"))
        .colour(0xC9A227);
    Outgoing {
        embed: Some(embed),
        files: vec![Attachment::new(STANDINGS_FILE, png)],
        ..Outgoing::default()
    }
}

pub(super) fn is_over(rec: &TournamentRecord) -> bool {
    matches!(rec.status, Status::Finished | Status::Cancelled)
}

/// The event's newest announcement channel: where its news goes.
pub(super) fn home(rec: &TournamentRecord) -> Option<(u64, u64)> {
    rec.messages.iter().rev().find_map(parse_message_ref)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_are_cut_to_discords_limits() {
        let cut = within("x".repeat(2500), MAX_CONTENT);
        assert_eq!(cut.chars().count(), MAX_CONTENT);
        assert!(cut.ends_with('…'));
        assert_eq!(within("short".into(), MAX_CONTENT), "short");
    }
}
