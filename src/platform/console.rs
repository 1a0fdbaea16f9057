//! The terminal adapter behind `toguz play`: one command per line on the input, boards and
//! answers on the output, through the same manager and store as the chat platforms.
//!
//! Commands: a pit number `1`..`9`, `board`, `record`, `resign`, `draw`, `hint` (against
//! the bot), `review` (once the game is over), `new`, `puzzle [daily|stats|top]` (while a
//! puzzle is on, pit numbers and `board` are the puzzle's: `console_puzzle.rs`), `help`,
//! `quit`. A bad command gets a one-line explanation. End of input leaves like `quit`: the
//! game is already saved (every move is durable before it is shown) and the next start with
//! the same data directory resumes it.

use crate::i18n::{words, Lang};
use crate::manager::{
    Action, ActionError, Event, FinishReason, GameStatus, GameView, Manager, Player, Reply, Request,
};
use crate::model::{ChatRef, Level, Platform, TimeControl, UserRef};
use crate::platform::present::{self, history_text};
use crate::render::{self, Charset};
use crate::rules::{annotate_clocks, RecordResult, Side, Variant};
use crate::t;
use std::io::Write;
use tokio::io::{AsyncBufRead, AsyncBufReadExt};
use tokio::sync::broadcast::{self, error::RecvError};

/// What a new game against the bot looks like.
#[derive(Clone, Debug)]
pub struct PlaySettings {
    pub level: Level,
    /// The human's colour; random when `None`.
    pub colour: Option<Side>,
    pub variant: Variant,
    pub lang: Lang,
    /// Hot seat: two people at one keyboard, White and Black, instead of the bot.
    pub players: Option<[UserRef; 2]>,
    /// The time control of a new game; `None`: correspondence (the config's default).
    pub time: Option<TimeControl>,
    /// Start with a puzzle instead of a game (`toguz puzzle`).
    pub puzzles: bool,
}

/// A player at this keyboard known by a name (hot seat): the name is the identity, so the
/// same name keeps its rating from one session to the next.
pub fn local_player(name: &str) -> UserRef {
    let name = name.trim();
    UserRef::new(Platform::Console, format!("name:{name}"), name)
}

/// The one local player.
pub fn console_user() -> UserRef {
    UserRef::new(Platform::Console, "local", "You")
}

fn console_chat() -> ChatRef {
    ChatRef::new(Platform::Console, "local")
}

#[derive(Debug, PartialEq, Eq)]
enum Command {
    Pit(u8),
    Board,
    Record,
    Resign,
    Draw,
    Hint,
    Review,
    New,
    /// `games`: the ongoing games, those where it is the player's move first.
    Games,
    Help,
    Quit,
    /// `history [name]`, `stats [name]`: a player's games and results (yours by default).
    History(Option<String>),
    Puzzle(puzzle::PuzzleAsk),
    Stats(Option<String>),
    Empty,
    Unknown(String),
}

fn parse_command(line: &str) -> Command {
    let mut words = line.trim().splitn(2, char::is_whitespace);
    let first = words.next().unwrap_or_default().to_lowercase();
    let rest = words.next().map(str::trim).filter(|r| !r.is_empty());
    match first.as_str() {
        "history" | "история" | "тарих" => {
            return Command::History(rest.map(str::to_string))
        }
        "stats" | "статистика" => return Command::Stats(rest.map(str::to_string)),
        w if puzzle::is_puzzle_word(w) => {
            return match puzzle::parse_puzzle(rest) {
                Some(ask) => Command::Puzzle(ask),
                None => Command::Unknown(line.trim().chars().take(40).collect()),
            }
        }
        _ => {}
    }
    let word = line.trim().to_lowercase();
    match word.as_str() {
        "" => Command::Empty,
        // The English words, plus the same commands in Russian and Kazakh.
        "board" | "b" | "доска" | "тақта" => Command::Board,
        "record" | "moves" | "запись" | "жазба" => Command::Record,
        "resign" | "сдаться" | "берілу" => Command::Resign,
        "draw" | "ничья" | "тең" => Command::Draw,
        "hint" | "подсказка" | "кеңес" => Command::Hint,
        "review" | "разбор" | "талдау" => Command::Review,
        "new" | "новая" | "жаңа" => Command::New,
        "games" | "партии" | "ойындар" => Command::Games,
        "help" | "?" | "помощь" | "көмек" => Command::Help,
        "quit" | "exit" | "q" | "выход" | "шығу" => Command::Quit,
        w => match w.parse::<u8>() {
            Ok(pit) if (1..=9).contains(&pit) => Command::Pit(pit),
            _ => Command::Unknown(line.trim().chars().take(40).collect()),
        },
    }
}

