//! Shared presentation for every adapter: the words and buttons around a board, in the
//! viewer's language. Adapters draw these with their own widgets (inline keyboards, message
//! components, console lines); the board itself comes from `render` via [`board_view`].
//!
//! For a message that both players see (a group chat), pass the player to move as the
//! viewer of [`pit_buttons`], so the pits shown are the ones that can be played.

use crate::i18n::{words, Lang};
use crate::manager::buttons::Button;
use crate::manager::{
    ActionError, ChallengeStatus, ChallengeView, FinishReason, GameStatus, GameView, LimitKind,
    Player, UserRef,
};
use crate::render::BoardView;
use crate::rules::{EndReason, MoveError, MoveReport, Side, TuzdekRule, Variant};
use crate::t;

/// A button with its label, ready for any widget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabeledButton {
    pub button: Button,
    pub label: String,
    pub enabled: bool,
}

/// The board for `viewer` (their row at the bottom; White's for a spectator).
pub fn board_view(view: &GameView, viewer: Option<&UserRef>, lang: Lang) -> BoardView {
    BoardView {
        position: view.position,
        last_move: view.last_move,
        names: Side::BOTH.map(|s| player_name(view.player(s), lang)),
        perspective: viewer.and_then(|v| view.side_of(v)).unwrap_or(Side::White),
        lang,
        result_line: result_text(view, lang),
    }
}

/// "White" / "Black" in `lang`.
pub fn side_name(side: Side, lang: Lang) -> String {
    words::side_name(lang, side)
}

/// A player's display name; the bot is named with its level.
pub fn player_name(player: &Player, lang: Lang) -> String {
    match player {
        Player::Human(user) => user.name.clone(),
        Player::Bot(level) => t!(
            lang,
            "manager-bot-name",
            level = words::level_name(lang, *level)
        ),
    }
}

/// The variant in words: "standard game", "5 per pit, no tuzdeks".
pub fn variant_text(variant: Variant, lang: Lang) -> String {
    if variant.is_standard() {
        return t!(lang, "manager-variant-standard");
    }
    let mut parts = Vec::new();
    if variant.balls_per_pit() != Variant::STANDARD.balls_per_pit() {
        parts.push(t!(
            lang,
            "manager-variant-balls",
            count = variant.balls_per_pit()
        ));
    }
    match variant.tuzdek_rule() {
        TuzdekRule::Standard => {}
        TuzdekRule::Off => parts.push(t!(lang, "manager-variant-no-tuzdek")),
        TuzdekRule::NinthAllowed => parts.push(t!(lang, "manager-variant-ninth-tuzdek")),
    }
    parts.join(", ")
}

/// The result of a finished game, as two sentences: who won, and why.
pub fn result_text(view: &GameView, lang: Lang) -> Option<String> {
    let GameStatus::Finished { winner, reason } = view.status else {
        return None;
    };
    let name = |side: Side| player_name(view.player(side), lang);
    let headline = match (winner, reason) {
        (_, FinishReason::Aborted) => t!(lang, "manager-result-aborted"),
        (Some(side), _) => t!(
            lang,
            "manager-result-win",
            name = name(side),
            side = side_name(side, lang)
        ),
        (None, _) => t!(lang, "manager-result-draw"),
    };
    let why = match reason {
        FinishReason::Board(EndReason::Kazan) => Some(t!(lang, "manager-reason-kazan")),
        FinishReason::Board(EndReason::EqualKazans) => Some(t!(
            lang,
            "manager-reason-equal-kazans",
            balls = words::balls(lang, view.variant.drawing_store().into())
        )),
        FinishReason::Board(EndReason::Atsyrau) => Some(t!(lang, "manager-reason-atsyrau")),
        FinishReason::Resigned(side) => {
            Some(t!(lang, "manager-reason-resigned", name = name(side)))
        }
        FinishReason::Agreed => Some(t!(lang, "manager-reason-agreed")),
        FinishReason::TimedOut(side) => Some(t!(lang, "manager-reason-timeout", name = name(side))),
        FinishReason::Aborted => None,
    };
    Some(match why {
        Some(why) => format!("{headline} {why}"),
        None => headline,
    })
}

