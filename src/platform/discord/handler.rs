//! The one global interaction handler: slash commands and button presses become manager
//! actions; the answer is drawn by `messages` and sent as the interaction's response.
//!
//! Button custom_ids are the manager's button data (game id and the ply shown), so a press on
//! a message posted before a restart works the same. A press is answered by updating the
//! pressed message in place (UPDATE_MESSAGE, with the board file again); refusals (not your
//! turn, stale board, forged data) are ephemeral and change nothing. An answer that is not
//! ready within 2 s is deferred and given later, and a panic is answered (`guard.rs`).

use super::answer::{Deferral, Origin};
use super::autocomplete;
use super::commands::{self, BadOption, Command, TournamentCommand};
use super::failure::{self, said, Failure, Handled};
use super::guard::Guarded as _;
use super::messages::{self, Stamp};
use super::{guard, message_ref, Bot, Drawn};
use crate::i18n::Lang;
use crate::manager::buttons::{self, Button};
use crate::manager::limits::Verdict;
use crate::manager::{Action, ActionError, ChallengeView, GameView, Reply, Request, Target};
use crate::model::{ChatRef, Platform, TimeControl, TimeControlError, UserRef};
use crate::platform::present;
use crate::platform::present::history_text::{self, Whose};
use crate::ratings::keys::Scope;
use crate::t;
use serenity::all::{
    ChannelId, CommandInteraction, ComponentInteraction, Context, EventHandler, GuildId, Http,
    Interaction, Member, Ready, User, UserId,
};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub struct Handler {
    pub bot: Arc<Bot>,
}

#[serenity::async_trait]
impl EventHandler for Handler {
    async fn ready(&self, ctx: Context, ready: Ready) {
        tracing::info!(
            shard = ready.shard.map(|s| s.id.0),
            guilds = ready.guilds.len(),
            "Discord: gateway ready"
        );
        if !self.bot.commands_registered.swap(true, Ordering::SeqCst) {
            if let Err(error) = self.bot.register_commands(&ctx.http).await {
                tracing::error!(%error, "Discord: slash command registration failed");
                self.bot.commands_registered.store(false, Ordering::SeqCst);
            }
        }
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        let started = tokio::time::Instant::now();
        let http = &ctx.http;
        match interaction {
            Interaction::Command(cmd) => {
                let deferral = Deferral::Message {
                    ephemeral: commands::answers_privately(&cmd.data.name, &cmd.data.options),
                };
                let lang = Lang::from_locale(Some(cmd.locale.as_str()));
                let origin = Origin::new(http, cmd.id, &cmd.token, cmd.channel_id, deferral, lang);
                let work = self.bot.on_command(http, &origin, &cmd);
                guard::guarded(&origin, started + guard::DEFER_AFTER, work).await;
            }
            Interaction::Component(press) => {
                let lang = Lang::from_locale(Some(press.locale.as_str()));
                // A review or a hint is a new message, not an update of the pressed board.
                let deferral = match buttons::decode(&press.data.custom_id) {
                    Ok(
                        Button::Review { .. }
                        | Button::ReviewBoard { .. }
                        | Button::Hint { .. }
                        | Button::Opening { .. },
                    ) => Deferral::Message { ephemeral: false },
                    // A record is a new message for the one who pressed; so is the answer
                    // to Join or Leave (the announcement follows the event).
                    Ok(
                        Button::Record { .. }
                        | Button::JoinTournament { .. }
                        | Button::LeaveTournament { .. }
                        | Button::Premoves { .. },
                    ) => Deferral::Message { ephemeral: true },
                    _ => Deferral::Update,
                };
                let origin = Origin::new(
                    http,
                    press.id,
                    &press.token,
                    press.channel_id,
                    deferral,
                    lang,
                );
                let work = self.bot.on_component(http, &origin, &press);
                guard::guarded(&origin, started + guard::DEFER_AFTER, work).await;
            }
            Interaction::Autocomplete(typing) => autocomplete::suggest(http, &typing).await,
            _ => {}
        }
        tracing::debug!(
            elapsed_ms = started.elapsed().as_millis() as u64,
            "Discord: interaction handled"
        );
    }
}

