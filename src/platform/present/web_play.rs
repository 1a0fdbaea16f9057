//! What a signed-in player is offered on a game's page (issue 50), decided here once: their
//! seat (side, the pits they may play in their own numbering, the actions open now), the
//! words of the page's play controls, and their games for `/me`. The pits and actions come
//! from `GameView::actions_for`, the same answer the chat keyboards are built from, so the
//! browser holds no second copy of the rules.

use super::premoves::{self, PremovePreview};
use crate::i18n::Lang;
use crate::manager::{GameHint, GameView};
use crate::model::UserRef;
use crate::rules::Side;
use crate::t;
use serde::Serialize;

/// The caller's seat in a game (`GET /g/<key>/seat`, and the answer to an action).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Seat {
    /// 0 White, 1 Black; `None`: the caller does not play in this game.
    pub side: Option<u8>,
    /// The half-move the seat was decided at: a move names it, and a move made on an older
    /// board is refused as stale.
    pub ply: u16,
    /// The game's version: a page compares it with the live state it shows.
    pub version: u64,
    /// The pits the caller may play now, 1-9 of their own row; empty when it is not their
    /// turn.
    pub pits: Vec<u8>,
    pub actions: SeatActions,
    /// A line to show the player (a hint), or `None`.
    pub message: Option<String>,
    /// The player's own conditional premoves, in a correspondence game between people
    /// (`with_premoves`); `None` elsewhere, and always for anyone else.
    pub premoves: Option<SeatPremoves>,
}

/// A player's premoves as their page's panel shows them (docs/premoves.md).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatPremoves {
    /// Lines may be entered now (the opponent is to move).
    pub open: bool,
    /// Each line as read: `3 → 7; 5 → 2`.
    pub shown: Vec<String>,
    /// Each line as typed in the panel: `3 7 5 2`.
    pub typed: Vec<String>,
    /// The line being entered on the board, as read (`3 → 7; 5 → …`); empty for none.
    pub draft: String,
    /// The count of changes the draft and lines are at: the board's mode sends it back with
    /// each pit, so a pit chosen on a board shown before another change (the chat's
    /// builder, a move that shifted the lines) is refused as stale.
    pub edits: u32,
    /// The draft may become a line (it ends on the player's reply).
    pub addable: bool,
    /// The board the mode shows: the position after the draft and the pits that may be
    /// chosen in it; `None` while lines cannot be entered.
    pub preview: Option<PremovePreview>,
}

/// `seat` with its player's premoves (read for them alone: `Manager::premoves`).
pub fn with_premoves(mut seat: Seat, mine: &crate::manager::PremovesView, lang: Lang) -> Seat {
    let typed = |line: &Vec<u8>| {
        let pits: Vec<String> = line.iter().map(u8::to_string).collect();
        pits.join(" ")
    };
    seat.premoves = Some(SeatPremoves {
        open: mine.open,
        shown: mine.lines.iter().map(|l| premoves::line_text(l)).collect(),
        typed: mine.lines.iter().map(typed).collect(),
        draft: premoves::line_text(&mine.draft),
        edits: mine.edits,
        addable: premoves::may_add(mine),
        preview: premoves::preview(mine, lang),
    });
    seat
}

/// The lines typed in the page's panel, one per row of pits separated by spaces or
/// commas; `None` for anything but pits 1-9 (too many rows or pits are left to the
/// manager's limits, whose refusals name them).
pub fn read_premoves(rows: &[String]) -> Option<Vec<Vec<u8>>> {
    rows.iter()
        .filter(|row| !row.trim().is_empty())
        .map(|row| {
            row.split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| !w.is_empty())
                .map(|w| {
                    let digits = w.bytes().all(|b| b.is_ascii_digit());
                    w.parse::<u8>()
                        .ok()
                        .filter(|p| digits && (1..=9).contains(p))
                })
                .collect::<Option<Vec<u8>>>()
        })
        .collect()
}

/// The actions open to the caller now, besides moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SeatActions {
    pub offer_draw: bool,
    pub accept_draw: bool,
    pub decline_draw: bool,
    pub resign: bool,
    pub rematch: bool,
    pub hint: bool,
    /// The premoves panel is shown (filled by `with_premoves`).
    pub premoves: bool,
}

/// An action a page asks for (`POST /g/<key>/act`), by the name the contract gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageAction {
    Move,
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    Rematch,
    Hint,
    /// Replace the player's premove lines (`{"action":"premoves","lines":["3 7", ...]}`).
    Premoves,
    /// The board's premove mode, each with the `edits` the page was shown at: a pit for
    /// the draft (`{"action":"premove_pit","pit":3,"edits":4}`), the draft made a line,
    /// the draft's last pit (or the last line) taken back, everything cleared.
    PremovePit,
    PremoveAdd,
    PremoveUndo,
    PremoveClear,
}

