//! Commands: who may give them (people, within a rate per user), and what each does.
//! Replies go through the chat's outbox: a handler never waits for a flood allowance.

use super::boards::html;
use super::boards::{show_reply, Origin};
use super::command::{self, Command, CommandError};
use super::daily;
use super::failure::{Failure, HandlerResult};
use super::guard::Verdict;
use super::history;
use super::markup;
use super::poster::Content;
use super::refs::Place;
use super::reviews::{self, ReviewPlace};
use super::{user_ref, Ctx};
use crate::i18n::{words, Lang};
use crate::manager::{Action, Request};
use crate::model::notify::NotifyChange;
use crate::model::{ChatRef, Level, Platform, TimeControl, UserRef};
use crate::platform::present::alerts;
use crate::rules::Variant;
use crate::t;
use std::sync::Arc;
use teloxide::prelude::*;
use teloxide::types::{InlineKeyboardMarkup, MessageEntityKind, User};

/// Why `/challenge` names nobody to play.
enum NoOpponent {
    /// An @username never seen.
    Unknown(String),
    /// A bot, a channel or an anonymous admin.
    NotAPerson,
    /// Words that name no one (neither `@username` nor a mention).
    Nobody(String),
}

/// One command being answered.
struct Cmd<'a> {
    ctx: &'a Arc<Ctx>,
    msg: &'a Message,
    actor: UserRef,
    lang: Lang,
}

/// Test hook, in debug builds only: the command (or button data) named in
/// `TOGUZ_TEST_PANIC` panics, so the tests can show that a panicking handler is caught.
/// Release builds have no such hook, and in debug builds only whoever starts the process
/// can set it.
#[cfg(debug_assertions)]
pub fn test_panic(what: &str) {
    if std::env::var("TOGUZ_TEST_PANIC").is_ok_and(|p| p == what) {
        panic!("test panic on {what}");
    }
}

#[cfg(not(debug_assertions))]
pub fn test_panic(_: &str) {}

/// The key a message's sender is known by for limits, when it is not a person the bot can
/// act for: anonymous group admins (GroupAnonymousBot) and posts sent as a channel
/// (Channel_Bot) come with one shared user id and the real sender in `sender_chat`, and
/// other bots are no players either.
fn not_a_person(msg: &Message, from: &User) -> Option<i64> {
    match &msg.sender_chat {
        Some(chat) => Some(chat.id.0),
        None if from.is_bot => Some(from.id.0 as i64),
        None => None,
    }
}

pub async fn on_message(ctx: Arc<Ctx>, msg: Message) -> HandlerResult {
    let Some(from) = msg.from.as_ref() else {
        return Ok(());
    };
    let command = msg.text().and_then(|t| command::parse(t, &ctx.username));
    if let Some(sender) = not_a_person(&msg, from) {
        if command.is_some() && ctx.commands.check(&sender) != Verdict::Ignore {
            let lang = Lang::from_locale(from.language_code.as_deref());
            ctx.reply(
                msg.chat.id.0,
                Some(msg.id.0),
                html(&t!(lang, "tg-anonymous")),
            );
        }
        return Ok(());
    }
    ctx.see(from).await;
    if msg.chat.is_private() {
        ctx.people.note_private(from.id.0);
        // Private messages reach them again (issue 51): cheap when nothing changes.
        ctx.manager.reachable_again(&user_ref(from)).await;
    }
    if let Some(other) = msg.reply_to_message().and_then(|r| r.from.as_ref()) {
        if !other.is_bot {
            ctx.see(other).await;
        }
    }
    let Some(command) = command else {
        return Ok(());
    };
    match ctx.commands.check(&(from.id.0 as i64)) {
        Verdict::Go => {}
        Verdict::Warn => return Err(Failure::Limited),
        Verdict::Ignore => return Ok(()),
    }
    let actor = user_ref(from);
    let per_minute =
        (ctx.config.commands_per_minute).unwrap_or(ctx.manager.config().limits.commands_per_minute);
    if !ctx.manager.command_allowed(&actor, per_minute).await {
        // Over the limit counted by every process together.
        return Err(Failure::Limited);
    }
    let lang = ctx.lang_of(&actor).await;
    let c = Cmd {
        ctx: &ctx,
        msg: &msg,
        actor,
        lang,
    };
    test_panic(
        msg.text()
            .unwrap_or_default()
            .trim()
            .trim_start_matches('/'),
    );
    let command = command?;
    tracing::debug!(
        command = command.word(),
        chat = msg.chat.id.0,
        "telegram: command"
    );
    c.run(command).await
}