/// Who acts: the member's nickname, else the global display name, else the username
/// (no privileged intent needed: the interaction carries them).
fn actor(user: &User, member: Option<&Member>) -> UserRef {
    let name = member
        .and_then(|m| m.nick.clone())
        .or_else(|| user.global_name.clone())
        .unwrap_or_else(|| user.name.clone());
    UserRef::new(Platform::Discord, user.id.to_string(), name)
}

/// A member named in a command's option, as its resolved data names them; `None` when
/// Discord sent no such user (a forged or outdated client).
fn resolved_user(cmd: &CommandInteraction, id: UserId) -> Option<UserRef> {
    let u = cmd.data.resolved.users.get(&id)?;
    let member = cmd.data.resolved.members.get(&id);
    let name = member
        .and_then(|m| m.nick.clone())
        .or_else(|| u.global_name.clone())
        .unwrap_or_else(|| u.name.clone());
    Some(UserRef::new(Platform::Discord, id.to_string(), name))
}

/// What to do with an answer that is a new message.
enum Attach {
    Game(GameView),
    Challenge(ChallengeView),
}

/// Limits count per guild; in a DM the DM channel is the chat.
pub(super) fn chat(guild: Option<GuildId>, channel: ChannelId) -> ChatRef {
    match guild {
        Some(g) => ChatRef::new(Platform::Discord, g.to_string()),
        None => ChatRef::new(Platform::Discord, format!("dm{channel}")),
    }
}

impl Bot {
    pub(super) async fn register_commands(&self, http: &Http) -> serenity::Result<()> {
        let mut defs = commands::definitions();
        if self.settings.activity {
            defs.push(super::activity::definition());
        }
        let count = defs.len();
        match self.settings.dev_guild_id {
            Some(guild) => {
                GuildId::new(guild).set_commands(http, defs).await?;
                tracing::info!(
                    guild,
                    count,
                    "Discord: slash commands registered in the dev guild"
                );
            }
            None => {
                serenity::all::Command::set_global_commands(http, defs).await?;
                tracing::info!(count, "Discord: slash commands registered globally");
            }
        }
        Ok(())
    }

    /// The language for a user: the one they chose, else their Discord client's (which the
    /// manager keeps for the boards of their games).
    async fn lang(&self, user: &UserRef, locale: &str) -> Lang {
        let client = Lang::from_locale(Some(locale));
        self.manager.speaker(user, Some(client)).await
    }

    async fn act(
        &self,
        actor: &UserRef,
        chat: &ChatRef,
        action: Action,
    ) -> Result<Reply, ActionError> {
        self.manager
            .act(Request {
                actor: actor.clone(),
                chat: chat.clone(),
                action,
            })
            .await
    }

    // ----- slash commands -----

    /// A slash command, answered; what it could not do is answered in one place.
    async fn on_command(
        self: &Arc<Self>,
        http: &Arc<Http>,
        origin: &Origin<'_>,
        cmd: &CommandInteraction,
    ) {
        let user = actor(&cmd.user, cmd.member.as_deref());
        self.reachable_again(&user);
        let lang = self.lang(&user, &cmd.locale).await;
        if let Err(failure) = self.run_command(http, origin, cmd, &user, lang).await {
            failure::answer(origin, failure, lang).await;
        }
    }

