//! The alert rows a durable write of a game schedules (`write_game` calls
//! [`schedule_alerts`] and adds its changes to the move's own batch), and the rows' keys.
//!
//! A row's key starts with its platform and its due time, so a tick finds what is due with
//! one range read per platform: `telegram|0001796601600000|telegram:42|g7|move`. The game
//! record keeps the keys it scheduled (`GameRecord::alerts`): the next move's batch
//! deletes them, and so does the write that ends the game.

use super::*;
use crate::store::{Batch, StoreError};

/// How long after their own last action in a game a player is taken to be looking at it:
/// a move of the opponent within it is told only if they do not answer by then.
pub(super) const LOOKING_MS: u64 = 60_000;
/// When a warning comes: this share (per mille) of the move's time gone (lichess: 80%).
const WARN_AT_PER_MILLE: u64 = 800;

/// A pending alert as stored (`Tree::Alerts`); public for the benchmark, which fills a
/// store with them.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AlertRow {
    pub user: UserRef,
    /// The game it is about; none for a digest.
    pub game: Option<GameId>,
    pub kind: AlertKind,
    /// When it was scheduled (unix ms): kept through re-keying, it names the alert.
    pub made_ms: u64,
    /// The game's ply when it was scheduled: a game that moved on makes it stale.
    pub ply: u16,
    /// The process holding it while an adapter sends it; the row's key is then its lease's
    /// end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<String>,
}

impl AlertRow {
    pub fn new(
        user: UserRef,
        game: Option<GameId>,
        kind: AlertKind,
        made_ms: u64,
        ply: u16,
    ) -> AlertRow {
        AlertRow {
            user,
            game,
            kind,
            made_ms,
            ply,
            claim: None,
        }
    }

    /// The row's key when due at `due_ms`.
    pub fn key_at(&self, due_ms: u64) -> String {
        format!(
            "{}|{:016}|{}|{}|{}",
            self.user.platform.name(),
            due_ms,
            self.user.key(),
            self.game.as_deref().unwrap_or("-"),
            self.kind.word()
        )
    }

    /// What names this alert however it is re-keyed.
    pub(crate) fn identity(&self) -> String {
        format!(
            "{}|{}|{}|{}",
            self.user.key(),
            self.game.as_deref().unwrap_or("-"),
            self.kind.word(),
            self.made_ms
        )
    }
}

/// The first key of `platform`'s rows due after `now_ms`: a tick reads the rows before it.
pub(crate) fn due_bound(platform: Platform, now_ms: u64) -> (String, String) {
    let prefix = format!("{}|", platform.name());
    let before = format!("{prefix}{:016}", now_ms.saturating_add(1));
    (prefix, before)
}

/// Whether a game's players are told in private: correspondence, people on both sides.
pub(crate) fn told_in_private(rec: &GameRecord) -> bool {
    matches!(
        rec.time_control,
        TimeControl::Days(_) | TimeControl::Correspondence
    ) && rec.players.iter().all(|p| matches!(p, Player::Human(_)))
        && rec.clock.is_none()
}

/// The time a move has in a correspondence game, in ms.
pub(crate) fn move_ms(rec: &GameRecord, timeout_secs: u64) -> u64 {
    rec.time_control.move_secs().unwrap_or(timeout_secs) * 1000
}