impl Cmd<'_> {
    async fn run(&self, command: Command) -> HandlerResult {
        let lang = self.lang;
        if let Command::Start { payload: Some(p) } = &command {
            if let Some(id) = super::tournaments::joined_via(p) {
                return super::tournaments::boards_here(self.ctx, self.msg, &self.actor, id, lang)
                    .await;
            }
            // Only where the builder belongs: a link's Start is in the private chat.
            let private = self.chat() > 0;
            if let Some(game) = super::premoves::game_of_start(p).filter(|_| private) {
                let chat = self.chat();
                return super::premoves::open_from_start(self.ctx, chat, game, &self.actor, lang)
                    .await;
            }
        }
        match command {
            Command::Start { payload } => match payload.as_deref().and_then(daily::group_of) {
                Some(group) => {
                    super::puzzles::start_daily(self.ctx, self.msg, &self.actor, group, lang)
                        .await?
                }
                None if payload.as_deref() == Some(super::inline::HELP_START) => {
                    self.say(command::help(lang))
                }
                None => self.say(t!(lang, "tg-start")),
            },
            Command::Help => self.say(command::help(lang)),
            Command::Play {
                level,
                time,
                variant,
            } => self.play(level, time, variant).await?,
            Command::Challenge {
                named,
                time,
                variant,
                rated,
            } => self.challenge(named, time, variant, rated).await?,
            Command::Board => self.act(Action::Show { game: None }, true).await?,
            Command::Games => self.act(Action::ListGames, false).await?,
            Command::Notify(change) => self.notify(change).await?,
            Command::Resign => {
                let action = Action::Resign {
                    game: None,
                    ply: None,
                };
                self.act(action, false).await?
            }
            Command::Draw => {
                let action = Action::OfferDraw {
                    game: None,
                    ply: None,
                };
                self.act(action, false).await?
            }
            Command::Rematch { game } => self.rematch(game).await?,
            Command::Review { game } => self.review(game).await?,
            Command::History { named } => {
                let whose = self.whose(named).await?;
                history::history(self.ctx, self.place(), whose, lang).await?;
            }
            Command::Stats { named } => {
                let whose = self.whose(named).await?;
                history::stats(self.ctx, self.place(), whose, lang).await?;
            }
            Command::Leaderboard { global, category } => {
                let global = global || self.msg.chat.is_private();
                let asked = history::Asked { global, category };
                history::leaderboard(self.ctx, self.place(), &self.actor, asked, lang).await?;
            }
            Command::Record { game } => {
                let from_reply = self
                    .msg
                    .reply_to_message()
                    .and_then(|r| r.reply_markup())
                    .and_then(markup::game_of);
                history::record(self.ctx, self.place(), game.or(from_reply), lang).await?;
            }
            Command::Lang { lang } => self.set_lang(lang).await?,
            Command::Tournament(cmd) => {
                let asked = super::tournaments::Asked {
                    ctx: self.ctx,
                    msg: self.msg,
                    actor: &self.actor,
                    lang,
                };
                super::tournaments::command(&asked, cmd).await?
            }
            Command::Puzzle(cmd) => {
                super::puzzles::command(self.ctx, self.msg, &self.actor, cmd, lang).await?
            }
            Command::Opening { args } => {
                super::openings::command(self.ctx, self.msg, &self.actor, &args, lang).await?
            }
            Command::Web(cmd) => {
                super::listing::command(self.ctx, self.msg, &self.actor, cmd, lang).await?
            }
        }
        Ok(())
    }
}

