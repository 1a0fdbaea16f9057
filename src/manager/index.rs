//! Who has which ongoing games and open challenges, by user and by chat: answers "my games
//! here" and lists what the background task must look at. (The limits on games and
//! challenges are counted in the store, where every process sees them: `seats`.)

use super::game::{ChallengeRecord, Game};
use crate::model::{ChallengeId, GameId, UserRef};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

#[derive(Default, Debug)]
pub struct Index {
    /// Ongoing games of each user (key `platform:id`), oldest first, with their chat key.
    user_games: HashMap<String, Vec<(GameId, String)>>,
    chat_games: HashMap<String, HashSet<GameId>>,
    ongoing: BTreeSet<GameId>,
    user_challenges: HashMap<String, HashSet<ChallengeId>>,
    chat_challenges: HashMap<String, HashSet<ChallengeId>>,
    open: BTreeSet<ChallengeId>,
    /// The game that ended last in each chat (`/review` without a game), with the order it
    /// ended in; memory only, at most `FINISHED_KEPT` chats.
    finished: HashMap<String, (GameId, u64)>,
    finished_count: u64,
    /// What the web's front page lists (`public`).
    listed: Listed,
}

/// The games of chats listed on the web's front page (console chats, and chats whose admins
/// chose so): ongoing ones in the order they were listed, kept here so a page view reads
/// no list from the store. (Those that ended are in the store, `Tree::Listed`: every
/// process lists them, also after a restart.)
#[derive(Default, Debug)]
struct Listed {
    /// Keys of the chats that chose to be listed.
    public: HashSet<String>,
    /// Ongoing listed games by when they were listed, and the reverse.
    live: BTreeMap<u64, GameId>,
    live_at: HashMap<GameId, u64>,
    count: u64,
}

/// Chats whose last ended game is kept: past it, the chats whose game ended longest ago are
/// forgotten (a game id still names any game).
const FINISHED_KEPT: usize = 10_000;

/// Removes `id` from the set under `key`, and the set itself once empty: a map keyed by
/// every user and chat ever seen would only grow (every inline message is a chat).
fn forget(map: &mut HashMap<String, HashSet<String>>, key: &str, id: &str) {
    if let Some(set) = map.get_mut(key) {
        set.remove(id);
        if set.is_empty() {
            map.remove(key);
        }
    }
}

