//! The REST gate: a forwarder on 127.0.0.1 between serenity and Discord's REST API (or the
//! configured API proxy) that honours rate limits and retries failures.
//!
//! Why it exists: serenity sends requests through a proxy only with its own rate limiter
//! switched off (the limiter builds its requests without the proxy), and with the limiter off
//! it turns a 429 into an error without its `retry_after`. So with `proxy_url` set, serenity
//! talks to this gate, and the gate forwards each request upstream and:
//! - on 429 waits `retry_after` (body, else `Retry-After`) and sends again; a global 429
//!   pauses every request;
//! - on 500/502/503/504, a time-out or a refused connection, backs off (250 ms, 500 ms, ...)
//!   and sends again;
//! - after `max_retries` retries, hands the last answer (or a 504) to serenity, whose caller
//!   logs it. A failed edit never loses a move: the game is already stored, the event task
//!   tries the edit again later (events.rs), and `/board` re-posts.
//!
//! Retrying a POST whose answer was lost can repeat it; Discord answers a repeated interaction
//! callback with 40060, which is harmless.

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Mutex;
use tokio::time::Instant;

/// Waits longer than this are not worth holding a request for: the answer goes back as is.
const MAX_WAIT: Duration = Duration::from_secs(30);
/// Request headers passed upstream.
const FORWARDED_REQUEST: [&str; 4] = [
    "authorization",
    "content-type",
    "user-agent",
    "x-audit-log-reason",
];
/// Response headers passed back to serenity.
const FORWARDED_RESPONSE: [&str; 7] = [
    "content-type",
    "retry-after",
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "x-ratelimit-reset",
    "x-ratelimit-reset-after",
    "x-ratelimit-bucket",
];

/// Idle connections each HTTP client keeps open to one host, and for how long. Each kept
/// connection holds its read and write buffers, and without a cap a pool keeps as many as
/// the busiest moment ever needed: in the long soak (a channel under constant 429, 10%
/// failures) the connections between serenity and the gate only grew, 36 to 84 over seven
/// rounds; with the cap they stay between 16 and 41. Past the cap a connection is closed
/// once its request is done.
const POOL_MAX_IDLE: usize = 16;
const POOL_IDLE_TIMEOUT: Duration = Duration::from_secs(30);

/// A client builder whose connection pool is bounded (see [`POOL_MAX_IDLE`]).
pub(crate) fn bounded_pool(builder: reqwest::ClientBuilder) -> reqwest::ClientBuilder {
    builder
        .pool_max_idle_per_host(POOL_MAX_IDLE)
        .pool_idle_timeout(POOL_IDLE_TIMEOUT)
}

struct Gate {
    upstream: String,
    client: reqwest::Client,
    max_retries: u32,
    /// Until when a global rate limit holds every request.
    global_pause: Mutex<Option<Instant>>,
}

