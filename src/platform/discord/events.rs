//! Manager events -> edits of the Discord messages that show a game or a challenge.
//!
//! The bot's move, a time-out, a resignation by slash command, an expired challenge: none of
//! these answers an interaction, so the stored message refs (`channel:message`, kept by the
//! manager, hence valid after a restart) are edited through the channel endpoint.
//!
//! The event loop never waits: it hands each event to the one worker of its game (or
//! challenge) through a one-slot queue that keeps only the newest (`platform/worker.rs`), starting
//! the worker when there is none. A worker draws the game as it is then (so events that
//! piled up while an edit waited out a rate limit cost one edit), and stops, leaving no
//! entry behind, when nothing new came in.

use super::failure::transient;
use super::messages::{self, Outgoing, Stamp};
use super::{dm_owner, parse_message_ref, Bot, Drawn};
use crate::i18n::Lang;
use crate::manager::{ChallengeStatus, ChallengeView, Event, GameView, MessageRef};
use crate::model::{Platform, UserRef};
use crate::platform::present;
use crate::t;
use serenity::all::{ChannelId, Http, MessageId};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;

/// Follows the manager's events until the manager goes away.
pub(super) async fn run(bot: Arc<Bot>, http: Arc<Http>) {
    let mut events = bot.manager.subscribe();
    tokio::spawn(ended_at_start(bot.clone(), http.clone()));
    let claimed = bot.manager.serve_alerts(Platform::Discord);
    tokio::spawn(super::alerts::serve(bot.clone(), http.clone(), claimed));
    bot.tournaments.outlet().set_http(http.clone());
    let flow = bot.tournaments.clone();
    tokio::spawn(async move { flow.catch_up().await });
    loop {
        match events.recv().await {
            Ok(event) => dispatch(&bot, &http, event),
            Err(RecvError::Lagged(missed)) => {
                // Missed boards are redrawn on the next change or by /board.
                tracing::warn!(missed, "Discord: fell behind the manager's events");
            }
            Err(RecvError::Closed) => return,
        }
    }
}

/// Games that ended while the manager started (a flag that fell before the stop): their
/// events went out before anyone listened. They were going on when the process stopped, so
/// their messages showed them going on: known as such, the redraw that shows the end tells
/// the players, as when a flag falls while the bot runs.
async fn ended_at_start(bot: Arc<Bot>, http: Arc<Http>) {
    for id in bot.manager.ended_at_start() {
        let view = match bot.manager.game(&id).await {
            Ok(view) if ours(&view.messages) => view,
            Ok(_) => continue,
            Err(error) => {
                tracing::warn!(game = id, %error, "Discord: cannot show a game ended at start-up");
                continue;
            }
        };
        let going_on = Drawn::Game(Stamp {
            over: false,
            ..Stamp::of(&view)
        });
        for (_, message) in view.messages.iter().filter_map(parse_message_ref) {
            if bot.drawn(message).is_none() {
                bot.set_drawn(message, going_on);
            }
        }
        nudge_game(&bot, &http, &id);
    }
}

fn ours(messages: &[MessageRef]) -> bool {
    messages.iter().any(|m| m.platform == Platform::Discord)
}

/// Hands an event to the worker of its game or challenge.
fn dispatch(bot: &Arc<Bot>, http: &Arc<Http>, event: Event) {
    match event {
        Event::Game(view) | Event::Acted { view, .. } => {
            if view.chat.platform == Platform::Discord || ours(&view.messages) {
                nudge_game(bot, http, &view.id);
            }
        }
        Event::Challenge(view) => {
            if !ours(&view.messages) || view.is_open() {
                return;
            }
            let id = view.id.clone();
            if let Some(rx) = bot.challenges.offer(&id, view) {
                let work = challenge_worker(bot.clone(), http.clone(), id.clone(), rx);
                bot.challenges.spawn(id, work);
            }
        }
        Event::Tournament(news) => bot.tournaments.push(news),
        Event::DailyPuzzle(news) => {
            if news.post.chat.platform == Platform::Discord {
                super::daily::DailyPosts::push(bot, http, news);
            }
        }
    }
}

/// Asks the game's worker to bring its messages up to date, starting it if there is none.
pub(super) fn nudge_game(bot: &Arc<Bot>, http: &Arc<Http>, id: &str) {
    if let Some(rx) = bot.games.offer(id, ()) {
        let work = game_worker(bot.clone(), http.clone(), id.to_string(), rx);
        bot.games.spawn(id.to_string(), work);
    }
}