/// The lines under a board: the game, the score, the last move, then whose turn (with the
/// deadline and any draw offer) or the result.
pub fn caption(view: &GameView, lang: Lang) -> String {
    let mut lines = vec![
        t!(lang, "manager-game-title", id = view.id.as_str()),
        t!(
            lang,
            "manager-score",
            white = view.position.store(Side::White),
            black = view.position.store(Side::Black)
        ),
    ];
    if let Some(last) = &view.last_move {
        lines.push(move_line(view, last, lang, false));
    }
    if let Some(previous) = &view.previous_move {
        lines.push(move_line(view, previous, lang, true));
    }
    if let Some(result) = result_text(view, lang) {
        lines.push(result);
        return lines.join("\n");
    }
    let side = view.position.to_move();
    lines.push(t!(
        lang,
        "manager-turn",
        side = side_name(side, lang),
        name = player_name(view.player(side), lang)
    ));
    if let Some(offerer) = view.draw_offer {
        lines.push(t!(
            lang,
            "manager-draw-offered",
            name = player_name(view.player(offerer), lang)
        ));
    }
    lines.join("\n")
}

/// "Last move: Alice, 76, took 10", or for the move before it "Before that: ...".
fn move_line(view: &GameView, report: &MoveReport, lang: Lang, previous: bool) -> String {
    let name = player_name(view.player(report.side), lang);
    let mv = report.notation().to_string();
    let balls = words::balls(lang, report.captured.into());
    match (previous, report.is_capture()) {
        (false, false) => t!(lang, "manager-last-move", name = name, move = mv),
        (false, true) => {
            t!(lang, "manager-last-move-capture", name = name, move = mv, balls = balls)
        }
        (true, false) => t!(lang, "manager-previous-move", name = name, move = mv),
        (true, true) => {
            t!(lang, "manager-previous-move-capture", name = name, move = mv, balls = balls)
        }
    }
}

/// A line saying how long the player to move has, for games between people.
pub fn deadline_text(view: &GameView, lang: Lang) -> Option<String> {
    let deadline = view.timeout_at?;
    if view.against_bot() {
        return None;
    }
    let hours = deadline.saturating_sub(view.last_move_at).div_ceil(3600);
    Some(t!(lang, "manager-deadline", hours = hours))
}

/// The text of a challenge message, by its status.
pub fn challenge_text(view: &ChallengeView, lang: Lang) -> String {
    let challenger = view.challenger.name.as_str();
    let opponent = view.opponent.as_ref().map(|o| o.name.as_str());
    let variant = variant_text(view.variant, lang);
    match &view.status {
        ChallengeStatus::Open => {
            let invite = match (opponent, &view.rematch_of) {
                (Some(o), Some(_)) => t!(
                    lang,
                    "manager-challenge-rematch",
                    challenger = challenger,
                    opponent = o
                ),
                (Some(o), None) => t!(
                    lang,
                    "manager-challenge-to",
                    challenger = challenger,
                    opponent = o,
                    variant = variant
                ),
                (None, _) => t!(
                    lang,
                    "manager-challenge-open",
                    challenger = challenger,
                    variant = variant
                ),
            };
            let minutes = view
                .expires_at
                .saturating_sub(crate::manager::Clock::System.now())
                .div_ceil(60);
            if minutes > 0 {
                let expires = t!(lang, "manager-challenge-expires", minutes = minutes);
                format!("{invite}\n{expires}")
            } else {
                invite
            }
        }
        ChallengeStatus::Accepted(game) => {
            t!(lang, "manager-challenge-accepted", id = game.as_str())
        }
        ChallengeStatus::Declined => t!(
            lang,
            "manager-challenge-declined",
            opponent = opponent.unwrap_or_default()
        ),
        ChallengeStatus::Expired => t!(lang, "manager-challenge-expired"),
        ChallengeStatus::Cancelled => {
            t!(lang, "manager-challenge-cancelled", challenger = challenger)
        }
    }
}

/// Why an action was refused, for the user.
pub fn error_text(err: &ActionError, lang: Lang) -> String {
    match err {
        ActionError::NotYourTurn => t!(lang, "manager-error-not-your-turn"),
        ActionError::NotYourGame => t!(lang, "manager-error-not-your-game"),
        ActionError::NotForYou => t!(lang, "manager-error-not-for-you"),
        ActionError::StaleBoard => t!(lang, "manager-error-stale"),
        ActionError::Illegal(MoveError::NoSuchPit(pit)) => {
            t!(lang, "manager-error-no-such-pit", pit = *pit)
        }
        ActionError::Illegal(MoveError::EmptyPit(pit)) => {
            t!(lang, "manager-error-empty-pit", pit = *pit)
        }
        ActionError::Illegal(MoveError::TuzdekPit(pit)) => {
            t!(lang, "manager-error-tuzdek-pit", pit = *pit)
        }
        ActionError::Illegal(MoveError::GameOver) | ActionError::GameOver => {
            t!(lang, "manager-error-game-over")
        }
        ActionError::NoSuchGame => t!(lang, "manager-error-no-such-game"),
        ActionError::NoSuchChallenge => t!(lang, "manager-error-no-such-challenge"),
        ActionError::ChallengeClosed => t!(lang, "manager-error-challenge-closed"),
        ActionError::ChallengeSelf => t!(lang, "manager-error-challenge-self"),
        ActionError::ChallengeBot => t!(lang, "manager-error-challenge-bot"),
        ActionError::Limit(kind) => limit_text(*kind, lang),
        ActionError::GameNotOver => t!(lang, "manager-error-game-not-over"),
        ActionError::NoGameHere => t!(lang, "manager-error-no-game-here"),
        ActionError::AmbiguousGame => t!(lang, "manager-error-ambiguous"),
        ActionError::TooLateToAbort => t!(lang, "manager-error-too-late-to-abort"),
        ActionError::DrawAlreadyOffered => t!(lang, "manager-error-draw-already-offered"),
        ActionError::NoDrawOffer => t!(lang, "manager-error-no-draw-offer"),
        ActionError::BotDeclinesDraw => t!(lang, "manager-error-bot-declines-draw"),
        ActionError::RematchExists => t!(lang, "manager-error-rematch-exists"),
        ActionError::Storage(_) => t!(lang, "manager-error-storage"),
    }
}

