//! A tournament's record and its rules, pure: who plays, the Swiss rounds or the arena's
//! games, the scores. Each change is a method that checks what the rules allow and says why
//! not ([`TournamentError`]); the manager stores the record after each (compare-and-set on
//! its revision, as games are).
//!
//! A Swiss event is paired by `pairing::pair` from the record seen as a FIDE TRF file
//! ([`TournamentRecord::to_trf`]); the same file is what `toguz tournament export` writes.
//! Pairing numbers are fixed at the start, by rating (FIDE's order); a late entrant gets the
//! next number and zero-point byes for the rounds before they came; a player who leaves is
//! not paired again and their later rounds are zero-point byes; a half-point bye asked for a
//! round is `H` in that round.

use super::super::record::player_name;
use super::super::types::{MessageRef, Player, Seat};
use crate::model::{ChatRef, GameId, TimeControl, UserRef};
use crate::pairing::arena::{self, GameResult, Played, Sheet, Waiting};
use crate::pairing::trf::{Color, RoundEntry, TrfPlayer};
use crate::pairing::{self, PairingError, Tournament};
use crate::rules::Variant;
use serde::{Deserialize, Serialize};

pub type TournamentId = String;

/// The most players one event takes.
pub const MAX_ENTRANTS: usize = 1000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    Swiss { rounds: u8 },
    Arena { minutes: u16 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Taking entries; starts at `starts_at`.
    Open,
    Running,
    Finished,
    Cancelled,
}

/// One player of the event; their index in `entrants` plus one is their pairing number.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entrant {
    pub player: Player,
    /// The rating they were seeded with.
    pub rating: f64,
    /// Swiss: the first round they are in (1 for everyone who joined before the start).
    pub from_round: u8,
    /// Swiss: the first round they are no longer in, once they left. Arena: they left.
    pub left_before: Option<u8>,
    /// Swiss: rounds they asked to sit out with half a point.
    pub half_byes: Vec<u8>,
    /// Arena: their score, game by game.
    pub sheet: Sheet,
    /// Arena: not paired until they say they are back (they missed a first move).
    pub paused: bool,
}

/// How a board ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BoardResult {
    WhiteWins,
    Draw,
    BlackWins,
    /// White did not make their first move in time: Black wins by forfeit.
    WhiteForfeits,
    /// Black did not make their first move in time: White wins by forfeit.
    BlackForfeits,
    /// The game ended without a result and without a forfeit: both lose by forfeit.
    NoGame,
}

/// One game of the event: pairing numbers (1-based) and the game it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Board {
    pub white: u32,
    pub black: u32,
    pub game: Option<GameId>,
    /// The game was created (its id is set first, in the same write as the pairing, so a
    /// process that dies in between leaves the next tick a game to create, not a lost one).
    #[serde(default)]
    pub started: bool,
    pub result: Option<BoardResult>,
    /// Half-moves played (an arena's quick draw scores nothing).
    pub plies: u16,
    /// Arena: who went berserk, `[white, black]`.
    pub berserk: [bool; 2],
}

