//! Final standings of a Swiss tournament with the FIDE tie-breaks (Handbook
//! C.07, Tie-Break Regulations 2023/2024), pure: from a parsed [`Tournament`]
//! to a ranked list, no I/O.
//!
//! Order (the issue asks for Buchholz, then Sonneborn-Berger, then the rest
//! FIDE lists that make sense in a chat tournament):
//!
//! 1. score;
//! 2. **BH**, Buchholz: the sum of the opponents' scores;
//! 3. **BH-C1**, Buchholz Cut-1: Buchholz without its least significant value;
//! 4. **SB**, Sonneborn-Berger: the sum, over the rounds, of the opponent's
//!    score times the points the player scored against them;
//! 5. **WON**, games won over the board (C.07 calls this one WON; its WIN
//!    also counts forfeit wins and byes, which say nothing about strength);
//! 6. **DE**, direct encounter: among players still tied on everything above,
//!    the points scored in the games between them, when every one of them
//!    has met every other one (forfeits count with their recorded result);
//!    when some of them have not met, DE leaves the tie to the next one
//!    (the regulations' special cases for partial encounters are not
//!    implemented);
//! 7. **ARO**, the average rating of the opponents met over the board,
//!    unrated opponents left out, rounded to the nearest integer (half up).
//!
//! Players equal on all of these share a rank (the next rank is skipped).
//!
//! Unplayed rounds (C.07 §16, as implemented here): a round is *unplayed*
//! when no game was played over the board (a bye of any kind, a forfeit won
//! or lost, an absence, every round after a withdrawal). An unplayed round
//! that did not bring a full point (forfeit loss, half- or zero-point bye,
//! absence, withdrawal) is a *voluntarily unplayed round* (VUR); forfeit
//! wins, pairing-allocated and full-point byes are not.
//! - The player's own unplayed rounds count, in BH and SB, as a game against
//!   a dummy opponent whose score is the player's own final score, with the
//!   points the player actually got in that round (so a bye worth 1 adds the
//!   player's score to SB, a zero-point round adds nothing).
//! - An opponent's score, as BH and SB use it, is their final score except
//!   that their VURs at the end of the event (a withdrawal, an absence in the
//!   last rounds) count as draws.
//! - Cut-1 removes a VUR first when the player has one, else the lowest
//!   opponent value.
//! - WON, DE and ARO look at games played over the board only (DE also at
//!   forfeits between the tied players).
//!
//! Scores and Buchholz values are in tenths of a point (like [`super::trf`]),
//! Sonneborn-Berger in hundredths (a draw against 2.5 points is 1.25).

use super::trf::{RoundEntry, Tournament};

/// One player's line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// Rank, 1-based; players equal on every tie-break share it.
    pub rank: usize,
    /// Pairing number.
    pub number: usize,
    /// Score in tenths.
    pub score: u32,
    /// Buchholz in tenths.
    pub buchholz: u32,
    /// Buchholz Cut-1 in tenths.
    pub buchholz_cut1: u32,
    /// Sonneborn-Berger in hundredths.
    pub sonneborn_berger: u32,
    /// Games won over the board.
    pub won: u32,
    /// Points (tenths) against the other players of a tie that DE could
    /// decide, `None` when DE did not apply.
    pub direct_encounter: Option<u32>,
    /// Average rating of the opponents.
    pub aro: u32,
}

/// The standings after the rounds played so far, best first; tied players
/// (shared rank) are listed by pairing number.
pub fn standings(tournament: &Tournament) -> Vec<Standing> {
    let view = Rounds::new(tournament);
    let rows = (0..tournament.players.len())
        .map(|i| view.values(tournament, i))
        .collect();
    rank(rows, |a, b| view.encounter(a, b))
}

/// The round entries of every player over the rounds played, with what the
/// tie-breaks need about each.
struct Rounds<'t> {
    tournament: &'t Tournament,
    rounds: usize,
    scores: Vec<u32>,
    /// Scores with final VURs counted as draws (what opponents see).
    adjusted: Vec<u32>,
}

