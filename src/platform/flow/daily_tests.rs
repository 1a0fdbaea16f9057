use super::*;
use crate::i18n::Lang;
use crate::manager::puzzles::record::DailyCount;
use crate::manager::puzzles::{DailyPost, DailyView};
use crate::manager::{Clock, Event, ManagerConfig};
use crate::model::{ChatRef, UserRef};
use crate::puzzle::Puzzle;
use std::collections::VecDeque;
use std::sync::Mutex;

fn chat() -> ChatRef {
    ChatRef::new(Platform::Telegram, "-100")
}

fn message(n: u32) -> MessageRef {
    MessageRef {
        platform: Platform::Telegram,
        id: format!("-100:{n}"),
    }
}

/// The news of `day` with `tried` attempts counted: a post to make, or a redraw of
/// `message(1)`.
fn news(day: i64, tried: u32, fresh: bool) -> DailyNews {
    DailyNews {
        post: DailyPost {
            chat: chat(),
            place: "-100".into(),
            hour: 9,
            set_by: UserRef::new(Platform::Telegram, "1", "Admin"),
            last_day: Some(day),
            claimed_at: 0,
            message: (!fresh).then(|| message(1)),
        },
        daily: DailyView {
            day,
            puzzle: Puzzle {
                id: format!("p{day}"),
                position: String::new(),
                solution: "9".into(),
                themes: Vec::new(),
                rating: 1200.0,
                score: 0,
                gap: 0,
                depth: 10,
                effort: 0,
                game: String::new(),
            },
            count: DailyCount {
                solved: 0,
                tried,
                names: Vec::new(),
            },
        },
        fresh,
        lang: Lang::En,
    }
}

fn seen(waiting: &Option<DailyNews>) -> Option<(i64, u32, bool)> {
    waiting
        .as_ref()
        .map(|n| (n.daily.day, n.daily.count.tried, n.fresh))
}

#[test]
fn a_post_to_make_stays_to_make_with_the_newest_count_of_its_day() {
    let mut waiting = None;
    assert!(merge(&mut waiting, news(7, 0, true)));
    assert!(merge(&mut waiting, news(7, 1, false)));
    assert_eq!(seen(&waiting), Some((7, 1, true)));
    // A claim made again (read with an older count) keeps the count, takes its record.
    let mut again = news(7, 0, true);
    again.post.claimed_at = 99;
    assert!(merge(&mut waiting, again));
    assert_eq!(seen(&waiting), Some((7, 1, true)));
    assert_eq!(waiting.as_ref().map(|n| n.post.claimed_at), Some(99));
}

#[test]
fn a_newer_count_replaces_one_not_shown_and_an_older_one_is_no_news() {
    let mut waiting = Some(news(7, 2, false));
    assert!(merge(&mut waiting, news(7, 3, false)));
    assert_eq!(seen(&waiting), Some((7, 3, false)));
    assert!(
        !merge(&mut waiting, news(7, 1, false)),
        "read before the waiting one"
    );
    assert_eq!(seen(&waiting), Some((7, 3, false)));
    assert!(
        merge(&mut waiting, news(7, 3, false)),
        "the same count, read later"
    );
}

#[test]
fn a_new_day_replaces_the_last_and_an_older_day_is_no_news() {
    let mut waiting = Some(news(7, 5, false));
    assert!(merge(&mut waiting, news(8, 0, true)));
    assert_eq!(seen(&waiting), Some((8, 0, true)));
    assert!(!merge(&mut waiting, news(7, 6, false)), "yesterday's count");
    assert_eq!(seen(&waiting), Some((8, 0, true)));
    // Yesterday's post never made: today's is the one that counts.
    let mut waiting = Some(news(7, 0, true));
    assert!(merge(&mut waiting, news(8, 1, false)));
    assert_eq!(seen(&waiting), Some((8, 1, false)));
}

#[test]
fn a_redraw_that_shows_nothing_new_is_skipped() {
    let shown = Shown::of(&news(7, 3, false), message(1), true);
    assert!(
        shown.covers(&news(7, 3, false), &message(1)),
        "the same count"
    );
    assert!(
        shown.covers(&news(7, 2, false), &message(1)),
        "an older count"
    );
    assert!(
        !shown.covers(&news(7, 4, false), &message(1)),
        "a newer count"
    );
    assert!(
        !shown.covers(&news(7, 3, false), &message(2)),
        "another message"
    );
    assert!(
        !shown.covers(&news(8, 0, false), &message(1)),
        "another day"
    );
    let mut other_lang = news(7, 3, false);
    other_lang.lang = Lang::Ru;
    assert!(!shown.covers(&other_lang, &message(1)), "another language");
}

/// An outlet that answers as told and notes every call.
#[derive(Default)]
struct Script {
    posts: Mutex<VecDeque<Made>>,
    redraws: Mutex<VecDeque<Posted>>,
    calls: Mutex<Vec<String>>,
}

impl Script {
    fn calls(&self) -> Vec<String> {
        self.calls.lock().unwrap().clone()
    }
}

impl DailyOutlet for Script {
    fn platform(&self) -> Platform {
        Platform::Telegram
    }

    async fn post(&self, news: &DailyNews) -> Made {
        let mut calls = self.calls.lock().unwrap();
        calls.push(format!(
            "post {} {}",
            news.daily.day, news.daily.count.tried
        ));
        let made = calls.iter().filter(|c| c.starts_with("post")).count();
        let answer = self.posts.lock().unwrap().pop_front();
        answer.unwrap_or(Made::Posted(message(made as u32)))
    }

