//! The Telegram adapter (issue 6): private games against the bot, challenges in groups,
//! inline mode, boards as photos with inline keyboards.
//!
//! ```text
//! update -> dispatch.rs (dptree: commands, button presses, inline queries)
//!           (a handler's failure or panic -> failure.rs: answered and logged in one place)
//!        -> Manager::act -> GameView -> boards.rs (PNG + caption + markup.rs keyboard)
//!        -> poster.rs (flood limits, 429 retry, coalesced edits) -> Telegram
//! Manager events (the bot moved, a challenge expired) -> boards.rs -> the same path
//! ```
//! The adapter keeps no game state: the messages showing a game are stored with the game
//! (`attach_message`), and button data carries the game id and ply, so old buttons keep
//! working after a restart.

mod alerts;
mod boards;
mod callbacks;
mod change;
mod command;
mod commands;
pub mod config;
mod daily;
mod dispatch;
mod failure;
mod guard;
mod hints;
mod history;
mod inline;
mod listing;
mod markup;
mod openings;
mod outbox;
mod placement;
mod poster;
mod premoves;
mod puzzles;
mod refs;
mod reviews;
mod toast;
mod tournament_news;
mod tournaments;
mod turns;
mod webhook;

pub use config::TelegramConfig;

use crate::i18n::Lang;
use crate::manager::{Manager, Target};
use crate::model::{Platform, UserRef};
use anyhow::Context as _;
use poster::{Content, Limiter, Poster};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use teloxide::prelude::*;
use teloxide::types::{BotCommandScope, User};

/// Everything a handler needs, shared by all of them.
pub(crate) struct Ctx {
    pub bot: Bot,
    pub manager: Manager,
    pub config: TelegramConfig,
    pub poster: Arc<Poster>,
    /// The bot's @username (without @), for `/command@username` in groups.
    pub username: String,
    pub people: People,
    /// The last turn notice of each game (deleted when the next one is posted).
    pub notices: boards::Notices,
    /// Posts waiting for their chat's flood allowance, one queue and task per busy chat.
    pub outbox: outbox::Outboxes,
    /// A worker per game with news to show.
    pub turns: turns::Turns,
    /// A worker per tournament with news to show.
    pub tournaments: tournament_news::TournamentWorkers,
    /// A worker per chat with a daily puzzle post to make or redraw (the shared flow).
    pub daily: daily::DailyPosts,
    /// Commands per user.
    pub commands: guard::CommandLimit,
    /// Signs the inline placeholder buttons.
    pub button_key: inline::ButtonKey,
    /// The Mini App group boards link their game pages through (`[telegram] mini_app`).
    pub mini_app: Option<markup::MiniApp>,
}

/// Users seen recently: their names. (Their Telegram languages and `@username`s are kept
/// by the manager: see `Ctx::see`.)
#[derive(Default)]
pub(crate) struct People {
    inner: Mutex<PeopleInner>,
}

#[derive(Default)]
struct PeopleInner {
    names: HashMap<u64, String>,
    /// Users known to have a private chat with the bot (they wrote to it there, or a
    /// private message reached them): a tournament's Join sends the others there first.
    private: std::collections::HashSet<u64>,
}

/// Entries kept at most; the directory is a convenience, not a store.
const PEOPLE_MAX: usize = 100_000;

impl People {
    pub fn see(&self, user: &User) {
        let mut p = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if p.names.len() > PEOPLE_MAX {
            *p = PeopleInner::default();
        }
        p.names.insert(user.id.0, user.full_name());
    }

    /// `id` has a private chat with the bot.
    pub fn note_private(&self, id: u64) {
        let mut p = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if p.private.len() > PEOPLE_MAX {
            p.private.clear();
        }
        p.private.insert(id);
    }

    /// Whether `id` is known to have a private chat with the bot (this process saw it).
    pub fn has_private(&self, id: u64) -> bool {
        let p = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        p.private.contains(&id)
    }

    pub fn name(&self, id: u64) -> Option<String> {
        let p = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        p.names.get(&id).cloned()
    }
}

/// A Telegram user as the manager knows them.
pub(crate) fn user_ref(user: &User) -> UserRef {
    UserRef::new(Platform::Telegram, user.id.0.to_string(), user.full_name())
}

impl Ctx {
    /// The outlet of the tournaments' flow (its own state: pairings and standings posts on
    /// their way).
    pub fn tournaments_outlet(&self) -> &Arc<tournament_news::TelegramOutlet> {
        self.tournaments.outlet()
    }

