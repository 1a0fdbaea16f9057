//! Manager events -> edits of the Discord messages that show a game or a challenge.
//!
//! The bot's move, a time-out, a resignation by slash command, an expired challenge: none of
//! these answers an interaction, so the stored message refs (`channel:message`, kept by the
//! manager, hence valid after a restart) are edited through the channel endpoint. Each event
//! runs in its own task, holding the game's lock so that edits of one game apply in order.

use super::messages::{self, Stamp};
use super::{parse_message_ref, Bot, Drawn};
use crate::i18n::Lang;
use crate::manager::{
    Action, ChallengeView, ChatRef, Event, GameView, MessageRef, Platform, Player, Reply, Request,
    UserRef,
};
use serenity::all::{ChannelId, Http, MessageId};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;

/// Follows the manager's events until the manager goes away.
pub(super) async fn run(bot: Arc<Bot>, http: Arc<Http>) {
    let mut events = bot.manager.subscribe();
    loop {
        match events.recv().await {
            Ok(event) => {
                let (bot, http) = (bot.clone(), http.clone());
                tokio::spawn(async move { handle(bot, http, event).await });
            }
            Err(RecvError::Lagged(missed)) => {
                // Missed boards are redrawn on the next change or by /board.
                tracing::warn!(missed, "Discord: fell behind the manager's events");
            }
            Err(RecvError::Closed) => return,
        }
    }
}

fn ours(messages: &[MessageRef]) -> bool {
    messages.iter().any(|m| m.platform == Platform::Discord)
}

async fn handle(bot: Arc<Bot>, http: Arc<Http>, event: Event) {
    match event {
        Event::Game(view) | Event::Acted { view, .. } => {
            if view.chat.platform != Platform::Discord && !ours(&view.messages) {
                return;
            }
            let lang = players_lang(&bot, &view).await;
            redraw_until_shown(bot, http, view.id, lang).await;
        }
        Event::Challenge(view) => {
            if !ours(&view.messages) || view.is_open() {
                return;
            }
            let _guard = bot.hold(format!("c:{}", view.id)).await;
            let lang = bot
                .manager
                .user_lang(&view.challenger)
                .await
                .unwrap_or_default();
            close_challenge(&bot, &http, &view, lang).await;
        }
    }
}

/// The language of the game's first human player who chose one.
async fn players_lang(bot: &Bot, view: &GameView) -> Lang {
    for user in view.players.iter().filter_map(Player::user) {
        if let Some(lang) = bot.manager.user_lang(user).await {
            return lang;
        }
    }
    Lang::default()
}

/// Pauses before each new attempt at a board whose edit failed even after the REST retries
/// (Discord down for a while): the move is stored, only its picture is late.
const REDRAW_BACKOFF: [Duration; 5] = [
    Duration::from_secs(2),
    Duration::from_secs(10),
    Duration::from_secs(60),
    Duration::from_secs(300),
    Duration::from_secs(1800),
];

/// What one redraw of a game's messages did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Redraw {
    /// Every message already showed the game as it is.
    UpToDate,
    /// Some message was edited.
    Edited,
    /// An edit failed in a way that may pass (see [`transient`]).
    Failed,
}

/// Redraws a game's messages, and tries again later while an edit fails. Every attempt
/// draws the game as it is then, so a late retry never shows an old board. After an edit it
/// looks once more: when an edit took so long that another one went ahead without the lock
/// (see `Bot::hold`), an older board may have landed last.
async fn redraw_until_shown(bot: Arc<Bot>, http: Arc<Http>, id: String, lang: Lang) {
    let mut pauses = REDRAW_BACKOFF.iter();
    let mut checks = 0;
    loop {
        let redraw = {
            let _guard = bot.hold(format!("g:{id}")).await;
            refresh_game(&bot, &http, &id, lang).await
        };
        match redraw {
            Redraw::UpToDate => return,
            Redraw::Edited if checks < 3 => {
                checks += 1;
                continue;
            }
            Redraw::Edited => return,
            Redraw::Failed => {}
        }
        let Some(pause) = pauses.next() else {
            tracing::warn!(
                game = id,
                "Discord: gave up redrawing a game; /board shows it"
            );
            return;
        };
        tracing::info!(
            game = id,
            after_secs = pause.as_secs(),
            "Discord: will redraw the game again"
        );
        tokio::time::sleep(*pause).await;
    }
}

/// Redraws every message of a game that does not show its latest state. The caller holds the
/// game's lock.
pub(super) async fn refresh_game(bot: &Bot, http: &Http, id: &str, lang: Lang) -> Redraw {
    let viewer = UserRef::new(Platform::Discord, bot.bot_id.to_string(), "toguz");
    let request = Request {
        actor: viewer,
        chat: ChatRef::new(Platform::Discord, "0"),
        action: Action::Show {
            game: Some(id.to_string()),
        },
    };
    let view = match bot.manager.act(request).await {
        Ok(Reply::Game(view)) => view,
        Ok(_) => return Redraw::UpToDate,
        Err(error) => {
            // Nothing to draw (the game is gone or unreadable): retrying would not help.
            tracing::warn!(game = id, %error, "Discord: cannot load a game to redraw");
            return Redraw::UpToDate;
        }
    };
    let stamp = Drawn::Game(Stamp::of(&view));
    let mut redraw = Redraw::UpToDate;
    for r in &view.messages {
        let Some((channel, message)) = parse_message_ref(r) else {
            continue;
        };
        if bot.drawn(message) == Some(stamp) {
            continue;
        }
        let edit = messages::game(&view, lang, bot.settings.mention).into_edit();
        match ChannelId::new(channel)
            .edit_message(http, MessageId::new(message), edit)
            .await
        {
            Ok(_) => {
                bot.set_drawn(message, stamp);
                if redraw == Redraw::UpToDate {
                    redraw = Redraw::Edited;
                }
            }
            Err(error) => {
                if transient(&error) {
                    redraw = Redraw::Failed;
                }
                tracing::warn!(game = id, message, %error, "Discord: cannot update a game message")
            }
        }
    }
    redraw
}

/// Whether a failed request may succeed later: Discord or the network in trouble, not a
/// refusal (a deleted message, a missing permission) that would only repeat.
fn transient(error: &serenity::Error) -> bool {
    use serenity::http::HttpError;
    match error {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(resp)) => {
            resp.status_code.is_server_error() || resp.status_code.as_u16() == 429
        }
        serenity::Error::Http(HttpError::Request(_)) => true,
        _ => false,
    }
}

/// Shows a closed challenge (expired, declined, accepted elsewhere) on its messages, except
/// a message that has since become the game's own board.
async fn close_challenge(bot: &Bot, http: &Http, view: &ChallengeView, lang: Lang) {
    for r in &view.messages {
        let Some((channel, message)) = parse_message_ref(r) else {
            continue;
        };
        if matches!(bot.drawn(message), Some(Drawn::Game(_))) {
            continue;
        }
        let edit = messages::challenge(view, lang).into_edit();
        match ChannelId::new(channel)
            .edit_message(http, MessageId::new(message), edit)
            .await
        {
            Ok(_) => bot.set_drawn(message, Drawn::Challenge),
            Err(error) => tracing::warn!(
                challenge = view.id,
                message,
                %error,
                "Discord: cannot update a challenge message"
            ),
        }
    }
}
