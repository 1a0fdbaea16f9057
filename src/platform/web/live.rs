//! Live pages: an ongoing game's page follows it through server-sent events. One task
//! listens to the manager's events for every page of this process; each game watched by
//! at least one page has a `watch` channel holding its latest state (the page and its
//! replayed positions, made once per change, not once per page), and each page's stream
//! sends that state in its own language. A page that falls behind only ever skips to the
//! newest state: no queue grows. At most `max_live` streams are open at once.

use super::page::{clock_data, script_json, shown_at_ms, PageData};
use crate::i18n::Lang;
use crate::manager::links::GamePage;
use crate::manager::{Event, Manager};
use crate::platform::present::web::{page_words, replay, PlyShown};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
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
            ongoing: !view.is_over(),
            words: None,
            ply: None,
            review: None,
            live: None,
        })
    }
}

type Channel = watch::Sender<Arc<LiveState>>;

/// The watched games of this process.
pub struct Live {
    manager: Manager,
    /// Game id -> (page key, its channel).
    games: Mutex<HashMap<String, (String, Channel)>>,
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
        live
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<String, (String, Channel)>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A receiver of `page`'s game's states, starting with `page` itself.
    pub fn watch(&self, page: GamePage) -> watch::Receiver<Arc<LiveState>> {
        let id = page.view.id.clone();
        let mut games = self.games();
        if let Some((_, channel)) = games.get(&id) {
            // A newer change may already be in the channel; keep whichever is newer.
            channel.send_if_modified(|state| {
                let newer = page.view.version > state.page.view.version;
                if newer {
                    *state = Arc::new(LiveState::new(page.clone()));
                }
                newer
            });
            return channel.subscribe();
        }
        let key = page.key.clone();
        let (channel, receiver) = watch::channel(Arc::new(LiveState::new(page)));
        games.insert(id, (key, channel));
        receiver
    }

    /// Games with no page left are forgotten.
    fn forget_unwatched(&self) {
        self.games()
            .retain(|_, (_, channel)| channel.receiver_count() > 0);
    }

    /// Reads the game again and hands its state to its pages.
    async fn refresh(&self, id: &str) {
        let Some(key) = self.games().get(id).map(|(key, _)| key.clone()) else {
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
        if let Some((_, channel)) = self.games().get(id) {
            channel.send_if_modified(|old| {
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
