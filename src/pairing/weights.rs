//! Edge weights of the Dutch pairing: every quality criterion of FIDE C.04.3
//! (2025) is a bit field of one wide integer, the more important criteria in
//! the higher bits, so that a maximum weight matching optimises them in order.

use super::roster::{Entrant, Roster};
use super::trf::Color;
use super::wide::Wide;
use std::collections::HashMap;

/// A float direction in an earlier round.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Float {
    /// Paired with a lower score, or an unplayed round that scored points.
    Down,
    /// Paired with a higher score.
    Up,
    /// Neither.
    None,
}

/// The constant layout of a round's weights and the data the criteria read.
pub struct Layout<'a> {
    /// The tournament.
    pub roster: &'a Roster,
    /// Bits for a count of players of one score group.
    pub group_bits: u32,
    /// Bits of a field with one counter per score group.
    pub groups_shift: u32,
    /// Where each score group's counter starts (lowest scores lowest).
    pub group_shift: HashMap<u32, u32>,
    /// Rank of unplayed-round counts among players with the bye assignee's score.
    pub unplayed_rank: HashMap<usize, u64>,
    /// Score of the player who will get the bye (0 when none).
    pub bye_score: u32,
    /// Whether the bye assignee is the only downfloater of the first bracket.
    pub single_downfloater_is_bye: bool,
    /// Whether C9 counts unplayed games (always, except in experiments).
    pub count_unplayed_games: bool,
}

/// `1` as a field value when `b` holds.
fn flag(b: bool) -> u64 {
    u64::from(b)
}

/// Bits needed to write `n`.
pub fn bits_for(n: usize) -> u32 {
    usize::BITS - n.leading_zeros()
}

impl Layout<'_> {
    fn shift_of(&self, score: u32) -> u32 {
        self.group_shift.get(&score).copied().unwrap_or(0)
    }

    /// The total number of bits all fields take (the top field holds up to 3).
    pub fn total_bits(&self) -> u32 {
        let g = self.group_bits;
        let s = self.groups_shift;
        let mut bits = 2 + g + s + g + s + g + 4 * g;
        if self.roster.played_rounds >= 1 {
            bits += 2 * g + 2 * s;
        }
        if self.roster.played_rounds >= 2 {
            bits += 2 * g + 2 * s;
        }
        bits + 3 * g + 1
    }

    /// The float of a player `back` rounds ago.
    pub fn float(&self, player: &Entrant, back: usize) -> Float {
        let roster = self.roster;
        let game = &player.games[roster.played_rounds - back];
        if !game.played {
            return if game.points() > 0 {
                Float::Down
            } else {
                Float::None
            };
        }
        let own = roster.score_back(player, back);
        let other = roster.score_back(&roster.players[game.opponent], back);
        match own.cmp(&other) {
            std::cmp::Ordering::Greater => Float::Down,
            std::cmp::Ordering::Less => Float::Up,
            std::cmp::Ordering::Equal => Float::None,
        }
    }

    /// Whether the two may meet at all (absolute criteria C1-C3).
    pub fn compatible(&self, a: &Entrant, b: &Entrant) -> bool {
        let roster = self.roster;
        let n = roster.players.len();
        if roster.met[a.id * n + b.id] {
            return false;
        }
        let top = roster.played_rounds as u32 * 10 / 2;
        !a.absolute()
            || !b.absolute()
            || a.preference != b.preference
            || (roster.played_rounds + 1 >= roster.total_rounds && (a.score > top || b.score > top))
    }

    /// Whether the player may receive the pairing-allocated bye (C2): no
    /// unplayed round scoring a win's points so far.
    pub fn eligible_for_bye(&self, player: &Entrant) -> bool {
        !player.games.iter().any(|g| !g.played && g.points() >= 10)
    }

    /// Unplayed rounds as C9 counts them.
    pub fn unplayed_games(&self, player: &Entrant) -> usize {
        if self.count_unplayed_games {
            player.games.iter().filter(|g| !g.played).count()
        } else {
            0
        }
    }

    fn bye_candidate(&self, player: &Entrant) -> bool {
        self.eligible_for_bye(player) && player.score <= self.bye_score
    }

    /// The weight of pairing `higher` with `lower` (lower in sorted order),
    /// zero when they may not meet.
    pub fn edge<const L: usize>(
        &self,
        higher: &Entrant,
        lower: &Entrant,
        in_current: bool,
        in_next: bool,
    ) -> Wide<L> {
        if !self.compatible(higher, lower) {
            return Wide::ZERO;
        }
        let g = self.group_bits;
        let s = self.groups_shift;
        let (hs, ls) = (higher.score, lower.score);
        let mut w = Fields::new();
        w.add(1 + flag(!self.bye_candidate(higher)) + flag(!self.bye_candidate(lower)));
        // Pairs in the current bracket, then the scores paired there.
        w.shift(g);
        w.add(flag(in_current));
        w.shift(s);
        if in_current {
            w.add_bit(self.shift_of(hs));
        }
        // Pairs in the next bracket, then the scores paired there.
        w.shift(g);
        w.add(flag(in_next));
        w.shift(s);
        if in_next {
            w.add_bit(self.shift_of(hs));
        }
        // C9: fewest unplayed games for the bye assignee.
        w.shift(g);
        if self.single_downfloater_is_bye {
            for p in [higher, lower] {
                if p.score == self.bye_score {
                    let rank = self.unplayed_rank.get(&self.unplayed_games(p));
                    w.add(rank.copied().unwrap_or(0));
                }
            }
        }
        self.colour_bits(&mut w, lower, higher, in_current);
        let rounds = self.roster.played_rounds;
        for back in [1, 2] {
            if rounds < back {
                continue;
            }
            w.shift(g);
            if in_current {
                w.add(flag(self.float(lower, back) == Float::Down));
                w.add(flag(hs <= ls && self.float(higher, back) == Float::Down));
            }
            w.shift(g);
            if in_current {
                w.add(flag(!(hs > ls && self.float(lower, back) == Float::Up)));
            }
        }
        for back in [1, 2] {
            if rounds < back {
                continue;
            }
            w.shift(s);
            if in_current {
                if self.float(lower, back) == Float::Down {
                    w.add_bit(self.shift_of(ls));
                }
                if self.float(higher, back) == Float::Down {
                    w.add_bit(self.shift_of(hs));
                }
            }
            w.shift(s);
            if in_current && !(self.float(lower, back) == Float::Up && hs > ls) {
                w.add_bit(self.shift_of(hs));
            }
        }
        // Room for the bracket's ordering rules (exchanges, transpositions).
        w.shift(3 * g + 1);
        w.finish()
    }

    fn colour_bits(&self, w: &mut Fields, player: &Entrant, opponent: &Entrant, in_current: bool) {
        let g = self.group_bits;
        let same = player.preference == opponent.preference;
        // Absolute colour imbalances both satisfied.
        w.shift(g);
        w.add(flag(
            in_current && (!player.absolute_imbalance() || !opponent.absolute_imbalance() || !same),
        ));
        // Absolute preferences both satisfied, or the unavoidable violation
        // falls on the right player.
        let repeat_ok = if player.imbalance == opponent.imbalance {
            player.repeated.is_none() || player.repeated != opponent.repeated
        } else {
            let smaller = if player.imbalance > opponent.imbalance {
                opponent
            } else {
                player
            };
            smaller.repeated != player.preference.map(Color::invert)
        };
        w.shift(g);
        w.add(flag(
            in_current && (!player.absolute() || !opponent.absolute() || !same || repeat_ok),
        ));
        // Colour preferences both satisfied.
        w.shift(g);
        w.add(flag(
            in_current && compatible_preferences(player.preference, opponent.preference),
        ));
        // Strong preferences both satisfied.
        w.shift(g);
        w.add(flag(
            in_current
                && ((!player.strong && !player.absolute())
                    || (!opponent.strong && !opponent.absolute())
                    || (player.absolute() && opponent.absolute())
                    || !same),
        ));
    }
}

