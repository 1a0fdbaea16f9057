//! The explorer's buttons (issue 52): where the explorer is (source, filters, line) and
//! whose it is, in at most `MAX_LEN` bytes.

use crate::explorer::Band;

/// Whose games an explorer button counts: a player by her key (`explorer::player_id`,
/// 8 URL-safe base64 characters), and "this chat" as the chat the button is pressed in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExplorerFrom {
    All,
    Masters,
    Club,
    Chat,
    Player(String),
}

/// A position of the explorer as its buttons keep it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerAt {
    pub from: ExplorerFrom,
    /// A time category code (`explorer::category_code`), or every category.
    pub category: Option<u8>,
    pub band: Option<Band>,
    /// Pits 1..=9 played from the standard start (at most `EXPLORER_BUTTON_MOVES`).
    pub moves: Vec<u8>,
}

impl ExplorerAt {
    pub(super) fn code(&self) -> String {
        let from = match &self.from {
            ExplorerFrom::All => "a".to_string(),
            ExplorerFrom::Masters => "m".to_string(),
            ExplorerFrom::Club => "c".to_string(),
            ExplorerFrom::Chat => "h".to_string(),
            ExplorerFrom::Player(key) => format!("p{key}"),
        };
        let category = self.category.map_or("-".to_string(), |c| c.to_string());
        let band = self.band.map_or("-".to_string(), |b| b.code().to_string());
        let moves: String = self.moves.iter().map(u8::to_string).collect();
        format!("{from}{category}{band}:{moves}")
    }

    pub(super) fn parse(view: &str, moves: &str) -> Option<ExplorerAt> {
        // ASCII only: the split below is then on a character's boundary.
        if !view.is_ascii() || view.len() < 3 {
            return None;
        }
        let (from, filters) = view.split_at(view.len() - 2);
        let [category, band] = [filters.as_bytes()[0], filters.as_bytes()[1]];
        let from = match from {
            "a" => ExplorerFrom::All,
            "m" => ExplorerFrom::Masters,
            "c" => ExplorerFrom::Club,
            "h" => ExplorerFrom::Chat,
            other => ExplorerFrom::Player(player_key(other)?),
        };
        let category = match category {
            b'-' => None,
            c @ b'0'..=b'3' => Some(c - b'0'),
            _ => return None,
        };
        let band = match band {
            b'-' => None,
            b => Some(
                Band::ALL
                    .iter()
                    .find(|x| x.code().checked_add(b'0') == Some(b))
                    .copied()?,
            ),
        };
        let moves = moves
            .bytes()
            .map(|b| match b {
                b'1'..=b'9' => Some(b - b'0'),
                _ => None,
            })
            .collect::<Option<Vec<u8>>>()?;
        Some(ExplorerAt {
            from,
            category,
            band,
            moves,
        })
    }
}

/// `p` and a player's key: 8 URL-safe base64 characters.
fn player_key(text: &str) -> Option<String> {
    let key = text.strip_prefix('p')?;
    let ok = key.len() == 8
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    ok.then(|| key.to_string())
}

/// A user id (decimal digits, any u64) written in base 36.
pub(super) fn owner_code(owner: &str) -> String {
    let mut n: u64 = owner.parse().unwrap_or(0);
    let mut digits = Vec::new();
    loop {
        digits.push(char::from_digit((n % 36) as u32, 36).unwrap_or('0'));
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.iter().rev().collect()
}

/// An owner written by [`owner_code`], back to its decimal digits.
pub(super) fn owner_id(text: &str) -> Option<String> {
    let ok = (1..=13).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && !(text.len() > 1 && text.starts_with('0'));
    if !ok {
        return None;
    }
    u64::from_str_radix(text, 36).ok().map(|n| n.to_string())
}
