//! FIDE Tournament Report File (TRF-16) reading and writing, limited to what a
//! Swiss pairing needs: player lines (`001`), `XXR` (number of rounds), `XXC`
//! (`white1`/`black1`: the top seed's colour in round 1) and the scoring of
//! every round entry (`opponent colour result`).
//!
//! Scores are kept in tenths of a point (a win is 10, a draw 5).

use thiserror::Error;

/// A piece colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Color {
    /// White.
    White,
    /// Black.
    Black,
}

impl Color {
    /// The other colour.
    pub fn invert(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// What one round entry of a player line says.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// A win (also a forfeit win, a pairing-allocated or a full-point bye).
    Win,
    /// A draw (also a half-point bye).
    Draw,
    /// A loss (also a forfeit loss, a zero-point bye or an absence).
    Loss,
}

/// One round of one player: an entry of the `001` line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RoundEntry {
    /// The opponent's pairing number (1-based), `None` for a bye or absence.
    pub opponent: Option<usize>,
    /// The colour, `None` for `-` or blank.
    pub color: Option<Color>,
    /// The result character as written (`1`, `0`, `=`, `+`, `-`, `U`, `H`, `F`, `Z`, ...).
    pub code: char,
}

impl RoundEntry {
    /// The outcome for the player.
    pub fn outcome(&self) -> Outcome {
        match self.code.to_ascii_uppercase() {
            'D' | '=' | 'H' => Outcome::Draw,
            '+' | 'W' | '1' | 'F' | 'U' => Outcome::Win,
            _ => Outcome::Loss,
        }
    }

    /// Whether a game was played over the board.
    pub fn game_played(&self) -> bool {
        self.opponent.is_some()
            && self.color.is_some()
            && !matches!(
                self.code.to_ascii_uppercase(),
                '+' | '-' | 'H' | 'F' | 'U' | 'Z' | ' '
            )
    }

    /// Whether the player was paired (with an opponent or the pairing-allocated bye).
    pub fn participated(&self) -> bool {
        self.opponent.is_some() || matches!(self.code.to_ascii_uppercase(), 'U' | '+')
    }

    /// Whether this is the pairing-allocated bye.
    pub fn is_pairing_bye(&self) -> bool {
        self.opponent.is_none() && self.participated()
    }

    /// Points scored, in tenths (FIDE default scoring).
    pub fn points(&self) -> u32 {
        match self.outcome() {
            Outcome::Win => 10,
            Outcome::Draw => 5,
            Outcome::Loss => 0,
        }
    }
}

/// A player line (`001`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TrfPlayer {
    /// Pairing number, 1-based.
    pub number: usize,
    /// Sex and title columns plus the name, as written (columns 10-47).
    pub name: String,
    /// Rating, 0 when missing.
    pub rating: u32,
    /// Score in tenths, as written.
    pub points: u32,
    /// Rank column, 0 when missing.
    pub rank: usize,
    /// Round entries from round 1 (trailing blank entries dropped).
    pub rounds: Vec<RoundEntry>,
}

/// A parsed tournament.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Tournament {
    /// The tournament name (`012`), if given.
    pub name: Option<String>,
    /// Players by pairing number (`players[0]` is number 1).
    pub players: Vec<TrfPlayer>,
    /// Total number of rounds (`XXR`).
    pub total_rounds: Option<usize>,
    /// Colour of the top seed in round 1 (`XXC white1`/`black1`).
    pub initial_color: Option<Color>,
}

impl Tournament {
    /// The number of rounds with a result for some player.
    pub fn rounds_played(&self) -> usize {
        self.players
            .iter()
            .map(|p| p.rounds.len())
            .max()
            .unwrap_or(0)
    }
}

/// Why a TRF file could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TrfError {
    /// A line does not follow the format.
    #[error("line {line}: {reason}")]
    BadLine {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// Two player lines have the same pairing number.
    #[error("pairing number {0} is repeated")]
    RepeatedNumber(usize),
    /// Pairing numbers are not 1..=n.
    #[error("pairing number {0} is missing")]
    MissingNumber(usize),
    /// A game's two entries disagree.
    #[error("round {round} of player {player} contradicts the entry of the opponent")]
    Inconsistent {
        /// Pairing number.
        player: usize,
        /// 1-based round.
        round: usize,
    },
    /// The two entries of one game give results that cannot both hold (both won, or both
    /// won by forfeit).
    #[error(
        "round {round}: the results of players {player} ({code:?}) and {opponent} \
         ({opponent_code:?}) against each other contradict each other"
    )]
    ContradictoryResults {
        /// 1-based round.
        round: usize,
        /// Pairing numbers and result codes of the two players.
        player: usize,
        code: char,
        opponent: usize,
        opponent_code: char,
    },
    /// A player's score is not the sum of the results.
    #[error("the score of player {0} does not match the results")]
    ScoreMismatch(usize),
    /// The file has no players.
    #[error("the file has no players")]
    NoPlayers,
}

