//! Live pages: an ongoing game's page follows it through server-sent events. One task
//! listens to the manager's events for every page of this process; each game watched by
//! at least one page has a `watch` channel holding its latest state (the page and its
//! replayed positions, made once per change, not once per page), and each page's stream
//! sends that state in its own language. A page that falls behind only ever skips to the
//! newest state: no queue grows. At most `max_live` streams are open at once.
//!
//! A move made by another process sharing the store sends no event here: every `POLL`,
//! one store read asks for the stored revisions of every followed game, and a game whose
//! revision moved is read again. That is how a page served by one process follows a game
//! played through another within a second.

use super::page::{clock_data, script_json, shown_at_ms, PageData};
use super::poll::{self, Seen};
use crate::i18n::Lang;
use crate::manager::links::GamePage;
use crate::manager::{Event, Manager};
use crate::platform::present::web::{page_words, replay, PlyShown};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, watch, Semaphore};

/// A game's state as live pages show it.
pub struct LiveState {
    pub page: GamePage,
    pub plies: Vec<PlyShown>,
}

impl LiveState {
    pub fn new(page: GamePage) -> LiveState {
        let plies = replay(&page);
        LiveState { page, plies }
    }

    /// The JSON a page receives, in `lang`.
    pub fn json(&self, lang: Lang) -> String {
        let words = page_words(&self.page, lang);
        let view = &self.page.view;
        script_json(&PageData {
            plies: &self.plies,
            status: &words.status,
            clock: clock_data(&self.page),
            now_ms: shown_at_ms(&self.page),
            version: view.version,
            ongoing: !view.is_over(),
            words: None,
            ply: None,
            review: None,
            live: None,
        })
    }
}

type Channel = watch::Sender<Arc<LiveState>>;

/// How often the followed games' stored revisions are read (see the top).
const POLL: Duration = Duration::from_millis(300);

/// A game followed by live pages.
struct Followed {
    /// Its page key.
    key: String,
    channel: Channel,
    /// The stored revision the last poll saw.
    stored: Seen,
}

/// The watched games of this process.
pub struct Live {
    manager: Manager,
    /// Game id -> what its pages follow.
    games: Mutex<HashMap<String, Followed>>,
    pub slots: Arc<Semaphore>,
}

impl Live {
    /// Starts listening to `manager`'s events.
    pub fn start(manager: Manager, max_live: usize) -> Arc<Live> {
        let live = Arc::new(Live {
            manager: manager.clone(),
            games: Mutex::new(HashMap::new()),
            slots: Arc::new(Semaphore::new(max_live)),
        });
        let events = manager.subscribe();
        tokio::spawn(listen(Arc::downgrade(&live), events));
        let polled = poll::every(Arc::downgrade(&live), POLL, |live| async move {
            live.poll_once().await
        });
        tokio::spawn(polled);
        live
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<String, Followed>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A receiver of `page`'s game's states, starting with `page` itself.
    pub fn watch(&self, page: GamePage) -> watch::Receiver<Arc<LiveState>> {
        let id = page.view.id.clone();
        let mut games = self.games();
        if let Some(followed) = games.get(&id) {
            // A newer change may already be in the channel; keep whichever is newer.
            followed.channel.send_if_modified(|state| {
                let newer = page.view.version > state.page.view.version;
                if newer {
                    *state = Arc::new(LiveState::new(page.clone()));
                }
                newer
            });
            return followed.channel.subscribe();
        }
        let key = page.key.clone();
        let (channel, receiver) = watch::channel(Arc::new(LiveState::new(page)));
        let followed = Followed {
            key,
            channel,
            stored: None,
        };
        games.insert(id, followed);
        receiver
    }

    /// Games with no page left are forgotten.
    fn forget_unwatched(&self) {
        self.games()
            .retain(|_, followed| followed.channel.receiver_count() > 0);
    }

    /// Reads the stored revisions of the followed ongoing games once, and reads again
    /// those whose revision moved since the last poll (or that were never polled).
    async fn poll_once(self: &Arc<Self>) {
        self.forget_unwatched();
        let ids: Vec<String> = self
            .games()
            .iter()
            .filter(|(_, f)| !f.channel.borrow().page.view.is_over())
            .map(|(id, _)| id.clone())
            .collect();
        if ids.is_empty() {
            return;
        }
        let revisions = match self.manager.live_revisions(&ids).await {
            Ok(revisions) => revisions,
            Err(error) => {
                tracing::debug!(%error, "web: followed games' revisions not read");
                return;
            }
        };
        let moved: Vec<String> = {
            let mut games = self.games();
            ids.into_iter()
                .zip(revisions)
                .filter(|(id, revision)| {
                    let Some(followed) = games.get_mut(id) else {
                        return false;
                    };
                    poll::moved(&mut followed.stored, *revision)
                })
                .map(|(id, _)| id)
                .collect()
        };
        for id in moved {
            let live = self.clone();
            tokio::spawn(async move { live.refresh(&id).await });
        }
    }

    /// Reads the game again and hands its state to its pages.
    async fn refresh(&self, id: &str) {
        let Some(key) = self.games().get(id).map(|f| f.key.clone()) else {
            return;
        };
        let page = match self.manager.game_page(&key).await {
            Ok(page) => page,
            Err(error) => {
                tracing::debug!(game = id, %error, "web: a live game could not be read");
                return;
            }
        };
        let state = Arc::new(LiveState::new(page));
        if let Some(followed) = self.games().get(id) {
            followed.channel.send_if_modified(|old| {
                let newer = state.page.view.version >= old.page.view.version;
                if newer {
                    *old = state.clone();
                }
                newer
            });
        }
    }

    /// Every watched game, read again (after missed events).
    async fn refresh_all(&self) {
        let ids: Vec<String> = self.games().keys().cloned().collect();
        for id in ids {
            self.refresh(&id).await;
        }
    }
}

/// The events of the manager, for as long as the web server runs.
async fn listen(live: std::sync::Weak<Live>, mut events: broadcast::Receiver<Event>) {
    loop {
        let event = events.recv().await;
        let Some(live) = live.upgrade() else { return };
        match event {
            Ok(Event::Game(view)) | Ok(Event::Acted { view, .. }) => {
                let watched = live.games().contains_key(&view.id);
                if watched {
                    // Its own task: a game whose lock is busy never holds up the others'
                    // pages (states carry versions, so a late refresh loses to a newer one).
                    let live = live.clone();
                    tokio::spawn(async move { live.refresh(&view.id).await });
                }
                live.forget_unwatched();
            }
            Ok(_) => {}
            Err(broadcast::error::RecvError::Lagged(missed)) => {
                tracing::warn!(
                    missed,
                    "web: live pages missed events; reading their games again"
                );
                let live = live.clone();
                tokio::spawn(async move { live.refresh_all().await });
            }
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}
