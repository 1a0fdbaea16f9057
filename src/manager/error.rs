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
}

impl From<crate::store::StoreError> for ActionError {
    fn from(err: crate::store::StoreError) -> Self {
        tracing::error!(error = %err, "storage error");
        ActionError::Storage(err.to_string())
    }
}