fn limit_text(kind: LimitKind, lang: Lang) -> String {
    match kind {
        LimitKind::UserChallenges(n) => t!(lang, "manager-error-limit-user-challenges", count = n),
        LimitKind::ChatChallenges(n) => t!(lang, "manager-error-limit-chat-challenges", count = n),
        LimitKind::UserGames(n) => t!(lang, "manager-error-limit-user-games", count = n),
        LimitKind::ChatGames(n) => t!(lang, "manager-error-limit-chat-games", count = n),
    }
}

/// The label of a pit button: `7 · 12`.
pub fn pit_label(pit: u8, balls: u8) -> String {
    format!("{pit} · {balls}")
}

/// The nine pit buttons of `viewer`'s row, legal moves enabled.
pub fn pit_buttons(view: &GameView, viewer: Option<&UserRef>) -> Vec<LabeledButton> {
    let actions = view.actions_for(viewer);
    actions
        .pits
        .iter()
        .map(|p| LabeledButton {
            button: Button::Move {
                game: view.id.clone(),
                ply: actions.ply,
                pit: p.pit,
            },
            label: pit_label(p.pit, p.balls),
            enabled: p.enabled,
        })
        .collect()
}

/// The other buttons `viewer` may press now (resign, draw, abort, rematch). With `viewer`
/// `None` (a message both players see), every button either player could press.
pub fn action_buttons(view: &GameView, viewer: Option<&UserRef>, lang: Lang) -> Vec<LabeledButton> {
    let a = match viewer {
        Some(_) => view.actions_for(viewer),
        None => {
            let mut both = Side::BOTH
                .iter()
                .filter_map(|s| view.player(*s).user())
                .map(|u| view.actions_for(Some(u)));
            let first = both.next().unwrap_or_else(|| view.actions_for(None));
            both.fold(first, |mut acc, b| {
                acc.resign |= b.resign;
                acc.offer_draw |= b.offer_draw;
                acc.accept_draw |= b.accept_draw;
                acc.decline_draw |= b.decline_draw;
                acc.abort |= b.abort;
                acc.rematch |= b.rematch;
                acc
            })
        }
    };
    let game = view.id.clone();
    let ply = view.ply;
    let mut out = Vec::new();
    let mut add = |on: bool, button: Button, label: String| {
        if on {
            out.push(LabeledButton {
                button,
                label,
                enabled: true,
            });
        }
    };
    add(
        a.accept_draw,
        Button::AcceptDraw { game: game.clone() },
        t!(lang, "manager-button-accept-draw"),
    );
    add(
        a.decline_draw,
        Button::DeclineDraw { game: game.clone() },
        t!(lang, "manager-button-decline-draw"),
    );
    add(
        a.offer_draw,
        Button::OfferDraw {
            game: game.clone(),
            ply,
        },
        t!(lang, "manager-button-offer-draw"),
    );
    add(
        a.abort,
        Button::Abort { game: game.clone() },
        t!(lang, "manager-button-abort"),
    );
    add(
        a.resign,
        Button::Resign {
            game: game.clone(),
            ply,
        },
        t!(lang, "manager-button-resign"),
    );
    add(
        a.rematch,
        Button::Rematch { game },
        t!(lang, "manager-button-rematch"),
    );
    out
}