fn bad(line: usize, reason: impl Into<String>) -> TrfError {
    TrfError::BadLine {
        line,
        reason: reason.into(),
    }
}

fn field(chars: &[char], from: usize, to: usize) -> String {
    chars
        .get(from.min(chars.len())..to.min(chars.len()))
        .map(|s| s.iter().collect())
        .unwrap_or_default()
}

fn parse_number(text: &str, line: usize, what: &str) -> Result<Option<usize>, TrfError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    trimmed
        .parse::<usize>()
        .map(Some)
        .map_err(|_| bad(line, format!("{what} is not a number: {trimmed:?}")))
}

fn parse_points(text: &str, line: usize) -> Result<u32, TrfError> {
    let trimmed = text.trim();
    let (whole, tenth) = match trimmed.split_once('.') {
        Some((w, t)) => (w, t),
        None => (trimmed, "0"),
    };
    let whole: u32 = whole
        .parse()
        .map_err(|_| bad(line, format!("score is not a number: {trimmed:?}")))?;
    let tenth: u32 = match tenth {
        "" => 0,
        t if t.len() == 1 => t
            .parse()
            .map_err(|_| bad(line, format!("score is not a number: {trimmed:?}")))?,
        _ => {
            return Err(bad(
                line,
                format!("score has more than one decimal: {trimmed:?}"),
            ))
        }
    };
    whole
        .checked_mul(10)
        .and_then(|w| w.checked_add(tenth))
        .ok_or_else(|| bad(line, "score is too large"))
}

fn parse_entry(
    chars: &[char],
    start: usize,
    player: usize,
    line: usize,
) -> Result<Option<RoundEntry>, TrfError> {
    let opp = field(chars, start, start + 4);
    let color_char = chars.get(start + 5).copied().unwrap_or(' ');
    let code = chars.get(start + 7).copied().unwrap_or(' ');
    let round = (start - 91) / 10 + 1;
    let opponent = match opp.trim() {
        "" | "0000" | "0" => None,
        text => {
            let n: usize = text.parse().map_err(|_| {
                bad(
                    line,
                    format!("round {round}: opponent {text:?} is not a number"),
                )
            })?;
            if n == 0 || n == player {
                return Err(bad(line, format!("round {round}: player cannot meet {n}")));
            }
            Some(n)
        }
    };
    let color = match color_char {
        'w' | 'W' => Some(Color::White),
        'b' | 'B' => Some(Color::Black),
        '-' | ' ' => None,
        other => {
            return Err(bad(
                line,
                format!("round {round}: unknown colour {other:?}"),
            ))
        }
    };
    let upper = code.to_ascii_uppercase();
    if !"DH=+W1FU-L0Z ".contains(upper) {
        return Err(bad(line, format!("round {round}: unknown result {code:?}")));
    }
    if opp.trim().is_empty() && color_char == ' ' && code == ' ' {
        return Ok(None);
    }
    if opponent.is_none() && color.is_some() {
        return Err(bad(
            line,
            format!("round {round}: a colour without an opponent"),
        ));
    }
    if matches!(upper, 'H' | 'F' | 'U' | 'Z' | ' ') && opponent.is_some() {
        return Err(bad(line, format!("round {round}: a bye with an opponent")));
    }
    if matches!(upper, 'D' | '=' | 'W' | '1' | 'L' | '0')
        && color.is_none()
        && !(upper == '=' && opponent.is_none())
    {
        return Err(bad(
            line,
            format!("round {round}: a played game without a colour"),
        ));
    }
    Ok(Some(RoundEntry {
        opponent,
        color,
        code: upper,
    }))
}

