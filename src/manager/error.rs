//! Why an action was refused. Every variant has catalog text in
//! `platform::present::error_text`; the `Display` text here is for logs.

use crate::rules::MoveError;

/// Which limit an action ran into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    /// Open challenges of one user.
    UserChallenges(usize),
    /// Open challenges in one chat.
    ChatChallenges(usize),
    /// Ongoing games of one user.
    UserGames(usize),
    /// Ongoing games in one chat.
    ChatGames(usize),
    /// Tournaments one user created that have not ended.
    UserTournaments(usize),
    /// Tournaments in one chat that have not ended.
    ChatTournaments(usize),
}

#[derive(Debug, thiserror::Error)]
pub enum ActionError {
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("you do not play in this game")]
    NotYourGame,
    #[error("this challenge is for someone else")]
    NotForYou,
    #[error("the board has changed since it was shown")]
    StaleBoard,
    #[error("illegal move: {0}")]
    Illegal(MoveError),
    #[error("no such game")]
    NoSuchGame,
    #[error("no such challenge")]
    NoSuchChallenge,
    #[error("the challenge is no longer open")]
    ChallengeClosed,
    #[error("you cannot challenge yourself")]
    ChallengeSelf,
    #[error("the bot is played with PlayBot, not challenged")]
    ChallengeBot,
    #[error("only the challenger may change the challenge")]
    NotYourChallenge,
    #[error("limit reached: {0:?}")]
    Limit(LimitKind),
    #[error("the game is over")]
    GameOver,
    #[error("the game is still going on")]
    GameNotOver,
    #[error("you have no ongoing game here")]
    NoGameHere,
    #[error("you have several games here; name one")]
    AmbiguousGame,
    #[error("a game can be aborted only before both sides have moved")]
    TooLateToAbort,
    #[error("only a player of a timed arena game may go berserk")]
    NoBerserkHere,
    #[error("berserk only before your first move")]
    TooLateToBerserk,
    #[error("a draw offer is already standing")]
    DrawAlreadyOffered,
    #[error("there is no draw offer to answer")]
    NoDrawOffer,
    #[error("the bot declines the draw")]
    BotDeclinesDraw,
    #[error("this game already has a rematch")]
    RematchExists,
    #[error("the game has no move to review")]
    NothingToReview,
    #[error("no game has ended in this chat lately")]
    NoFinishedGameHere,
    #[error("too many reviews are asked for at once")]
    ReviewsBusy,
    /// The user's earlier review is still running or waiting (one each).
    #[error("the user already has a review on the way")]
    ReviewPending,
    #[error("hints are only for casual games against the bot")]
    HintsOnlyAgainstBot,
    #[error("no hints are left in this game")]
    NoHintsLeft,
    #[error("too many hints are asked for at once")]
    HintsBusy,
    /// Premoves are for correspondence games between two people.
    #[error("premoves are only for correspondence games between two people")]
    PremovesNotHere,
    #[error("premoves are entered while the opponent is to move")]
    PremovesOnTheirTurn,
    #[error("too many premoves (at most 30 lines of 30 moves)")]
    TooManyPremoves,
    /// Line `line` (from 1; the line being entered is the one after the last) has an
    /// illegal move `pit` as its move `step` (from 1).
    #[error("premove line {line}: move {step} (pit {pit}) is not legal")]
    PremoveIllegal { line: usize, step: usize, pit: u8 },
    /// Line `line` answers a move with another reply than an earlier line.
    #[error("premove line {line} answers a move differently from an earlier line")]
    PremovesDisagree { line: usize },
    /// A line must end on the player's own reply.
    #[error("a premove line ends on the player's reply")]
    PremoveLineUnfinished,
    /// The explorer's line has something else than a pit 1-9 (`pit`, as typed), or a pit
    /// that cannot be played, as its move `step` (from 1).
    #[error("explorer line: move {step} ({pit}) is not a pit that can be played")]
    ExplorerMoves { step: usize, pit: String },
    /// The explorer's line is longer than `max` moves (or the game ends after `max`).
    #[error("explorer line: at most {max} moves")]
    ExplorerTooDeep { max: usize },
    /// The challenge's terms changed after the Accept pressed was shown; these are the new
    /// ones.
    #[error("the challenge's terms have changed")]
    TermsChanged {
        variant: crate::rules::Variant,
        time: crate::model::TimeControl,
        rated: bool,
    },
    #[error("storage failed: {0}")]
    Storage(String),
    /// The store could not be reached or did not answer in time; nothing changed, and the
    /// same action may work in a moment.
    #[error("the store is away: {0}")]
    StoreAway(String),
    /// A write was sent and not confirmed: it may or may not be stored. The game or
    /// challenge is read again once the store answers, and shown as stored (`recheck`).
    #[error("the outcome of a write is unknown: {0}")]
    OutcomeUnknown(String),
    /// A sign-in on the pages (a link, a session, a platform's proof) that is unknown,
    /// used, expired or ended.
    #[error("the sign-in is not valid")]
    SignInRefused,
    /// The pages are not served (no `[web]` public address), so there is nowhere to sign in.
    #[error("the web pages are not served")]
    WebNotServed,
    #[error("no such tournament")]
    NoSuchTournament,
    /// The tournament's rules refused the change.
    #[error("tournament: {0}")]
    Tournament(#[from] super::tournament::TournamentError),
    /// A puzzle action was refused.
    #[error("puzzle: {0}")]
    Puzzle(#[from] super::puzzles::PuzzleError),
}

impl ActionError {
    /// Whether the store refused or failed the action (of any kind), rather than the rules.
    pub fn is_storage(&self) -> bool {
        matches!(
            self,
            ActionError::Storage(_) | ActionError::StoreAway(_) | ActionError::OutcomeUnknown(_)
        )
    }
}

impl From<crate::store::StoreError> for ActionError {
    fn from(err: crate::store::StoreError) -> Self {
        use crate::store::StoreErrorKind;
        match err.kind() {
            StoreErrorKind::Away => {
                tracing::warn!(error = %err, "the store is away");
                ActionError::StoreAway(err.to_string())
            }
            StoreErrorKind::OutcomeUnknown => {
                tracing::warn!(error = %err, "a write's outcome is unknown");
                ActionError::OutcomeUnknown(err.to_string())
            }
            StoreErrorKind::Other => {
                tracing::error!(error = %err, "storage error");
                ActionError::Storage(err.to_string())
            }
        }
    }
}