/// A console session: reads commands until `quit` or the end of input.
pub struct Console<W: Write> {
    manager: Manager,
    events: broadcast::Receiver<Event>,
    settings: PlaySettings,
    user: UserRef,
    out: W,
    game: Option<GameView>,
    /// The puzzle shown last (`console_puzzle.rs`).
    puzzle: Option<crate::manager::puzzles::PuzzleView>,
}

impl<W: Write> Console<W> {
    pub fn new(manager: Manager, settings: PlaySettings, out: W) -> Console<W> {
        let events = manager.subscribe();
        Console {
            manager,
            events,
            settings,
            user: console_user(),
            out,
            game: None,
            puzzle: None,
        }
    }

    fn lang(&self) -> Lang {
        self.settings.lang
    }

    fn say(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.out, "{text}")?;
        self.out.flush()
    }

    /// Who acts: the local player, or at a hot seat the player to move (White once the
    /// game is over).
    fn actor(&self) -> UserRef {
        let Some(players) = &self.settings.players else {
            return self.user.clone();
        };
        let side = match &self.game {
            Some(g) if !g.is_over() => g.position.to_move(),
            _ => Side::White,
        };
        players[side.index()].clone()
    }

    async fn act(&self, action: Action) -> Result<Reply, ActionError> {
        self.manager
            .act(Request {
                actor: self.actor(),
                chat: console_chat(),
                action,
            })
            .await
    }

    /// Runs the session over `input`.
    pub async fn run<R: AsyncBufRead + Unpin>(mut self, input: R) -> anyhow::Result<()> {
        self.start().await?;
        let mut lines = input.lines();
        loop {
            // A timed game's flag falls while the player thinks: say so without waiting for
            // the next line.
            let clock_runs = self
                .game
                .as_ref()
                .is_some_and(|g| !g.is_over() && g.clock.is_some());
            tokio::select! {
                line = lines.next_line() => {
                    let Some(line) = line? else { break };
                    if !self.command(parse_command(&line)).await? {
                        break;
                    }
                }
                event = self.events.recv(), if clock_runs => self.clock_event(event)?,
            }
        }
        let bye = if self.settings.puzzles {
            t!(self.lang(), "console-puzzle-saved")
        } else {
            t!(self.lang(), "console-saved")
        };
        self.say(&bye)?;
        Ok(())
    }

    /// Resumes the unfinished game, or starts one.
    async fn start(&mut self) -> anyhow::Result<()> {
        if self.settings.puzzles {
            // `toguz puzzle`: no game, no bot; its own words (issue 49).
            self.say(&t!(self.lang(), "console-puzzle-welcome"))?;
            return self.puzzle_command(puzzle::PuzzleAsk::Next).await;
        }
        let help = t!(self.lang(), "console-welcome");
        self.say(&help)?;
        if let Ok(Reply::Games(games)) = self.act(Action::ListGames).await {
            let ours = |g: &GameView| match &self.settings.players {
                Some([w, b]) => g.players == [Player::Human(w.clone()), Player::Human(b.clone())],
                None => true,
            };
            if let Some(game) = games.into_iter().rfind(ours) {
                let text = t!(self.lang(), "console-resumed", id = game.id.as_str());
                self.say(&text)?;
                self.show(&game)?;
                self.game = Some(game);
                return self.await_bot().await;
            }
        }
        self.new_game().await
    }

    async fn new_game(&mut self) -> anyhow::Result<()> {
        if let Some([white, black]) = self.settings.players.clone() {
            return self.new_local_game(white, black).await;
        }
        let action = Action::PlayBot {
            level: self.settings.level,
            variant: self.settings.variant,
            colour: self.settings.colour,
            time: self.settings.time,
        };
        match self.act(action).await {
            Ok(Reply::Game(view)) => {
                let side = view.side_of(&self.user).unwrap_or(Side::White);
                let text = t!(
                    self.lang(),
                    "console-new-game",
                    id = view.id.as_str(),
                    side = side.name(),
                    level = words::level_name(self.lang(), self.settings.level)
                );
                self.say(&text)?;
                self.show(&view)?;
                self.game = Some(view);
                self.await_bot().await
            }
            Ok(_) => Ok(()),
            Err(e) => {
                let text = present::error_text(&e, self.lang());
                self.say(&text)?;
                Ok(())
            }
        }
    }

    /// Handles one command; false to stop.
    async fn command(&mut self, command: Command) -> anyhow::Result<bool> {
        let lang = self.lang();
        match command {
            Command::Empty => {}
            Command::Quit => return Ok(false),
            Command::Help if self.settings.puzzles => {
                self.say(&t!(lang, "console-puzzle-help"))?;
            }
            Command::Help => self.say(&t!(lang, "console-help"))?,
            Command::Unknown(word) => {
                self.say(&t!(lang, "console-unknown", command = word.as_str()))?
            }
            Command::New => {
                if self.game.as_ref().is_some_and(|g| !g.is_over()) {
                    self.say(&t!(lang, "console-finish-first"))?;
                } else {
                    self.new_game().await?;
                }
            }
            Command::Games => {
                let text = match self.act(Action::ListGames).await {
                    Ok(Reply::Games(views)) => {
                        present::games_text(&views, Some(&self.actor()), lang)
                    }
                    Ok(_) => String::new(),
                    Err(e) => present::error_text(&e, lang),
                };
                self.say(&text)?;
            }
            Command::Board if self.solving() => {
                if let Some(view) = self.puzzle.clone() {
                    self.show_puzzle(view)?;
                }
            }
            Command::Pit(pit) if self.solving() => self.puzzle_pit(pit).await?,
            Command::Puzzle(ask) => self.puzzle_command(ask).await?,
            Command::Board => {
                if let Some(view) = self.current(|id| Action::Show { game: Some(id) }).await? {
                    self.show(&view)?;
                }
            }
            Command::Record => {
                if let Some(view) = self.current(|id| Action::Show { game: Some(id) }).await? {
                    let moves = if view.moves.is_empty() && !view.is_over() {
                        t!(lang, "console-no-moves")
                    } else {
                        record_line(&view)
                    };
                    self.say(&moves)?;
                }
            }
            Command::Pit(pit) => {
                // The ply of the board on screen: if another console on the same database
                // moved meanwhile, the move is refused as stale and the board shown anew.
                let ply = self.game.as_ref().map(|g| g.ply);
                let action = |id| Action::Move { game: id, ply, pit };
                if let Some(view) = self.current(action).await? {
                    self.show(&view)?;
                    self.await_bot().await?;
                }
            }
            Command::Resign => {
                let action = |id| Action::Resign {
                    game: Some(id),
                    ply: None,
                };
                if let Some(view) = self.current(action).await? {
                    self.show(&view)?;
                }
            }
            Command::History(name) => {
                let (user, name) = self.named(name);
                let newest = crate::manager::history::PageAt::Newest;
                let text = match self.manager.history(&user, &newest, 0).await {
                    Ok(page) => history_text::history_text(name.as_deref(), &page, lang),
                    Err(e) => present::error_text(&e, lang),
                };
                self.say(&text)?;
            }
            Command::Stats(name) => {
                let (user, name) = self.named(name);
                let text = match self.manager.stats(&user).await {
                    Ok(stats) => history_text::stats_text(name.as_deref(), stats.as_ref(), lang),
                    Err(e) => present::error_text(&e, lang),
                };
                self.say(&text)?;
            }
            Command::Draw => {
                let action = |id| Action::OfferDraw {
                    game: Some(id),
                    ply: None,
                };
                if let Some(view) = self.current(action).await? {
                    self.show(&view)?;
                }
            }
            Command::Hint => self.hint().await?,
            Command::Review => self.review().await?,
        }
        Ok(true)
    }

    /// The engine's review of the game just finished: each side's accuracy and largest
    /// mistakes (the graph is for chats and `toguz review -o`).
    async fn review(&mut self) -> anyhow::Result<()> {
        let lang = self.lang();
        let Some(id) = self.game.as_ref().map(|g| g.id.clone()) else {
            return Ok(self.say(&t!(lang, "console-no-game"))?);
        };
        let ticket = match self.manager.start_review(&id, &self.user).await {
            Ok(ticket) => ticket,
            Err(e) => return Ok(self.say(&present::error_text(&e, lang))?),
        };
        if !ticket.is_ready() {
            self.say(&t!(lang, "console-reviewing"))?;
        }
        match ticket.finish().await {
            Ok(reviewed) => {
                let view = self.as_seen(&reviewed.game);
                let names = crate::platform::present::review::review_names(&view, lang);
                let result = self.result_text(&view).unwrap_or_default();
                let text = crate::review::summary_text(&reviewed.review, &names, &result, lang);
                self.say(text.trim_end())?;
            }
            Err(e) => self.say(&present::error_text(&e, lang))?,
        }
        Ok(())
    }

    /// The engine's move for the player to move in the current game (three per game).
    async fn hint(&mut self) -> anyhow::Result<()> {
        let lang = self.lang();
        let Some(id) = self.game.as_ref().map(|g| g.id.clone()) else {
            return Ok(self.say(&t!(lang, "console-no-game"))?);
        };
        let asked = self
            .manager
            .hint(&self.actor(), &console_chat(), Some(id), None)
            .await;
        let text = match asked {
            Ok(hint) => {
                self.game = Some(hint.game.clone());
                crate::platform::present::review::hint_caption(&hint, lang)
            }
            Err(e) => present::error_text(&e, lang),
        };
        Ok(self.say(&text)?)
    }

    /// The game with the local player named "you" in the current language, whatever name a
    /// game was saved with.
    fn as_seen(&self, view: &GameView) -> GameView {
        let mut view = view.clone();
        for player in view.players.iter_mut() {
            if let Player::Human(u) = player {
                if *u == self.user {
                    u.name = t!(self.lang(), "console-you");
                }
            }
        }
        view
    }

    /// Performs an action on the current game; prints refusals and returns the new view.
    async fn current(
        &mut self,
        action: impl FnOnce(String) -> Action,
    ) -> anyhow::Result<Option<GameView>> {
        let Some(id) = self.game.as_ref().map(|g| g.id.clone()) else {
            let text = t!(self.lang(), "console-no-game");
            self.say(&text)?;
            return Ok(None);
        };
        match self.act(action(id.clone())).await {
            Ok(Reply::Game(view)) => {
                self.game = Some(view.clone());
                Ok(Some(view))
            }
            Ok(_) => Ok(None),
            Err(e) => {
                let text = present::error_text(&e, self.lang());
                self.say(&text)?;
                if matches!(e, ActionError::StaleBoard) {
                    self.show_latest(&id).await?;
                }
                Ok(None)
            }
        }
    }

    /// Shows the game as it is now (after a stale move: someone else moved meanwhile).
    async fn show_latest(&mut self, id: &str) -> anyhow::Result<()> {
        if let Ok(view) = self.manager.game(id).await {
            self.game = Some(view.clone());
            self.show(&view)?;
        }
        Ok(())
    }

    /// If the bot is to move, waits for its move and shows it.
    async fn await_bot(&mut self) -> anyhow::Result<()> {
        let Some(current) = self.game.clone() else {
            return Ok(());
        };
        if !current.to_move_player().is_some_and(|p| p.is_bot()) {
            return Ok(());
        }
        // The bot may have moved before we subscribed (a game resumed at start-up).
        let show = Action::Show {
            game: Some(current.id.clone()),
        };
        if let Ok(Reply::Game(view)) = self.act(show).await {
            if view.ply > current.ply {
                return self.bot_moved(view);
            }
        }
        loop {
            match self.events.recv().await {
                Ok(Event::Game(view)) if view.id == current.id && view.ply > current.ply => {
                    return self.bot_moved(view);
                }
                Ok(_) => {}
                Err(RecvError::Lagged(_)) => {
                    // Missed events: read the game itself.
                    let show = Action::Show {
                        game: Some(current.id.clone()),
                    };
                    if let Ok(Reply::Game(view)) = self.act(show).await {
                        if view.ply > current.ply {
                            return self.bot_moved(view);
                        }
                    }
                }
                Err(RecvError::Closed) => anyhow::bail!("the manager stopped"),
            }
        }
    }

    /// Shows the game once the clock ended it (the flag, or a first move not made in time).
    fn clock_event(&mut self, event: Result<Event, RecvError>) -> anyhow::Result<()> {
        let Some(current) = &self.game else {
            return Ok(());
        };
        if let Ok(Event::Game(view)) = event {
            if view.id == current.id && view.is_over() {
                self.show(&view)?;
                self.game = Some(view);
            }
        }
        Ok(())
    }

    fn bot_moved(&mut self, view: GameView) -> anyhow::Result<()> {
        if let Some(last) = view.last_move {
            let name = present::player_name(view.player(last.side), self.lang());
            let text = t!(
                self.lang(),
                "console-bot-played",
                name = name,
                move = last.notation().to_string()
            );
            self.say(&text)?;
        }
        self.show(&view)?;
        self.game = Some(view);
        Ok(())
    }

    /// Prints the board (which names the last move and whose turn it is), a standing draw
    /// offer, and after the end the result and what to do next.
    fn show(&mut self, view: &GameView) -> std::io::Result<()> {
        let lang = self.lang();
        let view = &self.as_seen(view);
        let me = view.side_of(&self.user);
        let mut board = present::board_view(view, Some(&self.user), lang);
        board.result_line = self.result_text(view);
        let text = render::text(&board, Charset::Unicode);
        self.say(&text)?;
        for line in present::clock_lines(view, lang, present::ClockStyle::TimeOfDay) {
            self.say(&line)?;
        }
        if let Some(offerer) = view.draw_offer {
            let offer = if Some(offerer) == me {
                t!(lang, "console-you-offer-draw")
            } else {
                let name = present::player_name(view.player(offerer), lang);
                t!(lang, "manager-draw-offered", name = name)
            };
            self.say(&offer)?;
        }
        if view.is_over() {
            if let Some(result) = self.result_text(view) {
                // The board wraps a long result line; it is there all the same.
                let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
                if !words(&text).contains(&words(&result)) {
                    self.say(&result)?;
                }
            }
            if let Some(ratings) = present::ratings_text(view, lang) {
                self.say(&ratings)?;
            }
            self.say(&t!(lang, "console-game-over"))?;
        }
        Ok(())
    }
}

