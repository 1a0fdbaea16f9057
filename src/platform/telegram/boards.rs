//! Showing games and challenges: the board message (PNG + caption + keyboard, or text in
//! inline mode), editing it in place or posting a new one per move, telling the player to
//! move, and following the manager's events (the bot's moves, expired challenges).

use super::change::Change;
use super::markup::{self, MiniApp, Where};
use super::placement::{self, Facts, Step};
use super::poster::Content;
use super::refs::MsgRef;
use super::Ctx;
use crate::i18n::Lang;
use crate::manager::{ChallengeStatus, ChallengeView, Event, GameView, Player, Reply, Target};
use crate::model::{Platform, UserRef};
use crate::platform::present;
use crate::render::{self, Charset};
use crate::rules::Side;
use crate::t;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use teloxide::prelude::*;
use teloxide::types::MessageId;
use tokio::sync::broadcast::{self, error::RecvError};

/// Escapes text for Telegram's HTML parse mode.
pub fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Where an answer is shown.
pub struct Origin {
    /// The message whose button was pressed.
    pub place: Option<MsgRef>,
    /// The chat to post new messages in (none for inline messages).
    pub chat: Option<i64>,
    /// The command to reply to.
    pub reply_to: Option<i32>,
    /// Post the board as a new message even if one exists (`/board`).
    pub repost: bool,
    /// The pressed message is a board of this game even if the game does not know it (the
    /// bot stopped between posting and attaching it): show the game there.
    pub adopt: bool,
    /// Whose command a new board answers (a spectator's `/board` is kept apart from the
    /// game's own boards); `None` for presses, whose boards are the game's.
    pub asker: Option<UserRef>,
}

/// Shows what an action answered: a board (edited or posted), a challenge, a list. Posts
/// are queued in the chat's outbox; nothing here waits for a flood allowance.
pub async fn show_reply(ctx: &Arc<Ctx>, reply: Reply, o: &Origin, lang: Lang) {
    match reply {
        Reply::Game(view) => show_game(ctx, &view, o).await,
        Reply::Challenge(cv) => {
            let here = o
                .place
                .as_ref()
                .is_some_and(|p| cv.messages.contains(&p.to_ref()));
            if here {
                refresh_challenge(ctx, &cv).await;
            } else if let Some(chat) = o.chat {
                let content = challenge_content(&cv, lang);
                let target = Target::Challenge(cv.id.clone());
                ctx.send_later(chat, o.reply_to, content, Some(target));
            }
        }
        Reply::Games(views) => {
            if let Some(chat) = o.chat {
                ctx.reply(
                    chat,
                    o.reply_to,
                    html(&present::games_text(&views, o.asker.as_ref(), lang)),
                );
            }
        }
    }
}

async fn show_game(ctx: &Arc<Ctx>, view: &GameView, o: &Origin) {
    let lang = present::board_lang(view);
    let mut facts = Facts {
        place: o.place.as_ref(),
        attached: o
            .place
            .as_ref()
            .is_some_and(|p| view.messages.contains(&p.to_ref())),
        adopt: o.adopt,
        attached_now: None,
        shown: view.messages.iter().any(|m| MsgRef::parse(m).is_some()),
        // A new game is posted in its own chat (not wherever a button was pressed).
        home: chat_id(view).or(o.chat),
        repost: o.repost,
    };
    let mut step = placement::decide(&facts);
    if step == Step::LookAgain {
        facts.attached_now = Some(attached_now(ctx, view, facts.place).await);
        step = placement::decide(&facts);
    }
    match (step, &o.place) {
        (Step::Adopt { inline }, Some(place)) => {
            let target = Target::Game(view.id.clone());
            present::attach(&ctx.manager, target, place.to_ref(), None).await;
            let at = if inline {
                Where::Inline
            } else {
                Where::of(place)
            };
            let content = board_content(view, lang, at, ctx.mini_app.as_ref()).await;
            ctx.poster.edit(place.clone(), content, version(view));
            catch_up(ctx, view).await;
        }
        (Step::RefreshNow, _) => {
            if let Some(now) = current(ctx, view).await {
                refresh(ctx, &now).await;
            }
        }
        (Step::Post { chat }, _) => {
            post_board(ctx, view, chat, o.reply_to, lang, o.asker.clone());
        }
        _ => {
            let change = Change {
                view: view.clone(),
                actor: None,
                pressed: Some(tokio::time::Instant::now()),
            };
            ctx.turns.push(ctx, change);
        }
    }
}

