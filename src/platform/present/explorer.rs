//! What the opening explorer shows, decided once for chat and the web (issue 52): the
//! moves table's numbers (each move's share of the games and its results as percentages
//! that add up to 100), the line and source in words, and the last games' lines. The chat
//! front ends draw it as a picture with buttons, the web page as HTML.

use crate::explorer::{Band, MoveStats};
use crate::i18n::Lang;
use crate::manager::explorer::{ExplorerGame, ExplorerSource, ExplorerView};
use crate::t;

/// One move of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerRow {
    /// The pit played, in the mover's numbering.
    pub pit: u8,
    pub games: u64,
    /// Its share of the position's games, in percent (rounded; the shares add up to 100).
    pub share: u8,
    /// White wins, draws, Black wins in percent of its games (adding up to 100).
    pub results: [u8; 3],
    /// The average rating of the players who chose it.
    pub rating: Option<u64>,
}

/// The table of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerTable {
    /// Games that went on from the position.
    pub games: u64,
    /// Best-played first.
    pub rows: Vec<ExplorerRow>,
    /// The results of all its games, as the table's last line.
    pub results: [u8; 3],
}

/// `parts` as percentages of their sum that add up to 100 (largest remainders get the
/// rounding); all zero when the sum is.
pub fn percentages<const N: usize>(parts: [u64; N]) -> [u8; N] {
    let total: u64 = parts.iter().sum();
    let mut out = [0u8; N];
    if total == 0 {
        return out;
    }
    let mut rest: Vec<(u64, usize)> = Vec::with_capacity(N);
    let mut given = 0u64;
    for (i, part) in parts.iter().enumerate() {
        let exact = part * 100;
        out[i] = (exact / total) as u8;
        given += exact / total;
        rest.push((exact % total, i));
    }
    rest.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (_, i) in rest.into_iter().take((100 - given) as usize) {
        out[i] += 1;
    }
    out
}

fn results_of(m: &MoveStats) -> [u64; 3] {
    [m.white, m.draws, m.black]
}

/// The table of `view`'s position.
pub fn explorer_table(view: &ExplorerView) -> ExplorerTable {
    let moves = &view.answer.moves;
    let shares = percentages_of(moves.iter().map(|m| m.games).collect());
    let rows = moves
        .iter()
        .zip(shares)
        .map(|(m, share)| ExplorerRow {
            pit: m.pit,
            games: m.games,
            share,
            results: percentages(results_of(m)),
            rating: m.rating,
        })
        .collect();
    let all = moves.iter().fold([0u64; 3], |mut sum, m| {
        for (s, r) in sum.iter_mut().zip(results_of(m)) {
            *s += r;
        }
        sum
    });
    ExplorerTable {
        games: view.answer.games,
        rows,
        results: percentages(all),
    }
}

/// `percentages` of a list of any length.
fn percentages_of(parts: Vec<u64>) -> Vec<u8> {
    let total: u64 = parts.iter().sum();
    if total == 0 {
        return vec![0; parts.len()];
    }
    let mut out: Vec<u8> = parts.iter().map(|p| (p * 100 / total) as u8).collect();
    let given: u64 = out.iter().map(|&p| u64::from(p)).sum();
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by(|&a, &b| {
        ((parts[b] * 100) % total)
            .cmp(&((parts[a] * 100) % total))
            .then(a.cmp(&b))
    });
    for i in order.into_iter().take((100 - given) as usize) {
        out[i] += 1;
    }
    out
}

/// The line played to reach the position, as players write it ("7 7 2"), or the start.
pub fn line_text(moves: &[u8], lang: Lang) -> String {
    if moves.is_empty() {
        return t!(lang, "explorer-line-start");
    }
    let pits: Vec<String> = moves.iter().map(u8::to_string).collect();
    t!(lang, "explorer-line", moves = pits.join(" "))
}

/// Whose games are counted, in words.
pub fn source_text(source: &ExplorerSource, lang: Lang) -> String {
    match source {
        ExplorerSource::All => t!(lang, "explorer-source-all"),
        ExplorerSource::Masters => t!(lang, "explorer-source-masters"),
        ExplorerSource::Club => t!(lang, "explorer-source-club"),
        ExplorerSource::Chat(_) => t!(lang, "explorer-source-chat"),
        ExplorerSource::Player(name)
        | ExplorerSource::PlayerKey {
            name: Some(name), ..
        } => {
            let name = crate::model::names::clean_name(name);
            t!(lang, "explorer-source-player", name = name)
        }
        ExplorerSource::PlayerKey { name: None, .. } => t!(lang, "explorer-source-one-player"),
    }
}

/// A rating band in words (the filter's button and the page's choice).
pub fn band_text(band: Band, lang: Lang) -> String {
    match band {
        Band::Unrated => t!(lang, "explorer-band-unrated"),
        Band::Below1200 => t!(lang, "explorer-band-below-1200"),
        Band::From1200 => "1200–1600".to_string(),
        Band::From1600 => "1600–2000".to_string(),
        Band::From2000 => "2000+".to_string(),
    }
}

/// One of the last games: "White – Black, 1-0, Event, date (pit 7)".
pub fn last_game_text(game: &ExplorerGame, lang: Lang) -> String {
    let info = &game.game.info;
    let clean = crate::model::names::clean_name;
    let result = match info.result {
        crate::explorer::Result3::White => "1-0",
        crate::explorer::Result3::Draw => "½-½",
        crate::explorer::Result3::Black => "0-1",
    };
    let mut text = t!(
        lang,
        "explorer-last-game",
        white = clean(&info.white),
        black = clean(&info.black),
        result = result,
        pit = game.game.pit
    );
    for extra in [&info.event, &info.date].into_iter().flatten() {
        text.push_str(", ");
        text.push_str(&clean(extra));
    }
    text
}

/// The position has no games in this source and filter.
pub fn no_games_text(lang: Lang) -> String {
    t!(lang, "explorer-no-games")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_add_up_to_a_hundred() {
        assert_eq!(percentages([1, 1, 1]), [34, 33, 33]);
        assert_eq!(percentages([2, 0, 1]), [67, 0, 33]);
        assert_eq!(percentages([0, 0, 0]), [0, 0, 0]);
        assert_eq!(percentages([5, 0, 0]), [100, 0, 0]);
        assert_eq!(
            percentages_of(vec![1, 1, 1, 1, 1, 1]),
            vec![17, 17, 17, 17, 16, 16]
        );
        assert_eq!(percentages_of(vec![]), Vec::<u8>::new());
        for parts in [[7u64, 13, 80], [1, 2, 3], [999, 1, 0]] {
            assert_eq!(
                percentages(parts)
                    .iter()
                    .map(|&p| u32::from(p))
                    .sum::<u32>(),
                100
            );
        }
    }
}