/// Accept / decline / withdraw buttons of an open challenge (everyone sees the same
/// message; the manager checks who pressed).
pub fn challenge_buttons(view: &ChallengeView, lang: Lang) -> Vec<LabeledButton> {
    if !view.is_open() {
        return Vec::new();
    }
    let id = view.id.clone();
    let mut out = vec![LabeledButton {
        button: Button::AcceptChallenge {
            challenge: id.clone(),
        },
        label: t!(lang, "manager-button-accept"),
        enabled: true,
    }];
    if view.opponent.is_some() {
        out.push(LabeledButton {
            button: Button::DeclineChallenge {
                challenge: id.clone(),
            },
            label: t!(lang, "manager-button-decline"),
            enabled: true,
        });
    }
    out.push(LabeledButton {
        button: Button::CancelChallenge { challenge: id },
        label: t!(lang, "manager-button-cancel"),
        enabled: true,
    });
    out
}

/// The list of a user's ongoing games.
pub fn games_text(views: &[GameView], lang: Lang) -> String {
    if views.is_empty() {
        return t!(lang, "manager-games-none");
    }
    let mut lines = vec![t!(lang, "manager-games-header")];
    for v in views {
        lines.push(t!(
            lang,
            "manager-games-line",
            id = v.id.as_str(),
            white = player_name(v.player(Side::White), lang),
            black = player_name(v.player(Side::Black), lang),
            number = v.position.fullmove()
        ));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Level;
    use crate::manager::{ChatRef, Platform};
    use crate::rules::Position;

    fn user(id: &str) -> UserRef {
        UserRef::new(Platform::Telegram, id, id.to_uppercase())
    }

    fn view() -> GameView {
        let mut position = Position::default();
        let report = position.play(7).ok();
        let players = [Player::Human(user("a")), Player::Bot(Level::Easy)];
        let chat = ChatRef::new(Platform::Telegram, "c");
        GameView {
            position,
            ply: 1,
            last_move: report,
            moves: "1. 76".into(),
            timeout_at: Some(72 * 3600),
            ..GameView::sample("abc123", chat, players)
        }
    }

    #[test]
    fn captions_name_the_turn_and_the_last_move_in_each_language() {
        let v = view();
        let en = caption(&v, Lang::En);
        assert!(en.contains("Black to move: Bot (easy)"), "{en}");
        assert!(en.contains("Last move: A, 76"), "{en}");
        let ru = caption(&v, Lang::Ru);
        assert!(ru.contains("Ходят Чёрные: Бот (лёгкий)"), "{ru}");
        let kk = caption(&v, Lang::Kk);
        assert!(kk.contains("Қара"), "{kk}");
        assert!(kk.contains("Қазандар"), "{kk}");
    }

    #[test]
    fn results_say_who_won_and_why() {
        let mut v = view();
        v.status = GameStatus::Finished {
            winner: Some(Side::Black),
            reason: FinishReason::Resigned(Side::White),
        };
        let text = result_text(&v, Lang::En).unwrap();
        assert_eq!(text, "Bot (easy) (Black) wins. A resigned.");
        assert!(caption(&v, Lang::Ru).contains("A сдаётся."));
        v.status = GameStatus::Finished {
            winner: None,
            reason: FinishReason::Board(EndReason::EqualKazans),
        };
        assert_eq!(
            result_text(&v, Lang::Ru).unwrap(),
            "Партия закончилась вничью. В обоих казанах по 81 шар."
        );
        assert!(board_view(&v, None, Lang::En).result_line.is_some());
    }

    #[test]
    fn every_error_has_text_in_every_language() {
        let errors = [
            ActionError::NotYourTurn,
            ActionError::StaleBoard,
            ActionError::Illegal(MoveError::EmptyPit(3)),
            ActionError::Limit(LimitKind::UserGames(5)),
            ActionError::Storage("disk".into()),
        ];
        for lang in Lang::ALL {
            for e in &errors {
                let text = error_text(e, lang);
                assert!(!text.starts_with("manager-"), "{lang}: {text}");
                assert!(!text.contains("disk"), "internal detail leaked: {text}");
            }
        }
        assert_eq!(
            error_text(&ActionError::Limit(LimitKind::UserGames(5)), Lang::Ru),
            "Вы уже играете 5 партий одновременно. Сначала закончите одну из них."
        );
    }

    #[test]
    fn buttons_carry_game_and_ply() {
        let v = view();
        let pits = pit_buttons(&v, None);
        assert_eq!(pits.len(), 9);
        assert!(pits.iter().all(|b| !b.enabled), "a spectator cannot move");
        let mine = action_buttons(&v, Some(&user("a")), Lang::En);
        assert!(mine.iter().any(|b| b.button
            == Button::Resign {
                game: "abc123".into(),
                ply: 1
            }));
        assert_eq!(pit_label(7, 12), "7 · 12");
        assert_eq!(
            variant_text(Variant::new(5, TuzdekRule::Off).unwrap(), Lang::En),
            "5 per pit, no tuzdeks"
        );
    }
}