/// A game's worker: it reads the game afresh for each redraw (what it was handed only says
/// "look again"), and ends as soon as nothing new came in while it drew.
async fn game_worker(bot: Arc<Bot>, http: Arc<Http>, id: String, mut rx: watch::Receiver<()>) {
    let mut last = None;
    while bot.games.next(&id, &mut rx, Duration::ZERO).await {
        rx.borrow_and_update();
        last = redraw_until_shown(&bot, &http, &id, &mut rx).await;
    }
    if let Some(view) = last.filter(GameView::is_over) {
        // A finished game changes no more: its messages need no record.
        bot.forget_drawn(&view.messages, |_| true);
    }
    tracing::debug!(game = id, tracked = ?bot.tracked(), "Discord: game up to date");
}

async fn challenge_worker(
    bot: Arc<Bot>,
    http: Arc<Http>,
    id: String,
    mut rx: watch::Receiver<ChallengeView>,
) {
    let mut last = None;
    while bot.challenges.next(&id, &mut rx, Duration::ZERO).await {
        let view = rx.borrow_and_update().clone();
        let lang = view.lang;
        {
            let _guard = bot.hold(format!("c:{id}")).await;
            close_challenge(&bot, &http, &view, lang).await;
        }
        last = Some(view);
    }
    if let Some(view) = last {
        bot.forget_drawn(&view.messages, |d| d == Some(Drawn::Challenge));
    }
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

/// What one redraw of a game's messages did; later variants say more (the worst counts).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(super) enum Redraw {
    /// Every message already showed the game as it is.
    UpToDate,
    /// Some message was edited.
    Edited,
    /// An edit landed while another write of the same message (an answer to a press) was
    /// on its way: either may have landed last, so the message is drawn again at once.
    Overlapped,
    /// An edit failed in a way that may pass (see [`transient`]).
    Failed,
}

/// Redraws in a row after overlapping writes before the worker waits for the next event:
/// each overlap needs a press answered meanwhile, so this only bounds a pathological run.
const MAX_OVERLAPPED: usize = 20;

/// Redraws a game's messages, and tries again later while an edit fails. Every attempt
/// draws the game as it is then, so a late retry never shows an old board, and a newer event
/// cuts a pause short. After an edit it looks once more: an answer to a press may have
/// landed while the edit was on its way. Returns the game as last seen.
async fn redraw_until_shown(
    bot: &Bot,
    http: &Http,
    id: &str,
    rx: &mut watch::Receiver<()>,
) -> Option<GameView> {
    let mut pauses = REDRAW_BACKOFF.iter();
    let (mut checks, mut overlaps) = (0, 0);
    loop {
        let (redraw, view) = refresh_game(bot, http, id).await;
        match redraw {
            Redraw::UpToDate => return view,
            Redraw::Edited if checks < 3 => {
                checks += 1;
                continue;
            }
            Redraw::Edited => return view,
            Redraw::Overlapped if overlaps < MAX_OVERLAPPED => {
                overlaps += 1;
                continue;
            }
            Redraw::Overlapped => {
                tracing::warn!(game = id, "Discord: a game's board keeps being overlapped");
                return view;
            }
            Redraw::Failed => {}
        }
        let Some(pause) = pauses.next() else {
            tracing::warn!(
                game = id,
                "Discord: gave up redrawing a game; /board shows it"
            );
            return view;
        };
        tracing::info!(
            game = id,
            after_secs = pause.as_secs(),
            "Discord: will redraw the game again"
        );
        tokio::select! {
            () = tokio::time::sleep(*pause) => {}
            changed = rx.changed() => {
                if changed.is_err() {
                    return view;
                }
            }
        }
    }
}

/// The game as it is now, and its messages that show something older. Read under the
/// game's lock, waited for as long as it takes, so an answer to a press in progress (even a
/// late one, after a deferral) is out first and its message known to be up to date.
async fn stale_messages(bot: &Bot, id: &str) -> Option<(GameView, Vec<Stale>)> {
    let _guard = bot.hold_patiently(format!("g:{id}")).await;
    let view = match bot.manager.game(id).await {
        Ok(view) => view,
        Err(error) => {
            // Nothing to draw (the game is gone or unreadable): retrying would not help.
            tracing::warn!(game = id, %error, "Discord: cannot load a game to redraw");
            return None;
        }
    };
    let stamp = Drawn::Game(Stamp::of(&view));
    let stale = view
        .messages
        .iter()
        .filter_map(|r| {
            let (channel, message) = parse_message_ref(r)?;
            let owner = dm_owner(r).and_then(|owner| player_with_id(&view, owner));
            Some(Stale {
                channel,
                message,
                owner,
            })
        })
        .filter(|s| bot.drawn(s.message) != Some(stamp))
        .collect();
    Some((view, stale))
}

