//! The update tree: commands, button presses, inline queries and chosen inline results, each
//! turned into a manager action and its answer shown with `boards`.

use super::boards::{html, version};
use super::config::Checked;
use super::markup::{self, INLINE_PREFIX};
use super::poster::{scrub, Content};
use super::refs::MsgRef;
use super::{user_ref, Ctx};
use crate::engine::Level;
use crate::i18n::{words, Lang};
use crate::manager::buttons::{decode, Button};
use crate::manager::{
    Action, ActionError, ChatRef, GameView, Platform, Reply, Request, Target, UserRef,
};
use crate::platform::present;
use crate::rules::Variant;
use crate::t;
use std::sync::Arc;
use std::time::Duration;
use teloxide::dispatching::{UpdateFilterExt, UpdateHandler};
use teloxide::prelude::*;
use teloxide::types::{
    CallbackQuery, ChosenInlineResult, InlineKeyboardMarkup, InlineQuery, InlineQueryResult,
    InlineQueryResultArticle, InputMessageContent, InputMessageContentText, MessageEntityKind,
    ParseMode,
};
use teloxide::update_listeners::{webhooks, Polling, UpdateListener as _};

type HandlerResult = anyhow::Result<()>;

/// Serves updates until Ctrl-C, by long polling or by webhook.
pub async fn dispatch(ctx: Arc<Ctx>, checked: Checked, token: String) -> anyhow::Result<()> {
    let bot = ctx.bot.clone();
    let poll_timeout = Duration::from_secs(ctx.config.poll_timeout_secs);
    let handler_token = token.clone();
    let mut dispatcher = Dispatcher::builder(bot.clone(), schema())
        .dependencies(dptree::deps![ctx])
        .default_handler(|_| async {})
        .error_handler(Arc::new(move |err: anyhow::Error| {
            let error = scrub(&format!("{err:#}"), &handler_token);
            async move { tracing::warn!(error, "telegram: update failed") }
        }))
        .enable_ctrlc_handler()
        .build();
    match checked.webhook {
        None => {
            let listener = Polling::builder(bot)
                .timeout(poll_timeout)
                .delete_webhook()
                .await
                .build();
            dispatcher
                .dispatch_with_listener(listener, listener_errors(token.clone()))
                .await;
        }
        Some(w) => {
            // Bound here, not by teloxide, whose server task panics on a taken port: a clear
            // start-up error instead.
            let tcp = tokio::net::TcpListener::bind(w.listen)
                .await
                .map_err(|err| {
                    anyhow::anyhow!(
                        "cannot listen on telegram.webhook.listen {}: {err}",
                        w.listen
                    )
                })?;
            let options = webhooks::Options::new(w.listen, w.public_url)
                .secret_token(w.secret_token.expose().to_string());
            let (mut listener, stopped, router) = webhooks::axum_to_router(bot, options)
                .await
                .map_err(|err| {
                    anyhow::anyhow!(
                        "cannot set the Telegram webhook (telegram.webhook.public_url): {}",
                        scrub(&err.to_string(), checked.token.expose())
                    )
                })?;
            let stop = listener.stop_token();
            tokio::spawn(async move {
                let served = axum::serve(tcp, router).with_graceful_shutdown(stopped);
                if let Err(error) = served.await {
                    tracing::error!(%error, "telegram: webhook server failed");
                    stop.stop();
                }
            });
            tracing::info!(listen = %w.listen, "telegram: webhook listening");
            dispatcher
                .dispatch_with_listener(listener, listener_errors(token.clone()))
                .await;
        }
    }
    Ok(())
}

/// Logs update-listener errors without the token (network errors carry the URL).
fn listener_errors<E: std::fmt::Display + Send + 'static>(
    token: String,
) -> Arc<impl Fn(E) -> std::future::Ready<()> + Send + Sync> {
    Arc::new(move |err: E| {
        let error = scrub(&err.to_string(), &token);
        tracing::warn!(error, "telegram: fetching updates failed");
        std::future::ready(())
    })
}

fn schema() -> UpdateHandler<anyhow::Error> {
    dptree::entry()
        .branch(Update::filter_message().endpoint(on_message))
        .branch(Update::filter_callback_query().endpoint(on_callback))
        .branch(Update::filter_inline_query().endpoint(on_inline_query))
        .branch(Update::filter_chosen_inline_result().endpoint(on_chosen_inline))
}

