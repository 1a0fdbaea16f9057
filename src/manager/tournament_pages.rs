//! A tournament's page on the web (issues 33 and 35): its public address and what the page
//! shows, and the tournaments the front page lists.
//!
//! A page's address is signed like a game's (`links`): `<id>-<20 hex digits>`, HMAC-SHA256
//! under the same pages key, of the id with a `t:` in front, so a game and a tournament never
//! share a key even if their ids were alike. A forged or unknown key is `NoSuchTournament`.
//! Tournaments of chats listed on the front page (`public`, and the console's) are listed
//! there while they take entries or run, and for a month after they finish (`Tree::Listed`,
//! written with the end, like the listed games that ended: every process lists them, also
//! after a restart); any other is reachable only through its own link.

use super::links::{constant_time_eq, sign};
use super::public::ListedKind;
use super::tournament::{Status, TournamentRecord};
use super::*;
use std::collections::BTreeMap;

/// What the signature of a tournament's key covers before its id.
const PREFIX: &str = "t:";

/// The start of the console's chat keys: its games and events are always listed.
const CONSOLE_CHATS: &str = "console:";

/// What a tournament's page shows: the record (its standings, rounds and games come from
/// it), the page key of each of its games, and when it was read.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentPage {
    pub key: String,
    pub record: TournamentRecord,
    /// Game id -> the key of its page (`/g/<key>`), for every board with a game.
    pub game_keys: BTreeMap<GameId, String>,
    /// When the page was read (unix seconds): countdowns count from it.
    pub now: u64,
    /// The event's chat is listed (`/web public on`): its page may be found by search
    /// engines; any other says `noindex` (issue 49, finding 9).
    pub listed: bool,
}

impl TournamentPage {
    /// The key of game `game`'s page, when it is one of the event's games.
    pub fn game_key(&self, game: &str) -> Option<&str> {
        self.game_keys.get(game).map(String::as_str)
    }
}

/// A tournament the front page lists: its record and its page's key (`/t/<key>`).
#[derive(Clone, Debug, PartialEq)]
pub struct ListedTournament {
    pub key: String,
    pub record: TournamentRecord,
}

impl Manager {
    /// The key of tournament `id`'s page address (whether it exists is not checked).
    pub async fn tournament_page_key(&self, id: &str) -> Result<String, ActionError> {
        let secret = self.page_secret().await?;
        Ok(tournament_key(&secret, id))
    }

    /// The address of tournament `id`'s page when the pages are served: what its chat
    /// messages link to. Synchronous, like `page_url`.
    pub fn tournament_page_url(&self, id: &str) -> Option<String> {
        let base = self.inner.config.web_url.as_deref()?;
        let secret = self.inner.page_secret.get()?;
        Some(format!("{base}/t/{}", tournament_key(secret, id)))
    }

    /// The page of the tournament `key` names. A key that is not one, was not signed here or
    /// names no tournament is `NoSuchTournament`: a forged address learns nothing.
    pub async fn tournament_page(&self, key: &str) -> Result<TournamentPage, ActionError> {
        let (id, _) = key.split_once('-').ok_or(ActionError::NoSuchTournament)?;
        let secret = self.page_secret().await?;
        if !constant_time_eq(tournament_key(&secret, id).as_bytes(), key.as_bytes()) {
            return Err(ActionError::NoSuchTournament);
        }
        let record = self.tournament(id).await?;
        let boards = record.rounds.iter().flat_map(|r| r.boards.iter());
        let game_keys = boards
            .chain(record.arena.iter())
            .filter_map(|b| b.game.as_ref())
            .map(|game| (game.clone(), sign(&secret, game)))
            .collect();
        self.refresh_public_chats().await;
        let listed = lock(&self.inner.index).lists(&record.chat.key());
        Ok(TournamentPage {
            key: key.to_string(),
            record,
            game_keys,
            now: self.now(),
            listed,
        })
    }

    /// The stored revisions of tournaments taking entries or running (`None`: over, or no
    /// such tournament), in one store read: live pages poll them to follow changes written
    /// by other processes.
    pub async fn live_tournament_revisions(
        &self,
        ids: &[String],
    ) -> Result<Vec<Option<u64>>, ActionError> {
        Ok(self
            .inner
            .store
            .revisions_of(Tree::Tournaments, ids)
            .await?)
    }

    /// The tournaments of listed chats for the front page: up to `limit` taking entries or
    /// running (running ones first, then the newest), and up to `limit` that finished lately
    /// (the last to finish first).
    pub async fn public_tournaments(
        &self,
        limit: usize,
    ) -> Result<(Vec<ListedTournament>, Vec<ListedTournament>), ActionError> {
        let secret = self.page_secret().await?;
        // From the chat index (`tournament/live.rs`): the live events of the listed chats
        // only, never every live event.
        self.refresh_public_chats().await;
        let chats = lock(&self.inner.index).listed_chats();
        let mut running = self.indexed_live(CONSOLE_CHATS).await?;
        for chat in chats.iter().filter(|c| !c.starts_with(CONSOLE_CHATS)) {
            running.extend(self.indexed_live(chat).await?);
        }
        let order = |r: &TournamentRecord| (r.status != Status::Running, u64::MAX - r.created_at);
        running.sort_by(|a, b| order(a).cmp(&order(b)).then(a.id.cmp(&b.id)));
        let mut recent = Vec::new();
        for id in self.listed_ends(ListedKind::Tournament).await? {
            if recent.len() >= limit {
                break;
            }
            match self.tournament(&id).await {
                Ok(record) if record.status == Status::Finished => recent.push(record),
                Ok(_) | Err(ActionError::NoSuchTournament) => {}
                Err(error) => return Err(error),
            }
        }
        let with_keys = |records: Vec<TournamentRecord>| {
            records
                .into_iter()
                .take(limit)
                .map(|record| ListedTournament {
                    key: tournament_key(&secret, &record.id),
                    record,
                })
                .collect::<Vec<_>>()
        };
        Ok((with_keys(running), with_keys(recent)))
    }
}

/// `<id>-<signature of "t:<id>">`.
fn tournament_key(secret: &[u8; 32], id: &str) -> String {
    let signed = sign(secret, &format!("{PREFIX}{id}"));
    signed
        .strip_prefix(PREFIX)
        .map_or_else(|| signed.clone(), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tournament_key_is_its_id_and_a_signature_no_game_shares() {
        let secret = [7u8; 32];
        let key = tournament_key(&secret, "ab12cd");
        assert!(key.starts_with("ab12cd-"), "{key}");
        assert_eq!(key.len(), sign(&secret, "ab12cd").len());
        assert_ne!(key, sign(&secret, "ab12cd"), "a game of the same id");
        assert_eq!(
            tournament_key(&secret, "ab12cd"),
            key,
            "the same every time"
        );
        assert_ne!(tournament_key(&[8u8; 32], "ab12cd"), key, "another secret");
        assert_ne!(tournament_key(&secret, "ab12ce"), key, "another tournament");
    }
}