    async fn run_command(
        self: &Arc<Self>,
        http: &Arc<Http>,
        origin: &Origin<'_>,
        cmd: &CommandInteraction,
        user: &UserRef,
        lang: Lang,
    ) -> Handled {
        let user = user.clone();
        let chat = chat(cmd.guild_id, cmd.channel_id);
        if cmd.data.name == super::activity::COMMAND {
            return self.launch_activity(origin, lang).await;
        }
        let Some(command) = commands::parse(&cmd.data.name, &cmd.data.options) else {
            tracing::warn!(name = cmd.data.name, "Discord: unknown command");
            return Err(Failure::BadOption);
        };
        if is_lookup(&command) && !self.within_limit(&user, &cmd.data.name).await {
            // Every interaction must be answered: each one over the limit is told.
            return Err(Failure::Limited);
        }
        let answer = match command {
            Command::Challenge {
                opponent,
                variant,
                time,
                rated,
            } => {
                let Ok(variant) = variant else {
                    return Err(Failure::BadOption);
                };
                let time = match typed_time(time, lang) {
                    Ok(time) => time,
                    Err(refusal) => return Err(Failure::Unable(refusal)),
                };
                if cmd.guild_id.is_none() {
                    return Err(Failure::Unable(t!(lang, "discord-challenge-in-dm")));
                }
                let opponent = opponent.and_then(|id| {
                    let u = cmd.data.resolved.users.get(&id)?;
                    let member = cmd.data.resolved.members.get(&id);
                    let name = member
                        .and_then(|m| m.nick.clone())
                        .or_else(|| u.global_name.clone())
                        .unwrap_or_else(|| u.name.clone());
                    Some((UserRef::new(Platform::Discord, id.to_string(), name), u.bot))
                });
                let Some((opponent, is_bot)) = opponent else {
                    return Err(Failure::UnknownUser);
                };
                if is_bot {
                    return Err(self.bot_refusal(&opponent, lang));
                }
                if let Some(wait) = self.cooldown_left(&user) {
                    let seconds = wait.as_secs().max(1);
                    let text = t!(lang, "discord-cooldown", seconds = seconds);
                    return Err(Failure::Unable(text));
                }
                let action = Action::Challenge {
                    opponent: Some(opponent),
                    variant,
                    rated,
                    time,
                };
                let reply = self.act(&user, &chat, action).await;
                if reply.is_ok() {
                    self.start_cooldown(&user);
                }
                reply
            }
            Command::Play {
                level,
                variant,
                time,
            } => {
                let Ok(variant) = variant else {
                    return Err(Failure::BadOption);
                };
                let time = match typed_time(time, lang) {
                    Ok(time) => time,
                    Err(refusal) => return Err(Failure::Unable(refusal)),
                };
                let level = match level {
                    None => self.manager.config().bot.default_level,
                    Some(Ok(level)) => level,
                    Some(Err(BadOption)) => return Err(Failure::BadOption),
                };
                let action = Action::PlayBot {
                    level,
                    variant,
                    colour: None,
                    time,
                };
                self.act(&user, &chat, action).await
            }
            Command::Board { game } => self.act(&user, &chat, Action::Show { game }).await,
            Command::Games => match self.act(&user, &chat, Action::ListGames).await {
                Ok(Reply::Games(views)) => {
                    return said(origin, present::games_text(&views, Some(&user), lang)).await
                }
                other => other,
            },
            Command::Resign { game } => {
                match self
                    .act(&user, &chat, Action::Resign { game, ply: None })
                    .await
                {
                    Ok(Reply::Game(view)) => {
                        let text = t!(lang, "discord-resigned", id = view.id.as_str());
                        return said(origin, text).await;
                    }
                    other => other,
                }
            }
            Command::Draw { game } => {
                match self
                    .act(&user, &chat, Action::OfferDraw { game, ply: None })
                    .await
                {
                    Ok(Reply::Game(view)) => {
                        let text = present::result_text(&view, lang).unwrap_or_else(|| {
                            t!(lang, "discord-draw-offered", id = view.id.as_str())
                        });
                        return said(origin, text).await;
                    }
                    other => other,
                }
            }
            Command::Rematch { game } => match game {
                Some(game) => self.act(&user, &chat, Action::Rematch { game }).await,
                None => Err(ActionError::NoSuchGame),
            },
            Command::Review { game } => {
                // Without a game: this place's last, else the caller's last in the archive.
                let game = match game {
                    Some(game) => game,
                    None => self.manager.last_finished_for(&chat, &user).await?,
                };
                return self.review(origin, (&user, &chat), Some(game), lang).await;
            }
            Command::Stats { player } => {
                let named = player.and_then(|id| resolved_user(cmd, id));
                if player.is_some() && named.is_none() {
                    return Err(Failure::UnknownUser);
                }
                let whose = named.filter(|u| *u != user);
                let shown = whose.as_ref().map(present::user_name);
                let stats = self.manager.stats(whose.as_ref().unwrap_or(&user)).await?;
                let text = history_text::stats_text(shown.as_deref(), stats.as_ref(), lang);
                return said(origin, text).await;
            }
            Command::History { player } => {
                let whose = match player {
                    None => Whose {
                        user: user.clone(),
                        own: true,
                    },
                    Some(id) => match resolved_user(cmd, id) {
                        Some(named) => Whose {
                            own: named == user,
                            user: named,
                        },
                        None => return Err(Failure::UnknownUser),
                    },
                };
                return self.history(origin, whose, lang).await;
            }
            Command::Record { game } => {
                return self.record(origin, (&user, &chat), game, false, lang).await;
            }
            Command::Leaderboard { global, category } => {
                let (Ok(global), Ok(category)) = (global, category.transpose()) else {
                    return Err(Failure::BadOption);
                };
                // In a DM there is no server: everyone on Discord.
                let scope = if global || cmd.guild_id.is_none() {
                    Scope::Platform(Platform::Discord)
                } else {
                    Scope::Chat(chat.clone())
                };
                let text = self.leaderboard(scope, category, &user, lang).await?;
                return said(origin, text).await;
            }
            Command::Tournament(sub) => {
                let place = cmd.guild_id.map(|_| chat.clone());
                let who = (&user, place, cmd.member.as_deref());
                return self.tournament_command(http, origin, who, sub, lang).await;
            }
            Command::Opening { moves, source } => {
                let asked = (moves, source);
                return self
                    .opening_command(origin, (&user, &chat), asked, lang)
                    .await;
            }
            Command::Puzzle(sub) => {
                let member = cmd.guild_id.and(cmd.member.as_deref());
                let who = (&user, &chat, member);
                return self.puzzle_command(origin, who, sub, lang).await;
            }
            Command::Web {
                public,
                profile,
                signin: Some(signin),
            } => {
                if public.is_some() || profile.is_some() {
                    // One choice at a time: each has its own answer.
                    return Err(Failure::BadOption);
                }
                let signin = signin.map_err(|BadOption| Failure::BadOption)?;
                return self.signin_command(origin, &user, signin, lang).await;
            }
            Command::Web {
                public,
                profile,
                signin: None,
            } => {
                let who = (&user, &chat, cmd.guild_id.and(cmd.member.as_deref()));
                return self.web_command(origin, who, (public, profile), lang).await;
            }
            Command::Notify(options) => {
                return self.notify_command(origin, &user, options, lang).await
            }
            Command::Help { language } => {
                let lang = match language {
                    None => lang,
                    Some(Err(BadOption)) => return Err(Failure::BadOption),
                    Some(Ok(chosen)) => {
                        self.manager.set_user_lang(&user, chosen).await?;
                        let text = format!(
                            "{}\n\n{}",
                            t!(chosen, "discord-lang-set"),
                            t!(chosen, "discord-help")
                        );
                        return said(origin, text).await;
                    }
                };
                return said(origin, t!(lang, "discord-help")).await;
            }
        };
        self.answer_new(http, origin, &user, answer?, lang).await
    }

