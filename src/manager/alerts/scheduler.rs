//! The scheduler: one task per process ticks every second, reads the due rows of the
//! platforms this process serves (one range read each), and for each row makes one
//! compare-and-set on it: dropped, re-keyed to a later time, or claimed. A claim moves the
//! row to the key of its lease's end with this process's name in it, and hands the alert
//! to the platform's bounded queue without waiting; when the lease runs out before
//! `alert_done` (the process died), the row is simply due again and another process claims
//! it.

use super::plan::{due_bound, told_in_private, AlertRow};
use super::settings::{current_digest, NotifyState};
use super::*;
use crate::model::notify::NotifyMode;
use crate::store::{Batch, Expect, KeyRange, StoreError, Versioned};
use tokio::sync::mpsc;

/// Alerts waiting in a platform's queue at most: the scheduler never waits on it, a row
/// that finds it full stays due for a later tick.
pub const ALERT_QUEUE: usize = 64;
/// How long a claim holds a row (manager time): after it, another process may send it.
pub const ALERT_LEASE_MS: u64 = 20_000;
/// The pause after `AlertOutcome::Later`.
pub const ALERT_LATER_MS: u64 = 60_000;
/// At most one list of games per player per this long.
pub const MERGE_MS: u64 = 10 * 60_000;
/// How long this process leaves its own claim to its adapter (an adapter that never
/// answers loses it then).
const HANDED_MAX_MS: u64 = 10 * 60_000;
/// Rows one tick reads per platform at most.
const PER_TICK: usize = 256;
/// How often the scheduler ticks.
const TICK: std::time::Duration = std::time::Duration::from_secs(1);

/// The scheduler's state in a process.
pub(crate) struct Alerts {
    queues: Mutex<HashMap<Platform, mpsc::Sender<Alert>>>,
    /// This process's name in its claims.
    owner: String,
    /// Players this process read (or made) reachable, and when (`reachable_again`).
    pub(super) reachable: mini_moka::sync::Cache<String, u64>,
    /// Alerts handed to an adapter and not yet done, and when: this process does not take
    /// its own claim again while its adapter still holds it (at most `HANDED_MAX_MS`).
    handed: Mutex<HashMap<String, u64>>,
    /// Ticks do not overlap.
    ticking: AsyncMutex<()>,
}

impl Alerts {
    pub(crate) fn new() -> Alerts {
        Alerts {
            queues: Mutex::new(HashMap::new()),
            owner: format!("{:016x}", rand::thread_rng().gen::<u64>()),
            reachable: mini_moka::sync::Cache::builder()
                .max_capacity(langs::RECENT_USERS)
                .time_to_live(std::time::Duration::from_secs(3600))
                .build(),
            handed: Mutex::new(HashMap::new()),
            ticking: AsyncMutex::new(()),
        }
    }

    pub(super) fn serve(&self, platform: Platform) -> mpsc::Receiver<Alert> {
        let (tx, rx) = mpsc::channel(ALERT_QUEUE);
        lock(&self.queues).insert(platform, tx);
        rx
    }

    fn queue(&self, platform: Platform) -> Option<mpsc::Sender<Alert>> {
        lock(&self.queues)
            .get(&platform)
            .filter(|q| !q.is_closed())
            .cloned()
    }

    fn platforms(&self) -> Vec<Platform> {
        lock(&self.queues)
            .iter()
            .filter(|(_, q)| !q.is_closed())
            .map(|(p, _)| *p)
            .collect()
    }
}

/// What becomes of a due row.
enum Decision {
    /// Stale, or nothing to send: deleted.
    Drop,
    /// Not now: re-keyed to this time.
    At(u64),
    /// Sent: these games, the player's record as it is to be written, and the row that
    /// follows it (a digest's next day).
    Send {
        games: Vec<TurnLine>,
        state: Option<Versioned<NotifyState>>,
        next: Option<Box<(AlertRow, u64)>>,
    },
}

