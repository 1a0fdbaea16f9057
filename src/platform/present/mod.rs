//! Shared presentation for every adapter: the words and buttons around a board, in the
//! viewer's language. Adapters draw these with their own widgets (inline keyboards, message
//! components, console lines); the board itself comes from `render` via [`board_view`].
//!
//! For a message that both players see (a group chat), pass the player to move as the
//! viewer of [`pit_buttons`], so the pits shown are the ones that can be played.
//!
//! Files: this one holds the board's words and buttons; `clock` the clocks' texts, `review`
//! reviews and hints, `history_text` the texts of `/history`, `/stats`, `/leaderboard` and
//! `/record`, `names` how players are named (used by all the others).

use crate::i18n::{words, Lang};
use crate::manager::buttons::Button;
use crate::manager::puzzles::PuzzleError;
use crate::manager::tournament::TournamentError;
use crate::manager::{
    ActionError, ChallengeStatus, ChallengeView, FinishReason, GameStatus, GameView, LimitKind,
    Manager, MessageRef, Player, Target,
};
use crate::model::{Category, TimeControl, UserRef};
use crate::render::BoardView;
use crate::rules::{EndReason, MoveError, MoveReport, Side, TuzdekRule, Variant};
use crate::t;

pub mod alerts;
mod clock;
pub mod explorer;
pub mod explorer_chat;
pub mod history_text;
mod link;
mod names;
pub mod premoves;
pub mod puzzle;
pub mod review;
pub mod tournament;
pub mod web;
pub mod web_explorer;
pub mod web_play;
pub mod web_player;
pub mod web_tournament;

pub use clock::{
    clock_lines, ended_on_time, span_text, time_control_error, time_control_name,
    time_control_text, ClockStyle,
};
pub use link::{login_answer, login_private_only, logout_done, page_button, page_line, LinkButton};
pub use names::{plain_player_name, player_name, user_name};

/// The longest label of a word button (resign, draw, accept, a level...), in characters:
/// Telegram puts three in a row, and a longer label is cut on a phone. Every language's
/// catalog is held to it by a test.
pub const MAX_BUTTON_LABEL: usize = 14;

/// A button with its label, ready for any widget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabeledButton {
    pub button: Button,
    pub label: String,
    pub enabled: bool,
}

/// Whose side a game's board is drawn from, on every platform: the person to move, else a
/// person playing (the human of a game against the bot); `None` (White's side) when no
/// person plays.
pub fn viewer(view: &GameView) -> Option<&UserRef> {
    match view.to_move_player() {
        Some(Player::Human(u)) => Some(u),
        _ => view.players.iter().find_map(Player::user),
    }
}

/// Whether `view` shows its game as it was before `than` does: the one order of a game's
/// boards on every adapter (the game's version counts its durable changes), so a board
/// never goes back to an older position, whatever order the views arrived in.
pub fn is_older(view: &GameView, than: &GameView) -> bool {
    view.version < than.version
}

/// The language a game's board speaks, on every platform: its [`viewer`]'s, as the
/// manager put it into the view (the language they chose, else their app's), English when
/// no person plays. Chats have no language setting of their own, and a board does not
/// change language with whoever pressed a button last. Answers meant for one person (an
/// error, a list) speak that person's language instead.
pub fn board_lang(view: &GameView) -> Lang {
    match viewer(view).and_then(|user| view.side_of(user)) {
        Some(side) => view.langs[side.index()],
        None => Lang::default(),
    }
}

/// Whether a refused press is about the person who pressed (not their turn, not their game,
/// not their challenge) rather than the game, or leaves its outcome open (the database did
/// not confirm a write): those are shown so they must be noticed (an alert on Telegram); the
/// rest pass as a short notice.
pub fn is_alert(err: &ActionError) -> bool {
    matches!(
        err,
        ActionError::NotYourTurn
            | ActionError::NotYourGame
            | ActionError::NotForYou
            | ActionError::NotYourChallenge
            | ActionError::Puzzle(PuzzleError::NotYours)
            | ActionError::OutcomeUnknown(_)
    )
}

/// Remembers that `message` shows `target`, posted for `by` (`None`: of the bot's own
/// accord; someone who does not play the game: a spectator's board, kept apart). A failure
/// is logged and otherwise let go: the message is shown already, and only a later edit of
/// it will be missed (`/board` posts a fresh one).
pub async fn attach(manager: &Manager, target: Target, message: MessageRef, by: Option<&UserRef>) {
    if let Err(error) = manager
        .attach_message(target.clone(), message.clone(), by)
        .await
    {
        tracing::warn!(?target, message = message.id, %error, "message not attached");
    }
}

