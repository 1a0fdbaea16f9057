//! The allocator's settings for the long-running bot (`toguz run`).
//!
//! The bot's live heap is flat under load (a heap profile of the long Discord soak on
//! PostgreSQL: 15-26 MB throughout), but its bursts are not: up to 56 MB, mostly HTTP read
//! buffers of the connections between serenity, the REST gate and Discord, freed a moment
//! later. glibc's malloc keeps what a burst took: one arena per thread (up to eight per
//! core), each growing to its own peak, and buffers of any size served from those arenas
//! once a large free has raised the mmap threshold. Resident memory then crept up round
//! after round (docs/load.md, *Known limits*). One arena for all threads, buffers of
//! 128 KiB and more mapped and unmapped on their own, and the free pages inside the heap
//! given back every half minute keep it near what the bot holds, not what a burst took.
//!
//! Each setting applies only where the operator has not set its `MALLOC_*` variable.

use std::time::Duration;

/// How often free pages inside the heap are given back to the system.
const TRIM_EVERY: Duration = Duration::from_secs(30);

/// Sets glibc's malloc up for a long-running process; elsewhere (musl, other systems) it
/// does nothing. Call it before the runtime starts its threads. False if malloc refused a
/// setting (logged).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn settle_allocator() -> bool {
    glibc::settle()
}

/// Elsewhere the allocator's own defaults stand.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn settle_allocator() -> bool {
    true
}

/// Gives the heap's free pages back every [`TRIM_EVERY`] for as long as the runtime runs
/// (glibc only). A trim walks the heap under malloc's lock: a few milliseconds.
pub fn spawn_trimmer() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    tokio::spawn(async {
        let mut every = tokio::time::interval(TRIM_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            // SAFETY: malloc_trim only returns free memory to the system.
            let _ = tokio::task::spawn_blocking(|| unsafe { libc::malloc_trim(0) }).await;
        }
    });
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc {
    /// One arena: memory freed by one thread serves the next burst of any other.
    const ARENAS: i32 = 1;
    /// Allocations from this size on get their own mapping, returned on free.
    const MMAP_THRESHOLD: i32 = 128 * 1024;

    pub(super) fn settle() -> bool {
        let arenas = set("MALLOC_ARENA_MAX", libc::M_ARENA_MAX, ARENAS);
        let threshold = set(
            "MALLOC_MMAP_THRESHOLD_",
            libc::M_MMAP_THRESHOLD,
            MMAP_THRESHOLD,
        );
        arenas && threshold
    }

    fn set(variable: &str, parameter: libc::c_int, value: libc::c_int) -> bool {
        if std::env::var_os(variable).is_some() {
            return true;
        }
        // SAFETY: mallopt only changes malloc's tunables; it takes malloc's own lock.
        let applied = unsafe { libc::mallopt(parameter, value) } == 1;
        if !applied {
            tracing::warn!(variable, value, "the allocator refused a setting");
        }
        applied
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_allocator_takes_the_settings() {
        assert!(super::settle_allocator());
    }
}