/// `/cmd@bot args` -> (`cmd`, `args`); `None` for plain text or another bot's command.
fn parse_command<'a>(text: &'a str, username: &str) -> Option<(String, &'a str)> {
    let rest = text.trim_start().strip_prefix('/')?;
    let (word, args) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let (cmd, to) = match word.split_once('@') {
        Some((c, to)) => (c, Some(to)),
        None => (word, None),
    };
    if to.is_some_and(|to| !to.eq_ignore_ascii_case(username)) || cmd.is_empty() {
        return None;
    }
    Some((cmd.to_ascii_lowercase(), args.trim()))
}

/// One command being answered.
struct Cmd<'a> {
    ctx: &'a Ctx,
    msg: &'a Message,
    actor: UserRef,
    lang: Lang,
}

async fn on_message(ctx: Arc<Ctx>, msg: Message) -> HandlerResult {
    let Some(from) = msg.from.as_ref() else {
        return Ok(());
    };
    ctx.see(from).await;
    if let Some(other) = msg.reply_to_message().and_then(|r| r.from.as_ref()) {
        ctx.see(other).await;
    }
    let Some((cmd, args)) = msg.text().and_then(|t| parse_command(t, &ctx.username)) else {
        return Ok(());
    };
    let actor = user_ref(from);
    let lang = ctx.lang_of(&actor).await;
    let c = Cmd {
        ctx: &ctx,
        msg: &msg,
        actor,
        lang,
    };
    tracing::debug!(cmd, chat = msg.chat.id.0, "telegram: command");
    match cmd.as_str() {
        "start" => c.say(t!(lang, "tg-start")).await,
        "help" => c.say(t!(lang, "tg-help")).await,
        "play" => c.play(args).await,
        "challenge" => c.challenge(args).await,
        "board" => c.act(Action::Show { game: None }, true).await,
        "games" => c.act(Action::ListGames, false).await,
        "resign" => {
            c.act(
                Action::Resign {
                    game: None,
                    ply: None,
                },
                false,
            )
            .await
        }
        "draw" => {
            c.act(
                Action::OfferDraw {
                    game: None,
                    ply: None,
                },
                false,
            )
            .await
        }
        "rematch" => c.rematch(args).await,
        "lang" => c.set_lang(args).await,
        // Another bot's command, or a typo: groups are full of those; stay quiet.
        _ => {}
    }
    Ok(())
}

