//! Issue 49, finding 3: the server's timeouts and connection limits. A head sent halfway, or
//! nothing at all, no longer holds a connection; idle connections filling every place are
//! closed so that others get in; a trusted proxy's forwarding header names the client it
//! counts, anyone else's is ignored.

use super::{start_game, Site};
use std::time::Duration;
use toguz::platform::web::WebConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn quick(config: WebConfig) -> WebConfig {
    WebConfig {
        header_read_timeout_secs: 1,
        ..config
    }
}

/// Reads until the server closes the connection; how long that took.
async fn closed_within(tcp: &mut TcpStream, limit: Duration) -> Duration {
    let start = std::time::Instant::now();
    let mut rest = Vec::new();
    tokio::time::timeout(limit, tcp.read_to_end(&mut rest))
        .await
        .expect("the server closed the connection")
        .ok();
    start.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_and_silent_connections_are_closed_and_let_others_in() {
    let site = Site::start_with(quick(WebConfig {
        max_connections: 8,
        max_per_address: 8,
        ..WebConfig::default()
    }))
    .await;
    let mut held = Vec::new();
    for i in 0..8 {
        let mut tcp = TcpStream::connect(site.addr).await.unwrap();
        if i % 2 == 0 {
            tcp.write_all(b"GET / HTTP/1.1\r\nHost: a\r\nX-Slow: ")
                .await
                .unwrap();
        }
        held.push(tcp);
    }
    // Every place is taken; within the header-read timeout they are given back.
    let http = reqwest::Client::new();
    let answer = tokio::time::timeout(Duration::from_secs(5), http.get(site.url("/")).send())
        .await
        .expect("served once the idle connections were closed")
        .unwrap();
    assert_eq!(answer.status(), 200);
    for tcp in &mut held {
        let took = closed_within(tcp, Duration::from_secs(5)).await;
        assert!(took < Duration::from_secs(3), "{took:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_kept_alive_connection_is_closed_after_the_header_read_timeout() {
    let site = Site::start_with(quick(WebConfig::default())).await;
    let mut tcp = TcpStream::connect(site.addr).await.unwrap();
    tcp.write_all(b"GET /nothing HTTP/1.1\r\nHost: a\r\n\r\n")
        .await
        .unwrap();
    let mut head = [0u8; 12];
    tcp.read_exact(&mut head).await.unwrap();
    assert_eq!(&head, b"HTTP/1.1 404");
    let took = closed_within(&mut tcp, Duration::from_secs(5)).await;
    assert!(took < Duration::from_secs(3), "{took:?}");
}

/// Opens `/g/<key>/live` from `tcp` with `headers`; the answer's status line.
async fn open_live(site: &Site, path: &str, headers: &str) -> (TcpStream, String) {
    let mut tcp = TcpStream::connect(site.addr).await.unwrap();
    let request = format!("GET {path}/live HTTP/1.1\r\nHost: a\r\n{headers}\r\n");
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while !line.ends_with(b"\r\n") {
        tcp.read_exact(&mut byte).await.unwrap();
        line.push(byte[0]);
    }
    (tcp, String::from_utf8(line).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_proxys_clients_are_counted_by_the_address_it_forwards_for() {
    let site = Site::start_with(WebConfig {
        max_per_address: 1,
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..WebConfig::default()
    })
    .await;
    let (view, _) = start_game(&site.manager, ["Ali", "Bota"]).await;
    let path = site.page_of(&view.id).await;
    // The proxy's own connections are not one address's: two live pages at once.
    let (_a, first) = open_live(&site, &path, "X-Forwarded-For: 203.0.113.9\r\n").await;
    assert!(first.starts_with("HTTP/1.1 200"), "{first}");
    let (_b, other) = open_live(&site, &path, "Forwarded: for=\"[2001:db8::1]:80\"\r\n").await;
    assert!(other.starts_with("HTTP/1.1 200"), "{other}");
    // The same client again, or another address of its IPv6 /64: over its one place.
    let (_c, again) = open_live(&site, &path, "X-Forwarded-For: 203.0.113.9\r\n").await;
    assert!(again.starts_with("HTTP/1.1 429"), "{again}");
    let (_d, block) = open_live(&site, &path, "Forwarded: for=\"[2001:db8::2]\"\r\n").await;
    assert!(block.starts_with("HTTP/1.1 429"), "{block}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forwarding_header_from_anyone_else_changes_nothing() {
    let site = Site::start_with(WebConfig {
        max_per_address: 1,
        ..WebConfig::default()
    })
    .await;
    let (view, _) = start_game(&site.manager, ["Ali", "Bota"]).await;
    let path = site.page_of(&view.id).await;
    let (_a, first) = open_live(&site, &path, "X-Forwarded-For: 203.0.113.9\r\n").await;
    assert!(first.starts_with("HTTP/1.1 200"), "{first}");
    // A second connection from the same address is closed whatever it claims.
    let mut tcp = TcpStream::connect(site.addr).await.unwrap();
    let request = "GET / HTTP/1.1\r\nHost: a\r\nX-Forwarded-For: 198.51.100.1\r\n\r\n";
    let _ = tcp.write_all(request.as_bytes()).await;
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(3), tcp.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "closed at once");
    assert!(
        answer.is_empty(),
        "not served: {:?}",
        String::from_utf8_lossy(&answer)
    );
}