/// Whether a pressed board of `view` is among the game's messages once any post of this
/// game in its chat is attached (a post is attached before its lock is let go): false for
/// a board the bot posted but did not attach before it stopped.
async fn attached_now(ctx: &Arc<Ctx>, view: &GameView, place: Option<&MsgRef>) -> bool {
    let Some(place @ MsgRef::Chat { chat, .. }) = place else {
        return true;
    };
    drop(ctx.poster.posted(&view.id, *chat).await);
    current(ctx, view)
        .await
        .is_none_or(|now| now.messages.contains(&place.to_ref()))
}

/// What a board message shows: a PNG with caption and keyboard, or (inline messages,
/// or if drawing fails) the text board. The PNG is drawn off the async workers
/// (`render::board_png`), so other chats' updates go on meanwhile.
pub async fn board_content(
    view: &GameView,
    lang: Lang,
    place: Where,
    mini_app: Option<&MiniApp>,
) -> Content {
    board_content_for(view, lang, place, None, mini_app).await
}

/// `board_content` for a board in `owner`'s private chat (a tournament's boards go to the
/// players privately): drawn from their side, with pits to press only on their turn.
pub async fn board_content_for(
    view: &GameView,
    lang: Lang,
    place: Where,
    owner: Option<&UserRef>,
    mini_app: Option<&MiniApp>,
) -> Content {
    let inline = place.is_inline();
    let keyboard = Some(markup::game_keyboard_for(
        view, lang, place, owner, mini_app,
    ));
    let caption = present::caption(view, lang);
    let board = present::board_view(view, owner.or(present::viewer(view)), lang);
    if !inline {
        match render::board_png(board.clone()).await {
            Ok(png) => {
                return Content::Photo {
                    png: Arc::new(png),
                    caption,
                    keyboard,
                    html: false,
                }
            }
            Err(error) => tracing::warn!(%error, game = view.id, "board PNG failed"),
        }
    }
    let text = format!(
        "<pre>{}</pre>\n{}",
        html(&render::text(&board, Charset::Unicode)),
        html(&caption)
    );
    Content::Text { text, keyboard }
}

/// The messages that show `view` now: the newest one per chat (older ones lost their
/// keyboard when a newer one was posted).
fn live_messages(view: &GameView) -> Vec<MsgRef> {
    let mut live: Vec<MsgRef> = vec![];
    for r in view.messages.iter().rev().filter_map(MsgRef::parse) {
        if !live.iter().any(|l| l.chat_key() == r.chat_key()) {
            live.push(r);
        }
    }
    live
}

/// The game's board message in `chat`, which a notice about it replies to.
fn board_message_in(view: &GameView, chat: i64) -> Option<i32> {
    live_messages(view).into_iter().find_map(|m| match m {
        MsgRef::Chat { chat: c, message } if c == chat => Some(message),
        _ => None,
    })
}

/// Shows a changed game: edits the live boards (or posts a new one, per config). The
/// board is drawn once per kind (photo or inline text), however many messages show it.
/// Returns false when no message shows the game yet.
pub async fn refresh(ctx: &Arc<Ctx>, view: &GameView) -> bool {
    let lang = present::board_lang(view);
    let live = live_messages(view);
    if live.is_empty() {
        // Not attached yet: the handler that is posting it catches up afterwards.
        tracing::debug!(game = view.id, "no board message to update");
        return false;
    }
    let mut drawn: [Option<Content>; 3] = [None, None, None];
    for target in live {
        let place = Where::of(&target);
        if let Some((owner, lang)) = private_owner(view, &target) {
            let content =
                board_content_for(view, lang, place, Some(owner), ctx.mini_app.as_ref()).await;
            ctx.poster.edit(target, content, version(view));
            continue;
        }
        if ctx.config.edit_in_place || place.is_inline() {
            let slot = &mut drawn[place as usize];
            let content = match slot {
                Some(content) => content.clone(),
                None => {
                    let content = board_content(view, lang, place, ctx.mini_app.as_ref()).await;
                    slot.insert(content).clone()
                }
            };
            ctx.poster.edit(target, content, version(view));
        } else if let MsgRef::Chat { chat, .. } = target {
            let post = Post {
                reply_to: None,
                only_newer: true,
                asker: None,
                lead: None,
            };
            queue_board(ctx, view, chat, lang, post, false);
        }
    }
    true
}

