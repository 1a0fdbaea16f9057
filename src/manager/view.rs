//! What every action answers with: platform-neutral views of games and challenges, and the
//! actions each viewer may take on them.

use super::types::{MessageRef, Player, Seat};
use crate::i18n::Lang;
use crate::model::{ChallengeId, ChatRef, GameId, TimeControl, UserRef};
use crate::ratings::RatingChange;
use crate::rules::{EndReason, MoveReport, Position, Side, Variant};
use crate::timecontrol::Deadline;
use serde::{Deserialize, Serialize};

/// Hints a player may ask for in one casual game against the bot.
pub const MAX_HINTS: u8 = 3;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FinishReason {
    /// On the board: kazan, equal kazans or atsyrau.
    Board(EndReason),
    /// This side resigned.
    Resigned(Side),
    /// A draw offer was accepted.
    Agreed,
    /// This side let its time run out: the correspondence move time, or its clock (the
    /// flag fell; `GameView::clock` is then set).
    TimedOut(Side),
    /// Ended before both sides moved; no result.
    Aborted,
    /// This side did not make its first move within the first-move limit of a timed game:
    /// ended without result.
    FirstMoveMissed(Side),
    /// This side gave up a tournament game before both sides had moved (resigned, or
    /// aborted it): it loses the game by forfeit (the other side is the winner), and no
    /// rating changes, as a game that never began.
    Forfeited(Side),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameStatus {
    Ongoing,
    /// `winner` `None` is a draw (or, with `Aborted`, no result).
    Finished {
        winner: Option<Side>,
        reason: FinishReason,
    },
}

/// A game as one action or event shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameView {
    pub id: GameId,
    pub chat: ChatRef,
    pub variant: Variant,
    /// White, Black.
    pub players: [Player; 2],
    pub position: Position,
    pub ply: u16,
    pub last_move: Option<MoveReport>,
    /// The move before `last_move` (the other side's, which a caption may name too: a board
    /// edited once per turn against the bot shows the player's move and the bot's reply).
    pub previous_move: Option<MoveReport>,
    pub status: GameStatus,
    /// The side that offered a draw, while the offer stands.
    pub draw_offer: Option<Side>,
    /// Move text in standard notation: `1. 76 98 2. 66 87`.
    pub moves: String,
    pub messages: Vec<MessageRef>,
    /// Unix seconds of the last move (or the start); with `timeout_at` for "time left" texts.
    pub last_move_at: u64,
    /// When the side to move loses on time (unix seconds), while the game is ongoing.
    pub timeout_at: Option<u64>,
    /// The manager's clock when the view was made (unix seconds): a game with days per
    /// move shows the time left from it.
    pub shown_at: u64,
    /// The game's time control (correspondence for games stored before clocks).
    pub time_control: TimeControl,
    /// Set on a view published while the bot's move waits for a search slot: how many
    /// searches are ahead of it.
    pub bot_busy: Option<u32>,
    /// A rated game between people.
    pub rated: bool,
    /// White's and Black's rating change, once a rated game has ended.
    /// Boxed: most views have none, and a view travels in enums by value.
    pub ratings: Box<[Option<RatingChange>; 2]>,
    /// Both clocks, in a timed game. Boxed, as `ratings`: a view travels in enums by value,
    /// and most games have no clocks.
    pub clock: Option<Box<ClockView>>,
    /// Hints used so far (at most `MAX_HINTS`).
    pub hints: u8,
    /// The game's version (`GameRecord::version`): of two views of one game, the one with
    /// the higher version is newer. Adapters order their board edits by it.
    pub version: u64,
    /// A game of an arena tournament: its players may go berserk before their first move.
    pub arena: bool,
    /// A tournament game's round and board.
    pub seat: Option<Seat>,
    /// The address of the game's page on the web, when the pages are served
    /// (`Manager::page_url`): boards link to it, records and reviews name it.
    pub page_url: Option<String>,
    /// The language White and Black speak (the one they chose, else their app's; English
    /// for the bot), as the manager knows it: boards speak their viewer's
    /// (`present::board_lang`), so no adapter looks it up again.
    pub langs: [Lang; 2],
    /// (White, Black) a tournament game's board has not reached this player yet: their
    /// first move's time waits for it (`GameClock::seen`), and an adapter delivering the
    /// event's boards still owes them one.
    pub awaiting: [bool; 2],
}

