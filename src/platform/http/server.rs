//! Serving connections: the pages' and the Telegram webhook's. `axum::serve` sets no
//! header-read timeout (hyper's needs a timer, which it does not give), so a client sending
//! a request's head one byte at a time, or nothing at all, held its connection for as long
//! as it liked. Here each connection is served by hyper's HTTP/1 server with a timer and a
//! `header_read_timeout` (the head must arrive whole within it, counted from the
//! connection's start or the end of the previous answer, so an idle kept-alive connection
//! closes then too), over a `limits::Connection` that closes once no byte went either way
//! for the idle timeout (a client that stops reading its answer). The request carries its
//! peer's address (`ConnectInfo`) for `clients`.

use super::limits::Limited;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::time::Duration;
use tower::Service as _;

/// How long a client may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// A request's whole head, from the connection's start or the previous answer's end.
    pub header_read: Duration,
    /// No byte either way (applied by the listener's connections, `limits`).
    pub idle: Duration,
}

/// Serves `router` on the connections `listener` accepts until `shutdown` resolves; then
/// accepts no more, and lets the open connections finish their current answer.
pub async fn serve(
    mut listener: Limited,
    router: Router,
    timeouts: Timeouts,
    shutdown: impl Future<Output = ()>,
) {
    let (closing, closed) = tokio::sync::watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (connection, peer) = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let router = router.clone();
        let mut closed = closed.clone();
        tokio::spawn(async move {
            let service =
                hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
                    request.extensions_mut().insert(ConnectInfo(peer));
                    router.clone().call(request)
                });
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(timeouts.header_read);
            let served = http.serve_connection(TokioIo::new(connection), service);
            let mut served = std::pin::pin!(served);
            // Closing (or the server gone): finish the answer under way, then close.
            let closing = async move {
                let _ = closed.wait_for(|c| *c).await.map(|_| ());
            };
            let result = tokio::select! {
                result = served.as_mut() => result,
                () = closing => {
                    served.as_mut().graceful_shutdown();
                    served.await
                }
            };
            if let Err(error) = result {
                tracing::debug!(%error, %peer, "web: connection ended");
            }
        });
    }
    let _ = closing.send(true);
}