/// The move text of a game, with its result once it is over (`1-0`, `0-1`, `1/2-1/2`; `*`
/// for an aborted game), as records write it.
fn record_line(view: &GameView) -> String {
    let result = match view.status {
        GameStatus::Ongoing => None,
        GameStatus::Finished {
            reason: FinishReason::Aborted | FinishReason::FirstMoveMissed(_),
            ..
        } => Some(RecordResult::Unknown),
        GameStatus::Finished { winner, .. } => Some(RecordResult::from_winner(winner)),
    };
    let result = result.map_or("", RecordResult::as_str);
    let line = format!("{} {result}", view.moves).trim().to_string();
    match &view.clock {
        // Days per move: one move per period, in the correspondence category.
        None => match view.time_control.move_secs() {
            Some(secs) => format!(
                "[TimeControl \"{}\"]\n[TimeCategory \"{}\"]\n\n{line}",
                view.time_control.pgn(secs),
                view.time_control.category().name()
            ),
            None => line,
        },
        // A timed game: its control and category as headers, the clocks after each move.
        Some(clock) => format!(
            "[TimeControl \"{}\"]\n[TimeCategory \"{}\"]\n\n{}",
            clock.control.pgn(0),
            clock.control.category().name(),
            annotate_clocks(&line, &clock.after_move_ms)
        ),
    }
}