impl PageAction {
    /// The action named `name`, or `None`.
    pub fn named(name: &str) -> Option<PageAction> {
        Some(match name {
            "move" => PageAction::Move,
            "resign" => PageAction::Resign,
            "offer_draw" => PageAction::OfferDraw,
            "accept_draw" => PageAction::AcceptDraw,
            "decline_draw" => PageAction::DeclineDraw,
            "rematch" => PageAction::Rematch,
            "hint" => PageAction::Hint,
            "premoves" => PageAction::Premoves,
            "premove_pit" => PageAction::PremovePit,
            "premove_add" => PageAction::PremoveAdd,
            "premove_undo" => PageAction::PremoveUndo,
            "premove_clear" => PageAction::PremoveClear,
            _ => return None,
        })
    }
}

/// `user`'s seat in `view`, with `message` to show.
///
/// A rematch is offered on the page only against the bot: its new game opens on the page at
/// once, while a rematch with a person is a challenge that lives in the chat, where the
/// opponent answers it (the board's Rematch button).
pub fn seat(view: &GameView, user: &UserRef, message: Option<String>) -> Seat {
    let side = view.side_of(user);
    let Some(side) = side else {
        return Seat {
            side: None,
            ply: view.ply,
            version: view.version,
            pits: Vec::new(),
            actions: SeatActions::default(),
            message,
            premoves: None,
        };
    };
    let a = view.actions_for(Some(user));
    Seat {
        side: Some(side.index() as u8),
        ply: view.ply,
        version: view.version,
        pits: a.pits.iter().filter(|p| p.enabled).map(|p| p.pit).collect(),
        actions: SeatActions {
            offer_draw: a.offer_draw,
            accept_draw: a.accept_draw,
            decline_draw: a.decline_draw,
            resign: a.resign,
            rematch: a.rematch && view.against_bot(),
            hint: a.hint,
            premoves: a.premoves,
        },
        message,
        premoves: None,
    }
}

/// Whether the page offers `action` to someone whose seat is `seat` (a move, a draw or a
/// resignation is left to the manager, whose refusal names what is wrong).
pub fn page_offers(seat: &Seat, action: PageAction) -> bool {
    match action {
        PageAction::Rematch => seat.actions.rematch,
        PageAction::Premoves
        | PageAction::PremovePit
        | PageAction::PremoveAdd
        | PageAction::PremoveUndo
        | PageAction::PremoveClear => seat.actions.premoves,
        _ => true,
    }
}

/// The line shown for a hint given on the page.
pub fn hint_message(hint: &GameHint, lang: Lang) -> String {
    let what = t!(
        lang,
        "web-play-hint",
        pit = hint.pit,
        move = hint.text.as_str()
    );
    format!("{what} {}", t!(lang, "hint-left", left = hint.left))
}

/// The words of the page's play controls, in its language (`#play-words`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayWords {
    pub your_move: String,
    pub their_move: String,
    /// The label of a pit button, `{pit}` and `{balls}` filled in by the page.
    pub pit: String,
    pub resign: String,
    pub resign_confirm: String,
    pub resign_yes: String,
    pub cancel: String,
    pub offer_draw: String,
    pub accept_draw: String,
    pub decline_draw: String,
    pub rematch: String,
    pub hint: String,
    pub failed: String,
    pub signed_out: String,
    pub premoves: String,
    pub premoves_help: String,
    pub premoves_none: String,
    pub premoves_save: String,
    pub premoves_clear: String,
    /// The board's premove mode: its button, leaving it, what the board shows, the
    /// builder's keys, the draft (`{moves}` filled in by the page), and the label of a pit
    /// button while the opponent's move or the player's reply is chosen (`{pit}`,
    /// `{balls}`).
    pub premoves_board: String,
    pub premoves_back: String,
    pub premoves_preview: String,
    pub premoves_add: String,
    pub premoves_undo: String,
    pub premoves_draft: String,
    pub premove_theirs: String,
    pub premove_mine: String,
}