/// The clocks of a timed game as one view shows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockView {
    pub control: TimeControl,
    /// Time left (White, Black) when the view was made; the side to move's is running.
    pub left_ms: [u64; 2],
    /// Time left (White, Black) at the last move (or the start).
    pub at_last_move_ms: [u64; 2],
    /// When the side to move flags (or, on a first move, the game is aborted), while the
    /// game goes on (unix milliseconds).
    pub deadline: Option<Deadline>,
    /// The manager's clock when the view was made (unix milliseconds).
    pub shown_at_ms: u64,
    /// The mover's time left after each move (for `%clk` in records).
    pub after_move_ms: Vec<u64>,
    /// (White, Black) went berserk.
    pub berserk: [bool; 2],
}

/// One pit button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PitAction {
    pub pit: u8,
    pub balls: u8,
    /// A legal move of this viewer, now.
    pub enabled: bool,
}

/// What a viewer may do with a game now. `ply` goes into button data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actions {
    pub ply: u16,
    /// Pits 1..9 of the viewer's row (of the side to move for a spectator).
    pub pits: Vec<PitAction>,
    pub resign: bool,
    pub offer_draw: bool,
    pub accept_draw: bool,
    pub decline_draw: bool,
    pub abort: bool,
    pub rematch: bool,
    /// The engine may go through the game: it is over and has a move (anyone may ask).
    pub review: bool,
    /// The viewer may ask for a hint (`Manager::hint`): their turn in a casual game against
    /// the bot, with hints left.
    pub hint: bool,
    /// The viewer may go berserk: an arena game, timed, before their first move.
    pub berserk: bool,
    /// The viewer may see and enter their conditional premoves (`Manager::premoves`): a
    /// player of an ongoing correspondence game between two people.
    pub premoves: bool,
}

impl GameView {
    pub fn is_over(&self) -> bool {
        matches!(self.status, GameStatus::Finished { .. })
    }

    /// Whether `side` may still go berserk: an arena game with clocks, before its first
    /// move, not yet berserk.
    pub fn may_berserk(&self, side: Side) -> bool {
        let clock = self.clock.as_ref();
        self.arena
            && self.ply <= side.index() as u16
            && clock.is_some_and(|c| !c.berserk[side.index()])
    }

    /// The viewer's side, if they play in this game.
    pub fn side_of(&self, user: &UserRef) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|s| self.players[s.index()].user() == Some(user))
    }

    pub fn player(&self, side: Side) -> &Player {
        &self.players[side.index()]
    }

    /// The player to move, while the game is ongoing.
    pub fn to_move_player(&self) -> Option<&Player> {
        (!self.is_over()).then(|| self.player(self.position.to_move()))
    }

    /// The time the side to move has left when the view was made, while the game is
    /// ongoing: its clock in a timed game, else until its move's time runs out (`None`
    /// when nothing counts it: the bot to move).
    pub fn left_ms(&self) -> Option<u64> {
        if self.is_over() {
            return None;
        }
        if let Some(clock) = &self.clock {
            return Some(clock.left_ms[self.position.to_move().index()]);
        }
        let shown_ms = self.shown_at.saturating_mul(1000);
        self.timeout_at
            .map(|at| at.saturating_mul(1000).saturating_sub(shown_ms))
    }

    /// Whether it is `user`'s move in this ongoing game.
    pub fn is_turn_of(&self, user: &UserRef) -> bool {
        self.to_move_player().and_then(Player::user) == Some(user)
    }

    /// Whether one of the players is the bot.
    pub fn against_bot(&self) -> bool {
        self.players.iter().any(Player::is_bot)
    }

    /// Hints the player may still ask for: none in a rated game or one between people.
    pub fn hints_left(&self) -> u8 {
        if self.against_bot() && !self.rated {
            MAX_HINTS.saturating_sub(self.hints)
        } else {
            0
        }
    }

    /// Whether `side` may still abort: before both sides moved, and in a tournament game
    /// only until the opponent has moved (an abort there is a forfeit of one's own game, and
    /// must not undo a game the opponent has begun).
    pub fn may_abort(&self, side: Side) -> bool {
        may_abort(self.ply, side, self.seat.is_some())
    }

    /// What `viewer` may do now (`None`: a spectator, who may do nothing).
    pub fn actions_for(&self, viewer: Option<&UserRef>) -> Actions {
        let side = viewer.and_then(|v| self.side_of(v));
        let ongoing = !self.is_over();
        let row_side = side.unwrap_or(self.position.to_move());
        let my_turn = ongoing && side == Some(self.position.to_move());
        let legal = self.position.legal_moves();
        let pits = (1..=9)
            .map(|pit| PitAction {
                pit,
                balls: self.position.pit(row_side, pit),
                enabled: my_turn && legal.contains(pit),
            })
            .collect();
        let player = side.is_some();
        let offered_by_other = side.is_some_and(|s| self.draw_offer == Some(s.other()));
        Actions {
            ply: self.ply,
            pits,
            resign: ongoing && player,
            offer_draw: ongoing && player && self.draw_offer.is_none(),
            accept_draw: ongoing && offered_by_other,
            decline_draw: ongoing && offered_by_other,
            abort: ongoing && side.is_some_and(|s| self.may_abort(s)),
            rematch: !ongoing && player,
            review: !ongoing && self.ply > 0,
            hint: my_turn && self.hints_left() > 0,
            berserk: ongoing && side.is_some_and(|s| self.may_berserk(s)),
            premoves: ongoing
                && player
                && super::premoves::allowed(self.time_control, &self.players),
        }
    }
}