/// A Swiss round: its boards and the pairing-allocated bye.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Round {
    pub boards: Vec<Board>,
    pub bye: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentRecord {
    pub id: TournamentId,
    pub chat: ChatRef,
    pub creator: UserRef,
    pub format: Format,
    pub time: TimeControl,
    pub variant: Variant,
    pub rated: bool,
    pub created_at: u64,
    pub starts_at: u64,
    pub started_at: Option<u64>,
    pub status: Status,
    pub entrants: Vec<Entrant>,
    /// Swiss rounds, in order.
    #[serde(default)]
    pub rounds: Vec<Round>,
    /// Arena games, in the order they were paired.
    #[serde(default)]
    pub arena: Vec<Board>,
    /// The chat messages that announce the event, edited in place as it changes.
    #[serde(default)]
    pub messages: Vec<MessageRef>,
    /// The chat messages that show its standings as a picture, redrawn as games end.
    #[serde(default)]
    pub tables: Vec<MessageRef>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TournamentError {
    #[error("already in the tournament")]
    AlreadyIn,
    #[error("not in the tournament")]
    NotIn,
    #[error("the tournament has started and takes no more players")]
    Started,
    #[error("the tournament is over or cancelled")]
    Closed,
    #[error("the tournament is full")]
    Full,
    #[error("only its creator or an admin may do that")]
    NotAllowed,
    #[error("the round is still being played")]
    RoundRunning,
    #[error("no such game in the tournament")]
    UnknownGame,
    #[error("fewer than two players")]
    TooFew,
    #[error("cannot pair the round: {0}")]
    Pairing(String),
    #[error("half-point byes are for Swiss events")]
    ByeSwissOnly,
    #[error("no half-point bye in that round (the last is round {last})")]
    ByeRound { last: u8 },
    #[error("no more half-point byes in this event")]
    TooManyByes,
    #[error("the event has only {rounds} rounds")]
    NoSuchRound { rounds: u8 },
}

/// Half-point byes one player may ask for in one Swiss event.
pub const MAX_HALF_BYES: usize = 2;

impl TournamentRecord {
    pub fn new(
        id: TournamentId,
        chat: ChatRef,
        creator: UserRef,
        (format, time, variant, rated): (Format, TimeControl, Variant, bool),
        (created_at, starts_at): (u64, u64),
    ) -> TournamentRecord {
        TournamentRecord {
            id,
            chat,
            creator,
            format,
            time,
            variant,
            rated,
            created_at,
            starts_at,
            started_at: None,
            status: Status::Open,
            entrants: Vec::new(),
            rounds: Vec::new(),
            arena: Vec::new(),
            messages: Vec::new(),
            tables: Vec::new(),
        }
    }

    /// The entrant playing as `player`, and their pairing number.
    pub fn entrant(&self, player: &Player) -> Option<(u32, &Entrant)> {
        self.entrants
            .iter()
            .enumerate()
            .find(|(_, e)| same_player(&e.player, player))
            .map(|(i, e)| (number(i), e))
    }

    fn open_to_changes(&self) -> Result<(), TournamentError> {
        match self.status {
            Status::Finished | Status::Cancelled => Err(TournamentError::Closed),
            Status::Open | Status::Running => Ok(()),
        }
    }

    /// Adds a player. A Swiss event takes late entries until its last round is paired
    /// (they start from the next round); an arena until its end; a player who left comes
    /// back (an arena only: a Swiss withdrawal is final).
    pub fn join(&mut self, player: Player, rating: f64) -> Result<u32, TournamentError> {
        self.open_to_changes()?;
        if let Some((n, e)) = self.entrant(&player) {
            let arena = matches!(self.format, Format::Arena { .. });
            if arena && e.left_before.is_some() {
                self.entrants[index(n)].left_before = None;
                return Ok(n);
            }
            return Err(TournamentError::AlreadyIn);
        }
        let from_round = match self.format {
            Format::Swiss { rounds } if self.status == Status::Running => {
                let next = self.rounds.len() as u8 + 1;
                if next > rounds {
                    return Err(TournamentError::Started);
                }
                next
            }
            _ => 1,
        };
        if self.entrants.len() >= MAX_ENTRANTS {
            return Err(TournamentError::Full);
        }
        self.entrants.push(Entrant {
            player,
            rating,
            from_round,
            left_before: None,
            half_byes: Vec::new(),
            sheet: Sheet::default(),
            paused: false,
        });
        Ok(number(self.entrants.len() - 1))
    }

    /// Takes a player out. Before the start they are simply gone; after it they stay in the
    /// standings and are not paired again (a Swiss player forfeits the rounds left).
    pub fn leave(&mut self, player: &Player) -> Result<(), TournamentError> {
        self.open_to_changes()?;
        let (n, e) = self.entrant(player).ok_or(TournamentError::NotIn)?;
        if e.left_before.is_some() {
            return Err(TournamentError::NotIn);
        }
        if self.status == Status::Open {
            self.entrants.remove(index(n));
            return Ok(());
        }
        self.entrants[index(n)].left_before = Some(self.rounds.len() as u8 + 1);
        Ok(())
    }

    /// A half-point bye for Swiss round `round` (one not paired yet; `None`: the next).
    /// As club rules have it, not in the last round (where it would let a leader coast
    /// home) and at most `MAX_HALF_BYES` in one event. Returns the round.
    pub fn ask_half_bye(
        &mut self,
        player: &Player,
        round: Option<u8>,
    ) -> Result<u8, TournamentError> {
        self.open_to_changes()?;
        let (n, _) = self.entrant(player).ok_or(TournamentError::NotIn)?;
        let Format::Swiss { rounds } = self.format else {
            return Err(TournamentError::ByeSwissOnly);
        };
        let next = self.rounds.len() as u8 + 1;
        let round = round.unwrap_or(next);
        if round < next {
            return Err(TournamentError::RoundRunning);
        }
        if round > rounds {
            return Err(TournamentError::NoSuchRound { rounds });
        }
        if round == rounds {
            return Err(TournamentError::ByeRound { last: rounds });
        }
        let byes = &mut self.entrants[index(n)].half_byes;
        if !byes.contains(&round) {
            if byes.len() >= MAX_HALF_BYES {
                return Err(TournamentError::TooManyByes);
            }
            byes.push(round);
        }
        Ok(round)
    }

    /// Cancels the event: its creator, or someone the chat calls an admin (`admin`).
    pub fn cancel(&mut self, by: &UserRef, admin: bool) -> Result<(), TournamentError> {
        self.open_to_changes()?;
        if *by != self.creator && !admin {
            return Err(TournamentError::NotAllowed);
        }
        self.status = Status::Cancelled;
        Ok(())
    }

    /// Starts the event: pairing numbers by rating, best first (ties by entry order).
    pub fn start(&mut self, now: u64) -> Result<(), TournamentError> {
        if self.status != Status::Open {
            return Err(TournamentError::Closed);
        }
        if self.entrants.len() < 2 {
            self.status = Status::Cancelled;
            return Err(TournamentError::TooFew);
        }
        self.entrants.sort_by(|a, b| b.rating.total_cmp(&a.rating));
        self.status = Status::Running;
        self.started_at = Some(now);
        Ok(())
    }

    /// Where game `game` stands in the event, and its board; `None` for a game that is not
    /// the event's.
    pub fn seat_of(&self, game: &str) -> Option<(Seat, &Board)> {
        let is = |b: &&Board| b.game.as_deref() == Some(game);
        for (r, round) in self.rounds.iter().enumerate() {
            if let Some((b, board)) = round.boards.iter().enumerate().find(|(_, b)| is(b)) {
                return Some((self.seat(r + 1, b + 1), board));
            }
        }
        let (n, board) = self.arena.iter().enumerate().find(|(_, b)| is(b))?;
        Some((self.seat(0, n + 1), board))
    }

    fn seat(&self, round: usize, board: usize) -> Seat {
        Seat {
            tournament: self.id.clone(),
            round: round as u32,
            board: board as u32,
        }
    }

    /// Whether every board paired so far has a result.
    pub fn boards_done(&self) -> bool {
        let done = |b: &Board| b.result.is_some();
        self.rounds.iter().all(|r| r.boards.iter().all(done)) && self.arena.iter().all(done)
    }

    /// The event as a FIDE Tournament Report File's contents (rounds with a result so far;
    /// the next round's known absences and half-point byes already filled in).
    pub fn to_trf(&self) -> Tournament {
        let total = match self.format {
            Format::Swiss { rounds } => usize::from(rounds),
            Format::Arena { .. } => self.rounds.len(),
        };
        let mut players: Vec<TrfPlayer> = self
            .entrants
            .iter()
            .enumerate()
            .map(|(i, e)| TrfPlayer {
                number: i + 1,
                name: player_name(&e.player),
                rating: e.rating.clamp(0.0, 9999.0).round() as u32,
                points: 0,
                rank: 0,
                rounds: Vec::new(),
            })
            .collect();
        for (r, round) in self.rounds.iter().enumerate() {
            for (i, p) in players.iter_mut().enumerate() {
                p.rounds.push(self.entry(round, number(i), r as u8 + 1));
            }
        }
        // What is known of the next round: who will not be paired in it.
        let next = self.rounds.len() as u8 + 1;
        if usize::from(next) <= total {
            for (i, e) in self.entrants.iter().enumerate() {
                if let Some(code) = sits_out(e, next) {
                    players[i].rounds.push(RoundEntry {
                        opponent: None,
                        color: None,
                        code,
                    });
                }
            }
        }
        for p in &mut players {
            p.points = p.rounds.iter().map(RoundEntry::points).sum();
        }
        Tournament {
            name: Some(format!("toguz {}", self.id)),
            players,
            total_rounds: Some(total),
            initial_color: Some(Color::White),
        }
    }

    /// Player `n`'s entry for a round that was paired.
    fn entry(&self, round: &Round, n: u32, number_of_round: u8) -> RoundEntry {
        let e = &self.entrants[index(n)];
        for b in &round.boards {
            let (opponent, color, result) = match (b.white == n, b.black == n) {
                (true, _) => (b.black, Color::White, b.result),
                (_, true) => (b.white, Color::Black, b.result),
                _ => continue,
            };
            let code = match (result, color) {
                (Some(BoardResult::WhiteWins), Color::White)
                | (Some(BoardResult::BlackWins), Color::Black) => '1',
                (Some(BoardResult::Draw), _) => '=',
                (Some(BoardResult::WhiteForfeits), Color::Black)
                | (Some(BoardResult::BlackForfeits), Color::White) => '+',
                (Some(BoardResult::NoGame | BoardResult::WhiteForfeits), _)
                | (Some(BoardResult::BlackForfeits), _) => '-',
                // A round is exported once it has every result.
                (None, _) | (Some(_), _) => '0',
            };
            return RoundEntry {
                opponent: Some(opponent as usize),
                color: Some(color),
                code,
            };
        }
        let code = if round.bye == Some(n) {
            'U'
        } else {
            sits_out(e, number_of_round).unwrap_or('Z')
        };
        RoundEntry {
            opponent: None,
            color: None,
            code,
        }
    }

    /// Pairs the next Swiss round; the caller creates its games and puts their ids on its
    /// boards. Refused while a board of the last round has no result.
    pub fn pair_next_round(&mut self) -> Result<&Round, TournamentError> {
        if self.status != Status::Running {
            return Err(TournamentError::Closed);
        }
        let Format::Swiss { rounds } = self.format else {
            return Err(TournamentError::NotAllowed);
        };
        if !self.boards_done() {
            return Err(TournamentError::RoundRunning);
        }
        if self.rounds.len() >= usize::from(rounds) {
            return Err(TournamentError::Closed);
        }
        let pairing = match pairing::pair(&self.to_trf()) {
            Ok(p) => p,
            // Nobody left to pair (everyone left or sits out): an empty round.
            Err(PairingError::TournamentOver(_)) => pairing::Pairing {
                boards: Vec::new(),
                bye: None,
            },
            Err(e) => return Err(TournamentError::Pairing(e.to_string())),
        };
        let boards = pairing
            .boards
            .iter()
            .map(|&(w, b)| Board {
                white: w as u32,
                black: b as u32,
                game: None,
                started: false,
                result: None,
                plies: 0,
                berserk: [false; 2],
            })
            .collect();
        self.rounds.push(Round {
            boards,
            bye: pairing.bye.map(|b| b as u32),
        });
        Ok(self.rounds.last().expect("just pushed"))
    }

    /// Records a game's result; returns whether it was one of the event's boards. An arena
    /// game scores both players at once (`arena::Sheet`).
    pub fn record_result(
        &mut self,
        game: &GameId,
        result: BoardResult,
        plies: u16,
    ) -> Result<(), TournamentError> {
        let arena = matches!(self.format, Format::Arena { .. });
        let board = self
            .rounds
            .iter_mut()
            .flat_map(|r| r.boards.iter_mut())
            .chain(self.arena.iter_mut())
            .find(|b| b.game.as_ref() == Some(game))
            .ok_or(TournamentError::UnknownGame)?;
        if board.result.is_some() {
            return Ok(());
        }
        board.result = Some(result);
        board.plies = plies;
        if arena {
            let board = board.clone();
            self.score_arena_board(&board);
        }
        Ok(())
    }

    fn score_arena_board(&mut self, b: &Board) {
        let (white, black) = match b.result {
            Some(BoardResult::WhiteWins) => (GameResult::Win, GameResult::Loss),
            Some(BoardResult::BlackWins) => (GameResult::Loss, GameResult::Win),
            Some(BoardResult::Draw) => (GameResult::Draw, GameResult::Draw),
            Some(BoardResult::BlackForfeits) => (GameResult::Win, GameResult::Loss),
            Some(BoardResult::WhiteForfeits) => (GameResult::Loss, GameResult::Win),
            Some(BoardResult::NoGame) | None => (GameResult::Loss, GameResult::Loss),
        };
        // Who missed their first move is paused until they say they are back.
        let missed = match b.result {
            Some(BoardResult::WhiteForfeits) => Some(b.white),
            Some(BoardResult::BlackForfeits) => Some(b.black),
            _ => None,
        };
        if let Some(e) = missed.and_then(|n| self.entrants.get_mut(index(n))) {
            e.paused = true;
        }
        for (n, result, berserk, white) in [
            (b.white, white, b.berserk[0], true),
            (b.black, black, b.berserk[1], false),
        ] {
            if let Some(e) = self.entrants.get_mut(index(n)) {
                e.sheet.score(Played {
                    result,
                    plies: b.plies,
                    moves: arena::own_moves(b.plies, white),
                    berserk,
                });
            }
        }
    }

    /// Arena: `player` is back after a pause.
    pub fn resume(&mut self, player: &Player) -> Result<(), TournamentError> {
        self.open_to_changes()?;
        let (n, _) = self.entrant(player).ok_or(TournamentError::NotIn)?;
        self.entrants[index(n)].paused = false;
        Ok(())
    }

    /// Arena: pairs a wave among the players neither playing, paused nor gone; the caller
    /// creates the games and puts their ids on the new boards (the last ones of `arena`).
    pub fn pair_arena_wave(&mut self) -> Result<usize, TournamentError> {
        if self.status != Status::Running {
            return Err(TournamentError::Closed);
        }
        let busy: Vec<u32> = self
            .arena
            .iter()
            .filter(|b| b.result.is_none())
            .flat_map(|b| [b.white, b.black])
            .collect();
        let waiting: Vec<Waiting> = self
            .entrants
            .iter()
            .enumerate()
            .map(|(i, e)| (number(i), e))
            .filter(|(n, e)| !busy.contains(n) && !e.paused && e.left_before.is_none())
            .map(|(n, e)| self.waiting(n, e))
            .collect();
        let pairs = arena::wave(&waiting);
        for &(white, black) in &pairs {
            self.arena.push(Board {
                white,
                black,
                game: None,
                started: false,
                result: None,
                plies: 0,
                berserk: [false; 2],
            });
        }
        Ok(pairs.len())
    }

    fn waiting(&self, n: u32, e: &Entrant) -> Waiting {
        let mine = self.arena.iter().filter(|b| b.white == n || b.black == n);
        let (mut balance, mut last) = (0, None);
        for b in mine {
            let white = b.white == n;
            balance += if white { 1 } else { -1 };
            last = Some((white, if white { b.black } else { b.white }));
        }
        Waiting {
            player: n,
            points: e.sheet.points,
            rating: e.rating,
            last_opponent: last.map(|(_, o)| o),
            colour_balance: balance,
            last_white: last.map(|(w, _)| w),
        }
    }

    /// Swiss standings with FIDE's tie-breaks, best first.
    pub fn swiss_standings(&self) -> Vec<pairing::Standing> {
        let mut trf = self.to_trf();
        // Only rounds with every result count (not the one being played, nor the next
        // round's absences filled in above).
        let done = |r: &&Round| r.boards.iter().all(|b| b.result.is_some());
        let played = self.rounds.iter().take_while(done).count();
        for p in &mut trf.players {
            p.rounds.truncate(played);
        }
        pairing::standings(&trf)
    }

    /// Arena standings, best first.
    pub fn arena_standings(&self) -> Vec<arena::Entry<'_>> {
        let mut entries: Vec<arena::Entry<'_>> = self
            .entrants
            .iter()
            .enumerate()
            .map(|(i, e)| arena::Entry {
                player: number(i),
                rating: e.rating,
                sheet: &e.sheet,
            })
            .collect();
        arena::rank(&mut entries);
        entries
    }
}

/// Whether entrant `e` sits out Swiss round `round` without being paired, and as what: `Z`
/// (not in it: came later, or left) or `H` (a half-point bye they asked for).
fn sits_out(e: &Entrant, round: u8) -> Option<char> {
    if round < e.from_round || e.left_before.is_some_and(|left| round >= left) {
        Some('Z')
    } else if e.half_byes.contains(&round) {
        Some('H')
    } else {
        None
    }
}

/// The same player, whatever name they go by now.
fn same_player(a: &Player, b: &Player) -> bool {
    match (a, b) {
        (Player::Human(a), Player::Human(b)) => a.platform == b.platform && a.id == b.id,
        (Player::Bot(a), Player::Bot(b)) => a == b,
        _ => false,
    }
}

fn number(i: usize) -> u32 {
    u32::try_from(i + 1).unwrap_or(u32::MAX)
}

fn index(n: u32) -> usize {
    (n as usize).saturating_sub(1)
}

#[cfg(test)]
#[path = "record_tests.rs"]
mod tests;
