//! Games and challenges as stored, and the pure rules of changing them (no I/O, no locks).

use super::ended::Ended;
use super::types::{MessageRef, Player, Seat};
use super::view::{ChallengeStatus, ChallengeView, ClockView, FinishReason, GameStatus, GameView};
use crate::model::{ChallengeId, ChatRef, GameId, TimeControl, UserRef};
use crate::rules::{move_text, MoveError, MoveReport, Position, Side, Variant};
use crate::timecontrol::{ClockEvent, GameClock};
use serde::{Deserialize, Serialize};

/// A game as stored in sled (inside the store's schema envelope).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub id: GameId,
    pub chat: ChatRef,
    pub variant: Variant,
    /// White, Black.
    pub players: [Player; 2],
    /// Pits played, in order (the position is replayed from these on load).
    pub moves: Vec<u8>,
    pub status: GameStatus,
    pub draw_offer: Option<Side>,
    /// Unix seconds.
    pub created_at: u64,
    pub last_move_at: u64,
    pub messages: Vec<MessageRef>,
    /// Seeds the bot's choices in this game.
    pub seed: u64,
    /// The rematch (a game against the bot, or a challenge) made from this game.
    #[serde(default)]
    pub rematch: Option<String>,
    /// A rated game between people (games before ratings existed read as unrated).
    #[serde(default)]
    pub rated: bool,
    /// Set when the game ends: when, and the players' rating changes.
    #[serde(default)]
    pub ended: Option<Ended>,
    /// Correspondence for games stored before clocks existed.
    #[serde(default)]
    pub time_control: TimeControl,
    /// Both sides' clocks, for a timed game.
    #[serde(default)]
    pub clock: Option<GameClock>,
    /// Hints used in this game (`Manager::hint`; none in games stored before hints).
    #[serde(default)]
    pub hints: u8,
    /// Durable changes of the game so far (`Manager::write_game` adds one to each): the one
    /// order of its boards on every platform and backend, restarts included. Games stored
    /// before it count from 0.
    #[serde(default)]
    pub version: u64,
    /// The arena tournament the game belongs to: its players may go berserk.
    #[serde(default)]
    pub arena: Option<String>,
    /// Where the game stands in its tournament (round and board), shown over its board
    /// on every redraw; none for a game outside tournaments.
    #[serde(default)]
    pub seat: Option<Seat>,
    /// A spectator's board was kept for the game (`watchers.rs`): only then does a change
    /// read the spectators' boards from the store, so a press in a game nobody watches
    /// reads the store once. Set once, by the first spectator's board.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub watched: bool,
    /// The keys of the game's pending private alerts (`alerts::schedule_alerts`): the next
    /// move's write deletes them, as does the write that ends the game.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alerts: Vec<String>,
    /// Each side's conditional premoves (White, Black; `premoves.rs`): shown to their
    /// author only, never in a view or record; none in games stored before them.
    #[serde(default, skip_serializing_if = "super::premoves::none_queued")]
    pub premoves: [super::premoves::Premoves; 2],
}

impl GameRecord {
    /// Whether `self` shows something `before` did not: any change but the list of messages
    /// that show the game (attaching one more changes no board, so no version).
    pub fn shows_more_than(&self, before: &GameRecord) -> bool {
        // Field by field, without a copy of the record (this runs on every write); the
        // pattern names every field, so a new one cannot be forgotten here.
        let GameRecord {
            id,
            chat,
            variant,
            players,
            moves,
            status,
            draw_offer,
            created_at,
            last_move_at,
            messages: _,
            seed,
            rematch,
            rated,
            ended,
            time_control,
            clock,
            hints,
            version: _,
            arena,
            seat,
            watched: _,
            alerts: _,
            // Only their author sees them: no board changes with them.
            premoves: _,
        } = self;
        *id != before.id
            || *chat != before.chat
            || *variant != before.variant
            || *players != before.players
            || *moves != before.moves
            || *status != before.status
            || *draw_offer != before.draw_offer
            || *created_at != before.created_at
            || *last_move_at != before.last_move_at
            || *seed != before.seed
            || *rematch != before.rematch
            || *rated != before.rated
            || *ended != before.ended
            || *time_control != before.time_control
            || *clock != before.clock
            || *hints != before.hints
            || *arena != before.arena
            || *seat != before.seat
    }
}