/// The board for `viewer` (their row at the bottom; White's for a spectator).
pub fn board_view(view: &GameView, viewer: Option<&UserRef>, lang: Lang) -> BoardView {
    BoardView {
        position: view.position,
        last_move: view.last_move,
        names: Side::BOTH.map(|s| plain_player_name(view.player(s), lang)),
        perspective: viewer.and_then(|v| view.side_of(v)).unwrap_or(Side::White),
        lang,
        result_line: result_text_plain(view, lang),
        hint: None,
    }
}

/// "White" / "Black" in `lang`.
pub fn side_name(side: Side, lang: Lang) -> String {
    words::side_name(lang, side)
}

/// The terms of a game in words: "5 per pit, no tuzdeks, 3+2, rated" (the time control left
/// out when none was named, or none is kept).
pub fn terms_text(variant: Variant, time: Option<TimeControl>, rated: bool, lang: Lang) -> String {
    let mut terms = variant_text(variant, lang);
    let time = time.map(|time| time_control_text(time, lang));
    if let Some(time) = time.filter(|t| !t.is_empty()) {
        terms = format!("{terms}, {time}");
    }
    let rated = match rated {
        true => t!(lang, "manager-terms-rated"),
        false => t!(lang, "manager-terms-unrated"),
    };
    format!("{terms}, {rated}")
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
    result_text_named(view, lang, player_name)
}

/// `result_text` for an image: the names without markup escapes.
pub fn result_text_plain(view: &GameView, lang: Lang) -> Option<String> {
    result_text_named(view, lang, plain_player_name)
}

fn result_text_named(view: &GameView, lang: Lang, names: NameOf) -> Option<String> {
    let headline = result_headline_named(view, lang, names)?;
    Some(match result_reason_named(view, lang, names) {
        Some(why) => format!("{headline} {why}"),
        None => headline,
    })
}

/// How a text names a player: `player_name` or `plain_player_name`.
type NameOf = fn(&Player, Lang) -> String;

/// Who won a finished game ("Black wins: Bot (easy)."), a draw, or the abort.
pub fn result_headline(view: &GameView, lang: Lang) -> Option<String> {
    result_headline_named(view, lang, player_name)
}

fn result_headline_named(view: &GameView, lang: Lang, player_name: NameOf) -> Option<String> {
    let GameStatus::Finished { winner, reason } = view.status else {
        return None;
    };
    Some(match (winner, reason) {
        (_, FinishReason::Aborted | FinishReason::FirstMoveMissed(_)) => {
            t!(lang, "manager-result-aborted")
        }
        // The side is a selector: each language words "White wins" its own way.
        (Some(side), _) => t!(
            lang,
            "manager-result-win",
            name = player_name(view.player(side), lang),
            side = side.name()
        ),
        (None, _) => t!(lang, "manager-result-draw"),
    })
}

/// Why a finished game ended ("A resigned."); for an aborted game between people, that it
/// has no result; nothing for one against the bot.
pub fn result_reason(view: &GameView, lang: Lang) -> Option<String> {
    result_reason_named(view, lang, player_name)
}

fn result_reason_named(view: &GameView, lang: Lang, player_name: NameOf) -> Option<String> {
    let GameStatus::Finished { reason, .. } = view.status else {
        return None;
    };
    let name = |side: Side| player_name(view.player(side), lang);
    match reason {
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
        // A timed game's flag fell; a correspondence game's move time ran out.
        FinishReason::TimedOut(side) if view.clock.is_some() => {
            Some(t!(lang, "manager-reason-flag", name = name(side)))
        }
        FinishReason::TimedOut(side) => Some(t!(lang, "manager-reason-timeout", name = name(side))),
        FinishReason::FirstMoveMissed(side) => {
            Some(t!(lang, "manager-reason-first-move", name = name(side)))
        }
        FinishReason::Forfeited(side) => {
            Some(t!(lang, "manager-reason-forfeited", name = name(side)))
        }
        // Between people an abort is also what a resignation, a draw or a time-out becomes
        // before both sides moved: say that it counts for nothing.
        FinishReason::Aborted if view.players.iter().all(|p| !p.is_bot()) => {
            Some(t!(lang, "manager-reason-no-result"))
        }
        FinishReason::Aborted => None,
    }
}