impl Cmd<'_> {
    fn chat(&self) -> i64 {
        self.msg.chat.id.0
    }

    /// Replies to the command with plain text (escaped for HTML).
    async fn say(&self, text: String) {
        self.say_with(html(&text), None).await;
    }

    async fn say_with(&self, text: String, keyboard: Option<InlineKeyboardMarkup>) {
        let content = Content::Text { text, keyboard };
        if let Err(err) = self
            .ctx
            .poster
            .send(self.chat(), &content, Some(self.msg.id.0))
            .await
        {
            let error = self.ctx.poster.describe(&err);
            tracing::warn!(chat = self.chat(), error, "telegram: reply not sent");
        }
    }

    async fn act(&self, action: Action, repost: bool) {
        let req = Request {
            actor: self.actor.clone(),
            chat: ChatRef::new(Platform::Telegram, self.chat().to_string()),
            action,
        };
        match self.ctx.manager.act(req).await {
            Ok(reply) => {
                let origin = Origin {
                    place: None,
                    chat: Some(self.chat()),
                    reply_to: Some(self.msg.id.0),
                    repost,
                    adopt: false,
                };
                show_reply(self.ctx, reply, &origin, self.lang).await;
            }
            Err(err) => self.say(present::error_text(&err, self.lang)).await,
        }
    }

    async fn play(&self, args: &str) {
        let Some(word) = args.split_whitespace().next() else {
            let keyboard = markup::level_keyboard(self.lang);
            return self
                .say_with(html(&t!(self.lang, "tg-choose-level")), Some(keyboard))
                .await;
        };
        // A level's name may be two words (`/play жаңа бастаушы`); a first word alone
        // still counts (`/play easy please`).
        let named = args.trim();
        match named.parse::<Level>().or_else(|_| word.parse::<Level>()) {
            Ok(level) => {
                let action = Action::PlayBot {
                    level,
                    variant: Variant::default(),
                    colour: None,
                };
                self.act(action, false).await;
            }
            Err(_) => {
                let levels = Level::ALL
                    .map(|l| words::level_name(self.lang, l))
                    .join(", ");
                self.say(t!(
                    self.lang,
                    "tg-unknown-level",
                    level = named.chars().take(40).collect::<String>(),
                    levels = levels
                ))
                .await
            }
        }
    }

    async fn challenge(&self, args: &str) {
        if self.msg.chat.is_private() {
            return self.say(t!(self.lang, "tg-challenge-in-group")).await;
        }
        let opponent = match self.opponent(args) {
            Ok(o) => o,
            Err(name) => {
                return self
                    .say(t!(self.lang, "tg-unknown-user", username = name))
                    .await
            }
        };
        let action = Action::Challenge {
            opponent,
            variant: Variant::default(),
        };
        self.act(action, false).await;
    }

    /// Whom `/challenge` names: the author of the message it replies to, a mentioned user,
    /// or nobody (an open challenge). `Err(@name)` for a username never seen.
    fn opponent(&self, args: &str) -> Result<Option<UserRef>, String> {
        if let Some(user) = self.msg.reply_to_message().and_then(|r| r.from.as_ref()) {
            return Ok(Some(user_ref(user)));
        }
        for entity in self.msg.parse_entities().unwrap_or_default() {
            match entity.kind() {
                MessageEntityKind::TextMention { user } => return Ok(Some(user_ref(user))),
                MessageEntityKind::Mention => {
                    let name = entity.text();
                    return self.ctx.by_username(name).map(Some).ok_or(name.into());
                }
                _ => {}
            }
        }
        match args.split_whitespace().next() {
            Some(word) if word.starts_with('@') => {
                self.ctx.by_username(word).map(Some).ok_or(word.into())
            }
            _ => Ok(None),
        }
    }

    async fn rematch(&self, args: &str) {
        let from_reply = self
            .msg
            .reply_to_message()
            .and_then(|r| r.reply_markup())
            .and_then(markup::game_of);
        let game = from_reply.or_else(|| args.split_whitespace().next().map(str::to_string));
        match game {
            Some(game) => self.act(Action::Rematch { game }, false).await,
            None => self.say(t!(self.lang, "tg-rematch-how")).await,
        }
    }

    async fn set_lang(&self, args: &str) {
        let Some(word) = args.split_whitespace().next() else {
            let current = words::lang_name(self.lang);
            return self
                .say(t!(self.lang, "tg-lang-usage", current = current))
                .await;
        };
        match word.parse::<Lang>() {
            Ok(lang) => match self.ctx.manager.set_user_lang(&self.actor, lang).await {
                Ok(()) => self.say(t!(lang, "tg-lang-set")).await,
                Err(err) => self.say(present::error_text(&err, self.lang)).await,
            },
            Err(_) => {
                let current = words::lang_name(self.lang);
                self.say(t!(self.lang, "tg-lang-usage", current = current))
                    .await
            }
        }
    }
}

/// Where an answer is shown.
struct Origin {
    /// The message whose button was pressed.
    place: Option<MsgRef>,
    /// The chat to post new messages in (none for inline messages).
    chat: Option<i64>,
    /// The command to reply to.
    reply_to: Option<i32>,
    /// Post the board as a new message even if one exists (`/board`).
    repost: bool,
    /// The pressed message is a board of this game even if the game does not know it (the
    /// bot stopped between posting and attaching it): show the game there.
    adopt: bool,
}