/// Adds to `batch` what a write of a game from `before` to `after` (at `now_ms`) changes
/// in its pending alerts, and keeps the new rows' keys in `after.alerts`. A move in a
/// correspondence game between people schedules the next player's YourMove (now, or a
/// minute after their own last move if that was less than a minute ago) and their
/// Warning (at 80% of the move's time); any move or the end deletes the earlier rows.
pub fn schedule_alerts(
    before: &GameRecord,
    after: &mut GameRecord,
    now_ms: u64,
    timeout_secs: u64,
    batch: &mut Batch,
) -> Result<(), StoreError> {
    let moved = after.moves.len() != before.moves.len();
    let ended = after.status != GameStatus::Ongoing;
    if !moved && !ended {
        return Ok(());
    }
    for key in std::mem::take(&mut after.alerts) {
        batch.delete(Tree::Alerts, &key);
    }
    if ended || !told_in_private(after) {
        return Ok(());
    }
    let side = after.moves.len() % 2;
    let Player::Human(user) = &after.players[side] else {
        return Ok(());
    };
    let ply = u16::try_from(after.moves.len()).unwrap_or(u16::MAX);
    // Their own last move is the one before this (made at `before.last_move_at`).
    let own_ms = (!before.moves.is_empty()).then(|| before.last_move_at * 1000);
    let due = match own_ms {
        Some(own) if now_ms < own + LOOKING_MS => own + LOOKING_MS,
        _ => now_ms,
    };
    // The move's time runs from the move just made (`timeout_at` counts from it too).
    let warn = after.last_move_at * 1000 + move_ms(after, timeout_secs) / 1000 * WARN_AT_PER_MILLE;
    let rows = [(AlertKind::YourMove, due), (AlertKind::Warning, warn)];
    for (kind, due) in rows {
        let row = AlertRow::new(user.clone(), Some(after.id.clone()), kind, now_ms, ply);
        let key = row.key_at(due);
        batch.put(Tree::Alerts, &key, &row)?;
        after.alerts.push(key);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    const T: u64 = 1_800_000_000;

    fn record(time_control: TimeControl) -> GameRecord {
        let person = |id: &str| Player::Human(UserRef::new(Platform::Telegram, id, id));
        GameRecord {
            id: "g1".into(),
            chat: ChatRef::new(Platform::Telegram, "-100"),
            variant: Variant::STANDARD,
            players: [person("1"), person("2")],
            moves: vec![],
            status: GameStatus::Ongoing,
            draw_offer: None,
            created_at: T,
            last_move_at: T,
            messages: vec![],
            seed: 1,
            rematch: None,
            rated: true,
            ended: None,
            time_control,
            clock: None,
            hints: 0,
            version: 0,
            arena: None,
            seat: None,
            watched: false,
            alerts: Vec::new(),
            premoves: Default::default(),
        }
    }

    /// `before` with one more move made `after_secs` after its last one.
    fn moved(before: &GameRecord, after_secs: u64) -> GameRecord {
        let mut after = before.clone();
        after.moves.push(7);
        after.last_move_at = before.last_move_at + after_secs;
        after
    }

    fn due_of(key: &str) -> u64 {
        key.split('|').nth(1).unwrap().parse().unwrap()
    }

    #[test]
    fn a_move_schedules_the_next_players_alert_and_warning() {
        let start = record(TimeControl::Days(2));
        let mut after = moved(&start, 100);
        let mut batch = Batch::new();
        let now = (T + 100) * 1000;
        schedule_alerts(&start, &mut after, now, 72 * 3600, &mut batch).unwrap();
        assert_eq!(batch.len(), 2);
        let [your_move, warning] = [&after.alerts[0], &after.alerts[1]];
        assert!(your_move.starts_with("telegram|") && your_move.ends_with("|telegram:2|g1|move"));
        assert_eq!(due_of(your_move), now);
        assert_eq!(due_of(warning), now + 2 * 86_400_000 * 8 / 10);
        // The reply 30 s later: the first player moved 30 s ago, so a minute after that.
        let mut reply = moved(&after, 30);
        let mut batch = Batch::new();
        let now = (T + 130) * 1000;
        schedule_alerts(&after, &mut reply, now, 72 * 3600, &mut batch).unwrap();
        assert_eq!(batch.len(), 4, "two deleted, two written");
        assert!(reply.alerts[0].contains("|telegram:1|g1|move"));
        assert_eq!(due_of(&reply.alerts[0]), (T + 100) * 1000 + LOOKING_MS);
    }

    #[test]
    fn plain_correspondence_warns_at_eighty_percent_of_the_configured_hours() {
        let start = record(TimeControl::Correspondence);
        let mut after = moved(&start, 0);
        let mut batch = Batch::new();
        schedule_alerts(&start, &mut after, T * 1000, 10 * 3600, &mut batch).unwrap();
        assert_eq!(due_of(&after.alerts[1]), T * 1000 + 8 * 3_600_000);
    }

    #[test]
    fn the_end_or_a_timed_game_or_the_bot_schedules_nothing() {
        let start = record(TimeControl::Days(1));
        let mut after = moved(&start, 0);
        schedule_alerts(&start, &mut after, T * 1000, 0, &mut Batch::new()).unwrap();
        let mut ended = after.clone();
        ended.status = GameStatus::Finished {
            winner: None,
            reason: crate::manager::FinishReason::Agreed,
        };
        let mut batch = Batch::new();
        schedule_alerts(&after, &mut ended, T * 1000, 0, &mut batch).unwrap();
        assert_eq!((batch.len(), ended.alerts.len()), (2, 0), "both deleted");
        let timed = record(TimeControl::Fischer {
            base_ms: 300_000,
            increment_ms: 0,
        });
        let mut after = moved(&timed, 0);
        let mut batch = Batch::new();
        schedule_alerts(&timed, &mut after, T * 1000, 0, &mut batch).unwrap();
        assert!(batch.is_empty());
        let mut bot = record(TimeControl::Days(1));
        bot.players[1] = Player::Bot(crate::model::Level::Easy);
        let mut after = moved(&bot, 0);
        let mut batch = Batch::new();
        schedule_alerts(&bot, &mut after, T * 1000, 0, &mut batch).unwrap();
        assert!(batch.is_empty());
    }

    #[test]
    fn keys_sort_by_due_time_within_a_platform() {
        let row = AlertRow::new(
            UserRef::new(Platform::Discord, "9", "n"),
            Some("g".into()),
            AlertKind::Warning,
            1,
            1,
        );
        let (early, late) = (row.key_at(999), row.key_at(1_000));
        assert!(early < late);
        let (prefix, before) = due_bound(Platform::Discord, 999);
        assert!(early.starts_with(&prefix) && early < before && late >= before);
        assert_eq!(row.identity(), "discord:9|g|warn|1");
    }
}