/// The lines under a board: the game, the score, the last move, then whose turn (with the
/// deadline and any draw offer) or the result. A timed game's clocks are written with the
/// time of day the flag falls (Telegram, the console).
pub fn caption(view: &GameView, lang: Lang) -> String {
    caption_with(view, lang, ClockStyle::TimeOfDay)
}

/// `caption` with the clocks written in `style` (Discord: a live countdown).
pub fn caption_with(view: &GameView, lang: Lang, style: ClockStyle) -> String {
    let mut lines = vec![
        game_title(view, lang),
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
    let clocks = clock_lines(view, lang, style);
    if let Some(result) = result_text(view, lang) {
        lines.extend(clocks);
        lines.push(result);
        lines.extend(ratings_text(view, lang));
        return lines.join("\n");
    }
    let side = view.position.to_move();
    lines.push(t!(
        lang,
        "manager-turn",
        side = side.name(),
        name = player_name(view.player(side), lang)
    ));
    lines.extend(deadline_text(view, lang, style));
    lines.extend(clocks);
    if let Some(offerer) = view.draw_offer {
        lines.push(t!(
            lang,
            "manager-draw-offered",
            name = player_name(view.player(offerer), lang)
        ));
    }
    if let Some(ahead) = view.bot_busy {
        lines.push(t!(lang, "manager-bot-busy", ahead = ahead));
    }
    lines.join("\n")
}

/// "Game 12", and a tournament game's round and board, which its board shows on every
/// redraw (the pairing line over its first post is not kept by later edits).
fn game_title(view: &GameView, lang: Lang) -> String {
    let id = view.id.as_str();
    match &view.seat {
        None => t!(lang, "manager-game-title", id = id),
        Some(seat) if seat.round == 0 => t!(lang, "tournament-game-title-arena", id = id),
        Some(seat) => t!(
            lang,
            "tournament-game-title-swiss",
            id = id,
            round = seat.round,
            board = seat.board
        ),
    }
}

/// The players' new ratings after a rated game: "Ratings: Alice 1512 (+12), Bob 1488 (-12)".
pub fn ratings_text(view: &GameView, lang: Lang) -> Option<String> {
    let changes: Vec<String> = Side::BOTH
        .into_iter()
        .filter_map(|s| {
            let change = view.ratings[s.index()]?;
            Some(format!(
                "{} {}",
                player_name(view.player(s), lang),
                change.shown()
            ))
        })
        .collect();
    (!changes.is_empty()).then(|| t!(lang, "manager-ratings", changes = changes.join(", ")))
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

/// A line saying how long the player to move has: for games between people, the hours of
/// plain correspondence; for any game with days per move, the time left of those days.
pub fn deadline_text(view: &GameView, lang: Lang, style: ClockStyle) -> Option<String> {
    if let TimeControl::Days(_) = view.time_control {
        return clock::days_left_line(view, lang, style);
    }
    let deadline = view.timeout_at?;
    if view.against_bot() {
        return None;
    }
    let hours = deadline.saturating_sub(view.last_move_at).div_ceil(3600);
    Some(t!(lang, "manager-deadline", hours = hours))
}

/// The text of a challenge message, by its status.
pub fn challenge_text(view: &ChallengeView, lang: Lang) -> String {
    let challenger = user_name(&view.challenger);
    let challenger = challenger.as_str();
    let opponent = view.opponent.as_ref().map(user_name);
    let opponent = opponent.as_deref();
    let mut variant = variant_text(view.variant, lang);
    let time = time_control_text(view.time_control, lang);
    if !time.is_empty() {
        variant = format!("{variant}, {time}");
    }
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
            let mut lines = vec![invite];
            if !view.rated {
                lines.push(t!(lang, "manager-challenge-unrated"));
            }
            let minutes = view.expires_at.saturating_sub(view.shown_at).div_ceil(60);
            if minutes > 0 {
                lines.push(t!(lang, "manager-challenge-expires", minutes = minutes));
            }
            lines.join("\n")
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
        ActionError::TermsChanged {
            variant,
            time,
            rated,
        } => {
            let terms = terms_text(*variant, Some(*time), *rated, lang);
            t!(lang, "manager-error-terms-changed", terms = terms)
        }
        ActionError::ChallengeSelf => t!(lang, "manager-error-challenge-self"),
        ActionError::ChallengeBot => t!(lang, "manager-error-challenge-bot"),
        ActionError::NotYourChallenge => t!(lang, "manager-error-not-your-challenge"),
        ActionError::Limit(kind) => limit_text(*kind, lang),
        ActionError::GameNotOver => t!(lang, "manager-error-game-not-over"),
        ActionError::NoGameHere => t!(lang, "manager-error-no-game-here"),
        ActionError::AmbiguousGame => t!(lang, "manager-error-ambiguous"),
        ActionError::TooLateToAbort => t!(lang, "manager-error-too-late-to-abort"),
        ActionError::NoBerserkHere => t!(lang, "manager-error-no-berserk-here"),
        ActionError::TooLateToBerserk => t!(lang, "manager-error-too-late-to-berserk"),
        ActionError::DrawAlreadyOffered => t!(lang, "manager-error-draw-already-offered"),
        ActionError::NoDrawOffer => t!(lang, "manager-error-no-draw-offer"),
        ActionError::BotDeclinesDraw => t!(lang, "manager-error-bot-declines-draw"),
        ActionError::RematchExists => t!(lang, "manager-error-rematch-exists"),
        ActionError::NothingToReview => t!(lang, "manager-error-nothing-to-review"),
        ActionError::NoFinishedGameHere => t!(lang, "manager-error-no-finished-game-here"),
        ActionError::ReviewsBusy => t!(lang, "manager-error-reviews-busy"),
        ActionError::ReviewPending => t!(lang, "manager-error-review-pending"),
        ActionError::HintsOnlyAgainstBot => t!(lang, "manager-error-hints-only-against-bot"),
        ActionError::NoHintsLeft => {
            t!(
                lang,
                "manager-error-no-hints-left",
                count = crate::manager::MAX_HINTS
            )
        }
        ActionError::HintsBusy => t!(lang, "manager-error-hints-busy"),
        ActionError::PremovesNotHere => t!(lang, "manager-error-premoves-not-here"),
        ActionError::PremovesOnTheirTurn => t!(lang, "manager-error-premoves-on-their-turn"),
        ActionError::TooManyPremoves => t!(
            lang,
            "manager-error-too-many-premoves",
            lines = crate::manager::premoves::MAX_LINES,
            moves = crate::manager::premoves::MAX_LINE_MOVES
        ),
        ActionError::PremoveIllegal { line, step, pit } => t!(
            lang,
            "manager-error-premove-illegal",
            line = *line,
            step = *step,
            pit = *pit
        ),
        ActionError::PremovesDisagree { line } => {
            t!(lang, "manager-error-premoves-disagree", line = *line)
        }
        ActionError::PremoveLineUnfinished => t!(lang, "manager-error-premove-line-unfinished"),
        ActionError::ExplorerMoves { step, pit } => t!(
            lang,
            "manager-error-explorer-moves",
            step = *step,
            pit = pit.clone()
        ),
        ActionError::ExplorerTooDeep { max } => {
            t!(lang, "manager-error-explorer-too-deep", max = *max)
        }
        ActionError::Storage(_) => t!(lang, "manager-error-storage"),
        ActionError::StoreAway(_) => t!(lang, "manager-error-store-away"),
        ActionError::OutcomeUnknown(_) => t!(lang, "manager-error-outcome-unknown"),
        ActionError::NoSuchTournament => t!(lang, "tournament-error-no-such"),
        ActionError::SignInRefused => t!(lang, "manager-error-sign-in-refused"),
        ActionError::WebNotServed => t!(lang, "manager-error-web-not-served"),
        ActionError::Tournament(e) => tournament_error_text(e, lang),
        ActionError::Puzzle(e) => puzzle_error_text(e, lang),
    }
}

fn puzzle_error_text(err: &PuzzleError, lang: Lang) -> String {
    match err {
        PuzzleError::NotYours => t!(lang, "puzzle-error-not-yours"),
        PuzzleError::Over => t!(lang, "puzzle-error-over"),
        PuzzleError::Stale => t!(lang, "puzzle-error-stale"),
        PuzzleError::DailyDone { solved: true } => t!(lang, "puzzle-error-daily-solved"),
        PuzzleError::DailyDone { solved: false } => t!(lang, "puzzle-error-daily-failed"),
        PuzzleError::Empty => t!(lang, "puzzle-error-empty"),
    }
}

fn tournament_error_text(err: &TournamentError, lang: Lang) -> String {
    match err {
        TournamentError::AlreadyIn => t!(lang, "tournament-error-already-in"),
        TournamentError::NotIn => t!(lang, "tournament-error-not-in"),
        TournamentError::Started => t!(lang, "tournament-error-started"),
        TournamentError::Closed => t!(lang, "tournament-error-closed"),
        TournamentError::Full => t!(lang, "tournament-error-full"),
        TournamentError::NotAllowed => t!(lang, "tournament-error-not-allowed"),
        TournamentError::RoundRunning => t!(lang, "tournament-error-round-paired"),
        TournamentError::UnknownGame => t!(lang, "tournament-error-unknown-game"),
        TournamentError::TooFew => t!(lang, "tournament-error-too-few"),
        TournamentError::Pairing(_) => t!(lang, "tournament-error-pairing"),
        TournamentError::ByeSwissOnly => t!(lang, "tournament-error-bye-swiss-only"),
        TournamentError::ByeRound { last } => t!(lang, "tournament-error-bye-round", round = *last),
        TournamentError::NoSuchRound { rounds } => {
            t!(lang, "tournament-error-no-such-round", rounds = *rounds)
        }
        TournamentError::TooManyByes => t!(
            lang,
            "tournament-error-too-many-byes",
            count = crate::manager::tournament::MAX_HALF_BYES
        ),
    }
}

fn limit_text(kind: LimitKind, lang: Lang) -> String {
    match kind {
        LimitKind::UserChallenges(n) => t!(lang, "manager-error-limit-user-challenges", count = n),
        LimitKind::ChatChallenges(n) => t!(lang, "manager-error-limit-chat-challenges", count = n),
        LimitKind::UserGames(n) => t!(lang, "manager-error-limit-user-games", count = n),
        LimitKind::ChatGames(n) => t!(lang, "manager-error-limit-chat-games", count = n),
        LimitKind::UserTournaments(n) => {
            t!(lang, "manager-error-limit-user-tournaments", count = n)
        }
        LimitKind::ChatTournaments(n) => {
            t!(lang, "manager-error-limit-chat-tournaments", count = n)
        }
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
                acc.review |= b.review;
                acc.hint |= b.hint;
                acc.berserk |= b.berserk;
                acc.premoves |= b.premoves;
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
        a.hint,
        Button::Hint {
            game: game.clone(),
            ply,
        },
        t!(lang, "hint-button", left = view.hints_left()),
    );
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
        a.berserk,
        Button::Berserk { game: game.clone() },
        t!(lang, "manager-button-berserk"),
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
        a.premoves,
        Button::Premoves { game: game.clone() },
        t!(lang, "premoves-button"),
    );
    add(
        a.rematch,
        Button::Rematch { game: game.clone() },
        t!(lang, "manager-button-rematch"),
    );
    add(
        a.review,
        Button::Review { game: game.clone() },
        t!(lang, "manager-button-review"),
    );
    // A finished game's explorer, where it left the others' games (issue 52).
    add(
        a.review,
        Button::Opening { game },
        t!(lang, "explorer-chat-opening-button"),
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
            terms: view.time_changes,
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

/// The list of a user's ongoing games, in the manager's order (those where it is
/// `viewer`'s move first, least time left first): each says whether it is their move and,
/// for a correspondence game, the time left for the move.
pub fn games_text(views: &[GameView], viewer: Option<&UserRef>, lang: Lang) -> String {
    if views.is_empty() {
        return t!(lang, "manager-games-none");
    }
    let mut lines = vec![t!(lang, "manager-games-header")];
    for v in views {
        let line = t!(
            lang,
            "manager-games-line",
            id = v.id.as_str(),
            white = player_name(v.player(Side::White), lang),
            black = player_name(v.player(Side::Black), lang),
            number = v.position.fullmove()
        );
        let mut notes = Vec::with_capacity(2);
        if matches!(v.to_move_player(), Some(Player::Human(user)) if Some(user) == viewer) {
            notes.push(t!(lang, "manager-games-your-move"));
        }
        let correspondence = v.time_control.category() == Category::Correspondence;
        if let Some(deadline) = v.timeout_at.filter(|_| correspondence && !v.is_over()) {
            let span = span_text(deadline.saturating_sub(v.shown_at), lang);
            notes.push(t!(lang, "manager-games-left", span = span));
        }
        lines.push(match notes.is_empty() {
            true => line,
            false => format!("{line} ({})", notes.join(", ")),
        });
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests;
