//! Live tournament pages: a tournament's page follows its standings and games through
//! server-sent events, as a game's page follows its moves (`live`). One task listens to the
//! manager's events for every page of this process; each tournament watched by at least one
//! page has a `watch` channel holding its latest state, whose changing part is built at most
//! once per change and language, not once per page. A page that falls behind only skips to
//! the newest state: no queue grows.
//!
//! A change (`Event::Tournament`: an entry, a pairing, a result recorded by the tick once a
//! game ended, the end) makes the tournament be read again. Reads of one tournament never
//! overlap: a change arriving during a read marks it to be read once more after, so the last
//! read always starts after the last change and a slow read never replaces a newer one.
//!
//! A change written by another process sharing the store sends no event here: every `POLL`
//! one store read asks for the stored revisions of the watched tournaments that can still
//! change, and each one whose revision moved is read again.

use super::poll::{self, Seen};
use super::tournament::live_json;
use crate::i18n::Lang;
use crate::manager::tournament::Status;
use crate::manager::tournament_pages::TournamentPage;
use crate::manager::{Event, Manager};
use crate::platform::present::web_tournament::tournament_words;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio::sync::{broadcast, watch};

/// How often the watched tournaments' stored revisions are read (see the top): a result is
/// recorded by a tick every 2 s, so a second is soon enough.
const POLL: Duration = Duration::from_secs(1);

/// A tournament's state as live pages show it, its changing part made once per language.
pub struct LiveTournament {
    pub page: TournamentPage,
    json: [OnceLock<String>; Lang::ALL.len()],
}

impl LiveTournament {
    pub fn new(page: TournamentPage) -> LiveTournament {
        LiveTournament {
            page,
            json: Default::default(),
        }
    }

    /// The event a page in `lang` receives.
    pub fn json(&self, lang: Lang) -> String {
        let i = Lang::ALL.iter().position(|l| *l == lang).unwrap_or(0);
        self.json[i]
            .get_or_init(|| live_json(&tournament_words(&self.page, lang)))
            .clone()
    }

    /// Whether the tournament can still change.
    pub fn ongoing(&self) -> bool {
        matches!(self.page.record.status, Status::Open | Status::Running)
    }
}

type Channel = watch::Sender<Arc<LiveTournament>>;

/// One watched tournament: its page's key, its channel, and whether it is being read again.
struct Watched {
    key: String,
    channel: Channel,
    reading: bool,
    again: bool,
    /// The stored revision the last poll saw.
    stored: Seen,
}

/// The watched tournaments of this process.
pub struct LiveTournaments {
    manager: Manager,
    watched: Mutex<HashMap<String, Watched>>,
}

impl LiveTournaments {
    /// Starts listening to `manager`'s events.
    pub fn start(manager: Manager) -> Arc<LiveTournaments> {
        let live = Arc::new(LiveTournaments {
            manager: manager.clone(),
            watched: Mutex::new(HashMap::new()),
        });
        let events = manager.subscribe();
        tokio::spawn(listen(Arc::downgrade(&live), events));
        let polled = poll::every(Arc::downgrade(&live), POLL, |live| async move {
            live.poll_once().await
        });
        tokio::spawn(polled);
        live
    }

    fn watched(&self) -> std::sync::MutexGuard<'_, HashMap<String, Watched>> {
        self.watched.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A receiver of `page`'s tournament's states, starting with the newest known.
    pub fn watch(self: &Arc<Self>, page: TournamentPage) -> watch::Receiver<Arc<LiveTournament>> {
        let id = page.record.id.clone();
        let mut watched = self.watched();
        if let Some(w) = watched.get(&id) {
            let receiver = w.channel.subscribe();
            // The channel may be older than this read (a change read by no one yet): read
            // again, which changes nothing if it was not.
            if w.channel.borrow().page.record != page.record {
                drop(watched);
                self.changed(&id);
            }
            return receiver;
        }
        let key = page.key.clone();
        let (channel, receiver) = watch::channel(Arc::new(LiveTournament::new(page)));
        watched.insert(
            id,
            Watched {
                key,
                channel,
                reading: false,
                again: false,
                stored: None,
            },
        );
        receiver
    }

    /// Tournament `id` changed: read it again, now or after the read under way.
    fn changed(self: &Arc<Self>, id: &str) {
        let key = {
            let mut watched = self.watched();
            let Some(w) = watched.get_mut(id) else { return };
            if w.reading {
                w.again = true;
                return;
            }
            w.reading = true;
            w.key.clone()
        };
        let live = self.clone();
        let id = id.to_string();
        tokio::spawn(async move { live.read(&id, &key).await });
    }

