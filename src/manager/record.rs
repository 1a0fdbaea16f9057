//! A game's record as a PGN-style file (the format `toguz replay` reads), for `/record`,
//! `toguz export` and the console's `record`.

use super::ended::Ended;
use super::{FinishReason, GameRecord, GameStatus, Player};
use crate::ratings::dates::record_date;
use crate::rules::{write_record, EndReason, Position, RecordResult, Side};

/// The `[Termination]` header: how the game ended.
pub fn termination(status: &GameStatus) -> &'static str {
    match status {
        GameStatus::Ongoing => "unterminated",
        GameStatus::Finished { reason, .. } => match reason {
            FinishReason::Board(EndReason::Kazan) => "kazan",
            FinishReason::Board(EndReason::EqualKazans) => "equal kazans",
            FinishReason::Board(EndReason::Atsyrau) => "atsyrau",
            FinishReason::Resigned(_) => "resignation",
            FinishReason::Agreed => "agreement",
            FinishReason::TimedOut(_) => "time forfeit",
            FinishReason::FirstMoveMissed(_) => "aborted",
            FinishReason::Aborted => "aborted",
            FinishReason::Forfeited(_) => "forfeit",
        },
    }
}

fn result(status: &GameStatus) -> RecordResult {
    match status {
        GameStatus::Finished {
            reason: FinishReason::Aborted | FinishReason::FirstMoveMissed(_),
            ..
        }
        | GameStatus::Ongoing => RecordResult::Unknown,
        GameStatus::Finished { winner, .. } => RecordResult::from_winner(*winner),
    }
}

/// A player's name in a record: the display name at the time, or the bot and its level.
pub fn player_name(player: &Player) -> String {
    match player {
        Player::Human(u) => crate::model::names::clean_name(&u.name),
        Player::Bot(level) => format!("toguz bot ({})", level.name()),
    }
}

/// The record of a game: headers (players, date, result, termination, variant, ratings,
/// platform) and the move text. A record whose moves do not replay (corrupt) is an error.
pub fn record_text(rec: &GameRecord) -> Result<String, String> {
    let start = Position::start(rec.variant);
    let mut pos = start;
    let mut reports = Vec::with_capacity(rec.moves.len());
    for (i, &pit) in rec.moves.iter().enumerate() {
        reports.push(
            pos.play(pit)
                .map_err(|e| format!("move {} (pit {pit}): {e}", i + 1))?,
        );
    }
    let ended = rec.ended.unwrap_or_default();
    let date = if rec.ended.is_some() {
        ended.at
    } else {
        rec.last_move_at
    };
    let mut headers: Vec<(String, String)> = vec![
        (
            "Event".into(),
            if rec.rated {
                "Rated game"
            } else {
                "Casual game"
            }
            .into(),
        ),
        ("Site".into(), format!("toguz {}", rec.chat.platform.name())),
        ("Date".into(), record_date(date)),
        ("Game".into(), rec.id.clone()),
        ("White".into(), player_name(&rec.players[0])),
        ("Black".into(), player_name(&rec.players[1])),
        ("Result".into(), result(&rec.status).as_str().into()),
        ("Termination".into(), termination(&rec.status).into()),
        ("Variant".into(), crate::rules::variant_text(rec.variant)),
    ];
    if let Some(secs) = rec.time_control.move_secs() {
        // Days per move: one move per period (`1/172800`), in the correspondence category.
        headers.push(("TimeControl".into(), rec.time_control.pgn(secs)));
        let category = rec.time_control.category().name();
        headers.push(("TimeCategory".into(), category.into()));
    }
    rating_headers(&ended, &mut headers);
    if rec.hints > 0 {
        // A game played with the engine's help says so (docs/review.md, *Hints*).
        headers.push(("Hints".into(), rec.hints.to_string()));
    }
    Ok(write_record(
        &headers,
        start,
        &reports,
        Some(result(&rec.status)),
        false,
    ))
}