    /// Queues `text` (HTML) for `chat`, as a reply to `reply_to`.
    pub fn reply(self: &Arc<Self>, chat: i64, reply_to: Option<i32>, text: String) {
        let content = Content::Text {
            text,
            keyboard: None,
        };
        self.send_later(chat, reply_to, content, None);
    }

    /// Queues a new message for `chat` in its outbox and returns at once; the chat's task
    /// sends it (waiting for the flood allowance there) and attaches it to `attach`.
    pub fn send_later(
        self: &Arc<Self>,
        chat: i64,
        reply_to: Option<i32>,
        content: Content,
        attach: Option<Target>,
    ) {
        let ctx = self.clone();
        let job = async move {
            let posting = ctx.outbox.posting(chat);
            let sent = ctx.poster.send_holding(chat, &content, reply_to, posting);
            let (sent, _attaching) = match sent.await {
                Ok(sent) => sent,
                Err(err) => {
                    let error = ctx.poster.describe(&err);
                    tracing::warn!(chat, error, "telegram: message not sent");
                    return;
                }
            };
            let Some(target) = attach else { return };
            let r = refs::MsgRef::Chat {
                chat,
                message: sent.id.0,
            };
            crate::platform::present::attach(&ctx.manager, target, r.to_ref(), None).await;
        };
        self.outbox.push(chat, None, Box::pin(job));
    }

    /// Notes a user the bot saw: name and Telegram language for now (the manager keeps the
    /// language for their boards), and their `@username` for good (Telegram gives bots no
    /// lookup by username, so `/challenge @name` can only find people the bot has seen; the
    /// manager keeps them across restarts).
    pub async fn see(&self, user: &User) {
        self.people.see(user);
        if let Some(lang) = user.language_code.as_deref().and_then(Lang::from_code) {
            self.manager.note_app_lang(&user_ref(user), lang);
        }
        if let Some(username) = &user.username {
            let remembered = self
                .manager
                .remember_handle(username, &user_ref(user))
                .await;
            if let Err(error) = remembered {
                tracing::warn!(%error, "telegram: username not remembered");
            }
        }
    }

    /// The user last seen with `@username`.
    pub async fn by_username(&self, username: &str) -> Option<UserRef> {
        self.manager
            .user_by_handle(Platform::Telegram, username)
            .await
    }

    /// Claims an inline message for a new challenge: false if it already has one. Its first
    /// button and the chosen-result update can race (two people pressing Accept at once, or
    /// a press before Telegram's feedback), and Telegram delivers an update again when the
    /// bot crashed before confirming it: only the first may turn it into a challenge. The
    /// claim is stored, so it holds across restarts.
    pub async fn claim_inline(&self, id: &str) -> bool {
        let key = format!("inline:{id}");
        match self.manager.claim_once(Platform::Telegram, &key).await {
            Ok(first) => first,
            Err(error) => {
                tracing::warn!(%error, "Telegram: cannot claim an inline message");
                false
            }
        }
    }

    /// The language to answer `user` in: chosen with /lang, else Telegram's as last seen,
    /// else English (the manager's `speaker`). Asked once per update, for whoever sent it;
    /// a game's boards speak the languages its view carries (`present::board_lang`).
    pub async fn lang_of(&self, user: &UserRef) -> Lang {
        self.manager.speaker(user, None).await
    }
}

