//! One imported game of the explorer, as its web page shows it (issue 52): the games a
//! position's "last games" name by their explorer key.

use super::*;
use crate::explorer::GameInfo;

/// How long an explorer game's key is (`explorer::game_id`: 12 bytes in URL-safe base64).
const GAME_KEY: usize = 16;

impl Manager {
    /// The imported game `id` of the explorer. `NoSuchGame` for a key that names none, and
    /// for a club game: those have their own pages (`ExplorerGame::page_url`), and a game
    /// of a chat that is not public is shown nowhere else.
    pub async fn explorer_game(&self, id: &str) -> Result<GameInfo, ActionError> {
        let well_formed = id.len() == GAME_KEY
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !well_formed {
            return Err(ActionError::NoSuchGame);
        }
        let found = self
            .inner
            .store
            .get_many::<GameInfo>(Tree::ExplorerGames, &[id.to_string()])
            .await?;
        match found.into_iter().next().flatten() {
            Some(game) if game.value.game.is_none() => Ok(game.value),
            _ => Err(ActionError::NoSuchGame),
        }
    }
}