/// A game in memory: the record plus the position and move reports derived from it.
#[derive(Clone, Debug)]
pub struct Game {
    pub rec: GameRecord,
    pub position: Position,
    pub reports: Vec<MoveReport>,
    /// `move_text` of `reports`, kept as moves are played (every view shows it).
    moves_text: String,
    /// Spectators' boards, kept apart from the record (`watchers.rs`).
    pub watchers: super::watchers::Watchers,
}

impl Game {
    /// A new game at the starting position.
    pub fn new(rec: GameRecord) -> Game {
        let position = Position::start(rec.variant);
        Game {
            rec,
            position,
            reports: Vec::new(),
            moves_text: String::new(),
            watchers: Default::default(),
        }
    }

    /// Rebuilds a stored game by replaying its moves; a move the rules refuse means the
    /// record is corrupt.
    pub fn from_record(rec: GameRecord) -> Result<Game, String> {
        let mut position = Position::start(rec.variant);
        let mut reports = Vec::with_capacity(rec.moves.len());
        for (i, &pit) in rec.moves.iter().enumerate() {
            let report = position
                .play(pit)
                .map_err(|e| format!("move {} (pit {pit}): {e}", i + 1))?;
            reports.push(report);
        }
        let moves_text = move_text(Position::start(rec.variant), &reports, false);
        Ok(Game {
            rec,
            position,
            reports,
            moves_text,
            watchers: Default::default(),
        })
    }

    pub fn id(&self) -> &GameId {
        &self.rec.id
    }

    pub fn is_over(&self) -> bool {
        matches!(self.rec.status, GameStatus::Finished { .. })
    }

    pub fn player(&self, side: Side) -> &Player {
        &self.rec.players[side.index()]
    }

