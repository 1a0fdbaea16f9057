//! The state of a tournament as the Dutch pairing sees it: every player's
//! score, colour history and preference, and float history, derived from a
//! parsed TRF file by the rules of FIDE C.04.1 and C.04.3 (2025).

use super::trf::{Color, Outcome, Tournament};
use thiserror::Error;

/// Why a tournament cannot be paired.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PairingError {
    /// The file says all rounds have been played.
    #[error("all {0} rounds have been played")]
    TournamentOver(usize),
    /// The number of rounds (`XXR`) is missing.
    #[error("the total number of rounds (XXR) is missing")]
    MissingRoundCount,
    /// Round 1 colours cannot be known.
    #[error("the colour of the top seed in round 1 is unknown (XXC white1 or black1)")]
    UnknownInitialColor,
    /// The absolute criteria leave no pairing.
    #[error("no pairing satisfies the absolute criteria")]
    NoValidPairing,
    /// Fewer than two players are to be paired.
    #[error("fewer than two players are to be paired")]
    TooFewPlayers,
    /// The round's quality criteria need wider weights than the matching holds.
    #[error(
        "the round is too large to pair: {players} players in {groups} score groups need \
         {bits}-bit weights, more than the {most} bits the pairing holds"
    )]
    TooLarge {
        players: usize,
        groups: usize,
        bits: u32,
        most: u32,
    },
}

/// One round of a player's history.
#[derive(Clone, Copy, Debug)]
pub struct Game {
    /// Opponent's index, or the player's own index for a bye or absence.
    pub opponent: usize,
    /// Colour, if a colour was assigned.
    pub color: Option<Color>,
    /// Result for this player.
    pub outcome: Outcome,
    /// Whether the game was played over the board.
    pub played: bool,
    /// Whether the player was paired (including the pairing-allocated bye).
    pub participated: bool,
}

impl Game {
    fn absent(own: usize) -> Game {
        Game {
            opponent: own,
            color: None,
            outcome: Outcome::Loss,
            played: false,
            participated: false,
        }
    }

    /// Points in tenths.
    pub fn points(&self) -> u32 {
        match self.outcome {
            Outcome::Win => 10,
            Outcome::Draw => 5,
            Outcome::Loss => 0,
        }
    }
}

/// A player with the data the pairing rules use.
#[derive(Clone, Debug)]
pub struct Entrant {
    /// Index (pairing number minus one).
    pub id: usize,
    /// Rank among players taking part (the pairing number used for ties).
    pub rank: usize,
    /// Score in tenths.
    pub score: u32,
    /// History, one entry per played round.
    pub games: Vec<Game>,
    /// Colour preference.
    pub preference: Option<Color>,
    /// The colour of the last two played games when they were the same.
    pub repeated: Option<Color>,
    /// |games as White - games as Black|.
    pub imbalance: usize,
    /// A strong (not absolute) preference.
    pub strong: bool,
    /// Whether the player is to be paired this round.
    pub to_pair: bool,
}

impl Entrant {
    /// An absolute preference from the colour difference alone.
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    /// An absolute colour preference.
    pub fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }
}

/// Everything the pairing needs about a tournament before the next round.
#[derive(Clone, Debug)]
pub struct Roster {
    /// Players by index.
    pub players: Vec<Entrant>,
    /// Rounds played so far.
    pub played_rounds: usize,
    /// Total rounds.
    pub total_rounds: usize,
    /// Colour of the top-ranked player in round 1.
    pub initial_color: Color,
    /// `forbidden[a * n + b]`: a and b have played each other.
    pub met: Vec<bool>,
}

