//! A tournament in chat, the same on every platform (issue 49). The event's chat carries the
//! event: its announcement (edited in place as players join and the event moves on), one
//! pairings message per round or arena wave, the standings picture (posted once, then
//! edited), and the podium. The boards go where they do not compete for that one chat's
//! flood budget: each player's private chat with the bot (a Telegram private chat, a
//! Discord DM), falling back to the event's chat for a player the platform will not let the
//! bot reach privately, unless the event is small enough for the chat to carry its boards
//! (`boards_for`). A game's first move waits for its board to reach both players (the
//! manager's `GameClock::seen`), so a board late behind a limit costs nobody a game.
//!
//! Each event has one worker (`platform/worker.rs`): the news the manager publishes folds
//! into the worker's waiting [`Pending`] (games to deliver pile up, nothing is lost), and a
//! pass draws the event as it is in the store now, so news that waited behind a limit
//! costs one redraw. What a pass could not do for a reason that may pass is done again
//! after a pause ([`BACKOFF`]), or sooner when news comes.

use super::Posted;
use crate::i18n::Lang;
use crate::manager::tournament::{Status, TournamentNews, TournamentRecord};
use crate::manager::{GameView, Manager, MessageRef, Player};
use crate::model::{GameId, Platform, UserRef};
use crate::platform::present::tournament as show;
use crate::platform::present::ClockStyle;
use crate::platform::worker::Workers;
use crate::render::table::TableView;
use futures::StreamExt as _;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// Messages a minute one chat of the platform takes from a bot: a Telegram group 20, a
/// Discord channel 60 (5 every 5 s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChatBudget {
    pub posts_per_minute: u32,
}

/// Telegram's limit for a group, supergroup or channel.
pub const TELEGRAM_GROUP: ChatBudget = ChatBudget {
    posts_per_minute: 20,
};
/// Discord's limit for a channel's messages (5 per 5 s).
pub const DISCORD_CHANNEL: ChatBudget = ChatBudget {
    posts_per_minute: 60,
};

/// About how often a board in play is drawn again: once every ten seconds in a quick game
/// (a move, the opponent's, a clock line), besides its first post.
const REDRAWS_PER_GAME_MINUTE: u32 = 6;

/// Where an event's boards go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boards {
    /// In the event's chat, with its pairing line over each board.
    InChat,
    /// To each player privately; the chat gets one pairings message per round or wave.
    Private,
}

/// Where the boards of an event with `players` entrants go: the chat carries them only
/// when all its games at once, redrawn as they are played, take at most half of its
/// budget (the rest is for the announcement, the standings and the chat's own games).
/// A Telegram group: up to 3 players; a Discord channel: up to 11.
pub fn boards_for(players: usize, chat: ChatBudget) -> Boards {
    let games = u32::try_from(players / 2).unwrap_or(u32::MAX);
    match games.saturating_mul(REDRAWS_PER_GAME_MINUTE) <= chat.posts_per_minute / 2 {
        true => Boards::InChat,
        false => Boards::Private,
    }
}

/// How a board sent privately fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// It is in the player's private chat, attached to the game for them.
    Sent,
    /// The platform will not let the bot write to them (they never started the bot,
    /// blocked it, or closed their DMs): the board goes to the event's chat instead.
    Unreachable,
    /// Failed in a way that may pass: tried again later.
    Later,
}

/// What an adapter does for an event: each call sends or edits one thing in its platform's
/// words, waiting out its own limits (the calls come from the event's worker, never from a
/// shared loop), and attaches what it posted (`Manager::attach_message`,
/// `attach_tournament_message`) so that later changes redraw it.
pub trait Outlet: Send + Sync + 'static {
    /// The platform whose events and players this outlet serves.
    fn platform(&self) -> Platform;
    /// The flood budget of the event's chat.
    fn chat_budget(&self) -> ChatBudget;
    /// How the announcement writes times (a live countdown, or the time of day).
    fn clock_style(&self) -> ClockStyle;
    /// Whether `msg`, a board of one of `rec`'s games, is in the event's chat (where it
    /// reaches both players). By default a message whose place is the event's chat; a
    /// platform whose chats hold several places (a Discord server's channels) says so.
    fn in_event_chat(&self, rec: &TournamentRecord, msg: &MessageRef) -> bool {
        msg.platform == rec.chat.platform && msg.place() == rec.chat.id
    }
    /// Draws every announcement of `rec` again.
    fn redraw_announcements(
        &self,
        rec: &TournamentRecord,
        lang: Lang,
    ) -> impl Future<Output = Posted> + Send;
    /// Posts the standings picture (`table`, in `lang`) in the event's chat and attaches
    /// it.
    fn post_table(
        &self,
        rec: &TournamentRecord,
        table: &TableView,
        lang: Lang,
    ) -> impl Future<Output = Posted> + Send;
    /// Draws every standings picture of `rec` again.
    fn edit_tables(
        &self,
        rec: &TournamentRecord,
        table: &TableView,
    ) -> impl Future<Output = Posted> + Send;
    /// One message in the event's chat with the pairings of `games` (their players
    /// mentioned), whose boards went to the players privately.
    fn post_pairings(
        &self,
        rec: &TournamentRecord,
        games: &[GameId],
        lang: Lang,
    ) -> impl Future<Output = Posted> + Send;
    /// `view`'s board in the event's chat, its pairing line over it, attached to the game
    /// (it reaches both players).
    fn post_board_in_chat(
        &self,
        rec: &TournamentRecord,
        view: &GameView,
    ) -> impl Future<Output = Posted> + Send;
    /// `view`'s board in `player`'s private chat, drawn from their side in their language,
    /// attached to the game for them.
    fn send_board_to(
        &self,
        rec: &TournamentRecord,
        view: &GameView,
        player: &UserRef,
    ) -> impl Future<Output = Delivery> + Send;
    /// The podium (or the news that the event was cancelled), once, in the event's chat.
    fn post_ending(
        &self,
        rec: &TournamentRecord,
        lang: Lang,
    ) -> impl Future<Output = Posted> + Send;
}