fn parse_player(text: &str, line: usize) -> Result<TrfPlayer, TrfError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() < 84 {
        return Err(bad(line, "player line is shorter than 84 characters"));
    }
    let number = parse_number(&field(&chars, 4, 8), line, "pairing number")?
        .filter(|&n| n > 0)
        .ok_or_else(|| bad(line, "pairing number is missing or 0"))?;
    let rating = parse_number(&field(&chars, 48, 52), line, "rating")?.unwrap_or(0) as u32;
    let points = parse_points(&field(&chars, 80, 84), line)?;
    let rank = parse_number(&field(&chars, 85, 89), line, "rank")?.unwrap_or(0);
    let mut rounds = Vec::new();
    let mut blanks = 0;
    let mut start = 91;
    while start + 8 <= chars.len() {
        match parse_entry(&chars, start, number, line)? {
            None => blanks += 1,
            Some(entry) => {
                for _ in 0..blanks {
                    rounds.push(RoundEntry {
                        opponent: None,
                        color: None,
                        code: ' ',
                    });
                }
                blanks = 0;
                rounds.push(entry);
            }
        }
        start += 10;
    }
    if chars.len() > start && chars[start..].iter().any(|c| *c != ' ') {
        return Err(bad(line, "unexpected text after the last round"));
    }
    Ok(TrfPlayer {
        number,
        name: field(&chars, 9, 47).trim_end().to_string(),
        rating,
        points,
        rank,
        rounds,
    })
}

/// Parses a TRF file and checks that pairing numbers run 1..=n, that both
/// entries of every game agree, and that every score is the sum of its results
/// (a score may also include the result of an announced next-round bye).
pub fn parse(text: &str) -> Result<Tournament, TrfError> {
    let mut tournament = Tournament::default();
    let mut by_number: Vec<Option<TrfPlayer>> = Vec::new();
    for (index, raw) in text.split(['\n', '\r']).enumerate() {
        let line = index + 1;
        if raw.chars().count() < 3 {
            continue;
        }
        let prefix: String = raw.chars().take(3).collect();
        match prefix.as_str() {
            "001" => {
                let player = parse_player(raw, line)?;
                let number = player.number;
                if by_number.len() < number {
                    by_number.resize(number, None);
                }
                if by_number[number - 1].is_some() {
                    return Err(TrfError::RepeatedNumber(number));
                }
                by_number[number - 1] = Some(player);
            }
            "012" => {
                tournament.name = Some(raw.chars().skip(4).collect::<String>().trim().to_string())
            }
            "XXR" | "142" => {
                let rounds = parse_number(
                    &raw.chars().skip(3).collect::<String>(),
                    line,
                    "round count",
                )?
                .filter(|&r| r > 0)
                .ok_or_else(|| bad(line, "the number of rounds is missing or 0"))?;
                tournament.total_rounds = Some(rounds);
            }
            "XXC" => {
                for token in raw[3..].split_whitespace() {
                    match token {
                        "white1" => tournament.initial_color = Some(Color::White),
                        "black1" => tournament.initial_color = Some(Color::Black),
                        _ => {}
                    }
                }
            }
            "013" | "310" => return Err(bad(line, "team tournaments are not supported")),
            _ => {}
        }
    }
    for (index, slot) in by_number.into_iter().enumerate() {
        tournament
            .players
            .push(slot.ok_or(TrfError::MissingNumber(index + 1))?);
    }
    if tournament.players.is_empty() {
        return Err(TrfError::NoPlayers);
    }
    validate(&tournament)?;
    Ok(tournament)
}

fn validate(tournament: &Tournament) -> Result<(), TrfError> {
    let played = tournament
        .players
        .iter()
        .map(|p| {
            let paired = p
                .rounds
                .iter()
                .rposition(|e| e.participated())
                .map_or(0, |i| i + 1);
            paired.max(p.rounds.len().saturating_sub(1))
        })
        .max()
        .unwrap_or(0);
    for player in &tournament.players {
        for (round, entry) in player.rounds.iter().enumerate() {
            if !entry.game_played() && !matches!(entry.code, '+' | '-') {
                continue;
            }
            let Some(opponent) = entry.opponent else {
                continue;
            };
            let other = tournament
                .players
                .get(opponent - 1)
                .and_then(|o| o.rounds.get(round));
            let agrees = other.is_some_and(|o| {
                o.opponent == Some(player.number)
                    && (!entry.game_played() || (o.game_played() && o.color != entry.color))
            });
            if !agrees {
                return Err(TrfError::Inconsistent {
                    player: player.number,
                    round: round + 1,
                });
            }
            if let Some(o) = other.filter(|o| !results_agree(entry, o)) {
                return Err(TrfError::ContradictoryResults {
                    round: round + 1,
                    player: player.number,
                    code: entry.code,
                    opponent,
                    opponent_code: o.code,
                });
            }
        }
        let sum: u32 = player
            .rounds
            .iter()
            .take(played)
            .map(RoundEntry::points)
            .sum();
        let with_next = sum + player.rounds.get(played).map_or(0, RoundEntry::points);
        if player.points != sum && player.points != with_next {
            return Err(TrfError::ScoreMismatch(player.number));
        }
    }
    Ok(())
}