    pub fn side_of(&self, user: &UserRef) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|s| self.player(*s).user() == Some(user))
    }

    /// The bot's level if the bot is to move in an ongoing game.
    pub fn bot_to_move(&self) -> Option<crate::model::Level> {
        match self.player(self.position.to_move()) {
            Player::Bot(level) if !self.is_over() => Some(*level),
            _ => None,
        }
    }

    pub fn ply(&self) -> u16 {
        self.position.ply()
    }

    /// Plays `pit` for the side to move. A move answers a standing draw offer of the other
    /// side with "no"; a move that ends the game sets the result.
    pub fn play(&mut self, pit: u8, now: u64) -> Result<MoveReport, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let mover = self.position.to_move();
        let report = self.position.play(pit)?;
        self.rec.moves.push(pit);
        let start_ply = Position::start(self.rec.variant).ply();
        let i = self.reports.len();
        crate::rules::push_move_text(&mut self.moves_text, start_ply, i, &report, false);
        self.reports.push(report);
        self.rec.last_move_at = now;
        if self.rec.draw_offer == Some(mover.other()) {
            self.rec.draw_offer = None;
        }
        if let Some(outcome) = report.outcome {
            self.finish(outcome.winner, FinishReason::Board(outcome.reason));
        }
        Ok(report)
    }

    /// What the clock of a timed, ongoing game does at `now_ms` if no move comes first
    /// (each side's first move may take `first_move_ms`).
    pub fn clock_due(&self, first_move_ms: u64, now_ms: u64) -> Option<ClockEvent> {
        let clock = self.rec.clock.as_ref().filter(|_| !self.is_over())?;
        clock.due(self.position.to_move(), self.ply(), first_move_ms, now_ms)
    }

    /// The players a board posted as `msg` reaches (White, Black): everyone in the game's
    /// own chat, else the player it was posted for (`by`, in their private chat or DM).
    pub fn reached_by(&self, msg: &MessageRef, by: Option<&UserRef>) -> [bool; 2] {
        let chat = &self.rec.chat;
        if msg.platform == chat.platform && msg.place() == chat.id {
            return [true; 2];
        }
        let side = by.and_then(|user| self.side_of(user));
        Side::BOTH.map(|s| Some(s) == side)
    }

    /// The board reached the players marked in `reached` at `now_ms`: a first move's time
    /// waiting for them may start (`GameClock::seen`). True if the clock changed.
    pub fn boards_reached(&mut self, reached: [bool; 2], now_ms: u64) -> bool {
        let ply = self.ply();
        let over = self.is_over();
        let Some(clock) = self
            .rec
            .clock
            .as_mut()
            .filter(|c| c.awaits_boards() && !over)
        else {
            return false;
        };
        let mut changed = false;
        for side in Side::BOTH.into_iter().filter(|s| reached[s.index()]) {
            changed |= clock.seen(side, ply, now_ms);
        }
        changed
    }

    /// Ends the game as the clock says: a loss on time, or no result for a missed first
    /// move.
    pub fn apply_clock(&mut self, event: ClockEvent) {
        match event {
            ClockEvent::Flag(side) => self.finish(Some(side.other()), FinishReason::TimedOut(side)),
            ClockEvent::Abort(side) => self.finish(None, FinishReason::FirstMoveMissed(side)),
        }
    }

    /// Charges the move just played (the game went from ply `ply` to `ply + 1`) to the
    /// mover's clock: `used_ms` from its turn's start to the press.
    pub fn charge_clock(&mut self, ply: u16, used_ms: u64) {
        let mover = self.position.to_move().other();
        if let Some(clock) = self.rec.clock.as_mut() {
            clock.charge(mover, ply, used_ms);
        }
    }

    /// Ends the game. Between two people, an end before each side has moved has no
    /// result (`no_result_before_both_moved`); in a tournament game, a side that gives up
    /// before then forfeits it (`Forfeited`): only they lose, the opponent wins the forfeit.
    pub fn finish(&mut self, winner: Option<Side>, reason: FinishReason) {
        let people = self.rec.players.iter().all(|p| !p.is_bot());
        let early = self.ply() < 2;
        let tournament = self.rec.seat.is_some();
        let (winner, reason) = match reason {
            FinishReason::Resigned(side) | FinishReason::Forfeited(side) if early && tournament => {
                (Some(side.other()), FinishReason::Forfeited(side))
            }
            _ if people && early => no_result_before_both_moved(winner, reason),
            _ => (winner, reason),
        };
        self.rec.status = GameStatus::Finished { winner, reason };
        self.rec.draw_offer = None;
    }

    /// When the side to move loses on time, for an ongoing game with a person to move.
    /// Correspondence games only: a timed game's clock decides instead. A game with days
    /// per move has its days for each move; plain correspondence has `timeout_secs` (the
    /// configured hours).
    pub fn timeout_at(&self, timeout_secs: u64) -> Option<u64> {
        let per_move = self.rec.time_control.move_secs().unwrap_or(timeout_secs);
        (!self.is_over() && self.bot_to_move().is_none() && self.rec.clock.is_none())
            .then(|| self.rec.last_move_at.saturating_add(per_move))
    }

    /// The moves so far in standard notation (`GameView::moves`).
    pub fn moves_text(&self) -> &str {
        &self.moves_text
    }

    /// The view at the manager's time `now_ms` (for the clocks' readings).
    pub fn view(&self, timeout_secs: u64, now_ms: u64, first_move_ms: u64) -> GameView {
        GameView {
            id: self.rec.id.clone(),
            chat: self.rec.chat.clone(),
            variant: self.rec.variant,
            players: self.rec.players.clone(),
            position: self.position,
            ply: self.position.ply(),
            last_move: self.reports.last().copied(),
            previous_move: self.reports.iter().rev().nth(1).copied(),
            status: self.rec.status,
            draw_offer: self.rec.draw_offer,
            moves: self.moves_text.clone(),
            messages: self.watchers.merged(&self.rec.messages),
            last_move_at: self.rec.last_move_at,
            timeout_at: self.timeout_at(timeout_secs),
            shown_at: now_ms / 1000,
            time_control: self.rec.time_control,
            bot_busy: None,
            rated: self.rec.rated,
            ratings: Box::new(self.rec.ended.map_or([None, None], |e| e.ratings)),
            clock: self.clock_view(now_ms, first_move_ms).map(Box::new),
            hints: self.rec.hints,
            version: self.rec.version,
            arena: self.rec.arena.is_some(),
            seat: self.rec.seat.clone(),
            page_url: None,
            langs: Default::default(),
            awaiting: self.rec.clock.as_ref().map_or([false; 2], |c| c.unseen),
        }
    }
}

