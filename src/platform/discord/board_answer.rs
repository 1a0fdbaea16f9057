//! Answering a press on a game's board (`handler.rs`): the pressed message redrawn with
//! the game, drawn from its owner's side when it is a player's board in their DM (a
//! tournament's board sent privately), and the next player told it is their move where
//! they see the game (`mention = "message"`).

use super::answer::Origin;
use super::config::MentionStyle;
use super::handler::chat;
use super::messages::{self, Stamp};
use super::{message_ref, Bot, Drawn};
use crate::manager::{GameView, Target};
use crate::model::UserRef;
use crate::platform::present;
use crate::t;
use serenity::all::{ChannelId, Http};
use std::sync::Arc;

impl Bot {
    /// Answers a press by redrawing the pressed message with the game; pings the next player
    /// with a short message when so configured. `(message, in_dm)`: the pressed message,
    /// and whether it is in a DM (a press in a DM on a game played elsewhere is on the
    /// presser's own board of it, sent by a tournament: drawn from their side).
    pub(super) async fn update_game(
        self: &Arc<Self>,
        http: &Arc<Http>,
        origin: &Origin<'_>,
        view: &GameView,
        actor: &UserRef,
        (message, in_dm): (u64, bool),
    ) {
        let channel = origin.channel().get();
        let owner = (in_dm && view.chat != chat(None, origin.channel()))
            .then_some(actor)
            .filter(|a| view.side_of(a).is_some());
        // The next player is pinged in the board's language too: it is theirs.
        let lang = match owner {
            Some(owner) => super::events::owner_lang(view, owner),
            None => present::board_lang(view),
        };
        let out = self.board_for(view, lang, owner).await;
        let ticket = self.begin_draw(message);
        let answered = origin.update(out).await;
        let landed = answered.then_some(Drawn::Game(Stamp::of(view)));
        if !self.end_draw(message, ticket, landed) && answered {
            // An edit by the game's worker overlapped this answer: either may have landed
            // last, so the worker looks again.
            super::events::nudge_game(self, http, &view.id);
        }
        let attached = view
            .messages
            .iter()
            .any(|m| super::parse_message_ref(m) == Some((channel, message)));
        if !attached {
            // Attached even when the answer failed: an accepted challenge's message is the
            // game's only board, and the worker can draw it only once it knows it.
            let this = match owner.and_then(messages::user_id) {
                Some(id) => super::dm_message_ref(id.get(), channel, message),
                None => message_ref(channel, message),
            };
            present::attach(&self.manager, Target::Game(view.id.clone()), this, owner).await;
        }
        if !answered {
            // Discord took no answer (too late, or failures): the game's worker edits the
            // message into the board instead.
            super::events::nudge_game(self, http, &view.id);
            return;
        }
        if self.settings.mention == MentionStyle::Message {
            if let Some(next) = messages::human_to_move(view).filter(|u| *u != actor) {
                self.tell_turn(http, origin, view, next, owner.is_some())
                    .await;
            }
        }
    }

    /// Tells `next` it is their move where they see the game: in their DM when their board
    /// is there, in the game's channel when the press was on a DM board, else as a
    /// follow-up in the channel pressed in.
    async fn tell_turn(
        &self,
        http: &Http,
        origin: &Origin<'_>,
        view: &GameView,
        next: &UserRef,
        pressed_in_dm: bool,
    ) {
        let lang = super::events::owner_lang(view, next);
        let text = t!(
            lang,
            "discord-your-move",
            mention = format!("<@{}>", next.id),
            id = view.id.as_str()
        );
        let mut out = messages::text(text);
        out.ping.extend(messages::user_id(next));
        let elsewhere = match messages::dm_board_of(view, next) {
            Some((dm, _)) => Some(dm),
            None if pressed_in_dm => view
                .messages
                .iter()
                .filter(|m| super::dm_owner(m).is_none())
                .find_map(super::parse_message_ref)
                .map(|(channel, _)| channel),
            None => None,
        };
        match elsewhere {
            Some(channel) => {
                let sent = ChannelId::new(channel)
                    .send_message(http, out.into_message())
                    .await;
                if let Err(error) = sent {
                    tracing::warn!(game = view.id, %error, "Discord: cannot tell a player it is their move");
                }
            }
            None => {
                origin.followup(out).await;
            }
        }
    }
}