/// A weight written field by field from the most important down, as
/// "shift left, add": the additions are kept with the shift they were made
/// at and placed once at the end, instead of shifting the whole wide value
/// for every field (which was a seventh of a large round's time).
struct Fields {
    /// (bits shifted in before it, bit offset, value) of each addition: an
    /// edge makes at most 23, and a larger array was mostly zeroing memory.
    adds: [(u32, u32, u64); 32],
    len: usize,
    shifted: u32,
}

impl Fields {
    fn new() -> Self {
        Fields {
            adds: [(0, 0, 0); 32],
            len: 0,
            shifted: 0,
        }
    }

    /// Shifts everything so far left by `bits`.
    fn shift(&mut self, bits: u32) {
        self.shifted += bits;
    }

    /// Adds `value`.
    fn add(&mut self, value: u64) {
        if value != 0 {
            self.adds[self.len] = (self.shifted, 0, value);
            self.len += 1;
        }
    }

    /// Adds `1 << bit`.
    fn add_bit(&mut self, bit: u32) {
        self.adds[self.len] = (self.shifted, bit, 1);
        self.len += 1;
    }

    /// The value, wrapping like `Wide`'s shifts and sums.
    fn finish<const L: usize>(&self) -> Wide<L> {
        let mut limbs = [0u64; L];
        for &(at, offset, value) in &self.adds[..self.len] {
            let position = u64::from(self.shifted - at) + u64::from(offset);
            let limb = (position / 64) as usize;
            let rest = (position % 64) as u32;
            let parts = [
                value << rest,
                if rest == 0 { 0 } else { value >> (64 - rest) },
            ];
            let mut carry = 0u64;
            for (i, limb) in limbs.iter_mut().enumerate().skip(limb) {
                let part = parts.get(i - (position / 64) as usize).copied();
                if part.is_none() && carry == 0 {
                    break;
                }
                let part = part.unwrap_or(0);
                let (sum, c1) = limb.overflowing_add(part);
                let (sum, c2) = sum.overflowing_add(carry);
                *limb = sum;
                carry = u64::from(c1 || c2);
            }
        }
        Wide(limbs)
    }
}

/// Whether both preferences can be met in one game.
pub fn compatible_preferences(a: Option<Color>, b: Option<Color>) -> bool {
    a != b || a.is_none()
}
