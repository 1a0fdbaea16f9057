//! Who has which ongoing games and open challenges, by user and by chat: answers "my games
//! here", enforces limits, and lists what the background task must look at.

use super::config::LimitsConfig;
use super::error::{ActionError, LimitKind};
use super::game::{ChallengeRecord, Game};
use super::types::{ChallengeId, GameId, UserRef};
use std::collections::{BTreeSet, HashMap, HashSet};

#[derive(Default, Debug)]
pub struct Index {
    /// Ongoing games of each user (key `platform:id`), oldest first, with their chat key.
    user_games: HashMap<String, Vec<(GameId, String)>>,
    chat_games: HashMap<String, HashSet<GameId>>,
    ongoing: BTreeSet<GameId>,
    user_challenges: HashMap<String, HashSet<ChallengeId>>,
    chat_challenges: HashMap<String, HashSet<ChallengeId>>,
    open: BTreeSet<ChallengeId>,
}

fn count<K: std::hash::Hash + Eq, V>(map: &HashMap<K, HashSet<V>>, key: &K) -> usize {
    map.get(key).map_or(0, HashSet::len)
}

impl Index {
    /// Checks the game limits for a new game of `users` in `chat_key`.
    pub fn check_game_limits(
        &self,
        users: &[&UserRef],
        chat_key: &str,
        limits: &LimitsConfig,
    ) -> Result<(), ActionError> {
        for user in users {
            let n = self.user_games.get(&user.key()).map_or(0, Vec::len);
            if n >= limits.games_per_user {
                return Err(ActionError::Limit(LimitKind::UserGames(
                    limits.games_per_user,
                )));
            }
        }
        if count(&self.chat_games, &chat_key.to_string()) >= limits.games_per_chat {
            return Err(ActionError::Limit(LimitKind::ChatGames(
                limits.games_per_chat,
            )));
        }
        Ok(())
    }

    pub fn check_challenge_limits(
        &self,
        user: &UserRef,
        chat_key: &str,
        limits: &LimitsConfig,
    ) -> Result<(), ActionError> {
        if count(&self.user_challenges, &user.key()) >= limits.challenges_per_user {
            return Err(ActionError::Limit(LimitKind::UserChallenges(
                limits.challenges_per_user,
            )));
        }
        if count(&self.chat_challenges, &chat_key.to_string()) >= limits.challenges_per_chat {
            return Err(ActionError::Limit(LimitKind::ChatChallenges(
                limits.challenges_per_chat,
            )));
        }
        Ok(())
    }

    pub fn add_game(&mut self, game: &Game) {
        if game.is_over() || !self.ongoing.insert(game.id().clone()) {
            return;
        }
        let chat = game.rec.chat.key();
        for user in game.rec.players.iter().filter_map(|p| p.user()) {
            self.user_games
                .entry(user.key())
                .or_default()
                .push((game.id().clone(), chat.clone()));
        }
        self.chat_games
            .entry(chat)
            .or_default()
            .insert(game.id().clone());
    }

    pub fn remove_game(&mut self, game: &Game) {
        if !self.ongoing.remove(game.id()) {
            return;
        }
        for user in game.rec.players.iter().filter_map(|p| p.user()) {
            if let Some(list) = self.user_games.get_mut(&user.key()) {
                list.retain(|(id, _)| id != game.id());
            }
        }
        if let Some(set) = self.chat_games.get_mut(&game.rec.chat.key()) {
            set.remove(game.id());
        }
    }

    pub fn add_challenge(&mut self, c: &ChallengeRecord) {
        if !c.is_open() || !self.open.insert(c.id.clone()) {
            return;
        }
        self.user_challenges
            .entry(c.challenger.key())
            .or_default()
            .insert(c.id.clone());
        self.chat_challenges
            .entry(c.chat.key())
            .or_default()
            .insert(c.id.clone());
    }

    pub fn remove_challenge(&mut self, c: &ChallengeRecord) {
        if !self.open.remove(&c.id) {
            return;
        }
        if let Some(set) = self.user_challenges.get_mut(&c.challenger.key()) {
            set.remove(&c.id);
        }
        if let Some(set) = self.chat_challenges.get_mut(&c.chat.key()) {
            set.remove(&c.id);
        }
    }

    /// The user's ongoing games in one chat (`None`: every chat), oldest first.
    pub fn games_of(&self, user: &UserRef, chat_key: Option<&str>) -> Vec<GameId> {
        self.user_games
            .get(&user.key())
            .into_iter()
            .flatten()
            .filter(|(_, chat)| chat_key.is_none_or(|k| k == chat))
            .map(|(id, _)| id.clone())
            .collect()
    }

    pub fn ongoing_games(&self) -> Vec<GameId> {
        self.ongoing.iter().cloned().collect()
    }

    pub fn open_challenges(&self) -> Vec<ChallengeId> {
        self.open.iter().cloned().collect()
    }
}