/// Shows what an action answered: a board (edited or posted), a challenge, a list.
async fn show_reply(ctx: &Ctx, reply: Reply, o: &Origin, lang: Lang) {
    match reply {
        Reply::Game(view) => show_game(ctx, &view, o).await,
        Reply::Challenge(cv) => {
            let here = o
                .place
                .as_ref()
                .is_some_and(|p| cv.messages.contains(&p.to_ref()));
            if here {
                ctx.refresh_challenge(&cv).await;
            } else if let Some(chat) = o.chat {
                let content = ctx.challenge_content(&cv, lang);
                match ctx.poster.send(chat, &content, o.reply_to).await {
                    Ok(sent) => {
                        let r = MsgRef::Chat {
                            chat,
                            message: sent.id.0,
                        };
                        let target = Target::Challenge(cv.id.clone());
                        if let Err(error) = ctx.manager.attach_message(target, r.to_ref()).await {
                            tracing::warn!(challenge = cv.id, %error, "not attached");
                        }
                    }
                    Err(err) => {
                        let error = ctx.poster.describe(&err);
                        tracing::warn!(challenge = cv.id, error, "challenge not posted");
                    }
                }
            }
        }
        Reply::Games(views) => {
            if let Some(chat) = o.chat {
                let text = html(&present::games_text(&views, lang));
                let content = Content::Text {
                    text,
                    keyboard: None,
                };
                if let Err(err) = ctx.poster.send(chat, &content, o.reply_to).await {
                    tracing::warn!(error = ctx.poster.describe(&err), "games list not sent");
                }
            }
        }
        Reply::Done => {}
    }
}

async fn show_game(ctx: &Ctx, view: &GameView, o: &Origin) {
    let lang = ctx.board_lang(view).await;
    if let Some(place @ MsgRef::Inline(_)) = &o.place {
        if !view.messages.contains(&place.to_ref()) {
            // An inline challenge was accepted: its message becomes the board.
            let target = Target::Game(view.id.clone());
            if let Err(error) = ctx.manager.attach_message(target, place.to_ref()).await {
                tracing::warn!(game = view.id, %error, "inline board not attached");
            }
            let content = ctx.board_content(view, lang, true);
            ctx.poster.edit(place.clone(), content, version(view));
            catch_up(ctx, view).await;
            return;
        }
    }
    if let Some(place @ MsgRef::Chat { chat, .. }) = &o.place {
        if o.adopt && is_orphan(ctx, view, place, *chat).await {
            let target = Target::Game(view.id.clone());
            if let Err(error) = ctx.manager.attach_message(target, place.to_ref()).await {
                tracing::warn!(game = view.id, %error, "board not adopted");
            }
            let content = ctx.board_content(view, lang, false);
            ctx.poster.edit(place.clone(), content, version(view));
            catch_up(ctx, view).await;
            return;
        }
    }
    let shown = view.messages.iter().any(|m| MsgRef::parse(m).is_some());
    match o.chat {
        Some(chat) if o.repost || !shown => {
            ctx.post_board(view, chat, o.reply_to, lang).await;
            catch_up(ctx, view).await;
        }
        _ => ctx.refresh(view).await,
    }
}

/// Whether a pressed board of `view` is unknown to the game (the bot stopped between posting
/// and attaching it), rather than a board being posted and attached right now.
async fn is_orphan(ctx: &Ctx, view: &GameView, place: &MsgRef, chat: i64) -> bool {
    if view.messages.contains(&place.to_ref()) {
        return false;
    }
    // A post of this game in this chat is attached before its lock is let go.
    drop(ctx.poster.posted(&view.id, chat).await);
    current(ctx, view)
        .await
        .is_some_and(|now| !now.messages.contains(&place.to_ref()))
}

/// The bot may have moved while a board was being posted or attached (its event found no
/// message to edit): show the game once more if it moved on.
async fn catch_up(ctx: &Ctx, posted: &GameView) {
    if let Some(now) = current(ctx, posted).await {
        if now.ply != posted.ply || now.status != posted.status {
            ctx.refresh(&now).await;
        }
    }
}

/// The game of `view` as it is now.
async fn current(ctx: &Ctx, view: &GameView) -> Option<GameView> {
    let user = view.players.iter().find_map(|p| p.user())?;
    let req = Request {
        actor: user.clone(),
        chat: view.chat.clone(),
        action: Action::Show {
            game: Some(view.id.clone()),
        },
    };
    match ctx.manager.act(req).await {
        Ok(Reply::Game(now)) => Some(now),
        _ => None,
    }
}

