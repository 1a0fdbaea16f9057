//! What the premove builder shows (docs/premoves.md), for every adapter: the author's lines
//! as text, what the next pit means, and the builder's keys (pits, Add line, Undo, Clear
//! all, Done). Telegram shows it in the author's private chat, Discord as an ephemeral
//! reply, the page in its panel: shown to nobody but the author.

use super::web::{shown_after, PlyShown};
use super::{player_name, LabeledButton};
use crate::i18n::Lang;
use crate::manager::buttons::{Button, PremoveKey};
use crate::manager::{PremoveEdit, PremovesView};
use crate::rules::{MoveReport, Position};
use crate::t;
use serde::Serialize;

/// A line as text: pairs of their move → the reply, `3 → 7; 5 → 2` (a draft may end on
/// their move: `3 → 7; 5 → …`).
pub fn line_text(line: &[u8]) -> String {
    line.chunks(2)
        .map(|pair| match pair {
            [theirs, mine] => format!("{theirs} → {mine}"),
            [theirs] => format!("{theirs} → …"),
            _ => String::new(),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The builder's text: whose game, the lines numbered as errors name them, the draft, and
/// what to do next (or why nothing can be entered now).
pub fn builder_text(view: &PremovesView, lang: Lang) -> String {
    let opponent = player_name(view.game.player(view.side.other()), lang);
    let mut out = vec![t!(lang, "premoves-title", opponent = opponent)];
    if view.game.is_over() {
        out.push(t!(lang, "premoves-ended"));
        return out.join("\n");
    }
    out.push(t!(lang, "premoves-legend"));
    if view.lines.is_empty() {
        out.push(t!(lang, "premoves-none"));
    }
    for (n, line) in view.lines.iter().enumerate() {
        out.push(format!("{}. {}", n + 1, line_text(line)));
    }
    if !view.open {
        out.push(t!(lang, "premoves-closed"));
        return out.join("\n");
    }
    if !view.draft.is_empty() {
        out.push(t!(lang, "premoves-draft", moves = line_text(&view.draft)));
    }
    out.push(if view.draft.len() % 2 == 0 {
        t!(lang, "premoves-next-theirs")
    } else {
        t!(lang, "premoves-next-mine")
    });
    out.push(t!(lang, "premoves-explain"));
    out.join("\n")
}

/// The position the author's draft leads to, as if its moves were played: what they answer
/// when they choose the next pit. The page draws it on its board (the builder's mode); the
/// pits that may be chosen are decided here, with the rules, so no front end holds them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PremovePreview {
    /// The board after the draft: pits, stores, tuzdeks, the side to move, and the draft's
    /// last pit marked (`last`; none for an empty draft, which is the game as it stands).
    pub board: PlyShown,
    /// The pits that may be chosen next, 1-9 of the row of the side to move in `board`;
    /// none once the draft ends the game.
    pub pits: Vec<u8>,
    /// The next pit is the opponent's move (an even draft); else the author's reply.
    pub theirs_next: bool,
    /// What to do next, in the reader's language.
    pub prompt: String,
}

/// The position after the draft and the draft's last move; `None` while lines cannot be
/// entered, or for a draft the position refuses (the manager never stores one).
fn after_draft(view: &PremovesView) -> Option<(Position, Option<MoveReport>)> {
    if !view.open {
        return None;
    }
    let mut position = view.game.position;
    let mut last = None;
    for &pit in &view.draft {
        last = Some(position.play(pit).ok()?);
    }
    Some((position, last))
}

/// The pits the side to move may choose in `position` (none once it is over).
fn open_pits(position: &Position) -> Vec<u8> {
    if position.is_over() {
        return Vec::new();
    }
    position.legal_moves().iter().collect()
}

/// The builder's board: the position after the draft, for the author alone.
pub fn preview(view: &PremovesView, lang: Lang) -> Option<PremovePreview> {
    let (position, last) = after_draft(view)?;
    let theirs_next = view.draft.len() % 2 == 0;
    let pits = open_pits(&position);
    let prompt = if pits.is_empty() {
        t!(lang, "premoves-ended")
    } else if theirs_next {
        t!(lang, "premoves-next-theirs")
    } else {
        t!(lang, "premoves-next-mine")
    };
    Some(PremovePreview {
        board: shown_after(&position, last.as_ref()),
        pits,
        theirs_next,
        prompt,
    })
}

/// Whether the draft may become a line now: it ends on the author's reply.
pub fn may_add(view: &PremovesView) -> bool {
    view.open && !view.draft.is_empty() && view.draft.len() % 2 == 0
}

/// The builder's keys in rows: the nine pits (those legal after the draft enabled), then
/// Add line, Undo, Clear all and Done. Only Done while nothing can be entered.
pub fn builder_keys(view: &PremovesView, lang: Lang) -> Vec<Vec<LabeledButton>> {
    let key = |key: PremoveKey, label: String, enabled: bool| LabeledButton {
        button: Button::PremoveKey {
            game: view.game.id.clone(),
            edits: view.edits,
            key,
        },
        label,
        enabled,
    };
    let done = key(PremoveKey::Done, t!(lang, "premoves-done"), true);
    if !view.open {
        return vec![vec![done]];
    }
    let open = after_draft(view).map_or_else(Vec::new, |(position, _)| open_pits(&position));
    let pits: Vec<LabeledButton> = (1..=9u8)
        .map(|pit| key(PremoveKey::Pit(pit), pit.to_string(), open.contains(&pit)))
        .collect();
    let finished = may_add(view);
    let something = !view.lines.is_empty() || !view.draft.is_empty();
    vec![
        pits[..5].to_vec(),
        pits[5..].to_vec(),
        vec![
            key(PremoveKey::Add, t!(lang, "premoves-add"), finished),
            key(PremoveKey::Undo, t!(lang, "premoves-undo"), something),
            key(PremoveKey::Clear, t!(lang, "premoves-clear"), something),
            done,
        ],
    ]
}

/// The manager's change for a builder key; `None` for Done, which changes nothing.
pub fn key_edit(key: PremoveKey) -> Option<PremoveEdit> {
    match key {
        PremoveKey::Pit(pit) => Some(PremoveEdit::Pit(pit)),
        PremoveKey::Add => Some(PremoveEdit::AddLine),
        PremoveKey::Undo => Some(PremoveEdit::Undo),
        PremoveKey::Clear => Some(PremoveEdit::ClearAll),
        PremoveKey::Done => None,
    }
}

/// The builder once closed with Done: its text without the keys' hints.
pub fn closed_text(view: &PremovesView, lang: Lang) -> String {
    let opponent = player_name(view.game.player(view.side.other()), lang);
    let mut out = vec![t!(lang, "premoves-title", opponent = opponent)];
    if view.lines.is_empty() {
        out.push(t!(lang, "premoves-none"));
    }
    for (n, line) in view.lines.iter().enumerate() {
        out.push(format!("{}. {}", n + 1, line_text(line)));
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_as_pairs_of_their_move_and_the_reply() {
        assert_eq!(line_text(&[3, 7, 5, 2]), "3 → 7; 5 → 2");
        assert_eq!(line_text(&[3, 7, 5]), "3 → 7; 5 → …");
        assert_eq!(line_text(&[]), "");
    }

    use crate::manager::{GameView, Player};
    use crate::model::{ChatRef, Platform, UserRef};
    use crate::rules::Side;

    /// Black's premoves at the start, White to move, with `draft` entered.
    fn view(draft: &[u8]) -> PremovesView {
        let human = |id: &str| Player::Human(UserRef::new(Platform::Telegram, id, id));
        let chat = ChatRef::new(Platform::Telegram, "-100");
        let game = GameView::sample("pv0001", chat, [human("1"), human("2")]);
        PremovesView {
            game,
            side: Side::Black,
            lines: vec![],
            draft: draft.to_vec(),
            edits: draft.len() as u32,
            open: true,
        }
    }

    /// The position after `pits` from the start, and the last move.
    fn played(pits: &[u8]) -> (Position, Option<MoveReport>) {
        let mut position = Position::default();
        let last = pits.iter().map(|&p| position.play(p).unwrap()).last();
        (position, last)
    }

    #[test]
    fn the_preview_is_the_position_after_the_draft() {
        // No draft: the game as it stands, White (the opponent) to choose, nothing marked.
        let p = preview(&view(&[]), Lang::En).unwrap();
        assert_eq!(p.board, shown_after(&Position::default(), None));
        assert_eq!((p.board.to_move, p.board.last), (0, None));
        assert_eq!(p.pits, (1..=9).collect::<Vec<u8>>());
        assert!(p.theirs_next);
        assert_eq!(p.prompt, t!(Lang::En, "premoves-next-theirs"));
        assert!(!may_add(&view(&[])));

        // Their 3: sown from White's pit 3, the last ball on Black's 2 makes it even (10),
        // taken: the reply is Black's, and Black's pit 2 is empty.
        let p = preview(&view(&[3]), Lang::En).unwrap();
        let (after, last) = played(&[3]);
        assert_eq!(p.board, shown_after(&after, last.as_ref()));
        assert_eq!(p.board.pits[0], [9, 9, 1, 10, 10, 10, 10, 10, 10]);
        assert_eq!((p.board.pits[1][1], p.board.stores), (0, [10, 0]));
        assert_eq!((p.board.to_move, p.board.last), (1, Some([0, 3, 1, 2])));
        let legal: Vec<u8> = after.legal_moves().iter().collect();
        assert_eq!(p.pits, legal);
        assert!(!p.pits.contains(&2), "an empty pit is not offered");
        assert!(!p.theirs_next);
        assert_eq!(p.prompt, t!(Lang::En, "premoves-next-mine"));
        assert!(!may_add(&view(&[3])));

        // Their 3, my 7: White to choose again, my 7 marked, and the line may be added;
        // then their 5: my reply to choose.
        for draft in [&[3, 7][..], &[3, 7, 5]] {
            let p = preview(&view(draft), Lang::Kk).unwrap();
            let (after, last) = played(draft);
            assert_eq!(p.board, shown_after(&after, last.as_ref()), "{draft:?}");
            // The draft's last pit is marked, on its mover's row.
            let (mover, pit) = ((draft.len() as u8 + 1) % 2, draft[draft.len() - 1]);
            assert_eq!(p.board.last.map(|l| [l[0], l[1]]), Some([mover, pit]));
            assert_eq!(p.theirs_next, draft.len() == 2);
            assert_eq!(may_add(&view(draft)), draft.len() == 2);
        }
    }

    #[test]
    fn no_preview_while_closed_or_for_a_draft_the_position_refuses() {
        let mut closed = view(&[3]);
        closed.open = false;
        assert_eq!(preview(&closed, Lang::En), None);
        assert!(!may_add(&closed));
        // Black's 2 is empty after White's 3 (the manager never stores such a draft).
        assert_eq!(preview(&view(&[3, 2]), Lang::En), None);
        assert_eq!(preview(&view(&[3, 0]), Lang::En), None);
        let keys = builder_keys(&view(&[3, 2]), Lang::En);
        assert!(keys[..2].iter().flatten().all(|k| !k.enabled), "no pit");
    }

    #[test]
    fn every_key_but_done_is_an_edit() {
        assert_eq!(key_edit(PremoveKey::Pit(4)), Some(PremoveEdit::Pit(4)));
        assert_eq!(key_edit(PremoveKey::Add), Some(PremoveEdit::AddLine));
        assert_eq!(key_edit(PremoveKey::Undo), Some(PremoveEdit::Undo));
        assert_eq!(key_edit(PremoveKey::Clear), Some(PremoveEdit::ClearAll));
        assert_eq!(key_edit(PremoveKey::Done), None);
    }
}