impl<W: Write> Console<W> {
    /// Starts a hot-seat game between two named people.
    async fn new_local_game(&mut self, white: UserRef, black: UserRef) -> anyhow::Result<()> {
        let lang = self.lang();
        let started = self
            .manager
            .start_local_game(
                console_chat(),
                white,
                black,
                self.settings.variant,
                self.settings.time,
            )
            .await;
        match started {
            Ok(view) => {
                let names = Side::BOTH.map(|s| present::player_name(view.player(s), lang));
                let text = t!(
                    lang,
                    "console-new-local-game",
                    id = view.id.as_str(),
                    white = names[0].as_str(),
                    black = names[1].as_str()
                );
                self.say(&text)?;
                self.show(&view)?;
                self.game = Some(view);
            }
            Err(e) => self.say(&present::error_text(&e, lang))?,
        }
        Ok(())
    }

    /// The player a `history` or `stats` command is about, and the name to show: a name
    /// given, else the player at the keyboard (the one to move, at a hot seat).
    /// `None` as the name: the local player themselves ("Your games").
    fn named(&self, name: Option<String>) -> (UserRef, Option<String>) {
        match name {
            Some(name) => {
                let user = local_player(&name);
                let shown = user.name.clone();
                (user, Some(shown))
            }
            None if self.settings.players.is_some() => {
                let user = self.actor();
                let shown = user.name.clone();
                (user, Some(shown))
            }
            None => (self.user.clone(), None),
        }
    }

