//! The live pages' server-sent events, games' and tournaments' alike: a watch channel's
//! states as events named for what they carry, then `end` once the state says it is over;
//! one of the `max_live` slots held as long as the stream.

use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use tokio::sync::{watch, OwnedSemaphorePermit};

/// Streams `receiver`'s states: `name` with `data` of each, and `end` after the first
/// state that is `over`.
pub(super) fn stream<S: Clone + Send + Sync + 'static>(
    slot: OwnedSemaphorePermit,
    receiver: watch::Receiver<S>,
    name: &'static str,
    data: impl Fn(&S) -> String + Send + 'static,
    over: impl Fn(&S) -> bool + Send + 'static,
) -> Response {
    let states = tokio_stream::wrappers::WatchStream::new(receiver);
    let events = states.flat_map(move |state| {
        let _held = &slot;
        let mut events = vec![SseEvent::default().event(name).data(data(&state))];
        if over(&state) {
            events.push(SseEvent::default().event("end").data("end"));
        }
        futures_util::stream::iter(events.into_iter().map(Ok::<_, std::convert::Infallible>))
    });
    Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response()
}
