//! Webhook mode: our own small HTTP endpoint instead of teloxide's, for two promises a
//! deployment of several processes needs (issue 31, item 10).
//!
//! - Stopping one process never deletes the webhook. teloxide's `axum_to_router` calls
//!   `deleteWebhook` when its listener stops, which would cut every other process sharing
//!   the bot off from its updates until one of them restarts. Here a stopping process only
//!   stops taking updates (503, so Telegram delivers them again, to whoever answers).
//! - Updates wait in a bounded queue. teloxide's endpoint feeds an unbounded channel; a burst
//!   faster than the handlers would grow it without limit. Here an update that finds the
//!   queue full is refused with 503 and Telegram keeps it and delivers it again later.
//! - Anyone can reach the port, so it is served like the web pages (`platform::http::server`): a
//!   request's head must arrive within 10 s, a connection doing nothing for a minute is
//!   closed, at most `MAX_CONNECTIONS` at once and `MAX_PER_ADDRESS` from one address
//!   (Telegram opens 40 by default, from a few addresses). The secret header is checked
//!   before the body is read: a stranger's request costs its head and no more.

use super::config::CheckedWebhook;
use super::poster::scrub;
use crate::platform::http::{limits, server};
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use std::convert::Infallible;
use std::time::Duration;
use teloxide::prelude::*;
use teloxide::stop::{mk_stop_token, StopFlag, StopToken};
use teloxide::types::Update;
use teloxide::update_listeners::{StatefulListener, UpdateListener};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;

/// Telegram's header carrying the secret set with `setWebhook`.
const SECRET_HEADER: &str = "x-telegram-bot-api-secret-token";

/// How long a delivery's head may take to arrive, and a connection may go without a byte
/// either way.
const TIMEOUTS: server::Timeouts = server::Timeouts {
    header_read: Duration::from_secs(10),
    idle: Duration::from_secs(60),
};
/// Connections at once: Telegram's `max_connections` is 40 by default, 100 at most.
const MAX_CONNECTIONS: usize = 256;
/// Connections from one address (an IPv6 /64) at once.
const MAX_PER_ADDRESS: usize = 128;
/// The largest update read (Telegram's are a few kilobytes).
const MAX_BODY: usize = 1 << 20;

/// What the endpoint hands to the dispatcher.
type Item = Result<Update, Infallible>;

/// The endpoint's shared state.
#[derive(Clone)]
struct Endpoint {
    secret: String,
    queue: mpsc::Sender<Item>,
    /// Resolves once the listener was told to stop: from then on updates are refused.
    stopping: StopFlag,
}

/// The listener's state: the queue's far end and the token that stops the endpoint.
struct Intake {
    updates: ReceiverStream<Item>,
    stop: StopToken,
}

/// Registers the webhook with Telegram (`setWebhook` with the secret) and serves it on
/// `tcp`; the returned listener yields the updates and stops the server when stopped.
/// The webhook is left registered when the process stops.
pub async fn start(
    bot: &Bot,
    hook: &CheckedWebhook,
    tcp: tokio::net::TcpListener,
    token: &str,
) -> anyhow::Result<impl UpdateListener<Err = Infallible>> {
    bot.set_webhook(hook.public_url.clone())
        .secret_token(hook.secret_token.expose().to_string())
        .await
        .map_err(|err| {
            anyhow::anyhow!(
                "cannot set the Telegram webhook (telegram.webhook.public_url): {}",
                scrub(&err.to_string(), token)
            )
        })?;
    let (listener, router, stopping) = endpoint(hook);
    tokio::spawn(serve(tcp, router, stopping, TIMEOUTS));
    tracing::info!(listen = %hook.listen, queue = hook.queue, "telegram: webhook listening");
    Ok(listener)
}

/// Serves the endpoint on `tcp` within the limits until `stopping`.
async fn serve(
    tcp: tokio::net::TcpListener,
    router: axum::Router,
    stopping: StopFlag,
    timeouts: server::Timeouts,
) {
    let settings = limits::Settings {
        max_connections: MAX_CONNECTIONS,
        max_per_address: MAX_PER_ADDRESS,
        idle: timeouts.idle,
        trusted: Vec::new(),
    };
    server::serve(
        limits::Limited::new(tcp, settings),
        router,
        timeouts,
        stopping,
    )
    .await;
}