/// Runs the Telegram bot until Ctrl-C: checks the token with getMe, registers the
/// commands, then serves updates by long polling or, when configured, a webhook.
pub async fn serve(config: TelegramConfig, manager: Manager) -> anyhow::Result<()> {
    let checked = config.check(std::env::var("TELEGRAM_TOKEN").ok())?;
    let token = checked.token.expose().to_string();
    let bot = Bot::new(&token).set_api_url(checked.api_url.clone());
    let me = bot
        .get_me()
        .await
        .map_err(|err| start_error(&err, &token))?;
    let username = me.username().to_string();
    manager.register_bot_user(&user_ref(&me.user));
    tracing::info!(bot = %username, api = %checked.api_url, "telegram: connected");
    register_commands(&bot, &token).await;

    let limiter = Limiter::new(
        config.private_posts_per_minute,
        config.group_posts_per_minute,
        config.burst,
    );
    let poster = Poster::new(bot.clone(), limiter, token.clone());
    let button_key = button_key(&config, &manager).await?;
    let group_posts = config.group_posts_per_minute;
    let mini_app = config.mini_app.clone().map(|app| markup::MiniApp {
        bot: username.clone(),
        app,
    });
    let flow_manager = manager.clone();
    let daily_manager = manager.clone();
    let ctx = Arc::new_cyclic(|me| Ctx {
        bot: bot.clone(),
        commands: guard::CommandLimit::new(
            config
                .commands_per_minute
                .unwrap_or(manager.config().limits.commands_per_minute),
        ),
        manager,
        config,
        poster,
        username,
        people: People::default(),
        notices: boards::Notices::default(),
        outbox: outbox::Outboxes::default(),
        turns: turns::Turns::default(),
        tournaments: tournament_news::TournamentWorkers::new(
            Arc::new(tournament_news::TelegramOutlet::new(
                me.clone(),
                group_posts,
            )),
            flow_manager,
            "Telegram tournament",
        ),
        daily: daily::DailyPosts::new(
            Arc::new(daily::TelegramDaily::new(me.clone())),
            daily_manager,
            "Telegram daily post",
        ),
        button_key,
        mini_app,
    });
    // Subscribed before the first update is taken: an event from then on is followed.
    let subscribed = ctx.manager.subscribe();
    let events = tokio::spawn(boards::follow_events(ctx.clone(), subscribed));
    let janitor = tokio::spawn(prune_idle(ctx.clone()));
    let claimed = ctx.manager.serve_alerts(Platform::Telegram);
    let alerts = tokio::spawn(alerts::serve(ctx.clone(), claimed));
    let result = dispatch::dispatch(ctx, checked, token).await;
    events.abort();
    janitor.abort();
    alerts.abort();
    result
}

/// The key for inline buttons: `[telegram] button_key`, else one made once and kept by the
/// manager (a new key on every start would break the buttons already sent).
async fn button_key(
    config: &TelegramConfig,
    manager: &Manager,
) -> anyhow::Result<inline::ButtonKey> {
    if !config.button_key.is_empty() {
        return Ok(inline::ButtonKey::new(
            config.button_key.expose().as_bytes(),
        ));
    }
    let key = manager
        .durable_secret(Platform::Telegram, "inline-button-key")
        .await
        .map_err(|err| anyhow::anyhow!("cannot read or keep the inline button key: {err}"))?;
    Ok(inline::ButtonKey::new(&key))
}

/// How often per-chat and per-user state of quiet chats and users is forgotten.
const PRUNE_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// Forgets the flood buckets and command allowances of chats and users that went quiet, so
/// memory follows the active ones. (Outboxes and game workers end by themselves when idle.)
async fn prune_idle(ctx: Arc<Ctx>) {
    let mut ticks = tokio::time::interval(PRUNE_EVERY);
    loop {
        ticks.tick().await;
        ctx.poster.prune();
        ctx.commands.prune();
        tracing::debug!(
            buckets = ctx.poster.chats(),
            outboxes = ctx.outbox.chats(),
            workers = ctx.turns.games(),
            tournaments = ctx.tournaments.events(),
            daily_posts = ctx.daily.chats(),
            users = ctx.commands.users(),
            "telegram: idle state pruned"
        );
    }
}

/// A clear start-up error for a failed getMe; never contains the token.
fn start_error(err: &teloxide::RequestError, token: &str) -> anyhow::Error {
    use teloxide::{ApiError, RequestError};
    match err {
        RequestError::Api(ApiError::InvalidToken) => anyhow::anyhow!(
            "Telegram refused the bot token (401 Unauthorized): check telegram.token or \
             TELEGRAM_TOKEN"
        ),
        other => anyhow::anyhow!(
            "cannot reach the Telegram Bot API (telegram.api_url): {}",
            poster::scrub(&other.to_string(), token)
        ),
    }
}

/// The command menu in each language Telegram shows it in (en default, ru, kk).
async fn register_commands(bot: &Bot, token: &str) {
    for lang in Lang::ALL {
        let commands = command::menu(lang);
        let mut req = bot
            .set_my_commands(commands)
            .scope(BotCommandScope::Default);
        if lang != Lang::En {
            req = req.language_code(lang.code());
        }
        if let Err(err) = req.await.context("setMyCommands") {
            let error = poster::scrub(&format!("{err:#}"), token);
            tracing::warn!(
                lang = lang.code(),
                error,
                "telegram: cannot register commands"
            );
        }
    }
}