/// Posts `view` as a new message in `chat` (through the chat's outbox), attaches it to
/// the game, takes the keyboard off the board it replaces, and then shows the game
/// again if it moved on meanwhile (the bot may have moved before the board was attached).
/// `asker`: whose command it answers (a spectator's board is kept apart from the game's).
pub fn post_board(
    ctx: &Arc<Ctx>,
    view: &GameView,
    chat: i64,
    reply_to: Option<i32>,
    lang: Lang,
    asker: Option<UserRef>,
) {
    let post = Post {
        reply_to,
        only_newer: false,
        asker,
        lead: None,
    };
    queue_board(ctx, view, chat, lang, post, true);
}

/// `post_board` for a game announced as it is posted: `lead` (HTML, e.g. a tournament's
/// pairing line mentioning both players) comes first in the board's caption. The game's
/// later boards have their usual caption.
///
/// Many at once (a tournament's pairings) must all get through: this waits for room in
/// the chat's outbox, leaving half of it for the chat's other posts, so only a worker of
/// its own may call it.
pub async fn post_board_with_lead(
    ctx: &Arc<Ctx>,
    view: &GameView,
    chat: i64,
    lang: Lang,
    lead: String,
) {
    let how = Post {
        reply_to: None,
        only_newer: false,
        asker: None,
        lead: Some(lead),
    };
    let job = board_job(ctx, view, chat, lang, how, true);
    let keep_free = super::outbox::OUTBOX_CAP / 2;
    ctx.outbox
        .push_leaving_room(chat, Some(board_key(view)), job, keep_free)
        .await;
}

/// How a board is posted.
struct Post {
    /// The command it answers.
    reply_to: Option<i32>,
    /// Skipped when a board as new is already posted in the chat.
    only_newer: bool,
    /// Whose command it answers (`None`: the game's own board).
    asker: Option<UserRef>,
    /// HTML put before the caption of this post only.
    lead: Option<String>,
}

/// Queues a board post; a board of the same game still waiting in the chat's outbox is
/// replaced by it (only the newest matters).
fn queue_board(
    ctx: &Arc<Ctx>,
    view: &GameView,
    chat: i64,
    lang: Lang,
    how: Post,
    then_catch_up: bool,
) {
    let job = board_job(ctx, view, chat, lang, how, then_catch_up);
    ctx.outbox.push(chat, Some(board_key(view)), job);
}

/// A board's key in its chat's outbox: a newer board of the game replaces a waiting one.
fn board_key(view: &GameView) -> String {
    format!("board:{}", view.id)
}

/// The outbox job that posts a board as `how` says.
fn board_job(
    ctx: &Arc<Ctx>,
    view: &GameView,
    chat: i64,
    lang: Lang,
    how: Post,
    then_catch_up: bool,
) -> super::outbox::Job {
    let ctx = ctx.clone();
    let view = view.clone();
    Box::pin(async move {
        post(&ctx, &view, chat, lang, &how).await;
        if then_catch_up {
            catch_up(&ctx, &view).await;
        }
    })
}

/// Posts `view` now (in the chat's outbox task), as `how` says.
async fn post(ctx: &Ctx, view: &GameView, chat: i64, lang: Lang, how: &Post) {
    let mut posted = ctx.poster.posted(&view.id, chat).await;
    if how.only_newer && posted.message.is_some() && version(view) <= posted.version {
        return;
    }
    let mut content = board_content(view, lang, Where::chat(chat), ctx.mini_app.as_ref()).await;
    if let Some(lead) = &how.lead {
        content = with_lead(content, lead);
    }
    let posting = ctx.outbox.posting(chat);
    let (sent, _attaching) = match ctx
        .poster
        .send_holding(chat, &content, how.reply_to, posting)
        .await
    {
        Ok(m) => m,
        Err(err) => {
            let error = ctx.poster.describe(&err);
            tracing::warn!(game = view.id, chat, error, "board not posted");
            return;
        }
    };
    let new = MsgRef::Chat {
        chat,
        message: sent.id.0,
    };
    let target = Target::Game(view.id.clone());
    present::attach(&ctx.manager, target, new.to_ref(), how.asker.as_ref()).await;
    let mut old: Vec<MsgRef> = live_messages(view)
        .into_iter()
        .filter(|m| m.chat_key() == new.chat_key())
        .collect();
    old.extend(posted.message.replace(new.clone()));
    old.dedup();
    posted.version = posted.version.max(version(view));
    for m in old.into_iter().filter(|m| *m != new) {
        ctx.poster.edit(m, Content::Keyboard(None), u64::MAX);
    }
}