/// What a worker has to do besides drawing the event as it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pending {
    /// Games created and not yet delivered.
    pub paired: Vec<GameId>,
    /// The event ended (or was cancelled): its podium is to be posted.
    pub ended: bool,
}

impl Pending {
    /// `more` on top of what waits: games pile up without repeats, an end is never lost.
    pub fn absorb(&mut self, more: Pending) {
        for game in more.paired {
            if !self.paired.contains(&game) {
                self.paired.push(game);
            }
        }
        self.ended |= more.ended;
    }

    pub fn is_empty(&self) -> bool {
        self.paired.is_empty() && !self.ended
    }
}

/// Pauses before each new attempt at what failed in a way that may pass (the service away
/// for a while, after the adapter's own retries); news cuts a pause short.
const BACKOFF: [Duration; 4] = [
    Duration::from_secs(2),
    Duration::from_secs(10),
    Duration::from_secs(60),
    Duration::from_secs(300),
];

/// Boards sent privately at once by one event's worker: a wave of a big arena reaches its
/// players in parallel, and one slow private chat does not hold the others.
const DELIVERIES_AT_ONCE: usize = 8;

/// The tournaments of one adapter: a worker per event with news.
pub struct Flow<O: Outlet> {
    outlet: Arc<O>,
    manager: Manager,
    workers: Workers<Pending>,
}

impl<O: Outlet> Clone for Flow<O> {
    fn clone(&self) -> Self {
        Flow {
            outlet: self.outlet.clone(),
            manager: self.manager.clone(),
            workers: self.workers.clone(),
        }
    }
}

impl<O: Outlet> Flow<O> {
    pub fn new(outlet: Arc<O>, manager: Manager, label: &'static str) -> Self {
        Flow {
            outlet,
            manager,
            workers: Workers::new(label),
        }
    }

    /// Hands a change of an event to its worker (started if there is none). Events of
    /// other platforms are not this outlet's.
    pub fn push(&self, news: TournamentNews) {
        let rec = &news.record;
        let platform = self.outlet.platform();
        let ours = rec.chat.platform == platform
            || rec
                .messages
                .iter()
                .chain(&rec.tables)
                .any(|m| m.platform == platform);
        if !ours {
            return;
        }
        let pending = Pending {
            paired: news.paired,
            ended: news.ended,
        };
        self.follow(&news.record.id, pending);
    }

    fn follow(&self, id: &str, pending: Pending) {
        let absorb = |waiting: &mut Pending, more| {
            waiting.absorb(more);
            true
        };
        if let Some(rx) = self.workers.merge(id, pending, absorb) {
            let work = self.clone().work(id.to_string(), rx);
            self.workers.spawn(id.to_string(), work);
        }
    }

    /// Delivers what a stop may have left undelivered: the games created but never shown
    /// (`Manager::unannounced_tournament_games`). Run once the events are followed; a game
    /// named again by a tick meanwhile is delivered once.
    pub async fn catch_up(&self) {
        let platform = self.outlet.platform();
        for news in self.manager.unannounced_tournament_games(platform).await {
            tracing::info!(
                tournament = news.record.id,
                games = news.paired.len(),
                ?platform,
                "delivering tournament games left undelivered"
            );
            self.push(news);
        }
    }

    /// The outlet the flow draws with.
    pub fn outlet(&self) -> &Arc<O> {
        &self.outlet
    }