    /// The result, speaking to the local player where a sentence is about them ("You
    /// win.", "Вы сдались."): the shared sentences are in the third person, and "You"
    /// is no name to put in them ("You wins", "Вы сдаётся").
    fn result_text(&self, view: &GameView) -> Option<String> {
        let lang = self.lang();
        let GameStatus::Finished { winner, reason } = view.status else {
            return None;
        };
        let me = view.side_of(&self.user);
        let headline = match (winner, reason) {
            (Some(side), _) if Some(side) == me => {
                t!(lang, "console-you-win")
            }
            _ => present::result_headline(view, lang)?,
        };
        let why = match reason {
            FinishReason::Resigned(side) if Some(side) == me => {
                Some(t!(lang, "console-you-resigned"))
            }
            // The clock's flag fell, or a correspondence game's time for a move ran out.
            FinishReason::TimedOut(side) if Some(side) == me && view.clock.is_some() => {
                Some(t!(lang, "console-you-timed-out"))
            }
            FinishReason::TimedOut(side) if Some(side) == me => {
                Some(t!(lang, "console-you-missed-deadline"))
            }
            _ => present::result_reason(view, lang),
        };
        Some(match why {
            Some(why) => format!("{headline} {why}"),
            None => headline,
        })
    }
}

#[path = "console_puzzle.rs"]
mod puzzle;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(parse_command(" 7 "), Command::Pit(7));
        assert_eq!(parse_command("BOARD"), Command::Board);
        assert_eq!(parse_command(""), Command::Empty);
        assert_eq!(parse_command("0"), Command::Unknown("0".into()));
        assert_eq!(parse_command("10"), Command::Unknown("10".into()));
        assert_eq!(parse_command("quit"), Command::Quit);
        assert_eq!(parse_command("Review"), Command::Review);
        assert_eq!(parse_command("разбор"), Command::Review);
        assert_eq!(parse_command("games"), Command::Games);
        assert_eq!(parse_command("Ойындар"), Command::Games);
        assert_eq!(parse_command("талдау"), Command::Review);
        assert_eq!(parse_command("hint"), Command::Hint);
        assert_eq!(parse_command("Подсказка"), Command::Hint);
        assert_eq!(parse_command("кеңес"), Command::Hint);
        assert!(matches!(parse_command("dance"), Command::Unknown(w) if w == "dance"));
    }
}