impl Roster {
    /// Derives the pairing state from a parsed tournament.
    pub fn new(tournament: &Tournament) -> Result<Roster, PairingError> {
        let n = tournament.players.len();
        let mut played_rounds = 0;
        for player in &tournament.players {
            for (i, entry) in player.rounds.iter().enumerate() {
                played_rounds = played_rounds.max(i);
                if entry.participated() {
                    played_rounds = played_rounds.max(i + 1);
                }
            }
        }
        if n > 0
            && tournament
                .players
                .iter()
                .all(|p| p.rounds.len() > played_rounds)
        {
            played_rounds += 1;
        }
        let total_rounds = tournament
            .total_rounds
            .ok_or(PairingError::MissingRoundCount)?;
        if played_rounds >= total_rounds {
            return Err(PairingError::TournamentOver(total_rounds));
        }
        let mut players = Vec::with_capacity(n);
        let mut rank = 0;
        for (id, player) in tournament.players.iter().enumerate() {
            let mut games: Vec<Game> = player
                .rounds
                .iter()
                .map(|entry| Game {
                    opponent: entry.opponent.map_or(id, |o| o - 1),
                    color: entry.color,
                    outcome: entry.outcome(),
                    played: entry.game_played(),
                    participated: entry.participated(),
                })
                .collect();
            let to_pair = games.len() <= played_rounds;
            let valid = to_pair || games.iter().any(|g| g.participated);
            games.resize(games.len().max(played_rounds), Game::absent(id));
            let score = games.iter().take(played_rounds).map(Game::points).sum();
            let mut entrant = Entrant {
                id,
                rank: usize::MAX,
                score,
                games,
                preference: None,
                repeated: None,
                imbalance: 0,
                strong: false,
                to_pair,
            };
            if valid {
                entrant.rank = rank;
                rank += 1;
                colour_data(&mut entrant);
            }
            players.push(entrant);
        }
        let mut met = vec![false; n * n];
        for player in &players {
            for game in &player.games {
                if game.played && game.opponent < n {
                    met[player.id * n + game.opponent] = true;
                    met[game.opponent * n + player.id] = true;
                }
            }
        }
        let initial_color = match tournament.initial_color {
            Some(color) => color,
            None => infer_first_color(&players).ok_or(PairingError::UnknownInitialColor)?,
        };
        Ok(Roster {
            players,
            played_rounds,
            total_rounds,
            initial_color,
            met,
        })
    }

    /// Score `rounds_back` rounds ago.
    pub fn score_back(&self, player: &Entrant, rounds_back: usize) -> u32 {
        let mut score = player.score;
        for k in 1..=rounds_back {
            score -= player.games[self.played_rounds - k].points();
        }
        score
    }
}

/// Colour difference, last colours and the resulting preference (C.04.1 and
/// C.04.3 A.6).
fn colour_data(player: &mut Entrant) {
    let (mut white, mut black, mut run) = (0usize, 0usize, 0usize);
    let mut last = None;
    for game in player.games.iter().filter(|g| g.played) {
        let Some(color) = game.color else { continue };
        if color == Color::White {
            white += 1;
        } else {
            black += 1;
        }
        run = if run == 0 || Some(color) != last {
            1
        } else {
            run + 1
        };
        last = Some(color);
    }
    let lower = if white > black {
        Color::Black
    } else {
        Color::White
    };
    player.imbalance = white.abs_diff(black);
    player.preference = if player.imbalance > 1 {
        Some(lower)
    } else if run > 1 {
        last.map(Color::invert)
    } else if player.imbalance > 0 {
        Some(lower)
    } else if run > 0 {
        last.map(Color::invert)
    } else {
        None
    };
    player.repeated = if run > 1 { last } else { None };
    player.strong = !player.absolute() && player.imbalance > 0;
}

/// Without `XXC`, the first round's colours tell which colour the top seed had.
fn infer_first_color(players: &[Entrant]) -> Option<Color> {
    let first_round = players
        .iter()
        .filter(|p| p.rank != usize::MAX)
        .filter_map(|p| p.games.iter().position(|g| g.color.is_some()))
        .min()?;
    let mut number = 0usize;
    for player in players {
        let took_part = player
            .games
            .iter()
            .take(first_round + 1)
            .any(|g| g.participated);
        if took_part {
            if let Some(color) = player.games[first_round].color {
                return Some(if number % 2 == 1 {
                    color.invert()
                } else {
                    color
                });
            }
            number += 1;
        }
    }
    None
}
