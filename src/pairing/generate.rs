//! Deterministic synthetic tournaments (for benchmarks and tests): players
//! rated from 2600 down, each round decided by rating with a seeded
//! pseudo-random number generator. Rounds are paired by the Dutch system
//! (`synthetic`) or, for large fields, by a quick greedy Swiss pairing
//! (`synthetic_quick`: score order, first opponent not met yet, colours by
//! preference) that gives a realistic history in milliseconds.

use super::dutch::{pair, Pairing};
use super::roster::PairingError;
use super::roster::Roster;
use super::trf::{Color, RoundEntry, Tournament, TrfPlayer};

/// A tournament of `players` players and `total_rounds` rounds in which the
/// first `rounds` have been paired and played.
pub fn synthetic(
    players: usize,
    rounds: usize,
    total_rounds: usize,
    seed: u64,
) -> Result<Tournament, PairingError> {
    play(players, rounds, total_rounds, seed, pair)
}

/// Like `synthetic`, with the history paired by the quick greedy pairing.
pub fn synthetic_quick(
    players: usize,
    rounds: usize,
    total_rounds: usize,
    seed: u64,
) -> Result<Tournament, PairingError> {
    play(players, rounds, total_rounds, seed, greedy)
}

fn play(
    players: usize,
    rounds: usize,
    total_rounds: usize,
    seed: u64,
    pairer: fn(&Tournament) -> Result<Pairing, PairingError>,
) -> Result<Tournament, PairingError> {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut random = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % 1000
    };
    let mut tournament = Tournament {
        name: Some(format!("Synthetic {players}")),
        players: (1..=players)
            .map(|number| TrfPlayer {
                number,
                name: format!("      Player{number:04}"),
                rating: 2600u32.saturating_sub((number as u32 * 1600) / players.max(1) as u32),
                points: 0,
                rank: 0,
                rounds: Vec::new(),
            })
            .collect(),
        total_rounds: Some(total_rounds),
        initial_color: Some(Color::White),
    };
    for _ in 0..rounds {
        let pairing = pairer(&tournament)?;
        for &(white, black) in &pairing.boards {
            let gap = i64::from(tournament.players[white - 1].rating)
                - i64::from(tournament.players[black - 1].rating);
            let roll = random() as i64;
            let white_win = 450 + gap / 2;
            let (w, b) = if roll < white_win - 150 {
                ('1', '0')
            } else if roll < white_win + 150 {
                ('=', '=')
            } else {
                ('0', '1')
            };
            tournament.players[white - 1].rounds.push(RoundEntry {
                opponent: Some(black),
                color: Some(Color::White),
                code: w,
            });
            tournament.players[black - 1].rounds.push(RoundEntry {
                opponent: Some(white),
                color: Some(Color::Black),
                code: b,
            });
        }
        if let Some(bye) = pairing.bye {
            tournament.players[bye - 1].rounds.push(RoundEntry {
                opponent: None,
                color: None,
                code: 'U',
            });
        }
        for player in &mut tournament.players {
            player.points = player.rounds.iter().map(RoundEntry::points).sum();
        }
    }
    Ok(tournament)
}

/// Score order; each player takes the first lower player not met yet; the
/// colour goes to whoever prefers it more (ties: alternate by board).
fn greedy(tournament: &Tournament) -> Result<Pairing, PairingError> {
    let roster = Roster::new(tournament)?;
    let n = roster.players.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&id| (std::cmp::Reverse(roster.players[id].score), id));
    let mut taken = vec![false; n];
    let mut boards = Vec::new();
    let mut bye = None;
    for (i, &a) in order.iter().enumerate() {
        if taken[a] {
            continue;
        }
        taken[a] = true;
        let partner = order[i + 1..]
            .iter()
            .copied()
            .find(|&b| !taken[b] && !roster.met[a * n + b])
            .or_else(|| order[i + 1..].iter().copied().find(|&b| !taken[b]));
        match partner {
            Some(b) => {
                taken[b] = true;
                let (pa, pb) = (&roster.players[a], &roster.players[b]);
                let a_white = match (pa.preference, pb.preference) {
                    (Some(Color::White), _) | (_, Some(Color::Black)) => true,
                    (Some(Color::Black), _) | (_, Some(Color::White)) => false,
                    (None, None) => boards.len() % 2 == 0,
                };
                boards.push(if a_white {
                    (a + 1, b + 1)
                } else {
                    (b + 1, a + 1)
                });
            }
            None => bye = Some(a + 1),
        }
    }
    Ok(Pairing { boards, bye })
}