impl Cmd<'_> {
    fn chat(&self) -> i64 {
        self.msg.chat.id.0
    }

    /// Replies to the command with plain text (escaped for HTML), through the outbox.
    fn say(&self, text: String) {
        self.ctx
            .reply(self.chat(), Some(self.msg.id.0), html(&text));
    }

    fn say_with(&self, text: String, keyboard: Option<InlineKeyboardMarkup>) {
        let content = Content::Text { text, keyboard };
        self.ctx
            .send_later(self.chat(), Some(self.msg.id.0), content, None);
    }

    async fn act(&self, action: Action, repost: bool) -> HandlerResult {
        let req = Request {
            actor: self.actor.clone(),
            chat: ChatRef::new(Platform::Telegram, self.chat().to_string()),
            action,
        };
        let reply = self.ctx.manager.act(req).await?;
        let origin = Origin {
            place: None,
            chat: Some(self.chat()),
            reply_to: Some(self.msg.id.0),
            repost,
            adopt: false,
            asker: Some(self.actor.clone()),
        };
        show_reply(self.ctx, reply, &origin, self.lang).await;
        Ok(())
    }

    async fn play(
        &self,
        level: Option<Level>,
        time: Option<TimeControl>,
        variant: Variant,
    ) -> HandlerResult {
        // A time control or a variant without a level plays the default level.
        let chosen = time.is_some() || !variant.is_standard();
        let level = level.or(chosen.then_some(self.ctx.manager.config().bot.default_level));
        let Some(level) = level else {
            let keyboard = markup::level_keyboard(self.lang, None);
            self.say_with(html(&t!(self.lang, "tg-choose-level")), Some(keyboard));
            return Ok(());
        };
        let action = Action::PlayBot {
            level,
            variant,
            colour: None,
            time,
        };
        self.act(action, false).await
    }

    async fn challenge(
        &self,
        named: Option<String>,
        time: Option<TimeControl>,
        variant: Variant,
        rated: bool,
    ) -> HandlerResult {
        let lang = self.lang;
        if self.msg.chat.is_private() {
            return Err(Failure::Unable(t!(lang, "tg-challenge-in-group")));
        }
        let words: Vec<&str> = named.as_deref().unwrap_or("").split_whitespace().collect();
        let used = self.name_words(&words);
        if let Some(extra) = words.get(used) {
            // A word besides the opponent's name: refused, never dropped (`/challenge @bob
            // 2 days` read `2` as the time). A first word that names no one alone is told
            // as such below.
            if used > 0 || self.msg.reply_to_message().is_some() {
                let word = extra.to_string();
                let command = "challenge";
                return Err(CommandError::Word { word, command }.into());
            }
        }
        let named = words.first().map(|w| w.to_string());
        let opponent = self.opponent(named).await.map_err(|no| match no {
            NoOpponent::Unknown(name) => {
                Failure::Unable(t!(lang, "tg-unknown-user", username = name))
            }
            NoOpponent::NotAPerson => Failure::Unable(t!(lang, "tg-opponent-bot")),
            NoOpponent::Nobody(given) => CommandError::Opponent(given).into(),
        })?;
        let action = Action::Challenge {
            opponent,
            variant,
            rated,
            time,
        };
        self.act(action, false).await
    }

    /// How many of `/challenge`'s leftover `words` name the opponent: a mention of someone
    /// without a username (its words), an `@username`, or none.
    fn name_words(&self, words: &[&str]) -> usize {
        for entity in self.msg.parse_entities().unwrap_or_default() {
            if let MessageEntityKind::TextMention { .. } = entity.kind() {
                let name: Vec<&str> = entity.text().split_whitespace().collect();
                if words.starts_with(&name) {
                    return name.len();
                }
            }
        }
        usize::from(words.first().is_some_and(|w| w.starts_with('@')))
    }

    /// Whom `/challenge` names: the author of the message it replies to, a mentioned user,
    /// or nobody (an open challenge). Bots, channels and anonymous admins cannot play.
    async fn opponent(&self, named: Option<String>) -> Result<Option<UserRef>, NoOpponent> {
        if let Some(replied) = self.msg.reply_to_message() {
            if let Some(user) = replied.from.as_ref() {
                if replied.sender_chat.is_some() || user.is_bot {
                    return Err(NoOpponent::NotAPerson);
                }
                return Ok(Some(user_ref(user)));
            }
        }
        for entity in self.msg.parse_entities().unwrap_or_default() {
            match entity.kind() {
                MessageEntityKind::TextMention { user } if user.is_bot => {
                    return Err(NoOpponent::NotAPerson)
                }
                MessageEntityKind::TextMention { user } => return Ok(Some(user_ref(user))),
                MessageEntityKind::Mention => {
                    return self.by_username(entity.text()).await.map(Some)
                }
                _ => {}
            }
        }
        match named {
            Some(word) if word.starts_with('@') => self.by_username(&word).await.map(Some),
            Some(word) => Err(NoOpponent::Nobody(word)),
            None => Ok(None),
        }
    }

    fn place(&self) -> Place {
        Place {
            chat: self.chat(),
            reply_to: Some(self.msg.id.0),
        }
    }

    /// Whose history or stats: as `/challenge` finds an opponent (a reply, a mention, an
    /// `@username`), else the caller's own.
    async fn whose(&self, named: Option<String>) -> Result<history::Whose, Failure> {
        let lang = self.lang;
        let user = self.opponent(named).await.map_err(|no| {
            Failure::Unable(match no {
                NoOpponent::Unknown(name) => t!(lang, "tg-history-unknown-user", username = name),
                NoOpponent::NotAPerson => t!(lang, "tg-history-not-a-person"),
                NoOpponent::Nobody(given) => t!(lang, "tg-history-how", given = given),
            })
        })?;
        Ok(match user {
            Some(user) => history::Whose {
                own: user == self.actor,
                user,
            },
            None => history::Whose {
                user: self.actor.clone(),
                own: true,
            },
        })
    }

    async fn by_username(&self, name: &str) -> Result<UserRef, NoOpponent> {
        self.ctx
            .by_username(name)
            .await
            .ok_or_else(|| NoOpponent::Unknown(name.to_string()))
    }

    async fn rematch(&self, named: Option<String>) -> HandlerResult {
        let from_reply = self
            .msg
            .reply_to_message()
            .and_then(|r| r.reply_markup())
            .and_then(markup::game_of);
        let game = from_reply.or(named);
        match game {
            Some(game) => self.act(Action::Rematch { game }, false).await,
            None => Err(Failure::Unable(t!(self.lang, "tg-rematch-how"))),
        }
    }

    /// `/review [game]`: the named game, else the board it replies to, else the game that
    /// ended last in this chat, else the caller's last finished game in the archive
    /// (`Manager::last_finished_for`). Only a refusal is answered now; the review is posted
    /// by its own task when the engine is done.
    async fn review(&self, named: Option<String>) -> HandlerResult {
        let from_reply = self
            .msg
            .reply_to_message()
            .and_then(|r| r.reply_markup())
            .and_then(markup::game_of);
        let here = ChatRef::new(Platform::Telegram, self.chat().to_string());
        let place = ReviewPlace {
            chat: self.chat(),
            reply_to: Some(self.msg.id.0),
            lang: self.lang,
        };
        let game = match named.or(from_reply) {
            Some(game) => game,
            None => {
                self.ctx
                    .manager
                    .last_finished_for(&here, &self.actor)
                    .await?
            }
        };
        reviews::request(self.ctx, (&here, &self.actor), Some(game), place).await?;
        Ok(())
    }

    /// `/notify`: the settings, or a change of them and the settings after it (issue 51).
    async fn notify(&self, change: Option<NotifyChange>) -> HandlerResult {
        let (manager, lang) = (&self.ctx.manager, self.lang);
        let text = match change {
            None => {
                let settings = manager.notify_settings(&self.actor).await?;
                let usage = t!(lang, "tg-notify-usage");
                format!("{}\n\n{usage}", alerts::notify_text(&settings, lang))
            }
            Some(change) => {
                let settings = manager.set_notify(&self.actor, change).await?;
                alerts::notify_saved(&settings, lang)
            }
        };
        self.say(text);
        Ok(())
    }

    async fn set_lang(&self, lang: Option<Lang>) -> HandlerResult {
        let Some(lang) = lang else {
            let current = words::lang_name(self.lang);
            self.say(t!(self.lang, "tg-lang-usage", current = current));
            return Ok(());
        };
        self.ctx.manager.set_user_lang(&self.actor, lang).await?;
        self.say(t!(lang, "tg-lang-set"));
        Ok(())
    }
}