    /// Answers with a new public message (a game or a challenge), or a private list.
    async fn answer_new(
        self: &Arc<Self>,
        http: &Arc<Http>,
        origin: &Origin<'_>,
        asker: &UserRef,
        reply: Reply,
        lang: Lang,
    ) -> Handled {
        let attach = match reply {
            Reply::Game(view) => Attach::Game(view),
            Reply::Challenge(view) => Attach::Challenge(view),
            Reply::Games(views) => {
                return said(origin, present::games_text(&views, Some(asker), lang)).await
            }
        };
        match attach {
            Attach::Game(view) => {
                let _guard = self.hold(format!("g:{}", view.id)).await;
                let lang = present::board_lang(&view);
                let out = self.board_for(&view, lang, None).await;
                let Some(message) = origin.post(out).await else {
                    return Ok(());
                };
                self.set_posted(message, Drawn::Game(Stamp::of(&view)));
                let target = Target::Game(view.id.clone());
                self.attach(target, origin.channel().get(), message, Some(asker))
                    .await;
                // The bot may have moved while the message was on its way: the game's
                // worker catches up.
                super::events::nudge_game(self, http, &view.id);
            }
            Attach::Challenge(view) => {
                let _guard = self.hold(format!("c:{}", view.id)).await;
                let Some(message) = origin.post(messages::challenge(&view, lang)).await else {
                    return Ok(());
                };
                self.set_posted(message, Drawn::Challenge);
                let target = Target::Challenge(view.id.clone());
                self.attach(target, origin.channel().get(), message, None)
                    .await;
            }
        }
        Ok(())
    }