const ABSENT: RoundEntry = RoundEntry {
    opponent: None,
    color: None,
    code: ' ',
};

impl<'t> Rounds<'t> {
    fn new(tournament: &'t Tournament) -> Rounds<'t> {
        let rounds = tournament.rounds_played();
        let mut view = Rounds {
            tournament,
            rounds,
            scores: Vec::new(),
            adjusted: Vec::new(),
        };
        for i in 0..tournament.players.len() {
            let score: u32 = view.entries(i).map(|e| e.points()).sum();
            // Trailing VURs (a withdrawal) count as draws for the opponents.
            let bonus: u32 = view
                .entries(i)
                .collect::<Vec<_>>()
                .iter()
                .rev()
                .take_while(|e| is_vur(e))
                .map(|e| 5u32.saturating_sub(e.points()))
                .sum();
            view.scores.push(score);
            view.adjusted.push(score + bonus);
        }
        view
    }

    /// Player `i`'s entries for rounds 1..=rounds, absences filled in.
    fn entries(&self, i: usize) -> impl Iterator<Item = RoundEntry> + '_ {
        let own = &self.tournament.players[i].rounds;
        (0..self.rounds).map(move |r| own.get(r).copied().unwrap_or(ABSENT))
    }

    fn opponent_index(&self, entry: &RoundEntry) -> Option<usize> {
        entry
            .opponent
            .and_then(|n| n.checked_sub(1))
            .filter(|&o| o < self.tournament.players.len())
    }

    fn values(&self, tournament: &Tournament, i: usize) -> Standing {
        let own = self.scores[i];
        // (value for Buchholz, points scored, a VUR)
        let mut parts: Vec<(u32, u32, bool)> = Vec::new();
        let mut won = 0;
        let mut ratings = Vec::new();
        for entry in self.entries(i) {
            let opponent = self.opponent_index(&entry).filter(|_| entry.game_played());
            match opponent {
                Some(o) => {
                    parts.push((self.adjusted[o], entry.points(), false));
                    if entry.points() == 10 {
                        won += 1;
                    }
                    let rating = tournament.players[o].rating;
                    if rating > 0 {
                        ratings.push(rating);
                    }
                }
                None => parts.push((own, entry.points(), is_vur(&entry))),
            }
        }
        let buchholz: u32 = parts.iter().map(|p| p.0).sum();
        let cut = parts
            .iter()
            .filter(|p| p.2)
            .map(|p| p.0)
            .next()
            .or_else(|| parts.iter().map(|p| p.0).min())
            .unwrap_or(0);
        Standing {
            rank: 0,
            number: i + 1,
            score: own,
            buchholz,
            buchholz_cut1: buchholz - cut,
            sonneborn_berger: parts.iter().map(|p| p.0 * p.1).sum(),
            won,
            direct_encounter: None,
            aro: average(&ratings),
        }
    }

    /// Points (tenths) player `a` scored against player `b` (both indices),
    /// `None` when they were never paired together.
    fn encounter(&self, a: usize, b: usize) -> Option<u32> {
        let mut points = None;
        for entry in self.entries(a) {
            if self.opponent_index(&entry) == Some(b) {
                points = Some(points.unwrap_or(0) + entry.points());
            }
        }
        points
    }
}

/// A voluntarily unplayed round: no game over the board and less than a full point.
fn is_vur(entry: &RoundEntry) -> bool {
    !entry.game_played() && entry.points() < 10
}

fn average(ratings: &[u32]) -> u32 {
    if ratings.is_empty() {
        return 0;
    }
    let sum: u64 = ratings.iter().map(|&r| u64::from(r)).sum();
    let n = ratings.len() as u64;
    u32::try_from((2 * sum + n) / (2 * n)).unwrap_or(u32::MAX)
}