/// A running gate.
pub struct RestGate {
    addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl RestGate {
    /// Starts forwarding to `upstream` (e.g. `https://discord.com` or a proxy's base URL).
    pub async fn start(
        upstream: &str,
        timeout: Duration,
        max_retries: u32,
    ) -> std::io::Result<RestGate> {
        let client = bounded_pool(reqwest::Client::builder())
            .timeout(timeout)
            .build()
            .map_err(std::io::Error::other)?;
        let gate = Arc::new(Gate {
            upstream: upstream.trim_end_matches('/').to_string(),
            client,
            max_retries,
            global_pause: Mutex::new(None),
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let app = Router::new().fallback(forward).with_state(gate);
        let task = tokio::spawn(async move {
            if let Err(error) = axum::serve(listener, app).await {
                tracing::error!(%error, "the Discord REST gate stopped");
            }
        });
        Ok(RestGate { addr, task })
    }

    /// The base URL serenity should use as its proxy.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

impl Drop for RestGate {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn forward(State(gate): State<Arc<Gate>>, req: Request) -> Response {
    let method = req.method().clone();
    let path = req
        .uri()
        .path_and_query()
        .map_or_else(|| req.uri().path().to_string(), |p| p.as_str().to_string());
    let headers = pick(req.headers(), &FORWARDED_REQUEST);
    let body = match axum::body::to_bytes(req.into_body(), 64 << 20).await {
        Ok(b) => b,
        Err(_) => return StatusCode::PAYLOAD_TOO_LARGE.into_response(),
    };
    let url = format!("{}{}", gate.upstream, path);
    let route = route_of(&path);
    let mut attempt = 0;
    loop {
        gate.wait_global().await;
        let sent = gate
            .client
            .request(method.clone(), &url)
            .headers(headers.clone())
            .body(body.clone())
            .send()
            .await;
        let retries_left = attempt < gate.max_retries;
        attempt += 1;
        match sent {
            Ok(resp) if resp.status() == StatusCode::TOO_MANY_REQUESTS => {
                let status = resp.status();
                let resp_headers = pick(resp.headers(), &FORWARDED_RESPONSE);
                let bytes = resp.bytes().await.unwrap_or_default();
                let (wait, global) = retry_after(&resp_headers, &bytes);
                tracing::warn!(%route, wait_ms = wait.as_millis() as u64, global, attempt, "Discord rate limit");
                if !retries_left || wait > MAX_WAIT {
                    return respond(status, resp_headers, bytes);
                }
                if global {
                    gate.pause_all(wait).await;
                } else {
                    tokio::time::sleep(wait).await;
                }
            }
            Ok(resp) if is_transient(resp.status()) && retries_left => {
                tracing::warn!(%route, status = resp.status().as_u16(), attempt, "Discord server error; retrying");
                tokio::time::sleep(backoff(attempt)).await;
            }
            Ok(resp) => {
                let status = resp.status();
                let resp_headers = pick(resp.headers(), &FORWARDED_RESPONSE);
                let bytes = resp.bytes().await.unwrap_or_default();
                return respond(status, resp_headers, bytes);
            }
            Err(error) if retries_left => {
                tracing::warn!(%route, error = %without_url(&error), attempt, "Discord request failed; retrying");
                tokio::time::sleep(backoff(attempt)).await;
            }
            Err(error) => {
                tracing::error!(%route, error = %without_url(&error), attempt, "Discord request failed");
                return StatusCode::GATEWAY_TIMEOUT.into_response();
            }
        }
    }
}

impl Gate {
    async fn wait_global(&self) {
        let until = *self.global_pause.lock().await;
        if let Some(until) = until {
            tokio::time::sleep_until(until).await;
        }
    }

    async fn pause_all(&self, wait: Duration) {
        let until = Instant::now() + wait;
        {
            let mut pause = self.global_pause.lock().await;
            if pause.is_none_or(|p| p < until) {
                *pause = Some(until);
            }
        }
        tokio::time::sleep_until(until).await;
    }
}

fn is_transient(status: StatusCode) -> bool {
    matches!(status.as_u16(), 500 | 502 | 503 | 504)
}

fn backoff(attempt: u32) -> Duration {
    Duration::from_millis(250u64 << attempt.saturating_sub(1).min(5))
}

/// The wait a 429 asks for, and whether it is global. The body's `retry_after` (seconds,
/// fractional) is the precise one; `Retry-After` (whole seconds) is the fallback.
pub fn retry_after(headers: &HeaderMap, body: &[u8]) -> (Duration, bool) {
    let json: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
    let global = json["global"].as_bool().unwrap_or(false)
        || headers
            .get("x-ratelimit-global")
            .is_some_and(|v| v.as_bytes() == b"true");
    let secs = json["retry_after"]
        .as_f64()
        .or_else(|| {
            headers
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<f64>().ok())
        })
        .filter(|s| s.is_finite() && *s >= 0.0)
        .unwrap_or(1.0);
    (Duration::from_secs_f64(secs.min(3600.0)), global)
}

fn pick(headers: &HeaderMap, names: &[&'static str]) -> HeaderMap {
    let mut out = HeaderMap::new();
    for name in names {
        if let Some(v) = headers.get(*name) {
            out.insert(HeaderName::from_static(name), v.clone());
        }
    }
    out
}

fn respond(status: StatusCode, headers: HeaderMap, body: Bytes) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    *response.headers_mut() = headers;
    response
}

/// The path without ids and tokens, for logs (interaction and webhook tokens are secrets).
fn route_of(path: &str) -> String {
    let path = path.split('?').next().unwrap_or_default();
    path.split('/')
        .map(|seg| {
            let is_id = !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit());
            if is_id {
                ":id"
            } else if seg.len() > 40 {
                ":token"
            } else {
                seg
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A reqwest error without its URL (the URL of a webhook call carries a token).
fn without_url(error: &reqwest::Error) -> String {
    let kind = if error.is_timeout() {
        "timed out"
    } else if error.is_connect() {
        "connection failed"
    } else {
        "request failed"
    };
    kind.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_prefers_the_precise_body_value() {
        let mut h = HeaderMap::new();
        h.insert("retry-after", "2".parse().unwrap());
        let body =
            br#"{"message": "You are being rate limited.", "retry_after": 0.35, "global": false}"#;
        assert_eq!(retry_after(&h, body), (Duration::from_millis(350), false));
        assert_eq!(
            retry_after(&h, b"not json"),
            (Duration::from_secs(2), false)
        );
        let global = br#"{"retry_after": 1.5, "global": true}"#;
        assert_eq!(
            retry_after(&HeaderMap::new(), global),
            (Duration::from_millis(1500), true)
        );
        assert_eq!(
            retry_after(&HeaderMap::new(), b"{}"),
            (Duration::from_secs(1), false)
        );
    }

    #[test]
    fn logged_routes_hide_ids_and_tokens() {
        let token = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OTA6c2VjcmV0LXRva2Vu";
        let route = route_of(&format!(
            "/api/v10/webhooks/1100/{token}/messages/@original?wait=true"
        ));
        assert_eq!(route, "/api/v10/webhooks/:id/:token/messages/@original");
    }

    #[test]
    fn backoff_grows_and_stays_bounded() {
        assert_eq!(backoff(1), Duration::from_millis(250));
        assert_eq!(backoff(2), Duration::from_millis(500));
        assert!(backoff(30) <= Duration::from_secs(8));
    }
}