    /// `by`: whose command the message answers (`None`: the game's own board).
    async fn attach(&self, target: Target, channel: u64, message: u64, by: Option<&UserRef>) {
        let message = message_ref(channel, message);
        present::attach(&self.manager, target, message, by).await;
    }

    /// Why a bot account cannot be challenged: ours is played with /play; any other bot
    /// (Discord marks every bot account `bot: true`) cannot play at all.
    fn bot_refusal(&self, opponent: &UserRef, lang: Lang) -> Failure {
        if opponent.id == self.bot_id.to_string() {
            Failure::Refused(ActionError::ChallengeBot)
        } else {
            let name = present::user_name(opponent);
            Failure::Unable(t!(lang, "discord-challenge-other-bot", name = name))
        }
    }

    /// Counts a lookup of `user` against the shared per-user command limit (as Telegram
    /// counts every command): false when over it.
    pub(super) async fn within_limit(&self, user: &UserRef, command: &str) -> bool {
        // Users whose allowance is full again need no entry.
        if self.commands.users() >= 4096 {
            self.commands.prune();
        }
        let per_minute = self.manager.config().limits.commands_per_minute;
        let allowed = match self.commands.check(&user.id) {
            // This process lets it through; then every process's count together.
            Verdict::Go => self.manager.command_allowed(user, per_minute).await,
            Verdict::Warn | Verdict::Ignore => false,
        };
        if !allowed {
            tracing::info!(user = user.id, command, "Discord: commands over the limit");
        }
        allowed
    }

    fn cooldown_left(&self, user: &UserRef) -> Option<Duration> {
        let cooldown = self.settings.challenge_cooldown;
        let last = *super::lock(&self.cooldowns).get(&user.id)?;
        cooldown
            .checked_sub(last.elapsed())
            .filter(|d| !d.is_zero())
    }

    fn start_cooldown(&self, user: &UserRef) {
        let mut map = super::lock(&self.cooldowns);
        let cooldown = self.settings.challenge_cooldown;
        // Members whose cooldown is over need no entry.
        if map.len() >= 1024 {
            map.retain(|_, t| t.elapsed() < cooldown);
        }
        map.insert(user.id.clone(), Instant::now());
    }

    // ----- buttons -----

    /// A button press, answered; what it could not do is answered in one place.
    async fn on_component(
        self: &Arc<Self>,
        http: &Arc<Http>,
        origin: &Origin<'_>,
        press: &ComponentInteraction,
    ) {
        let user = actor(&press.user, press.member.as_ref());
        if press.guild_id.is_none() {
            // A press in a DM; one on a server's board is play, not writing to the bot.
            self.reachable_again(&user);
        }
        let lang = self.lang(&user, &press.locale).await;
        if let Err(failure) = self.run_component(http, origin, press, &user, lang).await {
            failure::answer(origin, failure, lang).await;
        }
    }