    /// Events with a worker now.
    pub fn events(&self) -> usize {
        self.workers.len()
    }

    async fn work(self, id: String, mut rx: watch::Receiver<Pending>) {
        let mut shown = Shown::default();
        let mut pauses = BACKOFF.iter();
        let mut left = Pending::default();
        loop {
            let mut pending = std::mem::take(&mut left);
            pending.absorb(self.workers.take(&id, &mut rx));
            let pass = self.pass(&id, pending, &mut shown).await;
            if pass.failed {
                if let Some(pause) = pauses.next() {
                    left = pass.left;
                    tracing::info!(
                        tournament = id,
                        after_secs = pause.as_secs(),
                        "will show the tournament again"
                    );
                    tokio::select! {
                        () = tokio::time::sleep(*pause) => {}
                        changed = rx.changed() => if changed.is_err() { return; }
                    }
                    continue;
                }
                tracing::warn!(tournament = id, "gave up on a tournament's messages");
                pauses = BACKOFF.iter();
            } else {
                pauses = BACKOFF.iter();
            }
            if !self.workers.next(&id, &mut rx, LINGER).await {
                tracing::debug!(tournament = id, "tournament up to date");
                return;
            }
        }
    }

    /// One pass: delivers the new games, redraws the announcements and the standings, tells
    /// the end, all from the record as it is now.
    async fn pass(&self, id: &str, pending: Pending, shown: &mut Shown) -> Pass {
        let rec = match self.manager.tournament(id).await {
            Ok(rec) => rec,
            Err(error) => {
                // Gone or unreadable: trying again would not help.
                tracing::warn!(tournament = id, %error, "cannot read a tournament to show");
                return Pass::default();
            }
        };
        let lang = self.manager.speaker(&rec.creator, None).await;
        let mut left = Pending {
            paired: self.deliver(&rec, &pending.paired, lang).await,
            ended: false,
        };
        let mut failed = !left.paired.is_empty();
        failed |= self.announcements(&rec, lang, shown).await;
        failed |= self.table(&rec, lang, shown).await;
        if pending.ended {
            left.ended = self.outlet.post_ending(&rec, lang).await.later();
            failed |= left.ended;
        }
        Pass { failed, left }
    }

    /// Delivers the boards of `games`; returns those to try again.
    async fn deliver(&self, rec: &TournamentRecord, games: &[GameId], lang: Lang) -> Vec<GameId> {
        if games.is_empty() {
            return Vec::new();
        }
        let place = boards_for(rec.entrants.len(), self.outlet.chat_budget());
        let outcomes: Vec<(GameId, Outcome)> = futures::stream::iter(games.iter().cloned())
            .map(|game| async move {
                let outcome = self.deliver_game(rec, &game, place).await;
                (game, outcome)
            })
            .buffer_unordered(DELIVERIES_AT_ONCE)
            .collect()
            .await;
        let mut private: Vec<GameId> = Vec::new();
        let mut again = Vec::new();
        for (game, outcome) in outcomes {
            match outcome {
                Outcome::Private => private.push(game),
                Outcome::Later => again.push(game),
                Outcome::InChat | Outcome::Nothing => {}
            }
        }
        if !private.is_empty() {
            // In the order of the boards, whatever order the deliveries finished in.
            private.sort_by_key(|g| games.iter().position(|x| x == g));
            if self.outlet.post_pairings(rec, &private, lang).await.later() {
                tracing::info!(tournament = rec.id, "pairings message not posted");
            }
        }
        again
    }

    /// Delivers one game's board: privately to each of its players on this platform still
    /// owed one (falling back to the chat when one cannot be reached), or in the chat.
    async fn deliver_game(&self, rec: &TournamentRecord, game: &str, place: Boards) -> Outcome {
        let view = match self.manager.game(game).await {
            Ok(view) => view,
            Err(error) => {
                tracing::warn!(tournament = rec.id, game, %error, "cannot read a tournament game");
                return Outcome::Nothing;
            }
        };
        let platform = self.outlet.platform();
        let in_chat = view
            .messages
            .iter()
            .any(|m| self.outlet.in_event_chat(rec, m));
        if in_chat || view.is_over() {
            return Outcome::Nothing;
        }
        if place == Boards::InChat {
            return match self.outlet.post_board_in_chat(rec, &view).await {
                Posted::Done => Outcome::InChat,
                Posted::Later => Outcome::Later,
            };
        }
        let owed: Vec<&UserRef> = owed_boards(&view, platform);
        if owed.is_empty() {
            return Outcome::Nothing;
        }
        let mut outcome = Outcome::Private;
        let mut unreachable = false;
        for player in owed {
            match self.outlet.send_board_to(rec, &view, player).await {
                Delivery::Sent => {}
                Delivery::Unreachable => unreachable = true,
                Delivery::Later => outcome = Outcome::Later,
            }
        }
        if unreachable {
            tracing::info!(
                tournament = rec.id,
                game,
                "a player cannot be reached privately: the board goes to the event's chat"
            );
            return match self.outlet.post_board_in_chat(rec, &view).await {
                Posted::Done if outcome != Outcome::Later => Outcome::InChat,
                _ => Outcome::Later,
            };
        }
        outcome
    }