/// Whether `side` may abort a game at half-move `ply` (`tournament`: a game of an event):
/// before both sides moved, and in an event not once the opponent has moved (White moves at
/// ply 0, Black at ply 1).
pub(crate) fn may_abort(ply: u16, side: Side, tournament: bool) -> bool {
    let opponent_moved = ply > side.other().index() as u16;
    ply < 2 && !(tournament && opponent_moved)
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChallengeStatus {
    Open,
    Accepted(GameId),
    Declined,
    Expired,
    Cancelled,
}

/// A challenge as one action or event shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeView {
    pub id: ChallengeId,
    pub challenger: UserRef,
    /// `None`: open to anyone.
    pub opponent: Option<UserRef>,
    pub variant: Variant,
    pub chat: ChatRef,
    /// Unix seconds.
    pub expires_at: u64,
    /// The manager's clock when this view was made (unix seconds): "expires in N minutes"
    /// is counted from it, so texts follow the manager's clock, a manual one in tests too.
    pub shown_at: u64,
    pub status: ChallengeStatus,
    /// The challenger's colour, when fixed (a rematch); random otherwise.
    pub challenger_side: Option<Side>,
    /// The game this is a rematch of.
    pub rematch_of: Option<GameId>,
    /// The game will be rated.
    pub rated: bool,
    pub messages: Vec<MessageRef>,
    /// The time control the game will be played at.
    pub time_control: TimeControl,
    /// The challenger may still pick another time control (`Action::SetChallengeTime`);
    /// adapters show time buttons while the challenge is open.
    pub time_changeable: bool,
    /// How many times the time control was changed (orders redraws).
    pub time_changes: u32,
    /// The challenger's language (as `GameView::langs`): the challenge's messages speak it.
    pub lang: Lang,
}

/// What a viewer may do with a challenge now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChallengeActions {
    pub accept: bool,
    pub decline: bool,
    pub cancel: bool,
}

impl ChallengeView {
    pub fn is_open(&self) -> bool {
        self.status == ChallengeStatus::Open
    }

    /// `viewer` `None` means "anyone who is not the challenger" (e.g. buttons on an open
    /// challenge that everyone sees).
    pub fn actions_for(&self, viewer: Option<&UserRef>) -> ChallengeActions {
        let open = self.is_open();
        let is_challenger = viewer == Some(&self.challenger);
        let may_answer = match (&self.opponent, viewer) {
            (Some(o), Some(v)) => o == v,
            (Some(_), None) => true,
            (None, _) => !is_challenger,
        };
        ChallengeActions {
            accept: open && may_answer,
            decline: open && may_answer && self.opponent.is_some(),
            cancel: open && is_challenger,
        }
    }
}