impl Manager {
    /// Starts the scheduler's task (one per process). On a manual clock there is none:
    /// a test moves the time and calls `alert_tick` itself, so what it sees never depends
    /// on when a real second passed.
    pub(in crate::manager) fn spawn_alerts(&self) {
        if matches!(self.inner.clock, Clock::Manual(_)) {
            return;
        }
        let weak: Weak<Inner> = Arc::downgrade(&self.inner);
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(TICK);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                ticks.tick().await;
                let Some(inner) = weak.upgrade() else { return };
                Manager { inner }.alert_tick().await;
            }
        });
    }

    /// One tick of the scheduler (the task runs one a second; tests call it after moving
    /// the clock): every due row of the served platforms dropped, re-keyed or handed to
    /// its queue. Returns how many were handed.
    pub async fn alert_tick(&self) -> usize {
        if self.inner.read_only {
            return 0;
        }
        let _one = self.inner.alerts.ticking.lock().await;
        let now = self.now_ms();
        let mut handed = 0;
        for platform in self.inner.alerts.platforms() {
            match self.tick_platform(platform, now).await {
                Ok(n) => handed += n,
                Err(error) => {
                    tracing::warn!(platform = platform.name(), %error, "alert tick failed")
                }
            }
        }
        handed
    }

    /// The due rows of one platform (one range read), at most `PER_TICK`.
    pub async fn due_alerts(
        &self,
        platform: Platform,
        now_ms: u64,
    ) -> Result<Vec<String>, StoreError> {
        let (prefix, before) = due_bound(platform, now_ms);
        let range = KeyRange {
            prefix: &prefix,
            after: None,
            before: Some(&before),
        };
        let rows = self
            .inner
            .store
            .scan::<AlertRow>(Tree::Alerts, range, PER_TICK)
            .await?;
        Ok(rows.into_iter().map(|(key, _)| key).collect())
    }

    async fn tick_platform(&self, platform: Platform, now: u64) -> Result<usize, ActionError> {
        let mut handed = 0;
        for key in self.due_alerts(platform, now).await? {
            let Some(queue) = self.inner.alerts.queue(platform) else {
                break;
            };
            if queue.capacity() == 0 {
                // The adapter is behind: the rest stay due for a later tick.
                break;
            }
            match self.process_alert(&key, now, &queue).await {
                Ok(true) => handed += 1,
                Ok(false) => {}
                Err(ActionError::StaleBoard) => {
                    tracing::debug!(key, "alert row changed meanwhile; left to its winner")
                }
                Err(error) => tracing::warn!(key, %error, "alert not processed"),
            }
        }
        Ok(handed)
    }

    /// Reads one due row and makes its one compare-and-set; true if handed to the queue.
    async fn process_alert(
        &self,
        key: &str,
        now: u64,
        queue: &mpsc::Sender<Alert>,
    ) -> Result<bool, ActionError> {
        let store = &self.inner.store;
        let Some(found) = store.get_versioned::<AlertRow>(Tree::Alerts, key).await? else {
            return Ok(false);
        };
        let (row, revision) = (found.value, found.revision);
        let mine = row.claim.as_deref() == Some(self.inner.alerts.owner.as_str());
        let held = lock(&self.inner.alerts.handed)
            .get(&row.identity())
            .copied();
        if mine && held.is_some_and(|at| now.saturating_sub(at) < HANDED_MAX_MS) {
            return Ok(false);
        }
        let mut batch = Batch::new();
        batch.delete_checked(Tree::Alerts, key, Expect::Revision(revision));
        let mut free = row.clone();
        free.claim = None;
        match self.decide(&row, now).await? {
            Decision::Drop => {
                self.write(batch).await?;
                tracing::debug!(key, "alert dropped");
                Ok(false)
            }
            Decision::At(due) => {
                batch.put(Tree::Alerts, &free.key_at(due), &free)?;
                self.write(batch).await?;
                Ok(false)
            }
            Decision::Send { games, state, next } => {
                let lease = free.key_at(now + ALERT_LEASE_MS);
                let mut claimed = free.clone();
                claimed.claim = Some(self.inner.alerts.owner.clone());
                batch.put_checked(Tree::Alerts, &lease, &claimed, Expect::Absent)?;
                if let Some(Versioned { value, revision }) = &state {
                    Manager::put_state(&mut batch, &row.user, value, *revision)?;
                }
                if let Some(next) = &next {
                    let (next, due) = &**next;
                    batch.put(Tree::Alerts, &next.key_at(*due), next)?;
                }
                let written = self.write(batch).await?;
                let id = AlertId {
                    revision: written.revision(Tree::Alerts, &lease).unwrap_or(1),
                    key: lease,
                };
                let alert = Alert {
                    id,
                    lang: self.lang_of(&row.user).await,
                    user: row.user.clone(),
                    kind: row.kind,
                    games,
                };
                lock(&self.inner.alerts.handed).insert(row.identity(), now);
                if let Err(error) = queue.try_send(alert) {
                    let alert = match error {
                        mpsc::error::TrySendError::Full(a)
                        | mpsc::error::TrySendError::Closed(a) => a,
                    };
                    self.finish_alert(&alert.id, AlertOutcome::Later).await?;
                    return Ok(false);
                }
                tracing::debug!(key, kind = ?row.kind, "alert handed to its adapter");
                Ok(true)
            }
        }
    }

    /// What becomes of a due row now.
    async fn decide(&self, row: &AlertRow, now: u64) -> Result<Decision, ActionError> {
        let mut state = self.notify_state(&row.user).await?;
        let settings = state.value.settings.clone();
        let quiet_end = settings.quiet.and_then(|q| q.ends_after(now));
        if row.kind == AlertKind::Digest {
            if !current_digest(&state.value, row) || state.value.unreachable {
                return Ok(Decision::Drop);
            }
            if let Some(end) = quiet_end {
                return Ok(Decision::At(end));
            }
            let Some(next) = settings
                .mode
                .next_digest_after(now, settings.utc_offset_min)
            else {
                return Ok(Decision::Drop);
            };
            let games = self.turn_lines(&row.user, now).await;
            if games.is_empty() {
                // Nothing to list today: tomorrow's.
                return Ok(Decision::At(next));
            }
            let mut following = row.clone();
            following.claim = None;
            state.value.digest = Some((following.key_at(next), row.made_ms));
            state.value.last_told_ms = now;
            state.value.last_alert = Some(row.identity());
            return Ok(Decision::Send {
                games,
                state: Some(state),
                next: Some(Box::new((following, next))),
            });
        }
        let Some(line) = self.turn_line_of(row, now).await else {
            return Ok(Decision::Drop);
        };
        if state.value.unreachable || settings.mode == NotifyMode::Off {
            return Ok(Decision::Drop);
        }
        if let Some(end) = quiet_end {
            return Ok(Decision::At(end));
        }
        if row.kind == AlertKind::Warning {
            return Ok(Decision::Send {
                games: vec![line],
                state: None,
                next: None,
            });
        }
        if matches!(settings.mode, NotifyMode::Digest { .. }) {
            return Ok(Decision::Drop);
        }
        let identity = row.identity();
        let told = state.value.last_told_ms;
        if state.value.last_alert.as_deref() != Some(identity.as_str()) && now < told + MERGE_MS {
            if told >= row.made_ms {
                // Their last message was sent after this alert was made: it named this game.
                return Ok(Decision::Drop);
            }
            return Ok(Decision::At(told + MERGE_MS));
        }
        let mut games = self.turn_lines(&row.user, now).await;
        if !games.iter().any(|g| g.game == line.game) {
            // A game this process has not indexed (made by another one moments ago).
            games.push(line);
            sort_lines(&mut games);
        }
        state.value.last_told_ms = now;
        state.value.last_alert = Some(identity);
        Ok(Decision::Send {
            games,
            state: Some(state),
            next: None,
        })
    }

    /// The line of the row's game if it is still as the row found it: ongoing, at the same
    /// ply, the row's player to move.
    async fn turn_line_of(&self, row: &AlertRow, now: u64) -> Option<TurnLine> {
        let id = row.game.as_deref()?;
        let slot = self.game_slot(id).await.ok()?;
        let game = self.enter(&slot).await.ok()?;
        if game.ply() != row.ply {
            return None;
        }
        self.turn_line(&game, &row.user, now)
    }

    /// The line of `game` if it is an ongoing correspondence game between people where it
    /// is `user`'s move.
    fn turn_line(&self, game: &Game, user: &UserRef, now: u64) -> Option<TurnLine> {
        if game.is_over() || !told_in_private(&game.rec) {
            return None;
        }
        let side = game.position.to_move();
        if game.player(side).user() != Some(user) {
            return None;
        }
        let opponent = match game.player(side.other()) {
            Player::Human(u) => u.name.clone(),
            Player::Bot(_) => return None,
        };
        let left_ms = game
            .timeout_at(self.timeout_secs())
            .map_or(0, |at| (at * 1000).saturating_sub(now));
        Some(TurnLine {
            game: game.id().clone(),
            opponent,
            time_control: game.rec.time_control,
            left_ms,
            page: self.page_url(game.id()),
            chat: game.rec.chat.clone(),
            boards: game.rec.messages.clone(),
        })
    }

    /// Every ongoing correspondence game where it is `user`'s move, least time left first.
    pub(super) async fn turn_lines(&self, user: &UserRef, now: u64) -> Vec<TurnLine> {
        let ids = lock(&self.inner.index).games_of(user, None);
        let mut lines = Vec::new();
        for id in ids {
            let Ok(slot) = self.game_slot(&id).await else {
                continue;
            };
            let Ok(game) = self.enter(&slot).await else {
                continue;
            };
            lines.extend(self.turn_line(&game, user, now));
        }
        sort_lines(&mut lines);
        lines
    }

    /// `alert_done`: the claimed row deleted (Sent, Unreachable) or put back due after a
    /// pause (Later). A claim another process took over meanwhile is left to it.
    pub(super) async fn finish_alert(
        &self,
        id: &AlertId,
        outcome: AlertOutcome,
    ) -> Result<(), ActionError> {
        let store = &self.inner.store;
        let Some(found) = store
            .get_versioned::<AlertRow>(Tree::Alerts, &id.key)
            .await?
        else {
            return Ok(());
        };
        lock(&self.inner.alerts.handed).remove(&found.value.identity());
        if found.revision != id.revision {
            return Ok(());
        }
        let mut batch = Batch::new();
        batch.delete_checked(Tree::Alerts, &id.key, Expect::Revision(id.revision));
        if outcome == AlertOutcome::Later {
            let mut free = found.value.clone();
            free.claim = None;
            batch.put(
                Tree::Alerts,
                &free.key_at(self.now_ms() + ALERT_LATER_MS),
                &free,
            )?;
        }
        match self.write(batch).await {
            Ok(_) | Err(ActionError::StaleBoard) => {}
            Err(error) => return Err(error),
        }
        if outcome == AlertOutcome::Unreachable {
            self.mark_unreachable(&found.value.user).await?;
        }
        Ok(())
    }
}

/// Least time left first (then by game id, so the order is one on every process).
fn sort_lines(lines: &mut [TurnLine]) {
    lines.sort_by(|a, b| a.left_ms.cmp(&b.left_ms).then_with(|| a.game.cmp(&b.game)));
}
