//! Arena tournaments, as lichess runs them: for a fixed time, a player who finishes a game is
//! paired again at once with a waiting player of similar score and rating. Pure: the scoring
//! of one game (`Sheet::score`), a wave of pairings among the players waiting
//! (`wave`), and the order of the standings (`rank`).
//!
//! Scoring: a win 2, a draw 1, a loss 0; a draw before move 10 (fewer than 20 half-moves)
//! scores 0. After two wins in a row a player is on fire: wins score 4 and draws 2 until a game
//! is not won. Berserk (the player halved their own time before their first move) adds 1 to a
//! win, doubled or not, when the berserker made at least `BERSERK_MOVES` moves in it (as on
//! lichess: a forfeit won after a move or two earns no berserk point). Games still running at
//! the end count; pairing stops at the end.

/// Half-moves before which a draw scores nothing (move 10, moves numbered in pairs).
pub const QUICK_DRAW_PLIES: u16 = 20;
/// Wins in a row that set a player on fire.
pub const FIRE_AFTER: u8 = 2;
/// Moves a berserker must have made for a win to score the berserk point (lichess's rule).
pub const BERSERK_MOVES: u16 = 7;

/// A game's result from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

/// One finished arena game, from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub result: GameResult,
    /// Half-moves the game lasted.
    pub plies: u16,
    /// Moves this player made in it (a berserk point needs `BERSERK_MOVES`).
    pub moves: u16,
    /// Whether this player went berserk in it.
    pub berserk: bool,
}

impl Played {
    /// Whether the game earns its player the berserk point, if they win it.
    fn berserk_counts(&self) -> bool {
        self.berserk && self.moves >= BERSERK_MOVES
    }
}

/// The moves the player of White (`white`) or Black made in a game of `plies` half-moves
/// (White moves first).
pub fn own_moves(plies: u16, white: bool) -> u16 {
    if white {
        plies.div_ceil(2)
    } else {
        plies / 2
    }
}

/// One player's arena score so far.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Sheet {
    pub points: u32,
    /// Wins in a row up to the last game.
    pub streak: u8,
    pub games: u32,
    pub wins: u32,
    pub berserks: u32,
    /// The points of each game, in order (what the standings show: `2 2 4 0 1`).
    pub marks: Vec<u8>,
}

impl Sheet {
    /// Whether the next game scores double.
    pub fn on_fire(&self) -> bool {
        self.streak >= FIRE_AFTER
    }

    /// Scores one more game; returns its points.
    pub fn score(&mut self, game: Played) -> u32 {
        let double = if self.on_fire() { 2 } else { 1 };
        let points = match game.result {
            GameResult::Win => 2 * double + u32::from(game.berserk_counts()),
            GameResult::Draw if game.plies < QUICK_DRAW_PLIES => 0,
            GameResult::Draw => double,
            GameResult::Loss => 0,
        };
        self.streak = match game.result {
            GameResult::Win => self.streak.saturating_add(1),
            GameResult::Draw | GameResult::Loss => 0,
        };
        self.points += points;
        self.games += 1;
        self.wins += u32::from(game.result == GameResult::Win);
        self.berserks += u32::from(game.berserk_counts() && game.result == GameResult::Win);
        self.marks.push(u8::try_from(points).unwrap_or(u8::MAX));
        points
    }
}

/// A player waiting for a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    /// The player's number in the event.
    pub player: u32,
    pub points: u32,
    pub rating: f64,
    /// Whom they met last: not again straight away.
    pub last_opponent: Option<u32>,
    /// Games with White less games with Black.
    pub colour_balance: i32,
    /// Whether their last game was with White (`None`: no game yet).
    pub last_white: Option<bool>,
}

/// How many of the next players down the ranking a player may be paired with: enough to
/// step over a last opponent or two, few enough that scores stay close.
const LOOK_AHEAD: usize = 8;
/// What a point of score difference weighs against a rating point.
const POINT_WEIGHT: f64 = 100.0;

