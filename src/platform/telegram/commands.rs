//! Commands: who may give them (people, within a rate per user), and what each does.
//! Replies go through the chat's outbox: a handler never waits for a flood allowance.

use super::boards::html;
use super::callbacks::{show_reply, Origin};
use super::dispatch::HandlerResult;
use super::guard::Verdict;
use super::markup;
use super::poster::Content;
use super::{user_ref, Ctx};
use crate::engine::Level;
use crate::i18n::{words, Lang};
use crate::manager::{Action, ChatRef, Platform, Request, UserRef};
use crate::platform::present;
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
    let command = msg.text().and_then(|t| parse_command(t, &ctx.username));
    if let Some(sender) = not_a_person(&msg, from) {
        if command.is_some() && ctx.commands.check(sender) != Verdict::Ignore {
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
    if let Some(other) = msg.reply_to_message().and_then(|r| r.from.as_ref()) {
        if !other.is_bot {
            ctx.see(other).await;
        }
    }
    let Some((cmd, args)) = command else {
        return Ok(());
    };
    let actor = user_ref(from);
    let lang = ctx.lang_of(&actor).await;
    match ctx.commands.check(from.id.0 as i64) {
        Verdict::Go => {}
        Verdict::Warn => {
            tracing::info!(user = from.id.0, "telegram: commands over the limit");
            ctx.reply(
                msg.chat.id.0,
                Some(msg.id.0),
                html(&t!(lang, "tg-slow-down")),
            );
            return Ok(());
        }
        Verdict::Ignore => return Ok(()),
    }
    test_panic(&cmd);
    let c = Cmd {
        ctx: &ctx,
        msg: &msg,
        actor,
        lang,
    };
    tracing::debug!(cmd, chat = msg.chat.id.0, "telegram: command");
    c.run(&cmd, args).await;
    Ok(())
}

/// Answers a command whose handler panicked.
pub async fn reply_internal_error(ctx: &Arc<Ctx>, msg: &Message) {
    let lang = match &msg.from {
        Some(from) => ctx.lang_of(&user_ref(from)).await,
        None => Lang::default(),
    };
    ctx.reply(
        msg.chat.id.0,
        Some(msg.id.0),
        html(&t!(lang, "tg-error-internal")),
    );
}

impl Cmd<'_> {
    async fn run(&self, cmd: &str, args: &str) {
        let lang = self.lang;
        match cmd {
            "start" => self.say(t!(lang, "tg-start")),
            "help" => self.say(t!(lang, "tg-help")),
            "play" => self.play(args).await,
            "challenge" => self.challenge(args).await,
            "board" => self.act(Action::Show { game: None }, true).await,
            "games" => self.act(Action::ListGames, false).await,
            "resign" => {
                let action = Action::Resign {
                    game: None,
                    ply: None,
                };
                self.act(action, false).await
            }
            "draw" => {
                let action = Action::OfferDraw {
                    game: None,
                    ply: None,
                };
                self.act(action, false).await
            }
            "rematch" => self.rematch(args).await,
            "lang" => self.set_lang(args).await,
            // Another bot's command, or a typo: groups are full of those; stay quiet.
            _ => {}
        }
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
            Err(err) => self.say(present::error_text(&err, self.lang)),
        }
    }

    async fn play(&self, args: &str) {
        let Some(word) = args.split_whitespace().next() else {
            let keyboard = markup::level_keyboard(self.lang);
            return self.say_with(html(&t!(self.lang, "tg-choose-level")), Some(keyboard));
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
            }
        }
    }

    async fn challenge(&self, args: &str) {
        if self.msg.chat.is_private() {
            return self.say(t!(self.lang, "tg-challenge-in-group"));
        }
        let opponent = match self.opponent(args).await {
            Ok(o) => o,
            Err(NoOpponent::Unknown(name)) => {
                return self.say(t!(self.lang, "tg-unknown-user", username = name))
            }
            Err(NoOpponent::NotAPerson) => return self.say(t!(self.lang, "tg-opponent-bot")),
        };
        let action = Action::Challenge {
            opponent,
            variant: Variant::default(),
        };
        self.act(action, false).await;
    }

    /// Whom `/challenge` names: the author of the message it replies to, a mentioned user,
    /// or nobody (an open challenge). Bots, channels and anonymous admins cannot play.
    async fn opponent(&self, args: &str) -> Result<Option<UserRef>, NoOpponent> {
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
        match args.split_whitespace().next() {
            Some(word) if word.starts_with('@') => self.by_username(word).await.map(Some),
            _ => Ok(None),
        }
    }

    async fn by_username(&self, name: &str) -> Result<UserRef, NoOpponent> {
        self.ctx
            .by_username(name)
            .await
            .ok_or_else(|| NoOpponent::Unknown(name.to_string()))
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
            None => self.say(t!(self.lang, "tg-rematch-how")),
        }
    }

    async fn set_lang(&self, args: &str) {
        let Some(word) = args.split_whitespace().next() else {
            let current = words::lang_name(self.lang);
            return self.say(t!(self.lang, "tg-lang-usage", current = current));
        };
        match word.parse::<Lang>() {
            Ok(lang) => match self.ctx.manager.set_user_lang(&self.actor, lang).await {
                Ok(()) => self.say(t!(lang, "tg-lang-set")),
                Err(err) => self.say(present::error_text(&err, self.lang)),
            },
            Err(_) => {
                let current = words::lang_name(self.lang);
                self.say(t!(self.lang, "tg-lang-usage", current = current))
            }
        }
    }
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