/// The endpoint's router and the listener reading its queue.
fn endpoint(
    hook: &CheckedWebhook,
) -> (
    impl UpdateListener<Err = Infallible>,
    axum::Router,
    StopFlag,
) {
    let (queue, updates) = mpsc::channel(hook.queue);
    let (stop, stopping) = mk_stop_token();
    let path = match hook.public_url.path() {
        "" => "/",
        path => path,
    };
    let router = axum::Router::new()
        .route(path, post(receive))
        .with_state(Endpoint {
            secret: hook.secret_token.expose().to_string(),
            queue,
            stopping: stopping.clone(),
        });
    let intake = Intake {
        updates: ReceiverStream::new(updates),
        stop,
    };
    let listener = StatefulListener::new(
        intake,
        updates_of as for<'a> fn(&'a mut Intake) -> &'a mut ReceiverStream<Item>,
        stop_of as for<'a> fn(&'a mut Intake) -> StopToken,
    );
    (listener, router, stopping)
}

fn updates_of(intake: &mut Intake) -> &mut ReceiverStream<Item> {
    &mut intake.updates
}

fn stop_of(intake: &mut Intake) -> StopToken {
    intake.stop.clone()
}

/// One delivery from Telegram.
/// The secret is checked on the head alone; only then is the body read (`Body`, not an
/// extractor that reads it first).
async fn receive(State(endpoint): State<Endpoint>, headers: HeaderMap, body: Body) -> StatusCode {
    let given = headers.get(SECRET_HEADER).map(|v| v.as_bytes());
    if !given.is_some_and(|given| same_secret(given, endpoint.secret.as_bytes())) {
        return StatusCode::UNAUTHORIZED;
    }
    if endpoint.stopping.is_stopped() {
        // Telegram delivers it again, to a process that is not stopping.
        return StatusCode::SERVICE_UNAVAILABLE;
    }
    let body = match axum::body::to_bytes(body, MAX_BODY).await {
        Ok(body) => body,
        Err(error) => {
            tracing::warn!(%error, "telegram: an update's body could not be read");
            return StatusCode::BAD_REQUEST;
        }
    };
    let update = match serde_json::from_slice::<Update>(&body) {
        Ok(update) => update,
        Err(error) => {
            // Refusing it would make Telegram send it again and again; it can never parse.
            tracing::warn!(%error, bytes = body.len(), "telegram: an update that does not parse was dropped");
            return StatusCode::OK;
        }
    };
    match endpoint.queue.try_send(Ok(update)) {
        Ok(()) => StatusCode::OK,
        Err(mpsc::error::TrySendError::Full(_)) => {
            tracing::warn!(
                "telegram: webhook queue full; the update is refused for Telegram to send again"
            );
            StatusCode::SERVICE_UNAVAILABLE
        }
        Err(mpsc::error::TrySendError::Closed(_)) => StatusCode::SERVICE_UNAVAILABLE,
    }
}

