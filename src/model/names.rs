//! Display names as the bot shows them (issue 31, item 14).
//!
//! A display name is chosen by its owner, so it is hostile input: it may carry
//! right-to-left overrides that turn the text around it backwards, zero-width characters
//! that make two names look alike, line breaks that forge extra lines in a leaderboard, or
//! hundreds of characters that push everything else out of a caption. [`clean_name`] is
//! applied where a name enters (`UserRef::new`) and again where one is shown (names stored
//! before this existed are read back as they were written); [`escape_markdown`] is applied
//! by the presentation for platforms whose text is markdown (Discord), so that `**x**` or
//! `[click](http://evil)` in a name is shown as typed and never as formatting or a link.
//! Telegram's texts are HTML and escaped as a whole by its adapter.

/// The longest name shown, in characters (Discord's own limit for a display name).
pub const MAX_NAME_CHARS: usize = 32;

/// What a name with nothing visible left in it is shown as.
const EMPTY_NAME: &str = "?";

/// Whether `c` is never shown: control characters, bidirectional controls (embeddings,
/// overrides, isolates, marks) and zero-width or otherwise invisible characters (joiners,
/// word joiner, invisible operators, byte order mark, soft hyphen, Hangul fillers, the
/// Mongolian vowel separator, tag characters).
fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{E0000}'..='\u{E007F}'
        )
}

/// A display name fit to show: hidden characters removed, every run of white space
/// (line breaks included) one plain space, no space at either end, at most
/// [`MAX_NAME_CHARS`] characters (a longer name ends in `…`), and `?` for a name with
/// nothing visible in it.
pub fn clean_name(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len().min(4 * MAX_NAME_CHARS));
    let mut chars = 0;
    let mut space = false;
    // Stop reading early: a 100 KB name costs no more than a long one.
    for c in raw.chars() {
        // White space first: a line break is a control character too, yet it separates.
        if c.is_whitespace() {
            space = chars > 0;
            continue;
        }
        if is_hidden(c) {
            continue;
        }
        if space {
            out.push(' ');
            chars += 1;
            space = false;
        }
        if chars >= MAX_NAME_CHARS {
            // One character too many: the last one kept becomes the ellipsis.
            out.pop();
            out.push('…');
            return out;
        }
        out.push(c);
        chars += 1;
    }
    if out.is_empty() {
        return EMPTY_NAME.to_string();
    }
    out
}

/// `text` with every character Discord's markdown gives a meaning escaped by a backslash
/// (Discord shows an escaped character as itself): emphasis, strike-through, spoilers,
/// code, quotes, headings and lists, masked links and their URL, mentions, emoji and
/// timestamps (`<...>`, `:name:`), and the backslash itself.
pub fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '*'
                | '_'
                | '~'
                | '`'
                | '|'
                | '>'
                | '<'
                | '#'
                | '-'
                | '['
                | ']'
                | '('
                | ')'
                | '@'
                | ':'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_removed_and_white_space_folded() {
        assert_eq!(clean_name("  Asel \u{202E}lesA\u{202C} "), "Asel lesA");
        assert_eq!(
            clean_name("A\u{200D}\u{200B}b\u{2066}c\u{2069}\u{FEFF}"),
            "Abc"
        );
        assert_eq!(
            clean_name("line\nbreak\r\n2. Fake — 3000"),
            "line break 2. Fake — 3000"
        );
        assert_eq!(clean_name("\u{3164}\u{200B} \t"), "?");
        assert_eq!(clean_name("Асель Нұрсұлтанқызы"), "Асель Нұрсұлтанқызы");
    }

    #[test]
    fn long_names_are_capped_with_an_ellipsis() {
        let long = "x".repeat(500);
        let shown = clean_name(&long);
        assert_eq!(shown.chars().count(), MAX_NAME_CHARS);
        assert!(shown.ends_with('…'));
        let exact = "y".repeat(MAX_NAME_CHARS);
        assert_eq!(clean_name(&exact), exact);
        assert_eq!(clean_name(&"ә".repeat(40)).chars().count(), MAX_NAME_CHARS);
        // Cleaning twice changes nothing (names are cleaned on entry and when shown).
        assert_eq!(clean_name(&shown), shown);
    }

    #[test]
    fn markdown_is_escaped() {
        assert_eq!(escape_markdown("**x**"), "\\*\\*x\\*\\*");
        assert_eq!(
            escape_markdown("[click](http://evil)"),
            "\\[click\\]\\(http\\://evil\\)"
        );
        assert_eq!(escape_markdown("<@123> a_b"), "\\<\\@123\\> a\\_b");
        assert_eq!(escape_markdown("Асель"), "Асель");
    }
}
