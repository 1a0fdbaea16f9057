//! The rules allocate nothing per move: a counting global allocator watches perft, which plays
//! hundreds of thousands of moves.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use toguz::rules::{perft, Position};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn playing_moves_allocates_nothing() {
    let start = Position::default();
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let leaves = perft(&start, 5);
    let mut pos = start;
    while let Some(pit) = pos.legal_moves().iter().last() {
        let _ = pos.play(pit);
    }
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    assert_eq!(leaves, 43184);
    assert!(pos.is_over());
    assert_eq!(after - before, 0, "allocations while playing moves");
}
