//! What the premove builder shows (docs/premoves.md), for every adapter: the author's lines
//! as text, what the next pit means, and the builder's keys (pits, Add line, Undo, Clear
//! all, Done). Telegram shows it in the author's private chat, Discord as an ephemeral
//! reply, the page in its panel: shown to nobody but the author.

use super::{player_name, LabeledButton};
use crate::i18n::Lang;
use crate::manager::buttons::{Button, PremoveKey};
use crate::manager::{PremoveEdit, PremovesView};
use crate::t;

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
    let mut position = view.game.position;
    let replayed = view.draft.iter().all(|&pit| position.play(pit).is_ok());
    let legal = position.legal_moves();
    let pits: Vec<LabeledButton> = (1..=9u8)
        .map(|pit| {
            let on = replayed && !position.is_over() && legal.contains(pit);
            key(PremoveKey::Pit(pit), pit.to_string(), on)
        })
        .collect();
    let finished = !view.draft.is_empty() && view.draft.len() % 2 == 0;
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

    #[test]
    fn every_key_but_done_is_an_edit() {
        assert_eq!(key_edit(PremoveKey::Pit(4)), Some(PremoveEdit::Pit(4)));
        assert_eq!(key_edit(PremoveKey::Add), Some(PremoveEdit::AddLine));
        assert_eq!(key_edit(PremoveKey::Undo), Some(PremoveEdit::Undo));
        assert_eq!(key_edit(PremoveKey::Clear), Some(PremoveEdit::ClearAll));
        assert_eq!(key_edit(PremoveKey::Done), None);
    }
}
