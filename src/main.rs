//! The `toguz` binary: parses the command line and hands over to `toguz::cli`.

/// jemalloc, not the system's malloc: the bot runs for months and its memory must follow
/// what it holds (src/cli/memory.rs says why).
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's settings, read before `main`: a background thread gives back pages unused
/// for a second (dirty) at once (muzzy 0), so resident memory follows the heap down after
/// a burst. An operator's `_RJEM_MALLOC_CONF` is read after this and overrides it.
#[cfg(not(target_env = "msvc"))]
#[allow(non_upper_case_globals)]
#[export_name = "_rjem_malloc_conf"]
pub static malloc_conf: &[u8] = b"background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0\0";

fn main() -> std::process::ExitCode {
    toguz::cli::main()
}