impl Index {
    pub fn add_game(&mut self, game: &Game) {
        if game.is_over() || !self.ongoing.insert(game.id().clone()) {
            return;
        }
        let chat = game.rec.chat.key();
        if self.listed.lists(&chat) {
            self.listed.add_live(game.id());
        }
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
        self.listed.remove_live(game.id());
        if game.is_over() {
            self.note_finished(&game.rec.chat.key(), game.id());
        }
        for user in game.rec.players.iter().filter_map(|p| p.user()) {
            let key = user.key();
            if let Some(list) = self.user_games.get_mut(&key) {
                list.retain(|(id, _)| id != game.id());
                if list.is_empty() {
                    self.user_games.remove(&key);
                }
            }
        }
        forget(&mut self.chat_games, &game.rec.chat.key(), game.id());
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
        forget(&mut self.user_challenges, &c.challenger.key(), &c.id);
        forget(&mut self.chat_challenges, &c.chat.key(), &c.id);
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

    /// Notes that `game` ended in `chat_key`.
    fn note_finished(&mut self, chat_key: &str, game: &GameId) {
        self.finished_count += 1;
        self.finished
            .insert(chat_key.to_string(), (game.clone(), self.finished_count));
        if self.finished.len() > FINISHED_KEPT {
            // Forget the older half at once: one pass per FINISHED_KEPT / 2 endings.
            let keep_after = self.finished_count - (FINISHED_KEPT / 2) as u64;
            self.finished.retain(|_, (_, n)| *n > keep_after);
        }
    }

    /// The game that ended last in `chat_key`, if one ended since the start.
    pub fn last_finished(&self, chat_key: &str) -> Option<GameId> {
        self.finished.get(chat_key).map(|(id, _)| id.clone())
    }

    pub fn ongoing_games(&self) -> Vec<GameId> {
        self.ongoing.iter().cloned().collect()
    }

    pub fn open_challenges(&self) -> Vec<ChallengeId> {
        self.open.iter().cloned().collect()
    }

    /// Lists (or stops listing) the chat `chat_key` and its ongoing games.
    pub fn set_public(&mut self, chat_key: &str, public: bool) {
        let changed = if public {
            self.listed.public.insert(chat_key.to_string())
        } else {
            self.listed.public.remove(chat_key)
        };
        if !changed || chat_key.starts_with(CONSOLE_PREFIX) {
            return;
        }
        let games = self.chat_games.get(chat_key).into_iter().flatten();
        for id in games {
            if public {
                self.listed.add_live(id);
            } else {
                self.listed.remove_live(id);
            }
        }
    }

    /// Whether the chat `chat_key` chose to be listed (the console's always are).
    pub fn is_public(&self, chat_key: &str) -> bool {
        chat_key.starts_with(CONSOLE_PREFIX) || self.listed.public.contains(chat_key)
    }

    /// Makes `public` the chats that chose to be listed (as read from the store).
    pub fn replace_public(&mut self, public: HashSet<String>) {
        let gone: Vec<String> = self.listed.public.difference(&public).cloned().collect();
        for chat in gone {
            self.set_public(&chat, false);
        }
        for chat in public {
            self.set_public(&chat, true);
        }
    }

    /// Up to `limit` ongoing listed games, the newest listed first.
    pub fn listed_games(&self, limit: usize) -> Vec<GameId> {
        self.listed
            .live
            .values()
            .rev()
            .take(limit)
            .cloned()
            .collect()
    }

    /// The keys of the chats that chose to be listed (the console's are listed without).
    pub fn listed_chats(&self) -> Vec<String> {
        self.listed.public.iter().cloned().collect()
    }

    /// Whether the games of the chat `chat_key` are listed.
    pub fn lists(&self, chat_key: &str) -> bool {
        self.listed.lists(chat_key)
    }
}

/// Chat keys of the console's games, which are always listed.
const CONSOLE_PREFIX: &str = "console:";

impl Listed {
    /// Whether the chat's games are listed: the console's always, others by choice.
    fn lists(&self, chat_key: &str) -> bool {
        chat_key.starts_with(CONSOLE_PREFIX) || self.public.contains(chat_key)
    }

    fn add_live(&mut self, id: &GameId) {
        if self.live_at.contains_key(id) {
            return;
        }
        self.count += 1;
        self.live.insert(self.count, id.clone());
        self.live_at.insert(id.clone(), self.count);
    }