/// A message of a game to draw again: in `owner`'s DM (their board, drawn from their
/// side) or the game's own board (`None`).
struct Stale {
    channel: u64,
    message: u64,
    owner: Option<UserRef>,
}

/// The player of `view` with the Discord id `id`.
fn player_with_id(view: &GameView, id: u64) -> Option<UserRef> {
    let id = id.to_string();
    view.players
        .iter()
        .filter_map(|p| p.user())
        .find(|u| u.platform == Platform::Discord && u.id == id)
        .cloned()
}

/// The language of `owner`'s board: theirs, as the manager put it in the view.
pub(super) fn owner_lang(view: &GameView, owner: &UserRef) -> Lang {
    match view.side_of(owner) {
        Some(side) => view.langs[side.index()],
        None => present::board_lang(view),
    }
}

/// Redraws every message of a game that does not show its latest state. The board is drawn
/// once for all of the game's own messages, once for each player's DM board; the edits are
/// sent without holding the game's lock, so a press on the game is answered while an edit
/// waits out a rate limit.
pub(super) async fn refresh_game(bot: &Bot, http: &Http, id: &str) -> (Redraw, Option<GameView>) {
    let Some((view, stale)) = stale_messages(bot, id).await else {
        return (Redraw::UpToDate, None);
    };
    if stale.is_empty() {
        return (Redraw::UpToDate, Some(view));
    }
    let stamp = Drawn::Game(Stamp::of(&view));
    let mut drawn: Vec<(Option<UserRef>, Outgoing)> = Vec::new();
    let mut redraw = Redraw::UpToDate;
    let mut ended = Vec::new();
    for Stale {
        channel,
        message,
        owner,
    } in stale
    {
        let out = match drawn.iter().find(|(o, _)| *o == owner) {
            Some((_, out)) => out.clone(),
            None => {
                let lang = owner
                    .as_ref()
                    .map_or_else(|| present::board_lang(&view), |o| owner_lang(&view, o));
                let out = bot.board_for(&view, lang, owner.as_ref()).await;
                drawn.push((owner.clone(), out.clone()));
                out
            }
        };
        // This edit ends the game on this message: players are told once, by a message.
        let ends_here = matches!(bot.drawn(message), Some(Drawn::Game(s)) if !s.over);
        let ticket = bot.begin_draw(message);
        match ChannelId::new(channel)
            .edit_message(http, MessageId::new(message), out.into_edit())
            .await
        {
            Ok(_) => {
                let known = bot.end_draw(message, ticket, Some(stamp));
                redraw = redraw.max(match known {
                    true => Redraw::Edited,
                    false => Redraw::Overlapped,
                });
                if ends_here {
                    ended.push(Stale {
                        channel,
                        message,
                        owner,
                    });
                }
            }
            Err(error) => {
                bot.end_draw(message, ticket, None);
                if transient(&error) {
                    redraw = Redraw::Failed;
                }
                tracing::warn!(game = id, message, %error, "Discord: cannot update a game message")
            }
        }
    }
    if present::ended_on_time(&view) {
        // Told where the players see the game: its own board's channel, else each DM.
        let tell: Vec<&Stale> = match ended.iter().find(|s| s.owner.is_none()) {
            Some(own) => vec![own],
            None => ended.iter().collect(),
        };
        for place in tell {
            let lang = place
                .owner
                .as_ref()
                .map_or_else(|| present::board_lang(&view), |o| owner_lang(&view, o));
            tell_the_end(http, &view, lang, (place.channel, place.message)).await;
        }
    }
    (redraw, Some(view))
}