    /// Reads the tournament until no change came during the last read, handing each state
    /// that differs to its pages.
    async fn read(&self, id: &str, key: &str) {
        loop {
            let read = self.manager.tournament_page(key).await;
            let mut watched = self.watched();
            let Some(w) = watched.get_mut(id) else { return };
            match read {
                Ok(page) => {
                    w.channel.send_if_modified(|old| {
                        let changed = old.page.record != page.record;
                        if changed {
                            *old = Arc::new(LiveTournament::new(page));
                        }
                        changed
                    });
                }
                Err(error) => {
                    tracing::debug!(tournament = id, %error, "web: a live tournament was not read");
                }
            }
            if w.again {
                w.again = false;
                continue;
            }
            w.reading = false;
            if w.channel.receiver_count() == 0 {
                watched.remove(id);
            }
            return;
        }
    }

    /// Reads the stored revisions of the watched tournaments that can still change, once,
    /// and reads again those whose revision moved since the last poll.
    async fn poll_once(self: &Arc<Self>) {
        self.forget_unwatched();
        let ids: Vec<String> = self
            .watched()
            .iter()
            .filter(|(_, w)| w.channel.borrow().ongoing())
            .map(|(id, _)| id.clone())
            .collect();
        if ids.is_empty() {
            return;
        }
        let revisions = match self.manager.live_tournament_revisions(&ids).await {
            Ok(revisions) => revisions,
            Err(error) => {
                tracing::debug!(%error, "web: watched tournaments' revisions not read");
                return;
            }
        };
        let moved: Vec<String> = {
            let mut watched = self.watched();
            let moved = ids.into_iter().zip(revisions).filter(|(id, revision)| {
                let Some(w) = watched.get_mut(id) else {
                    return false;
                };
                poll::moved(&mut w.stored, *revision)
            });
            moved.map(|(id, _)| id).collect()
        };
        for id in moved {
            self.changed(&id);
        }
    }

    /// Tournaments with no page left are forgotten.
    fn forget_unwatched(&self) {
        self.watched()
            .retain(|_, w| w.reading || w.channel.receiver_count() > 0);
    }

    /// Every watched tournament, read again (after missed events).
    fn changed_all(self: &Arc<Self>) {
        let ids: Vec<String> = self.watched().keys().cloned().collect();
        for id in ids {
            self.changed(&id);
        }
    }

    /// How many tournaments are watched (for tests).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.watched().len()
    }
}

/// The events of the manager, for as long as the web server runs.
async fn listen(live: std::sync::Weak<LiveTournaments>, mut events: broadcast::Receiver<Event>) {
    loop {
        let event = events.recv().await;
        let Some(live) = live.upgrade() else { return };
        match event {
            Ok(Event::Tournament(news)) => {
                live.changed(&news.record.id);
                live.forget_unwatched();
            }
            Ok(_) => {}
            Err(broadcast::error::RecvError::Lagged(missed)) => {
                tracing::warn!(
                    missed,
                    "web: live tournament pages missed events; reading them again"
                );
                live.changed_all();
            }
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{EngineConfig, EnginePool};
    use crate::manager::tournament::{Format, NewTournament};
    use crate::model::{ChatRef, Platform, TimeControl, UserRef};
    use crate::rules::Variant;
    use std::time::Duration;

    #[tokio::test]
    async fn pages_of_one_tournament_share_a_channel_that_follows_its_changes() {
        let store = crate::store::Store::temporary().expect("a store");
        let engine = EnginePool::new(EngineConfig::default());
        let config = crate::testing::manager::test_config();
        let m = Manager::start(store, engine, config)
            .await
            .expect("a manager");
        let creator = UserRef::new(Platform::Telegram, "1", "Asel");
        let new = NewTournament {
            format: Format::Arena { minutes: 30 },
            time: TimeControl::Correspondence,
            variant: Variant::STANDARD,
            rated: false,
            starts_at: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .expect("after 1970")
                .as_secs()
                + 3600,
        };
        let chat = ChatRef::new(Platform::Telegram, "-100");
        let t = m
            .create_tournament(chat, &creator, new)
            .await
            .expect("made");
        let key = m.tournament_page_key(&t.id).await.expect("a key");
        let live = LiveTournaments::start(m.clone());
        let page = m.tournament_page(&key).await.expect("its page");
        let mut first = live.watch(page.clone());
        let second = live.watch(page);
        assert_eq!(live.len(), 1, "one watcher per tournament");
        assert!(first.borrow().ongoing());
        m.join_tournament(&t.id, &creator).await.expect("joined");
        tokio::time::timeout(Duration::from_secs(5), first.changed())
            .await
            .expect("the change within 5 s")
            .expect("the channel is open");
        assert_eq!(first.borrow().page.record.entrants.len(), 1);
        assert_eq!(second.borrow().page.record.entrants.len(), 1);
        assert!(first.borrow().json(Lang::En).contains("1 player"));
        drop((first, second));
        // The next event forgets it.
        m.leave_tournament(&t.id, &creator).await.expect("left");
        tokio::time::timeout(Duration::from_secs(5), async {
            while live.len() > 0 {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await
        .expect("forgotten once no page watches it");
    }
}
