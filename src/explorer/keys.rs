//! The explorer's keys: a position's 12-character key (9 bytes of the SHA-256 of what the
//! position is, written in URL-safe base64), a player's, and a game's.

use crate::rules::{Position, Side, TuzdekRule};
use sha2::{Digest, Sha256};

/// Only the first this many half-moves of a game are counted: an opening explorer, and
/// the store stays small (the deep positions of a game are nearly all its own).
pub const MAX_PLY: usize = 30;

pub(super) const ALPHABET: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// URL-safe base64 of `bytes`, no padding.
pub(super) fn base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() / 3 * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, b| (n << 8) | u32::from(*b)) << (8 * (3 - chunk.len()));
        for i in (0..4).rev().take(chunk.len() + 1) {
            out.push(char::from(ALPHABET[((n >> (6 * i)) & 63) as usize]));
        }
    }
    out
}

fn digest(parts: &[&[u8]], len: usize) -> String {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update((part.len() as u32).to_le_bytes());
        hash.update(part);
    }
    base64(&hash.finalize()[..len])
}

/// The key of a position: the board, kazans, tuzdeks, the side to move and the variant,
/// never how it was reached (the ply count is left out, so transpositions meet).
pub fn position_key(position: &Position) -> String {
    let mut bytes = Vec::with_capacity(28);
    bytes.extend_from_slice(position.ring());
    for side in [Side::White, Side::Black] {
        bytes.push(position.store(side));
        bytes.push(position.tuzdek(side).unwrap_or(0));
    }
    bytes.push(position.to_move().index() as u8);
    let variant = position.variant();
    bytes.push(variant.balls_per_pit());
    bytes.push(match variant.tuzdek_rule() {
        TuzdekRule::Standard => 0,
        TuzdekRule::Off => 1,
        TuzdekRule::NinthAllowed => 2,
    });
    // 9 bytes (72 bits): two of a hundred million positions meet with a chance of about
    // one in a million, and the key is most of a one-game row.
    digest(&[b"pos", &bytes], 9)
}

/// A player's name as the explorer compares it: trimmed, lower case.
pub fn normalize_name(name: &str) -> String {
    name.trim().to_lowercase()
}

/// The 8-character key of a player (by name, compared as `normalize_name`).
pub fn player_id(name: &str) -> String {
    digest(&[b"player", normalize_name(name).as_bytes()], 6)
}

/// The key of a game: its moves and players, so the same game imported twice (from two
/// files, or a run resumed) is counted once.
pub fn game_id(variant_and_start: &str, pits: &[u8], white: &str, black: &str) -> String {
    digest(
        &[
            b"game",
            variant_and_start.as_bytes(),
            pits,
            normalize_name(white).as_bytes(),
            normalize_name(black).as_bytes(),
        ],
        12,
    )
}

/// The key of a position's row in one source.
pub fn source_row(position_key: &str, source: super::Source) -> String {
    format!("{position_key}{}", source.letter())
}

/// The key of one of a player's games in the player's index (`~` sorts after every
/// position key's characters, so no position's range reads it); its value is empty.
pub fn player_game(player_id: &str, game_id: &str) -> String {
    format!("~{player_id}{game_id}")
}

/// The key of one of a chat's club games in the chats' index (`#` is no character of a
/// player key, so a chat's range never reads a player's); its value is empty.
pub fn chat_game(chat_key: &str, game_id: &str) -> String {
    format!("{}{game_id}", chat_games(chat_key))
}

/// The prefix of a chat's club games in the index.
pub fn chat_games(chat_key: &str) -> String {
    format!("~#{}", digest(&[b"chat", chat_key.as_bytes()], 6))
}

/// The prefix of a player's games in the index.
pub fn player_games(player_id: &str) -> String {
    format!("~{player_id}")
}