/// `content` with `lead` (HTML) before its caption or text; the caption becomes HTML.
pub fn with_lead(content: Content, lead: &str) -> Content {
    match content {
        Content::Photo {
            png,
            caption,
            keyboard,
            html: was_html,
        } => {
            let caption = if was_html { caption } else { html(&caption) };
            Content::Photo {
                png,
                caption: format!("{lead}\n{caption}"),
                keyboard,
                html: true,
            }
        }
        Content::Text { text, keyboard } => Content::Text {
            text: format!("{lead}\n{text}"),
            keyboard,
        },
        other => other,
    }
}

/// The bot may have moved while a board was being posted or attached (its change found
/// no message to edit): show the game once more if it moved on.
pub async fn catch_up(ctx: &Arc<Ctx>, posted: &GameView) {
    if let Some(now) = current(ctx, posted).await {
        if now.ply != posted.ply || now.status != posted.status {
            refresh(ctx, &now).await;
        }
    }
}

/// The game of `view` as it is now.
pub async fn current(ctx: &Ctx, view: &GameView) -> Option<GameView> {
    ctx.manager.game(&view.id).await.ok()
}

/// Shows one change of a game (called by its worker in `turns`): the board, and the
/// turn notice when `notice`. False if no message shows the game yet.
pub async fn show_change(ctx: &Arc<Ctx>, change: &Change, notice: bool) -> bool {
    let shown = refresh(ctx, &change.view).await;
    if notice {
        notify_turn(ctx, &change.view, change.actor.as_ref()).await;
    }
    shown
}

/// Tells the player to move (when that is a person other than `actor`) in the game's
/// chat. Edits do not notify in Telegram, so this is what makes a phone buzz.
/// Only the newest notice of a game stays in the chat: the one it replaces is deleted,
/// and the last one goes when the game ends.
/// A game that ended on time is announced even with `notify_turn` off: without it
/// nobody would learn that the game is over.
pub async fn notify_turn(ctx: &Arc<Ctx>, view: &GameView, actor: Option<&UserRef>) {
    let Some(chat) = chat_id(view) else { return };
    if view.is_over() {
        if ctx.config.notify_turn {
            let worker = ctx.clone();
            let game = view.id.clone();
            let job =
                async move { delete_notice(&worker, worker.notices.replace(&game, None)).await };
            ctx.outbox
                .push(chat, Some(format!("notice:{}", view.id)), Box::pin(job));
        }
        if actor.is_none() && present::ended_on_time(view) {
            for chat in end_chats(view, chat) {
                tell_the_end(ctx, view, chat).await;
            }
        }
        return;
    }
    if !ctx.config.notify_turn {
        return;
    }
    let Some(Player::Human(user)) = view.to_move_player() else {
        return;
    };
    if actor == Some(user) {
        return;
    }
    // Told where they see the board: in their private chat when it is there. A
    // tournament's games have no notice per move in their group (forty players' notices
    // would spend the budget its boards need; the pairing mentioned them), nor in private
    // when timed (its players have the board open; a notice and its deletion per move
    // would double what a big event sends against Telegram's 30 messages a second).
    let tournament = view.seat.is_some();
    let chat = match private_board_of(view, user) {
        Some(_) if tournament && view.clock.is_some() => return,
        Some(private) => private,
        None if tournament => return,
        None => chat,
    };
    // The person to move is the board's viewer: the board speaks their language.
    let lang = present::board_lang(view);
    let text = t!(
        lang,
        "tg-your-turn",
        name = mention(user),
        game = view.id.as_str()
    );
    let reply_to = board_message_in(view, chat);
    let content = Content::Text {
        text,
        keyboard: None,
    };
    let worker = ctx.clone();
    let game = view.id.clone();
    let job = async move {
        match worker.poster.send(chat, &content, reply_to).await {
            Ok(sent) => {
                let new = MsgRef::Chat {
                    chat,
                    message: sent.id.0,
                };
                delete_notice(&worker, worker.notices.replace(&game, Some(new))).await;
            }
            Err(err) => {
                let error = worker.poster.describe(&err);
                tracing::info!(game, error, "turn notice not sent");
            }
        }
    };
    // A newer notice of the game replaces one still waiting.
    ctx.outbox
        .push(chat, Some(format!("notice:{}", view.id)), Box::pin(job));
}