    fn remove_live(&mut self, id: &GameId) {
        if let Some(n) = self.live_at.remove(id) {
            self.live.remove(&n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manager::game::GameRecord;
    use crate::manager::types::Player;
    use crate::manager::view::{ChallengeStatus, FinishReason, GameStatus};
    use crate::model::{ChatRef, Level, Platform};
    use crate::rules::Variant;

    fn game(id: &str, chat: &str, user: &str) -> Game {
        Game::new(GameRecord {
            id: id.into(),
            chat: ChatRef::new(Platform::Telegram, chat),
            variant: Variant::STANDARD,
            players: [
                Player::Human(UserRef::new(Platform::Telegram, user, "U")),
                Player::Bot(Level::Easy),
            ],
            moves: vec![],
            status: GameStatus::Ongoing,
            draw_offer: None,
            created_at: 0,
            last_move_at: 0,
            messages: vec![],
            seed: 0,
            rematch: None,
            rated: false,
            ended: None,
            time_control: Default::default(),
            clock: None,
            hints: 0,
            version: 0,
            arena: None,
            seat: None,
            watched: false,
            alerts: Vec::new(),
            premoves: Default::default(),
        })
    }

    fn challenge(id: &str, chat: &str, user: &str) -> ChallengeRecord {
        ChallengeRecord {
            id: id.into(),
            challenger: UserRef::new(Platform::Telegram, user, "U"),
            opponent: None,
            variant: Variant::STANDARD,
            chat: ChatRef::new(Platform::Telegram, chat),
            created_at: 0,
            expires_at: 1,
            status: ChallengeStatus::Open,
            challenger_side: None,
            rematch_of: None,
            messages: vec![],
            rated: true,
            time_control: Default::default(),
            time_changeable: false,
            time_changes: 0,
        }
    }

    #[test]
    fn nothing_is_kept_for_users_and_chats_with_nothing_left() {
        let mut index = Index::default();
        for i in 0..100 {
            let (chat, user) = (format!("inline:{i}"), format!("u{i}"));
            let mut g = game(&format!("g{i}"), &chat, &user);
            let c = challenge(&format!("c{i}"), &chat, &user);
            index.add_game(&g);
            index.add_challenge(&c);
            g.finish(None, FinishReason::Aborted);
            index.remove_game(&g);
            index.remove_challenge(&c);
        }
        assert!(index.user_games.is_empty());
        assert!(index.chat_games.is_empty());
        assert!(index.user_challenges.is_empty());
        assert!(index.chat_challenges.is_empty());
        assert!(index.ongoing.is_empty() && index.open.is_empty());
    }

    #[test]
    fn the_last_ended_game_of_each_chat_is_kept_within_a_bound() {
        let mut index = Index::default();
        let mut a = game("g1", "chat-a", "u1");
        let mut b = game("g2", "chat-a", "u2");
        index.add_game(&a);
        index.add_game(&b);
        assert_eq!(index.last_finished("telegram:chat-a"), None);
        b.finish(None, FinishReason::Agreed);
        index.remove_game(&b);
        a.finish(None, FinishReason::Agreed);
        index.remove_game(&a);
        assert_eq!(
            index.last_finished("telegram:chat-a").as_deref(),
            Some("g1")
        );
        // A game dropped before it ended (its creation failed) is no ended game.
        let c = game("g3", "chat-c", "u3");
        index.add_game(&c);
        index.remove_game(&c);
        assert_eq!(index.last_finished("telegram:chat-c"), None);
        for i in 0..FINISHED_KEPT + 10 {
            let mut g = game(&format!("h{i}"), &format!("c{i}"), "u");
            index.add_game(&g);
            g.finish(None, FinishReason::Agreed);
            index.remove_game(&g);
        }
        assert!(index.finished.len() <= FINISHED_KEPT);
        let newest = format!("telegram:c{}", FINISHED_KEPT + 9);
        assert!(index.last_finished(&newest).is_some());
        assert_eq!(index.last_finished("telegram:chat-a"), None);
    }

    #[test]
    fn only_listed_chats_and_the_console_are_listed_newest_first() {
        let mut index = Index::default();
        let console = |id: &str| {
            let mut g = game(id, "x", "u");
            g.rec.chat = ChatRef::new(Platform::Console, "local");
            g
        };
        let (mut a, b, c) = (
            game("a", "pub", "u1"),
            game("b", "priv", "u2"),
            console("c"),
        );
        index.add_game(&a);
        index.add_game(&b);
        index.add_game(&c);
        assert_eq!(index.listed_games(10), vec!["c"]);
        assert!(!index.lists("telegram:pub") && index.lists("console:local"));
        index.set_public("telegram:pub", true);
        assert!(index.lists("telegram:pub") && !index.lists("telegram:priv"));
        assert_eq!(index.listed_games(10), vec!["a", "c"]);
        assert_eq!(index.listed_games(1), vec!["a"]);
        a.finish(None, FinishReason::Agreed);
        index.remove_game(&a);
        assert_eq!(index.listed_games(10), vec!["c"]);
        index.set_public("telegram:pub", true);
        index.replace_public(HashSet::new());
        assert!(!index.lists("telegram:pub"));
        assert_eq!(index.listed_games(10), vec!["c"]);
    }
}