/// A game at its start position, for the tests of the modules that draw views.
#[cfg(test)]
impl GameView {
    pub(crate) fn sample(id: &str, chat: ChatRef, players: [Player; 2]) -> GameView {
        GameView {
            id: id.into(),
            chat,
            variant: Variant::STANDARD,
            players,
            position: Position::default(),
            ply: 0,
            last_move: None,
            previous_move: None,
            status: GameStatus::Ongoing,
            draw_offer: None,
            moves: String::new(),
            messages: vec![],
            last_move_at: 0,
            timeout_at: None,
            shown_at: 0,
            time_control: TimeControl::Correspondence,
            bot_busy: None,
            rated: false,
            ratings: Box::new([None, None]),
            clock: None,
            hints: 0,
            version: 0,
            arena: false,
            seat: None,
            page_url: None,
            langs: [Lang::default(); 2],
            awaiting: [false; 2],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Level, Platform};

    fn user(id: &str) -> UserRef {
        UserRef::new(Platform::Telegram, id, id)
    }

    fn view(players: [Player; 2]) -> GameView {
        GameView::sample("g", ChatRef::new(Platform::Telegram, "c"), players)
    }

    /// Issue 49, finding 2: in a tournament game Abort ends once the opponent has moved.
    #[test]
    fn abort_in_a_tournament_game_ends_once_the_opponent_has_moved() {
        // Outside an event either side may abort until both have moved.
        assert!(may_abort(0, Side::White, false) && may_abort(1, Side::Black, false));
        assert!(!may_abort(2, Side::White, false));
        assert!(may_abort(0, Side::Black, true), "nobody has moved");
        assert!(!may_abort(1, Side::Black, true), "White has moved");
        assert!(may_abort(1, Side::White, true), "Black has not");
        assert!(!may_abort(2, Side::White, true));
    }

    #[test]
    fn only_the_player_to_move_gets_enabled_pits() {
        let v = view([Player::Human(user("a")), Player::Human(user("b"))]);
        let a = v.actions_for(Some(&user("a")));
        assert_eq!(a.pits.iter().filter(|p| p.enabled).count(), 9);
        assert!(a.abort && a.resign && a.offer_draw && !a.rematch);
        let b = v.actions_for(Some(&user("b")));
        assert!(b.pits.iter().all(|p| !p.enabled));
        assert_eq!(b.pits[0].balls, 9);
        let spectator = v.actions_for(Some(&user("x")));
        assert!(!spectator.resign && !spectator.abort);
        assert_eq!(v.side_of(&user("b")), Some(Side::Black));
        assert_eq!(v.to_move_player(), Some(&Player::Human(user("a"))));
    }

    #[test]
    fn a_finished_game_offers_a_rematch_only() {
        let mut v = view([Player::Bot(Level::Easy), Player::Human(user("a"))]);
        v.status = GameStatus::Finished {
            winner: Some(Side::White),
            reason: FinishReason::Resigned(Side::Black),
        };
        let a = v.actions_for(Some(&user("a")));
        assert!(a.rematch && !a.resign && !a.offer_draw);
        assert!(a.pits.iter().all(|p| !p.enabled));
        assert_eq!(v.to_move_player(), None);
    }

    #[test]
    fn challenge_buttons_follow_who_is_asked() {
        let c = ChallengeView {
            id: "c".into(),
            challenger: user("a"),
            opponent: Some(user("b")),
            variant: Variant::STANDARD,
            chat: ChatRef::new(Platform::Telegram, "c"),
            expires_at: 0,
            shown_at: 0,
            status: ChallengeStatus::Open,
            challenger_side: None,
            rematch_of: None,
            messages: vec![],
            rated: true,
            time_control: TimeControl::Correspondence,
            time_changeable: false,
            time_changes: 0,
            lang: Lang::Ru,
        };
        assert!(c.actions_for(Some(&user("b"))).accept);
        assert!(!c.actions_for(Some(&user("x"))).accept);
        assert!(c.actions_for(Some(&user("a"))).cancel);
        let open = ChallengeView {
            opponent: None,
            ..c
        };
        assert!(open.actions_for(Some(&user("x"))).accept);
        assert!(!open.actions_for(Some(&user("a"))).accept);
    }
}
