//! The FIDE Dutch system (Handbook C.04.3, 2025 rules): the next round's
//! pairing of a Swiss tournament.
//!
//! Brackets are paired from the top score group down. Each bracket's choices
//! are made by maximum weight matchings over all players still unpaired, whose
//! edge weights encode the quality criteria (see `weights`), so that a choice
//! in one bracket never leaves the rest of the round unpairable. Within a
//! bracket, moved-down players, exchanges between S1 and S2 and the opponents
//! of each S1 player are then fixed one at a time, each time preferring what
//! the rules' order of transpositions and exchanges prefers.

use super::roster::{Entrant, PairingError, Roster};
use super::trf::{Color, Tournament};
use super::weights::{bits_for, compatible_preferences, Layout};
use std::collections::HashMap;

/// A round's pairing.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Pairing {
    /// Boards in publication order: (white, black) pairing numbers, 1-based.
    pub boards: Vec<(usize, usize)>,
    /// The player with the pairing-allocated bye, if any.
    pub bye: Option<usize>,
}

impl Pairing {
    /// The JaVaFo text form: the number of pairs, then `white black` per board
    /// and `N 0` for the bye.
    pub fn to_javafo(&self) -> String {
        let mut out = format!("{}\n", self.boards.len() + usize::from(self.bye.is_some()));
        for (white, black) in &self.boards {
            out.push_str(&format!("{white} {black}\n"));
        }
        if let Some(bye) = self.bye {
            out.push_str(&format!("{bye} 0\n"));
        }
        out
    }
}

/// The widest weights the matching is built for, in 64-bit limbs: 4,096 bits, about 160
/// score groups of eight players (far more than a Swiss event of the bot has: at most 1,000
/// players and 15 rounds, so 31 score groups).
const MOST_LIMBS: u32 = 64;

/// Pairs the next round of a tournament.
pub fn pair(tournament: &Tournament) -> Result<Pairing, PairingError> {
    let roster = Roster::new(tournament)?;
    pair_roster(&roster)
}

/// Pairs the next round from the derived tournament state.
pub fn pair_roster(roster: &Roster) -> Result<Pairing, PairingError> {
    let mut sorted: Vec<usize> = roster
        .players
        .iter()
        .filter(|p| p.rank != usize::MAX && p.to_pair)
        .map(|p| p.id)
        .collect();
    if sorted.is_empty() {
        return Err(PairingError::TooFewPlayers);
    }
    sorted.sort_by(|&a, &b| {
        let (pa, pb) = (&roster.players[a], &roster.players[b]);
        pb.score.cmp(&pa.score).then(pa.rank.cmp(&pb.rank))
    });
    let mut group_shift = HashMap::new();
    let mut groups_shift = 0;
    let mut largest = 0;
    let mut start = sorted.len();
    while start > 0 {
        let score = roster.players[sorted[start - 1]].score;
        let mut first = start - 1;
        while first > 0 && roster.players[sorted[first - 1]].score == score {
            first -= 1;
        }
        let size = start - first;
        group_shift.insert(score, groups_shift);
        groups_shift += bits_for(size);
        largest = largest.max(size);
        start = first;
    }
    let groups = group_shift.len();
    let mut layout = Layout {
        roster,
        group_bits: bits_for(largest),
        groups_shift,
        group_shift,
        unplayed_rank: HashMap::new(),
        bye_score: 0,
        single_downfloater_is_bye: false,
        count_unplayed_games: true,
    };
    let limbs = (layout.total_bits() + 8).div_ceil(64);
    if limbs > MOST_LIMBS {
        // Wrapping weights would make the matching's optimum meaningless: the search
        // reported "no pairing satisfies the absolute criteria" instead (issue 49, 14).
        return Err(PairingError::TooLarge {
            players: sorted.len(),
            groups,
            bits: layout.total_bits() + 8,
            most: MOST_LIMBS * 64,
        });
    }
    let mates = match limbs {
        1 => super::brackets::run::<1>(&mut layout, &sorted),
        2 => super::brackets::run::<2>(&mut layout, &sorted),
        3 => super::brackets::run::<3>(&mut layout, &sorted),
        4 => super::brackets::run::<4>(&mut layout, &sorted),
        5..=6 => super::brackets::run::<6>(&mut layout, &sorted),
        7..=8 => super::brackets::run::<8>(&mut layout, &sorted),
        9..=10 => super::brackets::run::<10>(&mut layout, &sorted),
        // Its own width: 1,000 players after ten rounds take 11 limbs, and every
        // slack of their search was a twelfth wider than it had to be.
        11 => super::brackets::run::<11>(&mut layout, &sorted),
        12 => super::brackets::run::<12>(&mut layout, &sorted),
        13..=16 => super::brackets::run::<16>(&mut layout, &sorted),
        17..=24 => super::brackets::run::<24>(&mut layout, &sorted),
        25..=32 => super::brackets::run::<32>(&mut layout, &sorted),
        _ => super::brackets::run::<{ MOST_LIMBS as usize }>(&mut layout, &sorted),
    }?;
    Ok(publish(roster, &sorted, &mates))
}