/// A game that ended on time with nobody pressing: an edit pings nobody, so its players
/// are told by a message in the board's channel (or DM), answering the board.
async fn tell_the_end(http: &Http, view: &GameView, lang: Lang, (channel, board): (u64, u64)) {
    let Some(result) = present::result_text(view, lang) else {
        return;
    };
    let humans: Vec<&UserRef> = view.players.iter().filter_map(|p| p.user()).collect();
    let players: Vec<String> = humans.iter().map(|u| format!("<@{}>", u.id)).collect();
    let text = t!(
        lang,
        "discord-game-over",
        mentions = players.join(", "),
        id = view.id.as_str(),
        result = result
    );
    let mut out = messages::text(text);
    out.ping
        .extend(humans.into_iter().filter_map(messages::user_id));
    let message = out
        .into_message()
        .reference_message((ChannelId::new(channel), MessageId::new(board)));
    if let Err(error) = ChannelId::new(channel).send_message(http, message).await {
        tracing::warn!(game = view.id, %error, "Discord: cannot tell the players the game ended");
    }
}

/// Shows a closed challenge (expired, declined, accepted elsewhere) on its messages, except
/// a message that has since become the game's own board.
async fn close_challenge(bot: &Bot, http: &Http, view: &ChallengeView, lang: Lang) {
    // The messages the accepted game took over as its boards are the game's now.
    let boards = match &view.status {
        ChallengeStatus::Accepted(game) => bot
            .manager
            .game(game)
            .await
            .map(|game| game.messages)
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    for r in view.messages.iter().filter(|r| !boards.contains(r)) {
        let Some((channel, message)) = parse_message_ref(r) else {
            continue;
        };
        // An accepted challenge's message has become the game's board (or is becoming it:
        // the answer may still be on its way), so only a message known to show the
        // challenge is edited then.
        let shown = bot.drawn(message);
        let accepted = matches!(view.status, ChallengeStatus::Accepted(_));
        if matches!(shown, Some(Drawn::Game(_))) || (accepted && shown != Some(Drawn::Challenge)) {
            continue;
        }
        let edit = messages::challenge(view, lang).into_edit();
        let ticket = bot.begin_draw(message);
        match ChannelId::new(channel)
            .edit_message(http, MessageId::new(message), edit)
            .await
        {
            Ok(_) => {
                bot.end_draw(message, ticket, Some(Drawn::Challenge));
            }
            Err(error) => {
                bot.end_draw(message, ticket, None);
                tracing::warn!(
                    challenge = view.id,
                    message,
                    %error,
                    "Discord: cannot update a challenge message"
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manager::{Action, Manager, ManagerConfig, Reply, Request, Target};
    use crate::model::{ChatRef, Level};
    use crate::platform::discord::messages::tests::RENDERS;
    use crate::rules::{Side, Variant};

    async fn manager(dir: &std::path::Path) -> Manager {
        let store = crate::store::Store::open(dir).expect("a store");
        let engine = crate::engine::EnginePool::new(crate::engine::EngineConfig::default());
        Manager::start(store, engine, ManagerConfig::default())
            .await
            .expect("a manager")
    }

    /// REST that nobody answers: every edit fails at once, after the board was drawn.
    fn unreachable_http() -> Http {
        serenity::all::HttpBuilder::new(
            "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB",
        )
        .proxy("http://127.0.0.1:9")
        .ratelimiter_disabled(true)
        .build()
    }

    /// `/board` attaches one more message to a game each time; a refresh that has to
    /// redraw all of them draws the board once, not once per message.
    #[tokio::test(flavor = "current_thread")]
    async fn one_refresh_draws_the_board_once_for_all_its_messages() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let bot = Bot::for_tests(manager(dir.path()).await);
        let request = Request {
            actor: UserRef::new(Platform::Discord, "11", "Alice"),
            chat: ChatRef::new(Platform::Discord, "900"),
            action: Action::PlayBot {
                level: Level::Random,
                variant: Variant::STANDARD,
                colour: Some(Side::White),
                time: None,
            },
        };
        let Ok(Reply::Game(view)) = bot.manager.act(request).await else {
            panic!("a game against the bot");
        };
        for message in 1..=4 {
            let r = super::super::message_ref(700 + message, 5000 + message);
            bot.manager
                .attach_message(Target::Game(view.id.clone()), r, None)
                .await
                .expect("attached");
        }
        RENDERS.with(|n| n.set(0));
        let (redraw, _) = refresh_game(&bot, &unreachable_http(), &view.id).await;
        assert_eq!(redraw, Redraw::Failed, "nobody answers the edits");
        assert_eq!(RENDERS.with(|n| n.get()), 1, "one board for four messages");
    }
}