/// Whether the two entries of one game (or forfeit) can both hold: a game played over the
/// board is won by one and lost by the other, or drawn by both; a forfeit is won by at most
/// one of them (both may lose it: neither came).
fn results_agree(a: &RoundEntry, b: &RoundEntry) -> bool {
    if a.game_played() {
        return matches!(
            (a.outcome(), b.outcome()),
            (Outcome::Win, Outcome::Loss)
                | (Outcome::Loss, Outcome::Win)
                | (Outcome::Draw, Outcome::Draw)
        );
    }
    !(a.outcome() == Outcome::Win && b.outcome() == Outcome::Win)
}

fn format_points(points: u32) -> String {
    format!("{}.{}", points / 10, points % 10)
}

/// Writes the tournament back as TRF (player lines in pairing-number order).
pub fn write(tournament: &Tournament) -> String {
    let mut out = String::new();
    if let Some(name) = &tournament.name {
        out.push_str(&format!("012 {name}\n"));
    }
    for player in &tournament.players {
        let mut line = format!(
            "001 {:>4} {:<38} {:>4}",
            player.number,
            player.name,
            if player.rating == 0 {
                String::new()
            } else {
                player.rating.to_string()
            }
        );
        line.push_str(&" ".repeat(80 - line.chars().count().min(80)));
        line.push_str(&format!(
            "{:>4} {:>4}",
            format_points(player.points),
            if player.rank == 0 {
                String::new()
            } else {
                player.rank.to_string()
            }
        ));
        for entry in &player.rounds {
            let opponent = entry
                .opponent
                .map_or("0000".to_string(), |n| format!("{n:>4}"));
            let color = match entry.color {
                Some(Color::White) => 'w',
                Some(Color::Black) => 'b',
                None => '-',
            };
            if entry.opponent.is_none() && entry.code == ' ' {
                line.push_str("          ");
            } else {
                line.push_str(&format!("  {opponent} {color} {}", entry.code));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if let Some(rounds) = tournament.total_rounds {
        out.push_str(&format!("XXR {rounds}\n"));
    }
    match tournament.initial_color {
        Some(Color::White) => out.push_str("XXC white1\n"),
        Some(Color::Black) => out.push_str("XXC black1\n"),
        None => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "\
012 Club championship
001    1      Test0001 Player0001               2598                             1.0    1     2 w 1
001    2      Test0002 Player0002               2580                             0.0    2     1 b 0
001    3      Test0003 Player0003               2470                             1.0    3  0000 - U
XXR 5
";

    fn line_with_round(entry: &str) -> String {
        format!(
            "001    1      Test0001 Player0001               2598                             1.0    1{entry}\n\
             001    2      Test0002 Player0002               2580                             0.0    2     1 b 0\nXXR 5\n"
        )
    }

    #[test]
    fn reads_players_rounds_and_settings() {
        let t = parse(GOOD).expect("a well-formed file");
        assert_eq!(t.players.len(), 3);
        assert_eq!(t.total_rounds, Some(5));
        assert_eq!(t.name.as_deref(), Some("Club championship"));
        assert_eq!(t.players[0].points, 10);
        assert_eq!(t.players[0].rounds[0].opponent, Some(2));
        assert_eq!(t.players[0].rounds[0].color, Some(Color::White));
        assert!(t.players[2].rounds[0].is_pairing_bye());
        assert_eq!(t.rounds_played(), 1);
    }

    #[test]
    fn writing_and_reading_again_gives_the_same_tournament() {
        let t = parse(GOOD).expect("a well-formed file");
        let again = parse(&write(&t)).expect("its own output");
        assert_eq!(t, again);
    }

    #[test]
    fn reads_xxc_and_forfeits_and_byes() {
        let text = "\
001    1      A                                 2000                             1.0    1     2 w +  0000 - H
001    2      B                                 1900                             0.0    2     1 b -  0000 - Z
XXR 3
XXC black1
";
        let t = parse(text).expect("forfeits and byes");
        assert_eq!(t.initial_color, Some(Color::Black));
        let forfeit = t.players[0].rounds[0];
        assert!(!forfeit.game_played() && forfeit.participated());
        assert_eq!(t.players[0].rounds[1].outcome(), Outcome::Draw);
        assert_eq!(t.players[1].rounds[1].points(), 0);
    }

    #[test]
    fn malformed_input_is_an_error_not_a_panic() {
        let cases: Vec<(String, &str)> = vec![
            ("001    1      short line\n".to_string(), "shorter than 84"),
            (line_with_round("     x w 1"), "opponent"),
            (line_with_round("     2 q 1"), "colour"),
            (line_with_round("     2 w ?"), "result"),
            (line_with_round("     1 w 1"), "cannot meet"),
            (line_with_round("  0000 w U"), "colour without an opponent"),
            (line_with_round("     2 - 1"), "without a colour"),
            (line_with_round("     2 w H"), "bye with an opponent"),
            ("001    x      A                                 2000                             1.0    1\n".to_string(), "pairing number"),
            ("001    1      A                                 2000                             1,5    1\n".to_string(), "score"),
            ("XXR many\n".to_string(), "round count"),
            ("XXR 0\n".to_string(), "rounds is missing or 0"),
        ];
        for (text, expected) in cases {
            match parse(&text) {
                Err(TrfError::BadLine { reason, .. }) => {
                    assert!(
                        reason.contains(expected),
                        "{text:?}: {reason:?} lacks {expected:?}"
                    )
                }
                other => panic!("{text:?}: expected a bad line, got {other:?}"),
            }
        }
    }

    #[test]
    fn inconsistent_files_are_refused() {
        let repeated = "\
001    1      A                                 2000                             0.0    1
001    1      B                                 1900                             0.0    2
";
        assert_eq!(parse(repeated), Err(TrfError::RepeatedNumber(1)));
        let gap = "001    2      B                                 1900                             0.0    2\n";
        assert_eq!(parse(gap), Err(TrfError::MissingNumber(1)));
        assert_eq!(parse(""), Err(TrfError::NoPlayers));
        let disagree = "\
001    1      A                                 2000                             1.0    1     2 w 1
001    2      B                                 1900                             0.0    2     1 w 0
";
        assert_eq!(
            parse(disagree),
            Err(TrfError::Inconsistent {
                player: 1,
                round: 1
            })
        );
        // Issue 49, finding 15: both players won their forfeit against each other, or
        // both won the game played.
        let both_won_by_forfeit = "\
001    1      A                                 2000                             1.0    1     2 w +
001    2      B                                 1900                             1.0    2     1 b +
";
        let refused = parse(both_won_by_forfeit);
        assert_eq!(
            refused,
            Err(TrfError::ContradictoryResults {
                round: 1,
                player: 1,
                code: '+',
                opponent: 2,
                opponent_code: '+',
            })
        );
        let message = refused.unwrap_err().to_string();
        assert!(
            message.contains("round 1") && message.contains("players 1") && message.contains(" 2 "),
            "{message}"
        );
        let both_won = "\
001    1      A                                 2000                             1.0    1     2 w 1
001    2      B                                 1900                             1.0    2     1 b 1
";
        assert!(matches!(
            parse(both_won),
            Err(TrfError::ContradictoryResults { round: 1, .. })
        ));
        // Both absent (a double forfeit) is no contradiction.
        let neither_came = "\
001    1      A                                 2000                             0.0    1     2 w -
001    2      B                                 1900                             0.0    2     1 b -
XXR 3
";
        assert!(parse(neither_came).is_ok());
        let wrong_score = "\
001    1      A                                 2000                             0.5    1     2 w 1
001    2      B                                 1900                             0.0    2     1 b 0
";
        assert_eq!(parse(wrong_score), Err(TrfError::ScoreMismatch(1)));
    }

    #[test]
    fn non_ascii_names_do_not_break_columns() {
        let text = "\
001    1      Әлиев Нұрлан                      2000                             0.0    1
001    2      B                                 1900                             0.0    2
XXR 3
";
        let t = parse(text).expect("names in Kazakh");
        assert_eq!(t.players[0].rating, 2000);
        assert_eq!(t.players[0].name.trim(), "Әлиев Нұрлан");
    }
}