/// A game that ended with nobody pressing (a flag, a first move not made, a move time
/// run out): the board's edit does not notify, so its players are told by a message that
/// stays, naming them and the result.
async fn tell_the_end(ctx: &Arc<Ctx>, view: &GameView, chat: i64) {
    let lang = present::board_lang(view);
    let Some(result) = present::result_text(view, lang) else {
        return;
    };
    let players: Vec<String> = view
        .players
        .iter()
        .filter_map(|p| p.user())
        .map(mention)
        .collect();
    let text = t!(
        lang,
        "tg-game-over",
        mentions = players.join(", "),
        game = view.id.as_str(),
        result = html(&result)
    );
    let reply_to = board_message_in(view, chat);
    let content = Content::Text {
        text,
        keyboard: None,
    };
    ctx.send_later(chat, reply_to, content, None);
}

async fn delete_notice(ctx: &Ctx, notice: Option<MsgRef>) {
    let Some(MsgRef::Chat { chat, message }) = notice else {
        return;
    };
    let deleted = ctx
        .bot
        .delete_message(ChatId(chat), MessageId(message))
        .await;
    if let Err(err) = deleted {
        // Already gone, or too old to delete (48 hours): harmless.
        tracing::debug!(error = ctx.poster.describe(&err), "turn notice not deleted");
    }
}

/// What a challenge message shows.
pub fn challenge_content(view: &ChallengeView, lang: Lang) -> Content {
    let keyboard = markup::challenge_keyboard(view, lang);
    Content::Text {
        text: html(&present::challenge_text(view, lang)),
        keyboard: Some(keyboard),
    }
}

/// Updates every message showing a challenge.
pub async fn refresh_challenge(ctx: &Ctx, view: &ChallengeView) {
    let lang = view.lang;
    let accepted = matches!(view.status, ChallengeStatus::Accepted(_));
    for target in view.messages.iter().filter_map(MsgRef::parse) {
        if accepted && target.is_inline() {
            // An accepted inline challenge's message now shows the game itctx.
            continue;
        }
        let version = if target.is_inline() {
            0
        } else {
            challenge_version(view)
        };
        ctx.poster
            .edit(target, challenge_content(view, lang), version);
    }
}

/// The player whose private chat `target` is in, with their language, when the game is
/// played elsewhere (a tournament's board sent to the player privately).
pub fn private_owner<'v>(view: &'v GameView, target: &MsgRef) -> Option<(&'v UserRef, Lang)> {
    let MsgRef::Chat { chat, .. } = target else {
        return None;
    };
    if *chat <= 0 || chat_id(view) == Some(*chat) {
        return None;
    }
    let id = chat.to_string();
    Side::BOTH
        .into_iter()
        .find_map(|side| match view.player(side) {
            Player::Human(user) if user.platform == Platform::Telegram && user.id == id => {
                Some((user, view.langs[side.index()]))
            }
            _ => None,
        })
}

/// `user`'s private chat when a board of the game is there.
fn private_board_of(view: &GameView, user: &UserRef) -> Option<i64> {
    live_messages(view).into_iter().find_map(|m| match &m {
        MsgRef::Chat { chat, .. } if private_owner(view, &m).is_some_and(|(u, _)| u == user) => {
            Some(*chat)
        }
        _ => None,
    })
}

/// Where the end of a game nobody pressed for is told: the game's chat, unless its boards
/// are all in the players' private chats (then each of those).
fn end_chats(view: &GameView, chat: i64) -> Vec<i64> {
    if view.seat.is_some() {
        // A tournament's results show in its standings; its group is not told each one.
        return view
            .players
            .iter()
            .filter_map(Player::user)
            .filter_map(|user| private_board_of(view, user))
            .collect();
    }
    let live = live_messages(view);
    let private: Vec<i64> = view
        .players
        .iter()
        .filter_map(Player::user)
        .filter_map(|user| private_board_of(view, user))
        .collect();
    let in_chat = live
        .iter()
        .any(|m| matches!(m, MsgRef::Chat { chat: c, .. } if *c == chat));
    match in_chat || private.is_empty() {
        true => vec![chat],
        false => private,
    }
}

/// The last turn notice posted for each game.
#[derive(Default)]
pub struct Notices(Mutex<HashMap<String, MsgRef>>);

