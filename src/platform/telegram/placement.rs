//! Where a game answered to a command or a press is shown: edit the pressed message into its
//! board (adopt), refresh the boards it has, post a new one, or leave it to the game's worker.
//! The decision is a pure function of what is known, so each case is tested here; `callbacks.rs`
//! gathers the facts and carries the step out.

use super::refs::MsgRef;

/// What is known when a game is to be shown.
#[derive(Clone, Debug)]
pub struct Facts<'a> {
    /// The message whose button was pressed (none for a command).
    pub place: Option<&'a MsgRef>,
    /// The pressed message is one of the game's messages.
    pub attached: bool,
    /// The pressed message is a board of this game by its own keyboard, so it may become the
    /// game's board if the game does not know it (the bot stopped between posting and
    /// attaching it).
    pub adopt: bool,
    /// Whether the pressed message is among the game's messages when looked at again, after
    /// any post of this game in the chat is attached. `None` until looked at: only
    /// [`Step::LookAgain`] asks for it.
    pub attached_now: Option<bool>,
    /// Some message of this platform shows the game.
    pub shown: bool,
    /// Where a new board goes: the game's own chat, else the chat the action came from.
    pub home: Option<i64>,
    /// Post a new board even if one exists (`/board`).
    pub repost: bool,
}

/// What to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Attach the pressed message to the game and edit the game into it: an accepted inline
    /// challenge (`inline`), or an orphaned board of this game.
    Adopt { inline: bool },
    /// Look at the game again and decide with [`Facts::attached_now`] set.
    LookAgain,
    /// The pressed board was attached meanwhile: show the game as it is now, where it is.
    RefreshNow,
    /// Post a new board in `chat`.
    Post { chat: i64 },
    /// The game's worker edits the boards it has (the manager's event of this change brings
    /// the same view, so it is drawn once).
    Worker,
}

/// The step for `facts`.
pub fn decide(facts: &Facts) -> Step {
    match facts.place {
        Some(MsgRef::Inline(_)) if !facts.attached => return Step::Adopt { inline: true },
        Some(MsgRef::Chat { .. }) if facts.adopt && !facts.attached => {
            return match facts.attached_now {
                None => Step::LookAgain,
                Some(false) => Step::Adopt { inline: false },
                Some(true) => Step::RefreshNow,
            };
        }
        _ => {}
    }
    match facts.home {
        Some(chat) if facts.repost || !facts.shown => Step::Post { chat },
        _ => Step::Worker,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOARD: MsgRef = MsgRef::Chat {
        chat: 7,
        message: 70,
    };

    /// A press on an attached chat board of a game that is shown, in chat 7.
    fn pressed(place: &MsgRef) -> Facts<'_> {
        Facts {
            place: Some(place),
            attached: true,
            adopt: true,
            attached_now: None,
            shown: true,
            home: Some(7),
            repost: false,
        }
    }

    fn command() -> Facts<'static> {
        Facts {
            place: None,
            attached: false,
            adopt: false,
            attached_now: None,
            shown: true,
            home: Some(7),
            repost: false,
        }
    }

    #[test]
    fn a_press_on_an_attached_board_is_left_to_the_games_worker() {
        assert_eq!(decide(&pressed(&BOARD)), Step::Worker);
        let inline = MsgRef::Inline("abc".into());
        assert_eq!(decide(&pressed(&inline)), Step::Worker);
    }

    #[test]
    fn an_accepted_inline_challenge_becomes_the_board() {
        let inline = MsgRef::Inline("abc".into());
        let facts = Facts {
            attached: false,
            adopt: false,
            shown: false,
            home: None,
            ..pressed(&inline)
        };
        assert_eq!(decide(&facts), Step::Adopt { inline: true });
    }

    #[test]
    fn an_unattached_board_of_the_game_is_looked_at_again_then_adopted_or_refreshed() {
        let facts = Facts {
            attached: false,
            ..pressed(&BOARD)
        };
        assert_eq!(decide(&facts), Step::LookAgain);
        let orphan = Facts {
            attached_now: Some(false),
            ..facts.clone()
        };
        assert_eq!(decide(&orphan), Step::Adopt { inline: false });
        let attached_meanwhile = Facts {
            attached_now: Some(true),
            ..facts
        };
        assert_eq!(decide(&attached_meanwhile), Step::RefreshNow);
    }

    #[test]
    fn a_message_that_is_not_the_games_own_board_is_never_adopted() {
        // A rematch button, or a board whose keyboard names another game.
        let facts = Facts {
            attached: false,
            adopt: false,
            ..pressed(&BOARD)
        };
        assert_eq!(decide(&facts), Step::Worker);
        let new_game = Facts {
            shown: false,
            ..facts
        };
        assert_eq!(decide(&new_game), Step::Post { chat: 7 });
    }

    #[test]
    fn a_new_game_or_board_command_posts_and_other_commands_leave_it_to_the_worker() {
        let new_game = Facts {
            shown: false,
            ..command()
        };
        assert_eq!(decide(&new_game), Step::Post { chat: 7 });
        let board = Facts {
            repost: true,
            ..command()
        };
        assert_eq!(decide(&board), Step::Post { chat: 7 });
        assert_eq!(decide(&command()), Step::Worker);
        // Nowhere to post (an inline game shown nowhere yet): the worker's turn.
        let nowhere = Facts {
            home: None,
            shown: false,
            ..command()
        };
        assert_eq!(decide(&nowhere), Step::Worker);
    }
}
