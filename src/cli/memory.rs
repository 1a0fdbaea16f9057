//! The allocator of the long-running bot, and what it holds.
//!
//! The `toguz` binary allocates with jemalloc (`src/main.rs`), not the system's malloc.
//! Under load the bot's live heap is flat (a heap profile of the long Discord soak: the
//! same 51 MB held after round 3 and after round 10, to 0.15 MB), but it comes in bursts:
//! HTTP read buffers of the connections between serenity, the REST gate and Discord,
//! freed a moment later. glibc's malloc kept what the bursts took, fragmented between
//! long-lived allocations: resident memory crept up round after round even with one arena,
//! a low mmap threshold and `malloc_trim` every 30 s, and one arena for all threads made
//! presses slower (median press-to-board 37 ms against 10 ms with jemalloc, same soak).
//! jemalloc keeps small allocations of one size together and a background thread gives
//! pages unused for a second back to the system (docs/load.md, *Known limits*).

use std::time::Duration;

/// How often the heap's figures are logged (debug level, target `toguz::cli::memory`).
const REPORT_EVERY: Duration = Duration::from_secs(60);

/// What the allocator holds, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heap {
    /// Handed out to the program and not yet freed.
    pub allocated: usize,
    /// In physical memory: the allocated bytes, the allocator's own data and the pages
    /// it keeps for reuse (dirty pages not yet given back).
    pub resident: usize,
}

/// jemalloc's figures as of now; `None` where they cannot be read.
#[cfg(not(target_env = "msvc"))]
pub fn heap() -> Option<Heap> {
    use tikv_jemalloc_ctl::{epoch, stats};
    // The statistics are a snapshot taken when the epoch advances.
    epoch::advance().ok()?;
    Some(Heap {
        allocated: stats::allocated::read().ok()?,
        resident: stats::resident::read().ok()?,
    })
}

/// Without jemalloc (MSVC builds) there are no figures.
#[cfg(target_env = "msvc")]
pub fn heap() -> Option<Heap> {
    None
}

/// Logs what the allocator holds every [`REPORT_EVERY`], so that an operator can tell a
/// growing heap from memory merely kept for reuse.
pub fn spawn_reporter() {
    tokio::spawn(async {
        let mut every = tokio::time::interval(REPORT_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            match heap() {
                Some(heap) => tracing::debug!(
                    allocated_kib = heap.allocated / 1024,
                    resident_kib = heap.resident / 1024,
                    "heap"
                ),
                None => tracing::debug!("the allocator's statistics cannot be read"),
            }
        }
    });
}

#[cfg(all(test, not(target_env = "msvc")))]
mod tests {
    use std::alloc::{GlobalAlloc, Layout};
    use tikv_jemallocator::Jemalloc;

    /// The figures follow what is held: a 64 MiB block shows in them while held and is
    /// gone once freed. (The tests' own allocator is the system's, so the block is taken
    /// from jemalloc by hand and nothing else moves its figures.)
    #[test]
    fn the_figures_follow_what_is_held() {
        const BLOCK: usize = 64 << 20;
        let layout = Layout::from_size_align(BLOCK, 4096).unwrap();
        let before = super::heap().unwrap();
        // SAFETY: a non-zero layout; the block is freed with the same allocator and layout.
        let block = unsafe { Jemalloc.alloc(layout) };
        assert!(!block.is_null());
        let held = super::heap().unwrap();
        unsafe { Jemalloc.dealloc(block, layout) };
        let after = super::heap().unwrap();
        assert!(
            held.allocated >= before.allocated + BLOCK,
            "{before:?} {held:?}"
        );
        assert_eq!(after.allocated, before.allocated, "{after:?}");
        assert!(before.resident > 0, "{before:?}");
    }
}