    /// Redraws the announcements when what they show changed. True when that failed in a
    /// way that may pass.
    async fn announcements(&self, rec: &TournamentRecord, lang: Lang, shown: &mut Shown) -> bool {
        let now = show::announcement(rec, lang, self.outlet.clock_style());
        if shown.announcement.as_ref() == Some(&now) || rec.messages.is_empty() {
            return false;
        }
        match self.outlet.redraw_announcements(rec, lang).await {
            Posted::Done => {
                shown.announcement = Some(now);
                false
            }
            Posted::Later => {
                shown.announcement = None;
                true
            }
        }
    }

    /// Posts the standings picture once the event runs and redraws it when the standings
    /// changed. True when that failed in a way that may pass.
    async fn table(&self, rec: &TournamentRecord, lang: Lang, shown: &mut Shown) -> bool {
        let running = matches!(rec.status, Status::Running | Status::Finished);
        if !running || rec.started_at.is_none() {
            return false;
        }
        let table = show::standings_table(rec, lang);
        if shown.table.as_ref() == Some(&table) {
            return false;
        }
        let posted = match rec.tables.is_empty() {
            // Posted by this worker already, and not attached yet: drawn on the next pass.
            true if shown.table_posted => return false,
            true if rec.status == Status::Running => {
                let posted = self.outlet.post_table(rec, &table, lang).await;
                shown.table_posted = posted == Posted::Done;
                posted
            }
            true => return false,
            false => self.outlet.edit_tables(rec, &table).await,
        };
        match posted {
            Posted::Done => {
                shown.table = Some(table);
                false
            }
            Posted::Later => {
                shown.table = None;
                true
            }
        }
    }
}

/// A worker whose event had no news for this long ends.
const LINGER: Duration = Duration::from_secs(60);

/// What a worker remembers of what it showed, to skip redraws that change nothing.
#[derive(Default)]
struct Shown {
    announcement: Option<show::Announcement>,
    table: Option<TableView>,
    /// This worker posted the standings picture (it may not be attached yet).
    table_posted: bool,
}

/// What one pass did.
#[derive(Default)]
struct Pass {
    /// Something failed in a way that may pass.
    failed: bool,
    /// The work to try again.
    left: Pending,
}

/// How one game's delivery went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// Its players have their boards privately.
    Private,
    /// Its board is in the event's chat.
    InChat,
    /// To try again.
    Later,
    /// Nothing to do (delivered before, or over).
    Nothing,
}

/// The players of `view` on `platform` whose board has not reached them yet. A game
/// without a clock keeps no record of whom its board reached: until a board of it is shown
/// anywhere, it owes one to each of its players.
fn owed_boards(view: &GameView, platform: Platform) -> Vec<&UserRef> {
    let untimed_unshown = view.clock.is_none() && view.messages.is_empty();
    view.players
        .iter()
        .zip(view.awaiting)
        .filter_map(|(player, awaiting)| match player {
            Player::Human(user) if (awaiting || untimed_unshown) && user.platform == platform => {
                Some(user)
            }
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_work_piles_up_without_repeats() {
        let mut pending = Pending {
            paired: vec!["a1".into()],
            ended: false,
        };
        pending.absorb(Pending {
            paired: vec!["a1".into(), "a2".into()],
            ended: true,
        });
        assert_eq!(pending.paired, vec!["a1".to_string(), "a2".to_string()]);
        assert!(pending.ended && !pending.is_empty());
        assert!(Pending::default().is_empty());
    }

    #[test]
    fn only_small_events_play_in_the_chat() {
        // A Telegram group carries the boards of one game; a Discord channel five.
        assert_eq!(boards_for(2, TELEGRAM_GROUP), Boards::InChat);
        assert_eq!(boards_for(3, TELEGRAM_GROUP), Boards::InChat);
        assert_eq!(boards_for(4, TELEGRAM_GROUP), Boards::Private);
        assert_eq!(boards_for(40, TELEGRAM_GROUP), Boards::Private);
        assert_eq!(boards_for(11, DISCORD_CHANNEL), Boards::InChat);
        assert_eq!(boards_for(12, DISCORD_CHANNEL), Boards::Private);
        assert_eq!(boards_for(200, DISCORD_CHANNEL), Boards::Private);
    }
}