async fn on_callback(ctx: Arc<Ctx>, q: CallbackQuery) -> HandlerResult {
    ctx.see(&q.from).await;
    let actor = user_ref(&q.from);
    let lang = ctx.lang_of(&actor).await;
    let place = match (&q.message, &q.inline_message_id) {
        (Some(m), _) => MsgRef::Chat {
            chat: m.chat().id.0,
            message: m.id().0,
        },
        (None, Some(id)) => MsgRef::Inline(id.clone()),
        (None, None) => {
            answer(&ctx, &q, t!(lang, "tg-bad-button"), true).await;
            return Ok(());
        }
    };
    let data = q.data.as_deref().unwrap_or("");
    if let Some(challenger) = data.strip_prefix(INLINE_PREFIX) {
        return inline_placeholder_press(&ctx, &q, challenger, place, lang).await;
    }
    let button = match decode(data) {
        Ok(b) => b,
        Err(error) => {
            tracing::info!(%error, "telegram: bad button data");
            answer(&ctx, &q, t!(lang, "tg-bad-button"), true).await;
            return Ok(());
        }
    };
    let shown_game = button.game().map(str::to_string);
    let chat = chat_ref(&place);
    let origin = Origin {
        chat: match &place {
            MsgRef::Chat { chat, .. } => Some(*chat),
            MsgRef::Inline(_) => None,
        },
        place: Some(place),
        reply_to: None,
        repost: false,
        // A board's own buttons (not rematch: that starts a new game).
        adopt: shown_game.is_some() && !matches!(button, Button::Rematch { .. }),
    };
    let req = Request {
        actor: actor.clone(),
        chat: chat.clone(),
        action: button.into_action(),
    };
    match ctx.manager.act(req).await {
        Ok(reply) => {
            // The spinner stops while the board is drawn and edited.
            tokio::join!(
                answer(&ctx, &q, String::new(), false),
                show_reply(&ctx, reply, &origin, lang)
            );
        }
        Err(err) => {
            let alert = matches!(
                err,
                ActionError::NotYourTurn | ActionError::NotYourGame | ActionError::NotForYou
            );
            answer(&ctx, &q, present::error_text(&err, lang), alert).await;
            if let (ActionError::StaleBoard, Some(game)) = (&err, shown_game) {
                let shown = q
                    .message
                    .as_ref()
                    .and_then(|m| m.regular_message())
                    .and_then(|m| m.reply_markup())
                    .and_then(markup::ply_of);
                show_if_behind(
                    &ctx,
                    Request {
                        actor,
                        chat,
                        action: Action::Show { game: Some(game) },
                    },
                    shown,
                )
                .await;
            }
        }
    }
    Ok(())
}

/// A press on an old board: if the message itself shows an older ply than the game (an edit
/// was lost), show the game as it is; a message already showing it is left alone (an edit
/// would change nothing and cost a request).
async fn show_if_behind(ctx: &Ctx, show: Request, shown_ply: Option<u16>) {
    if let Ok(Reply::Game(view)) = ctx.manager.act(show).await {
        if shown_ply != Some(view.ply) {
            ctx.refresh(&view).await;
        }
    }
}

/// The manager's chat of a message: the Telegram chat, or the inline message itself.
fn chat_ref(place: &MsgRef) -> ChatRef {
    match place {
        MsgRef::Chat { chat, .. } => ChatRef::new(Platform::Telegram, chat.to_string()),
        MsgRef::Inline(id) => ChatRef::new(Platform::Telegram, format!("inline:{id}")),
    }
}

/// answerCallbackQuery: a toast, or an alert the user must close. Telegram allows 200
/// characters.
async fn answer(ctx: &Ctx, q: &CallbackQuery, text: String, alert: bool) {
    let mut req = ctx.bot.answer_callback_query(q.id.clone());
    if !text.is_empty() {
        let text: String = text.chars().take(200).collect();
        req = req.text(text).show_alert(alert);
    }
    if let Err(err) = req.await {
        tracing::info!(error = ctx.poster.describe(&err), "callback not answered");
    }
}

async fn on_inline_query(ctx: Arc<Ctx>, q: InlineQuery) -> HandlerResult {
    ctx.see(&q.from).await;
    let lang = ctx.lang_of(&user_ref(&q.from)).await;
    let text = t!(lang, "tg-inline-text", name = q.from.full_name());
    let content = InputMessageContent::Text(
        InputMessageContentText::new(html(&text)).parse_mode(ParseMode::Html),
    );
    let article = InlineQueryResultArticle::new("challenge", t!(lang, "tg-inline-title"), content)
        .description(t!(lang, "tg-inline-description"))
        .reply_markup(markup::inline_placeholder(
            q.from.id.0,
            t!(lang, "tg-inline-accept"),
        ));
    ctx.bot
        .answer_inline_query(q.id, [InlineQueryResult::Article(article)])
        .cache_time(0)
        .is_personal(true)
        .await
        .map_err(|e| anyhow::anyhow!("answerInlineQuery: {}", ctx.poster.describe(&e)))?;
    Ok(())
}