    async fn run_component(
        self: &Arc<Self>,
        http: &Arc<Http>,
        origin: &Origin<'_>,
        press: &ComponentInteraction,
        user: &UserRef,
        lang: Lang,
    ) -> Handled {
        let user = user.clone();
        let chat = chat(press.guild_id, press.channel_id);
        let button = match buttons::decode(&press.data.custom_id) {
            Ok(button) => button,
            Err(error) => {
                tracing::info!(%error, "Discord: a button with data we do not know");
                return Err(Failure::BadButton);
            }
        };
        let message = press.message.id.get();
        match button {
            Button::LaunchActivity => self.launch_activity(origin, lang).await,
            Button::Premoves { game } => self.open_premoves(origin, &user, game, lang).await,
            Button::PremoveKey { game, edits, key } => {
                self.premove_key(origin, &user, (game, edits, key), lang)
                    .await
            }
            Button::Review { game } => self.review(origin, (&user, &chat), Some(game), lang).await,
            Button::Hint { game, ply } => {
                self.hint(http, origin, (&user, &chat), (game, ply), lang)
                    .await
            }
            Button::ReviewBoard { game, mark } => {
                self.review_board(origin, (&user, &chat), game, mark, lang)
                    .await
            }
            Button::Record { game } => {
                // A board has its own board already; a history page does not.
                let on_board = press
                    .message
                    .attachments
                    .iter()
                    .any(|a| a.filename == messages::BOARD_FILE);
                let asker = (&user, &chat);
                self.record(origin, asker, Some(game), !on_board, lang)
                    .await
            }
            Button::HistoryPage {
                user: whose,
                page,
                at,
            } => {
                self.history_page(origin, &user, (whose, page, at), lang)
                    .await
            }
            Button::Explorer { .. } | Button::Opening { .. } => {
                self.opening_press(origin, press, (&user, &chat), button, lang)
                    .await
            }
            Button::PuzzleMove { .. } if !super::puzzle::on_message(press) => {
                // A move names its owner and attempt: data the message never carried is
                // forged.
                Err(Failure::BadButton)
            }
            // Next and Daily each read and write the presser's puzzle record and draw a
            // board: limited as commands are (issue 49, finding 17).
            Button::PuzzleNext | Button::PuzzleDaily
                if !self.within_limit(&user, "puzzle button").await =>
            {
                Err(Failure::Limited)
            }
            Button::PuzzleMove { .. } | Button::PuzzleNext | Button::PuzzleDaily => {
                self.puzzle_press(origin, (&user, &chat), button, lang)
                    .await
            }
            Button::JoinTournament { ref tournament } => {
                self.tournament_entry(origin, (&user, &chat), (tournament, true), lang)
                    .await
            }
            Button::LeaveTournament { ref tournament } => {
                self.tournament_entry(origin, (&user, &chat), (tournament, false), lang)
                    .await
            }
            Button::PlayLevel { .. } | Button::Rematch { .. } => {
                let Some(action) = button.into_action() else {
                    return Err(Failure::BadButton);
                };
                let reply = self.act(&user, &chat, action).await?;
                self.answer_new(http, origin, &user, reply, lang).await
            }
            Button::AcceptChallenge { ref challenge, .. }
            | Button::DeclineChallenge { ref challenge }
            | Button::CancelChallenge { ref challenge }
            | Button::ChallengeTime { ref challenge, .. } => {
                let _guard = self.hold(format!("c:{challenge}")).await;
                let Some(action) = button.clone().into_action() else {
                    return Err(Failure::BadButton);
                };
                match self.act(&user, &chat, action).await? {
                    Reply::Game(view) => {
                        // The challenge message becomes the game message.
                        let pressed = (message, press.guild_id.is_none());
                        self.update_game(http, origin, &view, &user, pressed).await;
                    }
                    Reply::Challenge(view) => {
                        let ticket = self.begin_draw(message);
                        let answered = origin.update(messages::challenge(&view, lang)).await;
                        self.end_draw(message, ticket, answered.then_some(Drawn::Challenge));
                    }
                    Reply::Games(_) => return Err(Failure::BadButton),
                }
                Ok(())
            }
            Button::Move { ref game, .. }
            | Button::Resign { ref game, .. }
            | Button::OfferDraw { ref game, .. }
            | Button::AcceptDraw { ref game }
            | Button::DeclineDraw { ref game }
            | Button::Abort { ref game }
            | Button::Berserk { ref game } => {
                let _guard = self.hold(format!("g:{game}")).await;
                let Some(action) = button.clone().into_action() else {
                    return Err(Failure::BadButton);
                };
                match self.act(&user, &chat, action).await {
                    Ok(Reply::Game(view)) => {
                        let pressed = (message, press.guild_id.is_none());
                        self.update_game(http, origin, &view, &user, pressed).await;
                        Ok(())
                    }
                    Ok(_) => Err(Failure::BadButton),
                    Err(error) => {
                        if matches!(error, ActionError::StaleBoard) {
                            // The pressed board may lag behind the game (its edit was
                            // lost): the game's worker redraws whichever of its messages
                            // does not show it, as Telegram does on a stale press.
                            super::events::nudge_game(self, http, game);
                        }
                        Err(error.into())
                    }
                }
            }
        }
    }