/// Compares the secret in time that does not depend on where the first difference is.
fn same_secret(given: &[u8], expected: &[u8]) -> bool {
    given.len() == expected.len()
        && given
            .iter()
            .zip(expected)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secret::Secret;
    use futures::StreamExt as _;
    use teloxide::update_listeners::AsUpdateStream as _;

    const SECRET: &str = "s3cret_-";

    fn hook(queue: usize) -> CheckedWebhook {
        CheckedWebhook {
            listen: "127.0.0.1:0".parse().expect("address"),
            public_url: url::Url::parse("https://bot.example.org/tg/hook").expect("url"),
            secret_token: Secret::new(SECRET.to_string()),
            queue,
        }
    }

    fn update(id: i64) -> String {
        serde_json::json!({
            "update_id": id,
            "message": {
                "message_id": 1, "date": 0, "text": "/games",
                "chat": {"id": 5, "type": "private", "first_name": "A"},
                "from": {"id": 5, "is_bot": false, "first_name": "A"}
            }
        })
        .to_string()
    }

    /// Serves the endpoint on a loopback port as `start` does; its URL.
    async fn serve(router: axum::Router) -> String {
        serve_within(router, TIMEOUTS).await
    }

    async fn serve_within(router: axum::Router, timeouts: server::Timeouts) -> String {
        let tcp = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = tcp.local_addr().expect("address");
        let (_stop, stopping) = mk_stop_token();
        tokio::spawn(super::serve(tcp, router, stopping, timeouts));
        format!("http://{addr}/tg/hook")
    }

    /// Issue 49, finding 3: a stranger's delivery is refused on its head, its body never
    /// waited for; a head sent slowly or not at all is cut off by the header-read timeout.
    #[tokio::test]
    async fn the_secret_is_checked_before_the_body_and_a_slow_head_is_cut_off() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let (_listener, router, _) = endpoint(&hook(8));
        let quick = server::Timeouts {
            header_read: Duration::from_millis(300),
            idle: Duration::from_secs(60),
        };
        let url = serve_within(router, quick).await;
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches("/tg/hook")
            .to_string();
        let mut tcp = tokio::net::TcpStream::connect(&addr)
            .await
            .expect("connect");
        let head = "POST /tg/hook HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\
                    x-telegram-bot-api-secret-token: wrong\r\n\r\n";
        tcp.write_all(head.as_bytes()).await.expect("write");
        let mut answer = [0u8; 12];
        let read = tokio::time::timeout(Duration::from_secs(3), tcp.read_exact(&mut answer));
        read.await
            .expect("answered without waiting for the body")
            .expect("read");
        assert_eq!(&answer, b"HTTP/1.1 401");

        let mut slow = tokio::net::TcpStream::connect(&addr)
            .await
            .expect("connect");
        slow.write_all(b"POST /tg/hook HTTP/1.1\r\nHo")
            .await
            .expect("write");
        let mut rest = Vec::new();
        let closed = tokio::time::timeout(Duration::from_secs(3), slow.read_to_end(&mut rest));
        closed.await.expect("closed by the server").ok();
        // One that sends nothing at all is closed as well.
        let mut silent = tokio::net::TcpStream::connect(&addr)
            .await
            .expect("connect");
        let closed = tokio::time::timeout(Duration::from_secs(3), silent.read_to_end(&mut rest));
        closed.await.expect("closed by the server").ok();
    }

    async fn post(url: &str, secret: Option<&str>, body: String) -> u16 {
        let mut req = reqwest::Client::new().post(url).body(body);
        if let Some(secret) = secret {
            req = req.header(SECRET_HEADER, secret);
        }
        req.send().await.expect("request").status().as_u16()
    }

    #[tokio::test]
    async fn a_full_queue_refuses_deliveries_until_it_drains() {
        let (mut listener, router, _) = endpoint(&hook(2));
        let url = serve(router).await;
        assert_eq!(post(&url, Some(SECRET), update(1)).await, 200);
        assert_eq!(post(&url, Some(SECRET), update(2)).await, 200);
        // Nobody has taken an update yet: the third waits at Telegram, not in memory.
        assert_eq!(post(&url, Some(SECRET), update(3)).await, 503);
        let mut stream = std::pin::pin!(listener.as_stream());
        let first = stream.next().await.expect("an update").expect("infallible");
        assert_eq!(first.id.0, 1);
        // One place is free again: Telegram's next try is taken.
        assert_eq!(post(&url, Some(SECRET), update(3)).await, 200);
        let ids: Vec<u32> = [stream.next().await, stream.next().await]
            .into_iter()
            .map(|u| u.expect("an update").expect("infallible").id.0)
            .collect();
        assert_eq!(ids, [2, 3]);
    }

    #[tokio::test]
    async fn only_telegram_with_the_secret_is_heard() {
        let (mut listener, router, _) = endpoint(&hook(8));
        let url = serve(router).await;
        assert_eq!(post(&url, None, update(1)).await, 401);
        assert_eq!(post(&url, Some("s3cret_+"), update(2)).await, 401);
        assert_eq!(post(&url, Some("s3cret"), update(3)).await, 401);
        // An update that can never parse is dropped (200), not sent again forever.
        assert_eq!(post(&url, Some(SECRET), "{\"nope\":1}".into()).await, 200);
        assert_eq!(post(&url, Some(SECRET), update(4)).await, 200);
        let taken = std::pin::pin!(listener.as_stream())
            .next()
            .await
            .expect("an update");
        assert_eq!(taken.expect("infallible").id.0, 4);
    }

    #[tokio::test]
    async fn a_stopping_process_refuses_updates_for_another_to_take() {
        let (mut listener, router, stopping) = endpoint(&hook(8));
        let url = serve(router).await;
        assert_eq!(post(&url, Some(SECRET), update(1)).await, 200);
        listener.stop_token().stop();
        stopping.await;
        assert_eq!(post(&url, Some(SECRET), update(2)).await, 503);
        // What was taken before the stop is still handed over.
        let taken = std::pin::pin!(listener.as_stream())
            .next()
            .await
            .expect("an update");
        assert_eq!(taken.expect("infallible").id.0, 1);
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abd", b"abc"));
        assert!(!same_secret(b"ab", b"abc"));
        assert!(!same_secret(b"", b"abc"));
    }
}