/// The order before DE: score, BH, BH-C1, SB, WON, all higher first.
fn before_de(s: &Standing) -> (u32, u32, u32, u32, u32) {
    (
        s.score,
        s.buchholz,
        s.buchholz_cut1,
        s.sonneborn_berger,
        s.won,
    )
}

fn full_key(s: &Standing) -> (u32, u32, u32, u32, u32, u32, u32) {
    let (a, b, c, d, e) = before_de(s);
    (a, b, c, d, e, s.direct_encounter.unwrap_or(0), s.aro)
}

/// Ranks rows whose values (all but `rank` and `direct_encounter`) are
/// filled in; `encounter(a, b)` gives what row index `a` scored against `b`
/// (indices are pairing numbers minus one), `None` if they did not meet.
fn rank(mut rows: Vec<Standing>, encounter: impl Fn(usize, usize) -> Option<u32>) -> Vec<Standing> {
    rows.sort_by(|x, y| {
        before_de(y)
            .cmp(&before_de(x))
            .then(x.number.cmp(&y.number))
    });
    let mut start = 0;
    while start < rows.len() {
        let key = before_de(&rows[start]);
        let end = start
            + rows[start..]
                .iter()
                .take_while(|r| before_de(r) == key)
                .count();
        if end - start > 1 {
            apply_direct_encounter(&mut rows[start..end], &encounter);
        }
        start = end;
    }
    rows.sort_by(|x, y| full_key(y).cmp(&full_key(x)).then(x.number.cmp(&y.number)));
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && full_key(&rows[i]) == full_key(&rows[i - 1]) {
            rows[i - 1].rank
        } else {
            i + 1
        };
    }
    rows
}

/// Sets DE for a group tied before DE when every member met every other one.
fn apply_direct_encounter(
    group: &mut [Standing],
    encounter: &impl Fn(usize, usize) -> Option<u32>,
) {
    let ids: Vec<usize> = group.iter().map(|s| s.number - 1).collect();
    let mut totals = Vec::with_capacity(ids.len());
    for &a in &ids {
        let mut total = 0;
        for &b in ids.iter().filter(|&&b| b != a) {
            match encounter(a, b) {
                Some(points) => total += points,
                None => return,
            }
        }
        totals.push(total);
    }
    for (row, total) in group.iter_mut().zip(totals) {
        row.direct_encounter = Some(total);
    }
}

fn tenths(value: u32) -> String {
    format!("{}.{}", value / 10, value % 10)
}

fn hundredths(value: u32) -> String {
    format!("{}.{:02}", value / 100, value % 100)
}

/// The standings as a plain-text table (one line a player), for the console.
pub fn format_table(tournament: &Tournament, rows: &[Standing]) -> String {
    let name_width = rows
        .iter()
        .filter_map(|r| tournament.players.get(r.number - 1))
        .map(|p| p.name.trim().chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    let mut out = format!(
        "{:>4} {:>4}  {:<name_width$}  {:>5} {:>6} {:>6} {:>7} {:>3} {:>4} {:>5}\n",
        "Rank", "No", "Name", "Pts", "BH", "BH-C1", "SB", "WON", "DE", "ARO"
    );
    for row in rows {
        let name = tournament
            .players
            .get(row.number - 1)
            .map_or("", |p| p.name.trim());
        let pad = name_width.saturating_sub(name.chars().count());
        out.push_str(&format!(
            "{:>4} {:>4}  {name}{}  {:>5} {:>6} {:>6} {:>7} {:>3} {:>4} {:>5}\n",
            row.rank,
            row.number,
            " ".repeat(pad),
            tenths(row.score),
            tenths(row.buchholz),
            tenths(row.buchholz_cut1),
            hundredths(row.sonneborn_berger),
            row.won,
            row.direct_encounter.map_or("-".to_string(), tenths),
            row.aro,
        ));
    }
    out
}

#[cfg(test)]
#[path = "tiebreak_tests.rs"]
mod tests;