    /// `/review` and the Review button: a refusal (unknown game, not over, too many
    /// reviews) is answered at once and privately; an admitted review that is not kept from
    /// before is deferred at once (Discord wants an answer within 3 s, the engine may take
    /// longer) and posted as a public message when done.
    async fn review(
        self: &Arc<Self>,
        origin: &Origin<'_>,
        (user, chat): (&UserRef, &ChatRef),
        game: Option<String>,
        lang: Lang,
    ) -> Handled {
        let ticket = self.manager.start_review_in(chat, game, user).await?;
        if !ticket.is_ready() {
            origin.defer().await;
        }
        let reviewed = ticket.finish().await?;
        let buttons = present::review::mistake_buttons(&reviewed, lang);
        // The graph (drawn once per language while the review is kept) is drawn off the
        // async workers.
        match crate::render::draw(move || present::review::review_post(&reviewed, lang)).await {
            Ok(post) => {
                origin.post(messages::review(post, &buttons)).await;
                Ok(())
            }
            Err(error) => Err(Failure::Internal(format!(
                "the review could not be drawn: {error}"
            ))),
        }
    }

    /// A review message's mistake button: the board before that mistake, as a new public
    /// message (the review is kept, so this is quick; if it was forgotten, it is worked out
    /// again as for `/review`).
    async fn review_board(
        self: &Arc<Self>,
        origin: &Origin<'_>,
        (user, chat): (&UserRef, &ChatRef),
        game: String,
        mark: u8,
        lang: Lang,
    ) -> Handled {
        let ticket = self.manager.start_review_in(chat, Some(game), user).await?;
        if !ticket.is_ready() {
            origin.defer().await;
        }
        let reviewed = ticket.finish().await?;
        let drawn = move || present::review::mistake_board(&reviewed, mark, lang);
        let board = crate::render::draw(drawn)
            .await
            .map_err(|error| Failure::Internal(format!("a mistake board: {error}")))?;
        // No such mistake in the review: the button's mark was not one of ours.
        let Some((caption, png)) = board else {
            return Err(Failure::BadButton);
        };
        origin.post(messages::mistake_board(caption, png)).await;
        Ok(())
    }
}

/// A typed `time:` option: the time control (`None`: the chat's default), or the refusal to
/// show, with valid examples.
fn typed_time(
    time: Option<Result<TimeControl, TimeControlError>>,
    lang: Lang,
) -> Result<Option<TimeControl>, String> {
    time.transpose()
        .map_err(|error| present::time_control_error(&error, lang))
}

/// The commands that read the store or draw for whoever asks, limited per user like every
/// Telegram command (issue 31, item 12).
fn is_lookup(command: &Command) -> bool {
    matches!(
        command,
        Command::Review { .. }
            | Command::Leaderboard { .. }
            | Command::History { .. }
            | Command::Board { .. }
            | Command::Record { .. }
            | Command::Tournament(
                TournamentCommand::Standings { .. } | TournamentCommand::New { .. }
            )
            | Command::Puzzle(_)
            | Command::Opening { .. }
    )
}