fn rating_headers(ended: &Ended, headers: &mut Vec<(String, String)>) {
    for side in Side::BOTH {
        let Some(change) = ended.ratings[side.index()] else {
            continue;
        };
        let name = if side == Side::White {
            "White"
        } else {
            "Black"
        };
        headers.push((
            format!("{name}Rating"),
            format!("{}", change.before.rating.round() as i64),
        ));
        headers.push((format!("{name}RatingDiff"), format!("{:+}", change.delta())));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ChatRef, Platform, UserRef};
    use crate::ratings::{Rating, RatingChange};
    use crate::rules::{parse_record, replay, Variant};

    fn rec(moves: Vec<u8>, status: GameStatus) -> GameRecord {
        GameRecord {
            id: "g1".into(),
            chat: ChatRef::new(Platform::Telegram, "-100"),
            variant: Variant::STANDARD,
            players: [
                Player::Human(UserRef::new(Platform::Telegram, "1", "Ab \"Ek\"")),
                Player::Bot(crate::model::Level::Easy),
            ],
            moves,
            status,
            draw_offer: None,
            created_at: 1_796_083_200,
            last_move_at: 1_796_083_260,
            messages: vec![],
            seed: 1,
            rematch: None,
            time_control: Default::default(),
            clock: None,
            rated: true,
            ended: Some(Ended {
                at: 1_796_083_300,
                ratings: [
                    Some(RatingChange {
                        before: Rating::default(),
                        after: Rating {
                            rating: 1662.3,
                            ..Rating::default()
                        },
                    }),
                    None,
                ],
            }),
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
    fn a_resigned_game_writes_a_record_that_replays() {
        let status = GameStatus::Finished {
            winner: Some(Side::Black),
            reason: FinishReason::Resigned(Side::White),
        };
        let text = record_text(&rec(vec![7, 9, 6], status)).unwrap();
        for line in [
            "[Date \"2026.12.01\"]",
            "[Result \"0-1\"]",
            "[Termination \"resignation\"]",
            "[WhiteRating \"1500\"]",
            "[WhiteRatingDiff \"+162\"]",
            "[White \"Ab 'Ek'\"]",
        ] {
            assert!(text.contains(line), "{line} missing in\n{text}");
        }
        let parsed = parse_record(&text).unwrap();
        let plies = replay(&parsed, parsed.start_position().unwrap()).unwrap();
        assert_eq!(plies.len(), 3);
        assert!(text.trim_end().ends_with("0-1"), "{text}");
    }

    #[test]
    fn an_aborted_game_has_no_result() {
        let status = GameStatus::Finished {
            winner: None,
            reason: FinishReason::Aborted,
        };
        let text = record_text(&rec(vec![], status)).unwrap();
        assert!(text.contains("[Result \"*\"]") && text.contains("[Termination \"aborted\"]"));
        assert!(parse_record(&text).is_ok(), "{text}");
    }

    #[test]
    fn a_game_with_hints_says_so_and_still_replays() {
        let status = GameStatus::Finished {
            winner: Some(Side::Black),
            reason: FinishReason::Resigned(Side::White),
        };
        let plain = record_text(&rec(vec![7, 9], status)).unwrap();
        assert!(!plain.contains("[Hints"), "{plain}");
        let mut helped = rec(vec![7, 9], status);
        helped.hints = 2;
        let text = record_text(&helped).unwrap();
        assert!(text.contains("[Hints \"2\"]"), "{text}");
        let parsed = parse_record(&text).unwrap();
        assert_eq!(parsed.header("Hints"), Some("2"));
        assert_eq!(
            replay(&parsed, parsed.start_position().unwrap())
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn a_game_with_days_per_move_writes_its_time_control() {
        let status = GameStatus::Finished {
            winner: Some(Side::Black),
            reason: FinishReason::TimedOut(Side::White),
        };
        let plain = record_text(&rec(vec![7, 9], status)).unwrap();
        assert!(!plain.contains("[TimeControl"), "{plain}");
        let mut days = rec(vec![7, 9], status);
        days.time_control = crate::model::TimeControl::Days(2);
        let text = record_text(&days).unwrap();
        assert!(text.contains("[TimeControl \"1/172800\"]"), "{text}");
        assert!(text.contains("[TimeCategory \"correspondence\"]"), "{text}");
        assert!(text.contains("[Termination \"time forfeit\"]"), "{text}");
        let parsed = parse_record(&text).unwrap();
        assert_eq!(
            parsed.time_control(),
            Some(crate::model::TimeControl::Days(2))
        );
        assert_eq!(
            replay(&parsed, parsed.start_position().unwrap())
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn a_corrupt_move_list_is_an_error() {
        assert!(record_text(&rec(vec![7, 0], GameStatus::Ongoing)).is_err());
    }
}