    async fn redraw(&self, news: &DailyNews, message: &MessageRef) -> Posted {
        let call = format!("redraw {} {}", message.id, news.daily.count.tried);
        self.calls.lock().unwrap().push(call);
        self.redraws
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or(Posted::Done)
    }
}

/// 08:00 UTC of day 20,000.
const T0: u64 = 20_000 * 86_400 + 8 * 3600;

/// A manager whose chat has its daily post claimed at 09:00, and the news of that claim.
async fn claimed(dir: &std::path::Path, clock: &Clock) -> (Manager, DailyNews) {
    let store = crate::store::Store::open(dir).expect("a store");
    let engine = crate::engine::EnginePool::new(crate::engine::EngineConfig::default());
    let manager = Manager::start_with_clock(store, engine, ManagerConfig::default(), clock.clone())
        .await
        .expect("a manager");
    let admin = UserRef::new(Platform::Telegram, "1", "Admin");
    manager
        .set_daily_post((&chat(), "-100"), &admin, Some(9))
        .await
        .expect("the post set");
    let mut events = manager.subscribe();
    clock.advance(3600);
    assert_eq!(manager.tick_daily_posts().await, 1);
    loop {
        match events.try_recv() {
            Ok(Event::DailyPuzzle(news)) => return (manager, news),
            Ok(_) => continue,
            Err(error) => panic!("no daily news: {error}"),
        }
    }
}

fn flow(script: &Arc<Script>, manager: &Manager) -> Flow<Script> {
    const QUICK: [Duration; 2] = [Duration::from_millis(10), Duration::from_millis(10)];
    Flow {
        pauses: &QUICK,
        ..Flow::new(script.clone(), manager.clone(), "test daily")
    }
}

/// Waits (at most 30 s, for a loaded machine) until `done` holds.
async fn until(what: &str, mut done: impl AsyncFnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while !done().await {
        assert!(tokio::time::Instant::now() < deadline, "never: {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_post_that_failed_is_made_once_attached_and_redrawn_only_with_news() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let clock = Clock::manual(T0);
    let (manager, fresh) = claimed(dir.path(), &clock).await;
    let script = Arc::new(Script::default());
    script.posts.lock().unwrap().push_back(Made::Later);
    let flow = flow(&script, &manager);
    let day = fresh.daily.day;

    flow.push(fresh.clone());
    until("the post attached", async || {
        let post = manager.daily_post(&chat()).await.expect("read");
        post.and_then(|p| p.message) == Some(message(2))
    })
    .await;
    assert_eq!(
        script.calls(),
        [format!("post {day} 0"), format!("post {day} 0")]
    );

    // A redraw with the count it was posted with shows nothing new; a newer count does.
    let mut redraw = fresh.clone();
    redraw.fresh = false;
    redraw.post.message = Some(message(2));
    flow.push(redraw.clone());
    tokio::time::sleep(Duration::from_millis(50)).await;
    redraw.daily.count.tried = 1;
    flow.push(redraw.clone());
    until("the redraw", async || script.calls().len() == 3).await;
    // A redraw that failed in a way that may pass is made again.
    script.redraws.lock().unwrap().push_back(Posted::Later);
    redraw.daily.count.tried = 2;
    flow.push(redraw);
    until("the redraw made again", async || script.calls().len() == 5).await;
    assert_eq!(
        script.calls()[2..],
        ["redraw -100:2 1", "redraw -100:2 2", "redraw -100:2 2"].map(String::from)
    );
    assert_eq!(flow.chats(), 1, "the chat's worker lingers for news");
}

#[tokio::test]
async fn a_post_made_and_not_attached_is_attached_not_made_again() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let clock = Clock::manual(T0);
    let (manager, fresh) = claimed(dir.path(), &clock).await;
    let script = Arc::new(Script::default());
    let flow = flow(&script, &manager);
    let mut shown = Some(Shown::of(&fresh, message(5), false));
    assert_eq!(flow.make(&fresh, &mut shown).await, Posted::Done);
    assert!(script.calls().is_empty(), "{:?}", script.calls());
    let post = manager.daily_post(&chat()).await.expect("read");
    assert_eq!(post.and_then(|p| p.message), Some(message(5)));
    assert!(shown.is_some_and(|s| s.attached));
}

#[tokio::test]
async fn a_claim_taken_again_or_turned_off_is_not_posted() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let clock = Clock::manual(T0);
    let (manager, first) = claimed(dir.path(), &clock).await;
    let script = Arc::new(Script::default());
    let flow = flow(&script, &manager);
    assert_eq!(flow.claim_lost(&first).await, None, "the claim stands");

    // Not posted in time: claimed again, and the first claim's news is stale.
    let mut events = manager.subscribe();
    clock.advance(crate::manager::puzzles::RECLAIM_SECS);
    assert_eq!(manager.tick_daily_posts().await, 1);
    let again = loop {
        match events.try_recv() {
            Ok(Event::DailyPuzzle(news)) => break news,
            Ok(_) => continue,
            Err(error) => panic!("no daily news: {error}"),
        }
    };
    assert_eq!(flow.claim_lost(&first).await, Some(Posted::Done));
    assert_eq!(flow.claim_lost(&again).await, None);

    // Turned off: nothing to post.
    let admin = UserRef::new(Platform::Telegram, "1", "Admin");
    manager
        .set_daily_post((&chat(), "-100"), &admin, None)
        .await
        .expect("turned off");
    let mut shown = None;
    assert_eq!(flow.make(&again, &mut shown).await, Posted::Done);
    assert!(script.calls().is_empty(), "{:?}", script.calls());
}