/// The user sent the inline challenge: create it and put its buttons on the message.
async fn on_chosen_inline(ctx: Arc<Ctx>, r: ChosenInlineResult) -> HandlerResult {
    let Some(id) = r.inline_message_id else {
        return Ok(());
    };
    ctx.see(&r.from).await;
    let challenger = user_ref(&r.from);
    open_inline_challenge(&ctx, challenger, MsgRef::Inline(id)).await;
    Ok(())
}

async fn open_inline_challenge(ctx: &Ctx, challenger: UserRef, place: MsgRef) -> Option<String> {
    if let MsgRef::Inline(id) = &place {
        if !ctx.claim_inline(id).await {
            return None;
        }
    }
    let lang = ctx.lang_of(&challenger).await;
    let req = Request {
        actor: challenger,
        chat: chat_ref(&place),
        action: Action::Challenge {
            opponent: None,
            variant: Variant::default(),
        },
    };
    match ctx.manager.act(req).await {
        Ok(Reply::Challenge(cv)) => {
            let target = Target::Challenge(cv.id.clone());
            if let Err(error) = ctx.manager.attach_message(target, place.to_ref()).await {
                tracing::warn!(challenge = cv.id, %error, "inline challenge not attached");
            }
            ctx.poster.edit(place, ctx.challenge_content(&cv, lang), 0);
            Some(cv.id)
        }
        Ok(_) => None,
        Err(err) => {
            let text = html(&present::error_text(&err, lang));
            ctx.poster.edit(
                place,
                Content::Text {
                    text,
                    keyboard: None,
                },
                0,
            );
            None
        }
    }
}

/// A press on an inline challenge Telegram never reported as chosen (inline feedback is
/// off): create the challenge now and accept it for the presser.
async fn inline_placeholder_press(
    ctx: &Ctx,
    q: &CallbackQuery,
    challenger: &str,
    place: MsgRef,
    lang: Lang,
) -> HandlerResult {
    let Ok(id) = challenger.parse::<u64>() else {
        answer(ctx, q, t!(lang, "tg-bad-button"), true).await;
        return Ok(());
    };
    if id == q.from.id.0 {
        answer(ctx, q, t!(lang, "tg-inline-own"), true).await;
        return Ok(());
    }
    let name = ctx.people.name(id).unwrap_or_else(|| id.to_string());
    let challenger = UserRef::new(Platform::Telegram, id.to_string(), name);
    let Some(challenge) = open_inline_challenge(ctx, challenger, place.clone()).await else {
        let closed = present::error_text(&ActionError::ChallengeClosed, lang);
        answer(ctx, q, closed, true).await;
        return Ok(());
    };
    let req = Request {
        actor: user_ref(&q.from),
        chat: chat_ref(&place),
        action: Action::AcceptChallenge { challenge },
    };
    match ctx.manager.act(req).await {
        Ok(reply) => {
            answer(ctx, q, String::new(), false).await;
            let origin = Origin {
                place: Some(place),
                chat: None,
                reply_to: None,
                repost: false,
                adopt: false,
            };
            show_reply(ctx, reply, &origin, lang).await;
        }
        Err(err) => answer(ctx, q, present::error_text(&err, lang), true).await,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_parsed_for_this_bot_only() {
        let me = "toguz_bot";
        assert_eq!(
            parse_command("/play easy", me),
            Some(("play".into(), "easy"))
        );
        assert_eq!(
            parse_command("/Challenge@Toguz_Bot  @bob ", me),
            Some(("challenge".into(), "@bob"))
        );
        assert_eq!(parse_command("/board@other_bot", me), None);
        assert_eq!(parse_command("hello /play", me), None);
        assert_eq!(parse_command("/", me), None);
        assert_eq!(parse_command("/@toguz_bot", me), None);
    }
}