impl Game {
    /// Both clocks as a board shows them at `now_ms`.
    fn clock_view(&self, now_ms: u64, first_move_ms: u64) -> Option<ClockView> {
        let clock = self.rec.clock.as_ref()?;
        let to_move = self.position.to_move();
        let ply = self.ply();
        let running =
            (!self.is_over()).then(|| clock.deadline_shown(to_move, ply, first_move_ms, now_ms));
        Some(ClockView {
            control: self.rec.time_control,
            left_ms: Side::BOTH.map(|s| clock.left(s, to_move, ply, now_ms)),
            at_last_move_ms: clock.remaining_ms,
            deadline: running,
            shown_at_ms: now_ms,
            after_move_ms: clock.after_move_ms.clone(),
            berserk: clock.berserk,
        })
    }
}

/// A challenge as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChallengeRecord {
    pub id: ChallengeId,
    pub challenger: UserRef,
    pub opponent: Option<UserRef>,
    pub variant: Variant,
    pub chat: ChatRef,
    pub created_at: u64,
    pub expires_at: u64,
    pub status: ChallengeStatus,
    pub challenger_side: Option<Side>,
    pub rematch_of: Option<GameId>,
    pub messages: Vec<MessageRef>,
    /// The game will be rated (challenges before ratings existed read as rated).
    #[serde(default = "rated_by_default")]
    pub rated: bool,
    #[serde(default)]
    pub time_control: TimeControl,
    /// The challenger named no time control (the chat's default was taken): while the
    /// challenge is open they may pick another with buttons.
    #[serde(default)]
    pub time_changeable: bool,
    /// How many times the challenger changed the time control: a redraw of the challenge
    /// message with more changes is the newer one.
    #[serde(default)]
    pub time_changes: u32,
}

fn rated_by_default() -> bool {
    true
}

impl ChallengeRecord {
    pub fn is_open(&self) -> bool {
        self.status == ChallengeStatus::Open
    }

    /// The challenge as shown at `now` (the manager's clock).
    pub fn view(&self, now: u64) -> ChallengeView {
        ChallengeView {
            id: self.id.clone(),
            challenger: self.challenger.clone(),
            opponent: self.opponent.clone(),
            variant: self.variant,
            chat: self.chat.clone(),
            expires_at: self.expires_at,
            shown_at: now,
            status: self.status.clone(),
            challenger_side: self.challenger_side,
            rematch_of: self.rematch_of.clone(),
            messages: self.messages.clone(),
            rated: self.rated,
            time_control: self.time_control,
            time_changeable: self.time_changeable,
            time_changes: self.time_changes,
            lang: Default::default(),
        }
    }
}

/// Places (chats, channels) whose newest message a game or challenge keeps showing.
pub const MESSAGE_PLACES: usize = 6;

/// Adds `msg` to `list` unless it is already there; true if the list changed. Only the
/// newest message per place is kept (an older board there was replaced), and at most
/// `MESSAGE_PLACES` places, the least recently attached going first: a spectator's
/// `/board` in yet another chat must not make every later move edit one more message.
pub fn add_message(list: &mut Vec<MessageRef>, msg: MessageRef) -> bool {
    if list.contains(&msg) {
        return false;
    }
    list.retain(|m| m.platform != msg.platform || m.place() != msg.place());
    list.push(msg);
    if list.len() > MESSAGE_PLACES {
        list.drain(..list.len() - MESSAGE_PLACES);
    }
    true
}