/// Pairs the players waiting, `(white, black)` by player number: ranked by points then
/// rating, each takes the nearest of the next few down the ranking whom they did not just
/// meet (the cost: score difference, then rating difference). A player left without anyone
/// waits for the next wave; so do two players whose only choice is each other again.
pub fn wave(waiting: &[Waiting]) -> Vec<(u32, u32)> {
    let mut order: Vec<&Waiting> = waiting.iter().collect();
    order.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.rating.total_cmp(&a.rating))
            .then(a.player.cmp(&b.player))
    });
    let mut taken = vec![false; order.len()];
    let mut pairs = Vec::with_capacity(order.len() / 2);
    for i in 0..order.len() {
        if taken[i] {
            continue;
        }
        let a = order[i];
        let best = (i + 1..order.len())
            .filter(|&j| !taken[j] && !just_met(a, order[j]))
            .take(LOOK_AHEAD)
            .min_by(|&x, &y| cost(a, order[x]).total_cmp(&cost(a, order[y])));
        if let Some(j) = best {
            taken[i] = true;
            taken[j] = true;
            pairs.push(colours(a, order[j]));
        }
    }
    pairs
}

fn just_met(a: &Waiting, b: &Waiting) -> bool {
    a.last_opponent == Some(b.player) || b.last_opponent == Some(a.player)
}

fn cost(a: &Waiting, b: &Waiting) -> f64 {
    f64::from(a.points.abs_diff(b.points)) * POINT_WEIGHT + (a.rating - b.rating).abs()
}

/// White to the one who had it less often, then to the one who had Black last, then to the
/// higher-ranked player.
fn colours(a: &Waiting, b: &Waiting) -> (u32, u32) {
    let a_white = match a.colour_balance.cmp(&b.colour_balance) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => match (a.last_white, b.last_white) {
            (Some(true), Some(false)) | (Some(true), None) => false,
            (Some(false), Some(true)) | (None, Some(true)) => true,
            _ => true,
        },
    };
    if a_white {
        (a.player, b.player)
    } else {
        (b.player, a.player)
    }
}

/// A player's line in the arena's standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry<'a> {
    pub player: u32,
    pub rating: f64,
    pub sheet: &'a Sheet,
}