pub fn play_words(lang: Lang) -> PlayWords {
    PlayWords {
        your_move: t!(lang, "web-play-your-move"),
        their_move: t!(lang, "web-play-their-move"),
        pit: t!(lang, "web-play-pit", pit = "{pit}", balls = "{balls}"),
        resign: t!(lang, "manager-button-resign"),
        resign_confirm: t!(lang, "web-play-resign-confirm"),
        resign_yes: t!(lang, "web-play-resign-yes"),
        cancel: t!(lang, "web-play-cancel"),
        offer_draw: t!(lang, "manager-button-offer-draw"),
        accept_draw: t!(lang, "manager-button-accept-draw"),
        decline_draw: t!(lang, "manager-button-decline-draw"),
        rematch: t!(lang, "manager-button-rematch"),
        hint: t!(lang, "web-play-hint-button"),
        failed: t!(lang, "web-play-failed"),
        signed_out: t!(lang, "web-me-signed-out"),
        premoves: t!(lang, "premoves-button"),
        premoves_help: t!(lang, "web-play-premoves-help"),
        premoves_none: t!(lang, "premoves-none"),
        premoves_save: t!(lang, "web-play-premoves-save"),
        premoves_clear: t!(lang, "premoves-clear"),
        premoves_board: t!(lang, "web-play-premoves-board"),
        premoves_back: t!(lang, "web-play-premoves-back"),
        premoves_preview: t!(lang, "web-play-premoves-preview"),
        premoves_add: t!(lang, "premoves-add"),
        premoves_undo: t!(lang, "premoves-undo"),
        premoves_draft: t!(lang, "premoves-draft", moves = "{moves}"),
        premove_theirs: t!(
            lang,
            "web-play-premove-theirs",
            pit = "{pit}",
            balls = "{balls}"
        ),
        premove_mine: t!(
            lang,
            "web-play-premove-mine",
            pit = "{pit}",
            balls = "{balls}"
        ),
    }
}

/// One of a player's ongoing games, as `/me` and `/api/me/games` list it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MyGame {
    /// Its page's key (`/g/<key>`).
    pub key: String,
    /// `White – Black`.
    pub title: String,
    pub your_turn: bool,
}

/// `user`'s ongoing games (`views`, with their page keys), those in `channel` first, then
/// those where it is their turn, then by id.
pub fn my_games(
    views: &[(GameView, String)],
    user: &UserRef,
    channel: Option<&str>,
    lang: Lang,
) -> Vec<MyGame> {
    let mut rows: Vec<(bool, &GameView, &String)> = views
        .iter()
        .filter(|(view, _)| !view.is_over())
        .map(|(view, key)| (channel.is_some_and(|c| view.chat.id == c), view, key))
        .collect();
    let turn = |view: &GameView| {
        view.side_of(user)
            .is_some_and(|s| s == view.position.to_move())
    };
    rows.sort_by(|a, b| (!a.0, !turn(a.1), &a.1.id).cmp(&(!b.0, !turn(b.1), &b.1.id)));
    rows.into_iter()
        .map(|(_, view, key)| {
            let [white, black] = Side::BOTH.map(|s| super::plain_player_name(view.player(s), lang));
            MyGame {
                key: key.clone(),
                title: t!(lang, "web-index-players", white = white, black = black),
                your_turn: turn(view),
            }
        })
        .collect()
}

/// The words of `/me`.
#[derive(Clone, Debug, PartialEq)]
pub struct MeWords {
    pub title: String,
    /// "Signed in as ...", or what to do to sign in.
    pub about: String,
    /// "Signed in as {name}.", the name filled in by the page (a session kept in the tab).
    pub signed_in: String,
    pub none: String,
    pub your_turn: String,
    pub logout: String,
}

/// `/me`'s words for `name` (`None`: nobody is signed in on this request).
pub fn me_words(name: Option<&str>, lang: Lang) -> MeWords {
    MeWords {
        title: t!(lang, "web-me-title"),
        about: match name {
            Some(name) => t!(
                lang,
                "web-me-signed-in",
                name = crate::model::names::clean_name(name)
            ),
            None => t!(lang, "web-me-signed-out"),
        },
        signed_in: t!(lang, "web-me-signed-in", name = "{name}"),
        none: t!(lang, "web-me-none"),
        your_turn: t!(lang, "web-me-your-turn"),
        logout: t!(lang, "web-me-logout"),
    }
}

/// The words of the page a sign-in link opens: it signs in only when its button is pressed.
pub struct SigninConfirmWords {
    pub title: String,
    pub text: String,
    pub button: String,
}

pub fn signin_confirm_words(lang: Lang) -> SigninConfirmWords {
    SigninConfirmWords {
        title: t!(lang, "web-signin-confirm-title"),
        text: t!(lang, "web-signin-confirm"),
        button: t!(lang, "web-signin-button"),
    }
}

/// The title and text of the page answering a sign-in link that is refused.
pub fn signin_refused_words(lang: Lang) -> (String, String) {
    (
        t!(lang, "web-signin-refused-title"),
        t!(lang, "web-signin-refused"),
    )
}