/// How a game between two people that ends before each side has made a move ends (issue
/// 31): without a result, so that nobody wins or loses rating by resigning, agreeing a draw
/// or letting the time run out before the game began. A correspondence move time that ran
/// out is a first move missed, like a timed game's; a resignation or a draw is an abort.
pub(super) fn no_result_before_both_moved(
    winner: Option<Side>,
    reason: FinishReason,
) -> (Option<Side>, FinishReason) {
    let reason = match reason {
        FinishReason::TimedOut(side) => FinishReason::FirstMoveMissed(side),
        FinishReason::Resigned(_) | FinishReason::Agreed => FinishReason::Aborted,
        // A board end needs moves; an abort or a missed first move has no result already.
        FinishReason::Board(_) => return (winner, reason),
        other => other,
    };
    (None, reason)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Level, Platform};

    fn record() -> GameRecord {
        GameRecord {
            id: "abc123".into(),
            chat: ChatRef::new(Platform::Console, "c"),
            variant: Variant::STANDARD,
            players: [
                Player::Human(UserRef::new(Platform::Console, "u", "U")),
                Player::Bot(Level::Easy),
            ],
            moves: vec![],
            status: GameStatus::Ongoing,
            draw_offer: None,
            created_at: 5,
            last_move_at: 5,
            messages: vec![],
            seed: 1,
            rematch: None,
            rated: false,
            ended: None,
            time_control: TimeControl::Correspondence,
            clock: None,
            hints: 0,
            version: 0,
            arena: None,
            seat: None,
            watched: false,
            alerts: Vec::new(),
            premoves: Default::default(),
        }
    }

    #[test]
    fn moves_replay_from_the_record() {
        let mut g = Game::new(record());
        g.play(7, 10).unwrap();
        g.play(9, 11).unwrap();
        assert_eq!(g.rec.moves, vec![7, 9]);
        let again = Game::from_record(g.rec.clone()).unwrap();
        assert_eq!(again.position, g.position);
        assert_eq!(again.view(100, 0, 0).moves, "1. 76 98");
        assert_eq!(g.view(100, 0, 0).moves, "1. 76 98");
        assert_eq!(g.rec.last_move_at, 11);
    }

    #[test]
    fn the_move_text_kept_as_moves_are_played_is_the_whole_lists() {
        let mut g = Game::new(record());
        for n in 0..60 {
            let Some(pit) = g.position.legal_moves().iter().nth(n % 3) else {
                break;
            };
            if g.play(pit, 10).is_err() {
                break;
            }
            let whole = move_text(Position::start(g.rec.variant), &g.reports, false);
            assert_eq!(g.moves_text, whole);
        }
        let again = Game::from_record(g.rec.clone()).unwrap();
        assert_eq!(again.moves_text, g.moves_text);
    }

    #[test]
    fn a_game_keeps_the_newest_message_of_a_few_places() {
        let msg = |id: String| MessageRef {
            platform: Platform::Telegram,
            id,
        };
        let mut list = vec![];
        assert!(add_message(&mut list, msg("-100:1".into())));
        assert!(!add_message(&mut list, msg("-100:1".into())));
        assert!(add_message(&mut list, msg("-100:2".into())));
        assert_eq!(list, vec![msg("-100:2".into())]);
        for chat in 0..20 {
            add_message(&mut list, msg(format!("{chat}:7")));
        }
        assert_eq!(list.len(), MESSAGE_PLACES);
        assert_eq!(list.last(), Some(&msg("19:7".into())));
        assert_eq!(list[0], msg(format!("{}:7", 20 - MESSAGE_PLACES)));
        // The same place on another platform is another place.
        let discord = MessageRef {
            platform: Platform::Discord,
            id: "19:8".into(),
        };
        add_message(&mut list, discord.clone());
        assert!(list.contains(&discord) && list.contains(&msg("19:7".into())));
    }

    #[test]
    fn a_corrupt_record_is_an_error() {
        let mut rec = record();
        rec.moves = vec![7, 0];
        assert!(Game::from_record(rec).is_err());
    }

    #[test]
    fn a_move_declines_the_opponents_draw_offer() {
        let mut g = Game::new(record());
        g.rec.draw_offer = Some(Side::Black);
        g.play(1, 6).unwrap();
        assert_eq!(g.rec.draw_offer, None);
    }

    #[test]
    fn a_game_with_days_per_move_gives_each_move_its_days() {
        let mut g = Game::new(record());
        g.rec.players[1] = Player::Human(UserRef::new(Platform::Console, "v", "V"));
        g.rec.time_control = TimeControl::Days(2);
        // The configured hours (here 100 s) are for plain correspondence only.
        assert_eq!(g.timeout_at(100), Some(5 + 2 * 86_400));
        g.play(1, 1_000).unwrap();
        assert_eq!(g.timeout_at(100), Some(1_000 + 2 * 86_400));
        let view = g.view(100, 90_000_000, 0);
        assert_eq!(view.timeout_at, Some(1_000 + 2 * 86_400));
        assert_eq!(view.time_control, TimeControl::Days(2));
        assert_eq!(view.shown_at, 90_000);
        assert!(
            view.clock.is_none(),
            "no clocks in a game with days per move"
        );
    }

    /// Games and challenges as stored before days per move (and before clocks) read as
    /// they were: plain correspondence, or their clock.
    #[test]
    fn records_stored_before_days_per_move_read_unchanged() {
        let game = r#"{"id":"abc123","chat":{"platform":"console","id":"c"},
            "variant":{"balls_per_pit":9,"tuzdek":"standard"},
            "players":[{"human":{"platform":"console","id":"u","name":"U"}},{"bot":"easy"}],
            "moves":[],"status":"ongoing","draw_offer":null,"created_at":5,
            "last_move_at":5,"messages":[],"seed":1}"#;
        let old: GameRecord = serde_json::from_str(game).unwrap();
        assert_eq!(old.time_control, TimeControl::Correspondence);
        assert_eq!(
            Game::from_record(old.clone()).unwrap().timeout_at(100),
            Some(105)
        );
        let stored = game.replace(r#""seed":1"#, r#""seed":1,"time_control":"correspondence""#);
        let old: GameRecord = serde_json::from_str(&stored).unwrap();
        assert_eq!(old.time_control, TimeControl::Correspondence);
        let challenge = r#"{"id":"ch1","challenger":{"platform":"telegram","id":"1","name":"A"},
            "opponent":null,"variant":{"balls_per_pit":9,"tuzdek":"standard"},
            "chat":{"platform":"telegram","id":"-100"},"created_at":1,"expires_at":2,
            "status":"open","challenger_side":null,"rematch_of":null,"messages":[],
            "rated":true,"time_control":{"fischer":{"base_ms":180000,"increment_ms":2000}}}"#;
        let old: ChallengeRecord = serde_json::from_str(challenge).unwrap();
        assert_eq!(old.time_control, TimeControl::fischer(3, 2));
        // And a game with days keeps them through the store's form.
        let mut days = record();
        days.time_control = TimeControl::Days(7);
        let text = serde_json::to_string(&days).unwrap();
        assert!(text.contains(r#""time_control":{"days":7}"#), "{text}");
        assert_eq!(serde_json::from_str::<GameRecord>(&text).unwrap(), days);
    }

    #[test]
    fn time_out_applies_only_to_a_person_to_move() {
        let mut g = Game::new(record());
        assert_eq!(g.timeout_at(100), Some(105));
        g.play(1, 50).unwrap();
        assert_eq!(g.bot_to_move(), Some(Level::Easy));
        assert_eq!(g.timeout_at(100), None);
    }
}