/// The standings' order: points, then the share of games won (the player who scored them in
/// fewer games), then rating, then entry order.
pub fn rank(entries: &mut [Entry<'_>]) {
    entries.sort_by(|a, b| {
        b.sheet
            .points
            .cmp(&a.sheet.points)
            .then(win_share(b.sheet).total_cmp(&win_share(a.sheet)))
            .then(b.rating.total_cmp(&a.rating))
            .then(a.player.cmp(&b.player))
    });
}

fn win_share(sheet: &Sheet) -> f64 {
    if sheet.games == 0 {
        0.0
    } else {
        f64::from(sheet.wins) / f64::from(sheet.games)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(result: GameResult) -> Played {
        Played {
            result,
            plies: 60,
            moves: 30,
            berserk: false,
        }
    }

    #[test]
    fn two_wins_set_a_player_on_fire_until_a_game_is_not_won() {
        let mut s = Sheet::default();
        let points: Vec<u32> = [
            GameResult::Win,
            GameResult::Win,
            GameResult::Win,
            GameResult::Draw,
            GameResult::Win,
            GameResult::Win,
            GameResult::Draw,
            GameResult::Loss,
        ]
        .into_iter()
        .map(|r| s.score(game(r)))
        .collect();
        assert_eq!(points, [2, 2, 4, 2, 2, 2, 2, 0]);
        assert_eq!(s.points, 16);
        assert_eq!(s.marks, [2, 2, 4, 2, 2, 2, 2, 0]);
        assert!(!s.on_fire());
    }

    #[test]
    fn a_quick_draw_scores_nothing_and_berserk_adds_one_to_a_win() {
        let mut s = Sheet::default();
        let quick = Played {
            result: GameResult::Draw,
            plies: QUICK_DRAW_PLIES - 1,
            moves: 10,
            berserk: false,
        };
        assert_eq!(s.score(quick), 0);
        let at_move_10 = Played {
            plies: QUICK_DRAW_PLIES,
            ..quick
        };
        assert_eq!(s.score(at_move_10), 1);
        let berserk_win = Played {
            result: GameResult::Win,
            plies: 40,
            moves: 20,
            berserk: true,
        };
        assert_eq!(s.score(berserk_win), 3);
        assert_eq!(s.score(berserk_win), 3);
        // On fire: the win doubled, the berserk point not.
        assert_eq!(s.score(berserk_win), 5);
        let berserk_loss = Played {
            result: GameResult::Loss,
            ..berserk_win
        };
        assert_eq!(s.score(berserk_loss), 0);
        assert_eq!(s.berserks, 3);
    }

    /// Issue 49, finding 18: a berserk win earns its point only after `BERSERK_MOVES` moves
    /// of the berserker (a forfeit won after one move each earns none).
    #[test]
    fn a_berserk_point_needs_seven_moves_of_the_berserker() {
        let mut s = Sheet::default();
        let forfeit_won = Played {
            result: GameResult::Win,
            plies: 2,
            moves: own_moves(2, true),
            berserk: true,
        };
        assert_eq!(s.score(forfeit_won), 2, "a win, no berserk point");
        assert_eq!(s.berserks, 0);
        // Black's seventh move is the 14th half-move; White's the 13th.
        let mut s = Sheet::default();
        let black = |plies| Played {
            moves: own_moves(plies, false),
            plies,
            ..forfeit_won
        };
        assert_eq!(s.score(black(13)), 2, "six moves of Black's");
        let mut s = Sheet::default();
        assert_eq!(s.score(black(14)), 3, "seven");
        assert_eq!(s.berserks, 1);
        let mut s = Sheet::default();
        let white = Played {
            moves: own_moves(13, true),
            plies: 13,
            ..forfeit_won
        };
        assert_eq!(
            s.score(white),
            3,
            "White's seventh move is the 13th half-move"
        );
    }

    fn waiting(player: u32, points: u32, rating: f64, last: Option<u32>) -> Waiting {
        Waiting {
            player,
            points,
            rating,
            last_opponent: last,
            colour_balance: 0,
            last_white: None,
        }
    }

    #[test]
    fn a_wave_pairs_near_scores_and_never_the_last_opponent() {
        let players = [
            waiting(1, 10, 1500.0, Some(2)),
            waiting(2, 10, 1490.0, Some(1)),
            waiting(3, 9, 1700.0, None),
            waiting(4, 2, 1400.0, None),
            waiting(5, 0, 1300.0, None),
        ];
        let pairs = wave(&players);
        assert_eq!(pairs.len(), 2);
        let met = |a: u32, b: u32| {
            pairs
                .iter()
                .any(|&(w, x)| (w, x) == (a, b) || (x, w) == (a, b))
        };
        assert!(!met(1, 2), "{pairs:?}");
        assert!(met(1, 3), "{pairs:?}");
        assert!(met(2, 4), "{pairs:?}");
        // Two players who just met wait for someone else.
        assert!(wave(&players[..2]).is_empty());
    }

    #[test]
    fn white_goes_to_who_had_it_less() {
        let mut a = waiting(1, 0, 1500.0, None);
        let mut b = waiting(2, 0, 1500.0, None);
        a.colour_balance = 1;
        assert_eq!(wave(&[a.clone(), b.clone()]), [(2, 1)]);
        a.colour_balance = 0;
        a.last_white = Some(false);
        b.last_white = Some(true);
        assert_eq!(wave(&[a, b]), [(1, 2)]);
    }

    #[test]
    fn the_standings_put_points_then_efficiency_first() {
        let mut fast = Sheet::default();
        fast.score(game(GameResult::Win));
        let mut slow = Sheet::default();
        slow.score(game(GameResult::Draw));
        slow.score(game(GameResult::Draw));
        let mut top = Sheet::default();
        for _ in 0..3 {
            top.score(game(GameResult::Win));
        }
        let mut entries = vec![
            Entry {
                player: 1,
                rating: 1900.0,
                sheet: &slow,
            },
            Entry {
                player: 2,
                rating: 1400.0,
                sheet: &fast,
            },
            Entry {
                player: 3,
                rating: 1200.0,
                sheet: &top,
            },
        ];
        rank(&mut entries);
        let order: Vec<u32> = entries.iter().map(|e| e.player).collect();
        assert_eq!(order, [3, 2, 1]);
    }
}