/// The boards in FIDE's publication order with colours allocated.
fn publish(roster: &Roster, sorted: &[usize], mates: &[Option<usize>]) -> Pairing {
    let mut boards = Vec::new();
    let mut bye = None;
    for &id in sorted {
        match mates[id] {
            Some(other) if id < other => {
                let (a, b) = (&roster.players[id], &roster.players[other]);
                let color = allocate_color(roster, a, b);
                boards.push(if color == Some(Color::White) {
                    (id, other)
                } else {
                    (other, id)
                });
            }
            Some(_) => {}
            None => bye = Some(id),
        }
    }
    let key = |&(white, black): &(usize, usize)| {
        let (w, b) = (&roster.players[white], &roster.players[black]);
        let (higher, lower) = if below(w, b) { (b, w) } else { (w, b) };
        (
            std::cmp::Reverse(higher.score),
            std::cmp::Reverse(lower.score),
            higher.rank,
        )
    };
    boards.sort_by_key(key);
    Pairing {
        boards: boards.into_iter().map(|(w, b)| (w + 1, b + 1)).collect(),
        bye: bye.map(|b| b + 1),
    }
}

/// Whether `a` ranks below `b` (lower score, or same score and later rank).
fn below(a: &Entrant, b: &Entrant) -> bool {
    (a.score, b.rank) < (b.score, a.rank)
}

/// The colour `player` gets against `opponent` (C.04.3 E).
fn allocate_color(roster: &Roster, player: &Entrant, opponent: &Entrant) -> Option<Color> {
    if let Some(color) = neutral_color(player, opponent) {
        return Some(color);
    }
    let initial = roster.initial_color;
    if player.preference.is_none() {
        if below(player, opponent) {
            Some(if opponent.rank % 2 == 1 {
                initial
            } else {
                initial.invert()
            })
        } else {
            Some(if player.rank % 2 == 1 {
                initial.invert()
            } else {
                initial
            })
        }
    } else if below(player, opponent) {
        opponent.preference.map(Color::invert)
    } else {
        player.preference
    }
}

/// Colour by preferences and history alone, `None` when they do not decide.
fn neutral_color(player: &Entrant, opponent: &Entrant) -> Option<Color> {
    if compatible_preferences(player.preference, opponent.preference) {
        return player.preference.or(opponent.preference.map(Color::invert));
    }
    if player.absolute() && (player.imbalance > opponent.imbalance || !opponent.absolute()) {
        return player.preference;
    }
    if opponent.absolute() && (opponent.imbalance > player.imbalance || !player.absolute()) {
        return opponent.preference.map(Color::invert);
    }
    if player.strong && !opponent.strong {
        return player.preference;
    }
    if opponent.strong && !player.strong {
        return opponent.preference.map(Color::invert);
    }
    // Alternate from the latest round in which their colours differed.
    let mine = player
        .games
        .iter()
        .rev()
        .filter(|g| g.played)
        .map(|g| g.color);
    let theirs = opponent
        .games
        .iter()
        .rev()
        .filter(|g| g.played)
        .map(|g| g.color);
    for (a, b) in mine.zip(theirs) {
        if a != b {
            return if a.is_some() && b.is_some() { b } else { None };
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::trf::{RoundEntry, TrfPlayer};

    /// Issue 49, finding 14: 1,592 players in 199 score groups need weights of more than
    /// 64 limbs; the round is refused as too large, never "no pairing satisfies".
    #[test]
    fn a_round_too_wide_for_the_weights_is_a_clear_error() {
        let (groups, per_group, rounds) = (199, 8, 99);
        let players: Vec<TrfPlayer> = (0..groups * per_group)
            .map(|i| {
                // Scores 0, 0.5, ..., 99 by byes: full-point, then half-point, then none.
                let halves = i / per_group;
                let entry = |code| RoundEntry {
                    opponent: None,
                    color: None,
                    code,
                };
                let mut entries = vec![entry('F'); halves / 2];
                entries.extend((halves % 2 == 1).then(|| entry('H')));
                entries.resize(rounds, entry('Z'));
                TrfPlayer {
                    number: i + 1,
                    name: format!("P{i}"),
                    rating: 2000,
                    points: entries.iter().map(RoundEntry::points).sum(),
                    rank: 0,
                    rounds: entries,
                }
            })
            .collect();
        let tournament = Tournament {
            name: None,
            players,
            total_rounds: Some(rounds + 1),
            initial_color: Some(Color::White),
        };
        match pair(&tournament) {
            Err(PairingError::TooLarge {
                players, groups, ..
            }) => assert_eq!((players, groups), (1_592, 199)),
            other => panic!("expected the round refused as too large, got {other:?}"),
        }
        let message = pair(&tournament).unwrap_err().to_string();
        assert!(
            message.contains("too large") && message.contains("199 score groups"),
            "{message}"
        );
    }
}