/// The error a request without a valid session gets.
pub fn no_session_text(lang: Lang) -> String {
    t!(lang, "web-me-signed-out")
}

/// The error a state-changing request gets without the session's token or from another
/// site.
pub fn forged_text(lang: Lang) -> String {
    t!(lang, "web-play-forged")
}

/// The error of an action over the per-minute limit.
pub fn limited_text(lang: Lang) -> String {
    t!(lang, "web-play-limited")
}

/// The error of an action the page does not offer (a rematch with a person).
pub fn not_offered_text(action: PageAction, lang: Lang) -> String {
    match action {
        PageAction::Rematch => t!(lang, "web-play-rematch-in-chat"),
        _ => t!(lang, "web-play-bad-request"),
    }
}

/// The error of a body that names no action the page has.
pub fn bad_request_text(lang: Lang) -> String {
    t!(lang, "web-play-bad-request")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manager::Player;
    use crate::model::{Level, Platform};

    fn user(id: &str) -> UserRef {
        UserRef::new(Platform::Telegram, id, "Asel")
    }

    #[test]
    fn page_actions_are_named_as_the_contract_says() {
        for (name, action) in [
            ("move", PageAction::Move),
            ("resign", PageAction::Resign),
            ("offer_draw", PageAction::OfferDraw),
            ("accept_draw", PageAction::AcceptDraw),
            ("decline_draw", PageAction::DeclineDraw),
            ("rematch", PageAction::Rematch),
            ("hint", PageAction::Hint),
            ("premoves", PageAction::Premoves),
            ("premove_pit", PageAction::PremovePit),
            ("premove_add", PageAction::PremoveAdd),
            ("premove_undo", PageAction::PremoveUndo),
            ("premove_clear", PageAction::PremoveClear),
        ] {
            assert_eq!(PageAction::named(name), Some(action));
        }

        assert_eq!(PageAction::named("abort"), None);
        assert_eq!(PageAction::named("Move"), None);
    }

    #[test]
    fn premove_rows_are_read_as_pits() {
        let rows = |r: &[&str]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            read_premoves(&rows(&["3 7 5 2", " 4,4 ", ""])),
            Some(vec![vec![3, 7, 5, 2], vec![4, 4]])
        );
        assert_eq!(read_premoves(&rows(&[])), Some(vec![]));
        assert_eq!(read_premoves(&rows(&["3 0"])), None);
        assert_eq!(read_premoves(&rows(&["3 seven"])), None);
        assert_eq!(read_premoves(&rows(&["3 +7"])), None);
    }

    #[test]
    fn every_language_has_the_play_words() {
        for lang in Lang::ALL {
            let w = play_words(lang);
            for pit in [&w.pit, &w.premove_theirs, &w.premove_mine] {
                assert!(
                    pit.contains("{pit}") && pit.contains("{balls}"),
                    "{lang:?}: {pit}"
                );
            }
            assert!(w.premoves_draft.contains("{moves}"), "{lang:?}");
            for text in [&w.your_move, &w.resign_confirm, &w.failed, &w.signed_out] {
                assert!(
                    !text.is_empty() && !text.contains("web-"),
                    "{lang:?}: {text}"
                );
            }
            let (title, text) = signin_refused_words(lang);
            assert!(
                !title.contains("web-") && !text.contains("web-"),
                "{lang:?}"
            );
            for text in [
                forged_text(lang),
                limited_text(lang),
                bad_request_text(lang),
            ] {
                assert!(!text.contains("web-play"), "{lang:?}: {text}");
            }
        }
    }

    #[test]
    fn a_spectator_has_no_seat_and_a_player_only_their_legal_pits() {
        let chat = crate::model::ChatRef::new(Platform::Telegram, "c");
        let players = [Player::Human(user("1")), Player::Bot(Level::Easy)];
        let view = GameView::sample("abc123", chat, players);
        let stranger = seat(&view, &user("2"), None);
        assert_eq!(stranger.side, None);
        assert!(stranger.pits.is_empty());
        assert_eq!(stranger.actions, SeatActions::default());
        let mine = seat(&view, &user("1"), None);
        assert_eq!(mine.side, Some(0));
        assert_eq!(mine.ply, view.ply);
        let legal = view.position.legal_moves();
        let expected: Vec<u8> = (1..=9).filter(|p| legal.contains(*p)).collect();
        assert_eq!(mine.pits, expected);
        assert!(mine.actions.resign && mine.actions.offer_draw);
        assert!(!mine.actions.rematch, "not over");
        assert!(matches!(view.players[1], Player::Bot(Level::Easy)));
    }
}