impl Notices {
    /// Sets (or with `None` forgets) the notice of `game`; the one it replaces.
    fn replace(&self, game: &str, notice: Option<MsgRef>) -> Option<MsgRef> {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        match notice {
            Some(n) => map.insert(game.to_string(), n),
            None => map.remove(game),
        }
    }
}

/// An edit's order: the game's version (every durable change of what its boards show adds
/// one), the same rule Discord's `Stamp` follows.
pub fn version(view: &GameView) -> u64 {
    view.version
}

/// A challenge message's edit order: each change of its time control is newer than the one
/// before, and its close (accepted, declined...) the newest. (Inline challenge messages keep
/// version 0: accepted, they become the game's board, whose versions start at 0.)
pub fn challenge_version(view: &ChallengeView) -> u64 {
    u64::from(view.time_changes) * 2 + u64::from(!view.is_open())
}

/// The Telegram chat of a game, unless it lives in an inline message.
pub fn chat_id(view: &GameView) -> Option<i64> {
    if view.chat.platform != Platform::Telegram {
        return None;
    }
    view.chat.id.parse().ok()
}

/// A clickable mention of a Telegram user in HTML.
pub fn mention(user: &UserRef) -> String {
    format!(
        "<a href=\"tg://user?id={}\">{}</a>",
        user.id,
        html(&present::user_name(user))
    )
}

/// Games that ended while the manager started (a flag that fell before the stop): their
/// events went out before anyone listened, so they are shown, and their players told, as if
/// they came now.
async fn ended_at_start(ctx: Arc<Ctx>) {
    for id in ctx.manager.ended_at_start() {
        match ctx.manager.game(&id).await {
            Ok(view) if view.chat.platform == Platform::Telegram => {
                let change = Change {
                    view,
                    actor: None,
                    pressed: None,
                };
                ctx.turns.push(&ctx, change);
            }
            Ok(_) => {}
            Err(error) => {
                tracing::warn!(game = id, %error, "telegram: cannot show a game ended at start-up")
            }
        }
    }
}

/// A game just created that no message shows and nobody has moved in: only a tournament's
/// tick makes those without an answer to show it in, and the pairing's post shows it (a
/// turn notice before the board would name a game nobody can see yet).
fn unshown_new_game(view: &GameView) -> bool {
    view.chat.platform == Platform::Telegram
        && view.ply == 0
        && !view.is_over()
        && !view.messages.iter().any(|m| MsgRef::parse(m).is_some())
}

/// Follows the manager's events (`events`, subscribed by the caller) for Telegram games and
/// challenges until the manager stops. It never waits for a post: game changes go to their
/// game's worker (`turns`), challenge edits to the poster's background edits.
pub async fn follow_events(ctx: Arc<Ctx>, mut events: broadcast::Receiver<Event>) {
    tokio::spawn(ended_at_start(ctx.clone()));
    let catching_up = ctx.clone();
    tokio::spawn(async move { catching_up.tournaments.catch_up().await });
    loop {
        match events.recv().await {
            Ok(Event::Game(view)) if unshown_new_game(&view) => {
                // A tournament's new game: its pairing announcement posts the board.
                tracing::debug!(game = view.id, "telegram: new game left to its poster");
            }
            Ok(Event::Game(view)) if view.chat.platform == Platform::Telegram => {
                let change = Change {
                    view,
                    actor: None,
                    pressed: None,
                };
                ctx.turns.push(&ctx, change);
            }
            Ok(Event::Acted { view, actor }) if view.chat.platform == Platform::Telegram => {
                let change = Change {
                    view,
                    actor: Some(actor),
                    pressed: Some(tokio::time::Instant::now()),
                };
                ctx.turns.push(&ctx, change);
            }
            Ok(Event::Challenge(view)) if view.chat.platform == Platform::Telegram => {
                refresh_challenge(&ctx, &view).await;
            }
            Ok(Event::Tournament(news)) if news.record.chat.platform == Platform::Telegram => {
                ctx.tournaments.push(news);
            }
            Ok(Event::DailyPuzzle(news)) if news.post.chat.platform == Platform::Telegram => {
                ctx.daily.push(news);
            }
            Ok(_) => {}
            Err(RecvError::Lagged(missed)) => {
                // Boards catch up with the next change or /board.
                tracing::warn!(missed, "telegram: events lagged");
            }
            Err(RecvError::Closed) => return,
        }
    }
}
